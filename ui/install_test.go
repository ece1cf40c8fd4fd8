package ui

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"xcvr/internal/inputs"
	"xcvr/resolver"
)

// TestVersionRowShowsTheInstall: started from --install, the version row holds
// the install's version with origin "install version.py:N" and the chain is
// resolved against it; stepping the version with → leaves the install for
// xcvr's rules of the release chosen.
func TestVersionRowShowsTheInstall(t *testing.T) {
	s := testSpec()
	s.Install = &resolver.Install{Version: "1.5.0rc1.dev2026112500", VersionEvidence: "tensorrt_llm/version.py:2",
		Era: 2, EraEvidence: "tensorrt_llm/llmapi/llm_utils.py:6"}
	s.Version = inputs.Value{Raw: s.Install.Version, Origin: resolver.Origin{Kind: resolver.OriginInstall, Detail: s.Install.VersionEvidence}}
	m := New(Options{Spec: s, Width: 120, Height: 40})
	if v := m.trace.Inputs.Version; v.Install == nil || v.Era != 2 || v.Name != "1.5.0rc1.dev2026112500" {
		t.Fatalf("version %+v", v)
	}
	view := ansi.Strip(m.View().Content)
	if !strings.Contains(view, "version    1.5.0rc1.dev20261125") || !strings.Contains(view, "install version.py:2") {
		t.Fatalf("version row:\n%s", view)
	}
	if st, _ := m.trace.Step(resolver.StepVersion); st.Confidence != resolver.VerifiedInstall {
		t.Errorf("version step %+v", st)
	}
	m = keys(t, m, "l") // the next value of the version row
	if v := m.trace.Inputs.Version; v.Install != nil {
		t.Fatalf("still on the install after choosing %s", v.Name)
	}
}

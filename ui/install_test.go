package ui

import (
	"slices"
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
		Era: 2, EraEvidence: "tensorrt_llm/llmapi/llm_utils.py:6", Models: gptOssRegistered()}
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
	// A nightly newer than every release is the last choice: ← leaves the
	// install for xcvr's rules of the newest release, → comes back to it.
	newest := resolver.KnownVersions()[len(resolver.KnownVersions())-1].Name
	m = keys(t, m, "h")
	if v := m.trace.Inputs.Version; v.Install != nil || v.Name != newest {
		t.Fatalf("after ←: %s (install %v)", v.Name, v.Install != nil)
	}
	m = keys(t, m, "l")
	if v := m.trace.Inputs.Version; v.Install == nil || v.Name != "1.5.0rc1.dev2026112500" {
		t.Fatalf("after →: %s (install %v)", v.Name, v.Install != nil)
	}
	view = ansi.Strip(m.View().Content)
	if !strings.Contains(view, "install version.py:2") {
		t.Errorf("back on the install, the row does not say so:\n%s", view)
	}
	if st, _ := m.trace.Step(resolver.StepVersion); st.Confidence != resolver.VerifiedInstall {
		t.Errorf("version step after coming back %+v", st)
	}
}

// TestVersionRowCyclesToAKnownInstall: an install of a release xcvr knows sits
// right after that release on the version row, under its own name, so both
// xcvr's model of the release and the install's code can be compared in place.
func TestVersionRowCyclesToAKnownInstall(t *testing.T) {
	s := testSpec()
	s.Install = &resolver.Install{Version: "1.3.0rc22", VersionEvidence: "tensorrt_llm/version.py:2",
		Era: 2, EraEvidence: "tensorrt_llm/llmapi/llm_utils.py:6", Models: gptOssRegistered()}
	s.Version = inputs.Value{Raw: "1.3.0rc22", Origin: resolver.Origin{Kind: resolver.OriginInstall, Detail: "tensorrt_llm/version.py:2"}}
	m := New(Options{Spec: s, Width: 120, Height: 40})
	ch := m.choices(inputRow{kind: rowVersion})
	i := slices.Index(ch, "install 1.3.0rc22")
	if i < 1 || ch[i-1] != "1.3.0rc22" || strings.Count(strings.Join(ch, ","), "install ") != 1 {
		t.Fatalf("choices %v", ch)
	}
	if m.trace.Inputs.Version.Era != 2 {
		t.Fatalf("era %d", m.trace.Inputs.Version.Era)
	}
	m = keys(t, m, "h") // xcvr's own 1.3.0rc22: era 1
	if v := m.trace.Inputs.Version; v.Install != nil || v.Name != "1.3.0rc22" || v.Era != 1 {
		t.Fatalf("after ←: %s era %d (install %v)", v.Name, v.Era, v.Install != nil)
	}
	m = keys(t, m, "l") // and the install again: era 2
	if v := m.trace.Inputs.Version; v.Install == nil || v.Era != 2 {
		t.Fatalf("after →: %s era %d (install %v)", v.Name, v.Era, v.Install != nil)
	}
	m = keys(t, m, "l") // on to the next release
	if v := m.trace.Inputs.Version; v.Install != nil || v.Name != ch[i+1] {
		t.Fatalf("after → →: %s (install %v), want %s", v.Name, v.Install != nil, ch[i+1])
	}
}

// gptOssRegistered is an install's registration of the test spec's model: an
// install registering nothing cannot build it (the explorer then opens on that
// failure).
func gptOssRegistered() map[string]resolver.InstallModel {
	return map[string]resolver.InstallModel{"GptOssForCausalLM": {Class: "GptOssForCausalLM",
		Evidence: "tensorrt_llm/_torch/models/modeling_gpt_oss.py:10", Preference: resolver.Str("PYTHON")}}
}

package ui

import (
	"bytes"
	"strconv"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/colorprofile"
	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/exp/golden"
	"github.com/charmbracelet/x/exp/teatest/v2"

	"xcvr/internal/inputs"
	"xcvr/resolver"
)

// rolesSpecs are the two roles of deploy/testdata/disagg-mismatch.yaml as the CLI
// reads them: the same file, backend NIXL on different lines, and the generation
// role pinned to CPP.
func rolesSpecs() (ctx, gen inputs.Spec) {
	file := func(line int) resolver.Origin {
		return resolver.Origin{Kind: resolver.OriginFile, Detail: "disagg.yaml:" + strconv.Itoa(line)}
	}
	ctx = testSpec()
	ctx.Backend = inputs.Value{Raw: "NIXL", Origin: file(11)}
	gen = testSpec()
	gen.Backend = inputs.Value{Raw: "NIXL", Origin: file(16)}
	gen.Runtime = inputs.Value{Raw: "CPP", Origin: file(17)}
	return ctx, gen
}

func newRoles(w, h int) Model {
	ctx, gen := rolesSpecs()
	return New(Options{Spec: ctx, RoleName: "context", Width: w, Height: h,
		Roles: []Role{{Name: "generation", Source: "disagg.yaml", Spec: gen}}})
}

// The both-roles view at the three widths: the chains side by side under
// "context" and "generation"; after R, the inputs edit the generation role.
func TestGoldenRoles(t *testing.T) {
	scenarios := []struct {
		name string
		keys []string
	}{
		{"start", nil},
		// Chain focused, on the runtime step, enter: its full reasons are spelt out.
		{"chain-runtime", []string{"tab", "down", "down", "down", "enter"}},
		// R, then the generation role's runtime CPP -> PYTHON: the roles agree.
		{"gen-edited", append(append([]string{"R"}, down(3)...), "l")},
	}
	for _, sc := range scenarios {
		for _, sz := range [][2]int{{64, 20}, {80, 24}, {120, 40}} {
			t.Run(sc.name+"/"+strconv.Itoa(sz[0])+"x"+strconv.Itoa(sz[1]), func(t *testing.T) {
				m := keys(t, newRoles(sz[0], sz[1]), sc.keys...)
				nm, _ := m.Update(flashDoneMsg{m.flashGen})
				m = nm.(Model)
				nm, _ = m.Update(statusDoneMsg{m.statusGen})
				m = nm.(Model)
				f := m.frame()
				checkFits(t, f, sz[0], sz[1])
				golden.RequireEqual(t, []byte(ansi.Strip(f)))
			})
		}
	}
}

// Only steps that decide something else are marked: backend NIXL from line 11
// and from line 16 of the same file is the same decision.
func TestRolesMarkDecisionsNotOrigins(t *testing.T) {
	m := newRoles(120, 40)
	ctx, gen := m.roleTraces()
	d := rolesDiff(ctx, gen)
	changed := map[string]bool{}
	for _, id := range d.ChangedSteps {
		changed[id] = true
	}
	if changed[resolver.StepDisagg] || changed[resolver.StepBackend] {
		t.Errorf("steps differing only in the origin line are marked: %v", d.ChangedSteps)
	}
	if !changed[resolver.StepRuntime] || !d.OutcomeChanged {
		t.Errorf("the runtime step and the outcome differ (PYTHON vs CPP) but are not marked: %v %v", d.ChangedSteps, d.OutcomeChanged)
	}
}

// R swaps the role the inputs edit; each role keeps its own edits, and r resets
// only the role being edited.
func TestRoleSwitchKeepsEachRolesEdits(t *testing.T) {
	m := newRoles(80, 24)
	if m.roleName != "context" || m.trace.Result.Outcome != resolver.OutcomePython {
		t.Fatalf("start: editing %s, outcome %s", m.roleName, m.trace.Result.Outcome)
	}
	m = keys(t, m, "R")
	if m.roleName != "generation" || m.trace.Result.Outcome != resolver.OutcomeCPP {
		t.Fatalf("after R: editing %s, outcome %s", m.roleName, m.trace.Result.Outcome)
	}
	m = keys(t, m, "down", "down", "down", "l") // generation runtime CPP -> PYTHON
	if m.spec.Runtime.Raw != "PYTHON" {
		t.Fatalf("generation runtime %q", m.spec.Runtime.Raw)
	}
	m = keys(t, m, "R")
	if m.roleName != "context" || m.spec.Runtime.Raw != testSpec().Runtime.Raw {
		t.Fatalf("back on context: editing %s, runtime %q", m.roleName, m.spec.Runtime.Raw)
	}
	if _, gen := m.roleTraces(); gen.Inputs.Runtime.Value.S != "PYTHON" {
		t.Errorf("the generation role lost its edit: %v", gen.Inputs.Runtime.Value)
	}
	plain := ansi.Strip(m.frame())
	for _, want := range []string{"Inputs · context role · R edits generation", "context ✎ inputs", "same as context", "R edit generation"} {
		if !strings.Contains(plain, want) {
			t.Errorf("frame lacks %q:\n%s", want, plain)
		}
	}
}

// Without a second role nothing changes: no R in the bar, the plain chain.
func TestNoRolesNoRoleKey(t *testing.T) {
	m := newAt(80, 24)
	plain := ansi.Strip(m.frame())
	if strings.Contains(plain, "R edit") || strings.Contains(plain, "Roles ·") {
		t.Errorf("single-worker frame shows the roles view:\n%s", plain)
	}
	m2 := keys(t, m, "R")
	if m2.spec.Model != m.spec.Model || m2.roleName != m.roleName || m2.other != nil {
		t.Error("R without a second role changed the inputs")
	}
	if !strings.Contains(m2.status, "needs both roles of a --disagg file") || !statusShown(m2) {
		t.Errorf("R without a second role says %q", m2.status)
	}
}

// Every size from the minimum up fits with both roles, in every view state.
func TestRolesEveryLineFits(t *testing.T) {
	states := [][]string{nil, {"tab"}, {"tab", "down", "down", "down"}, {"R"}, {"v"}, {"?"}, {"R", "tab", "enter"}}
	for w := minWidth; w <= 140; w += 7 {
		for _, h := range []int{minHeight, 20, 24, 40} {
			for _, st := range states {
				m := keys(t, newRoles(w, h), st...)
				checkFits(t, m.frame(), w, h)
			}
		}
	}
}

// A real program with both roles: R moves the inputs to the generation role,
// an edit there re-resolves it, and the screen says the roles now agree.
func TestFlowRoles(t *testing.T) {
	traces := make(chan resolver.Trace, 64)
	ctx, gen := rolesSpecs()
	m := New(Options{Spec: ctx, RoleName: "context", observe: func(tr resolver.Trace) { traces <- tr },
		Roles: []Role{{Name: "generation", Source: "disagg.yaml", Spec: gen}}})
	<-traces
	tm := teatest.NewTestModel(t, m, teatest.WithInitialTermSize(80, 24),
		teatest.WithProgramOptions(tea.WithColorProfile(colorprofile.Ascii)))
	wait := func(s string) {
		t.Helper()
		teatest.WaitFor(t, tm.Output(), func(b []byte) bool { return bytes.Contains(b, []byte(s)) },
			teatest.WithDuration(5*time.Second), teatest.WithCheckInterval(10*time.Millisecond))
	}
	wait("✗ differs from context")
	next := func(what string) resolver.Trace {
		t.Helper()
		select {
		case tr := <-traces:
			return tr
		case <-time.After(5 * time.Second):
			t.Fatalf("no resolution after %s", what)
		}
		return resolver.Trace{}
	}
	tm.Send(press("R"))
	if tr := next("R"); tr.Result.Outcome != resolver.OutcomeCPP {
		t.Fatalf("after R the explored trace is %s, want the generation role's CPP", tr.Result.Outcome)
	}
	wait("R edits context")
	for _, k := range []string{"down", "down", "down", "right"} {
		tm.Send(press(k))
	}
	if tr := next("generation runtime"); tr.Result.Outcome != resolver.OutcomePython {
		t.Fatalf("generation runtime PYTHON: outcome %s", tr.Result.Outcome)
	}
	wait("same as generation")
	tm.Send(press("q"))
	fm := tm.FinalModel(t, teatest.WithFinalTimeout(5*time.Second)).(Model)
	if fm.roleName != "generation" {
		t.Errorf("final role %s", fm.roleName)
	}
}

// Item 5: x with both roles open reproduces both: each role's edits go into a
// command of its own (--role NAME), because explain's flags apply to both
// roles; the notice says so. Without edits, one command covers both roles.
func TestCopyCommandBothRoles(t *testing.T) {
	m := newRoles(120, 40)
	m.command = []string{"--disagg", "disagg.yaml"}
	if got := m.commandLine(); got != "xcvr explain --disagg disagg.yaml --clean-env" {
		t.Errorf("unedited roles: %q", got)
	}
	// The context role's backend -> UCX (typed), then R and the generation
	// role's runtime CPP -> PYTHON (→ on its row).
	m = keys(t, m, append(append([]string{"down", "down", "e", "ctrl+u"}, typed("UCX")...), "enter")...)
	m = keys(t, m, "R", "tab")
	if m.focus != paneInputs {
		m = keys(t, m, "tab")
	}
	m = keys(t, m, "up", "up", "up", "up", "up", "up", "up", "up", "down", "down", "down", "l")
	if m.roleName != roleGeneration || m.spec.Runtime.Raw == "CPP" {
		t.Fatalf("setup: role %s runtime %q", m.roleName, m.spec.Runtime.Raw)
	}
	nm, cmd := m.Update(press("x"))
	m = nm.(Model)
	clip := clipboardOf(cmd)
	parts := strings.Split(clip, "; ")
	if len(parts) != 2 {
		t.Fatalf("want one command per role, got %q", clip)
	}
	ctxCmd, genCmd := parts[0], parts[1]
	for _, c := range []struct{ cmd, role, has, hasNot string }{
		{ctxCmd, "context", "--backend UCX", "--runtime"},
		{genCmd, "generation", "--runtime " + m.spec.Runtime.Raw, "--backend UCX"},
	} {
		if !strings.HasPrefix(c.cmd, "xcvr explain --disagg disagg.yaml ") || !strings.Contains(c.cmd, "--role "+c.role) {
			t.Errorf("%s command %q lacks the file or --role", c.role, c.cmd)
		}
		if !strings.Contains(c.cmd, c.has) || strings.Contains(c.cmd, c.hasNot) {
			t.Errorf("%s command %q: want %q and not %q", c.role, c.cmd, c.has, c.hasNot)
		}
	}
	if !strings.Contains(m.notice, "one command per role") {
		t.Errorf("notice %q does not say why", m.notice)
	}
}

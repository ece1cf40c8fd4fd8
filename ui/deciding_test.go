package ui

import (
	"regexp"
	"strconv"
	"strings"
	"testing"

	"xcvr/internal/inputs"
	"xcvr/internal/report"
	"xcvr/resolver"
)

// cppFallbackSpec is 1.3.0rc22 with TRTLLM_USE_UCX_KVCACHE=1: GPT-OSS prefers
// PYTHON, DEFAULT becomes UCX, and 'auto' falls back to C++ at step 10.
func cppFallbackSpec() inputs.Spec {
	s := testSpec()
	s.Version = inputs.Value{Raw: "1.3.0rc22", Origin: resolver.Origin{Kind: resolver.OriginFlag, Detail: "--trtllm"}}
	s.Env[resolver.EnvUseUCX] = resolver.EnvVar{Value: "1", Origin: resolver.Origin{Kind: resolver.OriginFlag, Detail: "--env"}}
	return s
}

// Item 1: "Why C++?" is the first press of n, not the eighth, and the outcome
// names the step that decided it.
func TestNVisitsTheDecidingStepsFirst(t *testing.T) {
	for _, sz := range operatorSizes {
		m := New(Options{Spec: cppFallbackSpec(), Width: sz[0], Height: sz[1]})
		if m.trace.Result.Outcome != resolver.OutcomeCPP {
			t.Fatalf("outcome %s, want CPP", m.trace.Result.Outcome)
		}
		m = keys(t, m, "n")
		if got := m.trace.Steps[m.step]; got.ID != resolver.StepAuto || got.Verdict != resolver.Fallback {
			t.Fatalf("%dx%d: first n on step %d %s (%s), want the ↩ 'auto' fallback", sz[0], sz[1], m.step+1, got.ID, got.Verdict)
		}
		f := plainFrame(m)
		num := strconv.Itoa(m.step+1) + " ↩ fallback"
		if !strings.Contains(f, num) {
			t.Errorf("%dx%d: the fallback step is not on screen after n:\n%s", sz[0], sz[1], f)
		}
		if !strings.Contains(f, "decided at step "+strconv.Itoa(m.step+1)) {
			t.Errorf("%dx%d: the outcome does not name its deciding step:\n%s", sz[0], sz[1], f)
		}
		if !strings.Contains(f, "decided the outcome") {
			t.Errorf("%dx%d: the status does not say the step decided the outcome:\n%s", sz[0], sz[1], f)
		}
	}
	// The key steps come first, then the other applied ones, then it wraps.
	m := New(Options{Spec: cppFallbackSpec(), Width: 120, Height: 40})
	order, key := stepOrder(&m.trace)
	if key < 1 || key > 3 {
		t.Fatalf("%d key steps, want 1 to 3 (%v)", key, order)
	}
	seen := map[int]bool{}
	for range order {
		m = keys(t, m, "n")
		if seen[m.step] {
			t.Fatalf("n came back to step %d before visiting every deciding step", m.step+1)
		}
		seen[m.step] = true
		if v := m.trace.Steps[m.step].Verdict; v == resolver.Skipped || v == resolver.Info {
			t.Errorf("n stopped on a %s step", v)
		}
	}
	if m = keys(t, m, "n"); m.step != order[0] {
		t.Errorf("n past the last step went to %d, want to wrap to %d", m.step+1, order[0]+1)
	}
	if m = keys(t, m, "N"); m.step != order[len(order)-1] {
		t.Errorf("N from the first went to %d, want %d", m.step+1, order[len(order)-1]+1)
	}
}

// A failure opens on its ✗ step; the first n goes on to the other steps that
// explain it (1.4 with UCX: the ↩ KV-cache manager fallback), not to the first
// applied step.
func TestNFromAFailureVisitsTheOtherKeySteps(t *testing.T) {
	s := testSpec()
	s.Backend = inputs.Value{Raw: "UCX", Origin: explorerOrigin}
	m := New(Options{Spec: s, Width: 80, Height: 24})
	if got := m.trace.Steps[m.step]; got.Verdict != resolver.Error {
		t.Fatalf("opened on step %d %s (%s), want the ✗ step", m.step+1, got.ID, got.Verdict)
	}
	m = keys(t, m, "n")
	if v := m.trace.Steps[m.step].Verdict; v != resolver.Fallback {
		t.Errorf("first n from the ✗ step went to step %d (%s), want the ↩ fallback", m.step+1, v)
	}
}

// Every outcome names its deciding step: a failure the step that raised, a
// disabled one the disaggregation step, a transceiver the step that fixed its
// runtime.
func TestEveryOutcomeNamesItsDecidingStep(t *testing.T) {
	for _, tc := range []struct {
		name    string
		edit    func(*inputs.Spec)
		outcome resolver.Outcome
		step    string
		verb    string
	}{
		{"python", func(*inputs.Spec) {}, resolver.OutcomePython, resolver.StepRuntime, "decided at step "},
		{"cpp", func(s *inputs.Spec) { *s = cppFallbackSpec() }, resolver.OutcomeCPP, resolver.StepAuto, "decided at step "},
		{"off", func(s *inputs.Spec) { s.Backend = inputs.Value{Raw: "none", Origin: explorerOrigin} }, resolver.OutcomeDisabled, resolver.StepDisagg, "decided at step "},
		{"error", func(s *inputs.Spec) { s.Backend = inputs.Value{Raw: "UCX", Origin: explorerOrigin} }, resolver.OutcomeError, resolver.StepPythonNIXL, "raised at step "},
	} {
		s := testSpec()
		tc.edit(&s)
		m := New(Options{Spec: s, Width: 120, Height: 40})
		if m.trace.Result.Outcome != tc.outcome {
			t.Fatalf("%s: outcome %s, want %s", tc.name, m.trace.Result.Outcome, tc.outcome)
		}
		i := report.DecidingStep(&m.trace)
		if i < 0 || m.trace.Steps[i].ID != tc.step {
			t.Fatalf("%s: deciding step %d, want %s", tc.name, i, tc.step)
		}
		want := tc.verb + strconv.Itoa(i+1) + " (" + m.trace.Steps[i].Title + ")"
		if f := plainFrame(m); !strings.Contains(f, want) {
			t.Errorf("%s: the outcome lacks %q:\n%s", tc.name, want, f)
		}
		// At every size, even where a long exception pushes the line that
		// names the step under the cut (64x20), the frame names it.
		for _, sz := range operatorSizes {
			m := New(Options{Spec: s, Width: sz[0], Height: sz[1]})
			if f := plainFrame(m); !strings.Contains(f, tc.verb+strconv.Itoa(i+1)) {
				t.Errorf("%s %dx%d: the outcome lacks %q:\n%s", tc.name, sz[0], sz[1], tc.verb+strconv.Itoa(i+1), f)
			}
		}
	}
}

// Item 2: a failure opens on its ✗ step at every size — after an edit (the
// selection was elsewhere), from a matrix cell, and from the start (a file).
func TestFailureOpensOnItsErrorStep(t *testing.T) {
	onScreen := func(t *testing.T, how string, m Model, sz [2]int) {
		t.Helper()
		fail := report.DecidingStep(&m.trace)
		if m.trace.Result.Outcome != resolver.OutcomeError || fail < 0 {
			t.Fatalf("%s %dx%d: outcome %s, want ERROR", how, sz[0], sz[1], m.trace.Result.Outcome)
		}
		if m.selectedID() != m.trace.Steps[fail].ID {
			t.Fatalf("%s %dx%d: selected %q, want the failing %q", how, sz[0], sz[1], m.selectedID(), m.trace.Steps[fail].ID)
		}
		f := plainFrame(m)
		if !regexp.MustCompile(`›[ *]` + strconv.Itoa(fail+1) + ` ✗ error`).MatchString(f) {
			t.Errorf("%s %dx%d: the ✗ step is not on screen, selected:\n%s", how, sz[0], sz[1], f)
		}
	}
	for _, sz := range operatorSizes {
		// After an edit: the chain's selection is on step 1, the inputs focused;
		// UCX typed into the backend row fails in 1.4.
		m := keys(t, newAt(sz[0], sz[1]), "down", "down", "e", "ctrl+u", "U", "C", "X", "enter")
		if m.rows[m.row].kind != rowBackend {
			t.Fatalf("row %d is not the backend", m.row)
		}
		onScreen(t, "edit", m, sz)
		if m.focus != paneInputs {
			t.Errorf("edit %dx%d: the edit took the focus from the inputs", sz[0], sz[1])
		}
		// From the start (a file or flag that fails).
		s := testSpec()
		s.Backend = inputs.Value{Raw: "UCX", Origin: resolver.Origin{Kind: resolver.OriginFile, Detail: "gen.yaml:8"}}
		m = New(Options{Spec: s, Width: sz[0], Height: sz[1]})
		onScreen(t, "start", m, sz)
		if m.focus != paneChain {
			t.Errorf("start %dx%d: the chain is not focused", sz[0], sz[1])
		}
		// From a matrix cell that fails: find one, open it.
		m = keys(t, newAt(sz[0], sz[1]), "m")
		found := false
		for r := 0; r < len(m.mat.m.RowKeys) && !found; r++ {
			for c := 0; c < len(m.mat.m.ColKeys); c++ {
				if m.mat.m.At(r, c).Outcome == resolver.OutcomeError {
					m.mat.r, m.mat.c, found = r, c, true
					break
				}
			}
		}
		if !found {
			t.Fatal("no failing cell in the matrix")
		}
		m = keys(t, m, "enter")
		onScreen(t, "matrix", m, sz)
	}
}

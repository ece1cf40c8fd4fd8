package ui

import (
	"bytes"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/colorprofile"
	"github.com/charmbracelet/x/exp/teatest/v2"

	"xcvr/resolver"
)

// flow runs the explorer as a real Bubble Tea program on in-memory I/O with a
// fixed colour profile, and hands every new trace to the test through a channel,
// so each step of a flow can be checked, not just the end.
type flow struct {
	t      *testing.T
	tm     *teatest.TestModel
	traces chan resolver.Trace
}

func startFlow(t *testing.T) *flow {
	t.Helper()
	f := &flow{t: t, traces: make(chan resolver.Trace, 64)}
	m := New(Options{Spec: testSpec(), observe: func(tr resolver.Trace) { f.traces <- tr }})
	<-f.traces // the starting resolution
	f.tm = teatest.NewTestModel(t, m,
		teatest.WithInitialTermSize(100, 30),
		teatest.WithProgramOptions(tea.WithColorProfile(colorprofile.Ascii)))
	// The first frame is drawn whole, so its text can be matched in the output.
	teatest.WaitFor(t, f.tm.Output(), func(b []byte) bool {
		return bytes.Contains(b, []byte("Python transceiver (KvCacheTransceiverV2)"))
	}, teatest.WithDuration(5*time.Second), teatest.WithCheckInterval(10*time.Millisecond))
	return f
}

func (f *flow) keys(names ...string) {
	for _, k := range names {
		f.tm.Send(press(k))
	}
}

// next waits for the next resolution.
func (f *flow) next(what string) resolver.Trace {
	f.t.Helper()
	select {
	case tr := <-f.traces:
		return tr
	case <-time.After(5 * time.Second):
		f.t.Fatalf("no re-resolution after %s", what)
	}
	return resolver.Trace{}
}

// quit presses q and returns the final model; teatest fails the test if the
// program does not end.
func (f *flow) quit() Model {
	f.keys("q")
	return f.tm.FinalModel(f.t, teatest.WithFinalTimeout(5*time.Second)).(Model)
}

func stepReason(t *testing.T, tr resolver.Trace, id string) string {
	t.Helper()
	s, ok := tr.Step(id)
	if !ok {
		t.Fatalf("trace has no step %q", id)
	}
	return s.Reason
}

// Changing the backend changes the outcome, and the final screen says so.
func TestFlowBackendChangesOutcome(t *testing.T) {
	f := startFlow(t)
	f.keys("down", "down", "left") // backend DEFAULT -> none
	tr := f.next("backend none")
	if tr.Result.Outcome != resolver.OutcomeDisabled {
		t.Fatalf("backend none: outcome %s, want %s", tr.Result.Outcome, resolver.OutcomeDisabled)
	}
	f.keys("right", "right", "right") // none -> DEFAULT -> NIXL -> UCX
	f.next("DEFAULT")
	f.next("NIXL")
	tr = f.next("UCX")
	if tr.Result.Outcome != resolver.OutcomeError || !strings.Contains(tr.Result.Error, "got UCX") {
		t.Fatalf("backend UCX with the 1.4 default runtime: outcome %s %q, want a start-up failure naming UCX",
			tr.Result.Outcome, tr.Result.Error)
	}
	m := f.quit()
	if got := m.View().Content; !strings.Contains(got, "Start-up fails: ValueError") {
		t.Errorf("final screen lacks the failure:\n%s", got)
	}
}

// TRTLLM_USE_UCX_KVCACHE=1 moves a DEFAULT backend to UCX; 'true' does not count,
// so the backend step goes back to the NIXL default; '1' again moves it again.
func TestFlowUCXOneVersusTrue(t *testing.T) {
	f := startFlow(t)
	before := stepReason(t, f.tmTraceNow(), resolver.StepBackend)
	f.keys(down(9)...) // past the seven input rows and the KV-manager row to UCX
	f.keys("space")    // unset -> '1'
	one := f.next("UCX=1")
	if r := stepReason(t, one, resolver.StepBackend); !strings.Contains(r, "UCX") || r == before {
		t.Fatalf("with UCX=1 the backend step should pick UCX, got %q", r)
	}
	f.keys("e", "ctrl+u", "t", "r", "u", "e", "enter")
	tru := f.next("UCX=true")
	if r := stepReason(t, tru, resolver.StepBackend); !strings.Contains(r, "NIXL") || !strings.Contains(r, "'true' does not count") {
		t.Fatalf("with UCX=true the backend step should stay on NIXL and say why, got %q", r)
	}
	if tru.Result.Outcome != resolver.OutcomePython {
		t.Errorf("UCX=true: outcome %s, want PYTHON", tru.Result.Outcome)
	}
	f.keys("left") // 'true' -> '1'
	tr := f.next("UCX back to 1")
	if r := stepReason(t, tr, resolver.StepBackend); r != stepReason(t, one, resolver.StepBackend) {
		t.Fatalf("back to '1': backend step %q, want %q", r, stepReason(t, one, resolver.StepBackend))
	}
	m := f.quit()
	if v, _ := m.Spec().Env[resolver.EnvUseUCX]; v.Value != "1" {
		t.Errorf("final %s = %q, want '1'", resolver.EnvUseUCX, v.Value)
	}
}

// tmTraceNow is the starting trace (the flow has not changed anything yet).
func (f *flow) tmTraceNow() resolver.Trace {
	return New(Options{Spec: testSpec()}).Trace()
}

// `/` opens the picker with the filter active; typing narrows it and enter picks.
func TestFlowFilterModels(t *testing.T) {
	f := startFlow(t)
	f.keys("/")
	f.keys(typed("kimilinear")...)
	f.keys("enter")
	tr := f.next("picking a model")
	if got := tr.Inputs.Model.Value.Arch; got != "KimiLinearForCausalLM" {
		t.Fatalf("picked %q, want KimiLinearForCausalLM", got)
	}
	m := f.quit()
	if m.pick.open {
		t.Error("the picker is still open after enter")
	}
}

// q quits, and so does ctrl+c, with the program ending cleanly.
func TestFlowQuit(t *testing.T) {
	for _, k := range []string{"q", "ctrl+c"} {
		f := startFlow(t)
		f.keys(k)
		f.tm.WaitFinished(t, teatest.WithFinalTimeout(5*time.Second))
	}
}

package ui

import (
	"strconv"

	"xcvr/resolver"
)

// runtimeSteps are the steps that can fix transceiver_runtime, in the order the
// resolver runs them: the last of them that applied or fell back is the one the
// transceiver's runtime comes from.
var runtimeSteps = map[string]bool{
	resolver.StepRuntime: true, resolver.StepPreference: true, resolver.StepAuto: true,
	resolver.StepLeftoverAuto: true, resolver.StepModelRequirement: true,
}

// decidingStep is the index of the step that decided the outcome, -1 when no
// step did: the step that raised for a failure, the disaggregation step when
// it is off, else the step that fixed the runtime the transceiver is built for.
func decidingStep(t *resolver.Trace) int {
	switch t.Result.Outcome {
	case resolver.OutcomeError:
		for i, s := range t.Steps {
			if s.ID == t.Result.FailedStep || (t.Result.FailedStep == "" && s.Verdict == resolver.Error) {
				return i
			}
		}
		return -1
	case resolver.OutcomeDisabled:
		for i, s := range t.Steps {
			if s.ID == resolver.StepDisagg {
				return i
			}
		}
		return -1
	}
	at := -1
	for i, s := range t.Steps {
		if runtimeSteps[s.ID] && (s.Verdict == resolver.Applied || s.Verdict == resolver.Fallback) {
			at = i
		}
	}
	return at
}

// stepOrder is the order n visits the steps in: first the ones that explain the
// outcome (every ✗ error and ↩ fallback and the step that decided the outcome,
// in chain order), then every other step that applied. N walks it backwards.
func stepOrder(t *resolver.Trace) (order []int, key int) {
	dec := decidingStep(t)
	isKey := func(i int) bool {
		v := t.Steps[i].Verdict
		return i == dec || v == resolver.Error || v == resolver.Fallback
	}
	for i := range t.Steps {
		if isKey(i) {
			order = append(order, i)
		}
	}
	key = len(order)
	for i, s := range t.Steps {
		if !isKey(i) && s.Verdict == resolver.Applied {
			order = append(order, i)
		}
	}
	return order, key
}

// decidedAt names the deciding step for the outcome line: "decided at step 10
// (Resolve 'auto')", or "raised at step 17 (…)" for a failure.
func decidedAt(t *resolver.Trace) string {
	i := decidingStep(t)
	if i < 0 {
		return ""
	}
	verb := "decided at step "
	if t.Result.Outcome == resolver.OutcomeError {
		verb = "raised at step "
	}
	return verb + strconv.Itoa(i+1) + " (" + t.Steps[i].Title + ")"
}

// shownIDs are the step ids the chain pane lists, in its order: the trace's
// steps, or the aligned rows of the two-column views, where m.step indexes
// those rows.
func (m *Model) shownIDs() []string {
	var ids []string
	switch {
	case m.mode == viewCompare:
		for _, s := range m.compareDiff().Steps {
			ids = append(ids, s.ID)
		}
	case m.other != nil:
		ctx, gen := m.roleTraces()
		for _, s := range rolesDiff(ctx, gen).Steps {
			ids = append(ids, s.ID)
		}
	default:
		for _, s := range m.trace.Steps {
			ids = append(ids, s.ID)
		}
	}
	return ids
}

// showStep selects the step with the given id in the chain pane, whichever
// view draws it; false when the pane does not list it.
func (m *Model) showStep(id string) bool {
	for i, s := range m.shownIDs() {
		if s == id {
			m.step = i
			return true
		}
	}
	return false
}

// selectedID is the id of the selected step in the chain pane, "" for none.
func (m *Model) selectedID() string {
	ids := m.shownIDs()
	if m.step >= 0 && m.step < len(ids) {
		return ids[m.step]
	}
	return ""
}

// openFailure selects the step that raised, expanded, when start-up fails: it
// is why the operator is looking, and at 80×24 it is otherwise below the fold.
// With focus set the chain takes the focus too (start-up, a matrix cell); after
// an edit the inputs keep it, so the next edit is one key away, and the chain
// pane still scrolls to the ✗ step.
func (m *Model) openFailure(focus bool) {
	i := decidingStep(&m.trace)
	if m.trace.Result.Outcome != resolver.OutcomeError || i < 0 {
		return
	}
	if !m.showStep(m.trace.Steps[i].ID) {
		return
	}
	m.expanded, m.colDetail = true, true
	if focus {
		m.focus = paneChain
	}
}

package ui

import (
	"xcvr/internal/report"
	"xcvr/resolver"
)

// stepOrder is the order n visits the steps in: first the ones that explain the
// outcome (the step that decided it, then every other ✗ error and ↩ fallback
// in chain order), then every other step that applied. N walks it backwards.
// The deciding step leads because a failure opens on it: from there n goes on
// to the fallbacks that explain it (a 1.4 UCX failure's ↩ KV-cache manager
// step), not to the applied steps after the key ones.
func stepOrder(t *resolver.Trace) (order []int, key int) {
	dec := report.DecidingStep(t)
	isKey := func(i int) bool {
		v := t.Steps[i].Verdict
		return i == dec || v == resolver.Error || v == resolver.Fallback
	}
	if dec >= 0 {
		order = append(order, dec)
	}
	for i := range t.Steps {
		if i != dec && isKey(i) {
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
	i := report.DecidingStep(&m.trace)
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

package ui

import (
	"strconv"
	"strings"

	tea "charm.land/bubbletea/v2"

	"xcvr/internal/compare"
	"xcvr/internal/inputs"
	"xcvr/internal/report"
	"xcvr/resolver"
)

// Role names of a disaggregated deployment, as deploy names them.
const (
	roleContext    = "context"
	roleGeneration = "generation"
)

// otherRole is the role of a disaggregated YAML that the inputs pane is not
// editing. `R` swaps it with the explored one, so both stay editable and keep
// their own edits.
type otherRole struct {
	name, source string
	start, spec  inputs.Spec
	trace        resolver.Trace
	// editable is false when the caller gave only a trace (no inputs to edit).
	editable bool
}

// newOtherRole builds the other role from Options.Roles. A role with a spec is
// resolved here with the explorer's catalog; one with only a trace is shown as is.
func (m *Model) newOtherRole(r Role) *otherRole {
	o := &otherRole{name: r.Name, source: r.Source, trace: r.Trace}
	if r.Spec.Version.Raw == "" && r.Spec.Model.Raw == "" && r.Spec.Backend.Raw == "" {
		return o
	}
	in, err := inputs.Build(r.Spec, m.cat)
	if err != nil {
		return o
	}
	o.start, o.spec, o.editable = cloneSpec(r.Spec), cloneSpec(r.Spec), true
	o.trace = resolver.Resolve(in)
	return o
}

// switchRole makes the other role the one the inputs pane edits. Each role keeps
// its spec, its starting point for `r` and its trace; nothing is re-resolved.
func (m *Model) switchRole() tea.Cmd {
	o := m.other
	if !o.editable {
		return m.setStatus("the "+o.name+" role has no inputs to edit here", true)
	}
	m.start, o.start = o.start, m.start
	m.spec, o.spec = o.spec, m.spec
	m.trace, o.trace = o.trace, m.trace
	m.traceGen++
	m.roleName, o.name = o.name, m.roleName
	m.changed, m.outcomeChanged = map[string]bool{}, false
	m.flashGen++
	m.pick.items = nil
	m.lastTimeout = "60000"
	if t := m.spec.TimeoutMS.Raw; t != "" && t != "null" && t != "default" {
		m.lastTimeout = t
	}
	m.recompare()
	if m.observe != nil {
		m.observe(m.trace)
	}
	return m.setStatus("now editing the "+m.roleName+" role", false)
}

// roleTraces returns the context and the generation role's traces, whichever of
// them the inputs pane edits.
func (m *Model) roleTraces() (ctx, gen resolver.Trace) {
	if m.roleName == roleGeneration {
		return m.other.trace, m.trace
	}
	return m.trace, m.other.trace
}

// rolesDiff aligns the two roles' chains by step id. A step counts as different
// only when it decides something else: the two roles' values come from different
// lines of the same file, and a reason that differs only in the origin it names
// ("disagg.yaml:11" against "disagg.yaml:16") is the same decision.
func rolesDiff(ctx, gen resolver.Trace) compare.Diff {
	d := compare.DiffTraces(ctx, gen)
	oc, og := report.InputsJSON(ctx.Inputs), report.InputsJSON(gen.Inputs)
	var rc, rg []string
	for k, a := range oc {
		if b, ok := og[k]; ok && a.Origin != b.Origin && a.Origin != "" && b.Origin != "" {
			rc = append(rc, a.Origin, "")
			rg = append(rg, b.Origin, "")
		}
	}
	sc, sg := strings.NewReplacer(rc...), strings.NewReplacer(rg...)
	d.ChangedSteps = d.ChangedSteps[:0]
	for i := range d.Steps {
		s := &d.Steps[i]
		if s.Changed && s.From.Verdict == s.To.Verdict && sc.Replace(s.From.Reason) == sg.Replace(s.To.Reason) &&
			ctx.Result.FailedStep != s.ID && gen.Result.FailedStep != s.ID {
			s.Changed = false
		}
		if s.Changed {
			d.ChangedSteps = append(d.ChangedSteps, s.ID)
		}
	}
	return d
}

// renderRoles draws the chain pane for a disaggregated YAML with both roles: the
// context role's chain on the left, the generation role's on the right, aligned
// by step id, differences marked "≠". The column of the role the inputs edit is
// marked "✎".
func (m *Model) renderRoles(w, h int) ([]string, []int) {
	ctx, gen := m.roleTraces()
	d := rolesDiff(ctx, gen)
	title := "Roles · "
	if sameEnd(ctx.Result, gen.Result) {
		title += "same transceiver"
	} else {
		title += "✗ different transceivers"
	}
	switch n := len(d.ChangedSteps); n {
	case 0:
		title += " · no step differs"
	case 1:
		title += " · 1 step differs"
	default:
		title += " · " + strconv.Itoa(n) + " steps differ"
	}
	lh, rh := roleContext, roleGeneration
	if m.roleName == roleGeneration {
		rh += " ✎ inputs"
	} else {
		lh += " ✎ inputs"
	}
	return m.renderColumns(w, h, title, lh, rh, d)
}

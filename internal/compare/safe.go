package compare

import (
	"xcvr/internal/report"
	"xcvr/internal/termsafe"
	"xcvr/resolver"
)

// Safe returns a copy of d whose strings are escaped for a terminal (see
// report.Safe); the text and Markdown renderers print Safe copies, JSON the
// original.
func (d Diff) Safe() Diff {
	d.From, d.To = report.Safe(d.From), report.Safe(d.To)
	steps := make([]StepDiff, len(d.Steps))
	for i, s := range d.Steps {
		s.From, s.To = safeStep(s.From), safeStep(s.To)
		steps[i] = s
	}
	d.Steps = steps
	return d
}

func safeStep(st resolver.Step) resolver.Step {
	st.Title, st.Reason, st.Detail = termsafe.Text(st.Title), termsafe.Text(st.Reason), termsafe.Text(st.Detail)
	st.Source.File = termsafe.Line(st.Source.File)
	return st
}

// Safe returns a copy of u whose strings are escaped for a terminal.
func (u Upgrade) Safe() Upgrade {
	fs := make([]Finding, len(u.Findings))
	for i, f := range u.Findings {
		f.Role = termsafe.Line(f.Role)
		f.From, f.To = report.Safe(f.From), report.Safe(f.To)
		if f.Fix != nil {
			fix := *f.Fix
			fix.YAML, fix.Note = termsafe.Text(fix.YAML), termsafe.Text(fix.Note)
			fix.To = report.Safe(fix.To)
			f.Fix = &fix
		}
		fs[i] = f
	}
	u.Findings = fs
	return u
}

// Safe returns a copy of m whose strings (model names from --catalog) are escaped
// for a terminal.
func (m Matrix) Safe() Matrix {
	m.FixedKey = termsafe.Line(m.FixedKey)
	m.AllFixedKeys = safeAll(m.AllFixedKeys)
	m.RowKeys = safeAll(m.RowKeys)
	m.ColKeys = safeAll(m.ColKeys)
	cells := make([]Cell, len(m.Cells))
	for i, c := range m.Cells {
		c.Model, c.Backend, c.Version = termsafe.Line(c.Model), termsafe.Line(c.Backend), termsafe.Line(c.Version)
		cells[i] = c
	}
	m.Cells = cells
	return m
}

func safeAll(ss []string) []string {
	out := make([]string, len(ss))
	for i, s := range ss {
		out[i] = termsafe.Line(s)
	}
	return out
}

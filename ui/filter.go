package ui

import (
	"strconv"
	"strings"

	"charm.land/bubbles/v2/textinput"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
	"github.com/sahilm/fuzzy"

	"xcvr/internal/compare"
	"xcvr/resolver"
)

// listFilter is `/` on a list that is not a picker: the chain's steps or the
// matrix's rows. While typing, every key but enter, esc and the arrows goes to
// the text; enter keeps the filter, esc clears it. The selected entry always
// stays shown, so the selection never points at a hidden line.
type listFilter struct {
	typing bool
	in     *textinput.Model // nil until the first `/`
}

// query is the filter's text, "" when there is none.
func (f *listFilter) query() string {
	if f.in == nil {
		return ""
	}
	return strings.TrimSpace(f.in.Value())
}

// on reports whether the filter hides anything or is being typed.
func (f *listFilter) on() bool { return f.typing || f.query() != "" }

// matchText reports whether text matches q: a case-insensitive substring of
// the whole text, or a fuzzy subsequence (sahilm/fuzzy, as the pickers use) of
// its name, the part before the first tab; a subsequence of a long reason
// would match nearly anything.
func matchText(q, text string) bool {
	if q == "" || strings.Contains(strings.ToLower(text), strings.ToLower(q)) {
		return true
	}
	name, _, _ := strings.Cut(text, "\t")
	return len(fuzzy.Find(q, []string{name})) > 0
}

// focusedFilter is the filter of the list that has focus: the matrix's in the
// matrix view, the chain's when the chain pane has focus; nil otherwise.
func (m *Model) focusedFilter() *listFilter {
	switch {
	case m.mode == viewMatrix:
		return &m.matFlt
	case m.focus == paneChain && !m.outView:
		return &m.chainFlt
	}
	return nil
}

// openFilter starts typing into the focused list's filter, keeping its text.
func (m *Model) openFilter(f *listFilter) {
	q := ""
	if f.in != nil {
		q = f.in.Value()
	}
	f.in = m.newInput(q, nil)
	f.typing = true
}

// filterKey handles keys while a list filter is typed into.
func (m *Model) filterKey(f *listFilter, msg tea.KeyPressMsg) (tea.Cmd, bool) {
	switch s := msg.String(); s {
	case "ctrl+c":
		return tea.Quit, true
	case "esc":
		f.in.SetValue("")
		f.typing = false
	case "enter":
		f.typing = false
	case "up", "down":
		d := -1
		if s == "down" {
			d = +1
		}
		if m.mode == viewMatrix {
			return nil, m.matRowMove(d)
		}
		return nil, m.move(d)
	case "backspace":
		if f.in.Value() == "" {
			f.typing = false
			return nil, true
		}
		fallthrough
	default:
		before := f.in.Value()
		var cmd tea.Cmd
		*f.in, cmd = f.in.Update(msg)
		keepSafe(f.in)
		if f.in.Value() != before {
			m.settleOnMatch()
		}
		return cmd, true
	}
	return nil, true
}

// settleOnMatch moves the selection onto the first shown entry when the
// filter hides the selected one's neighbours and it matches nothing itself.
func (m *Model) settleOnMatch() {
	if m.mode == viewMatrix {
		if !m.matRowShown(m.mat.r, false) {
			for r := range m.mat.m.RowKeys {
				if m.matRowShown(r, false) {
					m.mat.r = r
					return
				}
			}
		}
		return
	}
	ids, texts := m.shownIDs(), m.stepTexts()
	if m.step < len(ids) && matchText(m.chainFlt.query(), texts[m.step]) {
		return
	}
	for i := range ids {
		if matchText(m.chainFlt.query(), texts[i]) {
			m.step = i
			return
		}
	}
}

// stepTexts are what the chain filter matches for each listed step: its id,
// verdict, title and reasons.
func (m *Model) stepTexts() []string {
	var out []string
	switch {
	case m.mode == viewCompare:
		for _, s := range m.compareDiff().Steps {
			out = append(out, columnText(s))
		}
	case m.other != nil:
		ctx, gen := m.roleTraces()
		for _, s := range rolesDiff(ctx, gen).Steps {
			out = append(out, columnText(s))
		}
	default:
		for _, s := range m.trace.Steps {
			out = append(out, stepText(s))
		}
	}
	return out
}

// stepText is what the chain filter matches in one step: its id and title
// (fuzzy), then its verdict and reason (substring).
func stepText(s resolver.Step) string {
	return s.ID + " " + s.Title + "\t" + glyphOf(s.Verdict) + " " + verdictWord(s.Verdict) + " " + s.Reason
}

// columnText is what the filter matches in one row of the two-column views.
func columnText(s compare.StepDiff) string {
	return s.ID + "\t" + verdictWord(s.From.Verdict) + " " + verdictWord(s.To.Verdict) + " " + s.From.Reason + " " + s.To.Reason
}

// stepShown reports whether chain step i is drawn under the chain filter.
func (m *Model) stepShown(i int, text string) bool {
	return i == m.step || matchText(m.chainFlt.query(), text)
}

// matRowShown reports whether matrix row r is drawn under the matrix filter;
// with keepSel the cursor's row always is.
func (m *Model) matRowShown(r int, keepSel bool) bool {
	return (keepSel && r == m.mat.r) || matchText(m.matFlt.query(), m.mat.m.RowKeys[r])
}

// matRowMove moves the matrix cursor to the next shown row in direction d.
func (m *Model) matRowMove(d int) bool {
	for r := m.mat.r + d; r >= 0 && r < len(m.mat.m.RowKeys); r += d {
		if m.matRowShown(r, false) {
			m.mat.r = r
			return true
		}
	}
	return false
}

// filterMark is what a list's title adds under a filter: the query and how
// many entries it leaves.
func filterMark(f *listFilter, shown, total int) string {
	if !f.on() {
		return ""
	}
	return " · /" + f.query() + " " + strconv.Itoa(shown) + " of " + strconv.Itoa(total)
}

// filterLine is the status area while a list filter is typed into.
func (m *Model) filterLine(f *listFilter, what string, w int) []string {
	st := m.styles
	l := newLine(w, paint{})
	l.add(st.Bold, " / filter "+what+": ")
	f.in.SetWidth(max(l.room()-30, 1))
	v := f.in.View()
	l.raw(v, ansi.StringWidth(v))
	l.add(st.Dim, "  enter keeps · esc clears")
	return []string{l.String()}
}

package ui

import (
	"strconv"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"xcvr/internal/report"
	"xcvr/internal/termsafe"
	"xcvr/resolver"
)

// outcomeLines is the whole outcome, wrapped to w cells and never cut: the
// outcome line (for a failure, every line of the exception, pydantic's per-field
// lines included), the fix, and every log line. The frame shows as many of them as
// it has room for and says how many more there are; `o` shows them all.
func outcomeLines(st *Styles, t resolver.Trace, label string, w int, changed bool) []string {
	lines, _ := outcomeItems(st, t, label, w, changed)
	return lines
}

// outcomeItems is outcomeLines and, for each line, whether it starts an item (a
// line of the exception, the fix, a log line) rather than continuing a wrapped one,
// so that a cut falls between items.
func outcomeItems(st *Styles, t resolver.Trace, label string, w int, changed bool) ([]string, []bool) {
	r := t.Result
	p := outcomePaint(st, r)
	var out []string
	var starts []bool
	mark := func() {
		for len(starts) < len(out) {
			starts = append(starts, false)
		}
	}
	item := func() {
		mark()
		starts = append(starts, true)
	}
	// wrap draws text from the first cell after indent, continuation lines
	// indented by cont more cells.
	wrap := func(first string, fp paint, indent string, cont int, tp paint, text string) {
		// Continuation lines start cont cells in: wrap every line to the narrower of
		// the two rooms, or a continuation would be cut by the pane's edge.
		room := w - cells(indent) - max(cells(first), cont)
		if room < 10 {
			room = 10
		}
		parts := []string{text}
		if cells(text) > room {
			parts = strings.Split(ansi.Wrap(text, room, ""), "\n")
		}
		for i, s := range parts {
			l := newLine(w, paint{})
			if i == 0 {
				item()
				l.add(paint{}, indent)
				l.add(fp, first)
			} else {
				l.add(paint{}, indent+strings.Repeat(" ", cont))
			}
			l.add(tp, s)
			out = append(out, l.String())
		}
	}
	cmark := "  "
	if changed {
		cmark = "* "
	}
	item() // the outcome line
	if r.Outcome == resolver.OutcomeError {
		// The exception quotes values from files and flags: escaped, a line at a time.
		lines := strings.Split(r.Error, "\n")
		for i := range lines {
			lines[i] = termsafe.Line(lines[i])
		}
		head := newLine(w, paint{})
		head.add(st.Changed.orPlain(changed), cmark)
		head.add(p, "▶ ")
		head.add(st.Bold, label)
		first := "Start-up fails: " + lines[0]
		room := w - 4 - cells(label)
		parts := strings.Split(ansi.Wrap(first, max(room, 10), ""), "\n")
		head.add(p, parts[0])
		if changed {
			head.right(st.Changed, changedMark)
		}
		out = append(out, head.String())
		for _, s := range parts[1:] {
			l := newLine(w, paint{})
			l.add(paint{}, "    ")
			l.add(p, s)
			out = append(out, l.String())
		}
		// pydantic's per-field lines: the field, then its message indented.
		for _, s := range lines[1:] {
			ind := "    "
			if strings.HasPrefix(s, "  ") {
				ind, s = "      ", strings.TrimLeft(s, " ")
			}
			wrap("", paint{}, ind, 2, st.Value, s)
		}
		if at := report.DecidedAt(&t); at != "" {
			wrap("", paint{}, "    ", 2, st.Dim, at)
		}
	} else {
		l := newLine(w, paint{})
		l.add(st.Changed.orPlain(changed), cmark)
		l.add(p, "▶ ")
		l.add(st.Bold, label)
		l.add(p, report.OutcomeLine(r))
		ctx := outcomeContext(r)
		if at := report.DecidedAt(&t); at != "" {
			ctx += " · " + at
		}
		if l.room() < cells(ctx)+2 {
			// The backend's origin goes onto its own line rather than being cut.
			if changed {
				l.right(st.Changed, changedMark)
			}
			out = append(out, l.String())
			wrap("", paint{}, "    ", 0, st.Dim, strings.TrimPrefix(ctx, " · "))
		} else {
			l.add(st.Dim, ctx)
			if changed {
				l.right(st.Changed, changedMark)
			}
			out = append(out, l.String())
		}
	}
	if r.Hint != "" {
		wrap("fix: ", st.Bold, "    ", 5, st.Value, r.Hint)
	}
	if len(t.Logs) == 0 {
		l := newLine(w, paint{})
		l.add(st.Dim, "    (no log lines from these steps)")
		item()
		out = append(out, l.String())
		mark()
		return out, starts
	}
	for _, lg := range t.Logs {
		lp := st.LogInfo
		switch lg.Level {
		case resolver.LevelWarning:
			lp = st.LogWarn
		case resolver.LevelError:
			lp = st.LogError
		}
		// Log lines are meant to be grepped for: wrapped, never cut.
		wrap("", paint{}, "    ", 2, lp, report.LogPrefix(lg.Level)+termsafe.Line(lg.Message))
	}
	mark()
	return out, starts
}

// changedMark is what the outcome line ends with after an edit changed it; the
// brackets keep it apart from an exception's text.
const changedMark = "[changed]"

// orPlain is p when on is set, else no paint.
func (p paint) orPlain(on bool) paint {
	if on {
		return p
	}
	return paint{}
}

// outcomeBudget is how many lines the outcome may take above the panes at a
// height; the rest is one `o` away, and the last line says so.
func outcomeBudget(h int) int {
	switch {
	case h >= 34:
		return 12
	case h >= 24:
		return 6
	case h >= 20:
		return 5
	}
	return 4
}

// fitOutcome cuts the outcome to n lines, the last one saying how many lines are
// left and how to see them: nothing is cut without a mark.
//
// The cut falls between items when it can, so that a wrapped log line is either
// all above the mark or all behind it.
//
// at is the outcome's deciding step (report.DecidedAt): when the cut hides the
// line that names it (a long exception at a small height), the mark names it,
// so that every outcome on screen says where it was decided.
func fitOutcome(st *Styles, lines []string, starts []bool, n, w int, at string) []string {
	if len(lines) <= n || n < 2 {
		return lines
	}
	keep := n - 1
	for k := keep; k > 1; k-- {
		if k < len(starts) && starts[k] {
			keep = k
			break
		}
	}
	out := append([]string(nil), lines[:keep]...)
	l := newLine(w, paint{})
	l.add(paint{}, "    ")
	l.add(st.Bold, "↓ "+strconv.Itoa(len(lines)-keep)+" more lines")
	short, _, _ := strings.Cut(at, " (")
	if short != "" && !strings.Contains(ansi.Strip(strings.Join(out, "\n")), short) {
		l.add(st.Dim, " · "+short+" · o shows all")
	} else {
		l.add(st.Dim, " · o shows the whole outcome")
	}
	return append(out, l.String())
}

// outcomeKey handles keys while the whole outcome is shown.
func (m *Model) outcomeKey(msg tea.KeyPressMsg) (tea.Cmd, bool) {
	k := &m.keys
	switch {
	case msg.String() == "ctrl+c", key.Matches(msg, k.Quit):
		return tea.Quit, true
	case key.Matches(msg, k.Outcome), key.Matches(msg, k.Back):
		m.outView = false
	case key.Matches(msg, k.Up):
		return nil, m.scrollOutcome(-1)
	case key.Matches(msg, k.Down):
		return nil, m.scrollOutcome(+1)
	case msg.String() == "pgup":
		return nil, m.scrollOutcome(-(m.height / 2))
	case msg.String() == "pgdown", msg.String() == "space":
		return nil, m.scrollOutcome(m.height / 2)
	case key.Matches(msg, k.CopyChain):
		return tea.Batch(tea.SetClipboard(report.Markdown(m.trace)),
			m.setStatus("chain sent as Markdown by OSC 52 (a terminal may ignore it)", false)), true
	default:
		if cmd := m.elsewhere(msg); cmd != nil {
			return cmd, true
		}
		return nil, false
	}
	return nil, true
}

// scrollOutcome moves the whole-outcome view by d lines, within its length.
func (m *Model) scrollOutcome(d int) bool {
	n := len(outcomeLines(m.styles, m.trace, m.roleLabel(), m.width, false)) + len(m.observedWhole(m.width))
	avail := m.height - 1 - len(m.renderHelp(m.width)) - 1
	top := clamp(m.outTop+d, 0, max(n-avail, 0))
	if top == m.outTop {
		return false
	}
	m.outTop = top
	return true
}

// roleLabel names the explored role in the outcome when two roles are shown.
func (m *Model) roleLabel() string {
	if m.other != nil {
		return m.roleName + " role: "
	}
	return ""
}

// renderOutcomeView draws the whole outcome in the body, h lines, scrolled.
func (m *Model) renderOutcomeView(w, h int) []string {
	st := m.styles
	lines := append(outcomeLines(st, m.trace, m.roleLabel(), w, false), m.observedWhole(w)...)
	avail := h - 1
	top := clamp(m.outTop, 0, max(len(lines)-avail, 0))
	title := "Outcome · " + strconv.Itoa(len(lines)) + " lines · o/esc back"
	out := make([]string, 0, h)
	out = append(out, paneTitle(st, title+scrollMarks(top, len(lines), avail), true, w))
	for i := top; i < len(lines) && len(out) < h; i++ {
		out = append(out, lines[i])
	}
	for len(out) < h {
		out = append(out, spaces(w))
	}
	return out
}

// scrollMarks is what a pane title adds when its body does not fit: how many
// lines are above and below the window.
func scrollMarks(top, total, avail int) string {
	if total <= avail || avail <= 0 {
		return ""
	}
	s := ""
	if top > 0 {
		s += " · ↑" + strconv.Itoa(top) + " more"
	}
	if below := total - top - avail; below > 0 {
		s += " · ↓" + strconv.Itoa(below) + " more"
	}
	return s
}

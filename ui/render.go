package ui

import (
	"xcvr/internal/termsafe"

	"strconv"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"xcvr/internal/report"
	"xcvr/resolver"
)

// Minimum size: below it the explorer says so instead of drawing a frame whose
// lines would wrap. 60×16 still shows the outcome, a few inputs and a few steps.
const (
	minWidth  = 60
	minHeight = 16
	// twoColumnWidth is where the inputs and the chain sit side by side.
	twoColumnWidth = 100
)

// renderCache memoizes what View draws. It is shared by every copy of a Model, so
// it is keyed on the model's revision: a View of an unchanged model returns the
// previous frame without rendering anything.
type renderCache struct {
	rev       int
	w, h      int
	styles    *Styles
	frame     string
	inputsTop int // first visible line of the inputs pane, kept between frames
	chainTop  int // first visible line of the chain pane
	valid     bool

	// The key bar changes only with the width, the mode and the palette.
	help                   []string
	helpW                  int
	helpEditing, helpPicks bool
	helpMode               viewMode
	helpStyles             *Styles
	helpRole               string
}

// rect is a pane's place on the screen.
type rect struct{ x, y, w, h int }

func (r rect) contains(x, y int) bool { return x >= r.x && x < r.x+r.w && y >= r.y && y < r.y+r.h }

// layoutInfo is where each part of the frame goes, a pure function of the size and
// the state; Update uses the same function to map mouse clicks.
type layoutInfo struct {
	tooSmall      bool
	twoCol        bool
	outcome       []string
	inputs, chain rect
	help          []string
	bodyY, bodyH  int
}

func (m *Model) layout() layoutInfo {
	var l layoutInfo
	w, h := m.width, m.height
	if w < minWidth || h < minHeight {
		l.tooSmall = true
		return l
	}
	maxLogs := 2
	switch {
	case h >= 34:
		maxLogs = 8
	case h >= 24:
		maxLogs = 3
	}
	label := ""
	if m.other != nil {
		label = m.roleName + " role: "
	}
	l.outcome = renderOutcome(m.styles, m.trace, label, w, maxLogs, m.outcomeChanged)
	l.outcome = append(l.outcome, m.renderDeploy(w)...)
	l.help = m.renderHelp(w)
	l.bodyY = 1 + len(l.outcome)
	l.bodyH = h - l.bodyY - len(l.help)
	if w >= twoColumnWidth {
		l.twoCol = true
		lw := clamp(w*7/15, 46, 60)
		if m.columns() {
			// Two chains share the right pane; the inputs give up some room.
			lw = clamp(w*2/5, 40, 52)
		}
		l.inputs = rect{0, l.bodyY, lw, l.bodyH}
		l.chain = rect{lw + 1, l.bodyY, w - lw - 1, l.bodyH}
		return l
	}
	// Stacked: the focused pane gets the larger share.
	big := l.bodyH * 3 / 5
	small := l.bodyH - big
	if m.focus == paneInputs {
		l.inputs = rect{0, l.bodyY, w, big}
		l.chain = rect{0, l.bodyY + big, w, small}
	} else {
		l.inputs = rect{0, l.bodyY, w, small}
		l.chain = rect{0, l.bodyY + small, w, big}
	}
	return l
}

// View implements tea.Model. Only the root returns a tea.View; it asks for the
// alternate screen and mouse clicks on the view itself, as Bubble Tea v2 wants.
func (m Model) View() tea.View {
	v := tea.NewView(m.frame())
	v.AltScreen = true
	v.MouseMode = tea.MouseModeCellMotion
	v.WindowTitle = "xcvr"
	return v
}

// frame draws the whole screen, or returns the cached one when nothing changed.
func (m *Model) frame() string {
	c := m.cache
	if c.valid && c.rev == m.rev && c.w == m.width && c.h == m.height && c.styles == m.styles {
		return c.frame
	}
	var out string
	switch {
	case m.width <= 0 || m.height <= 0:
		out = "xcvr: waiting for the terminal size…"
	default:
		out = m.render()
	}
	c.rev, c.w, c.h, c.styles, c.frame, c.valid = m.rev, m.width, m.height, m.styles, out, true
	return out
}

// render lays out every part at the current size. Every line is cut to the width
// with x/ansi and the frame has exactly m.height lines, so a resize never leaves
// pieces of the previous frame behind.
func (m *Model) render() string {
	w, h := m.width, m.height
	l := m.layout()
	if l.tooSmall {
		msg := "terminal too small (need " + strconv.Itoa(minWidth) + "×" + strconv.Itoa(minHeight) + ")"
		return placeCenter(msg, w, h)
	}
	var b strings.Builder
	b.Grow(w * h * 3)
	lines := 0
	// Pane lines are built to the exact width by line (which counts cells as it
	// goes), so they are written as they are; measuring every styled line again
	// cost more than the rest of the frame. The tests check every line's width.
	emit := func(s string) {
		if lines > 0 {
			b.WriteByte('\n')
		}
		b.WriteString(s)
		lines++
	}
	emit(m.renderHeader(w))
	for _, s := range l.outcome {
		emit(s)
	}
	if m.mode == viewMatrix {
		for _, s := range m.renderMatrix(w, l.bodyH) {
			emit(s)
		}
		for _, s := range l.help {
			emit(s)
		}
		for lines < h {
			emit("")
		}
		return b.String()
	}
	in, _ := m.renderInputs(l.inputs.w, l.inputs.h)
	ch, _ := m.renderChain(l.chain.w, l.chain.h)
	if l.twoCol {
		sep := m.styles.Faint.on("│")
		for i := 0; i < l.bodyH; i++ {
			emit(in[i] + sep + ch[i])
		}
	} else {
		for _, s := range in {
			emit(s)
		}
		for _, s := range ch {
			emit(s)
		}
	}
	for _, s := range l.help {
		emit(s)
	}
	for lines < h {
		emit("")
	}
	return b.String()
}

// placeCenter centres a message in a w×h screen, word-wrapped so that even a tiny
// terminal shows all of it.
func placeCenter(msg string, w, h int) string {
	lines := strings.Split(ansi.Wrap(msg, max(w, 1), ""), "\n")
	first := max((h-len(lines))/2, 0)
	var b strings.Builder
	for i := 0; i < h; i++ {
		if i > 0 {
			b.WriteByte('\n')
		}
		if j := i - first; j >= 0 && j < len(lines) {
			pad := max((w-ansi.StringWidth(lines[j]))/2, 0)
			b.WriteString(strings.Repeat(" ", pad) + fitLine(lines[j], w))
		}
	}
	return b.String()
}

// fitPlain cuts a plain string to w cells, marking the cut with an ellipsis.
func fitPlain(s string, w int) string {
	if w <= 0 {
		return ""
	}
	n := 0
	for i, r := range s {
		if !narrow(r) {
			// Wide or combining characters: let x/ansi measure grapheme clusters.
			if ansi.StringWidth(s) <= w {
				return s
			}
			return ansi.Truncate(s, w, "…")
		}
		if n == w-1 && cells(s[i:]) > 1 {
			// One cell left and more than one to draw: end with the ellipsis.
			return s[:i] + "…"
		}
		n++
	}
	return s
}

// narrow reports whether a rune is one cell wide and stands alone: printable
// ASCII, Latin, and the few symbols the explorer draws. Anything else goes to
// x/ansi, which knows wide and combining characters; the fast path is what keeps
// a keypress cheap.
func narrow(r rune) bool {
	if r >= 0x20 && r < 0x300 && r != 0x7f {
		return true
	}
	switch r {
	case '✓', '✗', '↩', '·', '•', '›', '…', '─', '│', '█', '▶', '→', '←', '↑', '↓', '—', '–', '×', '≠', '✎', '━':
		return true
	}
	return false
}

// cells is the display width of a plain string.
func cells(s string) int {
	n := 0
	for _, r := range s {
		if !narrow(r) {
			return ansi.StringWidth(s)
		}
		n++
	}
	return n
}

// fitLine is the last guard: a styled line longer than the width is cut with x/ansi
// (never by bytes, which would split an escape sequence or a rune).
func fitLine(s string, w int) string {
	if ansi.StringWidth(s) > w {
		return ansi.Truncate(s, w, "")
	}
	return s
}

// line builds one pane line of a fixed width from painted plain segments, keeping
// count of the width so it never needs to measure escape sequences.
type line struct {
	b    strings.Builder
	w    int
	max  int
	base paint // re-opened after each segment, for the selection background
}

func newLine(max int, base paint) *line {
	l := &line{max: max, base: base}
	l.b.Grow(max + 64)
	l.b.WriteString(base.pre)
	return l
}

// room is how many cells are left.
func (l *line) room() int { return l.max - l.w }

// add appends s in p, cut to the room left.
func (l *line) add(p paint, s string) {
	if s == "" || l.room() <= 0 {
		return
	}
	// Every segment may quote input (a log line, a file name, a value from
	// /proc): control characters are shown escaped, never sent raw. Clean text
	// passes without an allocation.
	s = termsafe.Line(s)
	s = fitPlain(s, l.room())
	l.w += cells(s)
	if p.pre == "" && p.suf == "" {
		l.b.WriteString(s)
		return
	}
	l.b.WriteString(p.pre)
	l.b.WriteString(s)
	l.b.WriteString(p.suf)
	l.b.WriteString(l.base.pre)
}

// right appends s so that it ends at the right edge, if it fits after a gap.
func (l *line) right(p paint, s string) {
	sw := cells(s)
	if sw == 0 || l.room() < sw+1 {
		return
	}
	l.pad(l.max - sw)
	l.add(p, s)
}

// pad fills with spaces up to column col.
func (l *line) pad(col int) {
	if col > l.w {
		l.b.WriteString(strings.Repeat(" ", col-l.w))
		l.w = col
	}
}

// String pads to the full width and closes the base style.
func (l *line) String() string {
	l.pad(l.max)
	l.b.WriteString(l.base.suf)
	return l.b.String()
}

// paneTitle draws a pane's title rule: "── Inputs ───…".
func paneTitle(st *Styles, title string, focused bool, w int) string {
	// The focused pane's rule is heavy, so focus is visible without colour
	// (NO_COLOR, --color never, a monochrome SSH session) and not only by bold.
	p, rule := st.PaneTitle, "─"
	if focused {
		p, rule = st.PaneTitleFocus, "━"
	}
	l := newLine(w, paint{})
	l.add(p, rule+rule+" "+title+" ")
	if r := l.room(); r > 0 {
		l.add(p, strings.Repeat(rule, r))
	}
	return l.String()
}

// renderHeader is the top line: the name, and the status of the last action.
func (m *Model) renderHeader(w int) string {
	l := newLine(w, paint{})
	l.add(m.styles.Title, " xcvr")
	l.add(m.styles.Dim, " · which KV-cache transceiver, and why")
	switch {
	case m.status != "" && m.statusErr:
		l.add(paint{}, "  ")
		l.add(m.styles.Error, "✗ "+m.status)
	case m.status != "":
		l.add(paint{}, "  ")
		l.add(m.styles.Counts, "✓ "+m.status)
	}
	return l.String()
}

// outcomeContext is the quieter text after the outcome: the backend and what chose it.
func outcomeContext(r resolver.Result) string {
	var parts []string
	if r.EffectiveBackend.Valid {
		b := "backend " + r.EffectiveBackend.S
		if r.BackendSource != "" && r.BackendSource != "config" {
			b += " (" + r.BackendSource + ")"
		}
		parts = append(parts, b)
	}
	if len(parts) == 0 {
		return ""
	}
	return " · " + strings.Join(parts, " · ")
}

// renderOutcome draws the outcome line (wrapped when start-up fails, so the exact
// exception is readable) and up to maxLogs log lines, verbatim.
//
// label, when set, names the role the outcome belongs to ("context role: ").
func renderOutcome(st *Styles, t resolver.Trace, label string, w, maxLogs int, changed bool) []string {
	r := t.Result
	p := st.OutcomeCPP
	switch r.Outcome {
	case resolver.OutcomePython:
		p = st.OutcomePython
	case resolver.OutcomeDisabled:
		p = st.OutcomeOff
	case resolver.OutcomeError:
		p = st.OutcomeError
	}
	mark := "  "
	if changed {
		mark = "* "
	}
	var out []string
	text := report.OutcomeLine(r)
	first := newLine(w, paint{})
	if changed {
		first.add(st.Changed, "*")
		first.add(paint{}, " ")
	} else {
		first.add(paint{}, mark)
	}
	if r.Outcome == resolver.OutcomeError && ansi.StringWidth(text)+4+cells(label) > w {
		// Wrap the exact message over at most three lines rather than cut it.
		wrapped := strings.Split(ansi.Wrap(text, w-4-cells(label), ""), "\n")
		if len(wrapped) > 3 {
			wrapped = wrapped[:3]
		}
		for i, s := range wrapped {
			if i > 0 {
				out = append(out, first.String())
				first = newLine(w, paint{})
				first.add(paint{}, "    ")
			} else {
				first.add(p, "▶ ")
				first.add(st.Bold, label)
			}
			first.add(p, s)
		}
	} else {
		first.add(p, "▶ ")
		first.add(st.Bold, label)
		first.add(p, text)
		first.add(st.Dim, outcomeContext(r))
	}
	if changed {
		first.right(st.Changed, "changed")
	}
	out = append(out, first.String())
	if r.Hint != "" {
		l := newLine(w, paint{})
		l.add(paint{}, "    ")
		l.add(st.Bold, "fix: ")
		l.add(st.Value, r.Hint)
		out = append(out, l.String())
	}
	logs := t.Logs
	if len(logs) == 0 {
		l := newLine(w, paint{})
		l.add(st.Dim, "    (no log lines from these steps)")
		return append(out, l.String())
	}
	shown := logs
	more := 0
	if len(logs) > maxLogs {
		shown, more = logs[:maxLogs], len(logs)-maxLogs
	}
	// Lines the log budget does not need for one line per log line are spent
	// wrapping the long ones, in order: they are meant to be read (and grepped
	// for) verbatim, so a cut is the last resort.
	spare := maxLogs - len(shown)
	for i, lg := range shown {
		lp := st.LogInfo
		switch lg.Level {
		case resolver.LevelWarning:
			lp = st.LogWarn
		case resolver.LevelError:
			lp = st.LogError
		}
		text := report.LogPrefix(lg.Level) + lg.Message
		if more > 0 && i == len(shown)-1 {
			l := newLine(w, paint{})
			l.add(paint{}, "    ")
			tag := " (+" + strconv.Itoa(more) + " more: c copies all)"
			l.add(lp, fitPlain(text, max(w-4-len(tag), 1)))
			l.add(st.Dim, tag)
			out = append(out, l.String())
			continue
		}
		if spare == 0 || cells(text)+4 <= w || w < 30 {
			l := newLine(w, paint{})
			l.add(paint{}, "    ")
			l.add(lp, text)
			out = append(out, l.String())
			continue
		}
		parts := strings.Split(ansi.Wrap(text, w-6, ""), "\n")
		n := min(len(parts), 1+spare)
		spare -= n - 1
		for j := 0; j < n; j++ {
			l := newLine(w, paint{})
			indent := "    "
			if j > 0 {
				indent = "      "
			}
			l.add(paint{}, indent)
			seg := parts[j]
			if j == n-1 && n < len(parts) {
				// Out of lines: say that the rest is cut.
				seg = fitPlain(seg+" "+strings.Join(parts[j+1:], " "), w-6)
			}
			l.add(lp, seg)
			out = append(out, l.String())
		}
	}
	return out
}

// renderHelp is the key bar (or, after `?`, the full help), cut to the width.
func (m *Model) renderHelp(w int) []string {
	k := m.keys
	k.editing, k.picks = m.edit.active, m.pick.open
	k.comparing, k.matrix = m.mode == viewCompare, m.mode == viewMatrix
	if m.other != nil && m.mode == viewExplore {
		k.roles = true
		k.Role.SetHelp("R", "edit "+m.other.name)
	}
	if m.help.ShowAll {
		return m.fullHelp(k.FullHelp(), w)
	}
	c := m.cache
	if c.helpW == w && c.helpEditing == k.editing && c.helpPicks == k.picks && c.helpMode == m.mode && c.helpStyles == m.styles && c.helpRole == m.roleName {
		return c.help
	}
	m.help.SetWidth(w - 1)
	c.help = []string{" " + fitLine(m.help.ShortHelpView(k.ShortHelp()), w-1)}
	c.helpW, c.helpEditing, c.helpPicks, c.helpMode, c.helpStyles, c.helpRole = w, k.editing, k.picks, m.mode, m.styles, m.roleName
	return c.help
}

// fullHelp packs every binding into as many lines as the width needs. The help
// bubble's column layout cuts whole columns on narrow terminals; packing keeps
// every key visible at 64 columns.
func (m *Model) fullHelp(groups [][]key.Binding, w int) []string {
	st := m.help.Styles
	var lines []string
	cur := newLine(w, paint{})
	cur.add(paint{}, " ")
	keyP, descP := newPaint(st.FullKey), newPaint(st.FullDesc)
	for _, g := range groups {
		for _, b := range g {
			h := b.Help()
			item := h.Key + " " + h.Desc
			need := ansi.StringWidth(item) + 3
			if cur.w > 1 && cur.room() < need {
				lines = append(lines, cur.String())
				cur = newLine(w, paint{})
				cur.add(paint{}, " ")
			}
			if cur.w > 1 {
				cur.add(paint{}, "   ")
			}
			cur.add(keyP, h.Key)
			cur.add(paint{}, " ")
			cur.add(descP, h.Desc)
		}
	}
	return append(lines, cur.String())
}

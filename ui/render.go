package ui

import (
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"xcvr/internal/report"
	"xcvr/internal/termsafe"
	"xcvr/resolver"
)

// Minimum size: below it the explorer says so instead of drawing a frame whose
// lines would wrap. 60×16 still shows the outcome, a few inputs and a few steps.
const (
	minWidth  = 60
	minHeight = 16
	// minBody is the fewest lines the panes get: a title and a row each.
	minBody = 4
	// twoColumnWidth is where the inputs and the chain sit side by side.
	twoColumnWidth = 110
	// twoChainWidth is where they do so when the chain pane holds two chains
	// (compare, both roles); below it the panes are stacked, so that each
	// chain's column keeps room for its reasons.
	twoChainWidth = 140
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

	// helpBars keeps the bars already drawn: moving between rows changes what
	// enter does, and redrawing the bar through bubbles' help costs more than
	// the rest of the frame.
	helpBars map[helpKey][]string

	// observed keeps the outcome view's observed lines (observedWhole): a
	// log of thousands of processes takes long to wrap, and scrolling must
	// not wrap it again. Keyed by the verdict's generation and the width.
	observed struct {
		gen, w int
		styles *Styles
		lines  []string
	}

	// steps keeps the drawn lines of each chain step by its content, width and
	// state: wrapping a reason is the costliest part of a frame, a key that
	// moves the selection changes two steps at most, and an input change
	// usually leaves most steps as they were.
	steps map[stepKey][]string
}

// helpKey is everything the key bar depends on.
type helpKey struct {
	w                                  int
	editing, picks, filtering, outcome bool
	mode                               viewMode
	styles                             *Styles
	role, enter                        string
}

// stepKey is everything a step's lines depend on: the step itself (its text,
// not which trace it came from, so that the steps an input change leaves alone
// are not drawn again) and how it is drawn.
type stepKey struct {
	i, w, extra           int
	sel, focused, changed bool
	styles                *Styles
	step                  resolver.Step
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
	hint          []string // full width, between the panes and the key bar
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
	t, label := m.trace, m.roleLabel()
	if m.mode == viewMatrix {
		// The matrix's outcome is the cell under the cursor, whole.
		t, label = m.cellTrace(), "cell: "
	}
	lines, starts := outcomeItems(m.styles, t, label, w, m.outcomeChanged && m.mode != viewMatrix)
	l.outcome = fitOutcome(m.styles, lines, starts, outcomeBudget(h), w, report.DecidedAt(&t))
	if m.mode != viewMatrix {
		l.outcome = append(l.outcome, m.renderDeploy(w)...)
	}
	l.help = m.renderHelp(w)
	switch f := m.focusedFilter(); {
	case f != nil && f.typing:
		what := "steps"
		if m.mode == viewMatrix {
			what = "models"
		}
		l.hint = m.filterLine(f, what, w)
	case m.mode != viewMatrix && !m.outView:
		l.hint = m.hintLines(w)
	default:
		l.hint = m.statusLines(w) // the one status area, in every view
	}
	l.bodyY = 1 + len(l.outcome)
	l.bodyH = h - l.bodyY - len(l.hint) - len(l.help)
	if need := minBody - l.bodyH; need > 0 && m.mode != viewMatrix && !m.outView {
		// The full help or a long status took the room: the outcome gives
		// up lines first (its last line still says how many more there are),
		// then the hint.
		n := max(len(l.outcome)-need, 2)
		l.outcome = fitOutcome(m.styles, lines, starts, n, w, report.DecidedAt(&t))
		own := len(l.outcome)
		if m.mode != viewMatrix {
			l.outcome = append(l.outcome, m.renderDeploy(w)...)
		}
		l.bodyY = 1 + len(l.outcome)
		l.bodyH = h - l.bodyY - len(l.hint) - len(l.help)
		// Then the other role's outcome and the log's lines under it (a
		// --disagg file with --log): with the full help open at 64x18 they
		// left the panes a negative height, and the explorer crashed.
		if need := minBody - l.bodyH; need > 0 && len(l.outcome) > own {
			l.outcome = l.outcome[:max(len(l.outcome)-need, own)]
			l.bodyY = 1 + len(l.outcome)
			l.bodyH = h - l.bodyY - len(l.hint) - len(l.help)
		}
		if need := minBody - l.bodyH; need > 0 && len(l.hint) > 0 {
			l.hint = l.hint[:max(len(l.hint)-need, 0)]
			l.bodyH = h - l.bodyY - len(l.hint) - len(l.help)
		}
	}
	// Last, the full help gives up its last lines: the frame is h lines and no
	// pane is drawn in fewer than none.
	if need := minBody - l.bodyH; need > 0 && len(l.help) > 0 {
		l.help = l.help[:len(l.help)-min(need, len(l.help))]
		l.bodyH = h - l.bodyY - len(l.hint) - len(l.help)
	}
	if m.outView {
		l.bodyY, l.bodyH = 1, h-1-len(l.hint)-len(l.help)
		l.outcome = nil
		return l
	}
	if w >= twoColumnWidth && (!m.columns() || w >= twoChainWidth) {
		l.twoCol = true
		// The inputs pane is as wide as its rows need, within limits: the
		// chain keeps at least half the width and 60 columns (two chains side by
		// side, two thirds), so its reasons are not cut short, and a wide
		// terminal gives the inputs their whole origins.
		chainMin := max(w/2, 60)
		if m.columns() {
			chainMin = max(w*2/3, 90)
		}
		lw := clamp(m.inputsWidth(), 44, max(w-chainMin-1, 44))
		l.inputs = rect{0, l.bodyY, lw, l.bodyH}
		l.chain = rect{lw + 1, l.bodyY, w - lw - 1, l.bodyH}
		return l
	}
	// Stacked: the focused pane gets the larger share; two chains side by
	// side need their rows more than the inputs do.
	big := l.bodyH * 3 / 5
	if m.columns() && m.focus == paneChain {
		big = max(big, l.bodyH-8)
	}
	small := l.bodyH - big
	ih := small
	if m.focus == paneInputs {
		ih = big
	}
	// The inputs never keep rows they would leave blank (on a tall terminal
	// their share is more than their rows); the chain, which spends spare rows
	// wrapping its reasons, takes them. The picker's lists are longer.
	if need := len(m.rows) + 2; !m.pick.open && need < ih {
		ih = need
	}
	l.inputs = rect{0, l.bodyY, w, ih}
	l.chain = rect{0, l.bodyY + ih, w, l.bodyH - ih}
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
		return TooSmallFrame(w, h, minWidth, minHeight)
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
	if m.outView || m.mode == viewMatrix {
		body := m.renderOutcomeViewOrMatrix(w, l.bodyH)
		for _, s := range body {
			emit(s)
		}
		for _, s := range l.hint {
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
	for _, s := range l.hint {
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

func (m *Model) renderOutcomeViewOrMatrix(w, h int) []string {
	if m.outView {
		return m.renderOutcomeView(w, h)
	}
	return m.renderMatrix(w, h)
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

// raw appends an already styled string of w cells (a bubbles view).
func (l *line) raw(s string, w int) {
	if w > l.room() {
		s, w = ansi.Truncate(s, l.room(), ""), l.room()
	}
	l.b.WriteString(s)
	l.b.WriteString(l.base.pre)
	l.w += w
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

// renderHeader is the top line: the name and what it answers. Messages go to
// the one status area above the key bar (hintLines), never here.
func (m *Model) renderHeader(w int) string {
	l := newLine(w, paint{})
	l.add(m.styles.Title, " xcvr")
	l.add(m.styles.Dim, " · which KV-cache transceiver, and why")
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

// renderHelp is the key bar (or, after `?`, the full help), cut to the width.
func (m *Model) renderHelp(w int) []string {
	k := m.keys
	k.editing, k.picks = m.edit.active, m.pick.open
	k.comparing, k.matrix = m.mode == viewCompare, m.mode == viewMatrix
	k.outcome, k.filtering = m.outView, m.pick.open && m.pick.filtering
	if m.focus == paneInputs {
		k.enter = enterWord(m.rows[m.row])
	} else {
		k.enter = "explain step"
		if m.showDetail() {
			k.enter = "fold step"
		}
	}
	if m.other != nil && m.mode == viewExplore {
		k.roles = true
		k.Role.SetHelp("R", "edit "+m.other.name)
	}
	if m.help.ShowAll {
		return m.fullHelp(k.FullHelp(), w)
	}
	c := m.cache
	hk := helpKey{w: w, editing: k.editing, picks: k.picks, filtering: k.filtering, outcome: k.outcome,
		mode: m.mode, styles: m.styles, role: m.roleName, enter: k.enter}
	if bar, ok := c.helpBars[hk]; ok {
		return bar
	}
	if c.helpBars == nil || len(c.helpBars) > 64 {
		c.helpBars = map[helpKey][]string{}
	}
	m.help.SetWidth(w - 1)
	bar := []string{" " + fitLine(m.help.ShortHelpView(k.ShortHelp()), w-1)}
	c.helpBars[hk] = bar
	return bar
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
			if !b.Enabled() {
				continue // a key a wrapper took (Reserve)
			}
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

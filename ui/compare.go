package ui

import (
	"strconv"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"xcvr/internal/compare"
	"xcvr/internal/inputs"
	"xcvr/resolver"
)

// viewMode is what the explorer's body shows.
type viewMode int

const (
	// viewExplore is the inputs and the chain.
	viewExplore viewMode = iota
	// viewCompare keeps the inputs pane and splits the chain pane into two aligned
	// columns: the current version and a second one.
	viewCompare
	// viewMatrix replaces the body with the outcome of every catalog model ×
	// backend under the current version and the other current inputs.
	viewMatrix
)

// compareState is the second version of the compare view, as an index into
// resolver.KnownVersions().
type compareState struct {
	other int
}

// matrixState is the matrix view: the grid, computed when the view opens, and the
// cursor.
type matrixState struct {
	m      compare.Matrix
	r, c   int
	colTop int // first visible column when not every column fits
}

// Cell width of the matrix view: "✓ PYTHON" and a backend name fit in 8.
const matCell = 8

// openCompare enters the compare view. The second version starts at the newest
// known release, the usual upgrade target, or at the previous release when the
// current version is already the newest.
func (m *Model) openCompare() {
	known := resolver.KnownVersions()
	cur := m.trace.Inputs.Version.Name
	m.cmp.other = len(known) - 1
	if known[m.cmp.other].Name == cur {
		m.cmp.other--
	}
	m.mode = viewCompare
	m.focus = paneChain
}

// cycleOther moves the second version by delta, skipping nothing: comparing a
// version with itself is allowed and shows "no change".
func (m *Model) cycleOther(delta int) bool {
	n := clamp(m.cmp.other+delta, 0, len(resolver.KnownVersions())-1)
	if n == m.cmp.other {
		return false
	}
	m.cmp.other = n
	return true
}

// compareDiff resolves the current inputs under the current and the second
// version. It runs only when a frame is drawn for a new revision (the frame is
// cached), and costs two resolutions.
func (m *Model) compareDiff() compare.Diff {
	in := m.trace.Inputs
	other := resolver.KnownVersions()[m.cmp.other]
	d := compare.DiffVersions(in, in.Version, other, m.cat)
	// The version step differs whenever the versions do: that is the premise of
	// the view, not a change, and counting it would make "1 step changed" say
	// nothing. It still counts when its verdict differs.
	d.ChangedSteps = d.ChangedSteps[:0]
	for i := range d.Steps {
		st := &d.Steps[i]
		if st.ID == resolver.StepVersion && st.From.Verdict == st.To.Verdict {
			st.Changed = false
		}
		if st.Changed {
			d.ChangedSteps = append(d.ChangedSteps, st.ID)
		}
	}
	return d
}

// cellTrace resolves the matrix cell under the cursor, for the outcome lines
// above the matrix: the cell's whole exception, not only its glyph.
func (m *Model) cellTrace() resolver.Trace {
	cell := m.mat.m.At(m.mat.r, m.mat.c)
	s := cloneSpec(m.spec)
	setRaw(&s, m.rows[rowModel], cell.Model)
	setRaw(&s, m.rows[rowBackend], cell.Backend)
	in, err := inputs.Build(s, m.cat)
	if err != nil {
		return m.trace
	}
	return resolver.Resolve(in)
}

// openMatrix computes the grid for the current inputs and puts the cursor on the
// current model and backend.
func (m *Model) openMatrix() tea.Cmd {
	in, err := inputs.Build(m.spec, m.cat)
	if err != nil {
		return m.setStatus("cannot build the matrix: "+err.Error(), true)
	}
	mat, err := compare.NewMatrix(in, compare.AxisModel, compare.AxisBackend, m.cat)
	if err != nil {
		return m.setStatus("cannot build the matrix: "+err.Error(), true)
	}
	m.mat = matrixState{m: mat}
	for i, k := range mat.RowKeys {
		if k == in.Model.Value.Arch {
			m.mat.r = i
		}
	}
	for i, k := range mat.ColKeys {
		if k == m.spec.Backend.Raw || (k == "none" && !in.Backend.Value.Valid) {
			m.mat.c = i
		}
	}
	m.mode = viewMatrix
	return nil
}

// matrixKey handles keys in the matrix view: arrows move the cursor, enter opens
// the cell's chain in the explore view, esc or m goes back unchanged.
func (m *Model) matrixKey(msg tea.KeyPressMsg) (tea.Cmd, bool) {
	k := &m.keys
	mat := &m.mat
	cols := len(mat.m.ColKeys)
	switch {
	case key.Matches(msg, k.Quit):
		return tea.Quit, true
	case key.Matches(msg, k.Plain):
		m.setStyles(m.styles.IsDark, !m.styles.Plain)
	case key.Matches(msg, k.Help):
		m.help.ShowAll = !m.help.ShowAll
	case key.Matches(msg, k.Back), key.Matches(msg, k.Matrix):
		if m.help.ShowAll {
			m.help.ShowAll = false
			return nil, true
		}
		if key.Matches(msg, k.Back) && m.matFlt.on() {
			m.matFlt.in.SetValue("")
			return nil, true
		}
		m.mode = viewExplore
	case key.Matches(msg, k.Filter):
		m.openFilter(&m.matFlt)
	case key.Matches(msg, k.Up):
		return nil, m.matRowMove(-1)
	case key.Matches(msg, k.Down):
		return nil, m.matRowMove(+1)
	case key.Matches(msg, k.Left):
		return nil, m.matMove(&mat.c, -1, cols)
	case key.Matches(msg, k.Right):
		return nil, m.matMove(&mat.c, +1, cols)
	case key.Matches(msg, k.Choose):
		cell := mat.m.At(mat.r, mat.c)
		m.mode = viewExplore
		m.focus = paneChain
		m.spec = cloneSpec(m.spec)
		setRaw(&m.spec, m.rows[rowModel], cell.Model)
		setRaw(&m.spec, m.rows[rowBackend], cell.Backend)
		m.pick.items = nil
		cmd := m.resolve(true)
		m.openFailure(true)
		return tea.Batch(cmd, m.setStatus("opened "+cell.Model+" × "+cell.Backend+" from the matrix", false)), true
	default:
		if cmd := m.elsewhere(msg); cmd != nil {
			return cmd, true
		}
		return nil, false
	}
	return nil, true
}

func (m *Model) matMove(p *int, d, n int) bool {
	v := clamp(*p+d, 0, n-1)
	if v == *p {
		return false
	}
	*p = v
	return true
}

// renderCompare draws the chain pane of the compare view: the current version on
// the left and the second on the right (see renderColumns).
func (m *Model) renderCompare(w, h int) ([]string, []int) {
	d := m.compareDiff()
	title := "Compare · " + d.From.Inputs.Version.Name + " → " + d.To.Inputs.Version.Name + " · "
	switch n := len(d.ChangedSteps); {
	case !d.Changed():
		title += "no change"
	case n == 1:
		title += "1 step changed"
	default:
		title += strconv.Itoa(n) + " steps changed"
	}
	title += " · </> version"
	return m.renderColumns(w, h, title, d.From.Inputs.Version.Name, d.To.Inputs.Version.Name, d)
}

// columns reports whether the chain pane shows two chains side by side.
func (m *Model) columns() bool { return m.mode == viewCompare || m.other != nil }

// toggleDetail folds or expands the selected step in whichever chain view is up.
func (m *Model) toggleDetail() {
	if m.columns() {
		m.colDetail = !m.colDetail
	} else {
		m.expanded = !m.expanded
	}
}

// renderColumns draws two chains side by side in the chain pane: one line per
// step id, d.From on the left under leftHead and d.To on the right under
// rightHead, "≠" where the step decides something else, then the outcome row.
// The compare view and the both-roles view share it. hits[i] is the step index
// drawn on line i (the outcome row counts as the last one).
func (m *Model) renderColumns(w, h int, title, leftHead, rightHead string, d compare.Diff) ([]string, []int) {
	st := m.styles
	focused := m.focus == paneChain
	out := make([]string, 0, h)
	hits := make([]int, 0, h)
	out = append(out, paneTitle(st, title, focused, w))
	hits = append(hits, -1)
	if h <= 1 {
		return out[:h], hits[:h]
	}

	// Step ids are at most 17 cells; below 70 columns a few are cut so that the
	// reasons keep their room.
	idW := 8
	for _, s := range d.Steps {
		idW = max(idW, len(s.ID)+1)
	}
	if w < 70 {
		idW = min(idW, 12)
	}
	rest := w - 2 - idW
	left := (rest - 3) / 2
	right := rest - 3 - left
	cellLine := func(sel bool, mark, id string, changed bool, lp paint, lt string, rp paint, rt string) string {
		base, marker := st.selection(sel, focused, " ", "›")
		l := newLine(w, base)
		l.add(paint{}, marker)
		if changed {
			l.add(st.Changed, mark)
		} else {
			l.add(paint{}, " ")
		}
		l.add(st.Label, fitPlain(id, idW-1))
		l.pad(2 + idW)
		l.add(lp, fitPlain(lt, left))
		l.pad(2 + idW + left)
		l.add(st.Faint, " │ ")
		l.add(rp, fitPlain(rt, right))
		return l.String()
	}
	out = append(out, cellLine(false, " ", "step", false, st.Dim, leftHead, st.Dim, rightHead))
	hits = append(hits, -1)

	body := make([]string, 0, len(d.Steps)+8)
	bodyHits := make([]int, 0, len(d.Steps)+8)
	selStart, selEnd := 0, 0
	texts := make([]string, len(d.Steps))
	for i, s := range d.Steps {
		texts[i] = columnText(s)
	}
	// Room beyond one line per step (and the selected step's detail) goes to
	// wrapping the reasons that do not fit, in order, as in the chain.
	spare := h - 3 - len(d.Steps)
	if m.colDetail && m.step < len(d.Steps) {
		s := d.Steps[m.step]
		spare -= len(m.columnDetail(w, 2+idW, left, right, s.From.Reason, s.To.Reason))
	}
	for i, s := range d.Steps {
		if !m.stepShown(i, texts[i]) {
			continue
		}
		sel := i == m.step
		if sel {
			selStart = len(body)
		}
		lt, rt := glyphOf(s.From.Verdict)+" "+s.From.Reason, glyphOf(s.To.Verdict)+" "+s.To.Reason
		lp, rp := st.Verdict[s.From.Verdict], st.Verdict[s.To.Verdict]
		var ls, rs []string
		if spare > 0 && !(sel && m.colDetail) && (cells(lt) > left || cells(rt) > right) && left >= 12 && right >= 12 {
			ls, rs = wrapCell(lt, left-2, 1+spare), wrapCell(rt, right-2, 1+spare)
			spare -= max(len(ls), len(rs)) - 1
			lt, rt = ls[0], rs[0]
		}
		body = append(body, cellLine(sel, compare.ChangeMark, s.ID, s.Changed, lp, lt, rp, rt))
		bodyHits = append(bodyHits, i)
		for j := 1; j < max(len(ls), len(rs)); j++ {
			l := newLine(w, paint{})
			l.pad(2 + idW)
			if j < len(ls) {
				l.add(lp, "  "+ls[j])
			}
			l.pad(2 + idW + left)
			l.add(st.Faint, " │ ")
			if j < len(rs) {
				l.add(rp, "  "+rs[j])
			}
			body = append(body, l.String())
			bodyHits = append(bodyHits, i)
		}
		if sel && m.colDetail {
			// The selected step's reasons in full, each wrapped in its column, so
			// that a difference cut off in the one-line row can be read.
			for _, x := range m.columnDetail(w, 2+idW, left, right, s.From.Reason, s.To.Reason) {
				body = append(body, x)
				bodyHits = append(bodyHits, i)
			}
		}
		if sel {
			selEnd = len(body) - 1
		}
	}
	// The outcome row is pinned under the steps, so it stays on screen however
	// far the steps scroll.
	fo, to := d.From.Result, d.To.Result
	outcome := cellLine(false, compare.ChangeMark, "outcome", d.OutcomeChanged,
		outcomeOf(st, fo.Outcome), resultText(fo), outcomeOf(st, to.Outcome), resultText(to))

	avail := h - 3
	if avail <= 0 {
		return out[:h], hits[:h]
	}
	if len(body) < avail {
		// Everything fits: the outcome follows the last step.
		body = append(body, outcome)
		bodyHits = append(bodyHits, len(d.Steps)-1)
		return m.scrollChain(out, hits, body, bodyHits, selStart, selEnd, avail+1, w, h)
	}
	out, hits = m.scrollChain(out, hits, body, bodyHits, selStart, selEnd, avail, w, h-1)
	out[0] = paneTitle(st, withMarks(title, scrollMarks(m.cache.chainTop, len(body), avail)), focused, w)
	return append(out, outcome), append(hits, len(d.Steps)-1)
}

// wrapCell wraps a column's text to w cells in at most n lines, the last one
// cut with a mark when the text is longer.
func wrapCell(text string, w, n int) []string {
	parts := strings.Split(ansi.Wrap(text, w, ""), "\n")
	if len(parts) > n {
		parts[n-1] = fitPlain(strings.Join(parts[n-1:], " "), w)
		parts = parts[:n]
	}
	return parts
}

// columnDetail wraps two texts into the left and right columns of renderColumns,
// starting at cell x, side by side.
func (m *Model) columnDetail(w, x, left, right int, lt, rt string) []string {
	st := m.styles
	if left < 8 || right < 8 {
		return nil
	}
	ll := strings.Split(ansi.Wrap(lt, left-3, ""), "\n")
	rl := strings.Split(ansi.Wrap(rt, right-3, ""), "\n")
	n := max(len(ll), len(rl))
	out := make([]string, 0, n)
	for j := 0; j < n; j++ {
		l := newLine(w, paint{})
		l.pad(x)
		if j < len(ll) {
			l.add(st.Value, "  "+ll[j])
		}
		l.pad(x + left)
		l.add(st.Faint, " │ ")
		if j < len(rl) {
			l.add(st.Value, "  "+rl[j])
		}
		out = append(out, l.String())
	}
	return out
}

// resultText is an outcome as glyph and word, with the class or the failed step.
func resultText(r resolver.Result) string {
	s := compare.OutcomeLabel(r.Outcome)
	switch {
	case r.Class != "":
		s += " " + r.Class
	case r.FailedStep != "":
		s += " at " + r.FailedStep
	}
	return s
}

func spaces(n int) string {
	l := newLine(n, paint{})
	return l.String()
}

// renderMatrix draws the matrix view as exactly h lines of w cells: a title, the
// column header, one row per model (scrolled to keep the cursor visible), and the
// cursor's cell spelt out. When not every column fits, the columns scroll too and
// the header says how many are hidden on each side.
func (m *Model) renderMatrix(w, h int) []string {
	st := m.styles
	mat := &m.mat
	mm := mat.m
	out := make([]string, 0, h)
	avail := h - 3
	// The rows the filter shows (all without one), the cursor's included.
	var shown []int
	selAt := 0
	for r := range mm.RowKeys {
		if m.matRowShown(r, true) {
			if r == mat.r {
				selAt = len(shown)
			}
			shown = append(shown, r)
		}
	}
	top := scrollTop(m.cache.chainTop, selAt, selAt, len(shown), max(avail, 1))
	m.cache.chainTop = top
	out = append(out, paneTitle(st, withMarks("Matrix · models × backends · "+mm.FixedKey+filterMark(&m.matFlt, len(shown), len(mm.RowKeys))+" · enter opens the chain",
		scrollMarks(top, len(shown), avail)), true, w))
	if h <= 2 {
		return out[:min(len(out), h)]
	}
	labelW := 0
	for _, k := range mm.RowKeys {
		labelW = max(labelW, len(k))
	}
	cols := len(mm.ColKeys)
	labelW = min(labelW, max(14, w-2-cols*(matCell+1)))
	per := max(1, (w-2-labelW)/(matCell+1))
	if per < cols {
		// Leave room for the "→ N" that says columns are hidden on the right.
		per = max(1, (w-2-labelW-4)/(matCell+1))
	}
	if mat.c < mat.colTop {
		mat.colTop = mat.c
	}
	if mat.c >= mat.colTop+per {
		mat.colTop = mat.c - per + 1
	}
	mat.colTop = clamp(mat.colTop, 0, max(cols-per, 0))
	first, last := mat.colTop, min(mat.colTop+per, cols)

	head := newLine(w, paint{})
	corner := "model \\ backend"
	if first > 0 {
		corner = "← " + strconv.Itoa(first) + " more"
	}
	head.add(st.Dim, "  "+fitPlain(corner, labelW))
	head.pad(2 + labelW)
	for c := first; c < last; c++ {
		p := st.Label
		if c == mat.c {
			p = st.Bold
		}
		head.add(paint{}, " ")
		head.add(p, fitPlain(mm.ColKeys[c], matCell))
		head.pad(2 + labelW + (c-first+1)*(matCell+1))
	}
	if last < cols {
		head.right(st.Dim, "→ "+strconv.Itoa(cols-last))
	}
	out = append(out, head.String())

	for _, r := range shown[min(top, len(shown)):] {
		if len(out) >= h-1 {
			break
		}
		l := newLine(w, paint{})
		if r == mat.r {
			l.add(st.Bold, "› ")
		} else {
			l.add(paint{}, "  ")
		}
		lp := st.Value
		if r == mat.r {
			lp = st.Bold
		}
		l.add(lp, fitPlain(mm.RowKeys[r], labelW))
		l.pad(2 + labelW)
		for c := first; c < last; c++ {
			o := mm.At(r, c).Outcome
			p := outcomeOf(st, o)
			text := compare.OutcomeLabel(o)
			if r == mat.r && c == mat.c {
				// The cursor is a marker and a background, never colour alone.
				l.add(st.Selected, "›")
				l.add(st.Selected, padTo(text, matCell))
			} else {
				l.add(paint{}, " ")
				l.add(p, text)
			}
			l.pad(2 + labelW + (c-first+1)*(matCell+1))
		}
		out = append(out, l.String())
	}
	for len(out) < h-1 {
		out = append(out, spaces(w))
	}
	cell := mm.At(mat.r, mat.c)
	foot := newLine(w, paint{})
	foot.add(st.Bold, " "+cell.Model+" × "+cell.Backend+": ")
	foot.add(outcomeOf(st, cell.Outcome), compare.OutcomeLabel(cell.Outcome))
	switch {
	case cell.FailedStep != "":
		foot.add(st.Dim, " at "+cell.FailedStep)
	case cell.Outcome == resolver.OutcomePython || cell.Outcome == resolver.OutcomeCPP:
		foot.add(st.Dim, " · resolved runtime "+cell.ResolvedRuntime.Repr())
	}
	out = append(out, foot.String())
	return out
}

// outcomeOf is the paint of an outcome glyph and word.
func outcomeOf(st *Styles, o resolver.Outcome) paint {
	switch o {
	case resolver.OutcomePython:
		return st.OutcomePython
	case resolver.OutcomeCPP:
		return st.OutcomeCPP
	case resolver.OutcomeError:
		return st.OutcomeError
	}
	return st.OutcomeOff
}

// padTo right-pads a plain string to n cells.
func padTo(s string, n int) string {
	for c := cells(s); c < n; c++ {
		s += " "
	}
	return s
}

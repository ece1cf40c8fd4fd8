package ui

import (
	"charm.land/bubbles/v2/textinput"
	"slices"
	"strconv"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"xcvr/internal/report"
	"xcvr/internal/suggest"
	"xcvr/internal/termsafe"
	"xcvr/resolver"
)

// Update implements tea.Model. It does no I/O: re-resolution is pure, and the
// clipboard and timers are returned as commands.
func (m Model) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	var cmd tea.Cmd
	switch msg := msg.(type) {
	case logPolledMsg:
		return m.logPolled(msg)
	case tea.WindowSizeMsg:
		if msg.Width == m.width && msg.Height == m.height {
			return m, nil
		}
		m.width, m.height = msg.Width, msg.Height
	case tea.BackgroundColorMsg:
		if msg.IsDark() == m.styles.IsDark {
			return m, nil
		}
		m.setStyles(msg.IsDark(), m.styles.Plain)
	case flashDoneMsg:
		// Change marks stay until the next change, so an audience can see them;
		// only tests clear them, to draw the settled screen.
		if msg.gen != m.flashGen {
			return m, nil
		}
		m.changed, m.outcomeChanged = map[string]bool{}, false
	case statusDoneMsg:
		if msg.gen != m.statusGen {
			return m, nil
		}
		m.status, m.statusErr = "", false
	case tea.PasteMsg:
		msg.Content = oneLine(msg.Content)
		switch {
		case m.edit.active:
			*m.edit.in, cmd = m.edit.in.Update(msg)
			keepSafe(m.edit.in)
			m.edit.err = ""
		case m.pick.open && m.pick.filtering:
			*m.pick.filter, cmd = m.pick.filter.Update(msg)
			keepSafe(m.pick.filter)
			m.refilter()
		case m.focusedFilter() != nil && m.focusedFilter().typing:
			f := m.focusedFilter()
			*f.in, cmd = f.in.Update(msg)
			keepSafe(f.in)
			m.settleOnMatch()
		default:
			return m, nil
		}
	case tea.MouseWheelMsg:
		if !m.wheel(msg.Mouse()) {
			return m, nil
		}
	case tea.MouseClickMsg:
		var ok bool
		if cmd, ok = m.click(msg.Mouse()); !ok {
			return m, nil
		}
	case tea.KeyPressMsg:
		var ok bool
		if cmd, ok = m.key(msg); !ok {
			return m, nil
		}
	default:
		return m, nil
	}
	m.rev++
	return m, cmd
}

// setStyles switches the palette: light or dark, coloured or plain.
func (m *Model) setStyles(isDark, plain bool) {
	if plain {
		m.styles = NewPlainStyles(isDark)
	} else {
		m.styles = NewStyles(isDark)
	}
	m.help.Styles = m.styles.Help
}

// oneLine keeps a pasted value on one line; the environment cannot hold a newline
// the explorer could show.
func oneLine(s string) string {
	s, _, _ = strings.Cut(s, "\n")
	return strings.TrimRight(s, "\r")
}

// key handles a key press; ok is false when the key did nothing, so the frame is
// not invalidated.
func (m *Model) key(msg tea.KeyPressMsg) (tea.Cmd, bool) {
	if m.panicKey != "" && msg.String() == m.panicKey {
		panic("XCVR_TEST_PANIC: crash requested with key " + m.panicKey)
	}
	if msg.String() == "ctrl+z" {
		// Bubble Tea restores the terminal before stopping and takes it back on
		// SIGCONT, alternate screen and mouse included.
		return tea.Suspend, true
	}
	// A notice (the copied command line) stays until the next key.
	hadNotice := m.notice != ""
	m.notice = ""
	if m.edit.active {
		return m.editKey(msg)
	}
	if m.pick.open {
		return m.pickKey(msg)
	}
	if f := m.focusedFilter(); f != nil && f.typing {
		return m.filterKey(f, msg)
	}
	if m.mode == viewMatrix {
		return m.matrixKey(msg)
	}
	if m.outView {
		return m.outcomeKey(msg)
	}
	k := &m.keys
	switch {
	case key.Matches(msg, k.Matrix):
		return m.openMatrix(), true
	case key.Matches(msg, k.Compare):
		if m.mode == viewCompare {
			m.mode = viewExplore
		} else {
			m.openCompare()
		}
		return nil, true
	case m.other != nil && key.Matches(msg, k.Role):
		return m.switchRole(), true
	case m.mode == viewCompare && key.Matches(msg, k.OtherPrev):
		if !m.cycleOther(-1) {
			// The ends stop with a hint, as ← and → on a row do.
			return m.setStatus("the second version is the oldest known release; > goes newer", false), true
		}
		return nil, true
	case m.mode == viewCompare && key.Matches(msg, k.OtherNext):
		if !m.cycleOther(+1) {
			return m.setStatus("the second version is the newest known release; < goes older", false), true
		}
		return nil, true
	case m.mode == viewCompare && key.Matches(msg, k.Back) && !m.help.ShowAll:
		m.mode = viewExplore
		return nil, true
	case key.Matches(msg, k.Quit):
		return tea.Quit, true
	case key.Matches(msg, k.Plain):
		m.setStyles(m.styles.IsDark, !m.styles.Plain)
		if m.styles.Plain {
			return m.setStatus("colour off; p turns it back on", false), true
		}
		return m.setStatus("colour on", false), true
	case key.Matches(msg, k.Help):
		m.help.ShowAll = !m.help.ShowAll
	case key.Matches(msg, k.Back):
		if m.help.ShowAll {
			m.help.ShowAll = false
			return nil, true
		}
		if f := m.focusedFilter(); f != nil && f.on() {
			f.in.SetValue("")
			return nil, true
		}
		return nil, hadNotice
	case key.Matches(msg, k.Outcome):
		m.outView, m.outTop = true, 0
	case key.Matches(msg, k.NextPane), key.Matches(msg, k.PrevPane):
		m.focus = 1 - m.focus
	case key.Matches(msg, k.Up):
		return nil, m.move(-1) || hadNotice
	case key.Matches(msg, k.Down):
		return nil, m.move(+1) || hadNotice
	case key.Matches(msg, k.NextStep):
		return m.jumpStep(+1), true
	case key.Matches(msg, k.PrevStep):
		return m.jumpStep(-1), true
	case key.Matches(msg, k.Filter):
		// `/` filters the focused list: the chain's steps; on the inputs, the
		// models (the long list there; enter on the version row filters the
		// releases).
		if f := m.focusedFilter(); f != nil {
			m.openFilter(f)
			return nil, true
		}
		m.focus, m.row = paneInputs, int(rowModel)
		m.openPicker(true)
	case key.Matches(msg, k.CopyChain):
		return tea.Batch(tea.SetClipboard(report.Markdown(m.trace)),
			m.setStatus("chain sent as Markdown by OSC 52 (a terminal may ignore it)", false)), true
	case key.Matches(msg, k.CopyYAML):
		return m.copyYAML(), true
	case key.Matches(msg, k.CopyCmd):
		cmdline, notes := m.commandLineNotes()
		// The notice replaces the status line; the status it covers (a y a
		// moment ago) must not come back when the notice goes.
		m.status = ""
		m.notice = "copied (OSC 52): " + cmdline
		if len(notes) > 0 {
			// Say what the line does not reproduce rather than let it pass for exact.
			m.notice += "  (no flag says: " + strings.Join(notes, ", ") + ")"
		}
		if m.other != nil && strings.Contains(cmdline, " --role ") {
			m.notice += "  (one command per role: explain's flags apply to both roles, and each role has its own edits)"
		}
		return tea.SetClipboard(cmdline), true
	case key.Matches(msg, k.Reset):
		m.spec = cloneSpec(m.start)
		m.pick.items = nil
		return tea.Batch(m.resolve(true), m.setStatus("reset to the starting inputs", false)), true
	case m.focus == paneChain:
		if key.Matches(msg, k.Choose) {
			m.toggleDetail()
			return nil, true
		}
		if cmd := m.elsewhere(msg); cmd != nil {
			return cmd, true
		}
		return nil, hadNotice
	case key.Matches(msg, k.Choose):
		return m.choose(), true
	case key.Matches(msg, k.Left):
		return m.cycle(m.rows[m.row], -1), true
	case key.Matches(msg, k.Right):
		return m.cycle(m.rows[m.row], +1), true
	case key.Matches(msg, k.Edit):
		m.openEditor(m.row, m.editValue(m.rows[m.row]))
	default:
		if cmd := m.elsewhere(msg); cmd != nil {
			return cmd, true
		}
		return nil, hadNotice
	}
	return nil, true
}

// enterWord is what enter does on an input row, for the key bar.
func enterWord(r inputRow) string {
	switch r.kind {
	case rowVersion:
		return "pick version"
	case rowModel:
		return "pick model"
	case rowTimeout:
		return "type ms"
	case rowEnv:
		return "toggle"
	}
	return "next value"
}

// choose is enter (or space, or a second click) on an input row: a version or a
// timeout is typed, a model picked from the list, an env var toggled, and the
// other rows step to their next value (clamped at the end, like →).
func (m *Model) choose() tea.Cmd {
	r := m.rows[m.row]
	switch r.kind {
	case rowModel:
		m.openPicker(false)
		return nil
	case rowVersion:
		// Typing narrows the releases at once ("rc5", "1.3"); the last entry
		// types anything else (main@YYYY-MM-DD).
		m.openVersionPicker(true)
		return nil
	case rowTimeout:
		m.openEditor(m.row, m.editValue(r))
		return nil
	}
	return m.toggle(r)
}

// editValue is what the editor starts with: the row's raw value, or the value a
// file writes there when TensorRT-LLM rejects it, so it can be corrected in place.
func (m *Model) editValue(r inputRow) string {
	if e, bad := fileInvalid(&m.spec, r); bad {
		return report.PyRaw(e.Input)
	}
	raw := rawOf(&m.spec, r).Raw
	if raw == envUnset {
		raw = "1"
	}
	return raw
}

// jumpStep moves the chain selection along stepOrder: first the steps that
// explain the outcome (✗, ↩ and the step that decided it), then the other
// applied steps; past either end it wraps, and the status line says where in
// the order the selection is.
func (m *Model) jumpStep(d int) tea.Cmd {
	m.focus = paneChain
	order, key := stepOrder(&m.trace)
	if len(order) == 0 {
		return m.setStatus("no step decided anything", false)
	}
	at, cur := -1, m.selectedID()
	for j, i := range order {
		if m.trace.Steps[i].ID == cur {
			at = j
		}
	}
	switch {
	case at < 0 && d > 0:
		at = 0
	case at < 0:
		at = max(key-1, 0)
	default:
		at = (at + d + len(order)) % len(order)
	}
	s := m.trace.Steps[order[at]]
	m.showStep(s.ID)
	if m.columns() {
		m.colDetail = true
	} else {
		m.expanded = true
	}
	var where string
	if at < key {
		where = "explains the outcome (" + strconv.Itoa(at+1) + " of " + strconv.Itoa(key) + ")"
		if order[at] == report.DecidingStep(&m.trace) {
			where = "decided the outcome (" + strconv.Itoa(at+1) + " of " + strconv.Itoa(key) + ")"
		}
	} else {
		where = "applied (" + strconv.Itoa(at-key+1) + " of " + strconv.Itoa(len(order)-key) + " more)"
	}
	return m.setStatus("step "+strconv.Itoa(order[at]+1)+" "+glyphOf(s.Verdict)+" "+where+"; n/N next/previous", false)
}

// wheel scrolls whatever is under the pointer (or, outside the panes, the focused
// one) by one line per notch.
func (m *Model) wheel(ms tea.Mouse) bool {
	d := 0
	switch ms.Button {
	case tea.MouseWheelUp:
		d = -1
	case tea.MouseWheelDown:
		d = +1
	default:
		return false
	}
	switch {
	case m.edit.active:
		return false
	case m.outView:
		return m.scrollOutcome(d)
	case m.mode == viewMatrix:
		return m.matMove(&m.mat.r, d, len(m.mat.m.RowKeys))
	case m.pick.open:
		n := clamp(m.pick.sel+d, 0, len(m.pick.matches)-1)
		if n == m.pick.sel {
			return false
		}
		m.pick.sel = n
		return true
	}
	l := m.layout()
	if !l.tooSmall {
		switch {
		case l.inputs.contains(ms.X, ms.Y):
			m.focus = paneInputs
		case l.chain.contains(ms.X, ms.Y):
			m.focus = paneChain
		}
	}
	return m.move(d)
}

// move changes the selection in the focused pane.
func (m *Model) move(d int) bool {
	if m.focus == paneChain {
		if m.chainFlt.query() != "" {
			// Under a filter, to the next step it shows.
			texts := m.stepTexts()
			for i := m.step + d; i >= 0 && i < len(texts); i += d {
				if matchText(m.chainFlt.query(), texts[i]) {
					m.step = i
					return true
				}
			}
			return false
		}
		n := clamp(m.step+d, 0, len(m.shownIDs())-1)
		if n == m.step {
			return false
		}
		m.step = n
		return true
	}
	n := clamp(m.row+d, 0, len(m.rows)-1)
	if n == m.row {
		return false
	}
	m.row = n
	return true
}

func clamp(v, lo, hi int) int {
	if v < lo {
		return lo
	}
	if v > hi {
		return hi
	}
	return v
}

// currentSuggestion is in.CurrentSuggestion, or "" when no completion is
// selected: bubbles' textinput (v2.2.1) moves its index to -1 on ↑ (ctrl+p)
// while nothing matches, and CurrentSuggestion then indexes [-1] (e, a letter
// no value starts with, ↑ crashed the explorer).
func currentSuggestion(in *textinput.Model) string {
	if i := in.CurrentSuggestionIndex(); i < 0 || i >= len(in.MatchedSuggestions()) {
		return ""
	}
	return in.CurrentSuggestion()
}

// echoRoom is how much of a typed value the editor's error repeats: the value
// is on the editor's line just above, and a long one (a paste) repeated whole
// pushed the reason (want X.Y.Z...) off the screen.
const echoRoom = 32

// shortenEcho cuts the copies of raw in msg to echoRoom characters and "…".
func shortenEcho(msg, raw string) string {
	r := []rune(raw)
	if len(r) <= echoRoom {
		return msg
	}
	return strings.ReplaceAll(msg, raw, string(r[:echoRoom])+"…")
}

// editKey handles keys while the raw-value editor is open. The value is tried
// before it is applied, so a bad number or version stays in the editor with the
// reason instead of breaking the chain. Every other key is the textinput's.
func (m *Model) editKey(msg tea.KeyPressMsg) (tea.Cmd, bool) {
	switch msg.String() {
	case "ctrl+c":
		return tea.Quit, true
	case "esc":
		m.edit = editState{}
	case "enter":
		r := m.rows[m.edit.row]
		raw := m.edit.in.Value()
		if r.kind == rowTimeout {
			raw = strings.TrimSpace(raw)
			if _, err := strconv.ParseInt(raw, 10, 64); err != nil && raw != "" && raw != "null" {
				m.edit.err = "want a whole number, null, or empty for the default"
				return nil, true
			}
		}
		if err := m.trial(r, raw); err != nil {
			m.edit.err = shortenEcho(err.Error(), raw)
			return nil, true
		}
		m.edit = editState{}
		cmd := m.apply(r, raw)
		if note := m.nearMiss(r, raw); note != "" {
			// The value is used as typed (TensorRT-LLM's answer to it is the
			// point); the status says what it is near, as the CLI's note does.
			cmd = tea.Batch(cmd, m.setStatus(note, false))
			m.statusHint = true // a note ("·"), not a success
		}
		return cmd, true
	default:
		before, pos := m.edit.in.Value(), m.edit.in.Position()
		sug := currentSuggestion(m.edit.in)
		var cmd tea.Cmd
		*m.edit.in, cmd = m.edit.in.Update(msg)
		keepSafe(m.edit.in)
		if m.edit.in.Value() == before && m.edit.in.Position() == pos && currentSuggestion(m.edit.in) == sug {
			return cmd, false
		}
		m.edit.err = ""
		return cmd, true
	}
	return nil, true
}

// openPicker shows the model list; with filter set, typing goes to the filter.
func (m *Model) openPicker(filter bool) { m.openList(rowModel, filter) }

// openVersionPicker shows every known release (and the install), grouped by
// family, filterable: with sixty and more releases, ←/→ alone is too slow.
func (m *Model) openVersionPicker(filter bool) { m.openList(rowVersion, filter) }

// openList opens the picker for the model or the version row.
func (m *Model) openList(kind rowKind, filter bool) {
	m.focus, m.row = paneInputs, int(kind)
	m.pick.open, m.pick.filtering = true, filter
	if m.pick.kind != kind {
		m.pick.items = nil
	}
	m.pick.kind = kind
	m.pick.filter = m.newInput("", m.choices(m.rows[kind]))
	m.pick.sel = 0
	m.refilter()
	// Start on the current value so enter keeps it.
	cur := rawOf(&m.spec, m.rows[kind]).Raw
	if kind == rowVersion && m.spec.Version.Origin.Kind == resolver.OriginInstall {
		cur = installChoice(&m.spec)
	}
	for i, idx := range m.pick.matches {
		if m.pick.items[idx].arch == cur {
			m.pick.sel = i
		}
	}
}

// pickKey handles keys while the model picker is open. While the filter is
// typed into, letters are text (k and j included); the arrows move.
func (m *Model) pickKey(msg tea.KeyPressMsg) (tea.Cmd, bool) {
	p := &m.pick
	switch s := msg.String(); {
	case s == "ctrl+c":
		return tea.Quit, true
	case s == "esc":
		if p.filtering && p.filter.Value() != "" {
			p.filter.SetValue("")
			m.refilter()
		} else {
			p.open, p.filtering = false, false
		}
	case s == "up" || (!p.filtering && s == "k"):
		p.sel = clamp(p.sel-1, 0, len(p.matches)-1)
	case s == "down" || (!p.filtering && s == "j"):
		p.sel = clamp(p.sel+1, 0, len(p.matches)-1)
	case s == "enter" || (!p.filtering && s == "space"):
		return m.pickChoose(p.sel), true
	case s == "/" && !p.filtering:
		p.filtering = true
	case s == "backspace" && p.filtering && p.filter.Value() == "":
		p.filtering = false
	case p.filtering:
		before := p.filter.Value()
		var cmd tea.Cmd
		*p.filter, cmd = p.filter.Update(msg)
		keepSafe(p.filter)
		if p.filter.Value() != before {
			p.sel = 0
			m.refilter()
		}
		return cmd, true
	case s == "q":
		p.open = false
	default:
		return nil, false
	}
	return nil, true
}

// pickChoose applies match i of the picker. The custom entry opens the editor,
// prefilled with the filter text so a typed name is not lost.
func (m *Model) pickChoose(i int) tea.Cmd {
	if i < 0 || i >= len(m.pick.matches) {
		return nil
	}
	it := m.pick.items[m.pick.matches[i]]
	m.pick.open, m.pick.filtering = false, false
	if it.custom {
		m.openEditor(int(m.pick.kind), m.pick.filter.Value())
		return nil
	}
	return m.apply(m.rows[m.pick.kind], it.arch)
}

// click maps a mouse click onto the same layout View draws: a click on an input
// row selects it and, when it was already selected, toggles it; a click on a step
// selects and expands it; a click in the picker picks.
func (m *Model) click(ms tea.Mouse) (tea.Cmd, bool) {
	if ms.Button != tea.MouseLeft {
		return nil, false
	}
	l := m.layout()
	if l.tooSmall || m.mode == viewMatrix || m.outView {
		return nil, false
	}
	if ms.Y >= 1 && ms.Y < l.bodyY && len(l.outcome) > 0 && !m.edit.active {
		// A click on the outcome shows all of it.
		m.outView, m.outTop = true, 0
		return nil, true
	}
	if l.inputs.contains(ms.X, ms.Y) {
		_, hits := m.renderInputs(l.inputs.w, l.inputs.h)
		y := ms.Y - l.inputs.y
		if y < 0 || y >= len(hits) || hits[y] < 0 {
			return nil, false
		}
		m.focus = paneInputs
		if m.pick.open {
			return m.pickChoose(hits[y]), true
		}
		if m.edit.active {
			return nil, false
		}
		if hits[y] == m.row {
			return m.choose(), true
		}
		m.row = hits[y]
		return nil, true
	}
	if l.chain.contains(ms.X, ms.Y) {
		_, hits := m.renderChain(l.chain.w, l.chain.h)
		y := ms.Y - l.chain.y
		if y < 0 || y >= len(hits) || hits[y] < 0 {
			return nil, false
		}
		m.focus = paneChain
		if hits[y] == m.step {
			m.toggleDetail()
		} else {
			m.step = hits[y]
			if m.columns() {
				m.colDetail = true
			} else {
				m.expanded = true
			}
		}
		return nil, true
	}
	return nil, false
}

// nearMiss is what an applied value typed into the editor is near but not: a
// version xcvr has no release of, a backend or runtime TensorRT-LLM refuses
// (case matters there); "" when it is one of them or near none.
func (m *Model) nearMiss(r inputRow, raw string) string {
	what := ""
	switch r.kind {
	case rowVersion:
		if strings.HasPrefix(raw, "main@") {
			return ""
		}
		what = "a release xcvr lists"
	case rowBackend:
		what = "a backend TensorRT-LLM accepts"
	case rowRuntime:
		what = "a transceiver_runtime TensorRT-LLM accepts"
	default:
		return ""
	}
	cs := m.choices(r)
	if raw == "" || slices.Contains(cs, raw) {
		return ""
	}
	if r.kind == rowVersion {
		cs = slices.Clone(cs)
		slices.Reverse(cs) // the newest first among equally near ones
		if n := suggest.Release(raw, cs); n != "" {
			return termsafe.Line(raw) + " is not " + what + "; did you mean " + n + "?"
		}
		return ""
	}
	if hint := suggest.DidYouMean(raw, cs); hint != "" {
		return termsafe.Line(raw) + " is not " + what + hint
	}
	return ""
}

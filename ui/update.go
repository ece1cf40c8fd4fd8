package ui

import (
	"strconv"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"xcvr/internal/report"
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
		switch {
		case m.edit.active:
			m.edit.buf = append(m.edit.buf, []rune(oneLine(msg.Content))...)
		case m.pick.open && m.pick.filtering:
			m.pick.filter = append(m.pick.filter, []rune(oneLine(msg.Content))...)
			m.refilter()
		default:
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
	if m.edit.active {
		return m.editKey(msg)
	}
	if m.pick.open {
		return m.pickKey(msg)
	}
	if m.mode == viewMatrix {
		return m.matrixKey(msg)
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
		return nil, m.cycleOther(-1)
	case m.mode == viewCompare && key.Matches(msg, k.OtherNext):
		return nil, m.cycleOther(+1)
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
		if !m.help.ShowAll {
			return nil, false
		}
		m.help.ShowAll = false
	case key.Matches(msg, k.NextPane), key.Matches(msg, k.PrevPane):
		m.focus = 1 - m.focus
	case key.Matches(msg, k.Up):
		return nil, m.move(-1)
	case key.Matches(msg, k.Down):
		return nil, m.move(+1)
	case key.Matches(msg, k.Filter):
		m.focus, m.row = paneInputs, int(rowModel)
		m.openPicker(true)
	case key.Matches(msg, k.CopyChain):
		return tea.Batch(tea.SetClipboard(report.Markdown(m.trace)),
			m.setStatus("copied the chain as Markdown (OSC 52)", false)), true
	case key.Matches(msg, k.CopyYAML):
		return tea.Batch(tea.SetClipboard(configYAML(m.trace)),
			m.setStatus("copied the cache_transceiver_config YAML (OSC 52)", false)), true
	case key.Matches(msg, k.Reset):
		m.spec = cloneSpec(m.start)
		m.pick.items = nil
		return tea.Batch(m.resolve(true), m.setStatus("reset to the starting inputs", false)), true
	case m.focus == paneChain:
		if key.Matches(msg, k.Choose) {
			m.toggleDetail()
			return nil, true
		}
		return nil, false
	case key.Matches(msg, k.Choose):
		r := m.rows[m.row]
		if r.kind == rowModel {
			m.openPicker(false)
			return nil, true
		}
		return m.toggle(r), true
	case key.Matches(msg, k.Left):
		return m.cycle(m.rows[m.row], -1), true
	case key.Matches(msg, k.Right):
		return m.cycle(m.rows[m.row], +1), true
	case key.Matches(msg, k.Edit):
		r := m.rows[m.row]
		raw := rawOf(&m.spec, r).Raw
		if raw == envUnset {
			raw = "1"
		}
		m.edit = editState{active: true, row: m.row, buf: []rune(raw)}
	default:
		return nil, false
	}
	return nil, true
}

// move changes the selection in the focused pane.
func (m *Model) move(d int) bool {
	if m.focus == paneChain {
		n := clamp(m.step+d, 0, len(m.trace.Steps)-1)
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

// editKey handles keys while the raw-value editor is open. The value is tried
// before it is applied, so a bad number or version stays in the editor with the
// reason instead of breaking the chain.
func (m *Model) editKey(msg tea.KeyPressMsg) (tea.Cmd, bool) {
	switch msg.String() {
	case "ctrl+c":
		return tea.Quit, true
	case "esc":
		m.edit = editState{}
	case "enter":
		r := m.rows[m.edit.row]
		raw := string(m.edit.buf)
		if r.kind == rowTimeout {
			raw = strings.TrimSpace(raw)
			if _, err := strconv.ParseInt(raw, 10, 64); err != nil && raw != "" && raw != "null" {
				m.edit.err = "want a whole number, null, or empty for the default"
				return nil, true
			}
		}
		if err := m.trial(r, raw); err != nil {
			m.edit.err = err.Error()
			return nil, true
		}
		m.edit = editState{}
		return m.apply(r, raw), true
	case "backspace":
		if len(m.edit.buf) == 0 {
			return nil, false
		}
		m.edit.buf = m.edit.buf[:len(m.edit.buf)-1]
		m.edit.err = ""
	case "ctrl+u":
		m.edit.buf = m.edit.buf[:0]
		m.edit.err = ""
	default:
		if msg.Text == "" {
			return nil, false
		}
		m.edit.buf = append(m.edit.buf, []rune(msg.Text)...)
		m.edit.err = ""
	}
	return nil, true
}

// openPicker shows the model list; with filter set, typing goes to the filter.
func (m *Model) openPicker(filter bool) {
	m.pick.open, m.pick.filtering = true, filter
	m.pick.filter = m.pick.filter[:0]
	m.pick.sel = 0
	m.refilter()
	// Start on the current model so enter keeps it.
	cur := m.spec.Model.Raw
	for i, idx := range m.pick.matches {
		if m.pick.items[idx].arch == cur {
			m.pick.sel = i
		}
	}
}

// pickKey handles keys while the model picker is open.
func (m *Model) pickKey(msg tea.KeyPressMsg) (tea.Cmd, bool) {
	p := &m.pick
	switch s := msg.String(); {
	case s == "ctrl+c":
		return tea.Quit, true
	case s == "esc":
		if p.filtering && len(p.filter) > 0 {
			p.filter = p.filter[:0]
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
	case s == "backspace" && p.filtering:
		if len(p.filter) == 0 {
			p.filtering = false
		} else {
			p.filter = p.filter[:len(p.filter)-1]
			m.refilter()
		}
	case p.filtering && msg.Text != "":
		p.filter = append(p.filter, []rune(msg.Text)...)
		p.sel = 0
		m.refilter()
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
		m.edit = editState{active: true, row: int(rowModel), buf: append([]rune(nil), m.pick.filter...)}
		return nil
	}
	return m.apply(m.rows[rowModel], it.arch)
}

// click maps a mouse click onto the same layout View draws: a click on an input
// row selects it and, when it was already selected, toggles it; a click on a step
// selects and expands it; a click in the picker picks.
func (m *Model) click(ms tea.Mouse) (tea.Cmd, bool) {
	if ms.Button != tea.MouseLeft {
		return nil, false
	}
	l := m.layout()
	if l.tooSmall || m.mode == viewMatrix {
		return nil, false
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
			r := m.rows[m.row]
			if r.kind == rowModel {
				m.openPicker(false)
				return nil, true
			}
			return m.toggle(r), true
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

package ui

import (
	"unicode/utf8"

	tea "charm.land/bubbletea/v2"
)

// elsewhere is what a key that does nothing in the current view says: what
// it does in the view where it works and how to get there, or, for a key no
// view uses, that ? lists the keys. Silence would leave an operator guessing
// whether the key was read at all.
func (m *Model) elsewhere(msg tea.KeyPressMsg) tea.Cmd {
	k := msg.String()
	var s string
	switch {
	case k == "R":
		s = "R switches which role the inputs edit: it needs both roles of a --disagg file (started without --role)"
	case k == "<" || k == ">" || k == "," || k == ".":
		s = k + " picks the compare view's 2nd version: v opens the compare view"
	case m.mode == viewMatrix:
		switch k {
		case "n", "N", "e", "x", "c", "y", "v", "r", "o", "tab":
			s = k + " works in the explore view: esc or m goes back to it (enter opens the cell there)"
		}
	case m.outView:
		switch k {
		case "n", "N", "e", "x", "y", "v", "m", "r", "tab", "left", "right":
			s = k + " works in the explore view: o or esc goes back to it"
		}
	case m.focus == paneChain:
		switch k {
		case "left", "right", "h", "l", "e":
			s = k + " changes the selected input: tab moves to the inputs pane"
		}
	}
	if s == "" {
		if utf8.RuneCountInString(k) != 1 {
			return nil // a named key (f5, shift+…) no view uses: not worth a message
		}
		s = "'" + k + "' does nothing here; ? lists the keys"
	}
	cmd := m.setStatus(s, false)
	m.statusHint = true
	return cmd
}

package ui

import (
	"testing"

	tea "charm.land/bubbletea/v2"

	"xcvr/internal/inputs"
	"xcvr/resolver"
)

// press builds the key message a terminal would send for a key name.
func press(k string) tea.KeyPressMsg {
	switch k {
	case "down":
		return tea.KeyPressMsg{Code: tea.KeyDown}
	case "up":
		return tea.KeyPressMsg{Code: tea.KeyUp}
	case "tab":
		return tea.KeyPressMsg{Code: tea.KeyTab}
	case "enter":
		return tea.KeyPressMsg{Code: tea.KeyEnter}
	case "esc":
		return tea.KeyPressMsg{Code: tea.KeyEscape}
	case "space":
		return tea.KeyPressMsg{Code: tea.KeySpace, Text: " "}
	case "backspace":
		return tea.KeyPressMsg{Code: tea.KeyBackspace}
	case "ctrl+c":
		return tea.KeyPressMsg{Code: 'c', Mod: tea.ModCtrl}
	case "ctrl+u":
		return tea.KeyPressMsg{Code: 'u', Mod: tea.ModCtrl}
	case "ctrl+w":
		return tea.KeyPressMsg{Code: 'w', Mod: tea.ModCtrl}
	case "home":
		return tea.KeyPressMsg{Code: tea.KeyHome}
	case "left":
		return tea.KeyPressMsg{Code: tea.KeyLeft}
	case "right":
		return tea.KeyPressMsg{Code: tea.KeyRight}
	}
	r := []rune(k)
	return tea.KeyPressMsg{Code: r[0], Text: k}
}

// keys feeds key names to a model, as the program would, and returns the result.
func keys(t testing.TB, m Model, names ...string) Model {
	t.Helper()
	for _, k := range names {
		nm, _ := m.Update(press(k))
		m = nm.(Model)
	}
	return m
}

// typed turns text into one key name per rune.
func typed(s string) []string {
	out := make([]string, 0, len(s))
	for _, r := range s {
		out = append(out, string(r))
	}
	return out
}

// testSpec is the built-in start with an empty environment, so tests never see
// the developer's TRTLLM_* variables.
func testSpec() inputs.Spec {
	s := inputs.Defaults()
	s.Env = map[string]resolver.EnvVar{}
	return s
}

// newAt builds a model at a size with the test spec.
func newAt(w, h int) Model {
	return New(Options{Spec: testSpec(), Width: w, Height: h})
}

// down returns n "down" key names.
func down(n int) []string {
	out := make([]string, n)
	for i := range out {
		out[i] = "down"
	}
	return out
}

// reportGlyphWord is how a verdict reads on screen.
func reportGlyphWord(v resolver.Verdict) string {
	return glyphOf(v) + " " + verdictWord(v)
}

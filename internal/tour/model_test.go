package tour

import (
	"strconv"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"xcvr/resolver"
	"xcvr/ui"
)

func press(k string) tea.KeyPressMsg {
	switch k {
	case "tab":
		return tea.KeyPressMsg{Code: tea.KeyTab}
	case "down":
		return tea.KeyPressMsg{Code: tea.KeyDown}
	case "right":
		return tea.KeyPressMsg{Code: tea.KeyRight}
	case "enter":
		return tea.KeyPressMsg{Code: tea.KeyEnter}
	case "esc":
		return tea.KeyPressMsg{Code: tea.KeyEscape}
	}
	return tea.KeyPressMsg{Code: []rune(k)[0], Text: k}
}

func send(t *testing.T, m Model, keys ...string) (Model, tea.Cmd) {
	t.Helper()
	var cmd tea.Cmd
	for _, k := range keys {
		var nm tea.Model
		nm, cmd = m.Update(press(k))
		m = nm.(Model)
	}
	return m, cmd
}

func newTour(t *testing.T, w, h int) Model {
	t.Helper()
	stops, err := Builtin()
	if err != nil {
		t.Fatal(err)
	}
	nm, _ := New(stops, ui.Options{Color: "never"}).Update(tea.WindowSizeMsg{Width: w, Height: h})
	return nm.(Model)
}

func TestTourMovesAndLeaves(t *testing.T) {
	m := newTour(t, 120, 40)
	m, _ = send(t, m, "p") // already at the first stop
	if m.At() != 0 {
		t.Fatalf("p at the first stop moved to %d", m.At())
	}
	m, _ = send(t, m, "n", "n")
	if m.At() != 2 {
		t.Fatalf("after n n: stop %d, want 2", m.At())
	}
	if got := m.Explorer().Trace().Inputs.Runtime.Value.S; got != "CPP" {
		t.Errorf("stop 3 presets runtime %q, want CPP (explicit-cpp)", got)
	}
	m, _ = send(t, m, "p")
	if m.At() != 1 {
		t.Fatalf("after p: stop %d, want 1", m.At())
	}
	for range 20 {
		m, _ = send(t, m, "n")
	}
	if m.At() != 8 {
		t.Errorf("n past the end: stop %d, want the last (8)", m.At())
	}
	if !strings.Contains(m.View().Content, "last stop") {
		t.Error("the last stop does not say so")
	}
	_, cmd := send(t, m, "q")
	if cmd == nil {
		t.Fatal("q returned no command")
	}
	if _, ok := cmd().(tea.QuitMsg); !ok {
		t.Errorf("q does not quit")
	}
}

func TestTourFrameFitsAndNarrates(t *testing.T) {
	for _, sz := range [][2]int{{64, 20}, {80, 24}, {120, 40}, {200, 60}} {
		m := newTour(t, sz[0], sz[1])
		for i := 0; i < len(m.stops); i++ {
			v := ansi.Strip(m.View().Content)
			lines := strings.Split(v, "\n")
			if len(lines) != sz[1] {
				t.Errorf("%dx%d stop %d: %d lines", sz[0], sz[1], i, len(lines))
			}
			for j, l := range lines {
				if w := ansi.StringWidth(l); w > sz[0] {
					t.Errorf("%dx%d stop %d line %d is %d wide: %q", sz[0], sz[1], i, j, w, l)
				}
			}
			if strings.Contains(v, "terminal too small") {
				t.Errorf("%dx%d stop %d: the band leaves the explorer too little room", sz[0], sz[1], i)
			}
			s := m.stops[i]
			for _, want := range []string{"Tour " + strconv.Itoa(i+1) + "/" + strconv.Itoa(len(m.stops)), "Look at step '" + s.Step + "'", ", as the story says."} {
				if !strings.Contains(v, want) {
					t.Errorf("%dx%d stop %d lacks %q:\n%s", sz[0], sz[1], i, want, v)
				}
			}
			m, _ = send(t, m, "n")
		}
	}
	// An edit that lengthens the "Now:" line keeps the frame at the height.
	m := newTour(t, 80, 24)
	m, _ = send(t, m, "tab", "down", "down", "right")
	if n := len(strings.Split(m.View().Content, "\n")); n != 24 {
		t.Errorf("after an edit at 80x24: %d lines", n)
	}
	if strings.Contains(ansi.Strip(m.View().Content), "terminal too small") {
		t.Error("the band left the explorer too little room at 80x24")
	}
}

// Below 60x20 the tour says what it needs: the band takes four lines at
// least, and at 60x16 to 60x19 the explorer under it said "terminal too small
// (need 60×16)" in a 60x16 terminal.
func TestTourSaysItsOwnMinimum(t *testing.T) {
	for _, sz := range [][2]int{{60, 16}, {60, 19}, {59, 40}} {
		v := ansi.Strip(newTour(t, sz[0], sz[1]).View().Content)
		if !strings.Contains(v, "terminal too small (need 60×20)") || strings.Contains(v, "need 60×16") {
			t.Errorf("%dx%d:\n%s", sz[0], sz[1], v)
		}
		if n := len(strings.Split(v, "\n")); n != sz[1] {
			t.Errorf("%dx%d: %d lines", sz[0], sz[1], n)
		}
	}
	if v := ansi.Strip(newTour(t, 60, 20).View().Content); strings.Contains(v, "too small") || !strings.Contains(v, "Tour 1/") {
		t.Errorf("60x20:\n%s", v)
	}
}

// Item 6: the tour is never cut for good: on a short terminal the story
// scrolls with ] and [, and every word of every stop's narration can be read.
func TestTourStoryScrolls(t *testing.T) {
	for _, sz := range [][2]int{{64, 20}, {80, 24}} {
		m := newTour(t, sz[0], sz[1])
		for i := 0; i < len(m.stops); i++ {
			// The story window is the band's lines between the title and the
			// outcome and key lines; each ] brings one more line into it.
			var story []string
			for j := 0; j < 60; j++ {
				lines := strings.Split(ansi.Strip(m.View().Content), "\n")
				win := lines[1 : max(sz[1]-16, 4)-2]
				before := m.storyTop
				m, _ = send(t, m, "]")
				if m.storyTop == before {
					story = append(story, win...)
					break
				}
				story = append(story, win[0])
			}
			seen := strings.Join(story, "\n")
			// Compared without white space: a word may wrap at its hyphen.
			words := strings.Join(strings.Fields(seen), "")
			for _, w := range strings.Fields(m.stops[i].Narrate) {
				if !strings.Contains(words, w) {
					t.Errorf("%dx%d stop %d: %q of the narration is never shown", sz[0], sz[1], i, w)
					break
				}
			}
			if i == 5 && !strings.Contains(words, "transceiver.") {
				t.Errorf("%dx%d: stop 6 loses its point about the null timeout", sz[0], sz[1])
			}
			m, _ = send(t, m, "[")
			if m.storyTop < 0 {
				t.Fatal("[ went above the top")
			}
			m, _ = send(t, m, "n")
			if i+1 < len(m.stops) && m.storyTop != 0 {
				t.Errorf("a new stop starts scrolled to %d", m.storyTop)
			}
		}
	}
}

// The first stop's invitation (backend to UCX) changes the outcome, and the band
// says so; the spotlighted step is the selected, expanded one.
func TestTheInvitedEditChangesTheOutcome(t *testing.T) {
	m := newTour(t, 120, 40)
	before := ansi.Strip(m.View().Content)
	if !strings.Contains(before, "Now: Python transceiver, as the story says.") {
		t.Fatalf("stop 1 before the edit:\n%s", before)
	}
	m, _ = send(t, m, "tab", "down", "down", "right")
	if got := m.Explorer().Trace().Result.Outcome; got != resolver.OutcomeCPP {
		t.Fatalf("after backend → UCX the outcome is %s, want CPP", got)
	}
	after := ansi.Strip(m.View().Content)
	if !strings.Contains(after, "Now: C++ transceiver (the story's was Python transceiver: your edit changed it).") {
		t.Errorf("the band does not report the edit:\n%s", after)
	}
	// n starts the next stop from its own preset, not from the edit.
	m, _ = send(t, m, "n")
	if got := m.Explorer().Trace().Inputs.Backend.Value.S; got != "UCX" || m.Explorer().Trace().Result.Outcome != resolver.OutcomeCPP {
		t.Errorf("stop 2 preset: backend %s outcome %s", got, m.Explorer().Trace().Result.Outcome)
	}
}

// While the explorer takes text, n, p and q are letters, not tour keys.
func TestKeysGoToTheExplorerWhileItTakesText(t *testing.T) {
	m := newTour(t, 120, 40)
	m, _ = send(t, m, "tab", "down", "/") // the model picker with its filter
	if !m.Explorer().Capturing() {
		t.Fatal("/ on the model row did not open the picker")
	}
	m, cmd := send(t, m, "n", "p", "q")
	if m.At() != 0 {
		t.Errorf("typing n/p in the picker moved the tour to stop %d", m.At())
	}
	if cmd != nil {
		if _, ok := cmd().(tea.QuitMsg); ok {
			t.Error("typing q in the picker left the tour")
		}
	}
}

func TestNarrationFromAFileIsEscaped(t *testing.T) {
	src := "scenarios:\n  - id: a\n    title: \"evil \\e]0;pwned\\a title\"\n    inputs: {trtllm: 1.3.0rc22, backend: UCX}\n    expect: CPP\n    step: auto\n    narrate: \"look \\e[2J here\"\n"
	stops, err := Parse("t.yaml", []byte(src), nil)
	if err == nil {
		var nm tea.Model = New(stops, ui.Options{Color: "never"})
		nm, _ = nm.Update(tea.WindowSizeMsg{Width: 100, Height: 30})
		band := strings.Join(nm.(Model).band(), "\n")
		if strings.ContainsRune(band, 0x1b) || strings.ContainsRune(band, 0x07) {
			t.Errorf("raw control characters reach the terminal: %q", band)
		}
		return
	}
	t.Fatalf("parse: %v", err)
}

// The tour takes n and p: the explorer under it must not offer them for its own
// next deciding step and colour toggle, in the key bar, the help or the chain's
// hint, while N still steps back through the deciding steps.
func TestTourKeysAreNotOfferedTwice(t *testing.T) {
	m := newTour(t, 120, 40)
	frame := ansi.Strip(m.View().Content)
	for _, bad := range []string{"n/N", "colour on/off"} {
		if strings.Contains(frame, bad) {
			t.Errorf("the tour's frame offers %q:\n%s", bad, frame)
		}
	}
	if !strings.Contains(frame, "N: previous deciding step") && !strings.Contains(frame, "N step") {
		t.Errorf("N is not offered:\n%s", frame)
	}
	m, _ = send(t, m, "?")
	if help := ansi.Strip(m.View().Content); strings.Contains(help, "next/previous deciding step") || strings.Contains(help, "colour on/off") {
		t.Errorf("the help offers the tour's keys:\n%s", help)
	}
}

package ui

import (
	"bytes"
	"context"
	"errors"
	"image/color"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/colorprofile"
	"github.com/charmbracelet/x/ansi"
)

func TestColorProfile(t *testing.T) {
	cases := []struct {
		color   string
		environ []string
		want    colorprofile.Profile
		forced  bool
	}{
		{"never", nil, colorprofile.Ascii, true},
		// no-color.org: any non-empty value, including ones ParseBool rejects.
		{"auto", []string{"NO_COLOR=yes"}, colorprofile.Ascii, true},
		{"auto", []string{"NO_COLOR=0"}, colorprofile.Ascii, true},
		{"auto", []string{"NO_COLOR="}, 0, false},
		{"auto", []string{"TERM=xterm-256color"}, 0, false},
		// --color always beats NO_COLOR and gives at least 256 colours.
		{"always", []string{"NO_COLOR=1", "TERM=dumb"}, colorprofile.ANSI256, true},
	}
	for _, c := range cases {
		got, forced := colorProfile(Options{Color: c.color, Environ: c.environ, Out: &bytes.Buffer{}})
		if forced != c.forced || (forced && got != c.want) {
			t.Errorf("--color %s %v: got %v forced=%v, want %v forced=%v", c.color, c.environ, got, forced, c.want, c.forced)
		}
	}
}

func TestRunRefusesNonTerminal(t *testing.T) {
	err := Run(context.Background(), Options{Spec: testSpec(), Out: &bytes.Buffer{}, In: strings.NewReader("")})
	if !errors.Is(err, ErrNotTerminal) {
		t.Fatalf("Run on a buffer: %v, want ErrNotTerminal", err)
	}
}

// A click on an input row selects it; a second click toggles it. A click on a step
// selects and expands it. The same layout function draws and maps clicks.
func TestMouseClicks(t *testing.T) {
	m := newAt(120, 40)
	_ = m.View()
	l := m.layout()
	// Find the screen line of TRTLLM_USE_UCX_KVCACHE in the inputs pane.
	lines, hits := m.renderInputs(l.inputs.w, l.inputs.h)
	y := -1
	for i, h := range hits {
		if h >= 0 && m.rows[h].env.Name == "TRTLLM_USE_UCX_KVCACHE" {
			y = l.inputs.y + i
			if !strings.Contains(ansi.Strip(lines[i]), "USE_UCX_KVCACHE") {
				t.Fatalf("hit map points at %q", ansi.Strip(lines[i]))
			}
		}
	}
	if y < 0 {
		t.Fatal("UCX row not drawn at 120x40")
	}
	click := tea.MouseClickMsg{X: 5, Y: y, Button: tea.MouseLeft}
	nm, _ := m.Update(click)
	m = nm.(Model)
	if m.rows[m.row].env.Name != "TRTLLM_USE_UCX_KVCACHE" {
		t.Fatalf("first click selected row %d", m.row)
	}
	if _, set := m.spec.Env["TRTLLM_USE_UCX_KVCACHE"]; set {
		t.Fatal("the first click should only select")
	}
	nm, _ = m.Update(click)
	m = nm.(Model)
	if v := m.spec.Env["TRTLLM_USE_UCX_KVCACHE"]; v.Value != "1" {
		t.Fatalf("second click: UCX = %q, want '1'", v.Value)
	}
	// Click step 16 in the chain (drawn lower down; find it by its hit).
	_ = m.View()
	l = m.layout()
	_, chits := m.renderChain(l.chain.w, l.chain.h)
	last := len(m.trace.Steps) - 1
	for i, h := range chits {
		if h == last {
			nm, _ = m.Update(tea.MouseClickMsg{X: l.chain.x + 3, Y: l.chain.y + i, Button: tea.MouseLeft})
			m = nm.(Model)
			break
		}
	}
	if m.focus != paneChain || m.step != last || !m.expanded {
		t.Errorf("clicking step %d: focus %v step %d expanded %v", last+1, m.focus, m.step, m.expanded)
	}
}

// Copy keys return a clipboard command (OSC 52), never write anything themselves,
// and say what they did.
func TestCopyKeys(t *testing.T) {
	m := newAt(80, 24)
	for _, k := range []string{"c", "y"} {
		nm, cmd := m.Update(press(k))
		m = nm.(Model)
		if cmd == nil {
			t.Fatalf("%s: no command", k)
		}
		if !strings.Contains(m.status, "OSC 52") {
			t.Errorf("%s: status %q", k, m.status)
		}
	}
}

func TestConfigYAML(t *testing.T) {
	m := newAt(80, 24)
	if got := configYAML(m.trace); !strings.Contains(got, "backend: NIXL\n") || !strings.Contains(got, "transceiver_runtime: PYTHON\n") {
		t.Errorf("default pin:\n%s", got)
	}
	m = keys(t, m, append(down(4), "right")...) // timeout null
	got := configYAML(m.trace)
	if !strings.HasPrefix(got, "# xcvr: nothing to pin") || !strings.Contains(got, "KvCacheTransceiverV2 requires a finite kv_transfer_timeout_ms") {
		t.Errorf("null timeout:\n%s", got)
	}
}

// r returns to the starting inputs, including the caller's environment.
func TestReset(t *testing.T) {
	s := testSpec()
	s.FromEnviron([]string{"TRTLLM_USE_MPI_KVCACHE=1"})
	m := New(Options{Spec: s, Width: 80, Height: 24})
	start := m.trace.Result
	if m.focus != paneChain {
		t.Fatal("MPI=1 fails start-up at 1.4: the chain should have focus")
	}
	m = keys(t, m, "tab", "down", "down", "right", "down", "right")
	if m.trace.Result == start {
		t.Fatal("the changes did not change the result")
	}
	m = keys(t, m, "r")
	if m.trace.Result != start {
		t.Errorf("after r: %+v, want %+v", m.trace.Result, start)
	}
	if v := m.spec.Env["TRTLLM_USE_MPI_KVCACHE"]; v.Value != "1" || v.Origin.String() != "env" {
		t.Errorf("after r the inherited env var is %+v", v)
	}
}

// A bad raw value stays in the editor with the reason; nothing is applied.
func TestEditRejectsBadValues(t *testing.T) {
	m := newAt(80, 24)
	before := m.trace.Result
	m = keys(t, m, append(append(down(4), "e", "ctrl+u"), append(typed("ten"), "enter")...)...)
	if !m.edit.active || m.edit.err == "" {
		t.Fatalf("editor closed or no error after a bad number: %+v", m.edit)
	}
	if m.trace.Result != before {
		t.Error("a rejected value changed the result")
	}
	m = keys(t, m, "esc", "up", "up", "up", "up", "e", "ctrl+u")
	m = keys(t, m, append(typed("9.9"), "enter")...)
	if !m.edit.active || !strings.Contains(m.edit.err, "version") {
		t.Errorf("bad version accepted: %+v", m.edit)
	}
}

// The NO_COLOR smoke check can fail: it sees 256-colour and 16-colour codes and
// lets attributes and default-colour resets through.
func TestColourSGR(t *testing.T) {
	for s, want := range map[string]bool{
		"\x1b[1;38;5;75m xcvr":          true,
		"\x1b[31mred":                   true,
		"\x1b[0;2m\x1b[39m\x1b[49mx":    false,
		"\x1b[1m bold \x1b[3m it\x1b[m": false,
		"\x1b[?25l cursor":              false,
	} {
		if got := colourSGR(s) != ""; got != want {
			t.Errorf("colourSGR(%q) found colour = %v, want %v", s, got, want)
		}
	}
}

// The palette follows the terminal's answer to the background query; the frame is
// redrawn with it, and the light palette differs from the dark one.
func TestBackgroundSwitchesPalette(t *testing.T) {
	m := newAt(80, 24)
	dark := m.frame()
	nm, _ := m.Update(tea.BackgroundColorMsg{Color: color.White})
	m = nm.(Model)
	if m.styles.IsDark {
		t.Fatal("a white background kept the dark palette")
	}
	light := m.frame()
	if light == dark {
		t.Error("the light frame is the dark frame")
	}
	if ansi.Strip(light) != ansi.Strip(dark) {
		t.Error("switching the palette changed the text, not just the colours")
	}
}

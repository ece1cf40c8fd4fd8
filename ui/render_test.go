package ui

import (
	"strconv"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/exp/golden"

	"xcvr/internal/inputs"
	"xcvr/resolver"
)

// checkFits fails when any line of a frame is not exactly w cells, or the frame is
// not exactly h lines: a longer line wraps in the terminal and a shorter frame
// leaves the previous one's tail on screen.
func checkFits(t *testing.T, frame string, w, h int) {
	t.Helper()
	lines := strings.Split(frame, "\n")
	if len(lines) != h {
		t.Errorf("%dx%d: frame has %d lines, want %d", w, h, len(lines), h)
	}
	for i, l := range lines {
		if got := ansi.StringWidth(l); got > w {
			t.Errorf("%dx%d: line %d is %d cells wide, want at most %d: %q", w, h, i, got, w, ansi.Strip(l))
		}
	}
}

// The layout goldens: the default start, a failing start-up, disaggregation off and
// the model picker, at the three widths the issue names, ANSI stripped.
func TestGoldenFrames(t *testing.T) {
	sizes := [][2]int{{64, 20}, {80, 24}, {120, 40}}
	scenarios := []struct {
		name string
		keys []string
	}{
		{"default", nil},
		// backend UCX with the 1.4 default runtime 'PYTHON': start-up fails.
		{"ucx-fails", append(down(2), "l", "l")},
		// backend none.
		{"disagg-off", append(down(2), "h")},
		// TRTLLM_USE_UCX_KVCACHE=true is set but does not count; chain focused.
		{"ucx-true-ignored", append(append(down(8), "e", "ctrl+u"), append(typed("true"), "enter", "tab", "down", "down", "down", "down")...)},
		{"picker-filter", append([]string{"/"}, typed("deeps")...)},
		{"full-help", []string{"?"}},
	}
	for _, sc := range scenarios {
		for _, sz := range sizes {
			name := sc.name + "/" + strconv.Itoa(sz[0]) + "x" + strconv.Itoa(sz[1])
			t.Run(name, func(t *testing.T) {
				m := keys(t, newAt(sz[0], sz[1]), sc.keys...)
				// Goldens show the settled screen, without the moment-long change marks.
				nm, _ := m.Update(flashDoneMsg{m.flashGen})
				m = nm.(Model)
				f := m.frame()
				checkFits(t, f, sz[0], sz[1])
				golden.RequireEqual(t, []byte(ansi.Strip(f)))
			})
		}
	}
}

// One coloured golden: the escape sequences themselves, so a palette or attribute
// change shows up in review.
func TestGoldenColour(t *testing.T) {
	m := keys(t, newAt(80, 24), append(down(8), "space")...)
	golden.RequireEqual(t, []byte(m.frame()))
}

// Every size from the minimum up fits, in both layouts, with the picker, with the
// editor open and with the chain focused and expanded.
func TestEveryLineFits(t *testing.T) {
	states := [][]string{
		nil,
		{"tab", "enter"},
		{"tab", "down", "down", "down", "down", "down", "down"},
		append(down(8), "space"),
		{"/", "l"},
		append(down(4), "e", "1", "2"),
		{"?"},
	}
	for w := minWidth; w <= 140; w += 7 {
		for _, h := range []int{minHeight, 20, 24, 31, 40} {
			for _, st := range states {
				m := keys(t, newAt(w, h), st...)
				checkFits(t, m.frame(), w, h)
			}
		}
	}
}

func TestTooSmall(t *testing.T) {
	for _, sz := range [][2]int{{minWidth - 1, 30}, {100, minHeight - 1}, {20, 5}} {
		m := newAt(sz[0], sz[1])
		f := m.frame()
		if !strings.Contains(strings.Join(strings.Fields(f), " "), "terminal too small (need 60×16)") {
			t.Errorf("%v: want the too-small message, got %q", sz, f)
		}
		checkFits(t, f, sz[0], sz[1])
	}
}

// Under no colour the state must still be readable: verdict words and glyphs, the
// change mark and the selection marker are text, not colour.
func TestStateWithoutColour(t *testing.T) {
	m := keys(t, newAt(120, 40), append(down(2), "l", "l")...)
	f := ansi.Strip(m.frame())
	for _, want := range []string{"✗ error", "✓ applied", "· skipped", "Start-up fails:", "changed", "› backend", " * "} {
		if !strings.Contains(f, want) {
			t.Errorf("plain frame lacks %q:\n%s", want, f)
		}
	}
}

// Resizing replaces the frame and the cache: the new frame has the new size.
func TestResizeRedraws(t *testing.T) {
	m := newAt(120, 40)
	_ = m.frame()
	nm, _ := m.Update(tea.WindowSizeMsg{Width: 70, Height: 20})
	m = nm.(Model)
	checkFits(t, m.frame(), 70, 20)
	if strings.Contains(ansi.Strip(m.frame()), "│") {
		t.Error("at 70 columns the panes should be stacked, not side by side")
	}
}

// A View of an unchanged model is the cached frame: nothing is re-rendered.
func TestViewIsCached(t *testing.T) {
	m := newAt(120, 40)
	a := m.View().Content
	allocs := testing.AllocsPerRun(50, func() { _ = m.View() })
	if allocs > 2 {
		t.Errorf("View of an unchanged model allocates %v times; want the cached frame", allocs)
	}
	m = keys(t, m, "down")
	if m.View().Content == a {
		t.Error("moving the selection did not change the frame")
	}
}

// Changing an input re-resolves; moving the selection does not.
func TestResolveOnlyOnChange(t *testing.T) {
	n := 0
	m := New(Options{Spec: testSpec(), Width: 80, Height: 24, observe: func(resolver.Trace) { n++ }})
	n = 0
	m = keys(t, m, "down", "down", "tab", "down", "tab")
	if n != 0 {
		t.Errorf("moving around re-resolved %d times", n)
	}
	m = keys(t, m, "l")
	if n != 1 {
		t.Errorf("changing the backend re-resolved %d times, want 1", n)
	}
	_ = m
}

func TestStepsAreNumberedWithVerdictWords(t *testing.T) {
	m := newAt(120, 40)
	f := ansi.Strip(m.frame())
	for i := range m.trace.Steps {
		s := m.trace.Steps[i]
		want := strconv.Itoa(i+1) + " " + strings.TrimSpace(reportGlyphWord(s.Verdict))
		if !strings.Contains(f, want) {
			t.Errorf("step %d (%s): frame lacks %q", i+1, s.ID, want)
		}
	}
}

// The fast width path must agree with x/ansi on everything the explorer draws,
// and fall back to it for what it does not know (wide, combining, emoji).
func TestFitPlainAgreesWithAnsi(t *testing.T) {
	for _, s := range []string{
		"", "abc", "runtime 'PYTHON' -> None", "✓ applied", "DEFAULT → NIXL … ok",
		"日本語のモデル名", "e\u0301te\u0301", "✅ done", "tab\there", "Ünïcödé Latin-1 ß",
	} {
		if got, want := cells(s), ansi.StringWidth(s); got != want {
			t.Errorf("cells(%q) = %d, x/ansi says %d", s, got, want)
		}
		for w := 0; w <= ansi.StringWidth(s)+1; w++ {
			got := fitPlain(s, w)
			if gw := ansi.StringWidth(got); gw > w {
				t.Errorf("fitPlain(%q, %d) = %q, %d cells wide", s, w, got, gw)
			}
			if ansi.StringWidth(s) <= w && got != s {
				t.Errorf("fitPlain(%q, %d) = %q, want it unchanged", s, w, got)
			}
			if ansi.StringWidth(s) > w && w > 0 && !strings.HasSuffix(got, "…") {
				t.Errorf("fitPlain(%q, %d) = %q, want an ellipsis at the cut", s, w, got)
			}
		}
	}
}

// Without colour, the focused pane is still told apart: its title rule is heavy.
func TestFocusVisibleWithoutColour(t *testing.T) {
	for _, sz := range [][2]int{{80, 24}, {120, 40}} {
		m := newAt(sz[0], sz[1])
		for _, focus := range []string{"Inputs", "Chain"} {
			plain := ansi.Strip(m.frame())
			if !strings.Contains(plain, "━━ "+focus) {
				t.Errorf("%v: focused %s pane has no heavy rule:\n%s", sz, focus, plain)
			}
			if strings.Count(plain, "━━ ") != 1 {
				t.Errorf("%v: want exactly one heavy rule:\n%s", sz, plain)
			}
			m = keys(t, m, "tab")
		}
	}
}

// p turns colour off and on in the app: the plain frame has the same text and no
// colour sequences, and every state is still there in glyphs and words.
func TestPlainToggle(t *testing.T) {
	m := keys(t, newAt(120, 40), append(down(2), "l", "l")...)
	coloured := m.frame()
	m = keys(t, m, "p")
	plain := m.frame()
	if !m.styles.Plain {
		t.Fatal("p did not switch to plain")
	}
	if strings.Contains(plain, "38;2;") || strings.Contains(plain, "48;2;") {
		t.Errorf("plain frame still has colour sequences:\n%q", plain)
	}
	if !strings.Contains(ansi.Strip(plain), "colour off") {
		t.Errorf("no status after p:\n%s", ansi.Strip(plain))
	}
	// A background answer arriving later keeps the frame plain.
	nm, _ := m.Update(tea.BackgroundColorMsg{})
	m = nm.(Model)
	if !m.styles.Plain {
		t.Error("the terminal's background answer brought colour back")
	}
	m = keys(t, m, "p")
	if m.styles.Plain || !strings.Contains(m.frame(), "38;2;") {
		t.Error("p again did not bring colour back")
	}
	_ = coloured
}

// A log line longer than the width is wrapped, not cut, when the outcome has
// lines to spare; its words all reach the screen.
func TestLongLogLineWraps(t *testing.T) {
	// 1.3.0rc28, Kimi K3 (the 13th catalog entry) on UCX: one long INFO line
	// naming the model, config load's KV-manager line, then the failure.
	ks := append([]string{"h", "h", "h", "h", "h", "down"}, strings.Split(strings.Repeat("l", 12), "")...)
	m := keys(t, newAt(80, 24), append(ks, "down", "l", "l")...)
	plain := ansi.Strip(m.frame())
	if len(m.trace.Logs) != 2 || cells(m.trace.Logs[0].Message) < 70 {
		t.Fatalf("scenario changed: logs %v", m.trace.Logs)
	}
	want := m.trace.Logs[0].Message
	if !strings.Contains(strings.Join(strings.Fields(plain), " "), want) {
		// The outcome ran out of rows: it must say so, and o must show the line whole.
		if !strings.Contains(plain, "more lines · ") || !strings.Contains(plain, "o shows") {
			t.Errorf("the log line is cut without a mark (%q):\n%s", want, plain)
		}
		mo := keys(t, m, "o")
		o := ansi.Strip(mo.frame())
		if !strings.Contains(strings.Join(strings.Fields(o), " "), want) {
			t.Errorf("the whole outcome lacks the log line (%q):\n%s", want, o)
		}
	}
	checkFits(t, m.frame(), 80, 24)
}

// A long file origin gives up its directories before it hides the value it set.
func TestLongOriginKeepsValue(t *testing.T) {
	s := testSpec()
	s.Backend = inputs.Value{Raw: "NIXL", Origin: resolver.Origin{Kind: resolver.OriginFile, Detail: "deploy/testdata/disagg-mismatch.yaml:11"}}
	for _, w := range []int{64, 80, 100, 120} {
		m := New(Options{Spec: s, Width: w, Height: 30})
		plain := ansi.Strip(m.frame())
		if !strings.Contains(plain, "backend    NIXL") || !strings.Contains(plain, "disagg-mismatch.yaml:11") {
			t.Errorf("%d columns: backend row lost its value or its origin:\n%s", w, plain)
		}
	}
}

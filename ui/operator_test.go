package ui

import (
	"math"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/colorprofile"
	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/exp/teatest/v2"

	"xcvr/internal/deploy"
	"xcvr/internal/inputs"
	"xcvr/internal/report"
	"xcvr/models"
	"xcvr/resolver"
)

// The sizes: small, SSH default, demo.
var operatorSizes = [][2]int{{64, 20}, {80, 24}, {120, 40}, {200, 60}}

const badYAML = `backend: pytorch
cache_transceiver_config:
  backend: NIXL
  kv_transfer_timeout_ms: "600s"
  enable_pipelined_transfer: maybe
`

// badSpec is what the CLI builds for --config bad.yaml (and, with flags, for
// --config bad.yaml plus those flags): the plain defaults, flags on top, then the
// file applied by deploy.Apply.
func badSpec(t *testing.T, flags map[string]string) inputs.Spec {
	t.Helper()
	ov, err := deploy.ReadWorkerConfig("bad.yaml", []byte(badYAML))
	if err != nil {
		t.Fatal(err)
	}
	s := testSpec()
	flag := func(n string) resolver.Origin { return resolver.Origin{Kind: resolver.OriginFlag, Detail: "--" + n} }
	for k, v := range flags {
		switch k {
		case "timeout-ms":
			s.TimeoutMS = inputs.Value{Raw: v, Origin: flag(k)}
		case "pipelined":
			s.Pipelined = inputs.Value{Raw: v, Origin: flag(k)}
		}
	}
	deploy.Apply(&s, ov)
	return s
}

func plainFrame(m Model) string { return ansi.Strip(m.frame()) }

// Item 1: a timeout typed with e and a pipelined value chosen in the explorer
// override the file's invalid values exactly as --timeout-ms and --pipelined do.
func TestEditOverridesInvalidFileValue(t *testing.T) {
	m := New(Options{Spec: badSpec(t, nil), Width: 120, Height: 40})
	if m.trace.Result.Outcome != resolver.OutcomeError {
		t.Fatalf("the bad file should fail start-up, got %s", m.trace.Result.Outcome)
	}
	m = keys(t, m, "tab") // the failure focused the chain; back to the inputs
	m = keys(t, m, down(int(rowTimeout))...)
	m = keys(t, m, "e")
	if got := m.edit.in.Value(); got != "600s" {
		t.Errorf("e on the timeout row pre-fills %q, want the file's 600s", got)
	}
	m = keys(t, m, append([]string{"ctrl+u"}, append(typed("5000"), "enter")...)...)
	if m.edit.active {
		t.Fatalf("5000 was not accepted: %s", m.edit.err)
	}
	if !strings.Contains(m.trace.Result.Error, "enable_pipelined_transfer") || strings.Contains(m.trace.Result.Error, "kv_transfer_timeout_ms") {
		t.Fatalf("after typing 5000 only the pipelined error should remain:\n%s", m.trace.Result.Error)
	}
	m = keys(t, m, down(int(rowPipelined-rowTimeout))...)
	m = keys(t, m, "right") // the file's 'maybe' -> the first choice (omitted)
	m = keys(t, m, "right")
	if m.spec.Pipelined.Raw != "true" {
		t.Fatalf("pipelined %q, want true", m.spec.Pipelined.Raw)
	}
	want := resolver.Resolve(mustBuild(t, badSpec(t, map[string]string{"timeout-ms": "5000", "pipelined": "true"})))
	if m.trace.Result != want.Result {
		t.Errorf("explorer edits: %+v\nthe same flags: %+v", m.trace.Result, want.Result)
	}
	if m.trace.Result.Outcome == resolver.OutcomeError {
		t.Errorf("the edits should fix start-up: %s", m.trace.Result.Error)
	}
	f := plainFrame(m)
	for _, want := range []string{"explorer (overrides bad.yaml:4)", "explorer (overrides bad.yaml:5)"} {
		if !strings.Contains(f, want) {
			t.Errorf("frame lacks %q:\n%s", want, f)
		}
	}
	// r brings the file's values back, errors included.
	m = keys(t, m, "r")
	if m.trace.Result.Outcome != resolver.OutcomeError {
		t.Errorf("after r the file's invalid values should fail again")
	}
}

func mustBuild(t *testing.T, s inputs.Spec) resolver.Inputs {
	t.Helper()
	in, err := inputs.Build(s, models.Builtin())
	if err != nil {
		t.Fatal(err)
	}
	return in
}

// Item 2: the rows show the file's raw value with FILE:LINE, marked invalid, at
// every size; explain -o json does too (report.InputsJSON).
func TestRowsShowInvalidFileValue(t *testing.T) {
	for _, sz := range operatorSizes {
		m := New(Options{Spec: badSpec(t, nil), Width: sz[0], Height: sz[1]})
		m = keys(t, m, "tab")
		m = keys(t, m, down(int(rowPipelined))...)
		f := plainFrame(m)
		for _, want := range []string{"'600s' ✗ invalid", "'maybe' ✗ invalid", "bad.yaml:4", "bad.yaml:5"} {
			if !strings.Contains(f, want) {
				t.Errorf("%dx%d: frame lacks %q:\n%s", sz[0], sz[1], want, f)
			}
		}
	}
	s := badSpec(t, nil)
	js := report.InputsJSON(mustBuild(t, s))
	if got := js["kv_transfer_timeout_ms"]; got.Value != "600s" || got.Origin != "bad.yaml:4" || got.Invalid == "" {
		t.Errorf("json timeout = %+v, want the file's '600s' at bad.yaml:4, invalid", got)
	}
	if got := js["enable_pipelined_transfer"]; got.Value != "maybe" || got.Origin != "bad.yaml:5" || got.Invalid == "" {
		t.Errorf("json pipelined = %+v", got)
	}
	if got := js["backend"]; got.Invalid != "" {
		t.Errorf("a valid file value is not invalid: %+v", got)
	}
}

// Item 3: pydantic's per-field lines are in the outcome, not only its title.
func TestOutcomeShowsPydanticFieldLines(t *testing.T) {
	m := New(Options{Spec: badSpec(t, nil), Width: 120, Height: 40})
	f := plainFrame(m)
	for _, want := range []string{"2 validation errors for TorchLlmArgs", "cache_transceiver_config.kv_transfer_timeout_ms",
		"Input should be a valid integer, unable to parse string as an integer", "cache_transceiver_config.enable_pipelined_transfer",
		"input_value='maybe'"} {
		if !strings.Contains(f, want) {
			t.Errorf("outcome lacks %q:\n%s", want, f)
		}
	}
}

// Item 5: at 64×20 and 60×16 the whole exception can be read, by scrolling the
// outcome view, and the frame marks what it does not show.
func TestWholeExceptionReadableSmall(t *testing.T) {
	for _, sz := range [][2]int{{64, 20}, {60, 16}} {
		m := New(Options{Spec: badSpec(t, nil), Width: sz[0], Height: sz[1]})
		if f := plainFrame(m); !strings.Contains(f, "more lines · ") || !strings.Contains(f, "o shows") {
			t.Errorf("%dx%d: the cut outcome has no mark:\n%s", sz[0], sz[1], f)
		}
		m = keys(t, m, "o")
		var seen strings.Builder
		for i := 0; i < 40; i++ {
			f := plainFrame(m)
			checkFits(t, m.frame(), sz[0], sz[1])
			seen.WriteString(f)
			m = keys(t, m, "down")
		}
		text := strings.Join(strings.Fields(seen.String()), " ")
		for _, l := range strings.Split(m.trace.Result.Error, "\n") {
			for _, word := range strings.Fields(l) {
				if !strings.Contains(text, word) {
					t.Errorf("%dx%d: %q of the exception never shows", sz[0], sz[1], word)
				}
			}
		}
		if m = keys(t, m, "o"); m.outView {
			t.Error("o does not close the outcome view")
		}
	}
}

// Item 5: an editor error is shown whole, wrapped, not cut with "…".
func TestTypedErrorShownWhole(t *testing.T) {
	for _, sz := range operatorSizes {
		// Any X.Y.Z[rcN] from 1.0 is placed now; a malformed one is still refused.
		m := keys(t, newAt(sz[0], sz[1]), append([]string{"e", "ctrl+u"}, append(typed("1.9.9x"), "enter")...)...)
		if m.edit.err == "" {
			t.Fatal("1.9.9x was accepted")
		}
		f := strings.Join(strings.Fields(plainFrame(m)), " ")
		last := "1.0.0rc0 to 1.4.0rc4"
		if !strings.Contains(m.edit.err, last) || !strings.Contains(f, last) || !strings.Contains(f, "or main@YYYY-MM-DD") {
			t.Errorf("%dx%d: the error is not shown whole:\n%s", sz[0], sz[1], plainFrame(m))
		}
		checkFits(t, m.frame(), sz[0], sz[1])
	}
}

// Item 4: y says when there is nothing to pin and never claims a copy then;
// when it copies it says OSC 52 may be ignored and names -o yaml; the status
// fits at 80 columns.
func TestCopyYAMLHonest(t *testing.T) {
	m := New(Options{Spec: badSpec(t, nil), Width: 80, Height: 24})
	nm, cmd := m.Update(press("y"))
	m = nm.(Model)
	if !strings.HasPrefix(m.status, "nothing to pin") || !m.statusErr {
		t.Errorf("failing start-up: status %q", m.status)
	}
	if clip := clipboardOf(cmd); clip != "" {
		t.Errorf("nothing to pin, but %q was copied", clip)
	}
	m = newAt(80, 24)
	nm, cmd = m.Update(press("y"))
	m = nm.(Model)
	if clip := clipboardOf(cmd); !strings.Contains(clip, "cache_transceiver_config:") {
		t.Errorf("y copied %q", clip)
	}
	for _, want := range []string{"OSC 52", "may be ignored", "-o yaml"} {
		if !strings.Contains(m.status, want) {
			t.Errorf("status %q lacks %q", m.status, want)
		}
	}
	if !statusShown(m) {
		t.Errorf("the status is not above the key bar at 80 columns:\n%s", plainFrame(m))
	}
	// Both roles: both blocks, nested under their sections.
	r := newRoles(80, 24)
	nm, cmd = r.Update(press("y"))
	r = nm.(Model)
	clip := clipboardOf(cmd)
	if r.trace.Result.Outcome != resolver.OutcomeError && r.other.trace.Result.Outcome != resolver.OutcomeError {
		for _, want := range []string{"context_servers:\n", "generation_servers:\n", "  cache_transceiver_config:\n"} {
			if !strings.Contains(clip, want) {
				t.Errorf("roles copy lacks %q:\n%s", want, clip)
			}
		}
	} else if !strings.Contains(r.status, "role fails") {
		t.Errorf("roles with a failing role: status %q", r.status)
	}
	if !statusShown(r) {
		t.Errorf("the roles status is not above the key bar at 80 columns:\n%s", plainFrame(r))
	}
}

// statusShown reports whether the model's status is shown whole in the status
// area above the key bar.
func statusShown(m Model) bool {
	lines := strings.Split(plainFrame(m), "\n")
	foot := strings.Join(strings.Fields(strings.Join(lines[len(lines)-5:], " ")), " ")
	return m.status != "" && strings.Contains(foot, strings.Join(strings.Fields(m.status), " "))
}

// clipboardOf runs a command (and the commands of a batch) and returns what it
// asks to copy, "" when nothing.
func clipboardOf(cmd tea.Cmd) string {
	if cmd == nil {
		return ""
	}
	msg := cmd()
	if v := reflect.ValueOf(msg); v.IsValid() && v.Type().Name() == "setClipboardMsg" {
		// tea.SetClipboard's message type is unexported; it is a string.
		return v.String()
	}
	switch msg := msg.(type) {
	case tea.BatchMsg:
		for _, c := range msg {
			if c == nil {
				continue
			}
			if _, ok := c().(statusDoneMsg); ok {
				continue // a timer: never run it
			}
			if s := clipboardOf(c); s != "" {
				return s
			}
		}
	}
	return ""
}

// Item 6: cycling clamps at both ends with a hint, for → and enter; the bar
// says what enter does on the selected row.
func TestCyclingClamps(t *testing.T) {
	m := newAt(80, 24)
	newest := m.spec.Version.Raw
	m = keys(t, m, "right")
	if m.spec.Version.Raw != newest || !strings.Contains(m.status, "newest") {
		t.Errorf("→ on the newest version: %q, status %q", m.spec.Version.Raw, m.status)
	}
	if f := plainFrame(m); !strings.Contains(f, "enter pick version") {
		t.Errorf("the bar does not say what enter does on the version row:\n%s", f)
	}
	m = keys(t, m, "enter")
	if !m.pick.open || m.pick.kind != rowVersion || !m.pick.filtering {
		t.Error("enter on the version row does not open the version picker, typing")
	}
	m = keys(t, m, "esc", "esc", "down", "down") // backend
	for i := 0; i < 10; i++ {
		m = keys(t, m, "right")
	}
	if m.spec.Backend.Raw != "MOONCAKE" || !strings.Contains(m.status, "last choice") {
		t.Errorf("→ past the last backend: %q, status %q", m.spec.Backend.Raw, m.status)
	}
	m = keys(t, m, "enter")
	if m.spec.Backend.Raw != "MOONCAKE" {
		t.Errorf("enter past the last backend wrapped to %q", m.spec.Backend.Raw)
	}
	for _, c := range []struct {
		row  rowKind
		word string
	}{{rowModel, "enter pick model"}, {rowTimeout, "enter type ms"}, {rowEnv, "enter toggle"}, {rowLoader, "enter next value"}} {
		mm := keys(t, newAt(120, 40), down(int(c.row))...)
		if f := plainFrame(mm); !strings.Contains(f, c.word) {
			t.Errorf("row %d: bar lacks %q", c.row, c.word)
		}
	}
}

// Item 8: a start-up failure opens the chain on the ✗ step, expanded, on screen at
// every size; n/N move between the deciding steps; the titles mark hidden lines.
func TestFailureOpensOnFailingStep(t *testing.T) {
	s := testSpec()
	s.Env[resolver.EnvUseUCX] = resolver.EnvVar{Value: "1", Origin: resolver.Origin{Kind: resolver.OriginEnv}}
	for _, sz := range operatorSizes {
		m := New(Options{Spec: s, Width: sz[0], Height: sz[1]})
		fail := m.trace.Steps[m.step]
		if fail.Verdict != resolver.Error || m.focus != paneChain || !m.showDetail() {
			t.Fatalf("%dx%d: selected step %s (%s), focus %d", sz[0], sz[1], fail.ID, fail.Verdict, m.focus)
		}
		f := plainFrame(m)
		num := strconv.Itoa(m.step+1) + " ✗ error"
		if !strings.Contains(f, num) || !strings.Contains(f, fail.Reason[:min(len(fail.Reason), 30)]) {
			t.Errorf("%dx%d: the failing step is not on screen expanded:\n%s", sz[0], sz[1], f)
		}
		if sz[1] < 40 && !strings.Contains(f, "more ·") && !strings.Contains(f, "↓") {
			t.Errorf("%dx%d: no scroll mark:\n%s", sz[0], sz[1], f)
		}
		prev := m.step
		m = keys(t, m, "N")
		if m.step >= prev {
			t.Fatalf("N did not go up from %d", prev)
		}
		if v := m.trace.Steps[m.step].Verdict; v != resolver.Applied && v != resolver.Fallback {
			t.Errorf("N stopped on a %s step", v)
		}
		m = keys(t, m, "n")
		if m.step != prev {
			t.Errorf("n went to %d, want back to %d", m.step, prev)
		}
	}
}

// Item 9: at 120 columns the bar has v compare and m matrix; a long
// architecture name does not push the picker's columns; an overriding flag's
// value stays visible next to its origin.
func TestUseTheWidth(t *testing.T) {
	f := plainFrame(newAt(120, 40))
	for _, want := range []string{"v compare", "m matrix", "? help", "q quit"} {
		if !strings.Contains(strings.Split(strings.TrimRight(f, "\n"), "\n")[39], want) {
			t.Errorf("120 columns: bar lacks %q", want)
		}
	}
	s := testSpec()
	s.Backend = inputs.Value{Raw: "UCX", Origin: resolver.Origin{Kind: resolver.OriginFlag,
		Detail: "--backend (overrides deploy/testdata/some/long/path/gen.yaml:15)"}}
	for _, sz := range operatorSizes {
		m := keys(t, New(Options{Spec: s, Width: sz[0], Height: sz[1]}), "tab")
		if m.focus != paneInputs {
			m = keys(t, m, "tab")
		}
		f := plainFrame(m)
		if !strings.Contains(f, "backend    UCX") || !strings.Contains(f, "flag --backend") {
			t.Errorf("%dx%d: the flag's value or origin is hidden:\n%s", sz[0], sz[1], f)
		}
	}
	// Every picker line has its preference in the same column, long name or not.
	m := keys(t, newAt(80, 24), "down", "enter")
	col := -1
	for _, l := range strings.Split(plainFrame(m), "\n") {
		i := strings.Index(l, "prefers ")
		if i < 0 {
			i = strings.Index(l, "no preference")
		}
		if i < 0 {
			continue
		}
		c := ansi.StringWidth(l[:i])
		if col >= 0 && c != col {
			t.Errorf("preference at column %d, want %d: %q", c, col, l)
		}
		col = c
	}
	if col < 0 {
		t.Fatal("no picker lines")
	}
}

// Item 10: change marks stay until the next change (no timer ends them).
func TestChangeMarksStay(t *testing.T) {
	m := newAt(120, 40)
	nm, cmd := m.Update(press("down"))
	m = nm.(Model)
	nm, cmd = m.Update(press("down"))
	m = nm.(Model)
	nm, cmd = m.Update(press("right")) // backend DEFAULT -> NIXL
	m = nm.(Model)
	if cmd != nil {
		if _, ok := cmd().(flashDoneMsg); ok {
			t.Error("a change schedules the end of its marks")
		}
	}
	if len(m.changed) == 0 {
		t.Fatal("DEFAULT -> NIXL changed no step")
	}
	m = keys(t, m, "tab", "down", "down", "up")
	if len(m.changed) == 0 || !strings.Contains(plainFrame(m), "*") {
		t.Error("marks went away without a change")
	}
	m = keys(t, m, "tab", "right") // NIXL -> UCX: new marks
	if m.changed[resolver.StepVersion] {
		t.Error("the version step did not change")
	}
}

// Item 11: in the compare view the version step alone is no change, and the
// outcome row stays on screen at 80×24; the matrix marks hidden rows and shows
// the cursor cell's outcome.
func TestCompareAndMatrixOperator(t *testing.T) {
	m := keys(t, newAt(80, 24), "v")
	f := plainFrame(m)
	if !strings.Contains(f, "no change") {
		t.Errorf("same inputs, two versions of one era: want no change:\n%s", f)
	}
	m = keys(t, m, down(15)...)
	if f := plainFrame(m); !strings.Contains(f, "  outcome  ") && !strings.Contains(f, " outcome ") {
		t.Errorf("80x24: the compare outcome row is off screen:\n%s", f)
	}
	mx := keys(t, newAt(80, 24), "m")
	f = plainFrame(mx)
	if !strings.Contains(f, "↓") || !strings.Contains(f, "▶ cell: ") {
		t.Errorf("matrix lacks a scroll mark or the cell's outcome:\n%s", f)
	}
	mx = keys(t, mx, "right", "right") // to UCX: the cell fails, its exception is shown
	if f := plainFrame(mx); !strings.Contains(f, "Start-up fails") {
		t.Errorf("matrix cell's failure not shown:\n%s", f)
	}
}

// Item 12: x copies the xcvr explain command line that reproduces the screen, and
// shows it.
func TestCopyCommandLine(t *testing.T) {
	m := New(Options{Spec: badSpec(t, nil), Width: 80, Height: 24, Command: []string{"--config", "bad.yaml"}})
	m = keys(t, m, "tab")
	m = keys(t, m, down(int(rowTimeout))...)
	m = keys(t, m, append([]string{"e", "ctrl+u"}, append(typed("5000"), "enter")...)...)
	m = keys(t, m, down(int(rowEnv-rowTimeout))...)
	m = keys(t, m, "e", "ctrl+u", "t", "r", "u", "e", "enter") // TRTLLM_USE_NIXL_KVCACHE=true
	nm, cmd := m.Update(press("x"))
	m = nm.(Model)
	clip := clipboardOf(cmd)
	want := "xcvr explain --config bad.yaml --timeout-ms 5000 --clean-env --env TRTLLM_USE_NIXL_KVCACHE=true"
	if clip != want {
		t.Errorf("x copied\n%q\nwant\n%q", clip, want)
	}
	if f := strings.Join(strings.Fields(plainFrame(m)), " "); !strings.Contains(f, want) {
		t.Errorf("the command line is not shown:\n%s", plainFrame(m))
	}
	if got := ShellQuote("it's"); got != `'it'\''s'` {
		t.Errorf("ShellQuote: %s", got)
	}
	// The command line replaces the status line and stays until the next key;
	// then the status line is empty: the y of a moment before came back (v
	// after y and x showed "YAML sent by OSC 52" again).
	m = keys(t, newAt(80, 24), "y", "x", "v")
	if f := plainFrame(m); strings.Contains(f, "YAML sent") || strings.Contains(f, "copied (OSC 52)") {
		t.Errorf("after y, x and v the status line is not empty:\n%s", f)
	}
}

// Item 13: the wheel scrolls the pane under the pointer; ctrl+z suspends; the
// filter's key bar offers no k/j, which are typed there.
func TestWheelSuspendFilterKeys(t *testing.T) {
	m := newAt(120, 40)
	l := m.layout()
	nm, _ := m.Update(tea.MouseWheelMsg{X: l.chain.x + 5, Y: l.chain.y + 3, Button: tea.MouseWheelDown})
	m = nm.(Model)
	if m.focus != paneChain || m.step != 1 {
		t.Errorf("wheel down over the chain: focus %d step %d", m.focus, m.step)
	}
	nm, _ = m.Update(tea.MouseWheelMsg{X: 2, Y: l.inputs.y + 3, Button: tea.MouseWheelDown})
	m = nm.(Model)
	if m.focus != paneInputs || m.row != 1 {
		t.Errorf("wheel down over the inputs: focus %d row %d", m.focus, m.row)
	}
	_, cmd := m.Update(tea.KeyPressMsg{Code: 'z', Mod: tea.ModCtrl})
	if cmd == nil {
		t.Fatal("ctrl+z does nothing")
	}
	if _, ok := cmd().(tea.SuspendMsg); !ok {
		t.Error("ctrl+z does not suspend")
	}
	m = keys(t, newAt(80, 24), "/")
	bar := strings.Split(strings.TrimRight(plainFrame(m), "\n"), "\n")[23]
	if strings.Contains(bar, "k") && strings.Contains(bar, "↑/k") || strings.Contains(bar, "↓/j") {
		t.Errorf("the filter's bar offers k/j: %q", bar)
	}
	m = keys(t, m, "k", "j")
	if m.pick.filter.Value() != "kj" {
		t.Errorf("k and j are not typed into the filter: %q", m.pick.filter.Value())
	}
}

// Item 14: footer, help and dim text meet WCAG AA (4.5:1) on the background each
// palette is for.
func TestContrast(t *testing.T) {
	for _, dark := range []bool{false, true} {
		p := paletteFor(dark)
		for name, fg := range map[string]string{"grey (footer descriptions, origins, hints)": p.grey, "text (footer keys)": p.fg,
			"green": p.green, "red": p.red, "yellow": p.yellow, "blue": p.blue, "purple": p.purple} {
			if r := contrast(fg, p.bg); r < 4.5 {
				t.Errorf("dark=%v: %s %s on %s is %.2f:1, want at least 4.5:1", dark, name, fg, p.bg, r)
			}
		}
		// The selection and change backgrounds keep the text on them readable.
		for name, bg := range map[string]string{"selection": p.selBg, "blurred selection": p.blurBg} {
			if r := contrast(p.fg, bg); r < 4.5 {
				t.Errorf("dark=%v: text on %s %s is %.2f:1", dark, name, bg, r)
			}
		}
		if r := contrast(p.yellow, p.chgBg); r < 3 {
			t.Errorf("dark=%v: change mark on its background is %.2f:1", dark, r)
		}
	}
	// bubbles' default greys fail, which is why the help has its own styles.
	if r := contrast("#4e4e4e", "#000000"); r >= 4.5 {
		t.Errorf("colour 239 on black is %.2f:1; the test's formula is off", r)
	}
}

// contrast is the WCAG 2 contrast ratio of two #RRGGBB colours.
func contrast(a, b string) float64 {
	la, lb := luminance(a), luminance(b)
	if la < lb {
		la, lb = lb, la
	}
	return (la + 0.05) / (lb + 0.05)
}

func luminance(hex string) float64 {
	v, _ := strconv.ParseUint(strings.TrimPrefix(hex, "#"), 16, 32)
	ch := func(c uint64) float64 {
		s := float64(c) / 255
		if s <= 0.03928 {
			return s / 12.92
		}
		return math.Pow((s+0.055)/1.055, 2.4)
	}
	return 0.2126*ch(v>>16&0xff) + 0.7152*ch(v>>8&0xff) + 0.0722*ch(v&0xff)
}

// Item 15: the editor is a real line editor: word delete, home, completion.
func TestEditorIsTextinput(t *testing.T) {
	m := keys(t, newAt(80, 24), "e", "ctrl+u")
	m = keys(t, m, typed("1.4.0r")...)
	m = keys(t, m, "tab")
	if got := m.edit.in.Value(); !strings.HasPrefix(got, "1.4.0r") || len(got) <= len("1.4.0r") {
		t.Errorf("tab did not complete a known version: %q", got)
	}
	m = keys(t, m, "ctrl+u")
	m = keys(t, m, typed("abc def")...)
	m = keys(t, m, "ctrl+w")
	if got := m.edit.in.Value(); got != "abc " {
		t.Errorf("ctrl+w left %q", got)
	}
	m = keys(t, m, "home", "x")
	if got := m.edit.in.Value(); got != "xabc " {
		t.Errorf("home then x: %q", got)
	}
	m = keys(t, m, "ctrl+u")
	m = keys(t, m, typed("main@2026-0")...)
	m = keys(t, m, "tab")
	if got := m.edit.in.Value(); !strings.HasPrefix(got, "main@2026-0") || len(got) != len("main@2026-03-17") {
		t.Errorf("tab did not complete a main@ day: %q", got)
	}
}

// Item 4: every status message, fixed or long (an error quoting input), is
// shown whole in the one status area above the key bar.
func TestStatusFits80(t *testing.T) {
	msgs := []string{
		"nothing to pin: start-up fails (o shows why)",
		"YAML sent by OSC 52 (may be ignored; explain -o yaml prints it)",
		"both roles' YAML sent by OSC 52 (may be ignored)",
		"nothing to pin: the context and generation role fails",
		"chain sent as Markdown by OSC 52 (a terminal may ignore it)",
		"no deciding step below; N goes back up", "no deciding step above; n goes down",
		"colour off; p turns it back on", "reset to the starting inputs",
	}
	for _, r := range buildRows() {
		msgs = append(msgs, endHint(r, true), endHint(r, false))
	}
	// One status area: every message is above the key bar, whole, and the
	// header line never carries one (the copied command line of x goes there
	// too, see TestCopyCommandLine).
	for _, s := range msgs {
		for _, sz := range operatorSizes {
			m := newAt(sz[0], sz[1])
			m.setStatus(s, false)
			m.rev++
			lines := strings.Split(plainFrame(m), "\n")
			if strings.Contains(lines[0], s[:10]) {
				t.Errorf("%dx%d: status %q in the header", sz[0], sz[1], s)
			}
			foot := strings.Join(strings.Fields(strings.Join(lines[len(lines)-5:], " ")), " ")
			if !strings.Contains(foot, strings.Join(strings.Fields(s), " ")) {
				t.Errorf("%dx%d: status %q not whole above the key bar:\n%s", sz[0], sz[1], s, plainFrame(m))
			}
		}
	}
	m := newAt(80, 24)
	long := "cannot build the matrix: " + strings.Repeat("a very long reason ", 8) + "END"
	m.setStatus(long, true)
	m.rev++
	f := strings.Join(strings.Fields(plainFrame(m)), " ")
	if !strings.Contains(f, "END") || !strings.Contains(f, "✗ cannot build the matrix") {
		t.Errorf("a long status is not shown whole:\n%s", plainFrame(m))
	}
	checkFits(t, m.frame(), 80, 24)
}

// Item 2: a literal the file passes through but TensorRT-LLM refuses ('nixl')
// is marked invalid on its row too, with its FILE:LINE.
func TestRowMarksRejectedLiteral(t *testing.T) {
	s := testSpec()
	s.Backend = inputs.Value{Raw: "nixl", Origin: resolver.Origin{Kind: resolver.OriginFile, Detail: "gen.yaml:8"}}
	for _, sz := range operatorSizes {
		m := keys(t, New(Options{Spec: s, Width: sz[0], Height: sz[1]}), "tab")
		if f := plainFrame(m); !strings.Contains(f, "nixl ✗ invalid") || !strings.Contains(f, "gen.yaml:8") {
			t.Errorf("%dx%d: frame lacks the rejected backend:\n%s", sz[0], sz[1], f)
		}
	}
}

// A click on the outcome lines opens the whole outcome.
func TestClickOutcomeOpensIt(t *testing.T) {
	m := New(Options{Spec: badSpec(t, nil), Width: 64, Height: 20})
	nm, _ := m.Update(tea.MouseClickMsg{X: 10, Y: 2, Button: tea.MouseLeft})
	if m = nm.(Model); !m.outView {
		t.Error("a click on the outcome did not open it")
	}
}

// x says what its command line cannot reproduce: no flag sets a file's value
// back to omitted.
func TestCopyCommandLineSaysWhatItCannot(t *testing.T) {
	m := New(Options{Spec: badSpec(t, nil), Width: 80, Height: 24, Command: []string{"--config", "bad.yaml"}})
	m = keys(t, m, "tab")
	m = keys(t, m, down(int(rowPipelined))...)
	m = keys(t, m, "right") // 'maybe' -> omitted
	m = keys(t, m, "x")
	if !strings.Contains(m.notice, "no flag says: pipelined omitted") {
		t.Errorf("notice %q", m.notice)
	}
}

// Item 9: the row hints are drawn full width and wrapped, never cut, at every
// size the issue names.
func TestRowHintsWhole(t *testing.T) {
	for _, sz := range operatorSizes {
		m := newAt(sz[0], sz[1])
		for i, r := range m.rows {
			mm := keys(t, m, down(i)...)
			f := strings.Join(strings.Fields(plainFrame(mm)), " ")
			if h := strings.Join(strings.Fields(rowHint(r)), " "); !strings.Contains(f, h) {
				t.Errorf("%dx%d row %s: hint %q is cut:\n%s", sz[0], sz[1], r.label, h, plainFrame(mm))
			}
		}
	}
}

// Item 1 end to end, in a real program at 80×24: typing a timeout and choosing
// pipelined over a file's invalid values leaves only the file's other error.
func TestFlowEditOverridesFile(t *testing.T) {
	traces := make(chan resolver.Trace, 64)
	m := New(Options{Spec: badSpec(t, nil), observe: func(tr resolver.Trace) { traces <- tr }})
	<-traces
	tm := teatest.NewTestModel(t, m, teatest.WithInitialTermSize(80, 24),
		teatest.WithProgramOptions(tea.WithColorProfile(colorprofile.Ascii)))
	next := func(what string) resolver.Trace {
		t.Helper()
		select {
		case tr := <-traces:
			return tr
		case <-time.After(5 * time.Second):
			t.Fatalf("no resolution after %s", what)
		}
		return resolver.Trace{}
	}
	send := func(names ...string) {
		for _, k := range names {
			tm.Send(press(k))
		}
	}
	send(append([]string{"tab"}, down(int(rowTimeout))...)...)
	send(append([]string{"enter", "ctrl+u"}, append(typed("5000"), "enter")...)...)
	if tr := next("timeout 5000"); strings.Contains(tr.Result.Error, "kv_transfer_timeout_ms") {
		t.Fatalf("the typed timeout did not override the file's:\n%s", tr.Result.Error)
	}
	send("down", "down", "right")
	next("pipelined omitted")
	send("right")
	if tr := next("pipelined true"); tr.Result.Outcome == resolver.OutcomeError {
		t.Fatalf("after both edits start-up still fails:\n%s", tr.Result.Error)
	}
	send("q")
	fm := tm.FinalModel(t, teatest.WithFinalTimeout(5*time.Second)).(Model)
	if fm.spec.TimeoutMS.Raw != "5000" || fm.spec.Pipelined.Raw != "true" || len(fm.spec.ConfigErrors) != 0 {
		t.Errorf("final spec: timeout %q pipelined %q errors %v", fm.spec.TimeoutMS.Raw, fm.spec.Pipelined.Raw, fm.spec.ConfigErrors)
	}
}

// Item 5: a cut outcome falls between its items: a log line on screen is there
// whole, never its first half above the "more lines" mark.
func TestOutcomeCutBetweenItems(t *testing.T) {
	s := testSpec()
	s.Version = inputs.Value{Raw: "1.3.0rc26", Origin: resolver.Origin{Kind: resolver.OriginFlag, Detail: "--trtllm"}}
	s.Env[resolver.EnvUseUCX] = resolver.EnvVar{Value: "1", Origin: resolver.Origin{Kind: resolver.OriginEnv}}
	for _, sz := range append(operatorSizes, [2]int{60, 16}) {
		m := New(Options{Spec: s, Width: sz[0], Height: sz[1]})
		f := strings.Join(strings.Fields(plainFrame(m)), " ")
		for _, lg := range m.trace.Logs {
			line := report.LogPrefix(lg.Level) + lg.Message
			head := strings.Join(strings.Fields(line[:min(len(line), 30)]), " ")
			if strings.Contains(f, head) && !strings.Contains(f, strings.Join(strings.Fields(line), " ")) {
				t.Errorf("%dx%d: log line %q is on screen in part", sz[0], sz[1], line)
			}
		}
	}
}

// x: a version read from a log file (not something explain reads) is spelt out.
func TestCopyCommandLineLogVersion(t *testing.T) {
	s := testSpec()
	s.Version = inputs.Value{Raw: "1.3.0rc26", Origin: resolver.Origin{Kind: resolver.OriginFile, Detail: "server.log:3"}}
	m := New(Options{Spec: s, Width: 80, Height: 24})
	if got := m.commandLine(); got != "xcvr explain --trtllm 1.3.0rc26 --clean-env" {
		t.Errorf("x copied %q", got)
	}
}

// TestBackendChoicesFollowTheBuild: the backend row offers the names the
// chosen build accepts, as it spells them: 1.0 takes default, ucx, nixl, mpi
// (and refuses DEFAULT), MOONCAKE exists from 1.2.0rc6. xcvr's own preset
// shows as the build takes it, and → steps from it, not back to "none".
func TestBackendChoicesFollowTheBuild(t *testing.T) {
	for _, c := range []struct {
		version string
		want    []string
	}{
		{"1.0.0rc4", []string{"none", "default", "nixl", "ucx", "mpi"}},
		{"1.2.0rc3", []string{"none", "DEFAULT", "NIXL", "UCX", "MPI"}},
		{"1.4.0rc4", []string{"none", "DEFAULT", "NIXL", "UCX", "MPI", "MOONCAKE"}},
	} {
		spec := testSpec()
		spec.Version = inputs.Value{Raw: c.version, Origin: resolver.Origin{Kind: resolver.OriginFlag}}
		m := New(Options{Spec: spec, Width: 80, Height: 24})
		got := m.choices(m.rows[rowBackend])
		slices.Sort(got)
		want := slices.Clone(c.want)
		slices.Sort(want)
		if !slices.Equal(got, want) {
			t.Errorf("%s: backend choices %v, want %v", c.version, m.choices(m.rows[rowBackend]), c.want)
		}
	}
	spec := testSpec()
	spec.Version = inputs.Value{Raw: "1.0.0rc4", Origin: resolver.Origin{Kind: resolver.OriginFlag}}
	m := New(Options{Spec: spec, Width: 80, Height: 24})
	if f := plainFrame(m); !strings.Contains(f, "backend    default") || strings.Contains(f, "✗ invalid") {
		t.Errorf("1.0.0rc4's preset backend:\n%s", f)
	}
	m = keys(t, m, "down", "down", "right")
	if b := m.spec.Backend.Raw; b == "none" || b == "" || !slices.Contains([]string{"nixl", "ucx", "mpi"}, b) {
		t.Errorf("→ from 1.0.0rc4's preset backend went to %q", b)
	}
}

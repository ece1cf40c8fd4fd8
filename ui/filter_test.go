package ui

import (
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"xcvr/resolver"
)

// `/` filters the focused list: on the chain it hides the steps that do not
// match (the title counts them), esc brings them back.
func TestSlashFiltersTheChain(t *testing.T) {
	for _, sz := range operatorSizes {
		m := keys(t, newAt(sz[0], sz[1]), "tab", "/")
		if !m.chainFlt.typing {
			t.Fatalf("%dx%d: / on the chain did not open its filter", sz[0], sz[1])
		}
		m = keys(t, m, typed("pipelined")...)
		f := plainFrame(m)
		if !strings.Contains(f, "/ filter steps: pipelined") {
			t.Errorf("%dx%d: the filter line is not shown:\n%s", sz[0], sz[1], f)
		}
		if strings.Contains(f, "Effective backend") {
			t.Errorf("%dx%d: a step that does not match is still drawn:\n%s", sz[0], sz[1], f)
		}
		if got := m.trace.Steps[m.step].ID; !strings.Contains(got, "pipelined") {
			t.Errorf("%dx%d: the selection is on %s, not on a match", sz[0], sz[1], got)
		}
		m = keys(t, m, "enter")
		if m.chainFlt.typing || !strings.Contains(plainFrame(m), "/pipelined 2 of 21") {
			t.Errorf("%dx%d: enter did not keep the filter:\n%s", sz[0], sz[1], plainFrame(m))
		}
		// ↓ moves between the matches only.
		before := m.step
		m = keys(t, m, "down")
		if s := m.trace.Steps[m.step]; m.step == before || !strings.Contains(s.ID+s.Title+s.Reason, "ipelined") {
			t.Errorf("%dx%d: ↓ under the filter went to %s", sz[0], sz[1], s.ID)
		}
		m = keys(t, m, "esc")
		if m.chainFlt.on() || strings.Contains(plainFrame(m), "/pipelined") {
			t.Errorf("%dx%d: esc did not clear the filter", sz[0], sz[1])
		}
	}
}

// `/` in the matrix filters its rows (the models), keeping the cursor on one.
func TestSlashFiltersTheMatrix(t *testing.T) {
	m := keys(t, newAt(120, 40), "m", "/")
	if !m.matFlt.typing {
		t.Fatal("/ in the matrix did not open its filter")
	}
	m = keys(t, m, typed("qwen")...)
	f := plainFrame(m)
	if strings.Contains(f, "GptOssForCausalLM") {
		t.Errorf("a row that does not match is still drawn:\n%s", f)
	}
	if row := m.mat.m.RowKeys[m.mat.r]; !strings.Contains(strings.ToLower(row), "qwen") {
		t.Errorf("the cursor is on %s", row)
	}
	m = keys(t, m, "enter", "enter")
	if m.mode != viewExplore || !strings.Contains(strings.ToLower(m.spec.Model.Raw), "qwen") {
		t.Errorf("enter on a filtered row opened %q (mode %d)", m.spec.Model.Raw, m.mode)
	}
}

// The version row lists every release in a filterable picker: typing narrows
// sixty releases to a few, enter applies one.
func TestVersionPickerFilters(t *testing.T) {
	m := keys(t, newAt(80, 24), "enter")
	if !m.pick.open || m.pick.kind != rowVersion {
		t.Fatal("enter on the version row did not open the version picker")
	}
	if n := len(m.pick.matches); n != len(resolver.KnownVersions())+1 {
		t.Fatalf("%d entries, want every release and the typed entry", n)
	}
	m = keys(t, m, typed("1.3.0rc22")...)
	if it := m.pick.items[m.pick.matches[0]]; it.arch != "1.3.0rc22" {
		t.Fatalf("first match %q", it.arch)
	}
	if f := plainFrame(m); !strings.Contains(f, "1.3 · main") || !strings.Contains(f, "era ") {
		t.Errorf("the picker does not show family and era:\n%s", f)
	}
	m = keys(t, m, "enter")
	if m.pick.open || m.spec.Version.Raw != "1.3.0rc22" {
		t.Errorf("picked %q (open %v)", m.spec.Version.Raw, m.pick.open)
	}
	// The last entry types anything else, with the filter text kept.
	m = keys(t, newAt(80, 24), "enter")
	m = keys(t, m, typed("main@2026-08-20")...)
	m = keys(t, m, "up")
	for m.pick.sel < len(m.pick.matches)-1 {
		m = keys(t, m, "down")
	}
	m = keys(t, m, "enter")
	if !m.edit.active || m.edit.in.Value() != "main@2026-08-20" {
		t.Fatalf("the typed entry did not open the editor with the text")
	}
	m = keys(t, m, "enter")
	if m.spec.Version.Raw != "main@2026-08-20" {
		t.Errorf("version %q", m.spec.Version.Raw)
	}
}

// A key that does nothing here says what it does elsewhere; one no view
// uses says ? lists the keys. ? lists R, ctrl+z and the mouse.
func TestKeysSayWhatTheyDoElsewhere(t *testing.T) {
	for _, tc := range []struct {
		keys []string
		want string
	}{
		{[]string{"R"}, "needs both roles of a --disagg file"},
		{[]string{"<"}, "v opens the compare view"},
		{[]string{">"}, "v opens the compare view"},
		{[]string{"m", "n"}, "works in the explore view: esc or m goes back"},
		{[]string{"o", "e"}, "works in the explore view: o or esc goes back"},
		{[]string{"tab", "right"}, "tab moves to the inputs pane"},
		{[]string{"z"}, "'z' does nothing here; ? lists the keys"},
	} {
		m := keys(t, newAt(80, 24), tc.keys...)
		if !strings.Contains(m.status, tc.want) {
			t.Errorf("%v: status %q, want %q", tc.keys, m.status, tc.want)
		}
		if !statusShown(m) {
			t.Errorf("%v: the status is not on screen:\n%s", tc.keys, plainFrame(m))
		}
		if f := plainFrame(m); !strings.Contains(f, "· "+tc.want[:8]) && !strings.Contains(f, "· ") || strings.Contains(f, "✓ "+m.status[:10]) {
			t.Errorf("%v: a key that did nothing reads as done (✓):\n%s", tc.keys, f)
		}
	}
	f := strings.Join(strings.Fields(plainFrame(keys(t, newAt(120, 40), "?"))), " ")
	for _, want := range []string{"R edit the other role", "ctrl+z suspend", "mouse click selects"} {
		if !strings.Contains(f, want) {
			t.Errorf("? lacks %q:\n%s", want, f)
		}
	}
}

// A paste goes into the list filter being typed, one line, escaped.
func TestPasteIntoListFilter(t *testing.T) {
	m := keys(t, newAt(80, 24), "tab", "/")
	nm, _ := m.Update(tea.PasteMsg{Content: "pipe\x1b[31mlined\nrest"})
	m = nm.(Model)
	if q := m.chainFlt.query(); strings.Contains(q, "\x1b") || strings.Contains(q, "rest") || !strings.HasPrefix(q, "pipe") {
		t.Errorf("filter %q after a paste", q)
	}
	checkFits(t, m.frame(), 80, 24)
}

// ↑ in the editor while no completion matches what is typed: bubbles'
// textinput moves its completion index to -1, and the editor asking for the
// current completion crashed the explorer (e, z, ↑: "index out of range [-1]").
func TestEditorUpWithNoCompletion(t *testing.T) {
	m := keys(t, newAt(80, 24), "e", "z", "up", "up", "down", "up")
	if !m.edit.active || m.edit.in.Value() != "1.4.0rc4z" {
		t.Errorf("editor %v, value %q", m.edit.active, m.edit.in.Value())
	}
	m = keys(t, m, "ctrl+u", "up", "1", ".", "3", "up", "down")
	checkFits(t, m.frame(), 80, 24)
}

// A long paste into the editor (a log line, a file) is cut to maxInputChars,
// and the rejection repeats the start of it only: it repeated all of it (200k
// characters, or 256), and at 60x16 the reason was off the screen.
func TestEditorPasteKeepsTheReason(t *testing.T) {
	m := keys(t, newAt(60, 16), "e")
	nm, _ := m.Update(tea.PasteMsg{Content: strings.Repeat("X", 200000)})
	m = keys(t, nm.(Model), "enter")
	if n := len(m.edit.in.Value()); n != 256 {
		t.Errorf("the editor holds %d characters, want 256", n)
	}
	f := strings.Join(strings.Fields(plainFrame(m)), " ")
	if !strings.Contains(f, `"1.4.0rc4XXXXXXXXXXXXXXXXXXXXXXXX…": want X.Y.Z[rcN][.postN][.devYYYYMMDDNN] (e.g. 1.1.0rc5, 1.1.0rc2.post2) or main@YYYY-MM-DD; xcvr models 1.0.0rc0 to 1.4.0rc4`) {
		t.Errorf("the reason is not on the screen:\n%s", plainFrame(m))
	}
	checkFits(t, m.frame(), 60, 16)
}

// Suggestions wherever a name is typed: a version, backend or runtime typed
// into the editor that is near a known one but not it is used as typed (what
// TensorRT-LLM does with it is the point) and the status says what it is near.
func TestEditorSaysDidYouMean(t *testing.T) {
	for _, tc := range []struct {
		keys []string
		want string
	}{
		{append(append([]string{"e", "ctrl+u"}, typed("1.4.0rc5")...), "enter"), "· 1.4.0rc5 is not a release xcvr lists; did you mean 1.4.0rc4?"},
		{append(append([]string{"down", "down", "e", "ctrl+u"}, typed("UCXX")...), "enter"), "· UCXX is not a backend TensorRT-LLM accepts; did you mean UCX?"},
		{append(append([]string{"down", "down", "down", "e", "ctrl+u"}, typed("Python")...), "enter"), "· Python is not a transceiver_runtime TensorRT-LLM accepts; did you mean PYTHON?"},
		{append(append([]string{"down", "down", "e", "ctrl+u"}, typed("UCX")...), "enter"), ""},
		// A release line is never a typo away from another: 1.4.0 used to
		// get "did you mean 1.2.0?".
		{append(append([]string{"e", "ctrl+u"}, typed("1.4.0")...), "enter"), ""},
	} {
		m := keys(t, newAt(120, 40), tc.keys...)
		f := plainFrame(m)
		if tc.want == "" {
			if strings.Contains(f, "did you mean") {
				t.Errorf("%v: a suggestion for a valid value:\n%s", tc.keys, f)
			}
			continue
		}
		if !strings.Contains(strings.Join(strings.Fields(f), " "), tc.want) {
			t.Errorf("%v: the status lacks %q:\n%s", tc.keys, tc.want, f)
		}
	}
}

// TestModelPickerRanksNamesBeforeIDs: the model filter matches architecture
// names and families before Hugging Face ids. "deepseek" lists every DeepSeek
// architecture before LlamaForCausalLM, which matches only through its
// deepseek-ai/DeepSeek-R1-Distill-Llama ids; an id alone still finds its
// architecture first.
func TestModelPickerRanksNamesBeforeIDs(t *testing.T) {
	open := func(filter string) Model {
		m := keys(t, newAt(80, 24), "down", "/") // the model row's picker, filtering
		if !m.pick.open || m.pick.kind != rowModel {
			t.Fatal("enter on the model row did not open the model picker")
		}
		return keys(t, m, typed(filter)...)
	}
	m := open("deepseek")
	llama, lastDeepseek := -1, -1
	for i, j := range m.pick.matches {
		switch a := m.pick.items[j].arch; {
		case a == "LlamaForCausalLM":
			llama = i
		case strings.HasPrefix(a, "Deepseek"):
			lastDeepseek = i
		}
	}
	if llama < 0 || lastDeepseek < 0 || llama < lastDeepseek {
		t.Errorf("filter deepseek: Llama at %d, the last DeepSeek architecture at %d", llama, lastDeepseek)
	}
	m = open("Qwen/Qwen3-0.6B")
	if it := m.pick.items[m.pick.matches[0]]; it.arch != "Qwen3ForCausalLM" {
		t.Errorf("filter Qwen/Qwen3-0.6B: first match %q", it.arch)
	}
}

package ui

import (
	"regexp"
	"strings"
	"testing"
	"unicode"

	tea "charm.land/bubbletea/v2"

	"xcvr/models"
	"xcvr/resolver"
)

// The explorer draws values that came from files, /proc and flags: their control
// characters must show as escapes, never reach the terminal raw.
func TestHostileValuesRenderEscaped(t *testing.T) {
	s := testSpec()
	s.Model.Raw = "Evil\x1b]0;owned\x07ForCausalLM"
	s.Backend.Raw = "UCX\x1b[2J\u009b31m"
	s.Backend.Origin = resolver.Origin{Kind: resolver.OriginFile, Detail: "/tmp/\u202egen.yaml:3"}
	s.Env["TRTLLM_USE_UCX_KVCACHE"] = resolver.EnvVar{Value: "1\r\x1b]52;c;AAAA\x07", Origin: resolver.Origin{Kind: resolver.OriginEnv}}
	sgr := regexp.MustCompile(`\x1b\[[0-9;:]*m`)
	for _, size := range [][2]int{{120, 40}, {80, 24}} {
		m := New(Options{Spec: s, Width: size[0], Height: size[1]})
		for _, frame := range []string{m.View().Content, keys(t, m, "tab", "enter").View().Content} {
			for _, r := range sgr.ReplaceAllString(frame, "") {
				if (r < 0x20 && r != '\n') || (r >= 0x7f && r <= 0x9f) || (r >= 0x202a && r <= 0x202e) {
					t.Fatalf("%dx%d: raw %U in frame:\n%q", size[0], size[1], r, frame)
				}
			}
		}
	}
}

// rawInFrame returns the first character in a frame that a terminal would act
// on or that hides itself (xcvr's own SGR colours aside): C0 but newline, C1,
// format characters (bidi, zero-width, tags), U+2028/U+2029.
func rawInFrame(frame string) (rune, bool) {
	sgr := regexp.MustCompile(`\x1b\[[0-9;:]*m|\x1b\[[0-9]*[ABCDGHJK]`)
	for _, r := range sgr.ReplaceAllString(frame, "") {
		if (r < 0x20 && r != '\n') || (r >= 0x7f && r <= 0x9f) || unicode.Is(unicode.Cf, r) || r == 0x2028 || r == 0x2029 {
			return r, true
		}
	}
	return 0, false
}

// The editor is a bubbles textinput, which draws its runes as they are: a
// completion from a --catalog file and a rejected file value pre-filled in
// the box reached the terminal raw (an OSC 8 hyperlink, a C1 CSI, bidi
// controls). Both are shown as escapes now, and so is a paste.
func TestHostileEditorShowsEscapes(t *testing.T) {
	hyper := "Evil\x1b]8;;http://evil\x1b\\ForCausalLM"
	cat, err := models.Parse("evil.yaml", []byte("models:\n  - arch: \""+strings.NewReplacer("\x1b", `\e`, `\`, `\\`).Replace(hyper)+"\"\n    family: x\n  - arch: \"Evil\\u202eForCausalLM\"\n    family: y\n"), "--catalog evil.yaml")
	if err != nil {
		t.Fatal(err)
	}
	s := testSpec()
	s.Backend.Raw = "UCX\u009b2J\u202e\u200b"
	s.Backend.Origin = resolver.Origin{Kind: resolver.OriginFile, Detail: "/tmp/gen.yaml:3"}
	m := New(Options{Spec: s, Catalog: cat, Width: 120, Height: 40})
	if m.trace.Result.Outcome == resolver.OutcomeError {
		m = keys(t, m, "tab")
	}
	check := func(what string, m Model) {
		t.Helper()
		if r, bad := rawInFrame(m.View().Content); bad {
			t.Errorf("%s: raw %U in the frame:\n%q", what, r, m.View().Content)
		}
	}
	// The backend row, pre-filled with the file's rejected value.
	b := keys(t, m, append(down(int(rowBackend)), "e")...)
	if !b.edit.active {
		t.Fatal("e did not open the editor")
	}
	if got := b.edit.in.Value(); got != `UCX\u009b2J\u202e\u200b` {
		t.Errorf("pre-filled %q, want the escaped value", got)
	}
	check("pre-filled backend", b)
	// The model row: completions come from the catalog.
	md := keys(t, m, append(down(int(rowModel)), "e", "ctrl+u")...)
	md = keys(t, md, typed("Evil")...)
	check("completion shown", md)
	md = keys(t, md, "tab")
	check("completion taken", md)
	if got := md.edit.in.Value(); !strings.HasPrefix(got, `Evil\x1b]8;;`) && !strings.HasPrefix(got, `Evil\u202e`) {
		t.Errorf("tab took %q, want an escaped catalog name", got)
	}
	md = keys(t, md, "down")
	check("next completion", md)
	// A paste brings what typing cannot.
	pasted, _ := md.Update(tea.PasteMsg{Content: "x\u202ey\x1b]0;t\x07"})
	check("paste", pasted.(Model))
}

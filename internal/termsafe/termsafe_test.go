package termsafe

import (
	"bytes"
	"encoding/json"
	"io"
	"testing"
	"unicode"
	"unicode/utf8"
)

func TestText(t *testing.T) {
	cases := []struct{ in, text, line string }{
		{"plain ascii", "plain ascii", "plain ascii"},
		{"tab\tand\nnewline", "tab\tand\nnewline", "tab\tand\\nnewline"},
		{"\x1b]0;owned\x07", `\x1b]0;owned\x07`, `\x1b]0;owned\x07`},
		{"\x1b[2J\x1b[H", `\x1b[2J\x1b[H`, `\x1b[2J\x1b[H`},
		{"over\rwrite", `over\rwrite`, `over\rwrite`},
		{"back\bspace\x7f", `back\x08space\x7f`, `back\x08space\x7f`},
		{"c1 \u009b31m csi", `c1 \u009b31m csi`, `c1 \u009b31m csi`},
		{"bidi \u202eevil", `bidi \u202eevil`, `bidi \u202eevil`},
		{"bad \xff utf8", `bad \xff utf8`, `bad \xff utf8`},
		{"ünïcödé ✓ 日本", "ünïcödé ✓ 日本", "ünïcödé ✓ 日本"},
		{"\x00nul", `\x00nul`, `\x00nul`},
		// Invisible characters: two names that print the same must not read the same.
		{"Gpt\u200bOss\u200c\u200d\u2060", `Gpt\u200bOss\u200c\u200d\u2060`, `Gpt\u200bOss\u200c\u200d\u2060`},
		{"\u200e\u200f\u061c marks", `\u200e\u200f\u061c marks`, `\u200e\u200f\u061c marks`},
		{"a\u2028b\u2029c", `a\u2028b\u2029c`, `a\u2028b\u2029c`},
		{"\ufeffbom", `\ufeffbom`, `\ufeffbom`},
		{"tag\U000e0041\U000e007f", `tag\U000e0041\U000e007f`, `tag\U000e0041\U000e007f`},
		{"soft\u00adhyphen \u3164", `soft\u00adhyphen \u3164`, `soft\u00adhyphen \u3164`},
		{"emoji 🙂 and é", "emoji 🙂 and é", "emoji 🙂 and é"},
	}
	for _, c := range cases {
		if got := Text(c.in); got != c.text {
			t.Errorf("Text(%q) = %q, want %q", c.in, got, c.text)
		}
		if got := Line(c.in); got != c.line {
			t.Errorf("Line(%q) = %q, want %q", c.in, got, c.line)
		}
		if Clean(c.in) != (c.in == c.text) {
			t.Errorf("Clean(%q) = %v", c.in, Clean(c.in))
		}
		if got, want := firstUnsafeBytes([]byte(c.in)), firstUnsafe(c.in, false); got != want {
			t.Errorf("firstUnsafeBytes(%q) = %d, firstUnsafe %d", c.in, got, want)
		}
		var b bytes.Buffer
		if _, err := (Writer{W: &b}).Write([]byte(c.in)); err != nil || b.String() != c.text {
			t.Errorf("Writer(%q) wrote %q, %v; want %q", c.in, b.String(), err, c.text)
		}
	}
}

// No output of Text may hold a raw control byte other than tab and newline, whatever
// the input; this is the property every output path relies on.
func FuzzText(f *testing.F) {
	for _, s := range []string{"\x1b[31m", "\u009b", "a\rb", "\xc2\x9b", "\xe2\x80\xae"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		for _, out := range []string{Text(s), Line(s)} {
			if !utf8.ValidString(out) {
				t.Fatalf("invalid UTF-8 out of %q: %q", s, out)
			}
			for _, r := range out {
				if (r < 0x20 && r != '\t' && r != '\n') || (r >= 0x7f && r <= 0x9f) || unicode.Is(unicode.Cf, r) || r == 0x2028 || r == 0x2029 {
					t.Fatalf("raw control %U survives in %q (from %q)", r, out, s)
				}
			}
		}
		if firstUnsafeBytes([]byte(s)) != firstUnsafe(s, false) {
			t.Fatalf("firstUnsafeBytes and firstUnsafe differ on %q", s)
		}
		if Line(s) != Text(s) && !containsNewline(s) {
			t.Fatalf("Line and Text differ without a newline: %q", s)
		}
	})
}

func containsNewline(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] == '\n' {
			return true
		}
	}
	return false
}

func TestCleanDoesNotAllocate(t *testing.T) {
	s := "Resolved transceiver_runtime='auto' to 'PYTHON' for GptOssForCausalLM."
	if n := testing.AllocsPerRun(100, func() { _ = Text(s) }); n != 0 {
		t.Fatalf("Text allocates %v times on clean input", n)
	}
}

// A clean write through Writer is passed on as is: a report of 50,000 logs
// writes hundreds of thousands of lines through it.
func TestWriterCleanDoesNotAllocate(t *testing.T) {
	p := []byte("many/d000/rank-0.log · rank 0: PYTHON · KvCacheTransceiverV2 · backend NIXL\n")
	w := Writer{W: io.Discard}
	if n := testing.AllocsPerRun(100, func() { _, _ = w.Write(p) }); n != 0 {
		t.Fatalf("Writer allocates %v times on clean input", n)
	}
}

func TestJSONWriterKeepsValues(t *testing.T) {
	in := map[string]string{"v": "a\u009bb\u202ec\x1bd\u200b\U000e0041"}
	var buf bytes.Buffer
	if err := json.NewEncoder(JSONWriter{W: &buf}).Encode(in); err != nil {
		t.Fatal(err)
	}
	if got := buf.String(); got != `{"v":"a\u009bb\u202ec\u001bd\u200b\udb40\udc41"}`+"\n" {
		t.Fatalf("%q", got)
	}
	var back map[string]string
	if err := json.Unmarshal(buf.Bytes(), &back); err != nil || back["v"] != in["v"] {
		t.Fatalf("round trip: %q %v", back, err)
	}
}

package logs

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestCROnlyLines: a log whose lines end with '\r' alone (old Mac line
// ends, a raw terminal or tqdm capture) reads as the same log with '\n'
// line ends, through every reader (the reference, chunks, mappings, a
// Parser fed in pieces, a file past smallLog mapped or read), where its
// first crWindow bytes hold no '\n' but a '\r': '\r', '\n' and "\r\n" then
// each end a line, as Python's universal newlines read them. A log with a
// '\n' there reads as before ('\r' inside its lines: tqdm's redraws, a tag
// after them, TestTagAfterCarriageReturn); one with neither is one line.
func TestCROnlyLines(t *testing.T) {
	lf, err := os.ReadFile(filepath.Join("testdata", "real", "spark-gptoss-agg-1.1.0rc3.log"))
	if err != nil {
		t.Fatal(err)
	}
	cr := func(b []byte) []byte { return bytes.ReplaceAll(b, []byte("\n"), []byte("\r")) }
	crlf := func(b []byte) []byte { return bytes.ReplaceAll(b, []byte("\n"), []byte("\r\n")) }
	filler := bytes.Repeat([]byte("Loading weights: 100%|##########| 4/4 [00:01<00:00,  2.50it/s]\n"), crWindow/60+10)
	large := bytes.Repeat(lf, 2*smallLog/len(lf)+2) // read in chunks, or mapped
	for _, c := range []struct {
		name     string
		log, as  []byte // log reads as as does
		crReader bool   // the log's lines end with '\r' alone
	}{
		{"every line", cr(lf), lf, true},
		{"no final line end", bytes.TrimSuffix(cr(lf), []byte("\r")), lf, true},
		{"after a BOM", append(append([]byte(nil), bom...), cr(lf)...), lf, true},
		{"\\r\\n past the window", append(cr(filler), crlf(lf)...), append(append([]byte(nil), filler...), lf...), true},
		{"past smallLog", cr(large), large, true},
		{"a \\n in the window", []byte("[TRT-LLM] [I] x\r[TRT-LLM] [I] cache_transceiver is disabled\n[TRT-LLM] [I] y\r"), nil, false},
		{"no line end", []byte("[TRT-LLM] [I] cache_transceiver is disabled [TRT-LLM] [I] x"), nil, false},
	} {
		lg, err := Parse("f.log", bytes.NewReader(c.log))
		if err != nil {
			t.Fatal(err)
		}
		if c.as != nil {
			want, _ := Parse("f.log", bytes.NewReader(c.as))
			if g, w := summary(t, lg), summary(t, want); g != w {
				t.Errorf("%s: reads\n%s\nnot as\n%s", c.name, g, w)
			}
			if g, w := summary(t, parseMappedFile(t, c.log)), summary(t, want); g != w {
				t.Errorf("%s, mapped: reads\n%s\nnot as\n%s", c.name, g, w)
			}
		}
		if lines := bytes.Count(c.log, []byte("\n")) + 1; !c.crReader && lg.Lines != lines {
			t.Errorf("%s: %d lines, want %d", c.name, lg.Lines, lines)
		}
		if len(c.log) <= 1<<16 {
			checkSame(t, c.log, 1)
			checkSame(t, c.log, 2)
		}
	}
	// The Parser (-f, the explorer): a CR-only log shorter than crWindow
	// is decided at its end; one written a piece at a time reads alike.
	p := NewParser("f.log")
	for _, b := range cr(lf) {
		if _, err := p.Write([]byte{b}); err != nil {
			t.Fatal(err)
		}
	}
	if got, _ := p.Close(); !strings.Contains(summary(t, got), "DISABLED") {
		t.Errorf("the Parser, a byte at a time: %s", summary(t, got))
	}
}

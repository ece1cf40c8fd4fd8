package logs

import (
	"fmt"
	"strings"
	"testing"
)

// hostileRecord is a Dynamo JSONL record whose message is k "\n" escapes
// (k lines, each empty but for a letter).
func hostileRecord(k int) string {
	return `{"time":"2026-01-01T00:00:00Z","level":"ERROR","target":"x","message":"` + strings.Repeat(`a\n`, k) + `"}`
}

// TestDynamoPiecesLinear: a Dynamo record behind a long prefix whose message
// holds many lines is read in work linear in the line: each of its lines is
// read behind the prefix again, so without pieceWork's bound a line of 4n
// bytes cost 16 times one of n (a 64 KiB line, 0.5 GB copied; 20 lines of a
// stern pod name of 8 KiB before 4,000 escapes: 631 MB allocated against 44
// MB for a quarter of them). The work is counted: the bytes the scanner read
// for the lines it passed on (the prefix and the piece, each), per byte of
// the line, at two sizes.
func TestDynamoPiecesLinear(t *testing.T) {
	prefixes := map[string]func(k int) string{
		"blanks and srun's label": func(k int) string { return strings.Repeat(" ", 3*k) + "0: " },
		"kubectl's pod":           func(k int) string { return "[pod/a-" + strings.Repeat("a", 3*k) + "/main] " },
		"stern's pod":             func(k int) string { return "a-" + strings.Repeat("a", 3*k) + " main " },
	}
	for name, pfx := range prefixes {
		perByte := func(k int) float64 {
			line := pfx(k) + hostileRecord(k)
			sc := newScanner()
			var res chunkResult
			sc.scan([]byte(line+"\n"), &res)
			if len(res.events) == 0 {
				t.Fatalf("%s: nothing passed on", name)
			}
			w := 0
			for _, ev := range res.events {
				w += len(pfx(k)) + len(ev.msg)
			}
			return float64(w) / float64(len(line))
		}
		if w1, w2 := perByte(200), perByte(800); w2 > 2*w1+1 {
			t.Errorf("%s: %.0f bytes read per byte of a line, %.0f for one 4 times as long", name, w1, w2)
		}
	}
	// A record of a traceback's lines behind a prefix is still read whole.
	var tb strings.Builder
	tb.WriteString("Traceback (most recent call last):")
	for i := range 200 {
		fmt.Fprintf(&tb, `\n  File \"/x/m%d.py\", line %d, in f`, i, i)
	}
	tb.WriteString(`\nRuntimeError: boom`)
	line := "[pod/decode-0/main] " + `{"time":"2026-01-01T00:00:00Z","level":"ERROR","target":"x","message":"` + tb.String() + `"}`
	sc := newScanner()
	var res chunkResult
	sc.scan([]byte(line+"\n"), &res)
	if len(res.events) != 202 || !strings.HasPrefix(res.events[201].msg, "RuntimeError: boom") {
		t.Errorf("%d events, the last %q", len(res.events), res.events[len(res.events)-1].msg)
	}
}

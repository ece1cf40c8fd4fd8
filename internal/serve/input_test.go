package serve

import (
	"io"
	"runtime"
	"strings"
	"testing"
	"testing/iotest"
	"time"
)

func TestInputLimit(t *testing.T) {
	run := func(in string, maxPaste, maxSeq int) string {
		l := limitInput(iotest.OneByteReader(strings.NewReader(in)))
		l.maxPaste, l.maxSeq, l.rate = maxPaste, maxSeq, 0
		out, err := io.ReadAll(l)
		if err != nil {
			t.Fatal(err)
		}
		return string(out)
	}
	// Keys, replies, short pastes and short sequences pass as they are; the
	// reader sees one byte at a time, so every marker is split across reads.
	for _, in := range []string{
		"abc", "x\x1b[200~hello\x1b[201~y", "\x1b[A\x1b[200~\x1b[B\x1b[201~q", "\x1b\x1b[200~ab\x1b[201~",
		"\x1b]11;rgb:0000/0000/0000\x07", "\x1b]11;rgb:1/2/3\x1b\\", "\x1bP1+r\x1b\\q", "\x1b[1;5A", "\x1b[12\x1b[B",
	} {
		if got := run(in, 10, 32); got != in {
			t.Errorf("%q came out as %q", in, got)
		}
	}
	for name, tc := range map[string]struct{ in, want string }{
		// A long paste ends after maxPaste bytes; the rest of it, up to the
		// client's end marker, is dropped; what follows passes.
		"paste": {"\x1b[200~" + strings.Repeat("a", 100) + "\x1b[201~q", "\x1b[200~" + strings.Repeat("a", 10) + "\x1b[201~q"},
		// A long OSC or DCS is ended with ST, a long CSI with a final byte.
		"osc": {"\x1b]" + strings.Repeat("1", 100) + "\x07q", "\x1b]" + strings.Repeat("1", 33) + "\x1b\\q"},
		"dcs": {"\x1bP" + strings.Repeat("1", 100) + "\x1b\\q", "\x1bP" + strings.Repeat("1", 33) + "\x1b\\q"},
		"csi": {"\x1b[" + strings.Repeat("1", 100) + "mq", "\x1b[" + strings.Repeat("1", 33) + "~q"},
	} {
		if got := run(tc.in, 10, 32); got != tc.want {
			t.Errorf("%s: %q, want %q", name, got, tc.want)
		}
	}
	// Ones that never end hold nothing, and cost about the buffers, not the
	// input: bytes allocated for 8 MiB of each.
	for _, start := range []string{"\x1b[200~", "\x1b]", "\x1bP", "\x1b["} {
		var m0, m1 runtime.MemStats
		runtime.ReadMemStats(&m0)
		l := limitInput(io.MultiReader(strings.NewReader(start), io.LimitReader(digits{}, 8<<20)))
		l.rate = 0 // TestInputIsPaced
		n, err := io.Copy(io.Discard, l)
		runtime.ReadMemStats(&m1)
		if err != nil || n > maxPasteBytes+16 {
			t.Errorf("%q then 8 MiB gave %d bytes, %v", start, n, err)
		}
		if a := m1.TotalAlloc - m0.TotalAlloc; a > 1<<20 {
			t.Errorf("%q: %d bytes allocated for 8 MiB", start, a)
		}
	}
}

// digits is an endless stream of '1's: paste text, or a sequence's parameters.
type digits struct{}

func (digits) Read(p []byte) (int, error) {
	for i := range p {
		p[i] = '1'
	}
	return len(p), nil
}

// A flood of input passes its burst at once, then inputRate bytes a second;
// each read waits at most minInputRead/inputRate. Every byte arrives.
func TestInputIsPaced(t *testing.T) {
	now := time.Unix(0, 0)
	var slept, longest time.Duration
	const n = 4 << 20
	l := limitInput(io.LimitReader(digits{}, n))
	l.now = func() time.Time { return now }
	l.sleep = func(d time.Duration) { slept += d; longest = max(longest, d); now = now.Add(d) }
	got, err := io.Copy(io.Discard, l)
	if err != nil || got != n {
		t.Fatalf("%d bytes, %v", got, err)
	}
	want := time.Duration(float64(n-inputBurst) / inputRate * float64(time.Second))
	if slept < want-time.Second || slept > want+time.Second {
		t.Errorf("4 MiB at once waited %v, want about %v", slept, want)
	}
	if max := time.Duration(float64(minInputRead)/inputRate*float64(time.Second)) + time.Millisecond; longest > max {
		t.Errorf("a read waited %v, more than %v", longest, max)
	}
	// A paste is one message: paid for once, whatever its length; what the
	// bounds drop (the rest of an endless OSC) costs nothing.
	for name, in := range map[string]string{
		"pastes": strings.Repeat("\x1b[200~"+strings.Repeat("p", maxPasteBytes-16)+"\x1b[201~", 20),
		"osc":    "\x1b]" + strings.Repeat("1", 8<<20) + "\x07",
	} {
		slept = 0
		l = limitInput(strings.NewReader(in))
		l.now = func() time.Time { return now }
		l.sleep = func(d time.Duration) { slept += d; now = now.Add(d) }
		if _, err := io.Copy(io.Discard, l); err != nil {
			t.Fatal(err)
		}
		if slept != 0 {
			t.Errorf("%s waited %v", name, slept)
		}
	}
	// Typing never waits: 10 keys a second for a minute.
	slept = 0
	l = limitInput(strings.NewReader(strings.Repeat("j", 600)))
	l.now = func() time.Time { return now }
	l.sleep = func(d time.Duration) { slept += d; now = now.Add(d) }
	buf := make([]byte, 1)
	for i := 0; i < 600; i++ {
		if _, err := l.Read(buf); err != nil {
			t.Fatal(err)
		}
		now = now.Add(100 * time.Millisecond)
	}
	if slept != 0 {
		t.Errorf("typing waited %v", slept)
	}
}

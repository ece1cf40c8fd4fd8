package serve

import (
	"io"
	"runtime"
	"strings"
	"testing"
	"testing/iotest"
)

func TestPasteLimit(t *testing.T) {
	run := func(in string, max int) string {
		l := limitPaste(iotest.OneByteReader(strings.NewReader(in)))
		l.max = max
		out, err := io.ReadAll(l)
		if err != nil {
			t.Fatal(err)
		}
		return string(out)
	}
	// Short pastes and everything outside pastes pass as they are, markers
	// split across reads included.
	for _, in := range []string{"abc", "x\x1b[200~hello\x1b[201~y", "\x1b[A\x1b[200~\x1b[B\x1b[201~q", "\x1b\x1b[200~ab\x1b[201~"} {
		if got := run(in, 10); got != in {
			t.Errorf("%q came out as %q", in, got)
		}
	}
	// A long paste ends after max bytes; the rest, up to the client's end, is
	// dropped, and what follows it passes.
	if got, want := run("\x1b[200~"+strings.Repeat("a", 100)+"\x1b[201~q", 10), "\x1b[200~"+strings.Repeat("a", 10)+"\x1b[201~q"; got != want {
		t.Errorf("long paste: %q, want %q", got, want)
	}
	// One that never ends holds nothing: 64 MiB in, max bytes out.
	src := io.MultiReader(strings.NewReader("\x1b[200~"), io.LimitReader(zeros{}, 64<<20))
	n, err := io.Copy(io.Discard, limitPaste(src))
	if err != nil || n != int64(len(pasteStart)+maxPasteBytes+len(pasteEnd)) {
		t.Errorf("an endless paste gave %d bytes, %v", n, err)
	}
	// And costs about its buffers, not the paste: bytes allocated for 8 MiB.
	var m0, m1 runtime.MemStats
	runtime.ReadMemStats(&m0)
	io.Copy(io.Discard, limitPaste(io.MultiReader(strings.NewReader("\x1b[200~"), io.LimitReader(zeros{}, 8<<20))))
	runtime.ReadMemStats(&m1)
	if a := m1.TotalAlloc - m0.TotalAlloc; a > 1<<20 {
		t.Errorf("%d bytes allocated for an 8 MiB paste", a)
	}
}

type zeros struct{}

func (zeros) Read(p []byte) (int, error) {
	for i := range p {
		p[i] = 'z'
	}
	return len(p), nil
}

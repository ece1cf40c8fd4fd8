package serve

import "io"

// maxPasteBytes bounds one bracketed paste. Bubble Tea collects a paste whole
// before the program sees it, so a client that starts one and never ends it
// made the server hold everything it sent (100 MB of paste: 126 MB of heap).
// Nothing a session takes is longer than a line of a few hundred bytes.
const maxPasteBytes = 256 << 10

var (
	pasteStart = []byte("\x1b[200~")
	pasteEnd   = []byte("\x1b[201~")
)

// pasteLimit passes a session's input through, ending a bracketed paste after
// maxPasteBytes (it writes the end marker itself) and dropping the rest of
// that paste up to the client's own end marker.
type pasteLimit struct {
	r       io.Reader
	max     int
	state   int // outside, inside or dropping a paste
	m       int // bytes of the marker matched so far
	n       int // bytes of the current paste
	buf     []byte
	out     []byte // filtered input, reused
	pending []byte // what of out Read has not returned yet
	err     error
}

const (
	outsidePaste = iota
	insidePaste
	droppingPaste
)

func limitPaste(r io.Reader) *pasteLimit { return &pasteLimit{r: r, max: maxPasteBytes} }

func (l *pasteLimit) Read(p []byte) (int, error) {
	for len(l.pending) == 0 {
		if l.err != nil {
			return 0, l.err
		}
		if l.buf == nil {
			l.buf = make([]byte, 32<<10)
		}
		n, err := l.r.Read(l.buf)
		l.out = l.filter(l.out[:0], l.buf[:n])
		l.pending = l.out
		l.err = err
	}
	n := copy(p, l.pending)
	l.pending = l.pending[n:]
	return n, nil
}

// match advances the marker match by b and reports a whole marker. The
// markers' first byte (ESC) appears nowhere else in them, so a mismatch can
// only restart at b.
func (l *pasteLimit) match(b byte, marker []byte) bool {
	if b == marker[l.m] {
		l.m++
		if l.m == len(marker) {
			l.m = 0
			return true
		}
		return false
	}
	l.m = 0
	if b == marker[0] {
		l.m = 1
	}
	return false
}

func (l *pasteLimit) filter(out, in []byte) []byte {
	for _, b := range in {
		switch l.state {
		case outsidePaste:
			out = append(out, b)
			if l.match(b, pasteStart) {
				l.state, l.n = insidePaste, 0
			}
		case insidePaste:
			out = append(out, b)
			if l.match(b, pasteEnd) {
				l.state = outsidePaste
				continue
			}
			if l.n++; l.n >= l.max && l.m == 0 {
				out = append(out, pasteEnd...)
				l.state = droppingPaste
			}
		case droppingPaste:
			if l.match(b, pasteEnd) {
				l.state = outsidePaste
			}
		}
	}
	return out
}

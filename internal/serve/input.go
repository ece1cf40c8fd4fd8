package serve

import "io"

// Bounds on what of a session's input Bubble Tea holds before the program
// sees it. Its input decoder collects a bracketed paste whole, and an escape
// sequence until its terminator: a client that opens one and never ends it
// made the server hold what it sent (100 MB of paste: 126 MB of heap; 5.5 MB
// of an unterminated OSC or DCS: 20-43 MB). Nothing a session takes is longer
// than a line of a few hundred bytes, and no reply a terminal sends to the
// explorer's queries is longer than a few hundred either.
const (
	maxPasteBytes    = 256 << 10
	maxSequenceBytes = 4 << 10
)

var pasteEnd = []byte("\x1b[201~")

// inputLimit passes a session's input through, cutting what would otherwise
// grow without bound: a bracketed paste longer than maxPasteBytes is ended (the
// end marker written here) and the rest of it, up to the client's own end
// marker, dropped; a CSI, OSC, DCS, APC, PM or SOS sequence longer than
// maxSequenceBytes is ended (a final byte or ST written here) and the rest of
// it dropped up to its terminator.
type inputLimit struct {
	r        io.Reader
	maxPaste int
	maxSeq   int
	state    int
	n        int     // bytes of the current paste or sequence
	params   [8]byte // a CSI's first bytes, to see ESC[200~
	m        int     // bytes of pasteEnd matched, in a paste
	buf      []byte
	out      []byte // filtered input, reused
	pending  []byte // what of out Read has not returned yet
	err      error
}

// inputLimit states.
const (
	inGround      = iota
	inEsc         // after ESC
	inCSI         // after ESC [
	inString      // after ESC ] P _ ^ X, up to BEL or ESC \
	inStringEsc   // an ESC inside a string: \ ends it
	inPaste       // after ESC[200~, up to ESC[201~
	dropPaste     // a paste cut short, up to ESC[201~
	dropCSI       // a CSI cut short, up to its final byte
	dropString    // a string cut short, up to BEL or ESC \
	dropStringEsc // an ESC inside a dropped string
)

func limitInput(r io.Reader) *inputLimit {
	return &inputLimit{r: r, maxPaste: maxPasteBytes, maxSeq: maxSequenceBytes}
}

func (l *inputLimit) Read(p []byte) (int, error) {
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

func (l *inputLimit) filter(out, in []byte) []byte {
	for _, b := range in {
		switch l.state {
		case inGround:
			out = append(out, b)
			if b == 0x1b {
				l.state = inEsc
			}
		case inEsc:
			out = append(out, b)
			switch b {
			case '[':
				l.state, l.n = inCSI, 0
			case ']', 'P', '_', '^', 'X':
				l.state, l.n = inString, 0
			case 0x1b:
			default:
				l.state = inGround
			}
		case inCSI:
			out = append(out, b)
			switch {
			case b == 0x1b:
				l.state = inEsc // a new sequence aborts this one
			case b >= 0x40 && b <= 0x7e: // the final byte
				l.state = inGround
				if b == '~' && l.n == 3 && string(l.params[:3]) == "200" {
					l.state, l.n, l.m = inPaste, 0, 0
				}
			default:
				if l.n < len(l.params) {
					l.params[l.n] = b
				}
				if l.n++; l.n > l.maxSeq {
					out = append(out, '~') // ends it as an unknown key
					l.state = dropCSI
				}
			}
		case inString, inStringEsc:
			out = append(out, b)
			switch {
			case b == 0x07 || l.state == inStringEsc && b == '\\':
				l.state = inGround
			case b == 0x1b:
				l.state = inStringEsc
			default:
				l.state = inString
				if l.n++; l.n > l.maxSeq {
					out = append(out, 0x1b, '\\') // ST
					l.state = dropString
				}
			}
		case inPaste:
			out = append(out, b)
			if l.matchEnd(b) {
				l.state = inGround
				continue
			}
			if l.n++; l.n >= l.maxPaste && l.m == 0 {
				out = append(out, pasteEnd...)
				l.state = dropPaste
			}
		case dropPaste:
			if l.matchEnd(b) {
				l.state = inGround
			}
		case dropCSI:
			if b >= 0x40 && b <= 0x7e {
				l.state = inGround
			} else if b == 0x1b {
				out = append(out, b)
				l.state = inEsc
			}
		case dropString, dropStringEsc:
			switch {
			case b == 0x07 || l.state == dropStringEsc && b == '\\':
				l.state = inGround
			case b == 0x1b:
				l.state = dropStringEsc
			default:
				l.state = dropString
			}
		}
	}
	return out
}

// matchEnd advances the match of pasteEnd by b and reports a whole marker.
// Its first byte (ESC) appears nowhere else in it, so a mismatch can only
// restart at b.
func (l *inputLimit) matchEnd(b byte) bool {
	if b == pasteEnd[l.m] {
		l.m++
		if l.m == len(pasteEnd) {
			l.m = 0
			return true
		}
		return false
	}
	l.m = 0
	if b == pasteEnd[0] {
		l.m = 1
	}
	return false
}

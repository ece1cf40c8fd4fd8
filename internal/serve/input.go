package serve

import (
	"io"
	"time"
)

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

// Pacing of a session's input: a burst of inputBurst bytes at once, then
// inputRate bytes a second. A key is 1 to 8 bytes and a mouse event about 13:
// typing, key repeat, a drag or a wheel (a few hundred events a second) and
// terminal replies stay below it. A bracketed paste is one message to the
// program whatever its length (at most maxPasteBytes), so it costs pasteCost,
// not its bytes. A client that sends keys without pause (each a Bubble Tea
// update: 12-90 µs of CPU measured in the test process, client included)
// waits instead; what it sent meanwhile stays in its SSH channel's window
// (2 MiB), not in the server.
const (
	inputBurst = 64 << 10
	inputRate  = 4 << 10
	pasteCost  = 1 << 10
	// minInputRead is the least a paced read asks for: it bounds how long a
	// read waits (minInputRead/inputRate, 125 ms) and so how late a closed
	// session notices.
	minInputRead = 512
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
	// rate is the bytes a second after a burst of burst (0: unpaced); tokens
	// the bucket as of last; charged what the last read pays.
	rate, burst float64
	tokens      float64
	charged     int
	last        time.Time
	now         func() time.Time
	sleep       func(time.Duration)
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
	return &inputLimit{r: r, maxPaste: maxPasteBytes, maxSeq: maxSequenceBytes,
		rate: inputRate, burst: inputBurst, tokens: inputBurst, now: time.Now, sleep: time.Sleep}
}

// allowance is how many bytes the next read may take, at most max: what the
// bucket holds, after waiting for minInputRead when it holds less. The bytes
// a read passes on are paid after filtering (a few more than it read, at
// most, when a cut sequence is ended), so the bucket is overdrawn by little.
func (l *inputLimit) allowance(max int) int {
	if l.rate <= 0 {
		return max
	}
	now := l.now()
	if !l.last.IsZero() {
		l.tokens = min(l.burst, l.tokens+now.Sub(l.last).Seconds()*l.rate)
	}
	l.last = now
	if l.tokens < minInputRead {
		wait := time.Duration((minInputRead - l.tokens) / l.rate * float64(time.Second))
		l.sleep(wait)
		l.last = l.last.Add(wait)
		l.tokens = minInputRead
	}
	return min(max, int(l.tokens))
}

func (l *inputLimit) Read(p []byte) (int, error) {
	for len(l.pending) == 0 {
		if l.err != nil {
			return 0, l.err
		}
		if l.buf == nil {
			l.buf = make([]byte, 32<<10)
		}
		n, err := l.r.Read(l.buf[:l.allowance(len(l.buf))])
		l.charged = 0
		l.out = l.filter(l.out[:0], l.buf[:n])
		l.tokens -= float64(l.charged)
		l.pending = l.out
		l.err = err
	}
	n := copy(p, l.pending)
	l.pending = l.pending[n:]
	return n, nil
}

func (l *inputLimit) filter(out, in []byte) []byte {
	for _, b := range in {
		n0, pasting := len(out), l.state == inPaste
		out = l.step(out, b)
		if !pasting {
			// What reaches the program pays, except a paste's text (paid
			// once, by pasteCost); what is dropped costs nothing.
			l.charged += len(out) - n0
		}
	}
	return out
}

// step is filter for one byte.
func (l *inputLimit) step(out []byte, b byte) []byte {
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
				l.charged += pasteCost
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
			return out
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

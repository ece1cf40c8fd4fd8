package logs

import (
	"bytes"
	"encoding/binary"
)

// A large log is millions of lines in a handful of shapes: the same launcher
// label, timestamp layout and TensorRT-LLM tag, line after line, only the
// digits differing ("3: [09/12/2026-14:02:01] [TRT-LLM] [RANK 3] [I] …").
// Reading each line's prefix (the launcher readers, the timestamps, the tag)
// was half the scanner's time. shapes remembers a few prefixes as shapes:
// a line whose bytes up to its message equal a shape's, digits aside (a
// digit where the shape has one), reads as the shape's line did — the same
// tag and level, and the process key rebuilt from the line's own digits —
// so its prefix is compared a word at a time, not read.
//
// Why that is exact: readPrefix's readers look only at the bytes before the
// message, except the tag's, which may take one more group or blank after
// it; so a tagged shape is made only from a line whose message starts with
// neither a blank nor '[', and used only for such a line. A line with no tag
// (a uvicorn access line under srun's label: the commonest line of a busy
// server's log) makes a plain shape when a launcher's label was read and its
// message starts with a byte no later reader takes (plainStart); as
// readPrefix looks for a tag behind unknown prefixes in the whole line, a
// line read through a plain shape is still searched for one. Where a run of
// digits goes is learnt by reading the line again with that run's digits
// changed (a probe): a run the key does not copy (a timestamp's) may hold
// any digits; a run the key copies whole (a task label, a rank, a pid) is
// copied from each line into its key; a run that changes anything else, or
// that the key copies in part, means no shape is made. Lines whose tag was
// found behind an unknown prefix make no shape. TestShapesReadAsPrefix
// checks the memo against readPrefix on generated lines (and fails when any
// of these conditions is dropped), and the differential tests against the
// reference parser run through it.
//
// Measured (BenchmarkScan, the scanner on one core, per 64 MB): 31 ms
// before, 23 ms with shapes; a log whose prefixes never repeat
// (BenchmarkScanUnshaped) pays about 20% more than without them.

// Which lines make shapes (readPrefix's kind).
const (
	shapeNone  = iota
	shapeTag   // a tag read where the prefixes end
	shapePlain // a launcher's label, then a message with no tag in it (see plainStart)
)

const (
	// maxShape is the longest prefix remembered: 8 words.
	maxShape = 64
	// shapeCount is how many shapes a scanner holds.
	shapeCount = 8
	// shapeWait is how many lines pass after a shape is learnt (or fails
	// to be) before another may be. When fewer than half the lines since
	// were read through a shape, the wait doubles, up to shapeWaitMax; and
	// a shape that read no line since is dropped. A log whose prefixes
	// never repeat (BenchmarkScanUnshaped) so pays for a probe every
	// shapeWaitMax lines, and looks up at most the one shape learnt last.
	shapeWait    = 32
	shapeWaitMax = 4096
)

// shape is one remembered prefix and how its line read.
type shape struct {
	// n is the prefix's length; nw its number of words (word i at
	// min(8i, n-8)).
	n, nw int
	// For each word: its bytes with digits as '0' (val), the bits that
	// must match (fix: 0xf0 for a digit, whose high nibble is a digit's),
	// 0x0f for each digit (dig), 0x06 for each digit (six) and 0x10 for
	// each digit (carry).
	val, fix, dig, six, carry [maxShape / 8]uint64
	// off is where word i starts.
	off [maxShape / 8]int
	// next holds a bit for each byte a line's message may start with
	// (fits).
	next [4]uint64
	// key is the key of the line learnt from; caps are the runs of digits
	// each line's key takes from the line.
	key  []byte
	caps []capture
	// kind is shapeTag or shapePlain; py and level are the tag's reading.
	kind  int
	py    bool
	level string
	// hits counts the lines read through the shape since a shape was
	// last learnt.
	hits int
	// first is the word find compares first.
	first int
}

// capture says that key[at:at+n] is line[from:from+n].
type capture struct{ at, from, n int }

// shapes is a scanner's remembered shapes.
type shapes struct {
	list [shapeCount]shape
	// order holds the indexes of list in use, the most used first; live
	// marks them; newest is the index of the one learnt last.
	order  [shapeCount]uint8
	live   [shapeCount]bool
	newest uint8
	// last is the index of the shape the last line was read through
	// (shapeCount: none), and after[i] that of the shape the line after
	// one read through shape i was read through last time.
	last  uint8
	after [shapeCount + 1]uint8
	k     int
	// wait counts lines down to when a shape may be learnt again; backoff
	// is the next wait; lines and hits count the lines looked up since a
	// shape was last learnt, and those read through a shape.
	wait, backoff, lines, hits int
	// probe, key and next are learnShape's buffers (next: the shape being
	// made, swapped into list when made).
	probe, key []byte
	next       shape
}

// word reads the 8 bytes of b at i, little-endian.
func word(b []byte, i int) uint64 { return binary.LittleEndian.Uint64(b[i:]) }

// msgMayExtend reports whether a message's first byte could have been read
// as part of the tag (a blank, or a group's '['): such lines make and use
// no tagged shape.
func msgMayExtend(c byte) bool { return c == '[' || isSpace(c) }

// plainStart reports whether a message with no tag that starts with c
// starts where readPrefix's readers stop whatever follows: not a blank (a
// timestamp's or tag's trailing blanks), not '[' (a timestamp, a tag), not
// a digit (srun's label after a timestamp, a collector's timestamp), not
// 's' (the kubelet's "stdout F " after a collector's timestamp).
func plainStart(c byte) bool { return !msgMayExtend(c) && !isDigit(c) && c != 's' }

// fits reports whether line's message after sh's prefix starts as sh's
// line's did: a tagged shape's with no byte the tag could take, a plain
// one's with no byte a reader could take and no tag in it (readPrefix
// looks for a tag behind unknown prefixes, in the message too).
func (sh *shape) fits(line []byte) bool {
	if len(line) <= sh.n {
		return false
	}
	c := line[sh.n]
	return sh.next[c>>6]>>(c&63)&1 != 0
}

// mayFollow reports whether a message of a shape of kind may start with c.
func mayFollow(kind int, c byte) bool {
	if kind == shapeTag {
		return !msgMayExtend(c)
	}
	return plainStart(c)
}

// find returns the shape line reads as, or nil.
func (ss *shapes) find(line []byte) *shape {
	if ss.wait > 0 {
		ss.wait--
	}
	ss.lines++
	// First the shape that followed the last line's the last time: a log's
	// shapes come in runs and cycles (a rank's iteration lines, the ranks'
	// turns), so the guess is mostly right, and a wrong one costs a word.
	guess := ss.after[ss.last]
	if guess < shapeCount && ss.live[guess] && ss.list[guess].matches(line) {
		return ss.hit(guess, line)
	}
	for i := 0; i < ss.k; i++ {
		if j := ss.order[i]; j != guess && ss.list[j].matches(line) {
			if i > 0 { // the more used shapes first
				ss.order[i-1], ss.order[i] = ss.order[i], ss.order[i-1]
			}
			return ss.hit(j, line)
		}
	}
	ss.after[ss.last], ss.last = shapeCount, shapeCount
	return nil
}

// hit is find's answer when line matches shape j.
func (ss *shapes) hit(j uint8, line []byte) *shape {
	sh := &ss.list[j]
	if sh.kind == shapePlain && embeddedTag(line[sh.n:]) > 0 {
		// A tag in the message decides: the line is read.
		ss.after[ss.last], ss.last = shapeCount, shapeCount
		return nil
	}
	ss.after[ss.last], ss.last = j, j
	sh.hits++
	ss.hits++
	return sh
}

// matches reports whether line starts with sh's prefix and its message as
// sh's did (fits).
func (sh *shape) matches(line []byte) bool {
	// The word that last told a line from the shape first (at first the
	// last word, which holds the tag's level and, in most shapes, the
	// rank, where shapes differ).
	if !sh.fits(line) || !sh.wordMatches(line, sh.first) {
		return false
	}
	for w := 0; w < sh.nw; w++ {
		if w != sh.first && !sh.wordMatches(line, w) {
			sh.first = w
			return false
		}
	}
	return true
}

// wordMatches reports whether word i of line (len(line) > sh.n) matches.
func (sh *shape) wordMatches(line []byte, i int) bool {
	w := word(line, sh.off[i])
	// A digit's high nibble is 3 (fix), and its low nibble at most 9:
	// adding 6 to it must not carry into the nibble above.
	return (w^sh.val[i])&sh.fix[i] == 0 && ((w&sh.dig[i])+sh.six[i])&sh.carry[i] == 0
}

// keyOf appends to dst the process key of line, which matches sh.
func (sh *shape) keyOf(dst, line []byte) []byte {
	at := len(dst)
	dst = append(dst, sh.key...)
	for _, c := range sh.caps {
		// A byte at a time: most runs are a digit or two, too short for
		// copy's call to pay.
		k, src := dst[at+c.at:at+c.at+c.n], line[c.from:c.from+c.n]
		for j := range k {
			k[j] = src[j]
		}
	}
	return dst
}

// learnShape makes a shape of line, which readPrefix just read (sc.key, py,
// level; n the length of its prefix), when it can and when it may.
func (sc *scanner) learnShape(line []byte, n, kind int, py bool, level string) {
	ss := &sc.shapes
	if ss.wait > 0 || n < 8 || n > maxShape || len(line) <= n || kind == shapeTag && msgMayExtend(line[n]) {
		return
	}
	if ss.backoff == 0 || 2*ss.hits >= ss.lines {
		ss.backoff = shapeWait
	} else {
		ss.backoff = min(2*ss.backoff, shapeWaitMax)
	}
	ss.wait = ss.backoff
	// The shapes that read no line since the last was learnt go, but that
	// one, which may not have met its like yet.
	k := 0
	for _, i := range ss.order[:ss.k] {
		if sh := &ss.list[i]; sh.hits > 0 || i == ss.newest {
			ss.order[k] = i
			k++
		}
		ss.list[i].hits = 0
	}
	ss.k, ss.lines, ss.hits = k, 0, 0
	ss.live = [shapeCount]bool{}
	for _, i := range ss.order[:k] {
		ss.live[i] = true
	}
	ss.key = append(ss.key[:0], sc.key...)
	defer func() { sc.key = append(sc.key[:0], ss.key...) }()
	sh := &ss.next
	sh.caps = sh.caps[:0]
	for i := 0; i < n; {
		if !isDigit(line[i]) {
			i++
			continue
		}
		j := i + 1
		for j < n && isDigit(line[j]) {
			j++
		}
		// Read the line again with this run's digits changed, each one.
		ss.probe = append(ss.probe[:0], line...)
		for k := i; k < j; k++ {
			ss.probe[k] = '0' + (ss.probe[k]-'0'+1)%10
		}
		_, py2, level2, msg, kind2 := sc.readPrefix(ss.probe)
		if kind2 != kind || py2 != py || level2 != level || len(ss.probe)-len(msg) != n || len(sc.key) != len(ss.key) {
			return
		}
		if !bytes.Equal(sc.key, ss.key) {
			a := 0
			for sc.key[a] == ss.key[a] {
				a++
			}
			b := len(ss.key)
			for sc.key[b-1] == ss.key[b-1] {
				b--
			}
			if b-a != j-i || string(ss.key[a:b]) != string(line[i:j]) {
				return // the key takes the run in part, or twice
			}
			sh.caps = append(sh.caps, capture{at: a, from: i, n: j - i})
		}
		i = j
	}
	sh.n, sh.nw = n, (n+7)/8
	sh.first, sh.hits = sh.nw-1, 0
	for i := range sh.nw {
		at := min(8*i, n-8)
		var val, fix, dig uint64
		for j := 7; j >= 0; j-- {
			c, f, d := uint64(line[at+j]), uint64(0xff), uint64(0)
			if isDigit(line[at+j]) {
				c, f, d = '0', 0xf0, 0x0f
			}
			val, fix, dig = val<<8|c, fix<<8|f, dig<<8|d
		}
		sh.off[i], sh.val[i], sh.fix[i], sh.dig[i] = at, val, fix, dig
		sh.six[i], sh.carry[i] = dig&0x0606060606060606, dig<<1&0x1010101010101010
	}
	sh.key = append(sh.key[:0], ss.key...)
	sh.kind, sh.py, sh.level = kind, py, level
	sh.next = [4]uint64{}
	for c := range 256 {
		if mayFollow(kind, byte(c)) {
			sh.next[c>>6] |= 1 << (c & 63)
		}
	}
	if ss.k == shapeCount { // the least used goes
		ss.k--
	}
	var used [shapeCount]bool
	for _, i := range ss.order[:ss.k] {
		used[i] = true
	}
	slot := uint8(0)
	for used[slot] {
		slot++
	}
	ss.order[ss.k] = slot
	ss.k++
	ss.newest, ss.live[slot] = slot, true
	ss.list[slot], ss.next = ss.next, ss.list[slot]
}

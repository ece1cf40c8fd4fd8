package logs

import (
	"bytes"
	"io"
)

// A log whose lines end with a carriage return alone: a file saved with old
// Mac line ends, a terminal capture or a tqdm progress output saved raw. Read
// as lines ending in '\n' it is one line, cut at maxLineBytes. A log whose
// first crWindow bytes (after a BOM; all of it when it is shorter) hold no
// '\n' but a '\r' is read with universal newlines, as Python's text files
// are (io.TextIOWrapper with newline=None): '\r', '\n' and "\r\n" each end a
// line. Any other log is read as before: a '\r' inside a line that ends in
// '\n' (tqdm redrawing its bar, a tag after it) stays in that line.
//
// Every reader decides on the same bytes (parseText, parseMapped, the
// Parser's splitter, the reference parser), and the translation is one pass
// with one byte of state, so batch, -f and the explorer read such a log alike,
// in linear work.

// crWindow is how many bytes of a log's start decide how its lines end:
// fewer than every reader holds before it reads lines (parseText's first
// read, maxLineBytes+1 bytes, less a BOM), and enough that a log of '\n'
// lines has one there (a log whose first line is longer than that has it cut
// at maxLineBytes anyway).
const crWindow = 32 << 10

// crLines reports whether head, a log's first bytes after its BOM (all of
// them when eof), says the log's lines end with '\r' alone; decided is false
// while head is too short to tell.
func crLines(head []byte, eof bool) (cr, decided bool) {
	w := head[:min(len(head), crWindow)]
	if bytes.IndexByte(w, '\n') >= 0 {
		return false, true
	}
	if len(w) < crWindow && !eof {
		return false, false
	}
	return bytes.IndexByte(w, '\r') >= 0, true
}

// crToLF translates p in place to lines that end with '\n': '\r' becomes
// '\n', and the '\n' of a "\r\n" goes. lastCR says the byte before p was a
// '\r', and is left saying whether p's last byte was.
func crToLF(p []byte, lastCR *bool) []byte {
	w := 0
	last := *lastCR
	for _, c := range p {
		switch {
		case c == '\r':
			p[w], last = '\n', true
			w++
			continue
		case c == '\n' && last:
		default:
			p[w] = c
			w++
		}
		last = false
	}
	*lastCR = last
	return p[:w]
}

// crReader is r with crToLF applied.
type crReader struct {
	r      io.Reader
	lastCR bool
}

func (c *crReader) Read(p []byte) (int, error) {
	for {
		n, err := c.r.Read(p)
		k := len(crToLF(p[:n], &c.lastCR))
		if k > 0 || n == 0 || err != nil {
			return k, err
		}
	}
}

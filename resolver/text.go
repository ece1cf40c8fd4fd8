package resolver

import (
	"strconv"
	"unsafe"
)

// textArena holds the text a resolution builds (reasons, log lines, the
// exception) in shared chunks, so that joining a few strings is a copy instead of
// an allocation. Text is only ever appended after what is already there, and a
// full chunk is replaced, never reused: a string handed out stays valid and
// unchanged for as long as anything refers to it, after the next resolution too.
type textArena struct {
	buf []byte
}

// arenaChunk is the size of a Resolver's chunks: a resolution writes 0.5–1.5 KB
// of text, so one chunk serves a few dozen resolutions of a matrix.
const arenaChunk = 16 << 10

// firstChunk is the first chunk of a lone resolution (Resolve): about what one
// writes, so a single trace costs one small allocation for its text.
const firstChunk = 1 << 10

// cat joins parts. A single non-empty part is returned as it is, without a copy.
func (a *textArena) cat(parts ...string) string {
	n, nonEmpty, last := 0, 0, ""
	for _, p := range parts {
		if p != "" {
			n += len(p)
			nonEmpty++
			last = p
		}
	}
	switch nonEmpty {
	case 0:
		return ""
	case 1:
		return last
	}
	b := a.reserve(n)
	start := len(b)
	for _, p := range parts {
		b = append(b, p...)
	}
	a.buf = b
	return unsafe.String(&b[start], n)
}

// reserve makes room for n more bytes, starting a new chunk when the current one
// is full; it returns the buffer to append to.
func (a *textArena) reserve(n int) []byte {
	if cap(a.buf)-len(a.buf) >= n {
		return a.buf
	}
	size := arenaChunk
	if a.buf == nil {
		size = firstChunk
	}
	for size < n {
		size *= 2
	}
	a.buf = make([]byte, 0, size)
	return a.buf
}

// bytes copies b into the arena.
func (a *textArena) bytes(b []byte) string {
	if len(b) == 0 {
		return ""
	}
	buf := a.reserve(len(b))
	start := len(buf)
	a.buf = append(buf, b...)
	return unsafe.String(&a.buf[start], len(b))
}

// itoa is strconv.Itoa written into the arena.
func (a *textArena) itoa(n int) string {
	var tmp [20]byte
	return a.bytes(strconv.AppendInt(tmp[:0], int64(n), 10))
}

// day is Day.String written into the arena.
func (a *textArena) day(d Day) string {
	if d == 0 {
		return ""
	}
	var tmp [16]byte
	return a.bytes(d.append(tmp[:0]))
}

// origin is Origin.String written into the arena.
func (a *textArena) origin(o Origin) string {
	switch {
	case o.Kind == "":
		return string(OriginDefault)
	case o.Kind == OriginFile && o.Detail != "":
		return o.Detail
	case o.Detail == "":
		return string(o.Kind)
	default:
		return a.cat(string(o.Kind), " ", o.Detail)
	}
}

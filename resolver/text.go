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
	// recent, in a Resolver, remembers a string built for each of a few
	// hundred shapes of parts: a matrix builds the same reasons over and over
	// (the same class, backend and origin in another version), and handing back
	// the one already built keeps those bytes from being written again, which
	// is most of what would set off the garbage collector.
	recent *[recentSlots]string
}

// recentSlots is the size of a Resolver's table of recent texts.
const recentSlots = 512

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
	var slot *string
	if a.recent != nil {
		slot = &a.recent[shapeOf(n, parts)%recentSlots]
		if len(*slot) == n && joinsTo(*slot, parts) {
			return *slot
		}
	}
	b := a.reserve(n)
	start := len(b)
	for _, p := range parts {
		b = append(b, p...)
	}
	a.buf = b
	s := unsafe.String(&b[start], n)
	if slot != nil {
		*slot = s
	}
	return s
}

// shapeOf is a cheap fingerprint of parts: lengths and a few bytes of each,
// enough to tell the usual variations (another class, backend or origin) apart.
// A collision only costs a copy: joinsTo checks the whole text.
func shapeOf(n int, parts []string) uint {
	h := uint(n)
	for _, p := range parts {
		h = h*31 + uint(len(p))
		if len(p) > 0 {
			h = h*31 + uint(p[0])<<8 + uint(p[len(p)/2])<<16 + uint(p[len(p)-1])
		}
	}
	return h ^ h>>9
}

// joinsTo reports whether s is parts joined.
func joinsTo(s string, parts []string) bool {
	off := 0
	for _, p := range parts {
		if s[off:off+len(p)] != p {
			return false
		}
		off += len(p)
	}
	return true
}

// reserve makes room for n more bytes, starting a new chunk when the current one
// is full; it returns the buffer to append to.
func (a *textArena) reserve(n int) []byte {
	if cap(a.buf)-len(a.buf) >= n {
		return a.buf
	}
	size := arenaChunk
	if a.recent == nil {
		// A lone resolution: grow from 1 KB by doubling, so the one trace that
		// writes a little more than usual does not take a Resolver's 16 KB.
		size = max(firstChunk, 2*cap(a.buf))
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

// literals is prefix + literalList(vals) + suffix, joined in the arena.
func (a *textArena) literals(prefix string, vals []string, suffix string) string {
	var buf [40]string
	parts := append(buf[:0], prefix)
	for i, v := range vals {
		switch {
		case i == 0:
		case i == len(vals)-1:
			parts = append(parts, " or ")
		default:
			parts = append(parts, ", ")
		}
		parts = append(parts, "'", v, "'")
	}
	return a.cat(append(parts, suffix)...)
}

// validationError renders the errors as pydantic v2 prints a ValidationError
// for TorchLlmArgs, which is where trtllm-serve validates cache_transceiver_config
// (without the per-error documentation URL, whose pydantic version xcvr cannot know).
func (a *textArena) validationError(errs []FieldError) string {
	var buf [64]string
	parts := append(buf[:0], "pydantic_core._pydantic_core.ValidationError: ", a.itoa(len(errs)), " validation error")
	if len(errs) != 1 {
		parts = append(parts, "s")
	}
	parts = append(parts, " for TorchLlmArgs")
	for _, e := range errs {
		if e.Root != "" {
			parts = append(parts, "\n", e.Root)
		} else {
			parts = append(parts, "\ncache_transceiver_config")
		}
		if e.Loc != "" {
			parts = append(parts, ".", e.Loc)
		}
		parts = append(parts, "\n  ", e.Message)
		if e.Type != "" {
			parts = append(parts, " [type=", e.Type, ", input_value=", PyTruncate(e.Input), ", input_type=", e.InputType, "]")
		}
	}
	return a.cat(parts...)
}

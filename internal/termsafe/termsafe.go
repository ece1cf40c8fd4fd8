// Package termsafe makes strings that came from input safe to write to a terminal.
// Logs, configs, /proc and catalogs are written by people xcvr does not trust; a raw
// ESC, C1 control or carriage return in them could retitle the window, rewrite what
// is on screen or hide a line. Every human-readable output passes input-derived
// strings through Text or Line; JSON keeps exact values (its encoder escapes them).
package termsafe

import (
	"io"
	"unicode/utf8"
)

// Text escapes every control character of s except tab and newline: C0, DEL, C1
// (U+0080–U+009F), carriage return and backspace become visible escapes (\x1b,
// \r, \u009b …), as do invalid UTF-8 bytes and the Unicode bidi overrides that can
// make text read differently from what it is. Clean input is returned as is,
// without allocating.
func Text(s string) string { return escape(s, false) }

// Line is Text for one-line places (a status bar, a table cell): newline is escaped
// too, so a value cannot break the layout.
func Line(s string) string { return escape(s, true) }

// Clean reports whether s would be returned unchanged by Text.
func Clean(s string) bool { return firstUnsafe(s, false) < 0 }

func escape(s string, line bool) string {
	i := firstUnsafe(s, line)
	if i < 0 {
		return s
	}
	b := make([]byte, 0, len(s)+16)
	b = append(b, s[:i]...)
	for i < len(s) {
		c := s[i]
		if c < utf8.RuneSelf {
			if unsafeByte(c, line) {
				b = appendASCII(b, c)
			} else {
				b = append(b, c)
			}
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size <= 1:
			b = append(b, '\\', 'x', hex[c>>4], hex[c&0xf])
		case unsafeRune(r):
			b = append(b, `\u`...)
			b = append(b, hex[r>>12&0xf], hex[r>>8&0xf], hex[r>>4&0xf], hex[r&0xf])
		default:
			b = append(b, s[i:i+size]...)
		}
		i += size
	}
	return string(b)
}

const hex = "0123456789abcdef"

func appendASCII(b []byte, c byte) []byte {
	switch c {
	case '\r':
		return append(b, '\\', 'r')
	case '\n':
		return append(b, '\\', 'n')
	case '\t':
		return append(b, '\\', 't')
	}
	return append(b, '\\', 'x', hex[c>>4], hex[c&0xf])
}

// unsafeByte reports whether an ASCII byte must be escaped. Tab and newline are
// layout, not control, except where line asks for one line.
func unsafeByte(c byte, line bool) bool {
	switch {
	case c == '\n':
		return line
	case c == '\t':
		return false
	case c < 0x20, c == 0x7f:
		return true
	}
	return false
}

// unsafeRune reports whether a non-ASCII rune must be escaped: the C1 controls
// (0x9b alone is a CSI on many terminals) and the bidi embeddings, overrides and
// isolates (U+202A–U+202E, U+2066–U+2069).
func unsafeRune(r rune) bool {
	return (r >= 0x80 && r <= 0x9f) || (r >= 0x202a && r <= 0x202e) || (r >= 0x2066 && r <= 0x2069)
}

func firstUnsafe(s string, line bool) int {
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if unsafeByte(c, line) {
				return i
			}
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if (r == utf8.RuneError && size <= 1) || unsafeRune(r) {
			return i
		}
		i += size
	}
	return -1
}

// Writer escapes, with Text, everything written through it. It is for plain-text
// outputs that carry no escape sequences of xcvr's own (check-logs, warnings).
// Each Write is escaped on its own, so a caller must not split a UTF-8 sequence
// across two writes (fmt.Fprint* and io.WriteString of whole strings never do).
type Writer struct{ W io.Writer }

// Write escapes p and writes it; it reports len(p) on success, as io.Writer
// requires, although more bytes may reach W.
func (w Writer) Write(p []byte) (int, error) {
	s := string(p)
	if Clean(s) {
		return w.W.Write(p)
	}
	if _, err := io.WriteString(w.W, Text(s)); err != nil {
		return 0, err
	}
	return len(p), nil
}

// JSONWriter passes encoded JSON through, writing the C1 controls and the bidi
// characters that encoding/json leaves raw as \u escapes: the value decodes to
// exactly the same string, but a terminal showing the JSON never sees them (in a
// UTF-8 terminal U+009B can act as CSI). It relies on JSON allowing such runes
// only inside strings, and on json.Encoder writing each value in one Write.
type JSONWriter struct{ W io.Writer }

// Write escapes p and writes it, reporting len(p) on success.
func (w JSONWriter) Write(p []byte) (int, error) {
	s := string(p)
	i := firstUnsafe(s, false)
	if i < 0 {
		return w.W.Write(p)
	}
	b := make([]byte, 0, len(p)+16)
	b = append(b, s[:i]...)
	for _, r := range s[i:] {
		if r >= utf8.RuneSelf && unsafeRune(r) {
			b = append(b, `\u`...)
			b = append(b, hex[r>>12&0xf], hex[r>>8&0xf], hex[r>>4&0xf], hex[r&0xf])
			continue
		}
		b = utf8.AppendRune(b, r)
	}
	if _, err := w.W.Write(b); err != nil {
		return 0, err
	}
	return len(p), nil
}

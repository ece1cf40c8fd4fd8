// Package termsafe makes strings that came from input safe to write to a terminal.
// Logs, configs, /proc and catalogs are written by people xcvr does not trust; a raw
// ESC, C1 control or carriage return in them could retitle the window, rewrite what
// is on screen or hide a line. Every human-readable output passes input-derived
// strings through Text or Line; JSON keeps exact values (its encoder escapes them).
package termsafe

import (
	"errors"
	"io"
	"unicode"
	"unicode/utf16"
	"unicode/utf8"
)

// Text escapes every control character of s except tab and newline: C0, DEL, C1
// (U+0080–U+009F), carriage return and backspace become visible escapes (\x1b,
// \r, \u009b …), as do invalid UTF-8 bytes and every invisible character (see
// Invisible): the bidi controls that make text read differently from what it is,
// zero-width characters, U+2028/U+2029 (line breaks to some terminals and
// editors), U+FEFF and the tag characters (\U000e0041). Clean input is returned
// as is, without allocating.
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
			b = appendRuneEscape(b, r)
		default:
			b = append(b, s[i:i+size]...)
		}
		i += size
	}
	return string(b)
}

const hex = "0123456789abcdef"

// appendRuneEscape writes r as \uXXXX, or \UXXXXXXXX outside the BMP (Go's
// own spelling, so a reader can paste it into a Go or Python string).
func appendRuneEscape(b []byte, r rune) []byte {
	if r > 0xffff {
		b = append(b, `\U`...)
		for sh := 28; sh >= 0; sh -= 4 {
			b = append(b, hex[r>>sh&0xf])
		}
		return b
	}
	b = append(b, `\u`...)
	return append(b, hex[r>>12&0xf], hex[r>>8&0xf], hex[r>>4&0xf], hex[r&0xf])
}

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
// (0x9b alone is a CSI on many terminals) and the invisible characters.
func unsafeRune(r rune) bool {
	return (r >= 0x80 && r <= 0x9f) || Invisible(r)
}

// Invisible reports whether r is a character a terminal draws as nothing, or
// that changes how its neighbours read, so that two different strings can look
// the same: the Unicode format characters (category Cf: the bidi embeddings,
// overrides, isolates and marks LRM/RLM/ALM, the zero-width space, joiners and
// word joiner, U+FEFF, the soft hyphen, the tag characters U+E0000–U+E007F),
// the line and paragraph separators U+2028/U+2029, the variation selectors and
// the Hangul fillers that render as blank. It is exported for the model
// catalog, which names such a difference when a name does not match.
func Invisible(r rune) bool {
	switch {
	case r < 0xad:
		return false
	case r == 0x2028, r == 0x2029:
		return true
	case r >= 0xfe00 && r <= 0xfe0f, r >= 0xe0100 && r <= 0xe01ef: // variation selectors
		return true
	case r == 0x115f, r == 0x1160, r == 0x3164, r == 0xffa0: // Hangul fillers
		return true
	}
	return unicode.Is(unicode.Cf, r)
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

// firstUnsafeBytes is firstUnsafe(string(p), false) without the copy.
func firstUnsafeBytes(p []byte) int {
	for i := 0; i < len(p); {
		c := p[i]
		if c < utf8.RuneSelf {
			if unsafeByte(c, false) {
				return i
			}
			i++
			continue
		}
		r, size := utf8.DecodeRune(p[i:])
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
	if firstUnsafeBytes(p) < 0 {
		return w.W.Write(p) // clean: written as is, without a copy
	}
	s := string(p)
	if _, err := io.WriteString(w.W, Text(s)); err != nil {
		return 0, err
	}
	return len(p), nil
}

// JSONWriter passes encoded JSON through, writing the C1 controls and the
// invisible characters that encoding/json leaves raw as \u escapes: the value decodes to
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
			if r > 0xffff { // JSON spells a rune outside the BMP as a surrogate pair
				r1, r2 := utf16.EncodeRune(r)
				b = appendRuneEscape(appendRuneEscape(b, r1), r2)
				continue
			}
			b = appendRuneEscape(b, r)
			continue
		}
		b = utf8.AppendRune(b, r)
	}
	if _, err := w.W.Write(b); err != nil {
		return 0, err
	}
	return len(p), nil
}

// MultilineError marks an error whose newlines are layout xcvr wrote (a list to
// choose from), its input-derived parts escaped with Line when it was made.
type MultilineError struct{ Err error }

func (e MultilineError) Error() string { return e.Err.Error() }
func (e MultilineError) Unwrap() error { return e.Err }

// Message is err's text for a terminal. An error is one message: it is shown
// with Line, so that a newline in a path or value it quotes (os.PathError
// quotes names raw) cannot start a line that looks like xcvr's own. Only a
// MultilineError keeps its newlines (with Text).
func Message(err error) string {
	var m MultilineError
	if errors.As(err, &m) {
		return Text(err.Error())
	}
	return Line(err.Error())
}

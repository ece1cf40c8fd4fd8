package deploy

import (
	"fmt"
	"strings"
	"unicode/utf8"

	"xcvr/internal/yamlpos"
)

// pyTabError finds the first tab PyYAML's scanner refuses (and the reserved
// indicators '@' and '`', a '%' that does not start a line, and ',', ']' or '}' outside a flow collection, which
// PyYAML also refuses where go-yaml reads text), or nil. PyYAML skips
// only spaces between tokens (scan_to_next_token) and ends a plain scalar at a
// tab without consuming it, so a tab is accepted only inside a quoted scalar, a
// comment or a block scalar's text: "backend: NIXL<TAB>" and "backend:<TAB>NIXL"
// are ScannerErrors where go-yaml reads NIXL. The scan follows PyYAML's token
// starts (where a quote opens a quoted scalar, where '#' opens a comment, where
// '|' or '>' opens a block scalar) and the block scalar's indentation rule
// (scan_block_scalar_indentation), which is all a tab's fate depends on.
//
// It also returns the offsets of the raw tabs inside double-quoted scalars.
func pyTabError(name string, data []byte) ([]int, error) {
	s := tabScan{d: data, line: 1}
	if len(data) >= 3 && string(data[:3]) == "\xef\xbb\xbf" {
		s.i, s.lineStart = 3, 3
	}
	if err := s.printable(name); err != nil {
		return nil, err
	}
	err := s.run(name)
	return s.quotedTabs, err
}

// printable refuses what PyYAML's Reader refuses before scanning: a character
// outside tab, LF, CR, printable ASCII, NEL and the printable Unicode planes.
func (s *tabScan) printable(name string) error {
	line, start := 1, 0
	for i, r := range string(s.d) {
		ok := r == '\t' || r == '\n' || r == '\r' || (r >= 0x20 && r <= 0x7e) || r == 0x85 ||
			(r >= 0xa0 && r <= 0xd7ff) || (r >= 0xe000 && r <= 0xfffd && r != utf8.RuneError) || (r >= 0x10000 && r <= 0x10ffff)
		if r == utf8.RuneError {
			ok = i == 0 && len(s.d) > 0 && s.d[0] == 0xef // a real U+FFFD is allowed
			if !ok {
				_, size := utf8.DecodeRune(s.d[i:])
				ok = size == 3
			}
		}
		if !ok {
			return &yamlpos.Error{File: name, Line: line, Col: utf8.RuneCount(s.d[start:i]) + 1,
				Msg: fmt.Sprintf("yaml.reader.ReaderError: unacceptable character #x%04x: special characters are not allowed", r)}
		}
		if r == '\n' {
			line, start = line+1, i+1
		}
	}
	return nil
}

// escapeTabs replaces the tabs at offsets (inside double-quoted scalars) with
// the escape \t, which means the same there.
func escapeTabs(data []byte, offsets []int) []byte {
	out := make([]byte, 0, len(data)+len(offsets))
	prev := 0
	for _, o := range offsets {
		out = append(out, data[prev:o]...)
		out = append(out, '\\', 't')
		prev = o + 1
	}
	return append(out, data[prev:]...)
}

type tabScan struct {
	d         []byte
	i         int
	line      int
	lineStart int
	flow      int
	// indents holds, for the block structure seen so far, the columns of the
	// collections entries were written at (PyYAML's indent stack, approximated
	// from "- " and "key:" positions).
	indents []int
	// quotedTabs are the offsets of tabs inside double-quoted scalars.
	quotedTabs []int
	// valueLine is the line of the last block value indicator (": ").
	valueLine int
}

func (s *tabScan) col(i int) int { return utf8.RuneCount(s.d[s.lineStart:i]) + 1 }

func (s *tabScan) fail(name string, at int, msg string) error {
	return &yamlpos.Error{File: name, Line: s.line, Col: s.col(at), Msg: msg}
}

func (s *tabScan) tabAt(name string, at int) error {
	return s.fail(name, at, `yaml.scanner.ScannerError: while scanning for the next token found character '\t' that cannot start any token`)
}

func isBreak(c byte) bool { return c == '\n' || c == '\r' }

// newline consumes one line break at s.i (CRLF counts once).
func (s *tabScan) newline() {
	if s.d[s.i] == '\r' && s.i+1 < len(s.d) && s.d[s.i+1] == '\n' {
		s.i++
	}
	s.i++
	s.line++
	s.lineStart = s.i
}

func blankAt(d []byte, i int) bool {
	return i >= len(d) || d[i] == ' ' || d[i] == '\t' || isBreak(d[i])
}

func (s *tabScan) run(name string) error {
	d := s.d
	for s.i < len(d) {
		// scan_to_next_token: spaces, a comment, line breaks.
		for s.i < len(d) && d[s.i] == ' ' {
			s.i++
		}
		if s.i >= len(d) {
			return nil
		}
		c := d[s.i]
		switch {
		case c == '\t':
			return s.tabAt(name, s.i)
		case c == '#':
			s.skipComment()
			continue
		case isBreak(c):
			s.newline()
			continue
		}
		atLineStart := s.i == s.lineStart
		col := s.i - s.lineStart
		if s.flow == 0 {
			for len(s.indents) > 0 && s.indents[len(s.indents)-1] > col {
				s.indents = s.indents[:len(s.indents)-1]
			}
		}
		switch {
		case atLineStart && c == '%':
			// A directive: its line is not data.
			s.skipLine()
		case atLineStart && s.i+3 <= len(d) && (string(d[s.i:s.i+3]) == "---" || string(d[s.i:s.i+3]) == "...") && blankAt(d, s.i+3):
			s.indents = s.indents[:0]
			s.i += 3
		case c == '@' || c == '`' || (c == '%' && !atLineStart):
			// Reserved indicators: PyYAML's scanner has no token for them.
			return s.fail(name, s.i, "yaml.scanner.ScannerError: while scanning for the next token found character "+PyRepr(string(c))+" that cannot start any token")
		case s.flow == 0 && (c == ',' || c == ']' || c == '}'):
			// Flow indicators outside a flow collection are tokens of their
			// own, which no block node can start with (go-yaml reads them as
			// text).
			return s.fail(name, s.i, "yaml.parser.ParserError: expected the node content, but found "+PyRepr(string(c)))
		case c == '[' || c == '{':
			s.flow++
			s.i++
		case c == ']' || c == '}':
			if s.flow > 0 {
				s.flow--
			}
			s.i++
		case c == ',' && s.flow > 0:
			s.i++
		case (c == '-' || c == '?') && blankAt(d, s.i+1):
			if s.flow == 0 && s.valueLine == s.line {
				// After "key: " on the same line a block entry or an explicit
				// key cannot start (PyYAML: "… are not allowed here").
				what := map[byte]string{'-': "sequence entries", '?': "mapping keys"}[c]
				return s.fail(name, s.i, "yaml.scanner.ScannerError: "+what+" are not allowed here")
			}
			if s.flow == 0 {
				s.pushIndent(col)
			}
			s.i++
		case c == ':' && (blankAt(d, s.i+1) || s.flow > 0 && s.i+1 < len(d) && (d[s.i+1] == ',' || d[s.i+1] == '[' || d[s.i+1] == ']' || d[s.i+1] == '{' || d[s.i+1] == '}')):
			if s.flow == 0 {
				s.valueLine = s.line
			}
			s.i++
		case c == '\'' || c == '"':
			s.pushKey(col)
			s.skipQuoted(c)
		case (c == '|' || c == '>') && s.flow == 0:
			if err := s.blockScalar(name); err != nil {
				return err
			}
		case c == '&' || c == '*':
			// scan_anchor: a name of [0-9A-Za-z_-] ending at a blank or one
			// of ?:,]}%@` ; anything else is a ScannerError.
			s.pushKey(col)
			what := map[byte]string{'&': "an anchor", '*': "an alias"}[c]
			start := s.i + 1
			for s.i = start; s.i < len(d) && isAnchorChar(d[s.i]); s.i++ {
			}
			if s.i == start || (s.i < len(d) && !blankAt(d, s.i) && !strings.ContainsRune("?:,]}%@`", rune(d[s.i]))) {
				found := "'\\x00'"
				if s.i < len(d) {
					found = PyRepr(string(rune(d[s.i])))
				}
				return s.fail(name, s.i, "yaml.scanner.ScannerError: while scanning "+what+" expected alphabetic or numeric character, but found "+found)
			}
		case c == '!':
			for s.i++; s.i < len(d) && !blankAt(d, s.i) && (s.flow == 0 || !isFlowIndicator(d[s.i])); s.i++ {
			}
			if s.i < len(d) && d[s.i] == '\t' {
				return s.fail(name, s.i, `yaml.scanner.ScannerError: while scanning a tag expected ' ', but found '\t'`)
			}
		default:
			s.pushKey(col)
			if err := s.plain(name); err != nil {
				return err
			}
		}
	}
	return nil
}

func isAnchorChar(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' || c == '-' || c == '_'
}

func isFlowIndicator(c byte) bool {
	return c == ',' || c == '[' || c == ']' || c == '{' || c == '}'
}

// pushIndent records a block collection entry at col.
func (s *tabScan) pushIndent(col int) {
	if n := len(s.indents); n == 0 || s.indents[n-1] < col {
		s.indents = append(s.indents, col)
	}
}

// pushKey records col as a mapping's column when the scalar starting there is a
// key ("key:" follows on the same line).
func (s *tabScan) pushKey(col int) {
	if s.flow > 0 {
		return
	}
	d := s.d
	for j := s.i; j < len(d) && !isBreak(d[j]); j++ {
		if d[j] == ':' && blankAt(d, j+1) {
			s.pushIndent(col)
			return
		}
		if d[j] == '#' && j > s.i && (d[j-1] == ' ' || d[j-1] == '\t') {
			return
		}
	}
}

func (s *tabScan) skipComment() {
	for s.i < len(s.d) && !isBreak(s.d[s.i]) {
		s.i++
	}
}

func (s *tabScan) skipLine() { s.skipComment() }

// skipQuoted skips a quoted scalar (tabs inside are text), counting its lines.
func (s *tabScan) skipQuoted(q byte) {
	d := s.d
	s.i++
	for s.i < len(d) {
		c := d[s.i]
		switch {
		case isBreak(c):
			s.newline()
			continue
		case q == '"' && c == '\t':
			s.quotedTabs = append(s.quotedTabs, s.i)
		case q == '"' && c == '\\' && s.i+1 < len(d):
			s.i++
			if isBreak(d[s.i]) {
				s.newline()
				continue
			}
		case c == q:
			if q == '\'' && s.i+1 < len(d) && d[s.i+1] == '\'' {
				s.i += 2
				continue
			}
			s.i++
			return
		}
		s.i++
	}
}

// plain skips a plain scalar: it ends at a tab (which PyYAML then refuses), at
// ": ", at " #", at a flow indicator inside a flow collection, or at the end of
// the line (its continuation lines start like new tokens).
func (s *tabScan) plain(name string) error {
	d := s.d
	// The first character is the scalar's own, whatever it is.
	s.i++
	for s.i < len(d) {
		c := d[s.i]
		switch {
		case c == '\t':
			return s.tabAt(name, s.i)
		case isBreak(c):
			return nil
		case c == ' ':
			j := s.i
			for j < len(d) && d[j] == ' ' {
				j++
			}
			if j < len(d) && d[j] == '#' {
				s.i = j
				return nil
			}
			s.i = j
			continue
		case c == ':' && (blankAt(d, s.i+1) || s.flow > 0 && s.i+1 < len(d) && isFlowIndicator(d[s.i+1])):
			return nil
		case s.flow > 0 && c == '?':
			// In a flow collection '?' always ends a plain scalar as a key
			// indicator, which cannot follow one ("[0?]" is a ParserError).
			return s.fail(name, s.i, "yaml.parser.ParserError: while parsing a flow collection expected ',' or the collection's end, but got '?'")
		case s.flow > 0 && isFlowIndicator(c):
			return nil
		}
		s.i++
	}
	return nil
}

// blockScalar checks a block scalar header and skips its text, which may hold
// tabs; a less indented line ends it.
func (s *tabScan) blockScalar(name string) error {
	d := s.d
	start := s.i
	s.i++
	increment := 0
	for k := 0; k < 2 && s.i < len(d); k++ {
		switch c := d[s.i]; {
		case c == '+' || c == '-':
			s.i++
		case c >= '1' && c <= '9':
			increment = int(c - '0')
			s.i++
		case c == '0':
			return s.fail(name, s.i, "yaml.scanner.ScannerError: while scanning a block scalar expected indentation indicator in the range 1-9, but found 0")
		}
	}
	for s.i < len(d) && d[s.i] == ' ' {
		s.i++
	}
	if s.i < len(d) && d[s.i] == '#' {
		s.skipComment()
	}
	if s.i < len(d) && !isBreak(d[s.i]) {
		if d[s.i] == '\t' {
			return s.fail(name, s.i, `yaml.scanner.ScannerError: while scanning a block scalar expected a comment or a line break, but found '\t'`)
		}
		_ = start
		return s.fail(name, s.i, "yaml.scanner.ScannerError: while scanning a block scalar expected a comment or a line break, but found "+PyRepr(string(rune(d[s.i]))))
	}
	parent := -1
	if n := len(s.indents); n > 0 {
		parent = s.indents[n-1]
	}
	minIndent := max(parent+1, 1)
	indent := 0
	if s.i >= len(d) {
		return nil
	}
	s.newline()
	if increment > 0 {
		indent = minIndent + increment - 1
	} else {
		// scan_block_scalar_indentation: the deepest run of spaces over the
		// leading empty lines and the first text line.
		maxIndent := 0
		j, lineStart := s.i, s.i
		for j < len(d) && (d[j] == ' ' || isBreak(d[j])) {
			if d[j] == ' ' {
				j++
				maxIndent = max(maxIndent, j-lineStart)
				continue
			}
			if d[j] == '\r' && j+1 < len(d) && d[j+1] == '\n' {
				j++
			}
			j++
			lineStart = j
		}
		indent = max(minIndent, maxIndent)
	}
	// Lines indented at least indent are text; blank lines too.
	for s.i < len(d) {
		j := s.i
		for j < len(d) && d[j] == ' ' && j-s.i < indent {
			j++
		}
		switch {
		case j >= len(d):
			s.i = j
			return nil
		case isBreak(d[j]):
			s.i = j
			s.newline()
		case j-s.i == indent:
			s.i = j
			s.skipComment()
			if s.i < len(d) {
				s.newline()
			}
		default:
			// Less indented: the scalar ended; this line is scanned as tokens.
			return nil
		}
	}
	return nil
}

package deploy

import (
	"fmt"
	"strings"
)

// PyScanError is the first error PyYAML's scanner (yaml/scanner.py) raises on a
// text, rendered as str() of the exception: the context, its mark, the problem
// and its mark ('  in "FILE", line L, column C'), without a snippet, as for a
// file.
type PyScanError struct {
	File                    string
	Context, Problem        string
	CtxLine, CtxCol         int // 1-based; 0 when there is no context mark
	ProblemLine, ProblemCol int
}

// Error renders the exception as Python prints it.
func (e *PyScanError) Error() string {
	var b strings.Builder
	b.WriteString("yaml.scanner.ScannerError: ")
	mark := func(l, c int) string { return fmt.Sprintf("  in %q, line %d, column %d", e.File, l, c) }
	var lines []string
	if e.Context != "" {
		lines = append(lines, e.Context)
	}
	if e.CtxLine > 0 && (e.CtxLine != e.ProblemLine || e.CtxCol != e.ProblemCol) {
		lines = append(lines, mark(e.CtxLine, e.CtxCol))
	}
	lines = append(lines, e.Problem, mark(e.ProblemLine, e.ProblemCol))
	b.WriteString(strings.Join(lines, "\n"))
	return b.String()
}

type simpleKey struct {
	tokenNumber  int
	required     bool
	line, column int
}

// pyScanner follows PyYAML's Scanner far enough to find the errors it raises
// on text that is not YAML (a shell script): simple keys, indentation, plain,
// quoted and block scalars, flow collections, anchors, aliases and tags. It
// produces no tokens, only counts them, as simple keys are numbered by token.
type pyScanner struct {
	file           string
	s              []rune
	i, line, col   int
	done           bool
	flowLevel      int
	tokens         int
	indent         int
	indents        []int
	allowSimpleKey bool
	keys           map[int]simpleKey
}

// PyYAMLScan runs PyYAML's scanner over text and returns its first error, nil
// when the scanner reads it all. PyYAML's parser may still refuse a text the
// scanner accepts; that is not modelled.
func PyYAMLScan(file string, text string) *PyScanError {
	text = strings.TrimPrefix(text, "\ufeff")
	sc := &pyScanner{file: file, s: []rune(text), indent: -1, allowSimpleKey: true, keys: map[int]simpleKey{}}
	sc.s = append(sc.s, 0)
	for !sc.done {
		if err := sc.fetchNext(); err != nil {
			return err
		}
	}
	return nil
}

func (sc *pyScanner) peek(k int) rune {
	if sc.i+k < len(sc.s) {
		return sc.s[sc.i+k]
	}
	return 0
}

func pyIsBreak(r rune) bool { return r == '\r' || r == '\n' || r == 0x85 || r == 0x2028 || r == 0x2029 }
func isBlankZ(r rune) bool  { return r == 0 || r == ' ' || r == '\t' || pyIsBreak(r) }

func (sc *pyScanner) forward(n int) {
	for ; n > 0 && sc.i < len(sc.s)-1; n-- {
		ch := sc.s[sc.i]
		sc.i++
		if pyIsBreak(ch) && !(ch == '\r' && sc.s[sc.i] == '\n') {
			sc.line++
			sc.col = 0
		} else if ch != 0xfeff {
			sc.col++
		}
	}
}

func (sc *pyScanner) errAt(context string, k *simpleKey, problem string) *PyScanError {
	e := &PyScanError{File: sc.file, Context: context, Problem: problem, ProblemLine: sc.line + 1, ProblemCol: sc.col + 1}
	if k != nil {
		e.CtxLine, e.CtxCol = k.line+1, k.column+1
	}
	return e
}

func (sc *pyScanner) ctxErr(context string, line, col int, problem string) *PyScanError {
	return &PyScanError{File: sc.file, Context: context, CtxLine: line + 1, CtxCol: col + 1, Problem: problem, ProblemLine: sc.line + 1, ProblemCol: sc.col + 1}
}

func (sc *pyScanner) fetchNext() *PyScanError {
	sc.scanToNextToken()
	if err := sc.staleKeys(); err != nil {
		return err
	}
	sc.unwindIndent(sc.col)
	ch := sc.peek(0)
	switch {
	case ch == 0:
		sc.unwindIndent(-1)
		if err := sc.removeKey(); err != nil {
			return err
		}
		sc.allowSimpleKey = false
		sc.tokens++
		sc.done = true
		return nil
	case ch == '%' && sc.col == 0:
		// A directive: its name and rest of line (not modelled further).
		sc.unwindIndent(-1)
		if err := sc.removeKey(); err != nil {
			return err
		}
		sc.allowSimpleKey = false
		for !pyIsBreak(sc.peek(0)) && sc.peek(0) != 0 {
			sc.forward(1)
		}
		sc.tokens++
		return nil
	case (ch == '-' || ch == '.') && sc.col == 0 && sc.peek(1) == ch && sc.peek(2) == ch && isBlankZ(sc.peek(3)):
		sc.unwindIndent(-1)
		if err := sc.removeKey(); err != nil {
			return err
		}
		sc.allowSimpleKey = false
		sc.forward(3)
		sc.tokens++
		return nil
	case ch == '[' || ch == '{':
		if err := sc.saveKey(); err != nil {
			return err
		}
		sc.flowLevel++
		sc.allowSimpleKey = true
		sc.forward(1)
		sc.tokens++
		return nil
	case ch == ']' || ch == '}':
		if err := sc.removeKey(); err != nil {
			return err
		}
		sc.flowLevel--
		sc.allowSimpleKey = false
		sc.forward(1)
		sc.tokens++
		return nil
	case ch == ',':
		sc.allowSimpleKey = true
		if err := sc.removeKey(); err != nil {
			return err
		}
		sc.forward(1)
		sc.tokens++
		return nil
	case ch == '-' && isBlankZ(sc.peek(1)):
		if sc.flowLevel == 0 {
			if !sc.allowSimpleKey {
				return sc.errAt("", nil, "sequence entries are not allowed here")
			}
			if sc.addIndent(sc.col) {
				sc.tokens++ // BLOCK-SEQUENCE-START
			}
		}
		sc.allowSimpleKey = true
		if err := sc.removeKey(); err != nil {
			return err
		}
		sc.forward(1)
		sc.tokens++
		return nil
	case ch == '?' && (sc.flowLevel > 0 || isBlankZ(sc.peek(1))):
		if sc.flowLevel == 0 {
			if !sc.allowSimpleKey {
				return sc.errAt("", nil, "mapping keys are not allowed here")
			}
			if sc.addIndent(sc.col) {
				sc.tokens++
			}
		}
		sc.allowSimpleKey = sc.flowLevel == 0
		if err := sc.removeKey(); err != nil {
			return err
		}
		sc.forward(1)
		sc.tokens++
		return nil
	case ch == ':' && (sc.flowLevel > 0 || isBlankZ(sc.peek(1))):
		return sc.fetchValue()
	case ch == '*' || ch == '&':
		if err := sc.saveKey(); err != nil {
			return err
		}
		sc.allowSimpleKey = false
		return sc.scanAnchor(ch)
	case ch == '!':
		if err := sc.saveKey(); err != nil {
			return err
		}
		sc.allowSimpleKey = false
		return sc.scanTag()
	case (ch == '|' || ch == '>') && sc.flowLevel == 0:
		sc.allowSimpleKey = true
		if err := sc.removeKey(); err != nil {
			return err
		}
		return sc.scanBlockScalar()
	case ch == '\'' || ch == '"':
		if err := sc.saveKey(); err != nil {
			return err
		}
		sc.allowSimpleKey = false
		return sc.scanFlowScalar(ch == '"')
	case sc.checkPlain():
		if err := sc.saveKey(); err != nil {
			return err
		}
		sc.allowSimpleKey = false
		sc.scanPlain()
		sc.tokens++
		return nil
	}
	return sc.errAt("while scanning for the next token", nil, fmt.Sprintf("found character %s that cannot start any token", pyCharRepr(ch)))
}

func pyCharRepr(r rune) string {
	if r == '\t' {
		return `'\t'`
	}
	return PyRepr(string(r))
}

func (sc *pyScanner) checkPlain() bool {
	ch := sc.peek(0)
	if !strings.ContainsRune("\x00 \t\r\n\u0085\u2028\u2029-?:,[]{}#&*!|>'\"%@`", ch) {
		return true
	}
	nx := sc.peek(1)
	return !isBlankZ(nx) && (ch == '-' || (sc.flowLevel == 0 && (ch == '?' || ch == ':')))
}

func (sc *pyScanner) scanToNextToken() {
	if sc.i == 0 && sc.peek(0) == 0xfeff {
		sc.forward(1)
	}
	for {
		for sc.peek(0) == ' ' {
			sc.forward(1)
		}
		if sc.peek(0) == '#' {
			for !pyIsBreak(sc.peek(0)) && sc.peek(0) != 0 {
				sc.forward(1)
			}
		}
		if pyIsBreak(sc.peek(0)) {
			sc.lineBreak()
			if sc.flowLevel == 0 {
				sc.allowSimpleKey = true
			}
			continue
		}
		return
	}
}

func (sc *pyScanner) lineBreak() {
	ch := sc.peek(0)
	if ch == '\r' && sc.peek(1) == '\n' {
		sc.forward(2)
	} else if pyIsBreak(ch) {
		sc.forward(1)
	}
}

func (sc *pyScanner) staleKeys() *PyScanError {
	for level, k := range sc.keys {
		if k.line != sc.line || sc.i-sc.keyIndex(k) > 1024 {
			if k.required {
				return sc.errAt("while scanning a simple key", &k, "could not find expected ':'")
			}
			delete(sc.keys, level)
		}
	}
	return nil
}

// keyIndex approximates the key's buffer index from its column on its line
// (only the 1024-character limit uses it).
func (sc *pyScanner) keyIndex(k simpleKey) int { return sc.i - (sc.col - k.column) }

func (sc *pyScanner) saveKey() *PyScanError {
	required := sc.flowLevel == 0 && sc.indent == sc.col
	if sc.allowSimpleKey {
		if err := sc.removeKey(); err != nil {
			return err
		}
		sc.keys[sc.flowLevel] = simpleKey{tokenNumber: sc.tokens, required: required, line: sc.line, column: sc.col}
	}
	return nil
}

func (sc *pyScanner) removeKey() *PyScanError {
	if k, ok := sc.keys[sc.flowLevel]; ok {
		if k.required {
			return sc.errAt("while scanning a simple key", &k, "could not find expected ':'")
		}
		delete(sc.keys, sc.flowLevel)
	}
	return nil
}

func (sc *pyScanner) unwindIndent(col int) {
	if sc.flowLevel > 0 {
		return
	}
	for sc.indent > col {
		sc.indent = sc.indents[len(sc.indents)-1]
		sc.indents = sc.indents[:len(sc.indents)-1]
		sc.tokens++
	}
}

func (sc *pyScanner) addIndent(col int) bool {
	if sc.indent < col {
		sc.indents = append(sc.indents, sc.indent)
		sc.indent = col
		return true
	}
	return false
}

func (sc *pyScanner) fetchValue() *PyScanError {
	if k, ok := sc.keys[sc.flowLevel]; ok {
		delete(sc.keys, sc.flowLevel)
		sc.tokens++ // KEY inserted before the key's token
		if sc.flowLevel == 0 && sc.addIndent(k.column) {
			sc.tokens++ // BLOCK-MAPPING-START
		}
		sc.allowSimpleKey = false
	} else {
		if sc.flowLevel == 0 {
			if !sc.allowSimpleKey {
				return sc.errAt("", nil, "mapping values are not allowed here")
			}
			if sc.addIndent(sc.col) {
				sc.tokens++
			}
		}
		sc.allowSimpleKey = sc.flowLevel == 0
		if err := sc.removeKey(); err != nil {
			return err
		}
	}
	sc.forward(1)
	sc.tokens++
	return nil
}

func isAlnum(r rune) bool {
	return r >= '0' && r <= '9' || r >= 'A' && r <= 'Z' || r >= 'a' && r <= 'z' || r == '-' || r == '_'
}

func (sc *pyScanner) scanAnchor(ind rune) *PyScanError {
	line, col := sc.line, sc.col
	name := "anchor"
	if ind == '*' {
		name = "alias"
	}
	sc.forward(1)
	n := 0
	for isAlnum(sc.peek(n)) {
		n++
	}
	if n == 0 {
		return sc.ctxErr("while scanning an "+name, line, col, fmt.Sprintf("expected alphabetic or numeric character, but found %s", pyCharRepr(sc.peek(0))))
	}
	ch := sc.peek(n)
	if !strings.ContainsRune("\x00 \t\r\n\u0085\u2028\u2029?:,]}%@`", ch) {
		sc.forward(n)
		return sc.ctxErr("while scanning an "+name, line, col, fmt.Sprintf("expected alphabetic or numeric character, but found %s", pyCharRepr(ch)))
	}
	sc.forward(n)
	sc.tokens++
	return nil
}

func (sc *pyScanner) scanTag() *PyScanError {
	line, col := sc.line, sc.col
	ch := sc.peek(1)
	switch {
	case ch == '<':
		sc.forward(2)
		n := 0
		for !isBlankZ(sc.peek(n)) && sc.peek(n) != '>' {
			n++
		}
		sc.forward(n)
		if sc.peek(0) != '>' {
			return sc.ctxErr("while parsing a tag", line, col, fmt.Sprintf("expected '>', but found %s", pyCharRepr(sc.peek(0))))
		}
		sc.forward(1)
	case isBlankZ(ch):
		sc.forward(1)
	default:
		sc.forward(1)
		for !isBlankZ(sc.peek(0)) {
			sc.forward(1)
		}
	}
	if !isBlankZ(sc.peek(0)) {
		return sc.ctxErr("while scanning a tag", line, col, fmt.Sprintf("expected ' ', but found %s", pyCharRepr(sc.peek(0))))
	}
	sc.tokens++
	return nil
}

func (sc *pyScanner) scanBlockScalar() *PyScanError {
	line, col := sc.line, sc.col
	sc.forward(1)
	increment := 0
	digit := func() *PyScanError {
		if ch := sc.peek(0); ch >= '0' && ch <= '9' {
			if ch == '0' {
				return sc.ctxErr("while scanning a block scalar", line, col, "expected indentation indicator in the range 1-9, but found 0")
			}
			increment = int(ch - '0')
			sc.forward(1)
		}
		return nil
	}
	switch ch := sc.peek(0); {
	case ch == '+' || ch == '-':
		sc.forward(1)
		if err := digit(); err != nil {
			return err
		}
	case ch >= '0' && ch <= '9':
		if err := digit(); err != nil {
			return err
		}
		if c := sc.peek(0); c == '+' || c == '-' {
			sc.forward(1)
		}
	}
	if ch := sc.peek(0); ch != 0 && ch != ' ' && !pyIsBreak(ch) {
		return sc.ctxErr("while scanning a block scalar", line, col, fmt.Sprintf("expected chomping or indentation indicators, but found %s", pyCharRepr(ch)))
	}
	for sc.peek(0) == ' ' {
		sc.forward(1)
	}
	if sc.peek(0) == '#' {
		for !pyIsBreak(sc.peek(0)) && sc.peek(0) != 0 {
			sc.forward(1)
		}
	}
	if !pyIsBreak(sc.peek(0)) && sc.peek(0) != 0 {
		return sc.ctxErr("while scanning a block scalar", line, col, fmt.Sprintf("expected a comment or a line break, but found %s", pyCharRepr(sc.peek(0))))
	}
	sc.lineBreak()
	minIndent := sc.indent + 1
	if minIndent < 1 {
		minIndent = 1
	}
	indent := 0
	if increment == 0 {
		maxIndent := 0
		for sc.peek(0) == ' ' || pyIsBreak(sc.peek(0)) {
			if sc.peek(0) != ' ' {
				sc.lineBreak()
			} else {
				sc.forward(1)
				maxIndent = max(maxIndent, sc.col)
			}
		}
		indent = max(minIndent, maxIndent)
	} else {
		indent = minIndent + increment - 1
		sc.blockBreaks(indent)
	}
	for sc.col == indent && sc.peek(0) != 0 {
		for !pyIsBreak(sc.peek(0)) && sc.peek(0) != 0 {
			sc.forward(1)
		}
		sc.lineBreak()
		sc.blockBreaks(indent)
	}
	sc.tokens++
	return nil
}

func (sc *pyScanner) blockBreaks(indent int) {
	for sc.col < indent && sc.peek(0) == ' ' {
		sc.forward(1)
	}
	for pyIsBreak(sc.peek(0)) {
		sc.lineBreak()
		for sc.col < indent && sc.peek(0) == ' ' {
			sc.forward(1)
		}
	}
}

func (sc *pyScanner) docMarkerHere() bool {
	return sc.col == 0 && (sc.peek(0) == '-' && sc.peek(1) == '-' && sc.peek(2) == '-' || sc.peek(0) == '.' && sc.peek(1) == '.' && sc.peek(2) == '.') && isBlankZ(sc.peek(3))
}

func (sc *pyScanner) scanFlowScalar(double bool) *PyScanError {
	line, col := sc.line, sc.col
	quote := '\''
	if double {
		quote = '"'
	}
	sc.forward(1)
	for {
		// Non-spaces.
		for {
			ch := sc.peek(0)
			switch {
			case !double && ch == '\'' && sc.peek(1) == '\'':
				sc.forward(2)
				continue
			case ch == quote:
			case double && ch == '\\':
				nx := sc.peek(1)
				switch {
				case strings.ContainsRune("0abt\tnvfre \"/\\N_LP", nx):
					sc.forward(2)
				case nx == 'x' || nx == 'u' || nx == 'U':
					n := map[rune]int{'x': 2, 'u': 4, 'U': 8}[nx]
					sc.forward(2)
					for k := 0; k < n; k++ {
						if !strings.ContainsRune("0123456789ABCDEFabcdef", sc.peek(k)) {
							return sc.ctxErr("while scanning a double-quoted scalar", line, col,
								fmt.Sprintf("expected escape sequence of %d hexadecimal numbers, but found %s", n, pyCharRepr(sc.peek(k))))
						}
					}
					sc.forward(n)
				case pyIsBreak(nx):
					sc.forward(1)
					sc.lineBreak()
					if err := sc.flowBreaks(line, col, double); err != nil {
						return err
					}
				default:
					return sc.ctxErr("while scanning a double-quoted scalar", line, col, fmt.Sprintf("found unknown escape character %s", pyCharRepr(nx)))
				}
				continue
			case isBlankZ(ch):
			default:
				sc.forward(1)
				continue
			}
			break
		}
		if sc.peek(0) == quote {
			sc.forward(1)
			sc.tokens++
			return nil
		}
		// Spaces.
		for sc.peek(0) == ' ' || sc.peek(0) == '\t' {
			sc.forward(1)
		}
		switch ch := sc.peek(0); {
		case ch == 0:
			return sc.ctxErr("while scanning a quoted scalar", line, col, "found unexpected end of stream")
		case pyIsBreak(ch):
			sc.lineBreak()
			if err := sc.flowBreaks(line, col, double); err != nil {
				return err
			}
		}
	}
}

func (sc *pyScanner) flowBreaks(line, col int, double bool) *PyScanError {
	for {
		if sc.docMarkerHere() {
			return sc.ctxErr("while scanning a quoted scalar", line, col, "found unexpected document separator")
		}
		for sc.peek(0) == ' ' || sc.peek(0) == '\t' {
			sc.forward(1)
		}
		if pyIsBreak(sc.peek(0)) {
			sc.lineBreak()
			continue
		}
		return nil
	}
}

func (sc *pyScanner) scanPlain() {
	indent := sc.indent + 1
	for {
		n := 0
		if sc.peek(0) == '#' {
			return
		}
		for {
			ch := sc.peek(n)
			if isBlankZ(ch) || (ch == ':' && (isBlankZ(sc.peek(n+1)) || sc.flowLevel > 0 && strings.ContainsRune(",[]{}", sc.peek(n+1)))) ||
				(sc.flowLevel > 0 && strings.ContainsRune(",?[]{}", ch)) {
				break
			}
			n++
		}
		if n == 0 {
			return
		}
		sc.allowSimpleKey = false
		sc.forward(n)
		if !sc.plainSpaces() || sc.peek(0) == '#' || (sc.flowLevel == 0 && sc.col < indent) {
			return
		}
	}
}

// plainSpaces is scan_plain_spaces; it reports whether any space or break was
// consumed (its chunks were not empty).
func (sc *pyScanner) plainSpaces() bool {
	n := 0
	for sc.peek(n) == ' ' {
		n++
	}
	sc.forward(n)
	if pyIsBreak(sc.peek(0)) {
		sc.lineBreak()
		sc.allowSimpleKey = true
		if sc.docMarkerHere() {
			return false
		}
		for sc.peek(0) == ' ' || pyIsBreak(sc.peek(0)) {
			if sc.peek(0) == ' ' {
				sc.forward(1)
			} else {
				sc.lineBreak()
				if sc.docMarkerHere() {
					return false
				}
			}
		}
		return true
	}
	return n > 0
}

package deploy

import (
	"fmt"
	"strings"
	"unicode/utf8"

	"xcvr/internal/termsafe"
)

// PyYAMLError is the first error yaml.safe_load raises on a text before it
// constructs any value: a ScannerError (yaml/scanner.py), a ParserError
// (yaml/parser.py) or a ComposerError (yaml/composer.py), rendered as Python's
// traceback ends it — the class, then str() of the exception: the context, its
// mark, the problem and its mark ('  in "FILE", line L, column C'), without a
// snippet, as for a file TensorRT-LLM opens.
type PyYAMLError struct {
	// Class is the exception's qualified name, e.g. "yaml.parser.ParserError".
	Class                   string
	File                    string
	Context, Problem        string
	CtxLine, CtxCol         int // 1-based; 0 when there is no context mark
	ProblemLine, ProblemCol int
}

// The classes PyYAMLLoad raises.
const (
	PyScannerError  = "yaml.scanner.ScannerError"
	PyParserError   = "yaml.parser.ParserError"
	PyComposerError = "yaml.composer.ComposerError"
)

// Error renders the exception as Python prints it (MarkedYAMLError.__str__).
func (e *PyYAMLError) Error() string { return e.Class + ": " + e.Text() }

// Text is str() of the exception, without its class.
func (e *PyYAMLError) Text() string {
	if e.Class == "ValueError" || e.Class == "OverflowError" {
		return e.Problem // not a MarkedYAMLError: no marks
	}
	mark := func(l, c int) string {
		return fmt.Sprintf("  in \"%s\", line %d, column %d", termsafe.Line(e.File), l, c)
	}
	var lines []string
	if e.Context != "" {
		lines = append(lines, e.Context)
	}
	if e.CtxLine > 0 && (e.CtxLine != e.ProblemLine || e.CtxCol != e.ProblemCol) {
		lines = append(lines, mark(e.CtxLine, e.CtxCol))
	}
	lines = append(lines, e.Problem, mark(e.ProblemLine, e.ProblemCol))
	return strings.Join(lines, "\n")
}

// pyMark is a position as PyYAML's Reader counts it: characters, 0-based.
type pyMark struct{ index, line, col int }

// pyRaise carries a PyYAMLError up the scanner's and parser's calls, as
// Python's raise does; PyYAMLLoad recovers it (and nothing else).
type pyRaise struct{ err *PyYAMLError }

type tokKind uint8

const (
	tStreamStart tokKind = iota
	tStreamEnd
	tDirective
	tDocStart
	tDocEnd
	tBlockSeqStart
	tBlockMapStart
	tBlockEnd
	tFlowSeqStart
	tFlowMapStart
	tFlowSeqEnd
	tFlowMapEnd
	tKey
	tValue
	tBlockEntry
	tFlowEntry
	tAlias
	tAnchor
	tTag
	tScalar
)

// tokID is each token class's id (yaml/tokens.py), which errors print.
var tokID = [...]string{"<stream start>", "<stream end>", "<directive>", "<document start>", "<document end>",
	"<block sequence start>", "<block mapping start>", "<block end>", "[", "{", "]", "}", "?", ":", "-", ",",
	"<alias>", "<anchor>", "<tag>", "<scalar>"}

type pyToken struct {
	kind       tokKind
	start, end pyMark
	// value is an anchor's or alias's name, a directive's name or a tag's handle.
	value string
	// hasHandle: a tag with a handle (not verbatim, not the lone '!').
	hasHandle bool
	// versionOne: a YAML directive whose major version is 1.
	versionOne bool
	// tagHandle is a TAG directive's handle, tagPrefix its prefix.
	tagHandle, tagPrefix string
	plain                bool
	// sval is a scalar's value (ScalarToken.value) or a tag's suffix; style
	// is a scalar's style: 0 plain, '\'', '"', '|' or '>'.
	sval  string
	style byte
}

type pySimpleKey struct {
	level       int
	tokenNumber int
	required    bool
	mark        pyMark
}

// pyScanner is PyYAML's Scanner (yaml/scanner.py, 6.0), token for token, mark
// for mark, value for value: the parser pulls tokens lazily as PyYAML's does,
// so the first error is the one PyYAML raises.
type pyScanner struct {
	file    string
	lineOff int
	// The text with a trailing NUL, as PyYAML's Reader buffers it: b, or r
	// when it is not all ASCII; n characters.
	b              string
	r              []rune
	n              int
	ptr            int
	line, col      int
	done           bool
	flowLevel      int
	q              []pyToken
	head           int
	taken          int
	indent         int
	indents        []int
	allowSimpleKey bool
	keys           []pySimpleKey // possible_simple_keys, one per flow level
}

func newPyScanner(file, text string, lineOff int) *pyScanner {
	sc := &pyScanner{file: file, lineOff: lineOff, indent: -1, allowSimpleKey: true}
	sc.b = text + "\x00"
	sc.n = len(sc.b)
	for i := 0; i < len(text); i++ {
		if text[i] >= utf8.RuneSelf {
			// Not ASCII: columns count characters, so index runes.
			sc.r = []rune(sc.b)
			sc.n = len(sc.r)
			break
		}
	}
	m := sc.mark()
	sc.push(pyToken{kind: tStreamStart, start: m, end: m})
	return sc
}

func (sc *pyScanner) raise(context string, ctx *pyMark, problem string, at pyMark, class string) {
	e := &PyYAMLError{Class: class, File: sc.file, Context: context, Problem: problem,
		ProblemLine: at.line + 1 + sc.lineOff, ProblemCol: at.col + 1}
	if ctx != nil {
		e.CtxLine, e.CtxCol = ctx.line+1+sc.lineOff, ctx.col+1
	}
	panic(pyRaise{e})
}

func (sc *pyScanner) scanErr(context string, ctx *pyMark, problem string) {
	sc.raise(context, ctx, problem, sc.mark(), PyScannerError)
}

func (sc *pyScanner) mark() pyMark { return pyMark{sc.ptr, sc.line, sc.col} }

func (sc *pyScanner) at(i int) rune {
	if sc.r != nil {
		return sc.r[i]
	}
	return rune(sc.b[i])
}

// text is the characters i to j.
func (sc *pyScanner) text(i, j int) string {
	if sc.r != nil {
		return string(sc.r[i:j])
	}
	return sc.b[i:j]
}

func (sc *pyScanner) peek(k int) rune {
	if sc.ptr+k < sc.n {
		return sc.at(sc.ptr + k)
	}
	return 0
}

func (sc *pyScanner) prefixIs(p string) bool {
	i := 0
	for _, r := range p {
		if sc.peek(i) != r {
			return false
		}
		i++
	}
	return true
}

func (sc *pyScanner) forward(n int) {
	for ; n > 0 && sc.ptr < sc.n-1; n-- {
		ch := sc.at(sc.ptr)
		sc.ptr++
		if ch == '\n' || ch == 0x85 || ch == 0x2028 || ch == 0x2029 || (ch == '\r' && sc.at(sc.ptr) != '\n') {
			sc.line++
			sc.col = 0
		} else if ch != 0xfeff {
			sc.col++
		}
	}
}

func pyIsBreak(r rune) bool { return r == '\r' || r == '\n' || r == 0x85 || r == 0x2028 || r == 0x2029 }

// isBlankZ is "in '\0 \t\r\n\x85\u2028\u2029'".
func isBlankZ(r rune) bool { return r == 0 || r == ' ' || r == '\t' || pyIsBreak(r) }

// isSpaceZ is "in '\0 \r\n\x85\u2028\u2029'" (no tab).
func isSpaceZ(r rune) bool { return r == 0 || r == ' ' || pyIsBreak(r) }

func isBreakZ(r rune) bool { return r == 0 || pyIsBreak(r) }

func isAlnum(r rune) bool {
	return r >= '0' && r <= '9' || r >= 'A' && r <= 'Z' || r >= 'a' && r <= 'z' || r == '-' || r == '_'
}

func isHexRune(r rune) bool {
	return r >= '0' && r <= '9' || r >= 'A' && r <= 'F' || r >= 'a' && r <= 'f'
}

// pyCharRepr is Python's repr of one character. U+FFFD is printable for
// Python (its repr is the character); PyRepr escapes it, as xcvr shows a
// byte that is not UTF-8 as that character.
func pyCharRepr(r rune) string {
	if r == utf8.RuneError {
		return "'" + string(r) + "'"
	}
	return PyRepr(string(r))
}

// The token queue: tokens[head:] are waiting for the parser.

func (sc *pyScanner) push(t pyToken) { sc.q = append(sc.q, t) }

func (sc *pyScanner) queued() int { return len(sc.q) - sc.head }

func (sc *pyScanner) insert(at int, t pyToken) {
	i := sc.head + at
	sc.q = append(sc.q, pyToken{})
	copy(sc.q[i+1:], sc.q[i:])
	sc.q[i] = t
}

func (sc *pyScanner) fill() {
	for sc.needMoreTokens() {
		sc.fetchMoreTokens()
	}
}

func (sc *pyScanner) checkToken(kinds ...tokKind) bool {
	sc.fill()
	if sc.queued() == 0 {
		return false
	}
	k := sc.q[sc.head].kind
	for _, want := range kinds {
		if k == want {
			return true
		}
	}
	return false
}

func (sc *pyScanner) peekToken() pyToken {
	sc.fill()
	return sc.q[sc.head]
}

func (sc *pyScanner) getToken() pyToken {
	sc.fill()
	t := sc.q[sc.head]
	sc.head++
	sc.taken++
	if sc.head == len(sc.q) {
		sc.q, sc.head = sc.q[:0], 0
	}
	return t
}

func (sc *pyScanner) needMoreTokens() bool {
	if sc.done {
		return false
	}
	if sc.queued() == 0 {
		return true
	}
	sc.staleKeys()
	n, ok := sc.nextPossibleSimpleKey()
	return ok && n == sc.taken
}

func (sc *pyScanner) nextPossibleSimpleKey() (int, bool) {
	min, ok := 0, false
	for _, k := range sc.keys {
		if !ok || k.tokenNumber < min {
			min, ok = k.tokenNumber, true
		}
	}
	return min, ok
}

func (sc *pyScanner) staleKeys() {
	kept := sc.keys[:0]
	for _, k := range sc.keys {
		if k.mark.line != sc.line || sc.ptr-k.mark.index > 1024 {
			if k.required {
				sc.scanErr("while scanning a simple key", &k.mark, "could not find expected ':'")
			}
			continue
		}
		kept = append(kept, k)
	}
	sc.keys = kept
}

func (sc *pyScanner) saveKey() {
	required := sc.flowLevel == 0 && sc.indent == sc.col
	if sc.allowSimpleKey {
		sc.removeKey()
		sc.keys = append(sc.keys, pySimpleKey{level: sc.flowLevel, tokenNumber: sc.taken + sc.queued(), required: required, mark: sc.mark()})
	}
}

// takeKey removes and returns the possible simple key of the current flow
// level.
func (sc *pyScanner) takeKey() (pySimpleKey, bool) {
	for i, k := range sc.keys {
		if k.level == sc.flowLevel {
			sc.keys = append(sc.keys[:i], sc.keys[i+1:]...)
			return k, true
		}
	}
	return pySimpleKey{}, false
}

func (sc *pyScanner) removeKey() {
	if k, ok := sc.takeKey(); ok && k.required {
		sc.scanErr("while scanning a simple key", &k.mark, "could not find expected ':'")
	}
}

func (sc *pyScanner) unwindIndent(col int) {
	if sc.flowLevel != 0 {
		return
	}
	for sc.indent > col {
		m := sc.mark()
		sc.indent = sc.indents[len(sc.indents)-1]
		sc.indents = sc.indents[:len(sc.indents)-1]
		sc.push(pyToken{kind: tBlockEnd, start: m, end: m})
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

// simple pushes a one-character (or n-character) token at the current mark.
func (sc *pyScanner) simple(kind tokKind, n int) {
	start := sc.mark()
	sc.forward(n)
	sc.push(pyToken{kind: kind, start: start, end: sc.mark()})
}

func (sc *pyScanner) fetchMoreTokens() {
	sc.scanToNextToken()
	sc.staleKeys()
	sc.unwindIndent(sc.col)
	ch := sc.peek(0)
	switch {
	case ch == 0:
		sc.unwindIndent(-1)
		sc.removeKey()
		sc.allowSimpleKey = false
		sc.keys = sc.keys[:0]
		m := sc.mark()
		sc.push(pyToken{kind: tStreamEnd, start: m, end: m})
		sc.done = true
	case ch == '%' && sc.col == 0:
		sc.unwindIndent(-1)
		sc.removeKey()
		sc.allowSimpleKey = false
		sc.push(sc.scanDirective())
	case ch == '-' && sc.col == 0 && sc.prefixIs("---") && isBlankZ(sc.peek(3)),
		ch == '.' && sc.col == 0 && sc.prefixIs("...") && isBlankZ(sc.peek(3)):
		sc.unwindIndent(-1)
		sc.removeKey()
		sc.allowSimpleKey = false
		kind := tDocStart
		if ch == '.' {
			kind = tDocEnd
		}
		sc.simple(kind, 3)
	case ch == '[' || ch == '{':
		sc.saveKey()
		sc.flowLevel++
		sc.allowSimpleKey = true
		kind := tFlowSeqStart
		if ch == '{' {
			kind = tFlowMapStart
		}
		sc.simple(kind, 1)
	case ch == ']' || ch == '}':
		sc.removeKey()
		sc.flowLevel--
		sc.allowSimpleKey = false
		kind := tFlowSeqEnd
		if ch == '}' {
			kind = tFlowMapEnd
		}
		sc.simple(kind, 1)
	case ch == ',':
		sc.allowSimpleKey = true
		sc.removeKey()
		sc.simple(tFlowEntry, 1)
	case ch == '-' && isBlankZ(sc.peek(1)):
		if sc.flowLevel == 0 {
			if !sc.allowSimpleKey {
				sc.scanErr("", nil, "sequence entries are not allowed here")
			}
			if sc.addIndent(sc.col) {
				m := sc.mark()
				sc.push(pyToken{kind: tBlockSeqStart, start: m, end: m})
			}
		}
		sc.allowSimpleKey = true
		sc.removeKey()
		sc.simple(tBlockEntry, 1)
	case ch == '?' && (sc.flowLevel != 0 || isBlankZ(sc.peek(1))):
		if sc.flowLevel == 0 {
			if !sc.allowSimpleKey {
				sc.scanErr("", nil, "mapping keys are not allowed here")
			}
			if sc.addIndent(sc.col) {
				m := sc.mark()
				sc.push(pyToken{kind: tBlockMapStart, start: m, end: m})
			}
		}
		sc.allowSimpleKey = sc.flowLevel == 0
		sc.removeKey()
		sc.simple(tKey, 1)
	case ch == ':' && (sc.flowLevel != 0 || isBlankZ(sc.peek(1))):
		sc.fetchValue()
	case ch == '*' || ch == '&':
		sc.saveKey()
		sc.allowSimpleKey = false
		sc.push(sc.scanAnchor(ch))
	case ch == '!':
		sc.saveKey()
		sc.allowSimpleKey = false
		sc.push(sc.scanTag())
	case (ch == '|' || ch == '>') && sc.flowLevel == 0:
		sc.allowSimpleKey = true
		sc.removeKey()
		sc.push(sc.scanBlockScalar())
	case ch == '\'' || ch == '"':
		sc.saveKey()
		sc.allowSimpleKey = false
		sc.push(sc.scanFlowScalar(ch == '"'))
	case sc.checkPlain():
		sc.saveKey()
		sc.allowSimpleKey = false
		sc.push(sc.scanPlain())
	default:
		sc.scanErr("while scanning for the next token", nil, fmt.Sprintf("found character %s that cannot start any token", pyCharRepr(ch)))
	}
}

func (sc *pyScanner) fetchValue() {
	if k, ok := sc.takeKey(); ok {
		sc.insert(k.tokenNumber-sc.taken, pyToken{kind: tKey, start: k.mark, end: k.mark})
		if sc.flowLevel == 0 && sc.addIndent(k.mark.col) {
			sc.insert(k.tokenNumber-sc.taken, pyToken{kind: tBlockMapStart, start: k.mark, end: k.mark})
		}
		sc.allowSimpleKey = false
	} else {
		if sc.flowLevel == 0 {
			if !sc.allowSimpleKey {
				sc.scanErr("", nil, "mapping values are not allowed here")
			}
			if sc.addIndent(sc.col) {
				m := sc.mark()
				sc.push(pyToken{kind: tBlockMapStart, start: m, end: m})
			}
		}
		sc.allowSimpleKey = sc.flowLevel == 0
		sc.removeKey()
	}
	sc.simple(tValue, 1)
}

func (sc *pyScanner) checkPlain() bool {
	ch := sc.peek(0)
	if !strings.ContainsRune("\x00 \t\r\n\u0085\u2028\u2029-?:,[]{}#&*!|>'\"%@`", ch) {
		return true
	}
	return !isBlankZ(sc.peek(1)) && (ch == '-' || (sc.flowLevel == 0 && (ch == '?' || ch == ':')))
}

func (sc *pyScanner) scanToNextToken() {
	if sc.ptr == 0 && sc.peek(0) == 0xfeff {
		sc.forward(1)
	}
	for {
		for sc.peek(0) == ' ' {
			sc.forward(1)
		}
		if sc.peek(0) == '#' {
			for !isBreakZ(sc.peek(0)) {
				sc.forward(1)
			}
		}
		if !sc.lineBreak() {
			return
		}
		if sc.flowLevel == 0 {
			sc.allowSimpleKey = true
		}
	}
}

// lineBreak is scan_line_break; it reports whether a break was consumed.
func (sc *pyScanner) lineBreak() bool { return sc.lineBreakStr() != "" }

// lineBreakStr is scan_line_break: the break it consumed as the value holds it
// ("\n" for CR, LF, CRLF and NEL; LS and PS themselves), "" for none.
func (sc *pyScanner) lineBreakStr() string {
	ch := sc.peek(0)
	switch {
	case ch == '\r' && sc.peek(1) == '\n':
		sc.forward(2)
	case ch == 0x2028 || ch == 0x2029:
		sc.forward(1)
		return string(ch)
	case pyIsBreak(ch):
		sc.forward(1)
	default:
		return ""
	}
	return "\n"
}

func (sc *pyScanner) scanDirective() pyToken {
	start := sc.mark()
	sc.forward(1)
	name := sc.scanDirectiveName(start)
	t := pyToken{kind: tDirective, start: start, value: name}
	switch name {
	case "YAML":
		t.versionOne = sc.scanYAMLDirectiveValue(start)
		t.end = sc.mark()
	case "TAG":
		t.tagHandle, t.tagPrefix = sc.scanTagDirectiveValue(start)
		t.end = sc.mark()
	default:
		t.end = sc.mark()
		for !isBreakZ(sc.peek(0)) {
			sc.forward(1)
		}
	}
	sc.scanDirectiveIgnoredLine(start)
	return t
}

func (sc *pyScanner) scanDirectiveName(start pyMark) string {
	n := 0
	for isAlnum(sc.peek(n)) {
		n++
	}
	if n == 0 {
		sc.scanErr("while scanning a directive", &start, "expected alphabetic or numeric character, but found "+pyCharRepr(sc.peek(0)))
	}
	name := sc.text(sc.ptr, sc.ptr+n)
	sc.forward(n)
	if !isSpaceZ(sc.peek(0)) {
		sc.scanErr("while scanning a directive", &start, "expected alphabetic or numeric character, but found "+pyCharRepr(sc.peek(0)))
	}
	return name
}

func (sc *pyScanner) scanYAMLDirectiveValue(start pyMark) bool {
	for sc.peek(0) == ' ' {
		sc.forward(1)
	}
	major := sc.scanYAMLDirectiveNumber(start)
	if sc.peek(0) != '.' {
		sc.scanErr("while scanning a directive", &start, "expected a digit or '.', but found "+pyCharRepr(sc.peek(0)))
	}
	sc.forward(1)
	sc.scanYAMLDirectiveNumber(start)
	if !isSpaceZ(sc.peek(0)) {
		sc.scanErr("while scanning a directive", &start, "expected a digit or ' ', but found "+pyCharRepr(sc.peek(0)))
	}
	return strings.TrimLeft(major, "0") == "1"
}

func (sc *pyScanner) scanYAMLDirectiveNumber(start pyMark) string {
	if ch := sc.peek(0); ch < '0' || ch > '9' {
		sc.scanErr("while scanning a directive", &start, "expected a digit, but found "+pyCharRepr(ch))
	}
	n := 0
	for ch := sc.peek(n); ch >= '0' && ch <= '9'; ch = sc.peek(n) {
		n++
	}
	v := sc.text(sc.ptr, sc.ptr+n)
	sc.forward(n)
	return v
}

func (sc *pyScanner) scanTagDirectiveValue(start pyMark) (string, string) {
	for sc.peek(0) == ' ' {
		sc.forward(1)
	}
	handle := sc.scanTagHandle("directive", start)
	if sc.peek(0) != ' ' {
		sc.scanErr("while scanning a directive", &start, "expected ' ', but found "+pyCharRepr(sc.peek(0)))
	}
	for sc.peek(0) == ' ' {
		sc.forward(1)
	}
	prefix := sc.scanTagURI("directive", start)
	if !isSpaceZ(sc.peek(0)) {
		sc.scanErr("while scanning a directive", &start, "expected ' ', but found "+pyCharRepr(sc.peek(0)))
	}
	return handle, prefix
}

func (sc *pyScanner) scanDirectiveIgnoredLine(start pyMark) {
	for sc.peek(0) == ' ' {
		sc.forward(1)
	}
	if sc.peek(0) == '#' {
		for !isBreakZ(sc.peek(0)) {
			sc.forward(1)
		}
	}
	if !isBreakZ(sc.peek(0)) {
		sc.scanErr("while scanning a directive", &start, "expected a comment or a line break, but found "+pyCharRepr(sc.peek(0)))
	}
	sc.lineBreak()
}

func (sc *pyScanner) scanAnchor(ind rune) pyToken {
	start := sc.mark()
	name, kind := "anchor", tAnchor
	if ind == '*' {
		name, kind = "alias", tAlias
	}
	sc.forward(1)
	n := 0
	for isAlnum(sc.peek(n)) {
		n++
	}
	if n == 0 {
		sc.scanErr("while scanning an "+name, &start, "expected alphabetic or numeric character, but found "+pyCharRepr(sc.peek(0)))
	}
	value := sc.text(sc.ptr, sc.ptr+n)
	sc.forward(n)
	if ch := sc.peek(0); !strings.ContainsRune("\x00 \t\r\n\u0085\u2028\u2029?:,]}%@`", ch) {
		sc.scanErr("while scanning an "+name, &start, "expected alphabetic or numeric character, but found "+pyCharRepr(ch))
	}
	return pyToken{kind: kind, start: start, end: sc.mark(), value: value}
}

func (sc *pyScanner) scanTag() pyToken {
	start := sc.mark()
	t := pyToken{kind: tTag, start: start}
	switch ch := sc.peek(1); {
	case ch == '<':
		sc.forward(2)
		t.sval = sc.scanTagURI("tag", start)
		if sc.peek(0) != '>' {
			sc.scanErr("while parsing a tag", &start, "expected '>', but found "+pyCharRepr(sc.peek(0)))
		}
		sc.forward(1)
	case isBlankZ(ch):
		t.sval = "!"
		sc.forward(1)
	default:
		n, useHandle := 1, false
		for !isSpaceZ(ch) {
			if ch == '!' {
				useHandle = true
				break
			}
			n++
			ch = sc.peek(n)
		}
		t.hasHandle = true
		t.value = "!"
		if useHandle {
			t.value = sc.scanTagHandle("tag", start)
		} else {
			sc.forward(1)
		}
		t.sval = sc.scanTagURI("tag", start)
	}
	if !isSpaceZ(sc.peek(0)) {
		sc.scanErr("while scanning a tag", &start, "expected ' ', but found "+pyCharRepr(sc.peek(0)))
	}
	t.end = sc.mark()
	return t
}

func (sc *pyScanner) scanTagHandle(name string, start pyMark) string {
	if ch := sc.peek(0); ch != '!' {
		sc.scanErr("while scanning a "+name, &start, "expected '!', but found "+pyCharRepr(ch))
	}
	n := 1
	if ch := sc.peek(n); ch != ' ' {
		for isAlnum(ch) {
			n++
			ch = sc.peek(n)
		}
		if ch != '!' {
			sc.forward(n)
			sc.scanErr("while scanning a "+name, &start, "expected '!', but found "+pyCharRepr(ch))
		}
		n++
	}
	v := sc.text(sc.ptr, sc.ptr+n)
	sc.forward(n)
	return v
}

func isURIChar(r rune) bool {
	return r >= '0' && r <= '9' || r >= 'A' && r <= 'Z' || r >= 'a' && r <= 'z' || strings.ContainsRune("-;/?:@&=+$,_.!~*'()[]%", r)
}

// scanTagURI is scan_tag_uri: the URI with its %-escapes decoded.
func (sc *pyScanner) scanTagURI(name string, start pyMark) string {
	var b strings.Builder
	chunks, n := false, 0
	for ch := sc.peek(n); ch != 0 && isURIChar(ch); ch = sc.peek(n) {
		if ch == '%' {
			b.WriteString(sc.text(sc.ptr, sc.ptr+n))
			sc.forward(n)
			n = 0
			chunks = true // prefix(0) is an empty chunk, but a chunk
			b.WriteString(sc.scanURIEscapes(name, start))
		} else {
			n++
		}
	}
	if n > 0 {
		b.WriteString(sc.text(sc.ptr, sc.ptr+n))
		sc.forward(n)
		chunks = true
	}
	if !chunks {
		sc.scanErr("while parsing a "+name, &start, "expected URI, but found "+pyCharRepr(sc.peek(0)))
	}
	return b.String()
}

func (sc *pyScanner) scanURIEscapes(name string, start pyMark) string {
	var codes []byte
	m := sc.mark()
	for sc.peek(0) == '%' {
		sc.forward(1)
		for k := 0; k < 2; k++ {
			if !isHexRune(sc.peek(k)) {
				sc.scanErr("while scanning a "+name, &start,
					"expected URI escape sequence of 2 hexadecimal numbers, but found "+pyCharRepr(sc.peek(k)))
			}
		}
		var b byte
		fmt.Sscanf(sc.text(sc.ptr, sc.ptr+2), "%02x", &b)
		codes = append(codes, b)
		sc.forward(2)
	}
	if msg := pyUTF8DecodeError(codes); msg != "" {
		sc.raise("while scanning a "+name, &start, msg, m, PyScannerError)
	}
	return string(codes)
}

// pyUTF8DecodeError is str() of the UnicodeDecodeError bytes.decode('utf-8')
// raises on b, or "" when b is UTF-8.
func pyUTF8DecodeError(b []byte) string {
	for i := 0; i < len(b); {
		r, size := utf8.DecodeRune(b[i:])
		if r != utf8.RuneError || size > 1 {
			i += size
			continue
		}
		// How many bytes the lead byte announces, and how many of them follow.
		c := b[i]
		need := 0
		switch {
		case c >= 0xc2 && c <= 0xdf:
			need = 2
		case c >= 0xe0 && c <= 0xef:
			need = 3
		case c >= 0xf0 && c <= 0xf4:
			need = 4
		}
		if need == 0 {
			return fmt.Sprintf("'utf-8' codec can't decode byte 0x%02x in position %d: invalid start byte", c, i)
		}
		j := i + 1
		for j < len(b) && j < i+need && validCont(b[i], b[j], j-i) {
			j++
		}
		if j == len(b) && j < i+need {
			if j-i == 1 {
				return fmt.Sprintf("'utf-8' codec can't decode byte 0x%02x in position %d: unexpected end of data", c, i)
			}
			return fmt.Sprintf("'utf-8' codec can't decode bytes in position %d-%d: unexpected end of data", i, j-1)
		}
		if j-i == 1 {
			return fmt.Sprintf("'utf-8' codec can't decode byte 0x%02x in position %d: invalid continuation byte", c, i)
		}
		return fmt.Sprintf("'utf-8' codec can't decode bytes in position %d-%d: invalid continuation byte", i, j-1)
	}
	return ""
}

// validCont reports whether c may be the k-th byte (k >= 1) of a sequence led
// by lead.
func validCont(lead, c byte, k int) bool {
	lo, hi := byte(0x80), byte(0xbf)
	if k == 1 {
		switch lead {
		case 0xe0:
			lo = 0xa0
		case 0xed:
			hi = 0x9f
		case 0xf0:
			lo = 0x90
		case 0xf4:
			hi = 0x8f
		}
	}
	return c >= lo && c <= hi
}

func (sc *pyScanner) scanBlockScalar() pyToken {
	start := sc.mark()
	style := byte(sc.peek(0))
	folded := style == '>'
	sc.forward(1)
	increment := 0
	chomping := 0 // -1 strip, 0 clip, +1 keep
	digit := func() {
		if ch := sc.peek(0); ch >= '0' && ch <= '9' {
			if ch == '0' {
				sc.scanErr("while scanning a block scalar", &start, "expected indentation indicator in the range 1-9, but found 0")
			}
			increment = int(ch - '0')
			sc.forward(1)
		}
	}
	chomp := func(ch rune) {
		chomping = 1
		if ch == '-' {
			chomping = -1
		}
	}
	switch ch := sc.peek(0); {
	case ch == '+' || ch == '-':
		chomp(ch)
		sc.forward(1)
		digit()
	case ch >= '0' && ch <= '9':
		digit()
		if c := sc.peek(0); c == '+' || c == '-' {
			chomp(c)
			sc.forward(1)
		}
	}
	if ch := sc.peek(0); !isSpaceZ(ch) {
		sc.scanErr("while scanning a block scalar", &start, "expected chomping or indentation indicators, but found "+pyCharRepr(ch))
	}
	for sc.peek(0) == ' ' {
		sc.forward(1)
	}
	if sc.peek(0) == '#' {
		for !isBreakZ(sc.peek(0)) {
			sc.forward(1)
		}
	}
	if !isBreakZ(sc.peek(0)) {
		sc.scanErr("while scanning a block scalar", &start, "expected a comment or a line break, but found "+pyCharRepr(sc.peek(0)))
	}
	sc.lineBreak()
	minIndent := max(sc.indent+1, 1)
	var indent int
	var end pyMark
	var b strings.Builder
	var breaks []string
	if increment == 0 {
		maxIndent := 0
		end = sc.mark()
		for ch := sc.peek(0); ch == ' ' || pyIsBreak(ch); ch = sc.peek(0) {
			if ch != ' ' {
				breaks = append(breaks, sc.lineBreakStr())
				end = sc.mark()
			} else {
				sc.forward(1)
				maxIndent = max(maxIndent, sc.col)
			}
		}
		indent = max(minIndent, maxIndent)
	} else {
		indent = minIndent + increment - 1
		breaks, end = sc.blockBreaks(indent)
	}
	lineBreak := ""
	for sc.col == indent && sc.peek(0) != 0 {
		for _, br := range breaks {
			b.WriteString(br)
		}
		leadingNonSpace := sc.peek(0) != ' ' && sc.peek(0) != '\t'
		n := 0
		for !isBreakZ(sc.peek(n)) {
			n++
		}
		b.WriteString(sc.text(sc.ptr, sc.ptr+n))
		sc.forward(n)
		lineBreak = sc.lineBreakStr()
		breaks, end = sc.blockBreaks(indent)
		if sc.col != indent || sc.peek(0) == 0 {
			break
		}
		if ch := sc.peek(0); folded && lineBreak == "\n" && leadingNonSpace && ch != ' ' && ch != '\t' {
			if len(breaks) == 0 {
				b.WriteByte(' ')
			}
		} else {
			b.WriteString(lineBreak)
		}
	}
	if chomping >= 0 {
		b.WriteString(lineBreak)
	}
	if chomping > 0 {
		for _, br := range breaks {
			b.WriteString(br)
		}
	}
	return pyToken{kind: tScalar, start: start, end: end, sval: b.String(), style: style}
}

// blockBreaks is scan_block_scalar_breaks: the line breaks and the end mark.
func (sc *pyScanner) blockBreaks(indent int) ([]string, pyMark) {
	var breaks []string
	end := sc.mark()
	for sc.col < indent && sc.peek(0) == ' ' {
		sc.forward(1)
	}
	for pyIsBreak(sc.peek(0)) {
		breaks = append(breaks, sc.lineBreakStr())
		end = sc.mark()
		for sc.col < indent && sc.peek(0) == ' ' {
			sc.forward(1)
		}
	}
	return breaks, end
}

func (sc *pyScanner) docSeparatorHere() bool {
	return (sc.prefixIs("---") || sc.prefixIs("...")) && isBlankZ(sc.peek(3))
}

func (sc *pyScanner) scanFlowScalar(double bool) pyToken {
	start := sc.mark()
	quote := sc.peek(0)
	sc.forward(1)
	var b strings.Builder
	sc.flowNonSpaces(&b, double, start)
	for sc.peek(0) != quote {
		sc.flowSpaces(&b, double, start)
		sc.flowNonSpaces(&b, double, start)
	}
	sc.forward(1)
	return pyToken{kind: tScalar, start: start, end: sc.mark(), sval: b.String(), style: byte(quote)}
}

// pyEscapes is Scanner.ESCAPE_REPLACEMENTS.
var pyEscapes = map[rune]string{'0': "\x00", 'a': "\x07", 'b': "\x08", 't': "\x09", '\t': "\x09", 'n': "\x0a", 'v': "\x0b",
	'f': "\x0c", 'r': "\x0d", 'e': "\x1b", ' ': " ", '"': "\"", '\\': "\\", '/': "/", 'N': "\u0085", '_': "\u00a0",
	'L': "\u2028", 'P': "\u2029"}

func (sc *pyScanner) flowNonSpaces(b *strings.Builder, double bool, start pyMark) {
	for {
		n := 0
		for ch := sc.peek(n); !strings.ContainsRune("'\"\\\x00 \t\r\n\u0085\u2028\u2029", ch); ch = sc.peek(n) {
			n++
		}
		if n > 0 {
			b.WriteString(sc.text(sc.ptr, sc.ptr+n))
			sc.forward(n)
		}
		ch := sc.peek(0)
		switch {
		case !double && ch == '\'' && sc.peek(1) == '\'':
			b.WriteByte('\'')
			sc.forward(2)
		case (double && ch == '\'') || (!double && (ch == '"' || ch == '\\')):
			b.WriteRune(ch)
			sc.forward(1)
		case double && ch == '\\':
			sc.forward(1)
			ch = sc.peek(0)
			switch {
			case strings.ContainsRune("0abt\tnvfre \"\\/N_LP", ch) && ch != 0:
				b.WriteString(pyEscapes[ch])
				sc.forward(1)
			case ch == 'x' || ch == 'u' || ch == 'U':
				n := 2
				if ch == 'u' {
					n = 4
				} else if ch == 'U' {
					n = 8
				}
				sc.forward(1)
				for k := 0; k < n; k++ {
					if !isHexRune(sc.peek(k)) {
						sc.scanErr("while scanning a double-quoted scalar", &start,
							fmt.Sprintf("expected escape sequence of %d hexadecimal numbers, but found %s", n, pyCharRepr(sc.peek(k))))
					}
				}
				// chr(code) raises past U+10FFFF (OverflowError past a C
				// int), which PyYAML does not catch.
				var code uint64
				fmt.Sscanf(sc.text(sc.ptr, sc.ptr+n), "%x", &code)
				if code > 0x10ffff {
					e := &PyYAMLError{Class: "ValueError", File: sc.file, Problem: "chr() arg not in range(0x110000)",
						ProblemLine: sc.line + 1 + sc.lineOff, ProblemCol: sc.col + 1}
					if code > 0x7fffffff {
						e.Class, e.Problem = "OverflowError", "Python int too large to convert to C int"
					}
					panic(pyRaise{e})
				}
				// A surrogate cannot be held in UTF-8: it becomes U+FFFD.
				b.WriteRune(rune(code))
				sc.forward(n)
			case pyIsBreak(ch):
				sc.lineBreak()
				sc.flowBreaks(b, start)
			default:
				sc.scanErr("while scanning a double-quoted scalar", &start, "found unknown escape character "+pyCharRepr(ch))
			}
		default:
			return
		}
	}
}

func (sc *pyScanner) flowSpaces(b *strings.Builder, double bool, start pyMark) {
	n := 0
	for sc.peek(n) == ' ' || sc.peek(n) == '\t' {
		n++
	}
	whitespaces := sc.text(sc.ptr, sc.ptr+n)
	sc.forward(n)
	switch ch := sc.peek(0); {
	case ch == 0:
		sc.scanErr("while scanning a quoted scalar", &start, "found unexpected end of stream")
	case pyIsBreak(ch):
		lineBreak := sc.lineBreakStr()
		var breaks strings.Builder
		sc.flowBreaks(&breaks, start)
		if lineBreak != "\n" {
			b.WriteString(lineBreak)
		} else if breaks.Len() == 0 {
			b.WriteByte(' ')
		}
		b.WriteString(breaks.String())
	default:
		b.WriteString(whitespaces)
	}
}

func (sc *pyScanner) flowBreaks(b *strings.Builder, start pyMark) {
	for {
		if sc.docSeparatorHere() {
			sc.scanErr("while scanning a quoted scalar", &start, "found unexpected document separator")
		}
		for sc.peek(0) == ' ' || sc.peek(0) == '\t' {
			sc.forward(1)
		}
		br := sc.lineBreakStr()
		if br == "" {
			return
		}
		b.WriteString(br)
	}
}

func (sc *pyScanner) scanPlain() pyToken {
	start := sc.mark()
	end := start
	indent := sc.indent + 1
	var b strings.Builder
	var spaces []string
	for {
		if sc.peek(0) == '#' {
			break
		}
		n := 0
		for {
			ch := sc.peek(n)
			if isBlankZ(ch) || (ch == ':' && (isBlankZ(sc.peek(n+1)) || sc.flowLevel != 0 && strings.ContainsRune(",[]{}", sc.peek(n+1)))) ||
				(sc.flowLevel != 0 && strings.ContainsRune(",?[]{}", ch)) {
				break
			}
			n++
		}
		if n == 0 {
			break
		}
		sc.allowSimpleKey = false
		for _, sp := range spaces {
			b.WriteString(sp)
		}
		b.WriteString(sc.text(sc.ptr, sc.ptr+n))
		sc.forward(n)
		end = sc.mark()
		spaces = sc.plainSpaces()
		if len(spaces) == 0 || sc.peek(0) == '#' || (sc.flowLevel == 0 && sc.col < indent) {
			break
		}
	}
	return pyToken{kind: tScalar, start: start, end: end, plain: true, sval: b.String()}
}

// plainSpaces is scan_plain_spaces: its chunks, none when no space or break
// was consumed or a document marker followed.
func (sc *pyScanner) plainSpaces() []string {
	n := 0
	for sc.peek(n) == ' ' {
		n++
	}
	whitespaces := sc.text(sc.ptr, sc.ptr+n)
	sc.forward(n)
	if !pyIsBreak(sc.peek(0)) {
		if n > 0 {
			return []string{whitespaces}
		}
		return nil
	}
	lineBreak := sc.lineBreakStr()
	sc.allowSimpleKey = true
	if sc.docSeparatorHere() {
		return nil
	}
	var breaks []string
	for ch := sc.peek(0); ch == ' ' || pyIsBreak(ch); ch = sc.peek(0) {
		if ch == ' ' {
			sc.forward(1)
		} else {
			breaks = append(breaks, sc.lineBreakStr())
			if sc.docSeparatorHere() {
				return nil
			}
		}
	}
	var chunks []string
	if lineBreak != "\n" {
		chunks = append(chunks, lineBreak)
	} else if len(breaks) == 0 {
		chunks = append(chunks, " ")
	}
	return append(chunks, breaks...)
}

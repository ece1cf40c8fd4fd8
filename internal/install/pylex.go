package install

import (
	"bytes"
	"strconv"
	"strings"
	"unicode/utf8"
	"unsafe"
)

// The scanner reads Python source without running it. It needs only what the
// rules live in: logical lines with their indentation (a def's body is what is
// indented under it), names, operators, and string literals decoded with their
// f-string fields. Everything else is kept as opaque tokens.

// tokKind is a token's class.
type tokKind uint8

const (
	tkName tokKind = iota + 1
	tkString
	tkNumber
	tkOp
)

// token is one Python token of a logical line.
type token struct {
	kind tokKind
	// text is the name, number or operator as written.
	text string
	// str is the decoded literal for tkString (adjacent literals already
	// concatenated, as Python does).
	str *pyString
	// line is the physical line the token starts on (1-based).
	line int
}

// part is a piece of a decoded string: literal text, or an f-string field.
type part struct {
	lit string
	// expr is the field's expression as written; conv is its !r/!s/!a letter.
	expr  string
	conv  byte
	spec  bool // a :format_spec follows
	field bool
}

// pyString is a decoded string literal (or several concatenated ones).
type pyString struct {
	parts []part
	fstr  bool
	bytes bool
}

// value is the literal's text with every field written as {expr}.
func (s *pyString) value() string {
	if len(s.parts) == 1 && !s.parts[0].field {
		return s.parts[0].lit
	}
	var b strings.Builder
	for _, p := range s.parts {
		if !p.field {
			b.WriteString(p.lit)
			continue
		}
		b.WriteByte('{')
		b.WriteString(p.expr)
		if p.conv != 0 {
			b.WriteByte('!')
			b.WriteByte(p.conv)
		}
		b.WriteByte('}')
	}
	return b.String()
}

// plain reports whether every field is a name or an attribute chain, optionally
// with !r or !s: the only fields xcvr fills in itself.
func (s *pyString) plain() bool {
	for _, p := range s.parts {
		if p.field && (p.spec || !plainExpr(p.expr) || (p.conv != 0 && p.conv != 'r' && p.conv != 's')) {
			return false
		}
	}
	return true
}

// isConst reports whether the string has no fields at all.
func (s *pyString) isConst() bool {
	for _, p := range s.parts {
		if p.field {
			return false
		}
	}
	return true
}

func plainExpr(e string) bool {
	e = strings.TrimSpace(e)
	if e == "" {
		return false
	}
	for _, seg := range strings.Split(e, ".") {
		if !isIdent(seg) {
			return false
		}
	}
	return true
}

func isIdent(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c == '_' || ('a' <= c && c <= 'z') || ('A' <= c && c <= 'Z') || (i > 0 && '0' <= c && c <= '9') {
			continue
		}
		return false
	}
	return true
}

// logical is one logical line: the tokens of a statement, joined across
// brackets and backslash continuations.
type logical struct {
	indent int
	line   int // first physical line
	toks   []token
}

// first returns the first token's text, or "".
func (l *logical) first() string {
	if len(l.toks) == 0 {
		return ""
	}
	return l.toks[0].text
}

// maxTokensPerLine bounds one logical line, so a hostile file with a bracket
// opened and never closed costs linear time and bounded memory.
const maxTokensPerLine = 20000

// maxStringParts bounds the pieces of one concatenated literal; no message is
// made of more.
const maxStringParts = 4096

// lex splits src into logical lines. It never fails: unterminated strings and
// brackets end at the end of the file, bytes it does not understand become
// one-character operators.
func lex(src []byte) []logical { return lexKeep(src, nil) }

// lexKeep is lex that tokenises only the logical lines keep accepts (it sees the
// source and the offset of the line's first token); the others are skipped at
// byte speed, strings and brackets still honoured.
func lexKeep(src []byte, keep func(src []byte, at, indent int) bool) []logical {
	var out []logical
	lx := lexer{src: src, line: 1}
	var cur logical
	depth := 0
	atLineStart := true
	indent := 0
	// Tokens go to one arena per file; a logical line is a slice of it. A
	// slice taken before the arena grows keeps pointing at the old array,
	// which is never written again.
	arena := make([]token, 0, 256)
	start := 0
	flush := func() {
		if len(arena) > start {
			cur.indent = indent
			cur.toks = arena[start:len(arena):len(arena)]
			out = append(out, cur)
		}
		cur = logical{}
		start = len(arena)
	}
	for lx.pos < len(src) {
		if atLineStart && depth == 0 {
			// Measure indentation; blank and comment-only lines do not count.
			col, p := 0, lx.pos
			for p < len(src) && (src[p] == ' ' || src[p] == '\t' || src[p] == '\f') {
				if src[p] == '\t' {
					col = (col/8 + 1) * 8
				} else {
					col++
				}
				p++
			}
			lx.pos = p
			if p >= len(src) {
				break
			}
			if src[p] == '\n' || src[p] == '\r' || src[p] == '#' {
				lx.skipToEOL()
				continue
			}
			indent = col
			atLineStart = false
			if keep != nil && !keep(src, p, col) {
				lx.skipLogical()
				atLineStart = true
				continue
			}
		}
		c := src[lx.pos]
		switch {
		case c == '\n':
			lx.pos++
			lx.line++
			if depth == 0 {
				flush()
				atLineStart = true
			}
		case c == '\r' || c == ' ' || c == '\t' || c == '\f':
			lx.pos++
		case c == '#':
			lx.skipComment()
		case c == '\\' && lx.pos+1 < len(src) && (src[lx.pos+1] == '\n' || src[lx.pos+1] == '\r'):
			lx.pos++
			if src[lx.pos] == '\r' {
				lx.pos++
			}
			if lx.pos < len(src) && src[lx.pos] == '\n' {
				lx.pos++
			}
			lx.line++
		default:
			t := lx.next()
			if t.kind == tkOp {
				switch t.text {
				case "(", "[", "{":
					depth++
				case ")", "]", "}":
					if depth > 0 {
						depth--
					}
				}
			}
			n := len(arena) - start
			if n == 0 {
				cur.line = t.line
			}
			if t.kind == tkString && n > 0 && arena[len(arena)-1].kind == tkString {
				// The lexer owns prev: grow it in place (amortised linear; a
				// file of a million adjacent literals must not be quadratic).
				prev := arena[len(arena)-1].str
				if len(prev.parts) < maxStringParts {
					prev.parts = append(prev.parts, t.str.parts...)
				}
				prev.fstr = prev.fstr || t.str.fstr
				prev.bytes = prev.bytes || t.str.bytes
				continue
			}
			if n >= maxTokensPerLine {
				// Give up on this statement: drop tokens until it ends.
				continue
			}
			arena = append(arena, t)
		}
	}
	flush()
	return out
}

type lexer struct {
	src  []byte
	pos  int
	line int
}

func (lx *lexer) skipToEOL() {
	for lx.pos < len(lx.src) && lx.src[lx.pos] != '\n' {
		lx.pos++
	}
	if lx.pos < len(lx.src) {
		lx.pos++
		lx.line++
	}
}

// skipSpecial marks the bytes skipLogical must look at; everything else is
// passed over in a tight loop.
var skipSpecial = func() (t [256]bool) {
	for _, c := range []byte("\n#\\\"'()[]{}") {
		t[c] = true
	}
	return t
}()

// skipLogical moves past the logical line starting at lx.pos without making
// tokens: to the newline that ends it outside brackets and strings.
func (lx *lexer) skipLogical() {
	src := lx.src
	depth := 0
	for lx.pos < len(src) {
		p := lx.pos
		for p < len(src) && !skipSpecial[src[p]] {
			p++
		}
		lx.pos = p
		if p >= len(src) {
			return
		}
		switch c := src[p]; c {
		case '\n':
			lx.pos++
			lx.line++
			if depth == 0 {
				return
			}
		case '#':
			lx.skipComment()
		case '\\':
			lx.pos++
			if lx.pos < len(src) && src[lx.pos] == '\r' {
				lx.pos++
			}
			if lx.pos < len(src) && src[lx.pos] == '\n' {
				lx.pos++
				lx.line++
			}
		case '"', '\'':
			lx.skipString()
		case '(', '[', '{':
			depth++
			lx.pos++
		default:
			if depth > 0 {
				depth--
			}
			lx.pos++
		}
	}
}

// skipString moves past the string literal whose quote is at lx.pos.
func (lx *lexer) skipString() {
	src := lx.src
	q := src[lx.pos]
	triple := lx.pos+2 < len(src) && src[lx.pos+1] == q && src[lx.pos+2] == q
	p := lx.pos + 1
	if triple {
		p += 2
	}
	for p < len(src) {
		// Jump to the next quote, backslash or newline.
		k := p
		for k < len(src) && src[k] != q && src[k] != '\\' && src[k] != '\n' {
			k++
		}
		p = k
		if p >= len(src) {
			break
		}
		switch src[p] {
		case '\\':
			if p+1 < len(src) && src[p+1] == '\n' {
				lx.line++
			}
			p += 2
			continue
		case '\n':
			if !triple {
				lx.pos = p
				return
			}
			lx.line++
		default: // the quote
			if !triple {
				lx.pos = p + 1
				return
			}
			if p+2 < len(src) && src[p+1] == q && src[p+2] == q {
				lx.pos = p + 3
				return
			}
		}
		p++
	}
	lx.pos = min(p, len(src))
}

func (lx *lexer) skipComment() {
	if i := bytes.IndexByte(lx.src[lx.pos:], '\n'); i >= 0 {
		lx.pos += i
	} else {
		lx.pos = len(lx.src)
	}
}

func identStart(c byte) bool {
	return c == '_' || ('a' <= c && c <= 'z') || ('A' <= c && c <= 'Z') || c >= 0x80
}

func identPart(c byte) bool { return identStart(c) || ('0' <= c && c <= '9') }

// next reads one token at lx.pos (not whitespace, newline or comment).
func (lx *lexer) next() token {
	src, start, line := lx.src, lx.pos, lx.line
	c := src[start]
	if identStart(c) {
		p := start
		for p < len(src) && identPart(src[p]) {
			p++
		}
		word := src[start:p]
		if p < len(src) && (src[p] == '"' || src[p] == '\'') && len(word) <= 3 && isPrefix(word) {
			lx.pos = p
			return lx.str(strings.ToLower(string(word)), line)
		}
		lx.pos = p
		// The name shares the source's memory: the scanner never writes to it.
		return token{kind: tkName, text: unsafe.String(&word[0], len(word)), line: line}
	}
	if c == '"' || c == '\'' {
		return lx.str("", line)
	}
	if '0' <= c && c <= '9' || (c == '.' && start+1 < len(src) && '0' <= src[start+1] && src[start+1] <= '9') {
		p := start
		for p < len(src) && (identPart(src[p]) || src[p] == '.') {
			p++
		}
		lx.pos = p
		return token{kind: tkNumber, text: string(src[start:p]), line: line}
	}
	if start+1 < len(src) && strings.IndexByte("*/<>.-=!:+", c) >= 0 {
		for _, op := range multiOps {
			if hasPrefixAt(src, start, op) {
				lx.pos = start + len(op)
				return token{kind: tkOp, text: op, line: line}
			}
		}
	}
	if c >= utf8.RuneSelf {
		_, n := utf8.DecodeRune(src[start:])
		lx.pos = start + n
		return token{kind: tkOp, text: string(src[start:lx.pos]), line: line}
	}
	lx.pos = start + 1
	return token{kind: tkOp, text: opText(c), line: line}
}

var multiOps = [...]string{"**=", "//=", ">>=", "<<=", "...", "->", "==", "!=", "<=", ">=", "**", "//", ":=", "+=", "-=", "*=", "/="}

func hasPrefixAt(src []byte, at int, op string) bool {
	if at+len(op) > len(src) {
		return false
	}
	for i := 0; i < len(op); i++ {
		if src[at+i] != op[i] {
			return false
		}
	}
	return true
}

// opText interns the one-byte operators, so a token costs no allocation.
const opBytes = "()[]{}:,.;@=+-*/%<>!~^&|"

func opText(c byte) string {
	if i := strings.IndexByte(opBytes, c); i >= 0 {
		return opBytes[i : i+1]
	}
	return string(c)
}

func isPrefix(w []byte) bool {
	for _, c := range w {
		switch c {
		case 'r', 'R', 'b', 'B', 'u', 'U', 'f', 'F':
		default:
			return false
		}
	}
	return true
}

// str reads a string literal at lx.pos with the given (lower-case) prefix.
func (lx *lexer) str(prefix string, line int) token {
	src := lx.src
	q := src[lx.pos]
	triple := lx.pos+2 < len(src) && src[lx.pos+1] == q && src[lx.pos+2] == q
	p := lx.pos + 1
	if triple {
		p = lx.pos + 3
	}
	bodyStart := p
	raw := strings.ContainsRune(prefix, 'r')
	end := len(src)
	closeLen := 0
	for p < len(src) {
		c := src[p]
		if c == '\\' && p+1 < len(src) {
			if src[p+1] == '\n' {
				lx.line++
			}
			p += 2
			continue
		}
		if c == '\n' {
			if !triple {
				break // unterminated: Python would refuse; stop at the line end
			}
			lx.line++
		}
		if c == q {
			if !triple {
				end, closeLen = p, 1
				break
			}
			if p+2 < len(src) && src[p+1] == q && src[p+2] == q {
				end, closeLen = p, 3
				break
			}
		}
		p++
	}
	if closeLen == 0 {
		end = p
	}
	body := string(src[bodyStart:end])
	lx.pos = end + closeLen
	s := &pyString{fstr: strings.ContainsRune(prefix, 'f'), bytes: strings.ContainsRune(prefix, 'b')}
	if s.fstr {
		s.parts = fParts(body, raw)
	} else {
		s.parts = []part{{lit: unescape(body, raw)}}
	}
	return token{kind: tkString, str: s, line: line}
}

// fParts splits an f-string body into literal text and fields.
func fParts(body string, raw bool) []part {
	var parts []part
	var lit strings.Builder
	for i := 0; i < len(body); {
		c := body[i]
		switch {
		case c == '{' && i+1 < len(body) && body[i+1] == '{':
			lit.WriteByte('{')
			i += 2
		case c == '}' && i+1 < len(body) && body[i+1] == '}':
			lit.WriteByte('}')
			i += 2
		case c == '{':
			if lit.Len() > 0 {
				parts = append(parts, part{lit: unescape(lit.String(), raw)})
				lit.Reset()
			}
			// The field runs to the matching '}', skipping nested brackets and
			// quoted text.
			j, depth := i+1, 0
			var inQ byte
			for j < len(body) {
				d := body[j]
				if inQ != 0 {
					if d == inQ {
						inQ = 0
					}
					j++
					continue
				}
				if d == '\'' || d == '"' {
					inQ = d
				} else if d == '(' || d == '[' || d == '{' {
					depth++
				} else if d == ')' || d == ']' || (d == '}' && depth > 0) {
					depth--
				} else if d == '}' {
					break
				}
				j++
			}
			f := part{field: true}
			expr := body[i+1 : min(j, len(body))]
			if k := topLevelIndex(expr, ':'); k >= 0 {
				f.spec = true
				expr = expr[:k]
			}
			if k := strings.LastIndex(expr, "!"); k >= 0 && k == len(expr)-2 && expr[k+1] != '=' {
				f.conv = expr[k+1]
				expr = expr[:k]
			}
			f.expr = strings.TrimSpace(expr)
			parts = append(parts, f)
			i = j + 1
		default:
			lit.WriteByte(c)
			i++
		}
	}
	if lit.Len() > 0 || len(parts) == 0 {
		parts = append(parts, part{lit: unescape(lit.String(), raw)})
	}
	return parts
}

// topLevelIndex finds c outside brackets and quotes.
func topLevelIndex(s string, c byte) int {
	depth := 0
	var inQ byte
	for i := 0; i < len(s); i++ {
		d := s[i]
		switch {
		case inQ != 0:
			if d == inQ {
				inQ = 0
			}
		case d == '\'' || d == '"':
			inQ = d
		case d == '(' || d == '[' || d == '{':
			depth++
		case d == ')' || d == ']' || d == '}':
			depth--
		case d == c && depth == 0:
			if c == ':' && i+1 < len(s) && s[i+1] == '=' {
				continue
			}
			return i
		}
	}
	return -1
}

// unescape decodes Python's backslash escapes (not in raw strings).
func unescape(s string, raw bool) string {
	if raw || !strings.Contains(s, "\\") {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c != '\\' || i+1 >= len(s) {
			b.WriteByte(c)
			continue
		}
		i++
		switch e := s[i]; e {
		case '\n':
		case '\\', '\'', '"':
			b.WriteByte(e)
		case 'n':
			b.WriteByte('\n')
		case 't':
			b.WriteByte('\t')
		case 'r':
			b.WriteByte('\r')
		case 'a':
			b.WriteByte(7)
		case 'b':
			b.WriteByte(8)
		case 'f':
			b.WriteByte(12)
		case 'v':
			b.WriteByte(11)
		case '0', '1', '2', '3', '4', '5', '6', '7':
			j := i
			for j < len(s) && j < i+3 && s[j] >= '0' && s[j] <= '7' {
				j++
			}
			n, _ := strconv.ParseUint(s[i:j], 8, 32)
			b.WriteRune(rune(n))
			i = j - 1
		case 'x', 'u', 'U':
			w := map[byte]int{'x': 2, 'u': 4, 'U': 8}[e]
			if i+w < len(s)+0 && i+1+w <= len(s) {
				if n, err := strconv.ParseUint(s[i+1:i+1+w], 16, 32); err == nil && n <= utf8.MaxRune {
					b.WriteRune(rune(n))
					i += w
					continue
				}
			}
			b.WriteByte('\\')
			b.WriteByte(e)
		default:
			b.WriteByte('\\')
			b.WriteByte(e)
		}
	}
	return b.String()
}

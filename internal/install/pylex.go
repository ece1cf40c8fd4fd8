package install

import (
	"bytes"
	"encoding/binary"
	"math/bits"
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
			// Eight spaces at a time first: deep code is mostly indentation.
			for p+8 <= len(src) && binary.LittleEndian.Uint64(src[p:]) == 0x2020202020202020 {
				col += 8
				p += 8
			}
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
			// Lines are counted at '\n' only, here as everywhere (a lone
			// '\r' is not a line end to the scanner).
			if lx.pos < len(src) && src[lx.pos] == '\n' {
				lx.pos++
				lx.line++
			}
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
	if i := bytes.IndexByte(lx.src[lx.pos:], '\n'); i >= 0 {
		lx.pos += i + 1
		lx.line++
		return
	}
	lx.pos = len(lx.src)
}

// skipClass marks the bytes skipLogical must look at.
var skipClass = func() (t [256]uint8) {
	for _, c := range []byte("\n#\\\"'()[]{}") {
		t[c] = 1
	}
	return t
}()

const (
	lsb = 0x0101010101010101
	msb = 0x8080808080808080
)

// inRange marks (with 0x80) each byte of x between lo and hi; every byte of x
// must be below 0x80, so that no addition carries into the next byte.
func inRange(x uint64, lo, hi byte) uint64 {
	return (x + (0x80-uint64(lo))*lsb) &^ (x + (0x7f-uint64(hi))*lsb) & msb
}

// skipMask marks the bytes of x (all below 0x80) in 10, 34-41 ("#$%&'()),
// 91-93 ([\]) and 123-125 ({|}): every byte skipLogical looks at, and $ % & |
// as false alarms, which its byte loop passes. x|0x20 folds 91-93 onto 123-125.
func skipMask(x uint64) uint64 {
	return zeroBytes(x^('\n'*lsb)) | inRange(x, '"', ')') | inRange(x|0x20*lsb, '{', '}')
}

// skipDepth is a bracket's effect on the depth.
var skipDepth = func() (t [256]int8) {
	for _, c := range []byte("([{") {
		t[c] = 1
	}
	for _, c := range []byte(")]}") {
		t[c] = -1
	}
	return t
}()

// skipLogical moves past the logical line starting at lx.pos without making
// tokens: to the newline that ends it outside brackets and strings. Code is
// read eight bytes at a time: one word test marks the bytes that matter here,
// and brackets and newlines are taken from the marks without leaving the
// word; a quote, a comment or a backslash is handled byte by byte.
func (lx *lexer) skipLogical() {
	src := lx.src
	depth := 0
	p := lx.pos
	for p < len(src) {
		if p+8 <= len(src) {
			if x := binary.LittleEndian.Uint64(src[p:]); x&msb == 0 {
				stop := 8
				for m := skipMask(x); m != 0; m &= m - 1 {
					i := uint(bits.TrailingZeros64(m)) >> 3
					c := byte(x >> (i << 3))
					if k := skipDepth[c]; k != 0 {
						depth = max(depth+int(k), 0)
					} else if c == '\n' {
						lx.line++
						if depth == 0 {
							lx.pos = p + int(i) + 1
							return
						}
					} else if skipClass[c] != 0 {
						stop = int(i)
						break
					} // else $ % & |: a false alarm
				}
				p += stop
				if stop == 8 {
					continue
				}
			}
		}
		// Byte by byte: a quote, comment or backslash, a byte >= 0x80, or the
		// last bytes of the source.
		switch c := src[p]; c {
		case '(', '[', '{':
			depth++
			p++
		case ')', ']', '}':
			if depth > 0 {
				depth--
			}
			p++
		case '\n':
			lx.line++
			p++
			if depth == 0 {
				lx.pos = p
				return
			}
		case '#':
			if i := bytes.IndexByte(src[p:], '\n'); i >= 0 {
				p += i
			} else {
				p = len(src)
			}
		case '\\':
			p++
			if p < len(src) && src[p] == '\r' {
				p++
			}
			if p < len(src) && src[p] == '\n' {
				p++
				lx.line++
			}
		case '"', '\'':
			raw, f := prefixBefore(src, p)
			lx.pos = p
			lx.scanLit(raw, f, 0, nil)
			p = lx.pos
		default:
			p++
		}
	}
	lx.pos = p
}

// prefixBefore reads the string prefix (r, b, f, t, u in any case, at most
// three letters) written just before the quote at q.
func prefixBefore(src []byte, q int) (raw, f bool) {
	k := q
	for k > 0 && q-k < 4 && identPart(src[k-1]) {
		k--
	}
	if k == q || q-k > 3 || (k > 0 && identPart(src[k-1])) || !isPrefix(src[k:q]) {
		return false, false
	}
	for _, c := range src[k:q] {
		switch c | 0x20 {
		case 'r':
			raw = true
		case 'f', 't':
			f = true
		}
	}
	return raw, f
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
			return lx.str(word, line)
		}
		lx.pos = p
		// The name shares the source's memory: the scanner never writes to it.
		return token{kind: tkName, text: unsafe.String(&word[0], len(word)), line: line}
	}
	if c == '"' || c == '\'' {
		return lx.str(nil, line)
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

// isPrefix reports whether w can prefix a string literal: r, b, u, f and t
// (Python 3.14's template strings, lexed as f-strings) in any case.
func isPrefix(w []byte) bool {
	for _, c := range w {
		switch c {
		case 'r', 'R', 'b', 'B', 'u', 'U', 'f', 'F', 't', 'T':
		default:
			return false
		}
	}
	return true
}

// str reads a string literal at lx.pos whose prefix (as written, any case) is
// pre.
func (lx *lexer) str(pre []byte, line int) token {
	var raw, f, b bool
	for _, c := range pre {
		switch c | 0x20 {
		case 'r':
			raw = true
		case 'f', 't':
			f = true
		case 'b':
			b = true
		}
	}
	s := &pyString{fstr: f, bytes: b}
	if f {
		fc := fCollect{raw: raw}
		lx.scanLit(raw, true, 0, &fc)
		if len(fc.lit) > 0 || len(fc.parts) == 0 {
			fc.parts = append(fc.parts, part{lit: unescape(string(fc.lit), raw)})
		}
		s.parts = fc.parts
	} else {
		from, to, _ := lx.scanLit(raw, false, 0, nil)
		s.parts = []part{{lit: unescape(string(lx.src[from:to]), raw)}}
	}
	return token{kind: tkString, str: s, line: line}
}

// maxFDepth bounds f-strings nested in the fields of f-strings (and format
// specs nested in specs). Python 3.12 (PEP 701) lets a field hold any
// expression, an f-string with the same quotes included; real code nests two
// or three deep. Deeper ones are read as plain strings, so time stays linear
// and the stack bounded whatever the input.
const maxFDepth = 32

// fCollect gathers a top-level f-string's parts while it is scanned.
type fCollect struct {
	raw   bool
	parts []part
	// lit is the literal text since the last field, braces undoubled and
	// escapes not yet decoded.
	lit []byte
}

func (fc *fCollect) flushLit() {
	if len(fc.lit) > 0 {
		fc.parts = append(fc.parts, part{lit: unescape(string(fc.lit), fc.raw)})
		fc.lit = fc.lit[:0]
	}
}

// scanLit moves past the string literal whose opening quote is at lx.pos (its
// prefix already read: raw, f for f- and t-strings) and returns its body's
// bounds. ok is false for an unterminated literal: one not triple-quoted stops
// before the newline (Python would refuse it), any other at the end of the
// source. depth is the f-string nesting; fc, when not nil, gets the parts.
func (lx *lexer) scanLit(raw, f bool, depth int, fc *fCollect) (from, to int, ok bool) {
	src := lx.src
	q := src[lx.pos]
	triple := lx.pos+2 < len(src) && src[lx.pos+1] == q && src[lx.pos+2] == q
	p := lx.pos + 1
	if triple {
		p += 2
	}
	from = p
	if f && depth < maxFDepth {
		to, ok = lx.scanFBody(p, q, triple, raw, depth, fc)
		return from, to, ok
	}
	for p < len(src) {
		p = indexAny3(src, p, q, '\\', '\n')
		if p >= len(src) {
			break
		}
		switch src[p] {
		case '\\':
			if p+1 < len(src) && src[p+1] == '\n' {
				lx.line++
			}
			p = min(p+2, len(src))
			continue
		case '\n':
			if !triple {
				lx.pos = p
				return from, p, false
			}
			lx.line++
		default: // the quote
			if !triple {
				lx.pos = p + 1
				return from, p, true
			}
			if p+2 < len(src) && src[p+1] == q && src[p+2] == q {
				lx.pos = p + 3
				return from, p, true
			}
		}
		p++
	}
	lx.pos = len(src)
	return from, len(src), false
}

var fBodyByte = func() (t [256]bool) {
	for _, c := range []byte("\\{}\n\"'") {
		t[c] = true
	}
	return t
}()

// zeroBytes marks (with 0x80) each zero byte of v, exactly.
func zeroBytes(v uint64) uint64 {
	const low7 = 0x7f7f7f7f7f7f7f7f
	return ^(((v & low7) + low7) | v | low7)
}

// indexAny3 returns the index of the first of a, b, c in src at or after p, or
// len(src); eight bytes at a time, since string bodies are mostly text.
func indexAny3(src []byte, p int, a, b, c byte) int {
	for ; p+8 <= len(src); p += 8 {
		x := binary.LittleEndian.Uint64(src[p:])
		if m := zeroBytes(x^(uint64(a)*lsb)) | zeroBytes(x^(uint64(b)*lsb)) | zeroBytes(x^(uint64(c)*lsb)); m != 0 {
			return p + bits.TrailingZeros64(m)/8
		}
	}
	for ; p < len(src); p++ {
		if d := src[p]; d == a || d == b || d == c {
			return p
		}
	}
	return len(src)
}

// scanFBody reads an f-string's body from p (after the opening quote q): text,
// doubled braces, and fields; it leaves lx.pos after the closing quote.
func (lx *lexer) scanFBody(p int, q byte, triple, raw bool, depth int, fc *fCollect) (int, bool) {
	src := lx.src
	lit := p // start of the literal text not yet collected
	take := func(to int) {
		if fc != nil {
			fc.lit = append(fc.lit, src[lit:to]...)
		}
	}
	for p < len(src) {
		// Text runs to the next byte that means something here.
		for p < len(src) && !fBodyByte[src[p]] {
			p++
		}
		if p >= len(src) {
			break
		}
		switch c := src[p]; c {
		case '\\':
			if p+1 < len(src) && (src[p+1] == '{' || src[p+1] == '}') {
				p++ // "\{" is a backslash, then a field or a doubled brace
				continue
			}
			if !raw && p+2 < len(src) && src[p+1] == 'N' && src[p+2] == '{' {
				// \N{NAME} names a character: its braces are no field.
				e := p + 3
				for e < len(src) && e-p < 100 && (identPart(src[e]) || src[e] == ' ' || src[e] == '-') {
					e++
				}
				if e < len(src) && src[e] == '}' {
					p = e + 1
					continue
				}
			}
			if p+1 < len(src) && src[p+1] == '\n' {
				lx.line++
			}
			p = min(p+2, len(src))
		case '{', '}':
			if p+1 < len(src) && src[p+1] == c {
				take(p + 1)
				p += 2
				lit = p
				continue
			}
			if c == '}' {
				p++ // a lone '}': Python refuses it; kept as text
				continue
			}
			take(p)
			if fc != nil {
				fc.flushLit()
			}
			end, ok := lx.scanField(p+1, triple, depth, fc)
			if !ok {
				lx.pos = end
				return end, false
			}
			p, lit = end, end
		case '\n':
			if !triple {
				take(p)
				lx.pos = p
				return p, false
			}
			lx.line++
			p++
		case q:
			if !triple || (p+2 < len(src) && src[p+1] == q && src[p+2] == q) {
				take(p)
				lx.pos = p + 1
				if triple {
					lx.pos = p + 3
				}
				return p, true
			}
			p++
		default:
			p++
		}
	}
	take(len(src))
	lx.pos = len(src)
	return len(src), false
}

// scanField reads one replacement field from p (after its '{') and returns
// the position after its closing '}'. As in Python 3.12, the expression may
// hold strings with any quotes (f-strings too), brackets, newlines and
// comments; a '!' conversion and a ':' format spec end it at bracket depth 0.
// With fc the field becomes a part: its expression as written.
func (lx *lexer) scanField(p int, triple bool, depth int, fc *fCollect) (int, bool) {
	src := lx.src
	start, exprEnd := p, -1
	var conv byte
	bd := 0
	done := func(spec bool) {
		if fc != nil {
			fc.parts = append(fc.parts, part{field: true, expr: strings.TrimSpace(string(src[start:exprEnd])), conv: conv, spec: spec})
		}
	}
	for p < len(src) {
		c := src[p]
		switch {
		case c == '"' || c == '\'':
			raw, f := prefixBefore(src, p)
			lx.pos = p
			if _, _, ok := lx.scanLit(raw, f, depth+1, nil); !ok {
				return lx.pos, false
			}
			p = lx.pos
			continue
		case c == '#':
			if i := bytes.IndexByte(src[p:], '\n'); i >= 0 {
				p += i
			} else {
				p = len(src)
			}
			continue
		case c == '\\':
			if p+1 < len(src) && src[p+1] == '\n' {
				lx.line++
			}
			p = min(p+2, len(src))
			continue
		case c == '\n':
			lx.line++
		case c == '(' || c == '[' || c == '{':
			bd++
		case c == ')' || c == ']':
			if bd > 0 {
				bd--
			}
		case c == '}':
			if bd > 0 {
				bd--
				break
			}
			exprEnd = p
			done(false)
			return p + 1, true
		case bd == 0 && c == '!' && p+2 < len(src) && src[p+1] != '=' && (src[p+2] == '}' || src[p+2] == ':'):
			exprEnd, conv = p, src[p+1]
			if src[p+2] == '}' {
				done(false)
				return p + 3, true
			}
			end, ok := lx.scanSpec(p+3, triple, depth)
			if ok {
				done(true)
			}
			return end, ok
		case bd == 0 && c == ':' && !(p+1 < len(src) && src[p+1] == '='):
			exprEnd = p
			end, ok := lx.scanSpec(p+1, triple, depth)
			if ok {
				done(true)
			}
			return end, ok
		}
		p++
	}
	return len(src), false
}

// scanSpec reads a format spec from p to the '}' that closes its field (and
// returns the position after it); the spec is text with nested fields.
func (lx *lexer) scanSpec(p int, triple bool, depth int) (int, bool) {
	src := lx.src
	for p < len(src) {
		switch src[p] {
		case '{':
			if depth+1 >= maxFDepth {
				return lx.skipBraces(p, triple)
			}
			end, ok := lx.scanField(p+1, triple, depth+1, nil)
			if !ok {
				return end, false
			}
			p = end
			continue
		case '}':
			return p + 1, true
		case '\n':
			if !triple {
				return p, false
			}
			lx.line++
		case '\\':
			p++
		}
		p++
	}
	return len(src), false
}

// skipBraces ends a spec nested deeper than maxFDepth: to the '}' that closes
// its field, braces counted, without recursion.
func (lx *lexer) skipBraces(p int, triple bool) (int, bool) {
	src := lx.src
	n := 0
	for ; p < len(src); p++ {
		switch src[p] {
		case '{':
			n++
		case '}':
			if n == 0 {
				return p + 1, true
			}
			n--
		case '\n':
			if !triple {
				return p, false
			}
			lx.line++
		}
	}
	return len(src), false
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

package install

import (
	"strings"
	"unsafe"
)

// A Python module as the scanner sees it: classes with their bases, decorators
// and methods, and module-level functions. Bodies are kept as index ranges into
// the logical lines and only examined for the few functions that matter.

type decorator struct {
	name   string // dotted name after @, e.g. register_auto_model
	args   []token
	line   int
	indent int
}

type funcDef struct {
	name string
	line int
	// body is the statements of the function (the inline one of a one-line
	// def, or the indented block).
	body []logical
}

type classDef struct {
	name    string
	bases   []string
	line    int
	file    *pyModule
	decos   []decorator
	methods map[string]*funcDef
}

type pyModule struct {
	rel     string // path relative to the site-packages directory
	lines   []logical
	classes []*classDef
	funcs   map[string]*funcDef // module-level functions
	// calls are module-level register_auto_model("X")(Cls) registrations.
	calls []registration
}

type registration struct {
	arch, class string
	line        int
}

// parseModule builds the module outline from its source.
func parseModule(rel string, src []byte) *pyModule {
	return outline(rel, lex(src))
}

// parseModelModule outlines a model module keeping only what the registry scan
// reads (decorators, class and def headers, the hook bodies, module-level
// registrations and the lazy index), so a 20 MB model zoo costs a byte scan
// rather than a token list.
func parseModelModule(rel string, src []byte) *pyModule {
	hookIndent := -1
	keep := func(src []byte, at, indent int) bool {
		if hookIndent >= 0 {
			if indent > hookIndent {
				return true
			}
			hookIndent = -1
		}
		// Most lines start with none of the words below: one byte tells.
		switch src[at] {
		case '@':
			return true
		case 'c', 'r', 'M', 'g', 'a', 'd':
		default:
			return false
		}
		w := word(src, at)
		switch w {
		case "@", "class", "register_auto_model", "MODEL_ARCH_TO_MODULE", "MODEL_CLASS_TO_MODULE", hookRuntime, hookKVManager:
			return true
		case "async":
			at += len(w)
			for at < len(src) && (src[at] == ' ' || src[at] == '\t') {
				at++
			}
			if word(src, at) != "def" {
				return false
			}
			fallthrough
		case "def":
			// Only the hooks matter; other defs (and their bodies) are skipped.
			at = bytesIndexFrom(src, at, "def") + 3
			for at < len(src) && (src[at] == ' ' || src[at] == '\t') {
				at++
			}
			if n := word(src, at); n == hookRuntime || n == hookKVManager {
				hookIndent = indent
				return true
			}
			return false
		}
		return false
	}
	lines := lexKeep(src, keep)
	detach(lines)
	return outline(rel, lines)
}

// detach copies the names of the kept tokens, which point into src, into one
// allocation of their own, so the caller may reuse src once the module is
// outlined (strings, numbers and operators are copies or constants already).
func detach(lines []logical) {
	n := 0
	for _, l := range lines {
		for _, t := range l.toks {
			if t.kind == tkName {
				n += len(t.text)
			}
		}
	}
	if n == 0 {
		return
	}
	buf := make([]byte, 0, n)
	for _, l := range lines {
		for i := range l.toks {
			if t := &l.toks[i]; t.kind == tkName {
				at := len(buf)
				buf = append(buf, t.text...)
				t.text = unsafe.String(&buf[at], len(t.text))
			}
		}
	}
}

// word is the identifier (or the single non-identifier byte) at src[at:].
func word(src []byte, at int) string {
	if at >= len(src) {
		return ""
	}
	if !identStart(src[at]) {
		return string(src[at : at+1])
	}
	e := at
	for e < len(src) && identPart(src[e]) && e-at < 64 {
		e++
	}
	// Compared only, never kept past the scan: no copy.
	return unsafe.String(&src[at], e-at)
}

func bytesIndexFrom(src []byte, at int, w string) int {
	for i := at; i+len(w) <= len(src); i++ {
		if string(src[i:i+len(w)]) == w {
			return i
		}
	}
	return len(src)
}

func outline(rel string, lines []logical) *pyModule {
	m := &pyModule{rel: rel, lines: lines, funcs: map[string]*funcDef{}}
	type open struct {
		indent int
		cls    *classDef
	}
	var stack []open
	var pending []decorator
	for i := range m.lines {
		l := &m.lines[i]
		for len(stack) > 0 && stack[len(stack)-1].indent >= l.indent {
			stack = stack[:len(stack)-1]
		}
		toks := l.toks
		if len(toks) > 0 && toks[0].text == "async" {
			toks = toks[1:]
		}
		if len(toks) == 0 {
			continue
		}
		switch toks[0].text {
		case "@":
			name, rest := dotted(toks[1:])
			d := decorator{name: name, line: l.line, indent: l.indent}
			if len(rest) > 0 && rest[0].text == "(" {
				d.args = inside(rest)
			}
			pending = append(pending, d)
			continue
		case "class":
			if len(toks) < 2 || toks[1].kind != tkName {
				break
			}
			// Decorators of a def the outline skipped are still pending: only
			// those at the class's own indentation are its.
			var decos []decorator
			for _, d := range pending {
				if d.indent == l.indent {
					decos = append(decos, d)
				}
			}
			c := &classDef{name: toks[1].text, line: l.line, file: m, decos: decos}
			if len(toks) > 2 && toks[2].text == "(" {
				for _, arg := range splitArgs(inside(toks[2:])) {
					if len(arg) >= 2 && arg[1].text == "=" && arg[0].kind == tkName {
						continue // metaclass=..., keyword arguments
					}
					if name, _ := dotted(arg); name != "" {
						c.bases = append(c.bases, name)
					}
				}
			}
			m.classes = append(m.classes, c)
			stack = append(stack, open{indent: l.indent, cls: c})
		case "def":
			if len(toks) < 2 || toks[1].kind != tkName {
				break
			}
			f := &funcDef{name: toks[1].text, line: l.line}
			if inl := inlineBody(toks); len(inl) > 0 {
				f.body = []logical{{indent: l.indent + 1, line: inl[0].line, toks: inl}}
			} else {
				j := i + 1
				for j < len(m.lines) && m.lines[j].indent > l.indent {
					j++
				}
				f.body = m.lines[i+1 : j]
			}
			switch {
			case len(stack) == 0:
				m.funcs[f.name] = f
			case stack[len(stack)-1].cls != nil:
				c := stack[len(stack)-1].cls
				if c.methods == nil {
					c.methods = map[string]*funcDef{}
				}
				if _, dup := c.methods[f.name]; !dup {
					c.methods[f.name] = f
				}
			}
			stack = append(stack, open{indent: l.indent})
		default:
			if l.indent == 0 && len(stack) == 0 {
				m.moduleCall(l)
			}
			// A hook bound by assignment in a class body
			// (get_preferred_transceiver_runtime = Other.get_preferred_...):
			// read as a def returning that expression.
			if len(stack) > 0 && stack[len(stack)-1].cls != nil && len(toks) > 2 && toks[1].text == "=" &&
				(toks[0].text == hookRuntime || toks[0].text == hookKVManager) {
				c := stack[len(stack)-1].cls
				if c.methods == nil {
					c.methods = map[string]*funcDef{}
				}
				if _, dup := c.methods[toks[0].text]; !dup {
					ret := append([]token{{kind: tkName, text: "return", line: l.line}}, toks[2:]...)
					c.methods[toks[0].text] = &funcDef{name: toks[0].text, line: l.line,
						body: []logical{{indent: l.indent + 1, line: l.line, toks: ret}}}
				}
			}
		}
		pending = nil
	}
	return m
}

// moduleCall records register_auto_model("Arch")(ClassName) written as a
// statement rather than a decorator.
func (m *pyModule) moduleCall(l *logical) {
	name, rest := dotted(l.toks)
	if lastDot(name) != "register_auto_model" || len(rest) == 0 || rest[0].text != "(" {
		return
	}
	args := inside(rest)
	n := matchClose(rest)
	if len(args) != 1 || args[0].kind != tkString || !args[0].str.isConst() || n+1 >= len(rest) || rest[n+1].text != "(" {
		return
	}
	cls, _ := dotted(inside(rest[n+1:]))
	if cls != "" {
		m.calls = append(m.calls, registration{arch: args[0].str.value(), class: lastDot(cls), line: l.line})
	}
}

// dotted reads a dotted name (a.b.c) at the start of toks and returns it with
// the tokens after it; subscripts such as Generic[T] are skipped.
// A plain name (the usual base class or decorator) is the token's own text:
// no allocation.
func dotted(toks []token) (string, []token) {
	i, parts := 0, 0
	for i < len(toks) && toks[i].kind == tkName {
		parts++
		i++
		if i+1 < len(toks) && toks[i].text == "." && toks[i+1].kind == tkName {
			i++
			continue
		}
		break
	}
	name := ""
	switch {
	case parts == 1:
		name = toks[0].text
	case parts > 1:
		var b strings.Builder
		for _, t := range toks[:i] {
			b.WriteString(t.text)
		}
		name = b.String()
	}
	if i < len(toks) && toks[i].text == "[" {
		i += matchClose(toks[i:]) + 1
	}
	return name, toks[min(i, len(toks)):]
}

func lastDot(s string) string {
	if i := strings.LastIndexByte(s, '.'); i >= 0 {
		return s[i+1:]
	}
	return s
}

// matchClose returns the index of the bracket closing toks[0] (or the last index).
func matchClose(toks []token) int {
	depth := 0
	for i, t := range toks {
		if t.kind != tkOp {
			continue
		}
		switch t.text {
		case "(", "[", "{":
			depth++
		case ")", "]", "}":
			depth--
			if depth == 0 {
				return i
			}
		}
	}
	return len(toks) - 1
}

// inside returns the tokens between toks[0] (an opening bracket) and its match.
func inside(toks []token) []token {
	if len(toks) == 0 {
		return nil
	}
	n := matchClose(toks)
	if n <= 0 {
		return nil
	}
	return toks[1:n]
}

// splitArgs splits at top-level commas.
func splitArgs(toks []token) [][]token {
	var out [][]token
	depth, start := 0, 0
	for i, t := range toks {
		if t.kind != tkOp {
			continue
		}
		switch t.text {
		case "(", "[", "{":
			depth++
		case ")", "]", "}":
			depth--
		case ",":
			if depth == 0 {
				if i > start {
					out = append(out, toks[start:i])
				}
				start = i + 1
			}
		}
	}
	if start < len(toks) {
		out = append(out, toks[start:])
	}
	return out
}

// inlineBody returns the statement after the signature's ':' of a one-line def.
func inlineBody(toks []token) []token {
	depth := 0
	for i, t := range toks {
		if t.kind != tkOp {
			continue
		}
		switch t.text {
		case "(", "[", "{":
			depth++
		case ")", "]", "}":
			depth--
		case ":":
			if depth == 0 {
				return toks[i+1:]
			}
		}
	}
	return nil
}

// render writes tokens back as readable Python (spacing normalised).
func render(toks []token) string {
	var b strings.Builder
	for i, t := range toks {
		s := t.text
		if t.kind == tkString {
			s = pyQuote(t.str)
		}
		if i > 0 {
			prev := toks[i-1]
			noSpace := prev.text == "(" || prev.text == "[" || prev.text == "." || prev.text == "{" ||
				(prev.kind == tkOp && prev.text == "@") ||
				t.text == ")" || t.text == "]" || t.text == "}" || t.text == "," || t.text == "." || t.text == ":" ||
				((t.text == "(" || t.text == "[") && (prev.kind == tkName || prev.text == ")" || prev.text == "]"))
			if prev.kind == tkString || t.kind == tkString {
				noSpace = noSpace && !(prev.kind == tkString && t.kind == tkString)
			}
			if !noSpace {
				b.WriteByte(' ')
			}
		}
		b.WriteString(s)
		if b.Len() > 400 {
			b.WriteString(" …")
			break
		}
	}
	return b.String()
}

// pyQuote writes a decoded literal back with double quotes (f prefix kept).
func pyQuote(s *pyString) string {
	v := s.value()
	v = strings.ReplaceAll(v, `\`, `\\`)
	v = strings.ReplaceAll(v, `"`, `\"`)
	v = strings.ReplaceAll(v, "\n", `\n`)
	if s.fstr {
		return `f"` + v + `"`
	}
	return `"` + v + `"`
}

package audit

import (
	"fmt"
	"regexp"
	"strings"
	"sync"
)

// Shell functions: a launcher often holds one trtllm-serve line in a
// function (launch_worker() { local role=$1 ...; trtllm-serve ... & }) and
// calls it once per role. The reader follows each call as bash runs it: the
// body is read at the call, with $1..$N (and "$@", $#, shift) the call's
// arguments, local variables undone when it returns, and the environment
// the script has exported by then. A function no command calls is read
// where it is written, as before.

// Limits: a hostile script (f calls f, or each function calls the next
// twice) must not make work without end.
const (
	// maxFuncDepth bounds calls inside calls.
	maxFuncDepth = 8
	// maxFuncCalls bounds the calls followed over a whole set.
	maxFuncCalls = 4096
)

// funcDef is a function a script defines over several commands: the
// command that opens it (lo), the one that closes it (hi), and what its
// opening command holds after the { (f() { trtllm-serve ...).
type funcDef struct {
	name   string
	line   int
	lo, hi int
	head   string
	// size is the bytes of its body: each call reads them again, counted
	// in the set's script work.
	size int
}

// funcCall is a call of a function: its name, its arguments (expanded),
// and the NAME=VALUE words before it (bash exports them to the call).
type funcCall struct {
	name string
	args []string
	env  [][2]string
}

// frame is one call being read: where, and the variables its local words
// hid (restored when it returns).
type frame struct {
	name     string
	callLine int
	defLine  int
	saved    map[string]savedVar
	// loopNote says the call is inside a for loop over words, which xcvr
	// reads once.
	loopNote string
}

type savedVar struct {
	val      string
	meta     varMeta
	had, exp bool
}

// save remembers a variable's value before the call changes it for the
// call only (local NAME, NAME=VALUE f).
func (f *frame) save(v *shellVars, k string) {
	if _, ok := f.saved[k]; ok {
		return
	}
	val, had := v.val[k]
	f.saved[k] = savedVar{val: val, meta: v.meta[k], had: had, exp: v.exported[k]}
}

// restore undoes what save remembered.
func (f *frame) restore(v *shellVars) {
	for k, s := range f.saved {
		if s.had {
			v.val[k], v.meta[k] = s.val, s.meta
		} else {
			delete(v.val, k)
			delete(v.meta, k)
		}
		if s.exp {
			v.exported[k] = true
		} else {
			delete(v.exported, k)
		}
	}
	v.seq++
}

var reFuncOpen = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^\s*(?:function\s+([A-Za-z_][A-Za-z0-9_]*)\s*(?:\(\s*\))?|([A-Za-z_][A-Za-z0-9_]*)\s*\(\s*\))\s*(\{)?`)
})

// blockDelta is how many compound commands a command opens and closes, as
// script() counts them: if/for/while/case/{ and a function's name open,
// fi/done/esac/} close, each where a statement starts.
func blockDelta(words []string) int {
	d := 0
	stmt, openedHere := true, false
	for i, w := range words {
		switch {
		case isSep(w) || w == ";;":
			stmt = true
		case stmt && (w == "function" || strings.HasSuffix(w, "()") && isShellName(strings.TrimSuffix(w, "()"))):
			d++
			openedHere = true
			if w == "function" && i+1 < len(words) {
				stmt = false
			}
		case stmt && w == "{":
			if !openedHere {
				d++
			}
			openedHere = true
		case stmt && blockOpen[w]:
			d++
			openedHere = true
		case stmt && (blockClose[w] || w == "}"):
			d--
		case stmt && resumes[w]:
		default:
			stmt = false
		}
	}
	return d
}

// scanFuncs finds the functions a script defines: name() { ... } and
// function name { ... } whose } closes on a later command, or on the same
// one (f() { a; b; }).
func scanFuncs(cmds []shellCmd) map[int]funcDef {
	out := map[int]funcDef{}
	for i := 0; i < len(cmds); i++ {
		m := reFuncOpen().FindStringSubmatchIndex(cmds[i].text)
		if m == nil {
			continue
		}
		text := cmds[i].text
		var name string
		if m[2] >= 0 {
			name = text[m[2]:m[3]]
		} else {
			name = text[m[4]:m[5]]
		}
		d := funcDef{name: name, line: cmds[i].line, lo: i}
		start := i
		if m[6] < 0 {
			// The { on the next command alone: f()\n{
			if i+1 >= len(cmds) || strings.TrimSpace(cmds[i+1].text) != "{" || strings.TrimSpace(text[m[1]:]) != "" {
				continue
			}
			start = i + 1
		} else {
			d.head = text[m[1]:]
		}
		depth := 0
		if start > i {
			depth = 1 // f() counted on its own, the { with it
		}
		hi := -1
		for j := start; j < len(cmds); j++ {
			if j == start && start > i {
				continue
			}
			depth += blockDelta(shellWords(cmds[j].text))
			if j == i && start == i && depth <= 0 {
				// One command: f() { a; b; }
				hi = j
				h := strings.TrimSpace(d.head)
				h = strings.TrimSuffix(h, "}")
				d.head = strings.TrimSuffix(strings.TrimSpace(h), ";")
				break
			}
			if depth <= 0 {
				hi = j
				break
			}
		}
		if hi < 0 {
			continue // never closed: read where it is written
		}
		if hi == i {
			d.hi = i
		} else {
			d.hi = hi
			if start > i {
				d.head = ""
			}
		}
		for j := d.lo; j <= d.hi; j++ {
			d.size += len(cmds[j].text)
		}
		out[i] = d
		// Functions defined inside this one are found by the same scan.
	}
	return out
}

// funcCallsIn finds the calls of known functions in a command: a function's
// name where a statement starts (after NAME=VALUE words and a case
// pattern), and at the start of a $(...) substitution. text is the
// command as expanded, words its words.
func funcCallsIn(text string, words []string, known func(string) bool) []funcCall {
	var out []funcCall
	stmt := true
	for i := 0; i < len(words); i++ {
		w := words[i]
		switch {
		case isSep(w) || w == ";;":
			stmt = true
			continue
		case !stmt:
			continue
		case resumes[w] || blockOpen[w] && w != "for" && w != "case" && w != "select":
			continue
		case reAssign().MatchString(w) && !strings.Contains(w, "$("):
			continue
		case strings.HasSuffix(w, ")") && !strings.HasSuffix(w, "()") && !strings.Contains(w, "$(") && !strings.Contains(w, "="):
			continue // a case pattern: context)
		case known(w):
			c := funcCall{name: w}
			for j := i - 1; j >= 0 && reAssign().MatchString(words[j]); j-- {
				k, val, _ := strings.Cut(words[j], "=")
				c.env = append([][2]string{{k, val}}, c.env...)
			}
			c.args = callArgs(words[i+1:])
			out = append(out, c)
		}
		stmt = false
	}
	// $(f args): the substitution runs f (its output is what the caller
	// keeps; a worker it starts is a worker).
	for k := 0; k < len(text); {
		j := strings.Index(text[k:], "$(")
		if j < 0 {
			break
		}
		j += k + 2
		if strings.HasPrefix(text[j:], "(") { // $(( arithmetic ))
			k = j + 1
			continue
		}
		end := matchParen(text, j-1)
		if end < 0 {
			break
		}
		inner := shellWords(text[j:end])
		n := 0
		var env [][2]string
		for n < len(inner) && reAssign().MatchString(inner[n]) {
			kk, val, _ := strings.Cut(inner[n], "=")
			env = append(env, [2]string{kk, val})
			n++
		}
		if n < len(inner) && known(inner[n]) {
			out = append(out, funcCall{name: inner[n], args: callArgs(inner[n+1:]), env: env})
		}
		k = j
	}
	return out
}

// matchParen is the index of the ) that closes the ( at open, quotes and
// nested parentheses counted; -1 when none does.
func matchParen(s string, open int) int {
	depth := 0
	q := byte(0)
	for i := open; i < len(s); i++ {
		c := s[i]
		switch {
		case q == '\'':
			if c == '\'' {
				q = 0
			}
		case c == '\\':
			i++
		case q == '"' && c == '"':
			q = 0
		case q == 0 && (c == '\'' || c == '"'):
			q = c
		case c == '(':
			depth++
		case c == ')':
			depth--
			if depth == 0 {
				return i
			}
		}
	}
	return -1
}

// callArgs are a call's arguments: its words up to the end of the
// statement, redirections left out (> log 2>&1).
func callArgs(words []string) []string {
	out := []string{}
	for i := 0; i < len(words); i++ {
		w := words[i]
		if isSep(w) || w == ";;" {
			break
		}
		if reRedirect().MatchString(w) {
			if reRedirectAlone().MatchString(w) {
				i++ // > FILE: the next word is the file
			}
			continue
		}
		out = append(out, w)
	}
	return out
}

var reRedirect = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[0-9]*(>>?|<|>&|&>>?)`) })
var reRedirectAlone = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[0-9]*(>>?|<|&>>?)$`) })

// shellQuote quotes a word so that shellWords gives it back.
func shellQuote(s string) string {
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// allArgs is what "$@" (quoted) or $@ gives inside a call: each argument
// its own word (unquoted, split at blanks, an empty one dropped); "$*" is
// one word, the arguments joined by spaces. In a here-document's body
// both are the arguments joined by spaces.
func (v *shellVars) allArgs(inDouble, star bool) string {
	if v.doc || inDouble && star {
		return v.argText(strings.Join(v.args, " "), inDouble)
	}
	var b strings.Builder
	if inDouble {
		b.WriteByte('"')
	}
	for i, a := range v.args {
		if i > 0 {
			b.WriteByte(' ')
		}
		if inDouble {
			b.WriteString(shellQuote(a))
		} else {
			b.WriteString(v.argText(a, false))
		}
	}
	if inDouble {
		b.WriteByte('"')
	}
	return b.String()
}

var rePlainWord = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[A-Za-z0-9_./:,=@%+-]*$`) })

// argText is an argument's value as expansion writes it into a command's
// text, so that shellWords gives what bash does: inside double quotes its
// ", \, $ and ` escaped; outside them split at blanks, each field quoted.
// A plain value (a path, a port) is written as it is, and so is any value
// in a here-document's body.
func (v *shellVars) argText(val string, inDouble bool) string {
	if v.doc || rePlainWord().MatchString(val) {
		return val
	}
	if inDouble {
		var b strings.Builder
		for i := 0; i < len(val); i++ {
			if strings.IndexByte("\"\\$`", val[i]) >= 0 {
				b.WriteByte('\\')
			}
			b.WriteByte(val[i])
		}
		return b.String()
	}
	var fields []string
	for _, f := range strings.Fields(val) {
		fields = append(fields, shellQuote(f))
	}
	return strings.Join(fields, " ")
}

// expandDoc expands a here-document's body (<<EOF, not <<'EOF').
func (v *shellVars) expandDoc(text string) string {
	v.doc = true
	defer func() { v.doc = false }()
	return v.expand(text)
}

// callPath says where in the calls a command read inside them is: "in
// the function launch_worker (line 112), called in start_context, itself
// called at line 233". The innermost call's line is the worker's own.
func callPath(frames []*frame, bodyLine int) string {
	if len(frames) == 0 {
		return ""
	}
	s := fmt.Sprintf("in the function %s (line %d)", frames[len(frames)-1].name, bodyLine)
	for i := len(frames) - 2; i >= 0; i-- {
		s += fmt.Sprintf(", called in %s, itself called at line %d", frames[i].name, frames[i].callLine)
	}
	return s
}

// calledFuncs are the functions some command calls outside their own
// body: those are read at their calls, the others where they are written.
func calledFuncs(cmds []shellCmd, funcs map[int]funcDef) map[string]bool {
	byName := map[string]funcDef{}
	for _, d := range funcs {
		byName[d.name] = d
	}
	out := map[string]bool{}
	if len(byName) == 0 {
		return out
	}
	known := func(w string) bool { _, ok := byName[w]; return ok }
	for i, cmd := range cmds {
		text := cmd.text
		if d, ok := funcs[i]; ok && d.head != "" {
			text = d.head
		}
		for _, c := range funcCallsIn(text, shellWords(text), known) {
			if d := byName[c.name]; i < d.lo || i > d.hi {
				out[c.name] = true
			}
		}
	}
	return out
}

package audit

import (
	"fmt"
	"path"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"

	"xcvr/internal/deploy"
)

// A shell script (an sbatch script, a launch script) is read the way an
// operator reads it: each command that runs trtllm-serve or dynamo.trtllm —
// directly, behind srun, mpirun or trtllm-llmapi-launch, or inside
// bash -c "..." — is a worker. Nothing is run: variables the script assigns
// (NAME=VALUE, export NAME=VALUE, ${NAME:-default}) are expanded in the
// order the script sets them; what it takes from its arguments or the
// environment stays as written. A here-document the script writes
// (cat > PATH << EOF), or what echo and printf write (echo -e "..." > PATH,
// echo.go), is a file of the set at PATH.

// Limits: a script is at most the guard's 256 MiB; these bound what
// expansion can make of it (NAME=$NAME$NAME doubles a value each line).
const (
	maxShellValue  = 64 << 10 // one variable's value
	maxShellExpand = 1 << 20  // one command after expansion
	maxShellVars   = 10000
	// maxExpandTotal bounds what expansion adds over a whole set (a
	// million here-documents each $A of 64 KiB); past it, text stays as
	// written.
	maxExpandTotal = 64 << 20
	// maxScriptWork bounds the bytes of scripts read through calls (a
	// script whose every line runs another of the set).
	maxScriptWork = 256 << 20
)

// isScriptName reports whether a file's name says it is a shell script.
func isScriptName(name string) bool {
	switch path.Ext(name) {
	case ".sh", ".bash", ".slurm", ".sbatch":
		return true
	}
	return false
}

// scriptFile is a shell script of the set, read once every file is in
// (its workers' configs are files of the set).
type scriptFile struct {
	file string
	data []byte
}

// shellCmd is one command of a script: its lines joined (a backslash
// continuation, a quoted string over several lines).
type shellCmd struct {
	line int
	text string
	// heredocs are the here-documents its << operators read.
	heredocs []hereDoc
}

// hereDoc is the text a << operator feeds a command.
type hereDoc struct {
	// line is the line of the body's first line.
	line   int
	body   string
	quoted bool // <<'EOF': no expansion in the body
}

// heredocOp is one << operator of a command: its delimiter, whether
// it was quoted (no expansion in the body) and whether it is <<-.
type heredocOp struct {
	delim         string
	quoted, strip bool
}

// heredocOps finds a command's << operators outside quotes (a << inside
// bash -c '...' is the inner script's), not <<< here-strings.
func heredocOps(text string) []heredocOp {
	var out []heredocOp
	q := byte(0)
	for i := 0; i < len(text); i++ {
		c := text[i]
		switch {
		case q != 0:
			if c == '\\' && q == '"' {
				i++
			} else if c == q {
				q = 0
			}
		case c == '\\':
			i++
		case c == '\'' || c == '"':
			q = c
		case c == '<' && strings.HasPrefix(text[i:], "<<") && !strings.HasPrefix(text[i:], "<<<") && (i == 0 || text[i-1] != '<'):
			j := i + 2
			op := heredocOp{}
			if j < len(text) && text[j] == '-' {
				op.strip = true
				j++
			}
			for j < len(text) && (text[j] == ' ' || text[j] == '\t') {
				j++
			}
			if j < len(text) && (text[j] == '\'' || text[j] == '"') {
				op.quoted = true
				j++
			}
			k := j
			for k < len(text) && (text[k] == '_' || text[k] >= 'A' && text[k] <= 'Z' || text[k] >= 'a' && text[k] <= 'z' || k > j && text[k] >= '0' && text[k] <= '9') {
				k++
			}
			if k > j {
				op.delim = text[j:k]
				if k < len(text) && (text[k] == '\'' || text[k] == '"') {
					op.quoted = true
					k++
				}
				out = append(out, op)
			}
			i = k - 1
		}
	}
	return out
}

// splitScript cuts a script into its commands: comments dropped, backslash
// continuations and quoted newlines joined, here-document bodies attached to
// the command that reads them.
func splitScript(text string) []shellCmd {
	lines := strings.Split(text, "\n")
	var out []shellCmd
	var cur strings.Builder
	start := 0
	const (
		none = iota
		single
		double
	)
	q := none
	arrayOpen := false
	for i := 0; i < len(lines); i++ {
		ln := strings.TrimSuffix(lines[i], "\r")
		if cur.Len() == 0 {
			start = i + 1
		}
		// Scan the line for quotes and a comment.
		cut := len(ln)
		for j := 0; j < len(ln); j++ {
			c := ln[j]
			switch q {
			case single:
				if c == '\'' {
					q = none
				}
			case double:
				if c == '\\' {
					j++
				} else if c == '"' {
					q = none
				}
			default:
				switch {
				case c == '\\':
					j++
				case c == '\'':
					q = single
				case c == '"':
					q = double
				case c == '#' && (j == 0 || ln[j-1] == ' ' || ln[j-1] == '\t' || ln[j-1] == ';'):
					cut = j
					j = len(ln)
				}
			}
		}
		ln = ln[:cut]
		if q != none {
			cur.WriteString(ln + "\n")
			continue
		}
		if trailing := len(ln) - len(strings.TrimRight(ln, "\\")); trailing%2 == 1 {
			cur.WriteString(ln[:len(ln)-1] + " ")
			continue
		}
		// An array assignment over several lines (ARGS=(, a word a line,
		// then )): one command, as bash reads it.
		if m := reArrayOpen().FindStringIndex(ln); cur.Len() == 0 && m != nil && !strings.Contains(ln[m[1]:], ")") || arrayOpen {
			cur.WriteString(ln + " ")
			arrayOpen = !(arrayOpen && strings.Contains(ln, ")"))
			if arrayOpen {
				continue
			}
			ln = ""
		}
		cur.WriteString(ln)
		cmd := shellCmd{line: start, text: cur.String()}
		cur.Reset()
		for _, op := range heredocOps(cmd.text) {
			strip, delim := op.strip, op.delim
			h := hereDoc{line: i + 2, quoted: op.quoted}
			var body strings.Builder
			for i++; i < len(lines); i++ {
				b := strings.TrimSuffix(lines[i], "\r")
				if strip {
					b = strings.TrimLeft(b, "\t")
				}
				if b == delim {
					break
				}
				body.WriteString(b + "\n")
			}
			h.body = body.String()
			cmd.heredocs = append(cmd.heredocs, h)
		}
		if strings.TrimSpace(cmd.text) != "" || len(cmd.heredocs) > 0 {
			out = append(out, cmd)
		}
	}
	if cur.Len() > 0 {
		out = append(out, shellCmd{line: start, text: cur.String()})
	}
	return out
}

// shellVars are a script's variables as it runs down: values and which are
// exported (a child process's environment).
type shellVars struct {
	val      map[string]string
	meta     map[string]varMeta
	exported map[string]bool
	// args are the script's positional parameters ($1 ...) when a script of
	// the set runs it; nil when it is run from outside.
	args []string
	// argsExact says args are all there is (a function's call): an
	// argument past them is empty, as bash has it.
	argsExact bool
	// doc says a here-document's body is being expanded: an argument is
	// its text, not quoted for shellWords.
	doc bool
	seq int
	// budget, when not nil, is what expansion may still add (shared by
	// the set's scripts).
	budget *int64
	// exports caches sortedExports until a variable is set again.
	exports    []string
	exportsSeq int
	exportsOK  bool
	// arrayMaybe holds, for each array the script sets, every word it may
	// hold (its assignments and additions, under any condition); subst,
	// for each variable set from a command's output ($(...)), where and
	// from what: neither is known, and a warning says so (shellarray.go).
	arrayMaybe map[string]string
	subst      map[string]substSet
	// unknown are the variables an append made unknown (NAME+=VALUE where
	// the reader cannot tell whether or how often it ran): a later append
	// leaves them unknown, an assignment sets them again.
	unknown map[string]bool
}

// substSet is where a variable was set from a command's output, and its
// value as written there.
type substSet struct{ at, text string }

// varMeta says where a variable was set: its origin (FILE:LINE), the
// origin of the block it was set in ("" when none), and the order.
type varMeta struct {
	origin, cond string
	seq          int
	// unsure says the value is one branch's guess: set under an if or
	// case xcvr does not decide, or in a loop it does not run (the last
	// assignment read wins there, not the one bash ran), so an if does
	// not decide a test on it.
	unsure bool
}

func newShellVars() *shellVars {
	return &shellVars{val: map[string]string{}, meta: map[string]varMeta{}, exported: map[string]bool{}}
}

// set assigns a variable, or forgets it when its value is not known or too
// large; appending adds to the value (NAME+=VALUE).
// forget makes k's value unknown: an append xcvr cannot count (under a
// condition or in a loop it does not decide) leaves no value it could say.
func (v *shellVars) forget(k string) {
	delete(v.val, k)
	delete(v.meta, k)
	if v.unknown == nil {
		v.unknown = map[string]bool{}
	}
	v.unknown[k] = true
	v.seq++
}

func (v *shellVars) set(k, val, origin, cond string, appending bool) {
	if appending && v.unknown[k] {
		return
	}
	if !appending {
		delete(v.unknown, k)
	}
	if appending {
		val = v.val[k] + val
	}
	if len(val) > maxShellValue || len(v.val) >= maxShellVars && v.val[k] == "" || strings.Contains(val, "$(") || strings.Contains(val, "`") {
		delete(v.val, k)
		if (strings.Contains(val, "$(") || strings.Contains(val, "`")) && len(val) <= maxShellValue {
			if v.subst == nil {
				v.subst = map[string]substSet{}
			}
			v.subst[k] = substSet{at: origin, text: val}
		}
		v.seq++
		return
	}
	delete(v.subst, k)
	v.seq++
	v.val[k], v.meta[k] = val, varMeta{origin: origin, cond: cond, seq: v.seq}
}

// expand does what the shell does with $NAME, ${NAME} and ${NAME:-default}
// (also -, := and =) in text outside single quotes, for the variables the
// script has set; anything else ($1, $(...), a variable it never set) stays
// as written.
func (v *shellVars) expand(text string) string {
	if !strings.Contains(text, "$") || v.budget != nil && *v.budget <= 0 {
		return text
	}
	out := v.expandText(text)
	if v.budget != nil && len(out) > len(text) {
		*v.budget -= int64(len(out) - len(text))
	}
	return out
}

func (v *shellVars) expandText(text string) string {
	var b strings.Builder
	inSingle, inDouble := false, false
	for i := 0; i < len(text); i++ {
		c := text[i]
		if b.Len() > maxShellExpand {
			b.WriteString(text[i:])
			return b.String()
		}
		switch {
		case c == '\'' && !inDouble:
			inSingle = !inSingle
		case c == '"' && !inSingle:
			inDouble = !inDouble
		case c == '\\' && !inSingle && i+1 < len(text):
			b.WriteByte(c)
			i++
			c = text[i]
		case c == '$' && !inSingle && strings.HasPrefix(text[i:], "$(("):
			// $((8001+i)): its value when every name in it is known
			// (shellloop.go's arith), else as written.
			if end := matchParen(text, i+1); end > i+3 && text[end-1] == ')' {
				if n, ok := arith(v.expandText(text[i+3:end-1]), v); ok {
					b.WriteString(strconv.Itoa(n))
					i = end
					continue
				}
			}
		case c == '$' && !inSingle && i+1 < len(text):
			if text[i+1] == '{' {
				end := matchBrace(text, i+1)
				if end < 0 {
					break
				}
				inner := text[i+2 : end]
				// ${NAME^^} and ${NAME,,}: its value in upper or lower case
				// (--server_role ${role^^}).
				if n, ok := strings.CutSuffix(inner, "^^"); ok && isShellName(n) {
					if val, ok := v.val[n]; ok {
						b.WriteString(strings.ToUpper(val))
						i = end
						continue
					}
				}
				if n, ok := strings.CutSuffix(inner, ",,"); ok && isShellName(n) {
					if val, ok := v.val[n]; ok {
						b.WriteString(strings.ToLower(val))
						i = end
						continue
					}
				}
				name, def, hasDef, colon := inner, "", false, false
				if k := strings.IndexAny(inner, ":-="); k > 0 {
					name = inner[:k]
					colon = inner[k] == ':'
					op := strings.TrimPrefix(inner[k:], ":")
					if len(op) > 0 && (op[0] == '-' || op[0] == '=') {
						def, hasDef = op[1:], true
					} else {
						name = "" // ${NAME:+x}, ${NAME:0:3}: not expanded
					}
				}
				if n, err := strconv.Atoi(name); err == nil && n >= 1 && (n <= len(v.args) || v.argsExact) {
					// An argument; past the call's arguments it is unset.
					val, set := "", n <= len(v.args)
					if set {
						val = v.args[n-1]
					}
					if hasDef && (!set || colon && val == "") {
						b.WriteString(v.expand(def))
					} else {
						b.WriteString(v.argText(val, inDouble))
					}
					i = end
					continue
				}
				if (inner == "@" || inner == "*") && v.argsExact {
					b.WriteString(v.allArgs(inDouble, inner == "*"))
					i = end
					continue
				}
				if isShellName(name) {
					// ${NAME:-x} takes x when NAME is empty too; ${NAME-x} only
					// when it is unset.
					if val, ok := v.val[name]; ok && !(colon && val == "" && hasDef) {
						b.WriteString(val)
						i = end
						continue
					}
					// ${NAME:-} takes the caller's NAME: not known here.
					if hasDef && def != "" {
						b.WriteString(v.expand(def))
						i = end
						continue
					}
				}
			} else if d := text[i+1]; d >= '1' && d <= '9' && (int(d-'0') <= len(v.args) || v.argsExact) {
				if int(d-'0') <= len(v.args) {
					b.WriteString(v.argText(v.args[d-'1'], inDouble))
				}
				i++
				continue
			} else if (d == '@' || d == '*') && v.argsExact {
				b.WriteString(v.allArgs(inDouble, d == '*'))
				i++
				continue
			} else if d == '#' && v.argsExact {
				b.WriteString(strconv.Itoa(len(v.args)))
				i++
				continue
			} else {
				j := i + 1
				for j < len(text) && (text[j] == '_' || text[j] >= 'A' && text[j] <= 'Z' || text[j] >= 'a' && text[j] <= 'z' || j > i+1 && text[j] >= '0' && text[j] <= '9') {
					j++
				}
				if val, ok := v.val[text[i+1:j]]; ok && j > i+1 {
					b.WriteString(val)
					i = j - 1
					continue
				}
			}
		}
		b.WriteByte(c)
	}
	return b.String()
}

// matchBrace is the index of the } that closes the { at open, nested ${...}
// counted; -1 when none does.
func matchBrace(s string, open int) int {
	depth := 0
	for i := open; i < len(s); i++ {
		switch s[i] {
		case '{':
			depth++
		case '}':
			depth--
			if depth == 0 {
				return i
			}
		}
	}
	return -1
}

func isShellName(s string) bool { return reName().MatchString(s) }

// reArgRef finds an argument ($1, ${2}, $@, $*) left as written: the
// script is run from outside, without the arguments.
var reArgRef = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`\$\{?[1-9@*]`) })

var reName = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*$`) })

// blockOpen and blockClose are the words that open and close a compound
// command: what runs inside depends on a condition or a loop.
var blockOpen = map[string]bool{"if": true, "case": true, "for": true, "while": true, "until": true, "select": true}
var blockClose = map[string]bool{"fi": true, "esac": true, "done": true}

// resumes are words after which the next word starts a command again.
var resumes = map[string]bool{"then": true, "do": true, "else": true, "elif": true, "{": true, "(": true, "!": true}

// block is an open compound command: its first line and the word that
// opened it (if, for, a function's name).
type block struct {
	line int
	word string
	// loopVar and loopWords are a for loop's NAME and the words it runs
	// over (for r in CONTEXT GENERATION): xcvr reads its body once.
	loopVar, loopWords string
	// ran, for a for loop xcvr runs (shellloop.go), is the words it runs
	// over, as the notes show them.
	ran string
	// state, for an if, is whether the branch being read runs when the
	// reader decides its condition (testCond): 1 it does, -1 it does not,
	// 0 not known; taken says an earlier branch ran.
	state int8
	taken bool
	// branch, test and written, for an if whose branch being read runs
	// (state 1), are that branch's line and the test that decided it, as
	// expanded and as written ("" for an else), as the notes show them.
	branch        int
	test, written string
}

// decided reports whether b is an if whose branch being read is the one
// bash runs, as the reader decided it (testCond).
func (b block) decided() bool { return b.word == "if" && b.state == 1 }

// deadIn reports whether blocks are inside a branch of an if that bash
// does not run, as the reader decided it: its commands are not read.
func deadIn(blocks []block) bool {
	for i := range blocks {
		if blocks[i].word == "if" && blocks[i].state == -1 {
			return true
		}
	}
	return false
}

// inUnrunLoop reports whether blocks are inside a loop xcvr does not run
// (a while, until or select loop, or a for loop it reads once): its body is
// read once for all its iterations.
func inUnrunLoop(blocks []block) bool {
	for _, b := range blocks {
		switch b.word {
		case "while", "until", "select":
			return true
		case "for":
			if b.ran == "" {
				return true
			}
		}
	}
	return false
}

// undecided is the innermost of blocks that is not an if branch the reader
// decided runs: what a command's running still depends on; nil when none.
func undecided(blocks []block) *block {
	for i := len(blocks) - 1; i >= 0; i-- {
		if !blocks[i].decided() {
			return &blocks[i]
		}
	}
	return nil
}

// condOrigin is where the block a command's running depends on opens
// (FILE:LINE), "" when it depends on none.
func condOrigin(file string, blocks []block) string {
	if u := undecided(blocks); u != nil {
		return origin(file, u.line)
	}
	return ""
}

// blockNotes say what a command inside blocks depends on: the innermost
// block's note, and when that is an if branch the reader decided runs,
// the note of the block it still depends on.
func blockNotes(file string, blocks []block) []string {
	if len(blocks) == 0 {
		return nil
	}
	top := blocks[len(blocks)-1]
	notes := []string{top.note(file)}
	if u := undecided(blocks); top.decided() && u != nil {
		notes = append(notes, u.note(file))
	}
	return notes
}

// ifTest is the test of the if or elif at words[i] as the notes show it:
// its words up to then, as expanded and as written (raw, the command's
// text): [[ ray == ray ]] and [[ $BACKEND == ray ]].
func ifTest(raw string, words []string, i int) (exp, written string) {
	join := func(ws []string) string {
		var c []string
		for _, w := range ws {
			if w == "then" {
				break
			}
			if w != ";" {
				c = append(c, w)
			}
		}
		return strings.Join(c, " ")
	}
	exp = join(words[i+1:])
	// The same if or elif among the words as written: the n-th of them.
	n := 0
	for _, w := range words[:i] {
		if w == words[i] {
			n++
		}
	}
	rw := shellWords(raw)
	for k, w := range rw {
		if w != words[i] {
			continue
		}
		if n == 0 {
			return exp, join(rw[k+1:])
		}
		n--
	}
	return exp, exp
}

// unsureIn reports whether a value set inside blocks is one branch's
// guess: under an if or case xcvr does not decide, or in a loop it does
// not run.
func unsureIn(blocks []block) bool {
	for _, b := range blocks {
		if b.word == "if" && b.state == 0 || b.word == "case" {
			return true
		}
	}
	return inUnrunLoop(blocks)
}

// testsUnsure reports whether the if or elif at words[i] tests a variable
// whose value is a guess (varMeta.unsure): testCond would decide on it.
func testsUnsure(raw string, words []string, i int, v *shellVars) bool {
	_, written := ifTest(raw, words, i)
	for _, name := range varRefs(written) {
		if v.meta[name].unsure {
			return true
		}
	}
	return false
}

// varRefs is the names of the variables s refers to ($NAME, ${NAME...}),
// each once, in their order.
func varRefs(s string) []string {
	var names []string
	seen := map[string]bool{}
	for _, m := range reVarRef().FindAllStringSubmatch(s, -1) {
		if n := m[1] + m[2]; !seen[n] {
			seen[n] = true
			names = append(names, n)
		}
	}
	return names
}

// reVarRef finds $NAME and ${NAME...} in a test as written.
var reVarRef = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`\$(?:([A-Za-z_][A-Za-z0-9_]*)|\{([A-Za-z_][A-Za-z0-9_]*))`)
})

// appendRuns says whether an append inside blocks runs: -1 not (under a
// branch of an if whose conditions xcvr decided, testCond, that does not
// run), 0 an unknown number of times (in a while, until or select loop, or
// a for loop it does not run, a C-style for ((...)) among them), else 1:
// once (an if or case it does not decide is taken, as its other commands
// are).
func appendRuns(blocks []block) int {
	if deadIn(blocks) {
		return -1
	}
	if inUnrunLoop(blocks) {
		return 0
	}
	return 1
}

// note says what a command inside the block depends on.
func (b block) note(file string) string {
	switch {
	case b.decided() && b.test == "":
		return fmt.Sprintf("it is inside the if at %s, in its else (line %d), which bash runs: each test before it is false with the values the script sets; xcvr read no other branch", origin(file, b.line), b.branch)
	case b.decided() && b.written != b.test:
		return fmt.Sprintf("it is inside the if at %s, in the branch bash runs: %s (line %d) is %s with the values the script sets, true; xcvr read no other branch", origin(file, b.line), b.written, b.branch, b.test)
	case b.decided():
		return fmt.Sprintf("it is inside the if at %s, in the branch bash runs: %s (line %d) is true; xcvr read no other branch", origin(file, b.line), b.test, b.branch)
	}
	switch b.word {
	case "if", "case":
		return fmt.Sprintf("it is inside the %s at %s: whether it runs is the script's condition", b.word, origin(file, b.line))
	case "for", "while", "until", "select":
		if b.ran != "" {
			return fmt.Sprintf("it is inside the for loop at %s, which xcvr ran once for each of %s", origin(file, b.line), b.ran)
		}
		return fmt.Sprintf("it is inside the %s loop at %s: how many run is the loop's", b.word, origin(file, b.line))
	case "{":
		return fmt.Sprintf("it is inside the { } group at %s", origin(file, b.line))
	}
	return fmt.Sprintf("it is inside the function %s at %s: it runs where the script calls it", b.word, origin(file, b.line))
}

// scriptCall is a script of the set run by another: the caller's
// environment (exported variables and the command's own NAME=VALUE words),
// the arguments, and where it was run from.
type scriptCall struct {
	env   *shellVars
	args  []string
	from  string // "srun_disaggregated.sh:66"
	stack []string
	// note says the call is inside a condition or loop of the caller.
	note string
	// mounted, when not nil, finds a config path in the pod that runs the
	// script (a ConfigMap mounted there): ok when found, why when the
	// mount is there but wrong.
	mounted func(p string) (root *deploy.Node, locate func(int) string, name, where, why string, ok bool)
}

// runsArgs reports whether a command runs its function's arguments as a
// command ("$@", $@, "${@}" first).
func runsArgs(text string) bool {
	t := strings.TrimSpace(text)
	for _, p := range []string{`"$@"`, `$@`, `"${@}"`, `${@}`} {
		if strings.HasPrefix(t, p) {
			return true
		}
	}
	return false
}

// mountedIn looks p up in the pod a script runs in, when it runs in one.
func mountedIn(call *scriptCall, p string) (root *deploy.Node, locate func(int) string, name, where, why string, ok bool) {
	if call == nil || call.mounted == nil || p == "" || strings.Contains(p, "$") {
		return nil, nil, "", "", "", false
	}
	return call.mounted(path.Clean(p))
}

// maxScriptDepth bounds scripts running scripts (a.sh runs b.sh runs ...).
const maxScriptDepth = 4

// scriptBases maps the base names of the set's scripts to them.
func (r *reader) scriptBases() map[string]scriptFile {
	m := map[string]scriptFile{}
	for _, sf := range r.scripts {
		m[path.Base(sf.file)] = sf
	}
	return m
}

// readScripts reads the set's scripts: those no other script of the set
// runs, each with the scripts it runs (as they run them).
func (r *reader) readScripts() {
	bases := r.scriptBases()
	called := map[string]bool{}
	for _, sf := range r.scripts {
		for _, cmd := range splitScript(string(sf.data)) {
			for _, w := range shellWords(cmd.text) {
				if b := path.Base(w); bases[b].file != "" && b != path.Base(sf.file) {
					called[bases[b].file] = true
				}
			}
		}
	}
	roots := 0
	for _, sf := range r.scripts {
		if !called[sf.file] {
			roots++
			r.script(sf, nil)
		}
	}
	if roots == 0 {
		// Scripts that only run each other: read each on its own.
		for _, sf := range r.scripts {
			r.script(sf, nil)
		}
	}
}

// script reads one shell script of the set; call, when not nil, is how
// another script of the set runs it. It reports whether a command runs
// trtllm-serve or dynamo.trtllm.
func (r *reader) script(sf scriptFile, call *scriptCall) bool {
	file := sf.file
	if r.scriptWork += len(sf.data); call != nil && r.scriptWork > maxScriptWork {
		if !r.scriptWorkNoted {
			r.scriptWorkNoted = true
			r.set.Warnings = append(r.set.Warnings, fmt.Sprintf("%s: scripts of the set run other scripts more than %d MiB of them; the calls after this one were not followed", call.from, maxScriptWork>>20))
		}
		return false
	}
	v := newShellVars()
	v.budget = &r.expandLeft
	var stack []string
	if call != nil {
		for k, val := range call.env.val {
			if call.env.exported[k] {
				v.val[k], v.meta[k], v.exported[k] = val, call.env.meta[k], true
			}
		}
		v.seq, v.args, stack = call.env.seq, call.args, call.stack
	}
	stack = append(stack, file)
	posixSh := shebangSh(sf.data)
	type written struct {
		target string
		doc    hereDoc
		cmd    int
		// how is "" for a here-document, else the echo or printf that
		// wrote the file; lines are then the script line of each of its
		// lines (a file built by >> appends) and buf its text.
		how   string
		lines []int
		buf   []byte
		// added says each later addition (>>); notes those made under a
		// condition; overflow is a file grown past maxEchoFile.
		added    []string
		notes    []string
		overflow bool
		// via says the call that wrote it, when a function did.
		via string
	}
	var docs []written
	// unwritten are the additions (>>) to files the script did not write,
	// warned of when a worker reads the set's file at that path.
	type unwrittenAdd struct {
		target, warning string
		said            bool
	}
	var unwritten []unwrittenAdd
	// frames are the function calls being read (shellfunc.go).
	var frames []*frame
	docByPath, docByBase, docByBaseVar := map[string]int{}, map[string]int{}, map[string]int{}
	// record notes a file the script writes (appending: adds to it). A
	// file it adds to is kept as one growing text, each line's script
	// line beside it; past maxEchoFile it is not read.
	record := func(target, text string, appending bool, how string, lines []int, cmdLine int, under *block, h hereDoc) {
		if di, ok := docByPath[hostPath(target)]; ok && appending {
			prev := &docs[di]
			if prev.overflow {
				return
			}
			if len(prev.doc.body)+len(prev.buf)+len(text) > maxEchoFile {
				prev.overflow, prev.buf, prev.lines = true, nil, nil
				return
			}
			if under != nil {
				// "the here-document at x.sh:77 that adds to dsr1-fp4.yml
				// is inside the if at x.sh:76: ...; taken as added"
				prev.notes = append(prev.notes, fmt.Sprintf("the %s at %s that adds to %s %s; taken as added", describeWrite(how), origin(file, cmdLine), path.Base(target), strings.TrimPrefix(under.note(file), "it ")))
			}
			if prev.buf == nil {
				// The first addition to a here-document: one text from
				// here on, grown in place (earlier commands read it as it
				// was).
				prev.buf = append([]byte(nil), prev.doc.body...)
				prev.lines = bodyLines(prev.doc.body, prev.doc.line)
			}
			prev.buf = append(prev.buf, text...)
			prev.lines = append(prev.lines, lines...)
			prev.added = append(prev.added, fmt.Sprintf("%s >> (%s)", describeWrite(how), origin(file, cmdLine)))
			return
		}
		if appending {
			// Added to a file the script did not write: its earlier text is
			// not the script's (a file of the node, or of the set as given).
			// Said when a worker's config is the set's file at that path: a
			// script's `echo "$!" >> "$PID_FILE"` or `>> run.log` is no
			// config.
			unwritten = append(unwritten, unwrittenAdd{target: target,
				warning: fmt.Sprintf("%s: %s >> %s adds to a file the script did not write; a file of the set at that path is read as given, without the addition", origin(file, cmdLine), describeWrite(how), target)})
			return
		}
		if len(text) > maxEchoFile {
			return
		}
		d := written{target: target, doc: h, cmd: cmdLine, how: how}
		if len(frames) > 0 {
			f := frames[len(frames)-1]
			d.via = fmt.Sprintf(", in the function %s called at line %d", f.name, f.callLine)
		}
		if how != "" {
			d.buf, d.lines = []byte(text), lines
		}
		docs = append(docs, d)
		n := len(docs) - 1
		docByPath[hostPath(target)], docByBase[path.Base(target)] = n, n
		if strings.Contains(target, "$") {
			docByBaseVar[path.Base(target)] = n
		}
	}
	// findDoc is the latest file the script wrote to path want before this
	// line (by base name when either path holds a variable): indexed, so a
	// script of many here-documents and commands stays linear.
	findDoc := func(want string) (int, bool) {
		di, ok := docByPath[hostPath(want)]
		if !ok && strings.Contains(want, "$") {
			di, ok = docByBase[path.Base(want)]
		} else if !ok {
			di, ok = docByBaseVar[path.Base(want)]
		}
		return di, ok
	}
	var blocks []block // the open compound commands
	var runs []string
	runsSeen := map[string]bool{}
	evalAt := 0 // the first eval
	found := false
	cmds := splitScript(string(sf.data))
	funcs := scanFuncs(cmds)
	called := calledFuncs(cmds, funcs)
	defined := map[string]funcDef{}
	// seen holds the workers read inside calls, by body line, command and
	// environment: the same call reached from two branches of a case is
	// one worker.
	seen := map[string]*Worker{}
	// sourced lists the files the script sources (source F, . F), as
	// written, with their lines: what they set is not read.
	var sourced []string
	// barrier counts the script's wait and kill commands read so far:
	// servers started on either side of one do not run side by side.
	barrier := 0
	var runRange func(lo, hi int)
	// iters are the bindings of the loops being run (r=CONTEXT), ranLoops
	// names the innermost, ranHere is the words of the loop whose head is
	// being read; loopAt caches findLoop.
	var iters []string
	var ranLoops, ranHere string
	var runLoop func(fl forLoop) bool
	loopAt := newLoopCache()
	var callFunc func(c funcCall, cmd shellCmd, lineLoop block)
	step := func(cmd shellCmd) {
		if m := reArrayAssign().FindStringSubmatch(cmd.text); m != nil && !deadIn(blocks) {
			arrayAssign(v, m[1], m[2] == "+", m[3], origin(file, cmd.line), file, blocks)
		}
		arrayText, unreadArrays, usedArrays := substArrays(cmd.text, v)
		text := v.expand(arrayText)
		words := shellWords(text)
		if len(words) > 1 && (words[0] == "source" || words[0] == ".") && !deadIn(blocks) {
			sourced = append(sourced, fmt.Sprintf("%s (%s)", words[1], origin(file, cmd.line)))
		}
		// Here-document bodies expand with the variables as the line
		// starts; the files are recorded after its words are read, once
		// it is known which of its statements run.
		var docBodies []string
		if len(cmd.heredocs) > 0 {
			if t, _ := redirectOp(words); t != "" {
				for _, h := range cmd.heredocs {
					if !h.quoted {
						h.body = v.expandDoc(h.body)
					}
					docBodies = append(docBodies, h.body)
				}
			}
		}
		// under is what a file's addition (>>) on this line depends on.
		var under *block
		if u := undecided(blocks); u != nil {
			b := *u
			under = &b
		}
		// Assignments, exports, blocks, in statement order.
		stmt := true
		exporting, declaring, localizing := false, false, false
		// lineLoop is a for loop this command opens (and may close: for
		// r in a b; do f $r; done).
		var lineLoop block
		// dropped marks the words under an if branch bash does not run
		// (nil when none is): they start no worker and write no file.
		var dropped []bool
		for i, w := range words {
			dead := deadIn(blocks)
			if dead && !isSep(w) && w != ";;" {
				if dropped == nil {
					dropped = make([]bool, len(words))
				}
				dropped[i] = true
			}
			switch {
			case isSep(w) || w == ";;":
				stmt, exporting, declaring, localizing = true, false, false, false
				continue
			case stmt && (blockOpen[w] || w == "{" || w == "function" || strings.HasSuffix(w, "()") && isShellName(strings.TrimSuffix(w, "()"))):
				word := strings.TrimSuffix(w, "()")
				if w == "function" && i+1 < len(words) {
					word = strings.TrimSuffix(words[i+1], "()")
				}
				if w != "{" || len(blocks) == 0 || blocks[len(blocks)-1].line != cmd.line {
					b := block{line: cmd.line, word: word}
					if w == "for" && ranHere != "" {
						// The loop runLoop is running: NAME is bound.
						b.ran, ranHere = ranHere, ""
						lineLoop = b
					} else if w == "if" {
						// Inside a loop xcvr reads once, the test may
						// differ from one iteration to the next: not
						// decided.
						if !inUnrunLoop(blocks) && !testsUnsure(cmd.text, words, i, v) {
							b.state = testCond(words[i+1:])
						}
						b.taken = b.state == 1
						if b.taken {
							b.branch = cmd.line
							b.test, b.written = ifTest(cmd.text, words, i)
						}
					} else if w == "for" && i+2 < len(words) && words[i+2] == "in" {
						var over []string
						for _, o := range words[i+3:] {
							if isSep(o) || o == "do" {
								break
							}
							over = append(over, o)
						}
						b.loopVar, b.loopWords = words[i+1], strings.Join(over, " ")
						lineLoop = b
					}
					blocks = append(blocks, b)
				}
				continue
			case stmt && (blockClose[w] || w == "}"):
				if len(blocks) > 0 {
					blocks = blocks[:len(blocks)-1]
				}
				continue
			case stmt && (w == "else" || w == "elif") && len(blocks) > 0 && blocks[len(blocks)-1].word == "if":
				b := &blocks[len(blocks)-1]
				switch {
				case b.taken:
					b.state = -1
				case b.state == -1 && w == "else":
					b.state = 1
					b.branch, b.test, b.written = cmd.line, "", ""
				case b.state == -1 && testsUnsure(cmd.text, words, i, v):
					b.state = 0
				case b.state == -1:
					b.state = testCond(words[i+1:])
					b.taken = b.state == 1
					if b.taken {
						b.branch = cmd.line
						b.test, b.written = ifTest(cmd.text, words, i)
					}
				default:
					b.state = 0
				}
				continue
			case stmt && resumes[w]:
				continue
			case stmt && w == "export":
				exporting = true
				continue
			case stmt && (w == "local" || w == "declare" || w == "typeset" || w == "readonly"):
				// local NAME=VALUE sets NAME (for the call being read, when
				// xcvr follows one; else where it is written); -x exports
				// it too.
				declaring = true
				localizing = len(frames) > 0 && w != "readonly"
				continue
			case declaring && strings.HasPrefix(w, "-"):
				if strings.Contains(w, "x") {
					exporting = true
				}
				if strings.Contains(w, "g") {
					localizing = false // declare -g: the global
				}
				continue
			case declaring && localizing && isShellName(w):
				// local NAME: unset for the call, the caller's value back
				// when it returns.
				if dead {
					continue
				}
				frames[len(frames)-1].save(v, w)
				delete(v.val, w)
				delete(v.meta, w)
				v.seq++
				continue
			case stmt && w == "shift" && v.argsExact && !dead:
				n := 1
				if i+1 < len(words) {
					if k, err := strconv.Atoi(words[i+1]); err == nil && k >= 0 {
						n = k
					}
				}
				if n <= len(v.args) {
					v.args = v.args[n:]
				}
			case stmt && w == "unset" && !dead:
				for _, n := range words[i+1:] {
					if isSep(n) {
						break
					}
					delete(v.val, n)
					delete(v.exported, n)
					delete(v.meta, n)
					v.seq++
				}
			}
			if _, val, ok := strings.Cut(w, "="); declaring && ok && strings.HasPrefix(val, "(") {
				continue // an array: not a path or a value xcvr reads
			}
			if (stmt || exporting || declaring) && (reAssign().MatchString(w) || reAppend().MatchString(w)) {
				// NAME=VALUE alone sets a shell variable; before a command it
				// is that command's environment only (parseLaunch reads it).
				if !exporting && !declaring && !onlyAssignments(words[i:]) {
					stmt = false
					continue
				}
				if dead {
					continue // under an if branch bash does not run
				}
				k, val, _ := strings.Cut(w, "=")
				appending := strings.HasSuffix(k, "+")
				k = strings.TrimSuffix(k, "+")
				cond := ""
				if len(blocks) > 0 {
					cond = origin(file, blocks[len(blocks)-1].line)
				}
				if _, had := v.val[k]; had && cond != "" && v.args == nil && reArgRef().MatchString(val) {
					// An argument loop's MODEL=$2 (while [[ $# -gt 0 ]]; case
					// $1 in --model) does not run when the script is run
					// without arguments: the value set before stands.
					continue
				}
				if declaring && localizing {
					frames[len(frames)-1].save(v, k)
				}
				if appending {
					switch appendRuns(blocks) {
					case -1:
						continue // under an if that does not run
					case 0:
						// NAME+=VALUE under a condition or in a loop xcvr
						// does not decide: how often it added is not
						// known (upstream's Ray launcher builds [[0, 1]]
						// so: for ((i=0; i<TP_SIZE; i++)); do if [[ $i
						// -gt 0 ]]; then G+=", "; fi; G+="$i"; done).
						v.forget(k)
						continue
					}
				}
				unsure := unsureIn(blocks) || appending && v.meta[k].unsure
				v.set(k, val, origin(file, cmd.line), condOrigin(file, blocks), appending)
				if m, ok := v.meta[k]; ok && unsure {
					m.unsure = true
					v.meta[k] = m
				}
				if exporting {
					v.exported[k] = true
					v.seq++
				}
				continue
			}
			if exporting && isShellName(w) {
				if !dead {
					v.exported[w] = true
					v.seq++
				}
				continue
			}
			stmt = false
		}
		if dropped != nil {
			// Only the statements that run: separators kept, so that
			// each statement stays its own.
			live := make([]string, 0, len(words))
			for i, w := range words {
				if !dropped[i] {
					live = append(live, w)
				}
			}
			words, text = live, strings.Join(live, " ")
		}
		// Here-documents written to a file (cat > F << EOF; cat << EOF >> F
		// adds to F), and what echo or printf write (echo -e "a: 1\nb: 2" >
		// c.yml): files of the set.
		if t, appending := redirectOp(words); t != "" && docBodies != nil {
			for k, h := range cmd.heredocs {
				h.body = docBodies[k]
				record(t, h.body, appending, "", bodyLines(h.body, h.line), cmd.line, under, h)
			}
		}
		for _, ew := range echoWrites(words) {
			if posixSh && ew.dashDiffers {
				// dash (Debian's and Ubuntu's /bin/sh) prints -e and
				// expands backslashes itself: not bash's text.
				r.set.Warnings = append(r.set.Warnings, fmt.Sprintf("%s: %s under #!/bin/sh writes %s as dash's echo does (it prints -e, and expands backslash escapes), not as bash's: the file is not read", origin(file, cmd.line), ew.how, ew.target))
				continue
			}
			record(ew.target, ew.text, ew.appending, ew.how, appendLines(nil, ew.text, cmd.line), cmd.line, under, hereDoc{line: cmd.line, quoted: true})
		}
		// Calls of the script's functions: each read as bash runs it.
		calls := funcCallsIn(text, words, func(w string) bool { _, ok := defined[w]; return ok })
		wrapped := false
		for _, c := range calls {
			before := len(r.set.Workers) + len(r.set.Unplaced)
			callFunc(c, cmd, lineLoop)
			if len(r.set.Workers)+len(r.set.Unplaced) > before {
				found = true
				// A wrapper (start_bg() { "$@" & }; start_bg srun ...
				// trtllm-serve ...): the launch is the call's arguments,
				// which bash runs only through the function, read above.
				if _, ok := parseLaunch(unwrapShell(c.args)); ok {
					wrapped = true
				}
			}
		}
		if len(words) > 0 && (words[0] == "wait" || words[0] == "kill" || words[0] == "pkill" || words[0] == "killall") {
			// The servers started before it stop, or are waited for,
			// before the next ones start: not run side by side.
			barrier++
		}
		l, ok := parseLaunch(unwrapShell(words))
		if !ok && len(calls) > 0 || ok && wrapped {
			return
		}
		if ok && !deadIn(blocks) && (l.program == "dynamo.trtllm" || l.program == "trtllm-serve" && (l.sub == "" || l.sub == "serve")) {
			for _, name := range unreadArrays {
				if why := arrayWhy(v, name, sourced); why != "" {
					r.warnOnce(fmt.Sprintf("%s: \"${%s[@]}\" on the %s command line is a bash array xcvr does not read: %s; what it holds (an --override-engine-args JSON laid over the engine args, say) is not in this worker's inputs", origin(file, cmd.line), name, l.program, why))
				}
			}
			if strings.ContainsAny(l.override, "$`") {
				l.overrideWhy = overrideWhy(v, l.override, sourced)
				if a := arrayOrigin(v, usedArrays); a != "" {
					l.overrideWhy = a + "; " + l.overrideWhy
				}
				r.warnOnce(origin(file, cmd.line) + ": " + overrideNotRead(l))
			}
		}
		if !ok {
			if r.runScript(file, cmd.line, unwrapShell(words), v, blocks, stack) {
				found = true
				return
			}
			for i, w := range words {
				// A script it names (not a NAME=PATH assignment), once.
				if isScriptName(w) && !strings.Contains(path.Base(w), "$") && !reAssign().MatchString(w) && !runsSeen[path.Base(w)] && len(runs) < 5 {
					runsSeen[path.Base(w)] = true
					runs = append(runs, fmt.Sprintf("%s (line %d)", path.Base(w), cmd.line))
				}
				if w == "eval" && (i == 0 || isSep(words[i-1]) || resumes[words[i-1]]) && evalAt == 0 {
					evalAt = cmd.line
				}
			}
			return
		}
		found = true
		src := Source{File: file, Line: cmd.line, Kind: l.program + " command"}
		seenKey := ""
		if len(frames) > 0 || len(iters) > 0 {
			// Inside a call: the call is where it runs, the body line
			// what runs.
			if len(frames) > 0 {
				src.Line = frames[len(frames)-1].callLine
				src.Kind += " " + callPath(frames, cmd.line)
			}
			seenKey = fmt.Sprint(cmd.line) + "\x00" + strings.Join(words, "\x00")
			for _, k := range sortedExports(v) {
				seenKey += "\x00" + k + "=" + v.val[k]
			}
			if di, ok := docByPath[hostPath(l.config)]; ok && l.config != "" {
				// The config the script wrote last at that path: a loop
				// that writes it anew each time runs a different worker.
				seenKey += "\x00" + docs[di].doc.body + "\x00" + string(docs[di].buf)
			}
			if first, ok := seen[seenKey]; ok {
				if first != nil && len(frames) == 0 {
					first.Notes = append(first.Notes, fmt.Sprintf("%s runs the same command again for %s, with the same arguments and environment: counted once", ranLoops, iters[len(iters)-1]))
				} else if first != nil {
					first.Notes = append(first.Notes, fmt.Sprintf("the call of %s at %s runs the same command again, with the same arguments and environment (another branch, or a second call): counted once", frames[0].name, origin(file, frames[0].callLine)))
				}
				return
			}
			seen[seenKey] = nil
		}
		if call != nil {
			src.Kind += ", run from " + call.from
		}

		if l.program == "trtllm-serve" && l.sub == "disaggregated" {
			why := "the disaggregated orchestrator (trtllm-serve disaggregated " + l.config + "): it routes requests; each worker's own --config decides its transceiver"
			if f := r.disaggFile(l.config); f != "" {
				why += "; its config is " + f + ", read with the set"
			} else if root, locate, name, where, _, ok := mountedIn(call, l.config); ok {
				// A config the pod mounts (a ConfigMap key): its urls say
				// which of the script's servers serve which role.
				if dg, err := deploy.ReadDisaggNode(name, root); err == nil && len(dg.Servers) > 0 {
					r.addRoutes(dg, name, stack[0], "", locate)
					why += "; its config is " + where
				}
			} else if di, ok := findDoc(l.config); ok && l.config != "" && !docs[di].overflow {
				// A config the script wrote: its urls say which of the
				// script's servers serve which role (routes.go).
				d := docs[di]
				body := d.doc.body
				if d.buf != nil {
					body = string(d.buf)
				}
				if doc, err := deploy.ParseYAML(path.Base(d.target), []byte(body)); err == nil && doc.Root != nil {
					if dg, err := deploy.ReadDisaggNode(path.Base(d.target), doc.Root); err == nil {
						n := len(r.routes)
						at, lines := d.doc.line, d.lines
						r.addRoutes(dg, path.Base(d.target), stack[0], "", func(l int) string {
							if lines != nil && l >= 1 && l <= len(lines) {
								return origin(file, lines[l-1])
							}
							return origin(file, at+l-1)
						})
						if len(r.routes) > n {
							var urls []string
							for _, rt := range r.routes[n:] {
								urls = append(urls, rt.section+" "+rt.url)
							}
							why += fmt.Sprintf("; its config is %s, written at %s, whose urls are %s", d.target, origin(file, d.cmd), strings.Join(urls, ", "))
						}
					}
				}
			}
			r.set.Unplaced = append(r.set.Unplaced, Unplaced{Source: src, Why: why})
			return
		}
		if l.program == "trtllm-serve" && l.sub == "disaggregated_mpi_worker" {
			r.mpiWorker(src, l, v, blocks, call)
			return
		}
		if l.encode || l.sidecar {
			r.encodeWorker(src, l)
			return
		}
		name := l.program
		if l.config != "" {
			name = path.Base(l.config)
		}
		if r.scriptNames[name] {
			name = fmt.Sprintf("%s (%s)", name, origin(path.Base(file), src.Line))
			if call != nil && call.mounted == nil {
				// A script another runs: the caller tells them apart (a
				// pod's script has the manifest's lines: its own line does).
				name = fmt.Sprintf("%s (%s)", path.Base(l.config), call.from)
			}
			if len(iters) > 0 {
				// Each iteration of a loop: its bindings tell them apart.
				name = strings.TrimSuffix(name, ")") + ", " + strings.Join(iters, " ") + ")"
			}
		}
		if r.scriptNames == nil {
			r.scriptNames = map[string]bool{}
		}
		r.scriptNames[name] = true
		w := &Worker{Name: name, Source: src, Count: 1, CountFrom: "one command line", CommandError: l.refused}
		if seenKey != "" {
			seen[seenKey] = w
		}
		// Where the command line's words are written: the body line, or
		// for a wrapper that runs its arguments (start_bg() { "$@" & })
		// the call's line, which wrote them.
		cmdAt := origin(file, cmd.line)
		if len(frames) > 0 && runsArgs(cmd.text) {
			cmdAt = origin(file, frames[len(frames)-1].callLine)
		}
		if img := commandImage(words); img != "" {
			w.Image, w.ImageOrigin = img, cmdAt
		}
		if l.moduleNote != "" {
			w.Notes = append(w.Notes, l.moduleNote)
		}
		w.Notes = append(w.Notes, blockNotes(file, blocks)...)
		if call != nil && call.note != "" {
			w.Notes = append(w.Notes, call.note)
		}
		for _, f := range frames {
			if f.loopNote != "" {
				w.Notes = append(w.Notes, f.loopNote)
			}
		}
		// Environment: the script's exports up to here, then the command's
		// own NAME=VALUE words.
		var env envSet
		for _, k := range sortedExports(v) {
			m := v.meta[k]
			if c := m.cond; c != "" && strings.HasPrefix(k, "TRTLLM_") {
				w.Notes = append(w.Notes, fmt.Sprintf("%s=%s is set under the condition at %s; taken as set", k, v.val[k], c))
			}
			env.set(EnvVar{Name: k, Value: v.val[k], Origin: m.origin})
		}
		for _, k := range l.envOrd {
			env.set(EnvVar{Name: k, Value: l.env[k], Origin: cmdAt + " (command line)"})
		}
		w.Env = env.trtllm()
		if n := env.droppedNote(); n != "" {
			w.Notes = append(w.Notes, n)
		}
		if l.model != "" && !strings.Contains(l.model, "$") {
			w.Model, w.ModelOrigin = l.model, cmdAt+" (command line)"
			if !strings.Contains(l.served, "$") {
				w.ServedModel = l.served
			}
		} else if l.model != "" {
			w.Notes = append(w.Notes, "model "+l.model+": the script does not set it (an argument or the environment); pass --model ARCH")
		}
		if strings.Contains(l.backend, "$") {
			w.Notes = append(w.Notes, "trtllm-serve --backend "+l.backend+": the script does not set it (an argument or the environment); pass --loader")
		} else {
			w.serveBackend(l, cmdAt)
		}
		switch {
		case l.role != "":
			w.Role, w.RoleFrom, w.roleBy = l.role, l.roleArg, "flag"
		case l.config != "" && roleFromName(path.Base(l.config)) != "":
			w.Role, w.RoleFrom, w.roleBy = roleFromName(path.Base(l.config)), "inferred from the config's name "+path.Base(l.config), "name"
		default:
			named := "no config"
			if l.config != "" {
				named = "its config's name " + path.Base(l.config)
			}
			w.Role, w.RoleFrom, w.roleUnknown = aggregatedWhy(l.program, named)
		}
		if l.program == "trtllm-serve" {
			w.host, w.script = l.host, stack[0]
			w.port, w.portDefault = listenPort(l)
		}
		w.top = stack[0]
		w.key = "script\x00" + strings.Join(stack, "\x00") + "\x00" + fmt.Sprint(cmd.line)
		for _, f := range frames {
			w.key += "\x00" + f.name + "@" + fmt.Sprint(f.callLine)
		}
		if call != nil {
			w.key += "\x00" + call.from
		}
		if len(iters) == 0 && undecided(blocks) == nil && !slices.ContainsFunc(frames, func(f *frame) bool { return f.loopNote != "" }) {
			norm, bg := sameCommand(words)
			// Separate command lines that start the same server in the
			// background, the same but for its --port, its devices and
			// its log (CUDA_VISIBLE_DEVICES=0 ... --port 8001 &> log_ctx_0 &,
			// then =1, 8002, log_ctx_1: upstream's disaggregated README),
			// are one worker configuration counted per line, as a loop's
			// iterations are (merge): the config's origin, the role and the
			// environment are still keyed. Only while the earlier ones
			// run in the background (merge), and not past a wait or kill.
			w.key = "script\x00" + strings.Join(stack, "\x00") + "\x00same\x00" + fmt.Sprint(barrier) + "\x00" + norm
			w.bg = bg
			if call != nil {
				w.key += "\x00" + call.from
			}
			for _, f := range frames {
				// A function called twice (launch_ctx 0 8401 log_ctx_0,
				// launch_ctx 1 8402 log_ctx_1): its calls, at their lines.
				w.key += "\x00" + f.name
			}
			w.sameAt = origin(file, src.Line)
		}
		if len(iters) > 0 {
			// A loop's iterations that differ only in what the
			// transceiver does not read (CUDA_VISIBLE_DEVICES=$i, --port
			// $((8001+i))) are one worker configuration, counted (merge).
			w.key += "\x00" + w.Model + "\x00" + w.ServedModel + "\x00" + string(w.Role) + "\x00" + w.ServeBackend
			w.CountFrom = "one per iteration of " + ranLoops
		}
		if l.config == "" {
			w.Config = "none (TensorRT-LLM's defaults: no cache_transceiver_config)"
			if handled, ok := r.overrideOnly(w, src, l, cmdAt); handled && !ok {
				return
			}
			r.set.Workers = append(r.set.Workers, w)
			return
		}
		// The config: a here-document the script wrote before this line, else
		// a file of the set.
		var root *deploy.Node
		var locate func(int) string
		var cname, where string
		// A container the command starts (docker run -v HOST:CONTAINER)
		// sees the host's file under its own path.
		want, mount := l.config, ""
		for _, m := range containerMounts(unwrapShell(words)) {
			if rel, ok := strings.CutPrefix(path.Clean(l.config), path.Clean(m[1])); ok && (rel == "" || strings.HasPrefix(rel, "/")) {
				want, mount = m[0]+rel, fmt.Sprintf(", bind-mounted from %s at %s (%s)", m[0], m[1], cmdAt)
				break
			}
		}
		di, ok := findDoc(want)
		if ok && docs[di].overflow {
			// A file built past maxEchoFile by >>: not read.
			r.unresolved(src, fmt.Sprintf("%s %s: written by %s at %s, more than %d bytes of it: not read", l.flag, l.config, describeWrite(docs[di].how), origin(file, docs[di].cmd), maxEchoFile))
			return
		}
		if ok {
			d := docs[di]
			cname = path.Base(d.target)
			what, body := "here-document", d.doc.body
			if d.how != "" {
				what = d.how + " >"
			}
			if d.buf != nil {
				body = string(d.buf)
			}
			if len(iters) > 0 {
				// Written in the loop: each iteration's text may differ.
				w.key += "\x00" + body
			}
			where = fmt.Sprintf("%s %s (%s%s)%s", what, d.target, origin(file, d.cmd), d.via, mount)
			if len(d.added) > 0 {
				where += ", added to by " + strings.Join(d.added, ", ")
			}
			w.Notes = append(w.Notes, d.notes...)
			doc, err := deploy.ParseYAML(cname, []byte(body))
			if err != nil {
				r.unresolved(src, l.flag+" "+l.config+": "+where+", body from line "+fmt.Sprint(d.doc.line)+": "+err.Error())
				return
			}
			r.set.Warnings = append(r.set.Warnings, doc.Warnings...)
			root = doc.Root
			at, target, lines := d.doc.line, d.target, d.lines
			locate = func(l int) string {
				if lines != nil {
					at := lines[len(lines)-1]
					if l-1 < len(lines) && l >= 1 {
						at = lines[l-1]
					}
					return origin(file, at) + " (" + what + " " + target + ", " + origin(cname, l) + ")"
				}
				return origin(file, at+l-1) + " (here-document " + target + ", " + origin(cname, l) + ")"
			}
			if root == nil {
				root = &deploy.Node{Kind: deploy.KindNull}
			}
		}
		if inner := innerScript(words); root == nil && inner != "" {
			// The command's own sh -c script writes it (docker run ... bash
			// -c 'cat > /tmp/x.yml <<EOF ... EOF; trtllm-serve ...').
			first := 0
			if k := strings.Index(string(sf.data), inner); k >= 0 {
				first = 1 + strings.Count(string(sf.data[:k]), "\n")
			}
			var why string
			var ok bool
			root, locate, cname, where, why, ok = r.heredocIn(file, inner, first, "the command's script", innerShell(words), "", l.config)
			if len(iters) > 0 {
				w.key += "\x00" + inner
			}
			if why != "" {
				r.unresolved(src, l.flag+" "+l.config+": "+why)
				return
			}
			if !ok {
				root = nil
			}
		}
		if root == nil && call != nil && call.mounted != nil && strings.HasPrefix(want, "/") {
			rt, lc, nm, wh, why, ok := call.mounted(path.Clean(want))
			if why != "" {
				r.unresolved(src, l.flag+" "+l.config+": "+why)
				return
			}
			if ok {
				root, locate, cname, where = rt, lc, nm, wh
			}
		}
		if root == nil {
			var ok bool
			root, locate, cname, where, ok = r.matchPlain(hostPath(want))
			where += mount
			for i := range unwritten {
				u := &unwritten[i]
				same := hostPath(u.target) == hostPath(want) ||
					strings.ContainsAny(u.target+want, "$") && path.Base(u.target) == path.Base(want)
				if ok && same && !u.said {
					u.said = true
					r.set.Warnings = append(r.set.Warnings, u.warning)
				}
			}
			if !ok {
				why := "not in the set (a file of the node or the image); give it to audit"
				if strings.Contains(l.config, "$") {
					why = "the path is not known: " + pathUnsetWhy(v, l.config, file, blocks) + "; audit the worker YAML it is given (or the config that launches it) instead"
					for _, f := range frames {
						if f.loopNote != "" {
							why += "; " + f.loopNote
						}
					}
				}
				r.unresolved(src, l.flag+" "+l.config+": "+why)
				return
			}
		}
		where, ok = r.readConfig(w, src, l, cname, root, locate, where, cmdAt)
		if !ok {
			return
		}
		w.key += "\x00" + where
		r.set.Workers = append(r.set.Workers, w)
	}
	runRange = func(lo, hi int) {
		for i := lo; i < hi && i < len(cmds); i++ {
			// Under an if branch bash does not run, a function is not
			// defined and a loop does not run: their commands are only
			// stepped over.
			dead := deadIn(blocks)
			if d, ok := funcs[i]; ok && called[d.name] {
				// A function a command calls: read at each call, not here.
				if !dead {
					defined[d.name] = d
				}
				i = d.hi
				continue
			}
			if dead {
				step(cmds[i])
				continue
			}
			if fl, ok := findLoop(cmds, i, loopAt); ok && fl.hi < hi && runLoop(fl) {
				i = fl.hi
				continue
			}
			if name, _, ok := forHead(cmds, i); ok {
				// A loop xcvr does not run: its NAME is not known inside it
				// or after it (not a value an earlier loop left).
				delete(v.val, name)
				delete(v.meta, name)
				v.seq++
			}
			step(cmds[i])
		}
	}
	runLoop = func(fl forLoop) bool {
		words, n, ok := loopWords(fl.list, v)
		if !ok {
			return false
		}
		head := cmds[fl.lo]
		if n > maxLoopIters && !r.loopItersNoted {
			r.loopItersNoted = true
			r.set.Warnings = append(r.set.Warnings, fmt.Sprintf("%s: the for loop runs %d times; xcvr runs a loop %d times at most, so the iterations after that were not read", origin(file, head.line), n, maxLoopIters))
		}
		desc := strings.Join(words[:min(len(words), 8)], " ")
		if n > 8 {
			desc += fmt.Sprintf(" … (%d words)", n)
		}
		size := 0
		for j := fl.lo; j <= fl.hi; j++ {
			// Its text, and a command's own cost: a body of many short
			// commands is work too.
			size += len(cmds[j].text) + 64
		}
		outer := ranLoops
		for k, w := range words {
			if r.loopIters >= maxLoopItersTotal {
				if !r.loopTotalNoted {
					r.loopTotalNoted = true
					r.set.Warnings = append(r.set.Warnings, fmt.Sprintf("%s: the scripts' for loops run more than %d iterations in all; this iteration and the later ones were not read", origin(file, head.line), maxLoopItersTotal))
				}
				break
			}
			if r.scriptWork += size; k > 0 && r.scriptWork > maxScriptWork {
				if !r.scriptWorkNoted {
					r.scriptWorkNoted = true
					r.set.Warnings = append(r.set.Warnings, fmt.Sprintf("%s: the scripts' loops read more than %d MiB of their bodies; this iteration and the later ones were not read", origin(file, head.line), maxScriptWork>>20))
				}
				break
			}
			r.loopIters++
			v.set(fl.name, w, origin(file, head.line), "", false)
			iters = append(iters, fl.name+"="+w)
			ranLoops = fmt.Sprintf("the for loop at %s", origin(file, head.line))
			nb := len(blocks)
			ranHere = desc
			step(head)
			ranHere = ""
			if fl.hi > fl.lo {
				runRange(fl.lo+1, fl.hi)
				step(cmds[fl.hi])
			}
			if len(blocks) > nb {
				blocks = blocks[:nb]
			}
			iters = iters[:len(iters)-1]
			ranLoops = outer
		}
		return true
	}
	callFunc = func(c funcCall, cmd shellCmd, lineLoop block) {
		d := defined[c.name]
		if len(frames) >= maxFuncDepth {
			if !r.funcDepthNoted {
				r.funcDepthNoted = true
				r.set.Warnings = append(r.set.Warnings, fmt.Sprintf("%s: the call of %s is %d function calls deep; xcvr follows %d, so this call and deeper ones were not followed", origin(file, cmd.line), c.name, len(frames)+1, maxFuncDepth))
			}
			return
		}
		if r.funcCalls >= maxFuncCalls {
			if !r.funcCallsNoted {
				r.funcCallsNoted = true
				r.set.Warnings = append(r.set.Warnings, fmt.Sprintf("%s: the scripts call functions more than %d times; this call of %s and the later ones were not followed", origin(file, cmd.line), maxFuncCalls, c.name))
			}
			return
		}
		r.funcCalls++
		if r.scriptWork += d.size; r.scriptWork > maxScriptWork {
			if !r.scriptWorkNoted {
				r.scriptWorkNoted = true
				r.set.Warnings = append(r.set.Warnings, fmt.Sprintf("%s: the scripts' function calls read more than %d MiB of their bodies; this call of %s and the later ones were not followed", origin(file, cmd.line), maxScriptWork>>20, c.name))
			}
			return
		}
		f := &frame{name: c.name, callLine: cmd.line, defLine: d.line, saved: map[string]savedVar{}}
		for i := len(blocks); i >= 0; i-- {
			b := lineLoop
			if i < len(blocks) {
				b = blocks[i]
			}
			if b.ran != "" {
				continue // run: the call is read at each iteration
			}
			if b.loopVar != "" {
				// Loops whose words xcvr does not know are not run: the call is read once, its $r as
				// written.
				f.loopNote = fmt.Sprintf("the for loop at %s calls %s once for each of %s; xcvr runs a loop only over words it knows: it read the call once, with $%s as written", origin(file, b.line), c.name, b.loopWords, b.loopVar)
				break
			}
		}
		cond := condOrigin(file, blocks)
		// NAME=VALUE f: exported to the call, undone after it.
		for _, kv := range c.env {
			f.save(v, kv[0])
			v.set(kv[0], kv[1], origin(file, cmd.line)+" (command line)", cond, false)
			v.exported[kv[0]] = true
		}
		args, exact := v.args, v.argsExact
		v.args, v.argsExact = c.args, true
		frames = append(frames, f)
		nb := len(blocks)
		if d.head != "" {
			step(shellCmd{line: d.line, text: d.head})
		}
		if d.hi > d.lo {
			runRange(d.lo+1, d.hi)
		}
		if len(blocks) > nb {
			blocks = blocks[:nb]
		}
		frames = frames[:len(frames)-1]
		f.restore(v)
		v.args, v.argsExact = args, exact
	}
	runRange(0, len(cmds))
	if !found && call == nil {
		why := "a shell script none of whose commands runs trtllm-serve or dynamo.trtllm"
		if len(runs) > 0 {
			why += "; it runs " + strings.Join(runs, ", ") + ": give those to audit"
		}
		if evalAt > 0 {
			why += fmt.Sprintf("; it evals commands it does not hold (eval at line %d): audit where they come from (the file it reads them from, or the config that wrote it)", evalAt)
		}
		r.set.Unplaced = append(r.set.Unplaced, Unplaced{Source: Source{File: file, Kind: "shell script"}, Why: why})
	}
	return found
}

// runScript reads the script of the set a command runs (srun ...
// start_worker.sh CTX 0 ..., bash ${dir}/start.sh), as that command runs
// it: the caller's exports and the command's NAME=VALUE words are its
// environment, the words after it its arguments. It reports whether that
// script starts a worker.
func (r *reader) runScript(file string, line int, words []string, v *shellVars, blocks []block, stack []string) bool {
	if len(stack) >= maxScriptDepth {
		return false
	}
	bases := r.scriptBases()
	for i, w := range words {
		sf, ok := bases[path.Base(w)]
		if !ok || slices.Contains(stack, sf.file) {
			continue
		}
		env := newShellVars()
		for k, val := range v.val {
			if v.exported[k] {
				env.val[k], env.meta[k], env.exported[k] = val, v.meta[k], true
			}
		}
		env.seq = v.seq
		cond := condOrigin(file, blocks)
		// NAME=VALUE words that start the statement: the command's environment.
		start := 0
		for j := i - 1; j >= 0; j-- {
			if isSep(words[j]) {
				start = j + 1
				break
			}
		}
		for _, a := range words[start:i] {
			if !reAssign().MatchString(a) {
				break
			}
			k, val, _ := strings.Cut(a, "=")
			env.set(k, val, origin(file, line)+" (command line)", cond, false)
			env.exported[k] = true
		}
		var args []string
		for _, a := range words[i+1:] {
			if isSep(a) {
				break
			}
			args = append(args, a)
		}
		call := &scriptCall{env: env, args: args, from: origin(path.Base(file), line), stack: stack}
		if len(blocks) > 0 {
			call.note = "the command that runs it " + strings.TrimPrefix(blocks[len(blocks)-1].note(file), "it ")
		}
		return r.script(sf, call)
	}
	return false
}

var reAppend = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*\+=`) })

// onlyAssignments reports whether a statement is NAME=VALUE words alone.
func onlyAssignments(words []string) bool {
	for _, w := range words {
		if isSep(w) || w == ";;" {
			return true
		}
		if !reAssign().MatchString(w) && !reAppend().MatchString(w) {
			return false
		}
	}
	return true
}

// sortedExports lists the exported variables that have a value, in the order
// the script set them.
func sortedExports(v *shellVars) []string {
	if v.exportsSeq == v.seq && v.exportsOK {
		return v.exports
	}
	defer func() { v.exportsSeq, v.exportsOK = v.seq, true }()
	var out []string
	for k := range v.exported {
		if _, ok := v.val[k]; ok {
			out = append(out, k)
		}
	}
	// Set order, then name: deterministic.
	sort.Slice(out, func(i, j int) bool {
		a, b := v.meta[out[i]].seq, v.meta[out[j]].seq
		return a < b || a == b && out[i] < out[j]
	})
	v.exports = out
	return out
}

// shebangSh reports whether a script names sh as its interpreter (#!/bin/sh,
// #!/usr/bin/env sh): dash on Debian and Ubuntu, whose echo is not bash's.
func shebangSh(data []byte) bool {
	first, _, _ := strings.Cut(string(data[:min(len(data), 256)]), "\n")
	f := strings.Fields(strings.TrimPrefix(strings.TrimSpace(first), "#!"))
	if !strings.HasPrefix(strings.TrimSpace(first), "#!") || len(f) == 0 {
		return false
	}
	if path.Base(f[0]) == "env" && len(f) > 1 {
		return f[1] == "sh"
	}
	return path.Base(f[0]) == "sh"
}

// bodyLines is the script line of each line of a here-document's body
// whose first line is at first.
func bodyLines(body string, first int) []int {
	n := strings.Count(body, "\n")
	if !strings.HasSuffix(body, "\n") && body != "" {
		n++
	}
	out := make([]int, n)
	for i := range out {
		out[i] = first + i
	}
	return out
}

// describeWrite names what wrote a file: a here-document, or the echo or
// printf that did.
func describeWrite(how string) string {
	if how == "" {
		return "here-document"
	}
	return how
}

// redirectOp is the file a command writes its standard output to and
// whether it adds to it (>>); "" when none.
func redirectOp(words []string) (string, bool) {
	t := redirectTarget(words)
	if t == "" {
		return "", false
	}
	for i, w := range words {
		if w == ">>" && i+1 < len(words) && words[i+1] == t || w == ">>"+t {
			return t, true
		}
		if w == ">" && i+1 < len(words) && words[i+1] == t || w == ">"+t {
			return t, false
		}
	}
	return t, false
}

// appendLines adds the script line of each line text starts (its last
// line counts when it does not end the text with a newline).
func appendLines(lines []int, text string, line int) []int {
	n := strings.Count(text, "\n")
	if !strings.HasSuffix(text, "\n") {
		n++
	}
	for range n {
		lines = append(lines, line)
	}
	return lines
}

// redirectTarget is the file a command writes its standard output to
// (> PATH, >PATH, >> PATH, tee PATH); "" when none.
func redirectTarget(words []string) string {
	for i := 0; i < len(words); i++ {
		w := words[i]
		switch {
		case w == ">" || w == ">>" || w == "tee":
			for i++; i < len(words) && strings.HasPrefix(words[i], "-") && w == "tee"; i++ {
			}
			if i < len(words) && !isSep(words[i]) && !strings.HasPrefix(words[i], "<") {
				return words[i]
			}
			return ""
		case strings.HasPrefix(w, ">") && !strings.HasPrefix(w, ">&"):
			return strings.TrimLeft(w, ">")
		}
	}
	return ""
}

var rePositional = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`\$\{?([0-9]+)\}?`) })

// unsetWhyIn is unsetWhy for a command inside blocks: an argument ($6)
// inside a function is the function's, whose calls xcvr does not follow.
func unsetWhyIn(p, file string, blocks []block) string {
	if m := rePositional().FindStringSubmatch(p); m != nil && m[1] != "0" {
		for i := len(blocks) - 1; i >= 0; i-- {
			b := blocks[i]
			if !blockOpen[b.word] && b.word != "{" && b.word != "function" {
				return fmt.Sprintf("$%s is argument %s of the function %s (%s), which xcvr reads where it is written, not at each call", m[1], m[1], b.word, origin(file, b.line))
			}
		}
	}
	return unsetWhy(p)
}

// pathUnsetWhy says why a config path holding variables is not known: a
// variable the script sets from a command's output
// (CTX_RUN_CONFIG="$(resolve_config ctx_tp1)") is said so, where it is set,
// else unsetWhyIn says (an argument, the caller's environment).
func pathUnsetWhy(v *shellVars, p, file string, blocks []block) string {
	var why []string
	for _, n := range varRefs(p) {
		if s, ok := v.subst[n]; ok {
			why = append(why, fmt.Sprintf("$%s is set at %s from a command's output (%s), which xcvr does not run", n, s.at, s.text))
		}
	}
	if len(why) == 0 {
		return unsetWhyIn(p, file, blocks)
	}
	return strings.Join(why, "; ")
}

// unsetWhy says what a path's unexpanded part is.
func unsetWhy(p string) string {
	if m := rePositional().FindStringSubmatch(p); m != nil {
		return "$" + m[1] + " is the script's argument " + m[1]
	}
	return "the script does not set its variables (they are its caller's environment)"
}

// scriptOf is the script a container's shell runs (sh -c SCRIPT) when its
// command and args hold it as one value of their own: the YAML node, whose
// lines are the manifest's.
func scriptOf(c *deploy.Node, keys ...string) *deploy.Node {
	n, _ := scriptShellOf(c, keys...)
	return n
}

// scriptShellOf is scriptOf with the shell's name (sh, bash, dash, zsh).
func scriptShellOf(c *deploy.Node, keys ...string) (*deploy.Node, string) {
	var items []*deploy.Node
	for _, k := range keys {
		items = append(items, listOf(get(c, k))...)
	}
	for i := 0; i+2 < len(items); i++ {
		b := path.Base(items[i].Str)
		if (b == "sh" || b == "bash" || b == "dash" || b == "zsh") && strings.HasPrefix(items[i+1].Str, "-") && strings.Contains(items[i+1].Str, "c") && items[i+2].Kind == deploy.KindStr {
			return items[i+2], b
		}
	}
	return nil, ""
}

// heredocConfig finds the worker YAML a container's own script writes with a
// here-document (cat > /tmp/engine_configs/decode.yaml << 'EOF') at the path
// the command line names; wd resolves relative paths. Its lines are the
// manifest's: the script is a block scalar (args: - |) whose first line is
// the one after the node's.
func (r *reader) heredocConfig(file string, script *deploy.Node, shell, wd, config string) (root *deploy.Node, locate func(int) string, name, where, why string, ok bool) {
	return r.heredocIn(file, script.Str, script.Line+1, "the container's script", shell, wd, config)
}

// heredocIn finds the worker YAML a script's here-document writes at the
// path config names; the script's line 1 is the file's line first (0 when
// not known: the lines are then the script's own).
func (r *reader) heredocIn(file, text string, first int, what, shell, wd, config string) (root *deploy.Node, locate func(int) string, name, where, why string, ok bool) {
	abs := func(p string) string {
		if !strings.HasPrefix(p, "/") && wd != "" {
			p = path.Join(wd, p)
		}
		return path.Clean(p)
	}
	want := abs(config)
	v := newShellVars()
	v.budget = &r.expandLeft
	var found *hereDoc
	var target string
	// echoed is the file echo or printf wrote at that path, when they
	// wrote it last: its text, how, and the script line of each line.
	var echoed []byte
	var echoHow string
	var echoLines []int
	for _, cmd := range splitScript(text) {
		words := shellWords(cmd.text)
		for i := range cmd.heredocs {
			t, appending := redirectOp(words)
			if t == "" || abs(t) != want {
				continue
			}
			if appending && found == nil && echoed == nil {
				continue // adds to a file the script did not write
			}
			if !appending {
				found, target, echoed = &cmd.heredocs[i], t, nil
				continue
			}
			// cat << EOF >> F adds to F: one text from here on.
			h := cmd.heredocs[i]
			if echoed == nil {
				echoed = []byte(found.body)
				echoLines = bodyLines(found.body, found.line)
				echoHow = "here-document"
				found = nil
			}
			if len(echoed)+len(h.body) > maxEchoFile {
				return nil, nil, "", "", fmt.Sprintf("written by here-documents in %s, more than %d bytes of it: not read", what, maxEchoFile), true
			}
			echoed = append(echoed, h.body...)
			echoLines = append(echoLines, bodyLines(h.body, h.line)...)
		}
		for _, ew := range echoWrites(words) {
			if abs(ew.target) != want {
				continue
			}
			if (shell == "sh" || shell == "dash") && ew.dashDiffers {
				return nil, nil, "", "", fmt.Sprintf("%s in %s, run by %s: dash's echo (Debian's and Ubuntu's /bin/sh) prints -e and expands backslash escapes, bash's does not: the file is not read", ew.how, what, shell), true
			}
			if ew.appending && echoed == nil && found == nil {
				continue // adds to a file the script did not write
			}
			if !ew.appending {
				echoed, echoHow, echoLines, target = nil, ew.how, nil, ew.target
			} else if echoed == nil {
				echoed = []byte(found.body)
				for i := range strings.Count(found.body, "\n") {
					echoLines = append(echoLines, found.line+i)
				}
				echoHow = "here-document and " + ew.how + " >>"
			}
			found = nil
			if len(echoed)+len(ew.text) > maxEchoFile {
				return nil, nil, "", "", fmt.Sprintf("written by %s in %s, more than %d bytes of it: not read", ew.how, what, maxEchoFile), true
			}
			echoed = append(echoed, ew.text...)
			echoLines = appendLines(echoLines, ew.text, cmd.line)
		}
	}
	if echoed != nil {
		name = path.Base(target)
		line := func(l int) int {
			if l < 1 || l > len(echoLines) {
				l = len(echoLines)
			}
			if first > 0 {
				return first + echoLines[l-1] - 1
			}
			return echoLines[l-1]
		}
		if first > 0 {
			where = fmt.Sprintf("%s > %s in %s (%s)", echoHow, target, what, origin(file, line(1)))
		} else {
			where = fmt.Sprintf("%s > %s in %s (its line %d)", echoHow, target, what, line(1))
		}
		doc, err := deploy.ParseYAML(name, echoed)
		if err != nil {
			return nil, nil, "", "", where + ": " + err.Error(), true
		}
		r.set.Warnings = append(r.set.Warnings, doc.Warnings...)
		root = doc.Root
		if root == nil {
			root = &deploy.Node{Kind: deploy.KindNull}
		}
		locate = func(l int) string {
			if first <= 0 {
				return file + " (" + echoHow + " > " + target + ", " + origin(name, l) + ")"
			}
			return origin(file, line(l)) + " (" + echoHow + " > " + target + ", " + origin(name, l) + ")"
		}
		return root, locate, name, where, "", true
	}
	if found == nil {
		return nil, nil, "", "", "", false
	}
	body := found.body
	if !found.quoted {
		body = v.expandDoc(body)
	}
	name = path.Base(target)
	at := first + found.line - 1
	if first > 0 {
		where = fmt.Sprintf("here-document %s in %s (%s)", target, what, origin(file, at-1))
	} else {
		where = fmt.Sprintf("here-document %s in %s (its line %d)", target, what, found.line-1)
	}
	doc, err := deploy.ParseYAML(name, []byte(body))
	if err != nil {
		return nil, nil, "", "", where + ": " + err.Error(), true
	}
	r.set.Warnings = append(r.set.Warnings, doc.Warnings...)
	root = doc.Root
	if root == nil {
		root = &deploy.Node{Kind: deploy.KindNull}
	}
	locate = func(l int) string {
		if first <= 0 {
			return file + " (here-document " + target + ", " + origin(name, l) + ")"
		}
		return origin(file, at+l-1) + " (here-document " + target + ", " + origin(name, l) + ")"
	}
	return root, locate, name, where, "", true
}

// containerMounts are the bind mounts of a docker or podman run command:
// -v/--volume HOST:CONTAINER[:MODE] and --mount type=bind,source=,target=.
func containerMounts(words []string) [][2]string {
	run := -1
	for i := 0; i+1 < len(words); i++ {
		if b := path.Base(words[i]); (b == "docker" || b == "podman" || b == "nvidia-docker") && words[i+1] == "run" {
			run = i + 2
			break
		}
	}
	if run < 0 {
		return nil
	}
	var out [][2]string
	for i := run; i < len(words) && !isSep(words[i]); i++ {
		w, val := words[i], ""
		switch {
		case w == "-v" || w == "--volume" || w == "--mount":
			if i+1 < len(words) {
				val = words[i+1]
				i++
			}
		case strings.HasPrefix(w, "--volume=") || strings.HasPrefix(w, "--mount="):
			_, val, _ = strings.Cut(w, "=")
		case strings.HasPrefix(w, "-v") && len(w) > 2:
			val = w[2:]
		default:
			continue
		}
		if strings.Contains(val, "target=") || strings.Contains(val, "dst=") || strings.Contains(val, "destination=") {
			var src, dst string
			for _, kv := range strings.Split(val, ",") {
				k, v, _ := strings.Cut(kv, "=")
				switch k {
				case "source", "src":
					src = v
				case "target", "dst", "destination":
					dst = v
				}
			}
			if src != "" && dst != "" {
				out = append(out, [2]string{src, dst})
			}
			continue
		}
		if parts := strings.Split(val, ":"); len(parts) >= 2 && parts[0] != "" && parts[1] != "" {
			out = append(out, [2]string{parts[0], parts[1]})
		}
	}
	return out
}

// hostPath is a path as the script's files are named: the working
// directory's prefixes ($PWD/, ${PWD}/, $(pwd)/, ./) dropped.
func hostPath(p string) string {
	for _, pre := range []string{"$PWD/", "${PWD}/", "$(pwd)/", "./"} {
		p = strings.TrimPrefix(p, pre)
	}
	if p == "" {
		return p
	}
	return path.Clean(p)
}

// innerShell is the shell innerScript's script runs in ("" when none).
func innerShell(words []string) string {
	for i := 0; i+2 < len(words); i++ {
		if b := path.Base(words[i]); (b == "sh" || b == "bash" || b == "dash" || b == "zsh") && strings.HasPrefix(words[i+1], "-") && strings.Contains(words[i+1], "c") {
			return b
		}
	}
	return ""
}

// innerScript is the script a command's shell runs (bash -c SCRIPT), "" when
// none.
func innerScript(words []string) string {
	for i := 0; i+2 < len(words); i++ {
		if b := path.Base(words[i]); (b == "sh" || b == "bash" || b == "dash" || b == "zsh") && strings.HasPrefix(words[i+1], "-") && strings.Contains(words[i+1], "c") {
			return words[i+2]
		}
	}
	return ""
}

// mpiWorker reads trtllm-serve disaggregated_mpi_worker -c FILE (the
// deprecated launch of upstream's older slurm/start_worker.sh): its workers
// are FILE's sections, which the set already resolves from FILE; they run
// with this command's environment (the script's exports, its NAME=VALUE
// words), laid under nothing, as FILE gives none.
func (r *reader) mpiWorker(src Source, l launch, v *shellVars, blocks []block, call *scriptCall) {
	match := r.disaggFile(l.config)
	if match == "" {
		r.set.Unplaced = append(r.set.Unplaced, Unplaced{Source: src, Why: mpiWhy(l.config)})
		return
	}
	if r.mpiApplied[match] {
		return
	}
	// A file that only lists its servers routes requests when
	// trtllm-serve disaggregated reads it; run by the MPI worker, its
	// sections are the workers, with TensorRT-LLM's defaults.
	for i, o := range r.set.Orchestrators {
		if o.Source.File == match {
			r.set.Orchestrators = append(r.set.Orchestrators[:i], r.set.Orchestrators[i+1:]...)
			r.disagg(match, r.disaggRoots[match], true)
			break
		}
	}
	if r.mpiApplied == nil {
		r.mpiApplied = map[string]bool{}
	}
	r.mpiApplied[match] = true
	var env envSet
	var notes []string
	for _, k := range sortedExports(v) {
		m := v.meta[k]
		if c := m.cond; c != "" && strings.HasPrefix(k, "TRTLLM_") {
			notes = append(notes, fmt.Sprintf("%s=%s is set under the condition at %s; taken as set", k, v.val[k], c))
		}
		env.set(EnvVar{Name: k, Value: v.val[k], Origin: m.origin})
	}
	for _, k := range l.envOrd {
		env.set(EnvVar{Name: k, Value: l.env[k], Origin: origin(src.File, src.Line) + " (command line)"})
	}
	by := "run by trtllm-serve disaggregated_mpi_worker at " + src.String() + ", whose environment it takes"
	if len(blocks) > 0 {
		notes = append(notes, blocks[len(blocks)-1].note(src.File))
	}
	if call != nil && call.note != "" {
		notes = append(notes, call.note)
	}
	for _, w := range r.set.Workers {
		if strings.HasPrefix(w.key, "disagg\x00") && w.Source.File == match {
			w.Env = env.trtllm()
			if n := env.droppedNote(); n != "" {
				w.Notes = append(w.Notes, n)
			}
			w.Notes = append(w.Notes, by)
			w.Notes = append(w.Notes, notes...)
			w.key += "\x00mpi"
		}
	}
}

// disaggFile is the disaggregated config of the set a command's -c names: the
// same path, the same trailing path, or the same base name when the set has
// one such config; "" when none.
func (r *reader) disaggFile(config string) string {
	var files []string
	for f := range r.disaggRoots {
		files = append(files, f)
	}
	sort.Strings(files)
	want := hostPath(config)
	for _, f := range files {
		if f == want || strings.HasSuffix(f, "/"+strings.TrimPrefix(want, "/")) || path.Base(f) == path.Base(want) && len(files) == 1 {
			return f
		}
	}
	return ""
}

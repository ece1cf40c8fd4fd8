package audit

import (
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
)

// Loops: launch scripts start N context and M generation servers in a
// for loop (for i in 0 1; do CUDA_VISIBLE_DEVICES=$i trtllm-serve ... &
// done; for role in ctx gen; do ... ${role}.yaml; done). A for loop whose
// words the reader knows — literal words, variables the script set,
// $(seq A B) or {A..B} with known integer bounds — is run: its body is
// read once per word, NAME bound to it, as bash runs it. Any other loop
// (a glob, $(ls), a variable from the caller, a body that breaks) is read
// once with NAME as written, with a note, as before.

// Limits: a loop's words are a few roles or GPUs; a hostile {1..1000000000}
// or nested loops must not make work without end.
const (
	// maxLoopIters bounds one loop's iterations.
	maxLoopIters = 1024
	// maxLoopItersTotal bounds the iterations run over a whole set.
	maxLoopItersTotal = 1 << 16
)

// reForHead is a for loop's head: NAME, its words, up to do.
var reForHead = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^\s*for\s+([A-Za-z_][A-Za-z0-9_]*)\s+in\s+([^;\n]*?)\s*[;\n]\s*do(?:\s|;|$)`)
})

// reForAlone is a for loop's head whose do is on the next line.
var reForAlone = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^\s*for\s+([A-Za-z_][A-Za-z0-9_]*)\s+in\s+([^;\n]*?)\s*$`)
})

// forHead is the NAME and the words as written of the for loop cmds[i]
// opens (for NAME in WORDS; do, or do on the next command).
func forHead(cmds []shellCmd, i int) (name, list string, ok bool) {
	if !strings.HasPrefix(strings.TrimSpace(cmds[i].text), "for") {
		return "", "", false
	}
	if m := reForHead().FindStringSubmatch(cmds[i].text); m != nil {
		return m[1], m[2], true
	}
	if m := reForAlone().FindStringSubmatch(cmds[i].text); m != nil && i+1 < len(cmds) {
		if w := shellWords(cmds[i+1].text); len(w) > 0 && w[0] == "do" {
			return m[1], m[2], true
		}
	}
	return "", "", false
}

var reSeq = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^\$\(\s*seq\s+(.*?)\s*\)$`) })
var reBraceRange = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^\{(-?[0-9]+)\.\.(-?[0-9]+)\}$`) })

// loopWords are the words a for loop's head runs over, as bash gives them,
// when the reader knows them: ok false when it does not (a glob, a
// command's output, a variable it never set). n is how many there are,
// even past maxLoopIters (then words holds the first maxLoopIters).
func loopWords(list string, v *shellVars) (words []string, n int, ok bool) {
	list = strings.TrimSpace(list)
	if m := reBraceRange().FindStringSubmatch(list); m != nil {
		a, err1 := strconv.Atoi(m[1])
		b, err2 := strconv.Atoi(m[2])
		if err1 != nil || err2 != nil {
			return nil, 0, false
		}
		return intRange(a, b)
	}
	if m := reSeq().FindStringSubmatch(list); m != nil {
		var bounds []int
		for _, t := range arithTokens(m[1]) {
			x, ok := evalInt(t, v)
			if !ok {
				return nil, 0, false
			}
			bounds = append(bounds, x)
		}
		switch len(bounds) {
		case 1:
			bounds = []int{1, bounds[0]}
			fallthrough
		case 2:
			if bounds[1] < bounds[0] {
				return nil, 0, true // seq 2 1 (and seq 0) print nothing
			}
			return intRange(bounds[0], bounds[1])
		}
		return nil, 0, false
	}
	if strings.ContainsAny(list, "`{") || strings.Contains(list, "$(") {
		return nil, 0, false
	}
	text := v.expand(list)
	// A value with quotes or backslashes is split by bash as text, not
	// re-quoted: not read here.
	if strings.ContainsAny(text, "$*?[") || strings.Count(text, `'`) != strings.Count(list, `'`) ||
		strings.Count(text, `"`) != strings.Count(list, `"`) || strings.Count(text, `\`) != strings.Count(list, `\`) {
		return nil, 0, false
	}
	for _, w := range shellWords(text) {
		if isSep(w) {
			return nil, 0, false
		}
		words = append(words, w)
	}
	if len(words) > maxLoopIters {
		return words[:maxLoopIters], len(words), true
	}
	return words, len(words), true
}

// intRange is a to b (either way, as {A..B} counts), at most
// maxLoopIters of them.
func intRange(a, b int) ([]string, int, bool) {
	step, n := 1, b-a+1
	if b < a {
		step, n = -1, a-b+1
	}
	var out []string
	for x := a; len(out) < min(n, maxLoopIters); x += step {
		out = append(out, strconv.Itoa(x))
	}
	return out, n, true
}

// arithTokens splits seq's arguments at blanks, a $((...)) one token
// however it is spaced.
func arithTokens(s string) []string {
	var out []string
	for i := 0; i < len(s); {
		if s[i] == ' ' || s[i] == '\t' {
			i++
			continue
		}
		if strings.HasPrefix(s[i:], "$((") {
			end := matchParen(s, i+1)
			if end < 0 {
				return append(out, s[i:])
			}
			out = append(out, s[i:end+1])
			i = end + 1
			continue
		}
		j := i
		for j < len(s) && s[j] != ' ' && s[j] != '\t' {
			j++
		}
		out = append(out, s[i:j])
		i = j
	}
	return out
}

// evalInt is an integer seq bound: 3, $N, ${N}, $((N-1)) with the
// variables the script set; ok false for anything else.
func evalInt(t string, v *shellVars) (int, bool) {
	if strings.HasPrefix(t, "$((") && strings.HasSuffix(t, "))") {
		return arith(v.expand(t[3:len(t)-2]), v)
	}
	n, err := strconv.Atoi(strings.TrimSpace(v.expand(t)))
	return n, err == nil
}

// arith evaluates + - * / % over integers and variables holding integers,
// * / % before + -, left to right: what a loop bound's $((N-1)) holds.
func arith(s string, v *shellVars) (int, bool) {
	s = strings.ReplaceAll(s, " ", "")
	if s == "" {
		return 0, false
	}
	total, sign := 0, 1
	for len(s) > 0 {
		// One term: factors joined by * / %.
		j := 0
		for j < len(s) && (j == 0 || s[j] != '+' && s[j] != '-' || strings.IndexByte("*/%", s[j-1]) >= 0) {
			j++
		}
		term, ok := arithTerm(s[:j], v)
		if !ok {
			return 0, false
		}
		total += sign * term
		s = s[j:]
		if s != "" {
			sign = 1
			if s[0] == '-' {
				sign = -1
			}
			s = s[1:]
			if s == "" {
				return 0, false
			}
		}
	}
	return total, true
}

func arithTerm(s string, v *shellVars) (int, bool) {
	val, op := 0, byte('*')
	first := true
	for {
		j := 0
		if j < len(s) && s[j] == '-' {
			j++
		}
		for j < len(s) && strings.IndexByte("*/%", s[j]) < 0 {
			j++
		}
		f, ok := arithFactor(s[:j], v)
		if !ok {
			return 0, false
		}
		switch {
		case first:
			val, first = f, false
		case op == '*':
			val *= f
		case f == 0:
			return 0, false
		case op == '/':
			val /= f
		default:
			val %= f
		}
		if j == len(s) {
			return val, true
		}
		op, s = s[j], s[j+1:]
	}
}

func arithFactor(s string, v *shellVars) (int, bool) {
	neg := strings.HasPrefix(s, "-")
	s = strings.TrimPrefix(s, "-")
	if isShellName(s) {
		// A name the script did not set may be the caller's: not known.
		val, ok := v.val[s]
		if !ok {
			return 0, false
		}
		s = val
	}
	n, err := strconv.Atoi(s)
	if err != nil || n > 1<<40 || n < -(1<<40) {
		return 0, false
	}
	if neg {
		n = -n
	}
	return n, true
}

// loopEnd is the index of the word that closes the compound command the
// first word opens (done for a for), depth counted as blockDelta counts
// it; -1 when these words do not close it. depth is carried from earlier
// commands (0 at the head).
func loopEnd(words []string, depth int) (int, int) {
	stmt, openedHere := true, false
	for i, w := range words {
		switch {
		case isSep(w) || w == ";;":
			stmt = true
		case stmt && (w == "function" || strings.HasSuffix(w, "()") && isShellName(strings.TrimSuffix(w, "()"))):
			depth++
			openedHere = true
			if w == "function" && i+1 < len(words) {
				stmt = false
			}
		case stmt && w == "{":
			if !openedHere {
				depth++
			}
			openedHere = true
		case stmt && blockOpen[w]:
			depth++
			openedHere = true
		case stmt && (blockClose[w] || w == "}"):
			depth--
			if depth == 0 {
				return i, 0
			}
		case stmt && resumes[w]:
		default:
			stmt = false
		}
	}
	return -1, depth
}

// forLoop is a for loop of a script that the reader can run: its head
// and done commands (the same one for a one-line loop), NAME, and the
// words of its head as written.
type forLoop struct {
	lo, hi int
	name   string
	list   string
}

// maxLoopBody bounds the commands findLoop looks through for a loop's
// done: a longer loop (or one never closed) is read once.
const maxLoopBody = 1024

// loopFound is findLoop's answer, cached per command: a script of many
// unclosed heads must not be scanned again at each.
type loopFound struct {
	loop forLoop
	ok   bool
}

// loopCache holds findLoop's answers and each command's words, so that
// nested or unclosed heads do not split the same commands again.
type loopCache struct {
	found map[int]loopFound
	words map[int][]string
}

func newLoopCache() *loopCache {
	return &loopCache{found: map[int]loopFound{}, words: map[int][]string{}}
}

// findLoop finds the for loop cmds[i] opens, when it is one the reader
// can run: it closes (done) on that command or a later one, with nothing
// opened after its done on that command, and its body has no break or
// continue (which act on a condition the reader does not know).
func findLoop(cmds []shellCmd, i int, cache *loopCache) (forLoop, bool) {
	if !strings.HasPrefix(strings.TrimSpace(cmds[i].text), "for") {
		return forLoop{}, false
	}
	if f, ok := cache.found[i]; ok {
		return f.loop, f.ok
	}
	fl, ok := scanLoop(cmds, i, cache)
	cache.found[i] = loopFound{fl, ok}
	return fl, ok
}

func scanLoop(cmds []shellCmd, i int, cache *loopCache) (forLoop, bool) {
	name, list, ok := forHead(cmds, i)
	if !ok {
		return forLoop{}, false
	}
	depth := 0
	for j := i; j < len(cmds) && j-i < maxLoopBody; j++ {
		words, ok := cache.words[j]
		if !ok {
			words = shellWords(cmds[j].text)
			cache.words[j] = words
		}
		if slices.Contains(words, "break") || slices.Contains(words, "continue") {
			return forLoop{}, false
		}
		end, d := loopEnd(words, depth)
		if end >= 0 {
			if blockDelta(words[end+1:]) != 0 {
				return forLoop{}, false
			}
			return forLoop{lo: i, hi: j, name: name, list: list}, true
		}
		if d <= 0 {
			return forLoop{}, false
		}
		depth = d
	}
	return forLoop{}, false
}

// testCond decides an if's condition (its words up to then) when it is one
// test over words the reader knows: [[ ... ]], [ ... ] or test ..., perhaps
// negated with !, of -n X, -z X, X == Y, X = Y, X != Y or an integer
// comparison (-eq, -ne, -gt, -ge, -lt, -le). 1 true, -1 false, 0 not known
// (a command's status, && or ||, a variable the script never set, a
// pattern).
func testCond(words []string) int8 {
	var c []string
	for _, w := range words {
		if w == "then" {
			break
		}
		if w == ";" {
			continue
		}
		if isSep(w) || strings.ContainsAny(w, "$`") {
			return 0
		}
		c = append(c, w)
	}
	neg := len(c) > 0 && c[0] == "!"
	if neg {
		c = c[1:]
	}
	switch {
	case len(c) >= 2 && c[0] == "[[" && c[len(c)-1] == "]]", len(c) >= 2 && c[0] == "[" && c[len(c)-1] == "]":
		c = c[1 : len(c)-1]
	case len(c) >= 1 && c[0] == "test":
		c = c[1:]
	default:
		return 0
	}
	var r bool
	switch {
	case len(c) == 2 && c[0] == "-n":
		r = c[1] != ""
	case len(c) == 2 && c[0] == "-z":
		r = c[1] == ""
	case len(c) == 3 && (c[1] == "==" || c[1] == "=" || c[1] == "!="):
		if strings.ContainsAny(c[2], "*?[") {
			return 0 // [[ X == pat* ]] matches a pattern
		}
		r = (c[0] == c[2]) == (c[1] != "!=")
	case len(c) == 3 && strings.HasPrefix(c[1], "-"):
		a, err1 := strconv.Atoi(c[0])
		b, err2 := strconv.Atoi(c[2])
		if err1 != nil || err2 != nil {
			return 0
		}
		switch c[1] {
		case "-eq":
			r = a == b
		case "-ne":
			r = a != b
		case "-gt":
			r = a > b
		case "-ge":
			r = a >= b
		case "-lt":
			r = a < b
		case "-le":
			r = a <= b
		default:
			return 0
		}
	default:
		return 0
	}
	if r != neg {
		return 1
	}
	return -1
}

// deviceVars are the variables that pick a server's GPUs: two servers
// started the same but for them run one configuration.
var deviceVars = []string{"CUDA_VISIBLE_DEVICES=", "NVIDIA_VISIBLE_DEVICES=", "HIP_VISIBLE_DEVICES=", "ROCR_VISIBLE_DEVICES="}

// placementOpts are the launchers' options that place a server or name its
// log, which the transceiver does not read: srun's --nodelist, --output,
// --error and --job-name, and nsys profile's --output (a generated sbatch
// starts six context servers with start_bg srun --nodelist NODE --output
// LOG ... nsys profile --output PROFILE ... trtllm-serve --port P). Long
// forms only: a short -o or -e is another program's too.
var placementOpts = map[string]bool{"--nodelist": true, "--output": true, "--error": true, "--job-name": true}

// sameCommand is a script command's words without what the transceiver
// does not read and two servers of one configuration differ in: --port's
// value, the device variables, the log redirections (&> log_ctx_0,
// > log 2>&1), the launchers' placement and log options (placementOpts) and
// a last &. bg says
// whether the command runs in the background (its last word &), so that
// the next line runs beside it. A word holding a command of its own
// (bash -c "...") is normalised the same way.
func sameCommand(words []string) (norm string, bg bool) {
	if bg = len(words) > 0 && words[len(words)-1] == "&"; bg {
		words = words[:len(words)-1]
	}
	var normalise func(ws []string) []string
	normalise = func(ws []string) []string {
		var out []string
		for i := 0; i < len(ws); i++ {
			w := ws[i]
			switch {
			case w == "&" && i+1 < len(ws) && ws[i+1] == ">":
				// &> FILE, split as & >.
				continue
			case strings.HasPrefix(strings.TrimLeft(w, "0123456789"), ">&"):
				// 2>&1 as one word.
				continue
			case strings.TrimLeft(w, "0123456789") == ">" || strings.TrimLeft(w, "0123456789") == ">>":
				// A redirection and its target; 2>&1 is split 2> & 1.
				if i+2 < len(ws) && ws[i+1] == "&" && isPort(ws[i+2]) {
					i += 2
				} else {
					i++
				}
				continue
			case w == "--port" || placementOpts[w]:
				i++
				continue
			case strings.HasPrefix(w, "--port="):
				continue
			case strings.HasPrefix(w, "--") && strings.Contains(w, "=") && placementOpts[w[:strings.IndexByte(w, '=')]]:
				continue
			case slices.ContainsFunc(deviceVars, func(p string) bool { return strings.HasPrefix(w, p) }):
				continue
			case strings.ContainsAny(w, " \t\n"):
				w = strings.Join(normalise(shellWords(w)), " ")
			}
			out = append(out, w)
		}
		return out
	}
	return strings.Join(normalise(words), "\x00"), bg
}

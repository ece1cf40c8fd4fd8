package cli

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// TestREADMETranscripts runs every command of the README's console blocks and
// checks that its output is what the README shows, so an example cannot drift
// from the program. A block runs in the repository's top directory, or in the
// directory a `<!-- cwd: DIR -->` line just above it names; a block that
// cannot run here (a live server, an installed TensorRT-LLM, a release build)
// says so with `<!-- not rerun: WHY -->` instead. The output compared is what a
// terminal shows, stdout and stderr together. In the expected text a line
// "..." stands for any number of lines; every other line must match the
// output's line exactly, in order. `$ echo $?` checks the previous exit
// status. A command is xcvr with its arguments, optionally fed by `printf
// '...' |` or `< FILE` and filtered by `| grep [-E] [-m N] PATTERN`; a
// trailing `# comment` is the reader's, not the shell's.
func TestREADMETranscripts(t *testing.T) {
	readme, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	if run, _ := checkTranscripts(t, "README.md", string(readme)); run < 5 {
		t.Fatalf("reran %d console blocks of the README, want the five examples", run)
	}
}

// TestHelpTopicTranscripts holds every `xcvr help TOPIC` page to the README's
// standard: each console block is run and compared, or says why it is not.
func TestHelpTopicTranscripts(t *testing.T) {
	pages, err := filepath.Glob("../../internal/help/topics/*.md")
	if err != nil || len(pages) == 0 {
		t.Fatalf("no help pages: %v", err)
	}
	total := 0
	for _, p := range pages {
		page, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		run, skipped := checkTranscripts(t, filepath.Base(p), string(page))
		total += run
		if run+skipped > 0 {
			t.Logf("%s: %d block(s) rerun, %d not rerun", filepath.Base(p), run, skipped)
		}
	}
	// The pages held 21 rerunnable blocks when this test was written: a
	// parser that stopped finding them would pass on nothing.
	if total < 21 {
		t.Errorf("reran %d console blocks of the help pages, want at least 21", total)
	}
}

// checkTranscripts runs md's console blocks and reports how many it ran and how
// many are marked not rerun. A fenced block with a `$ ` line that is not a
// console block, or a console block neither run nor marked, fails: a new
// transcript cannot escape the test by its fence.
func checkTranscripts(t *testing.T, name, md string) (run, skipped int) {
	t.Helper()
	top, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range promptBlocksOutsideConsole(md) {
		t.Errorf("%s line %d: a block with `$ ` commands is fenced %q; fence it ```console so it is rerun, or mark it <!-- not rerun: WHY -->", name, f.line, f.info)
	}
	for _, b := range consoleBlocks(md) {
		if b.notRerun != "" {
			skipped++
			continue
		}
		if len(b.commands) == 0 {
			t.Errorf("%s line %d: a console block without a `$ ` command", name, b.line)
			continue
		}
		run++
		t.Run(strings.TrimSuffix(name, ".md")+":"+strconv.Itoa(b.line), func(t *testing.T) {
			dir := filepath.Join(top, b.cwd)
			t.Chdir(dir)
			code := 0
			for _, c := range b.commands {
				if c.cmd == "echo $?" {
					if want := strings.TrimSpace(strings.Join(c.want, "\n")); want != strconv.Itoa(code) {
						t.Errorf("%s line %d: exit status %d, the page says %s", name, c.line, code, want)
					}
					continue
				}
				var out string
				var err error
				out, code, err = runTranscriptCommand(c.cmd, dir)
				if err != nil {
					t.Fatalf("%s line %d: %v", name, c.line, err)
				}
				if !matchTranscript(c.want, strings.Split(strings.TrimRight(out, "\n"), "\n")) {
					t.Errorf("%s line %d: $ %s\nthe page shows:\n%s\nthe program prints:\n%s", name, c.line, c.cmd, strings.Join(c.want, "\n"), out)
				}
			}
		})
	}
	return run, skipped
}

// runTranscriptCommand runs one transcript line in dir and returns what a
// terminal shows and the exit status the shell's $? would hold.
func runTranscriptCommand(line, dir string) (string, int, error) {
	words := shellWords(line)
	var stages [][]string
	cur := []string{}
	for _, w := range words {
		if w == "|" {
			stages = append(stages, cur)
			cur = []string{}
			continue
		}
		cur = append(cur, w)
	}
	stages = append(stages, cur)
	var stdin io.Reader = strings.NewReader("")
	if s := stages[0]; len(s) == 2 && s[0] == "printf" {
		if strings.Contains(s[1], "%") {
			return "", 0, fmt.Errorf("printf %q: the test expands only backslash escapes", s[1])
		}
		stdin = strings.NewReader(printfEscapes(s[1]))
		stages = stages[1:]
	}
	if len(stages) == 0 || len(stages[0]) == 0 || stages[0][0] != "xcvr" {
		return "", 0, fmt.Errorf("%q does not run xcvr (a `printf '...' |` may feed it)", line)
	}
	var args []string
	xs := stages[0][1:]
	for i := 0; i < len(xs); i++ {
		switch w := xs[i]; {
		case w == "<" && i+1 < len(xs):
			b, err := os.ReadFile(filepath.Join(dir, xs[i+1]))
			if err != nil {
				return "", 0, err
			}
			stdin = bytes.NewReader(b)
			i++
		case w == "<" || w == ">" || w == "2>" || w == "&&" || w == ";":
			return "", 0, fmt.Errorf("%q: the test does not run %q; mark the block <!-- not rerun: WHY -->", line, w)
		default:
			args = append(args, w)
		}
	}
	var term, pipe bytes.Buffer
	stdout := io.Writer(&term)
	if len(stages) > 1 {
		stdout = &pipe
	}
	code := Main(args, stdin, stdout, &term, nil)
	if len(stages) == 1 {
		return term.String(), code, nil
	}
	text := strings.TrimSuffix(pipe.String(), "\n")
	for _, s := range stages[1:] {
		var err error
		text, code, err = grepStage(s, text)
		if err != nil {
			return "", 0, fmt.Errorf("%q: %v", line, err)
		}
	}
	if text != "" {
		term.WriteString(text + "\n")
	}
	return term.String(), code, nil
}

// grepStage is `grep [-E] [-m N] PATTERN` on text's lines, with grep's exit
// status (1 when no line matches). Go's regexp reads the patterns the pages use
// (^, alternation) as grep and grep -E do.
func grepStage(args []string, text string) (string, int, error) {
	if len(args) == 0 || args[0] != "grep" {
		return "", 0, fmt.Errorf("only grep may follow xcvr in a pipe, not %q", args)
	}
	limit := -1
	var pattern string
	for i := 1; i < len(args); i++ {
		switch a := args[i]; {
		case a == "-E":
		case strings.HasPrefix(a, "-m"):
			n, err := strconv.Atoi(strings.TrimPrefix(a, "-m"))
			if err != nil {
				return "", 0, fmt.Errorf("grep %s: not a count", a)
			}
			limit = n
		case pattern == "":
			pattern = a
		default:
			return "", 0, fmt.Errorf("grep %q: one pattern, no files", args[1:])
		}
	}
	re, err := regexp.Compile(pattern)
	if err != nil {
		return "", 0, err
	}
	var kept []string
	for _, l := range strings.Split(text, "\n") {
		if limit >= 0 && len(kept) == limit {
			break
		}
		if re.MatchString(l) {
			kept = append(kept, l)
		}
	}
	if len(kept) == 0 {
		return "", 1, nil
	}
	return strings.Join(kept, "\n"), 0, nil
}

// printfEscapes expands the backslash escapes printf(1) reads in its format.
func printfEscapes(s string) string {
	r := strings.NewReplacer(`\\`, `\`, `\n`, "\n", `\t`, "\t", `\r`, "\r", `\a`, "\a", `\e`, "\x1b")
	return r.Replace(s)
}

type transcriptCommand struct {
	line int
	cmd  string
	want []string
}

type consoleBlock struct {
	line     int
	cwd      string
	notRerun string
	commands []transcriptCommand
}

var (
	cwdComment      = regexp.MustCompile(`^<!-- cwd: (\S+) -->$`)
	notRerunComment = regexp.MustCompile(`^<!-- not rerun: (.+) -->$`)
)

func consoleBlocks(md string) []consoleBlock {
	var out []consoleBlock
	lines := strings.Split(md, "\n")
	for i := 0; i < len(lines); i++ {
		if strings.TrimSpace(lines[i]) != "```console" {
			continue
		}
		b := consoleBlock{line: i + 1}
		for j := i - 1; j >= 0 && j >= i-2; j-- {
			if m := cwdComment.FindStringSubmatch(strings.TrimSpace(lines[j])); m != nil {
				b.cwd = m[1]
			}
			if m := notRerunComment.FindStringSubmatch(strings.TrimSpace(lines[j])); m != nil {
				b.notRerun = m[1]
			}
		}
		for i++; i < len(lines) && strings.TrimSpace(lines[i]) != "```"; i++ {
			if cmd, ok := strings.CutPrefix(lines[i], "$ "); ok {
				b.commands = append(b.commands, transcriptCommand{line: i + 1, cmd: cmd})
				continue
			}
			if n := len(b.commands); n > 0 {
				b.commands[n-1].want = append(b.commands[n-1].want, lines[i])
			}
		}
		out = append(out, b)
	}
	return out
}

type fence struct {
	line int
	info string
}

// promptBlocksOutsideConsole lists the fenced blocks other than ```console
// that hold a `$ ` line: transcripts the test would not see.
func promptBlocksOutsideConsole(md string) []fence {
	var out []fence
	lines := strings.Split(md, "\n")
	for i := 0; i < len(lines); i++ {
		info, ok := strings.CutPrefix(strings.TrimSpace(lines[i]), "```")
		if !ok {
			continue
		}
		f := fence{line: i + 1, info: "```" + info}
		prompt := false
		for i++; i < len(lines) && strings.TrimSpace(lines[i]) != "```"; i++ {
			prompt = prompt || strings.HasPrefix(lines[i], "$ ")
		}
		if prompt && info != "console" {
			out = append(out, f)
		}
	}
	return out
}

// shellWords splits a command line as a shell would for the pages' simple
// commands: words separated by spaces, single or double quotes kept together;
// an unquoted `#` starting a word begins a comment, and unquoted `|` and `<`
// are words of their own.
func shellWords(s string) []string {
	var words []string
	var cur strings.Builder
	inWord := false
	var quote rune
	flush := func() {
		if inWord {
			words = append(words, cur.String())
			cur.Reset()
			inWord = false
		}
	}
	for _, r := range s {
		switch {
		case quote != 0 && r == quote:
			quote = 0
		case quote != 0:
			cur.WriteRune(r)
		case r == '\'' || r == '"':
			quote, inWord = r, true
		case r == '#' && !inWord:
			flush()
			return words
		case r == '|' || r == '<':
			flush()
			words = append(words, string(r))
		case r == ' ':
			flush()
		default:
			cur.WriteRune(r)
			inWord = true
		}
	}
	flush()
	return words
}

// matchTranscript reports whether got matches want, where a want line "..."
// matches any run of lines (none included).
func matchTranscript(want, got []string) bool {
	if len(want) == 0 {
		return len(got) == 0 || (len(got) == 1 && got[0] == "")
	}
	if strings.TrimSpace(want[0]) == "..." {
		for k := 0; k <= len(got); k++ {
			if matchTranscript(want[1:], got[k:]) {
				return true
			}
		}
		return false
	}
	return len(got) > 0 && strings.TrimRight(want[0], " ") == strings.TrimRight(got[0], " ") && matchTranscript(want[1:], got[1:])
}

func TestMatchTranscript(t *testing.T) {
	got := []string{"a", "b", "c", "d"}
	for _, c := range []struct {
		want []string
		ok   bool
	}{
		{[]string{"a", "b", "c", "d"}, true},
		{[]string{"...", "d"}, true},
		{[]string{"a", "...", "d"}, true},
		{[]string{"a", "...", "c"}, false}, // "d" left over
		{[]string{"a", "...", "c", "..."}, true},
		{[]string{"a", "c", "..."}, false},
		{[]string{"...", "x"}, false},
	} {
		if matchTranscript(c.want, got) != c.ok {
			t.Errorf("matchTranscript(%q) = %v, want %v", c.want, !c.ok, c.ok)
		}
	}
}

func TestShellWords(t *testing.T) {
	for _, c := range []struct {
		line string
		want []string
	}{
		{`xcvr explain --config gen.yaml     # backend: "UCX"`, []string{"xcvr", "explain", "--config", "gen.yaml"}},
		{`printf '\nq\n' | xcvr tour | grep -E '^(Tour|Try)'`, []string{"printf", `\nq\n`, "|", "xcvr", "tour", "|", "grep", "-E", "^(Tour|Try)"}},
		{`xcvr audit - < list.yaml`, []string{"xcvr", "audit", "-", "<", "list.yaml"}},
		{`xcvr explain --env "A=1 # not a comment"`, []string{"xcvr", "explain", "--env", "A=1 # not a comment"}},
		{`xcvr a#b`, []string{"xcvr", "a#b"}},
	} {
		if got := shellWords(c.line); !slices.Equal(got, c.want) {
			t.Errorf("shellWords(%q) = %q, want %q", c.line, got, c.want)
		}
	}
}

func TestGrepStage(t *testing.T) {
	text := "Tour 1\nLook\nTry: x\nTour 2"
	for _, c := range []struct {
		args []string
		want string
		code int
	}{
		{[]string{"grep", "^Tour"}, "Tour 1\nTour 2", 0},
		{[]string{"grep", "-m1", "^Tour"}, "Tour 1", 0},
		{[]string{"grep", "-E", "^(Tour|Try)"}, "Tour 1\nTry: x\nTour 2", 0},
		{[]string{"grep", "^Nope"}, "", 1},
	} {
		got, code, err := grepStage(c.args, text)
		if err != nil || got != c.want || code != c.code {
			t.Errorf("%q: %q exit %d (%v), want %q exit %d", c.args, got, code, err, c.want, c.code)
		}
	}
	if _, _, err := grepStage([]string{"sed", "1d"}, text); err == nil {
		t.Error("sed was taken for grep")
	}
}

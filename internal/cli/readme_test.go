package cli

import (
	"bytes"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// TestREADMETranscripts runs every command of the README's console blocks and
// checks that its output is what the README shows, so an example cannot drift
// from the program. A block runs in the repository's top directory, or in the
// directory a `<!-- cwd: DIR -->` line just above it names. In the expected
// text a line "..." stands for any number of lines; every other line must match
// the output's line exactly, in order. `$ echo $?` checks the previous exit
// status.
func TestREADMETranscripts(t *testing.T) {
	readme, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	if blocks := consoleBlocks(string(readme)); len(blocks) < 5 {
		t.Fatalf("found %d console blocks in the README, want the five examples", len(blocks))
	}
	checkTranscripts(t, "README.md", string(readme))
}

// TestExampleTranscripts holds `xcvr help examples` to the same standard: every
// example on that page is run and compared.
func TestExampleTranscripts(t *testing.T) {
	page, err := os.ReadFile("../../internal/help/topics/examples.md")
	if err != nil {
		t.Fatal(err)
	}
	checkTranscripts(t, "examples.md", string(page))
}

func checkTranscripts(t *testing.T, name, md string) {
	top, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	for _, b := range consoleBlocks(md) {
		t.Run(strconv.Itoa(b.line), func(t *testing.T) {
			t.Chdir(filepath.Join(top, b.cwd))
			code := 0
			for _, c := range b.commands {
				if c.cmd == "echo $?" {
					if want := strings.TrimSpace(strings.Join(c.want, "\n")); want != strconv.Itoa(code) {
						t.Errorf("%s line %d: exit status %d, the page says %s", name, c.line, code, want)
					}
					continue
				}
				args := shellWords(c.cmd)
				if len(args) == 0 || args[0] != "xcvr" {
					t.Fatalf("%s line %d: %q is not an xcvr command", name, c.line, c.cmd)
				}
				var out bytes.Buffer
				code = Main(args[1:], strings.NewReader(""), &out, &bytes.Buffer{}, nil)
				if !matchTranscript(c.want, strings.Split(strings.TrimRight(out.String(), "\n"), "\n")) {
					t.Errorf("%s line %d: $ %s\nthe page shows:\n%s\nthe program prints:\n%s", name, c.line, c.cmd, strings.Join(c.want, "\n"), out.String())
				}
			}
		})
	}
}

type transcriptCommand struct {
	line int
	cmd  string
	want []string
}

type consoleBlock struct {
	line     int
	cwd      string
	commands []transcriptCommand
}

var cwdComment = regexp.MustCompile(`^<!-- cwd: (\S+) -->$`)

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

// shellWords splits a command line as a shell would for the README's simple
// commands: words separated by spaces, single or double quotes kept together.
func shellWords(s string) []string {
	var words []string
	var cur strings.Builder
	inWord := false
	var quote rune
	for _, r := range s {
		switch {
		case quote != 0 && r == quote:
			quote = 0
		case quote != 0:
			cur.WriteRune(r)
		case r == '\'' || r == '"':
			quote, inWord = r, true
		case r == ' ':
			if inWord {
				words = append(words, cur.String())
				cur.Reset()
				inWord = false
			}
		default:
			cur.WriteRune(r)
			inWord = true
		}
	}
	if inWord {
		words = append(words, cur.String())
	}
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

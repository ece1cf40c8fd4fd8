// Package oracle runs the real Python libraries TensorRT-LLM reads its files with
// (PyYAML's yaml.safe_load, pydantic's ValidationError) as oracles for xcvr's
// differential tests: one python3 process per test, fed one JSON request a line.
//
// The machine image and CI carry python3 with PyYAML 6 and pydantic 2. Where they
// are missing, Require skips the test with one line, except under CI=true, where
// it fails it: CI must never pass without having asked the oracles.
package oracle

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"slices"
	"strings"
	"sync"
	"testing"
	"unicode"
)

// probe checks python3, PyYAML 6 and pydantic 2 once per test binary.
var probe = sync.OnceValues(func() (string, error) {
	py, err := exec.LookPath("python3")
	if err != nil {
		return "", fmt.Errorf("python3 not found on PATH")
	}
	out, err := exec.Command(py, "-c", "import yaml, pydantic; print(yaml.__version__, pydantic.VERSION)").CombinedOutput()
	if err != nil {
		return "", fmt.Errorf("python3 cannot import yaml and pydantic: %s", strings.TrimSpace(string(out)))
	}
	var yv, pv string
	fmt.Sscan(string(out), &yv, &pv)
	if !strings.HasPrefix(yv, "6.") || !strings.HasPrefix(pv, "2.") {
		return "", fmt.Errorf("need PyYAML 6 and pydantic 2, found PyYAML %s and pydantic %s", yv, pv)
	}
	return py, nil
})

// Require returns the python3 to run, or skips t (fails it under CI=true) when
// python3, PyYAML 6 or pydantic 2 is missing.
func Require(t testing.TB) string {
	t.Helper()
	py, err := probe()
	if err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatalf("oracle: %v (CI=true: the differential tests must run)", err)
		}
		t.Skipf("oracle: %v; skipping the PyYAML/pydantic differential test", err)
	}
	return py
}

// Proc is a running python3 serving requests: each request is one JSON value on
// a line of its stdin, each answer one JSON value on a line of its stdout.
type Proc struct {
	cmd *exec.Cmd
	in  io.WriteCloser
	out *bufio.Reader
	mu  sync.Mutex
}

// Start runs script (Python source that loops over stdin lines) and stops it
// when the test ends.
func Start(t testing.TB, script string) *Proc {
	t.Helper()
	p := spawn(t, script)
	t.Cleanup(func() {
		p.in.Close()
		p.cmd.Wait()
	})
	return p
}

// spawn starts the oracle's Python on script, its stdin and stdout piped.
func spawn(t testing.TB, script string) *Proc {
	t.Helper()
	py := Require(t)
	cmd := exec.Command(py, "-u", "-c", script)
	cmd.Stderr = os.Stderr
	in, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	return &Proc{cmd: cmd, in: in, out: bufio.NewReaderSize(out, 1<<20)}
}

// Ask sends req and decodes the answer into resp.
func (p *Proc) Ask(req, resp any) error {
	p.mu.Lock()
	defer p.mu.Unlock()
	b, err := json.Marshal(req)
	if err != nil {
		return err
	}
	if _, err := p.in.Write(append(b, '\n')); err != nil {
		return fmt.Errorf("oracle: write: %w", err)
	}
	line, err := p.out.ReadBytes('\n')
	if err != nil {
		return fmt.Errorf("oracle: read: %w", err)
	}
	return json.Unmarshal(line, resp)
}

// xcvr models the Python TensorRT-LLM runs in its release containers, 3.12
// (/usr/local/lib/python3.12/dist-packages/tensorrt_llm in their logs), whose
// unicodedata is Unicode 15.0.0: the version of Go's unicode tables, which
// xcvr's repr (resolver.Str.Repr) asks what str.isprintable() says. The oracle
// here may be another Python (3.11 carries Unicode 14.0.0): for a character
// Unicode 15 assigned, its repr escapes what 3.12's prints. PrintableSkew
// finds those characters, so a test can compare the rest of the text and say
// what it set aside, rather than skip the input or trust the oracle blindly.

// printableScript answers {"chars": S} with [c.isprintable() for c in S] and
// the oracle's unicodedata version.
const printableScript = `
import sys, json, unicodedata
for line in sys.stdin:
    s = json.loads(line)["chars"]
    print(json.dumps({"p": [c.isprintable() for c in s], "v": unicodedata.unidata_version}), flush=True)
`

var (
	printableProc  *Proc
	printableOnce  sync.Once
	printableMu    sync.Mutex
	printableCache = map[rune]bool{}
	oracleUnidata  string
)

// Unidata is the oracle Python's unicodedata.unidata_version.
func Unidata(t testing.TB) string {
	PrintableSkew(t, "")
	printableMu.Lock()
	defer printableMu.Unlock()
	return oracleUnidata
}

// PrintableSkew returns the characters of s (each once, in order) whose
// printability, and so whose repr, differs between the oracle's Python and
// Go's unicode tables (Unicode 15.0.0, Python 3.12's), which xcvr models.
func PrintableSkew(t testing.TB, s string) []rune {
	t.Helper()
	printableOnce.Do(func() {
		// Shared by the test binary's tests; the process ends with it.
		printableProc = spawn(t, printableScript)
	})
	printableMu.Lock()
	defer printableMu.Unlock()
	var ask []rune
	for _, r := range s {
		if _, ok := printableCache[r]; !ok && r >= 0x80 && !slices.Contains(ask, r) {
			ask = append(ask, r)
		}
	}
	if len(ask) > 0 || oracleUnidata == "" {
		var ans struct {
			P []bool `json:"p"`
			V string `json:"v"`
		}
		if err := printableProc.Ask(map[string]string{"chars": string(ask)}, &ans); err != nil || len(ans.P) != len(ask) {
			t.Fatalf("oracle: isprintable: %v", err)
		}
		oracleUnidata = ans.V
		for i, r := range ask {
			printableCache[r] = ans.P[i]
		}
	}
	var skew []rune
	for _, r := range s {
		if r >= 0x80 && printableCache[r] != unicode.IsPrint(r) && !slices.Contains(skew, r) {
			skew = append(skew, r)
		}
	}
	return skew
}

// AsModelledPython rewrites the oracle's text as the modelled Python 3.12
// would print it: each repr escape (\uhhhh or \Uhhhhhhhh, not itself escaped
// by a backslash) of a skewed character that Unicode 15.0.0 makes printable
// becomes the character, and the character itself, where the oracle printed
// it raw and Unicode 15.0.0 does not, its escape. Only the characters skew
// lists are touched.
func AsModelledPython(text string, skew []rune) string {
	for _, r := range skew {
		esc := fmt.Sprintf(`\u%04x`, r)
		if r > 0xffff {
			esc = fmt.Sprintf(`\U%08x`, r)
		}
		if unicode.IsPrint(r) {
			text = replaceUnescaped(text, esc, string(r))
		} else {
			text = strings.ReplaceAll(text, string(r), esc)
		}
	}
	return text
}

// replaceUnescaped replaces old (a backslash escape) with new where an even
// number of backslashes precede it: "\\U…" is an escaped backslash and text.
func replaceUnescaped(s, old, new string) string {
	var b strings.Builder
	for {
		i := strings.Index(s, old)
		if i < 0 {
			b.WriteString(s)
			return b.String()
		}
		n := 0
		for j := i - 1; j >= 0 && s[j] == '\\'; j-- {
			n++
		}
		b.WriteString(s[:i])
		if n%2 == 0 {
			b.WriteString(new)
		} else {
			b.WriteString(old)
		}
		s = s[i+len(old):]
	}
}

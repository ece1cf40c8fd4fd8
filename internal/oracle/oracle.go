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
	"strings"
	"sync"
	"testing"
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
	p := &Proc{cmd: cmd, in: in, out: bufio.NewReaderSize(out, 1<<20)}
	t.Cleanup(func() {
		in.Close()
		cmd.Wait()
	})
	return p
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

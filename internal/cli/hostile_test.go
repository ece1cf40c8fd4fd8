package cli

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// Usage errors are exit 2 with the reason on stderr and nothing on stdout; none
// of these may fall back silently to a default or print help with exit 0.
func TestStrictUsageErrors(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"explain", "--pid", "0"}, "--pid 0: want a positive process id"},
		{[]string{"check-logs", "--pid", "0", "-"}, "--pid 0: want a positive process id"},
		{[]string{"explain", "--backend", ""}, "--backend '': empty value"},
		{[]string{"explain", "--timeout-ms", ""}, "--timeout-ms '': empty value"},
		{[]string{"explain", "--runtime="}, "--runtime '': empty value"},
		{[]string{"completion", "tcsh"}, `completion "tcsh": unknown shell`},
		{[]string{"completion"}, "completion needs a shell"},
		{[]string{"help", "frob"}, `help "frob": no such command`},
	} {
		out, errOut, code := run(t, nil, c.args...)
		if code != 2 || out != "" || !strings.Contains(errOut, c.want) {
			t.Errorf("%q: exit %d, stdout %q, stderr %q; want exit 2 and %q", c.args, code, out, errOut, c.want)
		}
	}
	if out, _, code := run(t, nil, "help", "explain"); code != 0 || !strings.Contains(out, "explain") {
		t.Errorf("help explain: %d", code)
	}
}

func TestFutureMainDateWarns(t *testing.T) {
	_, errOut, code := run(t, nil, "explain", "--clean-env", "--trtllm", "main@2999-01-01")
	if code != 0 || !strings.Contains(errOut, "main@2999-01-01 is in the future; xcvr knows nothing past its newest facts") {
		t.Fatalf("exit %d, stderr %q", code, errOut)
	}
	if _, errOut, _ := run(t, nil, "explain", "--clean-env", "--trtllm", "main@2026-08-01"); errOut != "" {
		t.Fatalf("a past date warns: %q", errOut)
	}
}

// A FIFO given as any file input is refused at once, without waiting for a writer.
func TestFIFOInputsRefused(t *testing.T) {
	fifo := filepath.Join(t.TempDir(), "fifo")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skip(err)
	}
	for _, args := range [][]string{
		{"explain", "--config", fifo}, {"explain", "--disagg", fifo}, {"explain", "--env-file", fifo},
		{"explain", "--model-config", fifo}, {"explain", "--catalog", fifo}, {"check-logs", fifo},
	} {
		out, errOut, code := run(t, nil, args...)
		if code != 2 || out != "" || !strings.Contains(errOut, "FIFO") {
			t.Errorf("%q: exit %d stderr %q", args, code, errOut)
		}
	}
}

// A panic inside a command is an internal error, exit 3, never 2.
func TestPanicExits3(t *testing.T) {
	out, errOut, code := run(t, []string{"XCVR_CRASH_TEST=panic"}, "explain")
	if code != 3 || out != "" || !strings.HasPrefix(errOut, "xcvr: internal error: crash test;") {
		t.Fatalf("exit %d stderr %.200q", code, errOut)
	}
}

// The BOM PyYAML skips must not change the answer: with it, the worker YAML used to
// read as having no cache_transceiver_config (disaggregation off).
func TestBOMConfigKeepsTheAnswer(t *testing.T) {
	p := filepath.Join(t.TempDir(), "w.yaml")
	if err := os.WriteFile(p, []byte("\ufeffcache_transceiver_config:\n  backend: UCX\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	out, _, code := run(t, nil, "explain", "--clean-env", "--trtllm", "1.3.0rc22", "--config", p, "-o", "json")
	if code != 0 || !strings.Contains(out, `"effective_backend": "UCX"`) {
		t.Fatalf("exit %d: %.400s", code, out)
	}
}

// architectures: [""] is an unknown model, and says so; the model build then
// fails.
func TestEmptyArchitectureWarns(t *testing.T) {
	out, errOut, code := run(t, nil, "explain", "--clean-env", "--model-config", hostile("empty-arch.json"), "-o", "json")
	if code != 1 || !strings.Contains(out, `"title": "Build the model (AutoModelForCausalLM.from_config)",
      "verdict": "error"`) || !strings.Contains(errOut, "architectures[0] is an empty string") || !strings.Contains(out, `"origin": "testdata/hostile/empty-arch.json:1"`) {
		t.Fatalf("exit %d, stderr %q\n%.300s", code, errOut, out)
	}
}

func TestFutureMainDateWarnsInComparisons(t *testing.T) {
	_, errOut, _ := run(t, nil, "diff", "--clean-env", "--from", "1.3.0rc22", "--to", "main@2999-01-01")
	if !strings.Contains(errOut, "main@2999-01-01 is in the future") {
		t.Fatalf("stderr %q", errOut)
	}
}

package cli

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"
)

// sgr matches the colour sequences xcvr itself writes with --color always.
var sgr = regexp.MustCompile(`\x1b\[[0-9;:]*m`)

// rawControl returns the first control character a terminal would act on, or
// that hides itself: C0 but tab and newline, DEL, C1, the format characters
// (bidi controls, zero-width characters, U+FEFF, tags), U+2028/U+2029, or
// invalid UTF-8. It is written without termsafe, so as to check it.
func rawControl(s string) (rune, bool) {
	if !utf8.ValidString(s) {
		return utf8.RuneError, true
	}
	for _, r := range s {
		if (r < 0x20 && r != '\n' && r != '\t') || (r >= 0x7f && r <= 0x9f) || unicode.Is(unicode.Cf, r) || r == 0x2028 || r == 0x2029 {
			return r, true
		}
	}
	return 0, false
}

func hostile(name string) string { return filepath.Join("testdata", "hostile", name) }

// TestHostileValuesNeverReachTheTerminalRaw writes values full of control
// characters and escape sequences — decoded from YAML double-quoted escapes,
// JSON \u escapes, $'...' env values, catalog entries, unknown key names and log
// lines — through every human-readable output path, and checks that no raw control
// character survives on stdout or stderr (xcvr's own colour codes aside).
func TestHostileValuesNeverReachTheTerminalRaw(t *testing.T) {
	evil := "Evil\x1b]0;owned\x07ForCausalLM"
	paths := [][]string{
		{"explain", "--config", hostile("esc-config.yaml")},
		{"explain", "--config", hostile("esc-config.yaml"), "-o", "markdown"},
		{"explain", "--config", hostile("esc-config.yaml"), "-o", "yaml"},
		{"explain", "--env-file", hostile("esc.env"), "--backend", "DEFAULT"},
		{"explain", "--env-file", hostile("esc.env"), "-o", "markdown"},
		{"explain", "--model-config", hostile("esc-config.json")},
		{"explain", "--model-config", hostile("empty-arch.json")},
		{"explain", "--disagg", hostile("esc-disagg.yaml")},
		{"explain", "--disagg", hostile("esc-disagg.yaml"), "-o", "markdown"},
		{"explain", "--catalog", hostile("esc-catalog.yaml"), "--model", evil, "--backend", "NIXL", "--runtime", "auto", "--trtllm", "1.3.0rc26"},
		{"explain", "--model", evil, "--backend", "\x1b[2J\u009b", "--runtime", "\u202eauto"},
		{"explain", "--env", "TRTLLM_USE_UCX_KVCACHE=\x1b]52;c;AAAA\x07"},
		{"models", "--catalog", hostile("esc-catalog.yaml")},
		{"check-logs", hostile("esc.log")},
		{"check-logs", hostile("esc.log"), "--config", hostile("esc-config.yaml")},
		{"diff", "--from", "1.3.0rc22", "--config", hostile("esc-config.yaml")},
		{"diff", "--from", "1.3.0rc22", "--catalog", hostile("esc-catalog.yaml"), "--model", evil, "-o", "markdown"},
		{"upgrade-check", "--from", "1.3.0rc22", "--env-file", hostile("esc.env")},
		{"upgrade-check", "--from", "1.3.0rc22", "--catalog", hostile("esc-catalog.yaml"), "--model", evil, "-o", "markdown"},
		{"matrix", "--catalog", hostile("esc-catalog.yaml")},
		{"matrix", "--catalog", hostile("esc-catalog.yaml"), "-o", "markdown"},
		{"explain", "--config", hostile("esc-\x1b]0;x\x07-missing.yaml")},
	}
	for _, args := range paths {
		for _, color := range []string{"never", "always"} {
			a := append([]string{"--color", color}, args...)
			out, errOut, code := run(t, []string{"NO_COLOR="}, a...)
			if code == 3 {
				t.Errorf("%q: internal error:\n%s", a, errOut)
			}
			for stream, s := range map[string]string{"stdout": out, "stderr": errOut} {
				if r, bad := rawControl(sgr.ReplaceAllString(s, "")); bad {
					t.Errorf("%q: raw %U on %s:\n%q", a, r, stream, s)
				}
			}
			if out == "" && errOut == "" {
				t.Errorf("%q: no output at all", a)
			}
		}
	}
}

// JSON keeps exact values: its encoder escapes control characters, and decoding
// gives back what the file said.
func TestHostileJSONKeepsExactValues(t *testing.T) {
	out, _, code := run(t, nil, "explain", "--config", hostile("esc-config.yaml"), "-o", "json")
	if code != 1 {
		t.Fatalf("exit %d", code)
	}
	if r, bad := rawControl(out); bad {
		t.Fatalf("raw %U in JSON", r)
	}
	var v struct {
		Inputs map[string]struct{ Value any } `json:"inputs"`
		Error  string                         `json:"error"`
	}
	if err := json.Unmarshal([]byte(out), &v); err != nil {
		t.Fatal(err)
	}
	if got := v.Inputs["backend"].Value; got != "UCX\x1b[2J\u009b31m" {
		t.Errorf("backend %q, want the exact decoded value", got)
	}
	// pydantic's input_value is Python's repr, which escapes C1 as \x9b.
	if !strings.Contains(v.Error, `input_value='UCX\x1b[2J\x9b31m'`) || !strings.Contains(v.Error, `input_value='\u202eauto'`) {
		t.Errorf("error:\n%s", v.Error)
	}
}

// Files named on a --pid command line and the process's own argv are input too.
func TestHostileProcIsEscaped(t *testing.T) {
	root := t.TempDir()
	dir := filepath.Join(root, "4242")
	if err := os.MkdirAll(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	write := func(name, s string) {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(s), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	write("cmdline", "python\x00evil\x1b]0;owned\x07.py\x00--config\x00/nonexistent/\x9b.yaml\x00")
	write("environ", "TRTLLM_USE_UCX_KVCACHE=\x1b[2J1\x00PATH=/bin\x00")
	var stderr bytes.Buffer
	app := &appEnv{stderr: &stderr, stdout: &bytes.Buffer{}}
	d := deployFlags{pid: 4242, procRoot: root}
	if err := d.load(app); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(stderr.String(), `evil\x1b]0;owned\x07.py`) {
		t.Fatalf("warning %q", stderr.String())
	}
	if r, bad := rawControl(stderr.String()); bad {
		t.Fatalf("raw %U: %q", r, stderr.String())
	}
}

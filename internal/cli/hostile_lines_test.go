package cli

import (
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"xcvr/internal/termsafe"
)

// forged finds a line that a value made: the corpus puts "\nFORGED" (and the
// other line breaks) inside values, and xcvr never writes FORGED itself, so the
// word at the start of a line — after any indentation, table or list mark — is
// a line xcvr did not write.
var forged = regexp.MustCompile(`(?m)^[\s|>*▶✗→·-]*FORGED`)

// breaks are the ways a value can end a line: newline, carriage return, and
// the line and paragraph separators some terminals and editors honour.
var breaks = []string{"\n", "\r", "\u2028", "\u2029", "\v", "\f", "\x85"}

// forgeCheck fails when out holds a forged line or a raw invisible character.
func forgeCheck(t *testing.T, what string, out string) {
	t.Helper()
	if m := forged.FindString(out); m != "" {
		t.Errorf("%s: a value forged a line %q:\n%s", what, m, out)
	}
	if r, bad := rawControl(sgr.ReplaceAllString(out, "")); bad {
		t.Errorf("%s: raw %U:\n%q", what, r, out)
	}
}

// A log file's name in check-logs DIR is input: a directory holds what its
// writers named. A name holding a newline once printed "rank 0: PYTHON" and
// "Every process agrees with the prediction." as lines of xcvr's own.
func TestHostileLogNamesForgeNoLines(t *testing.T) {
	dir := t.TempDir()
	log, err := os.ReadFile(filepath.Join("testdata", "hostile", "esc.log"))
	if err != nil {
		t.Fatal(err)
	}
	for i, br := range breaks {
		name := "r" + string(rune('a'+i)) + br + "FORGED rank 0: PYTHON" + br + "FORGED Every process agrees with the prediction\u200b"
		if err := os.WriteFile(filepath.Join(dir, name), log, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	for _, args := range [][]string{
		{"check-logs", dir},
		{"check-logs", dir, "--trtllm", "1.3.0rc26"},
		{"check-logs", filepath.Join(dir, "ra\nFORGED rank 0: PYTHON\nFORGED Every process agrees with the prediction\u200b")},
		{"check-logs", filepath.Join(dir, "ra\nFORGED rank 0: PYTHON\nFORGED Every process agrees with the prediction\u200b"), "--trtllm", "1.3.0rc26"},
		{"check-logs", filepath.Join(dir, "missing\nFORGED.log")},
		{"check-logs", filepath.Join(dir, "r*")},
	} {
		out, errOut, code := run(t, nil, args...)
		if code == 3 {
			t.Errorf("%q: internal error:\n%s", args, errOut)
		}
		if out == "" && errOut == "" {
			t.Errorf("%q: no output", args)
		}
		if !strings.Contains(out+errOut, `\nFORGED`) {
			t.Errorf("%q: the name is not shown escaped:\n%s%s", args, out, errOut)
		}
		forgeCheck(t, strings.Join(args, " ")+" (stdout)", out)
		forgeCheck(t, strings.Join(args, " ")+" (stderr)", errOut)
	}
}

// Warnings and errors are one line each, whatever the values they quote: a
// YAML model: value (a checkpoint directory), a --config path from a --pid
// command line, a path on the command line.
func TestHostileWarningsStayOneLine(t *testing.T) {
	root := t.TempDir()
	for _, br := range breaks {
		// A checkpoint directory whose name breaks the line: its config.json
		// is read (and warned about) because the YAML's model: names it.
		mdir := filepath.Join(root, "m"+br+"FORGED model"+br+"FORGED")
		if err := os.MkdirAll(mdir, 0o700); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(mdir, "config.json"), []byte(`{"architectures": []}`), 0o600); err != nil {
			t.Fatal(err)
		}
		cfg := filepath.Join(root, "c.yaml")
		yaml := "model: " + strconvQuote(mdir) + "\ncache_transceiver_config:\n  backend: UCX\n"
		if err := os.WriteFile(cfg, []byte(yaml), 0o600); err != nil {
			t.Fatal(err)
		}
		out, errOut, code := run(t, nil, "explain", "--clean-env", "--config", cfg)
		if code == 3 || errOut == "" {
			t.Errorf("model %q: exit %d, stderr %q", mdir, code, errOut)
		}
		forgeCheck(t, "model: stdout", out)
		forgeCheck(t, "model: stderr", errOut)

		// --pid: the process's --config names a file that is not there.
		proc := filepath.Join(root, "proc")
		pdir := filepath.Join(proc, "4242")
		if err := os.MkdirAll(pdir, 0o700); err != nil {
			t.Fatal(err)
		}
		cmdline := "python\x00-m\x00tensorrt_llm.commands.serve\x00serve\x00" + mdir + "\x00--config\x00/nonexistent/x" + br + "FORGED.yaml\x00"
		if err := os.WriteFile(filepath.Join(pdir, "cmdline"), []byte(cmdline), 0o600); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(pdir, "environ"), []byte("PATH=/bin\x00"), 0o600); err != nil {
			t.Fatal(err)
		}
		var stderr strings.Builder
		app := &appEnv{stderr: &stderr, stdout: &strings.Builder{}}
		d := deployFlags{pid: 4242, procRoot: proc}
		err := d.load(app)
		msg := stderr.String()
		if err != nil {
			msg += "xcvr: " + termsafeMessage(err) + "\n"
		}
		if !strings.Contains(msg, "FORGED") {
			t.Errorf("--pid: the --config path is not named: %q", msg)
		}
		forgeCheck(t, "--pid", msg)
	}
}

func strconvQuote(s string) string { return strconv.Quote(s) }

func termsafeMessage(err error) string { return termsafe.Message(err) }

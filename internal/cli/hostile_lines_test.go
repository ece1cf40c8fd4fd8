package cli

import (
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"strconv"
	"strings"
	"testing"

	"xcvr/internal/termsafe"
)

// forged finds a line that a value made: the corpus puts "\nFORGED" (and the
// other line breaks) inside values, and xcvr never writes FORGED itself, so the
// word at the start of a line — after any indentation, table or list mark — is
// a line xcvr did not write.
var forged = regexp.MustCompile(`(?m)^[\s|>*#▶✗→·-]*FORGED`)

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

// TestHostileValuesForgeNoLines puts every way of ending a line (and the
// invisible characters) inside every value a file or flag gives — model,
// backend, runtime, timeout, an unknown key, env values, catalog entries,
// config.json architectures, disagg sections — and walks every human-readable
// output: no value may start a line of its own (in text, -o markdown, where an
// unknown key once closed the exception's code block, tables and warnings).
func TestHostileValuesForgeNoLines(t *testing.T) {
	dir := t.TempDir()
	write := func(name, s string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(s), 0o600); err != nil {
			t.Fatal(err)
		}
		return p
	}
	// YAML's double-quoted escapes: \n, \r, \L (U+2028), \P (U+2029), \N (U+0085);
	// each breaks into a line FORGED, a Markdown fence and a heading.
	for i, br := range []string{`\n`, `\r`, `\L`, `\P`, `\N`} {
		v := `x` + br + "```" + br + `FORGED\u200b` + br + `#FORGED` + br + `FORGED`
		cfg := write("c"+strconv.Itoa(i)+".yaml", `model: "/models/`+v+`"
cache_transceiver_config:
  backend: "UCX`+v+`"
  transceiver_runtime: "auto`+v+`"
  kv_transfer_timeout_ms: "6`+v+`"
  "key`+v+`": 1
  "K`+v+`": 2
`)
		dis := write("d"+strconv.Itoa(i)+".yaml", `cache_transceiver_config:
  backend: "NIXL`+v+`"
context_servers:
  num_instances: 1
  "k`+v+`": 1
generation_servers:
  num_instances: 1
  backend: "p`+v+`"
`)
		cat := write("cat"+strconv.Itoa(i)+".yaml", `models:
  - arch: "EvilForCausalLM`+v+`"
    family: "f`+v+`"
    note: "n`+v+`"
    preferences:
      - {since: 2026-07-20, value: PYTHON, pr: 1}
`)
		js := write("m"+strconv.Itoa(i)+".json", `{"architectures": ["Llama`+strings.ReplaceAll(strings.ReplaceAll(v, `\L`, `\u2028`), `\P`, `\u2029`)+`"], "model_type": "llama`+`\n`+`FORGED"}`)
		if br == `\N` || br == `\r` {
			js = write("m"+strconv.Itoa(i)+".json", `{"architectures": ["Llama\rFORGED\u0085FORGED"]}`)
		}
		env := write("e"+strconv.Itoa(i)+".env", "export TRTLLM_USE_UCX_KVCACHE=$'1\\nFORGED'\nexport TRTLLM_USE_NIXL_KVCACHE=\"1\nFORGED\"\n")
		flag := strings.NewReplacer(`\n`, "\n", `\r`, "\r", `\L`, "\u2028", `\P`, "\u2029", `\N`, "\u0085", `\u200b`, "\u200b").Replace(v)
		for _, args := range [][]string{
			{"explain", "--config", cfg},
			{"explain", "--config", cfg, "-o", "markdown"},
			{"explain", "--config", cfg, "-o", "yaml"},
			{"explain", "--disagg", dis},
			{"explain", "--disagg", dis, "-o", "markdown"},
			{"explain", "--model-config", js},
			{"explain", "--env-file", env, "--backend", "DEFAULT"},
			{"explain", "--catalog", cat, "--model", "EvilForCausalLM" + flag, "--trtllm", "1.3.0rc26"},
			{"explain", "--model", "Gpt" + flag, "--backend", "UCX" + flag, "--runtime", "auto" + flag},
			{"explain", "--model", "Gpt" + flag, "-o", "markdown"},
			{"explain", "--env", "TRTLLM_USE_UCX_KVCACHE=1" + flag},
			{"models", "--catalog", cat},
			{"matrix", "--catalog", cat},
			{"matrix", "--catalog", cat, "-o", "markdown"},
			{"diff", "--from", "1.3.0rc22", "--config", cfg},
			{"diff", "--from", "1.3.0rc22", "--config", cfg, "-o", "markdown"},
			{"upgrade-check", "--from", "1.3.0rc22", "--config", cfg},
			{"upgrade-check", "--from", "1.3.0rc22", "--catalog", cat, "--model", "EvilForCausalLM" + flag, "-o", "markdown"},
			{"explain", "--config", filepath.Join(dir, "missing"+flag+".yaml")},
			{"audit", dis},
			{"audit", cfg},
			{"audit", dis, "-o", "markdown"},
			{"versions"},
		} {
			out, errOut, code := run(t, []string{"NO_COLOR="}, append([]string{"--color", "always", "--clean-env"}[:2], args...)...)
			if code == 3 {
				t.Errorf("%q: internal error:\n%s", args, errOut)
			}
			what := strings.Join(args, " ")
			forgeCheck(t, what+" (stdout)", out)
			forgeCheck(t, what+" (stderr)", errOut)
		}
	}
}

// A 16 MiB architectures[0] (the config.json limit) was compared in full with
// every catalog name on every resolution: 24 s and 278 MB per explain. The
// suggestions are bounded now (length caps and candidate limits before any edit
// distance) and worked out once per name (models' tests hold Lookup itself to
// a few KiB); what is left is reading the file and printing the name.
func TestHostileHugeArchitectureIsCheap(t *testing.T) {
	dir := t.TempDir()
	name := "GptOssForCausalLX" + strings.Repeat("a", 16<<20-200)
	p := filepath.Join(dir, "config.json")
	if err := os.WriteFile(p, []byte(`{"architectures": ["`+name+`"]}`), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, o := range []string{"json", "text"} {
		var before, after runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&before)
		out, errOut, code := run(t, nil, "explain", "--clean-env", "--model-config", p, "-o", o)
		runtime.ReadMemStats(&after)
		alloc := after.TotalAlloc - before.TotalAlloc
		// An unregistered name resolves 'for unknown model'; the model build
		// then fails (exit 1).
		if code != 1 || !strings.Contains(out, "unknown model") || !strings.Contains(out, "Unknown architecture for AutoModelForCausalLM: GptOssForCausalLX") {
			t.Fatalf("-o %s: exit %d, stderr %.300q", o, code, errOut)
		}
		t.Logf("-o %s: %d MiB allocated", o, alloc>>20)
		// Before: 2.9 GB. What is left (about 700 MiB) is linear: the name is in
		// the header, the step, the JSON's indentation, the text's wrap and the
		// model build's exception (upstream's message holds it).
		if alloc > 1<<30 {
			t.Errorf("-o %s: %d MiB allocated for a 16 MiB name, budget 1 GiB", o, alloc>>20)
		}
	}
}

// /proc/kmsg blocks a reader forever, and stat calls it a regular file; a log
// directory held a symlink to it. check-logs DIR skips such a file, naming
// it, and reads the rest (/proc/self/mounts stands in: it is pollable the
// same way, and any user can open it).
func TestHostileProcStreamInALogDirectory(t *testing.T) {
	if _, err := os.Stat("/proc/self/mounts"); err != nil {
		t.Skip("no procfs")
	}
	dir := t.TempDir()
	log, err := os.ReadFile(filepath.Join("testdata", "hostile", "esc.log"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "rank0.log"), log, 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("/proc/self/mounts", filepath.Join(dir, "rank1.log")); err != nil {
		t.Fatal(err)
	}
	out, errOut, _ := run(t, nil, "check-logs", dir)
	if !strings.Contains(errOut, "rank1.log: refused: a stream that stat calls a regular file") || !strings.Contains(out, "rank0.log: 3 lines") {
		t.Errorf("stdout:\n%s\nstderr:\n%s", out, errOut)
	}
	_, errOut, code := run(t, nil, "explain", "--config", "/proc/self/mounts")
	if code != 2 || !strings.Contains(errOut, "a stream that stat calls a regular file") {
		t.Errorf("--config /proc/self/mounts: exit %d, %s", code, errOut)
	}
}

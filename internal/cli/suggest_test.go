package cli

import (
	"strings"
	"testing"

	"xcvr/resolver"
)

// Suggestions wherever a name is typed: a command, a flag, a version, a
// backend, a runtime. A name with nothing near says where the names are.
func TestDidYouMean(t *testing.T) {
	for _, tc := range []struct {
		args      []string
		code      int
		stderrHas string
		stderrNot string
	}{
		{[]string{"explian"}, 2, `unknown command "explian" for "xcvr"; did you mean explain?`, ""},
		{[]string{"matirx"}, 2, "did you mean matrix?", ""},
		{[]string{"explain", "--bogus"}, 2, "unknown flag: --bogus; 'xcvr explain --help' lists its flags", "did you mean"},
		{[]string{"explain", "--trtlm", "1.3.0rc22"}, 2, "unknown flag: --trtlm; did you mean --trtllm?", ""},
		{[]string{"explain", "--trtllm", "1.4.0rc5"}, 0, "xcvr: note: 1.4.0rc5 is not a release xcvr lists; did you mean 1.4.0rc4?", ""},
		{[]string{"explain", "--backend", "UCXX"}, 1, "xcvr: note: --backend 'UCXX' is not a backend TensorRT-LLM accepts; did you mean UCX?", ""},
		{[]string{"explain", "--runtime", "Auto"}, 1, "did you mean auto?", ""},
		{[]string{"explain", "--backend", "UCX"}, 1, "", "did you mean"},
		{[]string{"explain", "--trtllm", "1.3.0rc22"}, 0, "", "did you mean"},
		// Only within the release line, and not for a .post or .dev build of a
		// listed release: these got 1.2.0, 1.3.0rc6 and 1.3.0rc12.post1.
		{[]string{"explain", "--trtllm", "1.4.0"}, 0, "xcvr's rules end at 1.4.0rc4; 1.4.0 is answered with them", "did you mean"},
		{[]string{"explain", "--trtllm", "1.1.0rc6"}, 0, "xcvr: note: 1.1.0rc6 is not a release xcvr lists; did you mean 1.1.0rc5?", "1.3.0rc6"},
		{[]string{"explain", "--trtllm", "1.3.0rc22.post1"}, 0, "answered with the rules of 1.3.0rc22", "did you mean"},
		// Another spelling of a listed release is that release (PEP 440
		// normalises the case; a tag's v is dropped): it said "1.3.0RC22 is
		// not a release xcvr lists; did you mean 1.3.0rc22?" while answering
		// for 1.3.0rc22.
		{[]string{"explain", "--trtllm", "1.3.0RC22"}, 0, "", "did you mean"},
		{[]string{"explain", "--trtllm", "v1.3.0rc22"}, 0, "", "did you mean"},
		{[]string{"explain", "--trtllm", " 1.3.0rc22"}, 0, "", "did you mean"},
		{[]string{"explain", "--trtllm", "1.3.0rc222"}, 0, "xcvr: note: 1.3.0rc222 is not a release xcvr lists; did you mean 1.3.0rc22?", ""},
		// The release's own spellings: 1.0 takes lower case only, and before
		// #5234 backend is no field (any value is ignored).
		{[]string{"explain", "--trtllm", "1.0.0rc4", "--backend", "default"}, 0, "", "did you mean"},
		{[]string{"explain", "--trtllm", "1.0.0rc4", "--backend", "UCX"}, 1, "xcvr: note: --backend 'UCX' is not a backend TensorRT-LLM accepts; did you mean ucx?", ""},
		{[]string{"explain", "--trtllm", "1.0.0rc1", "--backend", "UCX"}, 0, "", "did you mean"},
		// A variable name one letter off is ignored by TensorRT-LLM: say so.
		{[]string{"explain", "--env", "TRTLLM_USE_UCX_KVCACH=1"}, 0, "xcvr: note: --env TRTLLM_USE_UCX_KVCACH is not a variable TensorRT-LLM's transceiver choice reads; did you mean TRTLLM_USE_UCX_KVCACHE?", ""},
		{[]string{"explain", "--env", "TRTLLM_USE_UCX_KVCACHE=1", "--env", "HOME=/x"}, 1, "", "did you mean"},
	} {
		_, errOut, code := run(t, nil, tc.args...)
		if code != tc.code || !strings.Contains(errOut, tc.stderrHas) || (tc.stderrNot != "" && strings.Contains(errOut, tc.stderrNot)) {
			t.Errorf("%v: exit %d (want %d), stderr %q", tc.args, code, tc.code, errOut)
		}
	}
	// A hostile name costs nothing: no suggestion is computed past 64 bytes.
	if n := nearest(strings.Repeat("x", 1<<16), []string{"explain"}); n != nil {
		t.Errorf("suggested %v for a huge word", n)
	}
}

// A value a flag's type cannot hold is said in xcvr's words, not strconv's
// or time's ('strconv.ParseInt: parsing "abc": invalid syntax').
func TestBadFlagValues(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"explain", "--pid", "abc"}, `xcvr: --pid "abc": want a whole number` + "\n"},
		{[]string{"explain", "--pid", "99999999999999999999"}, `xcvr: --pid "99999999999999999999": want a whole number (this one is out of range)` + "\n"},
		{[]string{"serve", "--max-sessions", "x"}, `xcvr: --max-sessions "x": want a whole number` + "\n"},
		{[]string{"serve", "--idle-timeout", "5"}, `xcvr: --idle-timeout "5": want a duration with its unit, such as 30s, 15m or 1h30m` + "\n"},
		{[]string{"explain", "--pipelined=maybe"}, `xcvr: --pipelined "maybe": want true or false` + "\n"},
		{[]string{"check-logs", "-f=2", "x.log"}, `xcvr: --follow "2": want true or false` + "\n"},
		{[]string{"matrix", "--width", "wide"}, `xcvr: --width "wide": want a whole number` + "\n"},
	} {
		out, errOut, code := run(t, nil, tc.args...)
		if code != 2 || out != "" || errOut != tc.want {
			t.Errorf("%v: exit %d, stderr %q, want %q", tc.args, code, errOut, tc.want)
		}
	}
}

// Item 4: --env completes every variable the resolver reads (the list is
// resolver.EnvVars, which a resolver test keeps whole).
func TestEnvCompletionIsEveryVariable(t *testing.T) {
	out, _, _ := run(t, nil, "__complete", "explain", "--env", "")
	for _, e := range resolver.EnvVars() {
		if !strings.Contains(out, e.Name+"=\n") {
			t.Errorf("--env completion lacks %s:\n%s", e.Name, out)
		}
	}
	for _, name := range []string{"TRTLLM_KVCACHE_POOL_USE_FABRIC_MEMORY", "TRTLLM_USE_PY_MAMBA"} {
		if !strings.Contains(out, name+"=") {
			t.Errorf("--env completion lacks %s", name)
		}
	}
}

// A command given the wrong number of arguments says what it reads and points
// at its own usage: `xcvr audit` alone printed cobra's "requires at least 1
// arg(s), only received 0" and "Run 'xcvr --help' for usage.", the root's.
func TestArgumentCountErrors(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"audit"}, "xcvr: audit needs the deployment's files (or - for standard input)\nRun 'xcvr audit --help' for usage.\n"},
		{[]string{"check-logs", "--trtllm", "1.3.0rc22"}, "xcvr: check-logs needs the logs: files, directories, globs (or - for standard input)\nRun 'xcvr check-logs --help' for usage.\n"},
		{[]string{"inspect"}, "xcvr: inspect needs one PATH (site-packages, the tensorrt_llm package or a Python prefix) or auto\nRun 'xcvr inspect --help' for usage.\n"},
		{[]string{"inspect", "a", "b"}, "xcvr: inspect takes one PATH (site-packages, the tensorrt_llm package or a Python prefix) or auto; got 2 arguments\nRun 'xcvr inspect --help' for usage.\n"},
		{[]string{"versions", "extra"}, "xcvr: unknown command \"extra\" for \"xcvr versions\"\nRun 'xcvr versions --help' for usage.\n"},
		{[]string{"explian"}, "xcvr: unknown command \"explian\" for \"xcvr\"; did you mean explain?\nRun 'xcvr --help' for usage.\n"},
	} {
		out, errOut, code := run(t, nil, tc.args...)
		if code != exitUsage || out != "" || errOut != tc.want {
			t.Errorf("%v: exit %d, stdout %q, stderr %q; want stderr %q", tc.args, code, out, errOut, tc.want)
		}
	}
}

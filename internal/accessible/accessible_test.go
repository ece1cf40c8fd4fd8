package accessible

import (
	"context"
	"strings"
	"testing"

	"xcvr/internal/inputs"
)

func run(t *testing.T, o Options, input string) string {
	t.Helper()
	var out strings.Builder
	o.In, o.Out = strings.NewReader(input), &out
	if o.Spec.Version.Raw == "" {
		o.Spec = inputs.Defaults()
	}
	if err := Run(context.Background(), o); err != nil {
		t.Fatalf("Run: %v", err)
	}
	return out.String()
}

func TestOnePromptAtATimeWithTheExplainTextAfterEachChange(t *testing.T) {
	// version, model (kept), backend, runtime (kept), env (one set, then on),
	// then the version prompt again, and q.
	out := run(t, Options{}, "1.3.0rc22\n\nUCX\n\nTRTLLM_USE_UCX_KVCACHE=1\n\nq\n")
	order := []string{
		"TensorRT-LLM version [1.4.0rc4]: ",
		"Outcome: Python transceiver (KvCacheTransceiverV2) on backend NIXL", // 1.3.0rc22, GPT-OSS, DEFAULT→NIXL
		"TensorRT-LLM 1.3.0rc22 (era 1)",
		"Model architecture [GptOssForCausalLM]: ",
		"Backend [DEFAULT]: ",
		"Outcome: C++ transceiver (BindKvCacheTransceiver) on backend UCX",
		"transceiver_runtime [unset]: ",
		"Environment variable [none set; KEY=VALUE sets, KEY alone unsets]: ",
		"Environment variable [TRTLLM_USE_UCX_KVCACHE=1]: ",
		"Back to the first question",
		"TensorRT-LLM version [1.3.0rc22]: ",
		"Bye.",
	}
	rest := out
	for _, want := range order {
		i := strings.Index(rest, want)
		if i < 0 {
			t.Fatalf("missing (or out of order) %q in:\n%s", want, out)
		}
		rest = rest[i+len(want):]
	}
	// Three changes, three explain texts after the first one: four in all.
	if n := strings.Count(out, "Log lines you should see"); n != 4 {
		t.Errorf("%d explain texts, want 4 (start + 3 changes)", n)
	}
}

func TestLinearOutputIsPlain(t *testing.T) {
	out := run(t, Options{}, "1.3.0rc26\nDeepseekV3ForCausalLM\nUCX\n?\nPYTHON\n")
	if strings.ContainsRune(out, 0x1b) {
		t.Error("ANSI escape in linear mode")
	}
	for _, box := range "─│┌┐└┘├┤┬┴┼═║" {
		if strings.ContainsRune(out, box) {
			t.Errorf("box drawing %q in linear mode", box)
		}
	}
	if !strings.Contains(out, "Choices: unset, auto, CPP, PYTHON, null") {
		t.Error("? did not list the runtime choices")
	}
	if !strings.Contains(out, "Outcome: start-up fails: ValueError: Python transceiver currently only supports NIXL backend, got UCX.") {
		t.Errorf("no failure outcome:\n%s", out)
	}
}

func TestBadAnswersAreRefusedAndAskedAgain(t *testing.T) {
	out := run(t, Options{}, "9.9\n1.3.0rc22\n\n\n\nFOO\n\nq\n")
	for _, want := range []string{
		"Not changed: ", // 9.9 is no version
		"TensorRT-LLM version [1.4.0rc4]: Not changed",
		"Not changed: FOO is not set",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("missing %q in:\n%s", want, out)
		}
	}
	if strings.Count(out, "TensorRT-LLM version [1.4.0rc4]: ") != 2 {
		t.Error("the version question was not asked again after a bad answer")
	}
}

func TestSameValueIsNotAChange(t *testing.T) {
	out := run(t, Options{}, "1.4.0rc4\nq\n")
	if n := strings.Count(out, "Log lines you should see"); n != 1 {
		t.Errorf("typing the current value re-printed the explain text (%d times)", n)
	}
}

func TestRawTerminalEchoAndCRLF(t *testing.T) {
	out := run(t, Options{CRLF: true, Echo: true}, "1.3.0rc2X\x7f2\x1b[A\rq\r")
	if !strings.Contains(out, "1.3.0rc2X\b \b2\r\n") {
		t.Errorf("echo with erase missing:\n%q", out)
	}
	if strings.Contains(strings.ReplaceAll(out, "\r\n", ""), "\n") {
		t.Error("a bare \\n in CRLF mode")
	}
	if strings.Contains(out, "[A") {
		t.Error("the arrow key's sequence landed in the answer or the echo")
	}
	if !strings.Contains(out, "TensorRT-LLM 1.3.0rc22 (era 1)") {
		t.Error("the edited answer was not applied")
	}
}

func TestEndOfInputEndsQuietly(t *testing.T) {
	out := run(t, Options{}, "")
	if !strings.HasSuffix(out, "Bye.\n") {
		t.Errorf("EOF: %q", out[max(0, len(out)-80):])
	}
	long := strings.Repeat("x", 3*MaxLine) + "\nq\n"
	if out := run(t, Options{}, long); strings.Count(out, "x") > MaxLine+200 {
		t.Error("an overlong answer was held (and echoed) whole")
	}
}

// One line is one line: a multi-line exception (pydantic's four per-field
// errors) is never printed with a literal "\n" for a screen reader to spell
// out, and every outcome names the step that decided it.
func TestNoLiteralNewlineAndTheDecidingStep(t *testing.T) {
	s := inputs.Defaults()
	s.Backend = inputs.Value{Raw: "nixl"}
	s.TimeoutMS = inputs.Value{Raw: "0"}
	out := run(t, Options{Spec: s}, "\n\nUCX\n\n\nq\n")
	if strings.Contains(out, `\n`) {
		t.Errorf("a literal \\n in the output:\n%s", out)
	}
	for _, want := range []string{
		"Outcome: start-up fails: pydantic_core._pydantic_core.ValidationError: 1 validation error for TorchLlmArgs (and 2 more lines, in the explain text below)",
		"; raised at step 2 (Validate cache_transceiver_config)",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	if out := run(t, Options{}, "1.3.0rc22\n\nUCX\nq\n"); !strings.Contains(out, "on backend UCX; decided at step 10 (Resolve 'auto')") {
		t.Errorf("the C++ outcome does not name its deciding step:\n%s", out)
	}
}

// The backend question offers what the chosen build accepts, as it spells it,
// as the explorer's backend row does (4058f61): on 1.0.0rc4 it showed
// [DEFAULT], which the explain text above it read as 'default', and "?" listed
// DEFAULT, NIXL, UCX, MPI and MOONCAKE, each refused by that build.
func TestBackendQuestionFollowsTheBuild(t *testing.T) {
	out := run(t, Options{}, "1.0.0rc4\n\n?\nUCX\nq\n")
	for _, want := range []string{
		"Backend [default]: Choices: default, nixl, ucx, mpi, none\n",
		"Note: 'UCX' is not a backend TensorRT-LLM accepts; did you mean ucx?\n",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("lacks %q:\n%s", want, out)
		}
	}
	if out := run(t, Options{}, "\n\n?\nq\n"); !strings.Contains(out, "Backend [DEFAULT]: Choices: DEFAULT, NIXL, UCX, MPI, MOONCAKE, none\n") {
		t.Errorf("1.4.0rc4:\n%s", out)
	}
	if out := run(t, Options{}, "1.1.0rc4\n\n?\nq\n"); !strings.Contains(out, "Backend [DEFAULT]: Choices: DEFAULT, NIXL, UCX, MPI, none\n") {
		t.Errorf("1.1.0rc4 (no MOONCAKE before 1.2.0rc6):\n%s", out)
	}
}

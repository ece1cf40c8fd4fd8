package accessible

import (
	"os"
	"strings"
	"testing"

	"xcvr/internal/inputs"
	"xcvr/internal/logs"
)

// With --log, the linear mode prints after each explain text what check-logs
// says of the log against the current prediction: the same verdict, each
// process with its failure's cause and its runtime findings; a change of
// inputs judges the log again.
func TestLinearModeShowsTheLog(t *testing.T) {
	f, err := os.Open("../logs/testdata/gen-1.3-dead-rank.log")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	lg, err := logs.Parse("gen-1.3-dead-rank.log", f)
	if err != nil {
		t.Fatal(err)
	}
	spec := logs.WithVersion(inputs.Defaults(), lg)
	out := run(t, Options{Spec: spec, Log: lg}, "\n\nUCX\nq\n")
	if n := strings.Count(out, "Observed in gen-1.3-dead-rank.log: ✗ start-up failed. Start-up failed: rank 1."); n != 2 {
		t.Errorf("the verdict is printed %d times, want after each of the two explain texts:\n%s", n, out)
	}
	for _, want := range []string{
		"rank 1: ERROR · resolved 'auto' to 'PYTHON' for GptOssForCausalLM",
		"  cause: Assertion failed: status == NIXL_SUCCESS",
		"  ! 2× KV transfer timed out, first at line 16: Terminating generation request 2048 due to KV cache transfer timeout",
		"Predicted for TensorRT-LLM 1.3.0rc26: Python transceiver",
		"  version: the version row, from gen-1.3-dead-rank.log:5",
		"effective backend: predicted UCX, the log shows NIXL",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("the output lacks %q:\n%s", want, out)
		}
	}
	if strings.ContainsAny(out, "\x1b") {
		t.Error("an escape sequence in linear mode")
	}
}

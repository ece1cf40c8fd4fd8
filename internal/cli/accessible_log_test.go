package cli

import (
	"strings"
	"testing"
)

// --accessible --log FILE: the linear mode reads the log once and, after the
// explain text, prints check-logs' report of it; the explored version is the
// one the log states. --log - is refused: stdin carries the answers.
func TestAccessibleLog(t *testing.T) {
	out, errOut, code := run(t, nil, "--accessible", "--clean-env", "--log", "../logs/testdata/gen-1.3-dead-rank.log")
	if code != 0 || !strings.Contains(out, "Observed in ../logs/testdata/gen-1.3-dead-rank.log: ✗ start-up failed. Start-up failed: rank 1.") ||
		!strings.Contains(out, "  cause: Assertion failed: status == NIXL_SUCCESS") || !strings.Contains(out, "TensorRT-LLM version [1.3.0rc26]: ") {
		t.Errorf("exit %d, stderr %q, stdout:\n%s", code, errOut, out)
	}
	if _, errOut, code := run(t, nil, "--accessible", "--log", "-"); code != 2 || !strings.Contains(errOut, "reads its answers from stdin") {
		t.Errorf("--log -: exit %d, stderr %q", code, errOut)
	}
	if _, errOut, code := run(t, nil, "--accessible", "--log", "no-such.log"); code != 2 || !strings.Contains(errOut, "no-such.log") {
		t.Errorf("a missing log: exit %d, stderr %q", code, errOut)
	}
}

package audit

import (
	"fmt"
	"slices"
	"strings"
	"testing"
)

// A launcher that runs each srun through a wrapper function
// (start_bg() { "$@" & }; start_bg srun ... bash -c "... trtllm-serve ...")
// starts each server once, through the function: the call's own words are
// its arguments, not a second command. They were read twice, six workers
// and two orchestrators for three servers and one.
func TestWrapperFunctionRunsOnce(t *testing.T) {
	r := audit(t, "1.3.0rc29", "wrapper/sweep.sbatch")
	var got []string
	for _, e := range r.Entries {
		got = append(got, fmt.Sprintf("%s %d %s", e.Worker.Role, e.Worker.Source.Line, e.Worker.Source.Kind))
	}
	want := []string{
		"context 64 trtllm-serve command in the function start_bg (line 22)",
		"context 66 trtllm-serve command in the function start_bg (line 22)",
		"generation 68 trtllm-serve command in the function start_bg (line 22)",
	}
	if !slices.Equal(got, want) {
		t.Fatalf("workers\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if len(r.Set.Unplaced) != 1 || !strings.Contains(r.Set.Unplaced[0].Why, "the disaggregated orchestrator") {
		t.Errorf("unplaced %+v", r.Set.Unplaced)
	}
}

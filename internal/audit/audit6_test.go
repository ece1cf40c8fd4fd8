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

// A server whose command line or config's name says one role while the
// orchestrator's urls list its --port under the other keeps its own role,
// with a note: the orchestrator sends it the other phase's requests. One
// whose role agrees gets none, and the orchestrator says how many of the
// set's workers serve its urls instead of asking for their configs.
func TestRoleAgainstRoutes(t *testing.T) {
	const orch = "context_servers:\n  urls: [\"localhost:8001\"]\ngeneration_servers:\n  urls: [\"localhost:8002\", \"localhost:8003\"]\n"
	script := "#!/bin/bash\n" +
		"trtllm-serve m --port 8002 --config ctx.yaml &\n" +
		"trtllm-serve m --port 8001 --server_role GENERATION --config w.yaml &\n" +
		"trtllm-serve m --port 8003 --config gen.yaml &\n"
	cfg := []byte("cache_transceiver_config:\n  backend: UCX\n")
	set, err := Read([]Input{{Name: "run.sh", Data: []byte(script)}, {Name: "disagg.yaml", Data: []byte(orch)},
		{Name: "ctx.yaml", Data: cfg}, {Name: "w.yaml", Data: cfg}, {Name: "gen.yaml", Data: cfg}})
	if err != nil {
		t.Fatal(err)
	}
	want := map[int]string{
		2: "context: its config's name ctx.yaml says context, but its --port 8002 is in the orchestrator's generation_servers urls (localhost:8002 at disagg.yaml:4): that orchestrator sends it generation requests; check which role this server has (xcvr keeps context)",
		3: "generation: --server_role GENERATION says generation, but its --port 8001 is in the orchestrator's context_servers urls (localhost:8001 at disagg.yaml:2): that orchestrator sends it context requests; check which role this server has (xcvr keeps generation)",
		4: "generation: ",
	}
	for _, w := range set.Workers {
		got := w.Role + ": " + strings.Join(w.Notes, " | ")
		if got != want[w.Source.Line] {
			t.Errorf("line %d: %q\nwant %q", w.Source.Line, got, want[w.Source.Line])
		}
	}
	if len(set.Orchestrators) != 1 || set.Orchestrators[0].Served != 3 {
		t.Errorf("orchestrators %+v", set.Orchestrators)
	}
}

package audit

import (
	"fmt"
	"slices"
	"strings"
	"testing"
)

// Upstream's Ray launcher run with --executor mpi (an excerpt of it, its
// MPI branches, stored with its provenance in its first lines) starts both
// servers on one config, extra_llm_config.yaml, without --server_role, and
// writes the orchestrator's config itself: context_servers urls
// localhost:8001, generation_servers localhost:8002. Each server's --port
// says which it is; they were two aggregated workers.
func TestRayLauncherMPIRoles(t *testing.T) {
	r := audit(t, "1.2.0", "real/trtllm-ray-mpi/disagg_serving_local_mpi.sh")
	var got []string
	for _, e := range r.Entries {
		got = append(got, fmt.Sprintf("%s %d: %s", e.Worker.Role, e.Worker.Source.Line, e.Worker.RoleFrom))
	}
	want := []string{
		"context 65: its --port 8001 is in the orchestrator's context_servers urls: localhost:8001 at real/trtllm-ray-mpi/disagg_serving_local_mpi.sh:43",
		"generation 76: its --port 8002 is in the orchestrator's generation_servers urls: localhost:8002 at real/trtllm-ray-mpi/disagg_serving_local_mpi.sh:56",
	}
	if !slices.Equal(got, want) {
		t.Fatalf("workers\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if len(r.Set.Unplaced) != 1 || !strings.HasSuffix(r.Set.Unplaced[0].Why, "; its config is disagg_config_local.yaml, written at real/trtllm-ray-mpi/disagg_serving_local_mpi.sh:25, whose urls are context_servers localhost:8001, generation_servers localhost:8002") {
		t.Errorf("unplaced %+v", r.Set.Unplaced)
	}
}

// Which workers the orchestrator's urls give a role, and which they leave.
func TestRolesFromRoutes(t *testing.T) {
	const orch = "context_servers:\n  urls:\n    - \"node1:8001\"\n    - \"node2:8001\"\ngeneration_servers:\n  urls:\n    - \"node1:8002\"\n    - \"node3:8003\"\n"
	for _, c := range []struct {
		name, script string
		want         []string
	}{
		{"port only, and a wildcard host", "trtllm-serve m --port 8001 --config w.yaml\ntrtllm-serve m --host 0.0.0.0 --port 8002 --config w.yaml\n",
			[]string{"context routes", "generation routes"}},
		{"another host's port", "trtllm-serve m --host node2 --port 8002 --config w.yaml\ntrtllm-serve m --host node3 --port=8003 --config w.yaml\n",
			[]string{"aggregated ", "generation routes"}},
		{"no port, a port it does not list, a variable", "trtllm-serve m --config w.yaml\ntrtllm-serve m --port 9000 --config w.yaml\ntrtllm-serve m --port $P --config w.yaml\n",
			[]string{"aggregated ", "aggregated ", "aggregated "}},
		{"a role of its own stays", "trtllm-serve m --port 8001 --server_role GENERATION --config w.yaml\ntrtllm-serve m --port 8002 --config gen.yaml\ntrtllm-serve m --port 8001 --config gen.yaml\n",
			[]string{"generation flag", "generation name", "generation name"}},
		{"a loop's ports", "for i in 1 2; do\n  trtllm-serve m --port 800$i --config w.yaml &\ndone\n",
			[]string{"context routes", "generation routes"}},
	} {
		set, err := Read([]Input{{Name: "run.sh", Data: []byte("#!/bin/bash\n" + c.script)}, {Name: "disagg.yaml", Data: []byte(orch)},
			{Name: "w.yaml", Data: []byte("cache_transceiver_config:\n  backend: UCX\n")}, {Name: "gen.yaml", Data: []byte("cache_transceiver_config:\n  backend: UCX\n")}})
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, w := range set.Workers {
			if w.Source.File != "run.sh" {
				continue
			}
			got = append(got, w.Role+" "+w.roleBy)
			if w.roleBy == "routes" && !strings.Contains(w.RoleFrom, "urls: node") || w.roleBy == "routes" && !strings.Contains(w.RoleFrom, " at disagg.yaml:") {
				t.Errorf("%s: role from %q", c.name, w.RoleFrom)
			}
		}
		slices.Sort(got)
		if !slices.Equal(got, c.want) {
			t.Errorf("%s: roles %q, want %q", c.name, got, c.want)
		}
	}
	// A port both sections list says no role.
	set, err := Read([]Input{{Name: "run.sh", Data: []byte("trtllm-serve m --port 8001 --config w.yaml\n")},
		{Name: "disagg.yaml", Data: []byte("context_servers:\n  urls: [\"a:8001\"]\ngeneration_servers:\n  urls: [\"b:8001\"]\n")},
		{Name: "w.yaml", Data: []byte("cache_transceiver_config:\n  backend: UCX\n")}})
	if err != nil {
		t.Fatal(err)
	}
	if len(set.Workers) != 1 || set.Workers[0].Role != RoleAggregated {
		t.Errorf("a port in both sections: %+v", set.Workers)
	}
}

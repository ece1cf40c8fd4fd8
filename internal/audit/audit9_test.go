package audit

import (
	"strings"
	"testing"
)

// A backend refused for its case alone is fixed by respelling it: the 1.0
// line takes lower-case names only, 1.1 and later upper-case only. A
// TensorRT-LLM developer's NVBug 5387694 script writes backend: ucx (1.0's
// spelling) for both servers; on 1.2.0 the fix offered was backend: NIXL, a
// change of transport, where backend: UCX keeps the one the operator chose.
// Where the respelling does not start (UCX on era 2's Python default) the
// other edits still apply.
func TestFixRespellsBackend(t *testing.T) {
	for _, c := range []struct {
		version string
		files   []string
		want    string
	}{
		{"1.2.0", []string{"real/user-nvbug5387694/launch.sh"}, "ctx.yml: backend: UCX → CPP on UCX; gen.yml: backend: UCX → CPP on UCX"},
		{"1.1.0", []string{"real/user-nvbug5387694/launch.sh"}, "ctx.yml: backend: UCX → CPP on UCX; gen.yml: backend: UCX → CPP on UCX"},
		{"1.3.0rc29", []string{"real/user-nvbug5387694/launch.sh"}, "ctx.yml: backend: NIXL → PYTHON on NIXL; gen.yml: backend: NIXL → PYTHON on NIXL"},
		// gen_yaml.py's backend: default on 1.1.0: DEFAULT, not NIXL.
		{"1.1.0", []string{"real/trtllm-genyaml-bench/config.yaml"}, "context_servers: backend: DEFAULT → CPP on UCX; generation_servers: backend: DEFAULT → CPP on UCX"},
		// The other way: backend: UCX on a 1.0 release is respelled ucx.
		{"1.0.0", []string{"real/simple_example/ctx_extra-llm-api-config.yaml", "real/simple_example/gen_extra-llm-api-config.yaml"}, "ctx_extra-llm-api-config.yaml: backend: ucx → CPP on UCX; gen_extra-llm-api-config.yaml: backend: ucx → CPP on UCX"},
	} {
		r := audit(t, c.version, c.files...)
		if g := fixSummary(r); g != c.want {
			t.Errorf("%s %s: fix %q, want %q", c.version, c.files[0], g, c.want)
		}
	}
}

// A cache_transceiver_config key the release refuses is deleted by the fix:
// the 1.0 docs' and an early README's launch block writes max_num_tokens
// (pre-#5234's field, renamed max_tokens_in_buffer), which 1.0.0 and later
// refuse as an extra input. No edit tried touched it, so the fix said "none
// of up to 2 edits per worker makes every worker start and agree"; deleting
// it, with a backend (an empty cache_transceiver_config has none: off), is
// the verified fix.
func TestFixDeletesRefusedKey(t *testing.T) {
	for _, c := range []struct{ version, want string }{
		{"1.0.0", "context_extra-llm-api-config.yml: backend: nixl, delete max_num_tokens → CPP on NIXL; gen_extra-llm-api-config.yml: backend: nixl, delete max_num_tokens → CPP on NIXL"},
		{"1.2.0", "context_extra-llm-api-config.yml: backend: NIXL, delete max_num_tokens → CPP on NIXL; gen_extra-llm-api-config.yml: backend: NIXL, delete max_num_tokens → CPP on NIXL"},
	} {
		r := audit(t, c.version, "real/trtllm-readme/early-launch.sh")
		if g := fixSummary(r); g != c.want {
			t.Errorf("%s: fix %q, want %q", c.version, g, c.want)
		}
		if txt := r.Text(); !strings.Contains(txt, "    # delete cache_transceiver_config.max_num_tokens\n") {
			t.Errorf("%s: no delete note:\n%s", c.version, txt)
		}
	}
}

// num_instances: 0 starts no server of its role: TensorRT-LLM's gen-only
// benchmark config has no context server (disagg_utils.extract_ctx_gen_cfgs
// makes [None] * num_instances of them). It was a context worker of its
// own, off, counted "?", the deployment said inconsistent and a fix
// proposed for a server that never starts.
func TestDisaggZeroInstances(t *testing.T) {
	r := audit(t, "1.2.0", "real/trtllm-test-configs/disagg_config_gen_only.yaml")
	if len(r.Entries) != 1 || r.Entries[0].Worker.Role != RoleGeneration || r.Entries[0].Worker.Count != 2 {
		t.Fatalf("entries %+v", r.Entries)
	}
	if r.Fails() || len(r.Fix) != 0 {
		t.Errorf("fails %v, fix %+v", r.Fails(), r.Fix)
	}
	if len(r.Set.Unplaced) != 1 || r.Set.Unplaced[0].Why != "num_instances: 0 (real/trtllm-test-configs/disagg_config_gen_only.yaml:8): no context server is started (extract_ctx_gen_cfgs makes none); the other role's servers run without it" {
		t.Errorf("unplaced %+v", r.Set.Unplaced)
	}
}

package cli

import (
	"strings"
	"testing"
)

// explain --disagg on a config whose context_servers has num_instances: 0
// (TensorRT-LLM's gen-only benchmark config) compares no roles: no context
// server starts, so "context → Disaggregation off" against the generation
// role was a warning about a server that does not exist, and "Both roles:"
// named the context role's end.
func TestExplainDisaggZeroInstances(t *testing.T) {
	out, errOut, code := run(t, nil, "explain", "--trtllm", "1.2.0", "--disagg", at+"real/trtllm-test-configs/disagg_config_gen_only.yaml")
	if code != 0 || errOut != "" {
		t.Fatalf("exit %d, stderr %q", code, errOut)
	}
	for _, want := range []string{
		"Only the generation role starts servers: C++ transceiver (BindKvCacheTransceiver) on NIXL\n",
		"Warning: context_servers: num_instances: 0 (" + at + "real/trtllm-test-configs/disagg_config_gen_only.yaml:8): no context server is started (extract_ctx_gen_cfgs makes none); the roles are not compared\n",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("no %q in:\n%s", want, out)
		}
	}
	if strings.Contains(out, "different transceivers") || strings.Contains(out, "Both roles:") {
		t.Errorf("roles compared:\n%s", out)
	}
	js, _, code := run(t, nil, "explain", "--trtllm", "1.2.0", "--disagg", at+"real/trtllm-test-configs/disagg_config_gen_only.yaml", "-o", "json")
	if code != 0 || !strings.Contains(js, `"consistent": true`) {
		t.Errorf("json exit %d:\n%s", code, js)
	}
}

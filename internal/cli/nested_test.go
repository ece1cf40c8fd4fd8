package cli

import (
	"path/filepath"
	"strings"
	"testing"
)

// TestNestedTypoRefused: a misspelt key inside kv_cache_config refuses the
// worker in explain --config and in audit (both build the inputs the same
// way), with pydantic's text for the release: TorchLlmArgs validates it on
// 1.2.0rc1, update_llm_args_with_extra_dict's KvCacheConfig(**d) on
// 1.3.0rc20. Before the nested lists, explain called it the C++ transceiver.
func TestNestedTypoRefused(t *testing.T) {
	file := filepath.Join("..", "deploy", "testdata", "nested", "typo-kv.yaml")
	for _, c := range []struct{ version, want string }{
		{"1.2.0rc1", "ValidationError: 1 validation error for TorchLlmArgs\n  kv_cache_config.free_gpu_memroy_fraction\n    Extra inputs are not permitted [type=extra_forbidden, input_value=0.8, input_type=float]"},
		{"1.3.0rc20", "ValidationError: 1 validation error for KvCacheConfig\n  free_gpu_memroy_fraction\n    Extra inputs are not permitted [type=extra_forbidden, input_value=0.8, input_type=float]"},
	} {
		out, errOut, code := run(t, nil, "explain", "--trtllm", c.version, "--config", file)
		if !strings.Contains(out, c.want) || !strings.Contains(out, "Outcome: Start-up fails") || code != 1 {
			t.Errorf("explain %s (exit %d):\n%s%s\nwant %q", c.version, code, out, errOut, c.want)
		}
		out, errOut, _ = run(t, nil, "audit", "--trtllm", c.version, file)
		want := strings.ReplaceAll(c.want, "\n  ", "\n    ")
		if !strings.Contains(out, "✗ ERROR") || !strings.Contains(out, want) {
			t.Errorf("audit %s:\n%s%s\nwant %q", c.version, out, errOut, want)
		}
	}
}

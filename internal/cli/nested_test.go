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

// TestNestedNewerReleaseKeys: a worker YAML written for a newer release
// (moe_config.tactic, a MoeConfig field of 1.4.0rc4) refuses start-up on 1.3
// with MoeConfig's own error, which update_llm_args_with_extra_dict raises
// before TorchLlmArgs is validated; scheduler_config.use_python_scheduler
// (1.3) on 1.2 is TorchLlmArgs' error. explain and audit both say so; before
// the MoeConfig and SchedulerConfig lists both called the worker the C++
// transceiver.
func TestNestedNewerReleaseKeys(t *testing.T) {
	for _, c := range []struct{ file, version, want string }{
		{"moe-tactic.yaml", "1.3.0rc20", "ValidationError: 1 validation error for MoeConfig\n  tactic\n    Extra inputs are not permitted [type=extra_forbidden, input_value='auto', input_type=str]"},
		{"scheduler-python.yaml", "1.2.0", "ValidationError: 1 validation error for TorchLlmArgs\n  scheduler_config.use_python_scheduler\n    Extra inputs are not permitted [type=extra_forbidden, input_value=True, input_type=bool]"},
	} {
		file := filepath.Join("..", "deploy", "testdata", "nested", c.file)
		out, errOut, code := run(t, nil, "explain", "--trtllm", c.version, "--config", file)
		if !strings.Contains(out, c.want) || !strings.Contains(out, "Outcome: Start-up fails") || code != 1 {
			t.Errorf("explain %s %s (exit %d):\n%s%s\nwant %q", c.file, c.version, code, out, errOut, c.want)
		}
		out, errOut, _ = run(t, nil, "audit", "--trtllm", c.version, file)
		want := strings.ReplaceAll(c.want, "\n  ", "\n    ")
		if !strings.Contains(out, "✗ ERROR") || !strings.Contains(out, want) {
			t.Errorf("audit %s %s:\n%s%s\nwant %q", c.file, c.version, out, errOut, want)
		}
	}
}

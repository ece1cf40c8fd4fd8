package deploy

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"xcvr/resolver"
)

// TestNestedRealConfigs runs real worker YAMLs (testdata/nested, provenance in
// each file's header) under their own release: none may be refused for a key
// inside kv_cache_config, scheduler_config, cuda_graph_config or moe_config
// (an incomplete field list would call valid configs broken), and the real
// files that do carry a wrong key, and the briefs' cases, are refused with
// pydantic's words where xcvr holds the model's fields, and not where it does
// not.
func TestNestedRealConfigs(t *testing.T) {
	cases := []struct {
		file, version string
		// want are the nested locations refused (nil: none), in order.
		want []string
		// title is the ValidationError's model when want is set.
		title string
	}{
		// The 1.0 line (lower-case backends): both models checked, in TorchLlmArgs.
		{file: "dynamo-llama4-eagle-decode.yaml", version: "1.0.0rc6"},
		{file: "dynamo-gptoss-decode.yaml", version: "1.0.0rc6"},
		{file: "dynamo-dsr1-wide-ep-decode.yaml", version: "1.0.0rc6"},
		{file: "dynamo-dsr1-wide-ep-decode.yaml", version: "1.1.0rc5"},
		// main at 1.2.0rc2 (version.py of the same commit): cuda_graph_config
		// checked; kv_cache_config's list is held up to 1.2.0rc1, checked there too.
		{file: "trtllm-disagg-overlap-cuda-graph.yaml", version: "1.2.0rc2"},
		{file: "trtllm-disagg-cache-aware-balance-dsv3.yaml", version: "1.2.0rc2"},
		{file: "trtllm-disagg-cache-aware-balance-dsv3.yaml", version: "1.2.0rc1"},
		// 1.3 with transceiver_runtime: KvCacheConfig built first.
		{file: "trtllm-disagg-dsv4-pro.yaml", version: "1.3.0rc15"},
		{file: "trtllm-disagg-dsv4-pro.yaml", version: "1.3.0rc8"},
		// block_reuse_policy was a KvCacheConfig field only in mid-2026 (a
		// fork's copy of main after #15823): neither era 0's copy nor
		// main@0004396 has it, and a 1.3.0rc22 config may.
		{file: "kv-block-reuse-policy.yaml", version: "1.3.0rc22"},
		// Real files with keys the model does not have.
		{file: "dynamo-dsr1-mtp-agg-old-cuda-keys.yaml", version: "1.0.0rc4", title: "TorchLlmArgs",
			want: []string{"cuda_graph_config.cuda_graph_padding_enabled", "cuda_graph_config.cuda_graph_batch_sizes"}},
		{file: "dynamo-dsr1-mtp-agg-old-cuda-keys.yaml", version: "1.0.0rc3"}, // before the lists xcvr holds
		{file: "trtllm-disagg-padding-enabled.yaml", version: "1.0.0rc4", title: "TorchLlmArgs",
			want: []string{"cuda_graph_config.padding_enabled"}},
		{file: "trtllm-disagg-padding-enabled.yaml", version: "1.0.0rc3"},
		// The brief's typo.
		{file: "typo-kv.yaml", version: "1.2.0rc1", title: "TorchLlmArgs", want: []string{"kv_cache_config.free_gpu_memroy_fraction"}},
		{file: "typo-kv.yaml", version: "1.3.0rc20", title: "KvCacheConfig", want: []string{"free_gpu_memroy_fraction"}},
		{file: "typo-kv.yaml", version: "1.2.0rc6", title: "KvCacheConfig", want: []string{"free_gpu_memroy_fraction"}},
		{file: "typo-kv.yaml", version: "1.2.0rc5"}, // KvCacheConfig's path unknown there: not refused
		{file: "typo-kv.yaml", version: "1.4.0rc4"}, // its fields not held: not refused
		// Real files writing moe_config (backend, load_balancer,
		// use_low_precision_moe_combine; the 1.0 files above too).
		{file: "dynamo-dsr1-wide-ep-decode.yaml", version: "1.2.0rc5"},
		{file: "trtllm-disagg-dsv4-pro.yaml", version: "1.3.0rc25"},
		// A config written for a newer release: MoeConfig(**d) refuses
		// 1.4.0rc4's tactic first, alone; SchedulerConfig, validated in
		// TorchLlmArgs, refuses 1.3's use_python_scheduler on 1.2.
		{file: "moe-tactic.yaml", version: "1.3.0rc20", title: "MoeConfig", want: []string{"tactic"}},
		{file: "moe-tactic.yaml", version: "1.0.0rc6", title: "MoeConfig", want: []string{"tactic"}},
		// After #15727 by 1.3.0rc27's API reference; after rc27 joined with
		// 1.4.0rc4's, which has tactic.
		{file: "moe-tactic.yaml", version: "1.3.0rc26", title: "MoeConfig", want: []string{"tactic"}},
		{file: "moe-tactic.yaml", version: "1.3.0rc29"},
		{file: "moe-tactic.yaml", version: "1.4.0rc4"},
		{file: "scheduler-python.yaml", version: "1.2.0", title: "TorchLlmArgs", want: []string{"scheduler_config.use_python_scheduler"}},
		{file: "scheduler-python.yaml", version: "1.3.0rc8"},
		{file: "scheduler-python.yaml", version: "1.3.0rc29"},
		{file: "scheduler-python.yaml", version: "1.4.0rc4"},
		// Real files' moe_config and attention_dp_config on the releases
		// the API references bound.
		{file: "trtllm-disagg-dsv4-pro.yaml", version: "1.3.0rc27"},
		{file: "trtllm-disagg-dsv4-pro.yaml", version: "1.3.0rc29"},
		{file: "trtllm-disagg-dsv4-pro.yaml", version: "1.4.0rc4"},
		{file: "dynamo-dsr1-wide-ep-decode.yaml", version: "1.3.0rc27"},
		{file: "adp-conversation-affinity.yaml", version: "1.3.0rc8"},
		{file: "adp-conversation-affinity.yaml", version: "1.3.0rc27"},
		{file: "adp-conversation-affinity.yaml", version: "1.4.0rc4"},
		// From 1.3.0rc26 kv_cache_config (to rc29) and the cuda_graph_config
		// union (to 1.4.0rc1) are checked again: real files stay valid.
		{file: "trtllm-disagg-dsv4-pro.yaml", version: "1.3.0rc26"},
		{file: "trtllm-disagg-dsv4-pro.yaml", version: "1.3.0rc28"},
		{file: "trtllm-disagg-dsv4-pro.yaml", version: "1.4.0rc1"},
		{file: "trtllm-disagg-cache-aware-balance-dsv3.yaml", version: "1.3.0rc27"},
		{file: "trtllm-disagg-overlap-cuda-graph.yaml", version: "1.3.0rc29"},
		{file: "dynamo-dsr1-wide-ep-decode.yaml", version: "1.3.0rc29"},
		{file: "dynamo-dsr1-wide-ep-decode.yaml", version: "1.4.0rc1"},
		// block_reuse_policy moved to block_reuse_config.policy: no
		// KvCacheConfig field in 1.3.0rc26's or rc27's reference.
		{file: "kv-block-reuse-policy.yaml", version: "1.3.0rc27", title: "KvCacheConfig", want: []string{"block_reuse_policy"}},
	}
	for _, c := range cases {
		t.Run(c.file+"@"+c.version, func(t *testing.T) {
			data, err := os.ReadFile(filepath.Join("testdata", "nested", c.file))
			if err != nil {
				t.Fatal(err)
			}
			var ovs []*Overlay
			if strings.Contains(string(data), "generation_servers:") {
				d, err := ReadDisagg(c.file, data)
				if err != nil {
					t.Fatal(err)
				}
				for _, role := range Roles() {
					ovs = append(ovs, d.Roles[role])
				}
			} else {
				ov, err := ReadWorkerConfig(c.file, data)
				if err != nil {
					t.Fatal(err)
				}
				ovs = append(ovs, ov)
			}
			var got []string
			for _, ov := range ovs {
				if len(ov.NestedKeys) == 0 {
					continue
				}
				tr := resolveWith(t, ov, c.version, nil)
				msg := tr.Result.Error
				for _, line := range strings.Split(msg, "\n") {
					nested := false
					for _, root := range resolver.NestedRoots() {
						nested = nested || strings.HasPrefix(line, root+".")
					}
					direct := c.title == "KvCacheConfig" || c.title == "MoeConfig"
					if nested || (direct && line != "" && !strings.HasPrefix(line, " ") && !strings.HasPrefix(line, "pydantic_core")) {
						got = append(got, line)
					}
				}
				if c.want != nil && got != nil && !strings.Contains(msg, " for "+c.title+"\n") {
					t.Errorf("error titled otherwise than %s:\n%s", c.title, msg)
				}
				if c.want == nil && tr.Result.FailedStep == resolver.StepValidate {
					t.Errorf("%s refused under %s:\n%s", c.file, c.version, msg)
				}
			}
			if !slices.Equal(got, c.want) {
				t.Errorf("refused %q, want %q", got, c.want)
			}
		})
	}
}

// TestNestedTyposAfterRc25 runs the 3 a.m. typos in a real-shaped decode
// worker YAML on the 1.3 releases after rc25: KvCacheConfig (built first by
// update_llm_args_with_extra_dict) refuses free_gpu_mem_fraction and
// enable_block_resuse alone, titled KvCacheConfig; a misspelt enable_padding
// is DecodeCudaGraphConfig's, validated in TorchLlmArgs, at
// cuda_graph_config.decode.<key>. The validate step names each key's
// FILE:LINE, and the fix names the key as the file writes it. Where xcvr does
// not hold the model's fields (1.4.0rc2) the file is not refused.
func TestNestedTyposAfterRc25(t *testing.T) {
	const kvErr = "pydantic_core._pydantic_core.ValidationError: 2 validation errors for KvCacheConfig\n" +
		"free_gpu_mem_fraction\n  Extra inputs are not permitted [type=extra_forbidden, input_value=0.8, input_type=float]\n" +
		"enable_block_resuse\n  Extra inputs are not permitted [type=extra_forbidden, input_value=False, input_type=bool]"
	const cudaErr = "pydantic_core._pydantic_core.ValidationError: 1 validation error for TorchLlmArgs\n" +
		"cuda_graph_config.decode.enable_paddding\n  Extra inputs are not permitted [type=extra_forbidden, input_value=True, input_type=bool]"
	for _, c := range []struct {
		file, version, err string
		lines              []string // FILE:LINE the validate step names
		hint               string
	}{
		{"gptoss-decode-kv-typos.yaml", "1.3.0rc26", kvErr,
			[]string{"gptoss-decode-kv-typos.yaml:19", "gptoss-decode-kv-typos.yaml:20"},
			"rename the unknown key kv_cache_config.free_gpu_mem_fraction to free_gpu_memory_fraction (the nearest field); rename the unknown key kv_cache_config.enable_block_resuse to enable_block_reuse (the nearest field)"},
		{"gptoss-decode-kv-typos.yaml", "1.3.0rc27", kvErr, nil, ""},
		{"gptoss-decode-kv-typos.yaml", "1.3.0rc28", kvErr, nil, ""},
		{"gptoss-decode-kv-typos.yaml", "1.3.0rc29", kvErr, nil, ""},
		{"gptoss-decode-kv-typos.yaml", "1.4.0rc2", "", nil, ""},
		{"gptoss-decode-cuda-typo.yaml", "1.3.0rc26", cudaErr, []string{"gptoss-decode-cuda-typo.yaml:17"},
			"rename the unknown key cuda_graph_config.enable_paddding to enable_padding (the nearest field)"},
		{"gptoss-decode-cuda-typo.yaml", "1.3.0rc29", cudaErr, nil, ""},
		{"gptoss-decode-cuda-typo.yaml", "1.4.0rc1", cudaErr, nil, ""},
		{"gptoss-decode-cuda-typo.yaml", "1.4.0rc2", "", nil, ""},
		// Before the union, the plain CudaGraphConfig of the 1.1 line.
		{"gptoss-decode-cuda-typo.yaml", "1.1.0rc5", "pydantic_core._pydantic_core.ValidationError: 1 validation error for TorchLlmArgs\n" +
			"cuda_graph_config.enable_paddding\n  Extra inputs are not permitted [type=extra_forbidden, input_value=True, input_type=bool]", nil, ""},
	} {
		t.Run(c.file+"@"+c.version, func(t *testing.T) {
			data, err := os.ReadFile(filepath.Join("testdata", "nested", c.file))
			if err != nil {
				t.Fatal(err)
			}
			ov, err := ReadWorkerConfig(c.file, data)
			if err != nil {
				t.Fatal(err)
			}
			tr := resolveWith(t, ov, c.version, nil)
			if c.err == "" {
				if tr.Result.FailedStep == resolver.StepValidate {
					t.Fatalf("refused:\n%s", tr.Result.Error)
				}
				return
			}
			if tr.Result.Error != c.err {
				t.Errorf("exception:\n%s\nwant:\n%s", tr.Result.Error, c.err)
			}
			for _, s := range tr.Steps {
				if s.ID != resolver.StepValidate {
					continue
				}
				for _, l := range c.lines {
					if !strings.Contains(s.Reason, "("+l+")") {
						t.Errorf("validate step does not name %s: %s", l, s.Reason)
					}
				}
			}
			if c.hint != "" && !strings.Contains(tr.Result.Hint, c.hint) {
				t.Errorf("hint %q, want it to say %q", tr.Result.Hint, c.hint)
			}
		})
	}
}

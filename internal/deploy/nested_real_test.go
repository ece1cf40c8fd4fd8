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

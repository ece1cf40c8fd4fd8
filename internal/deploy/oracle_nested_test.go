package deploy

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"xcvr/internal/llmargs"
	"xcvr/internal/oracle"
	"xcvr/resolver"
)

// nestedReleases are releases on each side of the nested models' windows
// (resolver.NestedFieldsFor): 1.0.0rc4 and 1.1.0rc5 validate kv_cache_config,
// scheduler_config and cuda_graph_config in TorchLlmArgs; 1.2.0rc2 only
// scheduler_config and cuda_graph_config (how its KvCacheConfig is reached is
// not known); 1.2.0rc6, 1.3.0rc15, rc20 and rc22 build KvCacheConfig(**d) in
// update_llm_args_with_extra_dict first (rc20's use_kv_cache_manager_v2 a
// plain bool, rc22's bool | 'auto', #15823); every release builds
// MoeConfig(**d) first, then (from 1.2.0rc2) AttentionDpConfig, before
// KvCacheConfig (1.3.0rc27 and after: MoeConfig, AttentionDpConfig and
// SchedulerConfig only, by the API references). scheduler_config's list grows at
// 1.2.0rc2 (waiting_queue_policy joined), 1.3.0rc8 (use_python_scheduler,
// enable_prefix_aware_scheduling joined) and after 1.4.0rc1 (1.4.0rc4's
// gen_preemption and three more joined).
//
// From 1.3.0rc26 KvCacheConfig is held again (the API references of
// 1.3.0rc26, rc27 and rc29, read whole) and cuda_graph_config is the
// DecodeCudaGraphConfig | EncodeCudaGraphConfig union chosen by mode, which
// TorchLlmArgs' infer_cuda_graph_config_mode fills in (up to 1.4.0rc1).
var nestedReleases = []string{"1.0.0rc4", "1.1.0rc5", "1.2.0rc2", "1.2.0rc6", "1.3.0rc15", "1.3.0rc20", "1.3.0rc22",
	"1.3.0rc26", "1.3.0rc27", "1.3.0rc29", "1.4.0rc1", "1.4.0rc4"}

// nestedCTC adds CacheTransceiverConfig of releases the release table of
// oracle_pydantic_test.go lacks: 1.2.0rc6 (main 2025-12-15) has the sender
// future timeout (#9155) and no MOONCAKE yet (#8309, 12-19), as its .post1's
// and .post3's own llm_args.py declare; no transceiver_runtime yet.
var nestedCTC = []release{{version: "1.2.0rc6", backends: `"DEFAULT", "UCX", "NIXL", "MPI"`, timeout: "None", future: true},
	// 1.3.0rc26 (main 09-04) has 1.3.0rc27's fields (enable_pipelined_transfer
	// from #15727, no agent_bounce_*); 1.3.0rc29 (09-24) has #15780's too,
	// read in its own llm_args.py.
	{version: "1.3.0rc26", runtime: `"CPP", "PYTHON", "auto"`, timeout: "60000", future: true, poll: true, bounceMB: true, pipelined: true},
	{version: "1.3.0rc29", runtime: `"CPP", "PYTHON", "auto"`, timeout: "60000", future: true, poll: true, bounceMB: true, pipelined: true, bounce: true, validators: bounceConfig}}

// nestedSource declares, for one release, TorchLlmArgs as the oracle
// validates it: kv_cache_config and scheduler_config (BaseLlmArgs fields,
// before cache_transceiver_config) and cuda_graph_config and moe_config
// (TorchLlmArgs' own, after every BaseLlmArgs field) as StrictBaseModels with
// the release's fields when xcvr holds them (any value, as xcvr checks keys
// only), else Any; the release's CacheTransceiverConfig; every other field
// Any. direct lists the roots update_llm_args_with_extra_dict builds itself
// first, as (root, class) in its field_mapping's order.
func nestedSource(t *testing.T, version string) (src string, direct [][2]string) {
	v := resolverVersion(version)
	var ctc release
	found := false
	for _, r := range append(slices.Clone(releases), nestedCTC...) {
		if r.version == version {
			ctc, found = r, true
		}
	}
	if !found {
		t.Fatalf("no CacheTransceiverConfig declared for %s", version)
	}
	var b strings.Builder
	ctcSrc, _, _ := strings.Cut(ctc.pydanticSource(), "class TorchLlmArgs")
	b.WriteString(ctcSrc)
	isDirect := map[string]string{}
	model := func(name, root string) string {
		n, ok := resolver.NestedFieldsFor(v, root)
		if !ok {
			return "Any"
		}
		if n.TagKey != "" {
			// A union chosen by the tag key: each member with its tag as a
			// Literal, the others Any (xcvr checks keys only).
			var members []string
			for _, m := range n.Members {
				fmt.Fprintf(&b, "class %s(StrictBaseModel):\n", m.Model)
				for _, f := range m.Fields {
					if f == n.TagKey {
						fmt.Fprintf(&b, "    %s: Literal[%q] = %q\n", f, m.Tag, m.Tag)
					} else {
						fmt.Fprintf(&b, "    %s: Any = None\n", f)
					}
				}
				members = append(members, m.Model)
			}
			return fmt.Sprintf("Optional[Annotated[Union[%s], Field(discriminator=%q)]]", strings.Join(members, ", "), n.TagKey)
		}
		fmt.Fprintf(&b, "class %s(StrictBaseModel):\n", name)
		for _, f := range n.Fields {
			typ := "Any = None"
			if f == "use_kv_cache_manager_v2" && v.Main < 20260202 {
				// A field only from #10659; the joined list has it from
				// later copies.
				continue
			}
			if f == "use_kv_cache_manager_v2" {
				// The one nested field xcvr checks the value of.
				typ = "bool = False"
				if v.Main >= 20260713 { // #15823
					typ = "Union[bool, Literal['auto']] = 'auto'"
				}
			}
			fmt.Fprintf(&b, "    %s: %s\n", f, typ)
		}
		if n.Direct {
			isDirect[root] = name
		}
		return "Optional[" + name + "]"
	}
	kv := model("KvCacheConfig", resolver.NestedKVCache)
	sc := model("SchedulerConfig", resolver.NestedScheduler)
	cg := model("CudaGraphConfig", resolver.NestedCUDAGraph)
	adp := model("AttentionDpConfig", resolver.NestedAttentionDP)
	moe := model("MoeConfig", resolver.NestedMoE)
	// update_llm_args_with_extra_dict's field_mapping order (era 0's copy
	// and main@0004396): moe_config, attention_dp_config, kv_cache_config.
	for _, root := range []string{resolver.NestedMoE, resolver.NestedAttentionDP, resolver.NestedKVCache} {
		if name, ok := isDirect[root]; ok {
			direct = append(direct, [2]string{root, name})
		}
	}
	b.WriteString("class TorchLlmArgs(StrictBaseModel):\n")
	fmt.Fprintf(&b, "    kv_cache_config: %s = None\n", kv)
	fmt.Fprintf(&b, "    scheduler_config: %s = None\n", sc)
	b.WriteString("    cache_transceiver_config: Optional[CacheTransceiverConfig] = None\n")
	fmt.Fprintf(&b, "    cuda_graph_config: %s = None\n", cg)
	if strings.Contains(cg, "discriminator") {
		// TorchLlmArgs.infer_cuda_graph_config_mode, as read at
		// main@0004396 (field_validator, mode='before').
		b.WriteString(`    @field_validator('cuda_graph_config', mode='before')
    @classmethod
    def infer_cuda_graph_config_mode(cls, v):
        if isinstance(v, dict) and "mode" not in v:
            encoder_keys = {
                "num_tokens", "max_num_token", "seq_lens", "max_seq_len"
            }
            v = dict(v)
            v["mode"] = "encode" if any(k in v and v[k] not in (None, 0)
                                        for k in encoder_keys) else "decode"
        return v
`)
	}
	if slices.Contains(llmargs.FieldsFor(v), "attention_dp_config") {
		// Not a field of the lower-case era's TorchLlmArgs.
		fmt.Fprintf(&b, "    attention_dp_config: %s = None\n", adp)
	}
	fmt.Fprintf(&b, "    moe_config: %s = None\n", moe)
	for _, f := range llmargs.FieldsFor(v) {
		switch f {
		case "kv_cache_config", "scheduler_config", "cache_transceiver_config", "cuda_graph_config",
			"attention_dp_config", "moe_config":
		default:
			fmt.Fprintf(&b, "    %s: Any = None\n", f)
		}
	}
	return b.String(), direct
}

// nestedScript answers {"release": VERSION, "yaml": TEXT} as
// update_llm_args_with_extra_dict and TorchLlmArgs would: the first
// ValidationError's text (without pydantic's URL lines), or {}.
func nestedScript(t *testing.T) string {
	var b strings.Builder
	b.WriteString(`
import sys, json, yaml
from typing import Annotated, Any, Optional, Literal, Dict, Union
from pydantic import BaseModel, ConfigDict, Field, PositiveInt, ValidationError, field_validator, model_validator
class StrictBaseModel(BaseModel):
    model_config = ConfigDict(extra="forbid", protected_namespaces=())
models = {}
`)
	for _, version := range nestedReleases {
		src, direct := nestedSource(t, version)
		b.WriteString("def _define():\n")
		for _, line := range strings.Split(src, "\n") {
			b.WriteString("    " + line + "\n")
		}
		b.WriteString("    return TorchLlmArgs, [")
		for _, d := range direct {
			fmt.Fprintf(&b, "(%q, %s), ", d[0], d[1])
		}
		b.WriteString("]\n")
		fmt.Fprintf(&b, "models[%q] = _define()\n", version)
	}
	b.WriteString(`
for line in sys.stdin:
    req = json.loads(line)
    out = {}
    try:
        data = yaml.safe_load(req["yaml"])
        args, direct = models[req["release"]]
        for name, field_type in direct:
            # field_mapping: llm_args_dict[name] = field_type(**llm_args_dict[name])
            if name in data:
                data[name] = field_type(**data[name])
        args(**data)
    except ValidationError as e:
        out["error"] = "\n".join(l for l in str(e).split("\n") if not l.startswith("    For further information visit"))
    except Exception as e:
        out["other"] = type(e).__name__ + ": " + str(e)
    print(json.dumps(out), flush=True)
`)
	return b.String()
}

// nestedDocs are worker YAMLs with known and unknown keys in kv_cache_config
// and cuda_graph_config, beside cache_transceiver_config and top-level errors.
func nestedDocs(n int) []string {
	kvKeys := []string{"free_gpu_memory_fraction: 0.8", "free_gpu_memroy_fraction: 0.8", "enable_block_reuse: false",
		"free_gpu_mem_fraction: 0.9", "enable_block_resuse: true", "kv_pool_rebalance_cooldown_secs: 60",
		"block_reuse_config: {}", "cold_tier_offload_min_priority: 1",
		"tokens_per_block: 64", "dtype: fp8", "max_tokens: 8192", "use_kv_cache_manager_v2: true",
		"use_kv_cache_manager_v2: false", "use_kv_cache_manager_v2: auto", "onboard_blocks: true",
		"kv_events_config: {}", "zz_bogus: [1, 2]", "'': 1", "'a.b': x", "Enable_Block_Reuse: true",
		"event_buffer_max_size: 1024", "mamba_ssm_cache_dtype: float32", "max_util_for_resume: 0.9",
		"long_unknown: '" + strings.Repeat("y", 60) + "'"}
	cgKeys := []string{"batch_sizes: [1, 2, 4]", "max_batch_size: 64", "enable_padding: true", "max_batch_sise: 8",
		"padding_enabled: true", "'': null", "mode: decode", "enable_paddding: true", "mode: encode",
		"num_tokens: [128, 256]", "max_num_token: 0", "seq_lens: null", "max_seq_len: 0.0", "max_seq_len: 512",
		"max_num_token: false", "'a.b': 1"}
	scKeys := []string{"capacity_scheduler_policy: MAX_UTILIZATION", "context_chunking_policy: FIRST_COME_FIRST_SERVED",
		"waiting_queue_policy: fcfs", "use_python_scheduler: true", "enable_prefix_aware_scheduling: false",
		"gen_preemption: {}", "context_scheduling_policy: fcfs", "sjf_config: {}", "capacity_schedular_policy: x",
		"'': 0", "'x.y': 1"}
	moeKeys := []string{"backend: CUTLASS", "max_num_tokens: 4096", "load_balancer: lb.yaml", "disable_finalize_fusion: true",
		"use_low_precision_moe_combine: true", "tactic: cutlass", "megamoe_fuse_shared_expert: true", "backnd: TRTLLM",
		"'': null", "Backend: WIDEEP", "long_moe_key: '" + strings.Repeat("z", 70) + "'"}
	adpKeys := []string{"enable_balance: true", "timeout_iters: 50", "batching_wait_iters: 10",
		"enable_kv_cache_aware_routing: true", "kv_cache_routing_max_sessions: 1024", "timeout_iter: 5", "'': 1",
		"kv_cache_routing_new_conv_placement: least_queued", "enable_packed_sync: true"}
	ctcKeys := []string{"backend: UCX", "backend: NIXL", "bogus: 1", "backend: nixl"}
	tops := []string{"bogus_top: 2", "max_batch_size: 16", "enable_attention_dp: true"}
	var docs []string
	for _, k := range kvKeys {
		docs = append(docs, "kv_cache_config:\n  "+k+"\n", "kv_cache_config:\n  "+k+"\ncache_transceiver_config:\n  backend: UCX\n")
	}
	for _, k := range cgKeys {
		docs = append(docs, "cuda_graph_config:\n  "+k+"\n", "cuda_graph_config:\n  "+k+"\ncache_transceiver_config:\n  backend: UCX\n  bogus: 1\n")
	}
	for _, k := range scKeys {
		docs = append(docs, "scheduler_config:\n  "+k+"\n", "scheduler_config:\n  "+k+"\nkv_cache_config:\n  zz: 1\ncache_transceiver_config:\n  bogus: 1\n")
	}
	for _, k := range moeKeys {
		docs = append(docs, "moe_config:\n  "+k+"\n", "moe_config:\n  "+k+"\nkv_cache_config:\n  zz: 1\nbogus_top: 1\n")
	}
	for _, k := range adpKeys {
		docs = append(docs, "attention_dp_config:\n  "+k+"\n", "attention_dp_config:\n  "+k+"\nmoe_config:\n  zz: 1\nkv_cache_config:\n  zz: 1\n",
			"attention_dp_config:\n  "+k+"\nkv_cache_config:\n  zz: 1\nscheduler_config:\n  zz: 1\n")
	}
	docs = append(docs,
		// A config written for 1.4.0rc4 (tactic) and one for 1.3 (use_python_scheduler).
		"moe_config:\n  backend: TRTLLM\n  tactic: auto\n  max_num_tokens: 8192\ncache_transceiver_config:\n  backend: UCX\n",
		"scheduler_config:\n  use_python_scheduler: true\n  capacity_scheduler_policy: GUARANTEED_NO_EVICT\ncache_transceiver_config:\n  backend: UCX\n",
		// Every model at once, in an order unlike TorchLlmArgs'.
		"moe_config:\n  zz: 1\n  aa: 2\ncuda_graph_config:\n  nope: 1\nscheduler_config:\n  nope: 2\nkv_cache_config:\n  nope: 3\ncache_transceiver_config:\n  bogus: 1\nbogus_top: 1\n",
		"cuda_graph_config:\n  nope: 1\nscheduler_config:\n  nope: 2\nkv_cache_config:\n  nope: 3\ncache_transceiver_config:\n  bogus: 1\nbogus_top: 1\n",
		"scheduler_config: {}\nmoe_config: {}\n",
		// The brief's case, and all four kinds of error together.
		"kv_cache_config:\n  free_gpu_memroy_fraction: 0.8\ncache_transceiver_config:\n  backend: UCX\n",
		"bogus_top: 1\ncuda_graph_config:\n  max_batch_sise: 8\ncache_transceiver_config:\n  backend: nixl\n  bogus: 1\nkv_cache_config:\n  zz: 1\n  aa: 2\n  use_kv_cache_manager_v2: auto\n",
		"kv_cache_config: {}\ncuda_graph_config: {}\n")
	rng := rand.New(rand.NewPCG(7, 2026))
	pick := func(b *strings.Builder, head string, keys []string) {
		b.WriteString(head + ":\n")
		used := map[string]bool{}
		for k := 1 + rng.IntN(4); k > 0; k-- {
			line := keys[rng.IntN(len(keys))]
			name, _, _ := strings.Cut(line, ":")
			if used[name] {
				continue
			}
			used[name] = true
			b.WriteString("  " + line + "\n")
		}
	}
	for range n {
		var b strings.Builder
		parts := []func(){
			func() { pick(&b, "kv_cache_config", kvKeys) },
			func() { pick(&b, "cuda_graph_config", cgKeys) },
			func() { pick(&b, "cache_transceiver_config", ctcKeys) },
			func() { pick(&b, "scheduler_config", scKeys) },
			func() { pick(&b, "moe_config", moeKeys) },
			func() { pick(&b, "attention_dp_config", adpKeys) },
			func() { b.WriteString(tops[rng.IntN(len(tops))] + "\n") },
		}
		rng.Shuffle(len(parts), func(i, j int) { parts[i], parts[j] = parts[j], parts[i] })
		for _, p := range parts[:1+rng.IntN(len(parts))] {
			p()
		}
		docs = append(docs, b.String())
	}
	return docs
}

// TestNestedPydanticDifferential compares xcvr's refusal of unknown keys in
// kv_cache_config and cuda_graph_config with pydantic's ValidationError, byte
// for byte (less the URL lines): the title (TorchLlmArgs, or KvCacheConfig
// where update_llm_args_with_extra_dict builds it first), the count line, the
// locations and the order among the other errors.
func TestNestedPydanticDifferential(t *testing.T) {
	p := oracle.Start(t, nestedScript(t))
	docs := nestedDocs(300)
	for _, version := range nestedReleases {
		agree, fails, refused := 0, 0, 0
		_, kvKnown := resolver.NestedFieldsFor(resolverVersion(version), resolver.NestedKVCache)
		for _, d := range docs {
			if !kvKnown && strings.Contains(d, "use_kv_cache_manager_v2") {
				// Without KvCacheConfig's list the oracle takes any
				// kv_cache_config, while the resolver still refuses
				// use_kv_cache_manager_v2 before #10659 (its own check).
				continue
			}
			var ans validateAnswer
			if err := p.Ask(map[string]string{"release": version, "yaml": d}, &ans); err != nil {
				t.Fatalf("oracle: %v", err)
			}
			if ans.Other != "" {
				t.Fatalf("%s %q: the oracle raised %s", version, d, ans.Other)
			}
			ov, err := ReadWorkerConfig("v.yaml", []byte(d))
			if err != nil {
				t.Fatalf("%q: %v", d, err)
			}
			tr := resolveWith(t, ov, version, nil)
			got := ""
			if e, ok := strings.CutPrefix(tr.Result.Error, pydanticPrefix); ok && tr.Result.Outcome == resolver.OutcomeError {
				got = e
			}
			if got != ans.Error {
				if fails++; fails <= 10 {
					t.Errorf("%s %q:\nxcvr:\n%s\npydantic:\n%s", version, d, got, ans.Error)
				}
				continue
			}
			if got != "" {
				refused++
			}
			agree++
		}
		t.Logf("%s: %d configurations validate as pydantic validates them (%d refused), %d differ", version, agree, refused, fails)
	}
}

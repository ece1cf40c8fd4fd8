package resolver

import (
	"slices"
	"sync"
)

// The nested config models a worker YAML commonly sets are StrictBaseModels
// too (extra="forbid"): an unknown key inside kv_cache_config,
// scheduler_config, cuda_graph_config, attention_dp_config or moe_config
// refuses the whole file at start-up, as an unknown top-level key does. How the error reads depends on
// how the mapping reaches its model:
//
//   - through TorchLlmArgs' own validation (the field is declared
//     Optional[Model] or Model): one ValidationError "for TorchLlmArgs" with
//     every other error of the file, at loc "kv_cache_config.<key>";
//   - built first by update_llm_args_with_extra_dict's field_mapping
//     (Model(**d)): a ValidationError "for KvCacheConfig" with that model's
//     errors only, at loc "<key>", raised before TorchLlmArgs is validated.
//     Where two such models both have errors, the first in field_mapping's
//     order raises (moe_config, attention_dp_config, kv_cache_config).
//
// Each list below was read from a stored llm_args.py (the field declarations
// of the class, in order); a day falls in a window only where xcvr holds the
// copies on both sides of it, and the list is those copies' fields joined, so
// that a field added or dropped between them is accepted rather than refused.
// Outside the windows xcvr does not refuse a nested key: an incomplete list
// would call valid configs broken.

// kvFieldsLC is KvCacheConfig of the lower-case era's stored llm_args.py
// (1.0 line: after #5234, before #6574's mamba_ssm_cache_dtype).
var kvFieldsLC = []string{
	"enable_block_reuse", "max_tokens", "max_attention_window", "sink_token_length", "free_gpu_memory_fraction",
	"host_cache_size", "onboard_blocks", "cross_kv_cache_fraction", "secondary_offload_min_priority",
	"event_buffer_max_size", "enable_partial_reuse", "copy_on_partial_reuse", "use_uvm", "dtype",
}

// kvFieldsUC is KvCacheConfig of the upper-case era's stored copy (main
// 2025-10-22..12-19).
var kvFieldsUC = []string{
	"enable_block_reuse", "max_tokens", "max_attention_window", "sink_token_length", "free_gpu_memory_fraction",
	"host_cache_size", "onboard_blocks", "cross_kv_cache_fraction", "secondary_offload_min_priority",
	"event_buffer_max_size", "attention_dp_events_gather_period_ms", "enable_partial_reuse", "copy_on_partial_reuse",
	"use_uvm", "max_gpu_total_bytes", "dtype", "mamba_ssm_cache_dtype", "tokens_per_block",
}

// kvFieldsE0 is KvCacheConfig of era 0's stored copy (main about 2026-03-17).
var kvFieldsE0 = []string{
	"enable_block_reuse", "max_tokens", "max_attention_window", "sink_token_length", "free_gpu_memory_fraction",
	"host_cache_size", "onboard_blocks", "cross_kv_cache_fraction", "secondary_offload_min_priority",
	"event_buffer_max_size", "attention_dp_events_gather_period_ms", "enable_partial_reuse", "copy_on_partial_reuse",
	"use_uvm", "max_gpu_total_bytes", "dtype", "mamba_ssm_cache_dtype", "tokens_per_block", "use_kv_cache_manager_v2",
	"max_util_for_resume",
}

// kvFieldsE2 is KvCacheConfig of main@0004396 (its CacheTransceiverConfig has
// enable_pipelined_transfer, #15727 of 2026-09-02, and no agent_bounce_* of
// #15780, 2026-09-16: main 2026-09-02..09-15, if it is main's). onboard_blocks
// is gone there.
var kvFieldsE2 = []string{
	"enable_block_reuse", "max_tokens", "max_attention_window", "sink_token_length", "free_gpu_memory_fraction",
	"host_cache_size", "disk_cache_size", "disk_cache_path", "cross_kv_cache_fraction",
	"secondary_offload_min_priority", "event_buffer_max_size", "attention_dp_events_gather_period_ms",
	"kv_events_config", "enable_partial_reuse", "copy_on_partial_reuse", "use_uvm", "max_gpu_total_bytes",
	"iteration_stats_interval", "dtype", "mamba_ssm_cache_dtype", "mamba_ssm_stochastic_rounding",
	"mamba_ssm_philox_rounds", "tokens_per_block", "mamba_state_cache_interval", "mamba_state_config",
	"use_kv_cache_manager_v2", "enable_swa_scratch_reuse", "kv_cache_event_hash_algo", "max_util_for_resume",
	"enable_kv_pool_rebalance", "kv_pool_rebalance_min_sampled_kv_caches", "kv_pool_rebalance_cooldown_secs",
	"kv_pool_rebalance_target_ratio_update_interval", "kv_pool_rebalance_ratio_threshold",
	"kv_pool_rebalance_moving_average_decay", "kv_pool_rebalance_check_interval", "disk_prefetch_num_reqs",
	"fp8_context_mla_kv_len_cap", "pool_ratio", "avg_seq_len", "block_reuse_config",
}

// kvFieldsFork2607 is KvCacheConfig of QiJune/TensorRT-LLM@a08de420, a fork
// of main between #15823 (use_kv_cache_manager_v2 takes 'auto', 2026-07-13)
// and main@0004396: block_reuse_policy was a field then, before it moved to
// block_reuse_config.policy, so neither era 0's copy nor main@0004396 has it.
// (chuangz0/TensorRT-LLM@085e2e19, a fork of about 2026-05, has no field the
// joined list lacks.)
var kvFieldsFork2607 = []string{
	"enable_block_reuse", "max_tokens", "max_attention_window", "sink_token_length", "free_gpu_memory_fraction",
	"host_cache_size", "disk_cache_size", "disk_cache_path", "cross_kv_cache_fraction",
	"secondary_offload_min_priority", "event_buffer_max_size", "attention_dp_events_gather_period_ms",
	"enable_partial_reuse", "copy_on_partial_reuse", "use_uvm", "max_gpu_total_bytes", "iteration_stats_interval",
	"dtype", "mamba_ssm_cache_dtype", "mamba_ssm_stochastic_rounding", "mamba_ssm_philox_rounds",
	"tokens_per_block", "mamba_state_cache_interval", "use_kv_cache_manager_v2", "enable_swa_scratch_reuse",
	"kv_cache_event_hash_algo", "max_util_for_resume", "enable_kv_pool_rebalance", "disk_prefetch_num_reqs",
	"pool_ratio", "avg_seq_len", "block_reuse_policy",
}

// kvFields13rc26 is KvCacheConfig in 1.3.0rc26's API reference, its
// signature read whole in the page the release's docs build committed
// (NVIDIA/TensorRT-LLM gh-pages latest/llm-api/reference/KvCacheConfig.html
// @bfda94dc, theme_switcher_version_match '1.3.0rc26'): main@0004396's fields
// less kv_events_config and its six kv_pool_rebalance_* knobs.
var kvFields13rc26 = []string{
	"enable_block_reuse", "max_tokens", "max_attention_window", "sink_token_length", "free_gpu_memory_fraction",
	"host_cache_size", "disk_cache_size", "disk_cache_path", "cross_kv_cache_fraction",
	"secondary_offload_min_priority", "event_buffer_max_size", "attention_dp_events_gather_period_ms",
	"enable_partial_reuse", "copy_on_partial_reuse", "use_uvm", "max_gpu_total_bytes", "iteration_stats_interval",
	"dtype", "mamba_ssm_cache_dtype", "mamba_ssm_stochastic_rounding", "mamba_ssm_philox_rounds",
	"tokens_per_block", "mamba_state_cache_interval", "mamba_state_config", "use_kv_cache_manager_v2",
	"enable_swa_scratch_reuse", "kv_cache_event_hash_algo", "max_util_for_resume", "enable_kv_pool_rebalance",
	"disk_prefetch_num_reqs", "fp8_context_mla_kv_len_cap", "pool_ratio", "avg_seq_len", "block_reuse_config",
}

// kvFields13rc27 is KvCacheConfig in 1.3.0rc27's and 1.3.0rc29's API
// references alike (gh-pages latest/llm-api/reference/KvCacheConfig.html
// @35dd990d and @cd798f61, version_match '1.3.0rc27' and '1.3.0rc29', each
// signature read whole): 1.3.0rc26's and kv_events_config.
var kvFields13rc27 = append(append([]string{}, kvFields13rc26...), "kv_events_config")

// cudaGraphFields is CudaGraphConfig's fields in the lower-case, upper-case
// and era-0 stored copies alike (main@0004396 splits it into
// BaseCudaGraphConfig / DecodeCudaGraphConfig with a mode field, which xcvr
// does not model).
var cudaGraphFields = []string{"batch_sizes", "max_batch_size", "enable_padding"}

// From 1.3.0rc26 cuda_graph_config is a union chosen by its mode field
// (CudaGraphConfigType: Annotated[Union[DecodeCudaGraphConfig,
// EncodeCudaGraphConfig], Field(discriminator="mode")], both
// StrictBaseModels), and TorchLlmArgs' infer_cuda_graph_config_mode
// (field_validator, mode='before') fills in a missing mode: 'encode' if any of
// num_tokens, max_num_token, seq_lens, max_seq_len is set to a value not in
// (None, 0), else 'decode'. pydantic puts the member's tag in the location:
// cuda_graph_config.decode.<key>. Both the union and the validator were read
// in two stored llm_args.py copies (one of main before 1.3.0rc27, still with
// the TensorRT backend, and main@0004396, after 1.3.0rc29: it has
// KvCacheConfig knobs 1.3.0rc29's reference lacks); that 1.3.0rc26 to rc29
// have them is derived (their references document both classes).

// cudaDecodeFields is DecodeCudaGraphConfig in the API references of
// 1.3.0rc26 (gh-pages 1.3.0rc26/llm-api/reference/DecodeCudaGraphConfig.html
// @f2bb6484, Config.extra = 'forbid'), 1.3.0rc27 and 1.3.0rc29 (@bf0ee2fb)
// alike: BaseCudaGraphConfig's fields and mode.
var cudaDecodeFields = []string{"batch_sizes", "max_batch_size", "enable_padding", "mode"}

// cudaEncodeFields13 is EncodeCudaGraphConfig in the API references of
// 1.3.0rc26 (gh-pages latest/.../EncodeCudaGraphConfig.html @bfda94dc) and
// 1.3.0rc27 alike.
var cudaEncodeFields13 = []string{
	"batch_sizes", "max_batch_size", "enable_padding", "mode", "num_tokens", "max_num_token", "seq_lens", "max_seq_len",
}

// cudaEncodeFields14rc1 is EncodeCudaGraphConfig in 1.4.0rc1's API reference:
// extra_model_inputs added. Whether infer_cuda_graph_config_mode counts it
// (then a mapping with it and no mode would be an encode one) was not read.
var cudaEncodeFields14rc1 = append(append([]string{}, cudaEncodeFields13...), "extra_model_inputs")

// cudaModeKeys are the keys infer_cuda_graph_config_mode reads (encoder_keys).
var cudaModeKeys = []string{"num_tokens", "max_num_token", "seq_lens", "max_seq_len"}

// moeFieldsLC is MoeConfig(StrictBaseModel) of the lower-case era's stored
// copy: no disable_finalize_fusion yet (#3294, merged to main 2025-08-12 by
// main's git log, after release/1.0 branched) nor use_low_precision_moe_combine
// (#7598; its cherry-pick #7898 reached main 2025-09-29).
var moeFieldsLC = []string{"backend", "max_num_tokens", "load_balancer"}

// moeFields is MoeConfig of the upper-case era's, era 0's and main@0004396's
// stored copies alike (and of the 1.3.0rc27 API reference); the 1.4.0rc4
// reference adds tactic and megamoe_fuse_shared_expert, which no copy xcvr
// holds declares.
var moeFields = []string{
	"backend", "max_num_tokens", "load_balancer", "disable_finalize_fusion", "use_low_precision_moe_combine",
}

// schedFieldsLC is SchedulerConfig(StrictBaseModel, PybindMirror) of the
// lower-case and upper-case eras' stored copies alike.
var schedFieldsLC = []string{"capacity_scheduler_policy", "context_chunking_policy", "dynamic_batch_config"}

// schedFieldsE0 is SchedulerConfig of era 0's stored copy (main about
// 2026-03-17): waiting_queue_policy came with #11330 (reviewed 2026-02-12).
var schedFieldsE0 = []string{
	"capacity_scheduler_policy", "context_chunking_policy", "dynamic_batch_config", "waiting_queue_policy",
}

// schedFieldsE2 is SchedulerConfig of main@0004396 (and of the 1.3.0rc27 and
// 1.4.0rc1 API references); the 1.4.0rc4 reference adds gen_preemption,
// max_gen_init_admissions_per_pass, context_scheduling_policy and
// context_starvation_iterations. (sjf_config, in SJF pull requests #12423,
// #12428 and #13096, was never merged: all three are closed.)
var schedFieldsE2 = []string{
	"capacity_scheduler_policy", "context_chunking_policy", "dynamic_batch_config", "waiting_queue_policy",
	"use_python_scheduler", "enable_prefix_aware_scheduling",
}

// adpFields is AttentionDpConfig(StrictBaseModel) of the upper-case era's
// and era 0's stored copies alike (the lower-case era has no
// attention_dp_config field at all).
var adpFields = []string{"enable_balance", "timeout_iters", "batching_wait_iters"}

// adpFieldsE2 is AttentionDpConfig of main@0004396: KV cache-aware routing's
// knobs added.
var adpFieldsE2 = []string{
	"enable_balance", "timeout_iters", "batching_wait_iters", "enable_kv_cache_aware_routing",
	"kv_cache_routing_load_balance_weight", "kv_cache_routing_match_rate_threshold",
	"kv_cache_routing_fair_share_multiplier", "kv_cache_routing_cold_start_warmup",
	"kv_cache_routing_account_for_in_transfer", "kv_cache_routing_conversation_affinity",
	"kv_cache_routing_max_sessions",
}

// The API references of 1.3.0rc27, 1.4.0rc1 and 1.4.0rc4
// (nvidia.github.io/TensorRT-LLM/<version>/llm-api/reference/<Model>.html,
// each class's signature read whole) bound the lists after main@0004396
// (between 2026-09-02 and 09-15 if it is main's): a release between two of
// them takes both lists joined, as between two stored copies.
// update_llm_args_with_extra_dict's field_mapping (moe_config,
// attention_dp_config, kv_cache_config built first) was read at
// main@0004396; that the releases after it keep it is inferred.
// KvCacheConfig's signature is too long for the search index's excerpt of a
// page; it was read whole in the pages each release's docs build committed to
// NVIDIA/TensorRT-LLM's gh-pages branch (latest/ and <version>/, stored at
// that commit), which exist for 1.3.0rc26 to rc29 (rc28's was not read: it lies
// between rc27's and rc29's identical lists) and not for 1.4.
// main@0004396 holds KvCacheConfig knobs (kv_pool_rebalance_*) that neither
// 1.3.0rc27's (main 09-14) nor rc29's (09-24) reference has, although it
// predates #15780 (09-16): a branch's commit, or knobs that came and went
// within those days; xcvr accepts them only on main days between 1.3.0rc26
// and rc29, never for a release.
const (
	// dayRef13rc26 to dayRef13rc29 are 1.3.0rc26's to rc29's cuts (main
	// 2026-09-04, 09-14, 09-21, 09-24), each the day of the main commit its
	// docs build was generated from (releaseTable, derived).
	dayRef13rc26 Day = 20260904
	dayRef13rc27 Day = 20260914
	dayRef13rc28 Day = 20260921
	dayRef13rc29 Day = 20260924
	// dayRef14rc1 is 1.4.0rc1's (main 2026-10-21).
	dayRef14rc1 Day = 20261021
	// dayRef14rc4 is 1.4.0rc4's, as xcvr places it (its day is inferred).
	dayRef14rc4 Day = 20261111
)

// moeFields14rc4 is MoeConfig in 1.4.0rc4's API reference: tactic and
// megamoe_fuse_shared_expert joined. (1.3.0rc27's has moeFields.)
var moeFields14rc4 = []string{
	"backend", "tactic", "max_num_tokens", "load_balancer", "disable_finalize_fusion", "megamoe_fuse_shared_expert",
	"use_low_precision_moe_combine",
}

// adpFields13rc27 is AttentionDpConfig in 1.3.0rc27's API reference:
// main@0004396's and kv_cache_routing_new_conv_placement.
var adpFields13rc27 = append(append([]string{}, adpFieldsE2...), "kv_cache_routing_new_conv_placement")

// adpFields14rc4 is AttentionDpConfig in 1.4.0rc4's API reference.
var adpFields14rc4 = []string{
	"enable_balance", "enable_packed_sync", "timeout_iters", "batching_wait_iters", "enable_kv_balanced_admission",
	"enable_kv_cache_aware_routing", "kv_cache_routing_load_balance_weight", "kv_cache_routing_match_rate_threshold",
	"kv_cache_routing_fair_share_multiplier", "kv_cache_routing_cold_start_warmup",
	"kv_cache_routing_account_for_in_transfer", "kv_cache_routing_conversation_affinity",
	"kv_cache_routing_max_sessions", "kv_cache_routing_new_conv_placement",
	"kv_cache_routing_strict_conversation_affinity", "kv_cache_routing_strict_affinity_max_wait_iters",
}

// schedFields14rc4 is SchedulerConfig in 1.4.0rc4's API reference (1.3.0rc27's
// and 1.4.0rc1's are schedFieldsE2).
var schedFields14rc4 = []string{
	"capacity_scheduler_policy", "context_chunking_policy", "dynamic_batch_config", "waiting_queue_policy",
	"use_python_scheduler", "enable_prefix_aware_scheduling", "gen_preemption", "max_gen_init_admissions_per_pass",
	"context_scheduling_policy", "context_starvation_iterations",
}

// The joined lists, made once (they never change).
var (
	kvListA    = sync.OnceValue(func() []string { return joinFields(kvFieldsLC, kvFieldsUC) })
	kvListB    = sync.OnceValue(func() []string { return joinFields(kvFieldsUC, kvFieldsE0, kvFieldsFork2607, kvFieldsE2) })
	cudaGraph  = sync.OnceValue(func() []string { return joinFields(cudaGraphFields) })
	moeListA   = sync.OnceValue(func() []string { return joinFields(moeFieldsLC, moeFields) })
	moeListB   = sync.OnceValue(func() []string { return joinFields(moeFields) })
	schedListA = sync.OnceValue(func() []string { return joinFields(schedFieldsLC) })
	schedListB = sync.OnceValue(func() []string { return joinFields(schedFieldsLC, schedFieldsE0) })
	schedListC = sync.OnceValue(func() []string { return joinFields(schedFieldsE0, schedFieldsE2) })
	adpListA   = sync.OnceValue(func() []string { return joinFields(adpFields) })
	adpListB   = sync.OnceValue(func() []string { return joinFields(adpFields, adpFieldsE2, adpFields13rc27) })
	moeListC   = sync.OnceValue(func() []string { return joinFields(moeFields, moeFields14rc4) })
	adpListC   = sync.OnceValue(func() []string { return joinFields(adpFields13rc27, adpFields14rc4) })
	schedListD = sync.OnceValue(func() []string { return joinFields(schedFieldsE2, schedFields14rc4) })
	kv13rc26   = sync.OnceValue(func() []string { return joinFields(kvFields13rc26) })
	kv13rc27   = sync.OnceValue(func() []string { return joinFields(kvFields13rc27) })
	kvListC    = sync.OnceValue(func() []string { return joinFields(kvFields13rc27, kvFieldsE2) })
	cudaDecode = sync.OnceValue(func() []string { return joinFields(cudaDecodeFields) })
	cudaEnc13  = sync.OnceValue(func() []string { return joinFields(cudaEncodeFields13) })
	cudaEncC   = sync.OnceValue(func() []string { return joinFields(cudaEncodeFields13, cudaEncodeFields14rc1) })
)

// The nested models xcvr checks. kv_cache_config and scheduler_config are
// BaseLlmArgs fields declared before cache_transceiver_config (kv_cache_config
// first, scheduler_config after peft_cache_config); cuda_graph_config,
// attention_dp_config and moe_config are TorchLlmArgs' own, after every
// BaseLlmArgs field, in that order.
const (
	NestedKVCache     = "kv_cache_config"
	NestedScheduler   = "scheduler_config"
	NestedCUDAGraph   = "cuda_graph_config"
	NestedAttentionDP = "attention_dp_config"
	NestedMoE         = "moe_config"
)

// NestedRoots lists the top-level keys whose mappings xcvr checks for unknown
// keys, in TorchLlmArgs' field order.
func NestedRoots() []string {
	return []string{NestedKVCache, NestedScheduler, NestedCUDAGraph, NestedAttentionDP, NestedMoE}
}

// nestedBeforeCTC reports whether root is a TorchLlmArgs field declared
// before cache_transceiver_config, so that pydantic reports its errors before
// cache_transceiver_config's.
func nestedBeforeCTC(root string) bool { return root == NestedKVCache || root == NestedScheduler }

// directOrder is update_llm_args_with_extra_dict's field_mapping order among
// the models xcvr checks that it builds itself: the first of them with an
// error raises, alone. The upper-case era's copy lists "moe_config":
// MoeConfig, then "attention_dp_config": AttentionDpConfig; era 0's copy and
// main@0004396 list those two, then "kv_cache_config": KvCacheConfig
// (verified); before era 0, where kv_cache_config is built too (two forks'
// copies of main from 2025-11-18 on), the same order is inferred.
var directOrder = []string{"MoeConfig", "AttentionDpConfig", "KvCacheConfig"}

// NestedKey is a key written inside one of the NestedRoots mappings, in input
// order, with its value as Python would repr it.
type NestedKey struct {
	Root string
	VersionedKey
}

// NestedFields is one nested model's field list for a build.
type NestedFields struct {
	// Root is the TorchLlmArgs field, e.g. "kv_cache_config"; Model its class.
	Root, Model string
	// Fields are the model's fields, sorted.
	Fields []string
	// Direct marks a model update_llm_args_with_extra_dict builds itself
	// (Model(**d)) before TorchLlmArgs is validated: its errors are raised
	// alone, titled Model, at the bare key.
	Direct bool
	// TagKey, when set, makes the root a union chosen by that key
	// (cuda_graph_config's mode from 1.3.0rc26): each of Members is one
	// model, Fields their fields joined, and Model the first member's.
	TagKey     string
	Members    []NestedMember
	Evidence   string
	Confidence Confidence
}

// NestedMember is one model of a union root: its tag (the tag key's value that
// selects it, which pydantic puts in the error's location), class and sorted
// fields.
type NestedMember struct {
	Tag, Model string
	Fields     []string
}

// Has reports whether key is a field of the model.
func (n NestedFields) Has(key string) bool {
	_, ok := slices.BinarySearch(n.Fields, key)
	return ok
}

// kvDirectFrom is the first day xcvr knows update_llm_args_with_extra_dict
// builds KvCacheConfig itself ("kv_cache_config": KvCacheConfig in
// field_mapping, after a deep merge with the CLI's kv_cache_config):
// 1.2.0rc6's cut (main 2025-12-15). The llm_args.py of its patch
// 1.2.0rc6.post3, in that release's docs build (NVIDIA/TensorRT-LLM gh-pages
// 1.2.0rc6.post3/_modules/tensorrt_llm/llmapi/llm_args.html@434d5277), has
// it after "attention_dp_config" and "sparse_attention_config" [V for
// .post3; derived for rc6, whose line it patches]. The upper-case era's
// stored copy (kv_transfer_timeout_ms but no
// kv_transfer_sender_future_timeout_ms: main 2025-10-22..11-18) does not have
// it; brb-nv/TensorRT-LLM@04d20224 (sender future timeout, no MOONCAKE: main
// 2025-11-18..12-19) and HuiGao-NV/TensorRT-LLM@195839a7 (MOONCAKE, no
// transceiver_runtime: 2025-12-19..2026-03-17), two forks of main, already
// do, as do era 0's copy (main about 2026-03-17) and main@0004396. Between
// 2025-10-22 and 12-15 the day it came in is not known.
const kvDirectFrom Day = 20251215

// kvDirect reports whether, on day d, a worker YAML's kv_cache_config is
// built by KvCacheConfig(**d) before TorchLlmArgs, and whether that is known
// at all: before #5610 (0.21.0's copy) it was, from the lower-case era's copy
// until the upper-case era's it was not, and from 1.2.0rc6 on (its .post3's
// copy, two forks' copies, era 0's, main@0004396, and 1.3.0rc26 by Dynamo PR
// #15117's account) it is again.
func kvDirect(d Day) (direct, known bool) {
	switch {
	case d >= dayConfigKnobs && d < dayTimeoutField:
		return false, true
	case d >= kvDirectFrom:
		return true, true
	}
	return false, false
}

// NestedFieldsFor is the field list of the model under root for the day of
// main version v behaves like; ok is false when xcvr does not hold it for
// that day (then nothing under root is refused).
func NestedFieldsFor(v Version, root string) (NestedFields, bool) {
	d := v.Main
	switch root {
	case NestedKVCache:
		switch {
		case d >= dayConfigKnobs && d < dayTimeoutField:
			return NestedFields{Root: root, Model: "KvCacheConfig", Fields: kvListA(), Confidence: Derived,
				Evidence: "KvCacheConfig(StrictBaseModel) fields of the lower-case era's and the upper-case era's stored llm_args.py, joined; both validate it as TorchLlmArgs.kv_cache_config (update_llm_args_with_extra_dict's field_mapping has no kv_cache_config since #5610)"}, true
		case d >= kvDirectFrom && d < dayRef13rc26:
			// main@0004396's list holds every field of 1.3.0rc26's
			// reference, so main days up to that release keep it.
			return NestedFields{Root: root, Model: "KvCacheConfig", Fields: kvListB(), Direct: true, Confidence: Derived,
				Evidence: "KvCacheConfig(StrictBaseModel) fields of the upper-case era's and era 0's stored llm_args.py (main about 2026-03-17) and of main@0004396, joined with a fork's copy of main 2026-07 (block_reuse_policy, a field only then) and the upper-case era's (a fork's copy of main 2025-12-19..2026-03-17 has those); from 1.2.0rc6 on update_llm_args_with_extra_dict builds it (field_mapping \"kv_cache_config\": KvCacheConfig), before TorchLlmArgs, in 1.2.0rc6.post3's llm_args.py, that fork's copy, era 0's and main@0004396"}, true
		case d == dayRef13rc26:
			return NestedFields{Root: root, Model: "KvCacheConfig", Fields: kv13rc26(), Direct: true, Confidence: Derived,
				Evidence: "KvCacheConfig(StrictBaseModel, PybindMirror) fields in 1.3.0rc26's API reference, its signature read whole (verified; NVIDIA/TensorRT-LLM gh-pages latest/llm-api/reference/KvCacheConfig.html@bfda94dc); built first by update_llm_args_with_extra_dict as in era 0's copy and main@0004396 (derived)"}, true
		case d == dayRef13rc27 || d == dayRef13rc28 || d == dayRef13rc29:
			return NestedFields{Root: root, Model: "KvCacheConfig", Fields: kv13rc27(), Direct: true, Confidence: Derived,
				Evidence: "KvCacheConfig(StrictBaseModel, PybindMirror) fields in 1.3.0rc27's and 1.3.0rc29's API references alike, each signature read whole (verified; gh-pages latest/llm-api/reference/KvCacheConfig.html@35dd990d and @cd798f61; 1.3.0rc28, between them, derived); built first by update_llm_args_with_extra_dict as in era 0's copy and main@0004396 (derived)"}, true
		case d > dayRef13rc26 && d <= dayRef13rc29:
			// A main day between those releases: main@0004396's
			// kv_pool_rebalance_* knobs (in neither release's reference;
			// whether main ever had them is not known) are accepted too.
			return NestedFields{Root: root, Model: "KvCacheConfig", Fields: kvListC(), Direct: true, Confidence: Derived,
				Evidence: "KvCacheConfig(StrictBaseModel, PybindMirror) fields of 1.3.0rc27's and 1.3.0rc29's API references (verified, alike) joined with main@0004396's stored llm_args.py; built first by update_llm_args_with_extra_dict as in main@0004396 (derived)"}, true
		}
	case NestedCUDAGraph:
		if d >= dayConfigKnobs && d <= dayFieldExists {
			return NestedFields{Root: root, Model: "CudaGraphConfig", Fields: cudaGraph(), Confidence: Derived,
				Evidence: "CudaGraphConfig(StrictBaseModel) fields batch_sizes, max_batch_size, enable_padding in the lower-case, upper-case and era-0 stored llm_args.py alike; TorchLlmArgs declares cuda_graph_config: Optional[CudaGraphConfig] and no field_mapping builds it"}, true
		}
		switch {
		case d >= dayRef13rc26 && d <= dayRef13rc27:
			return cudaUnion(cudaEnc13(), Derived,
				"DecodeCudaGraphConfig and EncodeCudaGraphConfig (StrictBaseModel) fields in 1.3.0rc26's and 1.3.0rc27's API references (verified); the mode union and infer_cuda_graph_config_mode read in a stored copy of main before 1.3.0rc27 and in main@0004396 (derived for these releases); TorchLlmArgs validates it (no field_mapping entry)"), true
		case d > dayRef13rc27 && d <= dayRef13rc29:
			return cudaUnion(cudaEncC(), Derived,
				"DecodeCudaGraphConfig fields in 1.3.0rc29's API reference (verified), EncodeCudaGraphConfig's of 1.3.0rc27's and 1.4.0rc1's references joined (extra_model_inputs from the latter); the mode union and infer_cuda_graph_config_mode as in main@0004396 (derived)"), true
		case d > dayRef13rc29 && d <= dayRef14rc1:
			return cudaUnion(cudaEncC(), Inferred,
				"EncodeCudaGraphConfig fields of 1.4.0rc1's API reference (its BaseCudaGraphConfig fields unchanged); DecodeCudaGraphConfig taken to be those and mode as in every earlier reference, and the mode union and infer_cuda_graph_config_mode as in main@0004396 (inferred for 1.4.0rc1)"), true
		}
	case NestedMoE:
		// update_llm_args_with_extra_dict builds MoeConfig(**d) itself in all
		// four stored copies ("moe_config": MoeConfig in field_mapping).
		switch {
		case d >= dayConfigKnobs && d < dayTimeoutField:
			return NestedFields{Root: root, Model: "MoeConfig", Fields: moeListA(), Direct: true, Confidence: Derived,
				Evidence: "MoeConfig(StrictBaseModel) fields of the lower-case era's stored llm_args.py (backend, max_num_tokens, load_balancer) and the upper-case era's (disable_finalize_fusion, use_low_precision_moe_combine added), joined; both build it first (field_mapping \"moe_config\": MoeConfig in update_llm_args_with_extra_dict)"}, true
		case d >= dayTimeoutField && d <= dayRef13rc27:
			return NestedFields{Root: root, Model: "MoeConfig", Fields: moeListB(), Direct: true, Confidence: Derived,
				Evidence: "MoeConfig(StrictBaseModel) fields backend, max_num_tokens, load_balancer, disable_finalize_fusion, use_low_precision_moe_combine in the upper-case era's, era 0's and main@0004396's stored llm_args.py and 1.3.0rc27's API reference alike; the three copies build it first (field_mapping \"moe_config\": MoeConfig in update_llm_args_with_extra_dict)"}, true
		case d > dayRef13rc27 && d <= dayRef14rc4:
			return NestedFields{Root: root, Model: "MoeConfig", Fields: moeListC(), Direct: true, Confidence: Inferred,
				Evidence: "MoeConfig fields of 1.3.0rc27's and 1.4.0rc4's API references joined (tactic and megamoe_fuse_shared_expert from the latter); built first as in main@0004396 (inferred for these releases)"}, true
		}
	case NestedAttentionDP:
		// A TorchLlmArgs field from the 1.1 era on (the lower-case era's copy
		// has none, and its top-level list refuses the key); built first by
		// update_llm_args_with_extra_dict ("attention_dp_config":
		// AttentionDpConfig) in the upper-case era's, era 0's and
		// main@0004396's copies. Between the lower-case and upper-case copies
		// its first form is not held, so the windows start at the upper-case
		// copy's first possible day.
		switch {
		case d >= dayTimeoutField && d < dayFieldExists:
			return NestedFields{Root: root, Model: "AttentionDpConfig", Fields: adpListA(), Direct: true, Confidence: Derived,
				Evidence: "AttentionDpConfig(StrictBaseModel) fields enable_balance, timeout_iters, batching_wait_iters in the upper-case era's and era 0's stored llm_args.py alike; both build it first (field_mapping \"attention_dp_config\": AttentionDpConfig in update_llm_args_with_extra_dict)"}, true
		case d >= dayFieldExists && d <= dayRef13rc27:
			return NestedFields{Root: root, Model: "AttentionDpConfig", Fields: adpListB(), Direct: true, Confidence: Derived,
				Evidence: "AttentionDpConfig(StrictBaseModel) fields of era 0's stored llm_args.py, of main@0004396 (enable_kv_cache_aware_routing and the kv_cache_routing_* knobs added) and of 1.3.0rc27's API reference (kv_cache_routing_new_conv_placement added), joined; both copies build it first (field_mapping \"attention_dp_config\": AttentionDpConfig)"}, true
		case d > dayRef13rc27 && d <= dayRef14rc4:
			return NestedFields{Root: root, Model: "AttentionDpConfig", Fields: adpListC(), Direct: true, Confidence: Inferred,
				Evidence: "AttentionDpConfig fields of 1.3.0rc27's and 1.4.0rc4's API references joined (enable_packed_sync, enable_kv_balanced_admission and the strict-affinity knobs from the latter); built first as in main@0004396 (inferred for these releases)"}, true
		}
	case NestedScheduler:
		// TorchLlmArgs validates it (BaseLlmArgs declares scheduler_config:
		// SchedulerConfig with a default factory); no field_mapping of the
		// four stored copies builds it.
		switch {
		case d >= dayConfigKnobs && d < dayTimeoutField:
			return NestedFields{Root: root, Model: "SchedulerConfig", Fields: schedListA(), Confidence: Derived,
				Evidence: "SchedulerConfig(StrictBaseModel, PybindMirror) fields capacity_scheduler_policy, context_chunking_policy, dynamic_batch_config in the lower-case and upper-case eras' stored llm_args.py alike; TorchLlmArgs validates it (scheduler_config: SchedulerConfig, not in update_llm_args_with_extra_dict's field_mapping)"}, true
		case d >= dayTimeoutField && d < dayFieldExists:
			return NestedFields{Root: root, Model: "SchedulerConfig", Fields: schedListB(), Confidence: Derived,
				Evidence: "SchedulerConfig(StrictBaseModel, PybindMirror) fields of the upper-case era's and era 0's stored llm_args.py (waiting_queue_policy added), joined; TorchLlmArgs validates it in both"}, true
		case d >= dayFieldExists && d <= dayRef14rc1:
			return NestedFields{Root: root, Model: "SchedulerConfig", Fields: schedListC(), Confidence: Derived,
				Evidence: "SchedulerConfig(StrictBaseModel, PybindMirror) fields of era 0's stored llm_args.py and of main@0004396 (use_python_scheduler, enable_prefix_aware_scheduling added), joined, and those of 1.3.0rc27's and 1.4.0rc1's API references, the same; TorchLlmArgs validates it in both copies"}, true
		case d > dayRef14rc1 && d <= dayRef14rc4:
			return NestedFields{Root: root, Model: "SchedulerConfig", Fields: schedListD(), Confidence: Inferred,
				Evidence: "SchedulerConfig fields of 1.4.0rc1's and 1.4.0rc4's API references joined (gen_preemption, max_gen_init_admissions_per_pass, context_scheduling_policy, context_starvation_iterations from the latter); validated by TorchLlmArgs as in main@0004396 (inferred for these releases)"}, true
		}
	}
	return NestedFields{}, false
}

// cudaUnion is cuda_graph_config's union from 1.3.0rc26: decode and encode
// (encode's fields as given).
func cudaUnion(encode []string, c Confidence, evidence string) NestedFields {
	return NestedFields{Root: NestedCUDAGraph, Model: "DecodeCudaGraphConfig", Fields: joinFields(cudaDecode(), encode),
		TagKey: "mode", Confidence: c, Evidence: evidence, Members: []NestedMember{
			{Tag: "decode", Model: "DecodeCudaGraphConfig", Fields: cudaDecode()},
			{Tag: "encode", Model: "EncodeCudaGraphConfig", Fields: encode},
		}}
}

// member is the model of union n that validates the mapping written under
// n.Root (keys are all of the input's NestedKeys), and false where xcvr cannot
// be sure which: a tag key whose value is no member's tag (pydantic's
// union_tag_invalid, which xcvr does not render), or, without one, a key only
// a non-decode member declares beyond those infer_cuda_graph_config_mode reads
// (1.4.0rc1's extra_model_inputs: whether it makes the mapping an encode one
// was not read). Without a tag key the mapping is encode when a key of
// cudaModeKeys holds a value not in (None, 0), as Python compares: None, 0,
// False, 0.0 and -0.0 are in it.
func (n NestedFields) member(keys []NestedKey) (NestedMember, bool) {
	// PyYAML keeps a repeated key's last value: the last one written counts.
	last := map[string]VersionedKey{}
	for _, k := range keys {
		if k.Root == n.Root {
			last[k.Key] = k.VersionedKey
		}
	}
	if t, ok := last[n.TagKey]; ok {
		for _, m := range n.Members {
			if t.InputType == "str" && t.Input == "'"+m.Tag+"'" {
				return m, true
			}
		}
		return NestedMember{}, false
	}
	tag := "decode"
	for key, val := range last {
		switch {
		case slices.Contains(cudaModeKeys, key):
			if !zeroLike(val) {
				tag = "encode"
			}
		case n.declaredBeyondDecode(key):
			return NestedMember{}, false
		}
	}
	for _, m := range n.Members {
		if m.Tag == tag {
			return m, true
		}
	}
	return NestedMember{}, false
}

// declaredBeyondDecode reports whether a member other than decode declares key.
func (n NestedFields) declaredBeyondDecode(key string) bool {
	if n.declaredBy("decode", key) {
		return false
	}
	for _, m := range n.Members {
		if _, ok := slices.BinarySearch(m.Fields, key); ok {
			return true
		}
	}
	return false
}

// declaredBy reports whether the member tagged tag declares key.
func (n NestedFields) declaredBy(tag, key string) bool {
	for _, m := range n.Members {
		if m.Tag == tag {
			_, ok := slices.BinarySearch(m.Fields, key)
			return ok
		}
	}
	return false
}

// zeroLike reports whether Python's `v in (None, 0)` holds for the value.
func zeroLike(v VersionedKey) bool {
	switch v.InputType {
	case "NoneType":
		return true
	case "int":
		return v.Input == "0"
	case "bool":
		return v.Input == "False"
	case "float":
		return v.Input == "0.0" || v.Input == "-0.0"
	}
	return false
}

// NestedErrors are pydantic's extra_forbidden errors for the keys inside the
// nested mappings that are not fields of their model on v's day, in input
// order. Keys the resolver checks itself (kv_cache_config's
// use_kv_cache_manager_v2, through Inputs.KVManager) are left to it, and a key
// that is not a string is never refused.
func NestedErrors(v Version, keys []NestedKey) []FieldError {
	var out []FieldError
	// A union root's member depends on the whole mapping: found once per root.
	type chosen struct {
		m  NestedMember
		ok bool
	}
	members := map[string]chosen{}
	// Each root's model, looked up once (a file may hold thousands of keys).
	type held struct {
		n  NestedFields
		ok bool
	}
	models := map[string]held{}
	for _, k := range keys {
		if k.Root == NestedKVCache && k.Key == "use_kv_cache_manager_v2" {
			continue
		}
		h, seen := models[k.Root]
		if !seen {
			h.n, h.ok = NestedFieldsFor(v, k.Root)
			models[k.Root] = h
		}
		n, ok := h.n, h.ok
		if !ok {
			continue
		}
		tag := ""
		if n.TagKey != "" {
			c, seen := members[k.Root]
			if !seen {
				c.m, c.ok = n.member(keys)
				members[k.Root] = c
			}
			if _, declared := slices.BinarySearch(c.m.Fields, k.Key); !c.ok || declared {
				continue
			}
			tag = c.m.Tag
		} else if n.Has(k.Key) {
			continue
		}
		e := FieldError{Root: k.Root, Tag: tag, Loc: k.Key, EmptyKey: k.Key == "", Type: "extra_forbidden",
			Message: "Extra inputs are not permitted", Input: k.Input, InputType: k.InputType, Origin: k.Origin}
		if n.Direct {
			e.Model = n.Model
		}
		out = append(out, e)
	}
	return out
}

package resolver

import (
	"slices"
	"sync"
)

// The top level of a worker YAML: TorchLlmArgs (BaseLlmArgs' fields and its
// own) is a StrictBaseModel with extra="forbid", so any other key refuses the
// whole file with pydantic's extra_forbidden error. Its field list changed
// from release line to release line; each list below was read from a stored
// llm_args.py of its time (the field declarations of BaseLlmArgs and
// TorchLlmArgs, in order), dated by what its CacheTransceiverConfig declares
// (fields.go).

// argsBase10 and argsTorch10 are the lower-case era's (1.0): [lc] in fields.go.
var argsBase10 = []string{
	"model", "tokenizer", "tokenizer_mode", "skip_tokenizer_init", "trust_remote_code", "tensor_parallel_size",
	"dtype", "revision", "tokenizer_revision", "pipeline_parallel_size", "context_parallel_size", "gpus_per_node",
	"moe_cluster_parallel_size", "moe_tensor_parallel_size", "moe_expert_parallel_size", "enable_attention_dp",
	"cp_config", "load_format", "fail_fast_on_attention_window_too_large", "enable_lora", "lora_config",
	"kv_cache_config", "enable_chunked_prefill", "guided_decoding_backend", "batched_logits_processor",
	"iter_stats_max_iterations", "request_stats_max_iterations", "peft_cache_config", "scheduler_config",
	"cache_transceiver_config", "speculative_config", "max_batch_size", "max_input_len", "max_seq_len",
	"max_beam_width", "max_num_tokens", "gather_generation_logits", "num_postprocess_workers",
	"postprocess_tokenizer_dir", "reasoning_parser", "decoding_config", "_mpi_session", "backend",
}

var argsTorch10 = []string{
	"build_config", "garbage_collection_gen0_threshold", "cuda_graph_config", "disable_overlap_scheduler",
	"moe_config", "attn_backend", "enable_mixed_sampler", "enable_trtllm_sampler", "enable_iter_perf_stats",
	"enable_iter_req_stats", "print_iter_log", "torch_compile_config", "enable_autotuner",
	"enable_layerwise_nvtx_marker", "load_format", "enable_min_latency", "stream_interval",
	"force_dynamic_quantization", "allreduce_strategy", "checkpoint_loader", "checkpoint_format", "connector_config",
}

// argsBase11 and argsTorch11 are the upper-case era's before MOONCAKE (main
// 2025-10..11, taken for 1.1 and 1.2): [uc] in fields.go.
var argsBase11 = []string{
	"model", "tokenizer", "tokenizer_mode", "skip_tokenizer_init", "trust_remote_code", "tensor_parallel_size",
	"dtype", "revision", "tokenizer_revision", "pipeline_parallel_size", "context_parallel_size", "gpus_per_node",
	"moe_cluster_parallel_size", "moe_tensor_parallel_size", "moe_expert_parallel_size", "enable_attention_dp",
	"enable_lm_head_tp_in_adp", "cp_config", "load_format", "fail_fast_on_attention_window_too_large", "enable_lora",
	"lora_config", "kv_cache_config", "enable_chunked_prefill", "guided_decoding_backend", "batched_logits_processor",
	"iter_stats_max_iterations", "request_stats_max_iterations", "peft_cache_config", "scheduler_config",
	"cache_transceiver_config", "sparse_attention_config", "speculative_config", "max_batch_size", "max_input_len",
	"max_seq_len", "max_beam_width", "max_num_tokens", "gather_generation_logits", "num_postprocess_workers",
	"postprocess_tokenizer_dir", "reasoning_parser", "decoding_config", "_mpi_session", "backend",
	"return_perf_metrics", "orchestrator_type",
}

var argsTorch11 = []string{
	"build_config", "garbage_collection_gen0_threshold", "cuda_graph_config", "attention_dp_config",
	"disable_overlap_scheduler", "moe_config", "attn_backend", "sampler_type", "enable_iter_perf_stats",
	"enable_iter_req_stats", "print_iter_log", "perf_metrics_max_requests", "batch_wait_timeout_ms",
	"batch_wait_timeout_iters", "batch_wait_max_tokens_ratio", "torch_compile_config", "enable_autotuner",
	"enable_layerwise_nvtx_marker", "enable_min_latency", "stream_interval", "force_dynamic_quantization",
	"allreduce_strategy", "checkpoint_loader", "checkpoint_format", "kv_connector_config", "mm_encoder_only",
	"ray_worker_extension_cls",
}

// argsBase13 and argsTorch13 are era 0's (1.3 before 'auto'): [e0] in
// fields.go. TorchLlmArgs no longer has build_config; backend is its own
// Literal["pytorch"] field.
var argsBase13 = []string{
	"model", "tokenizer", "tokenizer_mode", "custom_tokenizer", "skip_tokenizer_init", "trust_remote_code",
	"tensor_parallel_size", "dtype", "revision", "tokenizer_revision", "model_kwargs", "pipeline_parallel_size",
	"context_parallel_size", "gpus_per_node", "moe_cluster_parallel_size", "moe_tensor_parallel_size",
	"moe_expert_parallel_size", "enable_attention_dp", "enable_lm_head_tp_in_adp", "pp_partition", "cp_config",
	"load_format", "enable_lora", "lora_config", "kv_cache_config", "enable_chunked_prefill",
	"guided_decoding_backend", "batched_logits_processor", "iter_stats_max_iterations",
	"request_stats_max_iterations", "peft_cache_config", "scheduler_config", "cache_transceiver_config",
	"sparse_attention_config", "speculative_config", "max_batch_size", "max_input_len", "max_seq_len",
	"max_beam_width", "max_num_tokens", "gather_generation_logits", "num_postprocess_workers",
	"postprocess_tokenizer_dir", "reasoning_parser", "decoding_config", "_mpi_session", "otlp_traces_endpoint",
	"backend", "return_perf_metrics", "perf_metrics_max_requests", "orchestrator_type", "env_overrides",
}

var argsTorch13 = []string{
	"garbage_collection_gen0_threshold", "cuda_graph_config", "attention_dp_config", "disable_overlap_scheduler",
	"moe_config", "nvfp4_gemm_config", "attn_backend", "sampler_type", "sampler_force_async_worker",
	"enable_iter_perf_stats", "enable_iter_req_stats", "print_iter_log", "batch_wait_timeout_ms",
	"batch_wait_timeout_iters", "batch_wait_max_tokens_ratio", "torch_compile_config", "enable_autotuner",
	"enable_layerwise_nvtx_marker", "enable_min_latency", "stream_interval", "force_dynamic_quantization",
	"allreduce_strategy", "checkpoint_loader", "checkpoint_format", "kv_connector_config", "mm_encoder_only",
	"ray_worker_extension_cls", "ray_placement_config", "enable_sleep", "use_cute_dsl_blockscaling_mm",
	"use_cute_dsl_blockscaling_bmm", "disable_flashinfer_sampling", "max_stats_len", "layer_wise_benchmarks_config",
}

// argsAdded14 are the fields of main@0004396 (the 1.4 era) that argsBase11 and
// argsTorch11 lack, plus sampler_type, removed there but still accepted on
// input (_TORCH_LLMARGS_REMOVED_ARG_CHECKS drops it before validation).
var argsAdded14 = []string{
	"custom_tokenizer", "post_processor_hook", "model_kwargs", "pp_partition", "kv_cache_compression_config",
	"num_serve_frontends", "otlp_traces_endpoint", "perf_metrics_output_dir", "prometheus_metrics_config",
	"enable_energy_metrics", "env_overrides", "telemetry_config",
	// TorchLlmArgs
	"generation_config", "encoder_cuda_graph_config", "enable_encoder_decoder_mixed_cuda_graph", "multimodal_config",
	"nvfp4_gemm_config", "dwdp_config", "encoder_max_batch_size", "encoder_max_num_tokens",
	"enable_mla_skip_correction", "mla_skip_correction_threshold", "sampler_force_async_worker",
	"enable_in_graph_sampling", "enable_speculative_beam_history_d2h", "enable_early_first_token_response",
	"enable_low_latency_host_dispatch", "prefill_cuda_graph_backend", "prefill_capture_num_tokens",
	"use_fine_grained_sync", "checkpoint_io_policy", "mx_config", "gms_config", "disable_mm_encoder", "encode_only",
	"ray_placement_config", "ray_worker_nsight_options", "sleep_config", "reorder_policy_config",
	"enable_resource_governor", "use_cute_dsl_blockscaling_mm", "use_cute_dsl_blockscaling_bmm",
	"use_cute_dsl_bf16_bmm", "use_cute_dsl_bf16_gemm", "max_stats_len", "layer_wise_benchmarks_config",
}

// dayRelease13rc18 is 1.3.0rc18's main day: from it on xcvr keeps the list it
// used before the lists were dated (the 1.1 and the 1.4-era lists joined).
const dayRelease13rc18 Day = 20260609

// dayLine13 is 1.3.0rc0's main day, the first 1.3 release candidate (its docs
// build's commit, main 2026-01-18; releaseTable) [D].
const dayLine13 Day = 20260118

// LLMArgsFields is the top-level key set of a worker YAML for a build: its
// fields sorted, and where they were read.
type LLMArgsFields struct {
	Fields     []string
	Evidence   string
	Confidence Confidence
	// line is the list's place among the dated lists (argsLists), for
	// Accepted.
	line int
}

// Has reports whether key is a top-level field.
func (a LLMArgsFields) Has(key string) bool {
	_, ok := slices.BinarySearch(a.Fields, key)
	return ok
}

// The joined lists, made once (they never change).
var (
	argsList10 = sync.OnceValue(func() []string { return joinFields(argsBase10, argsTorch10) })
	argsList11 = sync.OnceValue(func() []string { return joinFields(argsBase11, argsTorch11) })
	argsList13 = sync.OnceValue(func() []string { return joinFields(argsBase13, argsTorch13) })
	argsList14 = sync.OnceValue(func() []string { return joinFields(argsBase11, argsTorch11, argsAdded14) })
)

func joinFields(lists ...[]string) []string {
	var out []string
	for _, l := range lists {
		out = append(out, l...)
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// argsLists are the dated lists, oldest first.
var argsLists = []func() []string{argsList10, argsList11, argsList13, argsList14}

// argsNear is each list joined with the lists before and after it (Accepted).
var argsNear = sync.OnceValue(func() [][]string {
	out := make([][]string, len(argsLists))
	for i := range argsLists {
		var near [][]string
		for j := max(i-1, 0); j <= min(i+1, len(argsLists)-1); j++ {
			near = append(near, argsLists[j]())
		}
		out[i] = joinFields(near...)
	}
	return out
})

// Accepted is the keys xcvr lets a build of a's list take at the top level,
// sorted. Where a's list is inferred (taken for releases around the one it was
// read from), a key of the list before or after it may be a field added or
// removed in between: those are accepted too, so that a valid config is not
// called broken; a key in none of the three is still refused (a typo, or a
// field long gone).
func (a LLMArgsFields) Accepted() []string {
	if a.Confidence == Inferred && a.Fields != nil {
		return argsNear()[a.line]
	}
	return a.Fields
}

// Accepts reports whether key is one of Accepted.
func (a LLMArgsFields) Accepts(key string) bool {
	_, ok := slices.BinarySearch(a.Accepted(), key)
	return ok
}

// ArgsFieldsFor is TorchLlmArgs' field list for the day of main a version
// behaves like: the lower-case era's list for 1.0, the 1.1 list for 1.1 and
// 1.2, era 0's for 1.3.0rc0 to rc17, and from 1.3.0rc18 on the 1.1 and 1.4-era
// lists joined (xcvr's list before the lists were dated, kept so that today's
// answers for those releases stand).
func ArgsFieldsFor(v Version) LLMArgsFields {
	d := v.Main
	switch {
	case d < dayUpperCase:
		conf := Derived
		if d < dayConfigKnobs {
			conf = Inferred
		}
		return LLMArgsFields{Fields: argsList10(), line: 0, Confidence: conf,
			Evidence: "BaseLlmArgs and TorchLlmArgs fields of llm_args.py of the lower-case era (stored copy, before #6323 of 2025-08-14: the 1.0 line)"}
	case d < dayLine13:
		conf := Inferred
		if d >= dayTimeoutField && d < daySenderFuture {
			// The stored file's own time: kv_transfer_timeout_ms but no
			// kv_transfer_sender_future_timeout_ms. Later 1.2 builds add
			// fields it lacks (1.2.0rc6.post3's field_mapping builds
			// nvfp4_gemm_config), so they take its neighbours too.
			conf = Derived
		}
		return LLMArgsFields{Fields: argsList11(), line: 1, Confidence: conf,
			Evidence: "BaseLlmArgs and TorchLlmArgs fields of llm_args.py of the upper-case era before MOONCAKE (stored copy with kv_transfer_timeout_ms and without kv_transfer_sender_future_timeout_ms, so main 2025-10-22..11-18: 1.2.0rc2); taken for the whole 1.1 and 1.2 lines"}
	case d < dayRelease13rc18:
		conf := Inferred
		if d >= dayFieldExists && d < dayTimeoutDefault {
			conf = Derived
		}
		return LLMArgsFields{Fields: argsList13(), line: 2, Confidence: conf,
			Evidence: "BaseLlmArgs and TorchLlmArgs fields of llm_args.py of era 0 (stored copy, main about 2026-03-17, 1.3.0rc8); taken for 1.3.0rc0 to rc17"}
	}
	return LLMArgsFields{Fields: argsList14(), line: 3, Confidence: Inferred,
		Evidence: "TorchLlmArgs and BaseLlmArgs fields of tensorrt_llm/llmapi/llm_args.py at main@0004396 (1.4 era) and of the 1.1-era stored version, joined (from 1.3.0rc18 on, xcvr's list before the lists were dated)"}
}

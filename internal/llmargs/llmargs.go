// Package llmargs knows which top-level keys TensorRT-LLM's argument model
// accepts in a worker YAML. TorchLlmArgs (through BaseLlmArgs) is a pydantic
// StrictBaseModel with extra="forbid": any other key refuses the whole file with
// pydantic's extra_forbidden error, before anything else runs.
package llmargs

import (
	"slices"

	"xcvr/resolver"
)

// Evidence names what the built-in field list was read from.
const Evidence = "TorchLlmArgs and BaseLlmArgs fields of tensorrt_llm/llmapi/llm_args.py at main@0004396 (1.4 era) and of an earlier stored version (the 1.1 era: build_config, sampler_type and fail_fast_on_attention_window_too_large still fields), joined"

// base11 are BaseLlmArgs' and TorchLlmArgs' fields in the earlier stored
// llm_args.py (orchestrator_type and ray_worker_extension_cls present, no
// custom_tokenizer yet).
var base11 = []string{
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
	// TorchLlmArgs
	"build_config", "garbage_collection_gen0_threshold", "cuda_graph_config", "attention_dp_config",
	"disable_overlap_scheduler", "moe_config", "attn_backend", "sampler_type", "enable_iter_perf_stats",
	"enable_iter_req_stats", "print_iter_log", "perf_metrics_max_requests", "batch_wait_timeout_ms",
	"batch_wait_timeout_iters", "batch_wait_max_tokens_ratio", "torch_compile_config", "enable_autotuner",
	"enable_layerwise_nvtx_marker", "enable_min_latency", "stream_interval", "force_dynamic_quantization",
	"allreduce_strategy", "checkpoint_loader", "checkpoint_format", "kv_connector_config", "mm_encoder_only",
	"ray_worker_extension_cls",
}

// main0004396 are the fields added by main@0004396 (the rest of its list is in
// base11), plus sampler_type, removed but still accepted on input
// (_TORCH_LLMARGS_REMOVED_ARG_CHECKS drops it before validation).
var main0004396 = []string{
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

var known = func() map[string]bool {
	m := map[string]bool{}
	for _, f := range base11 {
		m[f] = true
	}
	for _, f := range main0004396 {
		m[f] = true
	}
	return m
}()

// Fields lists the keys xcvr accepts at the top level of a worker YAML when no
// install is read, sorted.
func Fields() []string {
	out := make([]string, 0, len(known))
	for f := range known {
		out = append(out, f)
	}
	slices.Sort(out)
	return out
}

// Known reports whether key is a top-level key TensorRT-LLM accepts: one of
// fields (an install's own list, when not nil) or else of xcvr's list.
func Known(key string, fields []string) bool {
	if fields != nil {
		return slices.Contains(fields, key)
	}
	return known[key]
}

// Errors are pydantic's extra_forbidden errors for keys that are not fields, in
// input order (pydantic reports extra inputs after every declared field).
func Errors(keys []resolver.VersionedKey, fields []string) []resolver.FieldError {
	var out []resolver.FieldError
	for _, k := range keys {
		if Known(k.Key, fields) {
			continue
		}
		out = append(out, resolver.FieldError{Root: k.Key, Type: "extra_forbidden", Message: "Extra inputs are not permitted",
			Input: k.Input, InputType: k.InputType, Origin: k.Origin, TopKey: true})
	}
	return out
}

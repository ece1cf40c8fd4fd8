package resolver

// detailFor is the longer explanation of a step, shown when a step is expanded.
func detailFor(id string) string {
	switch id {
	case StepVersion:
		return "Each rule below depends on which upstream changes the build contains. A release behaves like main on the day it was cut."
	case StepValidate:
		return "trtllm-serve builds TorchLlmArgs from the YAML; pydantic rejects unknown keys, values outside the Literal[...] (case-sensitive: 'Auto', 'nixl' fail), and a kv_transfer_timeout_ms that is not > 0. 'auto' is only a valid value from #16164 on; enable_pipelined_transfer only from #15727."
	case StepDisagg:
		return "cache_transceiver_config.backend decides whether this worker is disaggregated. Omitted or null means off: TensorRT-LLM logs 'cache_transceiver is disabled' and builds no transceiver."
	case StepRuntime:
		return "The value the field holds before any resolution: what the user wrote, or the version's default (None before #16164, 'auto' from #16164, 'PYTHON' from #17495 in 1.4)."
	case StepBackend:
		return "CacheTransceiverConfig._resolve_default_backend(): an explicit backend ignores every TRTLLM_USE_*_KVCACHE variable. DEFAULT takes the first of NIXL > UCX > MOONCAKE > MPI whose variable is exactly the string '1' ('true', '01', ' 1' and '' do not count), else NIXL. At config load this is only a peek; the config keeps DEFAULT until creation."
	case StepLoader:
		return "'auto' is resolved in ModelLoader.load_config_and_apply_defaults, on the standard PyTorch loading path only. AutoDeploy skips it; without a checkpoint loader it runs with no model class."
	case StepModel:
		return "config.json's architectures[0] is looked up in MODEL_CLASS_MAPPING. The preference comes from the class registered for that first architecture, even when the loader swaps in a draft or MTP class. An unregistered or missing architecture is an 'unknown model' with no preference."
	case StepPreference:
		return "The classmethod get_preferred_transceiver_runtime(pretrained_config) returns 'PYTHON', 'CPP' or None. It is only called while the field is 'auto'; anything else it returns is a ValueError."
	case StepAuto:
		return "_resolve_transceiver_runtime_auto(). Era 1: a PYTHON preference is used only when the effective backend is NIXL; otherwise, and with no preference, the result is None (C++). Era 2 on: a preference is adopted as is; with none, PYTHON, falling back to None only for a non-NIXL backend or a null timeout."
	case StepModelRequirement:
		return "After config load the model is built (AutoModelForCausalLM.from_config): an architecture MODEL_CLASS_MAPPING does not hold raises 'ValueError: Unknown architecture for AutoModelForCausalLM: <name>', a config.json without architectures 'architectures field is required …', so a model that resolved 'for unknown model' does not start (AutoDeploy builds its own way). Then, while choosing the KV-cache manager (get_kv_cache_manager_cls), Kimi K3 (KimiLinear) in disaggregated mode must route to the Python transceiver on NIXL: only it can move the KDA recurrent state. An unresolved 'auto' counts as None here."
	case StepLeftoverAuto:
		return "At creation, an 'auto' that nobody resolved (AutoDeploy and other paths that skip the model loader) becomes None, the C++ transceiver."
	case StepPipelined:
		return "From #15727: with enable_pipelined_transfer, a None runtime switches to PYTHON on NIXL (with a warning) and is an error on any other backend; an explicit 'CPP' with pipelining is an error."
	case StepPythonNIXL:
		return "The Python transceiver only runs on NIXL. Before #16164 the message says 'NIXL or DEFAULT backend'; from #16164 'the NIXL backend'; the early check in resolve_cache_transceiver_config says 'NIXL backend'."
	case StepInflightCancel:
		return "Only when TRTLLM_DISAGG_ENABLE_INFLIGHT_CANCEL is exactly '1'. It runs before DEFAULT is resolved, so it needs backend literally 'NIXL', runtime 'CPP' (None counts as CPP), TRTLLM_NIXL_KVCACHE_BACKEND unset or 'UCX', a finite timeout, and none of the overlap, layer-wise or zero-copy variables set to '1'."
	case StepBackendLogs:
		return "DEFAULT is replaced by the concrete backend; if a TRTLLM_USE_*_KVCACHE variable decided it, a WARNING recommends setting the backend in YAML. MPI logs a deprecation WARNING, UCX an INFO hint about UCX settings."
	case StepKVManager:
		return "kv_cache_config.use_kv_cache_manager_v2: True or False is kept as written. 'auto' (the default from #15823) took the model's get_model_defaults() value before #16060, else False, logging 'Resolved use_kv_cache_manager_v2='auto' to False for <class>'. From #16060 it takes get_preferred_kv_cache_manager_version(); in disaggregated serving a V2 preference falls back to V1, with an INFO line, unless the resolved runtime is 'PYTHON' on an effective NIXL backend. Two-model speculative decoding also demotes it. 1.4 defaults to V2 (#17495)."
	case StepCacheManager:
		return "get_kv_cache_manager_cls(): plain models get KVCacheManagerV2 when use_kv_cache_manager_v2 is True, else the C++ KVCacheManager. Hybrid Mamba models pick CppMambaHybridCacheManager (block reuse, or a C++ runtime), MixedMambaHybridCacheManager (reuse off with 'PYTHON') or MambaHybridCacheManagerV2; from #18134 V2 in disaggregated serving requires 'PYTHON' on NIXL and V1 with block reuse under 'PYTHON' requires V2; from 1.4 (_util.py@0004396) the route decides first: TLLM_MAMBA_MANAGER_PREFERENCE=MIXED or CPP is refused with V2, V1 takes the Mixed manager only for 'PYTHON' on NIXL, and TRTLLM_USE_PY_MAMBA is ignored. Before that TRTLLM_USE_PY_MAMBA=1 forces the Mixed manager (refused with block reuse) and, before #18134, TLLM_MAMBA_MANAGER_PREFERENCE=MIXED or CPP overrides the default, with a WARNING."
	case StepFabricMemory:
		return "KvCacheCreator.__init__ (#16832): with transceiver_runtime 'PYTHON' and the C++ V1 pool, and TRTLLM_KVCACHE_POOL_USE_FABRIC_MEMORY unset, TensorRT-LLM sets it to 1 in its own environment before allocating the pool and logs an INFO line. It changes the worker's environment; an explicit value is respected."
	case StepPipelinedStatic:
		return "enable_pipelined_transfer needs Python NIXL, generation-first scheduling, chunked prefill, pipeline_parallel_size=1, context_parallel_size=1 on both peers, beam_width=1, no bounce buffer or Mamba/hybrid cache, and block reuse disabled or all_reusable (docs 1.3.0rc27: \"Invalid static settings fail at startup; per-request constraints reject the request\"). create_kv_cache_transceiver refuses chunked prefill off and pp>1 (allowed when TRTLLM_DISAGG_ROLE=generation); from #15780 KvCacheTransceiverV2 refuses, in one ValueError, the Python bounce buffer, a Mamba/hybrid manager, context parallelism and a V2 block-reuse policy other than all_reusable. Beam width is checked per context request."
	case StepMambaGuards:
		return "create_kv_cache_transceiver checks the Mamba manager against the runtime: MixedMambaHybridCacheManager and MambaHybridCacheManagerV2 need 'PYTHON'; 'PYTHON' cannot drive CppMambaHybridCacheManager. The C++ transceiver takes only the V1 manager: KVCacheManagerV2 with 'CPP' or None fails when BindKvCacheTransceiver is built."
	case StepTransceiver:
		return "PYTHON builds KvCacheTransceiverV2 (logging 'Using KvCacheTransceiverV2'), which needs a finite kv_transfer_timeout_ms. None or 'CPP' builds the C++ BindKvCacheTransceiver, deprecated as of 1.4."
	}
	return ""
}

package resolver

import (
	"strings"
	"testing"
)

// kvc is one KV-cache manager / fabric / pipelined / Mamba case.
type kvc struct {
	name    string
	version string
	backend string
	runtime string // "" unset, "null", or a literal
	kv      KVSetting
	model   ModelInfo
	loader  Loader
	env     map[string]string
	pipe    bool
	static  Static
	keys    []VersionedKey

	outcome Outcome
	kvWant  string // "V1", "V2" or "None"
	class   string // cache manager class, "" to skip
	errIs   string // exact error, "" to skip
	errHas  string
	failed  string
	logs    []string // exact, in order; nil to skip
	envSet  string
	reason  map[string]string // step id -> substring of its reason
}

func (c kvc) inputs(t *testing.T) Inputs {
	t.Helper()
	v, err := ParseVersion(c.version)
	if err != nil {
		t.Fatal(err)
	}
	flag := Origin{Kind: OriginFlag, Detail: "--x"}
	in := Inputs{Version: v, Env: Env{}, VersionedKeys: c.keys}
	if c.static != (Static{}) {
		st := c.static
		in.Static = &st
	}
	if c.backend != "" {
		in.Backend = Field[PyStr]{Str(c.backend), flag}
	}
	switch c.runtime {
	case "":
	case "null":
		in.Runtime = Field[PyStr]{PyStr{}, flag}
	default:
		in.Runtime = Field[PyStr]{Str(c.runtime), flag}
	}
	if c.kv != "" {
		in.KVManager = Field[KVSetting]{c.kv, Origin{Kind: OriginFlag, Detail: "--kv-cache-manager"}}
	}
	in.Loader = Field[Loader]{Value: LoaderPyTorch}
	if c.loader != "" {
		in.Loader = Field[Loader]{c.loader, flag}
	}
	in.Model.Value = c.model
	if in.Model.Value.Arch == "" {
		in.Model.Value = ModelInfo{Arch: "MistralForCausalLM", Known: true, Class: "MistralForCausalLM"}
	}
	for k, val := range c.env {
		in.Env[k] = EnvVar{Value: val, Origin: Origin{Kind: OriginEnv}}
	}
	if c.pipe {
		in.Pipelined = Field[bool]{true, flag}
	}
	return in
}

func fileAt(line string) Origin { return Origin{Kind: OriginFile, Detail: "gen.yaml:" + line} }

func TestKVCacheManager(t *testing.T) {
	const (
		demoteUCX  = "KV cache manager V2 is the model preference, but disaggregated serving uses transceiver_runtime='PYTHON' with backend='UCX'; falling back to V1."
		demoteCPP  = "KV cache manager V2 is the model preference, but disaggregated serving uses transceiver_runtime='CPP' with backend='NIXL'; falling back to V1."
		pyNIXLErr  = "ValueError: Python transceiver currently only supports NIXL backend, got UCX. Please use transceiver_runtime='CPP' for MPI, UCX, or MOONCAKE backends."
		chunkedErr = "ValueError: enable_chunked_prefill is required when enable_pipelined_transfer is set."
		ppErr      = "ValueError: pipeline_parallel_size=1 is required when enable_pipelined_transfer is set."
		era2       = "main@2026-09-10"
	)
	gptV2 := ModelInfo{Arch: "GptOssForCausalLM", Known: true, Class: "GptOssForCausalLM", Preference: Str("PYTHON"),
		KVPreference: Str("V2"), KVPreferenceConfidence: Verified}
	gptDefaults := ModelInfo{Arch: "GptOssForCausalLM", Known: true, Class: "GptOssForCausalLM", Preference: Str("PYTHON"),
		KVPreference: Str("V2"), KVViaDefaults: true, KVPreferenceConfidence: Verified}
	hybrid := ModelInfo{Arch: "NemotronHForCausalLM", Known: true, Class: "NemotronHForCausalLM", Preference: Str("PYTHON"),
		KVPreference: Str("V2"), Cache: CacheMambaHybrid, KVPreferenceConfidence: Verified}
	reuseOff := Static{BlockReuse: Field[bool]{false, fileAt("7")}}
	cases := []kvc{
		// _resolve_kv_cache_manager_v2_auto (llm_utils.py@0066b2a5).
		{name: "V2 preference demoted on UCX, then PYTHON fails", version: era2, backend: "UCX", model: gptV2,
			outcome: OutcomeError, kvWant: "V1", class: "KVCacheManager", errIs: pyNIXLErr, failed: StepPythonNIXL,
			logs: []string{resolvedPy, demoteUCX, kvAutoGpt, fabricInfo}, envSet: "TRTLLM_KVCACHE_POOL_USE_FABRIC_MEMORY=1"},
		{name: "V2 preference kept on PYTHON NIXL, no fabric line", version: era2, backend: "NIXL", model: gptV2,
			outcome: OutcomePython, kvWant: "V2", class: "KVCacheManagerV2", logs: []string{resolvedPy, kvAutoGptV2, usingV2}},
		{name: "explicit CPP demotes with 'CPP'", version: era2, backend: "NIXL", runtime: "CPP", model: gptV2,
			outcome: OutcomeCPP, kvWant: "V1", logs: []string{demoteCPP, kvAutoGpt}},
		{name: "DEFAULT + UCX env: the demotion names the effective backend", version: era2, backend: "DEFAULT", runtime: "PYTHON", model: gptV2,
			env: map[string]string{EnvUseUCX: "1"}, outcome: OutcomeError, kvWant: "V1", logs: []string{demoteUCX, kvAutoGpt, fabricInfo}},
		{name: "explicit v2 is kept, and the C++ transceiver cannot take it", version: era2, backend: "UCX", runtime: "CPP", kv: KVV2, model: gptV2,
			outcome: OutcomeError, kvWant: "V2", class: "KVCacheManagerV2", logs: []string{ucxInfo}, failed: StepMambaGuards,
			errHas: "the C++ transceiver only supports the V1 manager"},
		{name: "no checkpoint loader: auto stays unresolved, V1", version: era2, backend: "NIXL", model: gptV2, loader: LoaderNone,
			outcome: OutcomePython, kvWant: "V1", logs: []string{"Resolved transceiver_runtime='auto' to 'PYTHON' for unknown model.", fabricInfo, usingV2}},
		{name: "model defaults V2 from #16060: the line, no demotion (then C++ cannot take it)", version: era2, backend: "UCX", runtime: "CPP", model: gptDefaults,
			outcome: OutcomeError, kvWant: "V2", logs: []string{kvAutoGptV2, ucxInfo}, failed: StepMambaGuards},
		{name: "before #16060 an omitted setting is merged from the model defaults: no line", version: "1.3.0rc22", backend: "NIXL", model: gptDefaults,
			outcome: OutcomePython, kvWant: "V2", logs: []string{resolvedPy, usingV2}},
		{name: "before #16060 an explicit 'auto' survives the merge: resolved True, with the line", version: "1.3.0rc22", backend: "NIXL", kv: KVAuto, model: gptDefaults,
			outcome: OutcomePython, kvWant: "V2", logs: []string{kvAutoGptV2, resolvedPy, usingV2}},
		{name: "era 1 defaults form: no default logs False", version: "1.3.0rc22", backend: "NIXL",
			outcome: OutcomeCPP, kvWant: "V1", logs: []string{kvAutoMis, "Resolved transceiver_runtime='auto' to None for MistralForCausalLM."}},
		{name: "after #16060 a V2 model default logs its line", version: "1.3.0rc25", backend: "NIXL", model: gptDefaults,
			outcome: OutcomePython, kvWant: "V2", logs: []string{resolvedPy, kvAutoGptV2, usingV2}},
		// KvCacheConfig(**d) in update_llm_args_with_extra_dict raises it
		// (era 0's llm_args.py and main@0004396 both list kv_cache_config in
		// field_mapping), before TorchLlmArgs: its own title, the bare key.
		{name: "'auto' before #15823 is a bool_parsing error", version: "1.3.0rc20", backend: "NIXL", kv: KVAuto,
			outcome: OutcomeError, failed: StepValidate,
			errIs: "pydantic_core._pydantic_core.ValidationError: 1 validation error for KvCacheConfig\nuse_kv_cache_manager_v2\n  Input should be a valid boolean, unable to interpret input [type=bool_parsing, input_value='auto', input_type=str]"},
		{name: "era 3 omitted on UCX+CPP: V1, no line assumed", version: "1.4.0rc4", backend: "UCX", runtime: "CPP", model: gptV2,
			outcome: OutcomeCPP, kvWant: "V1", logs: []string{ucxInfo}},
		{name: "era 3 explicit auto follows era 2 with its line", version: "1.4.0rc4", backend: "NIXL", runtime: "CPP", kv: KVAuto, model: gptV2,
			outcome: OutcomeCPP, kvWant: "V1", logs: []string{demoteCPP, kvAutoGpt}},
		{name: "two-model draft demotes a V2 preference", version: era2, backend: "NIXL", model: gptV2,
			static: Static{TwoModelDraft: Field[bool]{true, fileAt("9")}}, outcome: OutcomePython, kvWant: "V1",
			reason: map[string]string{StepKVManager: "two-model speculative decoding (gen.yaml:9)"}},
		{name: "two-model draft refuses an explicit True", version: era2, backend: "NIXL", kv: KVV2, model: gptV2,
			static: Static{TwoModelDraft: Field[bool]{true, fileAt("9")}}, outcome: OutcomeError, failed: StepKVManager,
			errHas: "TensorRT-LLM's message was not found"},
		{name: "disaggregation off: 'auto' still resolves at config load, its line before the disabled one", version: era2, model: gptV2, outcome: OutcomeDisabled, kvWant: "None",
			logs: []string{kvAutoGptV2, "cache_transceiver is disabled"}, reason: map[string]string{StepKVManager: "disaggregation is off, but ModelLoader still resolves the setting"}},
		{name: "disaggregation off on AutoDeploy: 'auto' is not resolved, V1, no line", version: era2, model: gptV2, loader: LoaderAutoDeploy, outcome: OutcomeDisabled, kvWant: "None",
			logs: []string{"cache_transceiver is disabled"}, reason: map[string]string{StepKVManager: "'auto' is not resolved on this loader"}},

		// get_kv_cache_manager_cls for hybrid Mamba models.
		// _util.py@0004396: the verbatim texts the unit tests match by fragment.
		{name: "hybrid explicit V2 off PYTHON-on-NIXL is refused", version: era2, backend: "NIXL", runtime: "CPP", kv: KVV2, model: hybrid,
			outcome: OutcomeError, failed: StepCacheManager,
			errIs: "ValueError: KV cache manager V2 for hybrid Mamba disaggregated serving requires transceiver_runtime='PYTHON' with backend='NIXL'."},
		{name: "hybrid explicit V2 with PYTHON on UCX is refused the same way", version: era2, backend: "UCX", runtime: "PYTHON", kv: KVV2, model: hybrid,
			outcome: OutcomeError, failed: StepCacheManager, errHas: "requires transceiver_runtime='PYTHON' with backend='NIXL'."},
		// From 1.4 the _util.py@0004396 routing (it has the 1.4-era QSA models).
		{name: "1.4: hybrid V2 with TLLM_MAMBA_MANAGER_PREFERENCE=mixed conflicts", version: "1.4.0rc4", backend: "NIXL", kv: KVV2, model: hybrid,
			env:     map[string]string{"TLLM_MAMBA_MANAGER_PREFERENCE": "mixed"},
			outcome: OutcomeError, failed: StepCacheManager,
			errIs: "ValueError: TLLM_MAMBA_MANAGER_PREFERENCE=MIXED conflicts with explicit use_kv_cache_manager_v2=True."},
		{name: "1.4: hybrid V2 with an unknown TLLM_MAMBA_MANAGER_PREFERENCE warns, upper-cased", version: "1.4.0rc4", backend: "NIXL", runtime: "PYTHON", kv: KVV2, model: hybrid,
			env:     map[string]string{"TLLM_MAMBA_MANAGER_PREFERENCE": "v2"},
			outcome: OutcomePython, class: "MambaHybridCacheManagerV2",
			logs: []string{"Unrecognized value for TLLM_MAMBA_MANAGER_PREFERENCE: V2. Expected 'CPP' or 'MIXED'. Using the configured KV cache manager default.", usingV2}},
		{name: "1.4: hybrid V1 without reuse, PYTHON on UCX: the C++ pool, then PYTHON needs NIXL", version: "1.4.0rc4", backend: "UCX", runtime: "PYTHON", kv: KVV1, model: hybrid, static: reuseOff,
			outcome: OutcomeError, failed: StepPythonNIXL, class: "CppMambaHybridCacheManager", logs: []string{fabricInfo}},
		{name: "hybrid V2 preference on PYTHON NIXL", version: era2, backend: "NIXL", model: hybrid,
			outcome: OutcomePython, kvWant: "V2", class: "MambaHybridCacheManagerV2",
			logs: []string{"Resolved transceiver_runtime='auto' to 'PYTHON' for NemotronHForCausalLM.", "Resolved use_kv_cache_manager_v2='auto' to True for NemotronHForCausalLM", usingV2}},
		{name: "hybrid V1 with reuse and PYTHON is refused", version: era2, backend: "NIXL", kv: KVV1, model: hybrid,
			outcome: OutcomeError, failed: StepCacheManager,
			errIs: "ValueError: Hybrid Mamba disaggregated serving with block reuse and transceiver_runtime='PYTHON' requires use_kv_cache_manager_v2=True."},
		{name: "hybrid V1 without reuse and PYTHON: Mixed, fabric memory", version: era2, backend: "NIXL", kv: KVV1, model: hybrid, static: reuseOff,
			outcome: OutcomePython, kvWant: "V1", class: "MixedMambaHybridCacheManager", envSet: "TRTLLM_KVCACHE_POOL_USE_FABRIC_MEMORY=1"},
		{name: "1.4: hybrid V1 without reuse and PYTHON on NIXL: Mixed, logged", version: "1.4.0rc4", backend: "NIXL", kv: KVV1, model: hybrid, static: reuseOff,
			outcome: OutcomePython, kvWant: "V1", class: "MixedMambaHybridCacheManager", envSet: "TRTLLM_KVCACHE_POOL_USE_FABRIC_MEMORY=1",
			logs: []string{"Python transceiver detected; using MixedMambaHybridCacheManager for hybrid model", fabricInfo, usingV2}},
		{name: "hybrid V1 with CPP: Cpp manager, C++ transceiver", version: era2, backend: "NIXL", runtime: "CPP", model: hybrid,
			outcome: OutcomeCPP, kvWant: "V1", class: "CppMambaHybridCacheManager"},
		{name: "era 1: PYTHON cannot drive the C++ Mamba manager (era-1 text)", version: "main@2026-08-20", backend: "NIXL", model: hybrid,
			outcome: OutcomeError, failed: StepMambaGuards, class: "CppMambaHybridCacheManager",
			errIs: "ValueError: transceiver_runtime='PYTHON' cannot drive CppMambaHybridCacheManager (C++ pool backed). Use transceiver_runtime='CPP', or select the V2 manager (TLLM_MAMBA_MANAGER_PREFERENCE=V2)."},
		{name: "era 2: pipelining switches None to PYTHON over a C++ Mamba manager: refused before the transceiver's blockers", version: era2, backend: "NIXL", runtime: "null", kv: KVV1, model: hybrid,
			pipe: true, static: Static{ChunkedPrefill: Field[bool]{true, fileAt("3")}},
			outcome: OutcomeError, failed: StepMambaGuards, class: "CppMambaHybridCacheManager",
			errIs:  "ValueError: transceiver_runtime='PYTHON' cannot drive CppMambaHybridCacheManager (C++ pool backed). Use transceiver_runtime='CPP', or select the V2 manager with use_kv_cache_manager_v2=True.",
			reason: map[string]string{StepPipelinedStatic: "the transceiver's own blockers are not reached"}},

		{name: "era 1: Kimi K3 with block reuse written on: PYTHON cannot drive the C++ pool", version: "main@2026-08-20", backend: "NIXL",
			model:   ModelInfo{Arch: "KimiLinearForCausalLM", Known: true, Class: "KimiLinearForCausalLM", Preference: Str("PYTHON"), RequiresPython: true, Cache: CacheKimiLinear},
			static:  Static{BlockReuse: Field[bool]{true, fileAt("4")}},
			outcome: OutcomeError, failed: StepMambaGuards, class: "CppMambaHybridCacheManager",
			errIs: "ValueError: transceiver_runtime='PYTHON' cannot drive CppMambaHybridCacheManager (C++ pool backed). Use transceiver_runtime='CPP', or select the V2 manager (TLLM_MAMBA_MANAGER_PREFERENCE=V2)."},
		{name: "era 2: Kimi K3 with block reuse written on: PYTHON cannot drive the C++ pool", version: era2, backend: "NIXL",
			model:   ModelInfo{Arch: "KimiLinearForCausalLM", Known: true, Class: "KimiLinearForCausalLM", Preference: Str("PYTHON"), RequiresPython: true, Cache: CacheKimiLinear},
			static:  Static{BlockReuse: Field[bool]{true, fileAt("4")}},
			outcome: OutcomeError, failed: StepMambaGuards, class: "CppMambaHybridCacheManager",
			errIs: "ValueError: transceiver_runtime='PYTHON' cannot drive CppMambaHybridCacheManager (C++ pool backed). Use transceiver_runtime='CPP', or select the V2 manager with use_kv_cache_manager_v2=True."},
		{name: "1.4: Kimi K3 with block reuse written on: the shared hybrid route refuses V1 reuse", version: "1.4.0rc4", backend: "NIXL", kv: KVV1,
			model:   ModelInfo{Arch: "KimiLinearForCausalLM", Known: true, Class: "KimiLinearForCausalLM", Preference: Str("PYTHON"), RequiresPython: true, Cache: CacheKimiLinear},
			static:  Static{BlockReuse: Field[bool]{true, fileAt("4")}},
			outcome: OutcomeError, failed: StepCacheManager,
			errIs: "ValueError: Hybrid Mamba disaggregated serving with block reuse and transceiver_runtime='PYTHON' requires use_kv_cache_manager_v2=True."},
		{name: "Kimi K3 by default: Mixed pools, PYTHON", version: era2, backend: "NIXL",
			model:   ModelInfo{Arch: "KimiLinearForCausalLM", Known: true, Class: "KimiLinearForCausalLM", Preference: Str("PYTHON"), RequiresPython: true, Cache: CacheKimiLinear},
			outcome: OutcomePython, kvWant: "V1", class: "MixedMambaHybridCacheManager"},

		{name: "era 1: PYTHON with reuse off takes the Mixed manager, logged", version: "main@2026-08-20", backend: "NIXL", runtime: "PYTHON", model: hybrid, static: reuseOff,
			outcome: OutcomePython, class: "MixedMambaHybridCacheManager",
			logs: []string{"Resolved use_kv_cache_manager_v2='auto' to True for NemotronHForCausalLM", "Python transceiver detected; using MixedMambaHybridCacheManager for hybrid mamba model", fabricInfo, usingV2}},
		{name: "era 1: TLLM_MAMBA_MANAGER_PREFERENCE=MIXED under CPP fails at creation", version: "main@2026-08-20", backend: "NIXL", runtime: "CPP", model: hybrid, static: reuseOff,
			env:     map[string]string{"TLLM_MAMBA_MANAGER_PREFERENCE": "mixed"},
			outcome: OutcomeError, failed: StepMambaGuards, class: "MixedMambaHybridCacheManager",
			errIs: "ValueError: MixedMambaHybridCacheManager requires the Python transceiver runtime with the NIXL backend in disaggregated serving."},
		{name: "era 2: TRTLLM_USE_PY_MAMBA=1 with block reuse is refused", version: era2, backend: "NIXL", model: hybrid,
			env:     map[string]string{"TRTLLM_USE_PY_MAMBA": "1"},
			outcome: OutcomeError, failed: StepCacheManager,
			errIs: "ValueError: TRTLLM_USE_PY_MAMBA=1 forces MixedMambaHybridCacheManager, which does not support block reuse. Disable block reuse or unset TRTLLM_USE_PY_MAMBA to use CppMambaHybridCacheManager."},
		{name: "1.4: TRTLLM_USE_PY_MAMBA=1 is ignored in disaggregated serving", version: "1.4.0rc4", backend: "NIXL", model: hybrid,
			env:     map[string]string{"TRTLLM_USE_PY_MAMBA": "1"},
			outcome: OutcomePython, class: "MambaHybridCacheManagerV2",
			reason: map[string]string{StepCacheManager: "TRTLLM_USE_PY_MAMBA=1 is ignored in disaggregated serving"}},
		{name: "era 1: TRTLLM_USE_PY_MAMBA=1 with block reuse is refused", version: "main@2026-08-20", backend: "NIXL", model: hybrid,
			env:     map[string]string{"TRTLLM_USE_PY_MAMBA": "1"},
			outcome: OutcomeError, failed: StepCacheManager,
			errIs: "ValueError: TRTLLM_USE_PY_MAMBA=1 forces MixedMambaHybridCacheManager, which does not support block reuse. Disable block reuse or unset TRTLLM_USE_PY_MAMBA to use CppMambaHybridCacheManager."},

		// maybe_enable_fabric_memory_for_python_transceiver (#16832).
		{name: "fabric memory respects an explicit value", version: era2, backend: "NIXL",
			env:     map[string]string{"TRTLLM_KVCACHE_POOL_USE_FABRIC_MEMORY": "0"},
			outcome: OutcomePython, logs: []string{"Resolved transceiver_runtime='auto' to 'PYTHON' for MistralForCausalLM.", kvAutoMis, usingV2},
			reason: map[string]string{StepFabricMemory: "TRTLLM_KVCACHE_POOL_USE_FABRIC_MEMORY='0' is set"}},
		{name: "fabric memory not before #16832", version: "main@2026-07-22", backend: "NIXL", runtime: "PYTHON",
			outcome: OutcomePython, logs: []string{kvAutoMis, usingV2}},

		// enable_pipelined_transfer's static requirements.
		{name: "pipelined without chunked prefill", version: era2, backend: "NIXL", pipe: true,
			static:  Static{ChunkedPrefill: Field[bool]{false, fileAt("3")}},
			outcome: OutcomeError, failed: StepPipelinedStatic, errIs: chunkedErr},
		{name: "pipelined with pp=2", version: era2, backend: "NIXL", pipe: true,
			static:  Static{ChunkedPrefill: Field[bool]{true, fileAt("3")}, PP: Field[int64]{2, fileAt("4")}},
			outcome: OutcomeError, failed: StepPipelinedStatic, errIs: ppErr},
		{name: "pipelined pp=2 allowed on a generation server", version: era2, backend: "NIXL", pipe: true,
			env:     map[string]string{"TRTLLM_DISAGG_ROLE": "generation"},
			static:  Static{ChunkedPrefill: Field[bool]{true, fileAt("3")}, PP: Field[int64]{2, fileAt("4")}},
			outcome: OutcomePython},
		// KvCacheTransceiverV2._resolve_pipelined_transfer (transceiver.py, after #15780).
		{name: "pipelined cp=2 before #15780: not a start-up check", version: era2, backend: "NIXL", pipe: true,
			static:  Static{ChunkedPrefill: Field[bool]{true, fileAt("3")}, CP: Field[int64]{2, fileAt("5")}},
			outcome: OutcomePython, reason: map[string]string{StepPipelinedStatic: "context_parallel_size=2 (gen.yaml:5): before #15780 the check read was per request"}},
		{name: "pipelined cp=2 from #15780 is a blocker", version: "1.4.0rc1", backend: "NIXL", pipe: true,
			static:  Static{ChunkedPrefill: Field[bool]{true, fileAt("3")}, CP: Field[int64]{2, fileAt("5")}},
			outcome: OutcomeError, failed: StepPipelinedStatic,
			errIs: "ValueError: enable_pipelined_transfer is not supported with context parallelism (cp_size=2)"},
		{name: "pipelined blockers are joined in upstream's order", version: "1.4.0rc1", backend: "NIXL", pipe: true, model: hybrid,
			static: Static{ChunkedPrefill: Field[bool]{true, fileAt("3")}, CP: Field[int64]{2, fileAt("5")}, BounceMB: Field[int64]{8, fileAt("6")},
				BlockReuse: Field[bool]{false, fileAt("7")}},
			outcome: OutcomeError, failed: StepPipelinedStatic, class: "MambaHybridCacheManagerV2",
			errIs: "ValueError: enable_pipelined_transfer is not supported with the Python bounce buffer (kv_cache_bounce_size_mb=8 without agent_bounce_buffer_enable); a Mamba/hybrid cache manager; context parallelism (cp_size=2)"},
		{name: "pipelined with the agent bounce buffer is allowed", version: "1.4.0rc1", backend: "NIXL", pipe: true,
			static:  Static{ChunkedPrefill: Field[bool]{true, fileAt("3")}, BounceMB: Field[int64]{8, fileAt("6")}},
			keys:    []VersionedKey{{Key: "agent_bounce_buffer_enable", Input: "True", InputType: "bool", Origin: fileAt("8")}},
			outcome: OutcomePython, reason: map[string]string{StepPipelinedStatic: "the C++ agent bounce is allowed"}},
		{name: "pipelined with a bounce buffer in 1.4.0rc4: the C++ agent bounce, inferred not a blocker", version: "1.4.0rc4", backend: "NIXL", pipe: true,
			static:  Static{ChunkedPrefill: Field[bool]{true, fileAt("3")}, BounceMB: Field[int64]{8, fileAt("6")}},
			outcome: OutcomePython, reason: map[string]string{StepPipelinedStatic: "is the C++ transfer-agent bounce here (docs 1.4.0rc4)"}},
		{name: "pipelined with a bounce buffer before #15780: the test's fragment", version: era2, backend: "NIXL", pipe: true,
			static:  Static{ChunkedPrefill: Field[bool]{true, fileAt("3")}, BounceMB: Field[int64]{1, fileAt("6")}},
			outcome: OutcomeError, failed: StepPipelinedStatic,
			errIs: "ValueError: enable_pipelined_transfer is not supported with kv_cache_bounce_size_mb=1"},
		{name: "pipelined over the Mixed Mamba manager", version: era2, backend: "NIXL", pipe: true, kv: KVV1, model: hybrid,
			static:  Static{ChunkedPrefill: Field[bool]{true, fileAt("3")}, BlockReuse: Field[bool]{false, fileAt("7")}},
			outcome: OutcomeError, failed: StepPipelinedStatic, class: "MixedMambaHybridCacheManager",
			errIs: "ValueError: enable_pipelined_transfer is not supported with a Mamba/hybrid cache manager"},
		{name: "pipelined beam width 4: rejected per request, not at start-up", version: era2, backend: "NIXL", pipe: true,
			static:  Static{ChunkedPrefill: Field[bool]{true, fileAt("3")}, BeamWidth: Field[int64]{4, fileAt("9")}},
			outcome: OutcomePython, reason: map[string]string{StepPipelinedStatic: "max_beam_width=4 (gen.yaml:9) does not fail start-up"}},
		{name: "pipelined with KVCacheManagerV2 and block reuse depends on the policy", version: era2, backend: "NIXL", pipe: true, kv: KVV2,
			static:  Static{ChunkedPrefill: Field[bool]{true, fileAt("3")}},
			outcome: OutcomePython, class: "KVCacheManagerV2", reason: map[string]string{StepPipelinedStatic: "block_reuse_policy (enable_block_reuse defaults to True with KVCacheManagerV2"}},
		{name: "pipelined, settings not in the file: depends on them", version: era2, backend: "NIXL", pipe: true,
			outcome: OutcomePython,
			reason:  map[string]string{StepPipelinedStatic: "depends on settings the file does not give: enable_chunked_prefill"}},

		// The fields each release accepts.
		// #15780 (agent_bounce_*) merged 2026-09-16 (4bee19ab76, a weekly
		// change report of main): after 1.3.0rc27's cut (09-14), before
		// rc28's (09-21); 1.3.0rc29's llm_args.py declares the fields and
		// validate_bounce_config (gh-pages
		// latest/_modules/tensorrt_llm/llmapi/llm_args.html@cd798f61).
		{name: "agent_bounce_* before #15780 is an extra input", version: "1.3.0rc27", backend: "NIXL",
			keys:    []VersionedKey{{Key: "agent_bounce_buffer_enable", Input: "True", InputType: "bool", Origin: fileAt("6")}},
			outcome: OutcomeError, failed: StepValidate,
			errIs: "pydantic_core._pydantic_core.ValidationError: 1 validation error for TorchLlmArgs\ncache_transceiver_config.agent_bounce_buffer_enable\n  Extra inputs are not permitted [type=extra_forbidden, input_value=True, input_type=bool]"},
		{name: "agent_bounce_* accepted from #15780: 1.3.0rc28", version: "1.3.0rc28", backend: "NIXL",
			keys:    []VersionedKey{{Key: "agent_bounce_buffer_enable", Input: "False", InputType: "bool", Origin: fileAt("6")}},
			outcome: OutcomePython},
		{name: "1.3.0rc29 refuses the agent bounce without a capacity, verbatim", version: "1.3.0rc29", backend: "NIXL",
			static:  Static{AgentBounce: Field[bool]{true, fileAt("6")}, ConfigRepr: "{'backend': 'NIXL', 'agent_bounce_buffer_enable': True}", ConfigOrigin: fileAt("4")},
			keys:    []VersionedKey{{Key: "agent_bounce_buffer_enable", Input: "True", InputType: "bool", Origin: fileAt("6")}},
			outcome: OutcomeError, failed: StepValidate,
			errIs: "pydantic_core._pydantic_core.ValidationError: 1 validation error for TorchLlmArgs\ncache_transceiver_config\n  Value error, agent_bounce_buffer_enable selects the C++ transfer-agent bounce implementation, but kv_cache_bounce_size_mb is 0 (bounce disabled); set a positive capacity. [type=value_error, input_value={'backend': 'NIXL', 'agen...ce_buffer_enable': True}, input_type=dict]"}, // pydantic cuts a repr past 50 characters
		{name: "agent_bounce_* accepted in 1.4.0rc1", version: "1.4.0rc1", backend: "NIXL",
			keys:    []VersionedKey{{Key: "agent_bounce_buffer_enable", Input: "True", InputType: "bool", Origin: fileAt("6")}},
			outcome: OutcomePython},
		{name: "agent_bounce_buffer_enable is a no-op in 1.4.0rc4", version: "1.4.0rc4", backend: "NIXL",
			keys:    []VersionedKey{{Key: "agent_bounce_buffer_enable", Input: "True", InputType: "bool", Origin: fileAt("6")}},
			outcome: OutcomePython, reason: map[string]string{StepValidate: "deprecated no-op here (docs 1.4.0rc4)"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			tr := Resolve(c.inputs(t))
			checkWellFormed(t, tr)
			res := tr.Result
			if res.Outcome != c.outcome {
				t.Fatalf("outcome %s, want %s; error %q", res.Outcome, c.outcome, res.Error)
			}
			if c.kvWant != "" && res.KVManager.String() != c.kvWant {
				t.Errorf("KV manager %s, want %s", res.KVManager, c.kvWant)
			}
			if c.class != "" && res.CacheManagerClass != c.class {
				t.Errorf("manager class %q, want %q", res.CacheManagerClass, c.class)
			}
			if c.errIs != "" && res.Error != c.errIs {
				t.Errorf("error\n%q\nwant\n%q", res.Error, c.errIs)
			}
			if c.errHas != "" && !strings.Contains(res.Error, c.errHas) {
				t.Errorf("error %q lacks %q", res.Error, c.errHas)
			}
			if c.failed != "" && res.FailedStep != c.failed {
				t.Errorf("failed at %q, want %q", res.FailedStep, c.failed)
			}
			if c.envSet != "" && res.EnvSet != c.envSet {
				t.Errorf("env set %q, want %q", res.EnvSet, c.envSet)
			}
			if c.logs != nil {
				var got []string
				for _, l := range tr.Logs {
					got = append(got, l.Message)
				}
				if strings.Join(got, "\n") != strings.Join(c.logs, "\n") {
					t.Errorf("logs:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(c.logs, "\n"))
				}
			}
			for id, want := range c.reason {
				s, _ := tr.Step(id)
				if !strings.Contains(s.Reason, want) {
					t.Errorf("step %s reason %q lacks %q", id, s.Reason, want)
				}
			}
			if res.Outcome == OutcomeError && res.Hint == "" {
				t.Errorf("no hint for %s", res.FailedStep)
			}
		})
	}
}

// The KV-manager step runs before the transceiver's 'auto' while the model
// defaults decide (#15823) and after it from #16060, which needs the final
// runtime.
func TestKVManagerStepOrder(t *testing.T) {
	for _, c := range []struct {
		version string
		before  bool
	}{{"1.3.0rc22", true}, {"main@2026-08-20", false}, {"main@2026-09-10", false}} {
		tr := Resolve(kvc{version: c.version, backend: "NIXL"}.inputs(t))
		kv, auto := -1, -1
		for i, s := range tr.Steps {
			switch s.ID {
			case StepKVManager:
				kv = i
			case StepAuto:
				auto = i
			}
		}
		if (kv < auto) != c.before {
			t.Errorf("%s: kv-manager at %d, auto at %d; want kv first %v", c.version, kv, auto, c.before)
		}
	}
}

// The two ModelLoader lines name different classes when the model runs as
// another class than the one registered for architectures[0] (an Eagle3
// draft): the transceiver line the registered one, the KV-cache manager line
// the execution class.
func TestKVLineNamesTheExecutionClass(t *testing.T) {
	in := Inputs{Version: Must(ParseVersion("main@2026-09-10")), Env: Env{},
		Backend: Field[PyStr]{Str("NIXL"), Origin{Kind: OriginFlag}},
		Loader:  Field[Loader]{Value: LoaderPyTorch},
		Model: Field[ModelInfo]{Value: ModelInfo{Arch: "LlamaForCausalLM", Known: true, Class: "LlamaForCausalLM", Preference: Str("PYTHON"),
			ExecClass: "Eagle3ForCausalLM"}, Origin: Origin{Kind: OriginFile, Detail: "config.json:2"}}}
	tr := Resolve(in)
	var got []string
	for _, l := range tr.Logs {
		got = append(got, l.Message)
	}
	want := []string{"Resolved transceiver_runtime='auto' to 'PYTHON' for LlamaForCausalLM.", "Resolved use_kv_cache_manager_v2='auto' to False for Eagle3ForCausalLM"}
	if len(got) < 2 || got[0] != want[0] || got[1] != want[1] {
		t.Errorf("logs %q, want them to start %q", got, want)
	}
}

package resolver_test

import (
	"fmt"
	"strings"

	"xcvr/resolver"
)

// A worker on TensorRT-LLM 1.3.0rc27 (era 2) with a model that declares no
// preference, backend UCX and transceiver_runtime left unset: "auto" falls back to
// the C++ transceiver, and the log says why.
func ExampleResolve() {
	v, err := resolver.ParseVersion("1.3.0rc27")
	if err != nil {
		panic(err)
	}
	in := resolver.Inputs{
		Version: v,
		Model: resolver.Field[resolver.ModelInfo]{Value: resolver.ModelInfo{
			Arch: "Qwen3ForCausalLM", Known: true, Class: "Qwen3ForCausalLM",
		}},
		Backend: resolver.Field[resolver.PyStr]{
			Value:  resolver.Str("UCX"),
			Origin: resolver.Origin{Kind: resolver.OriginFlag, Detail: "--backend"},
		},
		Timeout: resolver.Field[resolver.OptInt]{Value: resolver.Int(resolver.DefaultTimeoutMS)},
		Loader:  resolver.Field[resolver.Loader]{Value: resolver.LoaderPyTorch},
	}
	tr := resolver.Resolve(in)
	fmt.Println(tr.Result.Outcome, tr.Result.Class)
	for _, l := range tr.Logs {
		fmt.Println(l.Level, l.Message)
	}
	// Output:
	// CPP BindKvCacheTransceiver
	// INFO Falling back to the C++ transceiver: backend 'UCX' (the Python transceiver requires NIXL).
	// INFO Resolved transceiver_runtime='auto' to None for Qwen3ForCausalLM.
	// INFO Resolved use_kv_cache_manager_v2='auto' to False for Qwen3ForCausalLM
	// INFO Using UCX kv-cache transceiver. If your devices are not in the same domain, please consider setting UCX_CUDA_IPC_ENABLE_MNNVL=n, UCX_RNDV_SCHEME=put_zcopy and/or unset UCX_NET_DEVICES upon server hangs or lower-than-expected performance.
}

// A release's rules are data: 1.4.0rc1 (era 3) holds the runtime default, the
// DEFAULT backend's selectors and the wording of every message it prints.
func ExampleReleaseRules() {
	v, err := resolver.ParseVersion("1.4.0rc1")
	if err != nil {
		panic(err)
	}
	rs := resolver.ReleaseRules(v)
	fmt.Println("era", rs.Era, "default", rs.RuntimeDefault.Repr(), "DEFAULT without a selector:", rs.DefaultBackend)
	for _, s := range rs.Selectors {
		fmt.Println(s.Env, "->", s.Backend)
	}
	fmt.Println(rs.Has(20260902), rs.Text(resolver.TextResolvedAuto).Template)
	// Output:
	// era 3 default 'PYTHON' DEFAULT without a selector: NIXL
	// TRTLLM_USE_NIXL_KVCACHE -> NIXL
	// TRTLLM_USE_UCX_KVCACHE -> UCX
	// TRTLLM_USE_MOONCAKE_KVCACHE -> MOONCAKE
	// TRTLLM_USE_MPI_KVCACHE -> MPI
	// true Resolved transceiver_runtime='auto' to {!r} for {}.
}

// Two builds compared rule by rule: 1.3.0rc25 (era 1) against 1.3.0rc26 (era
// 2, with enable_pipelined_transfer; cut on 2026-09-04, the day before #17899
// gave the transceiver its new home).
func ExampleCompareRules() {
	a, _ := resolver.ParseVersion("1.3.0rc25")
	b, _ := resolver.ParseVersion("1.3.0rc26")
	for _, d := range resolver.CompareRules(resolver.ReleaseRules(a), resolver.ReleaseRules(b)) {
		if strings.HasPrefix(d.What, "text ") {
			fmt.Println(d.What, "is worded differently")
			continue
		}
		fmt.Printf("%s: %s -> %s\n", d.What, d.A, d.B)
	}
	// Output:
	// era: 1 -> 2
	// enable_pipelined_transfer: absent -> present
	// text mamba-mixed-needs-python is worded differently
	// text mamba-cpp-not-python is worded differently
}

// A worker YAML's kv_cache_config with a misspelt key on 1.2.0rc1: KvCacheConfig
// is a StrictBaseModel, so TensorRT-LLM refuses the whole file at start-up.
func ExampleNestedErrors() {
	v, err := resolver.ParseVersion("1.2.0rc1")
	if err != nil {
		panic(err)
	}
	keys := []resolver.NestedKey{
		{Root: resolver.NestedKVCache, VersionedKey: resolver.VersionedKey{Key: "free_gpu_memory_fraction", Input: "0.8", InputType: "float"}},
		{Root: resolver.NestedKVCache, VersionedKey: resolver.VersionedKey{Key: "free_gpu_memroy_fraction", Input: "0.8", InputType: "float"}},
	}
	for _, e := range resolver.NestedErrors(v, keys) {
		fmt.Println(e.Root+"."+e.Loc, e.Type)
	}
	n, _ := resolver.NestedFieldsFor(v, resolver.NestedKVCache)
	fmt.Println(n.Model, n.Confidence)
	// Output:
	// kv_cache_config.free_gpu_memroy_fraction extra_forbidden
	// KvCacheConfig derived
}

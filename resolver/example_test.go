package resolver_test

import (
	"fmt"

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

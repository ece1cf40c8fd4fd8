package resolver

// Environment variables the resolution reads.
const (
	EnvUseNIXL        = "TRTLLM_USE_NIXL_KVCACHE"
	EnvUseUCX         = "TRTLLM_USE_UCX_KVCACHE"
	EnvUseMooncake    = "TRTLLM_USE_MOONCAKE_KVCACHE"
	EnvUseMPI         = "TRTLLM_USE_MPI_KVCACHE"
	EnvInflightCancel = "TRTLLM_DISAGG_ENABLE_INFLIGHT_CANCEL"
	EnvNIXLBackend    = "TRTLLM_NIXL_KVCACHE_BACKEND"
	EnvNoOverlap      = "TRTLLM_DISABLE_KV_CACHE_TRANSFER_OVERLAP"
	EnvLayerwise      = "TRTLLM_DISAGG_LAYERWISE"
	EnvTryZcopy       = "TRTLLM_TRY_ZCOPY_FOR_KVCACHE_TRANSFER"
)

// EnvSpec describes one environment variable the resolver reads.
type EnvSpec struct {
	Name string
	// Selects is the backend a DEFAULT backend turns into when this is "1"; empty for
	// variables that select nothing.
	Selects string
	Help    string
	// Values are the values worth trying, the one that matters first; nil means
	// the usual '1' / 'true' / '0' / '' (only '1' counts).
	Values []string
}

// EnvVars lists every variable the resolver reads: the four backend selectors in
// priority order, the in-flight-cancel variables, then those the KV-cache
// manager steps read. The explorer's rows, completion and the linear mode's
// choices come from this list; a test parses the resolver's source and fails
// when it reads a variable that is not here.
func EnvVars() []EnvSpec {
	return []EnvSpec{
		{Name: EnvUseNIXL, Selects: "NIXL", Help: "with backend DEFAULT, selects NIXL when exactly '1' (highest priority)"},
		{Name: EnvUseUCX, Selects: "UCX", Help: "with backend DEFAULT, selects UCX when exactly '1'"},
		{Name: EnvUseMooncake, Selects: "MOONCAKE", Help: "with backend DEFAULT, selects MOONCAKE when exactly '1'"},
		{Name: EnvUseMPI, Selects: "MPI", Help: "with backend DEFAULT, selects MPI when exactly '1' (lowest priority)"},
		{Name: EnvInflightCancel, Help: "'1' turns on in-flight cancellation and its configuration checks"},
		{Name: EnvNIXLBackend, Help: "transport inside NIXL (UCX or LIBFABRIC); in-flight cancel needs unset or UCX", Values: []string{"UCX", "LIBFABRIC"}},
		{Name: EnvNoOverlap, Help: "'1' disables transfer overlap; in-flight cancel rejects it"},
		{Name: EnvLayerwise, Help: "'1' turns on layer-wise transfer; in-flight cancel rejects it"},
		{Name: EnvTryZcopy, Help: "'1' tries zero-copy transfer; in-flight cancel rejects it"},
		{Name: envFabric, Help: "the C++ V1 KV pool in fabric memory; unset, the Python transceiver sets '1' itself", Values: []string{"1", "0"}},
		{Name: envPyMamba, Help: "'1' forces the Mixed (Python) Mamba cache manager for hybrid Mamba models"},
		{Name: envMambaPref, Help: "hybrid Mamba cache manager preference: CPP or MIXED (case-insensitive)", Values: []string{"MIXED", "CPP", "mixed", "bogus"}},
		{Name: envDisaggRole, Help: "the worker's role; pipelined transfer with pipeline_parallel_size > 1 needs 'generation'", Values: []string{"generation", "context"}},
	}
}

// BackendSelector is one legacy DEFAULT-backend selector: the variable and the
// backend it picks when it is exactly "1".
type BackendSelector struct{ Env, Backend string }

// backendSelectors is xcvr's priority order NIXL > UCX > MOONCAKE > MPI
// (_CACHE_TRANSCEIVER_BACKEND_ENV_VARS upstream).
func backendSelectors() []BackendSelector {
	return []BackendSelector{
		{EnvUseNIXL, "NIXL"},
		{EnvUseUCX, "UCX"},
		{EnvUseMooncake, "MOONCAKE"},
		{EnvUseMPI, "MPI"},
	}
}

// resolveDefaultBackend mirrors CacheTransceiverConfig._resolve_default_backend():
// an explicit backend is its own answer; DEFAULT takes the first selector whose value
// is exactly "1" (any non-empty value when truthy: #5234's own form), else dflt
// (the rules' DefaultBackend).
func resolveDefaultBackend(backend string, env Env, sels []BackendSelector, dflt string, truthy bool) (eff, envVar string) {
	if backend != "DEFAULT" {
		return backend, ""
	}
	for _, s := range sels {
		if v, ok := env[s.Env]; ok && (v.Value == "1" || truthy && v.Value != "") {
			return s.Backend, s.Env
		}
	}
	return dflt, ""
}

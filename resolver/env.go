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
}

// EnvVars lists every variable the resolver reads: the four backend selectors in
// priority order, then the in-flight-cancel variables.
func EnvVars() []EnvSpec {
	return []EnvSpec{
		{EnvUseNIXL, "NIXL", "with backend DEFAULT, selects NIXL when exactly '1' (highest priority)"},
		{EnvUseUCX, "UCX", "with backend DEFAULT, selects UCX when exactly '1'"},
		{EnvUseMooncake, "MOONCAKE", "with backend DEFAULT, selects MOONCAKE when exactly '1'"},
		{EnvUseMPI, "MPI", "with backend DEFAULT, selects MPI when exactly '1' (lowest priority)"},
		{EnvInflightCancel, "", "'1' turns on in-flight cancellation and its configuration checks"},
		{EnvNIXLBackend, "", "transport inside NIXL (UCX or LIBFABRIC); in-flight cancel needs unset or UCX"},
		{EnvNoOverlap, "", "'1' disables transfer overlap; in-flight cancel rejects it"},
		{EnvLayerwise, "", "'1' turns on layer-wise transfer; in-flight cancel rejects it"},
		{EnvTryZcopy, "", "'1' tries zero-copy transfer; in-flight cancel rejects it"},
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
// is exactly "1", else dflt (the rules' DefaultBackend).
func resolveDefaultBackend(backend string, env Env, sels []BackendSelector, dflt string) (eff, envVar string) {
	if backend != "DEFAULT" {
		return backend, ""
	}
	for _, s := range sels {
		if v, ok := env[s.Env]; ok && v.Value == "1" {
			return s.Backend, s.Env
		}
	}
	return dflt, ""
}

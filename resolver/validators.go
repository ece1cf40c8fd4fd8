package resolver

import (
	"slices"
	"strings"
)

// The validators of CacheTransceiverConfig, which pydantic runs after every
// field has validated: their errors are "Value error, <message>" at
// cache_transceiver_config itself, with the whole input dict as input_value.
//
// Evidence: NVIDIA/TensorRT-LLM tensorrt_llm/llmapi/llm_args.py@0649223e (a
// main after 1.4.0rc4, whose C++ bounce size is a separate agent_buffer_size_mb)
// holds coerce_agent_bounce_params_to_str (field_validator, mode='before') and
// validate_bounce_exclusive (model_validator, mode='after') with the verbatim
// texts below; the unknown-key set is bounce_knobs.py's AGENT_BOUNCE_PARAM_KEYS
// at the same commit. The 1.4.0rc1 and rc4 forms are derived from it with the
// field names those releases' CacheTransceiverConfig pages document: rc1's
// agent_bounce_buffer_enable needs kv_cache_bounce_size_mb > 0 (the message's
// head was not found upstream, only its tail), rc4's agent_bounce_params
// "Requires kv_cache_bounce_size_mb > 0".

// AgentBounceParamKeys is AGENT_BOUNCE_PARAM_KEYS (bounce_knobs.py), sorted.
func AgentBounceParamKeys() []string {
	return []string{"arena_allocation_granularity", "copy_stream_count", "disable_fabric_memory",
		"enable_eager_gather", "max_average_descriptor_size", "max_chunk_size", "max_inflight_chunks_per_request",
		"min_descriptor_count", "request_timeout_ms", "scatter_worker_count", "use_zero_copy_arguments"}
}

// Validator texts, verbatim (f-string fields as {…}).
const (
	// TextBounceParamsType is coerce_agent_bounce_params_to_str's refusal of
	// anything but a dict (and None) [verified, 0649223e].
	TextBounceParamsType = "agent_bounce_params must be a dict of str to str, got {type(v).__name__}"
	// TextBounceUnknownKeys is validate_bounce_exclusive's unknown-key refusal
	// [verified, 0649223e].
	TextBounceUnknownKeys = "Unknown agent_bounce_params key(s) {unknown}; valid keys are {sorted(AGENT_BOUNCE_PARAM_KEYS)}."
	// TextBounceParamsNoSize is the refusal of params with the bounce off:
	// verified with agent_buffer_size_mb at 0649223e, derived for 1.4.0rc4's
	// kv_cache_bounce_size_mb.
	TextBounceParamsNoSize = "agent_bounce_params requires kv_cache_bounce_size_mb > 0; the bounce fast path is disabled at size 0, so the params would be ignored."
	// TextBounceEnableNoSize is 1.4.0rc1's refusal of the flag without a
	// capacity; only its tail is known (issue 19's run of upstream code).
	TextBounceEnableNoSize = "… kv_cache_bounce_size_mb is 0 (bounce disabled); set a positive capacity."
	// TextBounceParamsNoFlag is 1.4.0rc1's refusal of params without the flag;
	// its text was not found.
	TextBounceParamsNoFlag = "… (agent_bounce_params is set while agent_bounce_buffer_enable is False; TensorRT-LLM's message was not found)"
)

// modelledValidatorTexts are the raise texts xcvr checks; an install validator
// raising only these is one xcvr models.
func modelledValidatorTexts() []string {
	return []string{TextBounceParamsType, TextBounceUnknownKeys, TextBounceParamsNoSize}
}

// bounceValidatorError is the model validator's error for the file's
// agent_bounce settings in this version, if any, and how sure xcvr is of it.
func (r *run) bounceValidatorError() (FieldError, Confidence, bool) {
	st := r.t.Inputs.Static
	exclusive := r.rules.hasValidator(ValidatorBounceExclusive)
	if st == nil || !exclusive && !r.rules.hasValidator(ValidatorBounceFlag) {
		return FieldError{}, "", false
	}
	fail := func(msg string, conf Confidence) (FieldError, Confidence, bool) {
		return FieldError{Type: "value_error", Message: "Value error, " + msg, Input: st.ConfigRepr, InputType: "dict",
			Origin: st.ConfigOrigin}, conf, true
	}
	unknown := func() []string {
		var out []string
		for _, k := range r.t.Inputs.BounceParams {
			if !slices.Contains(AgentBounceParamKeys(), k) && !slices.Contains(out, k) {
				out = append(out, k)
			}
		}
		slices.Sort(out)
		return out
	}
	noop := exclusive
	size := st.BounceMB.Value
	if !noop && st.AgentBounce.Value && size == 0 {
		return fail(TextBounceEnableNoSize, Inferred)
	}
	if len(r.t.Inputs.BounceParams) == 0 {
		return FieldError{}, "", false
	}
	switch {
	case noop && size == 0:
		return fail(TextBounceParamsNoSize, Derived)
	case !noop && !st.AgentBounce.Value:
		return fail(TextBounceParamsNoFlag, Inferred)
	}
	if u := unknown(); len(u) > 0 {
		return fail("Unknown agent_bounce_params key(s) "+pyList(u)+"; valid keys are "+pyList(AgentBounceParamKeys())+".", Derived)
	}
	return FieldError{}, "", false
}

// pyList renders a list of strings as Python's repr does.
func pyList(items []string) string {
	var b strings.Builder
	b.WriteByte('[')
	for i, s := range items {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(pyRepr(s))
	}
	b.WriteByte(']')
	return b.String()
}

// bounceValidatorHint is the fix for a model validator's refusal.
func bounceValidatorHint(msg string) string {
	switch {
	case strings.Contains(msg, "Unknown agent_bounce_params key"):
		return "use only the agent_bounce_params keys of bounce_knobs.py (" + strings.Join(AgentBounceParamKeys(), ", ") + ")"
	case strings.Contains(msg, "agent_bounce_buffer_enable is False"):
		return "set agent_bounce_buffer_enable: true with a positive kv_cache_bounce_size_mb, or drop agent_bounce_params"
	}
	return "set kv_cache_bounce_size_mb to a positive capacity in MiB, or drop the agent bounce settings"
}

// ValidatorModelled reports whether xcvr checks what an install's validator
// checks: every message it raises is one of the texts validators.go models
// (f-string fields compared as written), and it raises at least one.
func ValidatorModelled(v InstallValidator) bool {
	if len(v.Raises) == 0 {
		return false
	}
	for _, r := range v.Raises {
		if !slices.Contains(modelledValidatorTexts(), r) {
			return false
		}
	}
	return true
}

// unreadValidators names the install's validators xcvr does not check, each
// with its FILE:LINE.
func (r *run) unreadValidators() []string {
	var out []string
	for _, v := range r.rules.InstallValidators {
		if !ValidatorModelled(v) {
			out = append(out, v.Name+" ("+v.Evidence+")")
		}
	}
	return out
}

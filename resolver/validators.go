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
	// TextBounceEnableNoSize is validate_bounce_config's refusal of the flag
	// without a capacity [V llm_args.py of 1.3.0rc29, read in its docs build:
	// NVIDIA/TensorRT-LLM gh-pages
	// latest/_modules/tensorrt_llm/llmapi/llm_args.html@cd798f61, from
	// c76f4a8; derived for 1.3.0rc28 and 1.4.0rc1 to rc3].
	TextBounceEnableNoSize = "agent_bounce_buffer_enable selects the C++ transfer-agent bounce implementation, but kv_cache_bounce_size_mb is 0 (bounce disabled); set a positive capacity."
	// TextBounceParamsNoFlag is validate_bounce_config's refusal of params
	// without the flag [V, the same file].
	TextBounceParamsNoFlag = "agent_bounce_params only applies to the C++ transfer-agent bounce implementation; set agent_bounce_buffer_enable=True or drop the params."
)

// Validator is one validator method of CacheTransceiverConfig, as data: its
// name, decorator and string arguments, the message of each raise in its body
// (f-string fields as {expr}), the condition each raise is under as written
// (When, parallel to Raises; "" where it was not read), and its evidence: the
// install's FILE:LINE, or the upstream file xcvr's model of a release reads.
// xcvr applies a validator by the messages it raises (validatorChecks).
type Validator struct {
	Name      string
	Decorator string
	Args      []string
	Raises    []string
	When      []string
	Evidence  string
}

// validatorCheck is a message a validator may raise that xcvr knows how to
// check, how sure xcvr is of the refusal, and whether the text is upstream's
// verbatim (only then does an install's raise of it count as the same check).
type validatorCheck struct {
	text     string
	conf     Confidence
	verbatim bool
}

// validatorChecks are the messages xcvr checks, in the order the validators
// test them.
func validatorChecks() []validatorCheck {
	return []validatorCheck{
		{TextBounceParamsType, Verified, true}, // checked by the file readers (a non-dict)
		{TextBounceEnableNoSize, Derived, true},
		{TextBounceParamsNoSize, Derived, true},
		{TextBounceParamsNoFlag, Derived, true},
		{TextBounceUnknownKeys, Derived, true},
	}
}

// releaseValidators is xcvr's model of CacheTransceiverConfig's validators on
// main's day: none before agent_bounce_* (#15780, 2026-09-16), then
// validate_bounce_config (the flag needs a capacity, the params need the flag,
// their keys are checked; read in 1.3.0rc29's llm_args.py, taken for rc28 and
// 1.4.0rc1 to rc3), and validate_bounce_exclusive's form from 1.4.0rc4 (the
// params need a capacity, their keys are checked).
func releaseValidators(main Day) []Validator {
	if main < dayAgentBounce {
		return nil
	}
	const at = "tensorrt_llm/llmapi/llm_args.py@0649223e"
	coerce := Validator{Name: "coerce_agent_bounce_params_to_str", Decorator: "field_validator", Args: []string{"agent_bounce_params", "before"},
		Raises: []string{TextBounceParamsType}, When: []string{"not isinstance(v, dict)"}, Evidence: at}
	switch {
	case main >= dayBounceNoop:
		return []Validator{coerce, {Name: "validate_bounce_exclusive", Decorator: "model_validator", Args: []string{"after"},
			Raises:   []string{TextBounceParamsNoSize, TextBounceUnknownKeys},
			When:     []string{"self.agent_bounce_params and self.kv_cache_bounce_size_mb == 0", "self.agent_bounce_params and unknown"},
			Evidence: at + " (derived for 1.4.0rc4's kv_cache_bounce_size_mb)"}}
	case main >= dayAgentBounce:
		return []Validator{coerce, {Name: "validate_bounce_config", Decorator: "model_validator", Args: []string{"after"},
			Raises: []string{TextBounceEnableNoSize, TextBounceParamsNoFlag, TextBounceUnknownKeys},
			When: []string{"self.agent_bounce_buffer_enable and self.kv_cache_bounce_size_mb == 0",
				"self.agent_bounce_params and not self.agent_bounce_buffer_enable", "self.agent_bounce_params and unknown"},
			Evidence: "llm_args.py of 1.3.0rc29 (gh-pages latest/_modules/tensorrt_llm/llmapi/llm_args.html@cd798f61, verified); derived for 1.3.0rc28 and 1.4.0rc1 to rc3"}}
	}
	return nil
}

// raises reports whether one of the build's validators raises text.
func (rs *Rules) raises(text string) bool {
	for i := range rs.Validators {
		if slices.Contains(rs.Validators[i].Raises, text) {
			return true
		}
	}
	return false
}

// compareValidators lists the validators only one build declares, and those
// both declare with different messages.
func compareValidators(a, b *Rules) []RuleDifference {
	names := func(vs []Validator) string {
		n := make([]string, len(vs))
		for i, v := range vs {
			n[i] = v.Name
		}
		return strings.Join(n, ", ")
	}
	var out []RuleDifference
	if x, y := names(a.Validators), names(b.Validators); x != y {
		ev := ""
		if b.ValidatorsRead && len(b.Validators) > 0 {
			ev = b.Validators[0].Evidence
		}
		out = append(out, RuleDifference{"validators", x, y, ev})
	}
	for _, v := range b.Validators {
		for _, w := range a.Validators {
			if w.Name == v.Name && !slices.Equal(w.Raises, v.Raises) {
				ev := ""
				if b.ValidatorsRead {
					ev = v.Evidence
				}
				out = append(out, RuleDifference{"validator " + v.Name, strings.Join(w.Raises, " | "), strings.Join(v.Raises, " | "), ev})
			}
		}
	}
	return out
}

// bounceValidatorError is the validators' error for the file's agent_bounce
// settings, if any, and how sure xcvr is of it: each message the build's
// validators raise is checked, in the order they test them.
func (r *run) bounceValidatorError() (FieldError, Confidence, bool) {
	st := r.t.Inputs.Static
	if st == nil || len(r.rules.Validators) == 0 {
		return FieldError{}, "", false
	}
	fail := func(c validatorCheck, msg string) (FieldError, Confidence, bool) {
		return FieldError{Type: "value_error", Message: "Value error, " + msg, Input: st.ConfigRepr, InputType: "dict",
			Origin: st.ConfigOrigin}, c.conf, true
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
	size, flag, params := st.BounceMB.Value, st.AgentBounce.Value, len(r.t.Inputs.BounceParams) > 0
	for _, c := range validatorChecks() {
		if !r.rules.raises(c.text) {
			continue
		}
		switch c.text {
		case TextBounceEnableNoSize:
			if flag && size == 0 {
				return fail(c, c.text)
			}
		case TextBounceParamsNoSize:
			if params && size == 0 {
				return fail(c, c.text)
			}
		case TextBounceParamsNoFlag:
			if params && !flag {
				return fail(c, c.text)
			}
		case TextBounceUnknownKeys:
			if u := unknown(); params && len(u) > 0 {
				return fail(c, "Unknown agent_bounce_params key(s) "+pyList(u)+"; valid keys are "+pyList(AgentBounceParamKeys())+".")
			}
		}
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
	case strings.Contains(msg, "agent_bounce_params only applies"):
		return "set agent_bounce_buffer_enable: true with a positive kv_cache_bounce_size_mb, or drop agent_bounce_params"
	}
	return "set kv_cache_bounce_size_mb to a positive capacity in MiB, or drop the agent bounce settings"
}

// ValidatorModelled reports whether xcvr checks what an install's validator
// checks: every message it raises is one of the texts validators.go models
// (f-string fields compared as written), and it raises at least one.
func ValidatorModelled(v Validator) bool {
	if len(v.Raises) == 0 {
		return false
	}
	for _, r := range v.Raises {
		if !slices.ContainsFunc(validatorChecks(), func(c validatorCheck) bool { return c.verbatim && c.text == r }) {
			return false
		}
	}
	return true
}

// unreadValidators names the install's validators xcvr does not check, each
// with its FILE:LINE.
func (r *run) unreadValidators() []string {
	var out []string
	if !r.rules.ValidatorsRead {
		return nil
	}
	for _, v := range r.rules.Validators {
		if !ValidatorModelled(v) {
			out = append(out, v.Name+" ("+v.Evidence+")")
		}
	}
	return out
}

package resolver

import (
	"strings"
	"testing"
)

// A selector the release does not read, or the TRTLLM_USE_*_KV_CACHE spelling
// that no release reads (Dynamo 0.7's TensorRT-LLM page said to set
// TRTLLM_USE_UCX_KV_CACHE=1), is named in the effective-backend step instead
// of being passed over in silence: an operator on 1.2.0rc3 with
// TRTLLM_USE_MOONCAKE_KVCACHE=1 (#8309, the selector, merged 2025-12-19) or a
// Dynamo user with the misspelt name sees why DEFAULT stayed NIXL.
func TestSelectorsTheReleaseDoesNotRead(t *testing.T) {
	for _, c := range []struct {
		ver  string
		env  map[string]string
		eff  string
		want []string
	}{
		{"1.2.0rc3", map[string]string{EnvUseMooncake: "1"}, "NIXL", []string{"TRTLLM_USE_MOONCAKE_KVCACHE is not read by this release"}},
		{"1.1.0rc5", map[string]string{EnvUseUCX: "1", EnvUseNIXL: "1"}, "NIXL", []string{"TRTLLM_USE_UCX_KVCACHE is not read by this release"}},
		{"1.2.0rc6", map[string]string{"TRTLLM_USE_UCX_KV_CACHE": "1"}, "NIXL",
			[]string{"TRTLLM_USE_UCX_KV_CACHE is not a variable TensorRT-LLM reads (the selector is TRTLLM_USE_UCX_KVCACHE)"}},
	} {
		in := Inputs{Version: Must(ParseVersion(c.ver)), Env: Env{},
			Backend: Field[PyStr]{Str("DEFAULT"), Origin{Kind: OriginFlag, Detail: "--backend"}}}
		for k, v := range c.env {
			in.Env[k] = EnvVar{Value: v}
		}
		tr := Resolve(in)
		if !tr.Result.EffectiveBackend.Is(c.eff) {
			t.Errorf("%s %v: effective backend %s, want %s", c.ver, c.env, tr.Result.EffectiveBackend.Repr(), c.eff)
		}
		for _, st := range tr.Steps {
			if st.ID != StepBackend {
				continue
			}
			for _, w := range c.want {
				if !strings.Contains(st.Reason, w) {
					t.Errorf("%s %v: backend step %q lacks %q", c.ver, c.env, st.Reason, w)
				}
			}
		}
	}
}

// Before #5234 (1.0.0rc0-rc3) create_kv_cache_transceiver reads the three
// selectors with a bare getenv, UCX then NIXL then MPI, and creates nothing
// when none is set; there is no log line. Read in stored copies of
// kv_cache_transceiver.py from before #5234 (search ids 3789947234 and
// 6254461557): verified for the rule; the releases' day is the table's.
func TestLegacySwitchReadInCode(t *testing.T) {
	for _, c := range []struct {
		ver, eff string
		env      map[string]string
		out      Outcome
		reason   string
	}{
		{"1.0.0rc3", "UCX", map[string]string{EnvUseMPI: "1", EnvUseNIXL: "1", EnvUseUCX: "false"}, OutcomeCPP, "TRTLLM_USE_UCX_KVCACHE='false' is set (any non-empty value counts before #5234)"},
		{"1.0.0rc2", "NIXL", map[string]string{EnvUseMPI: "1", EnvUseNIXL: "0"}, OutcomeCPP, "TRTLLM_USE_NIXL_KVCACHE='0' is set"},
		{"1.0.0rc0", "", map[string]string{EnvUseUCX: ""}, OutcomeDisabled, "none is set: disaggregation is off"},
	} {
		in := Inputs{Version: Must(ParseVersion(c.ver)), Env: Env{}}
		for k, v := range c.env {
			in.Env[k] = EnvVar{Value: v}
		}
		tr := Resolve(in)
		st := stepOf(tr, StepDisagg)
		if tr.Result.Outcome != c.out || !strings.Contains(st.Reason, c.reason) || st.Confidence != Verified {
			t.Errorf("%s %v: outcome %s, step %q (%s); want %s, %q, verified", c.ver, c.env, tr.Result.Outcome, st.Reason, st.Confidence, c.out, c.reason)
		}
		if c.eff != "" && !tr.Result.EffectiveBackend.Is(c.eff) {
			t.Errorf("%s %v: effective backend %s, want %s", c.ver, c.env, tr.Result.EffectiveBackend.Repr(), c.eff)
		}
		if len(tr.Logs) != 0 {
			t.Errorf("%s %v: logs %v, want none (no log line at creation before #5234)", c.ver, c.env, tr.Logs)
		}
	}
}

// xcvr's own backend choice (DEFAULT, origin xcvr-default) is spelt as the
// build takes it: 1.0.0rc4 to 1.0.0 accept only Literal["default", "ucx",
// "nixl", "mpi"] (llm_args.py of the lower-case era, until #6323), so the
// preset is "default" there and the prediction for a release of the time is
// not a validation error no one wrote. A DEFAULT the user gave is still
// refused; from 1.1.0rc0 the preset stays DEFAULT.
func TestPresetBackendSpelledAsTheBuildTakesIt(t *testing.T) {
	for _, c := range []struct {
		ver    string
		origin OriginKind
		out    Outcome
		want   string
	}{
		{"1.0.0rc4", OriginPreset, OutcomeCPP, "default"},
		{"1.0.0", OriginPreset, OutcomeCPP, "default"},
		{"1.0.0rc4", OriginFlag, OutcomeError, "DEFAULT"},
		{"1.1.0rc0", OriginPreset, OutcomeCPP, "DEFAULT"},
		{"1.0.0rc3", OriginPreset, OutcomeDisabled, "DEFAULT"},
	} {
		in := Inputs{Version: Must(ParseVersion(c.ver)), Env: Env{},
			Backend: Field[PyStr]{Str("DEFAULT"), Origin{Kind: c.origin}}}
		tr := Resolve(in)
		if tr.Result.Outcome != c.out || !tr.Inputs.Backend.Value.Is(c.want) {
			t.Errorf("%s %s: outcome %s, backend %s; want %s, %q", c.ver, c.origin, tr.Result.Outcome, tr.Inputs.Backend.Value.Repr(), c.out, c.want)
		}
	}
}

package resolver

import (
	"strings"
	"testing"
)

// kv_cache_config.use_kv_cache_manager_v2 is a field only from #10659
// (0306c0f12c, merged 2026-02-02 per main's git log, a stored commit
// listing); KvCacheConfig is a StrictBaseModel, so before it pydantic refuses
// the key as an extra input with the value as written. xcvr used to take the
// key in 1.0-1.3.0rc1 as a valid True and then blame the C++ transceiver, with
// a fix naming transceiver_runtime, which those releases do not have either.
func TestKVManagerFieldBeforeItExists(t *testing.T) {
	flag := Origin{Kind: OriginFlag, Detail: "--kv-cache-manager"}
	in := func(ver string, kv KVSetting) Inputs {
		v := Must(ParseVersion(ver))
		x := Inputs{Version: v, Env: Env{}, Backend: Field[PyStr]{Str("NIXL"), Origin{Kind: OriginFlag, Detail: "--backend"}}}
		if kv != "" {
			x.KVManager = Field[KVSetting]{kv, flag}
		}
		return x
	}
	// From MOONCAKE (1.2.0rc6) update_llm_args_with_extra_dict builds
	// KvCacheConfig(**d) before TorchLlmArgs (nested.go): its own title and
	// the bare key.
	for _, c := range []struct {
		ver   string
		kv    KVSetting
		input string
		loc   string
	}{
		{"1.0.0rc4", KVV2, "input_value=True, input_type=bool", "for TorchLlmArgs\nkv_cache_config.use_kv_cache_manager_v2"},
		{"1.2.0", KVV1, "input_value=False, input_type=bool", "for KvCacheConfig\nuse_kv_cache_manager_v2"},
		{"1.3.0rc1", KVAuto, "input_value='auto', input_type=str", "for KvCacheConfig\nuse_kv_cache_manager_v2"},
	} {
		tr := Resolve(in(c.ver, c.kv))
		want := c.loc + "\n  Extra inputs are not permitted [type=extra_forbidden, " + c.input + "]"
		if tr.Result.Outcome != OutcomeError || tr.Result.FailedStep != StepValidate || !strings.Contains(tr.Result.Error, want) {
			t.Errorf("%s %s: %s at %s: %q, want %q", c.ver, c.kv, tr.Result.Outcome, tr.Result.FailedStep, tr.Result.Error, want)
		}
	}
	// From #10659 (1.3.0rc2 is placed after it) the key validates; before the
	// Python transceiver (1.3.0rc8) V2 can only meet the C++ one, so the fix
	// is the V1 manager, not a transceiver_runtime the release lacks.
	tr := Resolve(in("1.3.0rc3", KVV2))
	if tr.Result.FailedStep == StepValidate {
		t.Fatalf("1.3.0rc3: %s", tr.Result.Error)
	}
	if h := tr.Result.Hint; strings.Contains(h, "transceiver_runtime") || !strings.Contains(h, "use_kv_cache_manager_v2: false") {
		t.Errorf("1.3.0rc3 hint %q", h)
	}
	// Omitted, the step says the field does not exist yet.
	tr = Resolve(in("1.2.0", ""))
	for _, s := range tr.Steps {
		if s.ID == StepKVManager && !strings.Contains(s.Reason, "no such field before #10659") {
			t.Errorf("1.2.0 KV step: %q", s.Reason)
		}
	}
}

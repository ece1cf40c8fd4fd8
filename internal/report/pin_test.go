package report

import (
	"strings"
	"testing"

	"github.com/goccy/go-yaml"

	"xcvr/internal/inputs"
	"xcvr/models"
	"xcvr/resolver"
)

func pinTrace(t *testing.T, version, model, backend, runtime string, env ...string) resolver.Trace {
	t.Helper()
	s := inputs.Defaults()
	flag := resolver.Origin{Kind: resolver.OriginFlag}
	s.Version = inputs.Value{Raw: version, Origin: flag}
	s.Model = inputs.Value{Raw: model, Origin: flag}
	s.Backend = inputs.Value{Raw: backend, Origin: flag}
	if runtime != "" {
		s.Runtime = inputs.Value{Raw: runtime, Origin: flag}
	}
	for _, kv := range env {
		_ = s.SetEnv(kv, flag)
	}
	in, err := inputs.Build(s, models.Builtin())
	if err != nil {
		t.Fatal(err)
	}
	return resolver.Resolve(in)
}

func TestPinYAML(t *testing.T) {
	got := PinYAML(pinTrace(t, "1.4.0rc4", "GptOssForCausalLM", "NIXL", ""))
	want := "# pinned by xcvr against TensorRT-LLM 1.4.0rc4 (main@2026-11-11)\n" +
		"# transceiver_runtime: resolved to PYTHON (Python transceiver (KvCacheTransceiverV2))\n" +
		"cache_transceiver_config:\n  backend: NIXL\n  transceiver_runtime: PYTHON\n" +
		"# the KV-cache manager resolves to V2 here; to pin it as well:\n" +
		"#   kv_cache_config:\n#     use_kv_cache_manager_v2: true\n"
	if got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
	got = PinYAML(pinTrace(t, "main@2026-09-10", "Qwen3ForCausalLM", "DEFAULT", "", "TRTLLM_USE_UCX_KVCACHE=1"))
	if !strings.Contains(got, "  backend: UCX\n  transceiver_runtime: CPP\n") || !strings.Contains(got, "TRTLLM_USE_UCX_KVCACHE=1") {
		t.Errorf("DEFAULT+env pin:\n%s", got)
	}
	if !strings.Contains(got, "#     use_kv_cache_manager_v2: false\n") {
		t.Errorf("DEFAULT+env pin lacks the V1 KV-cache manager:\n%s", got)
	}
	got = PinYAML(pinTrace(t, "main@2026-09-10", "GptOssForCausalLM", "UCX", ""))
	if !strings.HasPrefix(got, "# xcvr: nothing to pin") || strings.Contains(got, "\ncache_transceiver_config") {
		t.Errorf("ERROR pin:\n%s", got)
	}
	got = PinYAML(pinTrace(t, "main@2026-09-10", "GptOssForCausalLM", "none", ""))
	if !strings.Contains(got, "cache_transceiver_config: null") {
		t.Errorf("DISABLED pin:\n%s", got)
	}
}

// TestPinRoundTrip checks that the pinned block, resolved again in a later
// version, keeps the outcome (the point of pinning).
func TestPinRoundTrip(t *testing.T) {
	for _, tc := range []struct{ version, model, backend string }{
		{"main@2026-08-05", "GptOssForCausalLM", "UCX"},
		{"main@2026-09-10", "Qwen3ForCausalLM", "NIXL"},
		{"1.3.0rc20", "LlamaForCausalLM", "DEFAULT"},
	} {
		tr := pinTrace(t, tc.version, tc.model, tc.backend, "")
		var doc struct {
			CTC struct {
				Backend string `yaml:"backend"`
				Runtime string `yaml:"transceiver_runtime"`
			} `yaml:"cache_transceiver_config"`
		}
		if err := yaml.Unmarshal([]byte(PinYAML(tr)), &doc); err != nil {
			t.Fatal(err)
		}
		later := pinTrace(t, "1.4.0rc4", tc.model, doc.CTC.Backend, doc.CTC.Runtime)
		if later.Result.Outcome != tr.Result.Outcome {
			t.Errorf("%+v: pinned %s became %s in 1.4.0rc4", tc, tr.Result.Outcome, later.Result.Outcome)
		}
	}
}

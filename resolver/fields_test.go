package resolver

import (
	"strings"
	"testing"
)

// CacheTransceiverConfig per release family: the fields, their defaults and
// the backend Literal, as the evidence in fields.go dates them.
func TestCacheTransceiverFieldsPerFamily(t *testing.T) {
	for _, c := range []struct {
		version, fields, backends string
	}{
		{"1.0.0rc4", "backend=None max_tokens_in_buffer=None", "default ucx nixl mpi"},
		{"1.0.0", "backend=None max_tokens_in_buffer=None", "default ucx nixl mpi"},
		{"1.1.0rc5", "backend=None max_tokens_in_buffer=None", "DEFAULT UCX NIXL MPI"},
		// #8459 (kv_transfer_timeout_ms) is 879039f6d5 of 2025-10-22 in main's
		// git log, after the v1.2.0rc1 tag (10-19), before rc2's (11-05).
		{"1.2.0rc1", "backend=None max_tokens_in_buffer=None", "DEFAULT UCX NIXL MPI"},
		{"1.2.0rc2", "backend=None max_tokens_in_buffer=None kv_transfer_timeout_ms=None", "DEFAULT UCX NIXL MPI"},
		// main's git log: #9155 (sender future timeout) is 9b0f45298f of
		// 2025-11-18, older than the v1.2.0rc3 tag 2128f73d58 (11-20); #8309
		// (MOONCAKE) is 9f283f330b of 2025-12-19, after rc6's cut (its docs
		// build's commit, main's 9ba14263db of 12-15) and before rc7's
		// (a65b0d4efa, 01-04). 1.2.0rc6.post1's and .post3's own llm_args.py
		// (gh-pages <version>/_modules/tensorrt_llm/llmapi/llm_args.html)
		// declare exactly these four fields with Literal['DEFAULT', 'UCX',
		// 'NIXL', 'MPI'].
		{"1.2.0rc3", "backend=None max_tokens_in_buffer=None kv_transfer_timeout_ms=None kv_transfer_sender_future_timeout_ms=1000", "DEFAULT UCX NIXL MPI"},
		{"1.2.0rc5", "backend=None max_tokens_in_buffer=None kv_transfer_timeout_ms=None kv_transfer_sender_future_timeout_ms=1000", "DEFAULT UCX NIXL MPI"},
		{"1.2.0rc6", "backend=None max_tokens_in_buffer=None kv_transfer_timeout_ms=None kv_transfer_sender_future_timeout_ms=1000", "DEFAULT UCX NIXL MPI"},
		{"1.2.0rc6.post3", "backend=None max_tokens_in_buffer=None kv_transfer_timeout_ms=None kv_transfer_sender_future_timeout_ms=1000", "DEFAULT UCX NIXL MPI"},
		{"1.2.0rc7", "backend=None max_tokens_in_buffer=None kv_transfer_timeout_ms=None kv_transfer_sender_future_timeout_ms=1000", "DEFAULT UCX NIXL MOONCAKE MPI"},
		{"1.3.0rc7", "backend=None max_tokens_in_buffer=None kv_transfer_timeout_ms=None kv_transfer_sender_future_timeout_ms=1000", "DEFAULT UCX NIXL MOONCAKE MPI"},
		{"1.3.0rc8", "backend=None transceiver_runtime=None max_tokens_in_buffer=None kv_transfer_timeout_ms=None kv_transfer_sender_future_timeout_ms=1000", "DEFAULT UCX NIXL MOONCAKE MPI"},
		{"1.3.0rc20", "backend=None transceiver_runtime=None max_tokens_in_buffer=None kv_transfer_timeout_ms=60000 kv_transfer_sender_future_timeout_ms=1000", "DEFAULT UCX NIXL MOONCAKE MPI"},
		{"1.3.0rc22", "backend=None transceiver_runtime='auto' max_tokens_in_buffer=None kv_transfer_timeout_ms=60000 kv_transfer_sender_future_timeout_ms=1000 kv_transfer_poll_interval_ms=5000 kv_cache_bounce_size_mb=0", "DEFAULT UCX NIXL MOONCAKE MPI"},
		// docs 1.3.0rc27 CacheTransceiverConfig, verbatim field list.
		{"1.3.0rc27", "backend=None transceiver_runtime='auto' max_tokens_in_buffer=None kv_transfer_timeout_ms=60000 kv_transfer_sender_future_timeout_ms=1000 kv_transfer_poll_interval_ms=5000 kv_cache_bounce_size_mb=0 enable_pipelined_transfer=False", "DEFAULT UCX NIXL MOONCAKE MPI"},
		// #15780 (agent_bounce_*) merged 2026-09-16, after rc27's cut (09-14):
		// the llm_args.py of 1.3.0rc28 and rc29 (their docs builds' module
		// source, gh-pages latest/_modules/tensorrt_llm/llmapi/llm_args.html
		// @75a7167b and @cd798f61) declare these fields in this order (rc28's
		// read from backend to agent_bounce_buffer_enable, rc29's from
		// kv_transfer_timeout_ms to agent_bounce_params).
		{"1.3.0rc28", "backend=None transceiver_runtime='auto' max_tokens_in_buffer=None kv_transfer_timeout_ms=60000 kv_transfer_sender_future_timeout_ms=1000 kv_transfer_poll_interval_ms=5000 kv_cache_bounce_size_mb=0 enable_pipelined_transfer=False agent_bounce_buffer_enable=False agent_bounce_params=None", "DEFAULT UCX NIXL MOONCAKE MPI"},
		{"1.3.0rc29", "backend=None transceiver_runtime='auto' max_tokens_in_buffer=None kv_transfer_timeout_ms=60000 kv_transfer_sender_future_timeout_ms=1000 kv_transfer_poll_interval_ms=5000 kv_cache_bounce_size_mb=0 enable_pipelined_transfer=False agent_bounce_buffer_enable=False agent_bounce_params=None", "DEFAULT UCX NIXL MOONCAKE MPI"},
		// docs 1.4.0rc1 and 1.4.0rc4.
		{"1.4.0rc1", "backend=None transceiver_runtime='PYTHON' max_tokens_in_buffer=None kv_transfer_timeout_ms=60000 kv_transfer_sender_future_timeout_ms=1000 kv_transfer_poll_interval_ms=5000 kv_cache_bounce_size_mb=0 enable_pipelined_transfer=False agent_bounce_buffer_enable=False agent_bounce_params=None", "DEFAULT UCX NIXL MOONCAKE MPI"},
		{"1.4.0rc4", "backend=None transceiver_runtime='PYTHON' max_tokens_in_buffer=None kv_transfer_timeout_ms=60000 kv_transfer_sender_future_timeout_ms=1000 kv_transfer_poll_interval_ms=5000 kv_cache_bounce_size_mb=0 enable_pipelined_transfer=False agent_bounce_buffer_enable=False agent_bounce_params=None", "DEFAULT UCX NIXL MOONCAKE MPI"},
	} {
		fs := CacheTransceiverFieldsFor(Must(ParseVersion(c.version)))
		var got []string
		for _, f := range fs {
			got = append(got, f.Name+"="+f.Default)
			if f.Cite == "" {
				t.Errorf("%s: %s has no evidence", c.version, f.Name)
			}
			if f.Name == "backend" && strings.Join(f.Literals, " ") != c.backends {
				t.Errorf("%s: backend %v, want %s", c.version, f.Literals, c.backends)
			}
		}
		if strings.Join(got, " ") != c.fields {
			t.Errorf("%s:\n got %s\nwant %s", c.version, strings.Join(got, " "), c.fields)
		}
	}
}

// A key that is a field of another release only is pydantic's extra input, with
// the value as written, whatever it is; in its own release it validates.
func TestUndeclaredFieldPerRelease(t *testing.T) {
	file := func(line string) Origin { return Origin{Kind: OriginFile, Detail: "w.yaml:" + line} }
	for _, c := range []struct {
		version, key, input, typ string
		want                     string // "" when it validates
	}{
		{"1.1.0rc5", "kv_cache_bounce_size_mb", "512", "int",
			"cache_transceiver_config.kv_cache_bounce_size_mb\n  Extra inputs are not permitted [type=extra_forbidden, input_value=512, input_type=int]"},
		{"1.3.0rc22", "kv_cache_bounce_size_mb", "512", "int", ""},
		{"1.0.0rc4", "kv_transfer_sender_future_timeout_ms", "1000", "int",
			"cache_transceiver_config.kv_transfer_sender_future_timeout_ms\n  Extra inputs are not permitted [type=extra_forbidden, input_value=1000, input_type=int]"},
		{"1.2.0rc4", "kv_transfer_sender_future_timeout_ms", "1000", "int", ""},
		{"1.3.0rc15", "kv_transfer_poll_interval_ms", "'200'", "str",
			"cache_transceiver_config.kv_transfer_poll_interval_ms\n  Extra inputs are not permitted [type=extra_forbidden, input_value='200', input_type=str]"},
	} {
		backend := "NIXL"
		if !Must(ParseVersion(c.version)).Has(dayUpperCase) {
			backend = "nixl"
		}
		in := Inputs{Version: Must(ParseVersion(c.version)), Env: Env{},
			Backend:    Field[PyStr]{Str(backend), file("2")},
			ConfigKeys: []VersionedKey{{Key: "backend", Input: "'" + backend + "'", InputType: "str", Origin: file("2")}, {Key: c.key, Input: c.input, InputType: c.typ, Origin: file("3")}}}
		tr := Resolve(in)
		if c.want == "" {
			if tr.Result.Outcome == OutcomeError {
				t.Errorf("%s %s: %s", c.version, c.key, tr.Result.Error)
			}
			continue
		}
		if tr.Result.Outcome != OutcomeError || !strings.Contains(tr.Result.Error, c.want) {
			t.Errorf("%s %s: outcome %s, error %q\nwant %q", c.version, c.key, tr.Result.Outcome, tr.Result.Error, c.want)
		}
		if h := tr.Result.Hint; !strings.Contains(h, "remove "+c.key+": the field exists only from") {
			t.Errorf("%s %s: hint %q", c.version, c.key, h)
		}
	}
}

// TorchLlmArgs' top level per release line: a key is judged against its own
// release's fields.
func TestArgsFieldsPerFamily(t *testing.T) {
	for _, c := range []struct {
		version  string
		has, not []string
	}{
		{"1.0.0rc4", []string{"cache_transceiver_config", "enable_mixed_sampler", "connector_config", "build_config", "_mpi_session"},
			[]string{"orchestrator_type", "sparse_attention_config", "kv_connector_config", "telemetry_config", "sampler_type"}},
		{"1.1.0rc3", []string{"orchestrator_type", "sparse_attention_config", "kv_connector_config", "sampler_type", "build_config"},
			[]string{"enable_mixed_sampler", "telemetry_config", "env_overrides", "custom_tokenizer"}},
		{"1.2.0rc3", []string{"orchestrator_type"}, []string{"telemetry_config"}},
		{"1.3.0rc15", []string{"env_overrides", "custom_tokenizer", "enable_sleep", "nvfp4_gemm_config"},
			[]string{"build_config", "telemetry_config", "fail_fast_on_attention_window_too_large"}},
		{"1.3.0rc18", []string{"telemetry_config", "build_config", "orchestrator_type"}, []string{"enable_mixed_sampler"}},
		{"1.4.0rc4", []string{"telemetry_config", "generation_config", "sampler_type"}, []string{"bogus_key", "enable_mixed_sampler"}},
	} {
		a := ArgsFieldsFor(Must(ParseVersion(c.version)))
		if a.Evidence == "" || a.Confidence == "" {
			t.Errorf("%s: no evidence", c.version)
		}
		for _, k := range c.has {
			if !a.Has(k) {
				t.Errorf("%s: %s should be a field", c.version, k)
			}
		}
		for _, k := range c.not {
			if a.Has(k) {
				t.Errorf("%s: %s should not be a field", c.version, k)
			}
		}
	}
}

// TestArgsFieldsAccepted: where a release's top-level list is inferred (read
// from a copy of another time), keys of the lists before and after it are
// accepted, so a field added or removed in between does not make a valid
// config fail (1.3.0rc15 refused use_cute_dsl_bf16_gemm, a field of the
// 1.4-era list, whose PR was reviewed in April 2026, between rc8's copy and
// rc15); a typo, and a field two lists away, are still refused; a release
// inside its copy's own window keeps the copy's list exactly. The 1.1 list's
// copy has kv_transfer_timeout_ms and not kv_transfer_sender_future_timeout_ms
// (main 2025-10-22..11-18): 1.2.0rc2 is inside it; 1.2.0rc6 (main 12-15) is
// not, and takes nvfp4_gemm_config, which its .post3's own llm_args.py builds
// in update_llm_args_with_extra_dict (gh-pages
// 1.2.0rc6.post3/_modules/tensorrt_llm/llmapi/llm_args.html).
func TestArgsFieldsAccepted(t *testing.T) {
	for _, c := range []struct {
		version         string
		accepts, refuse []string
	}{
		{"1.3.0rc15", []string{"use_cute_dsl_bf16_gemm", "build_config", "env_overrides"}, []string{"bogus_key"}},
		{"1.4.0rc4", []string{"telemetry_config", "env_overrides"}, []string{"bogus_key", "enable_mixed_sampler"}},
		{"1.2.0rc2", []string{"orchestrator_type"}, []string{"telemetry_config", "use_cute_dsl_bf16_gemm", "bogus_key", "nvfp4_gemm_config"}},
		{"1.2.0rc6", []string{"orchestrator_type", "nvfp4_gemm_config"}, []string{"telemetry_config", "use_cute_dsl_bf16_gemm", "bogus_key"}},
	} {
		a := ArgsFieldsFor(Must(ParseVersion(c.version)))
		if c.version == "1.3.0rc15" && (a.Has("use_cute_dsl_bf16_gemm") || a.Has("build_config")) {
			t.Error("1.3.0rc15's own list has the keys: the case no longer tests the neighbours")
		}
		for _, k := range c.accepts {
			if !a.Accepts(k) {
				t.Errorf("%s (%s list) refuses %s", c.version, a.Confidence, k)
			}
		}
		for _, k := range c.refuse {
			if a.Accepts(k) {
				t.Errorf("%s (%s list) accepts %s", c.version, a.Confidence, k)
			}
		}
	}
}

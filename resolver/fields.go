package resolver

import "sync"

// CacheTransceiverConfig as it changed, field by field: each declaration with
// the main day it appeared, its default as the reference writes it, and the
// evidence it was read from. releaseFields picks, for a day, the newest
// declaration of each field that exists by then, in declaration order.
//
// Sources (read with the search tool's file and docs look-ups):
//   - [0.21] llm_args.py of 0.21.0 (a stored copy): before #5234
//     CacheTransceiverConfig is a plain pydantic BaseModel with max_num_tokens
//     only, so every other key is ignored, not refused (taken for main before
//     #5234, 1.0.0rc0-rc3, inferred).
//   - [lc] llm_args.py of the lower-case era, a stored copy whose
//     CacheTransceiverConfig is `backend: Optional[Literal["default", "ucx",
//     "nixl", "mpi"]]` and max_tokens_in_buffer only (before #6323,
//     2025-08-14): the 1.0 line.
//   - [uc] llm_args.py of the upper-case era before MOONCAKE (a stored copy):
//     backend, max_tokens_in_buffer and `kv_transfer_timeout_ms:
//     Optional[int] = Field(default=None, gt=0, ...)`; as the field comes
//     with #8459 (merged 2025-10-22) and MOONCAKE with #8309 (12-19), main
//     2025-10-22..12-19: 1.2.0rc2 to rc5.
//   - [e0] llm_args.py of era 0 (a stored copy with `transceiver_runtime:
//     Optional[Literal["CPP", "PYTHON"]] = Field(default=None` and
//     kv_transfer_timeout_ms still defaulting to None, so main about
//     2026-03-17..20): backend with MOONCAKE, transceiver_runtime,
//     max_tokens_in_buffer, kv_transfer_timeout_ms (Optional[PositiveInt]),
//     kv_transfer_sender_future_timeout_ms (Optional[PositiveInt], default
//     1000), and nothing else: no poll interval, no bounce size.
//   - the per-release API reference pages
//     nvidia.github.io/TensorRT-LLM/{1.3.0rc27,1.4.0rc1,1.4.0rc4}/llm-api/reference/CacheTransceiverConfig.html.
const (
	src021      = "llm_args.py of 0.21.0 (a stored copy): CacheTransceiverConfig(BaseModel, PybindMirror) declares max_num_tokens: Optional[int] = Field(default=None, ...) only, and a plain BaseModel ignores other keys; taken for main before #5234 (1.0.0rc0-rc3) [inferred]"
	srcLC       = "llm_args.py of the lower-case era (stored copy): backend: Optional[Literal[\"default\", \"ucx\", \"nixl\", \"mpi\"]] = Field(default=None, ...); max_tokens_in_buffer: Optional[int] = Field(default=None, ...)"
	srcUC       = "llm_args.py of the upper-case era before MOONCAKE (stored copy, main 2025-10-22..12-19): kv_transfer_timeout_ms: Optional[int] = Field(default=None, gt=0, ...); the day: PR #8459 '[feat] Kv transfer timeout', merged 2025-10-22 (879039f6d5 in main's git log)"
	srcE0       = "llm_args.py of era 0 (stored copy, main about 2026-03-17): transceiver_runtime Optional[Literal[\"CPP\", \"PYTHON\"]] default None; kv_transfer_sender_future_timeout_ms: Optional[PositiveInt] = Field(default=1000, ...); no kv_transfer_poll_interval_ms, no kv_cache_bounce_size_mb"
	srcDocs27   = "https://nvidia.github.io/TensorRT-LLM/1.3.0rc27/llm-api/reference/CacheTransceiverConfig.html"
	srcDocs41   = "https://nvidia.github.io/TensorRT-LLM/1.4.0rc1/llm-api/reference/CacheTransceiverConfig.html"
	srcDocs44   = "https://nvidia.github.io/TensorRT-LLM/1.4.0rc4/llm-api/reference/CacheTransceiverConfig.html"
	pr9155      = "PR #9155 '[None][feat] Have ability to cancel disagg request if KV cache resource are exhausted' (merged 2025-11-18, commit 9b0f45298f) adds kv_transfer_sender_future_timeout_ms to examples/disaggregated/README.md and cacheTransceiver.cpp"
	pr15618     = "PR #15618 '[TRTLLM-13614][feat] Disaggregated KV-cache bounce transfer' (opened 2026-06-25, reviewed 2026-07-04 and 07-06, merged); PR #16116 (2026-07-08) already tests kv_cache_bounce_size_mb > 0"
	pr15356     = "PR #15356 '[TRTLLM-12721][fix] Bound disagg transfer polling and admission' (opened 2026-06-14, still in flight 2026-06-22, merged); a stored telemetry manifest lists kv_transfer_poll_interval_ms without kv_cache_bounce_size_mb, so it came before #15618"
	srcBounce41 = "llm_args.py of 1.3.0rc28 and rc29 (gh-pages latest/_modules/tensorrt_llm/llmapi/llm_args.html@75a7167b and @cd798f61, their docs builds from fca831e and c76f4a8); docs 1.4.0rc1 CacheTransceiverConfig; PR #15780 '[TRTLLM-15344][feat] cache transceiver nixl bounce buffer' (merged 2026-09-16 as 4bee19ab76; absent in docs 1.3.0rc27, cut 2026-09-14)"
)

const (
	// PR #9155 adds kv_transfer_sender_future_timeout_ms [D day: main's git log
	// as a stored commit listing, row 1926: 9b0f45298f "Have ability to cancel
	// disagg request if KV cache resource are exhausted (#9155)" of 2025-11-18,
	// older than the v1.2.0rc3 tag 2128f73d58 (row 1901, 2025-11-20); absent in
	// [uc], present in [e0]].
	daySenderFuture Day = 20251118
	// kv_transfer_poll_interval_ms [U day: #15356, in flight on 2026-06-22;
	// before the bounce size; absent in [e0], present in docs 1.3.0rc27].
	dayPollInterval Day = 20260701
	// PR #15618 adds kv_cache_bounce_size_mb [D day: reviewed 2026-07-06,
	// already in main's tests on 2026-07-08].
	dayBounceSize Day = 20260707
)

type cacheFieldDate struct {
	since Day
	until Day // 0: still a field
	spec  FieldSpec
	conf  Confidence
}

// cacheFieldDates is every declaration xcvr knows, oldest first per field, in
// the class's declaration order (docs 1.4.0rc4 lists them in this order; [e0]
// agrees for its five). backend's and transceiver_runtime's Literals are
// filled in by releaseFields from the day (backendLiteralsAt) and the era.
func cacheFieldDates() []cacheFieldDate { return cacheFieldTable() }

// cacheFieldTable is made once: the table never changes.
var cacheFieldTable = sync.OnceValue(func() []cacheFieldDate {
	return []cacheFieldDate{
		{0, dayConfigKnobs, FieldSpec{Name: "max_num_tokens", Kind: "int", Optional: true, Default: "None", Cite: src021}, Verified},

		{dayConfigKnobs, 0, FieldSpec{Name: "backend", Kind: "literal", Optional: true, Default: "None", Cite: srcLC}, Verified},
		{dayUpperCase, 0, FieldSpec{Name: "backend", Kind: "literal", Optional: true, Default: "None", Cite: srcUC}, Verified},
		{dayMooncake, 0, FieldSpec{Name: "backend", Kind: "literal", Optional: true, Default: "None", Cite: srcE0 + "; " + srcDocs27}, Verified},

		{dayFieldExists, 0, FieldSpec{Name: "transceiver_runtime", Kind: "literal", Optional: true, Default: "None", Cite: srcE0}, Verified},
		{day16164, 0, FieldSpec{Name: "transceiver_runtime", Kind: "literal", Optional: true, Default: "'auto'", Cite: srcDocs27}, Verified},
		{day17495, 0, FieldSpec{Name: "transceiver_runtime", Kind: "literal", Optional: true, Default: "'PYTHON'", Cite: srcDocs41 + "; " + srcDocs44}, Verified},

		{dayConfigKnobs, 0, FieldSpec{Name: "max_tokens_in_buffer", Kind: "int", Optional: true, Default: "None", Cite: srcLC + "; " + srcDocs44}, Verified},

		{dayTimeoutField, 0, FieldSpec{Name: "kv_transfer_timeout_ms", Kind: "int", Optional: true, Bound: "gt", Default: "None", Cite: srcUC + "; " + srcE0}, Verified},
		{dayTimeoutDefault, 0, FieldSpec{Name: "kv_transfer_timeout_ms", Kind: "int", Optional: true, Bound: "gt", Default: "60000", Cite: srcDocs27 + " (Annotated[int, Gt(gt=0)] | None = 60000); PR #12249"}, Verified},

		{daySenderFuture, 0, FieldSpec{Name: "kv_transfer_sender_future_timeout_ms", Kind: "int", Optional: true, Bound: "gt", Default: "1000", Cite: srcE0 + "; " + pr9155}, Verified},

		{dayPollInterval, 0, FieldSpec{Name: "kv_transfer_poll_interval_ms", Kind: "int", Optional: true, Bound: "gt", Default: "5000", Cite: srcDocs27 + " (Annotated[int, Gt(gt=0)] | None = 5000); day: " + pr15356}, Verified},

		{dayBounceSize, 0, FieldSpec{Name: "kv_cache_bounce_size_mb", Kind: "int", Bound: "ge", Default: "0", Cite: srcDocs27 + " (Annotated[int, Ge(ge=0)] = 0); day: " + pr15618}, Verified},

		{day15727, 0, FieldSpec{Name: "enable_pipelined_transfer", Kind: "bool", Default: "False", Cite: srcDocs27 + "; PR #15727"}, Verified},

		{dayAgentBounce, 0, FieldSpec{Name: "agent_bounce_buffer_enable", Kind: "bool", Default: "False", Cite: srcBounce41}, Verified},
		{dayBounceNoop, 0, FieldSpec{Name: "agent_bounce_buffer_enable", Kind: "bool", Default: "False", Cite: srcDocs44 + " ('DEPRECATED: no-op kept so existing configs still parse')"}, Verified},
		{dayAgentBounce, 0, FieldSpec{Name: "agent_bounce_params", Kind: "dict", Optional: true, Default: "None", Cite: srcBounce41}, Verified},
	}
})

// fieldDayConfidence is how sure xcvr is of the day a field appeared (the
// declaration itself is read, so verified; its day may not be).
func fieldDayConfidence(name string) Confidence {
	switch name {
	case "backend", "max_tokens_in_buffer", "max_num_tokens":
		// #5234's day is derived from the release notes; the classes before and
		// after it were read.
		return Derived
	case "kv_cache_bounce_size_mb", "enable_pipelined_transfer", "agent_bounce_buffer_enable", "agent_bounce_params":
		// #15780's merge day is read in a weekly change report of main.
		return Derived
	case "kv_transfer_timeout_ms", "kv_transfer_sender_future_timeout_ms":
		// #8459 and #9155's merge days are read in main's git log.
		return Derived
	}
	return Inferred
}

// datedField reports whether xcvr models the field in some release (a key that
// is no field in any release is simply an extra input, found by the reader).
func datedField(name string) bool {
	for _, f := range cacheFieldDates() {
		if f.spec.Name == name {
			return true
		}
	}
	return false
}

// fieldFirstDay is the main day a field first appears on (0 when from the start).
func fieldFirstDay(name string) (Day, bool) {
	for _, f := range cacheFieldDates() {
		if f.spec.Name == name {
			return f.since, true
		}
	}
	return 0, false
}

// Package resolver reproduces, step by step, how TensorRT-LLM decides which KV-cache
// transceiver a disaggregated worker gets. It is pure: no I/O, no globals, no UI.
// Callers build Inputs (from flags, files or the explorer), call Resolve, and render
// the Trace it returns.
//
// The model: a TensorRT-LLM build is a value, Rules — its code path (era), the
// dated changes it has, CacheTransceiverConfig as it declares it, the DEFAULT
// backend's selectors, the texts it logs and raises and, for an install, the
// models it registers — each with its evidence. A release's rules are made from
// the release table and the dated change list (ReleaseRules); an installed
// tree's from what internal/install reads in its code (InstallRules). Resolve
// applies the rules of Inputs.Version to the inputs and never rewrites its own
// output: every step cites the rule it applied, every message is the rules'
// template filled in. Two builds are compared rule by rule (CompareRules).
package resolver

import (
	"strconv"
	"unicode"
)

// PyStr is a Python Optional[str]: None when Valid is false.
type PyStr struct {
	Valid bool
	S     string
}

// Str returns a non-None PyStr.
func Str(s string) PyStr { return PyStr{Valid: true, S: s} }

// IsNone reports whether p is Python's None.
func (p PyStr) IsNone() bool { return !p.Valid }

// Is reports whether p is the string s (never true for None).
func (p PyStr) Is(s string) bool { return p.Valid && p.S == s }

// Repr renders p the way Python's repr() does for a str or None, which is what
// TensorRT-LLM prints with %r / !r.
func (p PyStr) Repr() string {
	if !p.Valid {
		return "None"
	}
	return pyRepr(p.S)
}

// String renders None as "None" and a string as itself.
func (p PyStr) String() string {
	if !p.Valid {
		return "None"
	}
	return p.S
}

// pyRepr quotes s as CPython's str.__repr__ does: single quotes unless the text holds
// a single quote and no double quote.
func pyRepr(s string) string {
	q := byte('\'')
	hasSingle, hasDouble := false, false
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '\'':
			hasSingle = true
		case '"':
			hasDouble = true
		}
	}
	if hasSingle && !hasDouble {
		q = '"'
	}
	plain := true
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c < 0x20 || c == 0x7f || c == '\\' || c == q || c >= 0x80 {
			plain = false
			break
		}
	}
	if plain {
		return string(q) + s + string(q)
	}
	b := make([]byte, 0, len(s)+8)
	b = append(b, q)
	for _, r := range s {
		switch {
		case r == '\\':
			b = append(b, '\\', '\\')
		case r == rune(q):
			b = append(b, '\\', q)
		case r == '\n':
			b = append(b, '\\', 'n')
		case r == '\r':
			b = append(b, '\\', 'r')
		case r == '\t':
			b = append(b, '\\', 't')
		case r == 0xfffd:
			// Invalid UTF-8 cannot reach a Python str; show the replacement as written.
			b = append(b, "\\ufffd"...)
		case r < 0x20 || !unicode.IsPrint(r):
			// str.__repr__ escapes what str.isprintable() rejects (C0, DEL, C1,
			// NBSP and other separators, format characters such as bidi
			// overrides, unassigned code points) as \xhh, \uhhhh or \Uhhhhhhhh;
			// unicode.IsPrint draws the same line. Which code points are
			// assigned is the Unicode version's: Go's tables are 15.0.0, the
			// unicodedata of Python 3.12, which TensorRT-LLM's containers run
			// (TestUnicodeVersionIsPython312s).
			b = appendPyEscape(b, r)
		default:
			b = append(b, string(r)...)
		}
	}
	b = append(b, q)
	return string(b)
}

// appendPyEscape writes r as Python's repr escapes a non-printable character.
func appendPyEscape(b []byte, r rune) []byte {
	switch {
	case r < 0x100:
		return append(b, '\\', 'x', hexDigit(byte(r)>>4), hexDigit(byte(r)&0xf))
	case r < 0x10000:
		b = append(b, '\\', 'u')
		for sh := 12; sh >= 0; sh -= 4 {
			b = append(b, hexDigit(byte(r>>sh)&0xf))
		}
		return b
	}
	b = append(b, '\\', 'U')
	for sh := 28; sh >= 0; sh -= 4 {
		b = append(b, hexDigit(byte(r>>sh)&0xf))
	}
	return b
}

func hexDigit(n byte) byte {
	if n < 10 {
		return '0' + n
	}
	return 'a' + n - 10
}

// OptInt is a Python Optional[int]: None when Valid is false.
type OptInt struct {
	Valid bool
	N     int64
}

// Int returns a non-None OptInt.
func Int(n int64) OptInt { return OptInt{Valid: true, N: n} }

// String renders None as "None" and a number in decimal.
func (o OptInt) String() string {
	if !o.Valid {
		return "None"
	}
	return strconv.FormatInt(o.N, 10)
}

// OriginKind says where an input's value came from.
type OriginKind string

// The kinds of origin an input can have.
const (
	OriginDefault OriginKind = "default"      // nothing set it; TensorRT-LLM's default applies
	OriginFlag    OriginKind = "flag"         // a command-line flag or the explorer
	OriginEnv     OriginKind = "env"          // the process environment
	OriginFile    OriginKind = "file"         // a file, with Detail "FILE:LINE"
	OriginPreset  OriginKind = "xcvr-default" // xcvr's built-in choice (model, backend, version)
)

// Origin says where an input's value came from, e.g. {flag, "--backend"} or
// {file, "worker.yaml:12"}.
type Origin struct {
	Kind   OriginKind
	Detail string
}

// String renders the origin for people: "default", "flag --backend", "worker.yaml:12".
func (o Origin) String() string {
	switch {
	case o.Kind == "":
		return string(OriginDefault)
	case o.Kind == OriginFile && o.Detail != "":
		return o.Detail
	case o.Detail == "":
		return string(o.Kind)
	default:
		return string(o.Kind) + " " + o.Detail
	}
}

// IsDefault reports whether nothing set the value.
func (o Origin) IsDefault() bool { return o.Kind == "" || o.Kind == OriginDefault }

// Field is one configuration input and where it came from. A Field whose origin is
// the default means the key was omitted, so TensorRT-LLM's default applies.
type Field[T any] struct {
	Value  T
	Origin Origin
}

// Given reports whether something set the field (it was not omitted).
func (f Field[T]) Given() bool { return !f.Origin.IsDefault() }

// Loader is how TensorRT-LLM loads the model, which decides whether the config-load
// phase resolves "auto".
type Loader string

// The loader paths xcvr models.
const (
	LoaderPyTorch    Loader = "pytorch"    // the standard PyTorch ModelLoader (trtllm-serve default)
	LoaderAutoDeploy Loader = "autodeploy" // trtllm-serve --backend _autodeploy
	LoaderNone       Loader = "none"       // no checkpoint loader
)

// Loaders lists the loader values in display order.
func Loaders() []Loader { return []Loader{LoaderPyTorch, LoaderAutoDeploy, LoaderNone} }

// EnvVar is one environment variable as the worker process would see it.
type EnvVar struct {
	Value  string
	Origin Origin
}

// Env is the worker's environment; a variable that is absent is unset.
type Env map[string]EnvVar

// Lookup returns the variable's value and whether it is set at all.
func (e Env) Lookup(name string) (string, bool) {
	v, ok := e[name]
	return v.Value, ok
}

// ModelInfo is what TensorRT-LLM knows about the checkpoint's architecture in one
// version: the class registered for architectures[0] and what its
// get_preferred_transceiver_runtime() hook returns. The models package fills it in.
type ModelInfo struct {
	// Arch is architectures[0] from the HF config; empty when the list is missing.
	Arch string
	// Known is true when Arch is registered in this version.
	Known bool
	// Unregistered is true when Arch is known not to be registered in this
	// version (the catalog dates its registration later, or the install does
	// not register it), not only missing from xcvr's catalog.
	Unregistered bool
	// Class is the class whose name TensorRT-LLM logs (the preference class).
	Class string
	// ExecClass is the class _resolve_class returns when it is not Class: an
	// Eagle3 draft checkpoint (draft_vocab_size) runs as the class registered
	// for "EAGLE3" + architectures[0], while the preference (and the
	// transceiver's log line) comes from the class registered for
	// architectures[0]. ModelLoader's KV-cache manager line names it. ""
	// means Class.
	ExecClass string
	// ExecClassConfidence says how sure xcvr is of ExecClass's name.
	ExecClassConfidence Confidence
	// Preference is what the hook returns for this checkpoint in this version.
	Preference PyStr
	// PreferencePR is the PR that introduced the preference, 0 when none.
	PreferencePR int
	// PreferenceSince is the merge day of PreferencePR.
	PreferenceSince Day
	// PreferenceConfidence says how sure the catalog is of the preference.
	PreferenceConfidence Confidence
	// RequiresPython marks classes that can only be served by the Python
	// transceiver in disaggregated mode (Kimi K3).
	RequiresPython bool
	// KVPreference is what get_preferred_kv_cache_manager_version() returns in
	// this version ("V1", "V2" or None); before the hook existed, the
	// kv_cache_config.use_kv_cache_manager_v2 model default (KVViaDefaults).
	KVPreference PyStr
	// KVViaDefaults is true when the V2 preference comes from get_model_defaults()
	// (merged into the config, so it acts like a user value), not from the hook.
	KVViaDefaults bool
	// KVPreferencePR and KVPreferenceSince date the KV-manager preference.
	KVPreferencePR    int
	KVPreferenceSince Day
	// KVPreferenceConfidence says how sure the catalog is of it.
	KVPreferenceConfidence Confidence
	// Cache is the model's cache layout: CacheAttention (plain KV), CacheMambaHybrid
	// (hybrid Mamba / linear attention: the Mamba cache managers) or
	// CacheKimiLinear (Kimi K3's KDA state).
	Cache CacheKind
	// Note is a short remark shown with the model step.
	Note string
}

// CacheKind is the cache layout get_kv_cache_manager_cls() branches on.
type CacheKind string

// The cache layouts xcvr models.
const (
	CacheAttention   CacheKind = ""             // plain attention: KVCacheManager / KVCacheManagerV2
	CacheMambaHybrid CacheKind = "mamba-hybrid" // hybrid Mamba / linear attention (is_hybrid_linear)
	CacheKimiLinear  CacheKind = "kimi-linear"  // Kimi K3 (KimiLinear): KDA recurrent state
)

// KVSetting is kv_cache_config.use_kv_cache_manager_v2 as written.
type KVSetting string

// The values use_kv_cache_manager_v2 takes.
const (
	KVAuto KVSetting = "auto" // the string 'auto' (the default from #15823 until 1.4)
	KVV1   KVSetting = "v1"   // False
	KVV2   KVSetting = "v2"   // True
)

// Static holds worker settings outside cache_transceiver_config that
// enable_pipelined_transfer's static checks read. A field whose origin is the
// default was not in the file (or no file was read).
type Static struct {
	ChunkedPrefill Field[bool]  // enable_chunked_prefill
	PP             Field[int64] // pipeline_parallel_size
	CP             Field[int64] // context_parallel_size
	BeamWidth      Field[int64] // max_beam_width
	BlockReuse     Field[bool]  // kv_cache_config.enable_block_reuse
	BounceMB       Field[int64] // cache_transceiver_config.kv_cache_bounce_size_mb
	AgentBounce    Field[bool]  // cache_transceiver_config.agent_bounce_buffer_enable
	// ConfigRepr is the cache_transceiver_config mapping as Python would repr
	// it: a model validator's input_value. ConfigOrigin is where it was written.
	ConfigRepr    string
	ConfigOrigin  Origin
	TwoModelDraft Field[bool]   // speculative_config with a separate draft model
	Role          Field[string] // "context" or "generation" when known (--disagg)
}

// VersionedKey is a cache_transceiver_config key whose existence depends on the
// version (agent_bounce_buffer_enable, agent_bounce_params): a file reader reports
// it here so the resolver can refuse it where the field does not exist yet.
type VersionedKey struct {
	Key       string
	Input     string // the value as Python would repr it
	InputType string
	Origin    Origin
}

// FieldError is a value TensorRT-LLM's config validation rejects before anything
// runs (an unknown key, a wrong type). Readers of files report them here so the
// resolver shows them as the validation step.
type FieldError struct {
	// Root is the TorchLlmArgs field the error is under; "" means
	// cache_transceiver_config.
	Root string
	// Tag, when set, is the member of a union under Root that validated the
	// mapping (cuda_graph_config's mode, "decode"): pydantic puts it in the
	// location between Root and Loc (cuda_graph_config.decode.<key>).
	Tag string
	// Loc is the pydantic location under cache_transceiver_config, e.g.
	// "backend" for cache_transceiver_config.backend; "" when the whole field is
	// rejected (it is not a mapping).
	Loc string
	// Message is pydantic's message line, e.g. "Extra inputs are not permitted".
	Message string
	// Type is pydantic's error type, e.g. "extra_forbidden".
	Type string
	// Input is the offending value as Python would repr it.
	Input string
	// InputType is the Python type name of the input, e.g. "str".
	InputType string
	// Origin is where the bad value was written.
	Origin Origin
	// TopKey marks an error at the top-level key Root (an input TorchLlmArgs
	// has no field for), which may be the empty key '': pydantic then prints
	// an empty location line.
	TopKey bool
	// EmptyKey marks an error at the key '' under Root (or
	// cache_transceiver_config): Loc is "" but names a key, which pydantic
	// prints as an empty location item after the '.'
	// ("cache_transceiver_config.").
	EmptyKey bool
	// Model, when set, is the nested model that raised the error itself
	// before TorchLlmArgs was validated (update_llm_args_with_extra_dict
	// builds MoeConfig(**d) and AttentionDpConfig(**d), and
	// KvCacheConfig(**d) in some releases): pydantic then titles the error
	// with Model and its loc is Loc alone, without Root.
	Model string
}

// topKey reports whether the error is at a top-level key of TorchLlmArgs.
func (e FieldError) topKey() bool {
	return e.TopKey || e.Root != "" && e.Loc == "" && !e.EmptyKey && e.Type == "extra_forbidden"
}

// Inputs is everything the resolution depends on.
type Inputs struct {
	Version Version
	// VersionOrigin says who chose the version.
	VersionOrigin Origin
	Model         Field[ModelInfo]
	// Backend is cache_transceiver_config.backend; None (or omitted) turns
	// disaggregation off. Any string is kept verbatim so invalid literals can be
	// reported as TensorRT-LLM would.
	Backend Field[PyStr]
	// Runtime is cache_transceiver_config.transceiver_runtime; omitted means the
	// version's default.
	Runtime Field[PyStr]
	// Timeout is cache_transceiver_config.kv_transfer_timeout_ms; omitted means 60000.
	Timeout   Field[OptInt]
	Loader    Field[Loader]
	Pipelined Field[bool]
	// KVManager is kv_cache_config.use_kv_cache_manager_v2; omitted means the
	// version's default.
	KVManager Field[KVSetting]
	// Static is what the worker YAML says outside cache_transceiver_config; nil
	// when nothing was read (a pointer, so Inputs stays cheap to copy).
	Static *Static
	// VersionedKeys are version-dependent cache_transceiver_config keys the file sets.
	VersionedKeys []VersionedKey
	// ConfigKeys are every cache_transceiver_config key a file sets, in input
	// order: with an install's field set, it decides which are accepted.
	ConfigKeys []VersionedKey
	Env        Env
	// ConfigErrors are validation failures found by a file reader.
	ConfigErrors []FieldError
	// BounceParams are agent_bounce_params' keys as its validator coerces them
	// (str(k)); nil when the dict is absent, None or empty.
	BounceParams []string
	// NoTransceiverConfig is true when the worker's file has no
	// cache_transceiver_config object at all (no key, or null) and no flag
	// sets one of its fields: llm_args.cache_transceiver_config is None, so
	// there is no transceiver_runtime to hold.
	NoTransceiverConfig bool
}

// DefaultTimeoutMS is kv_transfer_timeout_ms's default.
const DefaultTimeoutMS = 60000

// Verdict is what a step did.
type Verdict string

// The verdicts a step can have.
const (
	Applied  Verdict = "applied"  // the step ran and decided something
	Skipped  Verdict = "skipped"  // the step does not apply; Reason says why not
	Fallback Verdict = "fallback" // the step ran and fell back to the C++ transceiver
	Error    Verdict = "error"    // the step raised; start-up fails here
	Info     Verdict = "info"     // context, decides nothing
)

// Confidence says how sure xcvr is that a step matches upstream, from the spec's
// [V]/[D]/[U] marks.
type Confidence string

// The confidence levels.
const (
	Verified Confidence = "verified"
	Derived  Confidence = "derived"
	Inferred Confidence = "inferred"
)

// Source points at the upstream change and file behind a step.
type Source struct {
	PR   int
	File string
	// Install is the FILE:LINE of an installed tree that decided the step; it
	// replaces PR and File when set.
	Install string
}

// String renders "PR #16164, tensorrt_llm/llmapi/llm_utils.py".
func (s Source) String() string {
	switch {
	case s.Install != "":
		return "install " + s.Install
	case s.PR == 0:
		return s.File
	case s.File == "":
		return "PR #" + strconv.Itoa(s.PR)
	default:
		return "PR #" + strconv.Itoa(s.PR) + ", " + s.File
	}
}

// Step is one rule TensorRT-LLM runs, in order.
type Step struct {
	ID         string
	Phase      Phase
	Title      string
	Verdict    Verdict
	Reason     string
	Detail     string
	Source     Source
	Confidence Confidence
}

// Phase says when a step runs.
type Phase string

// The phases of a worker's start-up.
const (
	PhaseSetup    Phase = "setup"    // version and validation
	PhaseLoad     Phase = "load"     // config-load resolution (ModelLoader)
	PhaseCreation Phase = "creation" // create_kv_cache_transceiver
)

// Level is a log level as TensorRT-LLM's logger prints it.
type Level string

// The log levels TensorRT-LLM uses for these lines.
const (
	LevelInfo    Level = "INFO"
	LevelWarning Level = "WARNING"
	LevelError   Level = "ERROR"
)

// LogLine is one line TensorRT-LLM prints, message byte for byte.
type LogLine struct {
	Level   Level
	Message string
}

// Outcome is the end of the chain.
type Outcome string

// The four outcomes.
const (
	OutcomePython   Outcome = "PYTHON"
	OutcomeCPP      Outcome = "CPP"
	OutcomeDisabled Outcome = "DISABLED"
	OutcomeError    Outcome = "ERROR"
)

// The transceiver classes. ClassPythonNative is the Python transceiver as it
// first came with transceiver_runtime (1.3.0rc8 and rc9): PyNativeCacheTransceiver
// in tensorrt_llm/_torch/disaggregation/native/py_cache_transceiver.py, which
// KvCacheTransceiverV2 (tensorrt_llm/_torch/disaggregation/transceiver.py)
// replaced on main about 2026-03-27 (dayPyTransceiverV2, inferred).
const (
	ClassPython       = "KvCacheTransceiverV2"
	ClassPythonNative = "PyNativeCacheTransceiver"
	ClassCPP          = "BindKvCacheTransceiver"
)

// Result is what the worker ends up with.
type Result struct {
	Outcome Outcome
	// ResolvedRuntime is transceiver_runtime as TensorRT-LLM holds it after the
	// config-load phase; RuntimeKnown is false when validation failed first.
	ResolvedRuntime PyStr
	RuntimeKnown    bool
	// EffectiveBackend is the concrete backend; None when disaggregation is off or
	// validation failed.
	EffectiveBackend PyStr
	// BackendSource says what decided the backend: "config", the env var's name, or
	// "NIXL default".
	BackendSource string
	// Class is the transceiver class built, or "" when none is.
	Class string
	// Error is the exception TensorRT-LLM raises, verbatim, or "".
	Error string
	// FailedStep is the id of the step that raised, or "".
	FailedStep string
	// Hint is a one-line way out of an ERROR outcome, in xcvr's words.
	Hint string
	// KVManager is the KV-cache manager version the worker uses: "V1", "V2", or
	// None when disaggregation is off or start-up failed before it was chosen.
	KVManager PyStr
	// CacheManagerClass is the class get_kv_cache_manager_cls() returns, or "".
	CacheManagerClass string
	// RequestError is what the worker raises for each disaggregated request it is
	// sent when it starts without a transceiver (from #5234 on), or "".
	RequestError string
	// EnvSet is an environment variable TensorRT-LLM itself sets in the worker,
	// as NAME=VALUE (TRTLLM_KVCACHE_POOL_USE_FABRIC_MEMORY=1), or "".
	EnvSet string
}

// Trace is the full resolution: every step in the order TensorRT-LLM runs them, the
// log lines it prints and the result.
type Trace struct {
	Inputs Inputs
	Steps  []Step
	Logs   []LogLine
	Result Result
}

// Step returns the step with the given id, or false.
func (t Trace) Step(id string) (Step, bool) {
	for _, s := range t.Steps {
		if s.ID == id {
			return s, true
		}
	}
	return Step{}, false
}

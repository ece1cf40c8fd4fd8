package resolver

import (
	"slices"
	"strconv"
	"strings"
)

// Rules is one TensorRT-LLM build's resolution rules, as data: the code path it
// runs (its era), the dated changes it has, CacheTransceiverConfig as it declares
// it, the DEFAULT backend's selectors, the texts it logs and raises, and (for an
// install) the architectures it registers and what their hooks return. Each rule
// carries its evidence: the PR or upstream file for xcvr's model of a release, or
// the install's FILE:LINE.
//
// Resolve applies the rules of Inputs.Version and never rewrites its own output:
// a step's source and confidence are those of the rule it applied, and a message
// is the template the rules hold, filled in.
//
// There are two ways to get a Rules value:
//
//   - ReleaseRules(v): xcvr's model of a release tag or main@DAY, made from the
//     release table (KnownVersions: the main day the build behaves like) and the
//     dated change list (Changes). Adding a release is adding data: a row in the
//     release table, and, where the release differs from its neighbours in
//     something new, a Change with its merge day and the rule that reads it (a
//     wording in releaseTextRules or a default in releaseRuntimeDefaults, each
//     chosen by the code path; a field in releaseFields, a validator in
//     releaseValidators, a selector table in selectorsAt, all read from the
//     rules' own dated changes). A step that branches on a change asks the
//     rules for it (Change) and cites the PR, or the install line, it carries.
//   - InstallRules(in, v): an installed tree's rules, from what internal/install
//     read in its own code: the placed release v's rules with everything the
//     install shows put in their place, each citing its FILE:LINE.
//
// A caller that resolves many inputs of one version makes its rules once
// (v.Rules = ReleaseRules(v)); otherwise Resolve makes them per resolution.
//
// CompareRules lists where two Rules values differ (xcvr inspect).
type Rules struct {
	// Build is the version as it names itself: "1.3.0rc22", "main@2026-08-20",
	// or an install's version string.
	Build string
	// Main is the main-branch day the build behaves like. A change that Changes
	// does not settle is present when it was merged by Main.
	Main Day
	// Version is the evidence of the build's version and placement.
	Version Evidence

	// Era is the code path, 0..3 (EraSummary).
	Era         int
	EraEvidence Evidence
	// CodePath is the era's rules that steps branch on (PathIDs), each with
	// its evidence: a step reads these, never Era. In a release's rules it is
	// held in the value itself (a copy of the struct shares it: clone it
	// before changing a copy's).
	CodePath []PathRule
	codePath [numPathRules]PathRule // CodePath's storage in a release's rules

	// Changes are the dated changes whose presence the build's code settles,
	// whatever its day says (an install's fingerprints); every other change of
	// Changes() is present when it was merged by Main (see Has).
	Changes []ChangeRule

	// RuntimeDefault is what an unset transceiver_runtime holds;
	// RuntimeDefaultRead is set when an install's code says so.
	RuntimeDefault         PyStr
	RuntimeDefaultRead     bool
	RuntimeDefaultEvidence Evidence

	// Fields is CacheTransceiverConfig in declaration order; FieldsRead is
	// false when an install's class was not read (then xcvr's model of the
	// placed release stands in, and Fields is that model).
	Fields         []FieldSpec
	FieldsRead     bool
	FieldsEvidence Evidence
	// Validators are CacheTransceiverConfig's validator methods, each with the
	// messages it raises: xcvr's model of the release's (releaseValidators),
	// or, when ValidatorsRead, the ones the install's class declares (read
	// with Fields). The validate step applies every message it can check
	// (ValidatorModelled) and names the validators it cannot as not checked.
	Validators     []Validator
	ValidatorsRead bool

	// Selectors is the DEFAULT backend's TRTLLM_USE_*_KVCACHE table in
	// priority order; DefaultBackend is what DEFAULT becomes when no selector
	// is exactly "1".
	Selectors         []BackendSelector
	SelectorsRead     bool
	DefaultBackend    string
	SelectorsEvidence Evidence
	// SelectorsTruthy is #5234's own form (1.0.0rc4 to about 2025-08-14):
	// any non-empty selector value counts, and no warning is logged.
	SelectorsTruthy bool

	// Texts are the message templates whose wording is the build's own: in a
	// release's rules, the wordings that differ between builds
	// (releaseTextRules, chosen by the code path, each with its evidence); in
	// an install's, also every message its code words (citing FILE:LINE).
	// Templates have {} for a value and {!r} for its repr; every other
	// message of TextIDs has the one wording xcvr knows (see Text).
	Texts []Text
	texts [numTextRules]Text // Texts' storage in a release's rules

	// Models are the architectures the build registers, with what their
	// hooks return: an install's, read from its code (package models consults
	// these first), or a release's from xcvr's catalog
	// (models.Catalog.ReleaseRules; nil in ReleaseRules, which cannot see the
	// catalog). ModelOrder is the order to compare them in (the catalog's).
	Models     map[string]InstallModel
	ModelOrder []string

	// Steps is the evidence of the rule a step applies where it is not one of
	// the fields above (an install's line for the auto resolver, the
	// pipelined-transfer check, …), by step id.
	Steps map[string]Evidence

	// FromInstall is set for rules read from an installed tree.
	FromInstall bool
}

// Evidence is where a rule comes from and how sure xcvr is of it. A rule of
// xcvr's model leaves Source empty when the step that applies it names its own
// upstream file and PR; a rule read from an install has Source.Install set.
type Evidence struct {
	Source     Source
	Confidence Confidence
}

// read reports whether the evidence is a line of an installed tree.
func (e Evidence) read() bool { return e.Source.Install != "" }

// ChangeRule is one dated change and whether the build has it.
type ChangeRule struct {
	Change
	Has bool
	// Settled is set when an install's code shows the change: Has is then what
	// the code says, not what the day implies.
	Settled bool
	// Evidence is the change's own (its merge day's confidence) for a release;
	// the install's FILE:LINE when the install shows the change.
	Evidence Evidence
}

// Text is one message template.
type Text struct {
	ID       string
	Template string
	Evidence Evidence
	// Written, for a text read from an install, is the message as its code
	// writes it (each field as {expr}).
	Written string
}

// Has reports whether the build contains the change merged on day d: what the
// rules say of a change of that day, else whether d is on or before Main.
func (rs *Rules) Has(d Day) bool {
	for i := range rs.Changes {
		if rs.Changes[i].Merged == d && rs.Changes[i].Settled {
			return rs.Changes[i].Has
		}
	}
	return rs.Main >= d
}

// Change returns the dated change of PR pr as the build holds it: whether the
// build has it (as Has says of its day), and its evidence: the install's
// FILE:LINE where the install's code settles the change, else the PR with its
// merge day's confidence. A step that branches on a change asks the rules for
// it and cites what the rule carries. A PR that Changes does not list is a
// change the build does not have.
func (rs *Rules) Change(pr int) ChangeRule {
	for _, c := range Changes() {
		if c.PR == pr {
			return rs.changeRule(c)
		}
	}
	return ChangeRule{Change: Change{PR: pr}}
}

// changeRule is change c as the build holds it (Change).
func (rs *Rules) changeRule(c Change) ChangeRule {
	for _, x := range rs.Changes {
		if x.Merged == c.Merged && x.Settled {
			return ChangeRule{Change: c, Has: x.Has, Settled: true, Evidence: x.Evidence}
		}
	}
	return ChangeRule{Change: c, Has: rs.Main >= c.Merged, Evidence: Evidence{Source{PR: c.PR}, c.Confidence}}
}

// Text returns the template of message id ("" when the build has no such
// message).
func (rs *Rules) Text(id string) Text { return rs.text(id) }

// text returns the template of message id.
func (rs *Rules) text(id string) Text {
	for _, t := range rs.Texts {
		if t.ID == id {
			return t
		}
	}
	if tmpl, c := inferredText(id); c != "" {
		return Text{ID: id, Template: tmpl, Evidence: Evidence{Confidence: c}}
	}
	return Text{ID: id, Template: builtinText(id)}
}

// setText puts t in place of the rules' wording of message t.ID.
func (rs *Rules) setText(t Text) {
	for i := range rs.Texts {
		if rs.Texts[i].ID == t.ID {
			rs.Texts[i] = t
			return
		}
	}
	rs.Texts = append(rs.Texts, t)
}

// runtimeDefaultRule is a value an unset transceiver_runtime holds, with its
// evidence, in the builds whose code path has rule when ("" for any).
type runtimeDefaultRule struct {
	when  string
	value PyStr
	ev    Evidence
}

// releaseRuntimeDefaults are transceiver_runtime's defaults, the first one a
// build's code path holds applying.
func releaseRuntimeDefaults() [3]runtimeDefaultRule {
	return [3]runtimeDefaultRule{
		// 1.4: the docs of 1.4.0rc1 and rc4 show transceiver_runtime =
		// 'PYTHON' [V]; that the hook is then not consulted is inferred.
		{PathDefaultPython, Str("PYTHON"), Evidence{Source{PR: 17495}, Inferred}},
		// #16164 makes 'auto' the default [V: the change list's #16164].
		{PathConfigLoad, Str("auto"), Evidence{Source{PR: 16164}, Verified}},
		// The field as it came (1.3.0rc8): default None, the C++ transceiver [V].
		{"", PyStr{}, Evidence{Confidence: Verified}},
	}
}

// textRule is a wording of a message that differs between builds, with its
// evidence, and the code-path rules under which a build words it so: when on
// ("" for any) and unless off ("" for none); and the dated changes that bound
// it: from the build holding since (0 for any) until it holds until (0 for
// none).
type textRule struct {
	Text
	when, unless string
	since, until Day
}

// holds reports whether build rs words the message as t does.
func (t textRule) holds(rs *Rules) bool {
	return (t.when == "" || rs.On(t.when)) && (t.unless == "" || !rs.On(t.unless)) &&
		(t.since == 0 || rs.Has(t.since)) && (t.until == 0 || !rs.Has(t.until))
}

// numTextRules is how many messages releaseTextRules words differently.
const numTextRules = 4

// releaseTextRules are the messages whose wording differs between builds; a
// build takes the first wording of each message that its code path holds. A
// release that words a message differently adds its wording here, with the
// rule that selects it and its evidence.
func releaseTextRules() [7]textRule {
	era1 := Source{PR: 16164, File: fileOldCreate + "@00620eb"}
	era2 := Source{PR: 18134, File: fileNewCreate + "@0b42cea"}
	return [7]textRule{
		// The line create_kv_cache_transceiver logs for 'PYTHON' names the
		// class it builds: PyNativeCacheTransceiver before KvCacheTransceiverV2
		// replaced it [V bdubayah/TensorRT-LLM@aa0117b5
		// tensorrt_llm/_torch/pyexecutor/kv_cache_transceiver.py, `logger.info("Using
		// PyNativeCacheTransceiver")`, a copy of main about 2026-03-17..20; the
		// day it ends is inferred, see dayPyTransceiverV2]. Later builds log
		// builtinText's "Using KvCacheTransceiverV2".
		{Text{ID: TextUsingV2, Template: "Using " + ClassPythonNative, Evidence: Evidence{Source{File: fileOldCreate + "@aa0117b5 (bdubayah/TensorRT-LLM)"}, Derived}}, "", "", dayFieldExists, dayPyTransceiverV2},
		// create_kv_cache_transceiver's PYTHON-needs-NIXL check: from #16164
		// DEFAULT is resolved before it and the text says "the NIXL backend"
		// [V era 1 and 2 copies]; before, DEFAULT passed and the text says so
		// [V pre-#16164 copies, spec 2.0].
		{Text{ID: TextPythonNIXLCreate, Template: "Python transceiver currently only supports the NIXL backend, got {}" + pythonNIXLTail, Evidence: Evidence{era1, Verified}}, PathConfigLoad, "", 0, 0},
		{Text{ID: TextPythonNIXLCreate, Template: "Python transceiver currently only supports NIXL or DEFAULT backend, got {}" + pythonNIXLTail, Evidence: Evidence{Source{File: fileOldCreate}, Verified}}, "", "", 0, 0},
		// The Mamba guards' wording of era 1 names NIXL and the
		// TLLM_MAMBA_MANAGER_PREFERENCE=V2 way out [V @00620eb]; from #18134's
		// code on, the V2 manager is chosen with use_kv_cache_manager_v2 [V
		// @0b42cea; 1.4 takes that copy's wording].
		{Text{ID: TextMambaMixed, Template: "MixedMambaHybridCacheManager requires the Python transceiver runtime with the NIXL backend in disaggregated serving.", Evidence: Evidence{era1, Verified}}, PathConfigLoad, PathAutoPython, 0, 0},
		{Text{ID: TextMambaMixed, Template: "MixedMambaHybridCacheManager requires the Python transceiver runtime in disaggregated serving.", Evidence: Evidence{era2, Verified}}, "", "", 0, 0},
		{Text{ID: TextMambaCpp, Template: "transceiver_runtime='PYTHON' cannot drive CppMambaHybridCacheManager (C++ pool backed). Use transceiver_runtime='CPP', or select the V2 manager (TLLM_MAMBA_MANAGER_PREFERENCE=V2).", Evidence: Evidence{era1, Verified}}, PathConfigLoad, PathAutoPython, 0, 0},
		{Text{ID: TextMambaCpp, Template: "transceiver_runtime='PYTHON' cannot drive CppMambaHybridCacheManager (C++ pool backed). Use transceiver_runtime='CPP', or select the V2 manager with use_kv_cache_manager_v2=True.", Evidence: Evidence{era2, Verified}}, "", "", 0, 0},
	}
}

// field returns the build's declaration of a CacheTransceiverConfig field.
func (rs *Rules) field(name string) (FieldSpec, bool) {
	for _, f := range rs.Fields {
		if f.Name == name {
			return f, true
		}
	}
	return FieldSpec{}, false
}

// fieldLiterals is the Literal choices of a field ("backend",
// "transceiver_runtime") in the build's rules: the install's annotation where
// it was read as a Literal, else xcvr's model of the build's.
func (rs *Rules) fieldLiterals(name string) []string {
	if f, ok := rs.field(name); ok && f.Kind == "literal" {
		return f.Literals
	}
	f, _ := (&Rules{Fields: releaseFields(rs)}).field(name)
	return f.Literals
}

// ReleaseRules is xcvr's model of the build v names (a release tag or
// main@DAY): its era and dated changes from the main day it behaves like, its
// field set, selectors and message texts of that day. Rules already attached to
// v (an install's) are returned as they are.
func ReleaseRules(v Version) *Rules {
	if v.Rules != nil {
		return v.Rules
	}
	conf := v.Confidence
	if conf == "" {
		conf = Derived
	}
	rs := &Rules{
		Build:       v.Name,
		Main:        v.Main,
		Version:     Evidence{Source{PR: eraPR(v.Era)}, conf},
		Era:         v.Era,
		EraEvidence: Evidence{Source{PR: eraPR(v.Era)}, conf},
	}
	rs.CodePath = releasePathInto(&rs.codePath, v.Era)
	rs.Selectors, rs.DefaultBackend = selectorsAt(rs)
	rs.SelectorsTruthy = selectorsTruthyAt(rs)
	// The runtime default and the wordings that differ between builds are
	// rules chosen by the code path, each with its own evidence.
	for _, d := range releaseRuntimeDefaults() {
		if d.when == "" || rs.On(d.when) {
			rs.RuntimeDefault, rs.RuntimeDefaultEvidence = d.value, d.ev
			break
		}
	}
	n := 0
	for _, t := range releaseTextRules() {
		if !t.holds(rs) || slices.ContainsFunc(rs.texts[:n], func(x Text) bool { return x.ID == t.ID }) {
			continue
		}
		rs.texts[n] = t.Text
		n++
	}
	rs.Texts = rs.texts[:n:n]
	// A refusal by era 0's CacheTransceiverConfig is derived; later ones are
	// verified (llm_args.py of their time).
	rs.FieldsEvidence = Evidence{Confidence: Verified}
	if v.Era == 0 {
		rs.FieldsEvidence.Confidence = Derived
	}
	rs.Fields = releaseFields(rs)
	rs.Validators = releaseValidators(rs.Main)
	return rs
}

// releaseFields is CacheTransceiverConfig as xcvr models it for a build, in
// declaration order: the newest declaration of each field whose day the
// build's rules hold (cacheFieldDates, with the evidence of each), the
// backend names of its day and the transceiver_runtime choices of its code
// path ('auto' from config-load resolution on).
func releaseFields(rs *Rules) []FieldSpec {
	rt := []string{"CPP", "PYTHON", "auto"}
	if !rs.On(PathConfigLoad) {
		rt = rt[:2]
	}
	out := make([]FieldSpec, 0, 10)
	for _, d := range cacheFieldDates() {
		if !rs.Has(d.since) || d.until != 0 && rs.Has(d.until) {
			continue
		}
		f := d.spec
		switch f.Name {
		case "backend":
			f.Literals = backendLiteralsAt(rs)
		case "transceiver_runtime":
			f.Literals = rt
		}
		if n := len(out); n > 0 && out[n-1].Name == f.Name {
			out[n-1] = f // a newer declaration of the same field
			continue
		}
		out = append(out, f)
	}
	return out
}

// The messages whose wording is a rule (an install may word them differently).
const (
	TextFallbackBackend  = "fallback-backend"
	TextFallbackReason   = "fallback-reason"
	TextResolvedAuto     = "resolved-auto"
	TextHookInvalid      = "hook-invalid"
	TextPythonNIXLEarly  = "python-nixl-config"
	TextPythonNIXLCreate = "python-nixl-create"
	TextPipelinedBackend = "pipelined-backend"
	TextPipelinedCPP     = "pipelined-cpp"
	TextPipelinedAuto    = "pipelined-auto"
	TextEnvSelector      = "env-selector"
	TextMPIDeprecated    = "mpi-deprecated"
	TextUCXHint          = "ucx-hint"
	TextUsingV2          = "using-v2"
	TextDisabled         = "disabled"
	TextV2Timeout        = "v2-timeout"
	TextInflightWarning  = "inflight-cancel-warning"
	TextInflightAmbig    = "inflight-cancel-ambiguous"
	TextInflightUnsupp   = "inflight-cancel-unsupported"
	TextKimiK3           = "kimi-k3-requires-python"
	TextMambaMixed       = "mamba-mixed-needs-python"
	TextMambaCpp         = "mamba-cpp-not-python"
	TextPyMambaReuse     = "py-mamba-block-reuse"
	TextFabricMemory     = "fabric-memory-default"

	// Texts no install reader looks for yet (xcvr's wording is upstream's,
	// read in _util.py, llm_utils.py and transceiver.py at the commits the
	// steps cite).
	TextKVFallbackV1        = "kv-v2-fallback-v1"
	TextKVResolvedAuto      = "kv-resolved-auto"
	TextHybridV2Route       = "hybrid-v2-route"
	TextHybridV1Reuse       = "hybrid-v1-reuse"
	TextMambaPrefConflict   = "mamba-preference-conflicts-v2"
	TextMambaPrefUnknownV2  = "mamba-preference-unknown-v2"
	TextMambaPrefUnknown    = "mamba-preference-unknown"
	TextMambaPrefMixed      = "mamba-preference-mixed"
	TextMambaPrefCPP        = "mamba-preference-cpp"
	TextMambaPythonRoute    = "mamba-python-route"
	TextMambaPythonDetected = "mamba-python-detected"
	TextPyMambaForces       = "py-mamba-forces-mixed"
	TextPipelinedBlockers   = "pipelined-blockers"
)

// textArity is how many values the resolver supplies to each message, in
// order; a template may use fewer (a literal class name) but not more.
func textArity(id string) int {
	switch id {
	case TextMPIDeprecated, TextUCXHint, TextUsingV2, TextDisabled, TextV2Timeout,
		TextPipelinedCPP, TextPipelinedAuto, TextMambaCpp, TextPyMambaReuse,
		TextHybridV2Route, TextHybridV1Reuse, TextMambaPrefMixed, TextMambaPrefCPP, TextMambaPythonRoute,
		TextMambaPythonDetected, TextPyMambaForces:
		return 0
	case TextKVFallbackV1, TextKVResolvedAuto:
		return 2
	case TextResolvedAuto, TextHookInvalid, TextInflightAmbig, TextKimiK3:
		return 2
	case TextInflightUnsupp:
		return 8
	case TextV2NoneDivision, TextKVV2TwoModel, TextBindKVV2, TextMambaV2Python:
		return 0
	}
	return 1
}

const pythonNIXLTail = ". Please use transceiver_runtime='CPP' for MPI, UCX, or MOONCAKE backends."

// TextIDs lists every message whose wording is a rule.
func TextIDs() []string {
	return []string{TextFallbackBackend, TextFallbackReason, TextResolvedAuto, TextHookInvalid, TextPythonNIXLEarly,
		TextPythonNIXLCreate, TextPipelinedBackend, TextPipelinedCPP, TextPipelinedAuto, TextEnvSelector,
		TextMPIDeprecated, TextUCXHint, TextUsingV2, TextDisabled, TextV2Timeout, TextInflightWarning,
		TextInflightAmbig, TextInflightUnsupp, TextKimiK3, TextMambaMixed, TextMambaCpp, TextPyMambaReuse, TextFabricMemory,
		TextKVFallbackV1, TextKVResolvedAuto, TextHybridV2Route, TextHybridV1Reuse, TextMambaPrefConflict, TextMambaPrefUnknownV2,
		TextMambaPrefUnknown, TextMambaPrefMixed, TextMambaPrefCPP, TextMambaPythonRoute, TextMambaPythonDetected,
		TextPyMambaForces, TextPipelinedBlockers}
}

// builtinText is the wording of message id where every build xcvr models words
// it alike ("" for the messages of releaseTextRules and for unknown ids).
func builtinText(id string) string {
	switch id {
	case TextFallbackBackend:
		return "Model prefers the Python transceiver, but backend {} does not support it; falling back to the C++ transceiver."
	case TextFallbackReason:
		return "Falling back to the C++ transceiver: {}."
	case TextResolvedAuto:
		return "Resolved transceiver_runtime='auto' to {!r} for {}."
	case TextHookInvalid:
		return "{}.get_preferred_transceiver_runtime() must return 'CPP', 'PYTHON', or None, got {!r}."
	case TextPythonNIXLEarly:
		return "Python transceiver currently only supports NIXL backend, got {}" + pythonNIXLTail
	case TextPipelinedBackend:
		return "enable_pipelined_transfer is set but backend '{}' requires the C++ transceiver, which does not support pipelined transfer. Use NIXL backend to enable pipelined transfer."
	case TextPipelinedCPP:
		return "enable_pipelined_transfer is set but transceiver_runtime='CPP' explicitly disables Python auto-selection. Use transceiver_runtime='PYTHON' to enable pipelined transfer."
	case TextPipelinedAuto:
		return "enable_pipelined_transfer is set; auto-selecting the Python transceiver instead of the C++ transceiver to enable pipelined KV cache transfer. Set transceiver_runtime='CPP' to disable this auto-selection."
	case TextEnvSelector:
		return "{}=1 is set, but it's recommended to set cache_transceiver_config.backend in yaml config"
	case TextMPIDeprecated:
		return "MPI CacheTransceiver is deprecated, UCX or NIXL is recommended"
	case TextUCXHint:
		return "Using UCX kv-cache transceiver. If your devices are not in the same domain, please consider setting UCX_CUDA_IPC_ENABLE_MNNVL=n, UCX_RNDV_SCHEME=put_zcopy and/or unset UCX_NET_DEVICES upon server hangs or lower-than-expected performance."
	case TextUsingV2:
		return "Using KvCacheTransceiverV2"
	case TextDisabled:
		return "cache_transceiver is disabled"
	case TextV2Timeout:
		return "KvCacheTransceiverV2 requires a finite kv_transfer_timeout_ms"
	case TextInflightWarning:
		return "{}=1: disagg KV transfer in-flight cancellation was requested. It is active only for cache transceivers that advertise support."
	case TextInflightAmbig:
		return "{}=1 requires an unambiguous cache transceiver backend, but multiple legacy backend selectors are enabled: {}."
	case TextInflightUnsupp:
		return "{}=1 is experimental and currently supported only with transceiver_runtime='CPP', backend='NIXL', the UCX NIXL backend, a finite kv_transfer_timeout_ms, asynchronous non-layer-wise transfer, and zero-copy disabled; got transceiver_runtime={!r}, backend={!r}, resolved_nixl_backend={!r}, kv_transfer_timeout_ms={!r}, disable_transfer_overlap={!r}, layerwise={!r}, try_zcopy={!r}."
	case TextKimiK3:
		return "Kimi K3 disaggregated serving requires the Python transceiver: set cache_transceiver_config backend='NIXL' with transceiver_runtime='PYTHON' (or leave transceiver_runtime='auto' with the NIXL backend). The C++ transceiver cannot transfer KDA recurrent state (got backend={!r}, transceiver_runtime={!r})."
	case TextPyMambaReuse:
		return "TRTLLM_USE_PY_MAMBA=1 forces MixedMambaHybridCacheManager, which does not support block reuse. Disable block reuse or unset TRTLLM_USE_PY_MAMBA to use CppMambaHybridCacheManager."
	case TextFabricMemory:
		return "Python cache transceiver with C++ KV cache manager detected; defaulting TRTLLM_KVCACHE_POOL_USE_FABRIC_MEMORY=1 (set it to 0 explicitly to disable)"
	case TextKVFallbackV1:
		return "KV cache manager V2 is the model preference, but disaggregated serving uses transceiver_runtime={!r} with backend={!r}; falling back to V1."
	case TextKVResolvedAuto:
		return "Resolved use_kv_cache_manager_v2='auto' to {} for {}"
	case TextHybridV2Route:
		return "KV cache manager V2 for hybrid Mamba disaggregated serving requires transceiver_runtime='PYTHON' with backend='NIXL'."
	case TextHybridV1Reuse:
		return "Hybrid Mamba disaggregated serving with block reuse and transceiver_runtime='PYTHON' requires use_kv_cache_manager_v2=True."
	case TextMambaPrefConflict:
		return "TLLM_MAMBA_MANAGER_PREFERENCE={} conflicts with explicit use_kv_cache_manager_v2=True."
	case TextMambaPrefUnknownV2:
		return "Unrecognized value for TLLM_MAMBA_MANAGER_PREFERENCE: {}. Expected 'CPP' or 'MIXED'. Using the configured KV cache manager default."
	case TextMambaPrefUnknown:
		return "Unrecognized value for TLLM_MAMBA_MANAGER_PREFERENCE: {}. Expected 'CPP' or 'MIXED'. Using default CppMambaHybridCacheManager."
	case TextMambaPrefMixed:
		return "Environment variable TLLM_MAMBA_MANAGER_PREFERENCE=MIXED overrides the default Mamba cache manager to MixedMambaHybridCacheManager. This may lead to increased memory usage due to lack of block reuse, but can be necessary for disaggregated setups or to avoid potential issues with the C++ manager. Set TLLM_MAMBA_MANAGER_PREFERENCE=CPP to use the CppMambaHybridCacheManager instead, which is the default for non-disaggregated setups without block reuse explicitly disabled."
	case TextMambaPrefCPP:
		return "Environment variable TLLM_MAMBA_MANAGER_PREFERENCE=CPP overrides the default Mamba cache manager to CppMambaHybridCacheManager. This enables block reuse and can reduce memory usage, but may not be compatible with disaggregated setups. Set TLLM_MAMBA_MANAGER_PREFERENCE=MIXED to use the MixedMambaHybridCacheManager instead if you encounter issues with the C++ manager or are running in a disaggregated environment."
	case TextMambaPythonRoute:
		return "Python transceiver detected; using MixedMambaHybridCacheManager for hybrid model"
	case TextMambaPythonDetected:
		return "Python transceiver detected; using MixedMambaHybridCacheManager for hybrid mamba model"
	case TextPyMambaForces:
		return "Using MixedMambaHybridCacheManager for hybrid mamba model"
	case TextPipelinedBlockers:
		return "enable_pipelined_transfer is not supported with {}"
	}
	return ""
}

// pyVal is a value a message is filled with: None, a str, or a literal written
// as Python prints it either way (an int, a list).
type pyVal struct {
	s    string
	kind byte // 'n' None, 's' str, 'l' literal
}

func vStr(s string) pyVal { return pyVal{s, 's'} }
func vLit(s string) pyVal { return pyVal{s, 'l'} }
func vPy(p PyStr) pyVal {
	if !p.Valid {
		return pyVal{kind: 'n'}
	}
	return vStr(p.S)
}

// format is the value as an f-string field prints it: {!r} its repr, {} its str.
func (v pyVal) format(repr bool) string {
	switch {
	case v.kind == 'n':
		return "None"
	case repr && v.kind == 's':
		return pyRepr(v.s)
	}
	return v.s
}

// fill renders a template with vals in order; a field with no value left is
// written as it stands.
func fill(tmpl string, vals []pyVal) string {
	var b strings.Builder
	k := 0
	for {
		i := strings.IndexByte(tmpl, '{')
		if i < 0 {
			break
		}
		b.WriteString(tmpl[:i])
		rest := tmpl[i:]
		var repr bool
		switch {
		case strings.HasPrefix(rest, "{!r}"):
			repr = true
			tmpl = rest[4:]
		case strings.HasPrefix(rest, "{}"):
			tmpl = rest[2:]
		default:
			b.WriteByte('{')
			tmpl = rest[1:]
			continue
		}
		if k < len(vals) {
			b.WriteString(vals[k].format(repr))
			k++
		} else if repr {
			b.WriteString("{!r}")
		} else {
			b.WriteString("{}")
		}
	}
	b.WriteString(tmpl)
	return b.String()
}

// text renders message id as the build words it.
func (r *run) text(id string, vals ...pyVal) string {
	return fill(r.rules.text(id).Template, vals)
}

// cite is a step's source and confidence when it applies a rule with evidence
// ev: a rule read from an install names its FILE:LINE and is verified from the
// install, except that an inferred step stays inferred (the install shows the
// rule, not what xcvr guessed beside it, such as an exception's text); a rule of
// xcvr's model keeps the file and PR the step names.
func cite(ev Evidence, src Source, conf Confidence) (Source, Confidence) {
	if !ev.read() {
		return src, conf
	}
	if conf == Inferred {
		return ev.Source, Inferred
	}
	return ev.Source, VerifiedInstall
}

// settle is cite for a step whose one guess is the rule itself (the version,
// the runtime default, the auto resolver, the registration): the install's line
// settles it.
func settle(ev Evidence, src Source, conf Confidence) (Source, Confidence) {
	if !ev.read() {
		return src, conf
	}
	return ev.Source, VerifiedInstall
}

// hasLine reports whether evidence is FILE:LINE (not a file named alone).
func hasLine(ev string) bool {
	i := strings.LastIndexByte(ev, ':')
	if i < 0 || i == len(ev)-1 {
		return false
	}
	_, err := strconv.Atoi(ev[i+1:])
	return err == nil
}

// RuleDifference is one rule two builds hold differently.
type RuleDifference struct {
	What string
	// A and B are the rule as each build holds it, in words.
	A, B string
	// Evidence is B's evidence (an install's FILE:LINE).
	Evidence string
}

// CompareRules lists the rules b holds differently from a, in a fixed order:
// the era, the dated changes (other than those that make the era), the runtime
// default, the DEFAULT backend's selectors, the CacheTransceiverConfig fields
// (enable_pipelined_transfer is its change), its validators and the message
// texts. When b was
// read from an install, only what its code shows is compared (what it does not
// show is a's model anyway): xcvr inspect compares xcvr's model of a release
// (a) with an install of it (b).
func CompareRules(a, b *Rules) []RuleDifference {
	var out []RuleDifference
	if a.Era != b.Era {
		out = append(out, RuleDifference{"era", strconv.Itoa(a.Era), strconv.Itoa(b.Era), b.EraEvidence.Source.Install})
	}
	changes := b.Changes
	if !b.FromInstall {
		for _, c := range Changes() {
			changes = append(changes, ChangeRule{Change: c, Has: b.Has(c.Merged)})
		}
	}
	for _, c := range changes {
		if c.Merged == day16164 || c.Merged == day18134 || c.Merged == day17495 {
			continue
		}
		if x := a.Has(c.Merged); x != c.Has {
			out = append(out, RuleDifference{changeName(c), presence(x), presence(c.Has), c.Evidence.Source.Install})
		}
	}
	out = append(out, comparePath(a, b)...)
	if (b.RuntimeDefaultRead || !b.FromInstall) && a.RuntimeDefault != b.RuntimeDefault {
		out = append(out, RuleDifference{"transceiver_runtime default", a.RuntimeDefault.String(), b.RuntimeDefault.String(), b.RuntimeDefaultEvidence.Source.Install})
	}
	if (b.SelectorsRead || !b.FromInstall) && (selectorOrder(a.Selectors) != selectorOrder(b.Selectors) || a.DefaultBackend != b.DefaultBackend || a.SelectorsTruthy != b.SelectorsTruthy) {
		out = append(out, RuleDifference{"DEFAULT backend selectors", selectorRule(a), selectorRule(b), b.SelectorsEvidence.Source.Install})
	}
	if b.FieldsRead || !b.FromInstall {
		out = append(out, compareFields(a, b)...)
	}
	if !b.FromInstall || b.ValidatorsRead && len(b.Validators) > 0 {
		out = append(out, compareValidators(a, b)...)
	}
	out = append(out, compareModels(a, b)...)
	for _, id := range TextIDs() {
		x, t := a.text(id), b.text(id)
		if (t.Evidence.read() || !b.FromInstall) && !SameText(id, x.Template, t.Template) {
			written := t.Written
			if written == "" {
				written = t.Template
			}
			out = append(out, RuleDifference{"text " + id, x.Template, written, t.Evidence.Source.Install})
		}
	}
	return out
}

func presence(b bool) string {
	if b {
		return "present"
	}
	return "absent"
}

// changeName names a change by the install fingerprint that shows it, else its
// PR, else what it did.
func changeName(c ChangeRule) string {
	switch {
	case changeFeature(c.Merged) != "":
		return changeFeature(c.Merged)
	case c.PR != 0:
		return "#" + strconv.Itoa(c.PR)
	}
	return c.Summary
}

// selectorOrder renders a selector table: "TRTLLM_USE_NIXL_KVCACHE=NIXL > …".
// selectorRule is selectorOrder with how a value counts: #5234's own form
// takes any non-empty value, later ones only "1".
func selectorRule(rs *Rules) string {
	s := selectorOrder(rs.Selectors)
	if rs.SelectorsTruthy {
		s += " (any non-empty value)"
	}
	return s
}

func selectorOrder(sels []BackendSelector) string {
	parts := make([]string, len(sels))
	for i, s := range sels {
		parts[i] = s.Env + "=" + s.Backend
	}
	return strings.Join(parts, " > ")
}

// compareFields lists fields only one build declares, and types, Literal choices
// or bounds that differ (enable_pipelined_transfer is reported as its change).
func compareFields(a, b *Rules) []RuleDifference {
	var out []RuleDifference
	for _, f := range b.Fields {
		if f.Name == "enable_pipelined_transfer" {
			continue
		}
		x, ok := a.field(f.Name)
		switch {
		case !ok:
			out = append(out, RuleDifference{"field " + f.Name, "not a field in " + a.Build, f.Describe(), f.Evidence})
		case f.Kind != "" && !x.same(f):
			out = append(out, RuleDifference{"field " + f.Name, x.Describe(), f.Describe(), f.Evidence})
		}
	}
	for _, x := range a.Fields {
		if _, ok := b.field(x.Name); !ok && x.Name != "enable_pipelined_transfer" {
			out = append(out, RuleDifference{"field " + x.Name, x.Describe(), "not a field (an extra input)", b.FieldsEvidence.Source.Install})
		}
	}
	return out
}

// SameText reports whether two templates of message id say the same thing: the
// same text once each is filled with the values the resolver has for it, where a
// field's repr and str count as one (a literal class name and a field that names
// it are the same message).
func SameText(id, a, b string) bool {
	vals := make([]pyVal, textArity(id))
	for i := range vals {
		vals[i] = vLit("\x00" + strconv.Itoa(i) + "\x00")
	}
	switch id {
	case TextMambaMixed:
		vals[0] = vLit(clsMambaMixed)
	case TextFabricMemory:
		vals[0] = vLit(envFabric)
	}
	return fill(a, vals) == fill(b, vals)
}

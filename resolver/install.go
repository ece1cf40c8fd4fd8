package resolver

import (
	"slices"
	"strconv"
	"strings"
)

// Install is what was read from an installed TensorRT-LLM tree (its own source,
// never executed). The internal/install package fills it in; the resolver only
// consults it: a rule the install decides wins over xcvr's dated model of
// upstream, and the step that used it names the install's FILE:LINE.
type Install struct {
	// Path is the tensorrt_llm package directory.
	Path string
	// Version is the version string as the install writes it; VersionEvidence
	// is its FILE:LINE (tensorrt_llm/version.py:17).
	Version         string
	VersionEvidence string
	// Era is the rule set the fingerprints show (0..3), EraEvidence the
	// FILE:LINE that decided it.
	Era         int
	EraEvidence string
	// Features maps a feature id (FeatureAutoResolver, ...) to what was found.
	Features map[string]InstallFact
	// Texts maps a message id (TextPythonNIXL, ...) to the install's wording.
	Texts map[string]InstallText
	// Models maps an architecture to the install's registration and hook.
	Models map[string]InstallModel
	// Fields is CacheTransceiverConfig as the install declares it, in order;
	// nil when llm_args.py or the class was not read (xcvr's model applies).
	// FieldsEvidence is the class's FILE:LINE.
	Fields         []InstallField
	FieldsEvidence string
	// BackendOrder is the DEFAULT backend's selector table in the install's
	// priority order (its evidence is Features["backend_env_priority"]); nil
	// when not read, and xcvr's order applies.
	BackendOrder []BackendSelector
}

// InstallFact is one feature's presence with the line that shows it.
type InstallFact struct {
	Present  bool
	Evidence string
}

// InstallText is a log or exception message as the installed code writes it: the
// literal text with its f-string fields in order.
type InstallText struct {
	Parts    []TextPart
	Evidence string
}

// TextPart is literal text, or a field filled from the resolution (Repr when the
// f-string field says !r).
type TextPart struct {
	Lit   string
	Field bool
	Repr  bool
}

// InstallModel is an architecture the install registers.
type InstallModel struct {
	Class string
	// Evidence is the FILE:LINE of the registration; HookEvidence that of the
	// get_preferred_transceiver_runtime() that decides (empty when none does).
	Evidence     string
	HookEvidence string
	// Preference is what the hook returns; Undetermined, when not empty, says
	// why the code alone does not tell (and Preference is then meaningless).
	Preference   PyStr
	Undetermined string
	// Why says how the hook was found (inheritance, delegation).
	Why string
}

// OriginInstall marks a value read from an installed tree (Detail FILE:LINE).
const OriginInstall OriginKind = "install"

// Feature ids: each is a dated rule of xcvr's model, read from the install.
const (
	FeatureAutoResolver     = "_resolve_transceiver_runtime_auto"
	FeatureFallbackReason   = "_transceiver_python_fallback_reason"
	FeatureAutoReroutes     = "auto_reroutes_python_off_nixl"
	FeatureDefaultPython    = "transceiver_runtime_default_python"
	FeaturePipelined        = "enable_pipelined_transfer"
	FeatureCreateInDisagg   = "create_kv_cache_transceiver_in_disaggregation"
	FeatureV2TimeoutError   = "kv_transceiver_v2_finite_timeout_error"
	FeatureResolveInConfigU = "resolve_cache_transceiver_config"
)

// featureDay maps a change day the resolver branches on to the feature that
// shows them in an install.
func featureDay(d Day) string {
	switch d {
	case day16164:
		return FeatureAutoResolver
	case day15727:
		return FeaturePipelined
	case day17899:
		return FeatureCreateInDisagg
	case day17137:
		return FeatureV2TimeoutError
	case day17495:
		return FeatureDefaultPython
	}
	return ""
}

// installHas answers Version.Has from the install when it shows the change.
func (v Version) installHas(d Day) (bool, bool) {
	if v.Install == nil {
		return false, false
	}
	if d == day18134 {
		return v.Install.Era >= 2, true
	}
	f, ok := v.Install.Features[featureDay(d)]
	if !ok || f.Evidence == "" {
		return false, false
	}
	return f.Present, true
}

// The messages the install can reword, and xcvr's built-in wording of each, with
// {} for a field and {!r} for a repr'd one. Several built-in variants may share an
// id (the same raise in different releases).
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
)

// BuiltinText is one of xcvr's message templates.
type BuiltinText struct {
	ID       string
	Template string
}

// BuiltinTexts lists xcvr's wording of every message an install can reword.
func BuiltinTexts() []BuiltinText {
	tail := ". Please use transceiver_runtime='CPP' for MPI, UCX, or MOONCAKE backends."
	return []BuiltinText{
		{TextFallbackBackend, "Model prefers the Python transceiver, but backend {} does not support it; falling back to the C++ transceiver."},
		{TextFallbackReason, "Falling back to the C++ transceiver: {}."},
		{TextResolvedAuto, "Resolved transceiver_runtime='auto' to {!r} for {}."},
		{TextHookInvalid, "{}.get_preferred_transceiver_runtime() must return 'CPP', 'PYTHON', or None, got {!r}."},
		{TextPythonNIXLEarly, "Python transceiver currently only supports NIXL backend, got {}" + tail},
		{TextPythonNIXLCreate, "Python transceiver currently only supports the NIXL backend, got {}" + tail},
		{TextPythonNIXLCreate, "Python transceiver currently only supports NIXL or DEFAULT backend, got {}" + tail},
		{TextPipelinedBackend, "enable_pipelined_transfer is set but backend '{}' requires the C++ transceiver, which does not support pipelined transfer. Use NIXL backend to enable pipelined transfer."},
		{TextPipelinedCPP, "enable_pipelined_transfer is set but transceiver_runtime='CPP' explicitly disables Python auto-selection. Use transceiver_runtime='PYTHON' to enable pipelined transfer."},
		{TextPipelinedAuto, "enable_pipelined_transfer is set; auto-selecting the Python transceiver instead of the C++ transceiver to enable pipelined KV cache transfer. Set transceiver_runtime='CPP' to disable this auto-selection."},
		{TextEnvSelector, "{}=1 is set, but it's recommended to set cache_transceiver_config.backend in yaml config"},
		{TextMPIDeprecated, "MPI CacheTransceiver is deprecated, UCX or NIXL is recommended"},
		{TextUCXHint, "Using UCX kv-cache transceiver. If your devices are not in the same domain, please consider setting UCX_CUDA_IPC_ENABLE_MNNVL=n, UCX_RNDV_SCHEME=put_zcopy and/or unset UCX_NET_DEVICES upon server hangs or lower-than-expected performance."},
		{TextUsingV2, "Using KvCacheTransceiverV2"},
		{TextDisabled, "cache_transceiver is disabled"},
		{TextV2Timeout, "KvCacheTransceiverV2 requires a finite kv_transfer_timeout_ms"},
		{TextInflightWarning, "{}=1: disagg KV transfer in-flight cancellation was requested. It is active only for cache transceivers that advertise support."},
		{TextInflightAmbig, "{}=1 requires an unambiguous cache transceiver backend, but multiple legacy backend selectors are enabled: {}."},
		{TextKimiK3, "Kimi K3 disaggregated serving requires the Python transceiver: set cache_transceiver_config backend='NIXL' with transceiver_runtime='PYTHON' (or leave transceiver_runtime='auto' with the NIXL backend). The C++ transceiver cannot transfer KDA recurrent state (got backend={!r}, transceiver_runtime={!r})."},
		{TextMambaMixed, "MixedMambaHybridCacheManager requires the Python transceiver runtime in disaggregated serving."},
		{TextMambaMixed, "MixedMambaHybridCacheManager requires the Python transceiver runtime with the NIXL backend in disaggregated serving."},
		// The class may be an f-string field (type(...).__name__ is not plain,
		// so only a plain name or a literal is used).
		{TextMambaMixed, "{} requires the Python transceiver runtime in disaggregated serving."},
		{TextMambaCpp, "transceiver_runtime='PYTHON' cannot drive CppMambaHybridCacheManager (C++ pool backed). Use transceiver_runtime='CPP', or select the V2 manager with use_kv_cache_manager_v2=True."},
		{TextMambaCpp, "transceiver_runtime='PYTHON' cannot drive CppMambaHybridCacheManager (C++ pool backed). Use transceiver_runtime='CPP', or select the V2 manager (TLLM_MAMBA_MANAGER_PREFERENCE=V2)."},
		{TextPyMambaReuse, "TRTLLM_USE_PY_MAMBA=1 forces MixedMambaHybridCacheManager, which does not support block reuse. Disable block reuse or unset TRTLLM_USE_PY_MAMBA to use CppMambaHybridCacheManager."},
		{TextFabricMemory, "Python cache transceiver with C++ KV cache manager detected; defaulting TRTLLM_KVCACHE_POOL_USE_FABRIC_MEMORY=1 (set it to 0 explicitly to disable)"},
		// The variable's name as a field (a module constant upstream may use).
		{TextFabricMemory, "Python cache transceiver with C++ KV cache manager detected; defaulting {}=1 (set it to 0 explicitly to disable)"},
		{TextInflightUnsupp, "{}=1 is experimental and currently supported only with transceiver_runtime='CPP', backend='NIXL', the UCX NIXL backend, a finite kv_transfer_timeout_ms, asynchronous non-layer-wise transfer, and zero-copy disabled; got transceiver_runtime={!r}, backend={!r}, resolved_nixl_backend={!r}, kv_transfer_timeout_ms={!r}, disable_transfer_overlap={!r}, layerwise={!r}, try_zcopy={!r}."},
	}
}

// TemplateParts splits a built-in template at its {} / {!r} fields.
func TemplateParts(tmpl string) []TextPart {
	var parts []TextPart
	for {
		i := strings.IndexByte(tmpl, '{')
		if i < 0 {
			break
		}
		repr := strings.HasPrefix(tmpl[i:], "{!r}")
		if !repr && !strings.HasPrefix(tmpl[i:], "{}") {
			break
		}
		if i > 0 {
			parts = append(parts, TextPart{Lit: tmpl[:i]})
		}
		parts = append(parts, TextPart{Field: true, Repr: repr})
		if repr {
			tmpl = tmpl[i+4:]
		} else {
			tmpl = tmpl[i+2:]
		}
	}
	if tmpl != "" {
		parts = append(parts, TextPart{Lit: tmpl})
	}
	return parts
}

// RenderParts writes parts with {} for each field, as BuiltinTexts writes them.
func RenderParts(parts []TextPart) string {
	var b strings.Builder
	for _, p := range parts {
		switch {
		case !p.Field:
			b.WriteString(p.Lit)
		case p.Repr:
			b.WriteString("{!r}")
		default:
			b.WriteString("{}")
		}
	}
	return b.String()
}

// matchParts matches s against a template and returns the field values.
func matchParts(parts []TextPart, s string) ([]string, bool) {
	var vals []string
	for i, p := range parts {
		if !p.Field {
			if !strings.HasPrefix(s, p.Lit) {
				return nil, false
			}
			s = s[len(p.Lit):]
			continue
		}
		// A field runs to the next literal (the last occurrence when it ends
		// the template, so a value may contain the closing text).
		if i+1 == len(parts) {
			vals = append(vals, s)
			s = ""
			continue
		}
		next := parts[i+1].Lit
		var j int
		if i+2 == len(parts) {
			if !strings.HasSuffix(s, next) {
				return nil, false
			}
			j = len(s) - len(next)
		} else {
			j = strings.Index(s, next)
		}
		if j < 0 {
			return nil, false
		}
		vals = append(vals, s[:j])
		s = s[j:]
	}
	return vals, s == ""
}

// fillParts renders the install's parts with values taken from xcvr's text,
// converting between repr'd and plain values where the two disagree.
func fillParts(parts []TextPart, vals []string, builtin []TextPart) string {
	var reprs []bool
	for _, p := range builtin {
		if p.Field {
			reprs = append(reprs, p.Repr)
		}
	}
	var b strings.Builder
	k := 0
	for _, p := range parts {
		if !p.Field {
			b.WriteString(p.Lit)
			continue
		}
		v := vals[k]
		switch {
		case p.Repr && !reprs[k]:
			v = pyRepr(v)
		case !p.Repr && reprs[k]:
			v = unrepr(v)
		}
		b.WriteString(v)
		k++
	}
	return b.String()
}

// unrepr undoes pyRepr for the simple values the resolver prints.
func unrepr(s string) string {
	if len(s) >= 2 && (s[0] == '\'' || s[0] == '"') && s[len(s)-1] == s[0] {
		return s[1 : len(s)-1]
	}
	return s
}

func fieldCount(parts []TextPart) int {
	n := 0
	for _, p := range parts {
		if p.Field {
			n++
		}
	}
	return n
}

// reword replaces msg with the install's wording of the same message, when one of
// xcvr's templates matches it and the install writes that message with as many
// fields. It returns the FILE:LINE of the install's text, or "".
func (in *Install) reword(msg string) (string, string) {
	if in == nil || len(in.Texts) == 0 {
		return msg, ""
	}
	for _, bt := range BuiltinTexts() {
		it, ok := in.Texts[bt.ID]
		if !ok {
			continue
		}
		parts := TemplateParts(bt.Template)
		vals, ok := matchParts(parts, msg)
		if !ok || fieldCount(it.Parts) != len(vals) {
			continue
		}
		return fillParts(it.Parts, vals, parts), it.Evidence
	}
	return msg, ""
}

// VerifiedInstall is the confidence of a step decided by the installed code.
const VerifiedInstall Confidence = "verified (install)"

// stepFeatures says which install facts decide each step.
func stepFeatures(id string, r *run) []string {
	switch id {
	case StepAuto:
		return []string{FeatureAutoResolver}
	case StepBackend:
		return []string{"backend_env_priority"}
	case StepPipelined:
		return []string{FeaturePipelined}
	case StepPythonNIXL:
		return []string{FeatureResolveInConfigU}
	case StepLeftoverAuto:
		// resolve_cache_transceiver_config turns a leftover 'auto' into None
		// where it exists; before, create_kv_cache_transceiver did.
		return []string{FeatureResolveInConfigU, FeatureCreateInDisagg}
	case StepTransceiver:
		return []string{FeatureCreateInDisagg}
	}
	return nil
}

// applyInstall marks what the install decided: the version step names the
// install, steps whose rule the install shows get its FILE:LINE and "verified
// (install)", and log lines and the exception take the install's wording.
func (r *run) applyInstall() {
	in := r.v.Install
	if in == nil {
		return
	}
	for i := range r.t.Steps {
		s := &r.t.Steps[i]
		if s.Verdict == Skipped && strings.HasPrefix(s.Reason, "not reached") {
			continue
		}
		ev := ""
		switch s.ID {
		case StepVersion:
			ev = in.VersionEvidence
		case StepValidate:
			ev = in.FieldsEvidence
			if in.Fields == nil {
				ev = in.Features["field:transceiver_runtime"].Evidence
			}
		case StepModel, StepPreference:
			if m, ok := in.Models[r.t.Inputs.Model.Value.Arch]; ok {
				ev = m.Evidence
				if s.ID == StepPreference && m.HookEvidence != "" {
					ev = m.HookEvidence
				}
				if s.ID == StepPreference && m.Undetermined != "" && s.Verdict != Skipped {
					// The code does not tell: say so where the value is used.
					s.Reason = "the installed hook's result is undetermined; xcvr's catalog: " + s.Reason
				}
			}
		case StepRuntime:
			// The 1.4 reading (the hook is not consulted for an unset field)
			// holds only if the auto resolver does not look at which fields
			// were set.
			if !r.t.Inputs.Runtime.Given() && !in.Features["auto_reads_fields_set"].Present &&
				(r.era < 3 || in.Features["auto_returns_unless_auto"].Present) {
				ev = in.Features["transceiver_runtime_default"].Evidence
			}
		default:
			for _, f := range stepFeatures(s.ID, r) {
				if x, ok := in.Features[f]; ok && hasLine(x.Evidence) {
					ev = x.Evidence
					break
				}
			}
			if ev == "" && s.ID == StepPythonNIXL {
				ev = in.Texts[TextPythonNIXLCreate].Evidence
			}
		}
		if ev == "" {
			continue
		}
		s.Source = Source{Install: ev}
		// An inferred step stays inferred unless the install shows the very
		// rule that was guessed: the version and its era, the runtime default
		// and the auto resolver (checked above and by the era), the
		// registration of the model. A
		// guessed exception text (the TypeError before #17137) or an
		// undetermined hook keeps its mark.
		if s.Confidence != Inferred || s.ID == StepVersion || s.ID == StepRuntime || s.ID == StepAuto || s.ID == StepModel {
			s.Confidence = VerifiedInstall
		}
	}
	for i := range r.t.Logs {
		r.t.Logs[i].Message, _ = in.reword(r.t.Logs[i].Message)
	}
	if e := r.t.Result.Error; e != "" {
		if typ, msg, ok := strings.Cut(e, ": "); ok && !strings.Contains(typ, " ") && !strings.Contains(msg, "\n") {
			if w, ev := in.reword(msg); ev != "" {
				r.t.Result.Error = typ + ": " + w
				if s := r.stepPtr(r.t.Result.FailedStep); s != nil {
					s.Source = Source{Install: ev}
					s.Confidence = VerifiedInstall
				}
			}
		}
	}
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

func (r *run) stepPtr(id string) *Step {
	for i := range r.t.Steps {
		if r.t.Steps[i].ID == id {
			return &r.t.Steps[i]
		}
	}
	return nil
}

// InstallVersion is the Version an install behaves as. A release xcvr knows keeps
// its dates but takes the era and the dated rules from the install; a version
// xcvr has never heard of (a nightly 1.5.0rc1.dev2026112500, a local build) is
// placed by its dev date when it has one, else after the newest known release,
// and says so.
func InstallVersion(in *Install) Version {
	name := strings.TrimPrefix(strings.ToLower(strings.TrimSpace(in.Version)), "v")
	var v Version
	known := false
	for _, k := range KnownVersions() {
		if k.Name == name {
			v, known = k, true
			break
		}
	}
	if !known {
		v = Version{Name: in.Version, Release: true, Confidence: Inferred}
		if d, ok := devDay(name); ok {
			v.Main = d
			v.Evidence = "not a release xcvr knows; its dev suffix dates it to main on " + d.String()
		} else if pv, err := PlaceVersion(name); err == nil {
			// Between two listed releases: the older one's day; past the
			// newest: the newest's (the same placement as --trtllm).
			v.Main = pv.Main
			v.Evidence = pv.Evidence
		} else {
			kv := KnownVersions()
			v.Main = kv[len(kv)-1].Main
			v.Evidence = "not a release xcvr knows and not dated; placed at the newest known release's day (" + v.Main.String() + ")"
		}
	}
	v.Era = in.Era
	v.Install = in
	what := "read from the install (" + in.VersionEvidence + ")"
	if known {
		v.Evidence += "; " + what
	} else {
		v.Evidence += "; " + what + "; era and rules come from the installed code"
	}
	v.summary = ""
	v = v.withSummary()
	if !known {
		v.summary = in.Version + " (not a release xcvr knows): " + EraSummary(v.Era) + ", as the installed code shows (" + in.EraEvidence + ")"
	} else {
		v.summary += " (install: " + in.EraEvidence + ")"
	}
	return v
}

// devDay reads the date of a ".devYYYYMMDD…" version suffix.
func devDay(name string) (Day, bool) {
	i := strings.Index(name, ".dev")
	if i < 0 || len(name) < i+4+8 {
		return 0, false
	}
	digits := name[i+4 : i+12]
	n, err := strconv.Atoi(digits)
	if err != nil {
		return 0, false
	}
	d, err := ParseDay(digits[:4] + "-" + digits[4:6] + "-" + digits[6:8])
	if err != nil || int(d) != n {
		return 0, false
	}
	return d, true
}

// FieldSpec is one CacheTransceiverConfig field as a pydantic model declares
// it: the kind of value, its Literal choices and an integer bound.
type FieldSpec struct {
	Name string
	// Kind is "literal", "int", "bool", "str" or "dict"; "" when the
	// annotation could not be read (then any value is accepted, inferred).
	Kind     string
	Literals []string
	Optional bool
	// Bound is "gt" or "ge" (PositiveInt, NonNegativeInt, Field(gt=..)) with
	// BoundN; "" for none.
	Bound  string
	BoundN int64
}

// InstallField is a field of the install's CacheTransceiverConfig with the
// line that declares it.
type InstallField struct {
	FieldSpec
	Evidence string
}

// Describe renders the field's type as xcvr reads it ("int > 0", "'CPP' |
// 'PYTHON' | 'auto'", "bool"), with "| None" when optional.
func (f FieldSpec) Describe() string {
	s := f.Kind
	switch f.Kind {
	case "":
		s = "(annotation not read)"
	case "literal":
		s = ""
		for i, l := range f.Literals {
			if i > 0 {
				s += " | "
			}
			s += pyRepr(l)
		}
	}
	switch f.Bound {
	case "gt":
		s += " > " + strconv.FormatInt(f.BoundN, 10)
	case "ge":
		s += " >= " + strconv.FormatInt(f.BoundN, 10)
	}
	if f.Optional {
		s += " | None"
	}
	return s
}

// same reports whether two specs accept the same values (optionality aside:
// the file readers handle None per field).
func (f FieldSpec) same(g FieldSpec) bool {
	return f.Kind == g.Kind && slices.Equal(f.Literals, g.Literals) && f.Bound == g.Bound && f.BoundN == g.BoundN
}

// CacheTransceiverFieldsFor is xcvr's model of CacheTransceiverConfig for a
// version (llm_args.py; era-2 table of the spec, enable_pipelined_transfer from
// #15727, agent_bounce_* from 1.4.0rc1), in declaration order.
func CacheTransceiverFieldsFor(v Version) []FieldSpec {
	rt := []string{"CPP", "PYTHON", "auto"}
	if v.Era == 0 {
		rt = rt[:2]
	}
	out := []FieldSpec{
		{Name: "backend", Kind: "literal", Literals: backendLiterals(), Optional: true},
		{Name: "transceiver_runtime", Kind: "literal", Literals: rt, Optional: true},
		{Name: "max_tokens_in_buffer", Kind: "int", Optional: true},
		{Name: "kv_transfer_timeout_ms", Kind: "int", Optional: true, Bound: "gt"},
		{Name: "kv_transfer_sender_future_timeout_ms", Kind: "int", Optional: true, Bound: "gt"},
		{Name: "kv_transfer_poll_interval_ms", Kind: "int", Optional: true, Bound: "gt"},
		{Name: "kv_cache_bounce_size_mb", Kind: "int", Bound: "ge"},
	}
	if v.Main >= day15727 {
		out = append(out, FieldSpec{Name: "enable_pipelined_transfer", Kind: "bool"})
	}
	if v.Main >= dayAgentBounce {
		out = append(out, FieldSpec{Name: "agent_bounce_buffer_enable", Kind: "bool"},
			FieldSpec{Name: "agent_bounce_params", Kind: "dict", Optional: true})
	}
	return out
}

// installField returns the install's declaration of a field, if it has one.
func (in *Install) installField(name string) (InstallField, bool) {
	for _, f := range in.Fields {
		if f.Name == name {
			return f, true
		}
	}
	return InstallField{}, false
}

// xcvrChecks reports whether xcvr's own readers and checks validate a field the
// install declares the same way; otherwise the install's declaration is applied.
func xcvrChecks(f InstallField) bool {
	for _, x := range CacheTransceiverFieldsFor(Version{Era: 3, Main: dayAgentBounce}) {
		if x.Name == f.Name {
			// An unreadable annotation: xcvr's checks are the best guess.
			return f.Kind == "" || x.same(f.FieldSpec)
		}
	}
	return false
}

// resolverChecked are the fields whose values reach the resolver itself (from a
// flag or a file), checked in validationErrors.
func resolverChecked(name string) bool {
	switch name {
	case "backend", "transceiver_runtime", "kv_transfer_timeout_ms", "enable_pipelined_transfer":
		return true
	}
	return false
}

// installValidationErrors is validationErrors against the install's field set:
// a key the install does not declare is an extra input, whatever xcvr's model
// says; a key it declares differently from xcvr (or xcvr does not know) is
// checked by its annotation; the rest keep xcvr's checks. unread names the keys
// whose annotation could not be read (accepted, inferred).
func (r *run) installValidationErrors() (errs []FieldError, readers int, unread []string) {
	in := r.v.Install
	keep := func(field string) bool {
		f, ok := in.installField(field)
		return ok && (resolverChecked(field) || xcvrChecks(f))
	}
	for _, e := range r.t.Inputs.ConfigErrors {
		if f := fieldOf(e.Loc); e.Root != "" || e.Loc == "" || keep(f) {
			errs = append(errs, e)
		}
	}
	readers = len(errs)
	for _, k := range r.t.Inputs.ConfigKeys {
		f, ok := in.installField(k.Key)
		if resolverChecked(k.Key) && (ok || r.inputGiven(k.Key)) {
			continue // below, with a flag's value in its place
		}
		switch {
		case !ok:
			errs = append(errs, FieldError{Loc: k.Key, Type: "extra_forbidden", Message: "Extra inputs are not permitted",
				Input: k.Input, InputType: k.InputType, Origin: k.Origin})
		case xcvrChecks(f):
		case f.Kind == "":
			unread = append(unread, k.Key)
		default:
			if e, bad := checkField(f.FieldSpec, k); bad {
				errs = append(errs, e)
			}
		}
	}
	given := func(name string, g bool, input, typ string, o Origin) {
		if !g {
			return
		}
		f, ok := in.installField(name)
		if !ok {
			errs = append(errs, FieldError{Loc: name, Type: "extra_forbidden", Message: "Extra inputs are not permitted",
				Input: input, InputType: typ, Origin: o})
			return
		}
		spec := f.FieldSpec
		if spec.Kind == "" {
			// Unreadable: xcvr's own declaration of the field, if it has one.
			i := slices.IndexFunc(CacheTransceiverFieldsFor(r.v), func(x FieldSpec) bool { return x.Name == name })
			if i < 0 {
				unread = append(unread, name)
				return
			}
			spec = CacheTransceiverFieldsFor(r.v)[i]
		}
		if e, bad := checkField(spec, VersionedKey{Key: name, Input: input, InputType: typ, Origin: o}); bad {
			errs = append(errs, e)
		}
	}
	b, rt, t := r.t.Inputs.Backend, r.t.Inputs.Runtime, r.t.Inputs.Timeout
	given("backend", b.Given() && b.Value.Valid, b.Value.Repr(), "str", b.Origin)
	given("transceiver_runtime", rt.Given(), rt.Value.Repr(), strType(rt.Value), rt.Origin)
	ttype := "int"
	if !t.Value.Valid {
		ttype = "NoneType"
	}
	given("kv_transfer_timeout_ms", t.Given(), t.Value.String(), ttype, t.Origin)
	if p := r.t.Inputs.Pipelined; p.Given() {
		given("enable_pipelined_transfer", true, pyBool(p.Value), "bool", p.Origin)
	}
	if k := r.t.Inputs.KVManager; k.Given() && k.Value == KVAuto && !r.v.has(day15823) {
		errs = append(errs, FieldError{Root: "kv_cache_config", Loc: "use_kv_cache_manager_v2", Type: "bool_parsing",
			Message: "Input should be a valid boolean, unable to interpret input", Input: "'auto'", InputType: "str", Origin: k.Origin})
	}
	return errs, readers, unread
}

// inputGiven reports whether a resolver-checked field has a value in Inputs (a
// file value the reader rejected has none).
func (r *run) inputGiven(name string) bool {
	switch name {
	case "backend":
		return r.t.Inputs.Backend.Given() && r.t.Inputs.Backend.Value.Valid
	case "transceiver_runtime":
		return r.t.Inputs.Runtime.Given()
	case "kv_transfer_timeout_ms":
		return r.t.Inputs.Timeout.Given() && r.t.Inputs.Timeout.Value.Valid
	case "enable_pipelined_transfer":
		return r.t.Inputs.Pipelined.Given()
	}
	return false
}

func strType(p PyStr) string {
	if !p.Valid {
		return "NoneType"
	}
	return "str"
}

// checkField is pydantic's lax-mode check of one value against a declaration,
// from the value's repr: the first error, if any.
func checkField(f FieldSpec, k VersionedKey) (FieldError, bool) {
	e := FieldError{Loc: k.Key, Input: k.Input, InputType: k.InputType, Origin: k.Origin}
	fail := func(typ, msg string) (FieldError, bool) {
		e.Type, e.Message = typ, msg
		return e, true
	}
	if k.InputType == "NoneType" {
		if f.Optional {
			return e, false
		}
		switch f.Kind {
		case "int":
			return fail("int_type", "Input should be a valid integer")
		case "bool":
			return fail("bool_type", "Input should be a valid boolean")
		case "dict":
			return fail("dict_type", "Input should be a valid dictionary")
		case "str":
			return fail("string_type", "Input should be a valid string")
		}
		return fail("literal_error", "Input should be "+literalList(f.Literals))
	}
	switch f.Kind {
	case "literal":
		if k.InputType != "str" || !slices.Contains(f.Literals, unrepr(k.Input)) {
			return fail("literal_error", "Input should be "+literalList(f.Literals))
		}
	case "str":
		if k.InputType != "str" {
			return fail("string_type", "Input should be a valid string")
		}
	case "dict":
		if k.InputType != "dict" {
			return fail("dict_type", "Input should be a valid dictionary")
		}
	case "bool":
		switch k.InputType {
		case "bool":
		case "int":
			if k.Input != "0" && k.Input != "1" {
				return fail("bool_parsing", "Input should be a valid boolean, unable to interpret input")
			}
		case "str":
			switch strings.ToLower(unrepr(k.Input)) {
			case "0", "1", "true", "false", "t", "f", "yes", "no", "y", "n", "on", "off":
			default:
				return fail("bool_parsing", "Input should be a valid boolean, unable to interpret input")
			}
		default:
			return fail("bool_type", "Input should be a valid boolean")
		}
	case "int":
		var n int64
		switch k.InputType {
		case "bool":
			if k.Input == "True" {
				n = 1
			}
		case "int":
			v, err := strconv.ParseInt(k.Input, 10, 64)
			if err != nil {
				// Beyond 64 bits: only the sign matters for a bound.
				v = 1
				if strings.HasPrefix(k.Input, "-") {
					v = -1
				}
			}
			n = v
		case "str":
			v, err := strconv.ParseInt(strings.TrimSpace(unrepr(k.Input)), 10, 64)
			if err != nil {
				return fail("int_parsing", "Input should be a valid integer, unable to parse string as an integer")
			}
			n = v
		case "float":
			x, err := strconv.ParseFloat(k.Input, 64)
			if err != nil || x != float64(int64(x)) {
				return fail("int_from_float", "Input should be a valid integer, got a number with a fractional part")
			}
			n = int64(x)
		default:
			return fail("int_type", "Input should be a valid integer")
		}
		switch {
		case f.Bound == "gt" && n <= f.BoundN:
			return fail("greater_than", "Input should be greater than "+strconv.FormatInt(f.BoundN, 10))
		case f.Bound == "ge" && n < f.BoundN:
			return fail("greater_than_equal", "Input should be greater than or equal to "+strconv.FormatInt(f.BoundN, 10))
		}
	}
	return e, false
}

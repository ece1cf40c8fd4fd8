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
	// Validators are CacheTransceiverConfig's @model_validator and
	// @field_validator methods as the install writes them (read with Fields).
	Validators []Validator
	// RuntimeDefault is transceiver_runtime's default as the code writes it
	// ("None", "auto", "PYTHON"), "" when not read.
	RuntimeDefault string
	// BackendOrder is the DEFAULT backend's selector table in the install's
	// priority order (its evidence is Features["backend_env_priority"]); nil
	// when not read, and xcvr's order applies.
	BackendOrder []BackendSelector
}

// InstallValidator is a validator method read from an install: the same data
// as xcvr's model of a release's (Validator).
type InstallValidator = Validator

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
	// Written is the message as the code writes it, each field as {expr}.
	Written string
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
	// Registration is how the install registers it, in words, where that is
	// not "registered as Class" (an architecture only _arch_index.py lists).
	Registration string

	// For a release's registration from xcvr's catalog (Rules.Models of
	// models.Catalog.ReleaseRules): Unregistered marks an architecture the
	// catalog knows that the build does not register yet; PR and Confidence
	// are those of the hook result in force on the build's day. Evidence stays
	// empty (it is an install's FILE:LINE).
	Unregistered bool
	PR           int
	Confidence   Confidence
}

// Model is the model as the build registers it. info is xcvr's catalog answer
// for info.Arch; where the rules hold the build's registrations (Models: an
// install's, read from its code, or a release's from the catalog), the
// registration and hook result they hold are put in its place: an
// architecture an install does not register is TensorRT-LLM's unknown model
// even when the catalog knows it, and a hook read from the code beats the
// catalog's dated preference (an undetermined one keeps the catalog's value,
// marked inferred). Resolve looks the model up here, and so does
// models.Catalog.Lookup; applying it twice changes nothing.
func (rs *Rules) Model(info ModelInfo) ModelInfo {
	if rs == nil || rs.Models == nil || info.Arch == "" {
		return info
	}
	im, ok := rs.Models[info.Arch]
	const notRegistered = "not registered in the install: unknown model"
	switch {
	case !ok && !rs.FromInstall:
		return info
	case !ok:
		if info.Unregistered && strings.HasPrefix(info.Note, notRegistered) {
			return info
		}
		out := ModelInfo{Arch: info.Arch, Note: notRegistered, Unregistered: true}
		if info.Known {
			out.Note += " (xcvr's catalog knows it as " + info.Class + ")"
		}
		return out
	case im.Unregistered:
		return ModelInfo{Arch: info.Arch, Note: im.Why, Unregistered: true}
	case !rs.FromInstall:
		// A release's registration from the catalog: the catalog's own answer.
		info.Known, info.Class, info.Preference, info.PreferencePR = true, im.Class, im.Preference, im.PR
		info.PreferenceConfidence = im.Confidence
		return info
	}
	info.Known, info.Unregistered = true, false
	if im.Class != "" {
		info.Class = im.Class
	}
	info.PreferencePR, info.PreferenceSince = 0, 0
	info.Note = im.Why
	if im.Undetermined != "" {
		info.PreferenceConfidence = Inferred
		info.Note = "install: undetermined (" + im.Undetermined + "); xcvr's catalog value is used"
		return info
	}
	info.Preference = im.Preference
	info.PreferenceConfidence = VerifiedInstall
	return info
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

// VerifiedInstall is the confidence of a step decided by the installed code.
const VerifiedInstall Confidence = "verified (install)"

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
	v.Rules = nil
	v = v.withSummary()
	if !known {
		v.summary = in.Version + " (not a release xcvr knows): " + EraSummary(v.Era) + ", as the installed code shows (" + in.EraEvidence + ")"
	} else {
		v.summary += " (install: " + in.EraEvidence + ")"
	}
	v.Rules = InstallRules(in, v)
	return v
}

// InstallRules is an installed tree's rules: xcvr's model of the release v it is
// placed at, with the install's era, and every rule the install's code shows put
// in its place, citing its FILE:LINE. This is the one place where what was read
// from an install becomes rules.
func InstallRules(in *Install, v Version) *Rules {
	v.Era, v.Rules = in.Era, nil
	rs := ReleaseRules(v)
	rs.Build, rs.FromInstall = in.Version, true
	read := func(ev string) Evidence { return Evidence{Source{Install: ev}, VerifiedInstall} }
	if in.VersionEvidence != "" {
		rs.Version = read(in.VersionEvidence)
	}
	if in.EraEvidence != "" {
		rs.EraEvidence = read(in.EraEvidence)
	}
	// The dated changes the fingerprints show; #18134 is the era itself.
	for _, c := range Changes() {
		if c.Merged == day18134 {
			rs.Changes = append(rs.Changes, ChangeRule{Change: c, Has: in.Era >= 2, Settled: true, Evidence: rs.EraEvidence})
			continue
		}
		if f, ok := in.Features[changeFeature(c.Merged)]; ok && f.Evidence != "" {
			rs.Changes = append(rs.Changes, ChangeRule{Change: c, Has: f.Present, Settled: true, Evidence: read(f.Evidence)})
		}
	}
	installPath(rs, in)
	rs.Steps = map[string]Evidence{}
	ev := in.Features["transceiver_runtime_default"].Evidence
	if in.RuntimeDefault != "" {
		// The line that shows the default, beside the PR and confidence of
		// xcvr's reading of it (the runtime step's, settled below when the
		// auto resolver does not undo it).
		rs.RuntimeDefault, rs.RuntimeDefaultRead = Str(in.RuntimeDefault), true
		rs.RuntimeDefaultEvidence.Source.Install = ev
		if in.RuntimeDefault == "None" {
			rs.RuntimeDefault = PyStr{}
		}
	}
	// The runtime step's reading of an unset field (1.4: the hook is not
	// consulted) holds only if the auto resolver does not look at which fields
	// were set.
	if ev != "" && !in.Features["auto_reads_fields_set"].Present && (in.Era < 3 || in.Features["auto_returns_unless_auto"].Present) {
		rs.Steps[StepRuntime] = read(ev)
	}
	if in.Fields != nil {
		rs.Fields, rs.FieldsRead = make([]FieldSpec, len(in.Fields)), true
		rs.Validators, rs.ValidatorsRead = append([]Validator(nil), in.Validators...), true
		for i, f := range in.Fields {
			rs.Fields[i] = f.FieldSpec
			rs.Fields[i].Evidence = f.Evidence
		}
		if in.FieldsEvidence != "" {
			rs.FieldsEvidence = read(in.FieldsEvidence)
		}
	} else if ev := in.Features["field:transceiver_runtime"].Evidence; ev != "" {
		rs.FieldsEvidence = read(ev)
	}
	if len(in.BackendOrder) > 0 {
		rs.Selectors, rs.SelectorsRead = in.BackendOrder, true
	}
	if ev := in.Features["backend_env_priority"].Evidence; hasLine(ev) {
		rs.SelectorsEvidence = read(ev)
	}
	// A text replaces xcvr's wording when it takes the values the resolver has
	// for it (or as many as xcvr's own wording uses).
	for _, id := range TextIDs() {
		it, ok := in.Texts[id]
		if n := fieldCount(it.Parts); ok && (n == textArity(id) || n == fieldCount(TemplateParts(rs.text(id).Template))) {
			rs.setText(Text{ID: id, Template: RenderParts(it.Parts), Evidence: read(it.Evidence), Written: it.Written})
		}
	}
	rs.Models = in.Models
	// The fingerprint that shows the rule each of these steps applies.
	line := func(step string, ids ...string) {
		for _, id := range ids {
			if ev := in.Features[id].Evidence; hasLine(ev) {
				rs.Steps[step] = read(ev)
				return
			}
		}
	}
	line(StepAuto, FeatureAutoResolver)
	line(StepPipelined, FeaturePipelined)
	line(StepPythonNIXL, FeatureResolveInConfigU)
	if _, ok := rs.Steps[StepPythonNIXL]; !ok && in.Texts[TextPythonNIXLCreate].Evidence != "" {
		rs.Steps[StepPythonNIXL] = read(in.Texts[TextPythonNIXLCreate].Evidence)
	}
	// resolve_cache_transceiver_config turns a leftover 'auto' into None where
	// it exists; before, create_kv_cache_transceiver did.
	line(StepLeftoverAuto, FeatureResolveInConfigU, FeatureCreateInDisagg)
	line(StepTransceiver, FeatureCreateInDisagg)
	return rs
}

// installPath states the install's code-path rules with the fingerprints that
// show them: each rule is the install's era's (the era was read from these
// fingerprints), and cites the line of the fingerprint that agrees with it.
// A step that applies such a rule cites that line (pathSource), verified from
// the install unless the step is inferred.
func installPath(rs *Rules, in *Install) {
	shows := map[string]struct {
		feature string
		present bool // the fingerprint's presence that means the rule is on
	}{
		PathConfigLoad:    {FeatureAutoResolver, true},
		PathAutoPython:    {FeatureAutoReroutes, false},
		PathDefaultPython: {FeatureDefaultPython, true},
		// The hybrid route, the KV V2 default and the C++ deprecation came
		// with 1.4 too, but the default's line does not show them: they keep
		// xcvr's evidence (a step citing the line would send the reader to
		// transceiver_runtime's default).
	}
	rs.CodePath = slices.Clone(rs.CodePath)
	for i := range rs.CodePath {
		p := &rs.CodePath[i]
		w, ok := shows[p.ID]
		if !ok {
			continue
		}
		f, ok := in.Features[w.feature]
		if !ok || !hasLine(trimEvidence(f.Evidence)) || (f.Present == w.present) != p.On {
			continue
		}
		p.Evidence.Source.Install = f.Evidence
	}
}

// trimEvidence is FILE:LINE without a remark after it.
func trimEvidence(ev string) string {
	if i := strings.Index(ev, " ("); i >= 0 {
		return ev[:i]
	}
	return ev
}

// changeFeature is the install fingerprint that shows the change merged on day d.
func changeFeature(d Day) string {
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
	// Evidence is the install's FILE:LINE of the declaration; "" in xcvr's
	// model of a release.
	Evidence string
	// Default is the default as the reference writes it ("None", "1000",
	// "'auto'"), and Cite where xcvr's model of a release read the
	// declaration (fields.go); both "" for an install's field.
	Default string
	Cite    string
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

// CacheTransceiverFieldsFor is CacheTransceiverConfig in declaration order as
// version v's rules declare it.
func CacheTransceiverFieldsFor(v Version) []FieldSpec { return ReleaseRules(v).Fields }

// xcvrChecks reports whether xcvr's own readers and checks validate a field the
// install declares the same way; otherwise the install's declaration is applied.
func xcvrChecks(f FieldSpec) bool {
	for _, x := range newestFields() {
		if x.Name == f.Name {
			// An unreadable annotation: xcvr's checks are the best guess.
			return f.Kind == "" || x.same(f)
		}
	}
	return false
}

// newestFields is every CacheTransceiverConfig field of xcvr's newest model
// (1.4's code path, every dated field).
func newestFields() []FieldSpec {
	return releaseFields(&Rules{Main: dayAgentBounce, CodePath: releasePath(3)})
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
	rs := r.rules
	keep := func(field string) bool {
		f, ok := rs.field(field)
		return ok && (resolverChecked(field) || xcvrChecks(f))
	}
	for _, e := range r.t.Inputs.ConfigErrors {
		// A key the install does not declare is refused below, by its name
		// (the empty key too); a whole-field error is the reader's.
		if f := fieldOf(e.Loc); e.Root != "" || e.TopKey || e.Loc == "" && !e.EmptyKey || keep(f) {
			errs = append(errs, e)
		}
	}
	readers = len(errs)
	for _, k := range r.t.Inputs.ConfigKeys {
		f, ok := rs.field(k.Key)
		if resolverChecked(k.Key) && (ok || r.inputGiven(k.Key)) {
			continue // below, with a flag's value in its place
		}
		switch {
		case !ok:
			errs = append(errs, FieldError{Loc: k.Key, Type: "extra_forbidden", Message: "Extra inputs are not permitted",
				Input: k.Input, InputType: k.InputType, Origin: k.Origin, EmptyKey: k.Key == ""})
		case xcvrChecks(f):
		case f.Kind == "":
			unread = append(unread, k.Key)
		default:
			if e, bad := checkField(f, k); bad {
				errs = append(errs, e)
			}
		}
	}
	given := func(name string, g bool, input, typ string, o Origin) {
		if !g {
			return
		}
		spec, ok := rs.field(name)
		if !ok {
			errs = append(errs, FieldError{Loc: name, Type: "extra_forbidden", Message: "Extra inputs are not permitted",
				Input: input, InputType: typ, Origin: o})
			return
		}
		if spec.Kind == "" {
			// Unreadable: xcvr's own declaration of the field, if it has one.
			model := releaseFields(rs)
			i := slices.IndexFunc(model, func(x FieldSpec) bool { return x.Name == name })
			if i < 0 {
				unread = append(unread, name)
				return
			}
			spec = model[i]
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
	if k := r.t.Inputs.KVManager; k.Given() && k.Value == KVAuto && !r.has(day15823) {
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

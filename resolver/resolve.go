package resolver

import (
	"slices"
	"strconv"
	"strings"

	"xcvr/internal/suggest"
)

// Step ids, stable across versions: every Trace holds each of them exactly once, so
// two traces can be compared step by step.
const (
	StepVersion          = "version"
	StepValidate         = "validate"
	StepDisagg           = "disagg"
	StepRuntime          = "runtime"
	StepBackend          = "backend"
	StepLoader           = "loader"
	StepModel            = "model"
	StepPreference       = "preference"
	StepAuto             = "auto"
	StepLeftoverAuto     = "leftover-auto"
	StepPipelined        = "pipelined"
	StepPythonNIXL       = "python-nixl"
	StepModelRequirement = "model-requirement"
	StepInflightCancel   = "inflight-cancel"
	StepBackendLogs      = "backend-logs"
	StepTransceiver      = "transceiver"
	StepKVManager        = "kv-manager"
	StepCacheManager     = "cache-manager"
	StepFabricMemory     = "fabric-memory"
	StepPipelinedStatic  = "pipelined-static"
	StepMambaGuards      = "mamba-guards"
)

// StepIDs lists every step id in the order of the newest rules.
func StepIDs() []string {
	return []string{StepVersion, StepValidate, StepDisagg, StepRuntime, StepBackend, StepLoader,
		StepModel, StepPreference, StepAuto, StepKVManager, StepModelRequirement, StepCacheManager,
		StepFabricMemory, StepLeftoverAuto, StepPipelined, StepPipelinedStatic, StepPythonNIXL,
		StepInflightCancel, StepBackendLogs, StepMambaGuards, StepTransceiver}
}

// Upstream files, for step sources.
const (
	fileLLMArgs      = "tensorrt_llm/llmapi/llm_args.py"
	fileLLMUtils     = "tensorrt_llm/llmapi/llm_utils.py"
	fileModelLoader  = "tensorrt_llm/_torch/pyexecutor/model_loader.py"
	fileModelingAuto = "tensorrt_llm/_torch/models/modeling_auto.py"
	fileOldCreate    = "tensorrt_llm/_torch/pyexecutor/kv_cache_transceiver.py"
	fileNewCreate    = "tensorrt_llm/_torch/disaggregation/kv_cache_transceiver.py"
	fileConfigUtils  = "tensorrt_llm/_torch/pyexecutor/config_utils.py"
	fileTransceiver  = "tensorrt_llm/_torch/disaggregation/transceiver.py"
	filePyNative     = "tensorrt_llm/_torch/disaggregation/native/py_cache_transceiver.py"
)

// run carries one resolution while its steps are appended.
type run struct {
	v     Version
	rules *Rules
	t     Trace // t.Inputs holds the inputs

	// halt, when set, is why the remaining steps are not reached.
	halt string

	runtime    PyStr // transceiver_runtime as currently held
	backend    string
	effBackend string
	envVar     string // selector that decided a DEFAULT backend
	phaseARan  bool
	kvV2       bool // use_kv_cache_manager_v2 resolved to True

	changes []Change // Changes(), once per resolution (change)
}

// Resolve runs TensorRT-LLM's resolution for the inputs and returns every step, the
// log lines and the result. It never panics and always returns each step id once.
func Resolve(in Inputs) Trace {
	rules := ReleaseRules(in.Version)
	// The model as the build registers it: the rules' registrations, where
	// they hold them, in place of the catalog's.
	in.Model.Value = rules.Model(in.Model.Value)
	r := run{v: in.Version, rules: rules}
	r.t.Inputs = in
	r.presetBackendSpelling()
	r.t.Steps = make([]Step, 0, len(StepIDs()))
	r.stepVersion()
	r.stepValidate()
	r.stepDisagg()
	r.stepRuntime()
	// Before #16060 use_kv_cache_manager_v2 is resolved from the model defaults,
	// ahead of the transceiver; from #16060 after it, because V2 needs the final
	// runtime ("The transceiver runtime auto setting must be resolved first").
	kvFirst := !r.has(day16060)
	if !r.on(PathConfigLoad) {
		// No config-load resolution: DEFAULT is resolved at creation.
		r.stepLoader()
		r.stepModel()
		r.stepKVManager()
		r.stepPreference()
		r.stepAuto()
		r.finishLoad()
		r.stepModelRequirement()
		r.stepCacheManager()
		r.stepFabricMemory()
		r.stepBackend(PhaseCreation)
		r.stepBackendLogs()
		r.stepMambaGuards()
		r.stepPythonNIXL()
		r.stepLeftoverAuto()
		r.stepPipelined()
		r.stepPipelinedStatic()
		r.stepInflightCancel()
		r.stepTransceiver()
	} else {
		r.stepBackend(PhaseLoad)
		r.stepLoader()
		r.stepModel()
		if kvFirst {
			r.stepKVManager()
		}
		r.stepPreference()
		r.stepAuto()
		if !kvFirst {
			r.stepKVManager()
		}
		r.finishLoad()
		r.stepModelRequirement()
		r.stepCacheManager()
		r.stepFabricMemory()
		r.stepLeftoverAuto()
		if r.hasConfigUtils() {
			r.stepPipelined()
			r.stepPipelinedStatic()
			r.stepPythonNIXL()
			r.stepInflightCancel()
			r.stepBackendLogs()
			r.stepMambaGuards()
		} else {
			r.stepPipelined()
			r.stepPipelinedStatic()
			r.stepInflightCancel()
			r.stepBackendLogs()
			r.stepMambaGuards()
			r.stepPythonNIXL()
		}
		r.stepTransceiver()
	}
	r.finish()
	return r.t
}

// has reports whether the build has the change merged on day d.
func (r *run) has(d Day) bool { return r.rules.Has(d) }

// hasConfigUtils reports whether the build checks PYTHON-needs-NIXL early, in
// resolve_cache_transceiver_config. The spec places that helper between #15727 and
// #17899 [U]; xcvr takes #15727.
func (r *run) hasConfigUtils() bool { return r.has(day15727) }

func (r *run) createFile() string {
	if r.has(day17899) {
		return fileNewCreate
	}
	return fileOldCreate
}

func (r *run) add(s Step) { r.t.Steps = append(r.t.Steps, s) }

// emit appends a step with its standard explanation. src and c are the
// upstream file and PR the step names and how sure xcvr's model is; where the
// rules hold a line that shows the rule the step applies (an install's), the
// step cites that instead: the step's own evidence (Rules.Steps, the model's
// registration), else the line of the code-path rule or dated change the step
// took its source from (src.Install).
func (r *run) emit(id string, p Phase, title string, v Verdict, reason string, src Source, c Confidence) {
	switch ev, settles := r.ruleEvidence(id); {
	case settles:
		src, c = settle(ev, src, c)
	case ev.read() || src.Install == "":
		src, c = cite(ev, src, c)
	default:
		src, c = cite(Evidence{Source: Source{Install: src.Install}}, src, c)
	}
	r.add(Step{ID: id, Phase: p, Title: title, Verdict: v, Reason: reason, Detail: detailFor(id), Source: src, Confidence: c})
}

// ruleEvidence is the evidence the rules hold for the rule step id applies, and
// whether it settles an inferred step (the step's only guess is that rule: the
// auto resolver, the model's registration).
func (r *run) ruleEvidence(id string) (Evidence, bool) {
	switch id {
	case StepValidate:
		return r.rules.FieldsEvidence, false
	case StepBackend:
		return r.rules.SelectorsEvidence, false
	case StepModel, StepPreference:
		m, ok := r.rules.Models[r.t.Inputs.Model.Value.Arch]
		ev := m.Evidence
		if id == StepPreference && m.HookEvidence != "" {
			ev = m.HookEvidence
		}
		if !ok || ev == "" {
			return Evidence{}, false
		}
		return Evidence{Source{Install: ev}, VerifiedInstall}, id == StepModel
	case StepAuto:
		return r.rules.Steps[id], true
	case StepRuntime:
		// Only the default applies a rule (stepRuntime cites it).
		return Evidence{}, false
	}
	return r.rules.Steps[id], false
}

// raise appends step id as the error that stops start-up: the exception is typ
// and message textID as the build words it. A message whose wording the rules
// read from an install cites that line.
func (r *run) raise(id string, p Phase, title, reason string, src Source, c Confidence, typ, textID string, vals ...pyVal) {
	t := r.rules.text(textID)
	if tc := t.Evidence.Confidence; tc != "" && !t.Evidence.read() && confRank(tc) < confRank(c) {
		// A step is no surer than the text it raises.
		c = tc
	}
	if t.Evidence.read() {
		r.add(Step{ID: id, Phase: p, Title: title, Verdict: Error, Reason: reason, Detail: detailFor(id), Source: t.Evidence.Source, Confidence: VerifiedInstall})
	} else {
		r.emit(id, p, title, Error, reason, src, c)
	}
	r.fail(id, typ+": "+fill(t.Template, vals))
}

// confRank orders confidences, the least sure first.
func confRank(c Confidence) int {
	switch c {
	case Inferred:
		return 0
	case Derived:
		return 1
	}
	return 2
}

func (r *run) log(l Level, msg string) { r.t.Logs = append(r.t.Logs, LogLine{Level: l, Message: msg}) }

// fail records the exception that stops start-up at step id.
func (r *run) fail(id, exc string) {
	r.t.Result.Outcome = OutcomeError
	r.t.Result.Error = exc
	r.t.Result.FailedStep = id
	r.halt = "not reached: start-up already failed"
}

// skipIfHalted appends a skipped step when an earlier step ended the chain.
// haltDisaggOff is the halt of a worker without a transceiver.
const haltDisaggOff = "not reached: disaggregation is off"

func (r *run) skipIfHalted(id string, p Phase, title string) bool {
	if r.halt == "" {
		return false
	}
	r.add(Step{ID: id, Phase: p, Title: title, Verdict: Skipped, Reason: r.halt, Detail: detailFor(id), Confidence: Derived})
	return true
}

func (r *run) stepVersion() {
	ev := r.rules.Version
	r.add(Step{ID: StepVersion, Phase: PhaseSetup, Title: "TensorRT-LLM version", Verdict: Info,
		Reason: r.v.Summary(), Detail: r.v.Evidence, Source: ev.Source, Confidence: ev.Confidence})
}

func eraPR(era int) int {
	switch era {
	case 1:
		return 16164
	case 2:
		return 18134
	case 3:
		return 17495
	}
	return 0
}

// runtimeLiterals and backendLiteralsOf are the Literal[...] choices of
// transceiver_runtime and backend in the build's rules (xcvr's model of the
// release where an install's annotation was not read).
func (r *run) runtimeLiterals() []string { return r.literals("transceiver_runtime") }

func (r *run) backendLiteralsOf() []string { return r.literals("backend") }

func (r *run) literals(field string) []string { return r.rules.fieldLiterals(field) }

// presetBackendSpelling writes xcvr's own backend choice (DEFAULT, a value no
// one wrote) as the build spells it: from #5234 until #6323 (1.0.0rc4 to
// 1.0.0) CacheTransceiverConfig.backend is Literal["default", "ucx", "nixl",
// "mpi"] (llm_args.py of the lower-case era), so the preset DEFAULT was
// refused at validation, a failure of xcvr's making; an operator of the time
// writes `backend: default`. A backend the user gave is left as written.
func (r *run) presetBackendSpelling() {
	b := &r.t.Inputs.Backend
	if b.Origin.Kind != OriginPreset || !b.Value.Is("DEFAULT") {
		return
	}
	if lits := r.literals("backend"); slices.Contains(lits, "default") && !slices.Contains(lits, "DEFAULT") {
		b.Value = Str("default")
	}
}

// backendLiterals is the newest rules' backend choices.
func backendLiterals() []string { return []string{"DEFAULT", "UCX", "NIXL", "MOONCAKE", "MPI"} }

func (r *run) stepValidate() {
	const title = "Validate cache_transceiver_config"
	errs := r.validationErrors()
	if len(errs) == 0 {
		reason := "every value is one TensorRT-LLM accepts"
		if r.rules.FieldsRead {
			// The install's own field set and annotations decided.
			reason = "every value is one the installed CacheTransceiverConfig's fields accept"
			_, _, unread := r.installValidationErrors()
			if len(unread) > 0 {
				reason += "; the install's annotation of " + strings.Join(unread, ", ") + " was not read: accepted as written"
			}
			// Validators xcvr does not model are not checked: never claim
			// every value is accepted when one of them could refuse it.
			if uv := r.unreadValidators(); len(uv) > 0 {
				reason += "; the install's validators " + strings.Join(uv, ", ") + " were not checked"
				unread = append(unread, uv...)
			}
			if len(unread) > 0 {
				r.emit(StepValidate, PhaseSetup, title, Applied, reason, Source{File: fileLLMArgs}, Inferred)
				return
			}
			if len(r.rules.Validators) > 0 {
				reason += ", and its validators are the ones xcvr checks"
			}
		}
		if knobs := r.change(5234); !r.rules.FieldsRead && !knobs.Has {
			reason = "nothing to refuse: before #5234 CacheTransceiverConfig is a plain pydantic BaseModel declaring max_num_tokens only (0.21.0's llm_args.py), which ignores other keys"
			if ign := r.ignoredKeys(); len(ign) > 0 {
				reason += "; " + strings.Join(ign, ", ") + " ignored"
			}
			r.emit(StepValidate, PhaseSetup, title, Applied, reason, r.changeSource(knobs, fileLLMArgs), Inferred)
			return
		}
		for _, k := range r.t.Inputs.VersionedKeys {
			if k.Key == "agent_bounce_buffer_enable" && r.has(dayBounceNoop) {
				reason += "; agent_bounce_buffer_enable (" + k.Origin.String() + ") is a deprecated no-op here (docs 1.4.0rc4): kv_cache_bounce_size_mb > 0 alone turns the bounce buffer on"
			}
		}
		r.emit(StepValidate, PhaseSetup, title, Applied, reason, Source{File: fileLLMArgs}, Verified)
		return
	}
	msg := validationError(errs)
	first := errs[0]
	reason := first.loc() + ": " + first.Message
	if !first.Origin.IsDefault() {
		reason += " (" + first.Origin.String() + ")"
	}
	if len(errs) > 1 {
		// Name where each other error was written too, so every FILE:LINE is in
		// the chain, not only the first (up to a screenful; the exception lists
		// them all). A builder keeps thousands of errors linear.
		var b strings.Builder
		b.WriteString(reason)
		b.WriteString(" and " + strconv.Itoa(len(errs)-1) + " more:")
		const maxNamed = 20
		for i, e := range errs[1:] {
			if i == maxNamed {
				b.WriteString(", … (" + strconv.Itoa(len(errs)-1-maxNamed) + " not named here; see the exception)")
				break
			}
			if i > 0 {
				b.WriteString(",")
			}
			b.WriteString(" " + e.loc())
			if !e.Origin.IsDefault() {
				b.WriteString(" (" + e.Origin.String() + ")")
			}
		}
		reason = b.String()
	}
	// As sure as the field set that refuses the value.
	conf := r.rules.FieldsEvidence.Confidence
	if conf == "" {
		conf = Verified
	}
	if len(errs) == 1 && errs[0].Type == "value_error" && errs[0].Loc == "" {
		// A model validator's refusal: as sure as its text (validators.go).
		if _, c, ok := r.bounceValidatorError(); ok {
			conf = c
		}
	}
	r.emit(StepValidate, PhaseSetup, title, Error, reason, Source{File: fileLLMArgs}, conf)
	r.fail(StepValidate, msg)
	r.halt = "not reached: the configuration is rejected at validation"
}

// validationErrors is every value pydantic rejects, in the order pydantic reports
// them: the file reader's errors (Inputs.ConfigErrors) and the resolver's own
// literal, > 0 and version checks, merged by field declaration order (see
// pydanticOrder).
func (r *run) validationErrors() []FieldError {
	if r.rules.FieldsRead {
		errs, readers, _ := r.installValidationErrors()
		errs = r.pydanticOrder(errs, readers)
		if len(errs) == 0 && len(r.rules.Validators) > 0 && len(r.unreadValidators()) == 0 {
			// Every validator the install declares is one xcvr models: its
			// messages are applied.
			if e, _, ok := r.bounceValidatorError(); ok {
				errs = append(errs, e)
			}
		}
		return errs
	}
	var errs, late []FieldError
	for _, e := range r.t.Inputs.ConfigErrors {
		if e.Root != "" && !e.TopKey {
			// Under another TorchLlmArgs field (kv_cache_config.<key>): none
			// of cache_transceiver_config's rules below apply.
			errs = append(errs, e)
			continue
		}
		if fieldOf(e.Loc) == "enable_pipelined_transfer" && !r.has(day15727) {
			// Before #15727 the key is not a field at all: whatever its value,
			// pydantic reports it as an extra input, among the other extra keys.
			e.Loc, e.Type, e.Message = "enable_pipelined_transfer", "extra_forbidden", "Extra inputs are not permitted"
			late = append(late, e)
			continue
		}
		if f := fieldOf(e.Loc); (f == "agent_bounce_buffer_enable" || f == "agent_bounce_params") && !r.has(dayAgentBounce) {
			// Not a field yet: its VersionedKey reports it as an extra input.
			continue
		}
		if e.Loc == "backend" && e.Type == "literal_error" {
			// The reader names the newest release's backends; pydantic names
			// this release's Literal (lower-case in 1.0, no MOONCAKE before
			// #8309).
			e.Message = "Input should be " + literalList(r.backendLiteralsOf())
		}
		if f := fieldOf(e.Loc); !r.hasField(f) {
			// Not a field in this release: an extra input whatever its value.
			e.Loc, e.Type, e.Message = f, "extra_forbidden", "Extra inputs are not permitted"
			late = append(late, e)
			continue
		}
		errs = append(errs, e)
	}
	late = append(late, r.undeclaredKeys()...)
	readers := len(errs)
	errs = append(errs, late...)
	if b := r.t.Inputs.Backend.Value; b.Valid && !contains(r.backendLiteralsOf(), b.S) {
		errs = append(errs, FieldError{Loc: "backend", Type: "literal_error",
			Message: "Input should be " + literalList(r.backendLiteralsOf()), Input: b.Repr(), InputType: "str",
			Origin: r.t.Inputs.Backend.Origin})
	}
	if rt := r.t.Inputs.Runtime; rt.Given() && !r.hasField("transceiver_runtime") {
		in, typ := r.asWritten("transceiver_runtime", rt.Origin, rt.Value.Repr(), pyTypeOfStr(rt.Value))
		errs = append(errs, FieldError{Loc: "transceiver_runtime", Type: "extra_forbidden",
			Message: "Extra inputs are not permitted", Input: in, InputType: typ, Origin: rt.Origin})
	} else if rt := r.t.Inputs.Runtime.Value; r.t.Inputs.Runtime.Given() && rt.Valid && !contains(r.runtimeLiterals(), rt.S) {
		errs = append(errs, FieldError{Loc: "transceiver_runtime", Type: "literal_error",
			Message: "Input should be " + literalList(r.runtimeLiterals()), Input: rt.Repr(), InputType: "str",
			Origin: r.t.Inputs.Runtime.Origin})
	}
	if t := r.t.Inputs.Timeout; t.Given() && !r.hasField("kv_transfer_timeout_ms") {
		in, typ := r.asWritten("kv_transfer_timeout_ms", t.Origin, t.Value.String(), pyTypeOfInt(t.Value))
		errs = append(errs, FieldError{Loc: "kv_transfer_timeout_ms", Type: "extra_forbidden",
			Message: "Extra inputs are not permitted", Input: in, InputType: typ, Origin: t.Origin})
	} else if t.Given() && t.Value.Valid && t.Value.N <= 0 {
		errs = append(errs, FieldError{Loc: "kv_transfer_timeout_ms", Type: "greater_than",
			Message: "Input should be greater than 0", Input: t.Value.String(), InputType: "int", Origin: t.Origin})
	}
	if k := r.t.Inputs.KVManager; k.Given() && !r.has(day10659) {
		// Before #10659 KvCacheConfig (a StrictBaseModel) has no such field:
		// pydantic reports the key as an extra input, with the value as written.
		in, typ := "'auto'", "str"
		switch k.Value {
		case KVV2:
			in, typ = "True", "bool"
		case KVV1:
			in, typ = "False", "bool"
		}
		errs = append(errs, FieldError{Root: "kv_cache_config", Loc: "use_kv_cache_manager_v2", Type: "extra_forbidden",
			Message: "Extra inputs are not permitted", Input: in, InputType: typ, Origin: k.Origin})
	} else if k.Given() && k.Value == KVAuto && !r.has(day15823) {
		// Before #15823 the field is a plain bool.
		errs = append(errs, FieldError{Root: "kv_cache_config", Loc: "use_kv_cache_manager_v2", Type: "bool_parsing",
			Message: "Input should be a valid boolean, unable to interpret input", Input: "'auto'", InputType: "str", Origin: k.Origin})
	}
	for _, k := range r.t.Inputs.VersionedKeys {
		if !r.has(dayAgentBounce) {
			// agent_bounce_* are fields only from #15780 (2026-09-16,
			// 1.3.0rc28 on; absent in the 1.3.0rc27 docs): before, pydantic
			// reports an extra input.
			errs = append(errs, FieldError{Loc: k.Key, Type: "extra_forbidden", Message: "Extra inputs are not permitted",
				Input: k.Input, InputType: k.InputType, Origin: k.Origin})
		}
	}
	if p := r.t.Inputs.Pipelined; p.Given() && !r.has(day15727) {
		in, typ := "False", "bool"
		if p.Value {
			in = "True"
		}
		for _, k := range r.t.Inputs.ConfigKeys {
			// A file's key keeps the value as written (0, 'yes'), not the bool.
			if k.Key == "enable_pipelined_transfer" && k.Origin == p.Origin {
				in, typ = k.Input, k.InputType
			}
		}
		errs = append(errs, FieldError{Loc: "enable_pipelined_transfer", Type: "extra_forbidden",
			Message: "Extra inputs are not permitted", Input: in, InputType: typ, Origin: p.Origin})
	}
	if !r.has(dayConfigKnobs) {
		// Before #5234 CacheTransceiverConfig is a plain BaseModel with
		// max_num_tokens only (0.21.0's llm_args.py): it ignores every other
		// key, whatever its value.
		kept := slices.DeleteFunc(slices.Clone(errs[:readers]), ignoredBefore5234)
		errs = append(kept, slices.DeleteFunc(errs[readers:], ignoredBefore5234)...)
		readers = len(kept)
	}
	if direct, known := kvDirect(r.t.Inputs.Version.Main); direct && known {
		// update_llm_args_with_extra_dict builds KvCacheConfig(**d) itself:
		// its errors are KvCacheConfig's (use_kv_cache_manager_v2's too).
		for i := range errs {
			if errs[i].Root == NestedKVCache && !errs[i].topKey() {
				errs[i].Model = "KvCacheConfig"
			}
		}
	}
	if direct := directErrors(errs); direct != nil {
		// Raised before TorchLlmArgs is validated: nothing else is reported.
		return direct
	}
	errs = r.pydanticOrder(errs, readers)
	if len(errs) == 0 {
		// The model validators run only once every field has validated.
		if e, _, ok := r.bounceValidatorError(); ok {
			errs = append(errs, e)
		}
	}
	return errs
}

// directErrors are the errors of the nested model update_llm_args_with_extra_dict
// builds itself (FieldError.Model), as pydantic reports them for that model:
// its declared fields' errors, then its extra keys in input order; nil when
// there are none. Where two such models have errors, the first built
// (directOrder, field_mapping's order) raises and the other is never reached.
func directErrors(errs []FieldError) []FieldError {
	for _, model := range directOrder {
		var declared, extra []FieldError
		for _, e := range errs {
			switch {
			case e.Model != model:
			case e.Type == "extra_forbidden":
				extra = append(extra, e)
			default:
				declared = append(declared, e)
			}
		}
		if declared != nil || extra != nil {
			return append(declared, inputOrder(extra)...)
		}
	}
	return nil
}

// inputOrder sorts extra keys of one mapping by where they were written (a
// key found by the resolver, e.g. use_kv_cache_manager_v2, joins the
// reader's in file order); keys without a FILE:LINE keep their place.
func inputOrder(extra []FieldError) []FieldError {
	slices.SortStableFunc(extra, func(a, b FieldError) int {
		af, al, aok := fileLine(a.Origin)
		bf, bl, bok := fileLine(b.Origin)
		if !aok || !bok || af != bf {
			return 0
		}
		return al - bl
	})
	return extra
}

// ignoredBefore5234 reports whether a plain-BaseModel CacheTransceiverConfig
// with max_num_tokens only ignores the error's key: any key under
// cache_transceiver_config but max_num_tokens (a value that is not a mapping
// is still refused).
func ignoredBefore5234(e FieldError) bool {
	if e.Root != "" || e.topKey() || e.Loc == "" && !e.EmptyKey {
		return false
	}
	// max_num_tokens is the model's one field then: the reader, which knows
	// today's fields, calls it an extra input; its other errors stand.
	return fieldOf(e.Loc) != "max_num_tokens" || e.Type == "extra_forbidden"
}

// ignoredKeys names the cache_transceiver_config keys a build before #5234
// ignores: every key given (in a file or by a flag) but max_num_tokens.
func (r *run) ignoredKeys() []string {
	var out []string
	add := func(k string) {
		if k != "max_num_tokens" && !slices.Contains(out, k) {
			out = append(out, k)
		}
	}
	// xcvr's own defaults are no one's keys.
	if b := r.t.Inputs.Backend; b.Given() && !b.Origin.IsDefault() && b.Origin.Kind != OriginPreset {
		add("backend")
	}
	if rt := r.t.Inputs.Runtime; rt.Given() && !rt.Origin.IsDefault() {
		add("transceiver_runtime")
	}
	if t := r.t.Inputs.Timeout; t.Given() && !t.Origin.IsDefault() {
		add("kv_transfer_timeout_ms")
	}
	for _, k := range r.t.Inputs.ConfigKeys {
		add(k.Key)
	}
	return out
}

// asWritten is a file key's value as written ('5000', yes) for an extra input,
// which pydantic reports before any coercion; a flag's value is in, typ.
func (r *run) asWritten(key string, o Origin, in, typ string) (string, string) {
	for _, k := range r.t.Inputs.ConfigKeys {
		if k.Key == key && k.Origin == o {
			return k.Input, k.InputType
		}
	}
	return in, typ
}

// undeclaredKeys are pydantic's extra_forbidden errors for the keys a file sets
// that are fields of some release but not of this one (kv_cache_bounce_size_mb
// in 1.1) and that no other check reports: the reader accepts them, as it
// knows every release's fields, and an invalid value of one is already turned
// into this error above. The keys with an input of their own
// (transceiver_runtime, kv_transfer_timeout_ms, enable_pipelined_transfer,
// agent_bounce_*) are reported where that input is checked.
func (r *run) undeclaredKeys() []FieldError {
	var out []FieldError
	for _, k := range r.t.Inputs.ConfigKeys {
		switch k.Key {
		case "backend", "transceiver_runtime", "kv_transfer_timeout_ms", "enable_pipelined_transfer",
			"agent_bounce_buffer_enable", "agent_bounce_params":
			continue
		}
		if !datedField(k.Key) || r.hasField(k.Key) {
			continue
		}
		reported := false
		for _, e := range r.t.Inputs.ConfigErrors {
			if fieldOf(e.Loc) == k.Key && e.Origin == k.Origin {
				reported = true
			}
		}
		if !reported {
			out = append(out, FieldError{Loc: k.Key, Type: "extra_forbidden", Message: "Extra inputs are not permitted",
				Input: k.Input, InputType: k.InputType, Origin: k.Origin})
		}
	}
	return out
}

// fieldOf is the cache_transceiver_config key a pydantic loc starts with.
func fieldOf(loc string) string {
	f, _, _ := strings.Cut(loc, ".")
	return f
}

// pydanticOrder sorts errs as pydantic-core reports them for a model with
// extra="forbid": the declared fields in declaration order, then the extra keys in
// input order. errs[:readers] came from the file reader, which lists extra keys in
// input order already; an extra key the resolver found itself (a file's
// enable_pipelined_transfer before #15727) goes before the first reader's extra
// key of the same file that comes later in it, and a flag's at the end.
func (r *run) pydanticOrder(errs []FieldError, readers int) []FieldError {
	if len(errs) < 2 {
		return errs
	}
	fields := make([]string, len(r.rules.Fields))
	for i, f := range r.rules.Fields {
		fields[i] = f.Name
	}
	rank := func(e FieldError) int {
		if e.topKey() {
			// A top-level key that is no TorchLlmArgs field: an extra input of
			// the outer model, reported after every declared field's errors.
			return -2
		}
		if e.Root != "" {
			// Another TorchLlmArgs field, declared before
			// cache_transceiver_config (kv_cache_config, scheduler_config:
			// BaseLlmArgs fields) or after it (cuda_graph_config, moe_config:
			// TorchLlmArgs' own): sorted apart below.
			return -1
		}
		return slices.Index(fields, fieldOf(e.Loc))
	}
	// Errors under another TorchLlmArgs field: those declared before
	// cache_transceiver_config come first, the others after all of its own
	// errors; within a field, its declared fields' errors, then its extra
	// keys in input order.
	var before, after, rest []FieldError
	restReaders := 0
	for i, e := range errs {
		switch {
		case e.Root == "" || e.topKey():
			rest = append(rest, e)
			if i < readers {
				restReaders++
			}
		case nestedBeforeCTC(e.Root):
			before = append(before, e)
		default:
			after = append(after, e)
		}
	}
	errs, readers = rest, restReaders
	before, after = nestedOrder(before), nestedOrder(after)
	isDeclared := func(e FieldError) bool { return rank(e) >= 0 }
	var declared, extra []FieldError
	for _, e := range errs[:readers] {
		if isDeclared(e) {
			declared = append(declared, e)
		} else {
			extra = append(extra, e)
		}
	}
	for _, e := range errs[readers:] {
		if isDeclared(e) {
			declared = append(declared, e)
			continue
		}
		at := len(extra)
		if file, line, ok := fileLine(e.Origin); ok {
			for i, x := range extra {
				if xf, xl, ok := fileLine(x.Origin); ok && xf == file && xl > line {
					at = i
					break
				}
			}
		}
		extra = slices.Insert(extra, at, e)
	}
	slices.SortStableFunc(declared, func(a, b FieldError) int { return rank(a) - rank(b) })
	// The outer model's own extra keys come after everything inside it.
	var top []FieldError
	extra = slices.DeleteFunc(extra, func(e FieldError) bool {
		if rank(e) == -2 {
			top = append(top, e)
			return true
		}
		return false
	})
	out := append(before, declared...)
	out = append(append(out, extra...), after...)
	return append(out, top...)
}

// nestedOrder sorts the errors under other TorchLlmArgs fields by the field
// (NestedRoots' order, which is TorchLlmArgs'), and within one field as
// pydantic reports a model's errors: declared fields first, extra keys after
// in input order.
func nestedOrder(errs []FieldError) []FieldError {
	if len(errs) < 2 {
		return errs
	}
	var out []FieldError
	for _, root := range NestedRoots() {
		var declared, extra []FieldError
		for _, e := range errs {
			switch {
			case e.Root != root:
			case e.Type == "extra_forbidden":
				extra = append(extra, e)
			default:
				declared = append(declared, e)
			}
		}
		out = append(append(out, declared...), inputOrder(extra)...)
	}
	return out
}

// locItem renders one location item as pydantic does: in backticks when it
// holds a '.'.
func locItem(s string) string {
	if strings.Contains(s, ".") {
		return "`" + s + "`"
	}
	return s
}

// fileLine splits a FILE:LINE origin.
func fileLine(o Origin) (string, int, bool) {
	if o.Kind != OriginFile {
		return "", 0, false
	}
	i := strings.LastIndexByte(o.Detail, ':')
	if i < 0 {
		return "", 0, false
	}
	n, err := strconv.Atoi(o.Detail[i+1:])
	return o.Detail[:i], n, err == nil
}

// loc names the field in a reason: the key, or cache_transceiver_config itself;
// the empty key is written as Python's repr of "" (two quotes).
func (e FieldError) loc() string {
	root := e.Root
	switch {
	case e.TopKey && root == "":
		root = "''"
	case root == "" && !e.TopKey:
		if e.EmptyKey {
			return "cache_transceiver_config.''"
		}
		if e.Loc == "" {
			return "cache_transceiver_config"
		}
		return e.Loc
	}
	if e.Tag != "" && (e.Loc != "" || e.EmptyKey) {
		root += "." + e.Tag
	}
	switch {
	case e.EmptyKey:
		return root + ".''"
	case e.Loc == "":
		return root
	}
	return root + "." + e.Loc
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// literalList renders pydantic's "'A', 'B' or 'C'".
func literalList(vals []string) string {
	s := ""
	for i, v := range vals {
		switch {
		case i == 0:
		case i == len(vals)-1:
			s += " or "
		default:
			s += ", "
		}
		s += "'" + v + "'"
	}
	return s
}

func (r *run) stepDisagg() {
	const title = "Disaggregated serving on?"
	if r.skipIfHalted(StepDisagg, PhaseSetup, title) {
		return
	}
	if knobs := r.change(5234); !knobs.Has {
		r.stepDisaggLegacy(title, r.changeSource(knobs, fileOldCreate))
		return
	}
	b := r.t.Inputs.Backend
	if !b.Value.Valid {
		how := "backend is omitted"
		if b.Given() {
			how = "backend is null (" + b.Origin.String() + ")"
		}
		// From #5234 a worker without a transceiver still starts, and refuses
		// every disaggregated request it is sent (executor/worker.py).
		r.emit(StepDisagg, PhaseSetup, title, Applied, how+": disaggregation is off and no transceiver is created; a disaggregated request sent to this worker fails with "+DisabledRequestError, Source{File: r.createFile()}, Verified)
		r.log(LevelInfo, r.text(TextDisabled))
		r.t.Result.Outcome = OutcomeDisabled
		r.t.Result.RequestError = DisabledRequestError
		r.halt = haltDisaggOff
		return
	}
	r.backend = b.Value.S
	if !r.has(dayUpperCase) {
		// The lower-case literal of the time; the C++ side takes the enum
		// (_CacheTransceiverBackendType.from_string), so the rest of the chain
		// reads it upper-case.
		r.backend = strings.ToUpper(r.backend)
	}
	r.emit(StepDisagg, PhaseSetup, title, Applied, "backend "+b.Value.Repr()+" ("+b.Origin.String()+"): a transceiver will be created", Source{File: fileLLMArgs}, Verified)
}

// stepDisaggLegacy is the switch before #5234: create_kv_cache_transceiver
// looked only at TRTLLM_USE_UCX_KVCACHE, _NIXL_ and _MPI_, in that order, and any
// non-empty value turned the C++ transceiver on [V: stored copies of
// kv_cache_transceiver.py from before #5234 (search ids 3789947234, with
// NIXL and the executor binding's CacheTransceiverConfig, and 6254461557, an
// older one with UCX and MPI only): `if getenv("TRTLLM_USE_UCX_KVCACHE"):
// comm_type = CommTypeCpp.UCX elif ... NIXL elif ... MPI`, and no transceiver
// when comm_type is None; no log line at creation. Which releases run it is
// the release table's day (1.0.0rc0-rc3, before #5234's 07-17 merge)].
func (r *run) stepDisaggLegacy(title string, src Source) {
	for _, sel := range legacySelectors() {
		if v, ok := r.t.Inputs.Env[sel.Env]; ok && v.Value != "" {
			r.backend = sel.Backend
			r.t.Result.BackendSource = sel.Env
			r.emit(StepDisagg, PhaseSetup, title, Applied, sel.Env+"="+pyRepr(v.Value)+" is set (any non-empty value counts before #5234): the "+sel.Backend+" transceiver will be created; cache_transceiver_config is not consulted", src, Verified)
			return
		}
	}
	r.emit(StepDisagg, PhaseSetup, title, Applied, "before #5234 only TRTLLM_USE_UCX_KVCACHE, TRTLLM_USE_NIXL_KVCACHE or TRTLLM_USE_MPI_KVCACHE (any non-empty value) turns the transceiver on, and none is set: disaggregation is off", src, Verified)
	r.t.Result.Outcome = OutcomeDisabled
	r.halt = "not reached: disaggregation is off"
}

func (r *run) stepRuntime() {
	const title = "transceiver_runtime before resolution"
	if r.skipIfHalted(StepRuntime, PhaseSetup, title) {
		return
	}
	rt := r.t.Inputs.Runtime
	if rt.Given() && r.has(dayFieldExists) {
		// (Before the field exists a given value is refused at validation,
		// or, before #5234, ignored.)
		r.runtime = rt.Value
		then := "; explicit values are kept as they are"
		if rt.Value.Is("auto") {
			then = "; resolved at config load"
		}
		reason := rt.Value.Repr() + ", set explicitly (" + rt.Origin.String() + ")" + then
		r.emit(StepRuntime, PhaseSetup, title, Applied, reason, Source{File: fileLLMArgs}, Verified)
		return
	}
	r.runtime = r.heldRuntime()
	// The rule applied is the field's default, with its evidence.
	dflt := r.rules.RuntimeDefault
	ev := r.rules.RuntimeDefaultEvidence
	var reason string
	conf := ev.Confidence
	if conf == "" {
		conf = Verified
	}
	pr := ev.Source.PR
	switch {
	case !r.has(dayFieldExists):
		reason = "this release has no transceiver_runtime field: the C++ transceiver is the only one"
		conf, pr = Derived, 0
	case !dflt.Valid:
		reason = "omitted: the era-0 default None means the C++ transceiver"
	case dflt.Is("auto"):
		reason = "omitted: the default 'auto' is resolved at config load"
	default:
		reason = "omitted: the 1.4 default " + dflt.Repr() + " is used as is; the model hook is not consulted"
	}
	src, conf := settle(r.rules.Steps[StepRuntime], Source{PR: pr, File: fileLLMArgs}, conf)
	r.emit(StepRuntime, PhaseSetup, title, Applied, reason, src, conf)
}

func (r *run) stepBackend(p Phase) {
	const title = "Effective backend"
	if r.skipIfHalted(StepBackend, p, title) {
		return
	}
	r.effBackend, r.envVar = resolveDefaultBackend(r.backend, r.t.Inputs.Env, r.rules.Selectors, r.rules.DefaultBackend, r.rules.SelectorsTruthy)
	// Where DEFAULT is resolved: at config load (llm_args.py, #16164), else
	// when the transceiver is created.
	src := Source{File: fileOldCreate}
	if p := r.rules.Rule(PathConfigLoad); p.On {
		src = Source{PR: p.Evidence.Source.PR, File: fileLLMArgs}
	}
	var reason string
	switch knobs := r.change(5234); {
	case !knobs.Has:
		r.effBackend = r.backend
		reason = r.backend + ", chosen by " + r.t.Result.BackendSource + " (before #5234 the environment, not the config, picks it)"
		src = r.changeSource(knobs, fileOldCreate)
	case r.backend != "DEFAULT":
		reason = r.backend + ", set explicitly; TRTLLM_USE_*_KVCACHE are ignored"
		if ign := r.selectorsSetToOne(); ign != "" {
			reason = r.backend + ", set explicitly; TRTLLM_USE_*_KVCACHE are ignored (" + ign + " has no effect)"
		}
		r.t.Result.BackendSource = "config"
	case r.envVar != "":
		other, sep := r.otherSelectors(), ""
		if other != "" {
			sep = "; "
		}
		reason = "DEFAULT -> " + r.effBackend + ": " + r.envVar + " is exactly '1'" + sep + other
		if r.rules.SelectorsTruthy {
			reason = "DEFAULT -> " + r.effBackend + ": " + r.envVar + "=" + pyRepr(r.t.Inputs.Env[r.envVar].Value) +
				" is set (in #5234's form any non-empty value counts, UCX > NIXL > MPI)" + sep + other
		}
		r.t.Result.BackendSource = r.envVar
	default:
		reason = "DEFAULT -> NIXL: no TRTLLM_USE_*_KVCACHE is exactly '1'"
		r.t.Result.BackendSource = "NIXL default"
		if r.effBackend != "NIXL" {
			reason = "DEFAULT -> UCX: no TRTLLM_USE_*_KVCACHE is exactly '1' (UCX is the default before #7926, " + dayNIXLDefault.String() + ")"
			if r.rules.SelectorsTruthy {
				reason = "DEFAULT -> UCX: no TRTLLM_USE_UCX/NIXL/MPI_KVCACHE is set (UCX is #5234's default)"
			}
			r.t.Result.BackendSource = "UCX default"
		}
		if other := r.otherSelectors(); other != "" {
			reason += "; " + other
		}
	}
	r.t.Result.EffectiveBackend = Str(r.effBackend)
	r.emit(StepBackend, p, title, Applied, reason, src, Verified)
}

// selectorsSetToOne names the selectors equal to "1" (for an explicit backend).
func (r *run) selectorsSetToOne() string {
	s := ""
	for _, sel := range r.rules.Selectors {
		if v, ok := r.t.Inputs.Env[sel.Env]; ok && v.Value == "1" {
			if s != "" {
				s += ", "
			}
			s += sel.Env + "=1"
		}
	}
	return s
}

// otherSelectors explains the selectors that were set but did not decide: lower
// priority ones equal to "1", and values that are not exactly "1".
func (r *run) otherSelectors() string {
	s := ""
	for _, sel := range r.rules.Selectors {
		v, ok := r.t.Inputs.Env[sel.Env]
		if !ok || sel.Env == r.envVar {
			continue
		}
		if s != "" {
			s += "; "
		}
		switch {
		case v.Value == "1":
			s += sel.Env + "=1 is ignored (lower priority)"
		case r.rules.SelectorsTruthy && v.Value != "":
			s += sel.Env + "=" + pyRepr(v.Value) + " is ignored (lower priority)"
		case r.rules.SelectorsTruthy:
			s += sel.Env + "='' does not count (it is empty)"
		default:
			s += sel.Env + "=" + pyRepr(v.Value) + " does not count (only '1' does)"
		}
	}
	add := func(t string) {
		if s != "" {
			s += "; "
		}
		s += t
	}
	if !r.rules.SelectorsRead {
		// A selector of another release that this one does not read
		// (TRTLLM_USE_MOONCAKE_KVCACHE before #8309, TRTLLM_USE_NIXL_KVCACHE
		// while NIXL is the default, TRTLLM_USE_UCX_KVCACHE while UCX is).
		for _, sel := range backendSelectors() {
			if _, ok := r.t.Inputs.Env[sel.Env]; ok && !slices.ContainsFunc(r.rules.Selectors, func(b BackendSelector) bool { return b.Env == sel.Env }) {
				add(sel.Env + " is not read by this release")
			}
		}
	}
	// TRTLLM_USE_<B>_KV_CACHE is not a name TensorRT-LLM reads (every copy of
	// kv_cache_transceiver.py and llm_args.py read spells _KVCACHE); Dynamo
	// 0.7's TensorRT-LLM page told users to set TRTLLM_USE_UCX_KV_CACHE=1
	// (docs.nvidia.com/dynamo/archive/0.7.1), and its PR #5247 (2026-01) then
	// found that "does not work".
	for _, sel := range backendSelectors() {
		typo := strings.TrimSuffix(sel.Env, "KVCACHE") + "KV_CACHE"
		if _, ok := r.t.Inputs.Env[typo]; ok {
			add(typo + " is not a variable TensorRT-LLM reads (the selector is " + sel.Env + ")")
		}
	}
	if r.rules.SelectorsRead {
		// A selector xcvr knows that the install's table does not list.
		for _, sel := range backendSelectors() {
			if _, ok := r.t.Inputs.Env[sel.Env]; !ok || slices.ContainsFunc(r.rules.Selectors, func(b BackendSelector) bool { return b.Env == sel.Env }) {
				continue
			}
			if s != "" {
				s += "; "
			}
			s += sel.Env + " is not a selector in the install's table"
		}
	}
	return s
}

func (r *run) stepLoader() {
	const title = "Config-load resolution runs?"
	if r.skipIfHalted(StepLoader, PhaseLoad, title) {
		return
	}
	l := r.t.Inputs.Loader
	src := Source{File: fileModelLoader}
	if !r.on(PathConfigLoad) {
		r.emit(StepLoader, PhaseLoad, title, Skipped, "this version has no config-load resolution ('auto' does not exist yet)", src, Verified)
		return
	}
	switch l.Value {
	case LoaderAutoDeploy:
		r.emit(StepLoader, PhaseLoad, title, Skipped, "AutoDeploy ("+l.Origin.String()+") skips ModelLoader: nothing is resolved at load", src, Verified)
	case LoaderNone:
		r.phaseARan = true
		r.emit(StepLoader, PhaseLoad, title, Applied, "no checkpoint loader ("+l.Origin.String()+"): resolved without a model class", src, Verified)
	default:
		r.phaseARan = true
		r.emit(StepLoader, PhaseLoad, title, Applied, "standard PyTorch ModelLoader: load_config_and_apply_defaults runs", src, Verified)
	}
}

// modelUsed reports whether the config-load phase looks at a model class.
func (r *run) modelUsed() bool { return r.phaseARan && r.t.Inputs.Loader.Value != LoaderNone }

func (r *run) stepModel() {
	const title = "Architecture -> model class"
	if r.skipIfHalted(StepModel, PhaseLoad, title) {
		return
	}
	m := r.t.Inputs.Model.Value
	src := Source{File: fileModelingAuto}
	switch {
	case !r.on(PathConfigLoad):
		r.emit(StepModel, PhaseLoad, title, Skipped, "the model is not consulted before #16164", src, Verified)
		return
	case !r.phaseARan:
		r.emit(StepModel, PhaseLoad, title, Skipped, "config-load resolution does not run on this loader", src, Verified)
		return
	case r.t.Inputs.Loader.Value == LoaderNone:
		r.emit(StepModel, PhaseLoad, title, Skipped, "no checkpoint loader: no model class ('unknown model')", src, Verified)
		return
	}
	var reason string
	switch {
	case m.Arch == "":
		reason = "config.json has no architectures: the class is None ('unknown model')"
	case !m.Known:
		reason = m.Arch + " is not a registered architecture: unknown model"
	case m.Class == m.Arch:
		reason = m.Arch + " is a registered class"
	default:
		reason = m.Arch + " is registered on class " + m.Class
	}
	if m.Note != "" {
		reason += "; " + m.Note
	}
	if !r.runtime.Is("auto") {
		reason += " (not consulted: runtime is " + r.runtime.Repr() + ")"
	}
	conf := Verified
	if m.Known && m.PreferenceConfidence != "" && m.PreferenceConfidence != Verified {
		conf = m.PreferenceConfidence
	}
	r.emit(StepModel, PhaseLoad, title, Info, reason, src, conf)
}

func (r *run) modelClassName() string {
	m := r.t.Inputs.Model.Value
	if !r.modelUsed() || !m.Known || m.Arch == "" || m.Class == "" {
		return "unknown model"
	}
	return m.Class
}

// preference is what the hook returns, None when no class is consulted.
func (r *run) preference() PyStr {
	m := r.t.Inputs.Model.Value
	if !r.modelUsed() || !m.Known || m.Arch == "" {
		return PyStr{}
	}
	return m.Preference
}

func (r *run) stepPreference() {
	const title = "Model preference (get_preferred_transceiver_runtime)"
	if r.skipIfHalted(StepPreference, PhaseLoad, title) {
		return
	}
	// The hook is called by config-load resolution (#16164's rule).
	hook, _ := r.pathSource(PathConfigLoad, fileLLMUtils)
	src := hook
	skip := func(why string) {
		r.emit(StepPreference, PhaseLoad, title, Skipped, why, src, Verified)
	}
	// Where the installed code does not tell what the hook returns, the
	// catalog's value stands in, and the step says so where the value is used.
	undetermined := ""
	if r.rules.Models[r.t.Inputs.Model.Value.Arch].Undetermined != "" {
		undetermined = "the installed hook's result is undetermined; xcvr's catalog: "
	}
	m := r.t.Inputs.Model.Value
	switch {
	case !r.on(PathConfigLoad):
		skip("the hook does not exist before #16164")
		return
	case !r.phaseARan:
		skip("config-load resolution does not run on this loader")
		return
	case !r.runtime.Is("auto"):
		skip(runtimeSays(r.runtime, ", not 'auto': the hook is not called"))
		return
	case !r.modelUsed() || !m.Known || m.Arch == "":
		skip("no model class: no preference")
		return
	}
	p := m.Preference
	conf := m.PreferenceConfidence
	if conf == "" {
		conf = Verified
	}
	if m.PreferencePR != 0 {
		src = Source{PR: m.PreferencePR}
	}
	if p.Valid && p.S != "CPP" && p.S != "PYTHON" {
		r.raise(StepPreference, PhaseLoad, title, undetermined+m.Class+" returns "+p.Repr()+", which is not 'CPP', 'PYTHON' or None", hook, Verified,
			"ValueError", TextHookInvalid, vStr(m.Class), vPy(p))
		return
	}
	var reason string
	if p.Valid {
		reason = m.Class + " prefers " + p.Repr()
		if m.PreferencePR != 0 {
			reason = m.Class + " prefers " + p.Repr() + " (since #" + strconv.Itoa(m.PreferencePR) + ", " + m.PreferenceSince.String() + ")"
		}
	} else {
		reason = m.Class + " declares no preference (None)"
	}
	r.emit(StepPreference, PhaseLoad, title, Applied, undetermined+reason, src, conf)
}

func (r *run) stepAuto() {
	const title = "Resolve 'auto'"
	if r.skipIfHalted(StepAuto, PhaseLoad, title) {
		return
	}
	// The resolver applied: #18134's where the build has it, else #16164's.
	rule := PathConfigLoad
	if r.on(PathAutoPython) {
		rule = PathAutoPython
	}
	src, conf := r.pathSource(rule, fileLLMUtils)
	skip := func(why string) {
		r.emit(StepAuto, PhaseLoad, title, Skipped, why, src, Verified)
	}
	switch {
	case !r.on(PathConfigLoad):
		skip("'auto' does not exist before #16164")
		return
	case !r.phaseARan:
		skip("config-load resolution does not run on this loader; 'auto' stays unresolved")
		return
	case !r.runtime.Is("auto"):
		skip(runtimeSays(r.runtime, ", not 'auto': nothing to resolve"))
		return
	}
	pref := r.preference()
	cls := r.modelClassName()
	verdict := Applied
	var resolved PyStr
	var reason string
	if !r.on(PathAutoPython) {
		if pref.Is("PYTHON") && r.effBackend != "NIXL" {
			r.log(LevelInfo, r.text(TextFallbackBackend, vStr(r.effBackend)))
			verdict = Fallback
			reason = "the 'PYTHON' preference needs NIXL; on " + r.effBackend + " it falls back to None (C++)"
		} else {
			resolved = pref
			if pref.Valid {
				reason = "the model's preference " + pref.Repr() + " is adopted"
			} else {
				reason = "no preference: None, the C++ transceiver (era 1 has no Python default)"
			}
		}
	} else {
		switch {
		case pref.Valid:
			resolved = pref
			reason = "the model's preference " + pref.Repr() + " is adopted as is (no NIXL check since #18134)"
		case r.effBackend != "NIXL":
			why := "backend " + pyRepr(r.effBackend) + " (the Python transceiver requires NIXL)"
			r.log(LevelInfo, r.text(TextFallbackReason, vStr(why)))
			verdict = Fallback
			reason = "no preference; falls back to None (C++): " + why
		case !r.timeout().Valid:
			why := "kv_transfer_timeout_ms=None (the Python transceiver requires a finite timeout)"
			r.log(LevelInfo, r.text(TextFallbackReason, vStr(why)))
			verdict = Fallback
			reason = "no preference; falls back to None (C++): " + why
		default:
			resolved = Str("PYTHON")
			reason = "no preference: 'PYTHON', the default since #18134"
		}
	}
	r.runtime = resolved
	r.log(LevelInfo, r.text(TextResolvedAuto, vPy(resolved), vStr(cls)))
	if verdict == Applied {
		reason = reason + " -> " + resolved.Repr()
	}
	r.emit(StepAuto, PhaseLoad, title, verdict, reason, src, conf)
}

func (r *run) timeout() OptInt {
	if r.t.Inputs.Timeout.Given() {
		return r.t.Inputs.Timeout.Value
	}
	if !r.has(dayTimeoutDefault) {
		// The field's default was None until the 60000 default [U day].
		return OptInt{}
	}
	return Int(DefaultTimeoutMS)
}

// finishLoad records the runtime as TensorRT-LLM holds it after config load.
func (r *run) finishLoad() {
	if r.t.Result.FailedStep == StepValidate {
		return
	}
	if r.t.Result.Outcome == OutcomeDisabled {
		// Disaggregation is off: the field keeps whatever the config holds,
		// and without a config object there is no field (None in JSON).
		r.runtime = r.heldRuntime()
		if r.t.Inputs.NoTransceiverConfig {
			r.runtime = PyStr{}
		}
	}
	r.t.Result.ResolvedRuntime = r.runtime
	r.t.Result.RuntimeKnown = true
}

// heldRuntime is the field's value with the version's default applied.
func (r *run) heldRuntime() PyStr {
	if r.t.Inputs.Runtime.Given() && r.has(dayFieldExists) {
		return r.t.Inputs.Runtime.Value
	}
	return r.rules.RuntimeDefault
}

func (r *run) stepLeftoverAuto() {
	const title = "Leftover 'auto' -> None"
	if r.skipIfHalted(StepLeftoverAuto, PhaseCreation, title) {
		return
	}
	file := r.createFile()
	if r.hasConfigUtils() {
		file = fileConfigUtils
	}
	// 'auto' and its leftover fallback are config-load resolution's (#16164).
	src, _ := r.pathSource(PathConfigLoad, file)
	switch {
	case !r.on(PathConfigLoad):
		r.emit(StepLeftoverAuto, PhaseCreation, title, Skipped, "'auto' does not exist before #16164", src, Verified)
	case r.runtime.Is("auto"):
		r.runtime = PyStr{}
		r.emit(StepLeftoverAuto, PhaseCreation, title, Fallback, "'auto' was not resolved at load: it becomes None, the C++ transceiver", src, Verified)
	default:
		r.emit(StepLeftoverAuto, PhaseCreation, title, Skipped, runtimeAlready(r.runtime), src, Verified)
	}
}

func (r *run) stepPipelined() {
	const title = "Pipelined transfer (enable_pipelined_transfer)"
	if r.skipIfHalted(StepPipelined, PhaseCreation, title) {
		return
	}
	pipelined := r.change(15727)
	src := r.changeSource(pipelined, fileConfigUtils)
	skip := func(why string) {
		r.emit(StepPipelined, PhaseCreation, title, Skipped, why, src, Verified)
	}
	switch {
	case !pipelined.Has:
		skip("the field does not exist before #15727 (2026-09-02)")
		return
	case !r.t.Inputs.Pipelined.Value:
		skip("enable_pipelined_transfer is False")
		return
	}
	switch {
	case !r.runtime.Valid && r.effBackend != "NIXL":
		r.raise(StepPipelined, PhaseCreation, title, "runtime None on "+r.effBackend+": the C++ transceiver cannot pipeline", src, Verified,
			"ValueError", TextPipelinedBackend, vStr(r.effBackend))
	case !r.runtime.Valid:
		r.runtime = Str("PYTHON")
		r.log(LevelWarning, r.text(TextPipelinedAuto))
		r.emit(StepPipelined, PhaseCreation, title, Applied, "runtime None on NIXL with pipelining on: switched to 'PYTHON'", src, Verified)
	case r.runtime.Is("CPP"):
		r.raise(StepPipelined, PhaseCreation, title, "runtime 'CPP' cannot pipeline", src, Verified, "ValueError", TextPipelinedCPP)
	default:
		r.emit(StepPipelined, PhaseCreation, title, Applied, "runtime is "+r.runtime.Repr()+": pipelined transfer is available", src, Verified)
	}
}

func (r *run) stepPythonNIXL() {
	const title = "Python transceiver needs NIXL"
	if r.skipIfHalted(StepPythonNIXL, PhaseCreation, title) {
		return
	}
	src, conf := r.pathSource(PathPythonNIXL, r.createFile())
	early := r.on(PathConfigLoad) && r.hasConfigUtils()
	if early {
		// resolve_cache_transceiver_config's check, placed with #15727.
		src = r.changeSource(r.change(15727), fileConfigUtils)
	}
	if !r.runtime.Is("PYTHON") {
		r.emit(StepPythonNIXL, PhaseCreation, title, Skipped, notPython(r.runtime), src, Verified)
		return
	}
	if r.effBackend == "NIXL" {
		r.emit(StepPythonNIXL, PhaseCreation, title, Applied, "'PYTHON' on NIXL is supported", src, Verified)
		return
	}
	text := TextPythonNIXLCreate
	if early {
		text = TextPythonNIXLEarly
	}
	r.raise(StepPythonNIXL, PhaseCreation, title, "'PYTHON' on "+r.effBackend+" is not supported", src, conf, "ValueError", text, vStr(r.effBackend))
}

func (r *run) stepModelRequirement() {
	const title = "Model requirement (Kimi K3 needs Python on NIXL)"
	// The model is built after config load, whether or not disaggregation is
	// on, before the KV cache and the transceiver.
	disaggOff := r.halt == haltDisaggOff
	if !disaggOff && r.skipIfHalted(StepModelRequirement, PhaseLoad, title) {
		return
	}
	if r.modelBuild() || disaggOff && r.skipIfHalted(StepModelRequirement, PhaseLoad, title) {
		return
	}
	m := r.t.Inputs.Model.Value
	kimi := r.change(17480)
	src := r.changeSource(kimi, "tensorrt_llm/_torch/pyexecutor/_util.py")
	skip := func(why string, c Confidence) {
		r.emit(StepModelRequirement, PhaseLoad, title, Skipped, why, src, c)
	}
	// The route the KV-cache manager choice sees: an unresolved 'auto' counts as None.
	rt := r.runtime
	if rt.Is("auto") {
		rt = PyStr{}
	}
	switch {
	case !m.RequiresPython || !m.Known:
		skip("the model has no transceiver requirement", Verified)
		return
	case !kimi.Has:
		skip("the check does not exist before #17480 (merged "+kimi.Merged.String()+", per a weekly change report)", Derived)
		return
	case rt.Is("PYTHON") && r.effBackend == "NIXL":
		r.emit(StepModelRequirement, PhaseLoad, title, Applied, m.Class+" with 'PYTHON' on NIXL: accepted", src, Verified)
		return
	}
	r.raise(StepModelRequirement, PhaseLoad, title, m.Class+" can move its KDA state only with 'PYTHON' on NIXL; got "+rt.Repr()+" on "+r.effBackend, src, Verified,
		"ValueError", TextKimiK3, vStr(r.effBackend), vPy(rt))
}

// modelBuild is create_py_executor building the model after config load:
// AutoModelForCausalLM.from_config (modeling_auto.py) raises for an
// architecture MODEL_CLASS_MAPPING does not hold, so a model that resolved
// 'for unknown model' does not start. It reports whether the build fails (the
// step is then the failure). AutoDeploy builds its models its own way, and
// without a checkpoint loader xcvr does not know the build.
func (r *run) modelBuild() bool {
	m := r.t.Inputs.Model.Value
	if m.Known || m.Arch == "" && r.t.Inputs.Model.Origin.IsDefault() {
		// A model field nobody set (Inputs without a model) says nothing of
		// config.json; an empty architectures list comes from a file or a flag.
		return false
	}
	if l := r.t.Inputs.Loader.Value; l != LoaderPyTorch && l != "" {
		return false
	}
	const title = "Build the model (AutoModelForCausalLM.from_config)"
	src := Source{File: fileModelingAuto}
	var reason, exc string
	conf := Inferred
	switch {
	case m.Arch == "" && r.has(day16164):
		// Read in a stored modeling_auto.py whose from_config calls
		// _resolve_class (which #16164's loader calls too); the day the check
		// came is not known.
		reason, exc, conf = "config.json has no architectures: from_config refuses the config", "ValueError: architectures field is required in pretrained_config from HF checkpoint config.json", Derived
	case m.Arch == "":
		reason, exc = "config.json has no architectures: the lookup of architectures[0] fails", "… (from_config reads architectures[0] of an empty or missing list; this release's message was not read)"
	default:
		// The message is the same in every stored modeling_auto.py, from the
		// early direct MODEL_CLASS_MAPPING.get to the _resolve_class form.
		name := m.Arch
		if q := pyRepr(name); q[1:len(q)-1] != name {
			// A line break or an invisible character in the name: written
			// escaped (TensorRT-LLM's str() prints it raw).
			name = q[1 : len(q)-1]
		}
		exc = "ValueError: Unknown architecture for AutoModelForCausalLM: " + name
		switch {
		// The reasons do not repeat the name: the model step and the exception
		// hold it.
		case m.Unregistered && r.rules.FromInstall:
			reason, conf = "architectures[0] is not registered in the install: from_config finds no class", VerifiedInstall
		case m.Unregistered:
			reason, conf = "architectures[0] is not registered in this version ("+m.Note+"): from_config finds no class", Derived
		default:
			reason = "architectures[0] is not in xcvr's catalog, which lists the architectures with a transceiver or KV-cache rule: if TensorRT-LLM does not register it either, from_config finds no class (if it does, the model builds and the log lines name its class)"
		}
	}
	if r.halt == haltDisaggOff {
		// Transceiver creation, which logs that it is disabled, is not reached.
		r.t.Logs = slices.DeleteFunc(r.t.Logs, func(l LogLine) bool { return l.Message == r.text(TextDisabled) })
	}
	reason += "; the LLM API re-raises it as RuntimeError: Executor worker returned error"
	r.add(Step{ID: StepModelRequirement, Phase: PhaseLoad, Title: title, Verdict: Error, Reason: reason, Detail: detailFor(StepModelRequirement), Source: src, Confidence: conf})
	r.fail(StepModelRequirement, exc)
	return true
}

func (r *run) stepInflightCancel() {
	const title = "In-flight cancel checks"
	if r.skipIfHalted(StepInflightCancel, PhaseCreation, title) {
		return
	}
	src := Source{File: r.createFile()}
	v, set := r.t.Inputs.Env.Lookup(EnvInflightCancel)
	if p := r.rules.Rule(PathInflightChecks); !p.On {
		r.emit(StepInflightCancel, PhaseCreation, title, Skipped, "no in-flight cancel validation in era-0 code", src, confOr(p.Evidence.Confidence))
		return
	}
	if v != "1" {
		why := EnvInflightCancel + " is unset: the checks do not run"
		if set {
			why = EnvInflightCancel + "=" + pyRepr(v) + " is not '1': the checks do not run"
		}
		r.emit(StepInflightCancel, PhaseCreation, title, Skipped, why, src, Verified)
		return
	}
	r.log(LevelWarning, r.text(TextInflightWarning, vStr(EnvInflightCancel)))
	if r.backend == "DEFAULT" {
		list, n := "", 0
		for _, sel := range r.rules.Selectors {
			if x, ok := r.t.Inputs.Env[sel.Env]; ok && x.Value == "1" {
				if n > 0 {
					list += ", "
				}
				list += pyRepr(sel.Env)
				n++
			}
		}
		if n > 1 {
			r.raise(StepInflightCancel, PhaseCreation, title, "backend DEFAULT with several selectors set to '1' is ambiguous", src, Verified,
				"ValueError", TextInflightAmbig, vStr(EnvInflightCancel), vLit("["+list+"]"))
			return
		}
	}
	rt := r.runtime
	if !rt.Valid {
		rt = Str("CPP") // transceiver_runtime or "CPP"
	}
	nixl, nixlSet := r.t.Inputs.Env.Lookup(EnvNIXLBackend)
	if !nixlSet {
		nixl = "UCX"
	}
	envVal := func(name string) (pyVal, bool) {
		x, ok := r.t.Inputs.Env.Lookup(name)
		if !ok {
			return vPy(PyStr{}), false
		}
		return vStr(x), x == "1"
	}
	overlap, badOverlap := envVal(EnvNoOverlap)
	layer, badLayer := envVal(EnvLayerwise)
	zcopy, badZcopy := envVal(EnvTryZcopy)
	timeout := r.timeout()
	supported := rt.Is("CPP") && r.backend == "NIXL" && nixl == "UCX" && timeout.Valid &&
		!badOverlap && !badLayer && !badZcopy
	if supported {
		r.emit(StepInflightCancel, PhaseCreation, title, Applied, "'CPP' on backend NIXL (UCX transport), finite timeout: the supported set-up", src, Verified)
		return
	}
	r.raise(StepInflightCancel, PhaseCreation, title, "in-flight cancel supports only 'CPP' on backend 'NIXL' (literally) with the UCX transport and a finite timeout", src, Verified,
		"ValueError", TextInflightUnsupp, vStr(EnvInflightCancel), vPy(rt), vStr(r.backend), vStr(nixl), vLit(timeout.String()), overlap, layer, zcopy)
}

func (r *run) stepBackendLogs() {
	const title = "Backend at creation (DEFAULT, MPI and UCX lines)"
	if r.skipIfHalted(StepBackendLogs, PhaseCreation, title) {
		return
	}
	src := Source{File: r.createFile()}
	var reason string
	switch {
	case r.envVar != "" && r.rules.SelectorsTruthy:
		// #5234's form logs nothing for a selector.
		reason = "DEFAULT becomes " + r.effBackend + " (" + r.envVar + " set; no warning in #5234's form)"
	case r.envVar != "":
		r.log(LevelWarning, r.text(TextEnvSelector, vStr(r.envVar)))
		reason = "DEFAULT becomes " + r.effBackend + " (" + r.envVar + "=1, warned)"
	case r.backend == "DEFAULT" && r.effBackend == "NIXL":
		reason = "DEFAULT becomes NIXL"
	case r.backend == "DEFAULT":
		reason = "DEFAULT becomes " + r.effBackend
	default:
		reason = "backend " + r.effBackend
	}
	switch r.effBackend {
	case "MPI":
		r.log(LevelWarning, r.text(TextMPIDeprecated))
		reason += "; MPI is deprecated (warned)"
	case "UCX":
		if !r.has(day6085) {
			reason += "; no UCX hint before #6085"
			break
		}
		r.log(LevelInfo, r.text(TextUCXHint))
		reason += "; UCX hint logged"
	}
	conf := Verified
	if !r.has(dayUpperCase) {
		// The texts, byte for byte, are those of kv_cache_transceiver.py at
		// raayandhar/TensorRT-LLM@3e912e56 (a fork's copy of September 2025,
		// pre-#7926, whose own edits are a debug block in
		// BindKvCacheTransceiver): "cache_transceiver is disabled" :35, the
		// selector warning :48, the MPI warning :55, the UCX hint :58-60; the
		// earlier symphonylyh/TensorRT-LLM@cc079558 copy has the same disabled
		// and MPI texts (:36, :51) [V]. For the lower-case era they are
		// derived: the UCX hint is #6085's (2025-07-18), the selector warning
		// is not in the early copy and its day is not known.
		conf = Derived
	}
	r.emit(StepBackendLogs, PhaseCreation, title, Applied, reason, src, conf)
}

func (r *run) stepTransceiver() {
	const title = "Build the transceiver"
	if r.skipIfHalted(StepTransceiver, PhaseCreation, title) {
		return
	}
	if r.runtime.Is("PYTHON") {
		r.log(LevelInfo, r.text(TextUsingV2))
		if r.has(dayFieldExists) && !r.has(dayPyTransceiverV2) {
			// PyNativeCacheTransceiver keeps kv_transfer_timeout_ms as given and
			// divides only kv_transfer_sender_future_timeout_ms (default 1000),
			// so a null timeout does not stop it at init [V:
			// native/py_cache_transceiver.py __init__ at
			// bdubayah/TensorRT-LLM@aa0117b5; its check_context_transfer_status
			// waits with timeout_ms=self.sender_future_timeout_ms]. That this is
			// the build's class is derived (the copy is main about
			// 2026-03-17..20) and inferred near its end (dayPyTransceiverV2).
			conf := Derived
			if r.rules.Main >= dayTimeoutDefault {
				conf = Inferred
			}
			reason := "runtime 'PYTHON': the Python transceiver " + ClassPythonNative + " (native/py_cache_transceiver.py; KvCacheTransceiverV2 replaced it on main about " + dayPyTransceiverV2.String() + ")"
			if !r.timeout().Valid {
				reason += "; it keeps a null kv_transfer_timeout_ms without dividing it, so start-up goes on"
			}
			r.t.Result.Outcome = OutcomePython
			r.t.Result.Class = ClassPythonNative
			r.emit(StepTransceiver, PhaseCreation, title, Applied, reason, Source{File: filePyNative}, conf)
			return
		}
		if !r.timeout().Valid {
			reason := "KvCacheTransceiverV2 needs a finite kv_transfer_timeout_ms; it is None (" + r.t.Inputs.Timeout.Origin.String() + ")"
			explicit := r.change(17137)
			src := r.changeSource(explicit, fileTransceiver)
			if explicit.Has {
				r.raise(StepTransceiver, PhaseCreation, title, reason, src, Verified, "ValueError", TextV2Timeout)
				return
			}
			// Before #17137 the None reaches a division (inferred).
			r.raise(StepTransceiver, PhaseCreation, title, reason, src, Verified, "TypeError", TextV2NoneDivision)
			return
		}
		r.t.Result.Outcome = OutcomePython
		r.t.Result.Class = ClassPython
		r.emit(StepTransceiver, PhaseCreation, title, Applied, "runtime 'PYTHON': the Python transceiver "+ClassPython, Source{File: r.createFile()}, Verified)
		return
	}
	reason := cppReason(r.runtime)
	if r.on(PathCppDeprecated) {
		reason = reason + " (deprecated in 1.4 per the docs; no log line is known)"
	}
	r.t.Result.Outcome = OutcomeCPP
	r.t.Result.Class = ClassCPP
	r.emit(StepTransceiver, PhaseCreation, title, Applied, reason, Source{File: r.createFile()}, Verified)
}

func (r *run) finish() {
	res := &r.t.Result
	res.Hint = r.hint()
	if res.Outcome == OutcomeDisabled || res.FailedStep == StepValidate {
		res.EffectiveBackend = PyStr{}
		res.BackendSource = ""
	}
	if res.Outcome == OutcomeError {
		res.Class = ""
	}
}

// hint suggests the smallest configuration change that gets past the failed step.
func (r *run) hint() string {
	switch r.t.Result.FailedStep {
	case StepValidate:
		return r.validateHint()
	case StepPythonNIXL:
		return "use backend: NIXL, or set transceiver_runtime: CPP to keep " + r.effBackend
	case StepTransceiver:
		return "set a finite kv_transfer_timeout_ms (the default is 60000), or transceiver_runtime: CPP"
	case StepPipelined:
		if r.runtime.Is("CPP") {
			return "drop enable_pipelined_transfer, or set transceiver_runtime: PYTHON on NIXL"
		}
		return "use backend: NIXL, or drop enable_pipelined_transfer"
	case StepModelRequirement:
		if m := r.t.Inputs.Model.Value; !m.Known {
			// The model build failed.
			if m.Arch == "" {
				return "give config.json an architectures list naming a class TensorRT-LLM registers"
			}
			if m.Unregistered {
				return "serve a release that registers this architecture (" + m.Note + ")"
			}
			return "check architectures[0] in config.json: TensorRT-LLM must register it (" + m.Note + ")"
		}
		return "set backend: NIXL with transceiver_runtime: PYTHON (or auto)"
	case StepInflightCancel:
		return "unset " + EnvInflightCancel + ", or use backend: NIXL (literally) with transceiver_runtime: CPP"
	case StepPreference:
		return "the model class must return 'CPP', 'PYTHON' or None; set transceiver_runtime explicitly to skip the hook"
	case StepKVManager:
		return "with two-model speculative decoding leave use_kv_cache_manager_v2 at auto or set it to false"
	case StepCacheManager:
		if r.kvV2 && !r.has(dayFieldExists) {
			// No transceiver_runtime (and so no Python transceiver) before 1.3.0rc8.
			return "set use_kv_cache_manager_v2: false: this release has only the C++ transceiver, which needs the V1 manager"
		}
		if r.kvV2 {
			return "set transceiver_runtime: PYTHON with backend: NIXL, or use_kv_cache_manager_v2: false"
		}
		return "set use_kv_cache_manager_v2: true, or kv_cache_config.enable_block_reuse: false"
	case StepMambaGuards:
		if r.t.Result.CacheManagerClass == clsKVV2 && !r.has(dayFieldExists) {
			return "set use_kv_cache_manager_v2: false: this release has only the C++ transceiver, which needs the V1 manager"
		}
		if r.t.Result.CacheManagerClass == clsKVV2 {
			return "set transceiver_runtime: PYTHON with backend: NIXL, or use_kv_cache_manager_v2: false"
		}
		if r.runtime.Is("PYTHON") {
			return "set use_kv_cache_manager_v2: true (or turn block reuse off), or transceiver_runtime: CPP"
		}
		return "set transceiver_runtime: PYTHON with backend: NIXL"
	case StepPipelinedStatic:
		return "meet enable_pipelined_transfer's requirements (chunked prefill, pp=1, cp=1, beam width 1, no bounce buffer), or drop it"
	}
	return ""
}

// validateHint names every field pydantic rejected, each with what it accepts, in
// pydantic's order, so that following the hint fixes all of them at once (and an
// invalid backend never gets a timeout hint).
func (r *run) validateHint() string {
	var cased, clauses, unknown []string
	seen := map[string]bool{}
	add := func(c string) {
		if !seen[c] {
			seen[c] = true
			clauses = append(clauses, c)
		}
	}
	for _, e := range r.validationErrors() {
		field := fieldOf(e.Loc)
		if e.Type == "extra_forbidden" && field != "enable_pipelined_transfer" && datedField(field) && !r.hasField(field) {
			add("remove " + field + ": " + fieldSince(field))
			continue
		}
		if e.Type == "extra_forbidden" && field != "enable_pipelined_transfer" {
			// The key as the file writes it: a union member's tag
			// (cuda_graph_config.decode) is pydantic's, not the file's.
			e.Tag = ""
			if m := r.meantKey(e); m != "" {
				add("rename the unknown key " + e.loc() + " to " + m + " (the nearest field)")
				continue
			}
			unknown = append(unknown, e.loc())
			continue
		}
		switch field {
		case "":
			if e.Type == "value_error" {
				add(bounceValidatorHint(e.Message))
				continue
			}
			add("write cache_transceiver_config as a mapping of its fields, e.g. {backend: NIXL}")
		case "backend":
			if lit := foldMatch(r.t.Inputs.Backend.Value, r.backendLiteralsOf()); lit != "" {
				cased = append(cased, "backend: "+lit)
				continue
			}
			add("set backend to " + literalList(r.backendLiteralsOf()) + " (or omit it: disaggregation off)")
		case "transceiver_runtime":
			rt := r.t.Inputs.Runtime.Value
			if !r.on(PathConfigLoad) && rt.Valid && equalFold(rt.S, "auto") {
				add("'auto' exists only from #16164 (2026-07-16); omit transceiver_runtime or write CPP or PYTHON")
				continue
			}
			if lit := foldMatch(rt, r.runtimeLiterals()); lit != "" {
				cased = append(cased, "transceiver_runtime: "+lit)
				continue
			}
			add("set transceiver_runtime to " + literalList(r.runtimeLiterals()) + ", or omit it")
		case "kv_transfer_timeout_ms", "kv_transfer_sender_future_timeout_ms", "kv_transfer_poll_interval_ms":
			add("set " + field + " to a positive integer (milliseconds) or null")
		case "max_tokens_in_buffer":
			add("set max_tokens_in_buffer to an integer or null")
		case "kv_cache_bounce_size_mb":
			add("set kv_cache_bounce_size_mb to an integer of 0 or more")
		case "enable_pipelined_transfer":
			if !r.has(day15727) {
				add("remove enable_pipelined_transfer: it exists only from #15727 (2026-09-02)")
				continue
			}
			add("set enable_pipelined_transfer to true or false")
		case "agent_bounce_buffer_enable":
			add("set agent_bounce_buffer_enable to true or false")
		case "agent_bounce_params":
			add("write agent_bounce_params as a mapping of strings to strings")
		default:
			add("fix " + field)
		}
	}
	if len(cased) > 0 {
		clauses = append([]string{"write " + joinAnd(cased) + " (values are case-sensitive)"}, clauses...)
	}
	if len(unknown) > 0 {
		const shown = 3
		c := "remove the unknown key"
		if len(unknown) > 1 {
			c += "s"
		}
		names := unknown
		if len(names) > shown {
			names = names[:shown]
		}
		c += " " + strings.Join(names, ", ")
		if len(unknown) > shown {
			c += " and " + strconv.Itoa(len(unknown)-shown) + " more"
		}
		clauses = append(clauses, c)
	}
	return strings.Join(clauses, "; ")
}

// meantKey is the field of an unknown key's model at this build that the key
// is a slip away from (free_gpu_memory_fraction for free_gpu_mem_fraction),
// "" when none is: a
// misspelt kv_cache_config or cache_transceiver_config key is the classic
// cause of extra_forbidden, and "remove" alone would drop the setting the
// operator meant. Only the models whose fields xcvr holds for the build are
// searched (cache_transceiver_config's, and NestedFieldsFor's); top-level
// keys are not.
func (r *run) meantKey(e FieldError) string {
	if e.TopKey || e.EmptyKey || e.Loc == "" {
		return ""
	}
	key, _, _ := strings.Cut(e.Loc, ".")
	var fields []string
	if e.Root == "" {
		for _, f := range r.rules.Fields {
			fields = append(fields, f.Name)
		}
	} else if n, ok := NestedFieldsFor(r.t.Inputs.Version, e.Root); ok {
		fields = n.Fields
	}
	return nearestName(key, fields)
}

// nearestName is the one name in names nearest key by edit distance, "" when
// none is near enough or two are equally near. Near enough is 2 edits, or one
// in six of key's bytes for a long key (free_gpu_mem_fraction is 3 from
// free_gpu_memory_fraction). Keys over 64 bytes are not compared: the cost is
// the product of the lengths, and a file's keys can be anything.
func nearestName(key string, names []string) string {
	if key == "" || len(key) > 64 {
		return ""
	}
	limit := max(2, len(key)/6)
	best, bestD, tie := "", limit+1, false
	for _, n := range names {
		if n == key || len(n) > 64 {
			continue
		}
		switch d := suggest.Distance(key, n); {
		case d < bestD:
			best, bestD, tie = n, d, false
		case d == bestD:
			tie = true
		}
	}
	if tie {
		return ""
	}
	return best
}

// foldMatch returns the literal v spells in another case, or "".
func foldMatch(v PyStr, lits []string) string {
	if !v.Valid {
		return ""
	}
	for _, lit := range lits {
		if v.S != lit && equalFold(v.S, lit) {
			return lit
		}
	}
	return ""
}

// joinAnd joins "a", "a and b", "a, b and c".
func joinAnd(xs []string) string {
	if len(xs) < 2 {
		return strings.Join(xs, "")
	}
	return strings.Join(xs[:len(xs)-1], ", ") + " and " + xs[len(xs)-1]
}

// equalFold is an ASCII case-insensitive comparison (the literals are ASCII).
func equalFold(a, b string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := 0; i < len(a); i++ {
		x, y := a[i], b[i]
		if 'A' <= x && x <= 'Z' {
			x += 'a' - 'A'
		}
		if 'A' <= y && y <= 'Z' {
			y += 'a' - 'A'
		}
		if x != y {
			return false
		}
	}
	return true
}

// runtimeSays is "runtime is <repr><rest>".
func runtimeSays(rt PyStr, rest string) string { return "runtime is " + rt.Repr() + rest }

// runtimeAlready is the leftover-auto step's reason for a resolved runtime.
func runtimeAlready(rt PyStr) string { return "runtime is already " + rt.Repr() }

// cppReason is the build step's reason for the C++ transceiver.
func cppReason(rt PyStr) string { return "runtime " + rt.Repr() + ": the C++ transceiver " + ClassCPP }

// validationError renders the errors as pydantic v2 prints a ValidationError
// for TorchLlmArgs, which is where trtllm-serve validates cache_transceiver_config
// (without the per-error documentation URL, whose pydantic version xcvr cannot know).
func validationError(errs []FieldError) string {
	var b strings.Builder
	b.WriteString("pydantic_core._pydantic_core.ValidationError: " + strconv.Itoa(len(errs)) + " validation error")
	if len(errs) != 1 {
		b.WriteString("s")
	}
	model := "TorchLlmArgs"
	if len(errs) > 0 && errs[0].Model != "" {
		// Raised by the nested model itself (update_llm_args_with_extra_dict's
		// Model(**d)): its own title, and locs without the TorchLlmArgs field.
		model = errs[0].Model
	}
	b.WriteString(" for " + model)
	for _, e := range errs {
		if e.Model != "" {
			b.WriteString("\n" + locItem(e.Loc))
		} else if e.Root != "" || e.TopKey {
			// A top-level key is one location item: pydantic puts an item
			// holding a '.' in backticks (and prints '' as an empty line).
			root := e.Root
			if strings.Contains(root, ".") {
				root = "`" + root + "`"
			}
			b.WriteString("\n" + root)
		} else {
			b.WriteString("\ncache_transceiver_config")
		}
		switch {
		case e.Model != "":
		case e.Root != "" && !e.TopKey && (e.Loc != "" || e.EmptyKey):
			// A nested model's key is one location item, after the union
			// member's tag where the model is one of a union's.
			if e.Tag != "" {
				b.WriteString("." + e.Tag)
			}
			b.WriteString("." + locItem(e.Loc))
		case e.Loc != "" || e.EmptyKey:
			b.WriteString("." + e.Loc)
		}
		b.WriteString("\n  " + e.Message)
		if e.Type != "" {
			b.WriteString(" [type=" + e.Type + ", input_value=" + PyTruncate(e.Input) + ", input_type=" + e.InputType + "]")
		}
	}
	return b.String()
}

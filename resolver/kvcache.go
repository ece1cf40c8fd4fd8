package resolver

import (
	"strconv"
	"strings"
)

// Upstream files of the KV-cache manager steps.
const (
	fileUtil      = "tensorrt_llm/_torch/pyexecutor/_util.py"
	envFabric     = "TRTLLM_KVCACHE_POOL_USE_FABRIC_MEMORY"
	envDisaggRole = "TRTLLM_DISAGG_ROLE"
	envPyMamba    = "TRTLLM_USE_PY_MAMBA"
	envMambaPref  = "TLLM_MAMBA_MANAGER_PREFERENCE"
	clsKVV1       = "KVCacheManager"
	clsKVV2       = "KVCacheManagerV2"
	clsMambaCpp   = "CppMambaHybridCacheManager"
	clsMambaMixed = "MixedMambaHybridCacheManager"
	clsMambaV2    = "MambaHybridCacheManagerV2"
	// fileUtilHybridV2 is the _util.py version whose get_kv_cache_manager_cls
	// was read for the V2-era hybrid route (is_disagg, cache_transceiver_config).
	fileUtilHybridV2 = "tensorrt_llm/_torch/pyexecutor/_util.py@0004396"
)

// kvSetting is use_kv_cache_manager_v2 as the config holds it before resolution:
// the explicit value, or the version's default.
func (r *run) kvSetting() (KVSetting, bool) {
	if f := r.t.Inputs.KVManager; f.Given() && f.Value != "" {
		return f.Value, true
	}
	return r.rules.kvDefault(), false
}

// DefaultKVSetting is use_kv_cache_manager_v2's default in version v: False
// before #15823, 'auto' until 1.4, True in 1.4 (#17495's release note, inferred).
func DefaultKVSetting(v Version) KVSetting { return ReleaseRules(v).kvDefault() }

// kvDefault is use_kv_cache_manager_v2's default in the build's rules.
func (rs *Rules) kvDefault() KVSetting {
	switch {
	case !rs.Has(day15823):
		return KVV1
	case rs.On(PathKVV2Default):
		return KVV2
	}
	return KVAuto
}

// kvResolvedAtLoad reports whether ModelLoader resolves 'auto' (the standard
// loader with a checkpoint loader; the no-loader shortcut returns before it).
func (r *run) kvResolvedAtLoad() bool {
	return r.t.Inputs.Loader.Value == LoaderPyTorch || r.t.Inputs.Loader.Value == ""
}

func kvName(v2 bool) PyStr {
	if v2 {
		return Str("V2")
	}
	return Str("V1")
}

func pyBool(b bool) string {
	if b {
		return "True"
	}
	return "False"
}

// stepKVManager resolves kv_cache_config.use_kv_cache_manager_v2. Before #16060
// 'auto' takes the model default (get_model_defaults()); from #16060 it takes
// get_preferred_kv_cache_manager_version() and demotes V2 to V1 in disaggregated
// serving off the PYTHON-on-NIXL route (llm_utils.py@0066b2a5).
func (r *run) stepKVManager() {
	const title = "KV-cache manager (use_kv_cache_manager_v2)"
	// ModelLoader resolves 'auto' whether or not disaggregation is on: only a
	// failure stops it. With disaggregation off there is no transceiver, so no
	// disaggregated demotion either.
	disaggOff := r.halt == haltDisaggOff
	if !disaggOff && r.skipIfHalted(StepKVManager, PhaseLoad, title) {
		return
	}
	set, explicit := r.kvSetting()
	m := r.t.Inputs.Model.Value
	// The form of the resolution the build has: #16060's hook after the
	// transceiver, else #15823's model defaults in ModelLoader.
	hook := r.change(16060)
	src := r.changeSource(hook, fileLLMUtils)
	if !hook.Has {
		src = r.changeSource(r.change(15823), fileModelLoader)
	}
	done := func(v2 bool, verdict Verdict, reason string, c Confidence) {
		r.kvV2 = v2
		if disaggOff {
			// The JSON contract keeps kv_cache_manager null without a
			// transceiver; the step and its log line show what config load did.
			reason = "disaggregation is off, but ModelLoader still resolves the setting: " + reason
		} else {
			r.t.Result.KVManager = kvName(v2)
		}
		r.emit(StepKVManager, PhaseLoad, title, verdict, reason, src, c)
	}
	// The line names the class _resolve_class returned (the execution class),
	// not the preference class the transceiver line names.
	cls := "unknown model"
	if m.Known && m.Arch != "" && m.Class != "" {
		cls = m.Class
		if m.ExecClass != "" {
			cls = m.ExecClass
		}
	}
	// resolvedLine is ModelLoader's INFO line after _resolve_kv_cache_manager_v2_auto
	// whenever the setting it found was 'auto' (model_loader.py: "Resolved
	// use_kv_cache_manager_v2='auto' to %s for %s", the class _resolve_class
	// returned or "unknown model"). It follows the V1-fallback line.
	resolvedLine := func(v2 bool) {
		msg := r.text(TextKVResolvedAuto, vLit(pyBool(v2)), vStr(cls))
		if disaggOff {
			// Config load comes before transceiver creation's "disabled" line.
			r.logBefore(LevelInfo, msg, r.text(TextDisabled))
			return
		}
		r.log(LevelInfo, msg)
	}
	var draft Field[bool]
	if r.t.Inputs.Static != nil {
		draft = r.t.Inputs.Static.TwoModelDraft
	}
	twoModel := draft.Value
	switch {
	case explicit && set != KVAuto:
		v2 := set == KVV2
		reason := pyBool(v2) + ", set explicitly (" + r.t.Inputs.KVManager.Origin.String() + "): kept as is"
		if v2 && twoModel && r.has(day16060) {
			// The docstring says an explicit True is rejected with two-model
			// speculative decoding; the raise itself was not found upstream.
			r.raise(StepKVManager, PhaseLoad, title, "True with two-model speculative decoding ("+draft.Origin.String()+"): the draft engine would size its pool from the same budget", src, Verified, "ValueError", TextKVV2TwoModel)
			return
		}
		done(v2, Applied, reason, Verified)
		return
	case explicit && !r.has(day15823):
		// Validation already refused it; unreachable, kept for safety.
		done(false, Skipped, "'auto' is not a valid value before #15823", Inferred)
		return
	case !explicit && !r.has(day10659):
		done(false, Applied, "no such field before #10659 (merged "+day10659.String()+"): the V1 manager is the only one", Derived)
		return
	case !explicit && !r.has(day15823):
		done(false, Applied, "omitted: a plain bool defaulting to False before #15823 (merged "+day15823.String()+"): V1", Derived)
		return
	case !r.kvResolvedAtLoad():
		done(false, Applied, "'auto' is not resolved on this loader; get_kv_cache_manager_cls picks V2 only for use_kv_cache_manager_v2 is True, so V1", Verified)
		return
	}
	pref := PyStr{}
	if m.Known && m.Arch != "" {
		pref = m.KVPreference
	}
	if pref.Is("V2") && m.KVViaDefaults {
		// A get_model_defaults() value is deep-merged into the config before
		// resolution: V2 with no disaggregated demotion. Before #16060 an
		// omitted setting is then no longer 'auto' (no line), while an
		// explicit 'auto' is kept by the merge and resolved from the defaults
		// dict (line "to True"); from #16060 the line is logged either way
		// (issue 19's run of upstream code; derived).
		switch {
		case r.has(day16060):
			resolvedLine(true)
			done(true, Applied, cls+"'s get_model_defaults() sets use_kv_cache_manager_v2=True"+kvSince(m)+": V2, with no fallback", Derived)
		case explicit:
			resolvedLine(true)
			done(true, Applied, "'auto' set explicitly, which the merge of "+cls+"'s get_model_defaults() keeps; _resolve_kv_cache_manager_v2_auto takes the defaults' True"+kvSince(m)+": V2", confOr(m.KVPreferenceConfidence))
		default:
			done(true, Applied, cls+"'s get_model_defaults() sets use_kv_cache_manager_v2=True"+kvSince(m)+": merged into the config before resolution, so V2 as if written, with no log line and no fallback", confOr(m.KVPreferenceConfidence))
		}
		return
	}
	if !r.has(day16060) {
		resolvedLine(false)
		done(false, Applied, "'auto' with no model default: False (V1)", Verified)
		return
	}
	if !explicit && r.on(PathKVV2Default) {
		// 1.4 defaults to V2 (#17495's release note); how it falls back off
		// PYTHON-on-NIXL, and what it logs, is not known: no line is assumed.
		const why = "omitted: 1.4 defaults to V2 (#17495 release note)"
		src, _ = r.pathSource(PathKVV2Default, fileLLMArgs)
		if !disaggOff && (r.effBackend != "NIXL" || !r.runtime.Is("PYTHON")) {
			done(false, Fallback, why+", which needs 'PYTHON' on NIXL; the route is "+r.runtime.Repr()+" on "+r.effBackend+": V1 (how 1.4 falls back, and what it logs, is inferred)", Inferred)
			return
		}
		if disaggOff {
			done(true, Applied, why+": V2", Inferred)
			return
		}
		done(true, Applied, why+"; 'PYTHON' on NIXL: V2", Inferred)
		return
	}
	if !pref.Valid {
		// The class is named in the model step.
		resolvedLine(false)
		done(false, Applied, "'auto' and no KV-cache manager preference (None): V1", Verified)
		return
	}
	conf := Verified
	if m.KVPreferenceConfidence != "" && m.KVPreferenceConfidence != Verified {
		conf = m.KVPreferenceConfidence
	}
	// why is "<class> prefers 'V2' (since #PR, DAY)" followed by tail.
	why := func(tail ...string) string {
		s := cls + " prefers " + pref.Repr()
		if m.KVPreferencePR != 0 {
			s += " (since #" + strconv.Itoa(m.KVPreferencePR) + ", " + m.KVPreferenceSince.String() + ")"
		}
		return s + strings.Join(tail, "")
	}
	if !pref.Is("V2") {
		resolvedLine(false)
		done(false, Applied, why(": V1"), conf)
		return
	}
	eff := r.effBackend
	if !disaggOff && (eff != "NIXL" || !r.runtime.Is("PYTHON")) {
		r.log(LevelInfo, r.text(TextKVFallbackV1, vPy(r.runtime), vStr(eff)))
		resolvedLine(false)
		done(false, Fallback, why("; V2 needs 'PYTHON' on NIXL, the route is ", r.runtime.Repr(), " on ", eff, ": V1"), conf)
		return
	}
	if twoModel {
		resolvedLine(false)
		done(false, Fallback, why("; two-model speculative decoding (", draft.Origin.String(), ") demotes it to V1 (no log line known)"), Inferred)
		return
	}
	resolvedLine(true)
	if disaggOff {
		done(true, Applied, why(": V2"), conf)
		return
	}
	done(true, Applied, why("; 'PYTHON' on NIXL: V2"), conf)
}

// logBefore inserts a log line before the first line reading anchor (or at the
// end): a line an earlier phase prints that an earlier step already logged past.
func (r *run) logBefore(l Level, msg, anchor string) {
	for i, x := range r.t.Logs {
		if x.Message == anchor {
			r.t.Logs = append(r.t.Logs[:i], append([]LogLine{{Level: l, Message: msg}}, r.t.Logs[i:]...)...)
			return
		}
	}
	r.log(l, msg)
}

func kvSince(m ModelInfo) string {
	if m.KVPreferencePR == 0 {
		return ""
	}
	return " (since #" + strconv.Itoa(m.KVPreferencePR) + ", " + m.KVPreferenceSince.String() + ")"
}

// transceiverRuntimeIsPython is transceiver_runtime == "PYTHON" as the KV-cache
// creator sees it (after config load; an unresolved 'auto' is not PYTHON).
func (r *run) transceiverRuntimeIsPython() bool { return r.runtime.Is("PYTHON") }

// blockReuse is kv_cache_config.enable_block_reuse (default True, docs 1.3.0rc27).
func (r *run) blockReuse() (bool, string) {
	if r.t.Inputs.Static == nil {
		return true, "enable_block_reuse defaults to True"
	}
	if f := r.t.Inputs.Static.BlockReuse; f.Given() {
		return f.Value, "enable_block_reuse=" + pyBool(f.Value) + " (" + f.Origin.String() + ")"
	}
	return true, "enable_block_reuse defaults to True"
}

// stepCacheManager is get_kv_cache_manager_cls(): the manager class, and its
// refusals for hybrid Mamba models in disaggregated serving.
func (r *run) stepCacheManager() {
	const title = "KV-cache manager class (get_kv_cache_manager_cls)"
	if r.skipIfHalted(StepCacheManager, PhaseLoad, title) {
		return
	}
	m := r.t.Inputs.Model.Value
	src := Source{File: fileUtil}
	set := func(cls string, reason string, c Confidence) {
		r.t.Result.CacheManagerClass = cls
		r.emit(StepCacheManager, PhaseLoad, title, Applied, reason, src, c)
	}
	kind := m.Cache
	if !m.Known || m.Arch == "" {
		kind = CacheAttention
	}
	rt := r.runtime
	switch kind {
	case CacheKimiLinear:
		if !r.has(day17480) {
			// #17480's description: before it, a K3 deployment "silently
			// resolved to the C++ transceiver", so no guard stopped it.
			set(clsMambaCpp, "Kimi K3 before #17480: the hybrid routing let the C++ transceiver through silently (#17480's description); class inferred", Inferred)
			return
		}
		if r.kvV2 {
			set(clsMambaV2, "Kimi K3 with V2: the V2 hybrid manager holds the KDA state", Inferred)
			return
		}
		reuseOn := r.t.Inputs.Static != nil && r.t.Inputs.Static.BlockReuse.Given() && r.t.Inputs.Static.BlockReuse.Value
		if reuseOn && r.on(PathHybridRoute) && rt.Is("PYTHON") {
			// _util.py@0004396: in disaggregated serving K3 goes through the
			// shared hybrid route, which refuses V1 block reuse under PYTHON.
			r.emit(StepCacheManager, PhaseLoad, title, Error, "Kimi K3 with V1, enable_block_reuse=True ("+r.t.Inputs.Static.BlockReuse.Origin.String()+
				") and runtime 'PYTHON': the shared hybrid route needs the V2 manager for block reuse", Source{File: fileUtilHybridV2}, Derived)
			r.fail(StepCacheManager, "ValueError: "+r.text(TextHybridV1Reuse))
			return
		}
		if reuseOn {
			// #17269: block reuse (which K3's model defaults turn off) routes
			// to the unified C++ pool.
			set(clsMambaCpp, "Kimi K3 with V1 and enable_block_reuse=True ("+r.t.Inputs.Static.BlockReuse.Origin.String()+"): "+clsMambaCpp, Derived)
			return
		}
		set(clsMambaMixed, "Kimi K3 with V1: separate KV and recurrent-state pools ("+clsMambaMixed+"); its model defaults turn block reuse off", Verified)
		return
	case CacheMambaHybrid:
		reuse, reuseWhy := r.blockReuse()
		if !r.has(dayHybridV2) {
			r.hybridV1Factory(title, src, set, reuse, reuseWhy)
			return
		}
		// _util.py@0004396 get_kv_cache_manager_cls, is_disagg=True: the
		// route decides before any environment override, and
		// TRTLLM_USE_PY_MAMBA is consulted only when is_disagg is False. That
		// version has QSA for the 1.4-era Qwen3.8-Flash-Next, so its routing is
		// applied from 1.4 (late); in era 2 the earlier form stays (the
		// environment overrides first, Mixed for any 'PYTHON'), with the two
		// refusals' texts read there (derived for era 2).
		route := r.rules.Rule(PathHybridRoute)
		late := route.On
		conf := confOr(route.Evidence.Confidence)
		if late {
			src = Source{File: route.Evidence.Source.File}
		}
		pyNote := ""
		if py, ok := r.t.Inputs.Env.Lookup(envPyMamba); ok && py == "1" {
			if !late {
				r.hybridV1Factory(title, src, set, reuse, reuseWhy)
				return
			}
			pyNote = "; " + envPyMamba + "=1 is ignored in disaggregated serving"
		}
		if r.kvV2 {
			if !(rt.Is("PYTHON") && r.effBackend == "NIXL") {
				r.emit(StepCacheManager, PhaseLoad, title, Error, "V2 hybrid Mamba manager in disaggregated serving needs 'PYTHON' on NIXL; the route is "+
					rt.Repr()+" on "+r.effBackend+pyNote, src, conf)
				r.fail(StepCacheManager, "ValueError: "+r.text(TextHybridV2Route))
				return
			}
			if pref, ok := r.t.Inputs.Env.Lookup(envMambaPref); ok && late {
				switch up := strings.ToUpper(pref); up {
				case "MIXED", "CPP":
					r.emit(StepCacheManager, PhaseLoad, title, Error, envMambaPref+"="+pyRepr(pref)+" with use_kv_cache_manager_v2=True"+pyNote, src, Verified)
					r.fail(StepCacheManager, "ValueError: "+r.text(TextMambaPrefConflict, vStr(up)))
					return
				default:
					r.log(LevelWarning, r.text(TextMambaPrefUnknownV2, vStr(up)))
				}
			}
			set(clsMambaV2, "hybrid Mamba model, V2, 'PYTHON' on NIXL: "+clsMambaV2+pyNote, Verified)
			return
		}
		switch {
		case reuse && rt.Is("PYTHON"):
			r.emit(StepCacheManager, PhaseLoad, title, Error, "hybrid Mamba model, V1, "+reuseWhy+", runtime 'PYTHON': block reuse with the Python transceiver needs the V2 manager"+pyNote, src, conf)
			r.fail(StepCacheManager, "ValueError: "+r.text(TextHybridV1Reuse))
		case reuse:
			set(clsMambaCpp, "hybrid Mamba model, V1, "+reuseWhy+": "+clsMambaCpp+pyNote, Verified)
		case late && rt.Is("PYTHON") && r.effBackend == "NIXL":
			r.log(LevelInfo, r.text(TextMambaPythonRoute))
			set(clsMambaMixed, "hybrid Mamba model, V1, block reuse off, 'PYTHON' on NIXL: "+clsMambaMixed+pyNote, Verified)
		case !late && rt.Is("PYTHON"):
			set(clsMambaMixed, "hybrid Mamba model, V1, block reuse off, runtime 'PYTHON': "+clsMambaMixed, Verified)
		default:
			set(clsMambaCpp, "hybrid Mamba model, V1, block reuse off, runtime "+rt.Repr()+" on "+r.effBackend+": "+clsMambaCpp+pyNote, Verified)
		}
		return
	}
	if r.kvV2 {
		set(clsKVV2, "use_kv_cache_manager_v2 is True: "+clsKVV2, Verified)
		return
	}
	set(clsKVV1, "use_kv_cache_manager_v2 is not True: "+clsKVV1+" (the C++ V1 pool)", Verified)
}

// hybridV1Factory is get_kv_cache_manager_cls for hybrid Mamba models before
// the V2 route (_util.py@d8ae02c): TRTLLM_USE_PY_MAMBA=1 forces the Mixed
// manager, block reuse keeps the unified C++ pool, a PYTHON runtime takes the
// Mixed manager, then TLLM_MAMBA_MANAGER_PREFERENCE.
func (r *run) hybridV1Factory(title string, src Source, set func(string, string, Confidence), reuse bool, reuseWhy string) {
	rt := r.runtime
	if py, _ := r.t.Inputs.Env.Lookup(envPyMamba); py == "1" {
		if reuse {
			r.raise(StepCacheManager, PhaseLoad, title, envPyMamba+"=1 with "+reuseWhy+": the Mixed manager has no block reuse", src, Verified, "ValueError", TextPyMambaReuse)
			return
		}
		r.log(LevelInfo, r.text(TextPyMambaForces))
		set(clsMambaMixed, envPyMamba+"=1 forces "+clsMambaMixed, Verified)
		return
	}
	switch {
	case reuse:
		set(clsMambaCpp, "hybrid Mamba model, "+reuseWhy+": "+clsMambaCpp+" (use_kv_cache_manager_v2 is not consulted here before #18134)", Verified)
	case rt.Is("PYTHON"):
		r.log(LevelInfo, r.text(TextMambaPythonDetected))
		set(clsMambaMixed, "hybrid Mamba model, block reuse off, runtime 'PYTHON': "+clsMambaMixed, Verified)
	default:
		pref, ok := r.t.Inputs.Env.Lookup(envMambaPref)
		switch {
		case ok && equalFold(pref, "MIXED"):
			r.log(LevelWarning, r.text(TextMambaPrefMixed))
			set(clsMambaMixed, envMambaPref+"="+pyRepr(pref)+" with block reuse off and runtime "+rt.Repr()+": "+clsMambaMixed, Verified)
		case ok && equalFold(pref, "CPP"):
			r.log(LevelWarning, r.text(TextMambaPrefCPP))
			set(clsMambaCpp, envMambaPref+"='CPP': "+clsMambaCpp, Verified)
		case ok:
			r.log(LevelWarning, r.text(TextMambaPrefUnknown, vStr(pref)))
			set(clsMambaCpp, envMambaPref+"="+pyRepr(pref)+" is not CPP or MIXED: "+clsMambaCpp, Verified)
		default:
			set(clsMambaCpp, "hybrid Mamba model, block reuse off, runtime "+rt.Repr()+": "+clsMambaCpp, Verified)
		}
	}
}

// isV1Pool reports whether the class is the C++ V1 route (KVCacheManager and
// its hybrid subclasses), the one fabric memory applies to.
func isV1Pool(cls string) bool {
	return cls == clsKVV1 || cls == clsMambaCpp || cls == clsMambaMixed
}

// stepFabricMemory is maybe_enable_fabric_memory_for_python_transceiver in
// KvCacheCreator.__init__ (PR #16832): before any pool is allocated, a PYTHON
// runtime with the C++ V1 manager defaults the pool to fabric memory.
func (r *run) stepFabricMemory() {
	const title = "Fabric memory for the KV pool (TRTLLM_KVCACHE_POOL_USE_FABRIC_MEMORY)"
	if r.skipIfHalted(StepFabricMemory, PhaseCreation, title) {
		return
	}
	fabric := r.change(16832)
	src := r.changeSource(fabric, fileUtil)
	skip := func(why string, c Confidence) { r.emit(StepFabricMemory, PhaseCreation, title, Skipped, why, src, c) }
	cls := r.t.Result.CacheManagerClass
	switch {
	case !fabric.Has:
		skip("not before #16832 (merged "+fabric.Merged.String()+", per a weekly change report)", Derived)
		return
	case !r.transceiverRuntimeIsPython():
		skip(notPythonAtKVCache(r.runtime), Verified)
		return
	case !isV1Pool(cls):
		skip(cls+" is not the C++ V1 pool", Verified)
		return
	}
	if v, ok := r.t.Inputs.Env.Lookup(envFabric); ok {
		skip(envFabric+"="+pyRepr(v)+" is set ("+r.t.Inputs.Env[envFabric].Origin.String()+"): an explicit setting is respected", Verified)
		return
	}
	r.log(LevelInfo, r.text(TextFabricMemory, vStr(envFabric)))
	r.t.Result.EnvSet = envFabric + "=1"
	const sets = ": TensorRT-LLM sets " + envFabric + "=1 in the worker's own environment before the pool is allocated (no fabric support: plain GPU memory, with a C++ warning)"
	reason := "'PYTHON' with " + cls + sets
	r.emit(StepFabricMemory, PhaseCreation, title, Applied, reason, src, Derived)
}

// stepPipelinedStatic checks enable_pipelined_transfer's static requirements
// (docs 1.3.0rc27 CacheTransceiverConfig: "Invalid static settings fail at
// startup; per-request constraints reject the request"). Chunked prefill and
// pipeline_parallel_size are create_kv_cache_transceiver's checks (#15727);
// the bounce buffer, a Mamba/hybrid manager, context parallelism and V2 block
// reuse are KvCacheTransceiverV2._resolve_pipelined_transfer's blockers
// (transceiver.py, stored version 68294582186, after #15780), raised as one
// "enable_pipelined_transfer is not supported with A; B" ValueError. Beam width
// is checked per context request, not at start-up. A setting the file does not
// give is reported as one the check depends on.
func (r *run) stepPipelinedStatic() {
	const title = "Pipelined transfer: static requirements"
	if r.skipIfHalted(StepPipelinedStatic, PhaseCreation, title) {
		return
	}
	// The checks are #15727's and the blockers', in the creation code; only
	// the field's absence is the change's to show (an install's line).
	pipelined := r.change(15727)
	src := Source{PR: pipelined.PR, File: r.createFile()}
	skip := func(why string) { r.emit(StepPipelinedStatic, PhaseCreation, title, Skipped, why, src, Verified) }
	switch {
	case !pipelined.Has:
		r.emit(StepPipelinedStatic, PhaseCreation, title, Skipped, "enable_pipelined_transfer does not exist before #15727", r.changeSource(pipelined, r.createFile()), Verified)
		return
	case !r.t.Inputs.Pipelined.Value:
		skip("enable_pipelined_transfer is False")
		return
	case !r.runtime.Is("PYTHON"):
		skip(notPython(r.runtime))
		return
	}
	var st Static
	if r.t.Inputs.Static != nil {
		st = *r.t.Inputs.Static
	}
	failKnown := func(reason, exc string) {
		r.emit(StepPipelinedStatic, PhaseCreation, title, Error, reason, src, Verified)
		r.fail(StepPipelinedStatic, exc)
	}
	var depends []string
	if f := st.ChunkedPrefill; f.Given() && !f.Value {
		failKnown("enable_chunked_prefill=False ("+f.Origin.String()+")", "ValueError: enable_chunked_prefill is required when enable_pipelined_transfer is set.")
		return
	} else if !f.Given() {
		depends = append(depends, "enable_chunked_prefill")
	}
	role, _ := r.t.Inputs.Env.Lookup(envDisaggRole)
	if f := st.PP; f.Given() && f.Value != 1 {
		if role != "generation" {
			failKnown("pipeline_parallel_size="+strconv.FormatInt(f.Value, 10)+" ("+f.Origin.String()+") and "+envDisaggRole+" is not 'generation'",
				"ValueError: pipeline_parallel_size=1 is required when enable_pipelined_transfer is set.")
			return
		}
	} else if !f.Given() {
		depends = append(depends, "pipeline_parallel_size (default 1)")
	}
	var notes []string
	if f := st.BeamWidth; f.Given() && f.Value > 1 {
		// py_executor._validate_request rejects each context request whose
		// beam width is not 1 (unit test: "requires beam_width == 1, got 2").
		notes = append(notes, "max_beam_width="+strconv.FormatInt(f.Value, 10)+" ("+f.Origin.String()+
			") does not fail start-up: a context request with beam width > 1 is rejected per request (\"… requires beam_width == 1, got N\")")
	}
	cls := r.t.Result.CacheManagerClass
	if cls == clsMambaCpp {
		// create_kv_cache_transceiver refuses this pairing before it builds
		// KvCacheTransceiverV2, whose blockers are therefore never reached.
		r.emit(StepPipelinedStatic, PhaseCreation, title, Applied, "chunked prefill and pipeline_parallel_size pass where the file says; the transceiver's own blockers are not reached: 'PYTHON' with "+
			clsMambaCpp+" is refused first (step mamba-guards)", src, Derived)
		return
	}
	var blockers []string
	conf := Verified
	after15780 := r.has(dayAgentBounce)
	if f := st.BounceMB; f.Given() && f.Value > 0 {
		mb := strconv.FormatInt(f.Value, 10)
		switch {
		case r.has(dayBounceNoop):
			// 1.4.0rc4 docs: agent_bounce_buffer_enable is a no-op and
			// kv_cache_bounce_size_mb > 0 alone selects the C++ agent bounce,
			// which stages each chunk as its own request.
			notes = append(notes, "kv_cache_bounce_size_mb="+mb+" ("+f.Origin.String()+") is the C++ transfer-agent bounce here (docs 1.4.0rc4), which the agent stages per request; not a blocker (inferred)")
			conf = Inferred
		case after15780 && r.agentBounceOn():
			notes = append(notes, "kv_cache_bounce_size_mb="+mb+" with agent_bounce_buffer_enable=True: the C++ agent bounce is allowed")
		case after15780:
			blockers = append(blockers, "the Python bounce buffer (kv_cache_bounce_size_mb="+mb+" without agent_bounce_buffer_enable)")
		default:
			// Before #15780 the unit test matches only this fragment.
			blockers = append(blockers, "kv_cache_bounce_size_mb="+mb)
			conf = Derived
		}
	}
	if cls == clsMambaMixed || cls == clsMambaV2 {
		blockers = append(blockers, "a Mamba/hybrid cache manager")
	}
	if f := st.CP; f.Given() && f.Value > 1 {
		if after15780 {
			blockers = append(blockers, "context parallelism (cp_size="+strconv.FormatInt(f.Value, 10)+")")
		} else {
			notes = append(notes, "context_parallel_size="+strconv.FormatInt(f.Value, 10)+" ("+f.Origin.String()+
				"): before #15780 the check read was per request, not at start-up (inferred)")
			conf = Inferred
		}
	} else if !f.Given() {
		depends = append(depends, "context_parallel_size (default 1)")
	}
	if cls == clsKVV2 {
		if reuse, why := r.blockReuse(); reuse {
			depends = append(depends, "block_reuse_policy ("+why+" with "+clsKVV2+": any policy but all_reusable fails with \"block reuse policy '…' (only '…' is supported)\"; xcvr does not read the policy)")
		}
	}
	if len(blockers) > 0 {
		r.emit(StepPipelinedStatic, PhaseCreation, title, Error, "KvCacheTransceiverV2 refuses pipelining with "+strings.Join(blockers, "; "), src, conf)
		r.fail(StepPipelinedStatic, "ValueError: "+r.text(TextPipelinedBlockers, vStr(strings.Join(blockers, "; "))))
		return
	}
	reason := "chunked prefill, pipeline_parallel_size=1, no Python bounce buffer, no Mamba/hybrid manager, no context parallelism: met where the file says"
	if len(depends) > 0 {
		reason = "depends on settings the file does not give: " + strings.Join(depends, ", ")
		conf = Inferred
	}
	if len(notes) > 0 {
		reason += "; " + strings.Join(notes, "; ")
	}
	r.emit(StepPipelinedStatic, PhaseCreation, title, Applied, reason, src, conf)
}

// agentBounceOn reports whether the file sets agent_bounce_buffer_enable true.
func (r *run) agentBounceOn() bool {
	for _, k := range r.t.Inputs.VersionedKeys {
		if k.Key == "agent_bounce_buffer_enable" {
			return k.Input == "True"
		}
	}
	return false
}

// stepMambaGuards is create_kv_cache_transceiver's check of the Mamba cache
// manager against the runtime.
func (r *run) stepMambaGuards() {
	const title = "Cache manager vs transceiver"
	if r.skipIfHalted(StepMambaGuards, PhaseCreation, title) {
		return
	}
	src := Source{File: r.createFile()}
	cls := r.t.Result.CacheManagerClass
	py := r.runtime.Is("PYTHON")
	if cls == clsKVV2 && !py {
		// Upstream's cache-transceiver precheck rejects this pairing "instead
		// of a C++ binding type error": BindKvCacheTransceiver takes only the
		// V1 manager. The binding's own message was not found.
		r.raise(StepMambaGuards, PhaseCreation, title, clsKVV2+" with runtime "+r.runtime.Repr()+": the C++ transceiver only supports the V1 manager (a pybind type error when BindKvCacheTransceiver is built; its text was not found)", src, Verified, "TypeError", TextBindKVV2)
		return
	}
	if p := r.rules.Rule(PathMambaGuards); !p.On {
		r.emit(StepMambaGuards, PhaseCreation, title, Skipped, "not in the era-0 creation code read", src, confOr(p.Evidence.Confidence))
		return
	}
	switch cls {
	case clsMambaMixed:
		if !py {
			r.raise(StepMambaGuards, PhaseCreation, title, clsMambaMixed+" with runtime "+r.runtime.Repr(), src, Verified, "ValueError", TextMambaMixed, vStr(clsMambaMixed))
			return
		}
	case clsMambaV2:
		if !py {
			r.raise(StepMambaGuards, PhaseCreation, title, clsMambaV2+" with runtime "+r.runtime.Repr(), src, Verified, "ValueError", TextMambaV2Python)
			return
		}
	case clsMambaCpp:
		if py {
			r.raise(StepMambaGuards, PhaseCreation, title, "'PYTHON' cannot drive "+clsMambaCpp, src, Verified, "ValueError", TextMambaCpp)
			return
		}
	default:
		r.emit(StepMambaGuards, PhaseCreation, title, Skipped, "no Mamba cache manager", src, Verified)
		return
	}
	reason := cls + " with runtime " + r.runtime.Repr() + ": accepted"
	r.emit(StepMambaGuards, PhaseCreation, title, Applied, reason, src, Verified)
}

// confOr is c, or verified when the catalog left it empty.
func confOr(c Confidence) Confidence {
	if c == "" {
		return Verified
	}
	return c
}

// notPython and notPythonAtKVCache are skip reasons for a runtime other than
// 'PYTHON'.
func notPython(rt PyStr) string { return "runtime is " + rt.Repr() + ", not 'PYTHON'" }

func notPythonAtKVCache(rt PyStr) string {
	return "runtime is " + rt.Repr() + " when the KV cache is created, not 'PYTHON'"
}

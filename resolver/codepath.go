package resolver

// PathRule is one rule of a build's code path that a step branches on, as
// data: whether the build has it, and its evidence (the PR that made it and how
// sure xcvr is of it). The era (Rules.Era) names a set of them; a step reads the
// rule, never the era, so a Rules value with one rule flipped changes only the
// steps that apply it.
type PathRule struct {
	ID string
	On bool
	// Evidence is the rule's PR and confidence; a step that applies the rule
	// names its own upstream file beside the PR. For an install, Source.Install
	// is the fingerprint that shows the rule, when internal/install read one.
	Evidence Evidence
}

// The code-path rules, by id.
const (
	// PathConfigLoad: DEFAULT and transceiver_runtime are resolved at config
	// load, where 'auto' consults the model's get_preferred_transceiver_runtime()
	// hook (#16164, era 1 on). Off, DEFAULT is resolved when the transceiver is
	// created and there is no 'auto'.
	PathConfigLoad = "config-load-resolution"
	// PathAutoPython: 'auto' without a preference selects PYTHON, falling back
	// to C++ only off NIXL or with a null timeout, and a preference is adopted
	// as is (#18134, era 2 on). Off, a PYTHON preference is used only on NIXL
	// and no preference means None.
	PathAutoPython = "auto-selects-python"
	// PathPythonNIXL: the PYTHON-needs-NIXL check, always present; its
	// evidence is that of the build's form of it.
	PathPythonNIXL = "python-needs-nixl"
	// PathInflightChecks: TRTLLM_DISAGG_ENABLE_INFLIGHT_CANCEL's checks at
	// transceiver creation (absent from the era-0 code read).
	PathInflightChecks = "inflight-cancel-checks"
	// PathMambaGuards: create_kv_cache_transceiver's checks of the Mamba cache
	// manager against the runtime (not in the era-0 creation code read).
	PathMambaGuards = "mamba-transceiver-guards"
	// PathHybridRoute: get_kv_cache_manager_cls routes a hybrid Mamba model in
	// disaggregated serving before any environment override
	// (_util.py@0004396, applied from 1.4); off, the era-2 form (the
	// environment first, Mixed for any 'PYTHON').
	PathHybridRoute = "hybrid-mamba-disagg-route"
	// PathKVV2Default: use_kv_cache_manager_v2 defaults to V2 (#17495's
	// release note, 1.4).
	PathKVV2Default = "kv-manager-v2-default"
	// PathCppDeprecated: the C++ transceiver is deprecated (1.4 docs; no log
	// line is known).
	PathCppDeprecated = "cpp-transceiver-deprecated"
	// PathDefaultPython: an unset transceiver_runtime holds 'PYTHON' and is
	// used as is, the model hook not consulted (#17495, 1.4; the reading is
	// inferred). Off, it holds 'auto' where PathConfigLoad is on, else None.
	PathDefaultPython = "runtime-default-python"
)

// PathIDs lists the code-path rules in a fixed order (CompareRules, tests).
func PathIDs() []string {
	return []string{PathConfigLoad, PathAutoPython, PathPythonNIXL, PathInflightChecks, PathMambaGuards,
		PathHybridRoute, PathKVV2Default, PathCppDeprecated, PathDefaultPython}
}

// releasePath is xcvr's model of the code path of an era: which rules it has
// and the evidence of each. This is the one place an era becomes rules.
func releasePath(era int) []PathRule {
	var rules [numPathRules]PathRule
	return releasePathInto(&rules, era)
}

// numPathRules is len(PathIDs()).
const numPathRules = 9

// releasePathInto fills rules with releasePath(era) (ReleaseRules keeps them
// in the Rules value, one allocation fewer per resolution).
func releasePathInto(rules *[numPathRules]PathRule, era int) []PathRule {
	ev := func(pr int, c Confidence) Evidence { return Evidence{Source{PR: pr}, c} }
	// The era-3 forms are inferred (auto) or derived (the NIXL check) from the
	// era-2 code: no 1.4 source of them was read.
	autoConf, nixlConf, nixlPR := Verified, Verified, 16164
	switch era {
	case 0:
		nixlPR = 0
	case 3:
		autoConf, nixlConf = Inferred, Derived
	}
	guardConf, inflightConf := Verified, Verified
	if era == 0 {
		guardConf, inflightConf = Inferred, Derived
	}
	hybrid := Evidence{Source{File: fileUtilHybridV2}, Verified}
	if era < 3 {
		hybrid.Confidence = Derived
	}
	*rules = [numPathRules]PathRule{
		{PathConfigLoad, era >= 1, ev(16164, Verified)},
		{PathAutoPython, era >= 2, ev(18134, autoConf)},
		{PathPythonNIXL, true, ev(nixlPR, nixlConf)},
		{PathInflightChecks, era >= 1, ev(0, inflightConf)},
		{PathMambaGuards, era >= 1, ev(0, guardConf)},
		{PathHybridRoute, era == 3, hybrid},
		{PathKVV2Default, era == 3, ev(17495, Inferred)},
		{PathCppDeprecated, era == 3, ev(17495, Inferred)},
		{PathDefaultPython, era == 3, ev(17495, Inferred)},
	}
	return rules[:]
}

// Rule returns the build's code-path rule id (off, with no evidence, when the
// rules do not hold it).
func (rs *Rules) Rule(id string) PathRule {
	for _, p := range rs.CodePath {
		if p.ID == id {
			return p
		}
	}
	return PathRule{ID: id}
}

// On reports whether the build has code-path rule id.
func (rs *Rules) On(id string) bool { return rs.Rule(id).On }

// on is Rules.On for a step.
func (r *run) on(id string) bool { return r.rules.On(id) }

// pathSource is the source and confidence a step takes from code-path rule id:
// the rule's PR beside the step's own file, and the rule's confidence; where
// an install's line shows the rule, that line (emit cites it).
func (r *run) pathSource(id, file string) (Source, Confidence) {
	p := r.rules.Rule(id)
	return r.ruleSource(p.Evidence, file), confOr(p.Evidence.Confidence)
}

// ruleSource is the source of a step that applies a rule with evidence ev:
// the rule's PR beside the step's own file, with the install's FILE:LINE when
// the rule was read from one (emit then cites the line alone).
func (r *run) ruleSource(ev Evidence, file string) Source {
	return Source{PR: ev.Source.PR, File: file, Install: ev.Source.Install}
}

// change is the build's rule for the dated change of PR pr (Rules.Change),
// looked up in one copy of the change list per resolution.
func (r *run) change(pr int) ChangeRule {
	if r.changes == nil {
		r.changes = Changes()
	}
	for _, c := range r.changes {
		if c.PR == pr {
			return r.rules.changeRule(c)
		}
	}
	return ChangeRule{Change: Change{PR: pr}}
}

// changeSource is the source of a step that applies dated change c: its PR
// beside the step's file, or the install's line that settles it.
func (r *run) changeSource(c ChangeRule, file string) Source {
	src := Source{PR: c.PR, File: file}
	if c.Evidence.read() {
		src.Install = c.Evidence.Source.Install
	}
	return src
}

// comparePath lists the code-path rules b holds differently from a, where the
// difference is not the eras' (a rule both builds hold as their era has it is
// reported as the era).
func comparePath(a, b *Rules) []RuleDifference {
	var out []RuleDifference
	ea, eb := releasePath(a.Era), releasePath(b.Era)
	for i, id := range PathIDs() {
		x, y := a.Rule(id), b.Rule(id)
		if x.On == y.On || x.On == ea[i].On && y.On == eb[i].On {
			continue
		}
		out = append(out, RuleDifference{"code path " + id, presence(x.On), presence(y.On), y.Evidence.Source.Install})
	}
	return out
}

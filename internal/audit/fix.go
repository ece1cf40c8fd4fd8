package audit

import (
	"slices"
	"sort"
	"strconv"
	"strings"

	"xcvr/internal/compare"
	"xcvr/resolver"
)

// maxFixEdits bounds the edits tried per worker.
const maxFixEdits = 2

// findFix looks for the smallest set of edits per worker that makes every
// worker start and every context and generation worker end alike. The target
// end is the one most disaggregated workers already have (ties: the Python
// transceiver on NIXL, TensorRT-LLM's direction, then NIXL, then by name);
// each candidate is verified by resolving it. nil when some worker has no
// fix within maxFixEdits edits.
func findFix(es []Entry) []WorkerFix {
	// A refused command line is fixed on the command line (its error says
	// how); its config is judged as if it had started.
	es = asIfStarted(es)
	var target *resolver.Result
	count := map[string]int{}
	results := map[string]resolver.Result{}
	for _, e := range es {
		if e.Failed() || e.Worker.Role == RoleAggregated || e.Trace.Result.Outcome == resolver.OutcomeDisabled {
			continue
		}
		k := end(e.Trace.Result)
		count[k]++
		results[k] = e.Trace.Result
	}
	// Ties go to TensorRT-LLM's direction: the Python transceiver on NIXL,
	// then any transceiver on NIXL, then the first end by name — never to
	// the map's order, which differs from run to run (the same set gave a
	// fix on one run and none on the next).
	rank := func(r resolver.Result) int {
		switch {
		case r.Outcome == resolver.OutcomePython && r.EffectiveBackend.Is("NIXL"):
			return 2
		case r.EffectiveBackend.Is("NIXL"):
			return 1
		}
		return 0
	}
	keys := make([]string, 0, len(count))
	for k := range count {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	best := ""
	for _, k := range keys {
		n := count[k]
		if best == "" || n > count[best] || n == count[best] && rank(results[k]) > rank(results[best]) {
			best = k
		}
	}
	if best != "" {
		t := results[best]
		target = &t
	}
	var out []WorkerFix
	for _, e := range es {
		if e.Err != "" {
			return nil
		}
		disagg := e.Worker.Role != RoleAggregated
		r := e.Trace.Result
		needs := r.Outcome == resolver.OutcomeError
		if disagg && (r.Outcome == resolver.OutcomeDisabled || target != nil && !sameEnd(r, *target)) {
			needs = true
		}
		if !needs {
			continue
		}
		good := func(res resolver.Result) bool {
			if res.Outcome == resolver.OutcomeError {
				return false
			}
			if !disagg {
				return true
			}
			if res.Outcome == resolver.OutcomeDisabled {
				return false
			}
			return target == nil || sameEnd(res, *target)
		}
		f, ok := search(e.Inputs, good, targetEdits(e.Inputs, target))
		if !ok {
			return nil
		}
		f.Worker = e.Worker.Name
		out = append(out, f)
		if target == nil && disagg {
			t := f.Outcome
			target = &t
		}
	}
	return out
}

// targetEdits are the edits that move a worker to the target's backend
// when that is not NIXL, which candidates always tries: two context
// workers on UCX beside a generation worker on NIXL make UCX the target,
// and the generation worker's one-edit fix is backend: UCX (without it,
// "none of up to 2 edits" was said). Both spellings are tried, as the 1.0
// line takes lower case only; resolving each rules out the wrong one.
func targetEdits(in resolver.Inputs, target *resolver.Result) []compare.Edit {
	if target == nil || !target.EffectiveBackend.Valid {
		return nil
	}
	b := target.EffectiveBackend.S
	if strings.EqualFold(b, "NIXL") || in.Backend.Value.Is(b) {
		return nil
	}
	out := []compare.Edit{{Kind: compare.EditBackend, Value: strings.ToUpper(b)}}
	if lower := strings.ToLower(b); lower != strings.ToUpper(b) {
		out = append(out, compare.Edit{Kind: compare.EditBackend, Value: lower})
	}
	return out
}

// search tries single edits, then pairs, in candidate order; extra are
// tried after candidates' own.
func search(in resolver.Inputs, good func(resolver.Result) bool, extra []compare.Edit) (WorkerFix, bool) {
	cands := append(candidates(in), extra...)
	var combo []compare.Edit
	var found *WorkerFix
	var walk func(start, left int)
	walk = func(start, left int) {
		if found != nil {
			return
		}
		if left == 0 {
			x := in
			for _, e := range combo {
				x = e.Apply(x)
			}
			t := resolver.Resolve(x)
			if good(t.Result) {
				found = &WorkerFix{Edits: slices.Clone(combo), YAML: compare.FixYAML(combo), Outcome: t.Result}
			}
			return
		}
		for i := start; i < len(cands); i++ {
			if clash(combo, cands[i]) {
				continue
			}
			combo = append(combo, cands[i])
			walk(i+1, left-1)
			combo = combo[:len(combo)-1]
		}
	}
	for n := 1; n <= maxFixEdits && found == nil; n++ {
		walk(0, n)
	}
	if found == nil {
		return WorkerFix{}, false
	}
	return *found, true
}

func clash(combo []compare.Edit, e compare.Edit) bool {
	for _, c := range combo {
		if c.Kind == e.Kind && (c.Kind != compare.EditUnsetEnv && c.Kind != compare.EditDelete || c.Value == e.Value) {
			return true
		}
	}
	return false
}

// candidates are the single edits worth trying, most targeted first.
func candidates(in resolver.Inputs) []compare.Edit {
	var out []compare.Edit
	// The written name respelled comes first: the 1.0 line takes lower
	// case only and 1.1 and later upper case only, so a name refused for
	// its case alone (backend: ucx, as written for 1.0, on 1.2) is fixed
	// by its other spelling, which keeps the transport the operator chose;
	// NIXL was offered first, a change of transport where a respelling
	// does. Resolving each rules out the spelling the version refuses.
	if v := in.Backend.Value; in.Backend.Given() && v.Valid {
		for _, s := range []string{strings.ToUpper(v.S), strings.ToLower(v.S)} {
			if s != v.S {
				out = append(out, compare.Edit{Kind: compare.EditBackend, Value: s})
			}
		}
	}
	if !in.Backend.Value.Is("NIXL") && !slices.ContainsFunc(out, func(e compare.Edit) bool { return e.Value == "NIXL" }) {
		out = append(out, compare.Edit{Kind: compare.EditBackend, Value: "NIXL"})
	}
	if !in.Backend.Given() {
		// No cache_transceiver_config: writing one turns disaggregation on.
		// The 1.0 line spells the names in lower case; the resolver
		// refuses the spelling a version does not take.
		out = append(out, compare.Edit{Kind: compare.EditBackend, Value: "DEFAULT"},
			compare.Edit{Kind: compare.EditBackend, Value: "nixl"}, compare.Edit{Kind: compare.EditBackend, Value: "default"})
	} else if v := in.Backend.Value; v.Valid && strings.ToLower(v.S) != v.S && strings.ToLower(v.S) != "nixl" {
		// An upper-case name a 1.0 release refuses (backend: UCX, as
		// written for 1.1 and later) is respelled above; NIXL in 1.0's
		// spelling is the other transport to try.
		out = append(out, compare.Edit{Kind: compare.EditBackend, Value: "nixl"})
	}
	for _, v := range []string{"PYTHON", "CPP"} {
		if !(in.Runtime.Given() && in.Runtime.Value.Is(v)) {
			out = append(out, compare.Edit{Kind: compare.EditRuntime, Value: v})
		}
	}
	if t := in.Timeout; t.Given() && (!t.Value.Valid || t.Value.N <= 0) {
		out = append(out, compare.Edit{Kind: compare.EditTimeout, Value: strconv.Itoa(resolver.DefaultTimeoutMS)})
	}
	for _, spec := range resolver.EnvVars() {
		if _, ok := in.Env[spec.Name]; ok {
			out = append(out, compare.Edit{Kind: compare.EditUnsetEnv, Value: spec.Name})
		}
	}
	if in.Pipelined.Given() {
		out = append(out, compare.Edit{Kind: compare.EditPipelined})
	}
	// A cache_transceiver_config key the release refuses (1.0's docs write
	// max_num_tokens, which #5234 renamed max_tokens_in_buffer): deleting
	// it lets the worker start; without it the fix was "none of up to 2
	// edits", as no edit tried touched the key that failed.
	for _, e := range in.ConfigErrors {
		d := compare.Edit{Kind: compare.EditDelete, Value: e.Loc}
		if e.Root == "" && !e.TopKey && !e.EmptyKey && e.Loc != "" && e.Type == "extra_forbidden" && !slices.Contains(out, d) {
			out = append(out, d)
		}
	}
	return out
}

// upgrade checks every worker against --to with upgrade-check's verdicts and
// fixes.
func upgrade(rep *Report, opt Options) *compare.Upgrade {
	var roles []compare.Role
	for _, e := range rep.Entries {
		if e.Err != "" {
			continue
		}
		roles = append(roles, compare.Role{Name: e.Worker.Name, Inputs: e.Inputs})
	}
	u := compare.UpgradeCheck(roles, rep.Version, *opt.To, opt.Catalog)
	return &u
}

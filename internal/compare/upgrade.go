package compare

import (
	"slices"
	"strconv"
	"strings"

	"xcvr/models"
	"xcvr/resolver"
)

// Role is one kind of worker in a deployment ("worker" for a single config,
// "context" and "generation" for a disaggregated one). Each role resolves on its
// own, with its own YAML and environment, exactly as TensorRT-LLM does.
type Role struct {
	Name string
	// Inputs are the role's inputs as read for the FROM version.
	Inputs resolver.Inputs
	// ToInputs, if set, are the same role read for the TO version: reading a
	// file can depend on the version (pydantic's list of runtime literals, say).
	// Nil means Inputs.
	ToInputs *resolver.Inputs
	// YAMLPaths are the places in the file the operator edits where the
	// cache_transceiver_config this role receives is written, e.g.
	// [["context_servers"]] in a disaggregated config; nil (or a nil path) is the
	// root, as for a worker's own config. A fix is written at every one of them, so
	// it can be merged as is: in a disaggregated config a top-level
	// cache_transceiver_config is copied into both sections, and a section that
	// repeats it must stay equal to it or TensorRT-LLM refuses to start, so such a
	// role has the root and each repeating section.
	YAMLPaths [][]string
	// YAMLNote, if set, is shown under the fix: e.g. that the fix edits a
	// top-level key every role inherits.
	YAMLNote string
}

// UpgradeVerdict says what an upgrade does to a role.
type UpgradeVerdict string

// The three verdicts.
const (
	VerdictSame    UpgradeVerdict = "same"    // the outcome stays
	VerdictChanges UpgradeVerdict = "changes" // another transceiver (or on/off) after the upgrade
	VerdictBreaks  UpgradeVerdict = "breaks"  // start-up fails after the upgrade, not before
)

// EditKind is what a fix changes.
type EditKind string

// The edits a fix is made of, smallest first in the order they are tried.
const (
	EditRuntime   EditKind = "transceiver_runtime"       // set cache_transceiver_config.transceiver_runtime
	EditBackend   EditKind = "backend"                   // set cache_transceiver_config.backend
	EditTimeout   EditKind = "kv_transfer_timeout_ms"    // set a finite timeout
	EditUnsetEnv  EditKind = "unset_env"                 // unset a variable in the worker's environment
	EditPipelined EditKind = "enable_pipelined_transfer" // delete the key (valid in every version)
	// EditDelete deletes a cache_transceiver_config key (Value) that the other
	// version does not have: transceiver_runtime before 1.3.0rc8,
	// kv_transfer_timeout_ms before about 2025-08-20, or one a reader found
	// the release refuses (max_num_tokens from #5234 on).
	EditDelete EditKind = "delete"
)

// OriginFix marks inputs a suggested fix changed, so a chain shown with the fix
// applied says where the value came from.
const OriginFix resolver.OriginKind = "fix"

// Edit is one change to a role's configuration or environment.
type Edit struct {
	Kind EditKind
	// Value is the YAML value to write (EditRuntime, EditBackend, EditTimeout) or
	// the variable to unset (EditUnsetEnv); empty for EditPipelined.
	Value string
}

// String renders the edit for people: "transceiver_runtime: CPP",
// "unset TRTLLM_USE_UCX_KVCACHE".
func (e Edit) String() string {
	switch e.Kind {
	case EditUnsetEnv:
		return "unset " + e.Value
	case EditPipelined:
		return "delete enable_pipelined_transfer"
	case EditDelete:
		return "delete " + e.Value
	}
	return string(e.Kind) + ": " + e.Value
}

// Apply returns in with the edit made. The map of the environment is copied,
// never changed in place, because traces keep a reference to it.
func (e Edit) Apply(in resolver.Inputs) resolver.Inputs {
	origin := resolver.Origin{Kind: OriginFix}
	switch e.Kind {
	case EditRuntime:
		in.Runtime = resolver.Field[resolver.PyStr]{Value: resolver.Str(e.Value), Origin: origin}
	case EditBackend:
		in.Backend = resolver.Field[resolver.PyStr]{Value: resolver.Str(e.Value), Origin: origin}
	case EditTimeout:
		n, _ := strconv.ParseInt(e.Value, 10, 64)
		in.Timeout = resolver.Field[resolver.OptInt]{Value: resolver.Int(n), Origin: origin}
	case EditPipelined:
		in.Pipelined = resolver.Field[bool]{Origin: resolver.Origin{Kind: resolver.OriginDefault}}
	case EditDelete:
		switch e.Value {
		case "transceiver_runtime":
			in.Runtime = resolver.Field[resolver.PyStr]{Origin: resolver.Origin{Kind: resolver.OriginDefault}}
		case "kv_transfer_timeout_ms":
			in.Timeout = resolver.Field[resolver.OptInt]{Origin: resolver.Origin{Kind: resolver.OriginDefault}}
		default:
			// A key the release does not have (max_num_tokens, renamed
			// max_tokens_in_buffer by #5234): its extra_forbidden error
			// goes with it. The slices are copied, never changed in place,
			// because traces keep a reference to them.
			in.ConfigErrors = slices.DeleteFunc(slices.Clone(in.ConfigErrors), func(f resolver.FieldError) bool {
				return f.Root == "" && !f.TopKey && !f.EmptyKey && f.Loc == e.Value
			})
			in.ConfigKeys = slices.DeleteFunc(slices.Clone(in.ConfigKeys), func(k resolver.VersionedKey) bool { return k.Key == e.Value })
			in.VersionedKeys = slices.DeleteFunc(slices.Clone(in.VersionedKeys), func(k resolver.VersionedKey) bool { return k.Key == e.Value })
		}
	case EditUnsetEnv:
		env := make(resolver.Env, len(in.Env))
		for k, v := range in.Env {
			if k != e.Value {
				env[k] = v
			}
		}
		in.Env = env
	}
	return in
}

// Fix is a verified set of edits for one role.
type Fix struct {
	Edits []Edit
	// ToOutcome is the outcome under the TO version with the fix applied; it is
	// never an error.
	ToOutcome resolver.Outcome
	// FromOutcome is the outcome under the FROM version with the fix applied.
	FromOutcome resolver.Outcome
	// Restores is true when the fix gives back, under TO, the outcome the role had
	// under FROM; otherwise it only keeps start-up from failing.
	Restores bool
	// KeepsFrom is true when the fix leaves the FROM outcome as it was, so it can
	// be rolled out before the upgrade.
	KeepsFrom bool
	// YAML is the snippet to merge into the role's config, with comments for
	// edits YAML cannot express (deleting a key, the environment).
	YAML string
	// Note is the role's YAMLNote, shown with the snippet.
	Note string
	// To is the chain under the TO version with the fix applied.
	To resolver.Trace
}

// Apply returns in with every edit of the fix made.
func (f Fix) Apply(in resolver.Inputs) resolver.Inputs {
	for _, e := range f.Edits {
		in = e.Apply(in)
	}
	return in
}

// Finding is the upgrade check of one role.
type Finding struct {
	Role string
	// From and To are the role's chains under the two versions, unfixed.
	From    resolver.Trace
	To      resolver.Trace
	Verdict UpgradeVerdict
	// Fix is the smallest verified fix for a role that changes or breaks; nil for
	// a role that stays, or when no candidate up to MaxFixEdits edits works.
	Fix *Fix
	// Tried counts the candidate fixes resolved.
	Tried int
}

// Upgrade is the check of every role.
type Upgrade struct {
	From, To resolver.Version
	// Findings are in the order the roles were given.
	Findings []Finding
	// Changes are the modelled upstream changes between the two versions.
	Changes []resolver.Change
	// Split is true for a deployment of several roles that all end on the same
	// transceiver and backend under FROM but not under TO. No role fails to
	// start, yet the roles cannot exchange KV cache, so a "changes" verdict is
	// not harmless there and its fix is not optional.
	Split bool
	// FixesJoin is true when Split and applying every suggested fix brings the
	// roles back onto one transceiver and backend.
	FixesJoin bool
}

// sameEnd reports whether two results end on the same transceiver and backend,
// which both roles of a disaggregated deployment need to exchange KV cache.
func sameEnd(a, b resolver.Result) bool {
	return a.Outcome == b.Outcome && a.Class == b.Class && a.EffectiveBackend == b.EffectiveBackend
}

// rolesAgree reports whether every result ends like the first.
func rolesAgree(rs []resolver.Result) bool {
	for _, r := range rs {
		if !sameEnd(r, rs[0]) {
			return false
		}
	}
	return true
}

// Breaks reports whether any role fails to start after the upgrade.
func (u Upgrade) Breaks() bool {
	for _, f := range u.Findings {
		if f.Verdict == VerdictBreaks {
			return true
		}
	}
	return false
}

// MaxFixEdits bounds the fix search: no known route needs more than three edits,
// and bigger fixes are not "small" any more.
const MaxFixEdits = 3

// UpgradeCheck resolves every role under both versions, gives a verdict, and for
// roles that change or break searches for the smallest fix.
func UpgradeCheck(roles []Role, from, to resolver.Version, cat *models.Catalog) Upgrade {
	u := Upgrade{From: from, To: to, Changes: changesBetween(from.Main, to.Main)}
	for _, role := range roles {
		fin := ForVersion(role.Inputs, from, cat)
		tin := role.Inputs
		if role.ToInputs != nil {
			tin = *role.ToInputs
		}
		tin = ForVersion(tin, to, cat)
		f := Finding{Role: role.Name, From: resolver.Resolve(fin), To: resolver.Resolve(tin)}
		before, after := f.From.Result.Outcome, f.To.Result.Outcome
		switch {
		case before == after:
			f.Verdict = VerdictSame
		case after == resolver.OutcomeError:
			f.Verdict = VerdictBreaks
		default:
			f.Verdict = VerdictChanges
		}
		// A role that failed before and starts now needs no fix; one that changes
		// transceiver gets the fix that keeps the old one, for operators who
		// must not switch yet.
		if f.Verdict == VerdictBreaks || (f.Verdict == VerdictChanges && before != resolver.OutcomeError) {
			f.Fix, f.Tried = findFix(role, f.From, fin, tin)
		}
		u.Findings = append(u.Findings, f)
	}
	// The roles split when they all worked alike before and, once the roles that
	// break are fixed, no longer do; a deployment that already failed, or still
	// fails, has a worse problem than a split.
	if len(u.Findings) > 1 {
		var from, to, fixed []resolver.Result
		ok := true
		for _, f := range u.Findings {
			from, to = append(from, f.From.Result), append(to, SplitEnd(f))
			if f.Fix != nil {
				fixed = append(fixed, f.Fix.To.Result)
			} else {
				fixed = append(fixed, f.To.Result)
			}
			ok = ok && f.From.Result.Outcome != resolver.OutcomeError && SplitEnd(f).Outcome != resolver.OutcomeError
		}
		u.Split = ok && rolesAgree(from) && !rolesAgree(to)
		u.FixesJoin = u.Split && rolesAgree(fixed)
	}
	return u
}

// SplitEnd is where a role ends after the upgrade when only the fixes a break
// needs are applied: its fixed outcome if it breaks, else its TO outcome.
func SplitEnd(f Finding) resolver.Result {
	if f.Verdict == VerdictBreaks && f.Fix != nil {
		return f.Fix.To.Result
	}
	return f.To.Result
}

// findFix tries candidate fixes, smallest first, and returns the best verified
// one: it must not break under TO; one that restores the FROM outcome beats one
// that does not, then fewer edits win, then a fix that also keeps the FROM
// outcome under FROM, then candidate order (which lists the most targeted edits
// first).
func findFix(role Role, from resolver.Trace, fin, tin resolver.Inputs) (*Fix, int) {
	want := from.Result.Outcome
	singles := candidateEdits(fin, from, tin.Version)
	var best *Fix
	bestRank := [4]int{}
	tried := 0
	order := 0
	try := func(edits []Edit) {
		order++
		tried++
		f := Fix{Edits: slices.Clone(edits)}
		f.To = resolver.Resolve(f.Apply(tin))
		f.ToOutcome = f.To.Result.Outcome
		if f.ToOutcome == resolver.OutcomeError {
			return
		}
		f.FromOutcome = resolver.Resolve(f.Apply(fin)).Result.Outcome
		f.Restores = f.ToOutcome == want
		f.KeepsFrom = f.FromOutcome == want
		rank := [4]int{b2i(!f.Restores), len(edits), b2i(!f.KeepsFrom), order}
		if best == nil || lessRank(rank, bestRank) {
			best, bestRank = &f, rank
		}
	}
	var combo []Edit
	var walk func(start, left int)
	walk = func(start, left int) {
		if left == 0 {
			try(combo)
			return
		}
		for i := start; i < len(singles); i++ {
			if conflicts(combo, singles[i]) {
				continue
			}
			combo = append(combo, singles[i])
			walk(i+1, left-1)
			combo = combo[:len(combo)-1]
		}
	}
	for size := 1; size <= MaxFixEdits; size++ {
		walk(0, size)
		// A restoring fix of this size cannot be beaten by a bigger one.
		if best != nil && best.Restores {
			break
		}
	}
	if best != nil {
		best.YAML = FixYAML(best.Edits, role.YAMLPaths...)
		best.Note = role.YAMLNote
	}
	return best, tried
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

func lessRank(a, b [4]int) bool {
	for i := range a {
		if a[i] != b[i] {
			return a[i] < b[i]
		}
	}
	return false
}

// conflicts reports whether e edits something combo already edits.
func conflicts(combo []Edit, e Edit) bool {
	field := func(x Edit) string {
		switch x.Kind {
		case EditDelete:
			return x.Value
		case EditUnsetEnv:
			return "env:" + x.Value
		}
		return string(x.Kind)
	}
	for _, c := range combo {
		if field(c) == field(e) {
			return true
		}
	}
	return false
}

// candidateEdits lists the single edits worth trying, most targeted first: pin
// the runtime the role had, switch to NIXL, a finite timeout, unset the variables
// the resolution reads, drop pipelining, then the other runtime values. Edits
// that would change nothing are left out.
func candidateEdits(in resolver.Inputs, from resolver.Trace, to resolver.Version) []Edit {
	var out []Edit
	toRules := resolver.ReleaseRules(to)
	if b := in.Backend.Value; b.Valid {
		// The TO version's spelling of the same backend first (1.0's ucx is
		// 1.1's UCX), then NIXL as it spells it.
		if sp := resolver.SpellBackend(toRules, b.S); sp != b.S {
			out = append(out, Edit{EditBackend, sp})
		}
	}
	runtimeGiven := func(v string) bool { return in.Runtime.Given() && in.Runtime.Value.Is(v) }
	pinned := ""
	switch from.Result.Outcome {
	case resolver.OutcomeCPP:
		pinned = "CPP"
	case resolver.OutcomePython:
		pinned = "PYTHON"
	}
	if pinned != "" && !runtimeGiven(pinned) {
		out = append(out, Edit{EditRuntime, pinned})
	}
	if nixl := resolver.SpellBackend(toRules, "NIXL"); in.Backend.Value.Valid && !strings.EqualFold(in.Backend.Value.S, "NIXL") {
		out = append(out, Edit{EditBackend, nixl})
	}
	if in.Runtime.Given() {
		out = append(out, Edit{EditDelete, "transceiver_runtime"})
	}
	if in.Timeout.Given() {
		out = append(out, Edit{EditDelete, "kv_transfer_timeout_ms"})
	}
	if t := in.Timeout; t.Given() && (!t.Value.Valid || t.Value.N <= 0) {
		out = append(out, Edit{EditTimeout, strconv.Itoa(resolver.DefaultTimeoutMS)})
	}
	for _, spec := range resolver.EnvVars() {
		if _, ok := in.Env[spec.Name]; ok {
			out = append(out, Edit{EditUnsetEnv, spec.Name})
		}
	}
	if in.Pipelined.Given() {
		out = append(out, Edit{EditPipelined, ""})
	}
	for _, v := range []string{"CPP", "PYTHON", "auto"} {
		if v != pinned && !runtimeGiven(v) {
			out = append(out, Edit{EditRuntime, v})
		}
	}
	return out
}

// FixYAML renders edits as a snippet to merge into the role's YAML, written under
// each of paths (none, or a nil path, is the root). Deleting a key and the
// environment cannot be said in a merge snippet, so they become comments.
func FixYAML(edits []Edit, paths ...[]string) string {
	if len(paths) == 0 {
		paths = [][]string{nil}
	}
	var b strings.Builder
	var keys []Edit
	var notes []string
	for _, e := range edits {
		switch e.Kind {
		case EditRuntime, EditBackend, EditTimeout:
			keys = append(keys, e)
		case EditPipelined:
			for _, path := range paths {
				notes = append(notes, "delete "+strings.Join(append(slices.Clone(path), "cache_transceiver_config", "enable_pipelined_transfer"), "."))
			}
		case EditDelete:
			for _, path := range paths {
				notes = append(notes, "delete "+strings.Join(append(slices.Clone(path), "cache_transceiver_config", e.Value), "."))
			}
		case EditUnsetEnv:
			notes = append(notes, "unset "+e.Value+" in the worker's environment")
		}
	}
	if len(keys) > 0 {
		for _, path := range paths {
			indent := ""
			for _, p := range path {
				b.WriteString(indent + p + ":\n")
				indent += "  "
			}
			b.WriteString(indent + "cache_transceiver_config:\n")
			indent += "  "
			for _, e := range keys {
				b.WriteString(indent + string(e.Kind) + ": " + e.Value + "\n")
			}
		}
	}
	for _, n := range notes {
		b.WriteString("# " + n + "\n")
	}
	return b.String()
}

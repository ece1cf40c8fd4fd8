package audit

import (
	"fmt"
	"sort"
	"strconv"
	"strings"

	"xcvr/internal/compare"
	"xcvr/internal/report"
	"xcvr/internal/termsafe"
	"xcvr/resolver"
)

// JSON is audit's JSON contract (README, "xcvr audit"). Fields are only ever
// added.
type JSON struct {
	// TRTLLM is the version every worker was resolved for.
	TRTLLM  string       `json:"trtllm"`
	Workers []WorkerJSON `json:"workers"`
	// Consistent is true when every context and generation worker that starts
	// ends on the same transceiver and backend with disaggregation on.
	Consistent bool `json:"consistent"`
	// Failing names the workers that fail to start.
	Failing []string `json:"failing"`
	// Fix is the smallest verified fix, one item per worker to change; [] when
	// nothing needs fixing or no fix of two edits per worker works (then
	// fix_found is false).
	Fix      []FixJSON `json:"fix"`
	FixFound bool      `json:"fix_found"`
	// Unplaced lists what could not be resolved, with why.
	Unplaced      []UnplacedJSON     `json:"unplaced"`
	Orchestrators []OrchestratorJSON `json:"orchestrators"`
	// Copies are the deployments read twice (two files with the same bytes
	// and workers), each shown once: its workers are those of same_as.
	Copies []CopyJSON `json:"copies"`
	// SameDeployments are deployments of one name, from files that differ
	// (a recipe's deploy-gcp.yaml and kustomize/base/deploy.yaml), whose
	// workers resolve alike: each is still in workers, under its own
	// deployment; this says they are one deployment rendered twice.
	SameDeployments []SameDeploymentJSON `json:"same_deployments"`
	// Objects counts the documents and List items read.
	Objects  int      `json:"objects"`
	Warnings []string `json:"warnings"`
	// Upgrade is upgrade-check's JSON for every worker, with --to only.
	Upgrade *compare.UpgradeJSON `json:"upgrade,omitempty"`
}

// WorkerJSON is one worker configuration.
type WorkerJSON struct {
	Name     string `json:"name"`
	Role     string `json:"role"`
	RoleFrom string `json:"role_from"`
	// Deployment names the deployment the worker is checked with when the
	// set holds several (groups.go); absent when it holds one.
	Deployment string `json:"deployment,omitempty"`
	Source     string `json:"source"`
	Count      int    `json:"count"`
	CountFrom  string `json:"count_from"`
	Config     string `json:"config"`
	Outcome    string `json:"outcome"`
	// EffectiveBackend, ResolvedRuntime, TransceiverClass, KVCacheManager and
	// Error are explain's fields of the same names (null when none).
	EffectiveBackend *string                     `json:"effective_backend"`
	ResolvedRuntime  *string                     `json:"resolved_runtime"`
	TransceiverClass *string                     `json:"transceiver_class"`
	KVCacheManager   *string                     `json:"kv_cache_manager"`
	Error            *string                     `json:"error"`
	Inputs           map[string]report.InputJSON `json:"inputs"`
	Notes            []string                    `json:"notes"`
}

// CopyJSON is a deployment left out as a copy of another.
type CopyJSON struct {
	Source  string `json:"source"`
	SameAs  string `json:"same_as"`
	Workers int    `json:"workers"`
	Why     string `json:"why"`
}

// SameDeploymentJSON is deployments of one name whose workers resolve
// alike: their labels (as the workers' deployment field), what their files
// differ in, and the sentence the text says.
type SameDeploymentJSON struct {
	Name        string   `json:"name"`
	Deployments []string `json:"deployments"`
	Differs     []string `json:"differs"`
	Why         string   `json:"why"`
}

// copyWhy says why a copy is left out, for the text and the JSON.
func copyWhy(c Copy) string {
	return fmt.Sprintf("a copy of %s (the same bytes, the same %d worker configuration(s)): shown once", c.SameAs, c.Workers)
}

// FixJSON is one worker's part of the fix.
type FixJSON struct {
	Worker  string   `json:"worker"`
	Edits   []string `json:"edits"`
	YAML    string   `json:"yaml"`
	Outcome string   `json:"outcome"`
}

// UnplacedJSON is one thing audit could not resolve.
type UnplacedJSON struct {
	Source string `json:"source"`
	Why    string `json:"why"`
	// Worker is true for a TensorRT-LLM worker found but not resolved (its
	// config is not in the set or cannot be read); audit then exits 1.
	Worker bool `json:"worker,omitempty"`
	// Runs is how often the same line ran with the same reason (a loop's
	// iterations), when more than once.
	Runs int `json:"runs,omitempty"`
}

// OrchestratorJSON is an orchestrator-only disaggregated file: the servers it
// routes to, each started with its own --config.
type OrchestratorJSON struct {
	Source  string              `json:"source"`
	Servers map[string][]string `json:"servers"`
}

func ptr(s string) *string {
	if s == "" {
		return nil
	}
	return &s
}

// versionLabel names the release the workers were resolved for: one
// name, or, when their images run different releases, each of them ("per
// worker: 1.2.0rc3, 1.4.0rc4"; each worker's inputs say which is its).
func (r *Report) versionLabel() string {
	var names []string
	seen := map[string]bool{}
	for _, e := range r.Entries {
		if n := e.Inputs.Version.Name; n != "" && !seen[n] {
			seen[n] = true
			names = append(names, n)
		}
	}
	if len(names) > 1 {
		return "per worker: " + strings.Join(names, ", ")
	}
	return r.Version.Name
}

// JSON builds the contract.
func (r *Report) JSON() JSON {
	out := JSON{TRTLLM: r.Version.Name, Workers: []WorkerJSON{}, Consistent: r.Consistent, Failing: []string{},
		Fix: []FixJSON{}, Unplaced: []UnplacedJSON{}, Copies: []CopyJSON{}, SameDeployments: []SameDeploymentJSON{}, Orchestrators: []OrchestratorJSON{}, Objects: r.Set.Objects,
		Warnings: append([]string{}, r.Set.Warnings...)}
	if r.Split != "" {
		out.Warnings = append(out.Warnings, r.Split)
	}
	if r.Empty() {
		out.Warnings = append(out.Warnings, r.emptyVerdict())
	} else if u := r.unresolvedLine(func(s string) string { return s }); u != "" {
		out.Warnings = append(out.Warnings, u)
	}
	for _, e := range r.order() {
		w := e.Worker
		wj := WorkerJSON{Name: w.Name, Role: w.Role, RoleFrom: w.RoleFrom, Source: w.Source.String(), Count: w.Count, CountFrom: w.CountFrom,
			Config: w.Config, Notes: append(append([]string{}, w.Notes...), e.Notes...)}
		if len(r.Groups) > 1 {
			wj.Deployment = groupLabel(w.Group)
		}
		if e.Err != "" {
			wj.Outcome, wj.Error = "ERROR", ptr(e.Err)
		} else {
			j := report.Explain(e.Trace)
			wj.Outcome, wj.EffectiveBackend, wj.ResolvedRuntime, wj.TransceiverClass = j.Outcome, j.EffectiveBackend, j.ResolvedRuntime, j.TransceiverClass
			wj.KVCacheManager, wj.Error, wj.Inputs = j.KVCacheManager, j.Error, j.Inputs
		}
		if e.Failed() {
			out.Failing = append(out.Failing, w.Name)
		}
		out.Workers = append(out.Workers, wj)
	}
	for _, f := range r.Fix {
		fj := FixJSON{Worker: f.Worker, YAML: f.YAML, Outcome: end(f.Outcome)}
		for _, e := range f.Edits {
			fj.Edits = append(fj.Edits, e.String())
		}
		out.Fix = append(out.Fix, fj)
	}
	out.FixFound = len(r.Fix) > 0 || !r.Fails() || r.commandOnly()
	for _, u := range r.Set.Unplaced {
		out.Unplaced = append(out.Unplaced, UnplacedJSON{Source: u.Source.String(), Why: u.Why, Worker: u.Worker, Runs: u.Runs})
	}
	for _, c := range r.Set.Copies {
		out.Copies = append(out.Copies, CopyJSON{Source: c.Source, SameAs: c.SameAs, Workers: c.Workers, Why: copyWhy(c)})
	}
	for _, a := range r.Alike {
		out.SameDeployments = append(out.SameDeployments, SameDeploymentJSON{Name: a.Name, Deployments: a.Deployments,
			Differs: append([]string{}, a.Differs...), Why: alikeWhy(a)})
	}
	for _, o := range r.Set.Orchestrators {
		oj := OrchestratorJSON{Source: o.Source.String(), Servers: map[string][]string{}}
		for role, s := range o.Servers {
			oj.Servers[role] = append([]string{}, s.URLs...)
		}
		out.Orchestrators = append(out.Orchestrators, oj)
	}
	if r.Upgrade != nil {
		u := r.Upgrade.JSON()
		out.Upgrade = &u
	}
	return out
}

var roleRank = map[string]int{RoleContext: 0, RoleGeneration: 1, RoleAggregated: 2}

// order is the entries by role (context, generation, aggregated), failures
// first within a role, then by name.
func (r *Report) order() []Entry {
	// Sort indexes, not the entries: an Entry holds its whole trace and
	// inputs, which a sort of a thousand would copy at every swap.
	idx := make([]int, len(r.Entries))
	for i := range idx {
		idx[i] = i
	}
	sort.SliceStable(idx, func(i, j int) bool {
		a, b := &r.Entries[idx[i]], &r.Entries[idx[j]]
		if roleRank[a.Worker.Role] != roleRank[b.Worker.Role] {
			return roleRank[a.Worker.Role] < roleRank[b.Worker.Role]
		}
		if a.Failed() != b.Failed() {
			return a.Failed()
		}
		return a.Worker.Name < b.Worker.Name
	})
	es := make([]Entry, len(idx))
	for k, i := range idx {
		es[k] = r.Entries[i]
	}
	return es
}

func outcomeCell(e Entry) string {
	if e.Err != "" {
		return "✗ ERROR"
	}
	return compare.OutcomeLabel(e.Trace.Result.Outcome)
}

func countCell(w *Worker) string {
	if w.Count == 0 {
		return "?"
	}
	return strconv.Itoa(w.Count)
}

func backendCell(e Entry) string {
	if e.Err == "" && e.Trace.Result.EffectiveBackend.Valid {
		return e.Trace.Result.EffectiveBackend.S
	}
	return "-"
}

func kvCell(e Entry) string {
	if e.Err == "" && e.Trace.Result.KVManager.Valid {
		return e.Trace.Result.KVManager.S
	}
	return "-"
}

// inputsLine lists the inputs a worker's files or flags set, with origins.
func inputsLine(e Entry) string {
	if e.Err != "" {
		return ""
	}
	m := report.InputsJSON(e.Trace.Inputs)
	var keys []string
	for k, v := range m {
		if v.Origin == "default" || v.Origin == "" {
			continue
		}
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var parts []string
	for _, k := range keys {
		v := m[k]
		val := "null"
		if v.Value != nil {
			val = fmt.Sprint(v.Value)
		}
		parts = append(parts, k+"="+val+" ("+v.Origin+")")
	}
	return strings.Join(parts, "; ")
}

// Text renders the audit for people: one table by role, failures first, then
// each worker's inputs and errors, the deployment's verdict, the fix, and what
// was not placed. Every value from the input is escaped.
func (r *Report) Text() string {
	var b strings.Builder
	t := termsafe.Line
	total := 0
	for _, e := range r.Entries {
		total += e.Worker.Count
	}
	fmt.Fprintf(&b, "Audit: %d worker configuration(s), %d replica(s)/server(s), from %d object(s) · TensorRT-LLM %s\n\n",
		len(r.Entries), total, r.Set.Objects, t(r.versionLabel()))
	es := r.order()
	if len(es) > 0 {
		rows := [][]string{{"ROLE", "WORKER", "N", "OUTCOME", "BACKEND", "KV", "SOURCE"}}
		for _, e := range es {
			rows = append(rows, []string{e.Worker.Role, t(e.Worker.Name), countCell(e.Worker), outcomeCell(e), backendCell(e), kvCell(e), t(e.Worker.Source.String())})
		}
		writeTable(&b, rows)
		b.WriteString("\n")
	}
	for _, e := range es {
		w := e.Worker
		fmt.Fprintf(&b, "%s %s (%s; %s):\n", w.Role, t(w.Name), t(w.RoleFrom), t(w.CountFrom))
		fmt.Fprintf(&b, "  config: %s\n", t(w.Config))
		if in := inputsLine(e); in != "" {
			fmt.Fprintf(&b, "  inputs: %s\n", t(in))
		}
		switch {
		case e.Err != "":
			fmt.Fprintf(&b, "  error: %s\n", t(e.Err))
		case e.Trace.Result.Outcome == resolver.OutcomeError:
			fmt.Fprintf(&b, "  outcome: start-up fails:\n%s", indent(report.ErrorText(e.Trace), "    "))
		default:
			fmt.Fprintf(&b, "  outcome: %s\n", t(report.OutcomeLine(e.Trace.Result)+backendSuffix(e.Trace.Result)))
		}
		for _, n := range append(append([]string{}, w.Notes...), e.Notes...) {
			fmt.Fprintf(&b, "  note: %s\n", t(n))
		}
	}
	if len(es) > 0 {
		b.WriteString("\n")
	}
	var failing []string
	for _, e := range es {
		if e.Failed() {
			failing = append(failing, t(e.Worker.Name))
		}
	}
	hasDisagg := false
	for _, e := range es {
		if e.Worker.Role != RoleAggregated {
			hasDisagg = true
		}
	}
	if names, parts := groupsOf(es); len(parts) > 1 && !r.Empty() {
		// Several deployments: each its own verdict.
		fmt.Fprintf(&b, "Deployments: %d, each checked on its own (a file or object holding both context and generation workers is one; the files holding one role are checked together):\n", len(parts))
		for i, part := range parts {
			ok, split := consistent(part)
			fmt.Fprintf(&b, "  %s: %s.\n", t(groupLabel(names[i])), r.resolvedOnly(verdict(part, ok, split, t)))
		}
		for _, a := range r.Alike {
			fmt.Fprintf(&b, "  %s: %s.\n", t(andList(a.Paths)), t(alikeWhy(a)))
		}
	} else if r.Empty() {
		b.WriteString("Deployment: ✗ " + r.emptyVerdict() + ".\n")
	} else {
		fmt.Fprintf(&b, "Deployment: %s.\n", r.resolvedOnly(verdict(es, r.Consistent, r.Split, t)))
	}
	if len(failing) > 0 {
		fmt.Fprintf(&b, "Failing: %s.\n", strings.Join(failing, ", "))
	}
	if u := unknownRoles(es, t); hasDisagg && u != "" {
		fmt.Fprintf(&b, "Not checked against them (role not known): %s.\n", u)
	}
	if u := r.unresolvedLine(t); u != "" {
		b.WriteString("✗ " + u + ".\n")
	}
	if r.Fails() {
		if len(r.Fix) == 0 && r.commandOnly() {
			b.WriteString("Fix: the command line of every failing worker, as its error says; the config files need no change.\n")
		} else if len(r.Fix) == 0 {
			fmt.Fprintf(&b, "Fix: none of up to %d edits per worker makes every worker start and agree.\n", maxFixEdits)
		} else {
			if r.hasCommandErrors() {
				b.WriteString("Fix the command line of the workers whose error says so, and:\n")
			}
			b.WriteString("Smallest verified fix (each re-resolved):\n")
			for _, f := range r.Fix {
				var edits []string
				for _, e := range f.Edits {
					edits = append(edits, e.String())
				}
				fmt.Fprintf(&b, "  %s: %s → %s\n", t(f.Worker), strings.Join(edits, ", "), t(end(f.Outcome)))
				b.WriteString(termsafe.Text(indent(f.YAML, "    ")))
			}
		}
	}
	for _, o := range r.Set.Orchestrators {
		fmt.Fprintf(&b, "Orchestrator %s: only lists its servers; each worker's own --config decides its transceiver:", t(o.Source.String()))
		for _, role := range []string{RoleContext, RoleGeneration} {
			if s, ok := o.Servers[role]; ok {
				fmt.Fprintf(&b, " %s %s;", role, t(strings.Join(s.URLs, ", ")))
			}
		}
		if o.Served > 0 {
			servers := ""
			if o.ServedCount != o.Served {
				servers = fmt.Sprintf(" (%d server(s))", o.ServedCount)
			}
			fmt.Fprintf(&b, " %d worker configuration(s)%s of the set serve its urls (matched by host and port).\n", o.Served, servers)
		} else {
			b.WriteString(" give their configs to audit.\n")
		}
	}
	if len(r.Set.Copies) > 0 {
		fmt.Fprintf(&b, "Copies, shown once (%d):\n", len(r.Set.Copies))
		for _, c := range r.Set.Copies {
			fmt.Fprintf(&b, "  %s: %s\n", t(c.Source), t(copyWhy(c)))
		}
	}
	if len(r.Set.Unplaced) > 0 {
		fmt.Fprintf(&b, "Not placed (%d):\n", len(r.Set.Unplaced))
		for _, u := range r.Set.Unplaced {
			fmt.Fprintf(&b, "  %s: %s%s\n", t(u.Source.String()), t(u.Why), u.runsNote())
		}
	}
	for _, w := range r.Set.Warnings {
		fmt.Fprintf(&b, "Warning: %s\n", t(w))
	}
	if r.Upgrade != nil {
		b.WriteString("\n")
		b.WriteString(compare.UpgradeText(r.Upgrade.Safe(), compare.TextOptions{Width: 100}))
	}
	return b.String()
}

func backendSuffix(r resolver.Result) string {
	if r.EffectiveBackend.Valid {
		return " on " + r.EffectiveBackend.S
	}
	return ""
}

func indent(s, pre string) string {
	s = strings.TrimRight(s, "\n")
	if s == "" {
		return ""
	}
	return pre + strings.ReplaceAll(s, "\n", "\n"+pre) + "\n"
}

func writeTable(b *strings.Builder, rows [][]string) {
	widths := make([]int, len(rows[0]))
	for _, r := range rows {
		for i, c := range r {
			widths[i] = max(widths[i], len([]rune(c)))
		}
	}
	for _, r := range rows {
		var line strings.Builder
		line.WriteString("  ")
		for i, c := range r {
			line.WriteString(c)
			if i < len(r)-1 {
				line.WriteString(strings.Repeat(" ", widths[i]-len([]rune(c))+2))
			}
		}
		b.WriteString(strings.TrimRight(line.String(), " ") + "\n")
	}
}

func mdCell(s string) string {
	return strings.NewReplacer("|", `\|`, "\n", " ").Replace(termsafe.Line(s))
}

// failingRoles counts the context and generation worker configurations that
// fail to start.
func failingRoles(es []Entry) int {
	n := 0
	for _, e := range es {
		if e.Worker.Role != RoleAggregated && e.Failed() {
			n++
		}
	}
	return n
}

// Markdown renders the audit for a ticket.
func (r *Report) Markdown() string {
	var b strings.Builder
	fmt.Fprintf(&b, "## Deployment audit (TensorRT-LLM %s)\n\n", mdCell(r.versionLabel()))
	if !r.Empty() {
		b.WriteString("| Role | Worker | N | Outcome | Backend | KV | Source |\n|---|---|---|---|---|---|---|\n")
		for _, e := range r.order() {
			fmt.Fprintf(&b, "| %s | %s | %s | %s | %s | %s | %s |\n", e.Worker.Role, mdCell(e.Worker.Name), countCell(e.Worker),
				outcomeCell(e), backendCell(e), kvCell(e), mdCell(e.Worker.Source.String()))
		}
		b.WriteString("\n")
	}
	for _, e := range r.order() {
		if e.Failed() {
			msg := termsafe.Text(e.Err)
			if e.Err == "" {
				msg = report.ErrorText(e.Trace)
			}
			fmt.Fprintf(&b, "**%s** fails:\n\n```\n%s\n```\n\n", mdCell(e.Worker.Name), strings.ReplaceAll(msg, "```", "'''"))
		}
	}
	switch down := failingRoles(r.Entries); {
	case r.Empty():
		b.WriteString("Context and generation workers: ✗ " + r.emptyVerdict() + "\n")
		for _, w := range r.Set.Warnings {
			fmt.Fprintf(&b, "\nWarning: %s\n", mdCell(w))
		}
	case r.Consistent && down == 0 && len(r.Groups) > 1:
		fmt.Fprintf(&b, "Context and generation workers agree: ✓ within each of the %d deployments\n", len(r.Groups))
	case r.Consistent && down == 0:
		b.WriteString("Context and generation workers agree: ✓\n")
	case r.Consistent:
		fmt.Fprintf(&b, "Context and generation workers: ✗ %d configuration(s) fail to start; those that start agree\n", down)
	default:
		fmt.Fprintf(&b, "Context and generation workers: ✗ %s\n", mdCell(r.Split))
	}
	if u := unknownRoles(r.Entries, mdCell); u != "" && !r.Empty() && r.hasDisagg() {
		fmt.Fprintf(&b, "\nNot checked against them (role not known): %s\n", u)
	}
	if u := r.unresolvedLine(mdCell); u != "" {
		b.WriteString("\n✗ " + u + "\n")
	}
	for _, f := range r.Fix {
		fmt.Fprintf(&b, "\nFix for **%s** (verified: %s):\n\n```yaml\n%s```\n", mdCell(f.Worker), mdCell(end(f.Outcome)), termsafe.Text(f.YAML))
	}
	if len(r.Set.Unplaced) > 0 {
		b.WriteString("\nNot placed:\n\n")
		for _, u := range r.Set.Unplaced {
			fmt.Fprintf(&b, "- %s: %s%s\n", mdCell(u.Source.String()), mdCell(u.Why), u.runsNote())
		}
	}
	if r.Upgrade != nil {
		b.WriteString("\n" + compare.UpgradeMarkdown(r.Upgrade.Safe()))
	}
	return b.String()
}

// unknownRoles lists the workers whose role is not known (a trtllm-serve
// nothing places), each with where it ends, in the words esc makes safe;
// "" when none.
func unknownRoles(es []Entry, esc func(string) string) string {
	var out []string
	for _, e := range es {
		if !e.Worker.roleUnknown || e.Worker.Role != RoleAggregated {
			continue
		}
		if e.Failed() {
			out = append(out, esc(e.Worker.Name)+" (fails to start)")
		} else {
			out = append(out, esc(e.Worker.Name)+" → "+esc(end(e.Trace.Result)))
		}
	}
	return strings.Join(out, "; ")
}

// hasDisagg reports whether any worker is a context or generation worker.
func (r *Report) hasDisagg() bool {
	for _, e := range r.Entries {
		if e.Worker.Role != RoleAggregated {
			return true
		}
	}
	return false
}

// verdict says whether the context and generation workers of es, one
// deployment, can exchange KV cache: ok and split as consistent gives them.
// resolvedOnly narrows a verdict's "every" to the workers resolved when
// some found were not (Unresolved): a ✓ speaks for those it checked.
func (r *Report) resolvedOnly(v string) string {
	if len(r.Unresolved()) == 0 {
		return v
	}
	return strings.Replace(v, "✓ every context and generation worker", "✓ every resolved context and generation worker", 1)
}

func verdict(es []Entry, ok bool, split string, t func(string) string) string {
	hasDisagg := false
	for _, e := range es {
		hasDisagg = hasDisagg || e.Worker.Role != RoleAggregated
	}
	switch {
	case !hasDisagg:
		return "no context or generation workers; nothing exchanges KV cache"
	case !ok:
		return "✗ " + t(split)
	}
	// A context or generation worker that fails to start exchanges
	// nothing: the line leads with ✗ then, though those that start agree.
	down := failingRoles(es)
	for _, e := range es {
		if e.Worker.Role != RoleAggregated && !e.Failed() {
			end := t(report.OutcomeLine(e.Trace.Result) + backendSuffix(e.Trace.Result))
			if down > 0 {
				return fmt.Sprintf("✗ %d context or generation worker configuration(s) fail to start; those that start end on %s", down, end)
			}
			return "✓ every context and generation worker ends on " + end
		}
	}
	// Every context and generation worker fails: nothing to agree on.
	return "✗ no context or generation worker starts; nothing exchanges KV cache"
}

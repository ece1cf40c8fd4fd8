// Package compare answers "what changes when we upgrade?": it resolves the same
// inputs under two TensorRT-LLM versions and aligns the two chains step by step
// (Diff), checks each role of a deployment for an upgrade and searches for the
// smallest verified fix (UpgradeCheck), and tabulates outcomes over models,
// backends and versions (Evaluate, NewMatrix). It is pure: no I/O and no flags,
// so the CLI and the explorer share it.
package compare

import (
	"xcvr/models"
	"xcvr/resolver"
)

// ForVersion returns in as it would be under version v. Only the version and what
// the catalog says about the model depend on the version; every other input, and
// every origin, is kept, so that the two chains differ only by the rules.
func ForVersion(in resolver.Inputs, v resolver.Version, cat *models.Catalog) resolver.Inputs {
	out := in
	out.Version = v
	out.Model.Value = cat.Lookup(in.Model.Value.Arch, v)
	return out
}

// StepDiff is one step id under both versions.
type StepDiff struct {
	ID   string
	From resolver.Step
	To   resolver.Step
	// Changed is true when the step decides something different: its verdict or
	// reason differs, it raised a different exception, or (for the version step)
	// the era differs.
	Changed bool
}

// Diff is the chain of the same inputs under two versions, aligned by step id.
type Diff struct {
	From resolver.Trace
	To   resolver.Trace
	// Steps are in the order the TO version runs them; the FROM step with the same
	// id sits beside each.
	Steps []StepDiff
	// ChangedSteps lists the ids of the changed steps, in Steps order.
	ChangedSteps []string
	// OutcomeChanged is true when the result differs: outcome, resolved runtime,
	// transceiver class, KV-cache manager or exception.
	OutcomeChanged bool
	// Changes are the upstream changes merged between the two versions (either
	// direction), oldest first: the "why" of the diff.
	Changes []resolver.Change
}

// Changed reports whether anything an operator would notice differs.
func (d Diff) Changed() bool { return d.OutcomeChanged || len(d.ChangedSteps) > 0 }

// DiffVersions resolves in under from and under to and aligns the chains.
func DiffVersions(in resolver.Inputs, from, to resolver.Version, cat *models.Catalog) Diff {
	return DiffTraces(resolver.Resolve(ForVersion(in, from, cat)), resolver.Resolve(ForVersion(in, to, cat)))
}

// DiffTraces aligns two traces by step id. The resolver guarantees every trace
// holds every id exactly once, so the alignment is total; a missing id (which the
// resolver never produces) is shown against a zero step and counts as changed.
func DiffTraces(from, to resolver.Trace) Diff {
	d := Diff{From: from, To: to}
	fromByID := make(map[string]resolver.Step, len(from.Steps))
	for _, s := range from.Steps {
		fromByID[s.ID] = s
	}
	for _, ts := range to.Steps {
		fs, ok := fromByID[ts.ID]
		sd := StepDiff{ID: ts.ID, From: fs, To: ts, Changed: !ok || stepChanged(from, to, fs, ts)}
		d.Steps = append(d.Steps, sd)
		if sd.Changed {
			d.ChangedSteps = append(d.ChangedSteps, ts.ID)
		}
	}
	fr, tr := from.Result, to.Result
	d.OutcomeChanged = fr.Outcome != tr.Outcome || fr.ResolvedRuntime != tr.ResolvedRuntime ||
		fr.RuntimeKnown != tr.RuntimeKnown || fr.Class != tr.Class || fr.Error != tr.Error || fr.KVManager != tr.KVManager
	d.Changes = changesBetween(from.Inputs.Version.Main, to.Inputs.Version.Main)
	return d
}

// stepChanged compares what a step decided. The version step's reason always
// names the version, so only a change of era counts there; sources are ignored
// because a file move (#17899) changes no behaviour.
func stepChanged(from, to resolver.Trace, fs, ts resolver.Step) bool {
	if ts.ID == resolver.StepVersion {
		return from.Inputs.Version.Era != to.Inputs.Version.Era
	}
	if fs.Verdict != ts.Verdict || fs.Reason != ts.Reason {
		return true
	}
	// Same verdict and reason but a different exception text (e.g. "the NIXL
	// backend" vs "NIXL backend"): the operator sees a different error.
	fromFailed := from.Result.FailedStep == ts.ID
	toFailed := to.Result.FailedStep == ts.ID
	return (fromFailed || toFailed) && from.Result.Error != to.Result.Error
}

// changesBetween lists the modelled upstream changes merged after the older day
// and on or before the newer one.
func changesBetween(a, b resolver.Day) []resolver.Change {
	if a > b {
		a, b = b, a
	}
	var out []resolver.Change
	for _, c := range resolver.Changes() {
		if c.Merged > a && c.Merged <= b {
			out = append(out, c)
		}
	}
	return out
}

package compare

import (
	"strconv"
	"strings"

	"xcvr/internal/report"
)

// mdCell keeps a table cell intact: pipes are escaped, newlines become spaces.
func mdCell(s string) string {
	s = strings.ReplaceAll(s, "|", `\|`)
	return strings.ReplaceAll(s, "\n", " ")
}

// DiffMarkdown renders the diff as a Markdown section for an issue or a runbook:
// the versions, a table with one row per step id and the exceptions.
func DiffMarkdown(d Diff) string {
	var b strings.Builder
	fv, tv := d.From.Inputs.Version, d.To.Inputs.Version
	b.WriteString("### xcvr diff: " + fv.Name + " → " + tv.Name + "\n\n")
	b.WriteString("- from: " + mdCell(versionLine(fv)) + "\n- to: " + mdCell(versionLine(tv)) + "\n")
	b.WriteString("- inputs: " + mdCell(inputsLine(d.To.Inputs)) + "\n")
	if len(d.Changes) > 0 {
		var prs []string
		for _, c := range d.Changes {
			if c.PR != 0 {
				prs = append(prs, "#"+strconv.Itoa(c.PR))
			}
		}
		b.WriteString("- upstream changes in between: " + strings.Join(prs, ", ") + "\n")
	}
	b.WriteString("\n| | Step | " + mdCell(fv.Name) + " | " + mdCell(tv.Name) + " |\n|---|---|---|---|\n")
	for _, s := range d.Steps {
		mark := ""
		if s.Changed {
			mark = ChangeMark
		}
		b.WriteString("| " + mark + " | " + s.ID + " | " + mdCell(stepCell(s.From)) + " | " + mdCell(stepCell(s.To)) + " |\n")
	}
	mark := ""
	if d.OutcomeChanged {
		mark = ChangeMark
	}
	b.WriteString("| " + mark + " | **outcome** | " + mdCell(resultCell(d.From.Result)) + " | " + mdCell(resultCell(d.To.Result)) + " |\n")
	for _, side := range []struct{ name, err string }{{fv.Name, d.From.Result.Error}, {tv.Name, d.To.Result.Error}} {
		if side.err != "" {
			b.WriteString("\n**" + side.name + " fails:**\n\n```text\n" + side.err + "\n```\n")
		}
	}
	if gone, added := LogDiff(d.From.Logs, d.To.Logs); len(gone)+len(added) > 0 {
		b.WriteString("\n**Log lines** (`-` only in " + fv.Name + ", `+` only in " + tv.Name + ")\n\n```diff\n")
		for _, l := range gone {
			b.WriteString("- " + report.LogPrefix(l.Level) + l.Message + "\n")
		}
		for _, l := range added {
			b.WriteString("+ " + report.LogPrefix(l.Level) + l.Message + "\n")
		}
		b.WriteString("```\n")
	}
	if d.Changed() {
		b.WriteString("\n" + ChangeMark + " changed steps: " + strings.Join(d.ChangedSteps, ", ") + "\n")
	} else {
		b.WriteString("\n= no change\n")
	}
	return b.String()
}

// UpgradeMarkdown renders the upgrade check as a Markdown section: a table of
// roles and, per role that changes or breaks, the fix as a YAML block.
func UpgradeMarkdown(u Upgrade) string {
	var b strings.Builder
	b.WriteString("### xcvr upgrade-check: " + u.From.Name + " → " + u.To.Name + "\n\n")
	b.WriteString("| Role | " + mdCell(u.From.Name) + " | " + mdCell(u.To.Name) + " | Verdict |\n|---|---|---|---|\n")
	for _, f := range u.Findings {
		b.WriteString("| " + mdCell(f.Role) + " | " + OutcomeLabel(f.From.Result.Outcome) + " | " +
			OutcomeLabel(f.To.Result.Outcome) + " | " + verdictWord(f.Verdict) + " |\n")
	}
	if u.Split {
		b.WriteString("\n**Warning:** after the upgrade the roles end on different transceivers or backends (" + mdCell(rolesEnd(u)) +
			"); both roles must use the same runtime and backend to exchange KV cache, which TensorRT-LLM does not check at start-up.")
		if u.FixesJoin {
			b.WriteString(" With the fixes below applied they agree again.")
		}
		b.WriteString("\n")
	}
	for _, f := range u.Findings {
		if f.Verdict == VerdictSame {
			continue
		}
		b.WriteString("\n**" + mdCell(f.Role) + "**")
		if e := f.To.Result.Error; e != "" {
			b.WriteString(": " + u.To.Name + " fails at " + f.To.Result.FailedStep + "\n\n```text\n" + e + "\n```\n")
		} else {
			b.WriteString(": " + OutcomeLabel(f.From.Result.Outcome) + " becomes " + OutcomeLabel(f.To.Result.Outcome) + "\n")
		}
		if fx := f.Fix; fx != nil {
			b.WriteString("\nFix (" + strconv.Itoa(len(fx.Edits)) + " edit(s); verified: " + u.To.Name + " gives " +
				OutcomeLabel(fx.ToOutcome) + ", " + u.From.Name + " gives " + OutcomeLabel(fx.FromOutcome) + "):\n\n```yaml\n" + fx.YAML + "```\n")
			if fx.Note != "" {
				b.WriteString("\n" + fx.Note + ".\n")
			}
		}
	}
	return b.String()
}

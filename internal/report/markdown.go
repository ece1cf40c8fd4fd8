package report

import (
	"strconv"
	"strings"

	"xcvr/resolver"
)

// Markdown renders the chain as a Markdown section: a heading, the outcome, a table
// of steps and the log lines in a code block. It is what the explorer copies with
// `c` and what `explain -o markdown` prints, ready for an issue or a runbook.
func Markdown(t resolver.Trace) string {
	t = Safe(t)
	var b strings.Builder
	b.WriteString("### xcvr: " + mdEscape(Header(t.Inputs)) + "\n\n")
	b.WriteString("**Outcome:** " + mdEscape(OutcomeLine(t.Result)) + "\n")
	if d := outcomeDetails(t.Result); d != "" {
		b.WriteString("(" + mdEscape(d) + ")\n")
	}
	b.WriteString("\n| # | Step | Verdict | Reason | Source | Confidence |\n|---|---|---|---|---|---|\n")
	for i, s := range t.Steps {
		b.WriteString("| " + strconv.Itoa(i+1) + " | " + mdEscape(s.Title) + " | " + Glyph(s.Verdict) + " " + string(s.Verdict) +
			" | " + mdEscape(s.Reason) + " | " + mdEscape(s.Source.String()) + " | " + string(s.Confidence) + " |\n")
	}
	if t.Result.Hint != "" {
		// The blank line ends the table; without it GitHub renders the line
		// as one more table row.
		b.WriteString("\n**Fix:** " + mdEscape(t.Result.Hint) + "\n")
	}
	if t.Result.Error != "" {
		b.WriteString("\n**Exception**\n\n```text\n" + t.Result.Error + "\n```\n")
	}
	b.WriteString("\n**Log lines you should see**\n\n```text\n")
	for _, l := range t.Logs {
		b.WriteString(LogPrefix(l.Level) + l.Message + "\n")
	}
	b.WriteString("```\n")
	return b.String()
}

// mdEscape keeps table cells intact: pipes are escaped, newlines become spaces.
func mdEscape(s string) string {
	s = strings.ReplaceAll(s, "|", `\|`)
	return strings.ReplaceAll(s, "\n", " ")
}

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
	if d := outcomeDetails(t); d != "" {
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
		f := fence(t.Result.Error)
		b.WriteString("\n**Exception**\n\n" + f + "text\n" + t.Result.Error + "\n" + f + "\n")
	}
	var logs strings.Builder
	for _, l := range t.Logs {
		logs.WriteString(LogPrefix(l.Level) + l.Message + "\n")
	}
	f := fence(logs.String())
	b.WriteString("\n**Log lines you should see**\n\n" + f + "text\n" + logs.String() + f + "\n")
	return b.String()
}

// fence is a code fence that the text inside cannot close: CommonMark closes a
// fence only with at least as many backticks, so it is one longer than the
// longest run of backticks in s (and at least three).
func fence(s string) string {
	longest, run := 0, 0
	for i := 0; i < len(s); i++ {
		if s[i] == '`' {
			run++
			longest = max(longest, run)
		} else {
			run = 0
		}
	}
	return strings.Repeat("`", max(3, longest+1))
}

// mdEscape keeps table cells intact: pipes are escaped, newlines become spaces.
func mdEscape(s string) string {
	s = strings.ReplaceAll(s, "|", `\|`)
	return strings.ReplaceAll(s, "\n", " ")
}

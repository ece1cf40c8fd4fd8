package ui

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"xcvr/internal/report"
	"xcvr/internal/termsafe"
	"xcvr/resolver"
)

// A wrapped log line's continuation starts two cells further in than its first
// line; wrapped to the first line's room, the continuation ran past the pane and
// was cut ("lower-th…" at 120 columns, losing "an-"). Every log line must survive
// wrapping whole at any width: operators copy and grep them.
func TestOutcomeLogLinesWrapWhole(t *testing.T) {
	s := testSpec()
	s.Version.Raw = "1.3.0rc22"
	s.Backend.Raw = "UCX"
	tr := resolver.Resolve(mustBuild(t, s))
	st := NewPlainStyles(true)
	for w := 40; w <= 160; w++ {
		lines := outcomeLines(st, tr, "", w, false)
		text := ansi.Strip(strings.Join(lines, "\n"))
		flat := strings.Join(strings.Fields(text), " ")
		for _, lg := range tr.Logs {
			want := strings.Join(strings.Fields(report.LogPrefix(lg.Level)+termsafe.Line(lg.Message)), " ")
			// ansi.Wrap breaks after a hyphen without a space: join those back.
			if !strings.Contains(strings.ReplaceAll(flat, "- ", "-"), strings.ReplaceAll(want, "- ", "-")) {
				t.Fatalf("width %d: log line not whole:\nwant %q\nin   %q", w, want, flat)
			}
		}
	}
}

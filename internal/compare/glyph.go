package compare

import (
	"xcvr/internal/report"
	"xcvr/resolver"
)

// OutcomeGlyph is the one-cell mark of an outcome. Every view pairs it with
// OutcomeWord so that nothing depends on colour alone.
func OutcomeGlyph(o resolver.Outcome) string {
	switch o {
	case resolver.OutcomePython:
		return "✓"
	case resolver.OutcomeCPP:
		return "●"
	case resolver.OutcomeDisabled:
		return "○"
	case resolver.OutcomeError:
		return "✗"
	}
	return "?"
}

// OutcomeWord is the short word of an outcome; "off" is shorter than DISABLED
// so that matrix cells stay narrow.
func OutcomeWord(o resolver.Outcome) string {
	switch o {
	case resolver.OutcomeDisabled:
		return "off"
	case "":
		return "unknown"
	}
	return string(o)
}

// OutcomeLabel is glyph and word together, e.g. "✓ PYTHON".
func OutcomeLabel(o resolver.Outcome) string { return OutcomeGlyph(o) + " " + OutcomeWord(o) }

// VerdictGlyph is the one-cell mark of a step verdict, the same as explain's
// (report.Glyph), so a step looks alike in every view.
func VerdictGlyph(v resolver.Verdict) string { return report.Glyph(v) }

// ChangeMark flags a changed row in the side-by-side views; "=" keeps the column
// meaningful for rows that did not change.
const (
	ChangeMark    = "≠"
	UnchangedMark = " "
)

// OutcomeLegend explains every outcome mark, for the foot of a table.
func OutcomeLegend() []string {
	return []string{
		OutcomeLabel(resolver.OutcomePython) + " Python transceiver",
		OutcomeLabel(resolver.OutcomeCPP) + " C++ transceiver",
		OutcomeLabel(resolver.OutcomeDisabled) + " disaggregation off",
		OutcomeLabel(resolver.OutcomeError) + " start-up fails",
	}
}

package report

import (
	"testing"

	"github.com/charmbracelet/x/ansi"
)

// TestWidthIsStringWidth: the ASCII shortcut measures as ansi.StringWidth does.
func TestWidthIsStringWidth(t *testing.T) {
	for _, s := range []string{"", "a", "gen-invalid.yaml:10", "--log_level", "~!@#$%^&*()_+{}|:<>?", "\x1b[1mbold\x1b[m",
		"tab\there", "del\x7f", "é", "日本", "👍🏽", "a\u200bb", " "} {
		if got, want := width(s), ansi.StringWidth(s); got != want {
			t.Errorf("width(%q) = %d, ansi.StringWidth %d", s, got, want)
		}
	}
	for c := 0; c < 256; c++ {
		s := "x" + string(rune(c)) + "y"
		if got, want := width(s), ansi.StringWidth(s); got != want {
			t.Errorf("width(%q) = %d, ansi.StringWidth %d", s, got, want)
		}
	}
}

package compare

import (
	"strings"

	"github.com/charmbracelet/x/ansi"
)

// TextOptions controls the plain-text views.
type TextOptions struct {
	// Width is the terminal width in cells; 0 means 80. Every line fits in it.
	Width int
	// Color adds ANSI emphasis. Callers set it only for a terminal without
	// NO_COLOR; the glyphs and words carry the meaning either way.
	Color bool
	// All shows the full reasons of unchanged steps in the diff, not one line.
	All bool
}

func (o TextOptions) width() int {
	if o.Width <= 0 {
		return 80
	}
	// Below 40 cells the two columns cannot hold a verdict word; lay out for 40
	// and let the terminal wrap rather than print nonsense.
	return max(o.Width, 40)
}

// style wraps s in an SGR sequence when colour is on.
func (o TextOptions) style(sgr, s string) string {
	if !o.Color || s == "" {
		return s
	}
	return "\x1b[" + sgr + "m" + s + "\x1b[0m"
}

const (
	sgrBold    = "1"
	sgrChanged = "1;33"
	sgrError   = "31"
	sgrFaint   = "2"
)

// wrapCell wraps text to width cells, by words where possible, and drops the
// trailing blanks a wrap leaves.
func wrapCell(text string, width int) []string {
	if width <= 0 {
		return []string{""}
	}
	lines := strings.Split(ansi.Wrap(text, width, ""), "\n")
	for i, l := range lines {
		lines[i] = strings.TrimRight(l, " ")
	}
	return lines
}

// oneLine cuts text to width cells with an ellipsis.
func oneLine(text string, width int) string {
	text = strings.ReplaceAll(text, "\n", " ")
	if ansi.StringWidth(text) <= width {
		return text
	}
	return ansi.Truncate(text, width, "…")
}

// pad right-pads s with spaces to width cells (by display width, not bytes).
func pad(s string, width int) string {
	if n := ansi.StringWidth(s); n < width {
		return s + strings.Repeat(" ", width-n)
	}
	return s
}

// writeWrapped writes text wrapped to width after the prefix first; continuation
// lines hang under the text, so a label is not repeated.
func writeWrapped(b *strings.Builder, first, text string, width int) {
	n := ansi.StringWidth(first)
	for i, l := range wrapCell(text, width-n) {
		prefix := first
		if i > 0 {
			prefix = strings.Repeat(" ", n)
		}
		b.WriteString(strings.TrimRight(prefix+l, " "))
		b.WriteByte('\n')
	}
}

// writeItems packs items into lines of at most width cells, never breaking inside
// an item (so "✗ ERROR" or "[8] Gemma3ForConditionalGeneration" stays whole);
// continuation lines hang under the first item.
func writeItems(b *strings.Builder, first string, items []string, sep string, width int) {
	n := ansi.StringWidth(first)
	line := first
	empty := true
	for i, it := range items {
		if i < len(items)-1 {
			it += sep
		}
		// An item wider than a whole line (a long architecture at the 40-cell
		// floor) is cut rather than overflow.
		if room := width - n; ansi.StringWidth(strings.TrimRight(it, " ")) > room {
			it = oneLine(strings.TrimRight(it, " "), room)
		}
		trimmed := strings.TrimRight(it, " ")
		if !empty && ansi.StringWidth(line)+ansi.StringWidth(trimmed) > width {
			b.WriteString(strings.TrimRight(line, " ") + "\n")
			line, empty = strings.Repeat(" ", n), true
		}
		line += it
		empty = false
	}
	b.WriteString(strings.TrimRight(line, " ") + "\n")
}

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

// uniqueCuts cuts each name to width cells like oneLine, except that names which
// would cut to the same label (Qwen3_5ForCausalLM and
// Qwen3_5ForConditionalGeneration both give "Qwen3_5ForC…" in 12 cells) keep
// their ends instead: the longest head and a tail of at least two cells that tell
// every name of the group apart and collide with no other label. A group no cut
// separates keeps oneLine's labels.
func uniqueCuts(names []string, width int) []string {
	out := make([]string, len(names))
	groups := map[string][]int{}
	for i, n := range names {
		out[i] = oneLine(n, width)
		groups[out[i]] = append(groups[out[i]], i)
	}
	taken := map[string]bool{}
	for _, l := range out {
		taken[l] = true
	}
	// Groups in the order of their first name, so the output never depends on
	// map order.
	for first, n := range names {
		label := oneLine(n, width)
		idx := groups[label]
		if len(idx) < 2 || idx[0] != first {
			continue
		}
		for head := width - 3; head >= 1; head-- {
			cand := make([]string, len(idx))
			seen := map[string]bool{}
			ok := true
			for j, i := range idx {
				r := []rune(strings.ReplaceAll(names[i], "\n", " "))
				tail := width - 1 - head
				if len(r) <= width || ansi.StringWidth(string(r)) != len(r) {
					// Short or wide-character names are not cut by runes.
					ok = false
					break
				}
				cand[j] = string(r[:head]) + "…" + string(r[len(r)-tail:])
				if seen[cand[j]] || (taken[cand[j]] && cand[j] != label) {
					ok = false
					break
				}
				seen[cand[j]] = true
			}
			if !ok {
				continue
			}
			for j, i := range idx {
				out[i] = cand[j]
				taken[cand[j]] = true
			}
			break
		}
	}
	return out
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

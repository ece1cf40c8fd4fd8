package cli

import (
	"bytes"
	"strings"

	"github.com/charmbracelet/x/ansi"
)

// wrapReport word-wraps check-logs' text report for a terminal w cells wide:
// there, a line longer than the window was cut by the terminal at its edge,
// mid-word ("transc" / "eiver lines"), and a root cause or a fix ran into
// the next line's column. Each line breaks at its blanks, its continuation
// indented under its text: a recognised line's under its message (column
// 16), a '→', '!' or 'cause:' line's under its words, a process's or the
// summary's by two. A word longer than a whole line (a path) is cut. On a
// pipe the report is not wrapped: one line each, for grep.
func wrapReport(text []byte, w int) []byte {
	if w < 40 {
		w = 40
	}
	var out bytes.Buffer
	out.Grow(len(text) + len(text)/8)
	for len(text) > 0 {
		line := text
		rest := []byte(nil)
		if i := bytes.IndexByte(text, '\n'); i >= 0 {
			line, rest = text[:i+1], text[i+1:]
		}
		text = rest
		s := strings.TrimSuffix(string(line), "\n")
		if len(s) <= w || ansi.StringWidth(s) <= w {
			out.Write(line)
			continue
		}
		hang := strings.Repeat(" ", hangOf(s))
		avail := w - len(hang)
		body := strings.TrimLeft(s, " ")
		lead := len(s) - len(body)
		out.WriteString(s[:lead])
		col := lead
		for i, word := range strings.Split(body, " ") {
			ww := ansi.StringWidth(word)
			switch {
			case i == 0:
			case col+1+ww <= w:
				out.WriteByte(' ')
				col++
			default:
				out.WriteByte('\n')
				out.WriteString(hang)
				col = len(hang)
			}
			if col+ww > w && ww > avail {
				// A word longer than the room left on a fresh line is cut.
				for col+ansi.StringWidth(word) > w {
					n := w - col
					if n < 1 {
						out.WriteByte('\n')
						out.WriteString(hang)
						col = len(hang)
						continue
					}
					cut := ansi.Truncate(word, n, "")
					if cut == "" {
						break
					}
					out.WriteString(cut)
					word = word[len(cut):]
					out.WriteByte('\n')
					out.WriteString(hang)
					col = len(hang)
				}
				ww = ansi.StringWidth(word)
			}
			out.WriteString(word)
			col += ww
		}
		out.WriteByte('\n')
	}
	return out.Bytes()
}

// hangOf is the indentation of a report line's continuation.
func hangOf(s string) int {
	lead := len(s) - len(strings.TrimLeft(s, " "))
	t := s[lead:]
	switch {
	case lead == 0:
		return 2
	case lead <= 6 && len(t) > 0 && t[0] >= '0' && t[0] <= '9':
		// "  %5d %-7s message": under the message.
		return 16
	case strings.HasPrefix(t, "→ "), strings.HasPrefix(t, "! "), strings.HasPrefix(t, "✗ "), strings.HasPrefix(t, "▶ "):
		return lead + 2
	case strings.HasPrefix(t, "cause: "):
		return lead + len("cause: ")
	}
	return lead + 2
}

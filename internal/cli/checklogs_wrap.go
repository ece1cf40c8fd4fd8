package cli

import (
	"bytes"
	"io"
	"os"
	"strings"

	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/term"
)

// termWidth is the width of the terminal w is, 0 when w is no terminal (a
// pipe, a file, a test's buffer): where check-logs' text is wrapped.
func termWidth(w io.Writer) int {
	f, ok := w.(*os.File)
	if !ok || !term.IsTerminal(f.Fd()) {
		return 0
	}
	cols, _, err := term.GetSize(f.Fd())
	if err != nil || cols <= 0 {
		return 0
	}
	return cols
}

// wrapLines word-wraps what is written through it as wrapReport does, a
// line at a time as each is ended: check-logs -f's text on a terminal, whose
// lines ("live.log · rank 1: ERROR · Failed to initialize executor on rank
// 1: …" and the cause after it) ran past the window's edge and were cut
// there mid-word while the batch report of the same log was wrapped. The
// width is asked for at every write, so a window resized while a log is
// followed wraps to its new width; 0 (no longer a terminal) writes lines as
// they are. Text after the last newline waits for its newline (the follow
// report writes a line in pieces: its summary), up to maxHeldLine bytes.
type wrapLines struct {
	w     io.Writer
	width func() int
	held  []byte
}

// maxHeldLine bounds the text wrapLines holds for its newline: past it the
// text is written as it is (the follow report's lines are its own, and end).
const maxHeldLine = 64 << 10

func (l *wrapLines) Write(p []byte) (int, error) {
	l.held = append(l.held, p...)
	end := bytes.LastIndexByte(l.held, '\n') + 1
	if end == 0 && len(l.held) < maxHeldLine {
		return len(p), nil
	}
	out := l.held[:end]
	if end == 0 {
		out, end = l.held, len(l.held) // unwrapped: its end is not here yet
	} else if w := l.width(); w > 0 {
		out = wrapReport(out, w)
	}
	_, err := l.w.Write(out)
	l.held = append(l.held[:0], l.held[end:]...)
	if err != nil {
		return 0, err
	}
	return len(p), nil
}

// wrapReport word-wraps check-logs' text report for a terminal w cells wide:
// there, a line longer than the window was cut by the terminal at its edge,
// mid-word ("transc" / "eiver lines"), and a root cause or a fix ran into
// the next line's column. Each line breaks at its blanks, its continuation
// indented under its text: a recognised line's under its message (column
// 16), a '→', '!' or 'cause:' line's under its words, a process's or the
// summary's by two. A word longer than a whole line (a path, a URL) is
// written whole on a line of its own: the terminal folds it at its edge,
// and a terminal's copy (tmux, iTerm, GNOME's) joins what it folded, where
// a newline of ours would break the path an operator copies to open. On a
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

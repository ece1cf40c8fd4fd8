package crash

import (
	"io"
	"os"
	"reflect"
	"strconv"
	"syscall"

	"github.com/charmbracelet/x/term"
)

// terminal is the terminal as the parent found it before starting the child.
// The explorer (in the child) puts it in raw mode and in the modes that
// explorerReset undoes; a child that dies by a signal (SIGKILL from the OOM
// killer, SIGSEGV) or a fatal runtime error restores nothing, which left the
// shell raw, in the alternate screen, with mouse reporting on. The parent
// outlives the child, so it puts the terminal back.
type terminal struct {
	fds   []uintptr     // stdin and stdout, when they are terminals
	saved []*term.State // their states before the child ran
	out   io.Writer     // stdout, when it is a terminal: where the explorer drew
}

// saveTerminal records the states of stdin and stdout that are terminals.
func saveTerminal(in, out *os.File) *terminal {
	t := &terminal{}
	for _, f := range []*os.File{in, out} {
		if f == nil || !term.IsTerminal(f.Fd()) {
			continue
		}
		st, err := term.GetState(f.Fd())
		if err != nil {
			continue
		}
		t.fds, t.saved = append(t.fds, f.Fd()), append(t.saved, st)
		if f == out {
			t.out = f
		}
	}
	return t
}

// explorerReset undoes every mode the explorer (Bubble Tea v2, as ui sets it
// up) turns on, in the order Bubble Tea's own close writes them: end a
// synchronized frame (?2026), keyboard enhancements (xterm modifyOtherKeys,
// the kitty keyboard stack), mouse tracking (?1000, ?1002, ?1003 and SGR
// ?1006), bracketed paste (?2004), focus events (?1004), Unicode core
// (?2027), the cursor's shape and visibility, colours, the window title, and
// last the alternate screen (?1049l also restores the cursor the shell had).
// The strings are x/ansi's constants, written out so the supervisor, on every
// command's start-up path, does not link the package.
const explorerReset = "\x1b[?2026l" + // ansi.ResetModeSynchronizedOutput
	"\x1b[>4m" + // ansi.ResetModifyOtherKeys
	"\x1b[<1u" + // ansi.PopKittyKeyboard(1)
	"\x1b[?1000l\x1b[?1002l\x1b[?1003l\x1b[?1006l" + // mouse: normal, button, any event, SGR
	"\x1b[?2004l" + // ansi.ResetModeBracketedPaste
	"\x1b[?1004l" + // ansi.ResetModeFocusEvent
	"\x1b[?2027l" + // ansi.ResetModeUnicodeCore
	"\x1b[0 q" + // ansi.SetCursorStyle(0)
	"\x1b[m" + // ansi.ResetStyle
	"\x1b]2;\x07" + // ansi.SetWindowTitle("")
	"\x1b[?1049l" + // ansi.ResetModeAltScreenSaveCursor
	"\x1b[?25h" // ansi.SetModeTextCursorEnable

// restoreIfChanged puts the terminal back when the child left it changed (in
// raw mode: only the explorer does that) and reports whether it did. A child
// that ended cleanly restored it itself, and nothing is written then.
func (t *terminal) restoreIfChanged() bool {
	changed := false
	for i, fd := range t.fds {
		now, err := term.GetState(fd)
		if err != nil || reflect.DeepEqual(now, t.saved[i]) {
			continue
		}
		changed = true
		_ = term.Restore(fd, t.saved[i])
	}
	if changed && t.out != nil {
		_, _ = io.WriteString(t.out, explorerReset)
	}
	return changed
}

// signalName is a signal's name as kill -l and the man pages spell it
// ("SIGKILL"); Go's Signal.String is a description ("killed").
func signalName(s syscall.Signal) string {
	switch s {
	case syscall.SIGKILL:
		return "SIGKILL"
	case syscall.SIGSEGV:
		return "SIGSEGV"
	case syscall.SIGBUS:
		return "SIGBUS"
	case syscall.SIGABRT:
		return "SIGABRT"
	case syscall.SIGILL:
		return "SIGILL"
	case syscall.SIGFPE:
		return "SIGFPE"
	case syscall.SIGTRAP:
		return "SIGTRAP"
	case syscall.SIGTERM:
		return "SIGTERM"
	case syscall.SIGHUP:
		return "SIGHUP"
	case syscall.SIGINT:
		return "SIGINT"
	case syscall.SIGQUIT:
		return "SIGQUIT"
	case syscall.SIGPIPE:
		return "SIGPIPE"
	case syscall.SIGALRM:
		return "SIGALRM"
	case syscall.SIGUSR1:
		return "SIGUSR1"
	case syscall.SIGUSR2:
		return "SIGUSR2"
	}
	return "signal " + strconv.Itoa(int(s))
}

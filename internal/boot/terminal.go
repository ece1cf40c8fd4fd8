package boot

import (
	"io"
	"os"
	"syscall"
	"unsafe"
)

// terminal is the terminal as the parent found it before starting the child.
// The explorer (in the child) puts it in raw mode and in the modes that
// ExplorerReset undoes; a child that dies by a signal (SIGKILL from the OOM
// killer, SIGSEGV) or a fatal runtime error restores nothing, which left the
// shell raw, in the alternate screen, with mouse reporting on. The parent
// outlives the child, so it puts the terminal back.
//
// The states are read and written with the termios ioctls x/term uses (the
// same requests: ioctlGet, ioctlSet), so that this package needs nothing
// outside the standard library (see the package comment).
type terminal struct {
	fds   []uintptr         // stdin and stdout, when they are terminals
	saved []syscall.Termios // their states before the child ran
	out   io.Writer         // stdout, when it is a terminal: where the explorer drew
}

// saveTerminal records the states of stdin and stdout that are terminals.
func saveTerminal(in, out *os.File) *terminal {
	t := &terminal{}
	for _, f := range []*os.File{in, out} {
		if f == nil {
			continue
		}
		st, ok := getTermios(f.Fd())
		if !ok {
			continue // not a terminal
		}
		t.fds, t.saved = append(t.fds, f.Fd()), append(t.saved, st)
		if f == out {
			t.out = f
		}
	}
	return t
}

func getTermios(fd uintptr) (syscall.Termios, bool) {
	var t syscall.Termios
	_, _, e := syscall.Syscall(syscall.SYS_IOCTL, fd, ioctlGet, uintptr(unsafe.Pointer(&t)))
	return t, e == 0
}

func setTermios(fd uintptr, t *syscall.Termios) {
	_, _, _ = syscall.Syscall(syscall.SYS_IOCTL, fd, ioctlSet, uintptr(unsafe.Pointer(t)))
}

// ExplorerReset undoes every mode the explorer (Bubble Tea v2, as ui sets it
// up) turns on, in the order Bubble Tea's own close writes them: end a
// synchronized frame (?2026), keyboard enhancements (xterm modifyOtherKeys,
// the kitty keyboard stack), mouse tracking (?1000, ?1002, ?1003 and SGR
// ?1006), bracketed paste (?2004), focus events (?1004), Unicode core
// (?2027), the cursor's shape and visibility, colours, the window title, and
// last the alternate screen (?1049l also restores the cursor the shell had).
// The strings are x/ansi's constants, written out so the supervisor, on every
// command's start-up path, does not link the package.
const ExplorerReset = "\x1b[?2026l" + // ansi.ResetModeSynchronizedOutput
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
		now, ok := getTermios(fd)
		if !ok || now == t.saved[i] {
			continue
		}
		changed = true
		setTermios(fd, &t.saved[i])
	}
	if changed && t.out != nil {
		_, _ = io.WriteString(t.out, ExplorerReset)
	}
	return changed
}

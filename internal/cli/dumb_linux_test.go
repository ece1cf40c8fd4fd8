package cli

import (
	"bytes"
	"io"
	"os"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
	"unsafe"
)

// openPTY opens a pseudo-terminal pair (Linux's /dev/ptmx), 80x24.
func openPTY(t *testing.T) (master, slave *os.File) {
	t.Helper()
	m, err := os.OpenFile("/dev/ptmx", os.O_RDWR|syscall.O_NOCTTY, 0)
	if err != nil {
		t.Skip("no /dev/ptmx:", err)
	}
	var unlock int32
	if _, _, e := syscall.Syscall(syscall.SYS_IOCTL, m.Fd(), syscall.TIOCSPTLCK, uintptr(unsafe.Pointer(&unlock))); e != 0 {
		t.Skip("unlockpt:", e)
	}
	var n uint32
	if _, _, e := syscall.Syscall(syscall.SYS_IOCTL, m.Fd(), syscall.TIOCGPTN, uintptr(unsafe.Pointer(&n))); e != 0 {
		t.Skip("ptsname:", e)
	}
	s, err := os.OpenFile("/dev/pts/"+strconv.Itoa(int(n)), os.O_RDWR|syscall.O_NOCTTY, 0)
	if err != nil {
		t.Skip("open pts:", err)
	}
	ws := struct{ row, col, x, y uint16 }{24, 80, 0, 0}
	syscall.Syscall(syscall.SYS_IOCTL, s.Fd(), syscall.TIOCSWINSZ, uintptr(unsafe.Pointer(&ws)))
	t.Cleanup(func() { m.Close(); s.Close() })
	return m, s
}

// capturePTY opens a PTY and collects what its terminal receives: write to
// s, close it, then read the screen from got.
func capturePTY(t *testing.T) (s *os.File, got <-chan string) {
	t.Helper()
	m, s := openPTY(t)
	c := make(chan string)
	go func() {
		var b bytes.Buffer
		io.Copy(&b, m) // ends with EIO once the slave is closed
		c <- b.String()
	}()
	return s, c
}

// runOnTTY runs xcvr with stdout on a terminal (a PTY) and returns what the
// terminal received.
func runOnTTY(t *testing.T, env []string, args ...string) (screen, stderr string, code int) {
	t.Helper()
	s, got := capturePTY(t)
	var errb bytes.Buffer
	done := make(chan int, 1)
	go func() { done <- Main(args, strings.NewReader(""), s, &errb, env) }()
	select {
	case code = <-done:
	case <-time.After(20 * time.Second):
		// Not a speed bound: a command that prints and exits takes
		// milliseconds; one that took over the terminal waits for keys.
		t.Fatalf("%v %v did not end: it waits for input", env, args)
	}
	s.Close()
	return <-got, errb.String(), code
}

// A terminal whose TERM is dumb (Emacs' M-x shell, a serial console) cannot
// draw the explorer or show colour: on one, xcvr printed ANSI colour in the
// explain text and opened the full-screen explorer, cursor movement and all.
func TestDumbTerminal(t *testing.T) {
	dumb := []string{"TERM=dumb"}
	// Colour: off on a dumb terminal, on a capable one (the control).
	for _, tc := range []struct {
		env  []string
		args []string
		esc  bool
	}{
		{dumb, []string{"explain", "--clean-env"}, false},
		{dumb, []string{"versions"}, false},
		{[]string{"TERM=xterm-256color"}, []string{"explain", "--clean-env"}, true},
		{dumb, []string{"explain", "--clean-env", "--color", "always"}, true},
	} {
		screen, _, _ := runOnTTY(t, tc.env, tc.args...)
		if strings.Contains(screen, "\x1b") != tc.esc {
			t.Errorf("%v %v: escape sequences %v, want %v:\n%q", tc.env, tc.args, !tc.esc, tc.esc, screen[:min(len(screen), 200)])
		}
	}
	// xcvr alone prints the explain text, as off a terminal.
	screen, _, code := runOnTTY(t, dumb, "--clean-env", "--trtllm", "1.3.0rc22")
	if code != 0 || !strings.Contains(screen, "Outcome: Python transceiver") || strings.Contains(screen, "\x1b") {
		t.Errorf("xcvr on a dumb terminal: exit %d, screen %q", code, screen[:min(len(screen), 300)])
	}
	// The tour prints its stops.
	screen, _, code = runOnTTY(t, dumb, "tour")
	if code != 0 || !strings.Contains(screen, "Tour 1/9") || strings.Contains(screen, "\x1b") {
		t.Errorf("tour on a dumb terminal: exit %d, screen %q", code, screen[:min(len(screen), 300)])
	}
	// xcvr tui says why it does not start, and what to use instead.
	screen, errOut, code := runOnTTY(t, dumb, "tui")
	if code != 2 || screen != "" || errOut != "xcvr tui: TERM=dumb: this terminal cannot draw the explorer; use --accessible for the linear mode, or 'xcvr explain' for text output\n" {
		t.Errorf("tui on a dumb terminal: exit %d, stderr %q, screen %q", code, errOut, screen)
	}
}

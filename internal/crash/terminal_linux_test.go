package crash

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
	"unsafe"

	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/term"

	"boot"
)

// The supervisor writes x/ansi's sequences out by hand (to keep the package
// off every command's start-up path): they must stay the same.
func TestExplorerResetIsAnsis(t *testing.T) {
	want := ansi.ResetModeSynchronizedOutput + ansi.ResetModifyOtherKeys + ansi.PopKittyKeyboard(1) +
		ansi.ResetModeMouseNormal + ansi.ResetModeMouseButtonEvent + ansi.ResetModeMouseAnyEvent + ansi.ResetModeMouseExtSgr +
		ansi.ResetModeBracketedPaste + ansi.ResetModeFocusEvent + ansi.ResetModeUnicodeCore + ansi.SetCursorStyle(0) +
		ansi.ResetStyle + ansi.SetWindowTitle("") + ansi.ResetModeAltScreenSaveCursor + ansi.SetModeTextCursorEnable
	if boot.ExplorerReset != want {
		t.Fatalf("ExplorerReset %q, want %q", boot.ExplorerReset, want)
	}
}

// openPTY opens a pseudo-terminal pair (Linux's /dev/ptmx).
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
	return m, s
}

// childOf returns the pid of a child of pid, or 0. /proc lists children per
// thread, and Go forks from whichever thread it is on.
func childOf(pid int) int {
	tasks, _ := filepath.Glob(fmt.Sprintf("/proc/%d/task/*/children", pid))
	for _, p := range tasks {
		b, _ := os.ReadFile(p)
		if f := strings.Fields(string(b)); len(f) > 0 {
			n, _ := strconv.Atoi(f[0])
			return n
		}
	}
	return 0
}

// After SIGKILL or SIGSEGV of the explorer (what the OOM killer and a memory
// fault do) the terminal stayed raw, in the alternate screen, mouse on, and
// the message read "killed by killed". The supervisor restores it: on a real
// pty, the line discipline is back as it was and the mode resets are written
// after the explorer's last frame.
func TestSupervisorRestoresTheTerminal(t *testing.T) {
	bin := xcvrBinary(t)
	for _, sig := range []syscall.Signal{syscall.SIGKILL, syscall.SIGSEGV} {
		master, slave := openPTY(t)
		before, err := term.GetState(slave.Fd())
		if err != nil {
			t.Fatal(err)
		}
		cmd := exec.Command(bin, "tui", "--clean-env")
		cmd.Env = append(os.Environ(), "TERM=xterm-256color", "NO_COLOR=")
		cmd.Stdin, cmd.Stdout, cmd.Stderr = slave, slave, slave
		cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true, Setctty: true}
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		var out bytes.Buffer
		read := make(chan struct{})
		go func() {
			buf := make([]byte, 64<<10)
			for {
				n, err := master.Read(buf)
				out.Write(buf[:n])
				if err != nil {
					close(read)
					return
				}
			}
		}()
		// Wait for the explorer: its child process, raw mode, a frame.
		child := 0
		for i := 0; i < 600 && (child == 0 || !rawNow(slave, before)); i++ {
			time.Sleep(50 * time.Millisecond)
			child = childOf(cmd.Process.Pid)
		}
		if child == 0 || !rawNow(slave, before) {
			cmd.Process.Kill()
			t.Fatalf("the explorer did not start (child %d, raw %v):\n%q", child, rawNow(slave, before), out.String())
		}
		time.Sleep(300 * time.Millisecond) // let it draw
		if err := syscall.Kill(child, sig); err != nil {
			t.Fatal(err)
		}
		err = cmd.Wait()
		var ee *exec.ExitError
		code := 0
		if errors.As(err, &ee) {
			code = ee.ExitCode()
		}
		after, _ := term.GetState(slave.Fd())
		slave.Close()
		<-read
		master.Close()
		got := out.String()
		if code != ExitInternal {
			t.Errorf("%v: exit %d, want 3", sig, code)
		}
		if rawNow2(after, before) {
			t.Errorf("%v: the terminal is left raw", sig)
		}
		// Fatal, not Error: the checks below slice the output after the
		// explorer's last frame and have nothing to read without one.
		if !strings.Contains(got, "\x1b[?1049h") {
			t.Fatalf("%v: the explorer never entered the alternate screen:\n%q", sig, got)
		}
		i := strings.LastIndex(got, "\x1b[?1049h")
		tail := got[i:]
		for _, seq := range []string{"\x1b[?1049l", "\x1b[?1002l", "\x1b[?1003l", "\x1b[?1006l", "\x1b[?25h", "\x1b[?2004l"} {
			if !strings.Contains(tail, seq) {
				t.Errorf("%v: %q not written after the explorer's last frame", sig, seq)
			}
		}
		// The Go runtime catches SIGSEGV and writes a report, which the
		// alternate screen hid: it is printed again after the reset.
		want := map[syscall.Signal]string{syscall.SIGKILL: "xcvr: the explorer was killed (SIGKILL); the terminal is restored",
			syscall.SIGSEGV: "xcvr: the explorer was killed (SIGSEGV: segmentation violation); the terminal is restored"}[sig]
		if j := strings.Index(tail, "\x1b[?1049l"); sig == syscall.SIGSEGV && (j < 0 || !strings.Contains(tail[j:], "goroutine ")) {
			t.Errorf("%v: the crash report is not shown again after leaving the alternate screen", sig)
		}
		if !strings.Contains(tail, want) {
			t.Errorf("%v: message missing:\n%q", sig, tail)
		}
		if strings.Contains(got, "killed by killed") {
			t.Errorf("%v: the old message", sig)
		}
	}
}

func rawNow(f *os.File, before *term.State) bool {
	now, err := term.GetState(f.Fd())
	return err == nil && rawNow2(now, before)
}

// rawNow2 reports whether the state differs from the one before (raw mode).
func rawNow2(now, before *term.State) bool {
	return now != nil && fmt.Sprint(*now) != fmt.Sprint(*before)
}

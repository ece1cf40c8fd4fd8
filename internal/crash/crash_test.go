package crash

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"strings"
	"syscall"
	"testing"

	"boot"
)

// TestInternalFailuresExit3 builds xcvr and checks, end to end through the
// supervisor, that a recovered panic, a panic in another goroutine and a runtime
// fatal error (stack overflow) all exit 3 with "internal error", while a usage
// error still exits 2 and a normal run 0.
func TestInternalFailuresExit3(t *testing.T) {
	bin := xcvrBinary(t)
	for _, c := range []struct {
		crash string
		args  []string
		code  int
		want  string
	}{
		{"", []string{"explain", "--clean-env"}, 0, ""},
		{"", []string{"explain", "--bogus"}, 2, "unknown flag"},
		{"panic", []string{"explain", "--clean-env"}, 3, "xcvr: internal error: crash test"},
		{"goroutine", []string{"explain", "--clean-env"}, 3, "xcvr: internal error (panic: crash test in a goroutine)"},
		{"fatal", []string{"explain", "--clean-env"}, 3, "xcvr: internal error (a fatal runtime error, reported above)"},
	} {
		cmd := exec.Command(bin, c.args...)
		cmd.Env = append(os.Environ(), "XCVR_CRASH_TEST="+c.crash)
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		err := cmd.Run()
		code := 0
		var ee *exec.ExitError
		if errors.As(err, &ee) {
			code = ee.ExitCode()
		}
		if code != c.code || !strings.Contains(stderr.String(), c.want) {
			t.Errorf("%s %v: exit %d, want %d; stderr:\n%.600s", c.crash, c.args, code, c.code, stderr.String())
		}
	}
}

func TestClassifySignals(t *testing.T) {
	kill := func(sig syscall.Signal) error {
		cmd := exec.Command("sleep", "10")
		if err := cmd.Start(); err != nil {
			t.Skip(err)
		}
		_ = cmd.Process.Signal(sig)
		return cmd.Wait()
	}
	var buf bytes.Buffer
	// Go's Signal.String is a description: the message once read "killed by killed".
	if code := Classify(kill(syscall.SIGKILL), nil, nil, false, &buf); code != ExitInternal || buf.String() != "xcvr: internal error: killed by SIGKILL (the kernel's out-of-memory killer sends SIGKILL: see dmesg)\n" {
		t.Errorf("SIGKILL nobody sent: %d %q", code, buf.String())
	}
	buf.Reset()
	if code := Classify(kill(syscall.SIGKILL), nil, nil, true, &buf); code != ExitInternal || !strings.HasPrefix(buf.String(), "xcvr: the explorer was killed (SIGKILL); the terminal is restored (the kernel's") {
		t.Errorf("SIGKILL of the explorer: %d %q", code, buf.String())
	}
	buf.Reset()
	if code := Classify(kill(syscall.SIGSEGV), nil, nil, true, &buf); code != ExitInternal || buf.String() != "xcvr: the explorer was killed (SIGSEGV); the terminal is restored; this is a bug in xcvr, not in your input: please report it with the command line\n" {
		t.Errorf("SIGSEGV of the explorer: %d %q", code, buf.String())
	}
	buf.Reset()
	if code := Classify(kill(syscall.SIGTERM), nil, syscall.SIGTERM, true, &buf); code != 128+int(syscall.SIGTERM) || buf.Len() != 0 {
		t.Errorf("SIGTERM the user sent: %d %q", code, buf.String())
	}
	if code := Classify(nil, []byte("fatal error: runtime: out of memory\n\x1b]0;x\x07"), nil, false, &buf); code != ExitInternal || !strings.Contains(buf.String(), "(fatal error: runtime: out of memory)") {
		t.Errorf("crash report: %d %q", code, buf.String())
	}
}

// TestChildWaitsForItsSupervisor: the supervisor catches the job signals while
// the child starts, and says so with a byte on the ready pipe (boot.ReadyFD).
// A child whose pipe ends without the byte (the supervisor was killed in that
// window) runs nothing and exits boot.ExitOrphaned; with the byte, or started
// by hand with no ready pipe, it runs.
func TestChildWaitsForItsSupervisor(t *testing.T) {
	bin := xcvrBinary(t)
	for _, c := range []struct {
		name  string
		ready string // "" no ready pipe, "byte", "closed"
		code  int
		runs  bool
	}{
		{"the supervisor is ready", "byte", 0, true},
		{"the supervisor is gone", "closed", boot.ExitOrphaned, false},
		{"started by hand", "", 0, true},
	} {
		crashR, crashW, err := os.Pipe()
		if err != nil {
			t.Fatal(err)
		}
		cmd := exec.Command(bin, "explain", "--clean-env")
		cmd.Env = append(os.Environ(), boot.EnvChild+"=1")
		cmd.ExtraFiles = []*os.File{crashW}
		var readyW *os.File
		if c.ready != "" {
			var readyR *os.File
			readyR, readyW, err = os.Pipe()
			if err != nil {
				t.Fatal(err)
			}
			cmd.ExtraFiles = append(cmd.ExtraFiles, readyR)
			defer readyR.Close()
		}
		var stdout bytes.Buffer
		cmd.Stdout = &stdout
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		crashW.Close()
		switch c.ready {
		case "byte":
			readyW.Write([]byte{1})
			readyW.Close()
		case "closed":
			readyW.Close()
		}
		err = cmd.Wait()
		crashR.Close()
		code := 0
		var ee *exec.ExitError
		if errors.As(err, &ee) {
			code = ee.ExitCode()
		} else if err != nil {
			t.Fatal(err)
		}
		if code != c.code || (stdout.Len() > 0) != c.runs {
			t.Errorf("%s: exit %d, want %d; ran: %v, want %v", c.name, code, c.code, stdout.Len() > 0, c.runs)
		}
	}
}

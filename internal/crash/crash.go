// Package crash makes every internal failure of xcvr exit 3 with "internal error"
// on stderr. Exit 2 means "usage error" to scripts, but the Go runtime exits 2 on
// its own fatal errors (out of memory, stack overflow, concurrent map writes) and
// on an unhandled panic in any goroutine, and no recover() can catch those. So
// xcvr runs as two processes: Supervise re-executes the binary as a child that
// does the work, with the terminal (stdin, stdout, stderr) passed through
// untouched, and with debug.SetCrashOutput copying any fatal report to a pipe the
// parent reads. A child that wrote a crash report, or was killed by a signal it
// did not ask for (the kernel's OOM killer sends SIGKILL), makes the parent exit 3.
//
// It also sets a soft memory limit in the child (unless GOMEMLIMIT is set), so
// that the garbage collector works harder long before the machine runs out, and
// xcvr's input guards, not the kernel, are what stops hostile input.
package crash

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"os/signal"
	"runtime/debug"
	"strings"
	"syscall"

	"xcvr/internal/termsafe"
)

// ExitInternal is xcvr's exit code for an internal failure.
const ExitInternal = 3

// SoftMemoryLimit is the child's debug.SetMemoryLimit: xcvr's budget for any
// input under 16 MiB is 256 MiB.
const SoftMemoryLimit = 256 << 20

// envChild marks the child process; envOff disables supervision (for debugging
// with a debugger or when a second process is not wanted).
const (
	envChild = "XCVR_SUPERVISED"
	envOff   = "XCVR_NO_SUPERVISOR"
)

// crashFD is the child's descriptor of the crash pipe (ExtraFiles[0]).
const crashFD = 3

// Supervise runs the program as a supervised child and returns the exit code the
// parent must exit with, and true. In the child (or when supervision is off or
// impossible) it prepares the process — crash output, memory limit — and returns
// false: the caller then runs xcvr itself.
func Supervise() (int, bool) {
	if os.Getenv(envChild) == "1" {
		if f := os.NewFile(crashFD, "crash"); f != nil {
			_ = debug.SetCrashOutput(f, debug.CrashOptions{})
			f.Close() // SetCrashOutput keeps its own duplicate
		}
		limitMemory()
		return 0, false
	}
	if os.Getenv(envOff) != "" {
		limitMemory()
		return 0, false
	}
	self, err := os.Executable()
	if err != nil {
		limitMemory()
		return 0, false
	}
	code, err := run(self, os.Args[1:], os.Stderr)
	if err != nil {
		// Could not start a child at all: run in-process, unsupervised.
		limitMemory()
		return 0, false
	}
	return code, true
}

func limitMemory() {
	if os.Getenv("GOMEMLIMIT") == "" {
		debug.SetMemoryLimit(SoftMemoryLimit)
	}
}

// run executes self as the supervised child and maps its end to an exit code.
func run(self string, args []string, stderr io.Writer) (int, error) {
	pr, pw, err := os.Pipe()
	if err != nil {
		return 0, err
	}
	cmd := exec.Command(self, args...)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = os.Stdin, os.Stdout, os.Stderr
	cmd.Env = append(os.Environ(), envChild+"=1")
	cmd.ExtraFiles = []*os.File{pw}
	// Signals for the whole job (ctrl+c, a hang-up, kill from a supervisor) are
	// passed on; the terminal already sends ctrl+c to both, so the child may see
	// it twice, which it handles like once.
	sigs := make(chan os.Signal, 4)
	signal.Notify(sigs, syscall.SIGINT, syscall.SIGTERM, syscall.SIGHUP, syscall.SIGQUIT)
	defer signal.Stop(sigs)
	tty := saveTerminal(os.Stdin, os.Stdout)
	if err := cmd.Start(); err != nil {
		pr.Close()
		pw.Close()
		return 0, err
	}
	pw.Close()
	report := make(chan []byte, 1)
	go func() {
		// The report is on stderr already; keep a bounded copy to classify.
		b, _ := io.ReadAll(io.LimitReader(pr, 64<<10))
		_, _ = io.Copy(io.Discard, pr)
		report <- b
	}()
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	var werr error
	var sent os.Signal
wait:
	for {
		select {
		case s := <-sigs:
			sent = s
			_ = cmd.Process.Signal(s)
		case werr = <-done:
			break wait
		}
	}
	// The child is gone and its exit status is the answer: a late Ctrl-C
	// (the user pressing it twice) must not kill the supervisor on its way
	// out, after the deferred Stop, and turn that status into 130.
	signal.Ignore(syscall.SIGINT, syscall.SIGTERM, syscall.SIGHUP, syscall.SIGQUIT)
	crash := <-report
	pr.Close()
	restored := tty.restoreIfChanged()
	return Classify(werr, crash, sent, restored, stderr), nil
}

// Classify turns the child's end into xcvr's exit code: its own code when it
// exited normally without a crash report; 3 with "internal error" on stderr after
// a crash report or a signal nobody sent; 128+signal for a signal the user sent.
// restored says the child was the explorer and left the terminal raw, and the
// parent has put it back: the message says so.
func Classify(werr error, crash []byte, sent os.Signal, restored bool, stderr io.Writer) int {
	if len(bytes.TrimSpace(crash)) > 0 {
		first := summary(crash)
		if restored {
			// The report went to the alternate screen, which leaving it
			// erased: print the copy again (escaped: a panic value can
			// quote input).
			fmt.Fprint(stderr, strings.ReplaceAll(termsafe.Text(string(crash)), "\n", "\r\n"))
			what := "an internal error in the explorer"
			if bytes.HasPrefix(first, []byte("SIG")) {
				what = "the explorer was killed"
			}
			fmt.Fprintf(stderr, "xcvr: %s (%s); the terminal is restored. This is a bug in xcvr, not in your input: please report it with the command line and the report above\n", what, safe(first))
			return ExitInternal
		}
		fmt.Fprintf(stderr, "xcvr: internal error (%s); this is a bug in xcvr, not in your input: please report it with the command line and the output above\n", safe(first))
		return ExitInternal
	}
	if werr == nil {
		return 0
	}
	var ee *exec.ExitError
	if !errors.As(werr, &ee) {
		fmt.Fprintf(stderr, "xcvr: internal error: %v\n", werr)
		return ExitInternal
	}
	ws, ok := ee.Sys().(syscall.WaitStatus)
	if ok && ws.Signaled() {
		sig := ws.Signal()
		if sent != nil && sent.(syscall.Signal) == sig || sig == syscall.SIGINT || sig == syscall.SIGPIPE {
			return 128 + int(sig)
		}
		name := signalName(sig)
		if restored {
			fmt.Fprintf(stderr, "xcvr: the explorer was killed (%s); the terminal is restored", name)
		} else {
			fmt.Fprintf(stderr, "xcvr: internal error: killed by %s", name)
		}
		switch sig {
		case syscall.SIGKILL:
			fmt.Fprint(stderr, " (the kernel's out-of-memory killer sends SIGKILL: see dmesg)")
		case syscall.SIGSEGV, syscall.SIGBUS, syscall.SIGABRT, syscall.SIGILL, syscall.SIGFPE:
			fmt.Fprint(stderr, "; this is a bug in xcvr, not in your input: please report it with the command line")
		}
		fmt.Fprintln(stderr)
		return ExitInternal
	}
	return ee.ExitCode()
}

// summary is the line of a crash report that says what happened ("fatal error:
// stack overflow", "panic: ..."), or its first line.
func summary(crash []byte) []byte {
	lines := bytes.Split(bytes.TrimSpace(crash), []byte("\n"))
	for _, l := range lines {
		if bytes.HasPrefix(l, []byte("fatal error:")) || bytes.HasPrefix(l, []byte("panic:")) {
			return l
		}
		// A signal the runtime caught: "SIGSEGV: segmentation violation".
		if bytes.HasPrefix(l, []byte("SIG")) && bytes.Contains(l, []byte(": ")) {
			return l
		}
	}
	// A runtime throw prints its "fatal error: ..." line to stderr only; the
	// crash output starts at "runtime stack:".
	return []byte("a fatal runtime error, reported above")
}

// safe keeps the crash summary to printable ASCII (it can quote input).
func safe(b []byte) string {
	if len(b) > 200 {
		b = b[:200]
	}
	out := make([]byte, 0, len(b))
	for _, c := range b {
		if c >= 0x20 && c < 0x7f {
			out = append(out, c)
		} else {
			out = append(out, '?')
		}
	}
	return string(out)
}

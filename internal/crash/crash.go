// Package crash makes every internal failure of xcvr exit 3 with "internal error"
// on stderr. Exit 2 means "usage error" to scripts, but the Go runtime exits 2 on
// its own fatal errors (out of memory, stack overflow, concurrent map writes) and
// on an unhandled panic in any goroutine, and no recover() can catch those. So
// xcvr runs as two processes: package boot re-executes the binary as a child that
// does the work, with the terminal (stdin, stdout, stderr) passed through
// untouched, and with debug.SetCrashOutput copying any fatal report to a pipe the
// parent reads; it does so from its package initialisation, before the rest of
// the program is initialised, and Supervise reports what it saw. A child that wrote a crash report, or was killed by a signal it
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
	"runtime/debug"
	"strconv"
	"strings"
	"syscall"

	"boot"

	"xcvr/internal/termsafe"
)

// ExitInternal is xcvr's exit code for an internal failure.
const ExitInternal = 3

// SoftMemoryLimit is the child's debug.SetMemoryLimit: xcvr's budget for any
// input under 16 MiB is 256 MiB.
const SoftMemoryLimit = 256 << 20

// Supervise returns the exit code the parent must exit with, and true, when
// this process is the supervisor of a child that crashed, was killed or left
// the terminal to restore (package boot started and waited for it before the
// program was initialised; a child that simply exited has already been
// answered with its own status). Otherwise, in the child or when supervision
// is off or impossible, it prepares the process (crash output, memory limit)
// and returns false: the caller then runs xcvr itself.
func Supervise() (int, bool) {
	if e := boot.Ended(); e != nil {
		if e.Err != nil || len(bytes.TrimSpace(e.Crash)) > 0 {
			return Classify(e.Err, e.Crash, e.Sent, e.Restored, os.Stderr), true
		}
		return classifyStatus(e.Status, e.Sent, e.Restored, os.Stderr), true
	}
	if os.Getenv(boot.EnvChild) == "1" {
		if f := os.NewFile(boot.CrashFD, "crash"); f != nil {
			_ = debug.SetCrashOutput(f, debug.CrashOptions{})
			f.Close() // SetCrashOutput keeps its own duplicate
		}
	}
	if os.Getenv("GOMEMLIMIT") == "" {
		debug.SetMemoryLimit(SoftMemoryLimit)
	}
	return 0, false
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
	if !ok {
		return ee.ExitCode()
	}
	return classifyStatus(ws, sent, restored, stderr)
}

// classifyStatus is Classify for a child that wrote no crash report, from its
// wait status.
func classifyStatus(ws syscall.WaitStatus, sent os.Signal, restored bool, stderr io.Writer) int {
	if ws.Signaled() {
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
	return ws.ExitStatus()
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

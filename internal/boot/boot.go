// Package boot is the first half of xcvr's supervisor (internal/crash is the
// other): it starts the supervised child before the rest of the program is
// initialised, so that the parent process, which only waits, pays for none of
// that.
//
// xcvr runs as two processes (see internal/crash for why: the Go runtime exits
// 2 on its own fatal errors, and only a parent can turn that, or the kernel's
// SIGKILL, into exit 3 and put the terminal back). Both are the same binary,
// and Go initialises every linked package before main: cobra, lipgloss, the
// SSH server's crypto, go-yaml, xcvr's own. In the parent that was about half
// of its cost and bought it nothing.
//
// Go initialises packages in the order of their import paths, subject to
// their imports (the language spec, "Package initialization": "the first
// uninitialized package in the list for which all imports are already
// initialized is initialized"). The paths "boot" and "boot/start" sort before
// "charm.land", "crypto", "github.com", "golang.org" and "xcvr", and the two
// packages import only os, os/signal, runtime and syscall, so boot/start's init runs as
// soon as those are initialised: after the standard library's lowest layers
// and none of the rest (TestSupervisorInitialisesFirst in internal/crash keeps
// the list). That is why they are a module of their own (go.mod replaces
// "boot" with this directory): a package of module xcvr has a path starting
// "xcvr/" and would be initialised after its dependencies' packages. For the
// same reason their imports stay few: the last of them to be initialised
// decides when they are (runtime/debug, which the child's set-up needs, is
// left to crash.Supervise; the terminal is read with two ioctls rather than
// through x/term).
//
// Start, called from boot/start's init (xcvr's main imports that package for
// that effect alone), in the process a user started: save the terminal's
// state, start the binary again as the child with the same arguments and
// descriptors, pass on job signals, wait, and read the child's crash report.
// When the child exited by itself with no report and left the terminal as it
// found it (every run that does not crash), the parent exits with the child's
// status right there. Anything else (a crash report, a signal, a terminal to
// restore) is rare and needs xcvr's escaping and messages: Start returns, the
// program initialises as usual, and crash.Supervise reports Ended.
package boot

import (
	"os"
	"os/signal"
	"runtime"
	"syscall"
)

// EnvChild marks the child process; EnvOff disables supervision (for debugging
// with a debugger or when a second process is not wanted).
const (
	EnvChild = "XCVR_SUPERVISED"
	EnvOff   = "XCVR_NO_SUPERVISOR"
)

// CrashFD is the child's descriptor of the crash pipe (the fourth file).
const CrashFD = 3

// ReadyFD is the child's descriptor of the ready pipe (the fifth file): the
// supervisor writes one byte to it once it catches the job signals, and the
// child waits for that byte before it does anything (see supervise).
const ReadyFD = 4

// ExitOrphaned is the child's exit status when its supervisor is gone before
// it was ready (the ready pipe ends without its byte): the child runs nothing.
const ExitOrphaned = 3

// End is how the supervised child ended, when the parent needs the rest of
// the program to report it.
type End struct {
	// Status is the child's wait status (when Err is nil).
	Status syscall.WaitStatus
	// Crash is the start of the child's crash report (what the runtime wrote
	// to the crash pipe), empty when there was none.
	Crash []byte
	// Sent is the last job signal the parent passed on, or nil.
	Sent os.Signal
	// Restored says the child left the terminal changed (raw: only the
	// explorer does that) and the parent has put it back.
	Restored bool
	// Err is why waiting for the child failed.
	Err error
}

var ended *End

// Ended returns the child's end when Start supervised a child that did not
// simply exit (the parent must report it and exit), or nil: this process is
// the child, is unsupervised, or could not start a child, and runs xcvr itself.
func Ended() *End { return ended }

// Start is the supervisor: in the process a user started, it runs the child,
// waits for it and exits with its status, or records its End and returns. In
// the child it waits until the supervisor is ready (awaitSupervisor) and
// returns. Unsupervised (EnvOff), for a trivial command line (see Trivial)
// or when no child can be started, it returns at once. Package boot/start
// calls it from its init; only xcvr's main imports that package, so that a
// test binary that links this one is not supervised.
func Start() {
	if os.Getenv(EnvChild) == "1" {
		awaitSupervisor()
		return
	}
	if os.Getenv(EnvOff) != "" || Trivial(os.Args[1:]) {
		return
	}
	self, err := os.Executable()
	if err != nil {
		return
	}
	e, err := supervise(self, os.Args[1:])
	if err != nil {
		// Could not start a child at all: run in-process, unsupervised.
		return
	}
	if e.Err == nil && len(e.Crash) == 0 && !e.Restored && e.Status.Exited() {
		os.Exit(e.Status.ExitStatus())
	}
	ended = e
}

// supervise runs self as the supervised child and waits for it. It is
// written with the syscall package's fork, exec and wait rather than
// os.StartProcess and a goroutine per pipe and wait, which cost the parent
// about 0.4 ms more per run (measured side by side).
func supervise(self string, args []string) (*End, error) {
	// The crash pipe: the child's runtime writes its report to fd 3 as well
	// as to stderr. Both ends are non-blocking: a report longer than the
	// pipe holds is cut there rather than stopping the child, and the parent
	// reads what is there once the child is gone, without waiting for a
	// grandchild that may have inherited the descriptor.
	var p [2]int
	if err := syscall.Pipe(p[:]); err != nil {
		return nil, err
	}
	for _, fd := range p {
		syscall.CloseOnExec(fd)
		if err := syscall.SetNonblock(fd, true); err != nil {
			syscall.Close(p[0])
			syscall.Close(p[1])
			return nil, err
		}
	}
	// The ready pipe: the child reads its end (ReadyFD) before it does
	// anything, and the supervisor writes one byte once the job signals are
	// caught. Catching them costs the supervisor about 0.2 ms (os/signal
	// starts a goroutine, a thread locked to keep the signal mask and the
	// runtime's template thread, and enables each signal by a round trip to
	// it), so it is done while the child's runtime starts instead of before
	// the fork (measured side by side: about 0.15-0.2 ms less per run on 2
	// busy cores). A job signal in that window kills the supervisor, as it did
	// before the fork; the child then reads the end of the pipe without the
	// byte and exits ExitOrphaned having run nothing, rather than run on
	// unsupervised, unless the parent-death signal (see childAttr) ends it
	// first.
	var r [2]int
	if err := syscall.Pipe(r[:]); err != nil {
		syscall.Close(p[0])
		syscall.Close(p[1])
		return nil, err
	}
	syscall.CloseOnExec(r[0])
	syscall.CloseOnExec(r[1])
	// Signals for the whole job (ctrl+c, a hang-up, kill from a supervisor) are
	// passed on; the terminal already sends ctrl+c to both, so the child may see
	// it twice, which it handles like once. The child's end is waited for as a
	// SIGCHLD on a channel of its own (a storm of the job signals cannot crowd
	// it out; one pending SIGCHLD stands for any number, as each is followed
	// by a wait4 that does not block). A wait4 that blocks leaves the main
	// goroutine's P in a system call, and the runtime's monitor thread then
	// wakes every 20 µs, and later less often, for as long as the child runs:
	// parent CPU time taken from the child on a busy machine. Neither is ever
	// stopped: the parent keeps these signals caught until it exits (see
	// below).
	sigs := make(chan os.Signal, 4)
	chld := make(chan os.Signal, 1)
	caught := make(chan struct{})
	go func() {
		signal.Notify(sigs, syscall.SIGINT, syscall.SIGTERM, syscall.SIGHUP, syscall.SIGQUIT)
		signal.Notify(chld, syscall.SIGCHLD)
		close(caught)
	}()
	tty := saveTerminal(os.Stdin, os.Stdout)
	// The parent-death signal (childAttr) fires when the thread that forked
	// ends, not the process: keep this goroutine on its thread, which then
	// lives as long as the supervisor does.
	runtime.LockOSThread()
	pid, err := syscall.ForkExec(self, append([]string{self}, args...), &syscall.ProcAttr{
		Env:   childEnv(os.Environ()),
		Files: []uintptr{0, 1, 2, uintptr(p[1]), uintptr(r[0])},
		Sys:   childAttr(),
	})
	syscall.Close(p[1])
	syscall.Close(r[0])
	<-caught
	if err != nil {
		syscall.Close(r[1])
		syscall.Close(p[0])
		return nil, err
	}
	// A child that has died already (a signal from the terminal before it
	// read the byte) makes the write fail with EPIPE, which is harmless: the
	// wait4 below, before the first SIGCHLD, finds it.
	_, _ = syscall.Write(r[1], []byte{1})
	syscall.Close(r[1])
	// Until the child is reaped, every job signal goes on to it; once it is
	// reaped, its pid may be reused, and it is signalled no more. The signals
	// stay caught (Notify is never stopped): a late Ctrl-C (the user pressing
	// it twice) must not kill the supervisor on its way out and turn the
	// child's status into 130. Not signal.Ignore: it clears the runtime's
	// "wanted" bit after installing SIG_IGN, and a signal whose handler is
	// already running on another thread then takes the default action and
	// kills the process.
	e := &End{}
	var status syscall.WaitStatus
	for first := true; ; first = false {
		// The first wait4 comes before any SIGCHLD: the child may have ended
		// before SIGCHLD was caught. Later ones follow a SIGCHLD: the child
		// ended, or stopped or went on (job control), which wait4 without
		// WUNTRACED does not report.
		if !first {
			select {
			case s := <-sigs:
				e.Sent = s
				_ = syscall.Kill(pid, s.(syscall.Signal))
				continue
			case <-chld:
			}
		}
		var wpid int
		for {
			wpid, err = syscall.Wait4(pid, &status, syscall.WNOHANG, nil)
			if err != syscall.EINTR {
				break
			}
		}
		if err != nil || wpid == pid {
			break
		}
	}
	e.Status, e.Err = status, err
	e.Crash = readReport(p[0])
	syscall.Close(p[0])
	e.Restored = tty.restoreIfChanged()
	return e, nil
}

// awaitSupervisor, in the child, waits for the supervisor's byte on the ready
// pipe (see supervise). The end of the pipe without it means the supervisor
// died before it was ready: the child exits ExitOrphaned. A child started by
// hand with EnvChild set and no fifth file goes on.
func awaitSupervisor() {
	var b [1]byte
	for {
		n, err := syscall.Read(ReadyFD, b[:])
		if err == syscall.EINTR {
			continue
		}
		if err == nil && n == 0 {
			os.Exit(ExitOrphaned)
		}
		if err == nil {
			syscall.Close(ReadyFD)
		}
		return
	}
}

// readReport reads what the crash pipe holds, at most 64 KiB.
func readReport(fd int) []byte {
	var out []byte
	buf := make([]byte, 16<<10)
	for len(out) < 64<<10 {
		n, err := syscall.Read(fd, buf)
		if n <= 0 || err != nil {
			break
		}
		out = append(out, buf[:n]...)
	}
	return out
}

// childEnv is the parent's environment with the child's mark. A mark the user
// had set is dropped first: a process reads the first of two equal names, and
// a child that did not know it was one would start a child of its own.
func childEnv(env []string) []string {
	out := make([]string, 0, len(env)+1)
	for _, kv := range env {
		if len(kv) > len(EnvChild) && kv[:len(EnvChild)+1] == EnvChild+"=" {
			continue
		}
		out = append(out, kv)
	}
	return append(out, EnvChild+"=1")
}

// Package cli is xcvr's command line: the explorer, explain, models and versions.
package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"runtime/debug"
	"strconv"
	"strings"

	"github.com/charmbracelet/colorprofile"
	"github.com/charmbracelet/x/term"
	"github.com/spf13/cobra"

	"xcvr/internal/report"
	"xcvr/internal/termsafe"
)

// Exit codes.
const (
	exitOK      = 0
	exitRefused = 1 // TensorRT-LLM would refuse the configuration
	exitUsage   = 2 // xcvr's own usage errors and unreadable input
)

// exitError carries an exit code through cobra; its message (if any) goes to stderr.
type exitError struct {
	code int
	err  error
}

func (e *exitError) Error() string {
	if e.err == nil {
		return ""
	}
	return e.err.Error()
}

func (e *exitError) Unwrap() error { return e.err }

// usageErr marks err as a usage error (exit 2).
func usageErr(err error) error { return &exitError{code: exitUsage, err: err} }

// needArgs is the Args of a command that reads what its arguments name: with
// none, the error says what to give (cobra's says "requires at least 1
// arg(s), only received 0"); with more than max (0: any number), how many it
// takes.
func needArgs(max int, what string) cobra.PositionalArgs {
	return func(cmd *cobra.Command, args []string) error {
		switch {
		case len(args) == 0:
			return fmt.Errorf("%s needs %s", cmd.Name(), what)
		case max > 0 && len(args) > max:
			return fmt.Errorf("%s takes %s; got %d arguments", cmd.Name(), what, len(args))
		}
		return nil
	}
}

// refused is the silent exit 1 of an ERROR outcome whose report is already printed.
func refused() error { return &exitError{code: exitRefused} }

// appEnv is what the commands may touch: the standard streams and the environment.
// Tests substitute all of it.
type appEnv struct {
	stdin   io.Reader
	stdout  io.Writer
	stderr  io.Writer
	environ []string
	ctx     context.Context
	// noted holds the version placements already said on stderr.
	noted map[string]bool
	// widthFlag is --width N of the commands that print tables (0: not given).
	widthFlag int
	// served is set for an xcvr serve session: advice names what a session
	// can do (no --install, ssh command lines).
	served bool
	// notes are the near-miss notes said on stderr (noteNearMisses); the
	// explorer shows them too, since its screen hides stderr.
	notes []string
}

func (a *appEnv) getenv(key string) string {
	for _, kv := range a.environ {
		if k, v, ok := strings.Cut(kv, "="); ok && k == key {
			return v
		}
	}
	return ""
}

// isTerminal reports whether w is a terminal.
func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	return ok && term.IsTerminal(f.Fd())
}

// stdoutIsTTY reports whether standard output is a terminal.
func (a *appEnv) stdoutIsTTY() bool { return isTerminal(a.stdout) }

// stdinIsTTY reports whether standard input is a terminal.
func (a *appEnv) stdinIsTTY() bool {
	f, ok := a.stdin.(*os.File)
	return ok && term.IsTerminal(f.Fd())
}

// hintStdin says, when standard input is a terminal (never on a pipe), that
// xcvr now reads what from it and how to end it: without it, "check-logs -"
// typed with nothing piped in waits in silence, as if hung. The wording is
// the one other Unix tools use (Ctrl-D ends the input).
func (a *appEnv) hintStdin(what string) {
	if a.stdinIsTTY() {
		fmt.Fprintf(a.stderr, "xcvr: reading %s from standard input (Ctrl-D on a new line ends it)\n", what)
	}
}

// dumbTerminal reports whether TERM says the terminal is dumb (Emacs' M-x
// shell, a serial console): it shows text but draws no full screen and no
// colour, whatever the TTY says. ncurses, git and grep --color=auto read it so.
func (a *appEnv) dumbTerminal() bool { return a.getenv("TERM") == "dumb" }

// canDraw reports whether standard output is a terminal that can draw the
// explorer: a TTY whose TERM is not dumb.
func (a *appEnv) canDraw() bool { return a.stdoutIsTTY() && !a.dumbTerminal() }

// width is the terminal's width (clamped to 60..120) or 80 off a terminal.
func (a *appEnv) width() int {
	if a.widthFlag > 0 {
		return clampWidth(a.widthFlag)
	}
	f, ok := a.stdout.(*os.File)
	if !ok || !term.IsTerminal(f.Fd()) {
		// A pipe has no width of its own: COLUMNS (what the shell or the
		// caller says the reader's window is), else 80.
		if n, err := strconv.Atoi(strings.TrimSpace(a.getenv("COLUMNS"))); err == nil && n > 0 {
			return clampWidth(n)
		}
		return 80
	}
	w, _, err := term.GetSize(f.Fd())
	if err != nil || w <= 0 {
		return 80
	}
	return min(max(w, 60), 120)
}

// clampWidth keeps a requested width where text still reads: at least 40
// cells, at most 1000 (a table wider than that is not read on a screen).
func clampWidth(n int) int { return min(max(n, 40), 1000) }

// addWidthFlag gives a table-printing command --width N.
func addWidthFlag(cmd *cobra.Command, app *appEnv) {
	cmd.Flags().IntVar(&app.widthFlag, "width", 0, "text width in cells (default: the terminal's; on a pipe $COLUMNS, else 80)")
}

// colorOn decides colour: --color always/never win; auto means a terminal and no
// NO_COLOR (any non-empty value).
func (a *appEnv) colorOn(mode string) bool {
	switch mode {
	case "always":
		return true
	case "never":
		return false
	}
	return a.getenv("NO_COLOR") == "" && a.canDraw()
}

// out returns a writer that downsamples colours to what the terminal supports.
func (a *appEnv) out(color bool) io.Writer {
	if !color {
		return a.stdout
	}
	w := colorprofile.NewWriter(a.stdout, a.environ)
	if w.Profile < colorprofile.ANSI {
		w.Profile = colorprofile.ANSI
	}
	return w
}

func (a *appEnv) styles(color bool) report.Styles {
	if color {
		return report.ColorStyles()
	}
	return report.PlainStyles()
}

// crashTestEnv names a test hook: "panic" panics in Main, "goroutine" panics in
// another goroutine and "fatal" overflows the stack (both fatal to the runtime),
// so the tests can check that every internal failure exits 3.
const crashTestEnv = "XCVR_CRASH_TEST"

func crashTest(mode string) {
	switch mode {
	case "panic":
		panic("crash test")
	case "goroutine":
		done := make(chan struct{})
		go func() {
			defer close(done)
			panic("crash test in a goroutine")
		}()
		<-done
	case "fatal":
		debug.SetMaxStack(1 << 20)
		var recurse func(int) int
		recurse = func(n int) int { return recurse(n+1) + 1 }
		recurse(0)
	}
}

// Main runs xcvr with args and returns the exit code.
//
// A panic on the way is an internal error: it exits 3 (never 2, which scripts read
// as a usage error) with "internal error" and the stack on stderr. Fatal runtime
// errors cannot be recovered in-process; internal/crash maps those to 3 as well.
func Main(args []string, stdin io.Reader, stdout, stderr io.Writer, environ []string) (code int) {
	defer func() {
		if r := recover(); r != nil {
			fmt.Fprintf(stderr, "xcvr: internal error: %s; this is a bug in xcvr, not in your input: please report it with the command line and this output\n%s",
				termsafe.Text(fmt.Sprint(r)), debug.Stack())
			code = exitCrash
		}
	}()
	app := &appEnv{stdin: stdin, stdout: stdout, stderr: stderr, environ: environ, ctx: context.Background()}
	crashTest(app.getenv(crashTestEnv))
	return execute(newRootFor(app, args), app, args)
}

// execute runs the command tree root with args and returns the exit code.
func execute(root *cobra.Command, app *appEnv, args []string) int {
	stderr := app.stderr
	root.SetArgs(args)
	root.SetIn(app.stdin)
	root.SetOut(app.stdout)
	root.SetErr(stderr)
	strictHelpAndCompletion(root)
	cmd, err := root.ExecuteContextC(app.ctx)
	if err == nil {
		return exitOK
	}
	var ee *exitError
	if errors.As(err, &ee) {
		if ee.err != nil {
			fmt.Fprintln(stderr, "xcvr: "+termsafe.Message(ee.err))
		}
		return ee.code
	}
	// cobra's own errors: unknown commands, wrong argument counts. The usage
	// to read is the command's that refused them (xcvr audit with no file).
	path := "xcvr"
	if cmd != nil {
		path = cmd.CommandPath()
	}
	fmt.Fprintln(stderr, "xcvr: "+termsafe.Message(err))
	fmt.Fprintln(stderr, "Run '"+path+" --help' for usage.")
	return exitUsage
}

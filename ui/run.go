package ui

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strings"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/colorprofile"
	"github.com/charmbracelet/x/term"
)

// ErrNotTerminal is returned by Run when the output is not a terminal: the
// explorer needs one, and `xcvr explain` is the text form.
var ErrNotTerminal = errors.New("stdout is not a terminal; use 'xcvr explain' for text output")

// ErrPanic wraps a crash inside the explorer. The terminal has been restored and
// the stack printed to stderr by then.
var ErrPanic = errors.New("the explorer crashed")

// Run starts the explorer on the terminal and blocks until the user quits or ctx
// ends. It restores the terminal on every exit path: q, ctrl+c, a cancelled
// context, and a panic (Bubble Tea recovers panics in Update, View and commands;
// Run recovers anything else, releases the terminal and returns an error).
func Run(ctx context.Context, opts Options) error { return RunModel(ctx, opts, nil) }

// RunModel is Run with another root model built around the explorer (the guided
// tour): model gets the completed options and returns the program's model; nil
// means the explorer itself.
func RunModel(ctx context.Context, opts Options, model func(Options) tea.Model) (err error) {
	if opts.In == nil {
		opts.In = os.Stdin
	}
	if opts.Out == nil {
		opts.Out = os.Stdout
	}
	if !isTerminal(opts.Out) {
		return ErrNotTerminal
	}
	if opts.Environ == nil {
		opts.Environ = os.Environ()
	}
	for _, kv := range opts.Environ {
		if k, ok := strings.CutPrefix(kv, "XCVR_TEST_PANIC="); ok && k != "" {
			opts.panicKey = k
		}
	}
	popts := []tea.ProgramOption{
		tea.WithContext(ctx),
		tea.WithInput(opts.In),
		tea.WithOutput(opts.Out),
		tea.WithEnvironment(opts.Environ),
	}
	if p, ok := colorProfile(opts); ok {
		popts = append(popts, tea.WithColorProfile(p))
	}
	if opts.Width > 0 && opts.Height > 0 {
		popts = append(popts, tea.WithWindowSize(opts.Width, opts.Height))
	}
	var p *tea.Program
	defer func() {
		if r := recover(); r != nil {
			if p != nil {
				_ = p.ReleaseTerminal()
			}
			err = fmt.Errorf("%w: %v", ErrPanic, r)
		}
	}()
	var root tea.Model
	if model != nil {
		root = model(opts)
	} else {
		root = New(opts)
	}
	p = tea.NewProgram(root, popts...)
	_, err = p.Run()
	switch {
	case err == nil, errors.Is(err, tea.ErrInterrupted):
		// ctrl+c arrives as a key in raw mode; a SIGINT from outside is a normal exit too.
		return nil
	case errors.Is(err, tea.ErrProgramPanic):
		return fmt.Errorf("%w (the stack is above)", ErrPanic)
	case errors.Is(err, tea.ErrProgramKilled) && ctx.Err() != nil:
		return ctx.Err()
	}
	return err
}

// isTerminal reports whether w is a terminal device.
func isTerminal(w any) bool {
	f, ok := w.(interface{ Fd() uintptr })
	return ok && term.IsTerminal(f.Fd())
}

// colorProfile decides the colour profile from --color and NO_COLOR. ok is false
// when Bubble Tea's own detection should decide (auto, colour allowed).
//
// NO_COLOR counts when it is set to any non-empty value, as no-color.org says;
// colorprofile alone only honours values strconv.ParseBool accepts.
func colorProfile(opts Options) (colorprofile.Profile, bool) {
	if opts.Profile != nil {
		return *opts.Profile, true
	}
	switch strings.ToLower(opts.Color) {
	case "never":
		return colorprofile.Ascii, true
	case "always":
		p := colorprofile.Detect(opts.Out, opts.Environ)
		if p < colorprofile.ANSI256 {
			p = colorprofile.ANSI256
		}
		return p, true
	}
	for _, kv := range opts.Environ {
		if v, ok := strings.CutPrefix(kv, "NO_COLOR="); ok && v != "" {
			return colorprofile.Ascii, true
		}
	}
	return 0, false
}

package cli

import (
	"errors"
	"fmt"
	"strings"

	"github.com/spf13/cobra"

	"xcvr/internal/deploy"
	"xcvr/internal/termsafe"
	"xcvr/ui"
)

// exitCrash is the exit code after the explorer crashed (the terminal is restored
// and the error printed first). It differs from 1, which means TensorRT-LLM would
// refuse the configuration.
const exitCrash = 3

func newTUICmd(app *appEnv, color *string) *cobra.Command {
	var flags inputFlags
	cmd := &cobra.Command{
		Use:   "tui",
		Short: "Open the interactive explorer (needs a terminal)",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if !app.stdoutIsTTY() {
				// Exact wording is part of the contract; scripts match on it.
				fmt.Fprintln(app.stderr, "xcvr tui: stdout is not a terminal; use 'xcvr explain' for text output")
				return &exitError{code: exitUsage}
			}
			if app.dumbTerminal() {
				fmt.Fprintln(app.stderr, "xcvr tui: TERM=dumb: this terminal cannot draw the explorer; use --accessible for the linear mode, or 'xcvr explain' for text output")
				return &exitError{code: exitUsage}
			}
			return runExplorer(cmd, app, &flags, *color)
		},
	}
	flags.register(cmd.Flags())
	flags.deploy.registerExplorer(cmd.Flags())
	flags.complete(cmd)
	addAccessible(cmd, app, &flags)
	return cmd
}

// runExplorer opens the explorer with the flags as its starting inputs. Bad flag
// values are usage errors here, before the screen is taken over.
func runExplorer(cmd *cobra.Command, app *appEnv, flags *inputFlags, color string) error {
	if flags.deploy.bothRoles() {
		flags.deploy.activeRole = deploy.RoleContext // explored; the other role is shown beside it
	}
	opts, err := explorerOptions(cmd, app, flags, color)
	if err != nil {
		return err
	}
	if opts.LogFollow != nil {
		defer opts.LogFollow.Close()
	}
	return explorerExit(app, ui.Run(cmd.Context(), opts))
}

// explorerOptions resolves the flags into the explorer's starting options; xcvr
// serve builds each session's explorer from them too. The caller closes
// LogFollow, when set, once the explorer is done.
func explorerOptions(cmd *cobra.Command, app *appEnv, flags *inputFlags, color string) (ui.Options, error) {
	_, spec, cat, err := flags.resolveInputs(cmd, app)
	if err != nil {
		return ui.Options{}, err
	}
	roles, lg, follow, err := explorerExtras(cmd, app, flags)
	if err != nil {
		return ui.Options{}, err
	}
	if lg != nil {
		spec = withLogVersion(spec, lg)
	}
	return ui.Options{
		Spec: spec, Catalog: cat, Color: color,
		In: app.stdin, Out: app.stdout, Environ: app.environ,
		Log: lg, LogFollow: follow, Roles: roles, RoleName: flags.deploy.activeRole,
		Command: fileArgs(cmd), Notice: notesLine(app.notes),
	}, nil
}

// explorerExit maps the explorer's (or the tour's) end to an exit code.
func explorerExit(app *appEnv, err error) error {
	switch {
	case err == nil:
		return nil
	case errors.Is(err, ui.ErrNotTerminal):
		return usageErr(err)
	case errors.Is(err, ui.ErrPanic):
		fmt.Fprintln(app.stderr, "xcvr: "+termsafe.Message(err))
		fmt.Fprintln(app.stderr, "hint: 'xcvr explain' with the same flags prints the chain without the explorer")
		return &exitError{code: exitCrash}
	}
	return &exitError{code: exitCrash, err: err}
}

// fileArgs are the flags of the command line that name files, a process or the
// environment's source, as given: the explorer's `x` starts the xcvr explain
// command line it copies with them, and adds the inputs itself.
func fileArgs(cmd *cobra.Command) []string {
	var out []string
	fs := cmd.Flags()
	for _, name := range []string{"config", "disagg", "role", "model-dir", "model-config", "env-file", "pid", "install", "catalog"} {
		if f := fs.Lookup(name); f != nil && f.Changed {
			out = append(out, "--"+name, f.Value.String())
		}
	}
	if f := fs.Lookup("clean-env"); f != nil && f.Changed && f.Value.String() == "true" {
		out = append(out, "--clean-env")
	}
	return out
}

// notesLine joins the near-miss notes for the explorer's status area.
func notesLine(notes []string) string {
	if len(notes) == 0 {
		return ""
	}
	return "note: " + strings.Join(notes, " · ")
}

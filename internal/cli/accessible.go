package cli

import (
	"errors"

	"github.com/spf13/cobra"

	"xcvr/internal/accessible"
	"xcvr/internal/deploy"
	"xcvr/internal/guard"
	"xcvr/internal/logs"
)

// addAccessible gives an explorer command --accessible: the linear mode instead
// of the full-screen explorer, on a terminal or not.
func addAccessible(cmd *cobra.Command, app *appEnv, flags *inputFlags) {
	var on bool
	cmd.Flags().BoolVar(&on, "accessible", false, "linear mode for screen readers and slow links: one prompt at a time, the explain text after each change; no alternate screen, box drawing or colour")
	inner := cmd.RunE
	cmd.RunE = func(cmd *cobra.Command, args []string) error {
		if !on {
			return inner(cmd, args)
		}
		return runAccessible(cmd, app, flags)
	}
}

func runAccessible(cmd *cobra.Command, app *appEnv, flags *inputFlags) error {
	if flags.deploy.bothRoles() {
		flags.deploy.activeRole = deploy.RoleContext
	}
	_, spec, cat, err := flags.resolveInputs(cmd, app)
	if err != nil {
		return err
	}
	lg, err := accessibleLog(flags)
	if err != nil {
		return err
	}
	if lg != nil {
		spec = withLogVersion(spec, lg)
	}
	return accessible.Run(cmd.Context(), accessible.Options{
		Spec: spec, Catalog: cat, In: app.stdin, Out: app.stdout, Width: app.width(), Log: lg,
	})
}

// accessibleLog reads --log once for the linear mode, through the same guard
// and file system as the explorer's; stdin carries the answers, so it cannot
// carry the log too.
func accessibleLog(flags *inputFlags) (*logs.Log, error) {
	path := flags.deploy.log
	switch path {
	case "":
		return nil, nil
	case "-":
		return nil, usageErr(errors.New("--log -: the linear mode reads its answers from stdin; give the log as a file"))
	}
	fw := logs.NewFollower(path, path)
	fw.FS = flags.deploy.files
	defer fw.Close()
	if _, _, err := fw.Poll(); err != nil {
		return nil, usageErr(guard.FlagError("--log", path, err))
	}
	if _, err := flags.deploy.fs().Stat(path); err != nil {
		return nil, usageErr(guard.FlagError("--log", path, err))
	}
	return fw.End(), nil // read once: a last line without its newline too, as check-logs reads it
}

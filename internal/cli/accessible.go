package cli

import (
	"github.com/spf13/cobra"

	"xcvr/internal/accessible"
	"xcvr/internal/deploy"
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
	return accessible.Run(cmd.Context(), accessible.Options{
		Spec: spec, Catalog: cat, In: app.stdin, Out: app.stdout, Width: app.width(),
	})
}

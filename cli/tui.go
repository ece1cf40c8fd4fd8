package cli

import (
	"errors"

	"github.com/spf13/cobra"
)

func newTUICmd(app *appEnv, color *string) *cobra.Command {
	var flags inputFlags
	cmd := &cobra.Command{
		Use:   "tui",
		Short: "Open the interactive explorer (needs a terminal)",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if !app.stdoutIsTTY() {
				return usageErr(errors.New("tui: stdout is not a terminal; use 'xcvr explain' for text output"))
			}
			return runExplorer(cmd, app, &flags, *color)
		},
	}
	flags.register(cmd.Flags())
	flags.complete(cmd)
	return cmd
}

// runExplorer opens the explorer. Until the ui package lands it falls back to text.
func runExplorer(cmd *cobra.Command, app *appEnv, flags *inputFlags, color string) error {
	return runExplain(cmd, app, flags, "text", color)
}

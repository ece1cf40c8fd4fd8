package cli

import (
	"fmt"

	"github.com/spf13/cobra"

	"xcvr/internal/buildinfo"
	"xcvr/models"
	"xcvr/resolver"
)

// newRoot builds the command tree. xcvr alone opens the explorer on a terminal and
// prints the explain text anywhere else.
func newRoot(app *appEnv) *cobra.Command {
	var flags inputFlags
	var color string
	root := &cobra.Command{
		Use:   "xcvr",
		Short: "Show why a TensorRT-LLM worker gets the C++ or the Python KV-cache transceiver",
		Long: `xcvr replays TensorRT-LLM's transceiver resolution for a version, model, backend,
environment and transceiver_runtime override, and shows every step, the outcome,
the exact log lines and the exact error TensorRT-LLM would print.

On a terminal, xcvr alone opens the interactive explorer; elsewhere it prints the
same text as 'xcvr explain'.`,
		Version:       versionString(),
		Args:          cobra.NoArgs,
		SilenceUsage:  true,
		SilenceErrors: true,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if !app.stdoutIsTTY() {
				if flags.deploy.log != "" {
					return runCheckLogsWith(cmd, app, &flags, flags.deploy.log, "text", true)
				}
				return runExplain(cmd, app, &flags, "text", color)
			}
			return runExplorer(cmd, app, &flags, color)
		},
	}
	root.PersistentFlags().StringVar(&color, "color", "auto", "colour: auto|always|never (NO_COLOR turns auto off)")
	_ = root.RegisterFlagCompletionFunc("color", func(*cobra.Command, []string, string) ([]cobra.Completion, cobra.ShellCompDirective) {
		return []string{"auto", "always", "never"}, cobra.ShellCompDirectiveNoFileComp
	})
	flags.register(root.Flags())
	flags.deploy.registerExplorer(root.Flags())
	flags.complete(root)
	addAccessible(root, app, &flags)
	root.SetVersionTemplate("{{.Version}}\n")
	root.SetFlagErrorFunc(func(_ *cobra.Command, err error) error { return usageErr(err) })
	root.PersistentPreRunE = func(cmd *cobra.Command, _ []string) error {
		switch color {
		case "auto", "always", "never":
			return nil
		}
		return usageErr(fmt.Errorf("--color %q: want auto, always or never", color))
	}

	root.AddCommand(newExplainCmd(app, &color), newModelsCmd(app), newVersionsCmd(app), newTUICmd(app, &color), newCheckLogsCmd(app))
	root.AddCommand(compareCommands(app, &color)...)
	root.AddCommand(newServeCmd(app), newTourCmd(app, &color))
	root.AddCommand(newManCmd(app, root))
	return root
}

// versionString is --version's text: the build (release stamp or the toolchain's
// record, see internal/buildinfo), then what this build knows.
func versionString() string {
	return buildinfo.Read().String() + "\ncatalog: " + fmt.Sprint(len(models.Builtin().Entries())) +
		" architectures; TensorRT-LLM " + resolver.KnownVersions()[0].Name + " to " + resolver.DefaultVersionName + " and main@DATE"
}

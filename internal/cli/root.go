package cli

import (
	"fmt"
	"slices"
	"strings"

	"github.com/spf13/cobra"

	"xcvr/internal/buildinfo"
	"xcvr/models"
	"xcvr/resolver"
)

// newRoot builds the whole command tree. xcvr alone opens the explorer on a
// terminal and prints the explain text anywhere else.
func newRoot(app *appEnv) *cobra.Command { return newRootFor(app, nil) }

// newRootFor builds the command tree a run with args needs. Every process
// builds its tree, and most of it is other commands' flags, completions and
// help topics: building the whole tree was about 0.5 ms of an unsupervised
// explain's 3.2 ms (measured side by side). So:
//   - a run of one of xcvr's commands (args[0] is its name, see commands), or a
//     shell's completion of what follows one (__complete NAME ...), gets the
//     root with that command alone, and the root without its own flags (the
//     explorer's, which only a run of the root reads; --color, which every
//     command inherits, stays);
//   - --version alone gets the root alone;
//   - anything else (no argument, another flag first, help, completion, man,
//     a help topic, a typo that needs the nearest names) gets the whole tree.
//
// TestOneCommandTree checks that what each prints is what the whole tree
// prints.
func newRootFor(app *appEnv, args []string) *cobra.Command {
	var flags inputFlags
	var color string
	root := &cobra.Command{
		Use:   "xcvr",
		Short: "Show why a TensorRT-LLM worker gets the C++ or the Python KV-cache transceiver",
		Long: `xcvr replays TensorRT-LLM's transceiver resolution for a version, model, backend,
environment and transceiver_runtime override, and shows every step, the outcome,
the exact log lines and the exact error TensorRT-LLM would print.

On a terminal, xcvr alone opens the interactive explorer; elsewhere (a pipe, a
file, a terminal whose TERM is dumb) it prints the same text as 'xcvr explain'.`,
		// The --version text is made when asked for (versionTemplate): reading
		// the build record and the version table is no work for other commands.
		Version:       "xcvr",
		Args:          unknownCommandArgs,
		SilenceUsage:  true,
		SilenceErrors: true,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if !app.canDraw() {
				if flags.deploy.log != "" {
					return runCheckLogsWith(cmd, app, &flags, []string{flags.deploy.log}, checkOpts{output: "text", always: true, flag: "--log"})
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
	cobra.AddTemplateFunc("xcvrVersion", versionString)
	root.SetVersionTemplate("{{xcvrVersion}}\n")
	root.SetFlagErrorFunc(flagError)
	root.PersistentPreRunE = func(cmd *cobra.Command, _ []string) error {
		switch color {
		case "auto", "always", "never":
			return nil
		}
		return usageErr(fmt.Errorf("--color %q: want auto, always or never", color))
	}
	cmds := commands(app, &color)
	name := ""
	switch {
	case len(args) == 1 && (args[0] == "--version" || args[0] == "-v"):
		return root
	case len(args) >= 3 && (args[0] == cobra.ShellCompRequestCmd || args[0] == cobra.ShellCompNoDescRequestCmd):
		name = args[1] // the last word is the one being completed
	case len(args) >= 1:
		name = args[0]
	}
	if i := slices.IndexFunc(cmds, func(c namedCommand) bool { return c.name == name }); i >= 0 {
		root.AddCommand(cmds[i].make())
		return root
	}
	flags.register(root.Flags())
	flags.deploy.registerExplorer(root.Flags())
	flags.complete(root)
	addAccessible(root, app, &flags)
	for _, c := range cmds {
		root.AddCommand(c.make())
	}
	if man := newManCmd(app, root); man != nil {
		root.AddCommand(man)
	}
	root.AddCommand(topicCommands()...)
	return root
}

// namedCommand is one of xcvr's commands and its name (its Use; none has
// aliases), so that a run can build only the command it runs.
type namedCommand struct {
	name string
	make func() *cobra.Command
}

// commands are xcvr's commands in the order they are added to the root
// (TestCommandNames keeps each name its command's).
func commands(app *appEnv, color *string) []namedCommand {
	return []namedCommand{
		{"explain", func() *cobra.Command { return newExplainCmd(app, color) }},
		{"models", func() *cobra.Command { return newModelsCmd(app) }},
		{"versions", func() *cobra.Command { return newVersionsCmd(app) }},
		{"tui", func() *cobra.Command { return newTUICmd(app, color) }},
		{"check-logs", func() *cobra.Command { return newCheckLogsCmd(app) }},
		{"inspect", func() *cobra.Command { return newInspectCmd(app) }},
		{"diff", func() *cobra.Command { return newDiffCmd(app, color) }},
		{"upgrade-check", func() *cobra.Command { return newUpgradeCheckCmd(app, color) }},
		{"matrix", func() *cobra.Command { return newMatrixCmd(app, color) }},
		{"serve", func() *cobra.Command { return newServeCmd(app) }},
		{"tour", func() *cobra.Command { return newTourCmd(app, color) }},
		{"audit", func() *cobra.Command { return newAuditCmd(app, color) }},
	}
}

// strictHelpAndCompletion makes "help TOPIC" and "completion SHELL" usage errors
// (exit 2) for a topic or shell that does not exist; cobra prints the help and
// exits 0 for both, which a script cannot tell from success. Call it after
// SetOut: cobra's completion commands capture the output writer when created.
func strictHelpAndCompletion(root *cobra.Command) {
	root.InitDefaultCompletionCmd()
	root.InitDefaultHelpCmd()
	for _, c := range root.Commands() {
		switch c.Name() {
		case "completion":
			var shells []string
			for _, sub := range c.Commands() {
				shells = append(shells, sub.Name())
			}
			c.Args = cobra.ArbitraryArgs
			c.RunE = func(_ *cobra.Command, args []string) error {
				if len(args) == 0 {
					return usageErr(fmt.Errorf("completion needs a shell: %s", strings.Join(shells, ", ")))
				}
				return usageErr(fmt.Errorf("completion %q: unknown shell; want %s", args[0], strings.Join(shells, ", ")))
			}
		case "help":
			run := c.Run
			c.Run = nil
			c.RunE = func(cmd *cobra.Command, args []string) error {
				if target, rest, err := root.Find(args); err != nil || target == nil || len(rest) > 0 {
					return usageErr(fmt.Errorf("help %q: no such command; run 'xcvr --help' for the list", strings.Join(args, " ")))
				}
				run(cmd, args)
				return nil
			}
		}
	}
}

// versionString is --version's text: the build (release stamp or the toolchain's
// record, see internal/buildinfo), then what this build knows.
func versionString() string {
	return buildinfo.Read().String() + "\ncatalog: " + fmt.Sprint(len(models.Builtin().Entries())) +
		" architectures; TensorRT-LLM " + resolver.KnownVersions()[0].Name + " to " + resolver.DefaultVersionName + " and main@DATE"
}

package cli

import (
	"errors"

	"github.com/spf13/cobra"

	"xcvr/models"
)

func newInspectCmd(app *appEnv) *cobra.Command {
	var output, catalog string
	var pid int
	cmd := &cobra.Command{
		Use:   "inspect PATH|auto",
		Short: "Show what an installed TensorRT-LLM says: version, rules, model hooks, messages",
		Long: `inspect reads an installed TensorRT-LLM's own source (never imports or runs it):
its version, a fingerprint of every dated rule xcvr models with the FILE:LINE that
shows it, every registered architecture with what its
get_preferred_transceiver_runtime() and get_preferred_kv_cache_manager_version()
return, the log and exception texts, and where all of that differs from xcvr's
built-in model of the same version. PATH is a site-packages directory, the
tensorrt_llm package directory or a Python prefix; auto searches $VIRTUAL_ENV,
$CONDA_PREFIX and the system and user site-packages (with --pid, the install that
process loaded first). Exit 0, 2 for an unusable PATH.`,
		Example: `  xcvr inspect /usr/local/lib/python3.12/dist-packages
  xcvr inspect auto --pid 4242
  xcvr inspect /opt/venv -o json`,
		Args: needArgs(1, "one PATH (site-packages, the tensorrt_llm package or a Python prefix) or auto"),
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := checkOutput(output, "text", "json"); err != nil {
				return err
			}
			cat := models.Builtin()
			if catalog != "" {
				f := inputFlags{catalog: catalog}
				c, err := f.loadCatalog()
				if err != nil {
					return usageErr(err)
				}
				cat = c
			}
			if args[0] == "" {
				return usageErr(errors.New("inspect: PATH is empty"))
			}
			rep, err := findInstall(app, "inspect", args[0], pid, "")
			if err != nil {
				return err
			}
			j := rep.ToJSON(cat)
			if output == "json" {
				return writeJSON(app, j)
			}
			return rep.WriteText(app.stdout, j)
		},
	}
	cmd.ValidArgsFunction = func(_ *cobra.Command, args []string, _ string) ([]cobra.Completion, cobra.ShellCompDirective) {
		if len(args) > 0 {
			return nil, cobra.ShellCompDirectiveNoFileComp
		}
		return []cobra.Completion{"auto"}, cobra.ShellCompDirectiveFilterDirs
	}
	cmd.Flags().StringVarP(&output, "output", "o", "text", "output format: text|json")
	cmd.Flags().StringVar(&catalog, "catalog", "", "YAML file adding or overriding architectures in the catalog")
	cmd.Flags().IntVar(&pid, "pid", 0, "with PATH auto: prefer the install this process loaded (/proc/PID/maps, then /proc/PID/exe)")
	return cmd
}

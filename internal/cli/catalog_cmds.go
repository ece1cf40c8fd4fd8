package cli

import (
	"encoding/json"
	"errors"

	"github.com/spf13/cobra"

	"xcvr/internal/report"
	"xcvr/internal/termsafe"
	"xcvr/models"
	"xcvr/resolver"
)

func newModelsCmd(app *appEnv) *cobra.Command {
	var flags inputFlags
	var output string
	cmd := &cobra.Command{
		Use:   "models",
		Short: "List the architecture catalog with each model's preference in a version",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if err := checkOutput(output, "text", "json"); err != nil {
				return err
			}
			cat, err := flags.loadCatalog()
			if err != nil {
				return usageErr(err)
			}
			if flags.install != "" {
				if cmd.Flags().Changed("trtllm") {
					return usageErr(errors.New("--trtllm and --install both name the version; give one"))
				}
				return runModelsInstall(app, &flags, cat, output)
			}
			v, err := resolver.ParseVersion(flags.trtllm)
			if err != nil {
				return usageErr(err)
			}
			rows := report.ModelRows(cat, v)
			if output == "json" {
				return writeJSON(app, map[string]any{"trtllm": v.Name, "models": rows})
			}
			return report.WriteModels(app.stdout, v, rows)
		},
	}
	cmd.Flags().StringVar(&flags.trtllm, "trtllm", resolver.DefaultVersionName, "TensorRT-LLM version whose preferences to show")
	cmd.Flags().StringVar(&flags.catalog, "catalog", "", "YAML file adding or overriding architectures")
	cmd.Flags().StringVar(&flags.install, "install", "", "list what an installed TensorRT-LLM registers instead (a site-packages dir, the tensorrt_llm package, a Python prefix, or auto)")
	cmd.Flags().StringVarP(&output, "output", "o", "text", "output format: text|json")
	_ = cmd.MarkFlagDirname("install")
	_ = cmd.RegisterFlagCompletionFunc("trtllm", versionCompletion)
	return cmd
}

func newVersionsCmd(app *appEnv) *cobra.Command {
	var output string
	cmd := &cobra.Command{
		Use:   "versions",
		Short: "List the TensorRT-LLM versions xcvr knows and which rules each follows",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if err := checkOutput(output, "text", "json"); err != nil {
				return err
			}
			rows := report.VersionRows()
			if output == "json" {
				main, other := report.OtherVersions()
				return writeJSON(app, map[string]any{"versions": rows, "main": main, "other": other})
			}
			return report.WriteVersions(app.stdout, rows)
		},
	}
	cmd.Flags().StringVarP(&output, "output", "o", "text", "output format: text|json")
	return cmd
}

func writeJSON(app *appEnv, v any) error {
	enc := json.NewEncoder(termsafe.JSONWriter{W: app.stdout})
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return enc.Encode(v)
}

// runModelsInstall is `models --install`: the architectures the install
// registers, each with what its hooks return and the lines that show it (the
// install wins over the catalog), then the catalog's architectures the install
// does not register.
func runModelsInstall(app *appEnv, flags *inputFlags, cat *models.Catalog, output string) error {
	rep, err := findInstall(app, "--install", flags.install, 0, "")
	if err != nil {
		return err
	}
	v, err := rep.ResolverVersion(nil)
	if err != nil {
		return usageErr(err)
	}
	rows := report.InstallModelRows(rep, cat, v)
	if output == "json" {
		return writeJSON(app, map[string]any{"trtllm": rep.Version, "install": rep.Path, "models": rows})
	}
	return report.WriteInstallModels(app.stdout, rep, rows)
}

package cli

import (
	"encoding/json"
	"fmt"

	"github.com/spf13/cobra"

	"xcvr/internal/install"
	"xcvr/internal/report"
	"xcvr/internal/termsafe"
	"xcvr/resolver"
)

func newExplainCmd(app *appEnv, color *string) *cobra.Command {
	var flags inputFlags
	var output string
	cmd := &cobra.Command{
		Use:   "explain",
		Short: "Print the resolution chain, the outcome and the log lines for one configuration",
		Example: `  xcvr explain --trtllm 1.3.0rc22 --model GptOssForCausalLM --backend UCX
  xcvr explain --backend DEFAULT --env TRTLLM_USE_UCX_KVCACHE=1 -o json
  xcvr explain --trtllm main@2026-09-10 --model LlamaForCausalLM --timeout-ms null -o markdown`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return runExplain(cmd, app, &flags, output, *color)
		},
	}
	flags.register(cmd.Flags())
	flags.complete(cmd)
	cmd.Flags().StringVarP(&output, "output", "o", "text", "output format: text|json|markdown|yaml (yaml: the cache_transceiver_config block that pins the outcome)")
	_ = cmd.RegisterFlagCompletionFunc("output", func(*cobra.Command, []string, string) ([]cobra.Completion, cobra.ShellCompDirective) {
		return []string{"text", "json", "markdown", "yaml"}, cobra.ShellCompDirectiveNoFileComp
	})
	return cmd
}

// runExplain resolves the flags and prints the result; an ERROR outcome exits 1
// after printing the full report.
func runExplain(cmd *cobra.Command, app *appEnv, flags *inputFlags, output, color string) error {
	if err := checkOutput(output, "text", "json", "markdown", "yaml"); err != nil {
		return err
	}
	if flags.deploy.bothRoles() {
		return runExplainRoles(cmd, app, flags, output, color)
	}
	if flags.deploy.disagg != "" {
		if done, err := orchestratorOnly(app, flags); done || err != nil {
			return err
		}
	}
	in, _, _, err := flags.resolveInputs(cmd, app)
	if err != nil {
		return err
	}
	t := resolver.Resolve(in)
	if err := writeTrace(app, t, output, color, flags.installRep); err != nil {
		return err
	}
	if t.Result.Outcome == resolver.OutcomeError {
		return refused()
	}
	return nil
}

func writeTrace(app *appEnv, t resolver.Trace, output, color string, rep *install.Report) error {
	switch output {
	case "json":
		enc := json.NewEncoder(termsafe.JSONWriter{W: app.stdout})
		enc.SetIndent("", "  ")
		enc.SetEscapeHTML(false)
		return enc.Encode(report.ExplainInstall(t, rep))
	case "markdown":
		_, err := fmt.Fprint(app.stdout, report.Markdown(t))
		return err
	case "yaml":
		_, err := fmt.Fprint(app.stdout, report.PinYAML(t))
		return err
	}
	on := app.colorOn(color)
	_, err := fmt.Fprint(app.out(on), report.Text(t, report.TextOptions{Width: app.width(), Styles: app.styles(on)}))
	return err
}

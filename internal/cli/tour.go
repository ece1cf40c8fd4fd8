package cli

import (
	"fmt"
	"strings"

	tea "charm.land/bubbletea/v2"
	"github.com/spf13/cobra"

	"xcvr/internal/guard"
	"xcvr/internal/report"
	"xcvr/internal/termsafe"
	"xcvr/internal/tour"
	"xcvr/models"
	"xcvr/ui"
)

// tourFlags are xcvr tour's own flags.
type tourFlags struct {
	files      []string
	accessible bool
}

func newTourCmd(app *appEnv, color *string) *cobra.Command {
	var tf tourFlags
	cmd := &cobra.Command{
		Use:   "tour",
		Short: "A guided tour of the transceiver rules' history, in the real explorer",
		Long: `xcvr tour walks through scenarios of TensorRT-LLM's transceiver rules: each stop
presets the explorer, says what to look at, selects the step that matters and
suggests one edit. n and p move between stops, q leaves.

--tour FILE adds a team's own scenarios (the format of assets/tour.yaml); every
scenario's claimed outcome is checked against the resolver when it is loaded.
Off a terminal, or with --accessible, the stops are printed one after another.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			stops, err := loadTour(guard.Host{}, tf.files, models.Builtin())
			if err != nil {
				return err
			}
			if tf.accessible || !app.stdoutIsTTY() {
				return printTour(app, stops)
			}
			opts := ui.Options{Catalog: models.Builtin(), Color: *color, In: app.stdin, Out: app.stdout, Environ: app.environ}
			return explorerExit(app, ui.RunModel(cmd.Context(), opts, func(o ui.Options) tea.Model { return tour.New(stops, o) }))
		},
	}
	cmd.Flags().StringArrayVar(&tf.files, "tour", nil, "YAML file of extra scenarios (repeatable; format of assets/tour.yaml)")
	cmd.Flags().BoolVar(&tf.accessible, "accessible", false, "print the stops one after another: no alternate screen, box drawing or colour")
	_ = cmd.MarkFlagFilename("tour", "yaml", "yml")
	return cmd
}

// loadTour returns the built-in scenarios followed by those of files, each read
// through the input guard (internal/guard: regular files only, size, text and
// YAML nesting limits); errors name FILE:LINE.
func loadTour(fsys guard.FS, files []string, cat *models.Catalog) ([]tour.Scenario, error) {
	stops, err := tour.Builtin()
	if err != nil {
		return nil, &exitError{code: exitCrash, err: fmt.Errorf("built-in tour: %w", err)}
	}
	for _, f := range files {
		data, err := guard.ReadFileFS(fsys, f, guard.YAMLLimits())
		if err != nil {
			return nil, usageErr(err)
		}
		more, err := tour.Parse(f, data, cat)
		if err != nil {
			return nil, usageErr(err)
		}
		stops = append(stops, more...)
	}
	return stops, nil
}

// printTour is the linear tour: each stop's narration, the edit to try, and the
// explain text of its preset.
func printTour(app *appEnv, stops []tour.Scenario) error {
	var b strings.Builder
	for i, s := range stops {
		fmt.Fprintf(&b, "Tour %d/%d: %s\n", i+1, len(stops), termsafe.Line(s.Title))
		b.WriteString(termsafe.Text(s.Narrate) + "\n")
		fmt.Fprintf(&b, "Look at step '%s'.\n", s.Step)
		if s.Try != "" {
			b.WriteString("Try: " + termsafe.Line(s.Try) + "\n")
		}
		b.WriteString("\n")
		t, err := s.Resolve(models.Builtin())
		if err != nil {
			return usageErr(fmt.Errorf("%s: %w", s.Source, err))
		}
		b.WriteString(report.Text(t, report.TextOptions{Width: app.width(), Styles: report.PlainStyles()}))
		b.WriteString("\n")
	}
	_, err := fmt.Fprint(app.stdout, b.String())
	return err
}

package cli

import (
	"fmt"

	tea "charm.land/bubbletea/v2"
	"github.com/spf13/cobra"

	"xcvr/internal/accessible"
	"xcvr/internal/guard"
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
Off a terminal the stops are printed one after another. With --accessible they
are printed one at a time, each waiting for Enter, with the edit to try given as
an xcvr explain command line.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			stops, err := loadTour(guard.Host{}, tf.files, models.Builtin())
			if err != nil {
				return err
			}
			if tf.accessible || !app.canDraw() {
				return printTour(cmd, app, stops, tf.accessible)
			}
			opts := ui.Options{Catalog: models.Builtin(), Color: *color, In: app.stdin, Out: app.stdout, Environ: app.environ}
			return explorerExit(app, ui.RunModel(cmd.Context(), opts, func(o ui.Options) tea.Model { return tour.New(stops, o) }))
		},
	}
	cmd.Flags().StringArrayVar(&tf.files, "tour", nil, "YAML file of extra scenarios (repeatable; format of assets/tour.yaml)")
	cmd.Flags().BoolVar(&tf.accessible, "accessible", false, "one stop at a time, Enter for the next: no alternate screen, box drawing or colour")
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
			return nil, usageErr(guard.FlagError("--tour", f, err))
		}
		more, err := tour.Parse(f, data, cat)
		if err != nil {
			return nil, usageErr(err)
		}
		stops = append(stops, more...)
	}
	return stops, nil
}

// printTour is the linear tour (accessible.Tour): with step set (--accessible)
// it waits for Enter after each stop, so a screen reader reads one stop at a
// time; off a terminal without --accessible it prints them all.
func printTour(cmd *cobra.Command, app *appEnv, stops []tour.Scenario, step bool) error {
	return accessible.Tour(cmd.Context(), accessible.TourOptions{
		Stops: stops, Catalog: models.Builtin(), In: app.stdin, Out: app.stdout, Width: app.width(), Step: step,
	})
}

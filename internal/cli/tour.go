package cli

import (
	"bufio"
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
Off a terminal the stops are printed one after another. With --accessible they
are printed one at a time, each waiting for Enter, with the edit to try given as
an xcvr explain command line.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			stops, err := loadTour(guard.Host{}, tf.files, models.Builtin())
			if err != nil {
				return err
			}
			if tf.accessible || !app.stdoutIsTTY() {
				return printTour(app, stops, tf.accessible)
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

// printTour is the linear tour: each stop's narration, the command that shows
// it and the edit to try as a command (the explorer's keys do not exist
// here), then the explain text of its preset. With step set (--accessible) it
// waits for Enter after each stop, so a screen reader reads one stop at a
// time; off a terminal without --accessible it prints them all.
func printTour(app *appEnv, stops []tour.Scenario, step bool) error {
	in := bufio.NewReader(app.stdin)
	for i, s := range stops {
		var b strings.Builder
		fmt.Fprintf(&b, "Tour %d/%d: %s\n", i+1, len(stops), termsafe.Line(s.Title))
		b.WriteString(strings.Join(strings.Fields(termsafe.Text(s.Narrate)), " ") + "\n")
		t, err := s.Resolve(models.Builtin())
		if err != nil {
			return usageErr(fmt.Errorf("%s: %w", s.Source, err))
		}
		look := "Look at step '" + s.Step + "'"
		for j, st := range t.Steps {
			if st.ID == s.Step {
				look = fmt.Sprintf("Look at step %d, %s ('%s')", j+1, st.Title, s.Step)
			}
		}
		b.WriteString(look + " in the explain text below.\n")
		b.WriteString("This stop is: " + shellLine(s.Command()) + "\n")
		switch {
		case len(s.TryFlags) > 0:
			b.WriteString("Try: " + shellLine(s.TryCommand()) + "\n")
			if s.Try != "" {
				b.WriteString("  (in the explorer: " + termsafe.Line(s.Try) + ")\n")
			}
		case s.Try != "":
			b.WriteString("Try, in the explorer (xcvr tour without --accessible): " + termsafe.Line(s.Try) + "\n")
		}
		b.WriteString("\n")
		b.WriteString(report.Text(t, report.TextOptions{Width: app.width(), Styles: report.PlainStyles()}))
		b.WriteString("\n")
		if _, err := fmt.Fprint(app.stdout, b.String()); err != nil {
			return err
		}
		if !step || i+1 == len(stops) {
			continue
		}
		fmt.Fprintf(app.stdout, "Press Enter for stop %d of %d, or type q and Enter to leave: ", i+2, len(stops))
		line, err := in.ReadString('\n')
		if strings.TrimSpace(line) == "q" {
			fmt.Fprintln(app.stdout, "Bye.")
			return nil
		}
		if err != nil {
			fmt.Fprintf(app.stdout, "\nInput ended; %d stops not shown.\n", len(stops)-i-1)
			return nil
		}
		fmt.Fprintln(app.stdout)
	}
	if step {
		fmt.Fprintln(app.stdout, "That was the last stop.")
	}
	return nil
}

// shellLine joins arguments into a command line a POSIX shell reads back the
// same, each escaped for the terminal and quoted as the explorer's x quotes.
func shellLine(args []string) string {
	out := make([]string, len(args))
	for i, a := range args {
		out[i] = ui.ShellQuote(termsafe.Line(a))
	}
	return strings.Join(out, " ")
}

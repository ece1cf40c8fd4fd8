package accessible

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"

	"xcvr/internal/report"
	"xcvr/internal/termsafe"
	"xcvr/internal/tour"
	"xcvr/models"
	"xcvr/ui"
)

// TourOptions configures the linear tour.
type TourOptions struct {
	Stops []tour.Scenario
	// Catalog nil means models.Builtin().
	Catalog *models.Catalog
	In      io.Reader
	Out     io.Writer
	// Width wraps the explain text; 0 means 80.
	Width int
	// CRLF and Echo are Options' (a raw terminal on the far side of SSH).
	CRLF, Echo bool
	// Step waits for Enter after each stop, so a screen reader reads one stop
	// at a time; without it the stops are printed one after another.
	Step bool
	// Command turns the xcvr explain command line that shows a stop (or its
	// edit) into the one to give: nil gives it as it is. A served session gives
	// the ssh command line of its own linear mode.
	Command func(args []string) []string
}

// Tour is the linear tour: each stop's narration, the command line that shows
// it and the edit to try as a command line (the explorer's keys do not exist
// here), then the explain text of its preset. With Step it asks for Enter after
// each stop; q (or ctrl+c on a raw terminal) leaves, and the end of input (or
// ctrl+d) stops it, saying how many stops were not shown.
func Tour(ctx context.Context, o TourOptions) error {
	cat := o.Catalog
	if cat == nil {
		cat = models.Builtin()
	}
	width := o.Width
	if width <= 0 {
		width = 80
	}
	command := o.Command
	if command == nil {
		command = func(a []string) []string { return a }
	}
	w := &writer{out: o.Out, crlf: o.CRLF}
	r := newLineReader(ctx, o.In)
	if o.Echo {
		r.echo = w
	}
	for i, s := range o.Stops {
		if err := ctx.Err(); err != nil {
			return err
		}
		text, err := stopText(s, i+1, len(o.Stops), cat, width, command)
		if err != nil {
			return err
		}
		w.write(text)
		if w.err != nil {
			return w.err
		}
		if !o.Step || i+1 == len(o.Stops) {
			continue
		}
		w.prompt(fmt.Sprintf("Press Enter for stop %d of %d, or type q and Enter to leave: ", i+2, len(o.Stops)))
		line, err := r.next()
		switch {
		case errors.Is(err, errQuit) || err == nil && isQuit(line):
			w.line("Bye.")
			return w.err
		case errors.Is(err, io.EOF):
			w.line("")
			w.line(fmt.Sprintf("Input ended; %d stops not shown.", len(o.Stops)-i-1))
			return w.err
		case err != nil:
			return err
		}
		w.line("")
	}
	if o.Step {
		w.line("That was the last stop.")
	}
	return w.err
}

func isQuit(line string) bool {
	switch strings.TrimSpace(line) {
	case "q", "quit":
		return true
	}
	return false
}

// stopText is one stop of the linear tour, ending in a blank line.
func stopText(s tour.Scenario, n, of int, cat *models.Catalog, width int, command func([]string) []string) (string, error) {
	t, err := s.Resolve(cat)
	if err != nil {
		return "", fmt.Errorf("%s: %w", s.Source, err)
	}
	var b strings.Builder
	fmt.Fprintf(&b, "Tour %d/%d: %s\n", n, of, termsafe.Line(s.Title))
	b.WriteString(strings.Join(strings.Fields(termsafe.Text(s.Narrate)), " ") + "\n")
	look := "Look at step '" + termsafe.Line(s.Step) + "'"
	for j, st := range t.Steps {
		if st.ID == s.Step {
			look = fmt.Sprintf("Look at step %d, %s ('%s')", j+1, termsafe.Line(st.Title), termsafe.Line(s.Step))
		}
	}
	b.WriteString(look + " in the explain text below.\n")
	b.WriteString("This stop is: " + shellLine(command(s.Command())) + "\n")
	switch {
	case len(s.TryFlags) > 0:
		b.WriteString("Try: " + shellLine(command(s.TryCommand())) + "\n")
		if s.Try != "" {
			b.WriteString("  (in the explorer: " + termsafe.Line(s.Try) + ")\n")
		}
	case s.Try != "":
		b.WriteString("Try, in the explorer (the tour without --accessible): " + termsafe.Line(s.Try) + "\n")
	}
	b.WriteString("\n")
	b.WriteString(report.Text(t, report.TextOptions{Width: width, Styles: report.PlainStyles()}))
	b.WriteString("\n")
	return b.String(), nil
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

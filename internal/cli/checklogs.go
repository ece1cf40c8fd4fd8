package cli

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/spf13/cobra"

	"xcvr/internal/deploy"
	"xcvr/internal/guard"
	"xcvr/internal/logs"
	"xcvr/internal/report"
	"xcvr/internal/termsafe"
	"xcvr/resolver"
	"xcvr/ui"
)

func newCheckLogsCmd(app *appEnv) *cobra.Command {
	var flags inputFlags
	var output string
	cmd := &cobra.Command{
		Use:   "check-logs FILE|-",
		Short: "Read a server log: what each rank actually did, checked against the prediction",
		Long: `check-logs reads a trtllm-serve log (plain, srun- or mpirun-prefixed, with or
without timestamps and colour, ranks interleaved) and reports per process what
TensorRT-LLM did: the resolved runtime and class, fallback, backend and env-var
lines, KvCacheTransceiverV2, "cache_transceiver is disabled", and errors.

Given any input flag (--trtllm, --model, --backend, --config, --disagg --role,
--pid, ...), it also predicts and compares. Exit 0 when every process agrees with
the prediction (or, without one, when none failed), 1 otherwise, 2 on usage errors.`,
		Example: `  xcvr check-logs ctx-0.log
  xcvr check-logs --trtllm 1.3.0rc26 --config gen.yaml --model-dir /models/gpt-oss-120b gen.log
  srun ... 2>&1 | xcvr check-logs --disagg disagg.yaml --role generation -o json -`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			return runCheckLogs(cmd, app, &flags, args[0], output)
		},
	}
	flags.register(cmd.Flags())
	flags.complete(cmd)
	cmd.Flags().StringVarP(&output, "output", "o", "text", "output format: text|json")
	return cmd
}

// predicting reports whether the user gave anything to predict from.
func (f *inputFlags) predicting(cmd *cobra.Command) bool {
	if f.deploy.any() {
		return true
	}
	for _, name := range []string{"trtllm", "model", "backend", "runtime", "timeout-ms", "loader", "pipelined", "env", "catalog", "pid"} {
		if cmd.Flags().Changed(name) {
			return true
		}
	}
	return false
}

func runCheckLogs(cmd *cobra.Command, app *appEnv, flags *inputFlags, file, output string) error {
	return runCheckLogsWith(cmd, app, flags, file, output, false)
}

// runCheckLogsWith is check-logs; always makes it predict even without input flags
// (the explorer's --log off a terminal, whose inputs always have defaults).
func runCheckLogsWith(cmd *cobra.Command, app *appEnv, flags *inputFlags, file, output string, always bool) error {
	if err := checkOutput(output, "text", "json"); err != nil {
		return err
	}
	if flags.deploy.bothRoles() {
		return usageErr(errors.New("check-logs compares one worker's log: with --disagg, pass --role context or --role generation"))
	}
	var predicted *resolver.Trace
	if always || flags.predicting(cmd) {
		in, _, _, err := flags.resolveInputs(cmd, app)
		if err != nil {
			return err
		}
		t := resolver.Resolve(in)
		predicted = &t
	}
	lg, err := readLog(app, file)
	if err != nil {
		return err
	}
	var ms []logs.Mismatch
	var predJSON any
	if predicted != nil {
		ms = logs.Compare(lg, *predicted)
		predJSON = report.Explain(*predicted)
	}
	if output == "json" {
		enc := json.NewEncoder(termsafe.JSONWriter{W: app.stdout})
		enc.SetIndent("", "  ")
		enc.SetEscapeHTML(false)
		if err := enc.Encode(logs.JSON(lg, predJSON, ms)); err != nil {
			return err
		}
	} else {
		writeCheckText(app.stdout, lg, predicted, ms)
	}
	switch {
	case predicted != nil && len(ms) > 0:
		return refused()
	case predicted == nil && (lg.Failed() || len(lg.Processes) == 0):
		return refused()
	}
	return nil
}

// writeCheckText prints what each process did, the prediction and the
// disagreements, first disagreement first.
func writeCheckText(w io.Writer, lg *logs.Log, t *resolver.Trace, ms []logs.Mismatch) {
	// Every line here quotes the log, whose bytes came from anywhere; the text
	// has no colour of xcvr's own, so escaping all of it is safe.
	w = termsafe.Writer{W: w}
	withLines := 0
	for _, p := range lg.Processes {
		if len(p.Lines) > 0 {
			withLines++
		}
	}
	fmt.Fprintf(w, "%s: %d lines, %d process(es), %d with transceiver lines\n", lg.Name, lg.Lines, len(lg.Processes), withLines)
	if len(lg.Processes) == 0 {
		fmt.Fprintln(w, "\nNo TensorRT-LLM transceiver lines found. Was the log level WARNING (set TLLM_LOG_LEVEL=INFO), or did start-up stop earlier?")
	}
	for _, p := range lg.Processes {
		fmt.Fprintf(w, "\n%s: %s\n", p.Source, observedSummary(p))
		for _, l := range p.Lines {
			lvl := l.Level
			if lvl == "" {
				lvl = "raised"
			}
			msg := strings.ReplaceAll(l.Message, "\n", "\n      ")
			fmt.Fprintf(w, "  %5d %-7s %s\n", l.N, lvl, msg)
		}
		if p.Error != "" && strings.Contains(p.Error, "\n") {
			fmt.Fprintf(w, "        %s\n", strings.ReplaceAll(p.Error, "\n", "\n        "))
		}
		for _, im := range p.Implications {
			fmt.Fprintf(w, "  → line %d: %s\n", im.Line, im.Text)
		}
	}
	if t == nil {
		fmt.Fprintln(w, "\nNo prediction (give --trtllm, --config, --model ... to compare).")
		return
	}
	fmt.Fprintf(w, "\nPredicted for TensorRT-LLM %s: %s\n", t.Inputs.Version.Name, report.OutcomeLine(t.Result))
	if len(ms) == 0 {
		fmt.Fprintln(w, "Every process agrees with the prediction.")
		return
	}
	fmt.Fprintf(w, "%d disagreement(s); the first one is marked ▶\n", len(ms))
	for i, m := range ms {
		mark := " "
		if i == 0 {
			mark = "▶"
		}
		where := m.Source
		if m.Line > 0 {
			where += fmt.Sprintf(" line %d", m.Line)
		}
		fmt.Fprintf(w, "%s %s: %s\n", mark, where, m.Message)
	}
}

func observedSummary(p *logs.Process) string {
	var parts []string
	if o := p.Outcome(); o != "" {
		parts = append(parts, string(o))
	} else {
		parts = append(parts, "outcome not shown")
	}
	if p.ResolvedSeen {
		parts = append(parts, "resolved 'auto' to "+p.Resolved.Repr()+" for "+p.ResolvedFor)
	}
	if p.Class != "" {
		c := p.Class
		if p.ClassInferred {
			c += " (inferred)"
		}
		parts = append(parts, c)
	}
	if p.Backend != "" {
		parts = append(parts, "backend "+p.Backend)
	}
	if p.Error != "" {
		parts = append(parts, "raised "+strings.SplitN(p.Error, "\n", 2)[0])
	}
	return strings.Join(parts, " · ")
}

// readLog parses a log file, or stdin for "-". Logs are streamed (they can be
// gigabytes), but a file that starts with binary data is refused.
func readLog(app *appEnv, file string) (*logs.Log, error) {
	var r io.Reader
	name := file
	if file == "-" {
		r, name = app.stdin, "stdin"
	} else {
		// Logs are streamed, so no size limit; but only a regular file, opened
		// without blocking (a FIFO is read through "-" instead).
		fh, err := guard.Open(file, guard.Limits{})
		if err != nil {
			if errors.Is(err, guard.ErrNotRegular) {
				err = fmt.Errorf("%w (to read a pipe, use: … | xcvr check-logs -)", err)
			}
			return nil, usageErr(err)
		}
		defer fh.Close()
		r = fh
	}
	br := bufio.NewReaderSize(r, 8192)
	// A UTF-8 BOM (a log saved by a Windows editor) is not part of the first line.
	if head, _ := br.Peek(len(guard.BOM)); string(head) == guard.BOM {
		_, _ = br.Discard(len(guard.BOM))
	}
	if head, _ := br.Peek(8192); bytes.IndexByte(head, 0) >= 0 {
		return nil, usageErr(fmt.Errorf("%s: refused: binary data (NUL byte) near the start; this is not a text log", name))
	}
	lg, err := logs.Parse(name, br)
	if err != nil {
		return nil, usageErr(err)
	}
	return lg, nil
}

// explorerExtras reads what the explorer shows beside the explored worker: the
// --log and, for --disagg without --role, the generation role.
func explorerExtras(cmd *cobra.Command, app *appEnv, flags *inputFlags) ([]ui.Role, *logs.Log, error) {
	var roles []ui.Role
	if flags.deploy.bothRoles() {
		flags.deploy.activeRole = deploy.RoleGeneration
		in, spec, _, err := flags.resolveInputs(cmd, app)
		flags.deploy.activeRole = deploy.RoleContext
		if err != nil {
			return nil, nil, err
		}
		roles = append(roles, ui.Role{Name: deploy.RoleGeneration, Source: flags.deploy.disagg, Spec: spec, Trace: resolver.Resolve(in)})
	}
	if flags.deploy.log == "" {
		return roles, nil, nil
	}
	lg, err := readLog(app, flags.deploy.log)
	return roles, lg, err
}

package cli

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/signal"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"sort"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/spf13/cobra"

	"xcvr/internal/deploy"
	"xcvr/internal/guard"
	"xcvr/internal/inputs"
	"xcvr/internal/logs"
	"xcvr/internal/report"
	"xcvr/internal/termsafe"
	"xcvr/models"
	"xcvr/resolver"
	"xcvr/ui"
)

// checkOpts are check-logs' own flags.
type checkOpts struct {
	output   string
	follow   bool
	failFast bool
	// always predicts even without input flags (the explorer's --log off a
	// terminal, whose inputs always have defaults).
	always bool
}

func newCheckLogsCmd(app *appEnv) *cobra.Command {
	var flags inputFlags
	var o checkOpts
	cmd := &cobra.Command{
		Use:   "check-logs FILE|DIR|GLOB|- ...",
		Short: "Read server logs: what each rank actually did, checked against the prediction",
		Long: `check-logs reads trtllm-serve logs (plain, srun- or mpirun-prefixed, with or
without timestamps and colour, ranks interleaved) and reports per process what
TensorRT-LLM did: the resolved runtime and class, fallback, backend and env-var
lines, KvCacheTransceiverV2, "cache_transceiver is disabled", and errors.

Give files, directories (read recursively: *.log, *.out, *.err and files without
an extension, e.g. slurm %j-%t.out sets, mpirun --output-filename trees, kubectl
logs dumps) or globs; they are read in parallel and reported together, each
process named by its file and rank. "-" reads stdin.

Given any input flag (--trtllm, --model, --backend, --config, --disagg --role,
--pid, ...), it also predicts and compares, for the version each log states
("TensorRT-LLM version: 1.3.0rc26") unless --trtllm is given. Every disagreement
is listed. Exit 0 when every process agrees with the prediction (or, without one,
when none failed), 1 otherwise, 2 on usage errors.

-f follows growing logs as tail -F does (rotation, truncation) and prints each
process's verdict as soon as its transceiver lines appear; --fail-fast exits 1
at the first disagreement.`,
		Example: `  xcvr check-logs ctx-0.log
  xcvr check-logs --model-dir /models/gpt-oss-120b --config gen.yaml logs/
  xcvr check-logs --trtllm 1.3.0rc26 'job-1234-*.out'
  xcvr check-logs -f --fail-fast --config gen.yaml gen-0.log gen-1.log
  srun ... 2>&1 | xcvr check-logs --disagg disagg.yaml --role generation -o json -`,
		Args: cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			return runCheckLogsWith(cmd, app, &flags, args, o)
		},
	}
	flags.register(cmd.Flags())
	flags.complete(cmd)
	cmd.Flags().StringVarP(&o.output, "output", "o", "text", "output format: text|json (with -f: one JSON object per line and verdict)")
	cmd.Flags().BoolVarP(&o.follow, "follow", "f", false, "follow growing logs (tail -F: rotation and truncation); stop with Ctrl-C")
	cmd.Flags().BoolVar(&o.failFast, "fail-fast", false, "exit 1 at the first disagreement with the prediction")
	return cmd
}

// predicting reports whether the user gave anything to predict from.
func (f *inputFlags) predicting(cmd *cobra.Command) bool {
	if f.deploy.any() {
		return true
	}
	for _, name := range []string{"trtllm", "model", "backend", "runtime", "timeout-ms", "loader", "pipelined", "env", "catalog", "pid", "install"} {
		if cmd.Flags().Changed(name) {
			return true
		}
	}
	return false
}

// predictor resolves the prediction each log is compared with: for the version
// the log shows unless the user named one.
type predictor struct {
	spec     inputs.Spec
	cat      *models.Catalog
	explicit bool
	base     resolver.Trace
	cache    map[string]*resolver.Trace
}

// prediction is the trace a log is checked against and why that version.
type prediction struct {
	trace *resolver.Trace
	why   string
}

func newPredictor(cmd *cobra.Command, app *appEnv, flags *inputFlags, always bool) (*predictor, error) {
	if !always && !flags.predicting(cmd) {
		return nil, nil
	}
	in, spec, cat, err := flags.resolveInputs(cmd, app)
	if err != nil {
		return nil, err
	}
	o := spec.Version.Origin
	return &predictor{spec: spec, cat: cat, explicit: !o.IsDefault() && o.Kind != resolver.OriginPreset,
		base: resolver.Resolve(in), cache: map[string]*resolver.Trace{}}, nil
}

func (p *predictor) forLog(lg *logs.Log) prediction {
	if p == nil {
		return prediction{}
	}
	if p.explicit {
		return prediction{&p.base, "--trtllm " + p.base.Inputs.Version.Name}
	}
	ov, ok := lg.Own()
	if !ok {
		return prediction{&p.base, "xcvr's default, the newest known release: the log states no version (give --trtllm)"}
	}
	if t, ok := p.cache[ov.Version.Name]; ok {
		return prediction{t, ov.Why}
	}
	s := p.spec
	s.Version = inputs.Value{Raw: ov.Version.Name, Origin: resolver.Origin{Kind: resolver.OriginFile, Detail: lg.Name + ":" + strconv.Itoa(ov.Line)}}
	in, err := inputs.Build(s, p.cat)
	if err != nil {
		return prediction{&p.base, "the log's version " + ov.Version.Name + " could not be used (" + err.Error() + ")"}
	}
	t := resolver.Resolve(in)
	if len(p.cache) < 64 {
		p.cache[ov.Version.Name] = &t
	}
	return prediction{&t, ov.Why}
}

// logInput is one log to read: a file, or stdin.
type logInput struct {
	path, name string
	stdin      bool
}

// isLogName is what a directory contributes: *.log, *.out, *.err and files
// without an extension (mpirun --output-filename writes rank.N/stdout).
func isLogName(name string) bool {
	switch filepath.Ext(name) {
	case ".log", ".out", ".err", "":
		return !strings.HasPrefix(name, ".")
	}
	return false
}

// expandLogArgs turns FILE|DIR|GLOB|- arguments into the logs to read, in the
// order given (a directory's files in lexical order), each once.
func expandLogArgs(args []string, follow bool) ([]logInput, error) {
	var out []logInput
	seen := map[string]bool{}
	add := func(path string) {
		if c := filepath.Clean(path); !seen[c] {
			seen[c] = true
			out = append(out, logInput{path: path, name: path})
		}
	}
	addPath := func(p string) error {
		st, err := os.Stat(p)
		if err != nil {
			return err
		}
		if !st.IsDir() {
			if !st.Mode().IsRegular() {
				_, err := openLog(p) // the error names what it is
				return err
			}
			add(p)
			return nil
		}
		n := len(out)
		err = filepath.WalkDir(p, func(path string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if !isLogName(d.Name()) {
				return nil
			}
			if d.Type().IsRegular() {
				add(path)
			} else if d.Type()&fs.ModeSymlink != 0 {
				// A link to a log is read; one to a directory is not walked
				// (no loops), and one to a FIFO or device is skipped.
				if st, err := os.Stat(path); err == nil && st.Mode().IsRegular() {
					add(path)
				}
			}
			return nil
		})
		if err != nil {
			return err
		}
		if len(out) == n {
			return fmt.Errorf("%s: no log files in it (*.log, *.out, *.err or files without an extension)", p)
		}
		return nil
	}
	for _, a := range args {
		switch {
		case a == "-":
			if follow {
				return nil, errors.New("-f follows files; stdin streams already: pipe into check-logs without -f")
			}
			if !seen["\x00stdin"] {
				seen["\x00stdin"] = true
				out = append(out, logInput{name: "stdin", stdin: true})
			}
		case strings.ContainsAny(a, "*?["):
			matches, err := filepath.Glob(a)
			if err != nil {
				return nil, fmt.Errorf("%s: %w", a, err)
			}
			if len(matches) == 0 {
				return nil, fmt.Errorf("%s: no file matches", a)
			}
			for _, m := range matches {
				if err := addPath(m); err != nil {
					return nil, err
				}
			}
		default:
			if err := addPath(a); err != nil {
				return nil, err
			}
		}
	}
	return out, nil
}

// parseInput reads one log whole, in bounded memory.
func parseInput(app *appEnv, in logInput) (*logs.Log, error) {
	if in.stdin {
		lg, err := logs.Parse("stdin", app.stdin)
		if err != nil {
			return nil, fmt.Errorf("stdin: %w", err)
		}
		return lg, nil
	}
	f, err := openLog(in.path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	lg, err := logs.Parse(in.name, f)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", in.name, err)
	}
	return lg, nil
}

// checkLogsMemoryLimit is the Go heap's soft limit while check-logs runs.
const checkLogsMemoryLimit = 40 << 20

// openLog opens a log through the guard every reader uses: a regular file
// only, opened without blocking. Logs are streamed, so there is no size limit.
func openLog(path string) (*os.File, error) {
	f, err := guard.Open(path, guard.Limits{})
	if errors.Is(err, guard.ErrNotRegular) {
		err = fmt.Errorf("%w (to read a pipe, use: … | xcvr check-logs -)", err)
	}
	return f, err
}

// maxKeptMismatches bounds the disagreements the JSON report holds until its
// end; the text report streams them all.
const maxKeptMismatches = 10000

func runCheckLogsWith(cmd *cobra.Command, app *appEnv, flags *inputFlags, args []string, o checkOpts) error {
	if err := checkOutput(o.output, "text", "json"); err != nil {
		return err
	}
	if flags.deploy.bothRoles() {
		return usageErr(errors.New("check-logs compares one worker's log: with --disagg, pass --role context or --role generation"))
	}
	// Logs of any size are read in bounded memory (at most a few chunks and a
	// capped set of findings are live); a soft limit keeps the garbage of the
	// streamed chunks from growing the heap past that, so RSS stays under 64 MiB.
	// A GOMEMLIMIT the user set wins, as it does over internal/crash's limit.
	if os.Getenv("GOMEMLIMIT") == "" && debug.SetMemoryLimit(-1) > checkLogsMemoryLimit {
		debug.SetMemoryLimit(checkLogsMemoryLimit)
	}
	pred, err := newPredictor(cmd, app, flags, o.always)
	if err != nil {
		return err
	}
	ins, err := expandLogArgs(args, o.follow)
	if err != nil {
		return usageErr(err)
	}
	if o.follow {
		return runFollow(cmd, app, pred, ins, o)
	}
	// One log: read it before printing anything, so that an unreadable log
	// leaves stdout empty (exit 2).
	if len(ins) == 1 {
		lg, err := parseInput(app, ins[0])
		if err != nil {
			return usageErr(err)
		}
		return reportLogs(app, pred, []logInput{ins[0]}, o, func(int) (*logs.Log, error) { return lg, nil })
	}
	next, stop := parallelParser(app, ins)
	defer stop()
	return reportLogs(app, pred, ins, o, next)
}

// parallelParser parses the logs a few at a time, ahead of the report, which
// takes them in order: at most window logs are held at once. stop lets the
// report end early (--fail-fast) without leaving the producer blocked.
func parallelParser(app *appEnv, ins []logInput) (next func(int) (*logs.Log, error), stop func()) {
	type result struct {
		lg  *logs.Log
		err error
	}
	window := max(2, runtime.GOMAXPROCS(0))
	slots := make(chan chan result, window)
	done := make(chan struct{})
	go func() {
		defer close(slots)
		for _, in := range ins {
			ch := make(chan result, 1)
			select {
			case slots <- ch:
			case <-done:
				return
			}
			go func(in logInput) {
				lg, err := parseInput(app, in)
				ch <- result{lg, err}
			}(in)
		}
	}()
	next = func(int) (*logs.Log, error) {
		r := <-<-slots
		return r.lg, r.err
	}
	return next, func() { close(done) }
}

// jobTally is what the report says at its end and the exit status.
type jobTally struct {
	files, processes, withLines, disagreements, failed, empty, skipped int
	predicted                                                          bool
}

// reportLogs prints the report, streaming: each log is printed and let go
// before the next one is taken.
func reportLogs(app *appEnv, pred *predictor, ins []logInput, o checkOpts, next func(int) (*logs.Log, error)) error {
	var tally jobTally
	tally.predicted = pred != nil
	var jw *jsonReport
	// Buffered, and flushed after each log: the report streams log by log
	// without a write per line.
	bw := bufio.NewWriterSize(app.stdout, 64<<10)
	defer bw.Flush()
	w := io.Writer(termsafe.Writer{W: bw})
	if o.output == "json" {
		// C1 controls and bidi characters from the log are written as \u
		// escapes: the same values, but never raw on a terminal.
		jw = newJSONReport(termsafe.JSONWriter{W: bw})
	}
	for i := range ins {
		if err := bw.Flush(); err != nil {
			return err
		}
		lg, err := next(i)
		if err != nil {
			// Other logs are still worth reading; the exit status says one was not.
			fmt.Fprintln(app.stderr, "xcvr: skipped: "+termsafe.Line(err.Error()))
			tally.skipped++
			continue
		}
		pr := pred.forLog(lg)
		var ms []logs.Mismatch
		if pr.trace != nil {
			ms = logs.Compare(lg, *pr.trace)
		}
		tally.add(lg, ms)
		if jw != nil {
			jw.add(lg, pr, ms)
		} else {
			writeCheckText(w, lg, pr, ms, len(ins) > 1)
		}
		if o.failFast && len(ms) > 0 {
			break
		}
	}
	if jw != nil {
		if err := jw.finish(); err != nil {
			return err
		}
	} else if len(ins) > 1 {
		tally.writeSummary(w)
	}
	switch {
	case tally.skipped > 0:
		return &exitError{code: exitUsage}
	case tally.predicted && tally.disagreements > 0:
		return refused()
	case !tally.predicted && (tally.failed > 0 || tally.empty > 0):
		return refused()
	}
	return nil
}

func (t *jobTally) add(lg *logs.Log, ms []logs.Mismatch) {
	t.files++
	t.processes += len(lg.Processes)
	for _, p := range lg.Processes {
		if len(p.Lines) > 0 {
			t.withLines++
		}
	}
	if lg.Failed() {
		t.failed++
	}
	if len(lg.Processes) == 0 {
		t.empty++
	}
	t.disagreements += len(ms)
}

func (t *jobTally) writeSummary(w io.Writer) {
	fmt.Fprintf(w, "\n══ %d logs, %d process(es), %d with transceiver lines", t.files, t.processes, t.withLines)
	if t.predicted {
		fmt.Fprintf(w, "; %d disagreement(s)", t.disagreements)
	} else if t.failed > 0 {
		fmt.Fprintf(w, "; %d log(s) with a start-up failure", t.failed)
	}
	fmt.Fprintln(w)
}

// writeCheckText prints what each process did, the prediction and every
// disagreement, first disagreement first. many prefixes processes with their file.
func writeCheckText(w io.Writer, lg *logs.Log, pr prediction, ms []logs.Mismatch, many bool) {
	withLines := 0
	for _, p := range lg.Processes {
		if len(p.Lines) > 0 {
			withLines++
		}
	}
	if many {
		fmt.Fprintln(w)
	}
	// A file's name is input (a directory holds what its writers named): one
	// line, escaped, so a name holding "\nrank 0: PYTHON" forges nothing.
	name := termsafe.Line(lg.Name)
	fmt.Fprintf(w, "%s: %d lines, %d process(es), %d with transceiver lines\n", name, lg.Lines, len(lg.Processes), withLines)
	if lg.ProcessesDropped > 0 {
		fmt.Fprintf(w, "  (more than %d processes: later ones are not reported)\n", len(lg.Processes))
	}
	if len(lg.Processes) == 0 {
		fmt.Fprintln(w, "\nNo TensorRT-LLM transceiver lines found. Was the log level WARNING (set TLLM_LOG_LEVEL=INFO), or did start-up stop earlier?")
	}
	who := func(src string) string {
		if many {
			return name + " · " + termsafe.Line(src)
		}
		return termsafe.Line(src)
	}
	for _, p := range lg.Processes {
		fmt.Fprintf(w, "\n%s: %s\n", who(p.Source), observedSummary(p))
		for _, l := range p.Lines {
			lvl := l.Level
			if lvl == "" {
				lvl = "raised"
			}
			fmt.Fprintf(w, "  %5d %-7s %s\n", l.N, lvl, termsafe.Line(l.Message))
		}
		if p.LinesDropped > 0 {
			fmt.Fprintf(w, "        (%d more recognised line(s) not shown: repeats, or past %d per process)\n", p.LinesDropped, len(p.Lines))
		}
		if p.Error != "" && strings.Contains(p.Error, "\n") {
			fmt.Fprintf(w, "        %s\n", strings.ReplaceAll(p.Error, "\n", "\n        "))
		}
		for _, im := range p.Implications {
			fmt.Fprintf(w, "  → line %d: %s\n", im.Line, termsafe.Line(im.Text))
		}
		if p.ImplicationsDropped > 0 {
			fmt.Fprintf(w, "  → and %d more\n", p.ImplicationsDropped)
		}
	}
	if pr.trace == nil {
		fmt.Fprintln(w, "\nNo prediction (give --trtllm, --config, --model ... to compare).")
		return
	}
	t := pr.trace
	fmt.Fprintf(w, "\nPredicted for TensorRT-LLM %s: %s\n", t.Inputs.Version.Name, report.OutcomeLine(t.Result))
	fmt.Fprintf(w, "  version: %s\n", termsafe.Line(pr.why))
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
		where := who(m.Source)
		if m.Line > 0 {
			where += fmt.Sprintf(" line %d", m.Line)
		}
		fmt.Fprintf(w, "%s %s: %s\n", mark, where, termsafe.Line(m.Message))
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
		parts = append(parts, "resolved 'auto' to "+p.Resolved.Repr()+" for "+termsafe.Line(p.ResolvedFor))
	}
	if p.Class != "" {
		c := p.Class
		if p.ClassInferred {
			c += " (inferred)"
		}
		parts = append(parts, c)
	}
	if p.Backend != "" {
		parts = append(parts, "backend "+termsafe.Line(p.Backend))
	}
	if p.Error != "" {
		parts = append(parts, "raised "+termsafe.Line(strings.SplitN(p.Error, "\n", 2)[0]))
	}
	return strings.Join(parts, " · ")
}

// jsonReport writes check-logs' JSON object as the logs come: the observed
// processes are streamed; the mismatches (at most maxKeptMismatches) follow.
type jsonReport struct {
	w           io.Writer
	n           int
	predicted   any
	predictions []predictionJSON
	mismatches  []logs.Mismatch
	dropped     int
	// predictionsDropped counts logs past maxKeptMismatches whose prediction
	// is not listed (a job of more than 10,000 files).
	predictionsDropped int
	err                error
}

type predictionJSON struct {
	File    string `json:"file"`
	TRTLLM  string `json:"trtllm"`
	Why     string `json:"why"`
	Outcome string `json:"outcome"`
}

func newJSONReport(w io.Writer) *jsonReport {
	r := &jsonReport{w: w, predictions: []predictionJSON{}, mismatches: []logs.Mismatch{}}
	r.write("{\n  \"observed\": [")
	return r
}

func (r *jsonReport) write(s string) {
	if r.err == nil {
		_, r.err = io.WriteString(r.w, s)
	}
}

func encodeJSON(v any, prefix string) string {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.SetIndent(prefix, "  ")
	_ = enc.Encode(v)
	return strings.TrimSuffix(b.String(), "\n")
}

func (r *jsonReport) add(lg *logs.Log, pr prediction, ms []logs.Mismatch) {
	rep := logs.JSON(lg, nil, nil)
	for _, p := range rep.Observed {
		if r.n > 0 {
			r.write(",")
		}
		r.n++
		r.write("\n    " + encodeJSON(p, "    "))
	}
	if pr.trace != nil {
		if r.predicted == nil {
			r.predicted = report.Explain(*pr.trace)
		}
		if len(r.predictions) < maxKeptMismatches {
			r.predictions = append(r.predictions, predictionJSON{File: lg.Name, TRTLLM: pr.trace.Inputs.Version.Name, Why: pr.why, Outcome: string(pr.trace.Result.Outcome)})
		} else {
			r.predictionsDropped++
		}
	}
	for _, m := range ms {
		if len(r.mismatches) >= maxKeptMismatches {
			r.dropped++
			continue
		}
		m.File = lg.Name
		r.mismatches = append(r.mismatches, m)
	}
}

func (r *jsonReport) finish() error {
	if r.n > 0 {
		r.write("\n  ")
	}
	r.write("],\n  \"predicted\": " + encodeJSON(r.predicted, "  "))
	r.write(",\n  \"predictions\": " + encodeJSON(r.predictions, "  "))
	if r.predictionsDropped > 0 {
		r.write(",\n  \"predictions_dropped\": " + strconv.Itoa(r.predictionsDropped))
	}
	r.write(",\n  \"mismatches\": " + encodeJSON(r.mismatches, "  "))
	r.write(",\n  \"mismatches_dropped\": " + strconv.Itoa(r.dropped) + "\n}\n")
	return r.err
}

// followInterval is how often -f looks for new lines.
var followInterval = 200 * time.Millisecond

// runFollow follows the logs until Ctrl-C (or the first disagreement with
// --fail-fast), printing each process's verdict when its transceiver lines
// appear and whenever it changes.
func runFollow(cmd *cobra.Command, app *appEnv, pred *predictor, ins []logInput, o checkOpts) error {
	ctx, stop := signal.NotifyContext(cmd.Context(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	fws := make([]*logs.Follower, len(ins))
	buf := make([]byte, 256<<10) // polled one at a time: one buffer for all
	for i, in := range ins {
		fws[i] = logs.NewFollower(in.path, in.name)
		fws[i].UseBuffer(buf)
		defer fws[i].Close()
	}
	w := io.Writer(termsafe.Writer{W: app.stdout})
	raw := io.Writer(termsafe.JSONWriter{W: app.stdout})
	last := map[string]string{}
	disagreed := false
	tick := time.NewTicker(followInterval)
	defer tick.Stop()
	for {
		for _, fw := range fws {
			grew, note, err := fw.Poll()
			if err != nil {
				return usageErr(err)
			}
			if note != logs.NoteNone && o.output == "text" {
				fmt.Fprintf(w, "%s: %s\n", termsafe.Line(fw.Name), note)
			}
			if prev := fw.Previous(); prev != nil {
				disagreed = printVerdicts(w, raw, prev, pred, last, o.output) || disagreed
				clearVerdicts(last, prev.Name)
			}
			if grew || note != logs.NoteNone {
				disagreed = printVerdicts(w, raw, fw.Log(), pred, last, o.output) || disagreed
			}
			if disagreed && o.failFast {
				return refused()
			}
		}
		select {
		case <-ctx.Done():
			if disagreed {
				return refused()
			}
			return nil
		case <-tick.C:
		}
	}
}

func clearVerdicts(last map[string]string, file string) {
	for k := range last {
		if strings.HasPrefix(k, file+"\x00") {
			delete(last, k)
		}
	}
}

// settled keeps the disagreements a growing log cannot take back: those on a
// line it printed, and, once the process shows its outcome, every other one
// (before that, a predicted line may simply not be written yet).
func settled(p *logs.Process, ms []logs.Mismatch) []logs.Mismatch {
	if p.Outcome() != "" {
		return ms
	}
	var out []logs.Mismatch
	for _, m := range ms {
		if m.Line > 0 || m.Kind == logs.KindBackend {
			out = append(out, m)
		}
	}
	return out
}

// printVerdicts prints the verdict of each process with transceiver lines whose
// verdict changed since last, and reports whether any process disagrees.
func printVerdicts(w, raw io.Writer, lg *logs.Log, pred *predictor, last map[string]string, output string) bool {
	pr := pred.forLog(lg)
	var all []logs.Mismatch
	if pr.trace != nil {
		all = logs.Compare(lg, *pr.trace)
	}
	bySource := map[string][]logs.Mismatch{}
	for _, m := range all {
		bySource[m.Source] = append(bySource[m.Source], m)
	}
	disagrees := false
	// Disagreements of no process (a version line without a rank prefix).
	known := map[string]bool{}
	for _, p := range lg.Processes {
		known[p.Source] = true
	}
	var orphans []logs.Mismatch
	for _, m := range all {
		// "No transceiver lines yet" is not settled while the log grows.
		if !known[m.Source] && m.Line > 0 {
			orphans = append(orphans, m)
		}
	}
	if len(orphans) > 0 {
		disagrees = true
		key := lg.Name + "\x00"
		if v := fmt.Sprint(orphans); last[key] != v {
			last[key] = v
			for _, m := range orphans {
				if output == "json" {
					fmt.Fprintln(raw, encodeJSON(map[string]any{"file": lg.Name, "source": nil, "agrees": false, "predicted_for": versionName(pr), "mismatches": []logs.Mismatch{m}}, ""))
				} else {
					fmt.Fprintf(w, "%s line %d: ✗ %s\n", termsafe.Line(lg.Name), m.Line, termsafe.Line(m.Message))
				}
			}
		}
	}
	for _, p := range lg.Processes {
		if len(p.Lines) == 0 {
			continue
		}
		ms := settled(p, bySource[p.Source])
		verdict := observedSummary(p)
		switch {
		case pr.trace == nil:
		case len(ms) == 0:
			verdict += " — ✓ agrees with the prediction for " + pr.trace.Inputs.Version.Name
		default:
			verdict += " — ✗ " + strconv.Itoa(len(ms)) + " disagreement(s) with the prediction for " + pr.trace.Inputs.Version.Name
			disagrees = true
		}
		key := lg.Name + "\x00" + p.Source
		if last[key] == verdict {
			continue
		}
		last[key] = verdict
		if output == "json" {
			if ms == nil {
				ms = []logs.Mismatch{}
			}
			fmt.Fprintln(raw, encodeJSON(map[string]any{"file": lg.Name, "source": p.Source, "outcome": string(p.Outcome()),
				"agrees": pr.trace != nil && len(ms) == 0, "predicted_for": versionName(pr), "mismatches": ms}, ""))
			continue
		}
		fmt.Fprintf(w, "%s · %s: %s\n", termsafe.Line(lg.Name), termsafe.Line(p.Source), verdict)
		sort.SliceStable(ms, func(i, j int) bool {
			a, b := ms[i].Line, ms[j].Line
			if (a == 0) != (b == 0) {
				return a != 0 // lines of the log first, in order; then what is missing
			}
			return a < b
		})
		for _, m := range ms {
			where := ""
			if m.Line > 0 {
				where = "line " + strconv.Itoa(m.Line) + ": "
			}
			fmt.Fprintf(w, "    ✗ %s%s\n", where, termsafe.Line(m.Message))
		}
	}
	return disagrees
}

func versionName(pr prediction) any {
	if pr.trace == nil {
		return nil
	}
	return pr.trace.Inputs.Version.Name
}

// withLogVersion sets the explored version to the one the log shows, unless
// --trtllm (or anything but xcvr's default) named one; the version row's
// origin is the log line, so the explorer says where the version came from.
func withLogVersion(spec inputs.Spec, lg *logs.Log) inputs.Spec {
	if o := spec.Version.Origin; !o.IsDefault() && o.Kind != resolver.OriginPreset {
		return spec
	}
	ov, ok := lg.Own()
	if !ok {
		return spec
	}
	detail := lg.Name + ":" + strconv.Itoa(ov.Line)
	if !ov.Stated {
		detail += " (inferred)"
	}
	spec.Version = inputs.Value{Raw: ov.Version.Name, Origin: resolver.Origin{Kind: resolver.OriginFile, Detail: detail}}
	return spec
}

// explorerExtras reads what the explorer shows beside the explored worker: the
// --log (followed while the explorer runs, when it is a regular file) and, for
// --disagg without --role, the generation role.
func explorerExtras(cmd *cobra.Command, app *appEnv, flags *inputFlags) ([]ui.Role, *logs.Log, *logs.Follower, error) {
	var roles []ui.Role
	if flags.deploy.bothRoles() {
		flags.deploy.activeRole = deploy.RoleGeneration
		in, spec, _, err := flags.resolveInputs(cmd, app)
		flags.deploy.activeRole = deploy.RoleContext
		if err != nil {
			return nil, nil, nil, err
		}
		roles = append(roles, ui.Role{Name: deploy.RoleGeneration, Source: flags.deploy.disagg, Spec: spec, Trace: resolver.Resolve(in)})
	}
	if flags.deploy.log == "" {
		return roles, nil, nil, nil
	}
	if flags.deploy.log == "-" {
		lg, err := parseInput(app, logInput{name: "stdin", stdin: true})
		if err != nil {
			return nil, nil, nil, usageErr(err)
		}
		return roles, lg, nil, nil
	}
	fw := logs.NewFollower(flags.deploy.log, flags.deploy.log)
	fw.FS = flags.deploy.files
	if _, _, err := fw.Poll(); err != nil {
		return nil, nil, nil, usageErr(err)
	}
	if _, err := flags.deploy.fs().Stat(flags.deploy.log); err != nil {
		return nil, nil, nil, usageErr(err)
	}
	return roles, fw.Log(), fw, nil
}

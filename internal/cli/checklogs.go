package cli

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/signal"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/spf13/cobra"

	"xcvr/internal/deploy"
	"xcvr/internal/guard"
	"xcvr/internal/inputs"
	"xcvr/internal/logs"
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
	// predicted is set once the inputs are read: a prediction is compared.
	predicted bool
	// flag names the flag that gave the one log (the explorer's --log off a
	// terminal), for its errors; "" for check-logs' own arguments.
	flag string
}

func newCheckLogsCmd(app *appEnv) *cobra.Command {
	var flags inputFlags
	var o checkOpts
	cmd := &cobra.Command{
		Use:   "check-logs FILE|DIR|GLOB|- ...",
		Short: "Read server logs: what each rank actually did, checked against the prediction",
		Long: `check-logs reads trtllm-serve logs and reports per process what
TensorRT-LLM did: the resolved runtime and class, fallback, backend and env-var
lines, KvCacheTransceiverV2, "cache_transceiver is disabled", the NIXL agent's
backend, start-up failures with their root cause, argument dumps (observed
inputs) and runtime findings (KV-transfer timeouts and failures, UCX errors,
buffer warnings, crashes after start-up: xcvr help logs lists every kind).

It reads every release's lines (1.3's "[TRT-LLM] [I] [_torch  ] [RANK 0]" too),
the C++ side's "[TensorRT-LLM][INFO]", srun, mpirun, kubectl --prefix, stern,
docker compose and Ray worker labels, timestamps, journalctl's lines, the kubelet's and
docker's log files on a node (/var/log/pods, docker's json-file logs), colour, and pasted, indented or condensed excerpts. Lines
printed before the rank is known belong to the process(es) that follow.

Give files, directories (read recursively: *.log, *.out, *.err and files without
an extension, e.g. slurm %j-%t.out sets, mpirun --output-filename trees, kubectl
logs dumps, /var/log/pods; rotated ones too, e.g. 0.log.20250101-120000.gz) or
globs; gzip files are read decompressed; they are read in parallel and reported together, each
process named by its file and rank. "-" reads stdin.

Given any input flag (--trtllm, --model, --backend, --config, --disagg --role,
--pid, ...), it also predicts and compares, for the version each log states
("TensorRT-LLM version: 1.3.0rc26") unless --trtllm is given. Every disagreement
is listed.

Exit 0 when every process agrees with the prediction (without one: none failed
and at least one shows its transceiver); 1 when one disagrees or failed, or no
process shows transceiver lines, or the orchestrator gave up waiting for its
workers; 2 for usage errors and unreadable input. Runtime findings, a crash
after start-up among them, do not change it.
Indentation never changes the verdict.

-f follows growing logs as tail -F does (rotation, truncation) and prints each
process's verdict as soon as its transceiver lines appear and whenever it
changes, and each kind of runtime finding when it first appears; a process
without its outcome yet is pending. Ctrl-C prints the verdict
a batch run of the same content gives and exits with its status (0 or 1);
--fail-fast exits 1 at the first disagreement or failure. With -o json, -f
prints one JSON object per line.`,
		Example: `  xcvr check-logs ctx-0.log
  xcvr check-logs --model-dir /models/gpt-oss-120b --config gen.yaml logs/
  xcvr check-logs --trtllm 1.3.0rc26 'job-1234-*.out'
  xcvr check-logs -f --fail-fast --config gen.yaml gen-0.log gen-1.log
  srun ... 2>&1 | xcvr check-logs --disagg disagg.yaml --role generation -o json -`,
		Args: needArgs(0, "the logs: files, directories, globs (or - for standard input)"),
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
	// mu guards cache: logs are judged by several workers at once.
	mu    sync.Mutex
	cache map[string]*resolver.Trace
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

func (p *predictor) forLog(lg *logs.Log) logs.Prediction { return p.predict(lg, true) }

// predict is forLog; cached false resolves the log's version afresh, with
// this log's line as its origin, as the first log of a version gets it.
func (p *predictor) predict(lg *logs.Log, cached bool) logs.Prediction {
	if p == nil {
		return logs.Prediction{}
	}
	if p.explicit {
		return logs.Prediction{Trace: &p.base, Why: "--trtllm " + p.base.Inputs.Version.Name}
	}
	ov, ok := lg.Own()
	if !ok && len(lg.Stated) > 0 {
		// Kept, not dropped: the log says which version it is, even when
		// xcvr cannot place it among the releases it knows.
		s := lg.Stated[0]
		return logs.Prediction{Trace: &p.base, Why: "the log states TensorRT-LLM " + s.Version + " (line " + strconv.Itoa(s.Line) +
			"), which xcvr cannot place among the releases it knows: predicted for xcvr's default, the newest known release (give --trtllm)"}
	}
	if !ok {
		return logs.Prediction{Trace: &p.base, Why: "xcvr's default, the newest known release: the log states no version (give --trtllm)"}
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if t, ok := p.cache[ov.Version.Name]; ok && cached {
		return logs.Prediction{Trace: t, Why: ov.Why}
	}
	s := p.spec
	s.Version = inputs.Value{Raw: ov.Version.Name, Origin: resolver.Origin{Kind: resolver.OriginFile, Detail: lg.Name + ":" + strconv.Itoa(ov.Line)}}
	in, err := inputs.Build(s, p.cat)
	if err != nil {
		return logs.Prediction{Trace: &p.base, Why: "the log's version " + ov.Version.Name + " could not be used (" + err.Error() + ")"}
	}
	t := resolver.Resolve(in)
	if _, ok := p.cache[ov.Version.Name]; !ok && len(p.cache) < 64 {
		p.cache[ov.Version.Name] = &t
	}
	return logs.Prediction{Trace: &t, Why: ov.Why}
}

// logInput is one log to read: a file, or stdin.
type logInput struct {
	path, name string
	stdin      bool
	// listed is true for a file a directory walk listed as a regular file:
	// the guard opens it without another stat (guard.OpenEntry).
	listed bool
}

// isLogName is what a directory contributes: *.log, *.out, *.err and files
// without an extension (mpirun --output-filename writes rank.N/stdout), also
// rotated (the kubelet's 0.log.20250101-120000, logrotate's app.log.1 and
// app.log-20250101) and gzipped (.gz: they are read decompressed).
func isLogName(name string) bool {
	if strings.HasPrefix(name, ".") {
		return false
	}
	name = strings.TrimSuffix(name, ".gz")
	ext := filepath.Ext(name)
	switch ext {
	case ".log", ".out", ".err", "":
		return true
	}
	// A rotated log keeps its own extension before the rotation's suffix (a
	// file without one, such as core.12345, is not taken for a log).
	if rotation(ext[1:]) {
		ext = filepath.Ext(strings.TrimSuffix(name, ext))
	} else if i := strings.IndexByte(ext, '-'); i > 0 && rotation(ext[i+1:]) {
		ext = ext[:i]
	}
	return ext == ".log" || ext == ".out" || ext == ".err"
}

// rotation reports whether s is a rotated log's suffix: a number or a date
// (digits and hyphens, starting with a digit).
func rotation(s string) bool {
	if s == "" || s[0] < '0' || s[0] > '9' {
		return false
	}
	for _, c := range []byte(s) {
		if (c < '0' || c > '9') && c != '-' {
			return false
		}
	}
	return true
}

// expandLogArgs turns FILE|DIR|GLOB|- arguments into the logs to read, in the
// order given (a directory's files in lexical order), each once.
func expandLogArgs(args []string, follow bool) ([]logInput, error) {
	var out []logInput
	seen := map[string]bool{}
	// One argument that is not a glob lists each file once (a walk never
	// names a path twice); several, or a glob's matches ("d*/../d0"), may
	// name one file twice.
	dedupe := len(args) != 1 || strings.ContainsAny(args[0], "*?[") && !exists(args[0])
	add := func(path string, listed bool) {
		if dedupe {
			c := filepath.Clean(path)
			if seen[c] {
				return
			}
			seen[c] = true
		}
		out = append(out, logInput{path: path, name: path, listed: listed})
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
			add(p, false)
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
				add(path, true)
			} else if d.Type()&fs.ModeSymlink != 0 {
				// A link to a log is read; one to a directory is not walked
				// (no loops), and one to a FIFO or device is skipped.
				if st, err := os.Stat(path); err == nil && st.Mode().IsRegular() {
					add(path, false)
				}
			}
			return nil
		})
		if err != nil {
			return err
		}
		if len(out) == n {
			return fmt.Errorf("%s: no log files in it (*.log, *.out, *.err or files without an extension, rotated or gzipped)", p)
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
		case strings.ContainsAny(a, "*?[") && !exists(a):
			// (A file that exists is read as named, as a shell leaves a
			// pattern matching nothing: ctx[0].log is a name, not a class.)
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

// exists reports whether path names something (a link counts as itself).
func exists(path string) bool {
	_, err := os.Lstat(path)
	return err == nil
}

// parseInput reads one log whole, in bounded memory.
func parseInput(app *appEnv, in logInput) (*logs.Log, error) {
	if in.stdin {
		app.hintStdin("a log")
		lg, err := logs.Parse("stdin", app.stdin)
		if err != nil {
			return nil, fmt.Errorf("stdin: %w", err)
		}
		return lg, nil
	}
	typ := fs.ModeIrregular // not listed: the guard stats it before the open
	if in.listed {
		typ = 0
	}
	f, st, err := guard.OpenEntry(in.path, typ, guard.Limits{})
	if err != nil {
		return nil, openErr(err)
	}
	defer f.Close()
	lg, err := logs.ParseFile(in.name, f, st.Size())
	if err != nil {
		return nil, fmt.Errorf("%s: %w", in.name, err)
	}
	return lg, nil
}

// entryOpener reads the logs a directory walk listed as regular files
// relative to their directory (guard.Listing): the kernel looks up one name,
// not the whole path, and no *os.File is made for a one-line log. It keeps
// the last directory open: a worker's logs are consecutive in the walk, so
// mostly of one directory. One per worker.
type entryOpener struct {
	dir string
	l   *guard.Listing // nil: the directory would not open; by path then
}

// parse is parseInput, relative to the entry's directory when it is listed.
func (d *entryOpener) parse(app *appEnv, in logInput) (*logs.Log, error) {
	if d == nil || !in.listed {
		return parseInput(app, in)
	}
	dir, name := ".", in.path
	if i := strings.LastIndexByte(in.path, filepath.Separator); i >= 0 {
		dir, name = in.path[:max(i, 1)], in.path[i+1:]
	}
	if dir != d.dir {
		d.close()
		d.dir = dir
		d.l, _ = guard.OpenListing(dir) // if it fails, each log says why
	}
	if d.l == nil {
		return parseInput(app, in)
	}
	e, err := d.l.Open(name, in.path, guard.Limits{})
	if err != nil {
		return nil, openErr(err)
	}
	var lg *logs.Log
	if e.Size() > logs.SmallLog {
		f := e.File() // mapped (logs.ParseFile)
		defer f.Close()
		lg, err = logs.ParseFile(in.name, f, e.Size())
	} else {
		defer e.Close()
		lg, err = logs.ParseSized(in.name, e, e.Size())
	}
	if err != nil {
		return nil, fmt.Errorf("%s: %w", in.name, err)
	}
	return lg, nil
}

func (d *entryOpener) close() {
	if d.l != nil {
		d.l.Close()
		d.l = nil
	}
}

// checkLogsMemoryLimit is the Go heap's soft limit while check-logs runs.
const checkLogsMemoryLimit = 40 << 20

// checkLogsGCPercent is the GOGC check-logs runs with (see runCheckLogsWith).
const checkLogsGCPercent = 400

// openLog opens a log through the guard every reader uses: a regular file
// only, opened without blocking. Logs are streamed, so there is no size limit.
func openLog(path string) (*os.File, error) {
	f, err := guard.Open(path, guard.Limits{})
	return f, openErr(err)
}

// openErr says how to read a pipe when the guard refused one.
func openErr(err error) error {
	if errors.Is(err, guard.ErrNotRegular) {
		err = fmt.Errorf("%w (to read a pipe, use: … | xcvr check-logs -)", err)
	}
	return err
}

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
	// Under that limit the heap may grow to five times what is live, not
	// twice: a directory's list of logs (4 MB for 50,000) is live all along
	// and every collection marks it again, which was a fifth of the CPU time
	// of a directory of small logs (28 collections instead of 7). The limit
	// still bounds the heap of a large log as before. A GOGC the user set wins.
	if os.Getenv("GOGC") == "" {
		debug.SetGCPercent(checkLogsGCPercent)
	}
	pred, err := newPredictor(cmd, app, flags, o.always)
	if err != nil {
		return err
	}
	o.predicted = pred != nil
	ins, err := expandLogArgs(args, o.follow)
	if err != nil {
		if o.flag != "" {
			err = guard.FlagError(o.flag, args[0], err)
		}
		return usageErr(err)
	}
	if o.follow {
		return runFollow(cmd, app, pred, ins, o)
	}
	// One log: read it before printing anything, so that an unreadable log
	// leaves stdout empty (exit 2).
	if len(ins) == 1 {
		c := checkInput(app, pred, ins[0], o, false, nil)
		if c.err != nil {
			if o.flag != "" {
				return usageErr(guard.FlagError(o.flag, args[0], c.err))
			}
			return usageErr(c.err)
		}
		return reportLogs(app, pred, ins, o, func(int) checked { return c })
	}
	next, stop := parallelChecker(app, pred, ins, o)
	defer stop()
	return reportLogs(app, pred, ins, o, next)
}

// checked is one log read and judged, with its text report (text output)
// rendered and escaped in text.
type checked struct {
	pr   logs.Prediction
	v    logs.Verdict
	text *bytes.Buffer
	err  error
}

// textBufs hold the rendered reports between a worker and the report.
var textBufs = sync.Pool{New: func() any { return new(bytes.Buffer) }}

// checkInput reads, judges and (for text output) renders one log: the work of
// one log that does not depend on the others, done by parallelChecker's
// workers in parallel.
func checkInput(app *appEnv, pred *predictor, in logInput, o checkOpts, many bool, d *entryOpener) checked {
	lg, err := d.parse(app, in)
	if err != nil {
		return checked{err: err}
	}
	c := checked{pr: pred.forLog(lg)}
	c.v = logs.Judge(lg, c.pr.Trace, true)
	if o.output != "json" {
		c.text = textBufs.Get().(*bytes.Buffer)
		c.text.Reset()
		logs.WriteText(termsafe.Writer{W: c.text}, c.v, c.pr, many)
	}
	return c
}

// parallelChecker checks the logs ahead of the report, which takes them in
// order: a fixed set of workers (a goroutine per log, and its stack growth,
// cost more than a one-line log costs to read) takes them in batches of
// consecutive logs, and at most window batches are held at once. A batch, not
// a log, is handed over: a channel send and receive per one-line log kept
// the scheduler busier than the reading did. stop lets the report end early
// (--fail-fast) without leaving the producer blocked.
func parallelChecker(app *appEnv, pred *predictor, ins []logInput, o checkOpts) (next func(int) checked, stop func()) {
	const batch = 64
	type job struct {
		ins  []logInput
		out  []checked
		done chan struct{}
	}
	workers := max(2, runtime.GOMAXPROCS(0))
	window := 2 * workers
	order := make(chan *job, window)
	jobs := make(chan *job, window)
	done := make(chan struct{})
	for w := 0; w < workers; w++ {
		go func() {
			var d entryOpener
			defer d.close()
			for j := range jobs {
				for i, in := range j.ins {
					select {
					case <-done: // the report ended: nothing more is taken
						close(j.done)
						return
					default:
					}
					j.out[i] = checkInput(app, pred, in, o, true, &d)
				}
				close(j.done)
			}
		}()
	}
	go func() {
		defer close(jobs)
		defer close(order)
		for len(ins) > 0 {
			n := min(batch, len(ins))
			j := &job{ins: ins[:n], out: make([]checked, n), done: make(chan struct{})}
			ins = ins[n:]
			for _, ch := range []chan *job{order, jobs} {
				select {
				case ch <- j:
				case <-done:
					return
				}
			}
		}
	}()
	var cur []checked
	next = func(int) checked {
		if len(cur) == 0 {
			j := <-order
			<-j.done
			cur = j.out
		}
		c := cur[0]
		cur = cur[1:]
		return c
	}
	return next, func() { close(done) }
}

// reportLogs prints the report, streaming: each log is judged, printed and
// let go before the next one is taken.
func reportLogs(app *appEnv, pred *predictor, ins []logInput, o checkOpts, next func(int) checked) error {
	// Buffered, and flushed after each log: the report streams log by log
	// without a write per line.
	bw := bufio.NewWriterSize(app.stdout, 64<<10)
	defer bw.Flush()
	w := io.Writer(termsafe.Writer{W: bw})
	var jw *logs.JSONReport
	var tally logs.Tally
	tally.Predicted = o.predicted
	if o.output == "json" {
		// C1 controls and bidi characters from the log are written as \u
		// escapes: the same values, but never raw on a terminal.
		jw = logs.NewJSONReport(termsafe.JSONWriter{W: bw})
	}
	// On a terminal the report is word-wrapped to its width (the terminal
	// itself cuts a long line mid-word); on a pipe it is not.
	wrapAt := 0
	if jw == nil {
		wrapAt = termWidth(app.stdout)
	}
	firstPredicted := true
	lastFlush := time.Now()
	for i := range ins {
		// The report streams: what is buffered is written at least every
		// 100 ms (and whenever 64 KB are), not once per log — a directory of
		// 50,000 small logs would cost 50,000 writes.
		if time.Since(lastFlush) > 100*time.Millisecond || len(ins) == 1 {
			if err := bw.Flush(); err != nil {
				return err
			}
			lastFlush = time.Now()
		}
		c := next(i)
		if c.err != nil {
			// Other logs are still worth reading; the exit status says one was not.
			fmt.Fprintln(app.stderr, "xcvr: skipped: "+termsafe.Line(c.err.Error()))
			tally.Skipped++
			if jw != nil {
				jw.Tally.Skipped++
			}
			continue
		}
		if jw != nil {
			pr := c.pr
			if firstPredicted && pr.Trace != nil {
				// The JSON's "predicted" is the first log's trace. The
				// workers share one trace per version, resolved for
				// whichever log of that version came first to them: the
				// first log in order gets its own, as a serial run gave it.
				pr, firstPredicted = pred.predict(c.v.Log, false), false
			}
			jw.Add(c.v, pr)
		} else {
			tally.Add(c.v)
			if wrapAt > 0 {
				bw.Write(wrapReport(c.text.Bytes(), wrapAt)) // escaped already (checkInput)
			} else {
				bw.Write(c.text.Bytes()) // escaped already (checkInput)
			}
			textBufs.Put(c.text)
		}
		if o.failFast && len(c.v.Mismatches) > 0 {
			break
		}
	}
	if jw != nil {
		if err := jw.Finish(); err != nil {
			return err
		}
		tally = jw.Tally
	} else if len(ins) > 1 {
		if wrapAt > 0 {
			var sb bytes.Buffer
			tally.WriteSummary(&sb)
			w.Write(wrapReport(sb.Bytes(), wrapAt))
		} else {
			tally.WriteSummary(w)
		}
	}
	switch tally.Exit() {
	case 2:
		return &exitError{code: exitUsage}
	case 1:
		return refused()
	}
	return nil
}

// followInterval is how often -f looks for new lines.
var followInterval = 200 * time.Millisecond

// runFollow follows the logs until Ctrl-C (or the first disagreement with
// --fail-fast), printing each process's verdict when its transceiver lines
// appear and whenever it changes; at Ctrl-C it prints the verdict a batch run
// of the same content gives, and exits with its status.
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
	// On a terminal the text is word-wrapped to its width, as the batch
	// report is; on a pipe, and as JSON, each line is whole, for grep.
	text := io.Writer(app.stdout)
	wrapped := o.output != "json" && termWidth(app.stdout) > 0
	if wrapped {
		text = &wrapLines{w: app.stdout, width: func() int { return termWidth(app.stdout) }}
	}
	out := io.Writer(termsafe.Writer{W: text})
	if o.output == "json" {
		out = termsafe.JSONWriter{W: app.stdout}
	}
	rep := logs.NewFollowReport(out, o.output == "json")
	tick := time.NewTicker(followInterval)
	defer tick.Stop()
	for {
		disagreed := false
		for _, fw := range fws {
			grew, note, err := fw.Poll()
			if err != nil {
				return usageErr(err)
			}
			rep.Note(fw.Name, note)
			if prev := fw.Previous(); prev != nil {
				rep.Update(logs.Judge(prev, pred.forLog(prev).Trace, false))
				rep.Forget(prev.Name)
			}
			if grew || note != logs.NoteNone {
				v := logs.Judge(fw.Log(), pred.forLog(fw.Log()).Trace, false)
				rep.Update(v)
				disagreed = disagreed || v.Status == logs.StatusDisagrees || v.Status == logs.StatusFailed
			}
		}
		if disagreed && o.failFast {
			return refused()
		}
		select {
		case <-ctx.Done():
			// The terminal sends Ctrl-C to the whole process group, and the
			// supervisor (internal/boot) forwards it too: a second SIGINT
			// after stop() would kill the process (exit 130). Keep them
			// caught from here on, by a channel nobody reads (Notify drops
			// what a full channel cannot take). Not signal.Ignore: it clears
			// the runtime's "wanted" bit after installing SIG_IGN, and a
			// signal whose handler is already running on another thread
			// then takes the default action and kills the process (seen: 1
			// in 40 runs under a Ctrl-C storm). The exit status is the
			// verdict's.
			signal.Notify(make(chan os.Signal, 1), os.Interrupt, syscall.SIGTERM)
			vs := make([]logs.Verdict, 0, len(fws))
			for _, fw := range fws {
				lg := fw.End() // a last line without its newline too, as a batch run reads it
				vs = append(vs, logs.Judge(lg, pred.forLog(lg).Trace, true))
			}
			if wrapped {
				// The terminal echoed Ctrl-C as "^C" where the next line
				// starts: back to its first column, or that line, wrapped
				// to the whole width, ran 2 cells past the edge ("built n"
				// / "o").
				io.WriteString(app.stdout, "\r")
			}
			if rep.End(vs) != 0 {
				return refused()
			}
			return nil
		case <-tick.C:
		}
	}
}

// withLogVersion sets the explored version to the one the log shows, unless
// --trtllm (or anything but xcvr's default) named one (logs.WithVersion).
func withLogVersion(spec inputs.Spec, lg *logs.Log) inputs.Spec { return logs.WithVersion(spec, lg) }

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
		return nil, nil, nil, usageErr(guard.FlagError("--log", flags.deploy.log, err))
	}
	if _, err := flags.deploy.fs().Stat(flags.deploy.log); err != nil {
		return nil, nil, nil, usageErr(guard.FlagError("--log", flags.deploy.log, err))
	}
	return roles, fw.Log(), fw, nil
}

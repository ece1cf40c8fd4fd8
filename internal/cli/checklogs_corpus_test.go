package cli

import (
	"bytes"
	"compress/gzip"
	"context"
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/ansi"
	"github.com/spf13/cobra"

	"xcvr/internal/logs"
	"xcvr/internal/termsafe"
	"xcvr/ui"
)

// TestOneVerdictOverTheCorpus (issue #23 item 4, "One verdict"): every log
// under internal/logs/testdata (real/ included, and shapes/: one log, written
// by us, of each reader added late: the orchestrator sharing its workers'
// stream, Ray's deduplication marks, two transceivers under one key, Dynamo
// JSONL records of several lines behind kubectl's prefix, stern's bare lines
// with namespaces, tags without a level, the transfer coordinator's
// findings; the fuzz corpus holds Go's fuzz-input files, not logs), as it is, indented by four blanks, gzipped,
// without its last newline and with CRLF line ends, gets from every reader
// the same outcome, transceiver, failure and findings per process, and the
// same verdict and exit status:
//
//   - batch, through the real command: check-logs FILE and -o json, and
//     xcvr --log FILE off a terminal (check-logs against the explorer's
//     prediction);
//   - -f and -f -o json, through the real command, run over the whole
//     content to its end (Ctrl-C: the command's context is done before it
//     starts, so it polls once, reads the file to its end and stops);
//   - the explorer's --log (explorerOptions, as xcvr and xcvr tui build it,
//     and the model's verdict), followed and read whole (--log -);
//   - --accessible --log FILE's log summary, through the real command;
//   - a follower that reads the log as a server writes it, each line in two
//     writes, polled after each, at its end (checkGrowing);
//   - check-logs -o json of each variant's directory (each file's
//     processes as that file alone reads), and -f -o json of it to its end
//     (the job's verdict, exit and counts as the batch run's).
//
// The one difference by design (xcvr help logs, "One verdict"): while a log
// is followed (-f's lines before its end, the explorer's --log of a file) a
// process without its outcome is pending and only disagreements on lines it
// printed count; at the end (batch, -f's end, --accessible, --log -) it is
// not shown and they all count. So the followed verdicts are compared with
// the batch-read log judged as followed (logs.Judge(…, false)), and that is
// checked to differ from the batch verdict in exactly those processes.
func TestOneVerdictOverTheCorpus(t *testing.T) {
	old := followInterval
	followInterval = time.Hour // -f's tick never comes: one poll, then its end
	defer func() { followInterval = old }()
	var corpus []string
	root := "../logs/testdata"
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && d.Name() == "fuzz" {
			return filepath.SkipDir
		}
		if !d.IsDir() {
			corpus = append(corpus, path)
		}
		return nil
	})
	if err != nil || len(corpus) < 50 {
		t.Fatalf("the corpus: %d files, %v", len(corpus), err)
	}
	tmp := t.TempDir()
	each := map[string]corpusDigest{} // by path: what each file reads as, alone
	for _, src := range corpus {
		data, err := os.ReadFile(src)
		if err != nil {
			t.Fatal(err)
		}
		rel, _ := filepath.Rel(root, src)
		var base *corpusDigest
		for _, variant := range []string{"as is", "indented", "gzip", "no final newline", "crlf"} {
			content := data
			switch variant {
			case "indented":
				content = indentLines(data, "    ")
			case "crlf":
				content = bytes.ReplaceAll(data, []byte("\n"), []byte("\r\n"))
			case "gzip":
				var b bytes.Buffer
				zw := gzip.NewWriter(&b)
				zw.Write(data)
				zw.Close()
				content = b.Bytes()
			case "no final newline":
				content = bytes.TrimRight(data, "\n")
			}
			// The same base name in each variant's directory: a name can
			// carry a rank (a Slurm %t file).
			path := filepath.Join(tmp, strings.ReplaceAll(variant, " ", "-"), rel)
			writeLog(t, path, string(content))
			what := rel + " (" + variant + ")"
			// A log without '\n' (its lines end with '\r' alone) is its own
			// variant without a final newline, and waits for none.
			d := checkOneVerdict(t, what, path, content, variant == "no final newline" && !bytes.Equal(content, data))
			each[path] = d
			if variant != "gzip" {
				checkGrowing(t, what, filepath.Join(tmp, "growing", strings.ReplaceAll(variant, " ", "-"), rel), content, d)
			}
			if base == nil {
				base = &d
			} else if got, want := d.String(), base.String(); got != want {
				t.Errorf("%s: reads otherwise than as is:\n%s\nas is:\n%s", what, got, want)
			}
		}
	}
	// A job's directory is read otherwise (in parallel, a small log in
	// one read, relative to its directory): each file's processes read as
	// that file alone does.
	for _, variant := range []string{"as is", "indented", "gzip", "no final newline", "crlf"} {
		dir := filepath.Join(tmp, strings.ReplaceAll(variant, " ", "-"))
		out, errOut, code := run(t, nil, "check-logs", "--clean-env", "-o", "json", dir)
		fout, ferr, fcode := runToEnd(t, "check-logs", "--clean-env", "-f", "-o", "json", dir)
		var job struct {
			Observed []struct {
				File string
				jsonProc
			}
			Verdict          string
			Exit, Processes  int
			ProcessesFailed  int `json:"processes_failed"`
			ProcessesCrashed int `json:"processes_crashed"`
		}
		if err := json.Unmarshal([]byte(out), &job); err != nil {
			t.Fatalf("check-logs -o json %s: %v\n%s", dir, err, errOut)
		}
		// -f of the directory, to its end: the job's verdict and counts.
		var end struct {
			Verdict          string
			Exit, Processes  int
			ProcessesFailed  int `json:"processes_failed"`
			ProcessesCrashed int `json:"processes_crashed"`
		}
		lines := strings.Split(strings.TrimSpace(fout), "\n")
		if err := json.Unmarshal([]byte(lines[len(lines)-1]), &end); err != nil {
			t.Fatalf("check-logs -f -o json %s: %v\n%s", dir, err, ferr)
		}
		if end.Processes == 0 || code != job.Exit || fcode != job.Exit || end.Verdict != job.Verdict || end.Exit != job.Exit || end.Processes != job.Processes ||
			end.ProcessesFailed != job.ProcessesFailed || end.ProcessesCrashed != job.ProcessesCrashed {
			t.Errorf("%s: check-logs -f -o json of the directory ends %+v (exit %d); a batch run %q, exit %d (JSON %d), %d processes, %d failed, %d crashed",
				variant, end, fcode, job.Verdict, code, job.Exit, job.Processes, job.ProcessesFailed, job.ProcessesCrashed)
		}
		got := map[string][]string{}
		for _, p := range job.Observed {
			got[p.File] = append(got[p.File], p.digest())
		}
		for path, d := range each {
			if strings.HasPrefix(path, dir+string(filepath.Separator)) {
				if g, w := strings.Join(got[path], "\n"), strings.Join(d.procs, "\n"); g != w {
					t.Errorf("%s in its directory (%s):\n%s\nalone:\n%s", path, variant, g, w)
				}
			}
		}
	}
}

// corpusDigest is what the test compares across variants: per process its
// outcome, transceiver, failure and findings (kind and count) with its batch
// status, and the log's verdict and exit status.
type corpusDigest struct {
	procs   []string
	verdict string
	exit    int
}

func (d corpusDigest) String() string {
	return strings.Join(d.procs, "\n") + fmt.Sprintf("\nverdict %q, exit %d", d.verdict, d.exit)
}

// procDigest is one process as every reader must see it.
func procDigest(p *logs.Process, st logs.Status) string {
	fs := make([]string, 0, len(p.Findings))
	for _, f := range p.Findings {
		fs = append(fs, fmt.Sprintf("%s×%d", f.Kind, f.Count))
	}
	return fmt.Sprintf("%s: outcome %q status %q class %q backend %q error %q cause %q findings %v",
		p.Source, p.Outcome(), st, p.Class, p.Backend, p.Error, p.Cause, fs)
}

// verdictProcs is v's processes as procDigest gives them, the orchestrator's
// own among them (its JSON status is "orchestrator"), in the log's order.
func verdictProcs(v logs.Verdict) []string {
	st := map[*logs.Process]logs.Status{}
	for _, pv := range v.Processes {
		st[pv.Process] = pv.Status
	}
	var out []string
	for _, p := range v.Log.Processes {
		s := st[p]
		if s == "" && v.Log.OrchestratorOwn(p) {
			s = logs.StatusOrchestrator
		}
		out = append(out, procDigest(p, s))
	}
	return out
}

// jsonProc is a process of check-logs -o json (and -f -o json's lines).
type jsonProc struct {
	Source   string
	Outcome  *string
	Status   string
	Class    *string `json:"transceiver_class"`
	Backend  *string `json:"effective_backend"`
	Error    *string
	Cause    *string
	Findings []struct {
		Kind  string
		Count int
	}
}

func (j jsonProc) digest() string {
	s := func(p *string) string {
		if p == nil {
			return ""
		}
		return *p
	}
	fs := make([]string, 0, len(j.Findings))
	for _, f := range j.Findings {
		fs = append(fs, fmt.Sprintf("%s×%d", f.Kind, f.Count))
	}
	return fmt.Sprintf("%s: outcome %q status %q class %q backend %q error %q cause %q findings %v",
		j.Source, s(j.Outcome), j.Status, s(j.Class), s(j.Backend), s(j.Error), s(j.Cause), fs)
}

// runToEnd runs the real command with its context already done: check-logs -f
// polls once, reading the whole file, then ends as at Ctrl-C.
func runToEnd(t *testing.T, args ...string) (string, string, int) {
	t.Helper()
	var out, errb bytes.Buffer
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	app := &appEnv{stdin: strings.NewReader(""), stdout: &out, stderr: &errb, ctx: ctx}
	code := execute(newRootFor(app, args), app, args)
	return out.String(), errb.String(), code
}

// explorerModel builds the explorer as xcvr and xcvr tui do (their flags,
// explorerOptions), without a terminal.
func explorerModel(t *testing.T, stdin []byte, args ...string) ui.Model {
	t.Helper()
	var out, errb bytes.Buffer
	app := &appEnv{stdin: bytes.NewReader(stdin), stdout: &out, stderr: &errb, ctx: context.Background()}
	var flags inputFlags
	var opts ui.Options
	cmd := &cobra.Command{Use: "xcvr", Args: cobra.NoArgs, SilenceUsage: true, SilenceErrors: true,
		RunE: func(cmd *cobra.Command, _ []string) (err error) {
			opts, err = explorerOptions(cmd, app, &flags, "never")
			return err
		}}
	flags.register(cmd.Flags())
	flags.deploy.registerExplorer(cmd.Flags())
	cmd.SetArgs(args)
	if err := cmd.ExecuteContext(app.ctx); err != nil {
		t.Fatalf("%v: %v\n%s", args, err, errb.String())
	}
	t.Cleanup(func() {
		if opts.LogFollow != nil {
			opts.LogFollow.Close()
		}
	})
	opts.Width, opts.Height = 120, 40
	return ui.New(opts)
}

// checkOneVerdict drives every reader over the log at path (content its
// bytes) and returns the batch digest.
func checkOneVerdict(t *testing.T, what, path string, content []byte, partial bool) corpusDigest {
	t.Helper()
	name := path // each reader names the log as it was given
	// The batch-read log, as check-logs reads a file (parseInput).
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	st, _ := f.Stat()
	lg, err := logs.ParseFile(name, f, st.Size())
	f.Close()
	if err != nil {
		t.Fatal(err)
	}
	errorf := func(format string, a ...any) {
		t.Helper()
		t.Errorf(what+": "+format, a...)
	}

	// Batch without a prediction: -o json is the reference.
	out, errOut, code := run(t, nil, "check-logs", "--clean-env", "-o", "json", path)
	var batch struct {
		Observed  []jsonProc
		Verdict   string
		Exit      int
		Processes int
	}
	if err := json.Unmarshal([]byte(out), &batch); err != nil {
		t.Fatalf("%s: check-logs -o json: %v\n%s%s", what, err, out, errOut)
	}
	d := corpusDigest{verdict: batch.Verdict, exit: batch.Exit}
	for _, p := range batch.Observed {
		d.procs = append(d.procs, p.digest())
	}
	if code != batch.Exit {
		errorf("check-logs -o json exits %d, its JSON says %d", code, batch.Exit)
	}
	v := logs.Judge(lg, nil, true)
	var tally logs.Tally
	tally.Add(v)
	if got, want := strings.Join(verdictProcs(v), "\n"), strings.Join(d.procs, "\n"); got != want || string(tally.Worst) != batch.Verdict || tally.Exit() != batch.Exit {
		errorf("the file read as check-logs reads it (logs.ParseFile, logs.Judge):\n%s\nverdict %q exit %d\ncheck-logs -o json:\n%s\nverdict %q exit %d",
			got, tally.Worst, tally.Exit(), want, batch.Verdict, batch.Exit)
	}
	// Batch text: the same processes, findings, summary and exit status.
	out, errOut, code = run(t, nil, "check-logs", "--clean-env", path)
	if code != batch.Exit {
		errorf("check-logs exits %d, -o json %d\n%s%s", code, batch.Exit, out, errOut)
	}
	checkBatchText(errorf, "check-logs", out, v)

	// -f over the whole content, to its end: text, then JSON. While it
	// follows, a last line without its newline waits for it (its writer
	// may not have written the rest yet); at its end it is read, as a batch
	// run reads it. So -f's lines before its end, and the explorer's
	// followed --log, are the log without that line.
	followed := lg
	if partial {
		text := string(content)
		if followed, err = logs.Parse(name, strings.NewReader(text[:strings.LastIndexByte(text, '\n')+1])); err != nil {
			t.Fatal(err)
		}
	}
	checkFollowDifference(errorf, v, logs.Judge(lg, nil, false))
	follow := logs.Judge(followed, nil, false)
	out, errOut, code = runToEnd(t, "check-logs", "--clean-env", "-f", path)
	if code != batch.Exit {
		errorf("check-logs -f exits %d at its end, a batch run %d\n%s%s", code, batch.Exit, out, errOut)
	}
	checkFollowText(errorf, out, name, follow, v)
	out, errOut, code = runToEnd(t, "check-logs", "--clean-env", "-f", "-o", "json", path)
	if code != batch.Exit {
		errorf("check-logs -f -o json exits %d at its end, a batch run %d\n%s%s", code, batch.Exit, out, errOut)
	}
	checkFollowJSON(errorf, out, follow, batch.Verdict, batch.Exit)

	// The explorer's --log, followed (a file) and read whole (--log -),
	// against the explorer's prediction: the defaults for the log's version.
	m := explorerModel(t, nil, "--clean-env", "--log", path)
	tr := m.Trace()
	ov := m.Observed()
	if ov.Final || ov.Log == nil {
		errorf("the explorer does not follow its --log FILE (final %v)", ov.Final)
	} else {
		want := logs.Judge(followed, &tr, false)
		checkFollowDifference(errorf, logs.Judge(lg, &tr, true), logs.Judge(lg, &tr, false))
		if got, w := strings.Join(verdictProcs(ov), "\n"), strings.Join(verdictProcs(want), "\n"); got != w || ov.Status != want.Status {
			errorf("the explorer's --log (followed) says %q:\n%s\ncheck-logs -f on the same content, %q:\n%s", ov.Status, got, want.Status, w)
		}
		if frame := ansi.Strip(m.View().Content); !strings.Contains(frame, ov.Label()) {
			errorf("the explorer's frame lacks its verdict %q:\n%s", ov.Label(), frame)
		}
	}
	{
		ms := explorerModel(t, content, "--clean-env", "--log", "-")
		trs := ms.Trace()
		want := logs.Judge(lg, &trs, true)
		if got, w := strings.Join(verdictProcs(ms.Observed()), "\n"), strings.Join(verdictProcs(want), "\n"); got != w || ms.Observed().Status != want.Status {
			errorf("the explorer's --log - says %q:\n%s\ncheck-logs on the same content, %q:\n%s", ms.Observed().Status, got, want.Status, w)
		}
	}

	// The explorer's prediction in a batch run: xcvr --log FILE off a
	// terminal is check-logs against it.
	pv := logs.Judge(lg, &tr, true)
	var pt logs.Tally
	pt.Add(pv)
	out, errOut, code = run(t, nil, "--clean-env", "--log", path)
	if code != pt.Exit() {
		errorf("xcvr --log FILE off a terminal exits %d, want %d (%s)\n%s%s", code, pt.Exit(), pv.Status, out, errOut)
	}
	checkBatchText(errorf, "xcvr --log FILE", out, pv)
	// --accessible --log FILE: the same verdict and report, after the
	// explain text.
	out, errOut, code = run(t, nil, "--accessible", "--clean-env", "--log", path)
	if code != 0 {
		errorf("--accessible --log exits %d: %s", code, errOut)
	}
	if want := "Observed in " + termsafe.Line(name) + ": " + pv.Label() + ". " + termsafe.Line(pv.Summary()); !strings.Contains(out, want) {
		errorf("--accessible --log lacks %q:\n%s", want, out)
	}
	checkBatchText(errorf, "--accessible --log", out, pv)
	return d
}

// checkBatchText checks that a batch report (check-logs' text, the
// accessible mode's) names each process with what v says of it.
func checkBatchText(errorf func(string, ...any), who, out string, v logs.Verdict) {
	for _, pv := range v.Processes {
		p := pv.Process
		if line := "\n" + termsafe.Line(p.Source) + ": " + termsafe.Line(logs.ObservedSummary(p)) + "\n"; !strings.Contains(out, line) {
			errorf("%s lacks %q:\n%s", who, line, out)
		}
		for _, f := range p.Findings {
			if line := fmt.Sprintf("  ! %d× %s, first at line %d: ", f.Count, logs.FindingWords(f.Kind), f.Line); !strings.Contains(out, line) {
				errorf("%s lacks %q:\n%s", who, line, out)
			}
		}
	}
	if len(v.Processes) > 0 || v.Log.Orchestrator > 0 {
		if s := termsafe.Line(v.Summary()); !strings.Contains(out, s) && !(v.Trace != nil && len(v.Mismatches) > 0) {
			errorf("%s lacks the verdict %q:\n%s", who, s, out)
		}
	}
}

// checkFollowDifference checks the one difference by design between a log
// followed and read to its end: only processes without an outcome differ,
// pending while followed.
func checkFollowDifference(errorf func(string, ...any), end, follow logs.Verdict) {
	if len(end.Processes) != len(follow.Processes) {
		errorf("%d processes followed, %d at the end", len(follow.Processes), len(end.Processes))
		return
	}
	for i, pv := range end.Processes {
		fv := follow.Processes[i]
		if pv.Status == fv.Status {
			continue
		}
		if fv.Status != logs.StatusPending || pv.Process.Outcome() != "" {
			errorf("%s: %q followed, %q at the end: only a process without its outcome may differ, pending while followed", pv.Process.Source, fv.Status, pv.Status)
		}
	}
}

// checkFollowText checks check-logs -f's text: each process's last line is
// what the followed verdict says of it, each kind of finding is named with
// its count, and the end is the batch verdict.
func checkFollowText(errorf func(string, ...any), out, name string, follow, end logs.Verdict) {
	lines := strings.Split(out, "\n")
	for _, pv := range follow.Processes {
		p := pv.Process
		prefix := termsafe.Line(name) + " · " + termsafe.Line(p.Source) + ": "
		last := ""
		for _, l := range lines {
			if strings.HasPrefix(l, prefix) {
				last = l
			}
		}
		if !shows(p) {
			if last != "" {
				errorf("-f prints %q for a process that shows nothing", last)
			}
			continue
		}
		// A pending process has no outcome yet, not "outcome not shown".
		said := logs.ObservedSummary(p)
		if pv.Status == logs.StatusPending {
			said = strings.Replace(said, "outcome not shown", "no outcome yet", 1)
		}
		if want := prefix + termsafe.Line(said+follow.ProcessText(pv)); last != want {
			errorf("-f's last line for %s:\n  %q\nwant\n  %q\n%s", p.Source, last, want, out)
		}
		for _, f := range p.Findings {
			if l := fmt.Sprintf("    ! %d× %s, first at line %d: ", f.Count, logs.FindingWords(f.Kind), f.Line); !strings.Contains(out, l) {
				errorf("-f lacks %q:\n%s", l, out)
			}
		}
	}
	var tally logs.Tally
	tally.Add(end)
	if want := termsafe.Line(name) + ": " + termsafe.Line(end.Summary()) + "\n"; !strings.Contains(out, want) {
		errorf("-f's end lacks the batch verdict %q:\n%s", want, out)
	}
	if want := fmt.Sprintf("; exit %d\n", tally.Exit()); !strings.HasSuffix(out, want) {
		errorf("-f's end does not say %q:\n%s", want, out)
	}
}

// checkFollowJSON checks check-logs -f -o json: one JSON object per line; the
// last object of each process is what the followed verdict says of it; the
// end event is the batch verdict and exit status.
func checkFollowJSON(errorf func(string, ...any), out string, follow logs.Verdict, verdict string, exit int) {
	last := map[string]jsonProc{}
	var order []string
	var end struct {
		Event   string
		Verdict string
		Exit    int
	}
	for _, l := range strings.Split(strings.TrimSuffix(out, "\n"), "\n") {
		var raw map[string]json.RawMessage
		if err := json.Unmarshal([]byte(l), &raw); err != nil {
			errorf("-f -o json: not one JSON object per line: %q: %v", l, err)
			return
		}
		if _, ok := raw["event"]; ok {
			json.Unmarshal([]byte(l), &end)
			continue
		}
		var p jsonProc
		json.Unmarshal([]byte(l), &p)
		if p.Source == "" {
			continue // the log's own: the orchestrator, a disagreement of no process
		}
		if _, ok := last[p.Source]; !ok {
			order = append(order, p.Source)
		}
		last[p.Source] = p
	}
	if end.Event != "end" || end.Verdict != verdict || end.Exit != exit {
		errorf("-f -o json's end: %+v, a batch run: verdict %q exit %d\n%s", end, verdict, exit, out)
	}
	var want []string
	for _, pv := range follow.Processes {
		if shows(pv.Process) {
			want = append(want, procDigest(pv.Process, pv.Status))
		}
	}
	var got []string
	for _, s := range order {
		j := last[s]
		// -f's lines carry no class, backend, error or cause: those of
		// the same process judged as followed, for the comparison.
		for _, pv := range follow.Processes {
			if p := pv.Process; p.Source == s {
				j.Class, j.Backend, j.Error, j.Cause = &p.Class, &p.Backend, &p.Error, &p.Cause
			}
		}
		got = append(got, j.digest())
	}
	sort.Strings(got)
	sort.Strings(want)
	if g, w := strings.Join(got, "\n"), strings.Join(want, "\n"); g != w {
		errorf("-f -o json, the last object of each process:\n%s\nwant (the log judged as followed):\n%s", g, w)
	}
}

// shows is what makes check-logs -f print a process (logs' Process.shows).
func shows(p *logs.Process) bool {
	return len(p.Lines) > 0 || p.LinesDropped > 0 || p.Error != "" || p.Outcome() != "" || p.Backend != "" || len(p.Findings) > 0
}

// indentLines puts indent before every line of data, blank ones too.
func indentLines(data []byte, indent string) []byte {
	text := strings.TrimSuffix(string(data), "\n")
	out := indent + strings.ReplaceAll(text, "\n", "\n"+indent)
	if strings.HasSuffix(string(data), "\n") {
		out += "\n"
	}
	return []byte(out)
}

// checkGrowing follows the log as a server writes it: each line appended in
// two writes, its first half and the rest, polled after each, as -f and the
// explorer poll a live log. At its end (Follower.End, -f's Ctrl-C) it reads
// as the whole file does in a batch run.
func checkGrowing(t *testing.T, what, path string, content []byte, want corpusDigest) {
	t.Helper()
	writeLog(t, path, "")
	fw := logs.NewFollower(path, path)
	defer fw.Close()
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND, 0o644)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	for rest := content; len(rest) > 0; {
		line := rest
		if i := bytes.IndexByte(rest, '\n'); i >= 0 {
			line = rest[:i+1]
		}
		rest = rest[len(line):]
		for _, piece := range [][]byte{line[:len(line)/2], line[len(line)/2:]} {
			if _, err := f.Write(piece); err != nil {
				t.Fatal(err)
			}
			if _, _, err := fw.Poll(); err != nil {
				t.Fatal(err)
			}
		}
	}
	v := logs.Judge(fw.End(), nil, true)
	var tally logs.Tally
	tally.Add(v)
	got := corpusDigest{procs: verdictProcs(v), verdict: string(tally.Worst), exit: tally.Exit()}
	if got.String() != want.String() {
		t.Errorf("%s, followed as it grows: at its end\n%s\na batch run:\n%s", what, got, want)
	}
}

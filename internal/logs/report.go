package logs

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"strconv"
	"strings"
	"unicode/utf8"

	"xcvr/internal/report"
	"xcvr/internal/termsafe"
	"xcvr/resolver"
)

// check-logs' reports: the text and JSON a batch run prints, the lines -f
// prints as verdicts change, and the exit status they share. internal/cli only
// parses flags, picks the prediction of each log and calls these.

// Prediction is the trace a log is checked against and why that version;
// Trace is nil without a prediction.
type Prediction struct {
	Trace *resolver.Trace
	Why   string
}

// Tally is what a job of logs adds up to: its counts and exit status.
type Tally struct {
	Files, Processes, WithLines, Disagreements, Failed, Empty, Skipped, Summarised int
	// Overflow counts the lines of processes past maxTracked (Log.Overflow).
	Overflow int
	// Outcomes counts processes that show their outcome; Worst is the worst
	// log verdict.
	Outcomes  int
	Worst     Status
	Predicted bool
	// GaveUp counts orchestrator logs whose TimeoutError shows they gave up
	// waiting for their workers: the deployment never served.
	GaveUp int
	// Crashed counts processes that crashed after their start-up (a
	// process_crashed finding): not a failure, but the job's line says it.
	Crashed int
	// Exited counts those of them whose launcher says they exited with a
	// non-zero status (srun's "Exited with exit code C"): the job's line
	// says they exited, not crashed; the JSON's processes_crashed counts
	// them.
	Exited int
	// decided is true once a log that decides something was added: an
	// orchestrator's log or a file that is not TensorRT-LLM's is the
	// job's verdict only when no other log is.
	decided bool
}

// Add counts one judged log.
func (t *Tally) Add(v Verdict) {
	t.Files++
	t.Processes += len(v.Log.Processes)
	t.Summarised += v.Log.Summarised
	t.Overflow += v.Log.Overflow
	for _, p := range v.Log.Processes {
		if p.hasTransceiverLines() {
			t.WithLines++
		}
	}
	for _, p := range v.Processes {
		if p.Status == StatusFailed {
			t.Failed++
		}
		if crashedAfterStartup(p.Process) {
			t.Crashed++
			if exitedAfterStartup(p.Process) {
				t.Exited++
			}
		}
	}
	if v.Status == StatusNoLines {
		t.Empty++
	}
	t.Disagreements += len(v.Mismatches)
	t.Outcomes += v.Outcomes
	if v.Log.Orchestrator > 0 && v.Log.TimedOut > 0 {
		t.GaveUp++
	}
	decides := v.Status != StatusOrchestrator && v.Status != StatusNotTRTLLM
	switch {
	case t.Files == 1, decides && !t.decided:
		t.Worst = v.Status
	case decides == t.decided && statusRank[v.Status] > statusRank[t.Worst]:
		t.Worst = v.Status
	}
	t.decided = t.decided || decides
}

// Exit is the job's exit status: 2 when a log could not be read; 1 when a log
// disagrees, a process failed, a log shows no transceiver lines, or no
// process at all shows its transceiver, or an orchestrator gave up waiting
// for its workers; 0 otherwise. An orchestrator's log otherwise decides
// nothing by itself.
func (t *Tally) Exit() int {
	switch {
	case t.Skipped > 0:
		return 2
	case statusRank[t.Worst] >= statusRank[StatusNoLines], t.Outcomes == 0, t.GaveUp > 0:
		return 1
	}
	return 0
}

const noPrediction = "No prediction (give --trtllm, --config, --model ... to compare)."

// WriteSummary prints the job's closing line.
func (t *Tally) WriteSummary(w io.Writer) {
	if !t.Predicted {
		fmt.Fprintln(w, "\n"+noPrediction)
	}
	fmt.Fprintf(w, "\n══ %d logs, %d process(es), %d with transceiver lines", t.Files, t.Processes, t.WithLines)
	if t.Predicted {
		fmt.Fprintf(w, "; %d disagreement(s)", t.Disagreements)
	}
	if t.Failed > 0 {
		fmt.Fprintf(w, "; %d process(es) failed at start-up", t.Failed)
	}
	if t.Crashed > t.Exited {
		fmt.Fprintf(w, "; %d process(es) crashed after start-up", t.Crashed-t.Exited)
	}
	if t.Exited > 0 {
		fmt.Fprintf(w, "; %d process(es) exited with a non-zero code after start-up", t.Exited)
	}
	if t.Summarised > 0 {
		fmt.Fprintf(w, "; %d summarised", t.Summarised)
	}
	if t.Overflow > 0 {
		fmt.Fprintf(w, "; %d line(s) of processes past 65,536 read as one", t.Overflow)
	}
	if t.GaveUp > 0 {
		fmt.Fprintf(w, "; %d orchestrator(s) gave up waiting for workers", t.GaveUp)
	}
	fmt.Fprintf(w, "; exit %d\n", t.Exit())
}

// WriteText prints what each process did, the prediction and every
// disagreement, first disagreement first. many prefixes processes with their
// file. Text from the log is escaped.
func WriteText(w io.Writer, v Verdict, pr Prediction, many bool) {
	lg := v.Log
	withLines := 0
	for _, p := range lg.Processes {
		if p.hasTransceiverLines() {
			withLines++
		}
	}
	// The lines every log prints are built by hand (the same bytes as the
	// fmt verbs in the comments): a job of 50,000 logs prints them 50,000 times.
	// One buffer, large enough for most, instead of one grown line by line.
	b := make([]byte, 0, 256)
	if many {
		b = append(b, '\n')
	}
	// "%s: %d lines, %d process(es), %d with transceiver lines\n"
	b = append(b, termsafe.Line(lg.Name)...)
	b = append(b, ": "...)
	b = strconv.AppendInt(b, int64(lg.Lines), 10)
	if lg.Lines == 1 {
		b = append(b, " line, "...)
	} else {
		b = append(b, " lines, "...)
	}
	b = strconv.AppendInt(b, int64(len(lg.Processes)), 10)
	b = append(b, " process(es)"...)
	if lg.Orchestrator > 0 {
		// The orchestrator's own process is counted but not listed (the
		// summary says what it did): say which of the count it is.
		for _, p := range lg.Processes {
			if lg.OrchestratorOwn(p) {
				if len(lg.Processes) == 1 {
					b = append(b, " (the orchestrator's)"...)
				} else {
					b = append(b, " (one the orchestrator's)"...)
				}
				break
			}
		}
	}
	b = append(b, ", "...)
	b = strconv.AppendInt(b, int64(withLines), 10)
	b = append(b, " with transceiver lines\n"...)
	w.Write(b)
	if lg.Summarised > 0 {
		fmt.Fprintf(w, "  (%d processes listed with their lines; %d more summarised: their outcome, backend and error still count)\n", len(lg.Processes)-lg.Summarised, lg.Summarised)
	}
	if lg.Overflow > 0 {
		fmt.Fprintf(w, "  (%d line(s) of processes past 65,536 are read as one process, not counted apart: its failure still counts)\n", lg.Overflow)
	}
	if lg.Orchestrator > 0 || len(lg.Processes) == 0 {
		fmt.Fprintln(w, "\n"+v.Summary())
	}
	who := func(src string) string {
		if many {
			return termsafe.Line(lg.Name) + " · " + termsafe.Line(src)
		}
		return termsafe.Line(src)
	}
	status := map[*Process]Status{}
	for _, pv := range v.Processes {
		status[pv.Process] = pv.Status
	}
	var groups summaryGroups
	listed := false
	for _, p := range lg.Processes {
		if lg.OrchestratorOwn(p) {
			continue // the orchestrator itself: the summary says what it did
		}
		if !Listed(p, status[p]) {
			groups.add(p)
			continue
		}
		// "\n%s: %s\n", who(p.Source), ObservedSummary(p)
		b = append(b[:0], '\n')
		if many {
			b = append(append(b, termsafe.Line(lg.Name)...), " · "...)
		}
		b = append(b, termsafe.Line(p.Source)...)
		b = append(b, ": "...)
		b = append(appendObservedSummary(b, p, false), '\n')
		w.Write(b)
		writeProcessDetail(w, p)
		listed = true
	}
	groups.write(w)
	// In a report of many logs, a log that agrees says nothing more: the
	// job's last line counts them.
	// One whose process crashed after start-up says so, as -f's end does.
	quiet := many && (v.Status == StatusAgrees || v.Status == StatusShown) && !v.crashed()
	if pr.Trace == nil {
		if lg.Orchestrator == 0 && len(lg.Processes) > 0 && !quiet {
			fmt.Fprintln(w, "\n"+v.Summary())
		}
		if !many {
			if listed && lg.Orchestrator > 0 {
				// The summary came first: a blank line after the
				// processes, as after the summary elsewhere.
				fmt.Fprintln(w)
			}
			fmt.Fprintln(w, noPrediction)
		}
		return
	}
	t := pr.Trace
	fmt.Fprintf(w, "\nPredicted for TensorRT-LLM %s: %s\n", t.Inputs.Version.Name, report.OutcomeLine(t.Result))
	fmt.Fprintf(w, "  version: %s\n", termsafe.Line(pr.Why))
	if len(v.Mismatches) == 0 {
		if lg.Orchestrator == 0 && len(lg.Processes) > 0 && !quiet {
			fmt.Fprintln(w, v.Summary())
		}
		return
	}
	fmt.Fprintf(w, "%d disagreement(s); the first one is marked ▶\n", len(v.Mismatches))
	if note := v.crashNote(); note != "" {
		// What Summary adds, which -f's end prints with the disagreements.
		fmt.Fprintln(w, termsafe.Line(note))
	}
	for i, m := range v.Mismatches {
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

func writeProcessDetail(w io.Writer, p *Process) {
	lines := ProcessDetail(p)
	if len(lines) == 0 {
		return
	}
	n := 0
	for _, l := range lines {
		n += len(l) + 1
	}
	b := make([]byte, 0, n)
	for _, l := range lines {
		b = append(append(b, l...), '\n')
	}
	w.Write(b)
}

// ProcessDetail is what the report prints under a process's summary line, one
// string a line, indented as check-logs prints it: the recognised lines, the
// detail and root cause of a failure, the inputs an argument dump shows, the
// implications and the runtime findings. Text from the log is escaped. The
// explorer's --log shows the same lines.
func ProcessDetail(p *Process) []string {
	out := make([]string, 0, len(p.Lines)+1)
	b := make([]byte, 0, 128)
	// The lines under the error (pydantic's fields, a failure's cause, a
	// wrapped exception's rest) go under the error's own line, where the log
	// has them, not under a later line of the process (NIXL's, printed after).
	first, detail, hasDetail := strings.Cut(p.Error, "\n")
	shown := first // the error's text as printed, its line and those under it
	writeDetail := func() {
		if !hasDetail {
			return
		}
		hasDetail = false
		for _, d := range strings.Split(detail, "\n") {
			if d != p.Cause { // the cause has a line of its own
				out = append(out, "        "+termsafe.Line(d))
				shown += " " + d
			}
		}
	}
	for _, l := range p.Lines {
		lvl := l.Level
		if lvl == "" {
			lvl = raisedOrCrashed(l.Message)
		}
		// "  %5d %-7s %s", built by hand: a job of 50,000 logs prints it 50,000 times
		b = append(b[:0], "  "...)
		b = appendPadded(b, strconv.Itoa(l.N), 5, false)
		b = append(b, ' ')
		b = appendPadded(b, lvl, 7, true)
		b = append(b, ' ')
		b = append(b, termsafe.Line(l.Message)...)
		out = append(out, string(b))
		if l.Message == first {
			writeDetail()
		}
	}
	if p.LinesDropped > 0 && !p.Summarised {
		// len(p.Lines) is what was kept, not the cap: "past 1 per process"
		// said a limit there is not.
		out = append(out, fmt.Sprintf("        (%d more recognised line(s) not shown: repeats of the lines above, or past the %d a process keeps)", p.LinesDropped, maxLinesPerProcess))
	}
	writeDetail() // the error's own line is not among those kept
	// A cause the error's lines end with, as printed above, is not said
	// again ("… on rank 0: Failed, NCCL error … 'invalid usage …'" over
	// "(…/opUtils.cpp:125)" was then said a third time as its cause).
	if p.Cause != "" && !strings.HasSuffix(shown, " "+p.Cause) {
		// (A cause the error's own line ends with is on the summary line.)
		out = append(out, "  cause: "+termsafe.Line(p.Cause))
	}
	if o := p.Inputs; o.Seen() {
		out = append(out, fmt.Sprintf("  inputs (line %d): backend=%s transceiver_runtime=%s kv_transfer_timeout_ms=%s", o.Line,
			orDash(o.Backend), orDash(o.Runtime), orDash(o.Timeout)))
	}
	for _, im := range p.Implications {
		out = append(out, fmt.Sprintf("  → line %d: %s", im.Line, termsafe.Line(im.Text)))
	}
	if p.ImplicationsDropped > 0 && !p.Summarised {
		out = append(out, fmt.Sprintf("  → and %d more", p.ImplicationsDropped))
	}
	for _, f := range p.Findings {
		out = append(out, fmt.Sprintf("  ! %d× %s, first at line %d: %s", f.Count, FindingWords(f.Kind), f.Line, termsafe.Line(f.Text)))
	}
	if p.FindingsDropped > 0 {
		out = append(out, fmt.Sprintf("  ! and %d more finding(s)", p.FindingsDropped))
	}
	return out
}

// appendPadded appends s padded with blanks to width runes, as fmt's %5d
// (right) and %-7s (left) do.
func appendPadded(b []byte, s string, width int, left bool) []byte {
	pad := width - utf8.RuneCountInString(s)
	if left {
		b = append(b, s...)
	}
	for ; pad > 0; pad-- {
		b = append(b, ' ')
	}
	if !left {
		b = append(b, s...)
	}
	return b
}

func orDash(s string) string {
	if s == "" {
		return "-"
	}
	return termsafe.Line(s)
}

// summaryGroups counts summarised processes by what they show.
type summaryGroups struct {
	order []string
	count map[string]int
	first map[string]string
}

func (g *summaryGroups) add(p *Process) {
	if g.count == nil {
		g.count, g.first = map[string]int{}, map[string]string{}
	}
	k := string(p.Outcome())
	if k == "" {
		k = "outcome not shown"
	}
	if p.Backend != "" {
		k += " on " + p.Backend
	}
	if g.count[k] == 0 {
		g.order = append(g.order, k)
		g.first[k] = p.Source
	}
	g.count[k]++
}

func (g *summaryGroups) write(w io.Writer) {
	if len(g.order) == 0 {
		return
	}
	fmt.Fprintln(w, "\nsummarised (no line kept):")
	for _, l := range g.lines() {
		fmt.Fprintln(w, l)
	}
}

func (g *summaryGroups) lines() []string {
	var out []string
	for _, k := range g.order {
		out = append(out, fmt.Sprintf("  %d× %s (first: %s)", g.count[k], termsafe.Line(k), termsafe.Line(g.first[k])))
	}
	return out
}

// Listed reports whether the report lists a process with its lines: every
// process within the cap on kept detail, and past it those that failed,
// disagree or crashed after start-up (the verdict names them: the report
// must show them, the JSON too); the others are counted by what they show
// (Summarised).
func Listed(p *Process, st Status) bool {
	return !p.Summarised || st == StatusFailed || st == StatusDisagrees || crashedAfterStartup(p)
}

// Summarised is what the report prints for the processes it does not list
// (see Listed), counted by what they show: "  12× PYTHON on NIXL (first: rank
// 4096)", one string a line; none when every process is listed.
func Summarised(v Verdict) []string {
	var g summaryGroups
	for _, pv := range v.Processes {
		if !Listed(pv.Process, pv.Status) {
			g.add(pv.Process)
		}
	}
	return g.lines()
}

// ObservedSummary is one process's outcome in a line: "PYTHON · resolved
// 'auto' to 'PYTHON' for X · KvCacheTransceiverV2 · backend NIXL".
func ObservedSummary(p *Process) string { return string(appendObservedSummary(nil, p, false)) }

// FollowedLine is what -f and the explorer's --log say of a process as its
// log grows: its ObservedSummary and its verdict (ProcessText). A process
// still pending shows "no outcome yet" where a whole log's says "outcome not
// shown": "rank 0: no outcome yet · backend NIXL — … pending for 1.3.0rc26",
// not "outcome not shown · … pending", two answers on one line.
func (v Verdict) FollowedLine(pv ProcessVerdict) string {
	return string(appendObservedSummary(nil, pv.Process, pv.Status == StatusPending)) + v.ProcessText(pv)
}

// appendObservedSummary appends ObservedSummary(p) to b; pending says a
// process without an outcome has none yet (the log is followed).
func appendObservedSummary(b []byte, p *Process, pending bool) []byte {
	sep := false
	part := func(s ...string) {
		if sep {
			b = append(b, " · "...)
		}
		sep = true
		for _, x := range s {
			b = append(b, x...)
		}
	}
	switch o := p.Outcome(); {
	case o != "":
		part(string(o))
	case pending:
		part("no outcome yet")
	default:
		part("outcome not shown")
	}
	if p.ResolvedSeen {
		part("resolved 'auto' to ", p.Resolved.Repr(), " for ", termsafe.Line(p.ResolvedFor))
	}
	if p.Class != "" {
		if p.ClassInferred {
			part(p.Class, " (inferred)")
		} else {
			part(p.Class)
		}
	}
	if p.Backend != "" {
		if p.NixlBackend != "" {
			part("backend ", termsafe.Line(p.Backend), " (NIXL on ", termsafe.Line(p.NixlBackend), ")")
		} else {
			part("backend ", termsafe.Line(p.Backend))
		}
	}
	if p.Error != "" {
		first, _, _ := strings.Cut(p.Error, "\n")
		// A message the process logged (worker.py's "Failed to initialize
		// executor on rank N: …") is said as it was logged, an exception as
		// raised. One that ends at its colon, its cause on the lines under
		// it, is said with that cause: the line is what the operator reads
		// first, and "…on rank 1:" alone says no reason.
		text := first
		if p.Cause != "" && strings.HasSuffix(first, ":") {
			text += " " + p.Cause
		}
		if listedError(p, first) {
			// The whole text is on its line below: a CUDA out-of-memory
			// message of 900 bytes said twice filled 24 rows of an
			// 80-column terminal before the line that says where.
			text = cutAtWord(text, maxTitleError)
		}
		if !loggedError(p, first) {
			part(raisedOrCrashed(first) + " ")
			b = append(b, termsafe.Line(text)...)
		} else {
			part(termsafe.Line(text))
		}
	}
	if n := len(p.Findings); n > 0 {
		total := 0
		for _, f := range p.Findings {
			total += f.Count
		}
		part(strconv.Itoa(total), " runtime finding(s)")
	}
	return b
}

// maxTitleError is the most of a failure's text a process's line says when
// the whole is on its own line below it.
const maxTitleError = 200

// cutAtWord cuts s to at most n bytes at a blank, marked " …".
func cutAtWord(s string, n int) string {
	if len(s) <= n {
		return s
	}
	i := strings.LastIndexByte(s[:n], ' ')
	if i < n/2 {
		return s // no blank to cut at: said whole
	}
	return strings.TrimRight(s[:i], " ,;:") + " …"
}

// listedError reports whether p's error's line is among its listed lines
// with its whole text (and so its cause, on the line or on "cause:").
func listedError(p *Process, msg string) bool {
	for _, l := range p.Lines {
		if l.Message == msg {
			return true
		}
	}
	return false
}

// loggedError reports whether msg, the first line of p's error, is a line p
// logged at a level (ERROR, or a tag without one), not an exception's title.
// raisedOrCrashed is how the report says a failure that was not logged at
// a level: a crash handler's line (a segfault banner, libstdc++'s terminate,
// faulthandler's, UCX's or Open MPI's signal line) is no exception raised.
func raisedOrCrashed(msg string) string {
	if _, kind := crashLine(msg); kind != crashNone {
		return "crashed"
	}
	return "raised"
}

func loggedError(p *Process, msg string) bool {
	for _, l := range p.Lines {
		if l.Level != "" && l.Message == msg {
			return true
		}
	}
	return false
}

// maxKeptMismatches bounds the disagreements the JSON report holds until its
// end; the text report streams them all.
const maxKeptMismatches = 10000

// JSONReport writes check-logs' JSON object as the logs come: the observed
// processes are streamed; the predictions and mismatches (at most
// maxKeptMismatches each, the rest counted) follow.
type JSONReport struct {
	w           io.Writer
	n           int
	predicted   any
	predictions []predictionJSON
	mismatches  []Mismatch
	dropped     int
	// predictionsDropped counts logs past maxKeptMismatches whose prediction
	// is not listed (a job of more than 10,000 files).
	predictionsDropped int
	// orchestrators are the orchestrator logs' wait for their workers (at
	// most maxKeptMismatches).
	orchestrators []orchestratorJSON
	// Tally is the job's counts and exit status.
	Tally Tally
	err   error
}

// orchestratorJSON is what a trtllm-serve disaggregated orchestrator's log
// shows of its wait for the workers (see Log.Waiting).
type orchestratorJSON struct {
	File        string  `json:"file"`
	Line        int     `json:"line"`
	Waiting     *string `json:"waiting_for"`
	WaitingLine int     `json:"waiting_line"`
	Ready       int     `json:"ready_line"`
	TimedOut    int     `json:"timed_out_line"`
}

type predictionJSON struct {
	File    string `json:"file"`
	TRTLLM  string `json:"trtllm"`
	Why     string `json:"why"`
	Outcome string `json:"outcome"`
}

// NewJSONReport starts the JSON object on w.
func NewJSONReport(w io.Writer) *JSONReport {
	r := &JSONReport{w: w, predictions: []predictionJSON{}, mismatches: []Mismatch{}, orchestrators: []orchestratorJSON{}}
	r.write("{\n  \"observed\": [")
	return r
}

func (r *JSONReport) write(s string) {
	if r.err == nil {
		_, r.err = io.WriteString(r.w, s)
	}
}

// encodeJSON is v as JSON, indented with prefix, or on one line when compact.
func encodeJSON(v any, prefix string, compact bool) string {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if !compact {
		enc.SetIndent(prefix, "  ")
	}
	_ = enc.Encode(v)
	return strings.TrimSuffix(b.String(), "\n")
}

// Add streams one judged log. Processes past the cap on kept detail are
// listed only when they failed or disagree; processes_summarised counts them.
func (r *JSONReport) Add(v Verdict, pr Prediction) {
	r.Tally.Predicted = pr.Trace != nil
	r.Tally.Add(v)
	status := map[*Process]Status{}
	for _, pv := range v.Processes {
		status[pv.Process] = pv.Status
	}
	for _, p := range v.Log.Processes {
		st := status[p]
		if !Listed(p, st) {
			continue
		}
		pj := processJSON(v.Log, p)
		if st == "" && v.Log.OrchestratorOwn(p) {
			st = StatusOrchestrator // the orchestrator itself, not judged as a worker
		}
		pj.Status = string(st)
		if r.n > 0 {
			r.write(",")
		}
		r.n++
		r.write("\n    " + encodeJSON(pj, "    ", false))
	}
	if pr.Trace != nil {
		if r.predicted == nil {
			r.predicted = report.Explain(*pr.Trace)
		}
		if len(r.predictions) < maxKeptMismatches {
			r.predictions = append(r.predictions, predictionJSON{File: v.Log.Name, TRTLLM: pr.Trace.Inputs.Version.Name, Why: pr.Why, Outcome: string(pr.Trace.Result.Outcome)})
		} else {
			r.predictionsDropped++
		}
	}
	if lg := v.Log; lg.Orchestrator > 0 && len(r.orchestrators) < maxKeptMismatches {
		r.orchestrators = append(r.orchestrators, orchestratorJSON{File: lg.Name, Line: lg.Orchestrator, Waiting: opt(lg.Waiting),
			WaitingLine: lg.WaitingLine, Ready: lg.Ready, TimedOut: lg.TimedOut})
	}
	for _, m := range v.Mismatches {
		if len(r.mismatches) >= maxKeptMismatches {
			r.dropped++
			continue
		}
		m.File = v.Log.Name
		r.mismatches = append(r.mismatches, m)
	}
}

// Finish ends the object: predictions, mismatches, the counts and the verdict.
func (r *JSONReport) Finish() error {
	if r.n > 0 {
		r.write("\n  ")
	}
	r.write("],\n  \"predicted\": " + encodeJSON(r.predicted, "  ", false))
	r.write(",\n  \"predictions\": " + encodeJSON(r.predictions, "  ", false))
	if r.predictionsDropped > 0 {
		r.write(",\n  \"predictions_dropped\": " + strconv.Itoa(r.predictionsDropped))
	}
	r.write(",\n  \"mismatches\": " + encodeJSON(r.mismatches, "  ", false))
	r.write(",\n  \"mismatches_dropped\": " + strconv.Itoa(r.dropped))
	r.write(",\n  \"orchestrators\": " + encodeJSON(r.orchestrators, "  ", false))
	t := &r.Tally
	r.write(",\n  \"processes\": " + strconv.Itoa(t.Processes))
	r.write(",\n  \"processes_summarised\": " + strconv.Itoa(t.Summarised))
	if t.Overflow > 0 {
		r.write(",\n  \"lines_past_process_cap\": " + strconv.Itoa(t.Overflow))
	}
	r.write(",\n  \"processes_failed\": " + strconv.Itoa(t.Failed))
	r.write(",\n  \"processes_crashed\": " + strconv.Itoa(t.Crashed))
	r.write(",\n  \"verdict\": " + encodeJSON(string(t.Worst), "", true))
	r.write(",\n  \"exit\": " + strconv.Itoa(t.Exit()) + "\n}\n")
	return r.err
}

// FollowReport prints, while logs are followed, each process's verdict when
// its transceiver lines appear and whenever it changes: a text line (with its
// disagreements under it), or one JSON object per line.
type FollowReport struct {
	w    io.Writer
	json bool
	last map[string]string
}

// NewFollowReport prints to w; asJSON selects one JSON object per line.
func NewFollowReport(w io.Writer, asJSON bool) *FollowReport {
	return &FollowReport{w: w, json: asJSON, last: map[string]string{}}
}

// Note prints what a poll noticed about a file (opened, truncated, rotated).
func (f *FollowReport) Note(file string, note FollowNote) {
	if note == NoteNone {
		return
	}
	if f.json {
		fmt.Fprintln(f.w, encodeJSON(map[string]any{"file": file, "event": string(note)}, "", true))
		return
	}
	fmt.Fprintf(f.w, "%s: %s\n", termsafe.Line(file), note)
}

// Forget drops what was printed for file, after it restarted: its processes
// are new ones.
func (f *FollowReport) Forget(file string) {
	for k := range f.last {
		if strings.HasPrefix(k, file+"\x00") {
			delete(f.last, k)
		}
	}
}

// Update prints the verdicts of v that changed since the last call.
func (f *FollowReport) Update(v Verdict) {
	lg := v.Log
	name := termsafe.Line(lg.Name)
	version := any(nil)
	if v.Trace != nil {
		version = v.Trace.Inputs.Version.Name
	}
	// Disagreements of no process (a version line without a rank prefix).
	var own []Mismatch
	known := map[string]bool{}
	for _, p := range v.Processes {
		known[p.Process.Source] = true
	}
	for _, m := range v.Mismatches {
		if !known[m.Source] && m.Line > 0 {
			own = append(own, m)
		}
	}
	if key := lg.Name + "\x00"; len(own) > 0 {
		if s := fmt.Sprint(own); f.last[key] != s {
			f.last[key] = s
			for _, m := range own {
				if f.json {
					fmt.Fprintln(f.w, encodeJSON(map[string]any{"file": lg.Name, "source": nil, "status": StatusDisagrees, "agrees": false, "predicted_for": version, "mismatches": []Mismatch{m}}, "", true))
				} else {
					fmt.Fprintf(f.w, "%s line %d: ✗ %s\n", name, m.Line, termsafe.Line(m.Message))
				}
			}
		}
	}
	if lg.Orchestrator > 0 && len(v.Processes) == 0 {
		if key := lg.Name + "\x00orchestrator"; f.last[key] == "" {
			f.last[key] = "seen"
			if f.json {
				fmt.Fprintln(f.w, encodeJSON(map[string]any{"file": lg.Name, "source": nil, "status": StatusOrchestrator, "agrees": false, "predicted_for": version, "mismatches": []Mismatch{}}, "", true))
			} else {
				fmt.Fprintf(f.w, "%s: %s\n", name, v.Summary())
			}
		}
	}
	for _, pv := range v.Processes {
		p := pv.Process
		if !p.shows() {
			continue
		}
		verdict := v.FollowedLine(pv)
		key := lg.Name + "\x00" + p.Source
		if f.last[key] == verdict {
			continue
		}
		f.last[key] = verdict
		if f.json {
			ms := pv.Mismatches
			if ms == nil {
				ms = []Mismatch{}
			}
			// Without a prediction there is nothing to agree with: null,
			// as predicted_for is, not false (status holds the verdict).
			var agrees any
			if v.Trace != nil {
				agrees = pv.Status == StatusAgrees
			}
			fs := p.Findings
			if fs == nil {
				fs = []Finding{}
			}
			fmt.Fprintln(f.w, encodeJSON(map[string]any{"file": lg.Name, "source": p.Source, "outcome": string(p.Outcome()), "status": pv.Status,
				"agrees": agrees, "predicted_for": version, "mismatches": ms, "findings": fs}, "", true))
			continue
		}
		fmt.Fprintf(f.w, "%s · %s: %s\n", name, termsafe.Line(p.Source), verdict)
		for _, m := range pv.Mismatches {
			where := ""
			if m.Line > 0 {
				where = "line " + strconv.Itoa(m.Line) + ": "
			}
			fmt.Fprintf(f.w, "    ✗ %s%s\n", where, termsafe.Line(m.Message))
		}
		// Each kind of runtime finding once, when it first appears (a crash
		// after start-up, UCX's errors, failed transfers), in the batch
		// report's words, with its count so far: the line above counts them
		// all as they grow.
		for _, fd := range p.Findings {
			if k := key + "\x00" + fd.Kind; f.last[k] == "" {
				f.last[k] = "seen"
				fmt.Fprintf(f.w, "    ! %d× %s, first at line %d: %s\n", fd.Count, FindingWords(fd.Kind), fd.Line, termsafe.Line(fd.Text))
			}
		}
	}
}

// ProcessText is what check-logs -f prints after a process's summary line:
// its verdict, " — ✓ agrees with the prediction for 1.3.0rc26", " — ✗ start-up
// failed", " — … pending for …"; "" without a prediction
// when the process did not fail. The explorer's --log says the same.
func (v Verdict) ProcessText(pv ProcessVerdict) string {
	switch {
	case pv.Status == StatusFailed:
		return " — ✗ start-up failed"
	case v.Trace == nil:
		return ""
	case pv.Status == StatusPending:
		return " — … pending for " + v.Trace.Inputs.Version.Name
	case pv.Status == StatusNotShown:
		return " — – outcome not shown (the log stops before it), predicted for " + v.Trace.Inputs.Version.Name
	case len(pv.Mismatches) == 0:
		return " — ✓ agrees with the prediction for " + v.Trace.Inputs.Version.Name
	}
	return " — ✗ " + strconv.Itoa(len(pv.Mismatches)) + " disagreement(s) with the prediction for " + v.Trace.Inputs.Version.Name
}

// End prints the verdicts the followed logs have at the end (Ctrl-C): the
// same as a batch run of the same content, and the exit status they give.
func (f *FollowReport) End(vs []Verdict) int {
	var t Tally
	for _, v := range vs {
		t.Predicted = t.Predicted || v.Trace != nil
		t.Add(v)
	}
	if f.json {
		fmt.Fprintln(f.w, encodeJSON(map[string]any{"event": "end", "logs": t.Files, "processes": t.Processes,
			"processes_summarised": t.Summarised, "processes_failed": t.Failed, "processes_crashed": t.Crashed, "disagreements": t.Disagreements,
			"verdict": t.Worst, "exit": t.Exit()}, "", true))
		return t.Exit()
	}
	for _, v := range vs {
		fmt.Fprintf(f.w, "%s: %s\n", termsafe.Line(v.Log.Name), v.FollowSummary())
	}
	t.WriteSummary(f.w)
	return t.Exit()
}

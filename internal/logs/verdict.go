package logs

import (
	"sort"
	"strconv"
	"strings"
	"xcvr/internal/termsafe"

	"xcvr/resolver"
)

// The verdict is the one place that decides what a log says against a
// prediction and what exit status that is: check-logs (batch and -f) and the
// explorer's --log all judge through Judge, so the same content gets the same
// verdict everywhere.

// Status is a process's or a log's verdict.
type Status string

// The verdicts, from best to worst for a log (see Verdict.Status).
const (
	// StatusAgrees: with a prediction, the process shows its outcome and no
	// line disagrees.
	StatusAgrees Status = "agrees"
	// StatusShown: without a prediction, the process shows its outcome and
	// did not fail.
	StatusShown Status = "shown"
	// StatusPending: while following, the process shows no outcome yet and
	// nothing it printed disagrees.
	StatusPending Status = "pending"
	// StatusNotShown: at the end of a log, the process shows no outcome and
	// nothing it printed disagrees.
	StatusNotShown Status = "not shown"
	// StatusOrchestrator: the log is the trtllm-serve disaggregated
	// orchestrator's, which creates no transceiver: its workers' logs decide.
	StatusOrchestrator Status = "orchestrator"
	// StatusNotTRTLLM: no line of the log is TensorRT-LLM's (no tagged line,
	// no version line): one of a job's other files (a benchmark client's
	// output, nvidia-smi's), which decides nothing beside TensorRT-LLM's logs.
	StatusNotTRTLLM Status = "not a TensorRT-LLM log"
	// StatusNoLines: no process shows a transceiver line.
	StatusNoLines Status = "no transceiver lines"
	// StatusDisagrees: a line, or a line that is missing, disagrees.
	StatusDisagrees Status = "disagrees"
	// StatusFailed: start-up failed (the process ended with an error).
	StatusFailed Status = "failed"
)

var statusRank = map[Status]int{StatusAgrees: 0, StatusShown: 0, StatusPending: 1, StatusNotShown: 1,
	StatusOrchestrator: 2, StatusNotTRTLLM: 2, StatusNoLines: 3, StatusDisagrees: 4, StatusFailed: 5}

// ProcessVerdict is one process's verdict and the disagreements behind it.
type ProcessVerdict struct {
	Process    *Process
	Status     Status
	Mismatches []Mismatch
}

// Verdict is what a log shows against a prediction (or without one).
type Verdict struct {
	Log *Log
	// Trace is the prediction, nil without one.
	Trace *resolver.Trace
	// Final is true at the end of a log (batch, or Ctrl-C while following);
	// false while a followed log may still grow.
	Final     bool
	Processes []ProcessVerdict
	// Mismatches are every settled disagreement, in log order; those of no
	// process (a version line, a log without transceiver lines) included.
	Mismatches []Mismatch
	// Status is the log's verdict: the worst of its processes', or the log's own.
	Status Status
	// Outcomes counts the processes that show their outcome (PYTHON, CPP,
	// DISABLED or ERROR).
	Outcomes int
}

// Judge gives the log's verdict against t (nil: without a prediction). While
// following (final false), a process that shows no outcome yet is pending,
// and disagreements it may still take back (a predicted line not written
// yet) are left out; at the end, it is "not shown" and they all count.
func Judge(lg *Log, t *resolver.Trace, final bool) Verdict {
	v := Verdict{Log: lg, Trace: t, Final: final}
	inferCPPOnly(lg, t)
	var all []Mismatch
	if t != nil {
		all = Compare(lg, *t)
	}
	bySource := map[string][]Mismatch{}
	known := map[string]bool{}
	for _, p := range lg.Processes {
		known[p.Source] = true
	}
	for _, m := range all {
		if known[m.Source] {
			bySource[m.Source] = append(bySource[m.Source], m)
		} else if m.Line > 0 || final {
			v.Mismatches = append(v.Mismatches, m) // the log's own (version, no lines)
		}
	}
	v.Status = StatusAgrees
	if t == nil {
		v.Status = StatusShown
	}
	if len(v.Mismatches) > 0 {
		v.Status = StatusDisagrees
	}
	for _, p := range lg.Processes {
		if lg.OrchestratorOwn(p) {
			continue
		}
		pv := ProcessVerdict{Process: p, Mismatches: bySource[p.Source]}
		out := p.Outcome()
		if !final && out == "" {
			pv.Mismatches = settled(pv.Mismatches)
		}
		if out != "" {
			v.Outcomes++
		}
		switch {
		case out == resolver.OutcomeError && (t == nil || len(pv.Mismatches) > 0):
			// A failure the prediction foresaw, word for word, agrees.
			pv.Status = StatusFailed
		case len(pv.Mismatches) > 0:
			pv.Status = StatusDisagrees
		case out == "" && final:
			pv.Status = StatusNotShown
		case out == "":
			pv.Status = StatusPending
		case t == nil:
			pv.Status = StatusShown
		default:
			pv.Status = StatusAgrees
		}
		v.Mismatches = append(v.Mismatches, pv.Mismatches...)
		if statusRank[pv.Status] > statusRank[v.Status] {
			v.Status = pv.Status
		}
		v.Processes = append(v.Processes, pv)
	}
	if len(v.Processes) == 0 && v.Status != StatusDisagrees {
		switch {
		case lg.Orchestrator > 0:
			v.Status = StatusOrchestrator
		case final && len(lg.Stated) == 0 && !lg.trtllm:
			v.Status = StatusNotTRTLLM
		case final:
			v.Status = StatusNoLines
		default:
			v.Status = StatusPending
		}
	}
	sortMismatches(v.Mismatches)
	return v
}

// inferCPPOnly settles the outcome of the processes of a build that has no
// Python transceiver (CacheTransceiverConfig without transceiver_runtime:
// 1.0 to 1.3.0rc7). There create_kv_cache_transceiver ends in
// BindKvCacheTransceiver whatever the backend, and it prints no line of its
// own after the backend's, so a process that printed the backend's line (the
// UCX advice, the MPI deprecation, a TRTLLM_USE_*_KVCACHE warning, the NIXL
// agent's, or before #5234 the C++ transceiver's "Enable UCX KV cache
// transport.") and no error got the C++ transceiver: without this, every
// healthy log of those releases would read "outcome not shown" and exit 1.
// The build is the version the log shows, else the prediction's.
func inferCPPOnly(lg *Log, t *resolver.Trace) {
	var v resolver.Version
	if own, ok := lg.Own(); ok {
		v = own.Version
	} else if t != nil {
		v = t.Inputs.Version
	} else {
		return
	}
	if v.Name == "" {
		return
	}
	for _, f := range resolver.ReleaseRules(v).Fields {
		if f.Name == "transceiver_runtime" {
			return // the build has the Python transceiver too: its own lines decide
		}
	}
	for _, p := range lg.Processes {
		if p.Class != "" || p.Error != "" || p.Disabled || p.Backend == "" {
			continue
		}
		p.Class, p.ClassInferred = resolver.ClassCPP, true
		p.classWhy = v.Name + " has only the C++ transceiver"
		for _, l := range p.Lines {
			if k, _ := classify(l.Level, l.Message); k == lineUCX || k == lineMPI || k == lineCppTransport || k == lineEnvWarn || k == lineNixlAgent || k == lineNixlAddress || k == lineAgentCpp || k == lineAgentBindingsInit {
				p.imply(l.N, "TensorRT-LLM "+v.Name+" has only the C++ transceiver (no transceiver_runtime yet) and no error follows this line: BindKvCacheTransceiver on "+p.Backend, 0, 0)
				break
			}
		}
	}
}

// settled keeps the disagreements a growing log cannot take back: those on a
// line it printed and the backend it showed (before the outcome, a predicted
// line may simply not be written yet).
func settled(ms []Mismatch) []Mismatch {
	var out []Mismatch
	for _, m := range ms {
		if m.Line > 0 || m.Kind == KindBackend {
			out = append(out, m)
		}
	}
	return out
}

// sortMismatches puts disagreements on a line first, in log order, then the
// missing lines.
func sortMismatches(ms []Mismatch) {
	sortStable(ms, func(a, b Mismatch) bool {
		if (a.Line == 0) != (b.Line == 0) {
			return a.Line != 0
		}
		return a.Line < b.Line
	})
}

// Exit is the log's exit status: 0 when every process agrees (without a
// prediction: none failed and at least one shows its transceiver), 1
// otherwise. While following, pending processes fail nothing.
func (v Verdict) Exit() int {
	switch v.Status {
	case StatusAgrees, StatusShown:
		if v.Outcomes > 0 {
			return 0
		}
	case StatusPending, StatusNotShown:
		if !v.Final || v.Outcomes > 0 {
			return 0
		}
	}
	return 1
}

// Label is the verdict in a few words, for a status line: "✓ agrees",
// "✗ 2 disagreements", "… pending".
func (v Verdict) Label() string {
	switch v.Status {
	case StatusAgrees:
		return "✓ agrees"
	case StatusShown:
		return "✓ no failure"
	case StatusPending:
		return "… pending"
	case StatusNotShown:
		return "– outcome not shown"
	case StatusOrchestrator:
		return "orchestrator log"
	case StatusNotTRTLLM:
		return "– not a TensorRT-LLM log"
	case StatusNoLines:
		return "✗ no transceiver lines"
	case StatusFailed:
		return "✗ start-up failed"
	}
	if n := len(v.Mismatches); n == 1 {
		return "✗ 1 disagreement"
	}
	return "✗ " + strconv.Itoa(len(v.Mismatches)) + " disagreements"
}

// Summary says the verdict in a sentence, and the processes that crashed
// once their start-up was over (process_crashed): a verdict on start-up
// must not read as if they were well.
func (v Verdict) Summary() string { return v.summaryMarked(true) }

// FollowSummary is Summary for check-logs -f's end: -f lists a disagreement
// as "✗ line N: …" and marks none with ▶, so the first one is named by its
// line ("… the first one is at line 12"), or not pointed at when it has none.
func (v Verdict) FollowSummary() string { return v.summaryMarked(false) }

func (v Verdict) summaryMarked(marked bool) string {
	s := v.summary(marked)
	if lg := v.Log; lg != nil && lg.Orchestrator > 0 && v.Status != StatusOrchestrator {
		// Workers' lines in the stream the orchestrator writes to (one
		// launch script, one container): what it logged is said too.
		if !strings.HasSuffix(s, ".") {
			s += "."
		}
		s += " The trtllm-serve disaggregated orchestrator's lines are in this log too (line " + strconv.Itoa(lg.Orchestrator) + ")." +
			orchestratorWait(lg) + orchestratorFound(lg)
	}
	note := v.crashNote()
	if note == "" {
		return s
	}
	if !strings.HasSuffix(s, ".") {
		s += "." // "… the first one is marked ▶."
	}
	return s + " " + note
}

// crashNote names the processes that crashed once their start-up was over:
// "But rank 1 crashed after start-up (first at line 7).", "" when none did.
// A task whose launcher says it exited with a status (srun's "Exited with
// exit code C") is said to have exited, not crashed: "But srun task 1
// exited with code 1 after start-up (line 9)." Its finding's kind stays
// process_crashed.
func (v Verdict) crashNote() string {
	var crashed, exited, died, oom afterStartup
	for _, p := range v.Processes {
		for _, f := range p.Process.Findings {
			if f.Kind == FindingCrashed {
				if who, k, ok := rayDeath(p.Process, f.Text); ok {
					// Ray's word (ray.go): it does not say whether the
					// worker's start-up was over. The raylet's count of
					// the workers its memory monitor killed is the
					// finding's text.
					if k > 0 {
						oom.add("", f.Line, "")
					} else {
						died.add(who, f.Line, "")
					}
				} else if code, ok := exitCode(f.Text); ok {
					exited.add(p.Process.Source, f.Line, code)
				} else {
					crashed.add(p.Process.Source, f.Line, "")
				}
			}
		}
	}
	var parts []string
	if crashed.k > 0 {
		parts = append(parts, crashed.names()+" crashed after start-up (first at line "+strconv.Itoa(crashed.first)+")")
	}
	if exited.k > 0 {
		how := "exited with code " + exited.code
		if exited.code == "" {
			how = "exited with non-zero codes"
		}
		parts = append(parts, exited.names()+" "+how+" after start-up ("+exited.at()+")")
	}
	if died.k > 0 {
		parts = append(parts, "Ray reports that "+died.names()+" died ("+died.at()+")")
	}
	if oom.k > 0 {
		parts = append(parts, "Ray's memory monitor killed workers ("+oom.at()+")")
	}
	if len(parts) == 0 {
		return ""
	}
	return "But " + strings.Join(parts, ", and ") + "."
}

// afterStartup gathers the processes a crashNote names: three, how many
// more, the first line, and the exit code when all share one.
type afterStartup struct {
	who         []string
	k, first    int
	code        string
	codesDiffer bool
}

func (a *afterStartup) add(source string, line int, code string) {
	if a.k++; len(a.who) < 3 {
		a.who = append(a.who, source)
	}
	if a.first == 0 || line < a.first {
		a.first = line
	}
	switch {
	case a.k == 1:
		a.code = code
	case code != a.code:
		a.code, a.codesDiffer = "", true
	}
}

// names is "srun task 0, srun task 1, srun task 2 and 5 more", as
// "Start-up failed: …" names them.
func (a *afterStartup) names() string {
	who := append([]string(nil), a.who...)
	if a.k > len(who) {
		who[len(who)-1] += " and " + strconv.Itoa(a.k-len(who)) + " more"
	}
	return strings.Join(who, ", ")
}

// at is where: srun prints one line a task, so one task's is "line N".
func (a *afterStartup) at() string {
	if a.k == 1 {
		return "line " + strconv.Itoa(a.first)
	}
	return "first at line " + strconv.Itoa(a.first)
}

// exitedAfterStartup reports whether p's process_crashed finding is its
// launcher's word that it exited with a non-zero status.
func exitedAfterStartup(p *Process) bool {
	for _, f := range p.Findings {
		if f.Kind == FindingCrashed {
			_, ok := exitCode(f.Text)
			return ok
		}
	}
	return false
}

// exitCode is the status of a launcher's line that says its process exited
// with one (srun's "srun: error: gpu-1: task 1: Exited with exit code 1");
// ok is false for a crash's line.
func exitCode(text string) (string, bool) {
	if _, ok := srunExit(text); !ok {
		return "", false
	}
	const exited = ": Exited with exit code "
	return text[strings.LastIndex(text, exited)+len(exited):], true
}

// crashed reports whether a process of v crashed after its start-up
// (a process_crashed finding), or Ray reports a worker's death, which
// Summary adds to the verdict.
func (v Verdict) crashed() bool {
	for _, p := range v.Processes {
		for _, f := range p.Process.Findings {
			if f.Kind == FindingCrashed {
				return true
			}
		}
	}
	return false
}

// crashedAfterStartup reports whether p has a process_crashed finding of
// its own death: not Ray's report of another worker's, which its driver's
// process holds when that worker is none of the log's (ray.go).
func crashedAfterStartup(p *Process) bool {
	for _, f := range p.Findings {
		if f.Kind != FindingCrashed {
			continue
		}
		if who, _, ray := rayDeath(p, f.Text); !ray || who == p.Source {
			return true
		}
	}
	return false
}

func (v Verdict) summary(marked bool) string {
	counts := map[Status]int{}
	for _, p := range v.Processes {
		counts[p.Status]++
	}
	n := len(v.Processes)
	of := func(k int) string {
		if n == 1 {
			return "the process"
		}
		return strconv.Itoa(k) + " of " + strconv.Itoa(n) + " processes"
	}
	show := " show"
	if n == 1 {
		show = " shows" // "the process shows"
	}
	switch v.Status {
	case StatusAgrees:
		return "Every process agrees with the prediction."
	case StatusShown:
		// A process whose transceiver is disabled built none: "shows its
		// transceiver" said the opposite of its line.
		disabled, said := 0, ""
		for _, p := range v.Processes {
			if p.Process.Outcome() == resolver.OutcomeDisabled {
				disabled++
				if said == "" {
					said = p.Process.DisabledSaid
				}
			}
		}
		// The words the log said it with (the first such process's): the
		// C++ executor's are not the Python one's.
		if said == "" {
			said = "cache_transceiver is disabled"
		}
		said = strings.TrimSuffix(termsafe.Line(said), ".")
		switch {
		case disabled == 0 && n == 1:
			return "No process failed; the process shows its transceiver."
		case disabled == 0:
			return "No process failed; " + of(v.Outcomes) + " show their transceiver."
		case n == 1:
			return "No process failed; the process built no transceiver (" + said + ")."
		case disabled == v.Outcomes:
			return "No process failed; " + of(v.Outcomes) + " show their outcome: no transceiver (" + said + ")."
		}
		return "No process failed; " + of(v.Outcomes) + " show their outcome: " + strconv.Itoa(v.Outcomes-disabled) + " a transceiver, " + strconv.Itoa(disabled) + " none (" + said + ")."
	case StatusPending:
		if n == 0 {
			return "No transceiver lines yet."
		}
		return "Pending: " + of(counts[StatusPending]) + show + " no outcome yet; nothing disagrees so far."
	case StatusNotShown:
		// A server that came up had built its executor (trtllm-serve starts
		// it after): the log did not stop before the transceiver; the lines
		// that would show it are missing.
		// So had one whose executor's event loop ran (it raised): the
		// executor is built after its transceiver.
		up, line, loop, submit, dynamo := true, 0, false, false, false
		for _, p := range v.Processes {
			if p.Status == StatusNotShown {
				up = up && (p.Process.serverUp > 0 || p.Process.loopRan > 0)
				if line == 0 {
					line, loop, dynamo = p.Process.serverUp, p.Process.serverUp == 0, p.Process.dynamoUp
					if loop {
						line, submit = p.Process.loopRan, p.Process.loopSubmit
					}
				}
			}
		}
		// Without a prediction nothing can disagree: say what is so.
		but := "Nothing disagrees, but "
		if v.Trace == nil {
			but = "No process failed, but "
		}
		// The lines that show the transceiver are printed at start-up,
		// before what shows the process was past it: a log that shows the
		// latter and not the former starts after them (an excerpt, a
		// collector that kept the log from a later point), lost them to a
		// filter or to the workers' own output, or never printed them.
		const missing = "no line says what was built: the lines that would are not in this log (it starts after them, as an excerpt or a log kept from a later point does; they were filtered out or are in the workers' own output; TLLM_LOG_LEVEL is above INFO; or the executor builds no transceiver)."
		switch {
		case up && loop && submit:
			return but + of(counts[StatusNotShown]) + show + " no outcome, though its worker was taking requests (line " + strconv.Itoa(line) +
				"): the executor was built, and its transceiver step before it, so the log does not stop before the transceiver; " + missing
		case up && loop:
			return but + of(counts[StatusNotShown]) + show + " no outcome, though the executor's event loop ran (line " + strconv.Itoa(line) +
				"): the executor was built, and its transceiver step before it, so the log does not stop before the transceiver; " + missing
		case up && dynamo:
			// A Dynamo worker starts no server of TensorRT-LLM's: its line
			// says its engine (the LLM, its executor and transceiver) was
			// built.
			return but + of(counts[StatusNotShown]) + show + " no outcome, though the Dynamo worker set up its engine (line " + strconv.Itoa(line) +
				"): start-up was over, so the log does not stop before the transceiver; " + missing
		case up:
			return but + of(counts[StatusNotShown]) + show + " no outcome, though the server came up (line " + strconv.Itoa(line) +
				"): start-up was over, so the log does not stop before the transceiver; " + missing
		}
		return but + of(counts[StatusNotShown]) + show + " no outcome: no line shows the transceiver created (the log stops before it, or lacks the INFO lines that show it)."
	case StatusOrchestrator:
		return "This is the trtllm-serve disaggregated orchestrator's log (line " + strconv.Itoa(v.Log.Orchestrator) + "): it creates no transceiver; the workers' logs decide." + orchestratorWait(v.Log) + orchestratorFound(v.Log)
	case StatusNotTRTLLM:
		return "No line of this log is TensorRT-LLM's (no [TRT-LLM] or [TensorRT-LLM] line, no version line): beside other logs it decides nothing; alone it shows no transceiver."
	case StatusNoLines:
		if v.Log.mpiSpawn > 0 {
			// Start-up stopped before any worker ran: not the log level.
			return mpiSpawnSummary(v.Log.mpiSpawn)
		}
		return "No TensorRT-LLM transceiver lines found. Was the log level WARNING (set TLLM_LOG_LEVEL=INFO), or did start-up stop earlier?"
	case StatusFailed:
		var who []string
		for _, p := range v.Processes {
			if p.Status == StatusFailed && len(who) < 3 {
				src := p.Process.Source
				if src == "process" || src == "process without rank" {
					// The names of a process the log gives no name: not
					// "Start-up failed: process."
					src = "the " + src
				}
				who = append(who, src)
			}
		}
		s := "Start-up failed: " + strings.Join(who, ", ")
		if k := counts[StatusFailed]; k > len(who) {
			s += " and " + strconv.Itoa(k-len(who)) + " more"
		}
		return s + "."
	}
	s := strconv.Itoa(len(v.Mismatches)) + " disagreement(s) with the prediction"
	switch {
	case marked:
		return s + "; the first one is marked ▶"
	case v.Mismatches[0].Line > 0:
		return s + "; the first one is at line " + strconv.Itoa(v.Mismatches[0].Line)
	}
	return s
}

func sortStable(ms []Mismatch, less func(a, b Mismatch) bool) {
	sort.SliceStable(ms, func(i, j int) bool { return less(ms[i], ms[j]) })
}

// orchestratorWait says what the orchestrator's log shows of its wait for
// the workers: that it gave up (and for which servers), that all were
// ready, or what it still waited for when the log ends.
func orchestratorWait(lg *Log) string {
	waiting := ""
	if lg.Waiting != "" {
		waiting = " (line " + strconv.Itoa(lg.WaitingLine) + ": " + termsafe.Line(lg.Waiting) + ")"
	}
	switch {
	case lg.TimedOut > 0:
		return " It gave up at line " + strconv.Itoa(lg.TimedOut) + " (TimeoutError: " + orchestratorTimeout + ", after its server_start_timeout)" +
			": a worker it waited for" + waiting + " did not come up, or not at the address in its config; that worker's log says why."
	case lg.Ready > 0:
		return " Every server was ready at line " + strconv.Itoa(lg.Ready) + "."
	case lg.Waiting != "":
		return " When the log ends it is still waiting for servers" + waiting + "."
	}
	return ""
}

// orchestratorFindings are the findings of the orchestrator's own process
// (Log.OrchestratorOwn): its requests' failures once it served, such as an
// exception its request handler logged ("Internal server error: " and the
// traceback, openai_disagg_server.py).
func orchestratorFindings(lg *Log) []Finding {
	var fs []Finding
	for _, p := range lg.Processes {
		if lg.OrchestratorOwn(p) {
			fs = append(fs, p.Findings...)
		}
	}
	return fs
}

// orchestratorFound says the orchestrator's own findings, each kind with its
// count and first line and text: often why the operator came, though they
// decide no worker's start-up.
func orchestratorFound(lg *Log) string {
	fs := orchestratorFindings(lg)
	if len(fs) == 0 {
		return ""
	}
	parts := make([]string, 0, len(fs))
	for _, f := range fs {
		parts = append(parts, strconv.Itoa(f.Count)+"× "+FindingWords(f.Kind)+", first at line "+strconv.Itoa(f.Line)+": "+termsafe.Line(f.Text))
	}
	s := " The orchestrator itself logged " + strings.Join(parts, "; ")
	if !strings.HasSuffix(s, ".") {
		s += "."
	}
	return s
}

// OrchestratorShort is a one-line account of an orchestrator's log that
// shows nothing else (no process of it shows a transceiver line, a failure
// or a finding): what its wait for the workers came to. "" for any other log.
func OrchestratorShort(lg *Log) string {
	if lg.Orchestrator == 0 {
		return ""
	}
	for _, p := range lg.Processes {
		if !lg.OrchestratorOwn(p) {
			return ""
		}
	}
	found := ""
	if fs := orchestratorFindings(lg); len(fs) > 0 {
		found = "; it logged " + strconv.Itoa(fs[0].Count) + "× " + FindingWords(fs[0].Kind) + " (line " + strconv.Itoa(fs[0].Line) + ")"
		if len(fs) > 1 {
			found += " and " + strconv.Itoa(len(fs)-1) + " more kind(s)"
		}
	}
	switch {
	case lg.TimedOut > 0:
		return "the orchestrator gave up waiting for its workers (line " + strconv.Itoa(lg.TimedOut) + ")" + found
	case lg.Ready > 0:
		return "the orchestrator: every server ready (line " + strconv.Itoa(lg.Ready) + ")" + found
	case lg.Waiting != "":
		return "the orchestrator, still waiting for servers (line " + strconv.Itoa(lg.WaitingLine) + ")" + found
	}
	return "the orchestrator (line " + strconv.Itoa(lg.Orchestrator) + "): its workers' logs decide" + found
}

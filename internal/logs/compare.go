package logs

import (
	"fmt"
	"sort"
	"strings"

	"xcvr/resolver"
)

// Mismatch is one place where a process's log disagrees with the prediction.
type Mismatch struct {
	// File is the log's name, in reports of several logs.
	File   string `json:"file,omitempty"`
	Source string `json:"source"`
	// Line is the log line that disagrees; 0 when the disagreement is a line the
	// prediction expects but the log lacks.
	Line    int    `json:"line"`
	Kind    string `json:"kind"`
	Message string `json:"message"`
}

// Mismatch kinds.
const (
	KindOutcome  = "outcome"
	KindRuntime  = "resolved_runtime"
	KindBackend  = "effective_backend"
	KindError    = "error"
	KindMissing  = "missing_line"
	KindExtra    = "unexpected_line"
	KindVersion  = "version"
	KindNoEvents = "no_transceiver_lines"
	// KindInput: an argument dump shows a cache_transceiver_config value
	// other than the one the prediction was given.
	KindInput = "input"
)

// noLinesMessage says why a process or log shows no transceiver lines.
const noLinesMessage = "the log shows none of the lines TensorRT-LLM prints while it creates the transceiver (start-up did not get that far, or the log level hides INFO: set TLLM_LOG_LEVEL=INFO)"

// decisive reports whether an observed line is one the resolution itself prints,
// so its absence from the prediction is a disagreement (device and memory
// housekeeping lines are not).
func decisive(msg string) bool {
	return reResolved().MatchString(msg) || reEra1Fall().MatchString(msg) || reEra2Fall().MatchString(msg) ||
		reEnvWarn().MatchString(msg) || strings.HasPrefix(msg, "Using UCX kv-cache transceiver.") ||
		strings.HasPrefix(msg, "MPI CacheTransceiver is deprecated") || msg == "Using KvCacheTransceiverV2" || msg == "Using PyNativeCacheTransceiver" ||
		msg == "cache_transceiver is disabled" || strings.HasPrefix(msg, "enable_pipelined_transfer is set;")
}

// Compare checks every process of the log against the trace and returns the
// disagreements in log order, so the first one is the earliest line that
// disagrees; disagreements that are missing lines (no line number) come last.
// A TensorRT-LLM log with no transceiver lines at all is one disagreement; a
// file no line of which is TensorRT-LLM's (StatusNotTRTLLM) has none.
func Compare(lg *Log, t resolver.Trace) []Mismatch {
	var out []Mismatch
	if len(lg.Processes) == 0 {
		if lg.Orchestrator > 0 {
			return versionMismatches(lg, t) // the workers' logs decide
		}
		if len(lg.Stated) == 0 {
			return nil // not a TensorRT-LLM log: nothing to compare
		}
		return []Mismatch{{Source: lg.Name, Kind: KindNoEvents, Message: noLinesMessage}}
	}
	out = append(out, versionMismatches(lg, t)...)
	for _, p := range lg.Processes {
		if lg.OrchestratorOwn(p) {
			continue
		}
		out = append(out, compareOne(p, t)...)
	}
	sort.SliceStable(out, func(i, j int) bool {
		a, b := out[i].Line, out[j].Line
		if (a == 0) != (b == 0) {
			return a != 0
		}
		return a < b
	})
	return out
}

// shows reports whether the process printed any line xcvr reads (a
// summarised process keeps none, so its outcome and error count too).
// hasTransceiverLines reports whether the process printed a line about the
// transceiver or its transfers, or failed inside the transceiver: what the
// reports' "with transceiver lines" counts. An exception, a start-up failure
// or a runtime error alone is not one (a process that died loading its model
// shows no transceiver line).
func (p *Process) hasTransceiverLines() bool {
	if o := p.Outcome(); p.xcvrLines || p.Disabled || o != "" && o != resolver.OutcomeError {
		return true
	}
	for _, s := range []string{p.Error, p.Cause} {
		// The C++ transceiver's sources (cacheTransceiver.cpp,
		// cacheTransBuffer.cpp, cache_transmission/…/transferAgent.cpp).
		for _, k := range []string{"cacheTrans", "CacheTrans", "cache_transmission", "transferAgent.cpp", "transceiver"} {
			if strings.Contains(s, k) {
				return true
			}
		}
	}
	return false
}

func (p *Process) shows() bool {
	return len(p.Lines) > 0 || p.LinesDropped > 0 || p.Error != "" || p.Outcome() != "" || p.Backend != "" || len(p.Findings) > 0
}

// compareInputs checks an argument dump's cache_transceiver_config against
// the inputs the prediction was given (not xcvr's defaults).
func compareInputs(p *Process, t resolver.Trace) []Mismatch {
	o := p.Inputs
	if !o.Seen() {
		return nil
	}
	var ms []Mismatch
	stated := func(or resolver.Origin) bool { return !or.IsDefault() && or.Kind != resolver.OriginPreset }
	check := func(field, logged, predicted string, fold bool) {
		if logged == "" || predicted == "" {
			return
		}
		same := logged == predicted || fold && strings.EqualFold(logged, predicted)
		if !same {
			ms = append(ms, Mismatch{Source: p.Source, Line: o.Line, Kind: KindInput,
				Message: fmt.Sprintf("the log's arguments have cache_transceiver_config.%s=%s, the prediction's input is %s", field, logged, predicted)})
		}
	}
	in := t.Inputs
	if stated(in.Backend.Origin) {
		check("backend", o.Backend, in.Backend.Value.Repr(), true)
	}
	if stated(in.Runtime.Origin) {
		check("transceiver_runtime", o.Runtime, in.Runtime.Value.Repr(), true)
	}
	if stated(in.Timeout.Origin) {
		check("kv_transfer_timeout_ms", o.Timeout, in.Timeout.Value.String(), false)
	}
	return ms
}

// sameLine reports whether an observed message is the predicted one. The UCX
// INFO hint is one line in two wordings: xcvr predicts the one read in code
// ("Using UCX kv-cache transceiver. ... upon server hangs or lower-than-expected
// performance.", a stored copy of September 2025), while #6085 (merged
// 2025-07-24, first in 1.0.0rc5) was reviewed with "Use UCX kv-cache
// transervier. ... upon server hangs." and the wording it merged with is not
// read: on the 1.0 line either is the hint, not a disagreement.
func sameLine(observed, predicted string) bool {
	if observed == predicted {
		return true
	}
	return strings.HasPrefix(predicted, "Using UCX kv-cache transceiver.") &&
		(strings.HasPrefix(observed, "Use UCX kv-cache trans") || strings.HasPrefix(observed, "Using UCX kv-cache transceiver."))
}

func firstLine(s string) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i]
	}
	return s
}

func compareOne(p *Process, t resolver.Trace) []Mismatch {
	var ms []Mismatch
	add := func(line int, kind, format string, args ...any) {
		ms = append(ms, Mismatch{Source: p.Source, Line: line, Kind: kind, Message: fmt.Sprintf(format, args...)})
	}
	lineOf := func(pred func(string) bool) int {
		for _, l := range p.Lines {
			if pred(l.Message) {
				return l.N
			}
		}
		return 0
	}
	res := t.Result
	if !p.shows() {
		add(0, KindNoEvents, noLinesMessage)
		return ms
	}
	ms = append(ms, compareInputs(p, t)...)

	// Predicted lines the process should have printed (a summarised process
	// keeps none to look in: its outcome, backend and error are compared).
	for _, pl := range t.Logs {
		if p.Summarised {
			break
		}
		if pl.Level == resolver.LevelInfo && !p.InfoSeen {
			continue // the log level hides INFO lines
		}
		found := false
		for _, l := range p.Lines {
			if sameLine(l.Message, pl.Message) {
				found = true
				break
			}
		}
		if !found {
			add(0, KindMissing, "predicted %s %q is not in the log", pl.Level, pl.Message)
		}
	}
	// Decisive lines the prediction does not have.
	for _, l := range p.Lines {
		if l.Level == "" || !decisive(l.Message) {
			continue
		}
		predicted := false
		for _, pl := range t.Logs {
			if sameLine(l.Message, pl.Message) {
				predicted = true
				break
			}
		}
		if !predicted {
			add(l.N, KindExtra, "the log has %s %q, which the prediction does not print", l.Level, l.Message)
		}
	}

	if p.ResolvedSeen && res.RuntimeKnown && res.ResolvedRuntime != p.Resolved {
		add(lineOf(reResolved().MatchString), KindRuntime, "resolved runtime: predicted %s, the log says %s", res.ResolvedRuntime.Repr(), p.Resolved.Repr())
	}
	if p.Backend != "" && res.EffectiveBackend.Valid && res.EffectiveBackend.S != p.Backend {
		add(0, KindBackend, "effective backend: predicted %s, the log shows %s", res.EffectiveBackend.S, p.Backend)
	}
	obs := p.Outcome()
	switch {
	case obs != "" && obs != res.Outcome:
		what := string(obs)
		if p.ClassInferred {
			why := p.classWhy
			if why == "" {
				why = "no error after a None/'CPP' resolution"
			}
			what += " (inferred: " + why + ")"
		}
		add(0, KindOutcome, "outcome: predicted %s, the log shows %s", res.Outcome, what)
	case obs == resolver.OutcomeError && res.Outcome == resolver.OutcomeError && !sameError(firstLine(p.Error), firstLine(res.Error)):
		add(p.errorLine, KindError, "error: predicted %q, the log raised %q", firstLine(res.Error), firstLine(p.Error))
	case obs == resolver.OutcomeError && res.Outcome == resolver.OutcomeError && strings.Contains(p.Error, "\n") && p.Error != res.Error:
		// Same title, e.g. "1 validation error for TorchLlmArgs": the lines
		// under it say which fields failed and why, and must agree too.
		pl, rl := strings.Split(p.Error, "\n"), strings.Split(res.Error, "\n")
		i := 0
		for i < len(pl) && i < len(rl) && pl[i] == rl[i] {
			i++
		}
		at := func(l []string) string {
			if i < len(l) {
				return l[i]
			}
			return "(nothing more)"
		}
		add(p.errorLine, KindError, "error detail: predicted %q, the log has %q", at(rl), at(pl))
	case obs == "" && res.Outcome == resolver.OutcomeError && p.InfoSeen:
		add(0, KindError, "predicted start-up to fail with %q; the log shows no such error", firstLine(res.Error))
	}

	v := t.Inputs.Version
	for _, im := range p.Implications {
		if (im.After != 0 && v.Main < im.After) || (im.Before != 0 && v.Main >= im.Before) {
			add(im.Line, KindVersion, "%s, but TensorRT-LLM %s behaves like main at %s", im.Text, v.Name, v.Main)
		}
	}
	// Observed lines first, in log order; then what is missing.
	sort.SliceStable(ms, func(i, j int) bool {
		a, b := ms[i].Line, ms[j].Line
		if (a == 0) != (b == 0) {
			return a != 0
		}
		return a < b
	})
	return ms
}

// sameError reports whether the log's error is the predicted one: the same
// line, or a rank's "Failed to initialize executor on rank N: MSG" where the
// prediction raises "Type: MSG".
func sameError(logged, predicted string) bool {
	if logged == predicted {
		return true
	}
	if m := reStartupFailed().FindStringSubmatch(logged); m != nil {
		if _, msg, ok := strings.Cut(predicted, ": "); ok && m[2] == msg {
			return true
		}
	}
	return false
}

// ProcessJSON is one observed process in check-logs' JSON.
type ProcessJSON struct {
	File             string        `json:"file"`
	Source           string        `json:"source"`
	ResolvedRuntime  *string       `json:"resolved_runtime"`
	ResolvedSeen     bool          `json:"resolved_runtime_logged"`
	ResolvedFor      *string       `json:"resolved_for"`
	TransceiverClass *string       `json:"transceiver_class"`
	ClassInferred    bool          `json:"transceiver_class_inferred"`
	EffectiveBackend *string       `json:"effective_backend"`
	Outcome          *string       `json:"outcome"`
	Error            *string       `json:"error"`
	Lines            []Line        `json:"lines"`
	LinesDropped     int           `json:"lines_dropped"`
	Implications     []Implication `json:"implications"`
	ImplicationsDrop int           `json:"implications_dropped"`
	// Cause is a start-up failure's root cause; NixlBackend is NIXL's own
	// backend; Agent the Python transceiver's transfer agent.
	Cause       *string `json:"cause"`
	NixlBackend *string `json:"nixl_backend"`
	Agent       *string `json:"transfer_agent"`
	// Inputs are an argument dump's cache_transceiver_config values (null:
	// none was logged).
	Inputs *InputsJSON `json:"inputs"`
	// Findings are runtime events, counted.
	Findings        []Finding `json:"findings"`
	FindingsDropped int       `json:"findings_dropped"`
	// Summarised is true for a process past the cap on kept detail.
	Summarised bool `json:"summarised"`
	// Status is the process's verdict (see Status), when one was judged.
	Status string `json:"status,omitempty"`
}

// InputsJSON is ObservedInputs in JSON: Python's reprs, null when not shown.
type InputsJSON struct {
	Line    int     `json:"line"`
	Backend *string `json:"backend"`
	Runtime *string `json:"transceiver_runtime"`
	Timeout *string `json:"kv_transfer_timeout_ms"`
}

// ReportJSON is check-logs' JSON object. Predicted is the explain object or nil.
type ReportJSON struct {
	Observed   []ProcessJSON `json:"observed"`
	Predicted  any           `json:"predicted"`
	Mismatches []Mismatch    `json:"mismatches"`
}

func opt(s string) *string {
	if s == "" {
		return nil
	}
	return &s
}

// JSON builds check-logs' JSON object. resolved_runtime is "PYTHON", "CPP" or null
// (Python's None, or not logged: see resolved_runtime_logged).
func JSON(lg *Log, predicted any, ms []Mismatch) ReportJSON {
	r := ReportJSON{Observed: make([]ProcessJSON, 0, len(lg.Processes)), Predicted: predicted, Mismatches: ms}
	if r.Mismatches == nil {
		r.Mismatches = []Mismatch{}
	}
	for _, p := range lg.Processes {
		r.Observed = append(r.Observed, processJSON(lg, p))
	}
	return r
}

func processJSON(lg *Log, p *Process) ProcessJSON {
	pj := ProcessJSON{File: lg.Name, Source: p.Source, LinesDropped: p.LinesDropped, ImplicationsDrop: p.ImplicationsDropped, ResolvedSeen: p.ResolvedSeen, ResolvedFor: opt(p.ResolvedFor),
		TransceiverClass: opt(p.Class), ClassInferred: p.ClassInferred, EffectiveBackend: opt(p.Backend),
		Outcome: opt(string(p.Outcome())), Error: opt(p.Error), Lines: p.Lines, Implications: p.Implications,
		Cause: opt(p.Cause), NixlBackend: opt(p.NixlBackend), Agent: opt(p.Agent), Findings: p.Findings,
		FindingsDropped: p.FindingsDropped, Summarised: p.Summarised}
	if p.ResolvedSeen && p.Resolved.Valid {
		pj.ResolvedRuntime = opt(p.Resolved.S)
	}
	if o := p.Inputs; o.Seen() {
		pj.Inputs = &InputsJSON{Line: o.Line, Backend: opt(o.Backend), Runtime: opt(o.Runtime), Timeout: opt(o.Timeout)}
	}
	if pj.Lines == nil {
		pj.Lines = []Line{}
	}
	if pj.Implications == nil {
		pj.Implications = []Implication{}
	}
	if pj.Findings == nil {
		pj.Findings = []Finding{}
	}
	return pj
}

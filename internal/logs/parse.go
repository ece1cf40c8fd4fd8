// Package logs reads a TensorRT-LLM server log and reports, per process, what the
// transceiver resolution actually did — the lines TensorRT-LLM prints while it
// resolves transceiver_runtime and creates the transceiver — and compares that with
// a prediction. It understands plain logs, srun ("0: "), mpirun
// ("[1,5]<stderr>:") and kubectl --prefix ("[pod/x/c] ") prefixes, every
// release's "[date] [TRT-LLM] [RANK n] [I]" prefix (1.3's module tags and ranks
// after the level too), the C++ side's "[TensorRT-LLM][INFO]", condensed and
// indented pasted excerpts, collector timestamps and ANSI colour.
package logs

import (
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"unicode/utf8"

	"xcvr/resolver"
)

// Limits that keep memory bounded on multi-gigabyte logs: only recognised lines
// are kept, a few per process, and over-long lines are cut.
const (
	maxLineBytes       = 64 << 10
	maxLinesPerProcess = 64
	maxImplications    = 32
	// maxProcesses is how many processes keep their lines and implications;
	// past it a process is summarised: its outcome, backend and error still
	// count, nothing else is kept.
	maxProcesses = 4096
	// maxTracked is how many processes a log is read as, each counted and
	// judged apart; the lines of any further process are read as one more,
	// overflowKey's. Each process costs its record and its keys in several
	// maps (about 800 bytes): 400,000 distinct srun labels in a 19 MB file
	// took 312 MB. 65,536 is 16 times maxProcesses and more ranks than a
	// TensorRT-LLM job has; the overflow's failure still decides the verdict.
	maxTracked = 1 << 16
	// maxFindings bounds the kinds of runtime finding kept per process.
	maxFindings = 16
	// maxMessageBytes cuts a kept line or exception title; TensorRT-LLM's own
	// lines are far shorter, so only a hostile or corrupt log reaches it.
	maxMessageBytes = 4 << 10
	maxDetailBytes  = 1 << 10
	// maxNameBytes bounds a name from the log that a note repeats (a
	// library's, an address): the note's own text stays the note's.
	maxNameBytes = 256
	// maxRetained is what one log may keep in lines and texts in all; past it,
	// a finding keeps its kind, line and count, not its text.
	maxRetained = 4 << 20
)

// Line is one recognised log line.
type Line struct {
	// N is the 1-based line number in the input.
	N int `json:"line"`
	// Level is INFO, WARNING, ERROR, DEBUG, "-" for a pasted line that does not
	// say (LevelUnstated), or "" for an exception line.
	Level string `json:"level"`
	// Message is the text after every prefix, as TensorRT-LLM formatted it.
	Message string `json:"message"`
}

// LevelUnstated is the level of a line pasted without its logger's level.
const LevelUnstated = "-"

// Process is what one rank or task of the log shows.
type Process struct {
	// Source names the process: "rank 0" (TensorRT-LLM's [RANK n]), "srun task 1",
	// "mpirun [1,5]", "pod/x/c" or "pod/x/c rank 1" (kubectl --prefix), "ctx-1"
	// or "ctx-1 rank 1" (docker compose's container name),
	// "process" for a log of one process, "process without rank" for lines
	// TensorRT-LLM printed without a rank beside ranked ones, a Ray worker's
	// prefix ("RayWorkerWrapper pid=2012, ip=10.0.0.3 rank 1"), "Ray driver"
	// for the lines without a prefix in a stream with Ray's (ray.go).
	Source string
	// Resolved is the runtime logged by "Resolved transceiver_runtime='auto' to …";
	// ResolvedSeen is false when no such line was logged.
	Resolved     resolver.PyStr
	ResolvedSeen bool
	// ResolvedFor is the class named in that line, or "unknown model".
	ResolvedFor string
	// Class is the transceiver class built, when the log shows it: the Python one
	// logs "Using KvCacheTransceiverV2"; the C++ one logs nothing, so it is
	// inferred from a None/'CPP' resolution that ran into no error, or from
	// the backend's line in a build that has only the C++ transceiver
	// (ClassInferred; classWhy says which when it is the latter).
	Class         string
	ClassInferred bool
	classWhy      string
	// Backend is the effective backend the lines pin down, "" when none does.
	Backend string
	// NixlBackend is NIXL's own backend (UCX, LIBFABRIC) when the NIXL
	// transfer agent logs it; Agent says which transfer agent the Python
	// transceiver loaded ("C++ binding", "pure Python").
	NixlBackend, Agent string
	// Cause is the root cause of a start-up failure, when the log shows one
	// (the text after "Failed to initialize executor on rank N:", or the line
	// under it).
	Cause string
	// Inputs are the cache_transceiver_config values an argument dump shows.
	Inputs ObservedInputs
	// Findings are runtime events (KV-transfer timeouts, buffer warnings):
	// not the start-up outcome, but often why the operator came.
	Findings []Finding
	// FindingsDropped counts findings of kinds past maxFindings.
	FindingsDropped int
	// Summarised is true for a process past maxProcesses: its outcome,
	// backend and error count, its lines are not kept.
	Summarised bool
	// EnvVar is the TRTLLM_USE_*_KVCACHE variable a warning says was "1".
	EnvVar string
	// Disabled is true after "cache_transceiver is disabled".
	Disabled bool
	// DisabledSaid is the words the log said it with: the Python executor's
	// "cache_transceiver is disabled", the C++ executor's "CacheTransceiver
	// is disabled." (a TensorRT engine's), or the per-request assertion's
	// "kv_cache_transceiver is disabled"; the verdict quotes them.
	DisabledSaid string
	// Fallback is the fallback line's reason, if one was logged.
	Fallback string
	// Error is the first exception raised (with a pydantic error's detail lines).
	Error string
	// InfoSeen is true when the process printed any INFO line, i.e. the log level
	// lets INFO through; missing INFO lines mean something only then.
	InfoSeen bool
	// Lines are the recognised lines, in order.
	Lines []Line
	// Implications are facts the lines pin down that the user may not have given.
	Implications []Implication

	// LinesDropped counts recognised lines not kept: repeats of a kept line
	// and lines past the per-process or per-log caps.
	LinesDropped int
	// ImplicationsDropped counts implications past the per-process cap.
	ImplicationsDropped int

	firstLine int
	// serverUp is the line where this process's trtllm-serve said its
	// server was up (0: never): start-up, its transceiver step included,
	// was over by then.
	serverUp int
	// dynamoUp is true when the line at serverUp was a Dynamo worker's
	// "Set runtime config max_num_seqs: N" (its engine built), not
	// uvicorn's.
	dynamoUp bool
	// xcvrLines is true once a line about the transceiver or its transfers
	// was read (not only an exception or a start-up failure).
	xcvrLines bool
	// loopRan is the line where the log shows this process's executor
	// event loop running (it raised; 0: never): the executor was built, and
	// its transceiver before it.
	loopRan int
	// loopSubmit says loopRan is the worker's submit of a request
	// (submitFrame), not PyExecutor's event loop.
	loopSubmit bool
	errorLine  int
	// classLine is the line that showed Class (not inferred).
	classLine int
	// twoClasses is set once the note that two transceivers' lines share
	// the key was said (setClass): it is said once, not at every line that
	// changes kind again.
	twoClasses bool
	budget     *int
	seenImpl   map[string]bool
	// unranked is true when TensorRT-LLM's logger printed lines without a rank
	// here: a process of its own, not one of the ranked ones.
	unranked bool
	// causeOpen is true while the lines under a start-up failure may carry
	// its root cause; causeLines counts them.
	causeOpen  bool
	causeLines int
	// causeRepr says the open cause is under a weight-loading task's
	// failure whose args' repr goes on over lines (reLoadFailedOpen): its
	// lines are the repr's until the one that closes it with the error.
	causeRepr bool
	// causeURL says the open cause, a weight-loading task's, may go on
	// only with the rest of a URL a paste broke (urlCut).
	causeURL bool
	causeTB  bool // inside a Python traceback under the failure
	// causeBase is the indentation the lines under the failure are
	// indented from: the failure's own column, as its first cause line or
	// a traceback's first line shows it (0 until one does). A paste
	// indented as a whole (a markdown code block) reads as it would not.
	causeBase int
	// causeWidth is how wide the cause's last line was (in characters,
	// its indentation included) while a line under it may be that line's
	// word-wrapped rest (wrapsOn); 0 when none may.
	causeWidth int
	// held is true for a process made only by UCX's error lines, printed
	// before the first TensorRT-LLM line of their key (state.ucxOwner): it
	// is the process that follows once a line of its own makes it (get),
	// or is folded into the ranked one(s) that follow; else finish drops it.
	held bool
	// orchestrator is true when the trtllm-serve disaggregated orchestrator's
	// lines were printed here: a process that shows nothing of a worker's
	// (no outcome, error or transceiver line) is the orchestrator itself,
	// whose findings (its requests' failures) the orchestrator's summary
	// says (Log.OrchestratorOwn).
	orchestrator bool
}

// OrchestratorOwn reports whether p is the orchestrator's own process in an
// orchestrator's log (or shows nothing at all): it creates no transceiver,
// so it is not judged as a worker; what it shows is the log's summary's.
func (lg *Log) OrchestratorOwn(p *Process) bool {
	return lg.Orchestrator > 0 && (!p.shows() || p.orchestrator && p.orchestratorLike())
}

// orchestratorLike reports whether p shows nothing only a worker shows: no
// outcome, error, transceiver line, backend or resolution, and no executor
// loop (the orchestrator runs none: an exception under PyExecutor's loop or
// a worker's submit, printed into the stream the orchestrator shares with
// its workers, is a worker's).
func (p *Process) orchestratorLike() bool {
	return p.Outcome() == "" && p.Error == "" && !p.xcvrLines && p.Backend == "" && !p.ResolvedSeen && p.loopRan == 0
}

// Finding is a runtime event of one kind, counted.
type Finding struct {
	Kind string `json:"kind"`
	// Line and Text are its first occurrence.
	Line  int    `json:"line"`
	Text  string `json:"text"`
	Count int    `json:"count"`
}

// Finding kinds.
const (
	FindingTransferTimeout = "kv_transfer_timeout"
	FindingDynamicBuffer   = "dynamic_buffer"
	FindingNixlBackend     = "nixl_backend_fallback"
	FindingTransferFailed  = "kv_transfer_failed"
	FindingTransferWait    = "kv_transfer_wait_timeout"
	FindingKVExhausted     = "kv_cache_exhausted"
	// FindingNoTransceiver is a disaggregated request that reached a worker
	// built without a transceiver.
	FindingNoTransceiver = "disagg_request_without_transceiver"
	// FindingRuntimeError is an exception raised after the server was up,
	// or by the executor's event loop.
	FindingRuntimeError = "runtime_error"
	// FindingCrashed is a process that died on a fatal signal or an
	// uncaught C++ exception after its start-up was over.
	FindingCrashed = "process_crashed"
	// FindingUCXError is one of UCX's own ERROR (or FATAL) lines.
	FindingUCXError = "ucx_error"
	// FindingCacheMismatch is a transceiver refusing to move a KV cache
	// between workers whose KV caches differ.
	FindingCacheMismatch = "kv_cache_mismatch"
	// FindingTransferCancelled is a transfer the Python transceiver gave up
	// because its request's session had been cancelled.
	FindingTransferCancelled = "kv_transfer_cancelled"
)

// ObservedInputs are the cache_transceiver_config values an argument dump
// shows, as Python printed them ('NIXL', None, 60000); "" when not shown.
type ObservedInputs struct {
	Line                      int
	Backend, Runtime, Timeout string
}

// Seen reports whether an argument dump was read.
func (o ObservedInputs) Seen() bool { return o.Line > 0 }

// Implication is a fact a log line proves, such as the build's age or an env var.
type Implication struct {
	Line int    `json:"line"`
	Text string `json:"text"`
	// After and Before bound the build's main-branch day when the line dates it
	// (After inclusive, Before exclusive; 0 = unbounded).
	After  resolver.Day `json:"-"`
	Before resolver.Day `json:"-"`
}

// Outcome is what the process ended with, in the resolver's terms, or "" when the
// log does not show it (e.g. it stops before the transceiver is created).
func (p *Process) Outcome() resolver.Outcome {
	switch {
	case p.Error != "":
		return resolver.OutcomeError
	case p.Disabled:
		return resolver.OutcomeDisabled
	case p.Class == resolver.ClassPython || p.Class == resolver.ClassPythonNative:
		return resolver.OutcomePython
	case p.Class == resolver.ClassCPP:
		return resolver.OutcomeCPP
	}
	return ""
}

// Log is a parsed log: its processes in order of first appearance.
type Log struct {
	Name      string
	Processes []*Process
	// Lines is the number of lines read.
	Lines int
	// Stated are the versions the log states ("TensorRT-LLM version: …"),
	// distinct, in order of first appearance.
	Stated []StatedVersion
	// Summarised counts processes past maxProcesses (see Process.Summarised).
	Summarised int
	// Overflow counts the lines of processes past maxTracked, read as one
	// process (overflowKey) and not counted apart.
	Overflow int
	// Orchestrator is the line that shows this is the log of the
	// `trtllm-serve disaggregated` orchestrator (0 when none does): its
	// workers' logs decide.
	Orchestrator int
	// Waiting is what the orchestrator last said it waits for ("context:
	// ['http://ctx-0:8001'], generation: []"), at line WaitingLine; Ready is
	// the line that says every server is ready (0: none yet), TimedOut the
	// line of its TimeoutError: it gave up waiting (server_start_timeout).
	Waiting     string
	WaitingLine int
	Ready       int
	TimedOut    int
	// trtllm is true once a line of TensorRT-LLM's was read: a tagged line,
	// a line classify knows (a pasted executor or transceiver line, an
	// argument dump), NIXL's agent's errors, an exception of TensorRT-LLM's
	// own ("[TensorRT-LLM]" in its message, a KV-cache transfer's
	// RequestError) or its executor's loop. Without one, and without a
	// version or orchestrator line, the log is not TensorRT-LLM's: a crash
	// handler's, a launcher's or a traceback's lines alone (a benchmark
	// client's segfault log in the job's directory) make no process.
	trtllm bool
	// mpiSpawn is the line where mpi4py's thread that spawns the executor's
	// MPI workers raised (mpiSpawnHeader; 0: none did).
	mpiSpawn int
	// ray is true once a line behind Ray's prefix was read (rayKey): the
	// lines without a prefix are its driver's own (ray.go).
	ray bool
}

// Orchestrator lines (tensorrt_llm/serve/openai_disagg_server.py and the
// disaggregated service after it, verified): it says it waits, lists the
// servers not ready every few seconds, says when all are, or gives up with
// orchestratorTimeout.
const (
	orchestratorWaiting  = "Waiting for context and generation servers to be ready"
	orchestratorTimeout  = "Timeout waiting for context and generation servers to be ready"
	orchestratorNotReady = "Servers are not ready. Waiting for " // after "[iter] "
	orchestratorServers  = "Waiting for servers, "               // "context: [...], generation: [...]"
)

// orchestratorRouter starts the line the orchestrator's router logs once a
// worker answered its /server_info ("server is ready with info: {…}",
// Router._prepare_server in tensorrt_llm/serve/router.py, verified; only the
// disaggregated server builds routers).
const orchestratorRouter = "server is ready with info: "

// orchestratorReady reports whether msg is the orchestrator's word that
// every server is ready.
func orchestratorReady(msg string) bool {
	return msg == "Context and generation servers are ready" || msg == "All servers are ready" ||
		strings.HasPrefix(msg, "Generation servers are ready (context")
}

// orchestratorUnready returns what a line of the orchestrator says it still
// waits for ("" when msg is not such a line).
func orchestratorUnready(msg string) string {
	if w, ok := strings.CutPrefix(msg, orchestratorServers); ok && strings.HasPrefix(w, "context: ") {
		return w
	}
	if strings.HasPrefix(msg, "[") { // "[3] Servers are not ready. Waiting for [...]..."
		if i := strings.IndexByte(msg, ']'); i > 1 && i < 12 && digitsOnly(msg[1:i]) {
			msg = strings.TrimPrefix(msg[i+1:], " ")
		}
	}
	if w, ok := strings.CutPrefix(msg, orchestratorNotReady); ok {
		return strings.TrimSuffix(w, "...")
	}
	return ""
}

func digitsOnly(s string) bool {
	for _, c := range []byte(s) {
		if c < '0' || c > '9' {
			return false
		}
	}
	return s != ""
}

// orchestratorSeen records that line n is the orchestrator's.
func (lg *Log) orchestratorSeen(n int) {
	if lg.Orchestrator == 0 {
		lg.Orchestrator = n
	}
}

// StatedVersion is a version line of the log.
type StatedVersion struct {
	Version string `json:"version"`
	Line    int    `json:"line"`
	// Source is the process key of the line ("" when it has none).
	Source string `json:"source"`
}

// maxStated bounds the distinct versions kept from one log.
const maxStated = 16

func (lg *Log) stateVersion(n int, key, v string) {
	for _, s := range lg.Stated {
		if s.Version == v {
			return
		}
	}
	if len(lg.Stated) < maxStated {
		lg.Stated = append(lg.Stated, StatedVersion{Version: cutText(v, 64), Line: n, Source: key})
	}
}

var (
	// reExc is a Python exception's last line: a class named …Error or
	// …Exception, or Exception itself (Python's own, and mpi4py.MPI.Exception,
	// what a failed MPI spawn of the executor's workers raises).
	reExc = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`^((?:[A-Za-z_][A-Za-z0-9_]*\.)*(?:[A-Za-z_][A-Za-z0-9_]*(?:Error|Exception)|Exception)): (.*)$`)
	})
	reLoc = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_.\[\]]*$`) })
)

// mayExc is a cheap necessary condition of reExc: the exception's name,
// which holds no ':', ends in Error or Exception right before the line's
// first ':', and a blank follows it. The regexp, run on every line a
// traceback passes on (its File and code lines too), was the most of a
// log of tracebacks' time.
func mayExc(t string) bool {
	i := strings.IndexByte(t, ':')
	if i < 0 || i+1 >= len(t) || t[i+1] != ' ' {
		return false
	}
	return strings.HasSuffix(t[:i], "Error") || strings.HasSuffix(t[:i], "Exception")
}

func (p *Process) key() string { return p.Source }

// ucxTLS is the UCX_TLS value BindingsNixlTransferAgent's init line shows
// ("… UCX_TLS=tcp UCX_LOG_LEVEL=…"); ok is false when it is <unset>.
func ucxTLS(msg string) (string, bool) {
	i := strings.Index(msg, " UCX_TLS=")
	if i < 0 {
		return "", false
	}
	v := msg[i+len(" UCX_TLS="):]
	if j := strings.IndexByte(v, ' '); j >= 0 {
		v = v[:j]
	}
	return v, v != "" && v != "<unset>"
}

// ucxHasCUDA reports whether a UCX_TLS value lets UCX open CUDA memory: it
// names a CUDA transport (cuda, cuda_copy, cuda_ipc, gdr_copy), is "all", or
// is an exclusion list ("^…", everything else allowed).
func ucxHasCUDA(tls string) bool {
	if strings.HasPrefix(tls, "^") {
		return true
	}
	for _, t := range strings.Split(tls, ",") {
		if t == "all" || strings.HasPrefix(t, "cuda") || strings.HasPrefix(t, "gdr") {
			return true
		}
	}
	return false
}

// isTransceiverError picks the ERROR logger lines worth keeping: those about
// validation and transceiver creation. (Exceptions are all kept: any exception
// that reaches the log during start-up is what the process raised.)
func isTransceiverError(typ, msg string) bool {
	if strings.HasSuffix(typ, "ValidationError") {
		return true
	}
	for _, k := range []string{"transceiver", "Transceiver", "cache_transceiver_config", "kv_transfer_timeout_ms",
		"backend", "enable_pipelined_transfer", "Parameter ", "unsupported operand type(s) for /: 'NoneType' and 'float'",
		"MambaHybridCacheManager", "Kimi K3", "INFLIGHT_CANCEL", "Configuration file root"} {
		if strings.Contains(msg, k) {
			return true
		}
	}
	return false
}

// keep records a recognised line: once per distinct level and message (the
// first occurrence), at most maxLinesPerProcess, within the log's budget.
func (p *Process) keep(l Line) {
	if len(l.Message) > maxMessageBytes {
		l.Message = cutText(l.Message, maxMessageBytes)
	}
	// The key of the seen set is charged as before, although the set is
	// now p.Lines itself (at most maxLinesPerProcess, searched in order).
	if p.Summarised || len(p.Lines) >= maxLinesPerProcess || p.kept(l) || p.over(len(l.Level)+1+len(l.Message)) {
		p.LinesDropped++
		return
	}
	p.Lines = append(p.Lines, l)
}

// kept reports whether a line of l's level and message is kept already.
func (p *Process) kept(l Line) bool {
	for i := range p.Lines {
		if p.Lines[i].Message == l.Message && p.Lines[i].Level == l.Level {
			return true
		}
	}
	return false
}

// over charges n bytes to the log's budget, reporting whether it is spent.
func (p *Process) over(n int) bool {
	if p.budget == nil {
		return false
	}
	if *p.budget+2*n > maxRetained {
		return true
	}
	*p.budget += 2 * n // the text and its key in the seen set
	return false
}

func (p *Process) imply(n int, text string, after, before resolver.Day) {
	if p.Summarised {
		p.ImplicationsDropped++
		return
	}
	if p.seenImpl == nil {
		p.seenImpl = map[string]bool{}
	}
	if p.seenImpl[text] {
		return
	}
	if len(p.Implications) >= maxImplications || p.over(len(text)) {
		p.ImplicationsDropped++
		return
	}
	p.seenImpl[text] = true
	p.Implications = append(p.Implications, Implication{Line: n, Text: text, After: after, Before: before})
}

// Merge days the implications use (spec §1).
const (
	day16164 resolver.Day = 20260716
	// transceiver_runtime arrives with PyNativeCacheTransceiver (1.3.0rc8);
	// KvCacheTransceiverV2 replaces it about 2026-03-27 (inferred day; the
	// resolver's dayPyTransceiverV2 gives the evidence).
	dayFieldExists     resolver.Day = 20260317
	dayPyTransceiverV2 resolver.Day = 20260327
	day17137           resolver.Day = 20260810
	day18134           resolver.Day = 20260828
	day15727           resolver.Day = 20260902
)

var (
	reResolved = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`^Resolved transceiver_runtime='auto' to (None|'CPP'|'PYTHON') for (.+)\.$`)
	})
	reEra1Fall = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`^Model prefers the Python transceiver, but backend (\S+) does not support it; falling back to the C\+\+ transceiver\.$`)
	})
	reEra2Fall = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^Falling back to the C\+\+ transceiver: (.*)\.$`) })
	reEra2Back = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`^backend '([A-Z]+)' \(the Python transceiver requires NIXL\)$`)
	})
	reEnvWarn = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`^(TRTLLM_USE_([A-Z]+)_KVCACHE)=1 is set, but it's recommended to set cache_transceiver_config\.backend in yaml config$`)
	})
	rePyNotNIXL = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`^Python transceiver currently only supports (NIXL or DEFAULT backend|the NIXL backend|NIXL backend), got (\S+)\. `)
	})
	reKVV2Fall = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`^KV cache manager V2 is the model preference, but disaggregated serving uses transceiver_runtime=(\S+) with backend=(\S+); falling back to V1\.$`)
	})
	reDeviceV2   = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^device_id: \d+ in KvCacheTransceiverV2$`) })
	reDeviceNat  = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^device_id: \d+ in PyNativeCacheTransceiver$`) })
	reInflightOn = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`^TRTLLM_DISAGG_ENABLE_INFLIGHT_CANCEL=1: disagg KV transfer in-flight cancellation was requested`)
	})
)

// lineKind is what a recognised line is about (classify).
type lineKind int

const (
	lineNone lineKind = iota
	lineResolved
	lineEra1Fall
	lineEra2Fall
	lineEnvWarn
	lineUCX
	lineMPI
	lineCppTransport
	linePython
	linePyNative
	lineDisabled
	linePipelined
	lineKVV2Fall
	lineKVManager
	lineInflight
	linePyCppManager
	lineTransceiverError
	lineStartupFailed
	lineWorkerError
	lineNixlAgent
	lineNixlAddress
	lineNixlFallback
	lineAgentCpp
	lineAgentBindingsInit
	lineAgentPython
	lineArgs
	lineTimeout
	lineTransferFailed
	lineTransferWait
	lineKVExhausted
	lineCacheMismatch
	linePeerIncompatible
	lineTransferCancelled
	lineDynamicBuffer
	lineCppManager
	lineLoadFailed
	lineWorkerInitError
)

// loadFailedPrefix starts run_concurrently's ERROR line for a weight-loading
// task that raised (lineLoadFailed).
const loadFailedPrefix = "Error executing "

var (
	// reLoadFailed is that line: the task's function, then str(e) after the
	// args' repr (a tuple: "('model.layers.29.mlp.gate_up_proj', Linear())").
	reLoadFailed = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`^Error executing ([A-Za-z_][A-Za-z0-9_]*) with args \(.*?\): (.+)$`)
	})
	// reLoadFailedOpen is that line when the args' repr goes on over lines:
	// a module with children prints one per line ("('model.layers.8.mlp.
	// down_proj', Linear(" over "  (all_reduce): AllReduce()", then
	// ")): CUDA out of memory. …", TensorRT-LLM issue #7818's rank 6), so
	// the line ends inside the repr, on its opening parenthesis.
	reLoadFailedOpen = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`^Error executing ([A-Za-z_][A-Za-z0-9_]*) with args \(.*\($`)
	})
	// reReprClose is the line that closes such a repr and the args' tuple,
	// then str(e): "))" and more closing parentheses, ": ", the error.
	reReprClose = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`^\)+: (.+)$`)
	})
	// reStartupFailed is worker.py's f"Failed to initialize executor on
	// rank {rank}: {e}". The rank may be a placeholder a report put for
	// every rank ("on rank N:", as a 1.3.0rc15 NVRTC failure's write-up
	// condenses its identical lines of all ranks): still that failure.
	reStartupFailed = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`^Failed to initialize executor on rank (\d+|[^\s:\d][^\s:]{0,15}):\s*(.*)$`)
	})
	reNixlAgent = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`^(?:Bindings)?NixlTransferAgent\b.*\busing NIXL backend: ([A-Za-z0-9_]+)`)
	})
	reNixlFallback = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^Unsupported NIXL backend: (\S+), fallback to UCX`) })
	reTimeout      = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`^(?:Terminating (?:context |generation )?request|Requesting cancellation for (?:context |generation )?request|Observed timeout on (?:context |generation )?request) \S+ due to KV cache transfer timeout`)
	})
	// reTxSession is KvCacheTransceiverV2's (and PyNativeCacheTransceiver's)
	// warning about a context request's send session: m[2] says whether it
	// failed or is still waited on.
	reTxSession = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`^TxSession (?:rid=)?(\S+) (failed|failed to complete|timed out after \S+ms|exceeded kv_transfer_timeout_ms=\S+ms; keeping it in progress|timed out waiting for completion)$`)
	})
	reArgsDict = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`'cache_transceiver_config': \{([^{}]*)\}`) })
	reArgsRepr = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`cache_transceiver_config=CacheTransceiverConfig\(([^()]*)\)`)
	})
	reArgValue = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`(?:'(backend|transceiver_runtime|kv_transfer_timeout_ms)': |\b(backend|transceiver_runtime|kv_transfer_timeout_ms)=)('[^']*'|None|-?\d+|<[^>]*>)`)
	})
)

// classify says what a line is about; m holds the submatches the kind uses.
// It is pure: a line that classifies as lineNone changes nothing.
func classify(level, msg string) (k lineKind, m []string) {
	// Each pattern starts with a literal: check it before running the regexp,
	// and run the regexp once. (A log of distinct findings sends every line here.)
	match := func(prefix string, re *regexp.Regexp) bool {
		if !strings.HasPrefix(msg, prefix) {
			return false
		}
		m = re.FindStringSubmatch(msg)
		return m != nil
	}
	switch {
	case match("Resolved transceiver_runtime=", reResolved()):
		return lineResolved, m
	case match("Model prefers the Python transceiver", reEra1Fall()):
		return lineEra1Fall, m
	case match("Falling back to the C++ transceiver: ", reEra2Fall()):
		return lineEra2Fall, m
	case match("TRTLLM_USE_", reEnvWarn()):
		return lineEnvWarn, m
	case strings.HasPrefix(msg, "Using UCX kv-cache transceiver.") || strings.HasPrefix(msg, "Use UCX kv-cache trans"):
		// "Use UCX kv-cache transervier." is the wording PR #6085 added (1.0
		// era); later releases print "Using UCX kv-cache transceiver.".
		return lineUCX, nil
	case msg == "MPI CacheTransceiver is deprecated, UCX or NIXL is recommended":
		return lineMPI, nil
	case msg == "Enable UCX KV cache transport." || msg == "Enable NIXL KV cache transport.":
		// The C++ CacheTransceiver's own line before PR #5234 (1.0.0rc0 to
		// rc3), when a TRTLLM_USE_*_KVCACHE variable chose the transport
		// (verified: the lines #5234's diff removes from cacheTransceiver.cpp).
		return lineCppTransport, nil
	case strings.HasSuffix(msg, " Connection Manager created") && cppManagerBackend(msg) != "":
		// The C++ CacheTransceiver's constructor, once it made the
		// connection manager of its backend (TLLM_LOG_INFO in
		// cacheTransceiver.cpp, verified in copies from before MOONCAKE to
		// today's; Dynamo's TensorRT-LLM 0.21 worker log in its issue #1299
		// shows "UCX Connection Manager created"). Only BindKvCacheTransceiver
		// builds that class: the transceiver is the C++ one.
		return lineCppManager, nil
	case msg == "Using KvCacheTransceiverV2" || (strings.HasPrefix(msg, "device_id: ") && reDeviceV2().MatchString(msg)):
		return linePython, nil
	case msg == "Using PyNativeCacheTransceiver" || (strings.HasPrefix(msg, "device_id: ") && reDeviceNat().MatchString(msg)):
		// The Python transceiver of 1.3.0rc8 and rc9 (create_kv_cache_transceiver
		// logs the first, PyNativeCacheTransceiver.__init__ the second;
		// verified in a copy of main about 2026-03-17..20).
		return linePyNative, nil
	case msg == "cache_transceiver is disabled" || msg == cppDisabled:
		return lineDisabled, nil
	case strings.HasPrefix(msg, "enable_pipelined_transfer is set; auto-selecting the Python transceiver"):
		return linePipelined, nil
	case match("KV cache manager V2 ", reKVV2Fall()):
		return lineKVV2Fall, m
	case strings.HasPrefix(msg, "Resolved use_kv_cache_manager_v2='auto' to "):
		// ModelLoader's KV-cache manager line (#15823's model-defaults form):
		// kept so a prediction that prints it can be checked.
		return lineKVManager, nil
	case match("TRTLLM_DISAGG_ENABLE_INFLIGHT_CANCEL=1:", reInflightOn()):
		return lineInflight, m
	case strings.HasPrefix(msg, "Python cache transceiver with C++ KV cache manager detected"):
		return linePyCppManager, nil
	case match("Failed to initialize executor on rank ", reStartupFailed()):
		return lineStartupFailed, m
	case level == "ERROR" && match(loadFailedPrefix, reLoadFailed()):
		// A weight-loading task that raised: run_concurrently (_torch/models/
		// modeling_utils.py, verified in copies of 1.0 and later) logs
		// "Error executing {func.__name__} with args {arg}: {e}" and raises
		// it again, so the model, and the executor, are never built (TensorRT-
		// LLM issue #6281: a rank's load_single_module out of CUDA memory,
		// the only line its failure printed).
		return lineLoadFailed, m
	case level == "ERROR" && match(loadFailedPrefix, reLoadFailedOpen()):
		// The same line, the args' repr going on over the lines under it,
		// str(e) after it (m gets no error: continueCause reads it).
		return lineLoadFailed, append(m, "")
	case strings.HasPrefix(msg, "Executor worker returned error") || (level == "ERROR" && strings.Contains(msg, "Executor worker returned error")):
		return lineWorkerError, nil
	case level == "ERROR" && strings.HasPrefix(msg, workerInitError):
		return lineWorkerInitError, nil
	case strings.Contains(msg, "NixlTransferAgent") && strings.Contains(msg, "using NIXL backend: "):
		if m = reNixlAgent().FindStringSubmatch(msg); m != nil {
			return lineNixlAgent, m
		}
	case strings.HasPrefix(msg, nixlAddressPrefix):
		// The C++ NIXL agent's constructor, in every release that has it
		// (verified: TLLM_LOG_INFO in nixl_utils/transferAgent.cpp, after
		// createBackend). Builds before the "using NIXL backend" line print
		// only this one: Dynamo's TensorRT-LLM 1.0 logs show it with "NIXL
		// Connection Manager created".
		return lineNixlAddress, nil
	case match("Unsupported NIXL backend: ", reNixlFallback()):
		return lineNixlFallback, m
	case strings.HasPrefix(msg, "BindingsNixlTransferAgent init: "):
		// The Python transceiver's NIXL agent over the C++ binding, built
		// (verified: logger.info in _torch/disaggregation/nixl/_agent_cpp.py
		// after the C++ agent's constructor; older builds print nothing there),
		// with the UCX_TLS of its process.
		return lineAgentBindingsInit, nil
	case msg == "Using C++ transfer agent binding" ||
		msg == "Using Pybind transfer agent binding for Transfer Agent implementation.":
		// The Python transceiver's transfer-agent module (the second is an
		// earlier wording of the same logger.info in
		// _torch/disaggregation/base/agent.py, read in a stored copy).
		return lineAgentCpp, nil
	case msg == "C++ transfer agent binding unavailable, using pure Python implementation" ||
		msg == "Using pure Python transfer agent (forced by TRTLLM_USE_PY_NIXL_KVCACHE)" ||
		msg == "Failed to import Pybind transfer agent binding, using pure Python implementation." ||
		msg == "Forcing use of pure Python NIXL KV Transfer Agent implementation.":
		return lineAgentPython, nil
	case strings.HasPrefix(msg, "CacheTransceiver getOrAllocateBuffers: bufferCoverTargetNum:"):
		// The C++ transceiver's send buffer does not cover every target, so
		// it allocates dynamic buffers (TLLM_LOG_WARNING in
		// cacheTransBuffer.cpp, verified). Newer builds say "may use dynamic
		// buffer which will fail with NIXL backend. It is recommended to
		// set cacheTransceiverConfig.MaxTokensInBuffer …", older ones "may
		// use dynamic buffer, it's better to increase MaxTokensInBuffer in
		// cacheTransceiverConfig, otherwise, the performance may be
		// degraded"; both start so, and nothing else does (a paste that
		// wraps the line keeps this much on its first line).
		return lineDynamicBuffer, nil
	case strings.HasPrefix(msg, "Timed out waiting for context KV cache transfer after ") ||
		strings.HasPrefix(msg, "Request ") && strings.Contains(msg, " timed out waiting for context KV cache transfer after"):
		// The context side still waiting for the generation side to take a
		// request's KV cache: the C++ transceiver's TLLM_LOG_WARNING in
		// cacheTransceiver.cpp and the Python one's logger.warning in
		// py_cache_transceiver.py (verified). It waits on; a run of these is
		// back-pressure from the generation workers.
		return lineTransferWait, nil
	case strings.HasPrefix(msg, "num_fitting_reqs=0 and fitting_disagg_gen_init_requests is empty") ||
		strings.HasPrefix(msg, "num_fitting_reqs =0 and fitting_disagg_gen_init_requests is empty"):
		// No request fits the KV cache and none waits for its transfer:
		// logger.warning in py_executor.py (verified, both spacings). Dynamo
		// lists it as the symptom of KV cache exhaustion in disaggregated
		// serving (max_tokens_in_buffer below the longest input).
		return lineKVExhausted, nil
	case strings.HasPrefix(msg, "Future returned unexpected status for request ") &&
		(strings.HasSuffix(msg, ". Marking as error") || strings.HasSuffix(msg, ". Recording as failed.")):
		// The C++ transceiver giving a request's transfer up: TLLM_LOG_ERROR
		// in cacheTransceiver.cpp, "… %ld. Marking as error" (no period),
		// later "… %ld. Recording as failed." (both read in copies of the
		// file).
		return lineTransferFailed, nil
	case level == "ERROR" && (strings.HasPrefix(msg, "Exception in sendAndRemoveResponse: ") ||
		strings.HasPrefix(msg, "Exception in CacheSender response: ") ||
		strings.HasPrefix(msg, "Exception in DataRequester request(): ") ||
		strings.HasPrefix(msg, "Exception in CacheReceiver request(): ")):
		// The C++ transceiver's sender and receiver threads catching a
		// transfer's exception (TLLM_LOG_ERROR in dataTransceiver.cpp,
		// verified): the request's transfer failed.
		return lineTransferFailed, nil
	case strings.HasPrefix(msg, "CacheFormatter::inquireSupport: ") || strings.HasPrefix(msg, "MLACacheFormatter::inquireSupport: "):
		// Why the C++ transceiver refuses a peer's KV cache (TLLM_LOG_WARNING
		// in cacheFormatter.cpp and mlaCacheFormatter.cpp, verified): then
		// "Disagg server does not currently support these cacheState" fails
		// the transfer.
		return lineCacheMismatch, nil
	case level == "ERROR" && (strings.HasPrefix(msg, "Error occurred during context transfer for request ") ||
		strings.HasPrefix(msg, "Error occurred during generation transfer for request ")):
		// The C++ transceiver's transfer of a request raised: TLLM_LOG_ERROR
		// in CacheTransceiver::checkContextTransferStatus and
		// checkGenTransferStatus ("Error occurred during context transfer
		// for request %ld: %s", "… generation transfer …"; verified in
		// cacheTransceiver.cpp), and the request is marked
		// kDISAGG_TRANS_ERROR: a failed transfer, the loop goes on.
		return lineTransferFailed, nil
	case match("TxSession ", reTxSession()):
		// The Python transceiver's context side, once per send session it
		// polls (logger.warning in KvCacheTransceiverV2.
		// check_context_transfer_status, _torch/disaggregation/transceiver.py:
		// "TxSession rid={id} failed", "TxSession rid={id} timed out after
		// {ms}ms", in later copies "… exceeded kv_transfer_timeout_ms={ms}ms;
		// keeping it in progress"; PyNativeCacheTransceiver's "TxSession {id}
		// failed to complete" and "… timed out waiting for completion" in
		// native/py_cache_transceiver.py; all verified). A failed session's
		// request is marked DISAGG_TRANS_ERROR; a timed-out one is kept and
		// waited on (the generation side has not taken it yet).
		if strings.HasPrefix(m[2], "failed") {
			return lineTransferFailed, nil
		}
		return lineTransferWait, nil
	case strings.HasPrefix(msg, "Disagg gen transfer FAILED rank="):
		// The Python transceiver's generation side, for the requests whose
		// KV cache it did not receive: logger.warning("Disagg gen transfer
		// FAILED rank={rank} rids={failed} gen_need_sync={…}") in
		// KvCacheTransceiverV2.check_gen_transfer_status (verified); they
		// are marked DISAGG_TRANS_ERROR.
		return lineTransferFailed, nil
	case strings.HasPrefix(msg, "_deliver_kv_to_agent: session ") && strings.HasSuffix(msg, " state; sending FAILED to receiver"):
		// The Python transceiver's sender found the session it was to send
		// already ended (logger.warning "_deliver_kv_to_agent: session {rid}
		// already in {status} state; sending FAILED to receiver" in
		// native/transfer.py, verified): CANCELLED (the request was
		// cancelled, by its client or the context side's timeout) or ERROR.
		if strings.Contains(msg, " already in CANCELLED state") {
			return lineTransferCancelled, nil
		}
		return lineTransferFailed, nil
	case level == "ERROR" && (strings.HasPrefix(msg, "KV transfer agent failed: ") ||
		strings.HasPrefix(msg, "KV transfer failed for request ") ||
		strings.HasPrefix(msg, "_process_task_queue[") && strings.Contains(msg, "]: unhandled exception for unique_rid=") ||
		strings.HasPrefix(msg, "_deliver_kv_to_agent: ") || strings.HasPrefix(msg, "_deliver_aux_to_agent: ") ||
		strings.HasPrefix(msg, "Sender: error handling ") || strings.HasPrefix(msg, "Receiver: error handling ") ||
		strings.HasPrefix(msg, "NIXL transfer entered ERROR state")):
		// The Python transceiver's transfer threads (logger.error in
		// _torch/disaggregation/native/transfer.py, verified): the sender's
		// "KV transfer agent failed: unique_rid=… nixl_status=… agent=…",
		// the receiver's "KV transfer failed for request N slice=S
		// peer_rank=P … (reported by remote agent; see sender-side log for
		// nixl_status)", a send task that raised ("_process_task_queue[i]:
		// unhandled exception for unique_rid=…"), a send it could not build
		// or whose session was gone ("_deliver_kv_to_agent: …",
		// "_deliver_aux_to_agent: …") and the listeners' "Sender: error
		// handling REQUEST_DATA: …" (REGISTER_RANK_INFO, CANCEL_SESSION) and
		// "Receiver: error handling KV_AGENT_RESULT: …"; and the pure-Python
		// NIXL agent's "NIXL transfer entered ERROR state (agent=…)."
		// (nixl/_agent_py.py). The request's transfer failed; the loop goes on.
		return lineTransferFailed, nil
	case level == "ERROR" && strings.HasPrefix(msg, "dispatch_task: context peer incompatible, failing request "):
		// The Python transceiver's generation side refusing a context
		// worker whose KV-cache (or recurrent-state) layout it cannot take
		// (logger.error in Receiver.dispatch_task, native/transfer.py,
		// verified): the request fails, and every later one to that peer.
		return linePeerIncompatible, nil
	case strings.HasPrefix(msg, "NIXL transfer wait timed out after "):
		// The pure-Python NIXL agent giving a transfer up (logger.warning
		// "NIXL transfer wait timed out after %s ms." in nixl/_agent_py.py,
		// verified): the transfer counts as failed.
		return lineTimeout, nil
	case strings.HasPrefix(msg, "NIXL (cpp binding) wait returned non-SUCCESS state="):
		// A transfer of the Python transceiver's agent that ended in failure
		// (verified: logger.error in _torch/disaggregation/nixl/_agent_cpp.py).
		return lineTransferFailed, nil
	case strings.HasPrefix(msg, "Disagg KV cache transfer error: rank="):
		// Under attention DP the ranks vote on the requests whose transfer
		// failed and fail them together (logger.warning "Disagg KV cache
		// transfer error: rank={r} local_err_count=… voted_err_count=…
		// blocked_err_count=…" in DisaggTransferCoordinator.
		// handle_errors_synced, _torch/disaggregation/orchestration/
		// coordinator.py, verified): failed transfers.
		return lineTransferFailed, nil
	case strings.HasPrefix(msg, "Cancelled timed-out context KV transfer for request ") ||
		strings.HasPrefix(msg, "Cancelled timed-out generation KV transfer for request "):
		// The transfer coordinator cancelling a timed-out transfer in flight
		// (logger.warning "Cancelled timed-out {context|generation} KV
		// transfer for request N; waiting for C++ transfer status to report
		// final cleanup" in DisaggTransferCoordinator.reap_context_sends and
		// _cancel_timed_out_gen_transfers, _torch/disaggregation/
		// orchestration/coordinator.py, verified; only with
		// TRTLLM_DISAGG_ENABLE_INFLIGHT_CANCEL=1 and a transceiver that
		// cancels in flight, the C++ one on NIXL). Its own kind, not the
		// timeout again: the rank's "Requesting cancellation for …" counted
		// that, and a generation rank whose TP peer crossed the timeout first
		// prints only this line.
		return lineTransferCancelled, nil
	case strings.HasPrefix(msg, "KV transfer cancellation failed for request "):
		// The coordinator's cancel of a timed-out transfer raised
		// (logger.error "KV transfer cancellation failed for request N; will
		// retry: {error}" in DisaggTransferCoordinator.request_cancellation,
		// coordinator.py, verified): the request keeps its transfer and the
		// cancel is tried again each iteration.
		return lineTransferFailed, nil
	case strings.Contains(msg, "due to KV cache transfer timeout"):
		// "Terminating …" (PyExecutor, 1.0 on), "Requesting cancellation
		// for …" (with in-flight cancellation) and "Observed timeout on …"
		// (without it; the coordinator's check_transfer_timeouts adds ":
		// elapsed Nms > kv_transfer_timeout_ms=Nms", verified).
		if m = reTimeout().FindStringSubmatch(msg); m != nil {
			return lineTimeout, m
		}
	case strings.Contains(msg, "cache_transceiver_config") && !iterHead(msg):
		if d := reArgsDict().FindStringSubmatch(msg); d != nil {
			return lineArgs, d
		}
		if d := reArgsRepr().FindStringSubmatch(msg); d != nil {
			return lineArgs, d
		}
	}
	if level == "ERROR" && isTransceiverError("Error", msg) {
		// Logged errors that carry no exception line of their own.
		return lineTransceiverError, nil
	}
	return lineNone, nil
}

// observe interprets one line (tagged or bare); it reports whether the line
// was recognised.
func (p *Process) observe(n int, level, msg string) bool {
	k, m := classify(level, msg)
	if k == lineNone {
		return false
	}
	p.apply(n, level, msg, k, m)
	return true
}

// apply records what a classified line shows.
func (p *Process) apply(n int, level, msg string, k lineKind, m []string) {
	// Every kind but the start-up failure's lines is about the transceiver
	// or its transfers.
	p.xcvrLines = p.xcvrLines || k != lineStartupFailed && k != lineWorkerError && k != lineLoadFailed && k != lineWorkerInitError
	if k == lineTransferFailed {
		p.implyReuseTree(n, msg)
	}
	if k == lineCacheMismatch || k == lineTransferFailed && strings.Contains(msg, cacheStateRefused) {
		p.imply(n, "the context and generation workers' KV caches are not alike (the KV-cache data type, the attention type, tokens_per_block and head size, the number of layers and of KV heads per layer must match; context parallelism only on the generation side), so the C++ transceiver refuses to move the KV cache between them and each such request fails: run both with the same model and the same kv_cache_config (dtype, tokens_per_block)", 0, 0)
	}
	if k == linePeerIncompatible {
		p.imply(n, "the generation worker's Python transceiver refuses its context peer: their KV caches (or recurrent states) are not laid out alike (the message says what differs), and it fails every request to that peer until the generation worker restarts: run both with the same model and the same kv_cache_config", 0, 0)
	}
	if f, ok := findingOf[k]; ok {
		p.find(n, f, msg)
		return // a finding, counted: not a line of the start-up
	}
	l := Line{N: n, Level: level, Message: msg}
	switch k {
	case lineResolved:
		p.ResolvedSeen = true
		p.Resolved = resolver.PyStr{}
		if m[1] != "None" {
			p.Resolved = resolver.Str(strings.Trim(m[1], "'"))
		}
		p.ResolvedFor = m[2]
		p.imply(n, "the build resolves 'auto' (PR #16164): main of 2026-07-16 or later", day16164, 0)
	case lineEra1Fall:
		p.Backend = m[1]
		p.Fallback = msg
		p.imply(n, "the era-1 fallback line: this log came from a build before 2026-08-28 (PR #18134 removed the line)", day16164, day18134)
		p.imply(n, "the model declares a PYTHON preference, and the effective backend was "+m[1], 0, 0)
	case lineEra2Fall:
		p.Fallback = msg
		p.imply(n, "'Falling back to the C++ transceiver:' is PR #18134's line: this log came from a build of 2026-08-28 or later", day18134, 0)
		if b := reEra2Back().FindStringSubmatch(m[1]); b != nil {
			p.Backend = b[1]
			p.imply(n, "the effective backend was "+b[1]+" and the model declares no preference", 0, 0)
		} else if strings.HasPrefix(m[1], "kv_transfer_timeout_ms=None") {
			p.imply(n, "kv_transfer_timeout_ms was null, the backend NIXL, and the model declares no preference", 0, 0)
			p.Backend = "NIXL"
		}
	case lineEnvWarn:
		p.EnvVar = m[1]
		p.Backend = m[2]
		p.imply(n, m[1]+"=1 was set and cache_transceiver_config.backend was DEFAULT, so the backend became "+m[2], 0, 0)
	case lineUCX:
		p.Backend = "UCX"
	case lineMPI:
		p.Backend = "MPI"
	case lineCppTransport:
		p.Backend = strings.Fields(msg)[1]
	case lineCppManager:
		p.Backend = cppManagerBackend(msg)
		p.setClass(n, resolver.ClassCPP)
	case linePython:
		p.setClass(n, resolver.ClassPython)
		if p.Backend == "" {
			p.Backend = "NIXL" // the Python transceiver runs only on NIXL
		}
	case linePyNative:
		p.setClass(n, resolver.ClassPythonNative)
		if p.Backend == "" {
			p.Backend = "NIXL" // the Python transceiver runs only on NIXL
		}
		p.imply(n, "PyNativeCacheTransceiver is the first Python transceiver: a build of 2026-03-17 (1.3.0rc8) to about 2026-03-27, when KvCacheTransceiverV2 replaced it (that day inferred: PR #12342, new in the 1.3.0rc10 notes)", dayFieldExists, dayPyTransceiverV2)
	case lineDisabled:
		p.Disabled = true
		if p.DisabledSaid == "" {
			p.DisabledSaid = msg
		}
	case linePipelined:
		p.imply(n, "enable_pipelined_transfer was true and the runtime was left None: a build of 2026-09-02 or later (PR #15727)", day15727, 0)
	case lineKVV2Fall:
		p.imply(n, "the model prefers KV cache manager V2 but runs V1, because the runtime was "+m[1]+" on backend "+m[2], 0, 0)
	case lineInflight:
		p.imply(n, "TRTLLM_DISAGG_ENABLE_INFLIGHT_CANCEL=1 was set", 0, 0)
	case linePyCppManager:
		p.setClass(n, resolver.ClassPython)
	case lineStartupFailed:
		cause := strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(m[2]), "[TensorRT-LLM][ERROR]"))
		p.implyCause(n, cause)
		if p.fail(n, msg) {
			p.Cause = cutText(cause, maxDetailBytes)
			// causeWidth stays 0: an unindented line under a cause after
			// the colon is not read as its rest (wrapsOn), as the prefix
			// makes the line wide whatever the cause.
			p.causeOpen, p.causeLines, p.causeTB, p.causeBase, p.causeWidth = true, 0, false, 0, 0
		}
	case lineWorkerInitError:
		// The proxy's log of a worker's start-up failure, the worker's
		// traceback after the colon: its exception line, when it comes, is
		// the error (errorWeight); until then this line is.
		if p.fail(n, msg) {
			rest := strings.TrimSpace(strings.TrimPrefix(msg, workerInitError))
			tb := strings.HasPrefix(rest, "Traceback (")
			p.causeOpen, p.causeLines, p.causeTB, p.causeBase, p.causeWidth = true, 0, tb, 0, 0
			if !tb {
				p.Cause = cutText(rest, maxDetailBytes)
				p.implyCause(n, rest)
			}
		}
	case lineWorkerError:
		p.fail(n, "RuntimeError: Executor worker returned error")
	case lineLoadFailed:
		// The exception raised again after this line (or "Failed to
		// initialize executor on rank N: …") says the same: the first wins.
		if p.fail(n, msg) {
			if m[2] == "" {
				// The args' repr goes on: the error is on the line that
				// closes it (continueCause, causeRepr).
				p.causeOpen, p.causeRepr, p.causeLines, p.causeTB, p.causeBase, p.causeWidth = true, true, 0, false, 0, 0
				break
			}
			p.Cause = cutText(m[2], maxDetailBytes)
			p.implyCause(n, m[2])
			// Only the rest of a URL the cause ends inside may follow.
			p.causeOpen, p.causeURL, p.causeLines, p.causeTB = true, true, 0, false
		}
	case lineNixlAgent:
		p.Backend = "NIXL"
		p.NixlBackend = m[1]
	case lineNixlAddress:
		p.Backend = "NIXL"
		if note := nixlAddressNote(strings.TrimPrefix(msg, nixlAddressPrefix)); note != "" {
			p.imply(n, note, 0, 0)
		}
	case lineNixlFallback:
		p.Backend, p.NixlBackend = "NIXL", "UCX"
		p.find(n, FindingNixlBackend, msg)
	case lineAgentCpp:
		p.Backend, p.Agent = "NIXL", "C++ binding"
	case lineAgentBindingsInit:
		p.Backend, p.Agent = "NIXL", "C++ binding"
		if tls, ok := ucxTLS(msg); ok && !ucxHasCUDA(tls) {
			p.imply(n, "UCX_TLS="+tls+" names no CUDA transport (cuda_copy, cuda_ipc, gdr_copy): UCX then takes the GPU's memory for host memory and NIXL cannot register the KV cache (TensorRT-LLM PR #18373: \"VRAM memory is detected as host by UCX\"); add cuda_copy,cuda_ipc to UCX_TLS or unset it", 0, 0)
		}
	case lineAgentPython:
		p.Backend, p.Agent = "NIXL", "pure Python"
	case lineArgs:
		p.Inputs = parseArgs(n, m[1])
		l.Message = "cache_transceiver_config: " + m[1]
	}
	p.keep(l)
}

// nixlAddressPrefix starts the C++ NIXL agent's line that says the address
// (IP and port) it listens on for its peers' metadata: TLLM_LOG_INFO
// "NixlTransferAgent::NixlTransferAgent mAddress: %s" with getAvailableIP()
// + ":" + port (nixl_utils/transferAgent.cpp, verified). getAvailableIP takes
// the interface TRTLLM_NIXL_INTERFACE names, else the first IPv4 one that is
// not lo or docker*, and "UNKNOWN IP" when there is none.
const nixlAddressPrefix = "NixlTransferAgent::NixlTransferAgent mAddress: "

// nixlAddressNote says what an address of the NIXL agent means when its peers
// on other nodes cannot reach it ("" otherwise): none found, a link-local
// 169.254.x.x (a GB200 node with hostNetwork lists it before eth0, as a
// public write-up of such a deployment found: transfers across nodes hang),
// or a loopback one.
func nixlAddressNote(addr string) string {
	ip := addr
	if i := strings.LastIndexByte(addr, ':'); i >= 0 {
		ip = addr[:i]
	}
	ip = cutText(ip, maxNameBytes)
	const fix = "set TRTLLM_NIXL_INTERFACE to the interface whose address the other workers reach (eth0, say) on every worker"
	switch {
	case ip == "UNKNOWN IP":
		return "the NIXL agent found no IPv4 interface to listen on (none, or none on the interface TRTLLM_NIXL_INTERFACE names): no peer can fetch its metadata, so KV-cache transfers to or from it cannot start; " + fix
	case strings.HasPrefix(ip, "169.254."):
		return "the NIXL agent listens on a link-local address (" + ip + "), which workers on other nodes cannot reach: KV-cache transfers between nodes hang or fail; " + fix
	case strings.HasPrefix(ip, "127."):
		return "the NIXL agent listens on a loopback address (" + ip + "): only workers on this node can reach it; " + fix
	}
	return ""
}

// setClass records the transceiver class line n shows. One process builds
// one transceiver: a class of the other kind (C++ beside Python) already
// shown by an earlier line says that two processes' lines share this key,
// two servers writing one log without a launcher's prefix (an sbatch job's
// output with several srun steps, kubectl logs -l without --prefix), or a
// restart; the note says so, and the line shown last decides.
func (p *Process) setClass(n int, class string) {
	if p.Class != "" && !p.ClassInferred && p.classLine > 0 && (p.Class == resolver.ClassCPP) != (class == resolver.ClassCPP) && !p.twoClasses {
		// Once: two servers' lines interleaved under one key change kind
		// at every other line, and 32 such notes left no room for others.
		p.twoClasses = true
		p.imply(n, "this line shows the "+classKind(class)+" transceiver where line "+strconv.Itoa(p.classLine)+" showed the "+classKind(p.Class)+
			" one: a process builds one transceiver, so two processes' lines share this log's key (several servers writing one log without a launcher's prefix, e.g. an sbatch job's srun steps without -l or --output, or kubectl logs -l without --prefix; or a restart): the outcome shown is the last line's, give each server's log apart", 0, 0)
	}
	p.Class, p.ClassInferred, p.classLine = class, false, n
}

// classKind names a transceiver class's kind.
func classKind(class string) string {
	if class == resolver.ClassCPP {
		return "C++ (" + class + ")"
	}
	return "Python (" + class + ")"
}

// cppManagerBackend is the backend of the C++ CacheTransceiver's "<backend>
// Connection Manager created" line, "" for any other message.
func cppManagerBackend(msg string) string {
	switch b, _ := strings.CutSuffix(msg, " Connection Manager created"); b {
	case "UCX", "NIXL", "MOONCAKE", "MPI":
		return b
	}
	return ""
}

// noTransceiver starts the assertion executor/worker.py's _enqueue_request
// raises when a disaggregated request (context-only or generation-only)
// reaches a PyTorch worker whose engine has no kv_cache_transceiver
// (verified: the assert on self.engine.kv_cache_transceiver is not None,
// 1.0 onwards). The wording ends "… backend:<backend_type>` in config file
// for disaggregated serving".
const noTransceiver = "kv_cache_transceiver is disabled, please set 'cache_transceiver_config: backend:"

// noTransceiver records that assertion: the process built no transceiver
// (as "cache_transceiver is disabled" says at start-up) and was sent a
// disaggregated request, a finding; its start-up did not fail.
func (p *Process) noTransceiver(n int, line string) {
	p.Disabled = true
	if p.DisabledSaid == "" {
		p.DisabledSaid = "kv_cache_transceiver is disabled"
	}
	p.keep(Line{N: n, Message: line})
	p.find(n, FindingNoTransceiver, line)
	p.imply(n, "a disaggregated request reached this worker, which built no KV-cache transceiver (cache_transceiver_config.backend unset, or no cache_transceiver_config): the worker asserts per request, so it started; give it cache_transceiver_config.backend (DEFAULT, UCX or NIXL; 1.0.0rc4 to 1.0.0 take them lower-case: default, ucx, nixl)", 0, 0)
}

// NIXL's own error lines that say why its transfer agent failed (NIXL logs
// through Abseil: "E0421 11:56:59.774282  709103 nixl_agent.cpp:259] msg";
// the texts verified in ai-dynamo/nixl: NIXL_ERROR_FUNC in
// nixlAgent::getPluginParams and registerMem, NIXL_ERROR in the UCX
// plugin's ucx_utils.cpp).
const (
	nixlNoPlugin   = "getPluginParams: backend '" // "<type>' not found"
	nixlVRAMHost   = "VRAM memory is detected as host by UCX."
	nixlRegFailed  = "registerMem: registration failed for the specified or all potential backends"
	nixlNoPluginOK = "' not found"
)

// nixlError reads one of NIXL's error lines that say why its transfer agent
// failed: with Abseil's prefix (its level E or F; "E0717 07:30:06.719655
// 994396 nixl_agent.cpp:359] "), with the prefix shortened as pastes do
// ("E nixl_agent.cpp:545] ", TensorRT-LLM PR #18373), or bare (a guide's
// quote). level is ERROR, or LevelUnstated for a bare one.
func nixlError(tm string) (level, msg string, ok bool) {
	level, msg = LevelUnstated, tm
	if len(tm) > 2 && (tm[0] == 'E' || tm[0] == 'F') && (tm[1] == ' ' || isDigit(tm[1])) {
		i := strings.Index(tm, "] ")
		if i < 0 || i > 64 {
			return "", "", false
		}
		head := strings.Fields(tm[1:i])
		// The file:line is the prefix's last field; Abseil's date, time and
		// thread come before it.
		if len(head) == 0 || len(head) > 4 || !strings.Contains(head[len(head)-1], ".") || !strings.Contains(head[len(head)-1], ":") {
			return "", "", false
		}
		level, msg = "ERROR", tm[i+2:]
	}
	switch {
	case strings.HasPrefix(msg, nixlNoPlugin) && strings.HasSuffix(msg, nixlNoPluginOK),
		strings.HasPrefix(msg, nixlVRAMHost), msg == nixlRegFailed:
		return level, msg, true
	}
	return "", "", false
}

// nixlError records one of NIXL's error lines and what it says.
func (p *Process) nixlError(n int, level, msg string) {
	p.xcvrLines = true // the transfer agent's
	p.keep(Line{N: n, Level: level, Message: msg})
	switch {
	case strings.HasPrefix(msg, nixlNoPlugin):
		b := strings.TrimSuffix(strings.TrimPrefix(msg, nixlNoPlugin), nixlNoPluginOK)
		p.imply(n, "NIXL found no "+b+" plugin, so the transfer agent cannot create its "+b+" backend (then 'status == NIXL_SUCCESS' fails in transferAgent.cpp): NIXL_PLUGIN_DIR points at plugins of another NIXL build than the libnixl.so this process loaded (two NIXL builds in one image: Dynamo PR #9299), or the plugin's own libraries (UCX's libucp.so) are not found", 0, 0)
	case strings.HasPrefix(msg, nixlVRAMHost):
		p.imply(n, "UCX takes the GPU's memory for host memory, so NIXL cannot register the KV cache: UCX_TLS names no CUDA transport (add cuda_copy,cuda_ipc to it or unset it; TensorRT-LLM PR #18373) or this UCX was built without CUDA", 0, 0)
	case msg == nixlRegFailed:
		p.imply(n, "NIXL could not register memory (the KV cache's) with any of its backends; the UCX or libfabric error lines just before it say why", 0, 0)
	}
}

// ucxError records one of UCX's error lines (ucxError) and what it says.
func (p *Process) ucxError(n int, msg string) {
	p.find(n, FindingUCXError, msg)
	if strings.HasPrefix(msg, ucxMNNVL) {
		p.imply(n, "UCX could not open another GPU's memory over CUDA IPC (cuMemImportFromShareableHandle): TensorRT-LLM's disaggregated-service FAQ gives this for servers in different NVLink domains (nvidia-smi -q, Fabric.ClusterUUID): set UCX_CUDA_IPC_ENABLE_MNNVL=n; these errors do not necessarily fail trtllm-serve", 0, 0)
	}
}

// implyReuseTree adds what a context worker's transfer that did not find
// its KV-cache blocks in the reuse tree means (TLLM_CHECK_WITH_INFO(lastBlock,
// "Couldn't find the requested block in the reuse tree") in
// BlockRange::fromReuseTree, kvCacheUtils.h, verified): the sender gives the
// transfer up and the generation side waits for it.
func (p *Process) implyReuseTree(n int, text string) {
	if strings.Contains(text, "Couldn't find the requested block in the reuse tree") ||
		strings.Contains(text, "fromReuseTree(") && strings.Contains(text, "Assertion `lastBlock' failed") {
		p.imply(n, "the context worker's transfer looked for the request's KV-cache blocks in the reuse tree and they were gone (kv_cache_config.enable_block_reuse on the context worker: TensorRT-LLM issue #12542, eviction racing the C++ transceiver's send; multimodal requests before 1.3's fix): the generation worker waits for a transfer that never comes; enable_block_reuse: false on the context worker avoids it", 0, 0)
	}
}

// cacheStateRefused starts the C++ transceiver's check of a peer's KV cache
// (TLLM_CHECK_WITH_INFO in dataTransceiver.cpp, verified: "… cacheState,
// please check the cacheState of the context and gen executors" on the
// sender, "… cacheState." on the receiver).
const cacheStateRefused = "Disagg server does not currently support these cacheState"

// findingOf is the finding kind of the runtime lines.
var findingOf = map[lineKind]string{
	lineCacheMismatch:     FindingCacheMismatch,
	linePeerIncompatible:  FindingCacheMismatch,
	lineTransferCancelled: FindingTransferCancelled,
	lineDynamicBuffer:     FindingDynamicBuffer,
	lineTimeout:           FindingTransferTimeout,
	lineTransferFailed:    FindingTransferFailed,
	lineTransferWait:      FindingTransferWait,
	lineKVExhausted:       FindingKVExhausted,
}

// fail ends the process with an error. The most telling one wins: an
// exception over the "Failed to initialize executor on rank N" line it
// explains, and that line over the generic "Executor worker returned error";
// among equals, the first.
func (p *Process) fail(n int, text string) bool {
	if p.Error != "" && errorWeight(text) <= errorWeight(p.Error) {
		return false
	}
	if p.Cause != "" && strings.Contains(text, p.Cause) {
		p.Cause = "" // the exception says it already
	}
	if !strings.HasPrefix(text, "Failed to initialize executor") {
		p.causeOpen = false
	}
	p.Error = cutText(text, maxMessageBytes)
	p.errorLine = n
	return true
}

func errorWeight(e string) int {
	switch {
	case strings.Contains(e, "Executor worker returned error"):
		return 0
	case strings.HasPrefix(e, "Failed to initialize executor") || strings.HasPrefix(e, workerInitError):
		return 1
	}
	return 2
}

// find counts a finding of kind k.
func (p *Process) find(n int, k, text string) {
	for i := range p.Findings {
		if p.Findings[i].Kind == k {
			p.Findings[i].Count++
			return
		}
	}
	if len(p.Findings) >= maxFindings {
		p.FindingsDropped++
		return
	}
	if p.over(len(text)) {
		// Past the log's kept text the finding still counts, with its
		// kind and line: a crash after start-up the verdict must name,
		// the counts every view shows. Only its text is not kept.
		text = findingTextNotKept
	}
	p.Findings = append(p.Findings, Finding{Kind: k, Line: n, Text: cutText(text, maxDetailBytes), Count: 1})
}

// retext gives p's finding of kind k whose text is old the text text
// instead: the same error, said with more (its exception's class).
func (p *Process) retext(k, old, text string) {
	old = cutText(old, maxDetailBytes)
	for i := range p.Findings {
		if f := &p.Findings[i]; f.Kind == k && f.Text == old {
			f.Text = cutText(text, maxDetailBytes)
			return
		}
	}
}

// cppDisabled is the C++ executor's word that it built no transceiver:
// CacheTransceiverFactory::createCacheTransceiver logs it and returns null
// when the executor's config has no cache transceiver backend (TLLM_LOG_INFO
// in cacheTransceiver.cpp, verified). Only TrtGptModelInflightBatching, the
// C++ executor of TensorRT engines (trtllm-serve --backend tensorrt,
// Triton's tensorrtllm backend), calls that factory; the PyTorch backend
// decides in Python and logs "cache_transceiver is disabled" instead
// (TensorRT-LLM issue #10810's TensorRT-engine log prints this one).
const cppDisabled = "CacheTransceiver is disabled."

// executorCreationFailed starts the error create_py_executor raises when
// building one of the executor's components failed for want of GPU memory
// (_ExecutorMemoryMonitor._maybe_explain_if_oom in py_executor_creator.py,
// verified in copies from 1.0 to 1.3: "Executor creation failed due to
// insufficient GPU memory.", earlier "… with an error which might indicate
// insufficient GPU memory.", later "… with NCCL error: …"), raised as a
// RuntimeError of several lines: TensorRT-LLM's own words, so a log of that
// exception alone is TensorRT-LLM's (issue #5950's 1.0.0rc2 paste).
const executorCreationFailed = "Executor creation failed "

// oomComponent starts the line of that error naming the component whose
// creation ran out of memory ("The following component could not be
// created: {name}"); the error goes on with the free memory before it, what
// each component built before took, and an option to turn for each.
const oomComponent = "The following component could not be created: "

// oomKnobs is the option the error gives for each component, by its name
// in lower case (memory_type_tuning_suggestion, earlier tuning_knobs, in
// py_executor_creator.py, verified; "Initial KV cache" was "Initial KV
// Cache" later, PR #4497's example the earlier case).
var oomKnobs = map[string]string{
	"sampler":                        "reduce max_seq_len and/or max_attention_window_size",
	"drafter":                        "reduce max_seq_len and/or max_draft_len",
	"speculative decoding resources": "reduce max_seq_len and/or max_batch_size",
	"kv cache":                       "reduce free_gpu_memory_fraction (kv_cache_config)",
	"initial kv cache (temporary for kv cache size estimation)": "reduce max_num_tokens",
	"model":                                "reduce max_num_tokens and/or shard the model weights across GPUs (tensor or pipeline parallelism)",
	"draft model for speculative decoding": "reduce max_num_tokens and/or shard the model weights across GPUs (tensor or pipeline parallelism)",
	"additional executor resources (temporary for kv cache size estimation)": "reduce max_num_tokens",
	"additional executor resources":                                          "reduce max_num_tokens",
	"model resources created during usage":                                   "reduce max_num_tokens",
}

// oomComponentNote says what the component line under that error means.
func oomComponentNote(name string) string {
	name = cutText(strings.TrimSpace(name), maxNameBytes)
	note := "the executor ran out of GPU memory while creating '" + name + "' (the error's next lines list the free memory before it and what each component built earlier took)"
	if knob := oomKnobs[strings.ToLower(name)]; knob != "" {
		note += "; TensorRT-LLM's option for it: " + knob
	}
	return note
}

// workerInitError starts the executor proxy's ERROR line of a worker whose
// start-up failed: logger.error(f"Executor worker initialization error:
// {error_trace}") in _start_executor_workers, the worker's traceback after
// it (executor/proxy.py, verified in 1.x copies), before the proxy raises
// "Executor worker returned error". A start-up failure also when a copy
// stops inside that traceback (Dynamo issue #4299's 1.1.0rc5 worker).
const workerInitError = "Executor worker initialization error: "

// findingTextNotKept is a finding's text once the log's kept text is used up.
const findingTextNotKept = "(text not kept: the log's 4 MiB of kept text is used up)"

// parseArgs reads backend, transceiver_runtime and kv_transfer_timeout_ms from
// an argument dump's cache_transceiver_config, in either form Python prints:
// a dict ({'backend': 'DEFAULT'}) or the pydantic repr (backend='NIXL').
func parseArgs(n int, body string) ObservedInputs {
	o := ObservedInputs{Line: n}
	for _, kv := range reArgValue().FindAllStringSubmatch(body, -1) {
		key := kv[1] + kv[2]
		v := kv[3]
		if strings.HasPrefix(v, "<") { // <BackendType.NIXL: 'NIXL'>
			if i := strings.IndexByte(v, '\''); i >= 0 {
				v = strings.TrimSuffix(v[i:], ">")
			}
		}
		switch key {
		case "backend":
			o.Backend = v
		case "transceiver_runtime":
			o.Runtime = v
		case "kv_transfer_timeout_ms":
			o.Timeout = v
		}
	}
	return o
}

// continueCause reads a line under a start-up failure: an indented line (or a
// source location in parentheses) is part of its cause; stack frames and
// traceback lines are skipped; anything else ends the cause. It reports
// whether the line was taken.
func (p *Process) continueCause(n int, raw string) bool {
	t := strings.TrimSpace(raw)
	if p.causeRepr {
		return p.continueRepr(n, t)
	}
	if p.causeURL {
		p.causeURL, p.causeOpen = false, false
		if !urlCut(p.Cause, t) {
			return false
		}
		p.causeLines++
		p.Cause = cutText(p.Cause+t, maxDetailBytes)
		if len(p.Error) < maxMessageBytes {
			p.Error += "\n" + cutText(t, maxDetailBytes)
		}
		return true
	}
	p.implyFrame(n, t)
	// Indented is indented from the failure's column: Python prints a
	// traceback's first line, and str(e) after "…: " goes on, at that
	// column, so either line, the first under the failure, shows it.
	ind := indentOf(raw)
	if p.causeLines == 0 && !p.causeTB && t != "" && (strings.HasPrefix(t, "Traceback (") || p.Cause == "") {
		p.causeBase = ind
	}
	indented := ind > p.causeBase
	width := p.causeWidth
	p.causeWidth = 0
	switch {
	case strings.HasPrefix(t, "Traceback ("):
		p.causeTB = true
		return true
	case t == "" || reFrame().MatchString(t) || p.causeTB && indented:
		return true
	case p.causeLines >= 6 || mayExc(t) && reExc().MatchString(t):
		p.causeOpen = false
		return false
	case indented || strings.HasPrefix(t, "(") || p.Cause == "" && p.causeLines == 0:
		// worker.py logs "Failed to initialize executor on rank N: {e}",
		// then the traceback as a tagged ERROR line (verified): with
		// nothing after the colon, str(e) went on to the next line, whose
		// first line is the cause even unindented (a paste that wrapped
		// after the colon gives the same shape).
		t = strings.TrimSpace(strings.TrimPrefix(t, "[TensorRT-LLM][ERROR]"))
		p.causeLines++
		if p.Cause == "" {
			p.Cause = cutText(t, maxDetailBytes)
			p.implyCause(n, t) // as for a cause after the colon
			p.causeWidth = ind + utf8.RuneCountInString(t)
		} else if p.causeLines == 1 && (strings.HasPrefix(t, "(") || indented && midSentence(p.Cause)) {
			// The source location a C++ assertion prints after its
			// message, or the rest of a sentence a paste wrapped and
			// indented (a public TensorRT-LLM 1.2.1 probe report: "… on
			// rank 0: The checkpoint you are trying to load" over "  has
			// model type `qwen3_5` but Transformers does not recognize this
			// architecture.").
			p.Cause = cutText(p.Cause+" "+t, maxDetailBytes)
		}
		if len(p.Error) < maxMessageBytes {
			p.Error += "\n" + cutText(t, maxDetailBytes)
		}
		return true
	case p.causeLines == 0 && urlCut(p.Cause, t):
		// The rest of a URL a paste broke inside a word (TensorRT-LLM issue
		// #7818's rank 2: "…(https://pytorch.org/docs/stable/notes/cuda.html
		// #environment-varia" over "bles)"): joined without a blank.
		p.causeLines++
		p.Cause = cutText(p.Cause+t, maxDetailBytes)
		if len(p.Error) < maxMessageBytes {
			p.Error += "\n" + cutText(t, maxDetailBytes)
		}
		return true
	case ind == p.causeBase && wrapsOn(p.Cause, width, t):
		// The rest of the cause's sentence, which a paste word-wrapped
		// onto a line of its own, not indented (a public benchmark
		// report's "… has model type `qwen3_5` but" over "Transformers
		// does not recognize this architecture. This could be").
		p.causeLines++
		p.Cause = cutText(p.Cause+" "+t, maxDetailBytes)
		p.implyCause(n, p.Cause)
		p.causeWidth = ind + utf8.RuneCountInString(t)
		if len(p.Error) < maxMessageBytes {
			p.Error += "\n" + cutText(t, maxDetailBytes)
		}
		return true
	}
	p.causeOpen = false
	return false
}

// maxReprLines bounds the lines of an args' repr continueRepr reads: a
// module's repr prints one line per child (Linear's all_reduce and lora:
// two), so a failure whose repr never closes ends its cause there.
const maxReprLines = 64

// continueRepr reads a line under a weight-loading task's failure whose
// args' repr goes on over lines (causeRepr): a child of the module
// ("(all_reduce): AllReduce()", a nested one's closing ")") is skipped; the
// line that closes the repr and the args' tuple ("))" then ": ", as
// run_concurrently's f"… with args {arg}: {e}" prints it) holds the error,
// str(e): the cause. Anything else ends the cause. It reports whether the
// line was taken.
func (p *Process) continueRepr(n int, t string) bool {
	if m := reReprClose().FindStringSubmatch(t); m != nil && strings.HasPrefix(t, "))") {
		p.causeRepr, p.causeOpen = false, false
		p.Cause = cutText(m[1], maxDetailBytes)
		p.implyCause(n, m[1])
		return true
	}
	if p.causeLines < maxReprLines && (strings.HasPrefix(t, "(") && strings.Contains(t, "): ") || t == ")") {
		p.causeLines++
		return true
	}
	p.causeRepr, p.causeOpen = false, false
	return false
}

// wrapMinWidth is how wide a line must be for a paste to have wrapped it:
// editors fill text at 70 to 80 columns (Emacs 70, fmt 75, vim's
// textwidth 79), browsers and terminals at least as wide; the benchmark
// report's wrapped cause has lines of 63 to 67.
const wrapMinWidth = 50

// wrapsOn reports whether t, an unindented line under a cause that started
// on a line of its own and whose last line was width characters wide (0:
// none may be wrapped), is that line's
// word-wrapped rest, as a paste wraps a sentence (a browser's or an
// editor's fill, a terminal's copy). TensorRT-LLM prints a cause on one line,
// and the lines under it are its own (a traceback, another process's lines,
// a crash handler's), so all of these must hold:
//   - the cause stops mid-sentence (midSentence) on a line wide enough to
//     have been wrapped (wrapMinWidth);
//   - t is prose: it starts with a word of letters, not a label ("WARNING:",
//     "srun:") or a token with digits (NIXL's "E0421", a host name), has at
//     least two words or ends a sentence, and holds no alignment (two blanks,
//     a tab) or bar ('|': tqdm, a table);
//   - a word wrap could have made it: t's first word did not fit on the line
//     above, so that line plus that word is wider than t (a fill never
//     leaves a line shorter than the word it pushed down would make it);
//   - no reader of the log's lines knows t (bareKnown): a crash handler's
//     line, an exception's header, a launcher's line stay what they are.
func wrapsOn(cause string, width int, t string) bool {
	if width < wrapMinWidth || cause == "" || !midSentence(cause) || t == "" {
		return false
	}
	first, rest, two := strings.Cut(t, " ")
	if !two && !strings.HasSuffix(t, ".") {
		return false
	}
	w := strings.TrimRight(first, ",.;")
	if w == "" || !isLetter(w[0]) {
		return false
	}
	for i := 1; i < len(w); i++ {
		if c := w[i]; !isLetter(c) && c != '\'' && c != '-' {
			return false
		}
	}
	if two && (rest == "" || rest[0] == ' ') || strings.Contains(t, "  ") || strings.ContainsAny(t, "|\t") {
		return false
	}
	if utf8.RuneCountInString(t) >= width+1+utf8.RuneCountInString(first) {
		return false
	}
	return !bareKnown(t)
}

// isLetter reports whether c is an ASCII letter.
func isLetter(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }

// bareKnown reports whether state.line reads a bare line t as something of
// its own (a crash handler's line, a launcher's, an exception's header, a
// server's, an executor's): such a line is never the rest of a cause.
func bareKnown(t string) bool {
	b := []byte(t)
	if bareEvent(b) || mayEventLoop(b) || mayNIXLError(b) || observedStart(b) || mpiSessionLine(t) ||
		serverUp(t) || cleanShutdown(t) || slurmStepEnd(t) || chainedException(t) || strings.HasPrefix(t, llmProgress) {
		return true
	}
	if _, k := crashLine(t); k != crashNone {
		return true
	}
	if _, _, ok := launcherDeath(t); ok {
		return true
	}
	_, ok := srunExit(t)
	return ok
}

// indentOf is how many blanks and tabs s starts with.
func indentOf(s string) int {
	i := 0
	for i < len(s) && (s[i] == ' ' || s[i] == '\t') {
		i++
	}
	return i
}

// midSentence reports whether a cause stops where a sentence seldom ends:
// after a lower-case letter or a comma. A heuristic for pasted text: an
// indented line under a cause that ends so reads as the rest of it; under
// one that ends with a period, a location, a quote or a number it does not
// (the log itself puts the message on one line, and the traceback on lines
// of its own).
// urlCut reports whether t, the line under a cause, is the rest of a URL
// the cause ends inside: the cause's last word holds "://" and opens a
// parenthesis it does not close (PyTorch's "(https://pytorch.org/docs/…"),
// and t is one word that closes it.
func urlCut(cause, t string) bool {
	i := strings.LastIndexAny(cause, " \t")
	last := cause[i+1:]
	return strings.HasPrefix(last, "(") && strings.Contains(last, "://") && !strings.Contains(last, ")") &&
		t != "" && !strings.ContainsAny(t, " \t") && strings.HasSuffix(t, ")") && strings.Count(t, ")") == 1
}

func midSentence(cause string) bool {
	c := cause[len(cause)-1]
	return c >= 'a' && c <= 'z' || c == ','
}

// cppTransceiverCtor is the C++ transceiver's constructor as a C++ stack
// frame names it: BindKvCacheTransceiver builds
// tensorrt_llm.bindings.internal.batch_manager.CacheTransceiver
// (kv_cache_transceiver.py, verified), the Python transceiver never does.
const cppTransceiverCtor = "tensorrt_llm::batch_manager::CacheTransceiver::CacheTransceiver("

// implyFrame reads a stack frame under a start-up failure: one in the C++
// transceiver's constructor says which transceiver was being built.
func (p *Process) implyFrame(n int, t string) {
	if strings.Contains(t, cppTransceiverCtor) && reFrame().MatchString(t) {
		p.xcvrLines = true
		p.imply(n, "the failure is in the C++ CacheTransceiver's constructor (this stack frame): the C++ transceiver (BindKvCacheTransceiver) was being created, so the runtime was CPP", 0, 0)
	}
}

// reFrame() is a C++ stack frame as TensorRT-LLM's exceptions print them
// ("1       0x7a14a782a0f4 tensorrt_llm::common::throwRuntimeError(...) + 76").
var reFrame = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^\d+\s+0x[0-9a-fA-F]+\b`) })

// implyError adds what an exception's wording dates or reveals.
func (p *Process) implyError(n int, typ, msg string) {
	if m := rePyNotNIXL().FindStringSubmatch(msg + " "); m != nil {
		p.Backend = m[2]
		switch m[1] {
		case "NIXL or DEFAULT backend":
			p.imply(n, "the era-0 wording 'NIXL or DEFAULT backend': a build before 2026-07-16", 0, day16164)
		case "NIXL backend":
			p.imply(n, "the resolve_cache_transceiver_config wording 'NIXL backend': a build of 2026-09-02 or later", day15727, 0)
		}
	}
	if lib, ok := strings.CutSuffix(msg, ": cannot open shared object file: No such file or directory"); ok && (typ == "ImportError" || typ == "OSError") {
		p.imply(n, missingLibNote(lib), 0, 0)
	}
	if typ == "ImportError" || typ == "OSError" {
		p.implyTorchABI(n, msg)
	}
	switch {
	case typ == "RuntimeError" && msg == "Executor worker died during initialization":
		// The proxy saw an MPI worker's future end before the worker said
		// it was ready (logger.error("Executor worker died during
		// initialization.") and this RuntimeError in _start_executor_workers,
		// tensorrt_llm/executor/proxy.py, verified): the worker exited
		// without an error it could send.
		p.imply(n, "the executor's worker process exited before it was ready, with no error of its own to report: it crashed or was killed (the host's OOM killer while it loaded the weights: dmesg, or the pod's OOMKilled; a segfault or an abort: its crash lines, in this log or in the workers' output)", 0, 0)
	case typ == "TypeError" && strings.Contains(msg, "'NoneType' and 'float'"):
		p.imply(n, "KvCacheTransceiverV2 divided a null kv_transfer_timeout_ms: a build before PR #17137 (about 2026-08-10)", 0, day17137)
	case msg == "KvCacheTransceiverV2 requires a finite kv_transfer_timeout_ms":
		p.imply(n, "the explicit null-timeout error of PR #17137: a build of about 2026-08-10 or later", day17137, 0)
	case strings.Contains(msg, "Input should be 'CPP' or 'PYTHON'"):
		p.imply(n, "transceiver_runtime accepts no 'auto': a build before 2026-07-16", 0, day16164)
	}
	p.implyCause(n, msg)
}

// implyTorchABI says, of the loader's "X.so: undefined symbol: _ZN3c10…"
// (a C++ symbol of PyTorch's c10 or ATen, mangled), that the extension X was
// built against another PyTorch than the one installed (flash_attn's, as
// TensorRT-LLM issue #4392's trtllm-serve shows it).
func (p *Process) implyTorchABI(n int, text string) {
	i := strings.Index(text, ".so: undefined symbol: _Z")
	if i < 0 {
		return
	}
	sym := text[i+len(".so: undefined symbol: "):]
	for _, torch := range []string{"_ZN3c10", "_ZNK3c10", "_ZN2at", "_ZNK2at", "_ZN5torch", "_ZNK5torch"} {
		if strings.HasPrefix(sym, torch) {
			lib := text[:i+len(".so")]
			if j := strings.LastIndexByte(lib, '/'); j >= 0 {
				lib = lib[j+1:]
			}
			lib = cutText(lib, maxNameBytes)
			p.imply(n, lib+" lacks a symbol of PyTorch's own C++ library: it was built against another PyTorch than the one installed (a pip install that changed torch, or a wheel for another torch): reinstall it for this torch, or use the release container's packages", 0, 0)
			return
		}
	}
}

// missingLibNote says what a shared library the process could not load
// means (the dynamic loader's "LIB: cannot open shared object file: No such
// file or directory", raised as ImportError by an import of tensorrt_llm's
// bindings, or OSError by ctypes): the driver's own (libcuda.so.1,
// libnvidia-ml.so.1) is missing where the container runs without the GPUs,
// CUDA's or TensorRT's where the wheel's CUDA major version is not
// installed.
func missingLibNote(lib string) string {
	lib = cutText(strings.TrimSpace(lib[strings.LastIndexByte(lib, '/')+1:]), maxNameBytes)
	switch {
	case strings.HasPrefix(lib, "libcuda.so") || strings.HasPrefix(lib, "libnvidia-ml.so"):
		return lib + " is the NVIDIA driver's library: the process runs without the GPUs' driver (a container started without --gpus all or the NVIDIA container runtime, or a host without the driver), so tensorrt_llm cannot even be imported"
	case strings.HasPrefix(lib, "libcudart.so.") || strings.HasPrefix(lib, "libcublas") || strings.HasPrefix(lib, "libnvrtc.so.") ||
		strings.HasPrefix(lib, "libcurand.so.") || strings.HasPrefix(lib, "libcusparse") || strings.HasPrefix(lib, "libnvJitLink.so."):
		v := lib[strings.Index(lib, ".so")+len(".so"):]
		if v = strings.TrimPrefix(v, "."); strings.Contains(v, ".") {
			v = v[:strings.IndexByte(v, '.')]
		}
		major := ""
		if v != "" {
			major = " " + v
		}
		return lib + " is a CUDA" + major + " library that is not installed or not on the library path: this TensorRT-LLM build needs CUDA" + major + " (its release container has it)"
	case strings.HasPrefix(lib, "libnvinfer"):
		return lib + " is TensorRT's library, not found: the TensorRT this TensorRT-LLM build needs is not installed or not on the library path"
	}
	return "a shared library the process loads (" + lib + ") is not found: not installed, or not on the library path"
}

// implyCause adds what a start-up failure's text says of its inputs, on the
// exception line or on "Failed to initialize executor on rank N: …".
func (p *Process) implyCause(n int, msg string) {
	if strings.Contains(msg, "Assertion failed: maxNumTokens.value() % tokensPerBlock == 0") {
		// TLLM_CHECK in CacheTransBufferManager's constructor
		// (cacheTransBuffer.cpp, verified, 1.0 onwards): maxNumTokens is
		// cache_transceiver_config.max_tokens_in_buffer.
		p.imply(n, "cache_transceiver_config.max_tokens_in_buffer is not a multiple of the KV cache's tokens per block (kv_cache_config.tokens_per_block): the transceiver's buffer manager refuses it; round it to a multiple", 0, 0)
	}
	if strings.Contains(msg, "Assertion failed: status == NIXL_SUCCESS") {
		// NixlTransferAgent's TLLM_CHECK on every NIXL call it makes
		// (createBackend, registerMem, …: nixl_utils/transferAgent.cpp,
		// verified): the transfer agent, the transceiver's, failed in NIXL.
		p.xcvrLines = true
		p.imply(n, "a NIXL call failed in the KV-cache transfer agent (transferAgent.cpp); NIXL's own error lines just before it say which and why (no plugin for its backend, UCX without CUDA, memory it could not register, a libnixl.so of another NIXL build: Dynamo issue #6671)", 0, 0)
	}
}

// finish decides whom the lines printed without a rank belong to, and infers
// the C++ class where the log cannot show it.
//
// Lines before a rank is known ("Starting TensorRT-LLM init.") belong to the
// process(es) that follow: in a file or pod of one ranked process they are
// that process's; beside several they are dropped, unless they show findings
// of their own (a TP=1 server sharing the log with a TP=2 one prints no rank
// at all), and then they are a process of their own.
func (lg *Log) finish(byKey map[string]*Process) {
	if !lg.trtllm && len(lg.Stated) == 0 && lg.Orchestrator == 0 {
		// No line of the log is TensorRT-LLM's: what its crash, launcher or
		// exception lines made is no TensorRT-LLM process.
		lg.Processes = nil
	}
	var ranked map[string][]*Process
	var drop map[*Process]bool
	// Most logs (a per-rank file of a job) have no process to fold: then
	// nothing below is made.
	folds := false
	for _, u := range lg.Processes {
		if baseOf(u.Source) == u.Source && byKey[u.Source] == u {
			folds = true
			break
		}
	}
	if folds {
		ranked = map[string][]*Process{}
		drop = map[*Process]bool{}
		for _, p := range lg.Processes {
			if b := baseOf(p.Source); b != p.Source {
				ranked[b] = append(ranked[b], p)
			}
		}
	}
	// A Ray stream's processes without Ray's prefix but the one without a
	// key: the driver's own ranks, as Ray's prefixes name each worker.
	var rayOwn []*Process
	if folds && lg.ray {
		for _, p := range lg.Processes {
			if p.Source != "" && rayKey(p.Source) == rayNone {
				rayOwn = append(rayOwn, p)
			}
		}
	}
	for _, u := range lg.Processes {
		if !folds || baseOf(u.Source) != u.Source || byKey[u.Source] != u {
			continue
		}
		others := ranked[u.Source]
		if u.Source == "" {
			others = make([]*Process, 0, len(lg.Processes))
			for _, p := range lg.Processes {
				if p != u {
					others = append(others, p)
				}
			}
		}
		// An argument dump printed before the ranks start (trtllm-serve's
		// own) is every following rank's input, not a process of its own.
		argsOnly := u.Inputs.Seen() && u.Error == "" && u.Outcome() == "" && !u.ResolvedSeen && u.Backend == "" &&
			len(u.Findings) == 0 && len(u.Lines) <= 1
		if u.Source == "" && lg.ray {
			// A Ray driver's own lines (ray.go): beside its own ranks they
			// fold as usual; beside Ray's workers alone they are the driver.
			if len(rayOwn) == 0 {
				drop[u] = rayDriverOf(u, others, argsOnly)
				continue
			}
			others = rayOwn
		}
		if argsOnly && len(others) > 1 {
			for _, p := range others {
				if !p.Inputs.Seen() {
					p.Inputs = u.Inputs
				}
			}
			drop[u] = true
			continue
		}
		shows := len(u.Lines) > 0 || u.Error != "" || len(u.Findings) > 0 || u.LinesDropped > 0
		switch {
		case len(others) == 0:
			if u.Source == "" {
				u.Source = "process"
			}
		case len(others) == 1 && u.orchestrator && u.orchestratorLike() && strings.HasPrefix(others[0].Source, "rank "):
			// The orchestrator's lines (trtllm-serve disaggregated sets no
			// rank) beside one TensorRT-LLM rank, its workers' (one stream
			// for all, as a launch script's): the orchestrator's own
			// process, not that rank's lines printed before its rank was
			// set. An argument dump among them is the rank's input.
			if !others[0].Inputs.Seen() {
				others[0].Inputs = u.Inputs
			}
			u.Source = "process without rank"
			u.held = false
		case len(others) == 1:
			others[0].merge(u)
			drop[u] = true
		case !shows:
			drop[u] = true
		case u.Source != "":
			u.Source += " without rank"
			u.held = false
		case u.unranked:
			u.Source = "process without rank"
			u.held = false
		default:
			u.Source = "unattributed"
			u.held = false
		}
	}
	held := false
	for _, p := range lg.Processes {
		held = held || p.held && !drop[p]
	}
	if len(drop) > 0 || held {
		kept := lg.Processes[:0]
		for _, p := range lg.Processes {
			if !drop[p] && !p.held {
				kept = append(kept, p)
			}
		}
		lg.Processes = kept
	}
	lg.proxyOnly()
	lg.Summarised = 0
	for _, p := range lg.Processes {
		if p.Class == "" && p.Error == "" && !p.Disabled && p.ResolvedSeen && !p.Resolved.Is("PYTHON") {
			p.Class = resolver.ClassCPP
			p.ClassInferred = true
		}
		if p.Summarised {
			lg.Summarised++
		}
		// slices' stable sort is sort's, without its allocations; it only
		// asks whether cmp(a, b) < 0, i.e. less(a, b).
		slices.SortStableFunc(p.Lines, func(a, b Line) int { return lessCmp(a.N < b.N) })
	}
	slices.SortStableFunc(lg.Processes, func(a, b *Process) int { return lessCmp(sourceLess(a, b)) })
}

// proxyOnly says, of a process whose only failure is the executor proxy's
// generic "RuntimeError: Executor worker returned error" (proxy.py's
// _start_executor_workers, raised when a worker's start-up reported an
// error; verified), that the reason is the worker's own error, which this
// log does not hold when no process in it failed otherwise: a paste of the
// last traceback alone (TensorRT-LLM issue #7706), or the workers' output
// kept elsewhere.
func (lg *Log) proxyOnly() {
	for _, p := range lg.Processes {
		if p.Error != "" && errorWeight(p.Error) > 0 {
			return
		}
	}
	for _, p := range lg.Processes {
		if p.Error != "" && p.Cause == "" {
			p.imply(p.errorLine, "the executor proxy's generic error: a worker's start-up failed, and its own error, the reason, is not in this log (printed before it as 'Failed to initialize executor on rank N: …' with its traceback, or 'Executor worker initialization error: …'): look further up the log, or in the workers' output (mpirun's, srun's, the pod's)", 0, 0)
		}
	}
}

// lessCmp turns a less result into a comparison for slices.SortStableFunc.
func lessCmp(less bool) int {
	if less {
		return -1
	}
	return 1
}

// baseOf is the part of a process key its launcher gave: "" for TensorRT-LLM's
// own "rank 3", "pod/x/c" for "pod/x/c rank 3" (and "ctx-1" for
// "ctx-1 rank 3"), the key itself otherwise.
func baseOf(key string) string {
	if strings.HasPrefix(key, "rank ") {
		return ""
	}
	// A kubectl pod's or compose container's key with TensorRT-LLM's rank.
	if i := strings.Index(key, " rank "); i >= 0 {
		return key[:i]
	}
	return key
}

// sourceLess orders processes by rank number when both have one, else by first line.
func sourceLess(a, b *Process) bool {
	ra, oka := rankOf(a.Source)
	rb, okb := rankOf(b.Source)
	if oka && okb && ra != rb {
		return ra < rb
	}
	return a.firstLine < b.firstLine
}

func rankOf(s string) (int, bool) {
	i := strings.LastIndexAny(s, " ,")
	if i < 0 {
		return 0, false
	}
	n, err := strconv.Atoi(strings.TrimRight(s[i+1:], "]"))
	return n, err == nil
}

// merge moves u's findings into p (u's lines came first).
func (p *Process) merge(u *Process) {
	p.orchestrator = p.orchestrator || u.orchestrator
	p.twoClasses = p.twoClasses || u.twoClasses
	if !p.ResolvedSeen && u.ResolvedSeen {
		p.Resolved, p.ResolvedSeen, p.ResolvedFor = u.Resolved, true, u.ResolvedFor
	}
	switch {
	case p.Class == "":
		p.Class, p.ClassInferred, p.classLine = u.Class, u.ClassInferred, u.classLine
	case u.Class != "" && !u.ClassInferred && u.classLine > 0 && !p.ClassInferred && p.classLine > 0:
		// The folded lines showed a class too: as if they came first.
		later, line := p.Class, p.classLine
		p.Class, p.classLine = u.Class, u.classLine
		p.setClass(line, later)
	}
	if p.Backend == "" {
		p.Backend = u.Backend
	}
	if p.EnvVar == "" {
		p.EnvVar = u.EnvVar
	}
	p.Disabled = p.Disabled || u.Disabled
	if p.DisabledSaid == "" {
		p.DisabledSaid = u.DisabledSaid
	}
	if p.Fallback == "" {
		p.Fallback = u.Fallback
	}
	if p.Error == "" && u.Error != "" {
		p.Error, p.errorLine, p.Cause = u.Error, u.errorLine, u.Cause
	}
	if p.NixlBackend == "" {
		p.NixlBackend = u.NixlBackend
	}
	if p.Agent == "" {
		p.Agent = u.Agent
	}
	if !p.Inputs.Seen() {
		p.Inputs = u.Inputs
	}
	for _, f := range u.Findings {
		merged := false
		for i := range p.Findings {
			if p.Findings[i].Kind == f.Kind {
				p.Findings[i].Count += f.Count
				if f.Line < p.Findings[i].Line {
					p.Findings[i].Line, p.Findings[i].Text = f.Line, f.Text
				}
				merged = true
			}
		}
		if !merged {
			p.Findings = append(p.Findings, f)
		}
	}
	p.FindingsDropped += u.FindingsDropped
	p.InfoSeen = p.InfoSeen || u.InfoSeen
	p.xcvrLines = p.xcvrLines || u.xcvrLines
	p.Lines = append(u.Lines, p.Lines...)
	if len(p.Lines) > maxLinesPerProcess {
		p.LinesDropped += len(p.Lines) - maxLinesPerProcess
		p.Lines = p.Lines[:maxLinesPerProcess]
	}
	p.LinesDropped += u.LinesDropped
	// Each text once (the fold's lines often say the same), at its first line.
	merged := make([]Implication, 0, len(u.Implications)+len(p.Implications))
	at := map[string]int{}
	for _, im := range append(u.Implications, p.Implications...) {
		if i, ok := at[im.Text]; ok {
			if im.Line < merged[i].Line {
				merged[i] = im
			}
			continue
		}
		at[im.Text] = len(merged)
		merged = append(merged, im)
	}
	p.Implications = merged
	if p.seenImpl != nil || len(u.seenImpl) > 0 {
		if p.seenImpl == nil {
			p.seenImpl = map[string]bool{}
		}
		for t := range at {
			p.seenImpl[t] = true
		}
	}
	if len(p.Implications) > maxImplications {
		p.ImplicationsDropped += len(p.Implications) - maxImplications
		p.Implications = p.Implications[:maxImplications]
	}
	p.ImplicationsDropped += u.ImplicationsDropped
	if u.firstLine < p.firstLine {
		p.firstLine = u.firstLine
	}
}

// Failed reports whether any process raised.
func (lg *Log) Failed() bool {
	for _, p := range lg.Processes {
		if p.Error != "" {
			return true
		}
	}
	return false
}

// excMatch is reExc's submatches of t, or nil.
func excMatch(t string) []string {
	if !mayExc(t) {
		return nil
	}
	return reExc().FindStringSubmatch(t)
}

package logs

import (
	"bytes"
	"errors"
	"io"
	"os"
	"regexp"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
)

// state is the stateful half of the parser: it sees the scanner's events in log
// order and does what the old line-by-line loop did with them.
type state struct {
	lg      *Log
	byKey   map[string]*Process
	current string
	// pendingExc is a pydantic error collecting its detail lines;
	// excLocOnly says it takes only a C++ source location (cppLocation).
	pendingExc *Process
	excLocOnly bool
	// excNextLine says it takes the lines its message goes on with
	// (lazyImportCause).
	excNextLine bool
	excDetail   int
	// excIndent is the exception's own indentation: its detail lines are
	// those indented further, kept without it (a paste indented as a whole
	// reads as it would not).
	excIndent int
	// pendingCause is a start-up failure whose root cause may follow.
	pendingCause *Process
	// base is the number of lines before the chunk being replayed.
	base int
	// retained counts the bytes of kept lines and texts, against maxRetained.
	retained int
	// serving holds, per process key, the line where that process's server
	// said it was up (uvicorn's "Application startup complete."): an
	// exception of that process after it is a runtime error, not how its
	// start-up ended. Per key, because one stream (docker compose's, kubectl
	// --prefix's) can hold a server that is up and another still starting.
	serving map[string]int
	// fallback is the key of a process whose "Fallback to regular model
	// init: Traceback …" line was read: the traceback under it is logged,
	// not raised, until its exception line (or an ERROR line of the
	// process); fallbackOn says one is open.
	fallback   string
	fallbackOn bool
	// excProc and excLine are the process and line of the last exception
	// that ended a start-up: the C++ frames printed under it (within
	// excWindow lines, which the scanner always passes on) may say where.
	excProc *Process
	excLine int
	// loopKey is the key of a process whose log shows PyExecutor's event
	// loop raising (a traceback frame in it, Python's "Exception in thread
	// … (_event_loop_wrapper):", or the loop's "Error in event loop:"
	// line), at line loopLine; loopOn says the exception line that ends
	// that traceback is still to come. loopPrev is the last such exception
	// (key and text): the loop's logger and Python's thread hook print the
	// same one twice.
	loopKey  string
	loopLine int
	loopOn   bool
	loopPrev string
	// loopLogged is the key and message of the last "Error in event loop:
	// …" line read (loopErrorLogged): the exception line of the traceback
	// under it is the same error.
	loopLogged string
	// loopSubmit says the traceback open at loopLine is the worker's
	// request loop submitting a request (submitFrame), not PyExecutor's
	// event loop.
	loopSubmit bool
	// diedKey and diedText are the key of a process whose loop's thread
	// died and the text of the runtime error its thread hook's header made
	// (loopDied); diedOpen says the traceback's exception line, which says
	// the error better, is still to come.
	diedKey  string
	diedText string
	diedOpen bool
	// mainKey and mainLine are the key and line of the last traceback
	// frame in worker_main (workerMainFrame): the line under it may be its
	// call of the worker's submit (workerSubmitCall).
	mainKey  string
	mainLine int
	// spawnKey and spawnLine are the key and line of the last header over
	// mpi4py's spawning thread's traceback (mpiSpawnHeader).
	spawnKey  string
	spawnLine int
	// frameHead and frameTail are the line and the path's end of a frame
	// whose path a wrap cut (wrappedFrame).
	frameHead int
	frameTail string
	// asyncKey is the key of a process whose asyncio event loop logged an
	// exception it handled (asyncioHeader) at line asyncLine; asyncOn says
	// the exception line that ends its traceback is still to come.
	// asyncEnd is the line of the last such exception line: a chained
	// exception ("During handling of the above exception, …") goes on
	// under it.
	asyncKey  string
	asyncLine int
	asyncOn   bool
	asyncEnd  int
	// asyncIgnored says the open one is Python's report of an exception
	// it ignored (ignoredHeader): no finding.
	asyncIgnored bool
	// crashed holds, per process key, the line of the crash read for it
	// (crashLine): the crash handlers that print after the first (UCX's,
	// Open MPI's, Python's faulthandler) report the same death. termKey and
	// termLine are the process and line of libstdc++'s "terminate called
	// after throwing an instance of 'T'", whose "what():" line may follow;
	// termClass is T.
	crashed map[string]int
	// stopped holds, per process key, the line where its server began a
	// clean shutdown (uvicorn's "Shutting down", "Finished server process
	// [N]"); stepEnd is the line where Slurm ended or cancelled the job step
	// ("srun: Terminating job step …", "srun: Job step aborted: …", "***
	// STEP … CANCELLED AT …"). A task's exit status after either is how it
	// was stopped, not its death.
	stopped map[string]int
	stepEnd int
	// ranked holds the launcher keys (a pod's, a compose container's)
	// whose processes are ranked ("pod/ctx-0/trtllm rank 0"): see owner.
	ranked    map[string]bool
	termKey   string
	termLine  int
	termClass string
	// split holds the lines a container runtime cut that the chunks
	// replayed so far end inside (splitLines), their last pieces numbered
	// in the log.
	split splitLines
	// rayPids indexes the Ray workers among lg.Processes[:rayIndexed] by
	// pid (rayWorkerProc); rayOOMKey and rayOOMLine are the process and
	// line of the last OutOfMemoryError of a worker Ray's memory monitor
	// killed, whose detail names it (ray.go).
	rayPids    map[string][]*Process
	rayIndexed int
	rayOOMKey  string
	rayOOMLine int
}

func newState(name string) *state {
	return &state{lg: &Log{Name: name}, byKey: map[string]*Process{}}
}

// replay feeds one chunk's events, then moves past its lines.
func (st *state) replay(res *chunkResult) {
	for i := range res.events {
		ev := &res.events[i]
		if ev.curKnown {
			st.current = ev.cur
		}
		st.line(st.base+ev.n, ev.key, ev.tagged, ev.pyTagged, ev.level, ev.msg)
	}
	if res.endKnown {
		st.current = res.endCur
	}
	if res.trtllmFrame {
		st.lg.trtllm = true
	}
	if res.ray {
		st.lg.ray = true
	}
	// The lines the chunk ends inside, for the next chunk (numbered in the
	// log from now on).
	st.split.copyFrom(&res.split)
	for i := range 2 {
		if st.split.rel[i] {
			st.split.last[i], st.split.rel[i] = st.base+st.split.last[i], false
		}
	}
	st.base += res.lines
	st.lg.Lines = st.base
}

// replayChunk replays res, the scan of data or of its first res.consumed
// bytes (the events' text reached eventBudget), then scans the rest of data
// with scan a piece at a time, replaying each before the next is scanned:
// however many lines a log passes on, the events held at once stay bounded.
// A piece starts where a chunk may (the state's pendingCause says whether
// it starts inside a failure's root cause, its split whether inside lines a
// container runtime cut). res is reused.
func (st *state) replayChunk(data []byte, res *chunkResult, scan func(data []byte, res *chunkResult, causeOpen bool, split *splitLines) error) error {
	for {
		st.replay(res)
		data = data[res.consumed:]
		if len(data) == 0 {
			return nil
		}
		clear(res.events) // no strings of a replayed piece kept alive
		*res = chunkResult{events: res.events[:0]}
		if err := scan(data, res, st.pendingCause != nil, st.carry()); err != nil {
			return err
		}
	}
}

// scanPlain is a scanFrom that cannot fail, for replayChunk.
func scanPlain(sc *scanner) func([]byte, *chunkResult, bool, *splitLines) error {
	return func(data []byte, res *chunkResult, causeOpen bool, split *splitLines) error {
		sc.scanFrom(data, res, causeOpen, split)
		return nil
	}
}

// carry is what a chunk's scan must know of lines a container runtime cut
// that the chunk before it ends inside: nil when none.
func (st *state) carry() *splitLines {
	if st.split.pending() {
		return &st.split
	}
	return nil
}

// midLine reports whether the next chunk may start inside something its
// worker could not know of: a failure's root cause, a line cut in pieces.
func (st *state) midLine() bool { return st.pendingCause != nil || st.split.pending() }

// flushSplit reads the lines a container runtime cut whose last piece never
// came (the log ends: containerd writes a last line without its newline as
// P), each as one line numbered as its last piece's, the earlier first.
func (st *state) flushSplit() {
	if !st.split.pending() {
		return
	}
	left := st.split
	st.split = splitLines{}
	base, lines := st.base, st.lg.Lines
	sc := newScanner()
	for range 2 {
		i := 0
		if !left.open[0] || left.open[1] && left.last[1] < left.last[0] {
			i = 1
		}
		if !left.open[i] {
			break
		}
		left.open[i] = false
		st.base = left.last[i] - 1
		var res chunkResult
		sc.scanFrom(left.buf[i], &res, st.pendingCause != nil, nil)
		st.replayChunk(left.buf[i], &res, scanPlain(sc))
	}
	st.base, st.lg.Lines = base, lines
}

// line is one line that matters, its prefixes already read: key is its own
// process key ("" when it has none). Lines the scanner does not pass on must
// change nothing here (the reference parser passes every line).
func (st *state) line(n int, key string, tagged, pyTagged bool, level, msg string) {
	// Ray's prefixes: the raylet's and the autoscaler's lines are no
	// process's; a worker's line does not become the current one, so the
	// bare lines after it stay the driver's (ray.go). Asked of the whole
	// key, as the scanner asks it.
	ray := rayKey(key)
	if ray != rayNone {
		st.lg.ray = true
	}
	if ray == rayDaemon {
		st.rayDaemonLine(n, cutKey(key), msg)
		return
	}
	key = cutKey(key)
	if key != "" && len(st.byKey) >= maxTracked && st.byKey[key] == nil {
		// Past maxTracked processes a new key is not remembered: its lines
		// are one more process's, so memory is bounded by us, not by how
		// many labels a log makes up.
		key = overflowKey
		st.lg.Overflow++
	}
	msg, rayRep := cutRayRepeated(msg)
	switch {
	case key == "" && pyTagged:
		// TensorRT-LLM's Python logger prints [RANK n] whenever the MPI world
		// has more than one process, so a line without it comes from a
		// process with no rank (e.g. trtllm-serve's own), never from the
		// ranked process that logged last.
		st.current = ""
	case key == "":
		key = cutKey(st.current) // the scanner's replay sets current whole
	case ray == rayNone:
		st.current = key
	}
	if !tagged {
		msg = unframe(msg)
		st.wrappedFrame(n, msg)
	}

	// A pydantic ValidationError prints its locations and messages on the
	// lines after its title; keep them with the exception.
	if pe := st.pendingExc; pe != nil && st.excLocOnly {
		// Only the C++ location a paste wrapped onto the next line.
		st.pendingExc, st.excLocOnly = nil, false
		if t := strings.TrimSpace(msg); !tagged && key == pe.key() && cppLocation(t) {
			t = st.cut(t, maxDetailBytes)
			pe.Error += "\n" + t
			st.retained += len(t) + 1
			return
		}
	}
	if pe := st.pendingExc; pe != nil && st.excNextLine {
		// The rest of a message that goes on on the next line: the error
		// it names (lazyImportCause).
		t := strings.TrimSpace(msg)
		st.pendingExc, st.excNextLine = nil, false
		if !tagged && key == pe.key() && t != "" && st.excDetail < 4 && !strings.HasPrefix(t, "Traceback (") &&
			!strings.HasPrefix(t, "The above exception") && !strings.HasPrefix(t, "During handling") {
			t = st.cut(t, maxDetailBytes)
			pe.Error += "\n" + t
			st.retained += len(t) + 1
			st.excDetail++
			if lib, ok := strings.CutSuffix(t, ": cannot open shared object file: No such file or directory"); ok {
				pe.imply(n, missingLibNote(lib), 0, 0) // the import's own error, the loader's
			}
			pe.implyTorchABI(n, t)
			if lazyImportCause(t) || strings.HasSuffix(t, "because of the following error") {
				// Nested ("Failed to import transformers.modeling_utils
				// because of the following error (look up …):"), or wrapped
				// before its parenthesis: its error is on the next line.
				st.pendingExc, st.excNextLine = pe, true
			}
			return
		}
	}
	if pe := st.pendingExc; pe != nil {
		if !tagged && st.excDetail < 40 && (indentOf(msg) > st.excIndent || reLoc().MatchString(msg)) && key == pe.key() {
			t := strings.TrimRight(msg[min(st.excIndent, indentOf(msg)):], " ")
			if !strings.HasPrefix(strings.TrimSpace(t), "For further information visit") {
				t = st.cut(t, maxDetailBytes)
				pe.Error += "\n" + t
				st.retained += len(t) + 1
			}
			st.excDetail++
			return
		}
		st.pendingExc = nil
	}
	// A start-up failure's root cause is on the lines under it.
	if pc := st.pendingCause; pc != nil {
		if !tagged && key == pc.key() && pc.causeOpen && pc.continueCause(n, msg) {
			return
		}
		if tagged || key == pc.key() {
			pc.causeOpen = false
			st.pendingCause = nil
		}
	}

	tm := msg
	if tagged && level == LevelUnstated && st.byKey[key] == nil {
		// A tag pasted without its level ("[TRT-LLM] Failed to initialize
		// executor on rank 0: …", "[_torch][RANK 0] …") shows a process only
		// by what it says: other programs print "[TRT-LLM] " before their own
		// words (a benchmark client's "[TRT-LLM] POST http://…"), which make
		// no TensorRT-LLM process and leave a file not TensorRT-LLM's.
		msg = strings.TrimRight(msg, " \t")
		if strings.HasPrefix(msg, "Fallback to regular model init") {
			st.fallback, st.fallbackOn = key, true
		}
		st.observe(nil, key, n, level, msg)
		if q := st.byKey[key]; q != nil {
			q.unranked = q.unranked || key == ""
		}
		return
	}
	if tagged {
		st.lg.trtllm = true
		// A terminal's copy (tmux, a pasted issue) pads lines with blanks,
		// and k9s's log view frames them ("│ … │", as Dynamo issue #6678
		// pasted its logs); TensorRT-LLM's messages end with neither, and
		// classify matches whole messages ("Using KvCacheTransceiverV2").
		msg = strings.TrimRight(msg, " \t")
		if t, ok := strings.CutSuffix(msg, "│"); ok {
			msg = strings.TrimRight(t, " \t")
		}
		msg = dropCodeSpanEnd(msg)
		switch {
		case strings.HasPrefix(msg, "Fallback to regular model init"):
			// ModelLoader's meta-device init failed and it builds the model
			// again the usual way: logger.info of the traceback it caught
			// (verified, model_loader.py / model_engine.py, every release),
			// whose lines, its exception's included, follow bare.
			st.fallback, st.fallbackOn = key, true
		case level == "ERROR" && key == st.fallback:
			st.fallbackOn = false
		}
		if level == "ERROR" && !pyTagged && key == st.termKey && st.termLine > 0 && n-st.termLine <= 2 {
			// libstdc++'s "  what():  " line of a TensorRT-LLM C++ exception,
			// whose message starts with the C++ logger's tag (TensorRT-LLM
			// issue #1826): the tag was read behind "what():".
			st.crash(key, n, "[TensorRT-LLM][ERROR] "+msg, crashWhat)
		}
		if level == "ERROR" && strings.HasPrefix(msg, eventLoopError) {
			st.loopSeen(key, n)
		}
		if level == "ERROR" && strings.HasPrefix(msg, forwardError) {
			st.forwardFailed(key, n, msg)
		}
		q := st.get(key, n)
		if q == nil {
			return
		}
		if rayRep {
			q.imply(n, rayRepeatedNote, 0, 0)
		}
		if level == "ERROR" && strings.HasPrefix(msg, eventLoopError) {
			st.loopErrorLogged(q, key, n, msg)
		}
		if level == "ERROR" && !pyTagged && strings.HasPrefix(msg, cppForwardError) {
			// The C++ executor's step failed: its loop ran, so the executor
			// (and any transceiver, built with its model) was up.
			if q.loopRan == 0 {
				q.loopRan = n
			}
			q.find(n, FindingRuntimeError, st.cut(msg, maxMessageBytes))
		}
		if level == "INFO" {
			q.InfoSeen = true
			if q.loopRan == 0 && iterLine(msg) {
				q.loopRan = n
			}
		}
		q.unranked = q.unranked || (pyTagged && key == "")
		st.observe(q, key, n, level, msg)
		return
	}
	tm = strings.TrimSpace(msg)
	// A traceback's frames and lines behind a test harness's label.
	ft := dropHarnessLabel(tm)
	if trtllmFrame(ft) || mpiSessionLine(tm) {
		st.lg.trtllm = true // a traceback through TensorRT-LLM's code, its proxy's MPI session
	}
	if q := st.excProc; q != nil && n-st.excLine <= excWindow && key == q.key() {
		q.implyFrame(n, tm)
	}
	if i := strings.Index(tm, tritonInstanceError); i >= 0 {
		st.tritonInstanceFailed(key, n, tm, tm[i+len(tritonInstanceError):])
		return
	}
	if i := strings.Index(tm, cppForwardError); i > 0 {
		// The C++ executor's step failure, as a server that ran it reports
		// a request's error (Baseten's Briton: "Executor requestId=235
		// failed with error: Encountered an error in forwardAsync function:
		// …", TensorRT-LLM issue #5451): its executor was up.
		st.lg.trtllm = true
		if q := st.get(key, n); q != nil {
			if q.loopRan == 0 {
				q.loopRan = n
			}
			q.find(n, FindingRuntimeError, st.cut(quotedErrorText(tm[i:]), maxMessageBytes))
		}
		return
	}
	if i := rayDeathAt(tm); i >= 0 {
		// Ray's word that a worker died, its driver's logger's (an older
		// Ray's): the worker's finding, its driver this line's process.
		chain := ""
		if rayKey(key) == rayWorker {
			chain, _, _ = rayParts(key)
		}
		st.rayDied(n, chain, key, tm[i:], false)
		return
	}
	if st.rayOOMLine > 0 && n-st.rayOOMLine <= rayOOMWindow && key == st.rayOOMKey && strings.HasPrefix(tm, rayOOMDetail) {
		// The worker Ray's memory monitor killed, under its caller's
		// OutOfMemoryError.
		st.rayOOMLine = 0
		chain := ""
		if rayKey(key) == rayWorker {
			chain, _, _ = rayParts(key)
		}
		st.rayDied(n, chain, key, tm, true)
		return
	}
	if strings.HasPrefix(tm, oomComponent) {
		// The executor's out-of-memory error goes on over lines: this one
		// names the component (of this process's failure, just above).
		if q := st.byKey[key]; q != nil && q.errorLine > 0 && n-q.errorLine <= excWindow &&
			strings.Contains(q.Error, executorCreationFailed+"due to insufficient GPU memory") {
			q.imply(n, oomComponentNote(tm[len(oomComponent):]), 0, 0)
		}
		return
	}
	if asyncioHeader(tm) {
		st.asyncKey, st.asyncLine, st.asyncOn, st.asyncIgnored = key, n, true, false
		return
	}
	if ignoredHeader(tm) {
		st.asyncKey, st.asyncLine, st.asyncOn, st.asyncIgnored = key, n, true, true
		return
	}
	if text, kind := crashLine(tm); kind != crashNone {
		st.crash(key, n, text, kind)
		return
	}
	if rank, task, ok := launcherDeath(tm); ok {
		st.crash(st.rankKey(rank, task), n, tm, crashSignal)
		return
	}
	if tasks, ok := srunExit(tm); ok {
		st.srunExited(n, tm, tasks)
		return
	}
	if slurmStepEnd(tm) {
		st.stepEnd = n
		return
	}
	if cleanShutdown(tm) {
		if st.stopped == nil {
			st.stopped = map[string]int{}
		}
		st.stopped[key] = n
	}
	if !st.asyncOn && key == st.asyncKey && st.asyncEnd > 0 && n-st.asyncEnd <= 2 && chainedException(tm) {
		// The handled exception's traceback goes on with another exception.
		st.asyncOn = true
		return
	}
	if mpiSpawnHeader(tm) {
		// The executor's MPI workers could not be spawned: the exception
		// under it is how that process's start-up ended.
		if st.lg.mpiSpawn == 0 {
			st.lg.mpiSpawn = n
		}
		st.spawnKey, st.spawnLine = key, n
		return
	}
	if eventLoopLine(ft) {
		st.lg.trtllm = true // PyExecutor's loop
		st.loopSeen(key, n)
		st.loopSubmit = false
		st.loopProcess(key, n)
		st.loopShown(key)
		if strings.HasPrefix(ft, "Exception in thread ") {
			st.loopDied(key, n, ft)
		}
		return
	}
	if strings.HasPrefix(tm, llmProgress) {
		// LLM.generate's progress bar (tqdm(futures, desc="Processed
		// requests") in tensorrt_llm/llmapi/llm.py, verified): the LLM and
		// its executor were built, and requests went to its workers. Said
		// of the process it is printed in, if that has shown itself.
		if q := st.byKey[key]; q != nil && q.loopRan == 0 {
			q.loopRan, q.loopSubmit = n, true
		}
		return
	}
	if workerMainFrame(ft) {
		st.mainKey, st.mainLine = key, n
	}
	if submitFrame(ft) || ft == workerSubmitCall && st.mainLine == n-1 && st.mainKey == key {
		st.lg.trtllm = true // TensorRT-LLM's executor worker or proxy
		if !st.loopOn || st.loopKey != key {
			st.loopSubmit = true
		}
		st.loopSeen(key, n)
		st.loopProcess(key, n)
		st.loopShown(key)
		return
	}
	if serverUp(tm) {
		if st.serving == nil {
			st.serving = map[string]int{}
		}
		if st.serving[key] == 0 {
			st.serving[key] = n
		}
		if q := st.byKey[key]; q != nil && q.serverUp == 0 {
			q.serverUp, q.dynamoUp = n, dynamoEngineUp(tm)
		}
		return
	}
	if k := loggedMessage(tm); k >= 0 && st.startupOver(key) {
		if m := excMatch(tm[k:]); m != nil {
			// An exception a handler caught and logged at ERROR once start-up
			// was over (Dynamo's workers, Python's logging): the process went
			// on or shut down after; a runtime error, not how start-up ended.
			if trtllmException(m[2]) {
				st.lg.trtllm = true
			}
			if q := st.owner(key, n); q != nil {
				q.find(n, FindingRuntimeError, st.cut(m[1]+": "+m[2], maxMessageBytes))
			}
			return
		}
	}
	if m := excMatch(tm); m != nil {
		if trtllmException(m[2]) {
			st.lg.trtllm = true
		}
		if strings.HasPrefix(m[2], rayOOMKilled) {
			st.rayOOMKey, st.rayOOMLine = key, n
		}
		if st.fallbackOn && key == st.fallback {
			// The logged fallback traceback's last line: nothing was raised.
			st.fallbackOn = false
			return
		}
		if m[1] == "TimeoutError" && m[2] == orchestratorTimeout {
			// The orchestrator gave up waiting for its workers: not a
			// process that failed to build a transceiver.
			st.lg.orchestratorSeen(n)
			st.lg.TimedOut = n
			return
		}
		if strings.HasPrefix(m[2], transferError) {
			st.lg.trtllm = true
			// A request whose KV-cache transfer failed, as its caller
			// raises it: a transceiver was built and ran the transfer.
			if q := st.get(key, n); q != nil {
				q.xcvrLines = true
				if q.loopRan == 0 {
					// The executor's loop checks the transfers and fails
					// the requests: it ran.
					q.loopRan = n
				}
				q.find(n, FindingTransferFailed, st.cut(m[1]+": "+m[2], maxMessageBytes))
			}
			if key == st.loopKey {
				st.loopOn = false
			}
			return
		}
		if m[1] == "AssertionError" && strings.HasPrefix(m[2], noTransceiver) {
			st.lg.trtllm = true
			// Raised per request, not at start-up: the executor (and no
			// transceiver) was built, and a disaggregated request came.
			if q := st.get(key, n); q != nil {
				q.noTransceiver(n, st.cut(tm, maxMessageBytes))
			}
			if key == st.loopKey {
				// Its traceback went through the worker's submit (submitFrame):
				// read here, not as a runtime error.
				st.loopOn = false
			}
			return
		}
		if st.asyncOn && key == st.asyncKey && n-st.asyncLine <= loopWindow {
			// Logged by asyncio's exception handler, which went on: not how
			// start-up ended. A finding of the process the line belongs to,
			// if it has shown itself.
			st.asyncOn, st.asyncEnd = false, n
			if q := st.owner(key, n); q != nil && !st.asyncIgnored {
				// Cut to fit a finding's text with the note and the cut's
				// mark: find cuts at maxDetailBytes, which took the note.
				q.find(n, FindingRuntimeError, st.cut(m[1]+": "+m[2], maxDetailBytes-len(asyncioNote)-cutMarkRoom)+asyncioNote)
			}
			return
		}
		if st.loopOn && key == st.loopKey && n-st.loopLine <= loopWindow {
			// Raised by the executor's event loop: the executor was built,
			// its transceiver before it; not how start-up ended.
			st.loopOn = false
			died := st.diedOpen && st.diedKey == key
			st.diedOpen = false
			if q := st.get(key, n); q != nil {
				if q.loopRan == 0 {
					q.loopRan, q.loopSubmit = st.loopLine, st.loopSubmit
				}
				text := st.cut(m[1]+": "+m[2], maxMessageBytes)
				if k := key + "\x00" + text; k != st.loopPrev {
					st.loopPrev = k
					if died {
						// The thread hook's header made the finding: its
						// exception line says the error.
						q.retext(FindingRuntimeError, st.diedText, text)
					} else if st.loopLogged == key+"\x00"+m[2] {
						// The loop's ERROR line said this error: its exception
						// line names the class; one finding.
						st.loopLogged = ""
						q.retext(FindingRuntimeError, st.cut(eventLoopError+m[2], maxMessageBytes), text)
					} else {
						q.find(n, FindingRuntimeError, text)
					}
				}
			}
			return
		}
		if st.serving[key] > 0 {
			// The server was up: the transceiver was built long before. A
			// finding of the process the line belongs to, if it has shown
			// itself (an exception alone makes no process).
			if q := st.owner(key, n); q != nil {
				q.find(n, FindingRuntimeError, st.cut(m[1]+": "+m[2], maxMessageBytes))
			}
			return
		}
		q := st.get(key, n)
		if q != nil && q.fail(n, st.cut(m[1]+": "+m[2], maxMessageBytes)) {
			st.retained += len(q.Error)
			st.excProc, st.excLine = q, n
			q.keep(Line{N: n, Message: st.cut(tm, maxMessageBytes)})
			q.implyError(n, m[1], m[2])
			if st.spawnLine > 0 && key == st.spawnKey && n-st.spawnLine <= loopWindow {
				q.imply(n, mpiSpawnNote, 0, 0)
			}
			// A pydantic error's locations and messages, or the rest of a
			// title a paste wrapped after its colon ("Assertion failed:"
			// above an indented "status == NIXL_SUCCESS (…)"), follow it.
			st.excIndent = 0
			if !tagged {
				st.excIndent = indentOf(msg)
			}
			switch {
			case lazyImportCause(m[2]):
				st.pendingExc, st.excDetail, st.excLocOnly, st.excNextLine = q, 0, false, true
			case strings.HasSuffix(m[1], "ValidationError") || strings.HasSuffix(m[2], ":"):
				st.pendingExc, st.excDetail, st.excLocOnly, st.excNextLine = q, 0, false, false
			case strings.Contains(m[2], "[TensorRT-LLM][ERROR]") && !strings.HasSuffix(m[2], ")"):
				// A C++ error whose "(file.cpp:N)" a paste wrapped onto the
				// next line (Dynamo issue #6671: "… Assertion failed: status
				// == NIXL_SUCCESS" over "(../tensorrt_llm/executor/
				// cache_transmission/nixl_utils/transferAgent.cpp:416)"):
				// where it failed, which says whose failure it is.
				st.pendingExc, st.excDetail, st.excLocOnly, st.excNextLine = q, 0, true, false
			}
		}
		return
	}
	if m := reVersion().FindStringSubmatch(tm); m != nil {
		st.lg.stateVersion(n, key, m[1])
		delete(st.serving, key) // a process starts (again): its start-up follows
		st.restarted(key)
		return
	}
	if level, msg, ok := nixlError(tm); ok {
		st.lg.trtllm = true // the transceiver's transfer agent
		if q := st.get(key, n); q != nil {
			q.nixlError(n, level, msg)
		}
		return
	}
	if msg, ok := ucxError(tm); ok {
		// A finding of the process the line belongs to; printed before
		// its first TensorRT-LLM line, of the process that follows (a held
		// one, which finish drops if none does: UCX's lines alone, another
		// program's log, make none).
		if q := st.ucxOwner(key, n); q != nil {
			q.ucxError(n, st.cut(msg, maxMessageBytes))
		}
		return
	}
	// The C++ side's bare lines, pasted excerpts and argument dumps.
	st.observe(nil, key, n, LevelUnstated, tm)
}

// observe classifies a line and records it in q (nil: key's process, created
// only when the line is recognised).
func (st *state) observe(q *Process, key string, n int, level, msg string) {
	if strings.HasPrefix(msg, "TensorRT") && strings.Contains(msg, "LLM version: ") {
		// The version line printed through the logger.
		if m := reVersionMsg().FindStringSubmatch(msg); m != nil {
			st.lg.stateVersion(n, key, m[1])
			delete(st.serving, key)
			st.restarted(key)
			return
		}
	}
	orch := func() {
		if q == nil {
			q = st.byKey[key]
		}
		if q != nil {
			q.orchestrator = true
		}
	}
	switch {
	case msg == orchestratorWaiting:
		st.lg.orchestratorSeen(n)
		orch()
		return
	case strings.HasPrefix(msg, orchestratorRouter):
		st.lg.orchestratorSeen(n)
		orch()
		return
	case orchestratorReady(msg) && st.lg.Orchestrator > 0:
		st.lg.Ready, st.lg.Waiting, st.lg.WaitingLine = n, "", 0
		orch()
		return
	}
	if w := orchestratorUnready(msg); w != "" {
		st.lg.orchestratorSeen(n)
		orch()
		st.lg.Waiting, st.lg.WaitingLine, st.lg.Ready = st.cut(w, maxMessageBytes), n, 0
		return
	}
	k, m := classify(level, msg)
	if k == lineNone {
		return
	}
	st.lg.trtllm = true
	if q == nil {
		if q = st.get(key, n); q == nil {
			return
		}
	}
	if k == lineLoadFailed && st.serving[key] > 0 {
		// Weights loaded again once the server was up (a weight update):
		// not how start-up ended.
		q.find(n, FindingRuntimeError, st.cut(msg, maxMessageBytes))
		return
	}
	if _, ok := findingOf[k]; ok {
		// A transfer's outcome or the scheduler's KV-cache warning: the
		// executor's loop was serving requests with a transceiver (each is
		// printed there or by the transfers it runs; the start-up's dummy
		// requests are never disaggregated). Start-up was over: an exception
		// of this process after it is a runtime error, as after the
		// server's line (Dynamo issue #4327: asyncio's InvalidStateError
		// after "num_fitting_reqs=0 …", which Dynamo's known issues list
		// together).
		if st.serving == nil {
			st.serving = map[string]int{}
		}
		if st.serving[key] == 0 {
			st.serving[key] = n
		}
		if q.loopRan == 0 {
			q.loopRan = n
		}
	}
	q.apply(n, level, msg, k, m)
	if (k == lineStartupFailed || k == lineLoadFailed || k == lineWorkerInitError) && q.causeOpen {
		st.pendingCause = q
	}
}

// owner is the process a finding of key's line belongs to: key's own, or,
// for a launcher's key (a pod's, a compose container's) whose processes are
// ranked ("pod/ctx-0/trtllm rank 0"), a process of the key alone, which the
// end folds into its one ranked process (beside several it is shown
// "without rank"), as it folds the lines printed before the rank is known.
// A bare line behind such a prefix carries no rank, so the findings of a
// ranked process's crash, UCX errors or exceptions once its server was up
// were dropped. nil when key has no process: UCX's lines, or an exception
// after a server line, alone make none.
func (st *state) owner(key string, n int) *Process {
	if q := st.byKey[key]; q != nil {
		return q
	}
	if st.ranked[key] {
		return st.get(key, n)
	}
	return nil
}

// ucxOwner is owner for a UCX error line, which UCX may print before its
// process's first TensorRT-LLM line (its context is made as the
// transceiver is): without a process yet, the line's key gets a held one
// (Process.held), the process that follows.
func (st *state) ucxOwner(key string, n int) *Process {
	if q := st.owner(key, n); q != nil {
		return q
	}
	if len(st.lg.Processes) >= maxProcesses {
		return nil
	}
	p := &Process{Source: key, firstLine: n, budget: &st.retained, held: true}
	st.byKey[key] = p
	st.lg.Processes = append(st.lg.Processes, p)
	return p
}

// maxKeyBytes bounds a process key: a pod's name is at most 253 bytes and a
// container's 63 (Kubernetes' DNS limits), so only a made-up label is cut.
// Without it 65,536 processes of 60 KiB names held 4 GB of keys.
const maxKeyBytes = 512

// cutKey cuts a key longer than maxKeyBytes at a character's start and
// marks it; a cut key cuts to itself, so a key cut once stays its process's.
func cutKey(k string) string {
	if len(k) <= maxKeyBytes {
		return k
	}
	b := maxKeyBytes
	for b > 0 && k[b]&0xc0 == 0x80 {
		b-- // not inside a UTF-8 sequence
	}
	return k[:b] + "…"
}

// overflowKey is the process the lines of processes past maxTracked are
// read as.
const overflowKey = "processes past 65,536, read as one"

// get returns key's process, creating it at line n; nil past maxProcesses.
// A held process (ucxOwner) is key's process from here on.
func (st *state) get(key string, n int) *Process {
	if p := st.byKey[key]; p != nil {
		if p.held {
			p.held = false
			st.markRanked(key)
		}
		return p
	}
	p := &Process{Source: key, firstLine: n, budget: &st.retained}
	st.markRanked(key)
	if len(st.lg.Processes) >= maxProcesses {
		// Past the cap on kept detail the process still counts: its outcome,
		// backend and error decide the verdict; its lines are not kept.
		p.Summarised = true
	}
	st.byKey[key] = p
	st.lg.Processes = append(st.lg.Processes, p)
	return p
}

// trtllmFrame reports whether a bare line is a traceback's frame in
// TensorRT-LLM's Python package ('File "/usr/local/lib/python3.12/dist-
// packages/tensorrt_llm/_torch/pyexecutor/py_executor.py", line 290, in
// __init__'): a traceback pasted alone from an issue, whose exception names
// nothing of TensorRT-LLM's ("ValueError: KvCacheTransceiverV2: …"), is
// still TensorRT-LLM's log. The scanner passes few frames on, so it says in
// its chunk's result that it saw one (chunkResult.trtllmFrame).
func trtllmFrame[T string | []byte](tm T) bool {
	const f = `File "`
	return len(tm) > len(f) && tm[0] == 'F' && string(tm[:len(f)]) == f && indexOf(tm, "tensorrt_llm/") >= 0
}

// lazyImportCause reports whether an exception's message ends where
// transformers' lazy import puts the error it names on the next line:
// _LazyModule._get_module raises RuntimeError(f"Failed to import {module}
// because of the following error (look up to see its traceback):\n{e}")
// (transformers/utils/import_utils.py, verified). TensorRT-LLM imports
// transformers as it starts, so a package built for another torch
// (flash_attn's "undefined symbol: …", torchvision's "operator
// torchvision::nms does not exist", numpy's binary incompatibility) ends
// its start-up so, the reason on that next line, not indented.
func lazyImportCause(msg string) bool {
	return strings.HasSuffix(msg, "(look up to see its traceback):") || strings.HasSuffix(msg, "(look up to see its traceback)")
}

// mpiSessionLine reports whether a bare line is the one TensorRT-LLM's
// executor proxy prints as it starts its workers (print_colored in
// GenerationExecutorProxy.__init__, tensorrt_llm/executor/proxy.py,
// verified: "rank {mpi_rank()} using MpiPoolSession to spawn MPI
// processes", "… using MpiCommSession to bind to external MPI processes";
// earlier "Using MpiPoolSession to spawn MPI processes"): a log whose
// start-up then fails in mpi4py's spawn, its traceback in mpi4py alone, is
// TensorRT-LLM's.
func mpiSessionLine(tm string) bool {
	const pool, comm = "using MpiPoolSession to spawn MPI processes", "using MpiCommSession to bind to external MPI processes"
	if len(tm) < len(pool) || tm[0] != 'r' && tm[0] != 'U' {
		return false
	}
	if tm[0] == 'U' {
		return tm == "U"+pool[1:] || tm == "U"+comm[1:]
	}
	rest, ok := strings.CutPrefix(tm, "rank ")
	if !ok {
		return false
	}
	i := 0
	for i < len(rest) && isDigit(rest[i]) {
		i++
	}
	return i > 0 && (rest[i:] == " "+pool || rest[i:] == " "+comm)
}

// trtllmException reports whether an exception's message is TensorRT-LLM's
// own: its C++ logger's tag (a TllmException raised in Python, "[TensorRT-LLM"
// as a markdown export mangles it too), a source path of it
// ("../tensorrt_llm/batch_manager/cacheTransBuffer.cpp:206"), or the
// executor's "Executor worker returned error". Another exception alone (a
// benchmark client's traceback) does not make a log TensorRT-LLM's.
func trtllmException(msg string) bool {
	return strings.Contains(msg, "[TensorRT-LLM") || strings.Contains(msg, "tensorrt_llm") ||
		strings.HasPrefix(msg, "Executor worker returned error") || strings.HasPrefix(msg, executorCreationFailed)
}

// markRanked notes that key's launcher key (a pod's, a compose container's)
// has ranked processes: see owner.
func (st *state) markRanked(key string) {
	if b := baseOf(key); b != key && b != "" {
		if st.ranked == nil {
			st.ranked = map[string]bool{}
		}
		st.ranked[b] = true
	}
}

// cut shortens an over-long text from the log, saying so: a hostile log must
// not make xcvr hold megabytes per finding, and nothing is cut silently.
func (st *state) cut(s string, max int) string {
	if len(s) <= max {
		return s
	}
	return cutText(s, max)
}

// cutMarkRoom is room enough for cutText's mark ("… [N more bytes cut by
// xcvr]") past its max.
const cutMarkRoom = 64

func cutText(s string, max int) string {
	if len(s) <= max {
		return s
	}
	k := max
	for k > 0 && k < len(s) && s[k]&0xc0 == 0x80 {
		k-- // not inside a UTF-8 sequence
	}
	return s[:k] + "… [" + itoa(len(s)-k) + " more bytes cut by xcvr]"
}

func itoa(n int) string {
	var b [20]byte
	i := len(b)
	if n == 0 {
		return "0"
	}
	for n > 0 {
		i--
		b[i] = byte('0' + n%10)
		n /= 10
	}
	return string(b[i:])
}

// reVersion() is the line tensorrt_llm/__init__.py prints at import: older builds
// `[TensorRT-LLM] TensorRT-LLM version: 1.3.0rc26`, newer ones
// `[TensorRT-LLM] TensorRT LLM version: 1.4.0rc1 (backend: cuda)`.
var reVersion = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^\[TensorRT-LLM\] TensorRT[- ]LLM version: (\S+)(?: \(backend: [^)]*\))?$`)
})

// reVersionMsg() is the same line's text when a logger prints it.
var reVersionMsg = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^TensorRT[- ]LLM version: (\S+)(?: \(backend: [^)]*\))?$`)
})

// finish ends the parse: the final partial line, then the folding and
// inferences of Log.finish.
func (st *state) finish() *Log {
	st.flushSplit()
	st.lg.finish(st.byKey)
	return st.lg
}

// Chunking: a reader cuts the input into runs of whole lines of about
// chunkSize bytes; workers scan them in parallel; the events are replayed in
// order. At most inFlight chunks exist at once, so memory stays bounded
// whatever the size of the log.
var chunkSize = 1 << 20 // a variable so that tests can cut tiny logs into many chunks

// ErrBinary is returned for input with a NUL byte near the start: not a text log.
var ErrBinary = errors.New("refused: binary data (NUL byte) near the start; this is not a text log")

// binaryWindow is how much of the start is checked for NUL bytes.
const binaryWindow = 8192

var bom = []byte("\xef\xbb\xbf")

// splitter cuts a stream into runs of whole lines, cutting lines longer than
// maxLineBytes (the rest of such a line is skipped up to its newline).
type splitter struct {
	carry    []byte
	skipping bool
	started  bool
	checked  int
	// crDecided says whether the start decided how lines end (crLines);
	// cr that they end with '\r' alone, and lastCR that the last byte
	// translated was a '\r' (crToLF); tr holds a write's bytes translated.
	crDecided, cr, lastCR bool
	tr                    []byte
}

// push adds p and returns the whole lines now complete (valid until the next
// call), or ErrBinary (ErrGzipFollow for gzip data).
func (s *splitter) push(p []byte) ([]byte, error) {
	if s.checked == 0 && isGzip(p) {
		return nil, ErrGzipFollow
	}
	if s.checked < binaryWindow {
		end := min(len(p), binaryWindow-s.checked)
		if bytes.IndexByte(p[:end], 0) >= 0 {
			if s.checked == 0 {
				return nil, binaryErr(p)
			}
			return nil, ErrBinary
		}
		s.checked += end
	}
	if s.cr {
		s.tr = crToLF(append(s.tr[:0], p...), &s.lastCR)
		p = s.tr
	}
	if s.skipping {
		i := bytes.IndexByte(p, '\n')
		if i < 0 {
			return nil, nil
		}
		s.skipping = false
		p = p[i+1:]
	}
	s.carry = append(s.carry, p...)
	if !s.started {
		if len(s.carry) < len(bom) && bytes.HasPrefix(bom, s.carry) {
			return nil, nil // maybe a BOM still arriving
		}
		s.started = true
		// Python's utf-8-sig and PyYAML skip a BOM; so does xcvr.
		if bytes.HasPrefix(s.carry, bom) {
			s.carry = s.carry[len(bom):]
		}
	}
	if !s.crDecided {
		// How lines end (crlines.go): the lines wait until the start
		// decides it (crWindow is less than maxLineBytes, so no line is
		// cut before).
		cr, decided := crLines(s.carry, false)
		if !decided {
			return nil, nil
		}
		s.crDecided, s.cr = true, cr
		if cr {
			s.carry = crToLF(s.carry, &s.lastCR)
		}
	}
	i := bytes.LastIndexByte(s.carry, '\n')
	if i < 0 {
		if len(s.carry) > maxLineBytes {
			// A line with no end in sight: keep its start as a line of its own.
			out := append(s.carry[:maxLineBytes:maxLineBytes], '\n')
			s.carry = s.carry[:0]
			s.skipping = true
			return out, nil
		}
		return nil, nil
	}
	out := s.carry[:i+1]
	rest := s.carry[i+1:]
	next := make([]byte, len(rest), max(len(rest), 4096))
	copy(next, rest)
	s.carry = next
	return out, nil
}

// Parser reads a log incrementally: Write the bytes as they arrive (a followed
// file), Snapshot for the result so far. It is also what Parse uses.
type Parser struct {
	st    *state
	split splitter
	sc    *scanner
	res   chunkResult
	err   error
}

// NewParser starts a parse of the log called name.
func NewParser(name string) *Parser {
	return &Parser{st: newState(name), sc: newScanner()}
}

// Write consumes p, text as it arrives. It fails only with ErrBinary (or
// ErrGzipFollow: gzip data is decompressed before it reaches a Parser).
func (p *Parser) Write(b []byte) (int, error) {
	if p.err != nil {
		return 0, p.err
	}
	data, err := p.split.push(b)
	if err != nil {
		p.err = err
		return 0, err
	}
	if len(data) > 0 {
		p.feed(data)
	}
	return len(b), nil
}

func (p *Parser) feed(data []byte) {
	p.res = chunkResult{events: p.res.events[:0]}
	p.sc.scanFrom(data, &p.res, p.st.pendingCause != nil, p.st.carry())
	p.st.replayChunk(data, &p.res, scanPlain(p.sc))
}

// Lines is the number of whole lines read so far.
func (p *Parser) Lines() int {
	if p.st.base == 0 && !p.split.crDecided && len(p.split.carry) > 0 {
		if cr, _ := crLines(p.split.carry, true); cr {
			// The lines that end with '\r' alone read so far (crTentative).
			return bytes.Count(p.split.carry, []byte{'\r'})
		}
	}
	return p.st.base
}

// Snapshot returns what the lines read so far show, as Parse would for a log
// ending there (a partial last line is left for later).
func (p *Parser) Snapshot() *Log {
	if q := p.crTentative(); q != nil {
		return q.st.snapshot()
	}
	return p.st.snapshot()
}

// crTentative is, while the start has not yet decided how lines end
// (crlines.go) and reads as lines that end with '\r' alone so far, a
// Parser of those lines, as they read if the log ended after the last of
// them: a followed log of such lines shorter than crWindow (the whole of a
// pasted excerpt) shows them before its end. Nil otherwise. Nothing is fed
// while the start decides, so this is the whole parse so far; its work is
// bounded by crWindow.
func (p *Parser) crTentative() *Parser {
	s := &p.split
	if s.crDecided || len(s.carry) == 0 {
		return nil
	}
	if cr, _ := crLines(s.carry, true); !cr {
		return nil
	}
	t := crToLF(bytes.Clone(s.carry), new(bool))
	i := bytes.LastIndexByte(t, '\n')
	if i < 0 {
		return nil
	}
	q := NewParser(p.st.lg.Name)
	q.split.crDecided = true
	q.feed(t[:i+1])
	return q
}

// Close ends the log: a last line without a newline is read too.
func (p *Parser) Close() (*Log, error) {
	if p.err != nil {
		return nil, p.err
	}
	if len(p.split.carry) > 0 {
		if s := &p.split; !s.crDecided {
			// A log shorter than crWindow: all of it decides.
			if cr, _ := crLines(s.carry, true); cr {
				s.carry = crToLF(s.carry, &s.lastCR)
			}
		}
		p.feed(p.split.carry)
		p.split.carry = nil
	}
	return p.st.finish(), nil
}

// snapshot copies the processes and finishes the copy, so that the parse can go on.
func (st *state) snapshot() *Log {
	lg := *st.lg
	byKey := make(map[string]*Process, len(st.byKey))
	copies := make(map[*Process]*Process, len(st.lg.Processes))
	lg.Processes = make([]*Process, 0, len(st.lg.Processes))
	for _, p := range st.lg.Processes {
		q := *p
		q.Lines = append([]Line(nil), p.Lines...)
		q.Implications = append([]Implication(nil), p.Implications...)
		q.Findings = append([]Finding(nil), p.Findings...) // finish folds counts into them
		lg.Processes = append(lg.Processes, &q)
		copies[p] = &q
	}
	for k, p := range st.byKey {
		byKey[k] = copies[p]
	}
	lg.Stated = append([]StatedVersion(nil), st.lg.Stated...)
	lg.finish(byKey)
	return &lg
}

// maxScanWorkers is the most workers one large log's parse scans with, on
// any number of cores: each holds a window (mapped, 8 MiB, or read, 1 MiB)
// and its events, so memory is bounded by this, not by the node's cores. Two:
// the cores of the machine whose numbers the README gives, where the 200 MB
// log is within the 64 MiB of issue #23 (35 MiB; 44-55 MiB for logs of
// tracebacks), and a third window would add 8 MiB to each.
const maxScanWorkers = 2

// scanWorkers is how many workers scan a large log's chunks.
func scanWorkers() int { return max(1, min(runtime.GOMAXPROCS(0), maxScanWorkers)) }

// Parse reads a log. It never fails on content: unrecognised lines are skipped.
// Only read errors and ErrBinary are returned. Gzip data is decompressed. Lines are scanned in parallel
// chunks (up to GOMAXPROCS) and replayed in order, in bounded memory.
func Parse(name string, r io.Reader) (*Log, error) { return parse(name, r, -1) }

// ParseFile is Parse of a regular file whose size, as its descriptor's stat
// gave it, is size (guard.OpenEntry returns it). A read that returns that
// many bytes ends a small log: the file is read as of that stat, in one
// read instead of two (the second would only return EOF).
//
// A file larger than a small log is mapped, a window at a time, instead of
// read (see parseMapped); one that cannot be mapped is read.
func ParseFile(name string, f *os.File, size int64) (*Log, error) {
	var head [3]byte
	if size > smallLog {
		if k, _ := f.ReadAt(head[:], 0); isGzip(head[:k]) {
			return parseGzip(name, f)
		}
		if lg, err, ok := parseMapped(name, f, size); ok {
			return lg, err
		}
	}
	return parse(name, f, size)
}

// ParseSized is ParseFile for a log read through r, not mapped: r holds size
// bytes (its descriptor's size when it was opened). A log of at most SmallLog
// bytes is read in one read; give larger ones to ParseFile, which maps them.
func ParseSized(name string, r io.Reader, size int64) (*Log, error) { return parse(name, r, size) }

// SmallLog is the size up to which a log is read whole and scanned at once.
const SmallLog = smallLog

// parse is Parse; size is the file's size, or -1 when unknown (a stream).
// Gzip data is read through compress/gzip (see parseGzip).
func parse(name string, r io.Reader, size int64) (*Log, error) { return parseText(name, r, size, true) }

// parseText is parse; gz says whether gzip data is decompressed (one layer
// only: the decompressed text is parsed with gz false).
func parseText(name string, r io.Reader, size int64, gz bool) (*Log, error) {
	// A small log (most files of a job directory) is read whole into a
	// reused buffer and scanned at once: no goroutines, no chunk buffers.
	bp := smallBufs.Get().(*[]byte)
	defer smallBufs.Put(bp)
	if cap(*bp) < smallLog+1 {
		*bp = make([]byte, smallLog+1)
	}
	buf := (*bp)[:smallLog+1]
	n, err := readSmall(r, buf, size)
	if gz && isGzip(buf[:n]) && (err == nil || err == io.EOF || err == io.ErrUnexpectedEOF) {
		return parseGzip(name, io.MultiReader(bytes.NewReader(buf[:n]), r))
	}
	if eof := err == io.EOF || err == io.ErrUnexpectedEOF; eof || err == nil {
		// Lines that end with '\r' alone (crlines.go): the bytes read so
		// far (more than crWindow, or all) decide.
		if cr, _ := crLines(bytes.TrimPrefix(buf[:n], bom), eof); cr {
			c := &crReader{r: r}
			n = len(crToLF(buf[:n], &c.lastCR))
			r = c
		}
	}
	switch {
	case err == io.EOF || err == io.ErrUnexpectedEOF:
		return parseSmall(name, buf[:n])
	case err != nil:
		return &Log{Name: name}, err
	}
	// Larger: the bytes read so far, then the rest, in parallel chunks.
	r = io.MultiReader(bytes.NewReader(buf[:n]), r)
	workers := scanWorkers()
	if workers < 2 {
		return parseSerial(name, r)
	}
	type job struct {
		seq  int
		buf  *[]byte
		data []byte
		res  chunkResult
		done chan struct{}
	}
	inFlight := workers + 1
	pool := newBufPool(inFlight + 2)
	jobs := make(chan *job, inFlight)
	order := make(chan *job, inFlight)
	var wg sync.WaitGroup
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			sc := newScanner()
			for j := range jobs {
				sc.scan(j.data, &j.res)
				close(j.done)
			}
		}()
	}
	readErr := make(chan error, 1)
	go func() {
		defer close(jobs)
		defer close(order)
		readErr <- readChunks(r, pool, func(bp *[]byte, data []byte, seq int) {
			j := &job{seq: seq, buf: bp, data: data, done: make(chan struct{})}
			order <- j
			jobs <- j
		})
	}()
	st := newState(name)
	var rescan *scanner
	for j := range order {
		<-j.done
		if st.midLine() {
			// The chunk starts inside a failure's root cause or a line
			// cut in pieces, which its worker could not know: scan it
			// again, passing its lines on, joining the pieces.
			if rescan == nil {
				rescan = newScanner()
			}
			j.res = chunkResult{events: j.res.events[:0]}
			rescan.scanFrom(j.data, &j.res, st.pendingCause != nil, st.carry())
		}
		if j.res.consumed < len(j.data) && rescan == nil {
			rescan = newScanner()
		}
		st.replayChunk(j.data, &j.res, scanPlain(rescan))
		*j.buf = (*j.buf)[:0]
		pool.Put(j.buf)
	}
	wg.Wait()
	if err := <-readErr; err != nil {
		return st.lg, err
	}
	return st.finish(), nil
}

// readSmall is io.ReadFull(r, buf), except that once size bytes (size >= 0)
// have been read it returns io.EOF without reading again.
func readSmall(r io.Reader, buf []byte, size int64) (int, error) {
	n := 0
	for n < len(buf) {
		k, err := r.Read(buf[n:])
		n += k
		if int64(n) == size && n < len(buf) {
			return n, io.EOF
		}
		if err != nil {
			if err == io.EOF && n > 0 {
				err = io.ErrUnexpectedEOF
			}
			return n, err
		}
	}
	return n, nil
}

// smallLog is the size up to which a log is read whole and scanned at once
// (no line of it can be longer than maxLineBytes, so no line is cut
// differently from the chunked path).
const smallLog = maxLineBytes

// smallBufs holds the buffers small logs are read into.
var smallBufs = sync.Pool{New: func() any { return new([]byte) }}

// parseSmall parses a whole log of at most smallLog bytes held in data, as
// readChunks and the scanner would: the BOM and NUL checks, one chunk.
func parseSmall(name string, data []byte) (*Log, error) {
	if bytes.IndexByte(data[:min(len(data), binaryWindow)], 0) >= 0 {
		return &Log{Name: name}, binaryErr(data)
	}
	if bytes.HasPrefix(data, bom) {
		data = data[len(bom):]
	}
	st := newState(name)
	if len(data) > 0 {
		sc := scanners.Get().(*scanner)
		res := chunkResult{events: sc.events[:0]}
		sc.scan(data, &res)
		st.replayChunk(data, &res, scanPlain(sc))
		clear(res.events) // no strings of this log kept by the pool
		sc.events = res.events[:0]
		if len(sc.intern) > 256 {
			clear(sc.intern) // what one log interned stays bounded
		}
		scanners.Put(sc)
	}
	return st.finish(), nil
}

// scanners are reused across small logs: a scanner's tables and buffers cost
// more to make than a one-line log costs to scan.
var scanners = sync.Pool{New: func() any { return newScanner() }}

// parseSerial is Parse on one core.
func parseSerial(name string, r io.Reader) (*Log, error) {
	p := NewParser(name)
	buf := make([]byte, chunkSize)
	for {
		n, err := r.Read(buf)
		if n > 0 {
			if _, werr := p.Write(buf[:n]); werr != nil {
				return p.st.lg, werr
			}
		}
		if err == io.EOF {
			return p.Close()
		}
		if err != nil {
			return p.st.lg, err
		}
	}
}

// readChunks reads r into runs of whole lines of about chunkSize bytes and hands
// each to emit with the pool buffer that holds it. Only the partial line at the
// end of a read is copied (into the next buffer); a line longer than
// maxLineBytes is cut there and the rest of it skipped.
func readChunks(r io.Reader, pool *bufPool, emit func(bp *[]byte, data []byte, seq int)) error {
	var head [3]byte
	hn, err := io.ReadFull(r, head[:])
	carry := append([]byte(nil), head[:hn]...)
	if hn == 3 && bytes.Equal(carry, bom) {
		carry = carry[:0] // Python's utf-8-sig and PyYAML skip a BOM; so does xcvr
	}
	if bytes.IndexByte(carry, 0) >= 0 {
		return ErrBinary
	}
	checked := hn
	eof := err == io.EOF || err == io.ErrUnexpectedEOF
	if err != nil && !eof {
		return err
	}
	skipping := false
	seq := 0
	for {
		bp := pool.Get()
		buf := append((*bp)[:0], carry...)
		carry = carry[:0]
		buf = slices.Grow(buf, chunkSize)
		start := len(buf)
		n := 0
		if !eof {
			n, err = io.ReadFull(r, buf[start:start+chunkSize])
			eof = err == io.EOF || err == io.ErrUnexpectedEOF
			if err != nil && !eof {
				return err
			}
		}
		buf = buf[:start+n]
		if checked < binaryWindow {
			end := min(len(buf), start+binaryWindow-checked)
			if bytes.IndexByte(buf[start:end], 0) >= 0 {
				return binaryErr(buf)
			}
			checked += end - start
		}
		if skipping {
			i := bytes.IndexByte(buf[start:], '\n')
			if i < 0 {
				buf = buf[:start]
			} else {
				skipping = false
				buf = append(buf[:start], buf[start+i+1:]...)
			}
		}
		var data []byte
		switch i := bytes.LastIndexByte(buf, '\n'); {
		case eof:
			data = buf
		case i >= 0:
			data = buf[:i+1]
			carry = append(carry, buf[i+1:]...)
		case len(buf) > maxLineBytes:
			// A line with no end in sight: keep its start as a line of its own.
			buf[maxLineBytes] = '\n'
			data = buf[:maxLineBytes+1]
			skipping = true
		default:
			carry = append(carry, buf...)
		}
		if len(data) > 0 {
			*bp = buf
			emit(bp, data, seq)
			seq++
		} else {
			pool.Put(bp)
		}
		if eof {
			return nil
		}
	}
}

// bufPool is a fixed set of chunk buffers, reused for the whole parse: the
// buffers are allocated (and their pages faulted in) once, not per chunk, and a
// garbage collection does not empty it as it does a sync.Pool.
type bufPool struct{ free chan *[]byte }

func newBufPool(n int) *bufPool {
	p := &bufPool{free: make(chan *[]byte, n)}
	for i := 0; i < n; i++ {
		b := make([]byte, 0, chunkSize+min(maxLineBytes, 4*chunkSize)+1)
		p.free <- &b
	}
	return p
}

// Get waits for a free buffer: at most n chunks exist at once.
func (p *bufPool) Get() *[]byte { return <-p.free }

// Put returns a buffer.
func (p *bufPool) Put(b *[]byte) {
	select {
	case p.free <- b:
	default:
	}
}

// loopWindow is how many lines after the first line that shows the
// executor's loop raising its exception line may come: a traceback's frames
// (Python's, and the C++ frames of a C++ error under them) are far fewer. A
// log cut inside the traceback must not make a later, unrelated exception of
// the process a runtime error.
const loopWindow = 400

// restarted forgets an open traceback of the loop of key's process, which
// starts again (its version line).
func (st *state) restarted(key string) {
	if st.loopKey == key {
		st.loopOn = false
	}
	if st.asyncKey == key {
		st.asyncOn, st.asyncEnd = false, 0
	}
	delete(st.crashed, key)
}

// The kinds of crashLine's lines.
const (
	crashNone      = iota
	crashSignal    // a handler's line of a fatal signal
	crashTerminate // libstdc++'s "terminate called …"
	crashWhat      // its "what():  …" line
)

// crashLine reads a bare line that says its process died (text: what the
// verdict says) and which kind of line it is:
//   - libstdc++'s verbose terminate handler on an uncaught C++ exception:
//     "terminate called after throwing an instance of 'T'", then
//     "  what():  <message>" (verified with g++'s libstdc++; TensorRT-LLM
//     issue #1826 shows it with TllmException and its C++ frames under it),
//     or "terminate called without an active exception";
//   - Python's faulthandler: "Fatal Python error: Segmentation fault" (or
//     Aborted, Bus error, Floating point exception, Illegal instruction;
//     verified with CPython 3.11's -X faulthandler, one per signal it
//     handles), over the threads' stacks;
//   - "!!!!!!! Segfault encountered !!!!!!!" over "File "<unknown>", line 0,
//     in …" frames (TensorRT-LLM issue #12694's prefill worker, sglang issue
//     #23489's);
//   - UCX's handler: "[host:pid:thread:tid] Caught signal 11 (Segmentation
//     fault: address not mapped to object at address 0x…)" (TensorRT-LLM
//     issue #752);
//   - Open MPI's: "[host:pid] Signal: Segmentation fault (11)" under
//     "[host:pid] *** Process received signal ***" (TensorRT-LLM issue #395).
func crashLine(tm string) (string, int) {
	if len(tm) < 7 {
		return "", crashNone
	}
	if glibcAssert(tm) {
		return tm, crashSignal
	}
	switch tm[0] {
	case 't':
		const after, none = "terminate called after throwing an instance of '", "terminate called without an active exception"
		if strings.HasPrefix(tm, after) && strings.HasSuffix(tm, "'") && len(tm) > len(after)+1 {
			return tm, crashTerminate
		}
		if tm == none {
			return tm, crashSignal
		}
	case 'w':
		if m, ok := strings.CutPrefix(tm, "what():"); ok && strings.TrimSpace(m) != "" {
			return strings.TrimSpace(m), crashWhat
		}
	case 'F':
		switch strings.TrimPrefix(tm, "Fatal Python error: ") {
		case "Segmentation fault", "Aborted", "Bus error", "Floating point exception", "Illegal instruction":
			return tm, crashSignal
		}
	case '!':
		if strings.TrimRight(strings.TrimLeft(tm, "!"), "!") == " Segfault encountered " {
			return tm, crashSignal
		}
	case '*':
		if abslSignal(tm) {
			return tm, crashSignal
		}
	case '[':
		i := strings.IndexByte(tm, ']')
		if i < 2 || i > 100 || strings.ContainsAny(tm[1:i], " []") || !strings.Contains(tm[1:i], ":") {
			return "", crashNone
		}
		rest := tm[i+1:]
		if c, ok := strings.CutPrefix(rest, " Caught signal "); ok && len(c) > 3 && isDigit(c[0]) && strings.Contains(c, " (") {
			return strings.TrimPrefix(rest, " "), crashSignal
		}
		if c, ok := strings.CutPrefix(rest, " Signal: "); ok && strings.HasSuffix(c, ")") && strings.Contains(c, " (") {
			return strings.TrimPrefix(rest, " "), crashSignal
		}
	}
	return "", crashNone
}

// launcherDeath reads the line a launcher prints when one of its processes
// died on a signal: Open MPI's "mpirun noticed that process rank 1 with PID
// 0 on node gpu-1 exited on signal 11 (Segmentation fault)." (mpiexec's the
// same) and Slurm's "srun: error: gpu-1: task 1: Segmentation fault (core
// dumped)", as public logs show them. rank is the MPI rank, or task srun's
// task. A process the launcher killed (Killed, Terminated: signals 9 and
// 15, which it sends to the others once one died) and one that exited with
// a status are not read: neither says it crashed.
func launcherDeath(tm string) (rank, task string, ok bool) {
	if rest, ok := strings.CutPrefix(tm, "srun: error: "); ok {
		i := strings.Index(rest, ": task ")
		if i < 1 || strings.ContainsAny(rest[:i], " :") {
			return "", "", false
		}
		rest = rest[i+len(": task "):]
		j := 0
		for j < len(rest) && isDigit(rest[j]) {
			j++
		}
		if j == 0 || !strings.HasPrefix(rest[j:], ": ") {
			return "", "", false
		}
		switch strings.TrimSuffix(rest[j+2:], " (core dumped)") {
		case "Segmentation fault", "Aborted", "Bus error", "Floating point exception", "Illegal instruction", "Out Of Memory":
			return "", rest[:j], true
		}
		return "", "", false
	}
	// The prefixes whole, as constants: a concatenation here allocated
	// twice for every bare line of a log (31 MB over a million lines).
	for _, p := range [...]string{"mpirun noticed that process rank ", "mpiexec noticed that process rank "} {
		rest, ok := strings.CutPrefix(tm, p)
		if !ok {
			continue
		}
		j := 0
		for j < len(rest) && isDigit(rest[j]) {
			j++
		}
		k := strings.Index(rest, " exited on signal ")
		if j == 0 || !strings.HasPrefix(rest[j:], " with PID ") || k < 0 {
			return "", "", false
		}
		sig := strings.TrimSuffix(rest[k+len(" exited on signal "):], ".")
		if !strings.HasSuffix(sig, ")") || strings.HasPrefix(sig, "9 ") || strings.HasPrefix(sig, "15 ") {
			return "", "", false
		}
		return rest[:j], "", true
	}
	return "", "", false
}

// srunExit reads Slurm's line for tasks that exited with a non-zero status:
// srun's _task_finish 'error("%s: %s %s: Exited with exit code %d", hosts,
// task_str, tasks, rc)' (verified in SchedMD/slurm's src/srun launch code),
// task_str "task" or "tasks", tasks one number or a list of them and ranges
// ("srun: error: cpu-node-80: task 0: Exited with exit code 136",
// "srun: error: taurusi2031: tasks 10-11: Exited with exit code 1", as public
// reports show them). tasks is that list.
func srunExit(tm string) (tasks string, ok bool) {
	rest, ok := strings.CutPrefix(tm, "srun: error: ")
	if !ok {
		return "", false
	}
	const exited = ": Exited with exit code "
	e := strings.Index(rest, exited)
	if e < 0 {
		return "", false
	}
	code := rest[e+len(exited):]
	if code == "" || strings.Trim(code, "0123456789") != "" || strings.Trim(code, "0") == "" {
		return "", false
	}
	i := strings.Index(rest[:e], ": task")
	if i < 1 || strings.ContainsAny(rest[:i], " :") {
		return "", false
	}
	list := rest[i+len(": task") : e]
	if l, ok := strings.CutPrefix(list, "s "); ok {
		list = l
	} else if l, ok := strings.CutPrefix(list, " "); ok && strings.Trim(l, "0123456789") == "" {
		list = l
	} else {
		return "", false
	}
	if list == "" || strings.Trim(list, "0123456789,-") != "" {
		return "", false
	}
	return list, true
}

// srunTasks expands srun's list of task ids ("3", "10-11", "0,2-3") to each
// id, at most limit of them; nil when the list is not one.
func srunTasks(list string, limit int) []string {
	var ids []string
	for _, part := range strings.Split(list, ",") {
		lo, hi, isRange := strings.Cut(part, "-")
		a, err1 := strconv.Atoi(lo)
		b, err2 := a, error(nil)
		if isRange {
			b, err2 = strconv.Atoi(hi)
		}
		if err1 != nil || err2 != nil || b < a {
			return nil
		}
		for t := a; t <= b && len(ids) < limit; t++ {
			ids = append(ids, strconv.Itoa(t))
		}
	}
	return ids
}

// srunExited reads tasks that exited with a non-zero status as their death,
// as a signal's line is read (st.crash: before the task's start-up was over,
// how it ended, unless its exception says more; after, a process_crashed
// finding), unless the task was stopped: its server began a clean shutdown
// before, or Slurm had ended the job step (the tasks then exit as they are
// told to).
func (st *state) srunExited(n int, tm, list string) {
	if st.stepEnd > 0 {
		return
	}
	for _, task := range srunTasks(list, maxProcesses) {
		key := st.rankKey("", task)
		if st.stopped[key] > 0 {
			continue
		}
		st.crash(key, n, tm, crashSignal)
	}
}

// slurmStepEnd reports whether a bare line says Slurm ended or cancelled the
// job step: srun's 'info("Terminating job step %u.%u")' (later "…%ps",
// verified in srun's launch code) and the lines public logs show for a
// cancelled or timed-out step: "srun: Job step aborted: Waiting up to 32
// seconds for job step to finish.", "srun: launch/slurm: _step_signal:
// Terminating StepId=20404816.0", "srun: forcing job termination", "srun:
// Force Terminated job 32779", "slurmstepd: error: *** STEP 524547.1 ON
// ault43 CANCELLED AT 2024-10-09T23:20:53 ***" (JOB too; a slurmstepd-host
// prefix too).
//
// So does srun's forwarding of Ctrl-C to the step (_handle_intr's
// 'info("sending Ctrl-C to job %u.%u")', later "… to %ps", verified in
// srun's code; "^Csrun: sending Ctrl-C to job 13218794.0" with the
// terminal's echo of the key, as a public log shows it): the operator
// stopped the tasks.
func slurmStepEnd(tm string) bool {
	tm = strings.TrimPrefix(tm, "^C")
	if rest, ok := strings.CutPrefix(tm, "srun: "); ok {
		return strings.HasPrefix(rest, "Terminating job step ") || strings.HasPrefix(rest, "Job step aborted: ") || strings.HasPrefix(rest, "sending Ctrl-C to ") ||
			strings.HasPrefix(rest, "launch/slurm: _step_signal: Terminating ") || rest == "forcing job termination" ||
			strings.HasPrefix(rest, "Force Terminated job ")
	}
	if !strings.HasPrefix(tm, "slurmstepd") {
		return false
	}
	i := strings.Index(tm, ": error: *** ")
	return i > 0 && i < 64 && strings.Contains(tm, " CANCELLED AT ") && strings.HasSuffix(tm, " ***") &&
		(strings.HasPrefix(tm[i+len(": error: *** "):], "STEP ") || strings.HasPrefix(tm[i+len(": error: *** "):], "JOB "))
}

// cleanShutdown reports whether a bare line is uvicorn's as its server
// begins or ends a clean shutdown: Server.shutdown's logger.info("Shutting
// down") and Server.serve's "Finished server process [%d]" (verified in
// encode/uvicorn's server.py), behind uvicorn's "INFO:     " prefix.
func cleanShutdown(tm string) bool {
	return tm == "INFO:     Shutting down" || strings.HasPrefix(tm, "INFO:     Finished server process [")
}

// rankKey is the key of the process a launcher's line names: srun's task
// N as srun -l labels it, or MPI rank N as the log keys it (TensorRT-LLM's
// "[RANK N]", mpirun's --tag-output "[J,N]"; srun's task N is rank N when
// srun starts the ranks); "srun task N" or "rank N" when no process of it
// is known.
func (st *state) rankKey(rank, task string) string {
	if task != "" {
		if k := "srun task " + task; st.byKey[k] != nil || st.byKey["rank "+task] == nil {
			return k
		}
		rank = task
	}
	k := "rank " + rank
	if st.byKey[k] != nil {
		return k
	}
	for _, p := range st.lg.Processes {
		if strings.HasPrefix(p.Source, "mpirun [") && strings.HasSuffix(p.Source, ","+rank+"]") {
			return p.Source
		}
	}
	return k
}

// abslSignal reports whether a bare line is Abseil's failure signal
// handler's first line, which Ray's processes print (TensorRT-LLM's Ray
// orchestrator runs its workers so): "*** SIGSEGV received at time=1709021359
// on cpu 44 ***" (absl failure_signal_handler.cc's "*** <signal> received at
// time=<t> on cpu <n> ***"; vLLM issue #3053's Ray worker shows it; the
// format verified in Abseil's failure_signal_handler_test). SIGTERM, which
// Abseil's handler also reports, is a process asked to stop (Ray's
// shutdown), not a crash.
func abslSignal(tm string) bool {
	rest, ok := strings.CutPrefix(tm, "*** SIG")
	return ok && !strings.HasPrefix(rest, "TERM ") && strings.HasSuffix(rest, " ***") && strings.Contains(rest, " received at time=")
}

// glibcAssert reports whether a bare line is glibc's report of a failed
// assert() before it aborts the process ("python3: ../include/tensorrt_llm/
// batch_manager/kvCacheUtils.h:84: static … BlockRange::fromReuseTree(…):
// Assertion `lastBlock' failed.", as a TensorRT-LLM design note of 1.3.0rc8
// quotes a context worker's crash; the format verified with g++/glibc:
// "prog: file:line: function: Assertion `expr' failed.").
func glibcAssert(tm string) bool {
	if !strings.HasSuffix(tm, "' failed.") {
		return false
	}
	i := strings.Index(tm, ": ")
	if i < 1 || strings.ContainsAny(tm[:i], " \t") {
		return false
	}
	j := strings.Index(tm, ": Assertion `")
	return j > i && strings.Contains(tm[i+2:j], ":")
}

// mayCrash is a cheap superset of the bare lines crashLine and
// launcherDeath read.
func mayCrash(bare []byte) bool {
	if len(bare) < 7 {
		return false
	}
	if bare[len(bare)-1] == '.' && bytes.HasSuffix(bare, []byte("' failed.")) {
		return true // glibcAssert's
	}
	switch bare[0] {
	case 's':
		// A task's death (srun: error: …), and the lines that say Slurm
		// ended the step (slurmStepEnd).
		return bytes.HasPrefix(bare, []byte("srun: ")) || bytes.HasPrefix(bare, []byte("slurmstepd"))
	case '^':
		// srun's or slurmstepd's line after the terminal's echo of Ctrl-C
		// (slurmStepEnd).
		return bytes.HasPrefix(bare, []byte("^Csrun: ")) || bytes.HasPrefix(bare, []byte("^Cslurmstepd"))
	case 'm':
		return bytes.HasPrefix(bare, []byte("mpirun noticed ")) || bytes.HasPrefix(bare, []byte("mpiexec noticed "))
	case 't':
		return bytes.HasPrefix(bare, []byte("terminate called "))
	case 'w':
		return bytes.HasPrefix(bare, []byte("what():"))
	case 'F':
		return bytes.HasPrefix(bare, []byte("Fatal Python error: "))
	case '!':
		// Any number of bangs around it, as crashLine reads it.
		return bytes.HasPrefix(bytes.TrimLeft(bare, "!"), []byte(" Segfault encountered "))
	case '*':
		return bytes.HasPrefix(bare, []byte("*** SIG"))
	case '[':
		i := bytes.IndexByte(bare[:min(len(bare), 102)], ']')
		return i > 1 && (bytes.HasPrefix(bare[i+1:], []byte(" Caught signal ")) || bytes.HasPrefix(bare[i+1:], []byte(" Signal: ")))
	}
	return false
}

// bareEvent reports whether a bare line may be one that state.line reads
// although no other filter of the scanner's passes it: asyncio's headers,
// Python's report of an ignored exception, the lines of a crash and UCX's
// error lines.
func bareEvent(bare []byte) bool {
	return asyncioHeader(bare) || ignoredHeader(bare) || mayCrash(bare) || mayUCXError(bare) || mayProxyFrame(bare) || mayDynamoEngineUp(bare)
}

// ignoredHeader reports whether a bare line is the first line Python's
// default unraisable hook prints over the traceback of an exception it
// ignored: one raised in a __del__, a finalizer or a callback nobody can
// catch, mostly while the interpreter shuts down ("Exception ignored in:
// <function IpcMemory.__del__ at 0x7fe64738aa70>", TensorRT-LLM issue
// #1190; 3.13 on also "Exception ignored while calling deallocator …:").
// Verified with CPython 3.11. A terminal's echo of Ctrl-C may come before it
// ("^CException ignored in: <function LLM.__del__ …>", issue #5766). The
// exception under it changed nothing: neither how start-up ended nor a
// finding.
func ignoredHeader[T string | []byte](tm T) bool {
	const h = "Exception ignored "
	if len(tm) > 2 && tm[0] == '^' && tm[1] == 'C' {
		tm = tm[2:]
	}
	return len(tm) > len(h)+3 && string(tm[:len(h)]) == h
}

// ucxError reads one of UCX's own ERROR or FATAL lines, as its default log
// handler prints them (ucs/debug/log.c: "[%lu.%06lu] [%s:%-5d:%d] %16s:%-4u
// %-4s %-5s %s", the last three "UCX", the level and the message, which
// later UCX indents; verified in openucx/ucx), or before ucs_log_init
// without the host part: "[1742467344.413567] [gpu-1:2808 :0]
// sock.c:334  UCX  ERROR   connect(fd=143, dest_addr=10.0.0.0:43833)
// failed: Connection refused" (Dynamo issue #288). msg is the message.
func ucxError(tm string) (msg string, ok bool) {
	if len(tm) < 20 || tm[0] != '[' || !isDigit(tm[1]) {
		return "", false
	}
	i := strings.IndexByte(tm, ']')
	if i < 2 || i > 24 || strings.Trim(tm[1:i], "0123456789.") != "" {
		return "", false
	}
	j := strings.Index(tm[:min(len(tm), 160)], " UCX  ")
	if j < 0 {
		return "", false
	}
	rest := tm[j+len(" UCX  "):]
	for _, lv := range []string{"ERROR ", "FATAL "} {
		if m, ok := strings.CutPrefix(rest, lv); ok && strings.TrimSpace(m) != "" {
			return strings.TrimSpace(m), true
		}
	}
	return "", false
}

// mayUCXError is a cheap superset of the bare lines ucxError reads.
func mayUCXError(bare []byte) bool {
	return len(bare) >= 20 && bare[0] == '[' && isDigit(bare[1]) && // ucxError reads 20 bytes
		(bytes.Contains(bare[:min(len(bare), 172)], []byte(" UCX  ERROR ")) || bytes.Contains(bare[:min(len(bare), 172)], []byte(" UCX  FATAL ")))
}

// ucxMNNVL starts the UCX error TensorRT-LLM's disaggregated-service FAQ
// quotes ("UCX  ERROR   cuMemImportFromShareableHandle failed: invalid
// resource handle") for servers in different NVLink domains.
const ucxMNNVL = "cuMemImportFromShareableHandle failed"

// crashWhat reads libstdc++'s "what():" line at line n under key's
// terminate line (at line line): the uncaught exception's message, which
// says the death as "T: message".
func (st *state) crashWhat(key string, n, line int, text string) {
	q := st.byKey[key]
	if q == nil {
		return
	}
	term := st.cut(st.termClass+": "+text, maxMessageBytes)
	if q.Error != "" && q.errorLine == line {
		st.retained += len(term) - len(q.Error)
		q.Error = term
		q.keep(Line{N: n, Message: st.cut(text, maxMessageBytes)})
		q.implyError(n, st.termClass, text)
		st.excProc, st.excLine = q, n
		return
	}
	for i := range q.Findings {
		// Within the finding's size and the log's kept text, as find
		// keeps a finding's text: 20,000 ranks' what() lines kept 80 MB.
		if f := &q.Findings[i]; f.Kind == FindingCrashed && f.Line == line && f.Text != findingTextNotKept {
			if t := cutText(term, maxDetailBytes); !q.over(len(t)) {
				f.Text = t
			}
		}
	}
}

// crash reads a line of key's process dying at line n (crashLine). Once
// the process's start-up was over (its server up, its executor's loop
// running) it is a finding; before, it is how start-up ended, as an
// exception would be, and the C++ frames under it may say where. One death
// per process (until it starts again): the handlers after the first say
// the same. The "what():" line under libstdc++'s terminate line gives its
// exception's message: "T: message", read as that exception.
func (st *state) crash(key string, n int, text string, kind int) {
	if kind == crashWhat {
		if strings.HasPrefix(text, "[TensorRT-LLM]") {
			st.lg.trtllm = true // a TensorRT-LLM exception's message
		}
		line := st.crashed[key]
		if st.termLine == 0 || key != st.termKey || line != st.termLine || n-line > 2 {
			if line > 0 || !strings.HasPrefix(text, "[TensorRT-LLM]") {
				return
			}
			// A TensorRT-LLM exception's message under "what():" whose
			// terminate line is not in the log (a paste that kept only it,
			// TensorRT-LLM issue #2443's comment): only libstdc++'s
			// terminate handler prints that line, so the process aborted.
			text, kind = "what():  "+text, crashSignal
		} else {
			st.crashWhat(key, n, line, text)
			return
		}
	}
	if st.crashed[key] > 0 {
		return
	}
	if st.crashed == nil {
		st.crashed = map[string]int{}
	}
	st.crashed[key] = n
	if kind == crashTerminate {
		st.termKey, st.termLine = key, n
		st.termClass = strings.TrimSuffix(strings.TrimPrefix(text, "terminate called after throwing an instance of '"), "'")
	}
	q := st.byKey[key]
	if st.serving[key] > 0 || q != nil && q.loopRan > 0 {
		if q = st.owner(key, n); q != nil {
			q.find(n, FindingCrashed, st.cut(text, maxMessageBytes))
			q.implyCrash(n, text)
		}
		return
	}
	if q = st.get(key, n); q != nil && q.fail(n, st.cut(text, maxMessageBytes)) {
		st.retained += len(q.Error)
		st.excProc, st.excLine = q, n
		q.keep(Line{N: n, Message: st.cut(text, maxMessageBytes)})
		q.implyCrash(n, text)
	}
}

// implyCrash adds what a crash's line says of its cause.
func (p *Process) implyCrash(n int, text string) {
	p.implyReuseTree(n, text)
	if strings.HasPrefix(text, "srun: error: ") && strings.HasSuffix(text, ": Out Of Memory") {
		// Slurm's task state OUT_OF_MEMORY: the cgroup's OOM killer
		// ("slurmstepd: error: Detected 1 oom_kill event in StepId=…").
		p.imply(n, "Slurm's OOM killer ended the task: the host memory the job asked for (--mem) ran out, not the GPU's", 0, 0)
	}
}

// asyncioNote ends the finding of an exception asyncio's exception handler
// logged.
const asyncioNote = " (logged by asyncio's exception handler; the process went on)"

// asyncioHeader reports whether a bare line is the first line asyncio's
// default exception handler logs (BaseEventLoop.default_exception_handler:
// logger.error of the context's message, then its other keys, "handle:
// <Handle …>" or "future: <Task finished …>", then the exception's
// traceback) for an exception it caught and the loop went on after
// (asyncioMessage). The message is bare (logging's last-resort handler, as
// uvicorn and trtllm-serve leave the asyncio logger) or behind a logging
// prefix that says ERROR within its first 64 bytes, the message after a
// blank or a colon: logging's basic format ("ERROR:asyncio:", vLLM issue
// #11189), "… - asyncio - ERROR - " (vLLM issue #10556), "[…] ERROR
// base_events.py:1821: ", "ERROR module.default_exception_handler: ".
//
// The scanner asks this of most bare lines (a server's access lines among
// them), so the first and last bytes decide first: a message starts with E,
// F or U, or ends with the d of "retrieved"; a prefix starts with '[', '-',
// a digit or the E of ERROR.
func asyncioHeader[T string | []byte](tm T) bool {
	if len(tm) < 20 {
		return false
	}
	c := tm[0]
	if (c == 'E' || c == 'F' || c == 'U' || tm[len(tm)-1] == 'd') && asyncioMessage(tm) {
		return true
	}
	if c != '[' && c != '-' && c != 'E' && !isDigit(c) {
		return false
	}
	i := indexOf(tm[:min(len(tm), 64)], "ERROR")
	if i < 0 {
		return false
	}
	rest := tm[i+len("ERROR"):]
	for j := 0; j < len(rest) && j < 160; j++ {
		if c := rest[j]; (c == ' ' || c == ':') && asyncioMessage(rest[j+1:]) {
			return true
		}
	}
	return false
}

// asyncioMessage reports whether msg is the message of one of asyncio's
// reports of an exception it handled: a callback's ("Exception in callback
// …", events.py Handle._run), a task or future nobody awaited ("Task
// exception was never retrieved", futures.py: f"{self.__class__.__name__}
// exception was never retrieved"; Future, _GatheringFuture), a socket
// transport's ("Fatal read error on socket transport", "Fatal write error
// on socket transport", "Fatal error on transport", selector_events.py
// _fatal_error) or one without a message ("Unhandled exception in event
// loop"). Verified in CPython 3.11's asyncio.
func asyncioMessage[T string | []byte](tm T) bool {
	const never = " exception was never retrieved"
	switch {
	case len(tm) < 20:
		return false
	case tm[0] == 'E':
		return len(tm) > len(asyncioCallback) && string(tm[:len(asyncioCallback)]) == asyncioCallback
	case len(tm) > len(never) && string(tm[len(tm)-len(never):]) == never:
		// One class name before it: Task, Future, _GatheringFuture.
		for i := 0; i < len(tm)-len(never); i++ {
			if c := tm[i]; !(c == '_' || isAlnum(c)) || i == 0 && isDigit(c) {
				return false
			}
		}
		return true
	}
	switch string(tm) {
	case "Fatal read error on socket transport", "Fatal write error on socket transport", "Fatal error on transport",
		"Unhandled exception in event loop":
		return true
	}
	return false
}

// indexOf is strings.Index for a string or a byte slice.
func indexOf[T string | []byte](s T, sub string) int {
	switch v := any(s).(type) {
	case string:
		return strings.Index(v, sub)
	case []byte:
		return bytes.Index(v, []byte(sub))
	}
	return -1
}

// asyncioCallback starts the message of a callback's exception (events.py).
const asyncioCallback = "Exception in callback "

// chainedException reports whether a bare line is the one Python's
// traceback prints between a chained exception and the next.
func chainedException(tm string) bool {
	return tm == "During handling of the above exception, another exception occurred:" ||
		tm == "The above exception was the direct cause of the following exception:"
}

// loopSeen records that line n shows key's executor event loop raising; the
// first line of a traceback (its header) is where it shows.
// llmProgress starts the progress bar LLM.generate prints ("Processed
// requests: 100%|…| 1/1 […]").
const llmProgress = "Processed requests: "

// loopShown marks the process of key, if it has shown itself, as one whose
// executor's loop ran (or whose worker took a request): the line that says
// so proves it, also when the paste stops before the exception it leads to
// (Dynamo PR #1690's excerpt ends inside the traceback).
func (st *state) loopShown(key string) {
	if q := st.byKey[key]; q != nil && q.loopRan == 0 {
		q.loopRan, q.loopSubmit = st.loopLine, st.loopSubmit
	}
}

// loopProcess makes key's line that shows the executor's loop (or the
// worker's submit) at line n a process's, if none has shown itself: the line
// is TensorRT-LLM's own code running, so the file's process went past its
// transceiver, also when the copy stops inside the traceback, before the
// exception that would have made the process (TensorRT-LLM issue #10417's
// quote, a trtllm-serve's forward step under uvicorn's request lines).
func (st *state) loopProcess(key string, n int) {
	if st.owner(key, n) == nil {
		st.get(key, n)
	}
}

// loopDied reads the header Python's thread hook prints over the uncaught
// traceback of the executor loop's thread, hdr at line n ("Exception in
// thread Thread-3 (_event_loop_wrapper):"): the loop's thread died, a
// runtime error of key's process, also when the copy stops before the
// traceback's exception line (Dynamo issue #6734's decode worker). Said in
// the header's words until that line comes and says it better (retext);
// not when the loop's own "Error in event loop: …" line, or the logger's
// copy of the traceback, already said the error (one error, printed twice).
func (st *state) loopDied(key string, n int, hdr string) {
	st.diedOpen = false
	if strings.HasPrefix(st.loopLogged, key+"\x00") || strings.HasPrefix(st.loopPrev, key+"\x00") {
		return
	}
	if q := st.owner(key, n); q != nil {
		st.diedKey, st.diedText, st.diedOpen = key, st.cut(hdr+loopDiedNote, maxMessageBytes), true
		q.find(n, FindingRuntimeError, st.diedText)
	}
}

// loopDiedNote follows the header a loop's thread died under while the
// exception that killed it is not (yet) in the log.
const loopDiedNote = " (the executor's loop thread died; the exception's line is not in the log)"

func (st *state) loopSeen(key string, n int) {
	if !st.loopOn || st.loopKey != key {
		st.loopKey, st.loopLine = key, n
	}
	st.loopOn = true
}

// dropCodeSpanEnd drops the backtick that closes a markdown code span a
// paste opened before the tag or on an earlier line (TensorRT-LLM issue
// #13557: " `[06/03/2026-08:27:38] [TRT-LLM] [E] … -> Tensor" above
// "[…] [TRT-LLM] [E] … -> Tensor`"): a message that ends with a backtick it
// does not open itself. TensorRT-LLM's own backticks come in pairs
// ("model type `qwen3_5`").
func dropCodeSpanEnd(msg string) string {
	if strings.HasSuffix(msg, "`") && strings.Count(msg, "`")%2 == 1 {
		return strings.TrimRight(strings.TrimSuffix(msg, "`"), " \t")
	}
	return msg
}

// k9sBar is the bar k9s's log view frames each line with ("│ … │"), and a
// terminal's copy of it keeps (Dynamo issue #6678 pasted its logs so).
const k9sBar = "│"

// unframe returns a bare line without k9s's frame: the bar and the one blank
// after it, and the blanks and bar at its end; the line's own indentation
// stays (a traceback's frames are indented). A line that does not start with
// the bar is returned as it is. (A tagged line's frame is read by the
// scanner's embedded-tag reader and state.line's trimming.)
func unframe(msg string) string {
	t := strings.TrimLeft(msg, " \t")
	rest, ok := strings.CutPrefix(t, k9sBar)
	if !ok {
		return msg
	}
	rest = strings.TrimPrefix(rest, " ")
	if u, ok := strings.CutSuffix(strings.TrimRight(rest, " \t"), k9sBar); ok {
		rest = u
	}
	return strings.TrimRight(rest, " \t")
}

// forwardError starts the line PyExecutor._forward_step logs after it printed
// the traceback of a failed forward (traceback.print_exc(), then
// logger.error; verified in py_executor.py copies of 0.20 to 1.3): it fails
// the requests and does not raise.
const forwardError = "Encountered an error in forward function: "

// cppForwardError starts the line the C++ executor logs when a step of its
// loop raised: Executor::Impl::forwardAsync catches the exception and
// terminateActiveRequests logs TLLM_LOG_ERROR("%s", "Encountered an error in
// forwardAsync function: " + e.what()) and fails every active request, and
// the loop goes on (verified in cpp/tensorrt_llm/executor/executorImpl.cpp;
// the older GptManager::forwardAsync logs the same words). A runtime error of
// a process whose executor served requests (TensorRT-LLM issue #2708).
const cppForwardError = "Encountered an error in forwardAsync function: "

// tritonInstanceError is what Triton's tensorrtllm backend puts before the
// exception that ended the creation of its model instance, which builds the
// C++ executor ("unexpected error when creating modelInstanceState: " +
// ex.what(), ModelInstanceState::Create, verified in the backend's
// model_instance_state.cc); Triton logs it in its model's load failure
// (E… model_lifecycle.cc:…] "failed to load 'tensorrt_llm' version 1:
// Internal: unexpected error when creating modelInstanceState: …", with the
// C++ frames as "\n" escapes on the same line) and again in the ensemble's
// and the model table's lines.
const tritonInstanceError = "unexpected error when creating modelInstanceState: "

// tritonInstanceFailed reads a Triton line at line n that says the
// tensorrtllm backend could not create its model instance, e the
// exception's text: the start-up failure of key's process, its executor
// never built (tensorrtllm_backend issue #710; TensorRT-LLM issue #2419's
// Triton log).
func (st *state) tritonInstanceFailed(key string, n int, line, e string) {
	st.lg.trtllm = true
	e = quotedErrorText(e)
	if q := st.get(key, n); q != nil && q.fail(n, st.cut(e, maxMessageBytes)) {
		st.retained += len(q.Error)
		q.keep(Line{N: n, Message: st.cut(line, maxMessageBytes)})
	}
}

// quotedErrorText is an exception's text as another program's log line
// quotes it: up to the first escaped newline ("\n", Triton's glog quoting
// of the C++ frames under a TllmException's message), without the quote
// that closes the quoted message.
func quotedErrorText(e string) string {
	e, _, _ = strings.Cut(e, `\n`)
	e = strings.TrimSpace(e)
	if strings.Count(e, `"`)%2 == 1 {
		e = strings.TrimSpace(strings.TrimSuffix(e, `"`))
	}
	return e
}

// forwardWindow is how many lines above the forward step's ERROR line the
// exception it printed may start: the message's first line is the same on
// both, and a CUDA error's str(e) goes on for three lines more (PyTorch's
// "CUDA kernel errors might be asynchronously reported …", "For debugging
// consider passing CUDA_LAUNCH_BLOCKING=1", "Compile with
// `TORCH_USE_CUDA_DSA` …") and a newline, all of which
// traceback.print_exc() prints before the logger's line (Model-Optimizer
// issue #220's rank 1, six lines apart).
const forwardWindow = 8

// forwardFailed reads the forward step's ERROR line at line n: the executor's
// loop ran, and the exception printed just above it (read, without the
// frames a paste cut, as how start-up ended) was a runtime error. That
// exception is bare, so it is the rank's own, or, printed before the log
// showed the rank (a paste that starts inside the traceback: Model-Optimizer
// issue #220), the lines without a rank of the same stream (baseOf).
func (st *state) forwardFailed(key string, n int, msg string) {
	q := st.byKey[key]
	first := strings.TrimPrefix(msg, forwardError)
	src := q
	if !forwardPrinted(src, n, first) {
		src = nil
		if b := baseOf(key); b != key && forwardPrinted(st.byKey[b], n, first) {
			src = st.byKey[b]
			q = st.get(key, n)
		}
	}
	if q == nil {
		return
	}
	if q.loopRan == 0 {
		q.loopRan = n
	}
	if src == nil {
		return
	}
	// Undo the start-up failure: the exception becomes the finding.
	e, _, _ := strings.Cut(src.Error, "\n")
	line := src.errorLine
	src.Error, src.Cause, src.errorLine = "", "", 0
	src.Lines = slices.DeleteFunc(src.Lines, func(l Line) bool { return l.N == line && l.Level == "" })
	if st.excProc == src {
		st.excProc = nil
	}
	if st.pendingExc == src {
		st.pendingExc = nil
	}
	if k := key + "\x00" + e; k != st.loopPrev {
		st.loopPrev = k
		q.find(line, FindingRuntimeError, e)
	}
}

// forwardPrinted reports whether p's start-up failure is the exception the
// forward step printed just above its ERROR line at line n, whose message's
// first line is first.
func forwardPrinted(p *Process, n int, first string) bool {
	if p == nil || p.Error == "" || p.errorLine < n-forwardWindow {
		return false
	}
	e, _, _ := strings.Cut(p.Error, "\n")
	return strings.HasSuffix(e, ": "+first)
}

// eventLoopError starts the line PyExecutor._event_loop_wrapper logs at
// ERROR when its event loop raises ("Error in event loop: {e}", then the
// traceback; verified in py_executor.py, 1.0 onwards).
const eventLoopError = "Error in event loop: "

// loopErrorLogged reads the loop's "Error in event loop: {e}" line at line
// n: q's executor loop ran and raised e, a runtime error of q, also when the
// log stops before the exception line of the traceback under it (TensorRT-LLM
// issue #9931's rank 7, a Grafana copy cut there). That exception line, when
// it comes, is the same error: it names e's class and takes the finding's
// text instead of counting again.
func (st *state) loopErrorLogged(q *Process, key string, n int, msg string) {
	if q.loopRan == 0 {
		q.loopRan = n
	}
	st.loopLogged = key + "\x00" + strings.TrimPrefix(msg, eventLoopError)
	q.find(n, FindingRuntimeError, st.cut(msg, maxMessageBytes))
}

// eventLoopLine reports whether a bare line shows PyExecutor's event loop
// raising: a traceback frame in the loop ("File \"…/py_executor.py\", line N,
// in _executor_loop_overlap", or _event_loop_wrapper, or the loop's
// _forward_step, which prints the traceback of a failed forward, logs
// "Encountered an error in forward function: …" and fails the requests
// instead of raising) or the header Python's thread hook prints over the
// traceback of the loop's thread ("Exception in thread Thread-3
// (_event_loop_wrapper):", Python 3.10 on; builds before the wrapper ran the
// loop itself: "Thread-4 (_executor_loop_overlap)", TensorRT-LLM issue
// #5390). The loop runs in
// a PyExecutor, which create_py_executor_instance builds after its KV-cache
// transceiver (verified in copies of py_executor_creator.py): an exception
// from it is not how the transceiver's creation ended.
func eventLoopLine(tm string) bool {
	switch {
	case strings.HasPrefix(tm, `File "`):
		return strings.Contains(tm, `py_executor.py", line `) &&
			(strings.Contains(tm, ", in _executor_loop") || strings.HasSuffix(tm, ", in _event_loop_wrapper") ||
				strings.HasSuffix(tm, ", in _forward_step"))
	case strings.HasPrefix(tm, "Exception in thread "):
		return strings.HasSuffix(tm, " (_event_loop_wrapper):") ||
			strings.HasSuffix(tm, "):") && strings.Contains(tm, " (_executor_loop")
	}
	return false
}

// transferError starts the error PyExecutor gives the requests whose
// KV-cache transfer failed (_check_cache_transfer_errors:
// _handle_errors(f"Error in kv cache transfer for {context|generation}
// requests"); the disaggregated transfer coordinator of later builds fails
// them with the same words; verified in py_executor.py and coordinator.py
// copies). The request's caller raises it ("tensorrt_llm.executor.utils.
// RequestError: Error in kv cache transfer for generation requests", as a
// TensorRT-LLM test's comment quotes it; Dynamo's TensorRT-LLM handler
// catches it per request, Dynamo PRs #9434/#9481): a runtime failure of a
// transfer, never how start-up ended.
const transferError = "Error in kv cache transfer for "

// iterPrefix starts the iteration line PyExecutor's executor loop logs
// with print_iter_log ("iter = 4084, global_rank = 0, rank = 0,
// currank_total_requests = 0/0, host_step_time = …"; verified in
// py_executor.py copies from 0.20 to 1.3, whose later fields vary): the loop
// ran, in an executor built after its transceiver. Dynamo issue #5095's
// decode worker log shows one under the C++ KV-cache manager's warnings.
const iterPrefix = "iter = "

// iterHead reports whether msg starts as the iteration line does,
// "iter = N, global_rank = ". Every field of that line is a number, and its
// states dict maps names to counts (verified in py_executor.py's f-strings,
// 0.20 to 1.3): it never holds an argument dump, however long it is, so
// neither classify nor the scanner looks for one in it; the scanner meets
// one on most lines of a large log.
func iterHead[T string | []byte](msg T) bool {
	if len(msg) < len(iterPrefix) || string(msg[:len(iterPrefix)]) != iterPrefix {
		return false
	}
	i := len(iterPrefix)
	for i < len(msg) && msg[i]-'0' <= 9 {
		i++
	}
	const next = ", global_rank = "
	return i > len(iterPrefix) && len(msg)-i >= len(next) && string(msg[i:i+len(next)]) == next
}

// iterLine reports whether an INFO message is that iteration line.
func iterLine(msg string) bool {
	return strings.HasPrefix(msg, iterPrefix) && strings.Contains(msg, ", global_rank = ")
}

// submitFrame reports whether a bare line is a traceback frame in the
// worker's submit (tensorrt_llm/executor/worker.py; base_worker.py and
// rpc_worker.py in later builds): worker_main calls it for each request
// only after it built the worker, and its executor, and sent the ready
// signal; an exception raised there is logged as "Failed during
// generation" (logger.error(traceback.format_exc()), verified in
// worker.py's worker_main). Dynamo PR #1690's decode worker printed such
// a traceback (srun's " 0: " label) at its first request. A start-up
// failure's traceback goes through worker_main's worker_cls(...), not
// submit.
//
// So is a frame in the proxy's submit or its result-dispatch thread
// (executor/proxy.py: GenerationExecutorProxy.submit starts the
// proxy_dispatch_result_thread, whose ManagedThread runs
// dispatch_result_task, and the proxy exists only once the workers sent
// their ready signal; verified in proxy.py): TensorRT-LLM PR #3321's
// "KeyError: None" under dispatch_result_task was a request's result
// arriving after the executor's loop failed.
func submitFrame(tm string) bool {
	if !strings.HasPrefix(tm, `File "`) || !strings.Contains(tm, `executor/`) {
		return false
	}
	if strings.Contains(tm, `proxy.py", line `) {
		return strings.HasSuffix(tm, ", in submit") || strings.HasSuffix(tm, ", in dispatch_result_task")
	}
	return strings.Contains(tm, `worker.py", line `) && strings.HasSuffix(tm, ", in submit")
}

// mayProxyFrame is a cheap superset of the frames in executor/proxy.py
// submitFrame reads (mayEventLoop, the scanner's, passes the others).
func mayProxyFrame(bare []byte) bool {
	return len(bare) > 20 && bare[0] == 'F' && bytes.HasPrefix(bare, []byte(`File "`)) && bytes.Contains(bare, []byte(`proxy.py", line `))
}

// serverUp reports whether a bare line is uvicorn's word that trtllm-serve's
// HTTP server is up, which it starts only once the LLM (and its executor and
// transceiver) is built.
//
// So is a Dynamo TensorRT-LLM worker's (python3 -m dynamo.trtllm), which
// starts no uvicorn: it logs "Set runtime config max_num_seqs: N" inside
// `async with get_llm_engine(engine_args) as engine:`, once TensorRT-LLM's
// LLM (its executor and transceiver) is built and before it registers the
// model and serves its endpoint (logging.info in ai-dynamo/dynamo's
// components/src/dynamo/trtllm/main.py init and, later,
// workers/llm_worker.py init_llm_worker; verified), as Dynamo's logging
// prints it ("2026-01-10T12:00:00.123Z  INFO llm_worker.init_llm_worker: Set
// runtime config max_num_seqs: 256", the timestamp a collector's).
func serverUp(tm string) bool {
	return tm == "INFO:     Application startup complete." || strings.HasPrefix(tm, "INFO:     Uvicorn running on ") || dynamoEngineUp(tm)
}

// dynamoRuntimeConfig is the message dynamoEngineUp looks for.
const dynamoRuntimeConfig = "Set runtime config max_num_seqs: "

// dynamoEngineUp reports whether a bare line is the Dynamo worker's
// "Set runtime config max_num_seqs: N" at INFO: the message after a logging
// prefix of at most 160 bytes that names the INFO level and ends in a blank,
// N a number (or None).
func dynamoEngineUp(tm string) bool {
	i := strings.Index(tm, dynamoRuntimeConfig)
	if i < 6 || i > 160 || tm[i-1] != ' ' || !strings.Contains(tm[:i], "INFO") {
		return false
	}
	v := tm[i+len(dynamoRuntimeConfig):]
	return v == "None" || v != "" && strings.Trim(v, "0123456789") == ""
}

// mayDynamoEngineUp is a cheap superset of the lines dynamoEngineUp reads,
// for the scanner's bare-line filter: a line that ends with the message and
// its number (or None), looked at from its end, so no line is searched. (It
// was a line that starts "INFO ", Dynamo's level behind a timestamp the
// scanner takes off, but dynamoEngineUp takes any logging prefix that names
// INFO: "[INFO] main: Set runtime config …" was left out.)
func mayDynamoEngineUp(bare []byte) bool {
	t := bare
	for len(t) > 0 && isDigit(t[len(t)-1]) {
		t = t[:len(t)-1]
	}
	if len(t) == len(bare) { // no number: None, or no such line
		if t = bytes.TrimSuffix(t, []byte("None")); len(t) == len(bare) {
			return false
		}
	}
	return len(t) >= len(dynamoRuntimeConfig)+6 && bytes.HasSuffix(t, []byte(dynamoRuntimeConfig))
}

// cppLocation reports whether a bare line is only the source location
// TensorRT-LLM's C++ errors end with ("(../tensorrt_llm/executor/
// cache_transmission/nixl_utils/transferAgent.cpp:416)").
func cppLocation(t string) bool {
	if !strings.HasPrefix(t, "(") || !strings.HasSuffix(t, ")") {
		return false
	}
	in := t[1 : len(t)-1]
	if strings.ContainsAny(in, " ()") {
		return false
	}
	file, line, ok := strings.Cut(in, ":")
	if !ok || !digitsOnly(line) {
		return false
	}
	for _, ext := range []string{".cpp", ".h", ".cu", ".cuh"} {
		if strings.HasSuffix(file, ext) {
			return true
		}
	}
	return false
}

// loggedMessage is where the message starts in a bare line behind a logging
// prefix that says ERROR within its first 64 bytes, or -1: after logging's
// basic format's "ERROR:name:", or after the first ": ", "] " or " - " past
// ERROR (Dynamo's readable "<time> ERROR module.function: ", ai-dynamo/dynamo
// lib/bindings/python/src/dynamo/runtime/logging.py LogHandler's target;
// "[…] ERROR x.py:12: ", "ERROR 03-20 10:42:24 x.py:1] ", "… - name - ERROR - ").
// The scanner passes such a line on as any bare line holding "Error: " or
// "Exception: " (scan.go).
func loggedMessage[T string | []byte](tm T) int {
	i := indexOf(tm[:min(len(tm), 64)], "ERROR")
	if i < 0 {
		return -1
	}
	j := i + len("ERROR")
	if j < len(tm) && tm[j] == ':' {
		for k := j + 1; k < len(tm) && k < j+160; k++ {
			switch tm[k] {
			case ':':
				return k + 1
			case ' ':
				return -1
			}
		}
		return -1
	}
	for k := j; k+1 < len(tm) && k < j+160; k++ {
		if c := tm[k]; (c == ':' || c == ']' || c == '-') && tm[k+1] == ' ' {
			return k + 2
		}
	}
	return -1
}

// startupOver reports whether the process of key was past its start-up: its
// server up (or a Dynamo worker's engine set up) or its executor's loop ran.
func (st *state) startupOver(key string) bool {
	if st.serving[key] > 0 {
		return true
	}
	q := st.byKey[key]
	return q != nil && q.loopRan > 0
}

// rayRepeatedNote says what Ray's log deduplication left out.
const rayRepeatedNote = "Ray printed this line once for several workers (its log deduplication's '[repeated Nx across cluster]', numbers ignored, so other ranks' copies of it too): their copies are not in the log, so not every rank shows its lines here; RAY_DEDUP_LOGS=0 keeps each"

// cutRayRepeated drops the mark Ray's driver puts after a line its log
// deduplication printed once for several workers (lines equal but for their
// numbers, within five seconds): " [repeated 3x across cluster]", the
// first time with Ray's explanation after it (Ray issue #45262, PR #45485;
// a Ray Data worker's traceback line in Ray PR #53825 shows it, Ray's
// logging guide the explanation). What the line says is read without it; ok says it was there.
func cutRayRepeated(msg string) (string, bool) {
	const tail = "x across cluster]"
	t := strings.TrimRight(msg, " \t")
	if strings.HasSuffix(t, ")") {
		// The first such line says why: " (Ray deduplicates logs by
		// default. Set RAY_DEDUP_LOGS=0 to disable log deduplication, or
		// see https://docs.ray.io/…#log-deduplication for more options.)".
		if i := strings.LastIndex(t, " (Ray deduplicates logs by default."); i >= 0 {
			t = t[:i]
		}
	}
	if !strings.HasSuffix(t, tail) {
		return msg, false
	}
	i := strings.LastIndex(t, " [repeated ")
	if i < 0 {
		return msg, false
	}
	d := t[i+len(" [repeated ") : len(t)-len(tail)]
	if d == "" || strings.Trim(d, "0123456789") != "" {
		return msg, false
	}
	return t[:i], true
}

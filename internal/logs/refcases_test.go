package logs

import (
	"bytes"
	"math/rand/v2"
	"strings"
	"testing"
)

// refCases are logs on which the scanner once differed from the reference
// reader, each cut to the fewest lines that still differed. A one-chunk log's
// first excWindow lines are always passed on, so a case whose difference is
// a line the filter left out puts that line past them.
var refCases = []struct {
	name string
	log  string
}{
	// A tag without its level ("[TRT-LLM] [RANK 0] x", whose words say
	// nothing check-logs reads) makes no process (state.line), but the
	// scanner counted it as announcing rank 0's: the leveled line later in
	// the chunk, which makes the process, was left out, and Parse found no
	// rank 0. Found by TestParseMatchesReferenceGrammar at seed 393 (byte
	// blocks of 4), where the level-less line was an unterminated docker
	// record's and the leveled one a VERBOSE UCX warning behind "\x1b[Dec 04
	// …" (a CSI sequence that ate the journal prefix's D): neither mattered.
	{"level-less tag, then the leveled line that makes the process",
		"[TRT-LLM] [RANK 0] x\n" + strings.Repeat("x\n", excWindow-1) + "[TRT-LLM] [RANK 0] [W] x\n"},
	// The same, unranked (the process without rank), and for two ranks at
	// once, the level-less lines repeated (later ones are left out).
	{"level-less unranked tag, then a leveled one",
		"[TRT-LLM] x\n" + strings.Repeat("x\n", excWindow-1) + "[TRT-LLM] [V] x\n"},
	{"level-less tags of two processes, then their leveled lines",
		"[TRT-LLM] [RANK 0] x\n[TRT-LLM] [RANK 1] x\n" + strings.Repeat("[TRT-LLM] [RANK 0] y\n", excWindow) +
			"[TRT-LLM] [RANK 1] [W] x\n[TRT-LLM] [RANK 0] [E] x\n[TRT-LLM] [RANK 0] [V] x\n"},
	// An INFO line that starts as the iteration line does but is not one
	// ("iter = 39", no ", global_rank = ": state.go's iterLine) counted for
	// the scanner as the one that shows the executor's loop ran, so the
	// real one later in the chunk was left out, and the verdict missed
	// that the loop ran (line 42). Found with XCVR_REF_BASE=103, seed 375
	// (the real one a C++ line behind a logging library's prefix, its
	// process the mpirun rank before it).
	{"an INFO line that starts as the iteration line, then the iteration line",
		"[TRT-LLM] [RANK 0] [I] iter = 39\n" + strings.Repeat("x\n", excWindow-1) +
			"[TRT-LLM] [RANK 0] [I] iter = 4084, global_rank = 0, rank = 0, currank_total_requests = 0/0, host_step_time = 428.2ms\n"},
	// The same, where the line's end is what makes it none: state.line
	// reads a tagged line without the blanks at its end, k9s's bar and Ray's
	// mark, so "iter = 5, global_rank = " (a copy cut after it) lost the
	// blank its ", global_rank = " needs. Found by
	// TestScannerFilterMatchesReference (XCVR_REF_BASE=1, seed 12315: the
	// crash line after the real one read as how start-up ended, not as a
	// finding; XCVR_REF_BASE=3, seed 15168).
	{"an iteration line cut after global_rank's blank, then a real one",
		"[TRT-LLM] [RANK 0] [I] iter = 5, global_rank = \n" + strings.Repeat("x\n", excWindow-1) +
			"[TRT-LLM] [RANK 0] [I] iter = 4, global_rank = 0, rank = 0\n"},
	{"k9s's bar after global_rank, then a real one",
		"[TRT-LLM] [RANK 0] [I] iter = 5, global_rank = \u2502\n" + strings.Repeat("x\n", excWindow-1) +
			"[TRT-LLM] [RANK 0] [I] iter = 4, global_rank = 0, rank = 0\n"},
	{"Ray's mark after global_rank, then a real one",
		"(RayWorkerWrapper pid=7) [TRT-LLM] [RANK 0] [I] iter = 5, global_rank = [repeated 2x across cluster]\n" + strings.Repeat("x\n", excWindow-1) +
			"(RayWorkerWrapper pid=7) [TRT-LLM] [RANK 0] [I] iter = 4, global_rank = 0, rank = 0\n"},
	// A bare line's end counts as its start does: state.line reads it
	// trimmed (strings.TrimSpace) and out of k9s's frame, but the scanner
	// trimmed only its start, so asyncio's header with a blank after it
	// (a terminal's copy pads lines so), or inside k9s's "│ … │", was
	// left out, and the exception under it, which asyncio logged and the
	// process went on after, read as how start-up ended. Found by
	// TestScannerFilterMatchesReference (XCVR_REF_BASE=1 seed 2610, =2
	// seed 90, =3 seed 1296, =4 seed 1644).
	{"asyncio's header with a blank after it",
		"[TRT-LLM] [I] Using KvCacheTransceiverV2\n" + strings.Repeat("x\n", excWindow-1) + "Task exception was never retrieved \nRuntimeError: x\n"},
	{"asyncio's header in k9s's frame",
		"[TRT-LLM] [I] Using KvCacheTransceiverV2\n" + strings.Repeat("x\n", excWindow-1) + "\u2502 Task exception was never retrieved   \u2502\nRuntimeError: x\n"},
	// So was a traceback's frame that a wrap cut inside its path, with a
	// blank after the cut: its path in TensorRT-LLM's package makes the
	// log TensorRT-LLM's.
	{"a wrapped frame's head with a blank after it",
		strings.Repeat("x\n", excWindow) + "Traceback (most recent call last):\n  File \"/usr/local/lib/python3.12/dist-packages/tensorrt_ \n" +
			"llm/_torch/pyexecutor/py_executor.py\", line 290, in __init__\nValueError: x\n"},
	// Ray's log deduplication marks a line it printed once for several
	// workers (" [repeated 2x across cluster]", the first time with its
	// explanation after it), and state.line reads every line without it,
	// noting it on the process of a tagged one: the scanner left out a
	// marked tagged line after its process's first (the note was lost),
	// and read bare lines with the mark on (asyncio's header under it was
	// no header). Found by reading state.line's use of cutRayRepeated
	// after the cases above.
	{"a tagged line with Ray's mark after its process's first",
		"(RayWorkerWrapper pid=7) [TRT-LLM] [RANK 0] [I] x\n" + strings.Repeat("x\n", excWindow) +
			"(RayWorkerWrapper pid=7) [TRT-LLM] [RANK 0] [W] y [repeated 2x across cluster]\n"},
	{"Ray's mark and its explanation",
		"(RayWorkerWrapper pid=7) [TRT-LLM] [RANK 0] [I] x\n" + strings.Repeat("x\n", excWindow) +
			"(RayWorkerWrapper pid=7) [TRT-LLM] [RANK 0] [I] y [repeated 3x across cluster] (Ray deduplicates logs by default. Set RAY_DEDUP_LOGS=0 to disable log deduplication, or see https://docs.ray.io/en/master/ray-observability/user-guides/configure-logging.html#log-deduplication for more options.)\n"},
	{"asyncio's header with Ray's mark",
		"(RayWorkerWrapper pid=7) [TRT-LLM] [RANK 0] [I] Using KvCacheTransceiverV2\n" + strings.Repeat("x\n", excWindow) +
			"(RayWorkerWrapper pid=7) Task exception was never retrieved [repeated 2x across cluster]\n(RayWorkerWrapper pid=7) RuntimeError: x\n"},
	// A bare line the state reads that the filter's cheap test turned
	// away. Dynamo's "Set runtime config max_num_seqs: N" (its engine is
	// up) behind any logging prefix that names INFO, which the filter took
	// only after "INFO ": the exception after it read as how start-up
	// ended. UCX's error line of 20 bytes, the shortest ucxError reads,
	// which the filter took from 21. Found by reading the state's bare
	// readers against the filter's.
	{"Dynamo's engine-up line behind [INFO]",
		"[TRT-LLM] [I] x\n" + strings.Repeat("x\n", excWindow) + "[INFO] main: Set runtime config max_num_seqs: 256\nRuntimeError: boom\n"},
	{"UCX's error line of 20 bytes",
		"[TRT-LLM] [RANK 0] [I] x\n" + strings.Repeat("x\n", excWindow) + "[1] abc UCX  ERROR x\n"},
	// A frame of the executor proxy's behind a test harness's label
	// (Dynamo's ManagedProcess: "[PYTHON3] "): state.line reads the frames
	// behind it as without it, the filter passed only the event loop's and
	// the worker's there. Found by reading the state's readers of ft.
	{"the proxy's frame behind a harness's label",
		"[TRT-LLM] [I] x\n" + strings.Repeat("x\n", excWindow) + "Traceback (most recent call last):\n" +
			"[PYTHON3]   File \"/x/tensorrt_llm/executor/proxy.py\", line 170, in dispatch_result_task\n" + strings.Repeat("    x\n", 3) + "KeyError: None\n"},
	// A TensorRT-LLM error a server reports, which state.line reads
	// anywhere in a bare line (Triton's "unexpected error when creating
	// modelInstanceState: ", a server's quote of the executor's
	// "Encountered an error in forwardAsync function: "): the filter
	// passed it only behind Abseil's E prefix or after "Error: ".
	{"Triton's instance error without Abseil's E prefix",
		"[TRT-LLM] [I] x\n" + strings.Repeat("x\n", excWindow) +
			"failed to load 'tensorrt_llm' version 1: Internal: unexpected error when creating modelInstanceState: [TensorRT-LLM][ERROR] Assertion failed: x (a.cpp:1)\n"},
	{"the executor's forwardAsync error behind an INFO prefix",
		"[TRT-LLM] [I] x\n" + strings.Repeat("x\n", excWindow) +
			"I0101 12:00:00.000 1 server.cc:1] Executor requestId=235 failed with error: Encountered an error in forwardAsync function: boom\n"},
	// The orchestrator's "[N] Servers are not ready. Waiting for […]..."
	// with an iteration of 8 digits or more: the filter read the line cut
	// after the words' length, so what it waits for was gone and it was no
	// such line.
	{"the orchestrator's unready line at iteration 123456789",
		"[TRT-LLM] [I] x\n" + strings.Repeat("x\n", excWindow) + "[123456789] Servers are not ready. Waiting for ['http://gen-0:8002']...\n"},
	// Lines of a crash crashLine and slurmStepEnd read that mayCrash, the
	// filter's cheap test for them, turned away: the segfault banner with
	// other than seven bangs, slurmstepd's cancellation after the
	// terminal's echo of Ctrl-C (the task's exit then is no crash).
	{"the segfault banner with eight bangs",
		"[TRT-LLM] [I] x\n" + strings.Repeat("x\n", excWindow) + "!!!!!!!! Segfault encountered !!!!!!!!\n"},
	{"slurmstepd's cancellation after ^C",
		"0: [TRT-LLM] [I] x\n" + strings.Repeat("x\n", excWindow) +
			"^Cslurmstepd: error: *** STEP 524547.1 ON ault43 CANCELLED AT 2024-10-09T23:20:53 ***\nsrun: error: g: task 0: Exited with exit code 1\n"},
}

// TestScannerMatchesReferenceCases: Parse, as it reads a small log (one
// chunk, the look-ahead's blocks as they are), finds what the reference
// finds on each of refCases, and so do the differential test's chunkings.
func TestScannerMatchesReferenceCases(t *testing.T) {
	for _, c := range refCases {
		t.Run(c.name, func(t *testing.T) {
			data := []byte(c.log)
			want, err := parseReference("f.log", bytes.NewReader(data))
			if err != nil {
				t.Fatal(err)
			}
			got, err := Parse("f.log", bytes.NewReader(data))
			if err != nil {
				t.Fatal(err)
			}
			if g, w := summary(t, got), summary(t, want); g != w {
				t.Fatalf("Parse differs from the reference:\n got %s\nwant %s", g, w)
			}
			for s := uint64(0); s < 8; s++ {
				checkSame(t, data, s)
			}
		})
	}
}

// TestLevelLessRunPassedOnOnce: a run of level-less tags that say nothing
// read (a benchmark client's "[TRT-LLM] POST …" lines, ranked or not)
// passes its first line on and leaves the rest out, as the scanner does
// for a leveled run: nothing between them changed what they do.
func TestLevelLessRunPassedOnOnce(t *testing.T) {
	for _, line := range []string{"[TRT-LLM] POST http://localhost:8000/v1/completions\n", "[TRT-LLM] [RANK 1] POST http://localhost:8000/v1/completions\n"} {
		data := []byte(strings.Repeat(line, 3*excWindow))
		sc := newScanner()
		var res chunkResult
		sc.scan(data, &res)
		if len(res.events) != excWindow {
			t.Errorf("%q: %d of %d lines passed on, want the %d the chunk's start forces", line, len(res.events), 3*excWindow, excWindow)
		}
	}
}

// TestScannerFilterMatchesReference checks the scanner's filter where it
// decides: random logs whose lines come from a few processes, past the
// lines a chunk's start always passes on, each line of a shape that changes
// what the filter remembers (a process's first line, its first INFO line,
// its first iteration line, an unranked line, a level-less tag, a C++ line
// of the current process) or of one that only looks so. The grammar test
// makes such runs rarely; a difference here is one of the filter's.
func TestScannerFilterMatchesReference(t *testing.T) {
	pick := func(r *rand.Rand, xs ...string) string { return xs[r.IntN(len(xs))] }
	rng := rand.New(rand.NewPCG(refBase(t), 17))
	n := refSeeds(t, 150)
	for it := 0; it < n; it++ {
		var b strings.Builder
		b.WriteString(strings.Repeat(pick(rng, "x\n", "[TRT-LLM] [RANK 0] [I] iter = 1\n", "0: y\n"), excWindow))
		for i, lines := 0, 1+rng.IntN(50); i < lines; i++ {
			r := pick(rng, "0", "1")
			b.WriteString(pick(rng, "", "", "", r+": ", "[1,"+r+"]<stdout>:", "ctx-"+r+"  | ", "(pid=1"+r+") ", "[pod/ctx-"+r+"/main] ", "\x1b[32m",
				"> ", "\u2502 ", "[rank"+r+"]: ", "2026-09-15T03:52:12.905Z ", "  "))
			switch rng.IntN(4) {
			case 0:
				b.WriteString(pick(rng, "[TRT-LLM] ", "[TRT-LLM] [RANK "+r+"] ", "[TRT-LLM] [MPI_Rank "+r+"] ", "[_torch][RANK "+r+"] "))
				b.WriteString(pick(rng, "", "", "[I] ", "[W] ", "[E] ", "[V] "))
			case 1:
				b.WriteString(pick(rng, "[TensorRT-LLM]", "[TensorRT-LLM][RANK "+r+"]"))
				b.WriteString(pick(rng, "[INFO] ", "[WARNING] ", "[ERROR] ", "[DEBUG] ", " "))
			case 2:
				b.WriteString(pick(rng, "[TRT-LLM] [RANK "+r+"] [I] ", "[TRT-LLM] [I] "))
			}
			b.WriteString(pick(rng, "x", "POST http://h/v1/completions", "iter = 3", "iter = 39, num_scheduled_requests: 8",
				"iter = 4, global_rank = "+r+", rank = "+r+", currank_total_requests = 0/0", "iter = 5, global_rank = ",
				"Using KvCacheTransceiverV2", "Using UCX kv-cache transceiver. If your devices", "TensorRT-LLM version: 1.3.0rc26",
				"Failed to initialize executor on rank "+r+": x", "Traceback (most recent call last):", "RuntimeError: x",
				`  File "/x/tensorrt_llm/_torch/pyexecutor/py_executor.py", line 1, in _executor_loop`, "    x = y",
				"[1716594409.541480] [h:1:0]  sock.c:323  UCX  ERROR x", "INFO:     Application startup complete.",
				"Fallback to regular model init: Traceback (most recent call last):", "cache_transceiver_config=CacheTransceiverConfig(backend='UCX')",
				"All servers are ready", "srun: error: g: task "+r+": Aborted", "terminate called after throwing an instance of 'x'",
				"pydantic_core._pydantic_core.ValidationError: 1 validation error for TorchLlmArgs", "  Input should be 'UCX'", "ValueError: x",
				"Exception in thread Thread-1 (_event_loop_wrapper):", "Task exception was never retrieved", "Error in event loop: x",
				"[1716594409.541480]  sock.c:323  UCX  WARN  x", "Waiting for context and generation servers to be ready", ""))
			b.WriteString(pick(rng, "", "", "", "", "", " [repeated 2x across cluster]", " \u2502"))
			b.WriteString(pick(rng, "\n", "\n", "\r\n", " \n"))
		}
		func() {
			defer refFailed(t, "filter", []byte(b.String()), uint64(it))
			checkSame(t, []byte(b.String()), uint64(it))
		}()
	}
}

// TestRayCutIsCutRayRepeated: the scanner's rayCut cuts what state.line's
// cutRayRepeated cuts, on lines made of the mark's pieces and near misses.
func TestRayCutIsCutRayRepeated(t *testing.T) {
	pick := func(r *rand.Rand, xs ...string) string { return xs[r.IntN(len(xs))] }
	rng := rand.New(rand.NewPCG(3, 5))
	for i := 0; i < 20000; i++ {
		var b strings.Builder
		for k := rng.IntN(5); k >= 0; k-- {
			b.WriteString(pick(rng, "x", " ", "\t", "]", ")", " [repeated ", "[repeated ", "2", "12", "x across cluster]", " across cluster]",
				" (Ray deduplicates logs by default.", " Set RAY_DEDUP_LOGS=0 for more options.)", "(", "iter = 4"))
		}
		msg := b.String()
		wantS, wantOK := cutRayRepeated(msg)
		got, ok := rayCut([]byte(msg))
		if string(got) != wantS || ok != wantOK {
			t.Fatalf("rayCut(%q) = %q, %v; cutRayRepeated: %q, %v", msg, got, ok, wantS, wantOK)
		}
	}
}

// FuzzFilterLine is the differential property for one line where the
// scanner's filter decides it (past the lines a chunk's start passes on),
// in a context ctx picks: a process shown before it or not, ranked or not,
// an exception or a tagged line after it. The fuzzer mutates a line of
// each reader the state has, so a near miss of one (a byte longer, a blank
// more) is met far more often than in whole random logs.
func FuzzFilterLine(f *testing.F) {
	for _, line := range []string{
		"Task exception was never retrieved", "Exception ignored in: <function A.__del__ at 0x1>", "ERROR:asyncio:Exception in callback x()",
		"[1742467344.413567] [gpu-1:2808 :0]  sock.c:334  UCX  ERROR   connect failed", "[1] abc UCX  ERROR x",
		"2026-01-10T12:00:09.500Z  INFO llm_worker.init_llm_worker: Set runtime config max_num_seqs: 256", "INFO:     Application startup complete.",
		"INFO:     Shutting down", "srun: error: g: task 0: Aborted", "mpirun noticed that process rank 0 with PID 0 on node g exited on signal 11 (Segmentation fault).",
		"terminate called after throwing an instance of 'x'", "Fatal Python error: Aborted", "*** SIGSEGV received at time=1 on cpu 4 ***", "[h:1] Signal: Bus error (7)",
		"E0421 11:56:59.774282  709103 nixl_agent.cpp:259] getPluginParams: backend 'UCX' not found",
		`  File "/x/tensorrt_llm/_torch/pyexecutor/py_executor.py", line 1031, in _executor_loop_overlap`, `  File "/usr/lib/python3/dist-packages/tensorrt_`,
		`  File "/x/tensorrt_llm/executor/worker.py", line 5, in worker_main`, "Exception in thread Thread-3 (_manager_spawn):",
		"Processed requests: 100%", "rank 0 using MpiPoolSession to spawn MPI processes", "During handling of the above exception, another exception occurred:",
		"[TRT-LLM] [RANK 0] [I] iter = 4, global_rank = 0, rank = 0", "[TRT-LLM] [RANK 0] x", "[TRT-LLM] [RANK 0] [W] y [repeated 2x across cluster]",
		"\u2502 Task exception was never retrieved \u2502", "[TensorRT-LLM][RANK 0][INFO] Using UCX kv-cache transceiver. If your devices",
		"[TRT-LLM] [RANK 0] [I] cache_transceiver_config=CacheTransceiverConfig(backend='UCX')", "RuntimeError: x",
		`[PYTHON3]   File "/x/tensorrt_llm/executor/proxy.py", line 170, in dispatch_result_task`,
		"x unexpected error when creating modelInstanceState: boom", "I0101 1 s.cc:1] failed with error: Encountered an error in forwardAsync function: boom",
		"Memory on the node (IP: 10.0.0.1, ID: x) where the task was running was 95% used",
		"[3] Servers are not ready. Waiting for ['http://gen-0:8002']...", "[TRT-LLM] [I] [12345678] Servers are not ready. Waiting for ['x']...",
	} {
		f.Add(line, uint8(0))
		f.Add(line, uint8(5))
	}
	f.Fuzz(func(t *testing.T, line string, ctx uint8) {
		if len(line) > 4096 {
			return
		}
		var b strings.Builder
		switch ctx % 3 {
		case 1:
			b.WriteString("[TRT-LLM] [RANK 0] [I] x\n")
		case 2:
			b.WriteString("[TRT-LLM] [I] x\n")
		}
		b.WriteString(strings.Repeat("x\n", excWindow))
		b.WriteString(line + "\n")
		if ctx&4 != 0 {
			b.WriteString("RuntimeError: boom\n")
		}
		if ctx&8 != 0 {
			b.WriteString("[TRT-LLM] [RANK 0] [W] y\n")
		}
		checkSame(t, []byte(b.String()), uint64(ctx))
	})
}

package logs

import (
	"bytes"
	"encoding/json"
	"errors"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// summary is everything a parse found, for comparing two parsers.
func summary(t *testing.T, lg *Log) string {
	t.Helper()
	b, err := json.Marshal(struct {
		R      ReportJSON
		Lines  int
		Stated []StatedVersion
		Drops  []int
		Orch   [5]int
		Wait   string
		// The verdict's words carry what the JSON does not: the line where
		// a server came up or the executor's loop ran.
		Verdict string
	}{JSON(lg, nil, nil), lg.Lines, lg.Stated, drops(lg), [5]int{lg.Orchestrator, lg.WaitingLine, lg.Ready, lg.TimedOut, lg.Summarised}, lg.Waiting,
		Judge(lg, nil, true).Summary()})
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func drops(lg *Log) []int {
	var d []int
	for _, p := range lg.Processes {
		d = append(d, p.LinesDropped, p.ImplicationsDropped)
	}
	return d
}

// parseMappedSummary is summary of parseMapped on a file holding data.
func parseMappedSummary(t *testing.T, data []byte) string {
	t.Helper()
	if len(data) == 0 {
		return summary(t, newState("f.log").finish()) // nothing to map
	}
	return summary(t, parseMappedFile(t, data))
}

// parseMappedFile is parseMapped of data written to a file.
func parseMappedFile(t *testing.T, data []byte) *Log {
	t.Helper()
	path := filepath.Join(t.TempDir(), "f.log")
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	lg, err, ok := parseMapped("f.log", f, int64(len(data)))
	if !ok || err != nil {
		t.Fatalf("parseMapped: %v (mapped: %v)", err, ok)
	}
	return lg
}

// checkSame parses data with the reference parser, with Parse cut into tiny
// chunks (so that every chunk boundary case is met), and with a Parser fed in
// random pieces; all three must find the same.
func checkSame(t *testing.T, data []byte, seed uint64) {
	t.Helper()
	refData := bytes.TrimPrefix(data, bom)
	want, err := parseReference("f.log", bytes.NewReader(refData))
	if err != nil {
		t.Fatal(err)
	}
	wantS := summary(t, want)

	old, oldBlock, oldBudget := chunkSize, byteBlock, eventBudget
	defer func() { chunkSize, byteBlock, eventBudget = old, oldBlock, oldBudget }()
	rng := rand.New(rand.NewPCG(seed, 7))
	// Blocks of the scanner's look-ahead for rare bytes end inside lines.
	if seed%2 == 1 {
		byteBlock = 1 + rng.IntN(100)
	}
	// A chunk's scan stops where its events' text reaches the budget, and
	// the rest is scanned after they are replayed (replayChunk): a tiny
	// budget stops it after almost every line passed on.
	if seed%3 != 0 {
		eventBudget = 1 + rng.IntN(3*eventCost)
	}
	// Tiny chunks meet every boundary case; large ones let the scanner filter
	// (the first lines of a chunk are always passed on).
	for _, size := range []int{1 + rng.IntN(200), 1 + rng.IntN(1<<20)} {
		chunkSize = size
		got, err := Parse("f.log", bytes.NewReader(data))
		if errors.Is(err, ErrBinary) {
			return
		}
		if err != nil {
			t.Fatal(err)
		}
		if g := summary(t, got); g != wantS {
			t.Fatalf("Parse (chunks of %d bytes) differs from the reference:\n got %s\nwant %s", chunkSize, g, wantS)
		}
	}
	// A large file is mapped, in windows of 4 chunks: tiny ones meet every
	// boundary case, and lines longer than a window.
	chunkSize = 1 + rng.IntN(200)
	if g := parseMappedSummary(t, data); g != wantS {
		t.Fatalf("parseMapped (windows of %d bytes) differs from the reference:\n got %s\nwant %s", mapChunk(), g, wantS)
	}

	p := NewParser("f.log")
	piece := 300
	if seed%2 == 0 {
		piece = 1 << 20
	}
	for rest := data; len(rest) > 0; {
		k := min(len(rest), 1+rng.IntN(piece))
		if _, err := p.Write(rest[:k]); err != nil {
			t.Fatal(err)
		}
		rest = rest[k:]
	}
	lg, err := p.Close()
	if err != nil {
		t.Fatal(err)
	}
	if g := summary(t, lg); g != wantS {
		t.Fatalf("Parser (random pieces) differs from the reference:\n got %s\nwant %s", g, wantS)
	}
}

// TestParseMatchesReference: the fast parser finds exactly what the old
// regexp-based one found, on every test log, whole and interleaved.
func TestParseMatchesReference(t *testing.T) {
	files, _ := filepath.Glob(filepath.Join("testdata", "*.log"))
	real, _ := filepath.Glob(filepath.Join("testdata", "real", "*.log"))
	shapes, _ := filepath.Glob(filepath.Join("testdata", "shapes", "*.log"))
	files = append(append(files, real...), shapes...)
	var all []byte
	for i, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for s := uint64(0); s < 20; s++ {
			checkSame(t, data, s+uint64(i)*100)
		}
		all = append(all, data...)
	}
	for s := uint64(0); s < 50; s++ {
		checkSame(t, all, s)
	}
	// A pydantic error with more detail lines than are kept, after more lines
	// than the scanner always passes on.
	var long strings.Builder
	long.WriteString(strings.Repeat("[TRT-LLM] [RANK 0] [I] iter\n", 60))
	long.WriteString("pydantic_core._pydantic_core.ValidationError: 45 validation errors for TorchLlmArgs\n")
	for i := 0; i < 45; i++ {
		long.WriteString("cache_transceiver_config.f" + strconv.Itoa(i) + "\n")
	}
	long.WriteString(strings.Repeat("[TRT-LLM] [RANK 0] [I] iter\n", 60))
	for s := uint64(0); s < 10; s++ {
		checkSame(t, []byte(long.String()), s)
	}
	// An argument dump in pydantic's repr form whose values are all None (no
	// quote in the line), past the lines the scanner always passes on: the
	// scanner's filter dropped it.
	dump := strings.Repeat("[TRT-LLM] [RANK 0] [I] iter\n", 60) +
		"[TRT-LLM] [RANK 0] [I] TorchLlmArgs(cache_transceiver_config=CacheTransceiverConfig(backend=None, transceiver_runtime=None, kv_transfer_timeout_ms=None))\n" +
		"  TorchLlmArgs(cache_transceiver_config=CacheTransceiverConfig(backend=None, transceiver_runtime=None, kv_transfer_timeout_ms=60000))\n"
	for s := uint64(0); s < 10; s++ {
		checkSame(t, []byte(dump), s)
	}
	// The version line tensorrt_llm prints at import, a bare line, and a bare
	// line indented with Unicode blanks (state.line trims them as
	// strings.TrimSpace does), past the lines the scanner always passes on:
	// the scanner's filter dropped them (found by the grammar test below
	// with a random seed).
	for _, last := range []string{"[TensorRT-LLM] TensorRT-LLM version: 1.3.0rc26",
		"0: [TensorRT-LLM] TensorRT-LLM version: 1.3.0rc26", "  [TensorRT-LLM] TensorRT LLM version: 1.4.0rc1 (backend: cuda)",
		"\u00a0Using KvCacheTransceiverV2", "\vNixlTransferAgent::NixlTransferAgent using NIXL backend: UCX"} {
		late := strings.Repeat("0: [TRT-LLM] [RANK 0] [I] iter\n", 60) + last + "\n"
		for s := uint64(0); s < 4; s++ {
			checkSame(t, []byte(late), s)
		}
	}
	// A traceback of the executor's event loop (its frames, or the thread
	// hook's header over it) past the lines the scanner always passes on:
	// the line that shows the loop decides how its exception is read.
	for _, loop := range []string{`  File "/x/tensorrt_llm/_torch/pyexecutor/py_executor.py", line 1031, in _executor_loop_overlap`,
		`  File "/x/tensorrt_llm/executor/proxy.py", line 170, in dispatch_result_task`,
		"Exception in thread Thread-3 (_event_loop_wrapper):",
		// asyncio's exception handler's headers: the exception under them
		// was logged, not raised.
		"Task exception was never retrieved", "Exception in callback _SelectorSocketTransport._read_ready()",
		"ERROR:asyncio:Future exception was never retrieved", "ERROR base_events.default_exception_handler: Fatal error on transport",
		"[2025-11-18 09:33:24] ERROR base_events.py:1821: Task exception was never retrieved",
		"Exception ignored in: <function IpcMemory.__del__ at 0x7fe64738aa70>",
		// A crash's lines: the death is read from them.
		"Fatal Python error: Segmentation fault", "!!!!!!! Segfault encountered !!!!!!!", "[gpu-1:1:0:1] Caught signal 11 (Segmentation fault: x)",
		"[gpu-1:1874] Signal: Aborted (6)", "terminate called after throwing an instance of 'std::runtime_error'\n  what():  boom",
		"terminate called after throwing an instance of 'x'\n  what():  [TensorRT-LLM][ERROR] Assertion failed: x",
		// UCX's error lines.
		"[1742467344.413567] [gpu-1:2808 :0]            sock.c:334  UCX  ERROR   connect(fd=143) failed: Connection refused",
		// A launcher's line of a rank's death.
		"mpirun noticed that process rank 0 with PID 0 on node g exited on signal 11 (Segmentation fault).", "srun: error: g: task 0: Segmentation fault (core dumped)",
		"python3: ../include/tensorrt_llm/batch_manager/kvCacheUtils.h:84: static R f(): Assertion `lastBlock' failed.",
		"*** SIGSEGV received at time=1709021359 on cpu 44 ***",
		// A Dynamo worker's line once its engine was built: the exception
		// after it is a runtime error.
		"2026-01-10T12:00:09.500Z  INFO llm_worker.init_llm_worker: Set runtime config max_num_seqs: 256",
		// An exception logged at ERROR once start-up was over.
		"INFO:     Application startup complete.\n2026-01-10T12:00:11.123Z ERROR handler_base._generate_locally_impl: RuntimeError: Cannot assign cache transfer buffer kind=kv",
		"INFO:     Application startup complete.\nERROR:dynamo.trtllm:KeyError: 'disaggregated_params'"} {
		late := strings.Repeat("0: [TRT-LLM] [RANK 0] [I] iter\n", 60) + loop + "\n" + strings.Repeat("    x = y\n", 50) +
			"RuntimeError: [TensorRT-LLM][ERROR] Assertion failed: isLeaf()\n"
		for s := uint64(0); s < 4; s++ {
			checkSame(t, []byte(late), s)
		}
	}
	// Dynamo's JSONL records (DYN_LOGGING_JSONL=1), bare and in docker's
	// json-file records, with escapes, without file and line, and shapes
	// that are not such a record (fields out of order, a message that is
	// no string): read as the reference reads them, early and late.
	dyn := `{"time":"2026-01-10T12:00:05.000000Z","level":"INFO","file":"/x/a.py","line":3,"target":"py_executor_creator.create_py_executor","message":"[TRT-LLM] [I] Using UCX kv-cache transceiver."}
{"log":"{\"time\":\"2026-01-10T12:00:09.500000Z\",\"level\":\"INFO\",\"target\":\"llm_worker.init_llm_worker\",\"message\":\"Set runtime config max_num_seqs: 256\"}\n","stream":"stderr","time":"2026-01-10T12:00:09.5Z"}
{"time":"2026-01-10T12:00:09.600000Z","level":"WARN","line":7,"target":"t","message":"[TRT-LLM] [W] caf\u00e9 \"q\"\tx","span_name":"s"}
{"time":"2026-01-10T12:00:09.700000Z","target":"t","level":"INFO","message":"[TRT-LLM] [I] Using KvCacheTransceiverV2"}
{"time":"2026-01-10T12:00:09.800000Z","level":"INFO","target":"t","message":{"a":1}}
{"time":"2026-01-10T12:00:09.900000Z","level":"INFO","target":"t","message":"[TRT-LLM] [I] Using KvCacheTransceiverV2"
{"time":"2026-01-10T12:00:10.000000Z","level":"ERROR","target":"t","message":"x"}
RuntimeError: request 7 failed
`
	for s := uint64(0); s < 4; s++ {
		checkSame(t, []byte(dyn), s)
		checkSame(t, []byte(strings.Repeat("0: [TRT-LLM] [RANK 0] [I] iter\n", 60)+dyn), s)
	}
	// NIXL's error lines, late, bare or in k9s's frame: the scanner must
	// pass them on.
	for _, last := range []string{"│ getPluginParams: backend 'UCX' not found                     │",
		"│   File \"/x/py_executor.py\", line 517, in _event_loop_wrapper │\n│ RuntimeError: x │", "E0421 11:56:59.774282  709103 nixl_agent.cpp:259] getPluginParams: backend 'UCX' not found",
		"E ucx_utils.cpp:585] VRAM memory is detected as host by UCX.", "  getPluginParams: backend 'UCX' not found"} {
		late := strings.Repeat("0: [TRT-LLM] [RANK 0] [I] iter\n", 60) + last + "\n"
		for s := uint64(0); s < 4; s++ {
			checkSame(t, []byte(late), s)
		}
	}
	// Slurm's exit status of a task, late, after a line that says the task
	// was stopped (or none): the scanner must pass both on.
	for _, stop := range []string{"", "0: INFO:     Shutting down\n", "0: INFO:     Finished server process [4242]\n", "srun: Terminating job step 17309.2\n",
		"srun: Job step aborted: Waiting up to 32 seconds for job step to finish.\n", "^Csrun: sending Ctrl-C to job 13218794.0\n", "slurmstepd: error: *** STEP 524547.1 ON ault43 CANCELLED AT 2024-10-09T23:20:53 ***\n"} {
		late := "0: [TRT-LLM] [RANK 0] [I] Using KvCacheTransceiverV2\n0: INFO:     Application startup complete.\n" + strings.Repeat("0: [TRT-LLM] [RANK 0] [I] iter\n", 60) +
			stop + strings.Repeat("0: [TRT-LLM] [RANK 0] [I] iter\n", 60) + "srun: error: gpu-1: task 0: Exited with exit code 1\n"
		for s := uint64(0); s < 4; s++ {
			checkSame(t, []byte(late), s)
		}
	}
	// The Python transceiver's warnings about its transfers, late: the
	// scanner must pass them on (its ERROR lines pass as all ERROR lines do).
	for _, last := range []string{"[TRT-LLM] [RANK 0] [W] TxSession rid=5 failed", "[TRT-LLM] [W] [_torch  ] [RANK 0] TxSession 5 timed out waiting for completion",
		"[TRT-LLM] [RANK 0] [W] Disagg gen transfer FAILED rank=0 rids=[5] gen_need_sync=False",
		"[TRT-LLM] [RANK 0] [W] _deliver_kv_to_agent: session 5 already in CANCELLED state; sending FAILED to receiver",
		"[TRT-LLM] [RANK 0] [W] NIXL transfer wait timed out after 5000 ms.",
		"[TRT-LLM] [RANK 0] [E] KV transfer agent failed: unique_rid=5 slice=0"} {
		late := "[TRT-LLM] [RANK 0] [I] Using KvCacheTransceiverV2\n" + strings.Repeat("[TRT-LLM] [RANK 0] [I] iter\n", 60) + last + "\n"
		for s := uint64(0); s < 4; s++ {
			checkSame(t, []byte(late), s)
		}
	}
	// A start-up failure whose C++ frames and blank lines outlast the lines
	// the scanner passes on after it: a tagged line (any rank's) ends its
	// root cause, so an indented line after it is no part of it. The scanner
	// passed on neither the tagged line nor the lines the cause takes.
	for _, after := range []string{"  NixlTransferAgent::NixlTransferAgent using NIXL backend: UCX", "    real root cause here"} {
		for _, between := range []string{"\n", "1       0x7a14a782a0f4 tensorrt_llm::common::throwRuntimeError(...) + 76\n"} {
			for _, tag := range []string{"[TRT-LLM] [RANK 1] [I] iter\n", ""} {
				failed := strings.Repeat("[TRT-LLM] [RANK 0] [I] a\n[TRT-LLM] [RANK 1] [I] a\n", 30) +
					"[TRT-LLM] [RANK 0] [E] Failed to initialize executor on rank 0:\n" + strings.Repeat(between, 50) +
					tag + after + "\n" + strings.Repeat("[TRT-LLM] [RANK 1] [I] iter\n", 30)
				for s := uint64(0); s < 6; s++ {
					checkSame(t, []byte(failed), s)
				}
			}
		}
	}
	// A pydantic error cut by a chunk boundary, colours, CRLF, a BOM.
	checkSame(t, []byte("\xef\xbb\xbf\x1b]0;title\x07[TRT-LLM] [I] x\r\n"+
		"pydantic_core._pydantic_core.ValidationError: 1 validation error for TorchLlmArgs\r\n"+
		"cache_transceiver_config.backend\n  Input should be 'UCX'\n[TRT-LLM] [I] Using KvCacheTransceiverV2"), 3)
}

// FuzzParseMatchesReference is the same property on any input.
func FuzzParseMatchesReference(f *testing.F) {
	for _, data := range fuzzSeeds() {
		f.Add(data, uint64(len(data)))
	}
	f.Add([]byte(" 0: 2026-09-15T03:52:12.905+05:30\t[09/15/2026-03:52:10]  3: [TensorRT-LLM][RANK 2][INFO] Resolved transceiver_runtime='auto' to None for X.\n[TensorRT-LLM] TensorRT LLM version: 1.4.0rc1 (backend: cuda)\n"), uint64(5))
	f.Fuzz(func(t *testing.T, data []byte, seed uint64) {
		if len(data) > 1<<16 || strings.Count(string(data), "\n") > 2000 {
			return
		}
		checkSame(t, data, seed)
	})
}

// refSeeds is how many random logs a differential test makes: n, or
// XCVR_REF_SEEDS when set, to hunt for differences with more of them than
// CI's run makes (XCVR_REF_SEEDS=20000 go test -run Grammar ./internal/logs).
func refSeeds(t *testing.T, n int) int {
	t.Helper()
	if v := os.Getenv("XCVR_REF_SEEDS"); v != "" {
		k, err := strconv.Atoi(v)
		if err != nil || k < 0 {
			t.Fatalf("XCVR_REF_SEEDS=%q: want a count", v)
		}
		return k
	}
	return n
}

// refBase is the seed of the random logs' sequence: 11, or XCVR_REF_BASE
// when set, so that runs of a hunt each make other logs. A failure names
// the base and the log's number (its checkSame seed) that reproduce it.
func refBase(t *testing.T) uint64 {
	t.Helper()
	if v := os.Getenv("XCVR_REF_BASE"); v != "" {
		b, err := strconv.ParseUint(v, 10, 64)
		if err != nil {
			t.Fatalf("XCVR_REF_BASE=%q: want a number", v)
		}
		return b
	}
	return 11
}

// refFailed, deferred around a random log's checkSame, names the log that
// failed (its seed, the sequence's base) and, with XCVR_REF_SAVE set to a
// directory, writes it there to be cut down (ref-BASE-SEED.log).
func refFailed(t *testing.T, data []byte, seed uint64) {
	if !t.Failed() {
		return
	}
	base := refBase(t)
	t.Logf("the log of seed %d (XCVR_REF_BASE=%d)", seed, base)
	if dir := os.Getenv("XCVR_REF_SAVE"); dir != "" {
		path := filepath.Join(dir, "ref-"+strconv.FormatUint(base, 10)+"-"+strconv.FormatUint(seed, 10)+".log")
		if err := os.WriteFile(path, data, 0o644); err != nil {
			t.Log(err)
		}
	}
}

// TestParseMatchesReferenceGrammar builds random logs from the pieces real ones
// are made of — launcher prefixes, timestamps, tags, ranks, colours, CRs,
// exceptions with pydantic detail lines, version lines — and checks the fast
// parser against the reference on each, cut into random chunks.
func TestParseMatchesReferenceGrammar(t *testing.T) {
	pick := func(r *rand.Rand, xs ...string) string { return xs[r.IntN(len(xs))] }
	rng := rand.New(rand.NewPCG(refBase(t), 13))
	n := 400
	if testing.Short() {
		n = 50
	}
	n = refSeeds(t, n)
	for it := 0; it < n; it++ {
		var b bytes.Buffer
		// Some lines are wrapped in docker's json-file record, well formed
		// or not, or in a record of stern's JSON outputs.
		wrap := func(start int) {
			line := b.String()[start:]
			b.Truncate(start)
			v, _ := json.Marshal(line)
			line = strings.TrimSuffix(line, "\n")
			m, _ := json.Marshal(line)
			switch rng.IntN(9) {
			case 0:
				b.WriteString(`{"log":` + string(v[:len(v)-1]) + "\n") // unterminated
			case 1:
				b.WriteString(`{"log":"bad \x escape","stream":"stdout"}` + "\n")
			case 6:
				// stern -o json, and extjson (the message as it is when JSON).
				b.WriteString(`{"message":` + string(m) + pick(rng, `,"nodeName":"n"`, ``) + `,"namespace":"d","podName":"ctx-` + pick(rng, "0", "1", "x/") + `","containerName":"main"}` + "\n")
			case 7:
				b.WriteString(pick(rng, `{`, `{"namespace": "d", `) + `"pod": "ctx-` + pick(rng, "0", "1") + `", "container": "main", "message": ` + pick(rng, string(m), line) + "}\n")
			default:
				b.WriteString(`{"log":` + string(v) + `,"stream":"stdout","time":"2026-09-15T03:52:12.905Z"}` + "\n")
			}
		}
		lines := 1 + rng.IntN(300)
		// Most lines of a log share its launcher's format and come from a few
		// ranks, and most say nothing about the transceiver, as in real logs.
		ranks := 1 + rng.IntN(3)
		style := uint64(rng.Uint64())
		for i := 0; i < lines; i++ {
			start, wrapped := b.Len(), rng.IntN(8) == 0
			r := strconv.Itoa(rng.IntN(ranks))
			if rng.IntN(10) < 8 {
				rng2 := rand.New(rand.NewPCG(style, 1))
				b.WriteString(pick(rng2, "", "", "\x1b[32m"))
				b.WriteString(pick(rng2, "", r+": ", "[1,"+r+"]<stdout>:", "ctx-"+r+"  | "))
				b.WriteString(pick(rng2, "", "2026-09-15T03:52:12.905Z "))
				b.WriteString(pick(rng2, "", "[09/15/2026-03:40:01] "))
				b.WriteString(pick(rng2, "[TRT-LLM] [RANK "+r+"] ", "[TRT-LLM] [MPI_Rank "+r+"] ", "[TRT-LLM] "))
				b.WriteString(pick(rng, "[I] ", "[I] ", "[W] ", "[V] "))
				if rng.IntN(4) > 0 {
					b.WriteString("iter = " + strconv.Itoa(i) + "\n")
					if wrapped {
						wrap(start)
					}
					continue
				}
			}
			b.WriteString(pick(rng, "", "", "", "", "> ", ">", "> > ", " >\t", ">>", "│ ", "│", " │  "))
			b.WriteString(pick(rng, "", "", "\x1b[32m", "\x1b]0;t\x07", "\x1b[", "\x1b]x"))
			b.WriteString(pick(rng, "", "", r+": ", " "+r+": ", "[1,"+r+"]<stdout>:", "[1,"+r+"]<stderr>: ", "[1,"+r+"]<stdin>:", "x: ",
				"gen-"+r+"  | ", "proj_ctx_"+r+"\t|", "ctx-"+r+"|", "ctx  | ", "-"+r+" | ",
				"INFO:TRT-LLM:", "RuntimeError: ", "2026-09-15 03:52:12,905 - TRT-LLM - INFO - ", "trtllm-ctx-"+r+" main ", "ctx-"+r+".x main ", "Ctx-"+r+" main ", "ctx- main ", "Dec  4 21:00:0"+r+" gpu-1 trtllm-serve[471"+r+"]: ", "Dec 04 21:00:00.123 gpu-1 python3[4"+r+"]: ", "Dec 04 21:00:00 gpu-1 trtllm-serve: ", "Dec 04 21:00:00 gpu-1 x[]: ",
				"(RayWorkerWrapper pid=7"+r+") ", "(pid="+r+", ip=10.0.0."+r+")", "(RayWorkerWrapper pid=) ", "(Ray Worker pid=1) ", "(pid=1, ip=) ",
				"(EngineCore_DP0 pid=4) (RayWorkerWrapper pid=7"+r+") ", "(ServeReplica:a:B pid=1)(pid="+r+")", "(raylet) ", "(raylet, ip=10.0.0."+r+") ", "(autoscaler +1m"+r+"s) ", "(scheduler +"+r+") ",
				"[default"+r+"]:", "[rank"+r+"]:", "0: [trainer"+r+"]:"))
			b.WriteString(pick(rng, "", "2026-09-15T03:52:12.905Z ", "2026-09-15 03:52:12,9+05:30\t", "2026-09-15T03:52:12+0530 ", "2026-09-15T03:52:12.Z ",
				"2026-09-15T03:52:12+0000 gpu-1 python3[4"+r+"]: ", "2026-09-15T03:52:12+0000 gpu-1 python3: ",
				"2026-09-15T03:52:12.905123456Z stdout F ", "2026-09-15T03:52:12Z stderr P ", "2026-09-15T03:52:12Z stdout F", "2026-09-15T03:52:12Z stdout X ", "stdout F "))
			b.WriteString(pick(rng, "", "[09/15/2026-03:40:01] ", "[09/15/2026-03:40:01]", "[9/15/2026-03:40:01] "))
			b.WriteString(pick(rng, "", r+": "))
			b.WriteString(pick(rng, "", "[TRT-LLM] ", "[TRT-LLM] [RANK "+r+"] ", "[TRT-LLM][MPI_Rank "+r+"]", "[TRT-LLM]  [RANK x] ", "[TRT-LLM] [RANK N] ", "[TRT-LLM] [RANK 1x] ",
				"[TensorRT-LLM]", "[TensorRT-LLM][RANK "+r+"]", "[TensorRT-LLM] "))
			b.WriteString(pick(rng, "", "[I] ", "[W]", "[E] ", "[F] ", "[V] ", "[X] ", "[INFO] ", "[ERROR]", "[DEBUG] ", "[TRACE]"))
			b.WriteString(pick(rng,
				"Resolved transceiver_runtime='auto' to 'PYTHON' for GptOssForCausalLM.",
				"Resolved transceiver_runtime='auto' to None for Qwen3ForCausalLM.",
				"Model prefers the Python transceiver, but backend UCX does not support it; falling back to the C++ transceiver.",
				"Falling back to the C++ transceiver: backend 'UCX' (the Python transceiver requires NIXL).",
				"TRTLLM_USE_UCX_KVCACHE=1 is set, but it's recommended to set cache_transceiver_config.backend in yaml config",
				"Using UCX kv-cache transceiver. If your devices", "Using KvCacheTransceiverV2", "device_id: 3 in KvCacheTransceiverV2",
				"cache_transceiver is disabled", "TRTLLM_DISAGG_ENABLE_INFLIGHT_CANCEL=1: disagg KV transfer in-flight cancellation was requested",
				"Using LLM with PyTorch backend", "iter = 3, num_scheduled_requests: 8", "iter = 4084, global_rank = 0, rank = 0, currank_total_requests = 0/0, host_step_time = 428.2ms", "INFO:     Application startup complete.", "INFO:     Uvicorn running on http://0.0.0.0:8001",
				"ValueError: Python transceiver currently only supports NIXL backend, got UCX. Please",
				"pydantic_core._pydantic_core.ValidationError: 1 validation error for TorchLlmArgs",
				"cache_transceiver_config.backend", "  Input should be 'DEFAULT' [type=literal_error]",
				"    For further information visit https://errors.pydantic.dev", "Traceback (most recent call last):",
				"TensorRT-LLM version: 1.3.0rc26", "TensorRT LLM version: 1.4.0rc1 (backend: cuda)",
				"backend broke: Error: x", "Failed to initialize executor on rank 0:", "  Assertion failed: status == NIXL_SUCCESS",
				"Fallback to regular model init: Traceback (most recent call last):", "RuntimeError: [TensorRT-LLM][ERROR] Assertion failed:", "  status == NIXL_SUCCESS (transferAgent.cpp:416)", "AttributeError: 'NemotronHConfig' object has no attribute 'x'", "mpi4py.MPI.Exception: MPI_ERR_UNKNOWN: unknown error", "Exception: x",
				"Waiting for context and generation servers to be ready", "[3] Servers are not ready. Waiting for ['http://gen-0:8002']...",
				"Servers are not ready. Waiting for []...", "Waiting for servers, context: ['ctx-0:8001'], generation: []", "All servers are ready", "server is ready with info: {'disaggregated_params': {}}",
				"Context and generation servers are ready", "TimeoutError: Timeout waiting for context and generation servers to be ready", "[x] Servers are not ready. Waiting for y",
				"AssertionError: kv_cache_transceiver is disabled, please set 'cache_transceiver_config: backend:<backend_type>` in config file for disaggregated serving",
				"CacheTransceiver getOrAllocateBuffers: bufferCoverTargetNum:0 < targetNum:1,",
				"3       0x7f84ed8af610 tensorrt_llm::batch_manager::CacheTransceiver::CacheTransceiver(tensorrt_llm::batch_manager::kv_cache_manager::BaseKVCacheManager*) + 1312",
				"1       0x7a14a782a0f4 tensorrt_llm::common::throwRuntimeError(...) + 76",
				`  File "/x/tensorrt_llm/_torch/pyexecutor/py_executor.py", line 1031, in _executor_loop_overlap`,
				`File ".../py_executor.py", line 517, in _event_loop_wrapper`, `  File "/x/model_loader.py", line 3, in load`,
				"Exception in thread Thread-3 (_event_loop_wrapper):", "Exception in thread Thread-1 (run):", "Error in event loop: x",
				"Exception in thread Thread-4 (_executor_loop_overlap):", "Encountered an error in forward function: x", "Encountered an error in forward function: boom", `  File "/x/py_executor.py", line 1608, in _forward_step`,
				"E0421 11:56:59.774282  709103 nixl_agent.cpp:259] getPluginParams: backend 'UCX' not found", "E ucx_utils.cpp:585] VRAM memory is detected as host by UCX.",
				"registerMem: registration failed for the specified or all potential backends", "E0421 1] x",
				"Task exception was never retrieved", "Exception in callback x()", "ERROR:asyncio:Exception in callback x()",
				"During handling of the above exception, another exception occurred:",
				"Fatal Python error: Aborted", "terminate called after throwing an instance of 'c10::Error'", "  what():  boom", "[h:1] Signal: Bus error (7)",
				"[1742467344.413567] [gpu-1:2808 :0]  sock.c:334  UCX  ERROR   connect failed", "[1716594409.541480]  sock.c:323  UCX  WARN  x",
				"mpirun noticed that process rank 0 with PID 0 on node g exited on signal 11 (Segmentation fault).", "srun: error: g: task 1: Aborted",
				"CacheFormatter::inquireSupport: only support same kv factor", "Exception in CacheSender response: x",
				"Exception ignored in: <function A.__del__ at 0x1>", "^CException ignored in: <x>",
				"KV cache manager V2 is the model preference, but disaggregated serving uses transceiver_runtime='CPP' with backend='UCX'; falling back to V1.",
				""))
			b.WriteString(pick(rng, "\n", "\n", "\n", "\r\n", "\x1b[0m\n", " \n", " \t  \r\n", "    │\n"))
			if wrapped {
				wrap(start)
			}
		}
		func() {
			defer refFailed(t, b.Bytes(), uint64(it))
			checkSame(t, b.Bytes(), uint64(it))
		}()
	}
}

// TestParseCauseAcrossChunks: a start-up failure's root cause under a long
// run of C++ frames that a chunk (or mapped window) boundary cuts. The
// chunk's worker cannot know the cause is open; the replay scans the chunk
// again when it is, so the cause line deep in the next chunk is read, as the
// reference parser reads it.
func TestParseCauseAcrossChunks(t *testing.T) {
	noise := strings.Repeat("[TRT-LLM] [RANK 0] [I] a\n[TRT-LLM] [RANK 1] [I] a\n", 1200)
	frames := strings.Repeat("1       0x7a14a782a0f4 tensorrt_llm::common::throwRuntimeError(...) + 76\n", 400)
	data := []byte(noise + "[TRT-LLM] [RANK 0] [E] Failed to initialize executor on rank 0:\n" + frames +
		"    Assertion failed: status == NIXL_SUCCESS\n" + noise)
	want, err := parseReference("f.log", bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	wantS := summary(t, want)
	if !strings.Contains(wantS, "Assertion failed") {
		t.Fatalf("the reference does not read the cause: %s", wantS)
	}
	old := chunkSize
	defer func() { chunkSize = old }()
	for cs := 1000; cs <= 8000; cs += 350 {
		chunkSize = cs
		got, err := Parse("f.log", bytes.NewReader(data))
		if err != nil {
			t.Fatal(err)
		}
		if g := summary(t, got); g != wantS {
			t.Fatalf("Parse (chunks of %d bytes) differs from the reference:\n got %s\nwant %s", cs, g, wantS)
		}
		if g := parseMappedSummary(t, data); g != wantS {
			t.Fatalf("parseMapped (windows of %d bytes) differs from the reference:\n got %s\nwant %s", mapChunk(), g, wantS)
		}
	}
}

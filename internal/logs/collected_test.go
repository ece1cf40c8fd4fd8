package logs

import (
	"fmt"
	"strings"
	"testing"
)

// collected is a log as a deployment collects it, and what xcvr must read:
// each process "source=OUTCOME kind@line,…", the first process's error.
type collected struct {
	name, log, want, err string
}

func checkCollected(t *testing.T, cases []collected) {
	t.Helper()
	for _, c := range cases {
		lg, _ := Parse("f.log", strings.NewReader(c.log))
		var got []string
		for _, p := range lg.Processes {
			var kinds []string
			for _, f := range p.Findings {
				kinds = append(kinds, fmt.Sprintf("%s@%d", f.Kind, f.Line))
			}
			got = append(got, fmt.Sprintf("%s=%s %s", p.Source, p.Outcome(), strings.Join(kinds, ",")))
		}
		if s := strings.Join(got, ";"); s != c.want {
			t.Errorf("%s: %s, want %s", c.name, s, c.want)
		}
		if len(lg.Processes) > 0 && !strings.HasPrefix(lg.Processes[0].Error, c.err) || c.err == "" && len(lg.Processes) > 0 && lg.Processes[0].Error != "" {
			t.Errorf("%s: error %q, want %q", c.name, lg.Processes[0].Error, c.err)
		}
		if ref, _ := parseReference("f.log", strings.NewReader(c.log)); summary(t, ref) != summary(t, lg) {
			t.Errorf("%s: the reference parser reads it otherwise", c.name)
		}
		for s := uint64(0); s < 3; s++ {
			checkSame(t, []byte(strings.Repeat("0: [TRT-LLM] [RANK 0] [I] iter\n", 60)+c.log), s)
		}
	}
}

// dynRecord is one record of Dynamo's JSONL logging (DYN_LOGGING_JSONL=1) in
// the field order of JsonLog (ai-dynamo/dynamo lib/runtime/src/logging.rs:
// time, level, file, line, target, message, then the other fields), message
// JSON-escaped as serde_json writes it.
func dynRecord(tm, level, target, msg string) string {
	m := strings.NewReplacer(`\`, `\\`, `"`, `\"`, "\n", `\n`, "\t", `\t`, "\r", `\r`, "\x1b", `\u001b`).Replace(msg)
	return `{"time":"2026-01-10T12:00:` + tm + `.000000Z","level":"` + level + `","file":"/opt/dynamo/venv/lib/python3.12/site-packages/dynamo/trtllm/x.py","line":42,"target":"` +
		target + `","message":"` + m + `"}` + "\n"
}

// TestDynamoJSONLTraceback: Python's logging appends an exception's
// traceback to the record's message (exc_info=True, logger.exception), and
// Dynamo's LogHandler formats the record with "%(message)s" and hands the
// whole text to its Rust logger (lib/bindings/python/src/dynamo/runtime/
// logging.py), whose JSONL formatter writes it as one "message" string, the
// traceback's lines joined by "\n" (verified). Readable, Dynamo prints those
// lines as lines of their own; xcvr reads the record as those lines, so the
// traceback's exception is read where it was lost inside one line: a start-up
// failure, or once the engine was up (Dynamo's "Set runtime config
// max_num_seqs") a runtime error.
func TestDynamoJSONLTraceback(t *testing.T) {
	const tb = "Traceback (most recent call last):\n" +
		"  File \"/opt/dynamo/venv/lib/python3.12/site-packages/tensorrt_llm/_torch/pyexecutor/py_executor_creator.py\", line 612, in create_py_executor\n" +
		"    kv_cache_transceiver = create_kv_cache_transceiver(\n" +
		"ValueError: Python transceiver currently only supports NIXL backend, got UCX. Please use transceiver_runtime='CPP' for MPI, UCX, or MOONCAKE backends."
	up := dynRecord("09", "INFO", "llm_worker.init_llm_worker", "Set runtime config max_num_seqs: 256")
	using := dynRecord("05", "INFO", "py_executor_creator.create_py_executor", "[TRT-LLM] [I] Using UCX kv-cache transceiver. If your devices are not in the same domain, please consider setting UCX_CUDA_IPC_ENABLE_MNNVL=n, UCX_RNDV_SCHEME=put_zcopy and/or unset UCX_NET_DEVICES upon server hangs or lower-than-expected performance.")
	checkCollected(t, []collected{
		{"start-up, logged with exc_info", using + dynRecord("06", "ERROR", "main.worker", "Failed to start the engine\n"+tb),
			"process=ERROR ", "ValueError: Python transceiver currently only supports NIXL backend, got UCX."},
		// TensorRT-LLM's logger.error(traceback.format_exc()): its tag
		// on the first line only.
		{"TensorRT-LLM's own traceback line", using + dynRecord("06", "ERROR", "logger.log", "[TRT-LLM] [E] "+tb+"\n"),
			"process=ERROR ", "ValueError: Python transceiver"},
		// handler_base's "Fatal {error_type} in request {id}: {msg}" with
		// exc_info=True, once the engine was up.
		{"a request's failure once up", dynRecord("01", "INFO", "logger.log", "[TRT-LLM] [I] Using KvCacheTransceiverV2") + up +
			dynRecord("11", "ERROR", "handler_base.generate", "Fatal RuntimeError in request 7: boom\nTraceback (most recent call last):\n  File \"/x/handler_base.py\", line 3, in generate\n    raise RuntimeError(\"boom\")\nRuntimeError: boom"),
			"process=PYTHON runtime_error@3", ""},
		// Blank lines, CRLF and colour inside the message.
		{"blank lines and CR", using + dynRecord("06", "ERROR", "main.worker", "Failed\r\n\n\x1b[31m"+tb+"\x1b[0m\r\n"),
			"process=ERROR ", "ValueError: Python transceiver"},
		// Docker's json-file record of one.
		{"in docker's json-file record", `{"log":` + strings.TrimSuffix(fmt.Sprintf("%q", dynRecord("06", "ERROR", "main.worker", "Failed\n"+tb)), `\n"`) + `\n","stream":"stderr","time":"2026-01-10T12:00:06Z"}` + "\n",
			"process=ERROR ", "ValueError: Python transceiver"},
	})
}

// TestSternBareLines: stern prints every line of a pod behind its pod and
// container ("trtllm-gen-0 main …", coloured or not), TensorRT-LLM's tagged
// lines and the bare ones its process prints besides: a traceback, uvicorn's
// lines, UCX's and NIXL's, a crash handler's. Those are the pod's (they were
// read as no pod's line, so a pod whose start-up failed in a traceback read
// "outcome not shown" and the log exited 0): two DNS names, the pod's with a
// hyphen, before one of those lines (sternBare) are stern's, as before its
// tag or a timestamp.
func TestSternBareLines(t *testing.T) {
	const using = "[TRT-LLM] [I] Using KvCacheTransceiverV2\n"
	tb := func(pod string) string {
		return pod + "Traceback (most recent call last):\n" +
			pod + "  File \"/usr/local/lib/python3.12/dist-packages/tensorrt_llm/executor/worker.py\", line 10, in worker_main\n" +
			pod + "    worker = worker_cls(x)\n" +
			pod + "RuntimeError: [TensorRT-LLM][ERROR] Assertion failed: status == NIXL_SUCCESS (transferAgent.cpp:416)\n"
	}
	const ctx, gen = "trtllm-ctx-0 main ", "trtllm-gen-0 main "
	checkCollected(t, []collected{
		{"a pod's start-up traceback beside another pod", ctx + using + gen + "[TRT-LLM] [I] Starting TensorRT-LLM init.\n" + ctx + "INFO:     Application startup complete.\n" + tb(gen),
			"pod/trtllm-ctx-0/main=PYTHON ;pod/trtllm-gen-0/main=ERROR ", ""},
		{"coloured", "\x1b[32mtrtllm-gen-0\x1b[0m \x1b[34mmain\x1b[0m " + using + strings.ReplaceAll(tb(gen), gen, "\x1b[32mtrtllm-gen-0\x1b[0m \x1b[34mmain\x1b[0m "),
			"pod/trtllm-gen-0/main=ERROR ", "RuntimeError: [TensorRT-LLM][ERROR] Assertion failed: status == NIXL_SUCCESS"},
		{"a ranked pod", gen + "[TRT-LLM] [RANK 0] [I] Using KvCacheTransceiverV2\n" + tb(gen), "pod/trtllm-gen-0/main rank 0=ERROR ", "RuntimeError: [TensorRT-LLM][ERROR]"},
		// Once uvicorn's line says the server is up: a runtime error.
		{"an exception once up", gen + using + gen + "INFO:     Application startup complete.\n" + gen + "KeyError: 'disaggregated_params'\n",
			"pod/trtllm-gen-0/main=PYTHON runtime_error@3", ""},
		{"UCX's error line", gen + using + gen + "[1742467344.413567] [gpu-1:2808 :0]            sock.c:334  UCX  ERROR   connect(fd=143) failed: Connection refused\n",
			"pod/trtllm-gen-0/main=PYTHON ucx_error@2", ""},
		{"a crash once up", gen + using + gen + "INFO:     Uvicorn running on http://0.0.0.0:8000 (Press CTRL+C to quit)\n" + gen + "!!!!!!! Segfault encountered !!!!!!!\n",
			"pod/trtllm-gen-0/main=PYTHON process_crashed@3", ""},
		{"UCX's crash handler once up", gen + using + gen + "INFO:     Application startup complete.\n" + gen + "[gpu-1:2808:0:2811] Caught signal 11 (Segmentation fault: address not mapped to object at address 0x54000009)\n",
			"pod/trtllm-gen-0/main=PYTHON process_crashed@3", ""},
		{"libstdc++'s terminate", gen + "[TRT-LLM] [I] Starting TensorRT-LLM init.\n" + gen + "terminate called after throwing an instance of 'std::runtime_error'\n" + gen + "  what():  NIXL agent failed\n",
			"pod/trtllm-gen-0/main=ERROR ", "std::runtime_error: NIXL agent failed"},
		{"NIXL's Abseil line", gen + using + gen + "E0421 11:56:59.774282  709103 nixl_agent.cpp:259] getPluginParams: backend 'UCX' not found\n",
			"pod/trtllm-gen-0/main=PYTHON ", ""},
		// Words that start as those lines do are no pod's line; nor is a
		// stern bare line a shape for the words after it.
		{"not stern's", "gpt-oss model Tomorrow [TRT-LLM] [RANK 0] [I] Using KvCacheTransceiverV2\n", "rank 0=PYTHON ", ""},
		{"a word like a bare line's after one", gen + "Traceback (most recent call last):\n" + gen + "Tomorrow [TRT-LLM] [RANK 0] [I] Using KvCacheTransceiverV2\n", "rank 0=PYTHON ", ""},
	})
}

// TestSternBareMakesNoShape: a stern line read by its bare message makes no
// shape (shapes.go): a shape compares the prefix and the message's first byte
// only, and sternBare reads more of it ("Traceback …", not "Tomorrow").
func TestSternBareMakesNoShape(t *testing.T) {
	sc := newScanner()
	for _, line := range []string{"trtllm-ctx-3 main Traceback (most recent call last):", "trtllm-ctx-3 main ValueError: x", "trtllm-ctx-3 main E0421 x"} {
		_, _, _, _, kind := sc.readPrefix([]byte(line))
		if string(sc.key) != "pod/trtllm-ctx-3/main" || kind != shapeNone {
			t.Errorf("%q: key %q, shape kind %d", line, sc.key, kind)
		}
	}
}

// TestDynamoJSONLBehindPrefix: a Dynamo worker logging JSONL
// (DYN_LOGGING_JSONL=1) is collected behind the collector's prefix as any
// other line: kubectl logs --prefix and --timestamps, the kubelet's file
// (/var/log/pods/…/0.log), stern, srun -l, docker compose. The record reads
// as the lines Dynamo's readable logging prints, each behind that prefix, so
// its process is the pod's, task's or container's; it was not read at all
// ("not a TensorRT-LLM log").
func TestDynamoJSONLBehindPrefix(t *testing.T) {
	using := dynRecord("05", "INFO", "py_executor_creator.create_py_executor", "[TRT-LLM] [I] Using KvCacheTransceiverV2")
	fail := dynRecord("06", "ERROR", "main.worker", "Failed to start the engine\nTraceback (most recent call last):\n"+
		"  File \"/opt/dynamo/venv/lib/python3.12/site-packages/tensorrt_llm/executor/worker.py\", line 10, in worker_main\n"+
		"ValueError: KvCacheTransceiverV2 requires a finite kv_transfer_timeout_ms")
	up := dynRecord("09", "INFO", "llm_worker.init_llm_worker", "Set runtime config max_num_seqs: 256")
	late := dynRecord("11", "ERROR", "handler_base.generate", "Fatal RuntimeError in request 7: boom\nTraceback (most recent call last):\n  File \"/x/handler_base.py\", line 3, in generate\nRuntimeError: boom")
	behind := func(prefix string, recs ...string) string {
		var b strings.Builder
		for _, r := range recs {
			b.WriteString(prefix + r)
		}
		return b.String()
	}
	const e = "ValueError: KvCacheTransceiverV2 requires a finite kv_transfer_timeout_ms"
	checkCollected(t, []collected{
		{"kubectl logs --prefix", behind("[pod/trtllm-decode-0/main] ", using, fail), "pod/trtllm-decode-0/main=ERROR ", e},
		{"kubectl logs --timestamps", behind("2026-01-10T12:00:06.123456789Z ", using, fail), "process=ERROR ", e},
		{"kubectl logs --prefix --timestamps", behind("[pod/trtllm-decode-0/main] 2026-01-10T12:00:06.123456789Z ", using, fail), "pod/trtllm-decode-0/main=ERROR ", e},
		{"the kubelet's file", behind("2026-01-10T12:00:06.123456789Z stderr F ", using, fail), "process=ERROR ", e},
		{"stern", behind("trtllm-decode-0 main ", using, fail), "pod/trtllm-decode-0/main=ERROR ", e},
		{"srun -l", behind("1: ", using, fail), "srun task 1=ERROR ", e},
		{"docker compose", behind("decode-1  | ", using, fail), "decode-1=ERROR ", e},
		// Two pods interleaved, one failing; a rank in TensorRT-LLM's tag.
		{"two pods", "[pod/prefill-0/main] " + using + "[pod/decode-0/main] " + dynRecord("05", "INFO", "logger.log", "[TRT-LLM] [RANK 1] [I] Using KvCacheTransceiverV2") +
			"[pod/prefill-0/main] " + fail, "pod/prefill-0/main=ERROR ;pod/decode-0/main rank 1=PYTHON ", e},
		// Once the engine was up: a runtime error of that pod.
		{"a request's failure once up", behind("[pod/trtllm-decode-0/main] ", using, up, late), "pod/trtllm-decode-0/main=PYTHON runtime_error@3", ""},
		// Behind a prefix no reader knows it is not read so.
		{"an unknown prefix", behind("worker says ", using, fail), "", ""},
	})
}

// prefixedTraceback is a start-up failure's traceback with prefix p (a
// launcher's or PyTorch's) before each line; prefixedTracebackError is its
// exception.
func prefixedTraceback(p string) string {
	return p + "Traceback (most recent call last):\n" +
		p + "  File \"/usr/local/lib/python3.12/dist-packages/tensorrt_llm/_torch/pyexecutor/py_executor_creator.py\", line 612, in create_py_executor\n" +
		p + "    kv_cache_transceiver = create_kv_cache_transceiver(\n" +
		p + prefixedTracebackError + "\n"
}

const prefixedTracebackError = "ValueError: KvCacheTransceiverV2 requires a finite kv_transfer_timeout_ms"

// TestTorchRankPrefix: in a process that initialised torch.distributed,
// PyTorch's excepthook writes an uncaught exception's traceback with
// "[rank{rank}]: " before each line (PyTorch PR #118190; vLLM's logs in its
// issue #14601 show it, "[rank0]: Traceback (most recent call last):");
// TensorRT-LLM's Ray orchestrator and AutoDeploy workers run so. Those lines
// are that rank's: its start-up failure was read as no rank's, or lost (the
// title behind the prefix was no exception), and the log exited 0.
func TestTorchRankPrefix(t *testing.T) {
	tb, e := prefixedTraceback, prefixedTracebackError
	checkCollected(t, []collected{
		{"beside another rank", "[TRT-LLM] [RANK 0] [I] Using KvCacheTransceiverV2\n[TRT-LLM] [RANK 1] [I] Starting TensorRT-LLM init.\n" + tb("[rank1]: "),
			"rank 0=PYTHON ;rank 1=ERROR ", ""},
		{"the rank's only lines", tb("[rank3]: "), "rank 3=ERROR ", e},
		// Behind Ray's prefix: the worker's rank.
		{"behind Ray's", "(RayWorkerWrapper pid=81234) [TRT-LLM] [RANK 1] [I] Starting TensorRT-LLM init.\n" + tb("(RayWorkerWrapper pid=81234) [rank1]: "),
			"RayWorkerWrapper pid=81234 rank 1=ERROR ", e},
		// srun's label comes first, and names the process.
		{"behind srun's", "1: [TRT-LLM] [RANK 1] [I] Starting TensorRT-LLM init.\n" + tb("1: [rank1]: "), "srun task 1=ERROR ", e},
		// Not PyTorch's prefix: no blank after the colon, no rank.
		{"not the prefix", "[TRT-LLM] [RANK 0] [I] Using KvCacheTransceiverV2\n[rank1]:ValueError: x\n[ranks]: ValueError: y\n", "rank 0=PYTHON ", ""},
	})
}

// TestDynamoRunSubprocess: dynamo-run runs its engines (trtllm's among
// them) as a Python subprocess and logs each line of its output at DEBUG
// under the target dynamo_run::subprocess (launch/dynamo-run/src/
// subprocess.rs, verified; Dynamo issue #1422's log shows a traceback so).
// The child's line follows the target: a traceback's exception behind it
// was no exception, so a worker whose start-up failed read clean.
func TestDynamoRunSubprocess(t *testing.T) {
	const p = "2025-06-06T19:02:34.252Z DEBUG dynamo_run::subprocess: "
	tb := p + "Traceback (most recent call last):\n" +
		p + "  File \"/usr/local/lib/python3.12/dist-packages/tensorrt_llm/executor/worker.py\", line 10, in worker_main\n" +
		p + "    worker = worker_cls(x)\n" +
		p + "RuntimeError: [TensorRT-LLM][ERROR] Assertion failed: status == NIXL_SUCCESS (transferAgent.cpp:416)\n"
	checkCollected(t, []collected{
		{"readable", p + "[TRT-LLM] [I] Starting TensorRT-LLM init.\n" + tb, "process=ERROR ", "RuntimeError: [TensorRT-LLM][ERROR] Assertion failed"},
		{"a rank", p + "[TRT-LLM] [RANK 1] [I] Using KvCacheTransceiverV2\n" + p + "[TRT-LLM] [RANK 0] [I] Using KvCacheTransceiverV2\n", "rank 0=PYTHON ;rank 1=PYTHON ", ""},
		// JSONL: the record reads as the readable line.
		{"JSONL", dynRecord("05", "DEBUG", "dynamo_run::subprocess", "[TRT-LLM] [I] Starting TensorRT-LLM init.") +
			dynRecord("06", "DEBUG", "dynamo_run::subprocess", "ValueError: KvCacheTransceiverV2 requires a finite kv_transfer_timeout_ms"),
			"process=ERROR ", "ValueError: KvCacheTransceiverV2"},
		// Another target's message stays Dynamo's own line.
		{"another target", p + "[TRT-LLM] [I] Starting TensorRT-LLM init.\n2025-06-06T19:02:35.252Z DEBUG dynamo_run::other: ValueError: x\n", "process= ", ""},
	})
}

// TestRayRepeatedMark: Ray's driver prints a line its workers print alike
// (numbers ignored, within five seconds) once, with " [repeated 3x across
// cluster]" after it (Ray issue #45262, PR #45485; Ray PR #53825's log). A
// TensorRT-LLM rank's "Using KvCacheTransceiverV2" so marked read as no line
// of the transceiver ("outcome not shown"), and the mark stayed in a
// failure's text. The line reads without it, and the report says that other
// ranks' copies are not in the log.
func TestRayRepeatedMark(t *testing.T) {
	const w = "(RayWorkerWrapper pid=81237, ip=10.0.0.2) "
	checkCollected(t, []collected{
		{"the transceiver's line", w + "[TRT-LLM] [RANK 3] [I] Using KvCacheTransceiverV2 [repeated 3x across cluster]\n",
			"RayWorkerWrapper pid=81237, ip=10.0.0.2 rank 3=PYTHON ", ""},
		{"a failure and its traceback", w + "[TRT-LLM] [RANK 1] [E] Failed to initialize executor on rank 1: NIXL agent failed [repeated 2x across cluster]\n" +
			w + "RuntimeError: boom [repeated 2x across cluster]\n",
			"RayWorkerWrapper pid=81237, ip=10.0.0.2 rank 1=ERROR ", "Failed to initialize executor on rank 1: NIXL agent failed"},
		// The first mark comes with Ray's explanation (and a terminal's padding).
		{"the first mark", w + "[TRT-LLM] [RANK 3] [I] Using KvCacheTransceiverV2 [repeated 3x across cluster] (Ray deduplicates logs by default. Set RAY_DEDUP_LOGS=0 to disable log deduplication, or see https://docs.ray.io/en/master/ray-observability/user-guides/configure-logging.html#log-deduplication for more options.)   \n",
			"RayWorkerWrapper pid=81237, ip=10.0.0.2 rank 3=PYTHON ", ""},
		// Not the mark: no count, or text after it.
		{"not the mark", w + "[TRT-LLM] [RANK 3] [I] Using KvCacheTransceiverV2 [repeated x across cluster]\n", "RayWorkerWrapper pid=81237, ip=10.0.0.2 rank 3= ", ""},
	})
	lg, _ := Parse("f.log", strings.NewReader(w+"[TRT-LLM] [RANK 3] [I] Using KvCacheTransceiverV2 [repeated 3x across cluster]\n"+
		"(RayWorkerWrapper pid=81237, ip=10.0.0.2) [TensorRT-LLM][INFO] NixlTransferAgent::NixlTransferAgent using NIXL backend: UCX [repeated 3x across cluster]\n"))
	var notes []string
	for _, im := range lg.Processes[0].Implications {
		notes = append(notes, im.Text)
	}
	if len(lg.Processes) != 1 || len(notes) != 1 || notes[0] != rayRepeatedNote || lg.Processes[0].Error != "" {
		t.Errorf("%s: implications %q (once, folded from the line without a rank)", sources(lg), notes)
	}
	if e := lg.Processes[0]; e.NixlBackend != "UCX" {
		t.Errorf("NIXL's backend %q", e.NixlBackend)
	}
}

// TestSternNamespace: with -A or several namespaces stern puts the
// namespace before the pod and the container ("{{.Namespace}} {{.PodName}}
// {{.ContainerName}} {{.Message}}", stern's cmd/cmd.go, verified). The three
// names read as the pod's, as two do; they were read as no pod's, and every
// pod's lines fell into one process.
func TestSternNamespace(t *testing.T) {
	const using = "[TRT-LLM] [I] Using KvCacheTransceiverV2\n"
	checkCollected(t, []collected{
		{"two pods in two namespaces", "dynamo-prod trtllm-prefill-0 main " + using + "team-b trtllm-decode-0 main [TRT-LLM] [I] Starting TensorRT-LLM init.\n" +
			"team-b trtllm-decode-0 main Traceback (most recent call last):\n" +
			"team-b trtllm-decode-0 main ValueError: KvCacheTransceiverV2 requires a finite kv_transfer_timeout_ms\n",
			"pod/trtllm-prefill-0/main=PYTHON ;pod/trtllm-decode-0/main=ERROR ", ""},
		{"coloured, a timestamp", "\x1b[32mdefault\x1b[0m \x1b[32mtrtllm-decode-0\x1b[0m \x1b[34mmain\x1b[0m 2026-01-10T12:00:06.123456789Z " + using,
			"pod/trtllm-decode-0/main=PYTHON ", ""},
		// Three words that are not stern's stay no pod's.
		{"not stern's", "see this model [TRT-LLM] [RANK 0] [I] Using KvCacheTransceiverV2\n", "rank 0=PYTHON ", ""},
	})
}

// TestTwoServersOneKey: an sbatch job whose srun steps (a context and a
// generation server) write its one output without -l or --output, or
// kubectl logs -l without --prefix, puts two servers' lines under one key:
// rank 0 of each is "rank 0". A process builds one transceiver, so lines of
// both kinds under one key say so; the report said the last one's class
// alone, and a Python context server beside a C++ generation server (the
// disagreement operators come for) read as agreeing.
func TestTwoServersOneKey(t *testing.T) {
	const both = "[TRT-LLM] [RANK 0] [I] Using KvCacheTransceiverV2\n[TensorRT-LLM][RANK 0][INFO] UCX Connection Manager created\n"
	note := func(log string) []string {
		lg, _ := Parse("f.log", strings.NewReader(log))
		var got []string
		for _, p := range lg.Processes {
			for _, im := range p.Implications {
				if strings.Contains(im.Text, "a process builds one transceiver") {
					got = append(got, fmt.Sprintf("%s@%d", p.Source, im.Line))
				}
			}
		}
		return got
	}
	for _, c := range []struct{ name, log, want string }{
		{"one key, both kinds", both, "rank 0@2"},
		{"Python after C++", "[TensorRT-LLM][RANK 0][INFO] UCX Connection Manager created\n[TRT-LLM] [RANK 0] [I] Using KvCacheTransceiverV2\n", "rank 0@2"},
		// Lines before the rank, folded into it.
		{"folded", "[TRT-LLM] [I] Using KvCacheTransceiverV2\n[TensorRT-LLM][RANK 0][INFO] UCX Connection Manager created\n", "rank 0@2"},
		// One kind twice, or two keys: no note.
		{"one kind", "[TRT-LLM] [RANK 0] [I] Using KvCacheTransceiverV2\n[TRT-LLM] [RANK 0] [I] Using KvCacheTransceiverV2\n", ""},
		{"two keys", "0: [TRT-LLM] [RANK 0] [I] Using KvCacheTransceiverV2\n1: [TensorRT-LLM][RANK 0][INFO] UCX Connection Manager created\n", ""},
	} {
		if g := strings.Join(note(c.log), ","); g != c.want {
			t.Errorf("%s: note at %q, want %q", c.name, g, c.want)
		}
		if ref, _ := parseReference("f.log", strings.NewReader(c.log)); func() string { lg, _ := Parse("f.log", strings.NewReader(c.log)); return summary(t, lg) }() != summary(t, ref) {
			t.Errorf("%s: the reference parser reads it otherwise", c.name)
		}
	}
}

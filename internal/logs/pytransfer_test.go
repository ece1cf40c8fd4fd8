package logs

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"xcvr/resolver"
)

// findingsOf lists a process's findings as kind×count@line.
func findingsOf(p *Process) string {
	var fs []string
	for _, f := range p.Findings {
		fs = append(fs, fmt.Sprintf("%s×%d@%d", f.Kind, f.Count, f.Line))
	}
	return strings.Join(fs, ",")
}

// TestPyTransceiverRuntimeLines: the Python transceiver's own errors and
// warnings about its transfers (KvCacheTransceiverV2 in
// _torch/disaggregation/transceiver.py, its sender and receiver in
// native/transfer.py, PyNativeCacheTransceiver in py_cache_transceiver.py,
// the pure-Python NIXL agent), in the shapes TensorRT-LLM prints them
// (1.4's '[TRT-LLM] [RANK n] [E] …', 1.3's '[TRT-LLM] [E] [_torch  ] [RANK
// n] …'), are runtime findings of a process whose start-up went well: the
// outcome stays PYTHON and the log's verdict is not a failure.
func TestPyTransceiverRuntimeLines(t *testing.T) {
	const ts = "[12/05/2026-10:00:00] "
	for _, c := range []struct{ name, log, want string }{
		{"1.4 context worker", ts + "[TRT-LLM] [RANK 0] [I] Using KvCacheTransceiverV2\n" +
			"INFO:     Application startup complete.\n" +
			ts + "[TRT-LLM] [RANK 0] [E] KV transfer agent failed: unique_rid=2048 slice=0 peer_rank=0 peer_endpoint=tcp://10.0.0.2:40123 op=TransferOp.WRITE remote=b2c1e0d4-gen0 src_size=96 dst_size=96 nixl_status=NIXL_ERR_REMOTE_DISCONNECT agent=7f3a-ctx0\n" +
			ts + "[TRT-LLM] [RANK 0] [W] TxSession rid=2048 failed\n" +
			ts + "[TRT-LLM] [RANK 0] [W] TxSession rid=2049 timed out after 1000ms\n" +
			ts + "[TRT-LLM] [RANK 0] [W] TxSession rid=2049 exceeded kv_transfer_timeout_ms=1000ms; keeping it in progress\n" +
			ts + "[TRT-LLM] [RANK 0] [W] _deliver_kv_to_agent: session 2050 already in CANCELLED state; sending FAILED to receiver\n" +
			ts + "[TRT-LLM] [RANK 0] [E] _process_task_queue[0]: unhandled exception for unique_rid=2051: NIXL transfer failed: op=WRITE, remote=gen0\n" +
			ts + "[TRT-LLM] [RANK 0] [E] Sender: error handling REQUEST_DATA: Sender: peer endpoint is None; peer may not have registered yet\n",
			"PYTHON kv_transfer_failed×4@3,kv_transfer_wait_timeout×2@5,kv_transfer_cancelled×1@7"},
		{"1.3 generation worker", "[TRT-LLM] [I] [_torch  ] [RANK 0] Using KvCacheTransceiverV2\n" +
			"[TRT-LLM] [E] [_torch  ] [RANK 0] KV transfer failed for request 2048 slice=0 peer_rank=0 is_last_slice=True (reported by remote agent; see sender-side log for nixl_status)\n" +
			"[TRT-LLM] [W] [_torch  ] [RANK 0] Disagg gen transfer FAILED rank=0 rids=[2048] gen_need_sync=False\n" +
			"[TRT-LLM] [E] [_torch  ] [RANK 0] Receiver: error handling KV_AGENT_RESULT: unpack requires a buffer of 33 bytes\n" +
			"[TRT-LLM] [E] [_torch  ] [RANK 0] dispatch_task: context peer incompatible, failing request unique_rid=2052: context peer at 'tcp://10.0.0.1:40001' is incompatible: tokens_per_block differs (32 vs 64)\n",
			"PYTHON kv_transfer_failed×3@2,kv_cache_mismatch×1@5"},
		{"1.3.0rc8's PyNativeCacheTransceiver", "[TRT-LLM] [RANK 1] [I] Using PyNativeCacheTransceiver\n" +
			"[TRT-LLM] [RANK 1] [W] TxSession 7 timed out waiting for completion\n" +
			"[TRT-LLM] [RANK 1] [W] TxSession 7 failed to complete\n",
			"PYTHON kv_transfer_wait_timeout×1@2,kv_transfer_failed×1@3"},
		{"the pure-Python NIXL agent", "[TRT-LLM] [RANK 0] [I] Using KvCacheTransceiverV2\n" +
			"[TRT-LLM] [RANK 0] [E] NIXL transfer entered ERROR state (agent=ctx0).\n" +
			"[TRT-LLM] [RANK 0] [W] NIXL transfer wait timed out after 5000 ms.\n",
			"PYTHON kv_transfer_failed×1@2,kv_transfer_timeout×1@3"},
		// Not findings: the same errors at another level, the session
		// lines that say nothing of a transfer, an ERROR-state session.
		{"look-alikes", "[TRT-LLM] [RANK 0] [I] Using KvCacheTransceiverV2\n" +
			"[TRT-LLM] [RANK 0] [I] KV transfer agent failed: unique_rid=1\n" +
			"[TRT-LLM] [RANK 0] [W] TxSession 5 has been garbage collected\n" +
			"[TRT-LLM] [RANK 0] [W] TxSession.__del__: exception during close: x\n" +
			"[TRT-LLM] [RANK 0] [W] TxSession rid=5 failed badly\n" +
			"[TRT-LLM] [RANK 0] [W] dispatch_task: context peer incompatible, failing request unique_rid=1: x\n" +
			"[TRT-LLM] [RANK 0] [W] _deliver_kv_to_agent: session 9 already in ERROR state; sending FAILED to receiver\n",
			"PYTHON kv_transfer_failed×1@7"},
	} {
		lg, err := Parse("f.log", strings.NewReader(c.log))
		if err != nil || len(lg.Processes) != 1 {
			t.Fatalf("%s: %v %s", c.name, err, sources(lg))
		}
		p := lg.Processes[0]
		if g := string(p.Outcome()) + " " + findingsOf(p); g != c.want {
			t.Errorf("%s: %s, want %s", c.name, g, c.want)
		}
		if v := Judge(lg, nil, true); v.Exit() != 0 || lg.Failed() {
			t.Errorf("%s: exit %d, %s", c.name, v.Exit(), v.Summary())
		}
		if strings.Contains(c.name, "generation") && (len(p.Implications) != 1 || !strings.Contains(p.Implications[0].Text, "Python transceiver refuses its context peer")) {
			t.Errorf("%s: implications %+v", c.name, p.Implications)
		}
	}
}

// TestPyTransceiverStartupCheck: KvCacheTransceiverV2's own check at
// construction ('raise ValueError(f"KvCacheTransceiverV2: _check_compatible:
// only support context parallelism is 1: …")', transceiver.py, verified) is
// how start-up ended, not a finding.
func TestPyTransceiverStartupCheck(t *testing.T) {
	lg, _ := Parse("f.log", strings.NewReader("[TRT-LLM] [RANK 0] [E] Failed to initialize executor on rank 0: KvCacheTransceiverV2: _check_compatible: only support context parallelism is 1: cp_size: 2\n"+
		"Traceback (most recent call last):\n  File \"/usr/local/lib/python3.12/dist-packages/tensorrt_llm/_torch/disaggregation/transceiver.py\", line 74, in __init__\n    self._check_compatible()\n"+
		"ValueError: KvCacheTransceiverV2: _check_compatible: only support context parallelism is 1: cp_size: 2\n"))
	p := lg.Processes[0]
	if p.Outcome() != resolver.OutcomeError || len(p.Findings) != 0 || !strings.Contains(p.Error, "only support context parallelism is 1") {
		t.Errorf("%s %q %+v", p.Outcome(), p.Error, p.Findings)
	}
}

// TestDynamoWorkerEngineUp: a Dynamo TensorRT-LLM worker (python3 -m
// dynamo.trtllm) starts no uvicorn; its "Set runtime config max_num_seqs: N"
// (logged once TensorRT-LLM's LLM, executor and transceiver included, is
// built: components/src/dynamo/trtllm) says start-up was over, as uvicorn's
// line does for trtllm-serve: an exception after it is a runtime error, a
// crash a process_crashed finding. Before it, or in look-alikes, an
// exception is still how start-up ended.
func TestDynamoWorkerEngineUp(t *testing.T) {
	const ts = "2026-01-10T12:00:09.500Z  "
	const up = ts + "INFO llm_worker.init_llm_worker: Set runtime config max_num_seqs: 256   \n"
	const xcvr = "[01/10/2026-12:00:05] [TRT-LLM] [I] Using KvCacheTransceiverV2\n"
	const exc = "Traceback (most recent call last):\n  File \"/x/handler_base.py\", line 1, in generate\nRuntimeError: request 7 failed\n"
	for _, c := range []struct{ name, log, want string }{
		{"after the engine was built", xcvr + up + ts + "INFO llm_worker.init_llm_worker: Set runtime config max_num_batched_tokens: 8192\n" + exc,
			"PYTHON runtime_error"},
		{"an older worker's main.init", xcvr + ts + "INFO main.init: Set runtime config max_num_seqs: 64\n" + exc, "PYTHON runtime_error"},
		{"no timestamp, srun's label", "0: " + xcvr + "0: INFO main.init: Set runtime config max_num_seqs: 64\n0: RuntimeError: request 7 failed\n", "PYTHON runtime_error"},
		{"a crash after", xcvr + up + "!!!!!!! Segfault encountered !!!!!!!\n", "PYTHON process_crashed"},
		{"before the engine was built", xcvr + exc + up, "ERROR"},
		{"not at INFO", xcvr + ts + "DEBUG main.init: Set runtime config max_num_seqs: 64\n" + exc, "ERROR"},
		{"not the message", xcvr + ts + "INFO main.init: Set runtime config max_num_seqs: 64 (from engine)\n" + ts + "INFO x: y Set runtime config max_num_seqs: x\n" + exc, "ERROR"},
	} {
		lg, _ := Parse("f.log", strings.NewReader(c.log))
		if len(lg.Processes) != 1 {
			t.Fatalf("%s: %s", c.name, sources(lg))
		}
		p := lg.Processes[0]
		kinds := findingKinds(p)
		if g := strings.TrimSpace(string(p.Outcome()) + " " + kinds); g != c.want {
			t.Errorf("%s: %s, want %s", c.name, g, c.want)
		}
	}
}

// TestDynamoJSONL: a Dynamo worker run with DYN_LOGGING_JSONL=1 prints each
// log record as a JSON object ({"time":…,"level":…,"file":…,"line":…,
// "target":…,"message":…}, ai-dynamo/dynamo lib/runtime/src/logging.rs);
// TensorRT-LLM's "[TRT-LLM] …" lines are the message (its logger
// propagates to the root logger, whose handler Dynamo replaces). They are
// read as Dynamo's readable lines are: the transceiver's line, the worker's
// "Set runtime config max_num_seqs: N" (start-up over), in docker's
// json-file records too. Such a log read "No line of this log is
// TensorRT-LLM's".
func TestDynamoJSONL(t *testing.T) {
	// TensorRT-LLM prints its version line with print(): it stays plain.
	const xcvr = "[TensorRT-LLM] TensorRT-LLM version: 1.1.0\n" + `{"time":"2026-01-10T12:00:05.000000Z","level":"INFO","file":"/x/py_executor_creator.py","line":3,"target":"py_executor_creator.create_py_executor","message":"[TRT-LLM] [I] Using KvCacheTransceiverV2"}` + "\n"
	const up = `{"time":"2026-01-10T12:00:09.500000Z","level":"INFO","file":"/x/llm_worker.py","line":99,"target":"llm_worker.init_llm_worker","message":"Set runtime config max_num_seqs: 256"}` + "\n"
	const exc = "Traceback (most recent call last):\n  File \"/x/handler_base.py\", line 1, in generate\nRuntimeError: request 7 failed\n"
	docker := func(s string) string {
		var b strings.Builder
		for _, l := range strings.SplitAfter(s, "\n") {
			if l != "" {
				v, _ := json.Marshal(l)
				b.WriteString(`{"log":` + string(v) + `,"stream":"stderr","time":"2026-01-10T12:00:09.5Z"}` + "\n")
			}
		}
		return b.String()
	}
	for _, c := range []struct{ name, log, want string }{
		{"bare", xcvr + up + exc, "PYTHON runtime_error"},
		{"in docker's records", docker(xcvr + up + exc), "PYTHON runtime_error"},
		{"before the engine was built", xcvr + exc + up, "ERROR"},
		{"a WARN record", strings.Replace(xcvr, `"INFO"`, `"WARN"`, 1) + up, "PYTHON"},
	} {
		lg, _ := Parse("f.log", strings.NewReader(c.log))
		if len(lg.Processes) != 1 {
			t.Fatalf("%s: %s", c.name, sources(lg))
		}
		p := lg.Processes[0]
		g := string(p.Outcome())
		for _, f := range p.Findings {
			g += " " + f.Kind
		}
		if g != c.want {
			t.Errorf("%s: %s, want %s", c.name, g, c.want)
		}
	}
	// Not a record of Dynamo's: fields out of order, a message that is no
	// string.
	for _, l := range []string{
		`{"time":"t","target":"x","level":"INFO","message":"[TRT-LLM] [I] Using UCX kv-cache transceiver."}`,
		`{"time":"t","level":"INFO","target":"x","message":["[TRT-LLM] [I] Using UCX kv-cache transceiver."]}`,
	} {
		if lg, _ := Parse("f.log", strings.NewReader(l+"\n")); len(lg.Processes) != 0 {
			t.Errorf("%s: read as %s", l, sources(lg))
		}
	}
}

// TestDynamoEngineUpVerdict: a Dynamo worker whose start-up was over (its
// "Set runtime config max_num_seqs: N") but that shows no transceiver line
// is said to have set up its engine, not to have had its server come up: a
// Dynamo worker starts no uvicorn. trtllm-serve's still reads "the server
// came up".
func TestDynamoEngineUpVerdict(t *testing.T) {
	const warn = "[01/10/2026-12:00:05] [TRT-LLM] [W] Logger level already set from environment.\n"
	for _, c := range []struct{ name, log, want string }{
		{"Dynamo", warn + "2026-01-10T12:00:09.500Z  INFO llm_worker.init_llm_worker: Set runtime config max_num_seqs: 256\n",
			"though the Dynamo worker set up its engine (line 2): start-up was over"},
		{"Dynamo's JSONL", warn + `{"time":"2026-01-10T12:00:09.500000Z","level":"INFO","target":"main.init","message":"Set runtime config max_num_seqs: 64"}` + "\n",
			"though the Dynamo worker set up its engine (line 2): start-up was over"},
		{"trtllm-serve", warn + "INFO:     Application startup complete.\n", "though the server came up (line 2): start-up was over"},
	} {
		lg, _ := Parse("f.log", strings.NewReader(c.log))
		v := Judge(lg, nil, true)
		if s := v.Summary(); v.Status != StatusNotShown || !strings.Contains(s, c.want) {
			t.Errorf("%s: %s %q, want %q", c.name, v.Status, s, c.want)
		}
	}
}

// TestExceptionLoggedAtError: an exception a handler caught and logged at
// ERROR, its title the message behind the logging prefix (Dynamo's readable
// "<time> ERROR module.function: ", the target its LogHandler gives,
// ai-dynamo/dynamo lib/bindings/python/src/dynamo/runtime/logging.py;
// logging's basic "ERROR:name:"), is a runtime_error of its process once
// start-up was over; before that it changes nothing. An exception named
// inside a message, or at another level, is not read.
func TestExceptionLoggedAtError(t *testing.T) {
	const ts = "2026-01-10T12:00:09.500Z  "
	const xcvr = "[01/10/2026-12:00:05] [TRT-LLM] [I] Using KvCacheTransceiverV2\n"
	const up = ts + "INFO llm_worker.init_llm_worker: Set runtime config max_num_seqs: 256\n"
	const logged = "2026-01-10T12:00:11.123Z ERROR handler_base._generate_locally_impl: RuntimeError: Cannot assign cache transfer buffer kind=kv\n"
	for _, c := range []struct{ name, log, want, text string }{
		{"Dynamo, after its engine was set up", xcvr + up + logged, "PYTHON runtime_error", "RuntimeError: Cannot assign cache transfer buffer kind=kv"},
		{"basic format, after the server came up", xcvr + "INFO:     Application startup complete.\n" + "ERROR:dynamo.trtllm:KeyError: 'disaggregated_params'\n",
			"PYTHON runtime_error", "KeyError: 'disaggregated_params'"},
		{"after the executor's loop ran", "0: [TRT-LLM] [RANK 0] [I] Using KvCacheTransceiverV2\n0: [TRT-LLM] [RANK 0] [I] iter = 1, global_rank = 0, rank = 0\n" +
			"0: [2025-11-18 09:33:24] ERROR worker.py:88: ValueError: bad request\n", "PYTHON runtime_error", "ValueError: bad request"},
		{"before start-up was over", xcvr + logged + up, "PYTHON", ""},
		{"named inside a message", xcvr + up + ts + "ERROR handler_base.generate: Request 7 failed: RuntimeError: boom\n", "PYTHON", ""},
		{"at WARNING", xcvr + up + ts + "WARNING handler_base.generate: RuntimeError: boom\n", "PYTHON", ""},
		{"ERROR past 64 bytes", xcvr + up + strings.Repeat("x", 64) + " ERROR handler_base.generate: RuntimeError: boom\n", "PYTHON", ""},
		// handler_base's fatal line (logging.error(f"Fatal {error_type} in
		// request {request_id}: {error_msg}", exc_info=True)): its title is
		// read from the traceback under it, once.
		{"Dynamo's fatal line and traceback", xcvr + up + ts + "ERROR handler_base._generate_locally_impl: Fatal RuntimeError in request 7: boom\n" +
			"Traceback (most recent call last):\n  File \"/x/handler_base.py\", line 1, in _generate_locally_impl\nRuntimeError: boom\n", "PYTHON runtime_error", "RuntimeError: boom"},
	} {
		lg, _ := Parse("f.log", strings.NewReader(c.log))
		if len(lg.Processes) != 1 {
			t.Fatalf("%s: %s", c.name, sources(lg))
		}
		p := lg.Processes[0]
		g, text := string(p.Outcome()), ""
		for _, f := range p.Findings {
			g += " " + f.Kind
			text = f.Text
			if f.Count != 1 {
				t.Errorf("%s: %s counted %d", c.name, f.Kind, f.Count)
			}
		}
		if g != c.want || text != c.text {
			t.Errorf("%s: %s %q, want %s %q", c.name, g, text, c.want, c.text)
		}
	}
	for in, want := range map[string]int{
		"ERROR handler_base.generate: RuntimeError: x": 29, "ERROR:dynamo.trtllm:KeyError: 'x'": 20,
		"2024-11-22 04:51:14,882 - x.py - dynamo - ERROR - ValueError: x": 50, "ERROR 03-20 10:42:24 x.py:1] ValueError: x": 29,
		"INFO x: RuntimeError: x": -1, "ERROR:a b:KeyError: x": -1, strings.Repeat("x", 64) + " ERROR x: ValueError: x": -1,
	} {
		if g, b := loggedMessage(in), loggedMessage([]byte(in)); g != want || b != want {
			t.Errorf("loggedMessage(%q) = %d, %d, want %d", in, g, b, want)
		}
	}
}

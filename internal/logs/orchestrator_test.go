package logs

import (
	"strings"
	"testing"
)

// TestOrchestratorWait: the trtllm-serve disaggregated orchestrator's wait
// for its workers, in the words of openai_disagg_server.py (each release's
// "[iter] Servers are not ready. Waiting for [...]...") and of the
// disaggregated service after it ("Waiting for servers, context: [...],
// generation: [...]", "All servers are ready"). Its TimeoutError is the
// orchestrator giving up, not a process that failed to start: before, the
// orchestrator's log read "Start-up failed: process".
func TestOrchestratorWait(t *testing.T) {
	for _, c := range []struct {
		name, log                string
		waiting                  string
		waitingLine, ready, gave int
		summary                  string
	}{
		{"gave up", "[TRT-LLM] [I] Waiting for context and generation servers to be ready\n" +
			"[TRT-LLM] [I] [0] Servers are not ready. Waiting for ['http://ctx-0:8001', 'http://gen-0:8002']...\n" +
			"[TRT-LLM] [I] [1] Servers are not ready. Waiting for ['http://gen-0:8002']...\n" +
			"Traceback (most recent call last):\n" +
			"  File \"/usr/local/lib/python3.12/dist-packages/tensorrt_llm/serve/openai_disagg_server.py\", line 580, in wait_for_all_servers_ready\n" +
			"    raise TimeoutError(\"Timeout waiting for context and generation servers to be ready\")\n" +
			"TimeoutError: Timeout waiting for context and generation servers to be ready\n",
			"['http://gen-0:8002']", 3, 0, 7, "It gave up at line 7 (TimeoutError: Timeout waiting for context and generation servers to be ready, after its server_start_timeout): a worker it waited for (line 3: ['http://gen-0:8002']) did not come up"},
		{"ready, newer service", "[TRT-LLM] [I] Waiting for context and generation servers to be ready\n" +
			"[TRT-LLM] [I] Waiting for servers, context: ['ctx-0:8001'], generation: []\n" +
			"[TRT-LLM] [I] All servers are ready\n",
			"", 0, 3, 0, "Every server was ready at line 3."},
		{"still waiting, 1.3 module tag", "[TRT-LLM] [I] [serve   ] [4] Servers are not ready. Waiting for ['http://gen-0:8002']...\n",
			"['http://gen-0:8002']", 1, 0, 0, "When the log ends it is still waiting for servers (line 1: ['http://gen-0:8002'])."},
		// "All servers are ready" alone is no orchestrator's word.
		{"not the orchestrator", "[TRT-LLM] [I] All servers are ready\n[TRT-LLM] [I] Using KvCacheTransceiverV2\n", "", 0, 0, 0, ""},
	} {
		lg, err := Parse("o.log", strings.NewReader(c.log))
		if err != nil {
			t.Fatal(err)
		}
		if lg.Waiting != c.waiting || lg.WaitingLine != c.waitingLine || lg.Ready != c.ready || lg.TimedOut != c.gave {
			t.Errorf("%s: waiting %q at %d, ready %d, gave up %d; want %q at %d, %d, %d", c.name, lg.Waiting, lg.WaitingLine, lg.Ready, lg.TimedOut, c.waiting, c.waitingLine, c.ready, c.gave)
		}
		v := Judge(lg, nil, true)
		if c.summary == "" {
			if v.Status == StatusOrchestrator {
				t.Errorf("%s: read as the orchestrator's log", c.name)
			}
			continue
		}
		if v.Status != StatusOrchestrator || !strings.Contains(v.Summary(), c.summary) {
			t.Errorf("%s: %s: %s\nwant it to say %q", c.name, v.Status, v.Summary(), c.summary)
		}
		for _, p := range lg.Processes {
			if p.Error != "" {
				t.Errorf("%s: the orchestrator's timeout made a failed process %s: %s", c.name, p.Source, p.Error)
			}
		}
	}
}

// TestCauseSaidOnce: a failure whose cause its own line ends with
// ("Failed to initialize executor on rank 0: CUDA out of memory …", a
// docker compose container's OOM) shows the cause once, on the summary line;
// a cause on the lines under the failure keeps its own line.
func TestCauseSaidOnce(t *testing.T) {
	for _, c := range []struct {
		log       string
		causeLine bool
	}{
		{"[TRT-LLM] [RANK 0] [E] Failed to initialize executor on rank 0: CUDA out of memory. Tried to allocate 136.00 MiB.\n", false},
		{"[TRT-LLM] [RANK 0] [E] Failed to initialize executor on rank 0:\n    NIXL agent creation failed: no UCX transport\n", true},
	} {
		lg, err := Parse("f.log", strings.NewReader(c.log))
		if err != nil || len(lg.Processes) != 1 || lg.Processes[0].Cause == "" {
			t.Fatalf("%q: %v %+v", c.log, err, lg.Processes)
		}
		detail := strings.Join(ProcessDetail(lg.Processes[0]), "\n")
		if got := strings.Contains(detail, "cause: "); got != c.causeLine {
			t.Errorf("%q: a cause: line %v, want %v\n%s", c.log, got, c.causeLine, detail)
		}
	}
}

// TestOrchestratorOwnFindings: the orchestrator's router says each worker it
// prepared ("server is ready with info: {…}", router.py), and once it serves,
// its request handler logs what failed ("Internal server error:  Traceback …",
// openai_disagg_server.py). Such a log is the orchestrator's: its own process
// is not judged as a worker that shows no transceiver ("the server came up"
// but no line says what was built), and its failures are said in its summary.
// A process of the same log that shows a worker's lines is still judged.
func TestOrchestratorOwnFindings(t *testing.T) {
	const router = "[05/19/2026-14:25:00] [TRT-LLM] [I] [serve   ] server is ready with info: {'disaggregated_params': {'ctx_dp_rank': 0}}\n"
	const failed = "[05/19/2026-14:25:00] [TRT-LLM] [I] [serve   ] All servers are ready\n" +
		"INFO:     Application startup complete.\n" +
		"[05/19/2026-14:25:08] [TRT-LLM] [E] [serve   ] Internal server error:  Traceback (most recent call last):\n" +
		"  File \"/x/tensorrt_llm/serve/openai_disagg_service.py\", line 511, in _verify_ctx_response\n" +
		"    raise ValueError(\n" +
		"ValueError: Context server returned 4 choices, expecting 1.\n"
	for _, c := range []struct {
		name, log      string
		status         Status
		summary, short string
	}{
		{"router, then a request's failure", router + failed, StatusOrchestrator,
			"Every server was ready at line 2. The orchestrator itself logged 1× runtime error, first at line 7: ValueError: Context server returned 4 choices, expecting 1.",
			"the orchestrator: every server ready (line 2); it logged 1× runtime error (line 7)"},
		{"the router's line alone", router, StatusOrchestrator, "This is the trtllm-serve disaggregated orchestrator's log (line 1)", "the orchestrator (line 1): its workers' logs decide"},
		// After other INFO lines of its process, past the lines a chunk
		// passes on whatever they say: the scanner passes it on.
		{"the router's line after others", strings.Repeat("[TRT-LLM] [I] [serve   ] x\n", excWindow+4) + router, StatusOrchestrator,
			"This is the trtllm-serve disaggregated orchestrator's log (line 46)", "the orchestrator (line 46): its workers' logs decide"},
		// A worker's transceiver in the same stream is judged as before.
		{"a worker beside it", router + "[TRT-LLM] [I] Using KvCacheTransceiverV2\n", StatusShown, "", ""},
		// Without an orchestrator line the same failure is a worker's, whose
		// server came up.
		{"no orchestrator line", "[TRT-LLM] [I] Using LLM with PyTorch backend\n" + failed, StatusNotShown, "though the server came up", ""},
	} {
		lg, err := Parse("o.log", strings.NewReader(c.log))
		if err != nil {
			t.Fatal(err)
		}
		v := Judge(lg, nil, true)
		if v.Status != c.status || !strings.Contains(v.Summary(), c.summary) {
			t.Errorf("%s: %s: %s\nwant %s saying %q", c.name, v.Status, v.Summary(), c.status, c.summary)
		}
		if got := OrchestratorShort(lg); got != c.short {
			t.Errorf("%s: short %q, want %q", c.name, got, c.short)
		}
		var b strings.Builder
		r := NewJSONReport(&b)
		r.Add(v, Prediction{})
		_ = r.Finish()
		if want := `"status": "` + string(StatusOrchestrator) + `"`; (c.status == StatusOrchestrator && len(lg.Processes) > 0) != strings.Contains(b.String(), want) {
			t.Errorf("%s: JSON %s", c.name, b.String())
		}
	}
}

// TestOrchestratorSharedStream: trtllm-serve disaggregated and its workers
// started by one script (or in one container) write one stream. The
// orchestrator sets no rank; a TP=1 worker of 1.0–1.2 prints none either
// (its lines and the orchestrator's are one key), one of 1.3 prints
// "[RANK 0]". A worker's exception under PyExecutor's loop is the worker's,
// never the orchestrator's (which runs no executor), and the orchestrator's
// own request failure beside one rank stays the orchestrator's, not folded
// into that rank as the rank's early lines would be. What the orchestrator
// logged is said beside the workers' verdict.
func TestOrchestratorSharedStream(t *testing.T) {
	const loopErr = "Traceback (most recent call last):\n" +
		"  File \"/usr/local/lib/python3.12/dist-packages/tensorrt_llm/_torch/pyexecutor/py_executor.py\", line 283, in _event_loop_wrapper\n" +
		"    self.event_loop()\n" +
		"RuntimeError: CUDA error: an illegal memory access was encountered\n"
	const handlerErr = "[TRT-LLM] [E] [serve   ] Internal server error:  Traceback (most recent call last):\n" +
		"  File \"/x/tensorrt_llm/serve/openai_disagg_service.py\", line 511, in _verify_ctx_response\n" +
		"    raise ValueError(\n" +
		"ValueError: Context server returned 4 choices, expecting 1.\n"
	for _, c := range []struct {
		name, log string
		want      string // source=status:findings of each judged process
		summary   []string
		not       string
	}{
		{"1.1, TP=1: one key", "[08/20/2025-10:00:01] [TRT-LLM] [I] Waiting for context and generation servers to be ready\n" +
			"[08/20/2025-10:02:01] [TRT-LLM] [I] All servers are ready\n" +
			"INFO:     Application startup complete.\n" +
			"[08/20/2025-10:05:00] [TRT-LLM] [E] Error in event loop: CUDA error: an illegal memory access was encountered\n" + loopErr,
			"process=not shown:runtime_error", []string{"orchestrator's lines are in this log too (line 1). Every server was ready at line 2."}, "orchestrator itself"},
		{"1.3: the worker's rank", "[TRT-LLM] [I] [serve   ] server is ready with info: {'disaggregated_params': {}}\n" +
			"[TRT-LLM] [I] [serve   ] All servers are ready\n" +
			"[TRT-LLM] [E] [executor] [RANK 0] Error in event loop: CUDA error: an illegal memory access was encountered\n" + loopErr,
			"rank 0=not shown:runtime_error", []string{"orchestrator's lines are in this log too (line 1)"}, "orchestrator itself"},
		{"1.3: the orchestrator's failure beside a rank", "[TRT-LLM] [I] [_torch  ] [RANK 0] Using KvCacheTransceiverV2\n" +
			"[TRT-LLM] [I] [serve   ] server is ready with info: {'disaggregated_params': {}}\n" +
			"[TRT-LLM] [I] [serve   ] All servers are ready\n" + "INFO:     Application startup complete.\n" + handlerErr,
			"rank 0=shown:", []string{"The orchestrator itself logged 1× runtime error, first at line 8: ValueError: Context server returned 4 choices"}, ""},
	} {
		lg, err := Parse("o.log", strings.NewReader(c.log))
		if err != nil {
			t.Fatal(err)
		}
		v := Judge(lg, nil, true)
		var got []string
		for _, pv := range v.Processes {
			var ks []string
			for _, f := range pv.Process.Findings {
				ks = append(ks, f.Kind)
			}
			got = append(got, pv.Process.Source+"="+string(pv.Status)+":"+strings.Join(ks, ","))
		}
		if strings.Join(got, " ") != c.want {
			t.Errorf("%s: judged %q, want %q", c.name, got, c.want)
		}
		s := v.Summary()
		for _, w := range c.summary {
			if !strings.Contains(s, w) {
				t.Errorf("%s: summary %q, want %q in it", c.name, s, w)
			}
		}
		if c.not != "" && strings.Contains(s, c.not) {
			t.Errorf("%s: summary %q says %q", c.name, s, c.not)
		}
	}
}

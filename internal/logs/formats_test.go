package logs

import (
	"encoding/json"
	"math/rand/v2"
	"strings"
	"testing"

	"xcvr/resolver"
)

// TestLineFormats: one line in each shape TensorRT-LLM's loggers and the
// launchers in front of them print (written by us, in those shapes), and what
// xcvr reads from it: the process, the level and what the line shows.
func TestLineFormats(t *testing.T) {
	const v2 = "Using KvCacheTransceiverV2"
	cases := []struct {
		name, line     string
		source, level  string
		outcome, back  string
		nixlBack, errs string
	}{
		// Python logger, releases 1.0 to 1.2: rank before the level.
		{"1.0-1.2 ranked", "[09/12/2026-14:02:05] [TRT-LLM] [RANK 0] [I] " + v2, "rank 0", "INFO", "PYTHON", "NIXL", "", ""},
		{"old MPI_Rank", "[TRT-LLM] [MPI_Rank 1] [I] " + v2, "rank 1", "INFO", "PYTHON", "NIXL", "", ""},
		{"one process", "[TRT-LLM] [I] cache_transceiver is disabled", "process", "INFO", "DISABLED", "", "", ""},
		// 1.3: module tag after the level, the rank after the module or the level.
		{"1.3 module", "[TRT-LLM] [I] [_torch  ] " + v2, "process", "INFO", "PYTHON", "NIXL", "", ""},
		{"1.3 module then rank", "[TRT-LLM] [I] [executor] [RANK 0] NixlTransferAgent::NixlTransferAgent using NIXL backend: UCX", "rank 0", "INFO", "", "NIXL", "UCX", ""},
		{"1.3 rank after level", "[TRT-LLM] [W] [RANK 2] MPI CacheTransceiver is deprecated, UCX or NIXL is recommended", "rank 2", "WARNING", "", "MPI", "", ""},
		{"1.3 rank before level", "[11/18/2026-09:33:30] [TRT-LLM] [RANK 0] [E] Failed to initialize executor on rank 0: [TensorRT-LLM][ERROR] Assertion failed: status == NIXL_SUCCESS", "rank 0", "ERROR", "ERROR", "", "", "Failed to initialize executor on rank 0"},
		// The C++ logger.
		{"C++", "[TensorRT-LLM][INFO] NixlTransferAgent::NixlTransferAgent using NIXL backend: LIBFABRIC", "process", "INFO", "", "NIXL", "LIBFABRIC", ""},
		{"C++ executor, no transceiver", "[TensorRT-LLM][INFO] CacheTransceiver is disabled.", "process", "INFO", "DISABLED", "", "", ""},
		{"C++ ranked", "[TensorRT-LLM][RANK 3][INFO] Using UCX kv-cache transceiver. If your devices are not in the same domain", "rank 3", "INFO", "", "UCX", "", ""},
		// Launchers.
		{"srun -l", "3: [09/12/2026-14:02:05] [TRT-LLM] [RANK 3] [I] " + v2, "srun task 3", "INFO", "PYTHON", "NIXL", "", ""},
		{"srun -l padded", " 3: [TRT-LLM] [RANK 3] [I] " + v2, "srun task 3", "INFO", "PYTHON", "NIXL", "", ""},
		{"mpirun", "[1,3]<stdout>:[TRT-LLM] [RANK 3] [I] " + v2, "mpirun [1,3]", "INFO", "PYTHON", "NIXL", "", ""},
		{"kubectl --prefix", "[pod/ctx-0/trtllm] [TRT-LLM] [I] [_torch  ] [RANK 1] " + v2, "pod/ctx-0/trtllm rank 1", "INFO", "PYTHON", "NIXL", "", ""},
		{"kubectl --prefix --timestamps", "[pod/ctx-0/trtllm] 2026-09-12T14:02:05.123456789Z [TRT-LLM] [I] " + v2, "pod/ctx-0/trtllm", "INFO", "PYTHON", "NIXL", "", ""},
		{"docker compose", "ctx-1  | [12/01/2025-10:00:09] [TRT-LLM] [I] " + v2, "ctx-1", "INFO", "PYTHON", "NIXL", "", ""},
		{"docker compose, ranks in the container", "gen-2  | [TRT-LLM] [RANK 1] [I] " + v2, "gen-2 rank 1", "INFO", "PYTHON", "NIXL", "", ""},
		{"docker compose v1", "disagg_ctx_1   | [TensorRT-LLM][INFO] NixlTransferAgent::NixlTransferAgent using NIXL backend: UCX", "disagg_ctx_1", "INFO", "", "NIXL", "UCX", ""},
		{"docker compose logs -t", "ctx-1  | 2025-12-01T10:00:09.123456789Z [TRT-LLM] [I] " + v2, "ctx-1", "INFO", "PYTHON", "NIXL", "", ""},
		// A replica's service after a slash (TensorRT-LLM issue #12694's
		// 2P1D deployment: "replica-0/engine-prefill       | ").
		{"a replica's service", "replica-0/engine-prefill       | [TRT-LLM] [RANK 1] [I] " + v2, "replica-0/engine-prefill rank 1", "INFO", "PYTHON", "NIXL", "", ""},
		{"docker compose, colour", "\x1b[36mctx-1  | \x1b[0m[TRT-LLM] [I] " + v2, "ctx-1", "INFO", "PYTHON", "NIXL", "", ""},
		{"Python transceiver's agent over the C++ binding", "[TRT-LLM] [I] [_torch  ] [RANK 0] BindingsNixlTransferAgent init: agent=ctx_0 use_prog_thread=True num_threads=1 enable_telemetry=False backend_params={'num_threads': '1'} agent_buffer_size_mb=0 agent_bounce_params={} UCX_TLS=<unset> UCX_LOG_LEVEL=<unset>", "rank 0", "INFO", "", "NIXL", "", ""},
		{"Ray orchestrator's worker", "(RayWorkerWrapper pid=81234) [TRT-LLM] [RANK 1] [I] " + v2, "RayWorkerWrapper pid=81234 rank 1", "INFO", "PYTHON", "NIXL", "", ""},
		{"Ray worker on another node", "(RayWorkerWrapper pid=81234, ip=10.0.0.2) [TensorRT-LLM][INFO] NixlTransferAgent::NixlTransferAgent using NIXL backend: UCX", "RayWorkerWrapper pid=81234, ip=10.0.0.2", "INFO", "", "NIXL", "UCX", ""},
		{"Ray task", "(pid=4711) [TRT-LLM] [I] " + v2, "pid=4711", "INFO", "PYTHON", "NIXL", "", ""},
		{"Ray worker named by its repr", "(RayWorkerWrapper[rank=1] pid=81234, ip=10.0.0.2) [TRT-LLM] [I] " + v2, "RayWorkerWrapper pid=81234, ip=10.0.0.2 rank 1", "INFO", "PYTHON", "NIXL", "", ""},
		{"Ray worker behind its driver", "(ServeReplica:default:TRTLLM pid=1670) (RayWorkerWrapper pid=2012, ip=10.0.0.3) [TRT-LLM] [RANK 1] [I] " + v2,
			"ServeReplica:default:TRTLLM pid=1670 / RayWorkerWrapper pid=2012, ip=10.0.0.3 rank 1", "INFO", "PYTHON", "NIXL", "", ""},
		{"torchrun --tee", "[default1]:[TRT-LLM] [I] " + v2, "rank 1", "INFO", "PYTHON", "NIXL", "", ""},
		{"docker's json-file log", `{"log":"[12/01/2025-10:00:09] [TRT-LLM] [RANK 0] [I] ` + v2 + `\n","stream":"stdout","time":"2025-12-01T10:00:09.123456789Z"}`, "rank 0", "INFO", "PYTHON", "NIXL", "", ""},
		{"docker's json-file log, colour and quotes escaped", `{"log":"\u001b[31m[TRT-LLM] [E] Failed to initialize executor on rank 0: \"NIXL\" agent\u001b[0m\n","stream":"stderr","time":"2025-12-01T10:00:09Z"}`, "process", "ERROR", "ERROR", "", "", `Failed to initialize executor on rank 0: "NIXL" agent`},
		{"stern", "trtllm-ctx-0 main [TRT-LLM] [RANK 1] [I] " + v2, "pod/trtllm-ctx-0/main rank 1", "INFO", "PYTHON", "NIXL", "", ""},
		{"stern -o json", `{"message":"[TRT-LLM] [RANK 1] [I] ` + v2 + `","nodeName":"gpu-1","namespace":"dynamo","podName":"trtllm-ctx-0","containerName":"main"}`, "pod/trtllm-ctx-0/main rank 1", "INFO", "PYTHON", "NIXL", "", ""},
		{"stern -o extjson", `{"pod": "trtllm-ctx-0", "container": "main", "message": "[TRT-LLM] [I] ` + v2 + `"}`, "pod/trtllm-ctx-0/main", "INFO", "PYTHON", "NIXL", "", ""},
		{"stern -A", "dynamo-system trtllm-ctx-0 main [TRT-LLM] [RANK 1] [I] " + v2, "pod/trtllm-ctx-0/main rank 1", "INFO", "PYTHON", "NIXL", "", ""},
		{"stern --timestamps", "trtllm-gen-7d9f5.x main 2025-12-01T10:00:09.123456789Z [TRT-LLM] [I] " + v2, "pod/trtllm-gen-7d9f5.x/main", "INFO", "PYTHON", "NIXL", "", ""},
		{"stern, the C++ logger", "trtllm-ctx-0 worker [12/01/2025-10:00:09] [TensorRT-LLM][INFO] NixlTransferAgent::NixlTransferAgent using NIXL backend: UCX", "pod/trtllm-ctx-0/worker", "INFO", "", "NIXL", "UCX", ""},
		{"journalctl", "Dec 04 21:00:09 gpu-node-1 trtllm-serve[4711]: [12/04/2026-21:00:09] [TRT-LLM] [I] " + v2, "trtllm-serve[4711]", "INFO", "PYTHON", "NIXL", "", ""},
		{"journalctl, ranks of one unit", "Dec  4 21:00:09 gpu-node-1 python3[4712]: [TRT-LLM] [RANK 1] [I] " + v2, "python3[4712] rank 1", "INFO", "PYTHON", "NIXL", "", ""},
		{"journalctl -o short-iso", "2026-12-04T21:00:09+0000 gpu-node-1 trtllm-serve[4711]: [TRT-LLM] [I] " + v2, "trtllm-serve[4711]", "INFO", "PYTHON", "NIXL", "", ""},
		{"behind a logging library's format", "2025-12-01 10:00:09,123 - TRT-LLM - INFO - [TRT-LLM] [RANK 0] [I] " + v2, "rank 0", "INFO", "PYTHON", "NIXL", "", ""},
		{"behind a collector's labels", "level=info pod=ctx-0 container=main [TensorRT-LLM][INFO] NixlTransferAgent::NixlTransferAgent using NIXL backend: UCX", "process", "INFO", "", "NIXL", "UCX", ""},
		{"kubelet's container log file (CRI)", "2025-12-01T10:00:09.123456789Z stdout F [12/01/2025-10:00:09] [TRT-LLM] [I] " + v2, "process", "INFO", "PYTHON", "NIXL", "", ""},
		// Pasted: a markdown quote (a Dynamo deployment guide's), a
		// terminal's padding (a tmux copy), k9s's frame (Dynamo issue #6678).
		{"markdown quote", "> [TRT-LLM] [RANK 1] [I] " + v2, "rank 1", "INFO", "PYTHON", "NIXL", "", ""},
		{"nested markdown quote, srun", "> > 3: [TRT-LLM] [RANK 3] [I] " + v2, "srun task 3", "INFO", "PYTHON", "NIXL", "", ""},
		{"terminal padding", "[TRT-LLM] [I] cache_transceiver is disabled      \t", "process", "INFO", "DISABLED", "", "", ""},
		{"k9s frame", "│ [TensorRT-LLM][INFO] NixlTransferAgent::NixlTransferAgent using NIXL backend: UCX     │", "process", "INFO", "", "NIXL", "UCX", ""},
		{"CRI, stderr, ranked, an offset", "2025-12-01T11:00:09.5+01:00 stderr F [TRT-LLM] [RANK 2] [E] Failed to initialize executor on rank 2: NIXL", "rank 2", "ERROR", "ERROR", "", "", "Failed to initialize executor on rank 2"},
		{"CRI, a line cut in pieces", "2025-12-01T10:00:09.123456789Z stdout P [TensorRT-LLM][INFO] NixlTransferAgent::NixlTransferAgent using NIXL \n2025-12-01T10:00:09.123456790Z stdout F backend: UCX", "process", "INFO", "", "NIXL", "UCX", ""},
		{"CRI, a piece of a cut line", "2025-12-01T10:00:09.123456789Z stdout P [TensorRT-LLM][INFO] NixlTransferAgent::NixlTransferAgent using NIXL backend: UCX", "process", "INFO", "", "NIXL", "UCX", ""},
		{"collector timestamp", "2026-09-12T14:02:05.123Z [TRT-LLM] [RANK 0] [I] " + v2, "rank 0", "INFO", "PYTHON", "NIXL", "", ""},
		{"ANSI colour", "\x1b[32m[TRT-LLM] [I] [_torch  ] " + v2 + "\x1b[0m", "process", "INFO", "PYTHON", "NIXL", "", ""},
		// Pasted text: indented, condensed, bare.
		{"indented", "    [09/12/2026-14:02:05] [TRT-LLM] [RANK 0] [I] " + v2, "rank 0", "INFO", "PYTHON", "NIXL", "", ""},
		{"indented tab", "\t[TRT-LLM] [I] [_torch  ] " + v2, "process", "INFO", "PYTHON", "NIXL", "", ""},
		{"condensed", "[_torch][RANK 0] " + v2, "rank 0", LevelUnstated, "PYTHON", "NIXL", "", ""},
		{"condensed spaced", "[executor] [RANK 1] Failed to initialize executor on rank 1: NIXL agent", "rank 1", LevelUnstated, "ERROR", "", "", "Failed to initialize executor on rank 1"},
		{"bare C++ line", "NixlTransferAgent using NIXL backend: UCX", "process", LevelUnstated, "", "NIXL", "UCX", ""},
		{"bare Python transceiver line", v2, "process", LevelUnstated, "PYTHON", "NIXL", "", ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			lg, err := Parse("f.log", strings.NewReader(c.line+"\n"))
			if err != nil {
				t.Fatal(err)
			}
			if len(lg.Processes) != 1 {
				t.Fatalf("%d processes: %s", len(lg.Processes), sources(lg))
			}
			p := lg.Processes[0]
			level := ""
			if len(p.Lines) > 0 {
				level = p.Lines[0].Level
			}
			if p.Source != c.source || level != c.level || string(p.Outcome()) != c.outcome || p.Backend != c.back ||
				p.NixlBackend != c.nixlBack || !strings.HasPrefix(p.Error, c.errs) {
				t.Errorf("got source %q level %q outcome %q backend %q NIXL's %q error %q", p.Source, level, p.Outcome(), p.Backend, p.NixlBackend, p.Error)
			}
		})
	}
}

// TestSternNeedsATagAfterTwoNames: two words before a line are stern's pod
// and container only when they are DNS names, the pod's with a hyphen, and
// TensorRT-LLM's tag or a timestamp follows; a sentence that mentions a tag
// is not a pod's line.
func TestSternNeedsATagAfterTwoNames(t *testing.T) {
	for _, line := range []string{"see this [TRT-LLM] [RANK 0] [I] Using KvCacheTransceiverV2", "Ctx-0 main [TRT-LLM] [RANK 0] [I] Using KvCacheTransceiverV2",
		"ctx-0 main: [TRT-LLM] [RANK 0] [I] Using KvCacheTransceiverV2", "ctx_0 main [TRT-LLM] [RANK 0] [I] Using KvCacheTransceiverV2",
		"ctx-0 main.x [TRT-LLM] [RANK 0] [I] Using KvCacheTransceiverV2", "ctx0 main [TRT-LLM] [RANK 0] [I] Using KvCacheTransceiverV2",
		"ctx-0 main Using [TRT-LLM] [RANK 0] [I] Using KvCacheTransceiverV2",
		// Not one of the bare lines a pod prints (sternBare) either.
		"ctx-0 main [default] [TRT-LLM] [RANK 0] [I] Using KvCacheTransceiverV2", "ctx-0 main ErrorHandler: [TRT-LLM] [RANK 0] [I] Using KvCacheTransceiverV2",
		"ctx-0 main Error: [TRT-LLM] [RANK 0] [I] Using KvCacheTransceiverV2", "ctx-0 main Exceptional [TRT-LLM] [RANK 0] [I] Using KvCacheTransceiverV2",
		"ctx-0 main [gpu:x] [TRT-LLM] [RANK 0] [I] Using KvCacheTransceiverV2", "ctx-0 main INFO [TRT-LLM] [RANK 0] [I] Using KvCacheTransceiverV2"} {
		lg, err := Parse("f.log", strings.NewReader(line+"\n"))
		if err != nil {
			t.Fatal(err)
		}
		for _, p := range lg.Processes {
			if strings.HasPrefix(p.Source, "pod/") {
				t.Errorf("%q: read as process %q", line, p.Source)
			}
		}
	}
}

// TestEmbeddedTag: a tag behind a prefix no reader knows is read when a blank
// or a colon comes before it and it starts within the line's first 200
// bytes, the version line too; glued to a word, or further in, it is text;
// behind an exception's title it stays the exception's (the shape a C++
// failure reaches Python in).
func TestEmbeddedTag(t *testing.T) {
	lg0, _ := Parse("f.log", strings.NewReader("INFO:TRT-LLM:[TRT-LLM] [RANK 0] [I] Using KvCacheTransceiverV2\n"))
	if sources(lg0) != "rank 0" || lg0.Processes[0].Outcome() != resolver.OutcomePython {
		t.Errorf("logging's default format: %s", sources(lg0))
	}
	lg0, _ = Parse("f.log", strings.NewReader("[TRT-LLM] [RANK 0] [I] Using KvCacheTransceiverV2\nRuntimeError: [TensorRT-LLM][ERROR] Assertion failed: status == NIXL_SUCCESS (transferAgent.cpp:505)\n"))
	if p := lg0.Processes[0]; p.Outcome() != resolver.OutcomeError || !strings.HasPrefix(p.Error, "RuntimeError: [TensorRT-LLM][ERROR] Assertion failed") {
		t.Errorf("a C++ failure raised in Python: outcome %q error %q", p.Outcome(), p.Error)
	}
	lg, _ := Parse("f.log", strings.NewReader("2025-12-01 10:00:09,123 - TRT-LLM - INFO - [TensorRT-LLM] TensorRT-LLM version: 1.3.0rc10\n"))
	if ov, ok := lg.Own(); !ok || ov.Version.Name != "1.3.0rc10" {
		t.Errorf("version behind a prefix: %+v %v", ov, ok)
	}
	for _, line := range []string{"note-[TRT-LLM] [RANK 0] [I] Using KvCacheTransceiverV2",
		strings.Repeat("x", 200) + " [TRT-LLM] [RANK 0] [I] Using KvCacheTransceiverV2"} {
		lg, _ := Parse("f.log", strings.NewReader(line+"\n"))
		if len(lg.Processes) != 0 {
			t.Errorf("%.40q: read as %s", line, sources(lg))
		}
	}
}

// TestComposeNeedsAReplicaNumber: a word and a bar at a line's start (a
// table row, a report) is not a docker compose container: compose's names
// end in the replica number.
func TestComposeNeedsAReplicaNumber(t *testing.T) {
	for _, line := range []string{"Throughput  | [TRT-LLM] [RANK 0] [I] Using KvCacheTransceiverV2", "ctx-  | [TRT-LLM] [RANK 0] [I] Using KvCacheTransceiverV2",
		"ctx-1| [TRT-LLM] [RANK 0] [I] Using KvCacheTransceiverV2", "-1  | [TRT-LLM] [RANK 0] [I] Using KvCacheTransceiverV2",
		"docs/table-1/x  | [TRT-LLM] [RANK 0] [I] Using KvCacheTransceiverV2", "replica/engine-1  | [TRT-LLM] [RANK 0] [I] Using KvCacheTransceiverV2",
		"replica-0/  | [TRT-LLM] [RANK 0] [I] Using KvCacheTransceiverV2"} {
		lg, err := Parse("f.log", strings.NewReader(line+"\n"))
		if err != nil {
			t.Fatal(err)
		}
		for _, p := range lg.Processes {
			if p.Source != "rank 0" && p.Source != "process" {
				t.Errorf("%q: read as process %q", line, p.Source)
			}
		}
	}
}

// TestIndentationNeverChangesTheVerdict: the same lines pasted indented read
// the same, verdict included.
func TestIndentationNeverChangesTheVerdict(t *testing.T) {
	lines := []string{
		"[TRT-LLM] [I] Starting TensorRT-LLM init.",
		"[TRT-LLM] [RANK 0] [I] Resolved transceiver_runtime='auto' to 'PYTHON' for GptOssForCausalLM.",
		"[TRT-LLM] [RANK 0] [I] Resolved use_kv_cache_manager_v2='auto' to True for GptOssForCausalLM",
		"[TRT-LLM] [RANK 0] [I] Using KvCacheTransceiverV2",
	}
	plain := strings.Join(lines, "\n") + "\n"
	indented := "    " + strings.Join(lines, "\n    ") + "\n"
	trace := predict(t, "1.3.0rc26", "GptOssForCausalLM", "NIXL")
	var got []string
	for _, text := range []string{plain, indented} {
		lg, _ := Parse("f.log", strings.NewReader(text))
		v := Judge(lg, &trace, true)
		got = append(got, sources(lg)+" "+string(v.Status)+" "+itoa(v.Exit()))
	}
	if got[0] != got[1] || got[0] != "rank 0 agrees 0" {
		t.Errorf("plain %q, indented %q", got[0], got[1])
	}
}

// TestProcessIdentity: lines printed before the rank is known belong to the
// process(es) that follow; a file of one rank is one process; beside several
// ranks they make no process of their own unless they show something.
func TestProcessIdentity(t *testing.T) {
	cases := []struct{ name, log, want string }{
		{"per-rank file (Slurm %t)", "[TRT-LLM] [I] [_common ] Starting TensorRT LLM init.\n" +
			"[TRT-LLM] [I] [_torch  ] Using KvCacheTransceiverV2\n" +
			"[TRT-LLM] [I] [executor] [RANK 3] NixlTransferAgent::NixlTransferAgent using NIXL backend: UCX\n", "rank 3:PYTHON"},
		{"init lines before two ranks", "[TRT-LLM] [I] Starting TensorRT-LLM init.\n" +
			"[TRT-LLM] [RANK 0] [I] Using KvCacheTransceiverV2\n[TRT-LLM] [RANK 1] [I] Using KvCacheTransceiverV2\n", "rank 0:PYTHON rank 1:PYTHON"},
		{"a TP=1 server beside a TP=2 one", "[TRT-LLM] [I] cache_transceiver is disabled\n" +
			"[TRT-LLM] [RANK 0] [I] Using KvCacheTransceiverV2\n[TRT-LLM] [RANK 1] [I] Using KvCacheTransceiverV2\n", "process without rank:DISABLED rank 0:PYTHON rank 1:PYTHON"},
		{"kubectl pods", "[pod/gen-0/w] [TRT-LLM] [I] Starting TensorRT-LLM init.\n" +
			"[pod/gen-0/w] [TRT-LLM] [I] [_torch  ] [RANK 0] Using KvCacheTransceiverV2\n" +
			"[pod/ctx-0/w] [TRT-LLM] [I] cache_transceiver is disabled\n", "pod/gen-0/w rank 0:PYTHON pod/ctx-0/w:DISABLED"},
	}
	for _, c := range cases {
		lg, _ := Parse("f.log", strings.NewReader(c.log))
		var got []string
		for _, p := range lg.Processes {
			got = append(got, p.Source+":"+string(p.Outcome()))
		}
		if g := strings.Join(got, " "); g != c.want {
			t.Errorf("%s: %s, want %s", c.name, g, c.want)
		}
	}
}

// TestOrchestratorLog: the trtllm-serve disaggregated orchestrator's log is
// recognised, and its verdict says the workers' logs decide.
func TestOrchestratorLog(t *testing.T) {
	lg, _ := Parse("disagg.log", strings.NewReader("[TRT-LLM] [I] Waiting for context and generation servers to be ready\n"+
		"INFO:     Uvicorn running on http://0.0.0.0:8000 (Press CTRL+C to quit)\n"))
	v := Judge(lg, nil, true)
	if lg.Orchestrator != 1 || v.Status != StatusOrchestrator || !strings.Contains(v.Summary(), "workers' logs decide") {
		t.Errorf("orchestrator %d, status %s: %s", lg.Orchestrator, v.Status, v.Summary())
	}
}

// TestUCXTLSWithoutCUDA: BindingsNixlTransferAgent's init line shows the
// process's UCX_TLS; one that names no CUDA transport is why NIXL cannot
// register the KV cache (TensorRT-LLM PR #18373, UCX_TLS=tcp injected by a
// Slurm cluster), and the report says so at that line. UCX's own choice
// (<unset>), a CUDA transport, "all" and an exclusion list say nothing.
func TestUCXTLSWithoutCUDA(t *testing.T) {
	for tls, want := range map[string]bool{"tcp": true, "tcp,sm,self": true, "rc,ud": true,
		"<unset>": false, "rc,cuda_copy,cuda_ipc": false, "cuda": false, "all": false, "^mm": false, "tcp,gdr_copy": false} {
		lg, _ := Parse("f.log", strings.NewReader("[TRT-LLM] [I] [_torch  ] [RANK 0] BindingsNixlTransferAgent init: agent=gen_0 use_prog_thread=True num_threads=1 enable_telemetry=False backend_params={'num_threads': '1'} agent_buffer_size_mb=0 agent_bounce_params={} UCX_TLS="+tls+" UCX_LOG_LEVEL=<unset>\n"))
		if len(lg.Processes) != 1 || lg.Processes[0].Backend != "NIXL" || lg.Processes[0].Agent != "C++ binding" {
			t.Fatalf("%s: %s", tls, sources(lg))
		}
		said := false
		for _, im := range lg.Processes[0].Implications {
			if im.Line == 1 && strings.HasPrefix(im.Text, "UCX_TLS="+tls+" names no CUDA transport") {
				said = true
			}
		}
		if said != want {
			t.Errorf("UCX_TLS=%s: implication said %v, want %v (%+v)", tls, said, want, lg.Processes[0].Implications)
		}
	}
}

// TestRuntimeExceptionAfterServerUp: once uvicorn says trtllm-serve's server
// is up, the executor and its transceiver were built: an exception after it
// is a runtime finding of the process (Dynamo's known issue: a worker that
// runs out of KV cache hangs with asyncio's InvalidStateError), not the
// start-up's outcome. Before it, or after the process starts again (its
// version line), an exception is how start-up ended.
func TestRuntimeExceptionAfterServerUp(t *testing.T) {
	const up = "[TRT-LLM] [I] [_torch  ] [RANK 0] Using KvCacheTransceiverV2\n" +
		"INFO:     Started server process [4711]\n" +
		"INFO:     Application startup complete.\n" +
		"INFO:     Uvicorn running on http://0.0.0.0:8001 (Press CTRL+C to quit)\n" +
		"[TRT-LLM] [RANK 0] [W] num_fitting_reqs=0 and fitting_disagg_gen_init_requests is empty, may not have enough kvCache\n" +
		"Traceback (most recent call last):\n" +
		"  File \"/usr/lib/python3.12/asyncio/futures.py\", line 1, in set_result\n" +
		"asyncio.exceptions.InvalidStateError: invalid state\n"
	lg, _ := Parse("f.log", strings.NewReader(up))
	p := lg.Processes[0]
	if len(lg.Processes) != 1 || p.Outcome() != resolver.OutcomePython || p.Error != "" {
		t.Fatalf("%s: outcome %q error %q", sources(lg), p.Outcome(), p.Error)
	}
	if len(p.Findings) != 2 || p.Findings[1].Kind != FindingRuntimeError || p.Findings[1].Line != 8 ||
		p.Findings[1].Text != "asyncio.exceptions.InvalidStateError: invalid state" {
		t.Errorf("findings %+v", p.Findings)
	}
	if v := Judge(lg, nil, true); v.Exit() != 0 {
		t.Errorf("exit %d, status %s", v.Exit(), v.Status)
	}
	// Before the server is up, the exception ended start-up.
	lg, _ = Parse("f.log", strings.NewReader("[TRT-LLM] [I] [_torch  ] [RANK 0] Using KvCacheTransceiverV2\nasyncio.exceptions.InvalidStateError: invalid state\n"))
	if p := lg.Processes[0]; p.Outcome() != resolver.OutcomeError {
		t.Errorf("before the server: outcome %q", p.Outcome())
	}
	// One stream, two servers: the one up does not make the other's
	// start-up failure a runtime error.
	lg, _ = Parse("f.log", strings.NewReader("ctx-1  | [TRT-LLM] [I] Using KvCacheTransceiverV2\n"+
		"ctx-1  | INFO:     Application startup complete.\n"+
		"gen-1  | [TRT-LLM] [I] Using KvCacheTransceiverV2\n"+
		"gen-1  | RuntimeError: NIXL agent creation failed\n"))
	if got := sources(lg); got != "ctx-1,gen-1" || lg.Processes[0].Outcome() != resolver.OutcomePython || lg.Processes[1].Outcome() != resolver.OutcomeError {
		t.Errorf("two servers: %s, outcomes %q %q", got, lg.Processes[0].Outcome(), lg.Processes[len(lg.Processes)-1].Outcome())
	}
	// The process started again (its version line): start-up again.
	lg, _ = Parse("f.log", strings.NewReader(up+"[TensorRT-LLM] TensorRT-LLM version: 1.3.0rc10\n"+
		"[TRT-LLM] [I] [_torch  ] [RANK 0] Using KvCacheTransceiverV2\nRuntimeError: CUDA error: out of memory\n"))
	if p := lg.Processes[0]; p.Outcome() != resolver.OutcomeError || p.Error != "RuntimeError: CUDA error: out of memory" {
		t.Errorf("after a restart: outcome %q error %q", p.Outcome(), p.Error)
	}
}

// TestStartupFailureAndRootCause: a rank that fails to initialise ends with
// ERROR and the cause under it, not with the generic worker error.
func TestStartupFailureAndRootCause(t *testing.T) {
	// The shape of a condensed paste: failure line, indented cause, generic error.
	lg, _ := Parse("f.log", strings.NewReader("[_torch][RANK 0] BindingsNixlTransferAgent init: UCX_TLS=tcp\n"+
		"[_torch][RANK 1] Using KvCacheTransceiverV2\n"+
		"[executor][RANK 1] Failed to initialize executor on rank 1:\n"+
		"  Assertion failed: status == NIXL_SUCCESS (.../nixl_utils/transferAgent.cpp:505)\n"+
		"RuntimeError: Executor worker returned error\n"))
	if got := sources(lg); got != "rank 0,rank 1" {
		t.Fatalf("sources %s", got)
	}
	p := lg.Processes[1]
	if p.Outcome() != resolver.OutcomeError || !strings.HasPrefix(p.Error, "Failed to initialize executor on rank 1:") ||
		p.Cause != "Assertion failed: status == NIXL_SUCCESS (.../nixl_utils/transferAgent.cpp:505)" {
		t.Errorf("rank 1: error %q cause %q", p.Error, p.Cause)
	}
	// The full logger shape, the cause inline, its location and C++ frames under it.
	lg, _ = Parse("f.log", strings.NewReader("[11/18/2026-09:33:30] [TRT-LLM] [RANK 0] [E] Failed to initialize executor on rank 0: [TensorRT-LLM][ERROR] Assertion failed: Failed, NCCL error 'invalid usage'\n"+
		" (../tensorrt_llm/runtime/ncclCommunicator.cpp:90)\n"+
		"1       0x7a14a782a0f4 tensorrt_llm::common::throwRuntimeError(char const*, int, char const*) + 76\n"+
		"2       0x7a14577171ec tensorrt_llm::runtime::NcclCommunicator::createComm(int, int) + 316\n"))
	p = lg.Processes[0]
	if p.Source != "rank 0" || p.Outcome() != resolver.OutcomeError ||
		p.Cause != "Assertion failed: Failed, NCCL error 'invalid usage' (../tensorrt_llm/runtime/ncclCommunicator.cpp:90)" {
		t.Errorf("%s: error %q cause %q", p.Source, p.Error, p.Cause)
	}
	if v := Judge(lg, nil, true); v.Exit() != 1 || v.Status != StatusFailed {
		t.Errorf("a dead rank without a prediction: %s, exit %d", v.Status, v.Exit())
	}
}

// TestWhatSettlesTheBackendAndInputs: the NIXL agent lines set the backend;
// argument dumps are observed inputs, compared with the prediction; runtime
// KV-transfer timeouts are findings, counted.
func TestWhatSettlesTheBackendAndInputs(t *testing.T) {
	lg, _ := Parse("f.log", strings.NewReader(
		"[TRT-LLM] [I] [_torch  ] Using C++ transfer agent binding\n"+
			"[TRT-LLM] [I] [_torch  ] Updated llm args: {'backend': 'pytorch', 'cache_transceiver_config': {'backend': 'DEFAULT', 'transceiver_runtime': None, 'kv_transfer_timeout_ms': 1000}}\n"+
			"[TensorRT-LLM][INFO] NixlTransferAgent::NixlTransferAgent using NIXL backend: UCX\n"+
			"[TRT-LLM] [I] [_torch  ] Using KvCacheTransceiverV2\n"+
			"[TensorRT-LLM][WARNING] CacheTransceiver getOrAllocateBuffers: bufferCoverTargetNum:0 < targetNum:1, may use dynamic buffer which will fail with NIXL backend. It is recommended to set cacheTransceiverConfig.MaxTokensInBuffer\n"+
			"[TRT-LLM] [W] [_torch  ] Terminating context request 7 due to KV cache transfer timeout\n"+
			"[TRT-LLM] [W] [_torch  ] Terminating context request 9 due to KV cache transfer timeout\n"+
			"[TRT-LLM] [E] [_torch  ] NIXL (cpp binding) wait returned non-SUCCESS state=TransferState.FAILURE after 0.250s (agent=ctx_0).\n"+
			"[TensorRT-LLM][WARNING] Timed out waiting for context KV cache transfer after 1000 milliseconds.\n"+
			"[TRT-LLM] [W] [_torch  ] Request 42 timed out waiting for context KV cache transfer after 1000 milliseconds.\n"+
			"[TensorRT-LLM][ERROR] Future returned unexpected status for request 43. Marking as error\n"+
			"[TRT-LLM] [W] num_fitting_reqs=0 and fitting_disagg_gen_init_requests is empty, may not have enough kvCache\n"))
	p := lg.Processes[0]
	if p.Backend != "NIXL" || p.NixlBackend != "UCX" || p.Agent != "C++ binding" || p.Outcome() != resolver.OutcomePython {
		t.Errorf("backend %q NIXL's %q agent %q outcome %q", p.Backend, p.NixlBackend, p.Agent, p.Outcome())
	}
	if p.Inputs.Backend != "'DEFAULT'" || p.Inputs.Runtime != "None" || p.Inputs.Timeout != "1000" || p.Inputs.Line != 2 {
		t.Errorf("inputs %+v", p.Inputs)
	}
	// A failed transfer is a finding, not a start-up failure.
	if len(p.Findings) != 5 || p.Findings[4].Kind != FindingKVExhausted || p.Findings[4].Line != 12 || p.Findings[0].Kind != FindingDynamicBuffer || p.Findings[1].Kind != FindingTransferTimeout ||
		p.Findings[1].Count != 2 || p.Findings[1].Line != 6 || p.Findings[2].Kind != FindingTransferFailed || p.Findings[2].Line != 8 ||
		p.Findings[2].Count != 2 || p.Findings[3].Kind != FindingTransferWait || p.Findings[3].Count != 2 || p.Findings[3].Line != 9 {
		t.Errorf("findings %+v", p.Findings)
	}
	// The pydantic repr form of the same dump.
	lg, _ = Parse("f.log", strings.NewReader("TorchLlmArgs(model='x', cache_transceiver_config=CacheTransceiverConfig(backend='UCX', max_tokens_in_buffer=None, kv_transfer_timeout_ms=None), kv_cache_config=KvCacheConfig())\n"))
	if p := lg.Processes[0]; p.Inputs.Backend != "'UCX'" || p.Inputs.Timeout != "None" {
		t.Errorf("repr dump: %+v", p.Inputs)
	}
	// A prediction for another backend disagrees with the dump's input.
	trace := predict(t, "1.3.0rc26", "GptOssForCausalLM", "NIXL")
	ms := Compare(lg, trace)
	found := false
	for _, m := range ms {
		found = found || m.Kind == KindInput && m.Line == 1 && strings.Contains(m.Message, "'UCX'")
	}
	if !found {
		t.Errorf("no input disagreement in %+v", ms)
	}
}

// TestObservedPrefixesCoverClassify: every message classify recognises passes
// the scanner's cheap filter (a line the filter drops is never classified).
func TestObservedPrefixesCoverClassify(t *testing.T) {
	for _, msg := range []string{
		"Resolved transceiver_runtime='auto' to None for X.", "Model prefers the Python transceiver, but backend UCX does not support it; falling back to the C++ transceiver.",
		"Falling back to the C++ transceiver: backend 'UCX' (the Python transceiver requires NIXL).",
		"TRTLLM_USE_UCX_KVCACHE=1 is set, but it's recommended to set cache_transceiver_config.backend in yaml config",
		"Using UCX kv-cache transceiver. If", "Use UCX kv-cache transervier. If", "MPI CacheTransceiver is deprecated, UCX or NIXL is recommended",
		"Using KvCacheTransceiverV2", "device_id: 0 in KvCacheTransceiverV2", "cache_transceiver is disabled", "CacheTransceiver is disabled.",
		"enable_pipelined_transfer is set; auto-selecting the Python transceiver instead",
		"KV cache manager V2 is the model preference, but disaggregated serving uses transceiver_runtime=None with backend=UCX; falling back to V1.",
		"Resolved use_kv_cache_manager_v2='auto' to False", "TRTLLM_DISAGG_ENABLE_INFLIGHT_CANCEL=1: disagg KV transfer in-flight cancellation was requested",
		"Python cache transceiver with C++ KV cache manager detected; x", "Failed to initialize executor on rank 0: x",
		"Executor worker returned error", "UCX Connection Manager created", "NIXL Connection Manager created", "MOONCAKE Connection Manager created", "MPI Connection Manager created", "NixlTransferAgent::NixlTransferAgent using NIXL backend: UCX", "BindingsNixlTransferAgent init: agent=ctx_0 use_prog_thread=True num_threads=1 enable_telemetry=False backend_params={'num_threads': '1'} agent_buffer_size_mb=0 agent_bounce_params={} UCX_TLS=<unset> UCX_LOG_LEVEL=<unset>",
		"NixlTransferAgent::NixlTransferAgent mAddress: 10.0.0.1:32787",
		"Unsupported NIXL backend: X, fallback to UCX", "Using C++ transfer agent binding",
		"C++ transfer agent binding unavailable, using pure Python implementation", "Using pure Python transfer agent (forced by TRTLLM_USE_PY_NIXL_KVCACHE)",
		"Using Pybind transfer agent binding for Transfer Agent implementation.", "Failed to import Pybind transfer agent binding, using pure Python implementation.",
		"Forcing use of pure Python NIXL KV Transfer Agent implementation.",
		"CacheTransceiver getOrAllocateBuffers: bufferCoverTargetNum:0 < targetNum:1, may use dynamic buffer which will fail with NIXL backend.",
		"CacheFormatter::inquireSupport: only support same tokens per block and size per head", "MLACacheFormatter::inquireSupport: only support same data type",
		"Terminating context request 7 due to KV cache transfer timeout", "NIXL (cpp binding) wait returned non-SUCCESS state=TransferState.FAILURE after 0.250s (agent=ctx_0).", "Timed out waiting for context KV cache transfer after 1000 milliseconds.", "Request 42 timed out waiting for context KV cache transfer after 1000 milliseconds.", "Future returned unexpected status for request 42. Marking as error", "Future returned unexpected status for request 42. Recording as failed.", "num_fitting_reqs=0 and fitting_disagg_gen_init_requests is empty, may not have enough kvCache", "num_fitting_reqs =0 and fitting_disagg_gen_init_requests is empty , may not have enough kvCache", "Requesting cancellation for generation request 7 due to KV cache transfer timeout", "Observed timeout on context request 7 due to KV cache transfer timeout: elapsed 1520ms > kv_transfer_timeout_ms=1000ms", "Disagg KV cache transfer error: rank=1 local_err_count=1, voted_err_count=2, blocked_err_count=0", "Cancelled timed-out generation KV transfer for request 9; waiting for C++ transfer status to report final cleanup", "KV transfer cancellation failed for request 7; will retry: boom",
		"TxSession rid=5 failed", "TxSession rid=5 timed out after 1000ms", "TxSession rid=5 exceeded kv_transfer_timeout_ms=1000ms; keeping it in progress",
		"TxSession 5 failed to complete", "TxSession 5 timed out waiting for completion", "Disagg gen transfer FAILED rank=0 rids=[5] gen_need_sync=False",
		"_deliver_kv_to_agent: session 5 already in CANCELLED state; sending FAILED to receiver", "NIXL transfer wait timed out after 5000 ms.",
		"Updated args: {'cache_transceiver_config': {'backend': 'UCX'}}", "TorchLlmArgs(cache_transceiver_config=CacheTransceiverConfig(backend='UCX'))",
		"TorchLlmArgs(cache_transceiver_config=CacheTransceiverConfig(backend=None, transceiver_runtime=None, kv_transfer_timeout_ms=None))",
	} {
		if k, _ := classify("INFO", msg); k == lineNone {
			t.Errorf("classify does not recognise %q", msg)
		}
		if !mayObserve([]byte(msg)) {
			t.Errorf("the scanner's filter drops %q", msg)
		}
	}
}

// TestStatedVersionsKept: the version lines of 1.1 and 1.3 logs are read and
// kept; a version xcvr does not list is placed among those it does (the
// resolver's PlaceVersion), and the report says how.
func TestStatedVersionsKept(t *testing.T) {
	for _, c := range []struct{ line, want, why string }{
		{"[TensorRT-LLM] TensorRT-LLM version: 1.1.0rc3", "1.1.0rc3", "the log states TensorRT-LLM 1.1.0rc3 (line 1)"},
		{"[TensorRT-LLM] TensorRT-LLM version: 1.1.0rc5", "1.1.0rc5", "the log states TensorRT-LLM 1.1.0rc5 (line 1)"},
		{"[TensorRT-LLM] TensorRT LLM version: 1.3.0rc15", "1.3.0rc15", "the log states TensorRT-LLM 1.3.0rc15 (line 1)"},
		{"[TRT-LLM] [I] [_common ] TensorRT LLM version: 1.3.0rc15", "1.3.0rc15", "the log states TensorRT-LLM 1.3.0rc15 (line 1)"},
		{"[TensorRT-LLM] TensorRT LLM version: 1.2.7rc9 (backend: cuda)", "", "the log states TensorRT-LLM 1.2.7rc9 (line 1); "},
	} {
		lg, _ := Parse("v.log", strings.NewReader(c.line+"\n"))
		ov, ok := lg.Own()
		if !ok || !ov.Stated || (c.want != "" && ov.Version.Name != c.want) || !strings.HasPrefix(ov.Why, c.why) {
			t.Errorf("%s: %+v %v", c.line, ov, ok)
		}
	}
}

// TestDockerLogDecodesAsEncodingJSON: a docker json-file record's line comes
// out as encoding/json decodes it, whether it is copied (plain text and the
// newline's escape) or decoded: random strings of quotes, backslashes,
// control and non-ASCII bytes, invalid UTF-8, written as docker writes them
// and as raw bytes.
func TestDockerLogDecodesAsEncodingJSON(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	alphabet := []byte("ab \"\\n/u0\t\x1b\x7f\xc3\xa9\xff[]")
	for it := 0; it < 20000; it++ {
		raw := make([]byte, rng.IntN(12))
		for i := range raw {
			raw[i] = alphabet[rng.IntN(len(alphabet))]
		}
		var lit []byte
		if it%2 == 0 {
			enc, _ := json.Marshal(string(raw) + "\n")
			lit = enc
		} else {
			lit = append(append([]byte{'"'}, raw...), '"')
		}
		line := append(append([]byte(`{"log":`), lit...), `,"stream":"stdout"}`...)
		got, ok := dockerLog(nil, line)
		var want string
		wantOK := false
		if l, ok2 := jsonString(line[len(`{"log":`):]); ok2 {
			wantOK = json.Unmarshal(l, &want) == nil
		}
		if ok != wantOK || (ok && string(got) != want) {
			t.Fatalf("%q: got %q %v, want %q %v", line, got, ok, want, wantOK)
		}
	}
}

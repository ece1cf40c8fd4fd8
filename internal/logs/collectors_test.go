package logs

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
)

// TestTorchrunPrefix: torchrun (torch.distributed.elastic) with --tee or
// --redirects copies each worker's output to its own with
// "[{role}{local_rank}]:" before each line, no blank after the colon
// (TailLog's header f"[{self._name}{local_rank}]:", the role "default"
// unless --role is given; torch/distributed/elastic/multiprocessing/
// tail_log.py, verified). The worker's lines are that local rank's, read as
// PyTorch's "[rankN]: " is; they were read as no process's (a traceback's
// exception behind the prefix was no exception, and its failure was lost).
func TestTorchrunPrefix(t *testing.T) {
	tb, e := prefixedTraceback, prefixedTracebackError
	checkCollected(t, []collected{
		{"two workers, one failing", "[default0]:[TRT-LLM] [I] Using KvCacheTransceiverV2\n[default1]:[TRT-LLM] [I] Starting TensorRT-LLM init.\n" + tb("[default1]:"),
			"rank 0=PYTHON ;rank 1=ERROR ", ""},
		{"TensorRT-LLM's timestamp after it", "[default0]:[12/01/2025-10:00:09] [TRT-LLM] [I] Using KvCacheTransceiverV2\n", "rank 0=PYTHON ", ""},
		// TensorRT-LLM's own rank decides; PyTorch's excepthook's too.
		{"the tag's rank", "[default0]:[TRT-LLM] [RANK 4] [I] Using KvCacheTransceiverV2\n", "rank 4=PYTHON ", ""},
		{"PyTorch's rank behind it", tb("[default1]:[rank5]: "), "rank 5=ERROR ", e},
		{"another role", tb("[trainer12]:"), "rank 12=ERROR ", e},
		// Behind a pod's prefix the rank is added to the pod's key; srun's
		// task is the process.
		{"behind kubectl's", tb("[pod/trtllm-0/main] [default1]:"), "pod/trtllm-0/main rank 1=ERROR ", e},
		{"behind srun's", tb("0: [default1]:"), "srun task 0=ERROR ", e},
		{"stern's pod", tb("trtllm-decode-0 main [default1]:"), "pod/trtllm-decode-0/main rank 1=ERROR ", e},
		// A Dynamo record behind it: each of its lines the rank's.
		{"a Dynamo record", "[default1]:" + dynRecord("06", "ERROR", "main.worker", "Failed to start the engine\nTraceback (most recent call last):\n"+
			"  File \"/opt/dynamo/venv/lib/python3.12/site-packages/tensorrt_llm/executor/worker.py\", line 10, in worker_main\n"+e),
			"rank 1=ERROR ", e},
		// Not the prefix: no local rank, no role, a blank before the colon.
		{"not the prefix", "[TRT-LLM] [RANK 0] [I] Using KvCacheTransceiverV2\n[default]:ValueError: x\n[0]:ValueError: y\n[default1] :ValueError: z\n[1default]:ValueError: w\n[rank1]:ValueError: v\n",
			"rank 0=PYTHON ", ""},
	})
}

// TestRayNestedPrefixes: Ray's driver puts "({actor or task name} pid=N[,
// ip=A]) " before each line it forwards, "(raylet[, ip=A]) " before the
// raylet's messages and "(autoscaler +15m30s) " before the autoscaler's
// (ray/_private/worker.py print_worker_logs, verified). A driver that is
// itself a Ray worker (vLLM's engine core, a Ray Serve replica, whose names
// hold ':': "ServeReplica:default:Model") forwards its workers' lines with
// their prefix, behind its own: "(EngineCore_DP0 pid=479)
// (RayWorkerWrapper pid=223, ip=192.168.141.7) …" (vLLM issues' logs). One
// prefix was read: the inner one stayed in the line, which read as the
// outer process's, so every worker behind one driver was one process. The
// chain names the process. The raylet's and the autoscaler's lines are no
// processes (TestRayDaemonLines); the driver's own lines, bare, are the
// driver's (TestRayDriverLines).
func TestRayNestedPrefixes(t *testing.T) {
	const (
		replica = "(ServeReplica:default:TRTLLMDeployment pid=1670) "
		local   = replica + "(RayWorkerWrapper pid=1890) "
		remote  = replica + "(RayWorkerWrapper pid=2012, ip=10.0.0.3) "
	)
	checkCollected(t, []collected{
		{"a replica's two workers", local + "[TRT-LLM] [RANK 0] [I] Using KvCacheTransceiverV2\n" +
			remote + "[TRT-LLM] [RANK 1] [E] Failed to initialize executor on rank 1: NIXL agent failed\n" +
			replica + "INFO 2025-11-17 17:58:27,007 replica 1670 -- Started.\n",
			"ServeReplica:default:TRTLLMDeployment pid=1670 / RayWorkerWrapper pid=1890 rank 0=PYTHON ;" +
				"ServeReplica:default:TRTLLMDeployment pid=1670 / RayWorkerWrapper pid=2012, ip=10.0.0.3 rank 1=ERROR ", ""},
		// Two engine cores on two nodes, each with a worker of pid 571 on
		// its own node: two processes.
		{"two drivers, one pid", "(EngineCore_DP0 pid=479) (RayWorkerWrapper pid=571) [TRT-LLM] [I] Using KvCacheTransceiverV2\n" +
			"(EngineCore_DP1 pid=479) (RayWorkerWrapper pid=571) [TensorRT-LLM][INFO] UCX Connection Manager created\n",
			"EngineCore_DP0 pid=479 / RayWorkerWrapper pid=571=PYTHON ;EngineCore_DP1 pid=479 / RayWorkerWrapper pid=571=CPP ", ""},
		// A task behind an actor; colour as Ray prints it (colorama).
		{"a task behind an actor, coloured", "\x1b[36m(RayWorkerWrapper pid=123, ip=10.0.0.1)\x1b[0m \x1b[36m(pid=456)\x1b[0m [TRT-LLM] [I] Using KvCacheTransceiverV2\n",
			"RayWorkerWrapper pid=123, ip=10.0.0.1 / pid=456=PYTHON ", ""},
		// The raylet's messages (as Ray's out-of-memory guide shows them)
		// are no process's: its error for worker 2012 is that worker's
		// finding, and the driver's own bare exception under it the
		// driver's, not the raylet's nor the worker's that printed last.
		{"the raylet's", local + "[TRT-LLM] [RANK 0] [I] Using KvCacheTransceiverV2\n" +
			remote + "[TRT-LLM] [RANK 1] [I] Using KvCacheTransceiverV2\n" +
			"(raylet, ip=10.0.0.3) Task _map_task failed. There are infinite retries remaining, so the task will be retried. Error:\n" +
			"(raylet) A worker died or was killed while executing a task by an unexpected system error. To troubleshoot the problem, check the logs for the dead worker. Worker PID: 2012 Worker exit type: SYSTEM_ERROR\n" +
			"ray.exceptions.ActorDiedError: The actor died unexpectedly before finishing this task.\n",
			"ServeReplica:default:TRTLLMDeployment pid=1670 / RayWorkerWrapper pid=1890 rank 0=PYTHON ;" +
				"ServeReplica:default:TRTLLMDeployment pid=1670 / RayWorkerWrapper pid=2012, ip=10.0.0.3 rank 1=PYTHON process_crashed@4;Ray driver=ERROR ", ""},
		// The autoscaler's lines, whatever their time, are no process's;
		// its event that no node can hold a request is a line of the
		// driver's.
		{"the autoscaler's", "(RayWorkerWrapper pid=1890) [TRT-LLM] [RANK 0] [I] Using KvCacheTransceiverV2\n" +
			"(autoscaler +15m30s) Error: No available node types can fulfill resource request {'GPU': 8.0}. Add suitable node types to this cluster to resolve this issue.\n" +
			"(autoscaler +1h0m2s, ip=10.0.0.1) Tip: use `ray status` to view detailed cluster status. To disable these messages, set RAY_SCHEDULER_EVENTS=0.\n",
			"RayWorkerWrapper pid=1890 rank 0=PYTHON ;Ray driver= ", ""},
		// Not Ray's: an actor named raylet is an actor; no seconds, no
		// prefix; past four prefixes the rest is text.
		{"not Ray's", "(raylet pid=5) [TRT-LLM] [I] Using KvCacheTransceiverV2\n(autoscaler +5m) [TRT-LLM] [RANK 1] [I] Using KvCacheTransceiverV2\n" +
			"(a pid=1) (b pid=2) (c pid=3) (d pid=4) (e pid=5) [TRT-LLM] [I] Using KvCacheTransceiverV2\n",
			"raylet pid=5=PYTHON ;rank 1=PYTHON ;a pid=1 / b pid=2 / c pid=3 / d pid=4=PYTHON ", ""},
	})
}

// sternJSONRecord is a line of "stern -o json": its Log struct as
// encoding/json writes it, fields in order (message, nodeName, namespace,
// podName, containerName; stern/tail.go, verified), the message escaped.
func sternJSONRecord(pod, msg string) string {
	m, _ := json.Marshal(msg)
	return `{"message":` + string(m) + `,"nodeName":"gpu-node-1","namespace":"dynamo","podName":"` + pod + `","containerName":"main"}` + "\n"
}

// TestSternJSON: stern -o json prints each line as a JSON record of its
// Log struct ("{{json .}}"), -o extjson as the template {"pod": "P",
// "container": "C", "message": M} (namespace first with -A; M the message
// as it is when it is JSON itself; stern's cmd/cmd.go, verified). The
// message is the line and the pod's container its process, as stern's
// default output reads; the records were read as no line at all.
func TestSternJSON(t *testing.T) {
	tb := func(rec func(string) string) string {
		return rec("[TRT-LLM] [I] Starting TensorRT-LLM init.") + rec("Traceback (most recent call last):") +
			rec("  File \"/usr/local/lib/python3.12/dist-packages/tensorrt_llm/executor/worker.py\", line 10, in worker_main") +
			rec("ValueError: KvCacheTransceiverV2 requires a finite kv_transfer_timeout_ms")
	}
	const e = "ValueError: KvCacheTransceiverV2 requires a finite kv_transfer_timeout_ms"
	ext := func(pod string) func(string) string {
		return func(msg string) string {
			m, _ := json.Marshal(msg)
			return `{"pod": "` + pod + `", "container": "main", "message": ` + string(m) + "}\n"
		}
	}
	checkCollected(t, []collected{
		{"-o json, two pods", sternJSONRecord("trtllm-prefill-0", "[TRT-LLM] [RANK 1] [I] Using KvCacheTransceiverV2") +
			tb(func(m string) string { return sternJSONRecord("trtllm-decode-0", m) }),
			"pod/trtllm-prefill-0/main rank 1=PYTHON ;pod/trtllm-decode-0/main=ERROR ", ""},
		// Before stern 1.2x: no nodeName; since 1.33 more fields after the
		// container's.
		{"-o json, older and newer", `{"message":"[TRT-LLM] [I] Using KvCacheTransceiverV2","namespace":"dynamo","podName":"ctx-0","containerName":"main"}` + "\n" +
			`{"message":"[TensorRT-LLM][INFO] UCX Connection Manager created","nodeName":"n","namespace":"dynamo","podName":"gen-0","containerName":"main","labels":{"app":"gen"}}` + "\n",
			"pod/ctx-0/main=PYTHON ;pod/gen-0/main=CPP ", ""},
		// Pasted indented (a markdown code block), as unindented.
		{"-o json, indented", "    " + sternJSONRecord("ctx-0", "[TRT-LLM] [I] Using KvCacheTransceiverV2"), "pod/ctx-0/main=PYTHON ", ""},
		// -t puts the timestamp in the message.
		{"-o json -t", sternJSONRecord("ctx-0", "2025-12-01T10:00:09.123456789Z [TRT-LLM] [I] Using KvCacheTransceiverV2"), "pod/ctx-0/main=PYTHON ", ""},
		// A Dynamo JSONL record as the message: its lines the pod's.
		{"-o json, a Dynamo record", sternJSONRecord("decode-0", strings.TrimSuffix(dynRecord("06", "ERROR", "main.worker", "Failed to start the engine\nTraceback (most recent call last):\n"+
			"  File \"/opt/dynamo/venv/lib/python3.12/site-packages/tensorrt_llm/executor/worker.py\", line 10, in worker_main\n"+e), "\n")),
			"pod/decode-0/main=ERROR ", e},
		{"-o extjson", tb(ext("trtllm-decode-0")), "pod/trtllm-decode-0/main=ERROR ", e},
		{"-o extjson -A, coloured", `{"namespace": "dynamo", "pod": "` + "\x1b[96mtrtllm-decode-0\x1b[0m" + `", "container": "` + "\x1b[36mmain\x1b[0m" + `", "message": "[TRT-LLM] [I] Using KvCacheTransceiverV2"}` + "\n",
			"pod/trtllm-decode-0/main=PYTHON ", ""},
		{"-o extjson, a Dynamo record as it is", `{"pod": "decode-0", "container": "main", "message": ` + strings.TrimSuffix(dynRecord("06", "ERROR", "main.worker", "Failed to start the engine\nTraceback (most recent call last):\n"+
			"  File \"/opt/dynamo/venv/lib/python3.12/site-packages/tensorrt_llm/executor/worker.py\", line 10, in worker_main\n"+e), "\n") + "}\n",
			"pod/decode-0/main=ERROR ", e},
		// Not stern's: a field missing or out of order, a name Kubernetes
		// does not give, an escape that does not decode, another tool's JSON.
		{"not stern's", `{"message":"[TRT-LLM] [RANK 0] [I] Using KvCacheTransceiverV2","namespace":"d","podName":"ctx-0"}` + "\n" +
			`{"message":"[TRT-LLM] [RANK 1] [I] Using KvCacheTransceiverV2","podName":"ctx-0","namespace":"d","containerName":"main"}` + "\n" +
			`{"message":"[TRT-LLM] [RANK 2] [I] Using KvCacheTransceiverV2","namespace":"d","podName":"ctx/0","containerName":"main"}` + "\n" +
			`{"message":"[TRT-LLM] [RANK 3] [I] Using \x Kv","namespace":"d","podName":"ctx-0","containerName":"main"}` + "\n" +
			`{"pod": "ctx-0", "container": "main", "message": "[TRT-LLM] [RANK 4] [I] x" }` + "\n" +
			`{"message":"[TRT-LLM] [RANK 5] [I] Using KvCacheTransceiverV2","level":"info"}` + "\n",
			"", ""},
	})
}

// criSplit is a container's line as containerd's CRI logger writes it to
// the kubelet's log file: pieces of max (16 KiB by default) tagged P, the
// rest tagged F (last "P" too when the line ended without its newline).
func criSplit(stream, line string, max int, last string) []string {
	var out []string
	for i := 0; ; i++ {
		ts := fmt.Sprintf("2026-01-10T12:00:06.%09dZ ", 100+i)
		if len(line) <= max {
			return append(out, ts+stream+" "+last+" "+line+"\n")
		}
		out = append(out, ts+stream+" P "+line[:max]+"\n")
		line = line[max:]
	}
}

// TestCRIPartialLines: containerd writes a container's line longer than
// 16 KiB to the kubelet's log file (/var/log/pods/…/0.log) as pieces
// tagged P and its rest tagged F, each stream's from a goroutine of its
// own, and a last line without its newline as P (its CRI logger's
// redirectLogs, and the kubelet's parseCRILog, which writes a P piece's
// content without a newline, verified). A Dynamo JSONL record over 16 KiB
// (a traceback logged with exc_info, a long request) was read as its
// pieces: no piece is a record, so a start-up failure in it was lost. The
// pieces join into the line, per stream, as kubectl logs shows it.
func TestCRIPartialLines(t *testing.T) {
	const e = "ValueError: KvCacheTransceiverV2 requires a finite kv_transfer_timeout_ms"
	frames := strings.Repeat("  File \"/usr/local/lib/python3.12/dist-packages/tensorrt_llm/_torch/pyexecutor/py_executor_creator.py\", line 612, in create_py_executor\n", 180)
	rec := strings.TrimSuffix(dynRecord("06", "ERROR", "main.worker", "Failed to start the engine\nTraceback (most recent call last):\n"+frames+e), "\n")
	if len(rec) < 20<<10 || len(rec) > 40<<10 {
		t.Fatalf("the record is %d bytes", len(rec))
	}
	pieces := criSplit("stdout", rec, 16<<10, "F")
	other := "2026-01-10T12:00:06.100000500Z stderr F [TRT-LLM] [W] iter = 3 took long\n"
	start := "2026-01-10T12:00:05.9Z stdout F [TRT-LLM] [I] Starting TensorRT-LLM init.\n"
	using := "2026-01-10T12:00:07Z stdout F [TRT-LLM] [I] Using KvCacheTransceiverV2\n"
	long := strings.Repeat("x", 70<<10)
	checkCollected(t, []collected{
		{"a Dynamo record in pieces", start + strings.Join(pieces, ""), "process=ERROR ", e},
		// The other stream's lines between one stream's pieces.
		{"stderr between stdout's pieces", start + pieces[0] + other + strings.Join(pieces[1:], ""), "process=ERROR ", e},
		// Past 64 KiB a line is cut, as any line is: the record is no
		// record, and what follows reads as before.
		{"a line past 64 KiB", strings.Join(criSplit("stdout", long, 16<<10, "F"), "") + using, "process=PYTHON ", ""},
		// The log ends inside a line (containerd wrote its end as P):
		// read at the end of the log, as its pieces joined.
		{"the last line's pieces", start + strings.Join(criSplit("stderr", "RuntimeError: "+strings.Repeat("y", 40), 20, "P"), ""), "process=ERROR ", "RuntimeError: yyy"},
		// Behind another prefix, or not the runtime's own timestamp, each
		// piece stays a line.
		{"behind srun's", "0: " + strings.Join(pieces, "0: "), "", ""},
	})
}

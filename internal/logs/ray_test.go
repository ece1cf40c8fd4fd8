package logs

import (
	"strings"
	"testing"
)

// Ray's lines as a driver prints them (ray/_private/worker.py
// print_worker_logs, verified): each worker line behind its prefix, a
// worker's traceback prefixed on every line; the driver's own lines bare.
const (
	rayW0 = "(RayWorkerWrapper pid=1890) "
	rayW1 = "(RayWorkerWrapper pid=2012, ip=10.0.0.3) "
	// rayDied2012 is the raylet's error for worker 2012 as the driver
	// prints it (src/ray/raylet/node_manager.cc DisconnectClient, the
	// IDs shortened).
	rayDied2012 = "A worker died or was killed while executing a task by an unexpected system error. To troubleshoot the problem, check the logs for the dead worker. " +
		"Lease ID: 0100 Worker ID: 12a6 Node ID: 0b6a Worker IP address: 10.0.0.3 Worker port: 45555 Worker PID: 2012 Worker exit type: SYSTEM_ERROR " +
		"Worker exit detail: Worker unexpectedly exits with a connection error code 2. End of file. There are some potential root causes. (1) The process is killed by SIGKILL by OOM killer due to high memory usage. (2) ray stop --force is called. (3) The worker is crashed unexpectedly due to SIGSEGV or other unexpected errors."
	rayUp0   = rayW0 + "[TRT-LLM] [RANK 0] [I] Using KvCacheTransceiverV2\n"
	rayUp1   = rayW1 + "[TRT-LLM] [RANK 1] [I] Using KvCacheTransceiverV2\n"
	rayDrv   = "[TRT-LLM] [I] Attached to an existing Ray cluster.\n"
	rayDrvTB = "Traceback (most recent call last):\n" +
		"  File \"/usr/local/lib/python3.12/dist-packages/tensorrt_llm/executor/ray_executor.py\", line 140, in init_workers_sync\n" +
		"    ray.get(self._get_worker_ready_futures())\n" +
		"ray.exceptions.ActorDiedError: The actor died unexpectedly before finishing this task.\n"
	rayW0Name = "RayWorkerWrapper pid=1890 rank 0"
	rayW1Name = "RayWorkerWrapper pid=2012, ip=10.0.0.3 rank 1"
)

// TestRayDriverLines: in a stream where Ray's prefixes are seen, a line
// without one is the driver's own (its logger's, its traceback's, its
// exception), never the worker's that printed last nor the raylet's: the
// driver's process is its own key's (a rank it prints) or "Ray driver".
// Without Ray's prefixes a bare line stays the last keyed line's.
func TestRayDriverLines(t *testing.T) {
	const actorDied = "ray.exceptions.ActorDiedError: The actor died unexpectedly"
	checkCollected(t, []collected{
		// The driver's exception after both workers printed: the
		// driver's start-up, not worker 2012's.
		{"after the workers", rayDrv + rayUp0 + rayUp1 + rayDrvTB,
			"Ray driver=ERROR ;" + rayW0Name + "=PYTHON ;" + rayW1Name + "=PYTHON ", actorDied},
		// The driver's first lines before any prefix was seen, its
		// traceback after: the same process.
		{"driver lines first", "Traceback (most recent call last):\n" + rayUp0 + rayUp1 +
			"  File \"/app/serve.py\", line 9, in <module>\n" + "RuntimeError: RayGPUWorker died during initialization\n",
			rayW0Name + "=PYTHON ;" + rayW1Name + "=PYTHON ;Ray driver=ERROR ", ""},
		// A worker's traceback is Ray-prefixed on every line: the
		// worker's; the driver's bare exception under it the driver's.
		{"a worker's traceback, then the driver's", rayDrv + rayUp0 + rayW1 + "Traceback (most recent call last):\n" +
			rayW1 + "  File \"/usr/local/lib/python3.12/dist-packages/tensorrt_llm/executor/ray_gpu_worker.py\", line 88, in setup_engine\n" +
			rayW1 + "RuntimeError: NIXL agent failed\n" + rayDrvTB,
			"Ray driver=ERROR ;" + rayW0Name + "=PYTHON ;RayWorkerWrapper pid=2012, ip=10.0.0.3=ERROR ", actorDied},
		// The driver's own rank (PyTorch's excepthook's, as vLLM's engine
		// prints it beside its Ray workers) is its key: its bare lines
		// after a worker's stay that rank's.
		{"the driver's own rank", rayUp0 + "[rank0]: Traceback (most recent call last):\n" + rayUp1 +
			"[rank0]:   File \"/app/serve.py\", line 9, in <module>\n" + "ValueError: boom\n",
			rayW0Name + "=PYTHON ;rank 0=ERROR ;" + rayW1Name + "=PYTHON ", ""},
		// The driver's C++ line without a rank: the driver's, not the
		// worker's that printed last.
		{"the driver's C++ line", rayUp0 + "[TensorRT-LLM][INFO] UCX Connection Manager created\n",
			rayW0Name + "=PYTHON ;Ray driver=CPP ", ""},
		// No Ray prefix in the stream: a bare line is the last keyed
		// line's, as before.
		{"no Ray prefix", "[pod/ctx-0/main] [TRT-LLM] [RANK 0] [I] Using KvCacheTransceiverV2\nValueError: boom\n",
			"pod/ctx-0/main rank 0=ERROR ", "ValueError: boom"},
		{"srun's labels", "0: [TRT-LLM] [RANK 0] [I] Using KvCacheTransceiverV2\nValueError: boom\n", "srun task 0=ERROR ", "ValueError: boom"},
	})
}

// TestRayDaemonLines: the raylet's and the autoscaler's lines are no
// processes. The raylet's error for a dead worker (node_manager.cc
// DisconnectClient) is a process_crashed finding of the worker it names by
// pid, when that worker is one of the log's processes (its address, when
// both say one, the same), else of the driver's; the same of the driver's
// logger's copy (an older Ray's "WARNING worker.py:2074 -- …"), of the
// detail of an OutOfMemoryError (CreateOomKillMessageDetails) and of the
// raylet's out-of-memory summary (ReportWorkerOOMKillStats, which names no
// pid). The autoscaler's infeasible request is a line of the driver's.
func TestRayDaemonLines(t *testing.T) {
	const actorDied = "ray.exceptions.ActorDiedError: The actor died unexpectedly"
	oomDetail := "Memory on the node (IP: 10.0.0.3, ID: db89) where the lease (lease ID: 0100, name=RayWorkerWrapper.__init__, pid=2012, memory used=49.21GB) was running was 59.84GB / 62.51GB (0.957347), " +
		"which exceeds the memory usage threshold of 0.95. Ray killed this worker (ID: a4f5) because it was the most recently scheduled task; to see more information about memory usage on this node, use `ray logs raylet.out -ip 10.0.0.3`."
	oomSummary := "(raylet) [2023-04-09 07:23:59,445 E 395 395] (raylet) node_manager.cc:3049: 10 Workers (tasks / actors) killed due to memory pressure (OOM), 0 Workers crashed due to other reasons at node (ID: e5d9, IP: 10.0.0.3) over the last time period. To see more information about the Workers killed on this node, use `ray logs raylet.out -ip 10.0.0.3`\n" +
		"(raylet) \n(raylet) Refer to the documentation on how to address the out of memory issue: https://docs.ray.io/en/latest/ray-core/scheduling/ray-oom-prevention.html. Consider provisioning more memory on this node or reducing task parallelism by requesting more CPUs per task. To adjust the kill threshold, set the environment variable `RAY_memory_usage_threshold` when starting Ray. To disable worker killing, set the environment variable `RAY_memory_monitor_refresh_ms` to zero.\n"
	checkCollected(t, []collected{
		// The brief's shape: the raylet's error, then the driver's own
		// exception; worker 2012 is known.
		{"the worker it names", rayDrv + rayUp0 + rayUp1 + "(raylet) " + rayDied2012 + "\n" + rayDrvTB,
			"Ray driver=ERROR ;" + rayW0Name + "=PYTHON ;" + rayW1Name + "=PYTHON process_crashed@4", actorDied},
		// A remote raylet's own log line, and a worker known only by its
		// lines without a rank (C++'s): that worker.
		{"the worker's lines without a rank", rayDrv + rayUp0 + rayW1 + "[TensorRT-LLM][INFO] UCX Connection Manager created\n" + "(raylet, ip=10.0.0.3) " + rayDied2012 + "\n",
			"Ray driver= ;" + rayW0Name + "=PYTHON ;RayWorkerWrapper pid=2012, ip=10.0.0.3=CPP process_crashed@4", ""},
		// Not one of the log's processes: the driver reports it.
		{"an unknown worker", rayDrv + rayUp0 + "(raylet) " + rayDied2012 + "\n" + rayDrvTB,
			"Ray driver=ERROR process_crashed@3;" + rayW0Name + "=PYTHON ", actorDied},
		// pid 2012 on another node than the message's.
		{"another node's pid", rayDrv + "(RayWorkerWrapper pid=2012, ip=10.0.0.4) [TRT-LLM] [RANK 1] [I] Using KvCacheTransceiverV2\n" + "(raylet) " + rayDied2012 + "\n",
			"Ray driver= process_crashed@3;RayWorkerWrapper pid=2012, ip=10.0.0.4 rank 1=PYTHON ", ""},
		// Two engine cores' workers share pid 2012, each on its core's
		// node: the one whose driver prints the error.
		{"a nested driver's", "(EngineCore_DP0 pid=479) (RayWorkerWrapper pid=2012) [TRT-LLM] [I] Using KvCacheTransceiverV2\n" +
			"(EngineCore_DP1 pid=480) (RayWorkerWrapper pid=2012) [TRT-LLM] [I] Using KvCacheTransceiverV2\n" +
			"(EngineCore_DP1 pid=480) (raylet) " + strings.Replace(rayDied2012, "Worker IP address: 10.0.0.3", "Worker IP address: 10.0.0.5", 1) + "\n",
			"EngineCore_DP0 pid=479 / RayWorkerWrapper pid=2012=PYTHON ;EngineCore_DP1 pid=480 / RayWorkerWrapper pid=2012=PYTHON process_crashed@3", ""},
		// Two workers of that pid and no driver to tell them apart.
		{"two workers of the pid", "(EngineCore_DP0 pid=479) (RayWorkerWrapper pid=2012) [TRT-LLM] [I] Using KvCacheTransceiverV2\n" +
			"(EngineCore_DP1 pid=480) (RayWorkerWrapper pid=2012) [TRT-LLM] [I] Using KvCacheTransceiverV2\n" +
			"(raylet) " + rayDied2012 + "\n",
			"EngineCore_DP0 pid=479 / RayWorkerWrapper pid=2012=PYTHON ;EngineCore_DP1 pid=480 / RayWorkerWrapper pid=2012=PYTHON ;Ray driver= process_crashed@3", ""},
		// An older Ray's driver logs the same error with its own logger.
		{"the driver's logger's", rayDrv + rayUp0 + rayUp1 + "2023-12-17 07:00:42,177\tWARNING worker.py:2074 -- " + rayDied2012 + "\n",
			"Ray driver= ;" + rayW0Name + "=PYTHON ;" + rayW1Name + "=PYTHON process_crashed@4", ""},
		// The memory monitor's kill, under the driver's OutOfMemoryError.
		{"an out-of-memory kill", rayDrv + rayUp0 + rayUp1 + "ray.exceptions.OutOfMemoryError: Task was killed due to the node running low on memory.\n" + oomDetail + "\n",
			"Ray driver=ERROR ;" + rayW0Name + "=PYTHON ;" + rayW1Name + "=PYTHON process_crashed@5", "ray.exceptions.OutOfMemoryError: Task was killed"},
		// As Ray's guide prints it: the message's first line again
		// between them; not under another exception.
		{"an out-of-memory kill, the guide's", rayDrv + rayUp0 + rayUp1 + "ray.exceptions.OutOfMemoryError: Task was killed due to the node running low on memory.\n\nTask was killed due to the node running low on memory.\n" + oomDetail + "\n",
			"Ray driver=ERROR ;" + rayW0Name + "=PYTHON ;" + rayW1Name + "=PYTHON process_crashed@7", "ray.exceptions.OutOfMemoryError: Task was killed"},
		{"far under its error", rayDrv + rayUp0 + rayUp1 + "ray.exceptions.OutOfMemoryError: Task was killed due to the node running low on memory.\n" +
			strings.Repeat("INFO 03-11 15:25:22 retrying\n", rayOOMWindow) + oomDetail + "\n",
			"Ray driver=ERROR ;" + rayW0Name + "=PYTHON ;" + rayW1Name + "=PYTHON ", "ray.exceptions.OutOfMemoryError: Task was killed"},
		{"not under its error", rayDrv + rayUp0 + rayUp1 + "ValueError: boom\n" + oomDetail + "\n",
			"Ray driver=ERROR ;" + rayW0Name + "=PYTHON ;" + rayW1Name + "=PYTHON ", "ValueError: boom"},
		// The raylet's summary names no pid: the driver's.
		{"the raylet's out-of-memory summary", rayDrv + rayUp0 + oomSummary,
			"Ray driver= process_crashed@3;" + rayW0Name + "=PYTHON ", ""},
		// The autoscaler's infeasible request: a line of the driver's;
		// its other lines and the raylet's others, nothing.
		{"the autoscaler's", rayUp0 + "(autoscaler +15m30s) Tip: use `ray status` to view detailed cluster status. To disable these messages, set RAY_SCHEDULER_EVENTS=0.\n" +
			"(autoscaler +15m30s) Error: No available node types can fulfill resource request {'GPU': 8.0}. Add suitable node types to this cluster to resolve this issue.\n" +
			"(raylet, ip=10.0.0.3) Task _map_task failed. There are infinite retries remaining, so the task will be retried. Error:\n",
			rayW0Name + "=PYTHON ;Ray driver= ", ""},
		{"the raylet's other lines", rayUp0 + "(raylet) The node with node id: 0b6a and address: 10.0.0.3 and node name: 10.0.0.3 has been marked dead because the detector has missed too many heartbeats from it.\n" +
			"(raylet, ip=10.0.0.3) RuntimeError: boom\n(autoscaler +1h0m2s) ValueError: boom\n",
			rayW0Name + "=PYTHON ", ""},
	})
}

// TestRayDeathVerdict: the verdict says whom Ray reports dead, without
// saying the worker's start-up was over (Ray's message does not say); the
// worker it names is counted as crashed, the driver that reports an unknown
// worker's death or the memory monitor's count is not.
func TestRayDeathVerdict(t *testing.T) {
	for _, c := range []struct {
		name, log, want string
		crashed         int
	}{
		{"a known worker", rayDrv + rayUp0 + rayUp1 + "(raylet) " + rayDied2012 + "\n",
			"But Ray reports that " + rayW1Name + " died (line 4).", 1},
		{"an unknown worker", rayDrv + rayUp0 + "(raylet) " + rayDied2012 + "\n",
			"But Ray reports that the worker of PID 2012 died (line 3).", 0},
		{"the memory monitor's summary", rayDrv + rayUp0 + "(raylet) node_manager.cc:3040: 1 Workers (tasks / actors) killed due to memory pressure (OOM), 0 Workers crashed due to other reasons at node (ID: 2c82, IP: 172.31.183.172) over the last time period.\n",
			"But Ray's memory monitor killed workers (line 3).", 0},
	} {
		lg, _ := Parse("f.log", strings.NewReader(c.log))
		v := Judge(lg, nil, true)
		if s := v.Summary(); !strings.HasSuffix(s, c.want) || strings.Contains(s, "crashed after start-up") {
			t.Errorf("%s: %q, want it to end %q", c.name, s, c.want)
		}
		var tl Tally
		tl.Add(v)
		if tl.Crashed != c.crashed {
			t.Errorf("%s: %d counted as crashed, want %d", c.name, tl.Crashed, c.crashed)
		}
	}
}

// TestRayStreamUnseen: a stream is Ray's when any line has Ray's prefix, one
// the scanner passes on or not (chunkResult.ray): the driver is named so
// whether or not a worker's line said something.
func TestRayStreamUnseen(t *testing.T) {
	log := strings.Repeat("INFO 03-11 15:25:20 [loader.py:429] Loading weights\n", 2*excWindow) +
		rayW0 + "INFO 03-11 15:25:20 [loader.py:429] Loading weights took 86.77 seconds\n" +
		strings.Repeat("INFO 03-11 15:25:20 [loader.py:429] Loading weights\n", 2*excWindow) +
		"[TRT-LLM] [E] Failed to initialize RayExecutor: RayGPUWorker died during initialization\n"
	lg, _ := Parse("f.log", strings.NewReader(log))
	ref, _ := parseReference("f.log", strings.NewReader(log))
	for _, l := range []*Log{lg, ref} {
		if len(l.Processes) != 1 || l.Processes[0].Source != rayDriver {
			t.Errorf("%+v, want the Ray driver alone", l.Processes)
		}
	}
}

// TestRayActorRepr: an actor whose class defines __repr__ is named by its
// class until its __init__ returns, then by its repr (_raylet.pyx
// execute_task, verified); TensorRT-LLM's RayWorkerWrapper's repr is
// "RayWorkerWrapper[rank=R]" once torch.distributed is set up
// (ray_gpu_worker.py, verified). The prefix with the repr was no prefix:
// a worker's traceback after its start-up read as the driver's. One worker
// is one process, named by its class, the repr's rank its rank.
func TestRayActorRepr(t *testing.T) {
	const w1 = "(RayWorkerWrapper[rank=1] pid=2012, ip=10.0.0.3) "
	checkCollected(t, []collected{
		{"before and after __init__", rayDrv + rayUp0 + "(RayWorkerWrapper pid=2012, ip=10.0.0.3) [TRT-LLM] [I] Using KvCacheTransceiverV2\n" +
			w1 + "Traceback (most recent call last):\n" + w1 + "  File \"/usr/local/lib/python3.12/dist-packages/tensorrt_llm/executor/ray_gpu_worker.py\", line 88, in setup_engine\n" +
			w1 + "RuntimeError: NIXL agent failed\n" + rayDrvTB,
			"Ray driver=ERROR ;" + rayW0Name + "=PYTHON ;" + rayW1Name + "=ERROR ", "ray.exceptions.ActorDiedError"},
		// TensorRT-LLM's own rank decides when the line has one.
		{"the tag's rank first", w1 + "[TRT-LLM] [RANK 3] [I] Using KvCacheTransceiverV2\n",
			"RayWorkerWrapper pid=2012, ip=10.0.0.3 rank 3=PYTHON ", ""},
		// Ray's logging guide's repr; behind a driver's prefix.
		{"another repr", "(MyActor(index=2) pid=482120) [TRT-LLM] [I] Using KvCacheTransceiverV2\n" +
			"(EngineCore_DP0 pid=479) (RayWorkerWrapper[rank=0] pid=223, ip=192.168.141.7) [TRT-LLM] [I] Using KvCacheTransceiverV2\n",
			"MyActor pid=482120=PYTHON ;EngineCore_DP0 pid=479 / RayWorkerWrapper pid=223, ip=192.168.141.7 rank 0=PYTHON ", ""},
		// Not a repr: a blank in it, nothing before the blank, a pid that
		// does not read.
		{"not Ray's", "(My Actor pid=5) [TRT-LLM] [RANK 1] [I] Using KvCacheTransceiverV2\n([rank=1] pid=5) [TRT-LLM] [RANK 2] [I] Using KvCacheTransceiverV2\n" +
			"(pid=5[x] pid=6) [TRT-LLM] [RANK 4] [I] Using KvCacheTransceiverV2\n",
			"rank 1=PYTHON ;rank 2=PYTHON ;rank 4=PYTHON ", ""},
	})
}

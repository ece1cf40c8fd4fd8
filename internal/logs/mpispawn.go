package logs

import (
	"strconv"
	"strings"
)

// The executor's MPI workers that could not be spawned.
//
// Without an MPI world of the model's size (a single process, not launched
// by mpirun or trtllm-llmapi-launch), TensorRT-LLM's executor proxy starts
// its workers with MpiPoolSession, whose MPIPoolExecutor (mpi4py.futures)
// spawns them with MPI_Comm_spawn from a thread of its own running
// _manager_spawn (GenerationExecutorProxy in tensorrt_llm/executor/proxy.py
// prints "rank 0 using MpiPoolSession to spawn MPI processes" first;
// MpiPoolSession._start_mpi_pool in tensorrt_llm/llmapi/mpi_session.py;
// _manager_spawn calling client_spawn in mpi4py's src/mpi4py/futures/_lib.py;
// all verified). When MPI refuses the spawn, Python's thread hook prints
// "Exception in thread Thread-3 (_manager_spawn):" over the thread's
// traceback (TensorRT-LLM issue #5495, Dynamo PR #808 and PR #15060): no
// worker started, so none built an executor or a transceiver, whatever the
// log level.

// mpiSpawnHeader reports whether a bare line is Python's header over the
// traceback of mpi4py's spawning thread.
func mpiSpawnHeader(tm string) bool {
	rest, ok := strings.CutPrefix(tm, "Exception in thread ")
	return ok && strings.HasSuffix(rest, " (_manager_spawn):")
}

// mpiSpawnFix is what TensorRT-LLM's LLM API guide advises for MPI trouble
// on a Slurm node or in a container ("Tips and Troubleshooting" in
// docs/source/llm-api/index.md, verified), and where MPI says why.
const mpiSpawnFix = "MPI's own lines before it, where the log holds them, say why it refused (Open MPI's \"All nodes which are allocated for this job are already filled.\" or \"There are not enough slots available in the system …\": no free slot for the workers in the job's allocation); TensorRT-LLM's LLM API guide advises starting the command under `mpirun -n 1 --oversubscribe --allow-run-as-root` on a Slurm node or in a container"

// mpiSpawnNote is the implication of an exception raised in that thread.
const mpiSpawnNote = "MPI could not spawn the executor's workers (mpi4py's spawning thread, _manager_spawn, raised this): no worker started, so none built a transceiver; " + mpiSpawnFix

// mpiSpawnSummary is the verdict of a log that shows no process, only the
// spawn's failure at line n.
func mpiSpawnSummary(n int) string {
	return "No TensorRT-LLM transceiver lines found: MPI could not spawn the executor's workers (line " + strconv.Itoa(n) +
		": mpi4py's spawning thread, _manager_spawn, raised), so no worker started and none built a transceiver; the log level is not why. " +
		strings.ToUpper(mpiSpawnFix[:1]) + mpiSpawnFix[1:] + "."
}

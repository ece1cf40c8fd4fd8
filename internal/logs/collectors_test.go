package logs

import (
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
	tb := func(p string) string {
		return p + "Traceback (most recent call last):\n" +
			p + "  File \"/usr/local/lib/python3.12/dist-packages/tensorrt_llm/_torch/pyexecutor/py_executor_creator.py\", line 612, in create_py_executor\n" +
			p + "    kv_cache_transceiver = create_kv_cache_transceiver(\n" +
			p + "ValueError: KvCacheTransceiverV2 requires a finite kv_transfer_timeout_ms\n"
	}
	const e = "ValueError: KvCacheTransceiverV2 requires a finite kv_transfer_timeout_ms"
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

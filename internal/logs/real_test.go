package logs

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// realLog is what xcvr must read in a log excerpt a user published: the
// processes in order, each "source=OUTCOME" (outcome "" when not shown), the
// first process's error, the finding kinds and implication texts of all
// processes (each want is a substring of one), and the verdict's exit status
// without a prediction.
type realLog struct {
	file         string
	processes    string
	err          string
	cause        string
	findings     []string
	implications []string
	exit         int
}

const vssCause = "CUDA out of memory. Tried to allocate 136.00 MiB. GPU 0 has a total capacity of 14.56 GiB of which 58.38 MiB is free. Process 244271 has 26.06 MiB memory in use. Process 238746 has 1.08 GiB memory in use. Process 244515 has 468.00 MiB memory in use. Including non-PyTorch memory, this process has 12.90 GiB memory in use. Of the allocated memory 12.72 GiB is allocated by PyTorch, and 69.61 MiB is reserved by PyTorch but unallocated. If reserved but unallocated memory is large try setting PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True to avoid fragmentation.  See documentation for Memory Management  (https://pytorch.org/docs/stable/notes/cuda.html#environment-variables)"

// TestRealLogs reads excerpts of real TensorRT-LLM logs, copied as published
// (testdata/real; what was trimmed is said by each entry), and checks the
// reading of each against TensorRT-LLM's code that prints its lines.
func TestRealLogs(t *testing.T) {
	for _, c := range []realLog{
		// ai-dynamo/aiconfigurator PR #375 (description): a Dynamo trtllm
		// worker's Rust-formatted error line, then the C++ assertion as the
		// PR pasted it ("[TensorRT-LLM[][ERROR[]", the markdown export's
		// escaping) and its first three frames.
		{file: "dynamo-rust-assert-mangled.log", processes: "process=ERROR",
			err: "RuntimeError: [TensorRT-LLM[][ERROR[] Assertion failed: maxNumTokens.value() % tokensPerBlock == 0",
			implications: []string{"max_tokens_in_buffer is not a multiple of the KV cache's tokens per block",
				"the C++ transceiver (BindKvCacheTransceiver) was being created"}, exit: 1},
		// ai-dynamo/dynamo PR #5523 (description): the C++ transceiver's
		// dynamic-buffer warning, indented and wrapped over three lines.
		{file: "dynamo-cachebuffer-warning-wrapped.log", processes: "process=",
			findings: []string{FindingDynamicBuffer}, exit: 1},
		// A public Dynamo deployment test report (TensorRT-LLM 1.2.0rc3,
		// tensorrtllm-runtime 0.7.0.post1), "NIXL UCX Backend Working":
		// NIXL's own line and the C++ agent's two, bare.
		{file: "deploy-report-nixl-bare.log", processes: "process=", exit: 1},
		// NVIDIA dgx-spark-playbooks, TensorRT-LLM GPT-OSS 120B run: an
		// aggregated trtllm-serve 1.1.0rc3 (wget progress, the second
		// KV-cache sizing's repeated warnings and CUDA-graph warm-up lines
		// trimmed).
		{file: "spark-gptoss-agg-1.1.0rc3.log", processes: "process=DISABLED", exit: 0},
		// NVIDIA/Model-Optimizer issue (mirrored; 1.3.0rc20 container, GB10):
		// a tmux copy, every line padded with blanks to the pane's width, a
		// tmux status ("22:42:35 [196/2078]") inside the traceback (frames
		// of the two tracebacks trimmed).
		{file: "modelopt-1.3.0rc20-trailing-ws.log", processes: "process=ERROR",
			err: "IndexError: tuple index out of range", exit: 1},
		// ai-dynamo/dynamo PR #2278 (description; TensorRT-LLM 1.0.0rc4):
		// the error a disaggregated worker without cache_transceiver_config
		// raised on its first request. The assertion is #5234's (1.0.0rc4 on),
		// and 1.0.0rc4 to 1.0.0 refuse upper-case backend names (lower-case
		// Literal until #6323): the advice names both spellings.
		{file: "dynamo-pr2278-transceiver-disabled.log", processes: "process=DISABLED",
			findings: []string{FindingNoTransceiver}, implications: []string{"built no KV-cache transceiver",
				"(DEFAULT, UCX or NIXL; 1.0.0rc4 to 1.0.0 take them lower-case: default, ucx, nixl)"}, exit: 0},
		// ai-dynamo/dynamo PR #8954 (description): Dynamo's test harness
		// labels each line of a worker with "[PYTHON3] "; the excerpt stops
		// inside the traceback (its last, cut line dropped), at worker_main's
		// "worker.submit(req)": a worker taking requests whose transceiver
		// lines are not in the excerpt (TestWorkerSubmitCall).
		{file: "dynamo-pr8954-python3-prefix.log", processes: "process=", exit: 1},
		// A Dynamo GPT-OSS recipe's README (TensorRT-LLM 1.1.0rc2.post2,
		// aggregated, TP 4): the worker's log as the README annotates it,
		// "# " comments between its lines.
		{file: "dynamo-recipe-gptoss-agg-annotated.log", processes: "rank 0=,rank 1=,rank 2=,rank 3=", exit: 1},
		// ai-dynamo/dynamo PR #15060 (comment): a worker on the
		// tensorrt-llm/release:1.3.0rc27 image (Open MPI 5) that could not
		// spawn its MPI workers, as the comment quotes the engine log.
		{file: "dynamo-pr15060-mpi-spawn-1.3.0rc27.log", processes: "process=ERROR",
			err:          "mpi4py.MPI.Exception: MPI_ERR_UNKNOWN: unknown error",
			implications: []string{"MPI could not spawn the executor's workers", "mpirun -n 1 --oversubscribe --allow-run-as-root"}, exit: 1},
		// NVIDIA dgx-spark-playbooks, Nemotron on the AutoDeploy backend
		// (1.2.0rc5, aggregated): AutoDeploy's own "[TRT-LLM AUTO-DEPLOY]"
		// lines, UCX's version warnings, the playbook's "...." elision; the
		// preamble above "Using LLM with AutoDeploy backend" trimmed.
		{file: "spark-autodeploy-1.2.0rc5.log", processes: "process=", exit: 1},
		// A public model-bring-up report (MiMo-V2-Flash, 1.3.0rc0):
		// quickstart_advanced.py's raw output, a benign C++ ERROR line
		// (multicast unsupported on H100 PCIe), no worker INFO line.
		{file: "mimo-1.3.0rc0-llmapi.log", processes: "process=", exit: 1},
		// ai-dynamo/dynamo issue #6678 (TensorRT-LLM workers, KVBM+MTP):
		// the frontend's log as k9s shows it, each line framed "│ … │".
		// No line is TensorRT-LLM's.
		{file: "dynamo-6678-k9s-frontend.log", processes: "", exit: 1},
		// ai-dynamo/dynamo issue #4299 (tensorrtllm-runtime 0.5.1,
		// disagg-multinode on k8s): a worker's log, Dynamo's own lines
		// in its Rust format between TensorRT-LLM's, Dynamo's engine-args
		// dump (its start cut by the excerpt) and the NIXL agent of
		// Dynamo's NIXL Connect, which is not the transceiver's; the cut
		// last line dropped.
		{file: "dynamo-4299-rust-prefix-0.5.1.log", processes: "process=", exit: 1},
		// A public Dynamo deployment guide (nscale, GCP, AWS), "Fix
		// NIXL_PLUGIN_DIR for decode multinode": the crash of a decode
		// worker whose TensorRT-LLM NIXL loaded the system's plugins, as the
		// guide quotes it (markdown "> ", the title wrapped after its colon).
		// NIXL's own line under it is why: no UCX plugin for this NIXL.
		{file: "dynamo-guide-nixl-plugin-quoted.log", processes: "process=ERROR",
			err:          "RuntimeError: [TensorRT-LLM][ERROR] Assertion failed:\n  status == NIXL_SUCCESS (transferAgent.cpp:416)",
			implications: []string{"NIXL found no UCX plugin, so the transfer agent cannot create its UCX backend"}, exit: 1},
		// A public NVIDIA VSS deployment write-up (docker compose on a
		// 16 GB GPU): the container's start-up failure, its cause whole.
		{file: "vss-compose-oom.log", processes: "via-server-1=ERROR",
			err: "Failed to initialize executor on rank 0: CUDA out of memory.", cause: vssCause, exit: 1},
		// A public DGX Spark project report (Korean; gpt-oss-120b on
		// TensorRT-LLM): the three lines it kept of the failed session.
		{file: "spark-report-fp4-moe-summary.log", processes: "process=ERROR",
			err: "RuntimeError: Only SM100 is supported by FP4 block scale MOE", exit: 1},
		// A public benchmark report (TensorRT-LLM 1.2.1 on RTX PRO 6000,
		// Qwen3.6), "Failure mode": server log line 278 as the report
		// quotes it, wrapped after the colon and word-wrapped at about 67
		// columns, not indented: the cause is the whole message
		// (TestUnindentedWrappedCause).
		{file: "bench-report-qwen3_5-wrapped.log", processes: "process=ERROR",
			err: "Failed to initialize executor on rank 0:", cause: "The checkpoint you are trying to load has model type `qwen3_5` but Transformers does not recognize this architecture. This could be because of an issue with the checkpoint, or because your version of Transformers is out of date.", exit: 1},
		// A public TensorRT-LLM 1.2.1 bring-up report (Qwen3.8-27B-FP8 on an
		// H100; index id 66094399229, repository not named): the failure as
		// the report condenses it, the start-up line's message wrapped and
		// indented, then two exception lines (the second elided with "...").
		// The cause is the whole sentence (midSentence).
		{file: "probe-report-qwen3_5-condensed.log", processes: "process=ERROR", err: "KeyError: 'qwen3_5'",
			cause: "The checkpoint you are trying to load has model type `qwen3_5` but Transformers does not recognize this architecture.", exit: 1},
		// NVIDIA/TensorRT-LLM PR #5415 (comment, 2025-07-16): a traceback
		// of the PyTorch executor's loop thread (_executor_loop_overlap)
		// ending in a C++ KV-cache-manager assertion, as the comment quotes
		// it (its opening quote mark kept; the C++ frames after the first
		// dropped). The executor was running: a runtime error, not how
		// start-up ended.
		// ai-dynamo/dynamo PR #1690 (description, June 2025): a WideEP
		// decode worker under srun -l (" 0: ") logging the traceback of
		// worker_main's submit of its first request (after the first
		// token); the excerpt as the index keeps it (its cut last line
		// dropped). A traceback through submit is not start-up's
		// (TestWorkerSubmitTraceback).
		{file: "dynamo-pr1690-srun-submit.log", processes: "srun task 0=", exit: 1},
		// ai-dynamo/dynamo issue #5095 (description, TensorRT-LLM workers,
		// disaggregated): the C++ KV-cache manager's storeContextBlocks
		// warnings, then rank 0's iteration line (print_iter_log), as the
		// index keeps the excerpt (that last line cut after host_step_time's
		// digits, kept: its start is what is read). TestIterationLine.
		{file: "dynamo-5095-iter-after-warnings.log", processes: "rank 0=", exit: 1},
		{file: "trtllm-pr5415-executor-loop.log", processes: "process=",
			findings: []string{FindingRuntimeError}, exit: 1},
		// NVIDIA/TensorRT-LLM issue #5390 (description, June 2025): a
		// forward step's CUBLAS failure, whose traceback PyExecutor's
		// _forward_step prints before it logs "Encountered an error in
		// forward function" and fails the requests (it does not raise),
		// then the loop thread's own crash ("Exception in thread Thread-4
		// (_executor_loop_overlap)", the loop before _event_loop_wrapper).
		// Two parts of the issue's log as the index keeps them (the frames
		// between them, and each part's cut last line, trimmed).
		{file: "trtllm-5390-forward-step-loop.log", processes: "process=", findings: []string{FindingRuntimeError}, exit: 1},
		// NVIDIA/TensorRT-LLM issue #9263 (description, Nov 2025): rank 0's
		// start-up failure in NCCL's communicator, its location wrapped onto
		// the next line, under the C++ frames of an earlier print (the
		// part before frame 32, and the cut frame 3, trimmed).
		{file: "trtllm-9263-nccl-rank0.log", processes: "rank 0=ERROR",
			err:   "Failed to initialize executor on rank 0: [TensorRT-LLM][ERROR] Assertion failed: Failed, NCCL error",
			cause: "Assertion failed: Failed, NCCL error ../tensorrt_llm/runtime/ncclCommunicator.cpp:90 'invalid usage (run with NCCL_DEBUG=WARN for details)' (../tensorrt_llm/runtime/ncclCommunicator.cpp:90)", exit: 1},
		// ai-dynamo/dynamo issue #1299 (TensorRT-LLM 0.21.0rc0 under
		// Dynamo's serve, "taking too much time to come live"): the worker's
		// lines as the issue pastes them, from Dynamo's frontend line to the
		// second KV-cache sizing (the rest trimmed). The C++ transceiver's
		// constructor says it made its UCX connection manager.
		{file: "dynamo-1299-ucx-manager-0.21.log", processes: "process=CPP", exit: 0},
		// NVIDIA/TensorRT-LLM PR #18373 (description): a disaggregated
		// test's workers on GB300 with UCX_TLS=tcp, as the PR condenses
		// their log: the C++ binding agent's init line, NIXL's Abseil lines
		// shortened ("E nixl_agent.cpp:545] …"), rank 1's start-up failure.
		// NIXL's error lines are rank 0's (the last rank named above them)
		// and say why.
		{file: "trtllm-pr18373-ucx-tls-condensed.log", processes: "rank 0=,rank 1=ERROR",
			implications: []string{"UCX_TLS=tcp names no CUDA transport", "UCX takes the GPU's memory for host memory, so NIXL cannot register the KV cache",
				"NIXL could not register memory (the KV cache's) with any of its backends",
				"a NIXL call failed in the KV-cache transfer agent (transferAgent.cpp)"}, exit: 1},
		// NVIDIA/TensorRT-LLM issue #15182 (description; a 1.3 build of June
		// 2026, Kimi K2.6): the C++ KV-cache lines 1.3 forwards through its
		// Python logger ("[batchmgr][RANK n]", no timestamp) between _torch's
		// timestamped ones, ranks 0 and 2 interleaved, during the KV-cache
		// estimation's dry run; ten lines as the index keeps them. Two ranks,
		// neither past its transceiver yet.
		{file: "trtllm-15182-batchmgr-ranks-1.3.log", processes: "rank 0=,rank 2=", exit: 1},
		// ai-dynamo/dynamo issue #6671 (description; Dynamo 0.9.0's TRT-LLM
		// runtime image, three NIXL builds in it): the crash of both workers
		// as the issue quotes it, the C++ error's location wrapped onto the
		// next line. That location is where it failed: the transfer agent's.
		{file: "dynamo-6671-nixl-assert-wrapped.log", processes: "process=ERROR",
			err:          "RuntimeError: [TensorRT-LLM][ERROR] Assertion failed: status == NIXL_SUCCESS\n(../tensorrt_llm/executor/cache_transmission/nixl_utils/transferAgent.cpp:416)",
			implications: []string{"a NIXL call failed in the KV-cache transfer agent (transferAgent.cpp)", "a libnixl.so of another NIXL build: Dynamo issue #6671"}, exit: 1},
		// ai-dynamo/dynamo issue #4299 (comment, 2025-11-17; TensorRT-LLM
		// 1.1.0rc5 under Dynamo on k8s): rank 0's start-up failure in NCCL's
		// allreduce (opUtils.cpp), its location on a line of its own, and the
		// first two C++ frames (the rest trimmed). Read right before this
		// session; kept so it stays so.
		{file: "dynamo-4299-opUtils-nccl-1.1.0rc5.log", processes: "rank 0=ERROR",
			err:   "Failed to initialize executor on rank 0: Failed, NCCL error ../tensorrt_llm/common/opUtils.cpp:125 'invalid usage (run with NCCL_DEBUG=WARN for details)'",
			cause: "Failed, NCCL error ../tensorrt_llm/common/opUtils.cpp:125 'invalid usage (run with NCCL_DEBUG=WARN for details)' (../tensorrt_llm/common/opUtils.cpp:125)", exit: 1},
		// NVIDIA/TensorRT-LLM issue #6281 (description, 1.0.0rc3/rc4, TP 2 on
		// two RTX 4090): rank 1 out of CUDA memory while loading its weights,
		// run_concurrently's ERROR line behind tqdm's bar (no newline between),
		// as the index keeps the excerpt (the line cut in its last sentence,
		// kept: its start is what is read). That line is all its failure
		// printed here, and run_concurrently raises after it: start-up failed.
		// NVIDIA/TensorRT-LLM issue #1826 (description): a rank's uncaught
		// TllmException, in its shape (our text): libstdc++'s terminate
		// line, its "what():" line with the C++ error, the C++ frames, Open
		// MPI's signal report. The exception is how start-up ended; the
		// abort after it is the same death.
		{file: "trtllm-1826-terminate-shape.log", processes: "process=ERROR",
			err: "tensorrt_llm::common::TllmException: [TensorRT-LLM][ERROR] Assertion failed: Failed: MPI error", exit: 1},
		// NVIDIA/TensorRT-LLM issue #12694 (description; 1.2.0rc6.post2
		// under Dynamo, 2P1D): the prefill worker's segfault, in its shape
		// (our paths), each line under the deployment's "replica-0/
		// engine-prefill | " label. The excerpt shows only the crash: the
		// banner is PyTorch's handler's, which a benchmark client or another
		// engine prints as well, but its frames run through TensorRT-LLM's
		// own build (/src/tensorrt_llm/cpp/…), so it is the prefill
		// worker's death (TestPastedTracebackThroughTRTLLM; the banner
		// alone is not a TensorRT-LLM log: TestNotTRTLLMCrashOnly).
		{file: "trtllm-12694-replica-segfault-shape.log", processes: "replica-0/engine-prefill=ERROR",
			err: "!!!!!!! Segfault encountered !!!!!!!", exit: 1},
		// A public NVBugs draft (index id 58365800132, repository not named;
		// TensorRT-LLM 1.3.0rc15 on B300, MLA decode): the NVRTC failure of
		// every rank's warm-up as the draft quotes it, its C++ diagnostics
		// (four of seven kept) and one line for all ranks, "[RANK N]" and
		// "on rank N:" (TestRankPlaceholder); the version line is the one
		// the draft says the log printed.
		{file: "nvbugs-draft-nvrtc-rankN-1.3.0rc15.log", processes: "process=ERROR",
			err: "Failed to initialize executor on rank N:", cause: "Failed to preprocess kernel ...: NVRTC_ERROR_COMPILATION", exit: 1},
		// A public developer's notes on beam search in disaggregated serving
		// (index id 56537573517, repository not named; a 1.3 build of May
		// 2026): the context worker's debug lines (the notes' own, added to
		// KvCacheTransceiverV2) and the orchestrator's ("proxy:") as the
		// notes paste them, one after the other (its first debug line,
		// longer, trimmed). The router's "server is ready with info" makes it
		// the orchestrator's log, and its request handler's ValueError its
		// own finding, said in its summary (TestOrchestratorOwnFindings).
		{file: "beam-notes-disagg-proxy-1.3.log", processes: "process=", findings: []string{FindingRuntimeError}, exit: 1},
		// A public NIM troubleshooting recipe (index id 51889558551,
		// repository not named; NIM on TensorRT-LLM before 1.0.4, k8s): the
		// executor's failure as the recipe quotes it, the logger's level put
		// before the tag and dropped after it ("ERROR [TRT-LLM] Failed to
		// initialize executor on rank 0:"), the pybind error under it
		// (TestLevelLessTag).
		{file: "nim-recipe-levelless-tag.log", processes: "process=ERROR",
			err: "Failed to initialize executor on rank 0:", cause: "setup(): incompatible function arguments.", exit: 1},
		// A public k8s deployment write-up (Korean; index id 52979530354,
		// repository not named; TensorRT-LLM 1.1.0, TensorRT engine, TP 4):
		// the crash-looping container's log, its plugin-config dump trimmed
		// to a few lines: trtllm-serve's own ERROR line and the pydantic error
		// it raises again (max_batch_size above the engine's). Read right
		// before this session; kept so it stays so.
		{file: "k8s-notes-trtllm-args-1.1.0.log", processes: "process=ERROR",
			err: "pydantic_core._pydantic_core.ValidationError: 1 validation error for TrtLlmArgs", exit: 1},
		// The public TensorRT-LLM 1.2.1 bring-up report of the probe entry
		// above (index id 66094399229), "the decisive transcript": its
		// import of tensorrt_llm on a host without the NVIDIA driver, as the
		// report quotes it (paths elided with "..."). The loader's missing
		// libcuda.so.1 is the driver's (TestMissingSharedLibrary).
		{file: "probe-report-import-libcuda-1.2.1.log", processes: "process=ERROR",
			err:          "ImportError: libcuda.so.1: cannot open shared object file",
			implications: []string{"libcuda.so.1 is the NVIDIA driver's library"}, exit: 1},
		// A public RunPod environment report (Chinese; index id 7167239683,
		// repository not named): the pip wheel of TensorRT-LLM, built for
		// CUDA 13, imported under CUDA 12.4, as the report's appendix quotes
		// it (frames elided with "..."): CUDA 13's cuBLASLt is missing.
		{file: "runpod-report-import-cublas13.log", processes: "process=ERROR",
			err:          "ImportError: libcublasLt.so.13: cannot open shared object file",
			implications: []string{"a CUDA 13 library that is not installed"}, exit: 1},
		// ai-dynamo/dynamo issue #1422 (description, June 2025): dynamo-run's
		// engine subprocess (vLLM here) logging its traceback line by line at
		// DEBUG under dynamo_run::subprocess, indented as the issue quotes it
		// (its cut last line dropped). No line is TensorRT-LLM's; the same
		// shape from the trtllm engine is read (TestDynamoRunSubprocess).
		{file: "dynamo-1422-subprocess-debug-vllm.log", processes: "", exit: 1},
		// LMCache/LMCache issue #725 (comment, June 2025): a vLLM pod's log
		// with UCX's ERROR line (the pod's name as its host) and NIXL's
		// Abseil warning. Neither is TensorRT-LLM's: no process, no ucx_error.
		{file: "lmcache-725-pod-ucx-nixl.log", processes: "", exit: 1},
		// sgl-project/sglang issue #5709 (comment, April 2025): an SGLang
		// prefill server's NIXL and UCX lines and uvicorn's start-up. Not
		// TensorRT-LLM's.
		{file: "sglang-5709-nixl-ucx-uvicorn.log", processes: "", exit: 1},
		// vllm-project/vllm issue #14601 (description, March 2025): Ray
		// workers' forwarded lines, then PyTorch's excepthook's "[rank0]: "
		// traceback, in a conda environment named trtllm (the traceback
		// cut where the index cuts it). Not TensorRT-LLM's: the environment's
		// name is no tensorrt_llm frame.
		{file: "vllm-14601-ray-rank0-trtllm-env.log", processes: "", exit: 1},
		// NVIDIA/TensorRT-LLM issue #6366 (description; 1.0.0rc2, GB200,
		// disaggregated wide-EP under the slurm example's srun -l): the
		// generation worker's NCCL failure as the issue quotes "work's log",
		// its first line without srun's label, the location and two C++
		// frames under task 8's. Read right before this session; kept so.
		{file: "trtllm-6366-gb200-nccl-srun-1.0.0rc2.log", processes: "process=ERROR",
			err: "RuntimeError: Failed, NCCL error /src/tensorrt_llm/cpp/tensorrt_llm/common/opUtils.cpp:125 'unhandled system error", exit: 1},
		// NVIDIA/TensorRT-LLM issue #9680 (description; 1.2.0rc2 on four
		// L40S, TP 4, a hang): the last lines before it, one INFO line of the
		// proxy and UCX's four version WARN lines (not findings), as the
		// index keeps them. The log stops before any transceiver line: not
		// shown, exit 1.
		{file: "trtllm-9680-l40s-hang-ucx-warn-1.2.0rc2.log", processes: "process=", exit: 1},
		// NVIDIA/TensorRT-LLM issue #7706 (description, Sept 2025; Whisper
		// under trtllm-serve, the 1.0/1.1 proxy: _start_executor_workers at
		// proxy.py:332): the traceback's tail as the issue pastes it, the
		// worker's own error not in it. The generic error says where the
		// reason is (TestProxyOnlyError).
		{file: "trtllm-7706-proxy-only-1.x.log", processes: "process=ERROR", err: "RuntimeError: Executor worker returned error",
			implications: []string{"the executor proxy's generic error: a worker's start-up failed, and its own error, the reason, is not in this log"}, exit: 1},
		// NVIDIA/TensorRT-LLM issue #5495 (description, June 2025; the
		// installation guide's sanity check): the last lines as the issue
		// pastes them, padded with blanks to the terminal's width, the proxy's
		// "rank 0 using MpiPoolSession to spawn MPI processes", Open MPI's
		// refusal to spawn and the thread's traceback header, where the index
		// cuts it. TensorRT-LLM's log that stops before its transceiver
		// (TestMpiSessionLineMakesTRTLLM), not "not a TensorRT-LLM log";
		// its verdict says MPI could not spawn the workers, with the LLM API
		// guide's fix, not the log level (TestMPISpawnFailure).
		{file: "trtllm-5495-mpi-spawn-cut-padded.log", processes: "", exit: 1},
		// NVIDIA/TensorRT-LLM issue #4392 (description, May 2025): the
		// exception its "System Info" quotes, then the trtllm-serve
		// traceback of its "Reproduction" as the index keeps it (cut at its
		// last frame). The line under transformers' lazy-import error is the
		// error it names, flash_attn built for another torch
		// (TestLazyImportCause).
		{file: "trtllm-4392-lazy-import-flash-attn.log", processes: "process=ERROR",
			err:          "RuntimeError: Failed to import transformers.models.bert.modeling_bert because of the following error (look up to see its traceback):\n/usr/local/lib/python3.12/dist-packages/flash_attn_2_cuda.cpython-312-x86_64-linux-gnu.so: undefined symbol: _ZN3c105ErrorC2ENS_14SourceLocationENSt7__cxx1112basic_stringIcSt11char_traitsIcESaIcEEE",
			implications: []string{"flash_attn_2_cuda.cpython-312-x86_64-linux-gnu.so lacks a symbol of PyTorch's own C++ library"}, exit: 1},
		// A public blog post, "Local LLMs IV - Installing and running
		// TensorRT-LLM" (2025-11-22; index id 43862839722, repository not
		// named): an LLM API run of Qwen3-8B on 1.2.0rc2 as the post pastes
		// it, from the version line to the first lines of the output (the
		// model's answer trimmed). Aggregated: no transceiver, and the
		// worker's Python INFO lines are not printed; LLM.generate's progress
		// bar shows requests were served (TestLLMProgress).
		{file: "blog-llmapi-qwen3-1.2.0rc2.log", processes: "process=", exit: 1},
		// NVIDIA/Model-Optimizer issue #220 (description, June 2025;
		// TensorRT-LLM of then, DeepSeek-V3-0324-FP4 on B200x8): rank 1's
		// forward step, the traceback _forward_step printed (its head cut by
		// the index), the CUDA error's four lines, the logger's "Encountered
		// an error in forward function: …" with the same four, and the event
		// loop's ERROR line, cut by the index (kept: its start is what is
		// read). The forward step caught the error and failed the requests:
		// a runtime error of a rank whose loop ran, not how start-up ended.
		{file: "modelopt-220-forward-cuda-rank1.log", processes: "rank 1=", findings: []string{FindingRuntimeError}, exit: 1},
		// NVIDIA/TensorRT-LLM issue #9931 (description, Dec 2025; 1.2.0rc2,
		// DeepSeek V3 with MAX_UTILIZATION): a Grafana copy, each line under
		// its collector's tab-framed timestamp line, rank 0's iteration line,
		// rank 7's "Error in event loop: vector::_M_default_append" and the
		// thread hook's traceback header, as the index keeps it (the
		// traceback cut after its first frame; rank 5's cut line dropped).
		// Rank 7's loop died: its logged line is the runtime error.
		// ai-dynamo/dynamo issue #6734 (description, Feb 2026;
		// tensorrtllm-runtime:0.9.0, a disaggregated decode worker of
		// python3 -m dynamo.trtllm): the decode worker's crash as the index
		// keeps the issue's log, from the thread hook's header into
		// _prepare_disagg_gen_init, cut there (the cut frame's line
		// dropped; the issue's title names the exception, "Assertion
		// failed: emplaceDone"). The loop's thread died: a runtime error.
		{file: "dynamo-6734-decode-event-loop-0.9.0.log", processes: "process=", findings: []string{FindingRuntimeError}, exit: 1},
		// NVIDIA/TensorRT-LLM issue #2708 (comment, Jan 2025; a main build,
		// d93a2dde, a TensorRT engine under the C++ executor): the C++
		// executor's step failing in the KV-cache manager and its first
		// four C++ frames (the rest trimmed). The requests failed, the
		// executor went on: a runtime error (TestCppForwardAsyncError).
		{file: "trtllm-2708-forwardasync-nextblocks.log", processes: "process=", findings: []string{FindingRuntimeError}, exit: 1},
		// triton-inference-server/tensorrtllm_backend issue #710
		// (description, Feb 2025): Triton's load failure of a TensorRT-LLM
		// model with lookahead decoding as the issue quotes it ("> "), the
		// backend's exception and its C++ frames escaped ("\n") on one line
		// the paste wrapped once, cut where the index keeps it. The
		// executor's start-up failed (TestQuotedTrtllmError).
		{file: "triton-710-lookahead-escaped.log", processes: "process=ERROR",
			err: "[TensorRT-LLM][ERROR] Assertion failed: 16 != 40 (/workspace/tensorrt_llm/cpp/tensorrt_llm/layers/lookaheadDecodingLayer.cpp:56)", exit: 1},
		// NVIDIA/TensorRT-LLM issue #2419 (comment, Feb 2025; 0.17.0.post1
		// under Triton, an encoder-decoder model): Triton's lines around the
		// failed load of 'tensorrt_llm', the ensemble's line that quotes the
		// backend's exception, cut where the index keeps it (the frames
		// above it, an earlier quote's end, trimmed).
		{file: "triton-2419-model-lifecycle-0.17.log", processes: "process=ERROR",
			err: "[TensorRT-LLM][ERROR] Assertion failed: Do not set crossKvCacheFraction for", exit: 1},
		// NVIDIA/TensorRT-LLM issue #5451 (description, June 2025; a 0.20
		// TensorRT engine with lookahead decoding under Baseten's Briton):
		// Briton's request line and its glog line quoting the C++
		// executor's step failure. The executor was up; its requests failed.
		{file: "briton-5451-forwardasync.log", processes: "process=", findings: []string{FindingRuntimeError}, exit: 1},
		// NVIDIA/TensorRT-LLM issue #2443 (maintainer's comment, Nov 2024;
		// main then, a TensorRT engine built without a KV cache): the one
		// line the comment quotes, libstdc++'s what() of the uncaught
		// TllmException. The process aborted (TestLoneWhatLine).
		{file: "trtllm-2443-what-kvcacheless.log", processes: "process=ERROR",
			err: "what():  [TensorRT-LLM][ERROR] Assertion failed: KV-cache-less is only supported for context (/app/tensorrt_llm/cpp/tensorrt_llm/plugins/gptAttentionPlugin/gptAttentionPlugin.cpp:1019)", exit: 1},
		// NVIDIA/TensorRT-LLM issue #4708 (description, May 2025; a 0.20/1.0
		// build, DeepSeek-R1-FP4 with MTP): the autotuner's and CUDA-graph
		// warm-up's lines, then rank 3's start-up failure in the FP4 MoE
		// kernel and its first two C++ frames (the rest trimmed).
		{file: "trtllm-4708-fp4-mtp-rank3.log", processes: "process=ERROR",
			err:   "Failed to initialize executor on rank 3: [TensorRT-LLM][ERROR] CUDA runtime error in cudaMemsetAsync(",
			cause: "CUDA runtime error in cudaMemsetAsync(fc1_act_sf_flat, 0x0, getOffsetFlatSFArray(num_experts_per_node, num_rows, cols), stream): an illegal memory access was encountered (/builds/ftp/internalcutlasskernels/cpp/tensorrt_llm/kernels/internal_cutlass_kernels/src/moe_gemm/moe_kernels.cu:1282)", exit: 1},
		// NVIDIA/TensorRT-LLM issue #3500 (description, April 2025; 0.18.1,
		// a TensorRT engine under the Python runtime on an L4): the
		// traceback's last frame and the C++ error under it, as the issue
		// pastes it from there (its later frames trimmed).
		{file: "trtllm-3500-cudahostalloc-0.18.1.log", processes: "process=ERROR",
			err: "RuntimeError: [TensorRT-LLM][ERROR] CUDA runtime error in ::cudaHostAlloc(ptr, n, cudaHostAllocDefault): invalid argument", exit: 1},
		{file: "trtllm-9931-grafana-event-loop-1.2.0rc2.log", processes: "rank 0=,rank 7=", findings: []string{FindingRuntimeError}, exit: 1},
		// NVIDIA/TensorRT-LLM issue #10417 (description, Jan 2026; a main
		// build of then, Nemotron nano v3 under trtllm-serve): the crash as
		// the issue quotes it ("> "), uvicorn's request line, three of
		// PyTorch's device-side asserts, the forward step's traceback, as the
		// index keeps it (cut in its third frame). The server was serving:
		// a process whose loop ran (TestLoopFrameMakesProcess).
		{file: "trtllm-10417-quoted-forward-step-cut.log", processes: "process=", exit: 1},
		// NVIDIA/TensorRT-LLM issue #13179 (description, April 2026; a 1.3
		// build, Nemotron 3 Super): a Grafana copy, each line under its
		// collector's timestamp framed by tabs, the frames of the event
		// loop's traceback down to the Mamba cache manager, as the index
		// keeps them (cut before "RuntimeError: run out of mamba cache
		// blocks", the issue's title). The loop ran.
		{file: "trtllm-13179-grafana-loop-frames.log", processes: "process=", exit: 1},
		// NVIDIA/TensorRT-LLM issue #10810 (description, Jan 2026; a
		// TensorRT engine under the C++ executor, streaming with logprobs):
		// the C++ KV-cache lines, the C++ executor's "CacheTransceiver is
		// disabled." (no transceiver: DISABLED, its lines read), the script's
		// own "Aborted generation", then libstdc++'s terminate over a
		// c10::Error, as the index keeps it (the frames after the first cut).
		// The crash came as the script cancelled a request, but no line of
		// TensorRT-LLM's says start-up was over: it reads as how start-up
		// ended.
		{file: "trtllm-10810-cpp-executor-disabled-terminate.log", processes: "process=ERROR",
			err: "c10::Error: Trying to create tensor with negative dimension -4: [-4, 1, 49152]", exit: 1},
		// NVIDIA/TensorRT-LLM issue #7818 (description, Sept 2025; a 1.1
		// build, eight ranks on 22 GB GPUs, LoRA): the weight loading's
		// failures as the issue quotes them ("> "), rank 2's on one line (the
		// paste broke its URL: "environment-varia" over "bles)"), rank 6's
		// args' repr over four lines, Linear's children and ")): CUDA out of
		// memory. …", as the index keeps it (cut in its last sentence, the
		// line ended with a newline so a followed read takes it as well).
		// Both ranks failed at start-up (TestLoadTaskFailed).
		{file: "trtllm-7818-quoted-load-oom-repr.log", processes: "rank 2=ERROR,rank 6=ERROR",
			err:   "Error executing load_single_module with args ('model.layers.9.mlp.gate_up_proj', Linear()): CUDA out of memory. Tried to allocate 40.00 MiB.",
			cause: "CUDA out of memory. Tried to allocate 40.00 MiB. GPU 0 has a total capacity of 22.07 GiB of which 20.62 MiB is free. Process 157 has 270.00 MiB memory in use. Process 451 has 1.16 GiB memory in use. Including non-PyTorch memory, this process has 1.12 GiB memory in use. Process 453 has 1.28 GiB memory in use. Process 454 has 1.14 GiB memory in use. Process 455 has 1.20 GiB memory in use. Process 450 has 7.69 GiB memory in use. Process 456 has 1.08 GiB memory in use. Process 457 has 1.16 GiB memory in use. Of the allocated memory 880.00 MiB is allocated by PyTorch, and 20.00 MiB is reserved by PyTorch but unallocated. If reserved but unallocated memory is large try setting PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True to avoid fragmentation.  See documentation for Memory Management  (https://pytorch.org/docs/stable/notes/cuda.html#environment-variables)", exit: 1},
		// NVIDIA/TensorRT-LLM issue #5950 (description, July 2025; 1.0.0rc2,
		// DeepSeek-V3 W4FP8 on eight H20, OOM where 1.0.0rc1 was not): the
		// executor's out-of-memory error as the issue pastes it, alone, over
		// its lines, as the index keeps it (its cut last line dropped). It
		// is TensorRT-LLM's own error, and its component line says what ran
		// out (TestExecutorOOMExplained).
		{file: "trtllm-5950-executor-oom-explained-1.0.0rc2.log", processes: "process=ERROR",
			err:          "RuntimeError: Executor creation failed due to insufficient GPU memory.",
			implications: []string{"while creating 'Additional executor resources'", "TensorRT-LLM's option for it: reduce max_num_tokens"}, exit: 1},
		// NVIDIA/TensorRT-LLM issue #13557 (comment, June 2026; a 1.3 build,
		// AutoDeploy, DeepSeek-R1 NVFP4): both ranks' start-up failure as the
		// comment quotes them, 1.3's "[executor][RANK n]" after the level,
		// inside one markdown code span (a blank and a backtick before the
		// first line, a backtick after the last, which rank 0's error keeps:
		// the quoting is the paste helper's to read).
		{file: "trtllm-13557-autodeploy-ranks-1.3.log", processes: "rank 0=ERROR,rank 1=ERROR",
			err:   "Failed to initialize executor on rank 0: auto_deploy::torch_dist_all_gather() expected at most 3 argument(s) but received 5 argument(s).",
			cause: "auto_deploy::torch_dist_all_gather() expected at most 3 argument(s) but received 5 argument(s). Declaration: auto_deploy::torch_dist_all_gather(Tensor tensor, SymInt dim=0, SymInt[]? sizes=None) -> Tensor", exit: 1},
		// NVIDIA/TensorRT-LLM issue #5389 (description, June 2025; a 1.0
		// release candidate, DeepSeek FP8 block-scale MoE): rank 0's start-up
		// failure in the trtllm-gen GEMM runner, under flashinfer's JIT line
		// (its first byte cut by the index) and the autotuner's, and the
		// first C++ frames, as the index keeps it (the cut fifth frame dropped).
		{file: "trtllm-5389-gemm-assert-rank0.log", processes: "rank 0=ERROR",
			err:   "Failed to initialize executor on rank 0: [TensorRT-LLM][ERROR] Assertion failed: Error occurred when running GEMM!",
			cause: "Assertion failed: Error occurred when running GEMM! (/src/tensorrt_llm/cpp/tensorrt_llm/kernels/trtllmGenKernels/batchedGemm/KernelRunner.cpp:180)", exit: 1},
		// triton-inference-server/tutorials PR #150 (comment, April 2025): a
		// Triton server's log of TensorRT-LLM through its LLM API model, the
		// C++ KV-cache manager's storeContextBlocks warnings (the estimation's
		// dry-run requests), the final KV cache's lines, Triton's
		// "successfully loaded 'tensorrt_llm'" and its table's head, as the
		// index keeps it (the table trimmed). No transceiver line: not shown.
		{file: "triton-tutorials-150-llmapi-storecontext.log", processes: "process=", exit: 1},
		// ai-dynamo/dynamo issue #4299 (comment, 2025-11-17; TensorRT-LLM
		// 1.1.0rc5 under Dynamo on k8s): the line after rank 0's NCCL
		// failure (dynamo-4299-opUtils-nccl-1.1.0rc5.log), the proxy's
		// "Executor worker initialization error: Traceback …" and the
		// worker's traceback as the index keeps it (cut in create_py_executor_
		// instance). The proxy says the worker's start-up failed
		// (TestWorkerInitError).
		{file: "dynamo-4299-worker-init-cut-1.1.0rc5.log", processes: "process=ERROR",
			err: "Executor worker initialization error: Traceback (most recent call last):", exit: 1},
		// ai-dynamo/dynamo issue #1299 (a later comment, May 2025; the
		// TensorRT-LLM 0.21 example under Dynamo's serve, "taking too much
		// time to come live"): the Processor's lines in Dynamo's Rust format,
		// padded with blanks, and TensorRT-LLM's proxy spawning its MPI
		// workers between them, as the index keeps them (the cut last line
		// dropped). TensorRT-LLM's log (the proxy's line), stopped before any
		// line of its transceiver.
		{file: "dynamo-1299-serve-mpi-spawn-0.21.log", processes: "", exit: 1},
		{file: "trtllm-6281-load-single-module-oom.log", processes: "rank 1=ERROR",
			err:   "Error executing load_single_module with args ('model.layers.29.mlp.gate_up_proj', Linear()): CUDA out of memory. Tried to allocate 126.00 MiB.",
			cause: "CUDA out of memory. Tried to allocate 126.00 MiB. GPU 0 has a total capacity of 23.53 GiB of which 43.00 MiB is free. Process 32689 has 404.00 MiB memory in use. Process 33095 has 19.44 GiB memory in use. Process 33096 has 3.63 GiB memory in use. Of the allocated memory 2", exit: 1},
	} {
		t.Run(c.file, func(t *testing.T) {
			f, err := os.Open(filepath.Join("testdata", "real", c.file))
			if err != nil {
				t.Fatal(err)
			}
			defer f.Close()
			lg, err := Parse(c.file, f)
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, p := range lg.Processes {
				got = append(got, fmt.Sprintf("%s=%s", p.Source, p.Outcome()))
			}
			if s := strings.Join(got, ","); s != c.processes {
				t.Errorf("processes %s, want %s", s, c.processes)
			}
			if len(lg.Processes) == 0 {
				return
			}
			if e := lg.Processes[0].Error; !strings.HasPrefix(e, c.err) || (c.err == "") != (e == "") {
				t.Errorf("error %q, want %q", e, c.err)
			}
			if g := lg.Processes[0].Cause; g != c.cause {
				t.Errorf("cause %q, want %q", g, c.cause)
			}
			var kinds, impl []string
			for _, p := range lg.Processes {
				for _, fd := range p.Findings {
					kinds = append(kinds, fd.Kind)
				}
				for _, im := range p.Implications {
					impl = append(impl, im.Text)
				}
			}
			if strings.Join(kinds, ",") != strings.Join(c.findings, ",") {
				t.Errorf("findings %v, want %v", kinds, c.findings)
			}
			for _, w := range c.implications {
				if !strings.Contains(strings.Join(impl, "\n"), w) {
					t.Errorf("no implication says %q: %q", w, impl)
				}
			}
			if x := Judge(lg, nil, true).Exit(); x != c.exit {
				t.Errorf("exit %d, want %d", x, c.exit)
			}
		})
	}
}

// TestTrailingBlanks: a terminal's copy pads each line with blanks (a tmux
// pane in the Model-Optimizer issue's log, Dynamo's pastes in its issues);
// TensorRT-LLM's messages read the same without them.
func TestTrailingBlanks(t *testing.T) {
	for _, c := range []struct{ log, want string }{
		{"[12/20/2025-04:21:10] [TRT-LLM] [I] cache_transceiver is disabled   \n", "DISABLED"},
		{"[TRT-LLM] [I] [_torch  ] [RANK 0] Using KvCacheTransceiverV2\t \r\n", "PYTHON"},
		{"[TensorRT-LLM][INFO] Using KvCacheTransceiverV2 \n", "PYTHON"},
		// k9s's frame, as Dynamo issue #6678 pasted its logs.
		{"│ [TRT-LLM] [I] [_torch  ] [RANK 0] Using KvCacheTransceiverV2                    │\n", "PYTHON"},
		{"│ [01/05/2026-10:00:01] [TRT-LLM] [I] cache_transceiver is disabled │\n", "DISABLED"},
	} {
		lg, _ := Parse("f.log", strings.NewReader(c.log))
		if len(lg.Processes) != 1 || string(lg.Processes[0].Outcome()) != c.want {
			t.Errorf("%q: %s outcome %v", c.log, sources(lg), lg.Processes)
			continue
		}
		if m := lg.Processes[0].Lines[0].Message; strings.TrimSpace(m) != m {
			t.Errorf("%q: kept %q", c.log, m)
		}
	}
}

// TestDynamicBufferWordings: both wordings of the C++ transceiver's
// dynamic-buffer warning (cacheTransBuffer.cpp) are the finding, and so is
// its first line alone (a paste that wraps it).
func TestDynamicBufferWordings(t *testing.T) {
	for _, msg := range []string{
		"CacheTransceiver getOrAllocateBuffers: bufferCoverTargetNum:0 < targetNum:1, may use dynamic buffer which will fail with NIXL backend. It is recommended to set cacheTransceiverConfig.MaxTokensInBuffer (cache_transceiver_config.max_tokens_in_buffer in config YAML file) to a value greater than the maximum ISL of the processed requests.",
		"CacheTransceiver getOrAllocateBuffers: bufferCoverTargetNum:2 < targetNum:4, may use dynamic buffer, it's better to increase MaxTokensInBuffer in cacheTransceiverConfig, otherwise, the performance may be degraded",
		"CacheTransceiver getOrAllocateBuffers: bufferCoverTargetNum:0 < targetNum:1,",
	} {
		lg, _ := Parse("f.log", strings.NewReader("[TensorRT-LLM][WARNING] "+msg+"\n"))
		if len(lg.Processes) != 1 || len(lg.Processes[0].Findings) != 1 || lg.Processes[0].Findings[0].Kind != FindingDynamicBuffer {
			t.Errorf("%q: %s %+v", msg, sources(lg), lg.Processes)
		}
	}
}

// TestNoTransceiverAssertion: the assertion executor/worker.py raises per
// request when a disaggregated request reaches a worker without a
// transceiver is not a start-up failure: the worker built none (DISABLED) and
// the request is a finding, after the server's line or without one (Dynamo's
// workers print no uvicorn line).
func TestNoTransceiverAssertion(t *testing.T) {
	const exc = "AssertionError: kv_cache_transceiver is disabled, please set 'cache_transceiver_config: backend:<backend_type>` in config file for disaggregated serving\n"
	for _, log := range []string{
		"[TRT-LLM] [RANK 0] [I] cache_transceiver is disabled\nTraceback (most recent call last):\n  File \"worker.py\", line 1, in _enqueue_request\n" + exc,
		exc,
		"[TRT-LLM] [I] cache_transceiver is disabled\nINFO:     Application startup complete.\n" + exc,
		// Through the worker's submit, as worker_main's traceback shows it:
		// still this assertion, not a runtime error.
		"[TRT-LLM] [RANK 0] [I] cache_transceiver is disabled\nTraceback (most recent call last):\n" +
			"  File \"/x/tensorrt_llm/executor/worker.py\", line 756, in worker_main\n    worker.submit(req)\n" +
			"  File \"/x/tensorrt_llm/executor/worker.py\", line 520, in submit\n    request_id = self._enqueue_request(request)\n" + exc,
	} {
		lg, _ := Parse("f.log", strings.NewReader(log))
		if len(lg.Processes) != 1 {
			t.Fatalf("%q: %s", log, sources(lg))
		}
		p := lg.Processes[0]
		if p.Outcome() != "DISABLED" || p.Error != "" || len(p.Findings) != 1 || p.Findings[0].Kind != FindingNoTransceiver {
			t.Errorf("%q: outcome %q error %q findings %+v", log, p.Outcome(), p.Error, p.Findings)
		}
	}
	// Another assertion is still how start-up ended.
	lg, _ := Parse("f.log", strings.NewReader("[TRT-LLM] [I] Starting TensorRT LLM init.\nAssertionError: kv_cache_manager is None\n"))
	if p := lg.Processes[0]; p.Outcome() != "ERROR" {
		t.Errorf("another assertion: %q", p.Outcome())
	}
}

// TestLoggedFallbackTraceback: ModelLoader logs the traceback of a failed
// meta-device init at INFO ("Fallback to regular model init: " +
// traceback.format_exc(), model_loader.py) and goes on; its exception line
// is logged, not raised. A healthy 1.2.1 worker read "Start-up failed" on it.
// The first line is as a public job scanner quotes it (job 557546); the lines
// under it are what format_exc prints.
func TestLoggedFallbackTraceback(t *testing.T) {
	const fallback = "[08/20/2026-10:00:01] [TRT-LLM] [I] [_torch][RANK 2] Fallback to regular model init: Traceback (most recent call last):\n" +
		"  File \"/usr/local/lib/python3.12/dist-packages/tensorrt_llm/_torch/pyexecutor/model_loader.py\", line 251, in load\n" +
		"    model = AutoModelForCausalLM.from_config(config_copy)\n" +
		"AttributeError: 'NemotronHConfig' object has no attribute 'x'\n\n"
	if !mayObserve([]byte("Fallback to regular model init: Traceback (most recent call last):")) {
		t.Fatal("the scanner's filter drops the fallback line")
	}
	lg, _ := Parse("f.log", strings.NewReader(fallback+
		"[08/20/2026-10:00:09] [TRT-LLM] [I] [_torch][RANK 2] Using KvCacheTransceiverV2\n"))
	if p := lg.Processes[0]; len(lg.Processes) != 1 || p.Outcome() != "PYTHON" || p.Error != "" {
		t.Fatalf("%s: outcome %q error %q", sources(lg), p.Outcome(), p.Error)
	}
	// What follows the fallback's exception line is read again: a real
	// failure of the same rank after it, bare or after its ERROR line.
	for _, after := range []string{
		"torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.62 GiB.\n",
		"[08/20/2026-10:00:09] [TRT-LLM] [E] [_torch][RANK 2] Failed to initialize executor on rank 2: CUDA out of memory\n",
	} {
		lg, _ := Parse("f.log", strings.NewReader(fallback+after))
		if p := lg.Processes[0]; p.Outcome() != "ERROR" || !strings.Contains(p.Error, "out of memory") {
			t.Errorf("%q: outcome %q error %q", after, p.Outcome(), p.Error)
		}
	}
	// An ERROR line of the rank closes the fallback even if its traceback
	// had no exception line of the usual form.
	lg, _ = Parse("f.log", strings.NewReader("[TRT-LLM] [I] [RANK 0] Fallback to regular model init: Traceback (most recent call last):\n"+
		"AssertionError\n[TRT-LLM] [E] [RANK 0] Executor worker initialization error: x\nRuntimeError: boom\n"))
	if p := lg.Processes[0]; p.Outcome() != "ERROR" || p.Error != "RuntimeError: boom" {
		t.Errorf("after an ERROR line: outcome %q error %q", p.Outcome(), p.Error)
	}
}

// TestExceptionClassNamedException: Python's own Exception and mpi4py's
// MPI.Exception (a failed spawn of the executor's MPI workers, the 1.3.0rc27
// image in Dynamo PR #15060) end start-up as any other exception; a bare
// "Error: …" (a shell's, a tool's) is still no exception.
func TestExceptionClassNamedException(t *testing.T) {
	for line, want := range map[string]string{
		"mpi4py.MPI.Exception: MPI_ERR_SPAWN: could not spawn processes": "ERROR",
		"Exception: boom": "ERROR",
		"Error: boom":     "",
	} {
		lg, _ := Parse("f.log", strings.NewReader("[TRT-LLM] [W] [executor] Orchestrator is creating IPC executor\n"+line+"\n"))
		if got := string(lg.Processes[0].Outcome()); got != want {
			t.Errorf("%q: outcome %q, want %q", line, got, want)
		}
	}
}

// TestNotShownButServerUp: a process that shows no outcome did not always
// stop before its transceiver: when its server came up (uvicorn's line),
// start-up was over and the lines that would show the transceiver are what
// is missing. The DGX Spark 1.1.0rc3 log without its two "cache_transceiver
// is disabled" lines; cut before its server came up, it stops before them.
func TestNotShownButServerUp(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("testdata", "real", "spark-gptoss-agg-1.1.0rc3.log"))
	if err != nil {
		t.Fatal(err)
	}
	var kept []string
	for _, l := range strings.Split(string(data), "\n") {
		if !strings.Contains(l, "cache_transceiver is disabled") {
			kept = append(kept, l)
		}
	}
	whole := strings.Join(kept, "\n")
	lg, _ := Parse("f.log", strings.NewReader(whole))
	v := Judge(lg, nil, true)
	if v.Status != StatusNotShown || !strings.Contains(v.Summary(), "though the server came up (line 48)") || v.Exit() != 1 {
		t.Errorf("server up: %s %q exit %d", v.Status, v.Summary(), v.Exit())
	}
	cut := whole[:strings.Index(whole, "INFO:     Started server process")]
	lg, _ = Parse("f.log", strings.NewReader(cut))
	if s := Judge(lg, nil, true).Summary(); strings.Contains(s, "server came up") || !strings.Contains(s, "the log stops before it") {
		t.Errorf("cut before the server: %q", s)
	}
}

// TestCPPTransceiverConstructorFrame: a start-up failure whose C++ frames
// pass through CacheTransceiver's constructor happened while
// BindKvCacheTransceiver built the C++ transceiver: under an exception (as
// aiconfigurator PR #375's Dynamo worker printed it) or under "Failed to
// initialize executor on rank N:"; a frame past the lines an exception's own
// can be is not read.
func TestCPPTransceiverConstructorFrame(t *testing.T) {
	const frame = "3       0x7f84ed8af610 tensorrt_llm::batch_manager::CacheTransceiver::CacheTransceiver(tensorrt_llm::batch_manager::kv_cache_manager::BaseKVCacheManager*, std::optional<tensorrt_llm::executor::CacheTransceiverConfig>) + 1312\n"
	says := func(lg *Log) bool {
		for _, im := range lg.Processes[0].Implications {
			if strings.Contains(im.Text, "the C++ transceiver (BindKvCacheTransceiver) was being created") {
				return true
			}
		}
		return false
	}
	for _, log := range []string{
		"RuntimeError: [TensorRT-LLM][ERROR] Assertion failed: x (cacheTransBuffer.cpp:206)\n1       0x7f8524ec97bf tensorrt_llm::_v1::common::throwRuntimeError(char const*, int, char const*) + 76\n" + frame,
		"[TRT-LLM] [RANK 0] [E] Failed to initialize executor on rank 0: [TensorRT-LLM][ERROR] Assertion failed: x\n" + frame,
	} {
		if lg, _ := Parse("f.log", strings.NewReader(log)); !says(lg) {
			t.Errorf("%q: %+v", log, lg.Processes[0].Implications)
		}
	}
	far := "[TRT-LLM] [I] Starting TensorRT LLM init.\nRuntimeError: boom\n" + strings.Repeat("some other line\n", excWindow) + frame
	if lg, _ := Parse("f.log", strings.NewReader(far)); says(lg) {
		t.Errorf("a frame %d lines under the exception was read", excWindow+1)
	}
}

// TestEventLoopException: an exception PyExecutor's event loop raises is a
// runtime finding of its process, not how its start-up ended: the loop runs
// in an executor built after its transceiver. The loop shows itself by a
// traceback frame in it (TensorRT-LLM PR #5415's comment), by Python's
// header over its thread's traceback (Dynamo issue #6734's decode worker:
// its first lines as published, the end of its traceback ours), or by its
// own ERROR line; the logger's copy and the thread hook's of one exception
// are one finding. A start-up failure after it (the KV-cache estimation runs
// the loop during start-up) still ends start-up, and a traceback elsewhere
// is still a start-up failure.
func TestEventLoopException(t *testing.T) {
	const dynamo6734 = "Exception in thread Thread-3 (_event_loop_wrapper):\n" +
		"Traceback (most recent call last):\n" +
		"  File \"/usr/lib/python3.12/threading.py\", line 1073, in _bootstrap_inner\n" +
		"    self.run()\n" +
		"  File \"/usr/lib/python3.12/threading.py\", line 1010, in run\n" +
		"    self._target(*self._args, **self._kwargs)\n" +
		"  File \"/opt/dynamo/venv/lib/python3.12/site-packages/tensorrt_llm/_torch/pyexecutor/py_executor.py\", line 517, in _event_loop_wrapper\n" +
		"    raise e\n"
	const exc = "RuntimeError: [TensorRT-LLM][ERROR] Assertion failed: emplaceDone\n"
	logged := "[TRT-LLM] [E] Error in event loop: [TensorRT-LLM][ERROR] Assertion failed: emplaceDone\n" +
		"[TRT-LLM] [E] Traceback (most recent call last):\n" +
		"  File \"/x/py_executor.py\", line 513, in _event_loop_wrapper\n    self.event_loop()\n" + exc
	for _, c := range []struct {
		name, log, outcome string
		count              int
	}{
		{"thread hook", dynamo6734 + exc, "", 1},
		// The logger's line alone: a copy cut before the traceback's
		// exception (TensorRT-LLM issue #9931's rank 7).
		{"the loop's ERROR line alone", "[12/05/2025-06:23:18] [TRT-LLM] [RANK 7] [E] Error in event loop: vector::_M_default_append\n", "", 1},
		{"the loop's ERROR line, then the thread hook's", "[TRT-LLM] [E] Error in event loop: [TensorRT-LLM][ERROR] Assertion failed: emplaceDone\n" + dynamo6734 + exc, "", 1},
		{"logger and thread hook", logged + dynamo6734 + exc, "", 1},
		{"ranked", "[TRT-LLM] [RANK 1] [I] [_torch  ] Using KvCacheTransceiverV2\n" + dynamo6734 + exc, "PYTHON", 1},
		{"then start-up fails", dynamo6734 + exc + "[TRT-LLM] [E] Failed to initialize executor on rank 0: [TensorRT-LLM][ERROR] Assertion failed: emplaceDone\n", "ERROR", 1},
		{"elsewhere", "Traceback (most recent call last):\n  File \"/x/model_loader.py\", line 3, in load\n" + exc, "ERROR", 0},
		// A traceback of the loop's thread cut before its exception (the
		// issue's copy as the index keeps it): the thread hook's header
		// alone says the loop's thread died, a runtime error. A later
		// exception, after a restart or far below, is start-up's again.
		{"thread hook cut before its exception", dynamo6734, "", 1},
		{"after a restart", dynamo6734 + "[TensorRT-LLM] TensorRT-LLM version: 1.1.0rc5\n" + exc, "ERROR", 1},
		{"far below", dynamo6734 + strings.Repeat("    x = y\n", loopWindow) + exc, "ERROR", 1},
		{"another thread", "Exception in thread Thread-1 (run):\nTraceback (most recent call last):\n" + exc, "ERROR", 0},
		{"loop as the thread's target (before _event_loop_wrapper)", "Exception in thread Thread-4 (_executor_loop_overlap):\n" + exc, "", 1},
		{"forward step's printed traceback", "Traceback (most recent call last):\n  File \"/x/tensorrt_llm/_torch/pyexecutor/py_executor.py\", line 1608, in _forward_step\n" + exc, "", 1},
		// A paste that starts at the printed exception (issue #5390's two
		// lines): the forward step's ERROR line under it says it was caught.
		{"forward step's exception, its frames cut", "RuntimeError: CUDA error: CUBLAS_STATUS_EXECUTION_FAILED when calling x\n" +
			"[06/21/2025-03:55:04] [TRT-LLM] [E] Encountered an error in forward function: CUDA error: CUBLAS_STATUS_EXECUTION_FAILED when calling x\n", "", 1},
		{"another exception above the forward step's line", "RuntimeError: boom\n[TRT-LLM] [E] Encountered an error in forward function: other\n", "ERROR", 0},
		// A CUDA error's message is four lines and a newline, on the
		// printed exception and on the logger's line alike (Model-Optimizer
		// issue #220's rank 1).
		{"forward step's CUDA error of four lines", cudaErr("RuntimeError: ") + "\n" +
			"[06/16/2025-05:33:58] [TRT-LLM] [RANK 1] [E] Encountered an error in forward function: " + cudaErr("") + "\n", "", 1},
		{"forward step's CUDA error of four lines, the rank shown before", "[TRT-LLM] [RANK 1] [I] [Autotuner]: Autotuning process ends\n" +
			cudaErr("RuntimeError: ") + "\n[TRT-LLM] [RANK 1] [E] Encountered an error in forward function: " + cudaErr(""), "", 1},
		{"the same message far above the forward step's line", cudaErr("RuntimeError: ") + strings.Repeat("\n", forwardWindow) +
			"[TRT-LLM] [RANK 1] [E] Encountered an error in forward function: " + cudaErr(""), "ERROR", 0},
		{"model engine's _forward_step", "Traceback (most recent call last):\n  File \"/x/model_engine.py\", line 1962, in _forward_step\n" + exc, "ERROR", 0},
	} {
		lg, _ := Parse("f.log", strings.NewReader(c.log))
		if len(lg.Processes) != 1 {
			t.Fatalf("%s: %s", c.name, sources(lg))
		}
		p := lg.Processes[0]
		count := processFinding(p, FindingRuntimeError).Count
		if string(p.Outcome()) != c.outcome || count != c.count {
			t.Errorf("%s: outcome %q error %q, %d runtime error(s)", c.name, p.Outcome(), p.Error, count)
		}
	}
	lg, _ := Parse("f.log", strings.NewReader(dynamo6734+exc))
	if s := Judge(lg, nil, true).Summary(); !strings.Contains(s, "though the executor's event loop ran (line 1)") {
		t.Errorf("verdict: %s", s)
	}
	// The finding says the error as its exception line does, once it
	// comes; until then as the logger's line does.
	for log, want := range map[string]string{
		logged + dynamo6734 + exc: "RuntimeError: [TensorRT-LLM][ERROR] Assertion failed: emplaceDone",
		"[TRT-LLM] [RANK 7] [E] Error in event loop: vector::_M_default_append\n": "Error in event loop: vector::_M_default_append",
		dynamo6734: "Exception in thread Thread-3 (_event_loop_wrapper): (the executor's loop thread died; the exception's line is not in the log)",
	} {
		lg, _ := Parse("f.log", strings.NewReader(log))
		if f := lg.Processes[0].Findings; len(f) != 1 || f[0].Text != want || f[0].Line != 1 {
			t.Errorf("%q: findings %+v, want %q at line 1", log, f, want)
		}
	}
}

// TestLoopFrameMakesProcess: a traceback frame in the executor's loop (or
// the worker's submit) is TensorRT-LLM's own code running, so a copy that
// stops inside that traceback, before its exception, is a process whose loop
// ran, not a log without processes that may have stopped before start-up
// (TensorRT-LLM issue #10417's quote: uvicorn's request line, CUDA's device
// asserts, the forward step's traceback, cut). A traceback elsewhere, cut
// so, still makes none.
func TestLoopFrameMakesProcess(t *testing.T) {
	const quoted = "> INFO:     127.0.0.1:41166 - \"POST /v1/chat/completions HTTP/1.1\" 200 OK\n" +
		"> /opt/pytorch/pytorch/aten/src/ATen/native/cuda/TensorCompare.cu:112: _assert_async_cuda_kernel: block: [0,0,0], thread: [0,0,0] Assertion `` failed.\n" +
		"> Traceback (most recent call last):\n" +
		">   File \"/x/TensorRT-LLM/tensorrt_llm/_torch/pyexecutor/py_executor.py\", line 2259, in _forward_step\n" +
		">     outputs = forward(scheduled_requests, self.resource_manager,\n"
	for _, c := range []struct{ name, log, want string }{
		{"forward step, quoted", quoted, "though the executor's event loop ran (line 4)"},
		{"the loop's thread", "Exception in thread Thread-3 (_event_loop_wrapper):\nTraceback (most recent call last):\n", "though the executor's event loop ran (line 1)"},
		{"the worker's submit", "Traceback (most recent call last):\n  File \"/x/tensorrt_llm/executor/worker.py\", line 520, in submit\n", "though its worker was taking requests (line 2)"},
	} {
		lg, _ := Parse("f.log", strings.NewReader(c.log))
		if len(lg.Processes) != 1 || lg.Processes[0].Outcome() != "" {
			t.Errorf("%s: %s", c.name, sources(lg))
			continue
		}
		if s := Judge(lg, nil, true).Summary(); !strings.Contains(s, c.want) {
			t.Errorf("%s: %s", c.name, s)
		}
	}
	lg, _ := Parse("f.log", strings.NewReader("Traceback (most recent call last):\n  File \"/x/tensorrt_llm/_torch/pyexecutor/model_loader.py\", line 3, in load\n"))
	if len(lg.Processes) != 0 {
		t.Errorf("a traceback elsewhere: %s", sources(lg))
	}
}

// TestExecutorOOMExplained: create_py_executor raises the executor's
// out-of-memory error over several lines (_ExecutorMemoryMonitor, verified
// 1.0 to 1.3): TensorRT-LLM's own words, so a paste of that exception alone
// is a TensorRT-LLM process that failed (issue #5950), and its line naming
// the component says what ran out and TensorRT-LLM's option for it, under
// the exception or under "Failed to initialize executor on rank N: …".
func TestExecutorOOMExplained(t *testing.T) {
	const exc = "RuntimeError: Executor creation failed due to insufficient GPU memory.\n\n"
	const rank0 = "[TRT-LLM] [RANK 0] [E] Failed to initialize executor on rank 0: Executor creation failed due to insufficient GPU memory.\n\n"
	for _, c := range []struct{ name, log, want string }{
		{"the exception alone (issue #5950)", exc + "The following component could not be created: Additional executor resources\nTotal GPU memory (GiB): 95.00\n",
			"while creating 'Additional executor resources' (the error's next lines list the free memory before it and what each component built earlier took); TensorRT-LLM's option for it: reduce max_num_tokens"},
		{"under the start-up line", rank0 + "The following component could not be created: KV cache\n", "while creating 'KV cache'"},
		{"an earlier spelling", exc + "The following component could not be created: Initial KV cache (temporary for KV cache size estimation)\n",
			"TensorRT-LLM's option for it: reduce max_num_tokens"},
		{"a component without an option", exc + "The following component could not be created: Guided Decoder\n", "while creating 'Guided Decoder' (the error's next lines list the free memory before it and what each component built earlier took)"},
		{"another error", "[TRT-LLM] [RANK 0] [E] Failed to initialize executor on rank 0: boom\nThe following component could not be created: KV cache\n", ""},
		{"far below", exc + strings.Repeat("x\n", excWindow) + "The following component could not be created: KV cache\n", ""},
	} {
		lg, _ := Parse("f.log", strings.NewReader(c.log))
		if len(lg.Processes) != 1 || lg.Processes[0].Outcome() != "ERROR" {
			t.Errorf("%s: %s", c.name, sources(lg))
			continue
		}
		var got []string
		for _, im := range lg.Processes[0].Implications {
			if strings.Contains(im.Text, "ran out of GPU memory") {
				got = append(got, im.Text)
			}
		}
		if c.want == "" && len(got) != 0 || c.want != "" && (len(got) != 1 || !strings.Contains(got[0], c.want)) ||
			strings.Contains(c.name, "without an option") && len(got) == 1 && strings.Contains(got[0], "option for it") {
			t.Errorf("%s: %q, want %q", c.name, got, c.want)
		}
	}
}

// cudaErr is PyTorch's message of a CUDA error after title, as str(e) gives
// it (c10's CUDA check): four lines, the last ending in a newline.
func cudaErr(title string) string {
	return title + "CUDA error: an illegal memory access was encountered\n" +
		"CUDA kernel errors might be asynchronously reported at some other API call, so the stacktrace below might be incorrect.\n" +
		"For debugging consider passing CUDA_LAUNCH_BLOCKING=1\n" +
		"Compile with `TORCH_USE_CUDA_DSA` to enable device-side assertions.\n"
}

// TestNIXLErrorLines: NIXL's error lines that say why its agent failed are
// read with Abseil's prefix (as NIXL prints them: nixl issue #1561, sglang
// PR #27894), shortened (TensorRT-LLM PR #18373) or bare (a guide's quote),
// and kept as the process's lines with what they mean; other Abseil lines,
// warnings and look-alikes are not.
func TestNIXLErrorLines(t *testing.T) {
	for line, want := range map[string]string{
		"E0421 11:56:59.774282  709103 nixl_agent.cpp:259] getPluginParams: backend 'UCX' not found":                                         "NIXL found no UCX plugin",
		"E0717 07:30:06.719655  994396 nixl_agent.cpp:545] registerMem: registration failed for the specified or all potential backends":     "NIXL could not register memory",
		"E ucx_utils.cpp:585] VRAM memory is detected as host by UCX.":                                                                       "UCX takes the GPU's memory for host memory",
		"VRAM memory is detected as host by UCX. UCX is likely not configured with CUDA support. VRAM registration cannot proceed.":          "UCX takes the GPU's memory for host memory",
		"  getPluginParams: backend 'LIBFABRIC' not found":                                                                                   "NIXL found no LIBFABRIC plugin",
		"W0421 11:56:59.774282  709103 nixl_agent.cpp:259] getPluginParams: backend 'UCX' not found":                                         "",
		"E0717 07:30:06.719655  994396 nixl_agent.cpp:359] createBackend: backend 'UCX' encountered error during intra-agent transfer setup": "",
		"Error: x] getPluginParams: backend 'UCX' not found":                                                                                 "",
		"getPluginParams: backend 'UCX' not found in the list":                                                                               "",
	} {
		lg, _ := Parse("f.log", strings.NewReader("[TRT-LLM] [RANK 0] [I] x\n"+line+"\n"))
		var got string
		for _, p := range lg.Processes {
			for _, im := range p.Implications {
				got = im.Text
			}
		}
		if !strings.HasPrefix(got, want) || (want == "") != (got == "") {
			t.Errorf("%q: implication %q, want %q", line, got, want)
		}
	}
}

// TestTransceiverLinesCounted: the reports' "N with transceiver lines"
// counts processes that printed a line about the transceiver or its
// transfers, or failed inside it (a C++ frame in its constructor, an
// assertion in its NIXL agent); not one that only raised while loading its
// model or at runtime, as the real logs below did.
func TestTransceiverLinesCounted(t *testing.T) {
	var tally Tally
	for file, want := range map[string]string{
		"bench-report-qwen3_5-wrapped.log":     "1 process(es), 0 with transceiver lines",
		"vss-compose-oom.log":                  "1 process(es), 0 with transceiver lines",
		"spark-report-fp4-moe-summary.log":     "1 process(es), 0 with transceiver lines",
		"trtllm-pr5415-executor-loop.log":      "1 process(es), 0 with transceiver lines",
		"dynamo-rust-assert-mangled.log":       "1 process(es), 1 with transceiver lines",
		"trtllm-pr18373-ucx-tls-condensed.log": "2 process(es), 2 with transceiver lines",
		"spark-gptoss-agg-1.1.0rc3.log":        "1 process(es), 1 with transceiver lines",
		"dynamo-6671-nixl-assert-wrapped.log":  "1 process(es), 1 with transceiver lines",
	} {
		data, err := os.ReadFile(filepath.Join("testdata", "real", file))
		if err != nil {
			t.Fatal(err)
		}
		lg, _ := Parse(file, strings.NewReader(string(data)))
		v := Judge(lg, nil, true)
		var b strings.Builder
		WriteText(&b, v, Prediction{}, false)
		if first, _, _ := strings.Cut(b.String(), "\n"); !strings.HasSuffix(first, want) {
			t.Errorf("%s: %q, want …%q", file, first, want)
		}
		tally.Add(v)
	}
	var b strings.Builder
	tally.WriteSummary(&b)
	if !strings.Contains(b.String(), "8 logs, 9 process(es), 5 with transceiver lines") {
		t.Errorf("summary: %s", b.String())
	}
}

// TestCppConnectionManagerLine: "<backend> Connection Manager created" is
// the C++ CacheTransceiver's constructor (cacheTransceiver.cpp), which only
// BindKvCacheTransceiver builds: the process got the C++ transceiver on that
// backend, as the C++ logger prints it and as 1.3 forwards C++ lines through
// its Python logger ("[batchmgr]", as TensorRT-LLM issue #15182's log shows
// them); other managers are not read.
func TestCppConnectionManagerLine(t *testing.T) {
	for line, want := range map[string]string{
		"[TensorRT-LLM][INFO] UCX Connection Manager created":                       "CPP UCX",
		"[TensorRT-LLM][RANK 1][INFO] NIXL Connection Manager created":              "CPP NIXL",
		"[TRT-LLM] [I] [batchmgr][RANK 0] MOONCAKE Connection Manager created":      "CPP MOONCAKE",
		"[01/05/2026-10:00:01] [TensorRT-LLM][INFO] MPI Connection Manager created": "CPP MPI",
		"[TensorRT-LLM][INFO] Redis Connection Manager created":                     " ",
		"[TensorRT-LLM][INFO] UCX Connection Manager created; retrying":             " ",
	} {
		lg, _ := Parse("f.log", strings.NewReader(line+"\n"))
		got := " "
		if len(lg.Processes) == 1 && lg.Processes[0].Class != "" {
			p := lg.Processes[0]
			got = string(p.Outcome()) + " " + p.Backend
			if p.ClassInferred {
				got += " (inferred)"
			}
		}
		if got != want {
			t.Errorf("%q: %q, want %q", line, got, want)
		}
	}
}

// TestK9sFrameBareLines: k9s's log view frames every line ("│ … │", as
// Dynamo issue #6678 pasted its logs; a Rucio guide's k9s copy shows a
// traceback so), and a bare line in the frame reads as it would without it:
// an exception ends start-up, a frame of the executor's loop makes the next
// one a runtime error, NIXL's error lines are kept; the traceback's own
// indentation under the bar stays.
func TestK9sFrameBareLines(t *testing.T) {
	const tagged = "│ [TRT-LLM] [I] [_torch  ] [RANK 0] Using LLM with PyTorch backend                │\n"
	for _, c := range []struct{ name, log, outcome, finding, line string }{
		{"exception", tagged + "│ Traceback (most recent call last):                      │\n│   File \"/x/model_loader.py\", line 3, in load │\n" +
			"│ RuntimeError: CUDA out of memory. Tried to allocate 2.00 GiB                    │\n", "ERROR", "", "RuntimeError: CUDA out of memory. Tried to allocate 2.00 GiB"},
		{"executor loop", tagged + "│ Exception in thread Thread-3 (_event_loop_wrapper): │\n│ RuntimeError: boom  │\n", "", FindingRuntimeError, ""},
		{"NIXL", tagged + "│ E0421 11:56:59.774282  709103 nixl_agent.cpp:259] getPluginParams: backend 'UCX' not found │\n", "", "", "getPluginParams: backend 'UCX' not found"},
		{"no closing bar", tagged + "│ RuntimeError: boom\n", "ERROR", "", "RuntimeError: boom"},
	} {
		lg, _ := Parse("f.log", strings.NewReader(c.log))
		if len(lg.Processes) != 1 {
			t.Fatalf("%s: %s", c.name, sources(lg))
		}
		p := lg.Processes[0]
		var kinds, lines []string
		for _, f := range p.Findings {
			kinds = append(kinds, f.Kind)
		}
		for _, l := range p.Lines {
			lines = append(lines, l.Message)
		}
		if string(p.Outcome()) != c.outcome || strings.Join(kinds, ",") != c.finding || c.line != "" && !slices.Contains(lines, c.line) {
			t.Errorf("%s: outcome %q error %q findings %v lines %q", c.name, p.Outcome(), p.Error, kinds, lines)
		}
	}
	for in, want := range map[string]string{"│   File \"x\", line 1 │": "  File \"x\", line 1", "  │x│": "x", "x │": "x │", "│": ""} {
		if got := unframe(in); got != want {
			t.Errorf("unframe(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestTransferAgentWordings: the Python transceiver's transfer-agent module
// logged which agent it loaded in two wordings (_torch/disaggregation/base/
// agent.py: "Using Pybind transfer agent binding for Transfer Agent
// implementation." before "Using C++ transfer agent binding"); both, and the
// pure-Python ones of each, say the same.
func TestTransferAgentWordings(t *testing.T) {
	for msg, want := range map[string]string{
		"Using C++ transfer agent binding":                                                  "C++ binding",
		"Using Pybind transfer agent binding for Transfer Agent implementation.":            "C++ binding",
		"C++ transfer agent binding unavailable, using pure Python implementation":          "pure Python",
		"Failed to import Pybind transfer agent binding, using pure Python implementation.": "pure Python",
		"Forcing use of pure Python NIXL KV Transfer Agent implementation.":                 "pure Python",
	} {
		lg, _ := Parse("f.log", strings.NewReader("[TRT-LLM] [RANK 0] [I] "+msg+"\n"))
		if len(lg.Processes) != 1 || lg.Processes[0].Agent != want || lg.Processes[0].Backend != "NIXL" {
			t.Errorf("%q: %s %+v", msg, sources(lg), lg.Processes)
		}
	}
}

// TestWorkerSubmitTraceback: worker_main submits each request to the worker
// it built (executor/worker.py: worker.submit(req) in its request loop, after
// the ready signal) and logs a failure there with its traceback ("Failed
// during generation"): an exception under a frame in the worker's submit is a
// runtime error of a process whose executor was built, as Dynamo PR #1690's
// srun-labelled decode worker printed it (its published lines, then an
// exception of ours: the excerpt was cut before it). A start-up failure's
// traceback goes through worker_main's worker_cls(...) and stays ERROR.
func TestWorkerSubmitTraceback(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("testdata", "real", "dynamo-pr1690-srun-submit.log"))
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ name, log, outcome string }{
		{"submit", string(data) + " 0: AssertionError: boom\n", ""},
		// Past the first lines of a chunk, which the scanner always passes on.
		{"submit, far down", strings.Repeat(" 0: [TRT-LLM] [RANK 0] [I] x\n", excWindow+10) + string(data) + " 0: AssertionError: boom\n", ""},
		{"base_worker's submit", "Traceback (most recent call last):\n  File \"/x/tensorrt_llm/executor/base_worker.py\", line 600, in submit\nRuntimeError: boom\n", ""},
		{"worker_cls at start-up", " 0: [TRT-LLM] [RANK 0] [E] Traceback (most recent call last):\n" +
			" 0:   File \"/x/tensorrt_llm/executor/worker.py\", line 700, in worker_main\n" +
			" 0:     worker: ExecutorBindingsWorker = worker_cls(\n 0: AssertionError: boom\n", "ERROR"},
		{"another project's submit", "[TRT-LLM] [I] Starting TensorRT LLM init.\nTraceback (most recent call last):\n  File \"/x/app/worker.py\", line 3, in submit\nRuntimeError: boom\n", "ERROR"},
		// The proxy's result-dispatch thread, as TensorRT-LLM PR #3321 quotes
		// its traceback, and the proxy's submit: both only once the workers
		// were ready.
		{"proxy's dispatch_result_task (PR #3321)", "Traceback (most recent call last):\n" +
			"  File \"/usr/local/lib/python3.12/dist-packages/tensorrt_llm/llmapi/utils.py\", line 296, in run\n    if not task(**self.kwargs):\n" +
			"  File \"/usr/local/lib/python3.12/dist-packages/tensorrt_llm/executor/proxy.py\", line 170, in dispatch_result_task\n    process_res(i)\n" +
			"  File \"/usr/local/lib/python3.12/dist-packages/tensorrt_llm/executor/proxy.py\", line 151, in process_res\n" +
			"KeyError: None\n", ""},
		{"proxy's submit", "Traceback (most recent call last):\n  File \"/x/tensorrt_llm/executor/proxy.py\", line 400, in submit\nRuntimeError: boom\n", ""},
		{"proxy's start-up", "Traceback (most recent call last):\n  File \"/x/tensorrt_llm/executor/proxy.py\", line 332, in _start_executor_workers\nRuntimeError: Executor worker returned error\n", "ERROR"},
		{"another project's proxy", "[TRT-LLM] [I] Starting TensorRT LLM init.\nTraceback (most recent call last):\n  File \"/x/app/proxy.py\", line 3, in dispatch_result_task\nRuntimeError: boom\n", "ERROR"},
	} {
		lg, _ := Parse("f.log", strings.NewReader(c.log))
		if len(lg.Processes) != 1 {
			t.Fatalf("%s: %s", c.name, sources(lg))
		}
		p := lg.Processes[0]
		runtime := processFinding(p, FindingRuntimeError).Count
		if string(p.Outcome()) != c.outcome || (runtime == 1) != (c.outcome == "") {
			t.Errorf("%s: outcome %q error %q, %d runtime error(s)", c.name, p.Outcome(), p.Error, runtime)
		}
		if c.name == "submit" {
			// Line 3: worker_main's "worker.submit(req)" over submit's frame.
			if s := Judge(lg, nil, true).Summary(); !strings.Contains(s, "though its worker was taking requests (line 3)") {
				t.Errorf("verdict: %s", s)
			}
		}
	}
}

// TestIterationLine: PyExecutor's executor loop logs an iteration line with
// print_iter_log ("iter = N, global_rank = …", rank 0): the loop ran, in an
// executor built after its transceiver, so a process without its outcome is
// one whose lines that show it are missing, not one whose log stops before
// it (Dynamo issue #5095's excerpt). The first iteration line of a process
// counts also after other INFO lines of it, which the scanner passes on only
// once per process (past the first excWindow lines of a chunk, which it
// always passes on); an iteration line without its global_rank field (the
// benchmark's own lines) is not read.
func TestIterationLine(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("testdata", "real", "dynamo-5095-iter-after-warnings.log"))
	if err != nil {
		t.Fatal(err)
	}
	const iter13 = "[TRT-LLM] [I] [_torch][RANK 0] iter = 2, global_rank = 0, rank = 0, num_scheduled_requests = 1, kv_cache_util = 0.100, currank_total_requests = 1/1, host_step_time = 5.0ms\n"
	for _, c := range []struct{ name, log, want string }{
		{"issue #5095", string(data), "though the executor's event loop ran (line 13)"},
		{"after other INFO lines, 1.3's tag", "[TRT-LLM] [I] [_torch][RANK 0] Using LLM with PyTorch backend\n" + strings.Repeat("[TRT-LLM] [I] [_torch][RANK 0] x\n", excWindow+10) + iter13, "though the executor's event loop ran (line 53)"},
		{"no global_rank", "[TRT-LLM] [RANK 0] [I] x\n[TRT-LLM] [RANK 0] [I] iter = 3, num_scheduled_requests: 8\n", "the log stops before it"},
	} {
		lg, _ := Parse("f.log", strings.NewReader(c.log))
		if s := Judge(lg, nil, true).Summary(); !strings.Contains(s, c.want) {
			t.Errorf("%s: %s", c.name, s)
		}
	}
}

// TestWrappedCause: an indented line under a start-up failure's message
// that stops mid-sentence is the rest of it (a paste wrapped it); under a
// message that ends as a sentence does, it is not joined.
func TestWrappedCause(t *testing.T) {
	for _, c := range []struct{ log, want string }{
		{"[TRT-LLM] [E] Failed to initialize executor on rank 0: The checkpoint you are trying to load\n  has model type `x` but Transformers does not recognize it.\n", "The checkpoint you are trying to load has model type `x` but Transformers does not recognize it."},
		{"[TRT-LLM] [E] Failed to initialize executor on rank 0: a, b,\n  c.\n", "a, b, c."},
		{"[TRT-LLM] [E] Failed to initialize executor on rank 0: CUDA out of memory.\n  Tried to allocate 2.00 GiB\n", "CUDA out of memory."},
		{"[TRT-LLM] [E] Failed to initialize executor on rank 0: bad value 'x'\n  more\n", "bad value 'x'"},
		{"[TRT-LLM] [E] Failed to initialize executor on rank 0: boom in load\nunindented rest\n", "boom in load"},
	} {
		lg, _ := Parse("f.log", strings.NewReader(c.log))
		if len(lg.Processes) != 1 || lg.Processes[0].Cause != c.want {
			t.Errorf("%q: %s %+v", c.log, sources(lg), lg.Processes)
		}
	}
}

// TestTransferErrorException: the error PyExecutor gives a request whose
// KV-cache transfer failed ("Error in kv cache transfer for generation
// requests"), raised by the request's caller as RequestError (a Dynamo
// worker's handler, the LLM API), is a kv_transfer_failed finding of its
// process and shows the executor's loop ran; it was read as a start-up
// failure. Another RequestError still is one.
func TestTransferErrorException(t *testing.T) {
	const tb = "[TRT-LLM] [RANK 0] [I] x\nTraceback (most recent call last):\n" +
		"  File \"/x/tensorrt_llm/executor/result.py\", line 560, in _handle_response\n    raise RequestError(response.error_msg)\n"
	for _, c := range []struct{ log, outcome, finding, summary string }{
		{tb + "tensorrt_llm.executor.utils.RequestError: Error in kv cache transfer for generation requests\n", "", FindingTransferFailed, "though the executor's event loop ran (line 5)"},
		{"RequestError: Error in kv cache transfer for context requests\n", "", FindingTransferFailed, "though the executor's event loop ran (line 1)"},
		{tb + "tensorrt_llm.executor.utils.RequestError: Cannot add request with id 3\n", "ERROR", "", "Start-up failed"},
	} {
		lg, _ := Parse("f.log", strings.NewReader(c.log))
		if len(lg.Processes) != 1 {
			t.Fatalf("%q: %s", c.log, sources(lg))
		}
		p := lg.Processes[0]
		kinds := findingKinds(p)
		if string(p.Outcome()) != c.outcome || kinds != c.finding {
			t.Errorf("%q: outcome %q error %q findings %v", c.log, p.Outcome(), p.Error, kinds)
		}
		if s := Judge(lg, nil, true).Summary(); !strings.Contains(s, c.summary) {
			t.Errorf("%q: %s", c.log, s)
		}
	}
}

// TestLoadTaskFailed: run_concurrently logs a weight-loading task that
// raised ("Error executing load_single_module with args (…): {e}", ERROR)
// and raises it again (modeling_utils.py): the rank failed at start-up with
// that cause, also when its log shows nothing after it (TensorRT-LLM issue
// #6281); the exception or start-up line that follows says the same and does
// not replace it. Once the process's server is up it is a runtime error (a
// weight update); at another level, or not that function's wording, it is
// not read.
func TestLoadTaskFailed(t *testing.T) {
	const load = "[TRT-LLM] [RANK 1] [E] Error executing load_single_module with args ('model.layers.3.mlp', Linear()): CUDA out of memory. Tried to allocate 2.00 MiB.\n"
	const reprOpen = "[09/17/2025-21:24:19] [TRT-LLM] [RANK 1] [E] Error executing load_single_module with args ('model.layers.8.mlp.down_proj', Linear(\n"
	const reprRest = "  (all_reduce): AllReduce()\n  (lora): LoraLayer()\n)): CUDA out of memory. Tried to allocate 40.00 MiB.\n"
	for _, c := range []struct{ name, log, outcome, cause, finding string }{
		{"alone", load, "ERROR", "CUDA out of memory. Tried to allocate 2.00 MiB.", ""},
		{"then the start-up line", load + "[TRT-LLM] [RANK 1] [E] Failed to initialize executor on rank 1: CUDA out of memory. Tried to allocate 2.00 MiB.\n",
			"ERROR", "CUDA out of memory. Tried to allocate 2.00 MiB.", ""},
		{"server up", "[TRT-LLM] [RANK 1] [I] x\nINFO:     Application startup complete.\n" + load, "", "", FindingRuntimeError},
		{"warning", strings.Replace(load, "[E]", "[W]", 1), "", "", ""},
		{"another wording", "[TRT-LLM] [RANK 1] [E] Error executing request: boom\n", "", "", ""},
		// A module with children prints its repr over lines, str(e) after
		// the line that closes it (TensorRT-LLM issue #7818's rank 6).
		{"the args' repr over lines", reprOpen + reprRest, "ERROR", "CUDA out of memory. Tried to allocate 40.00 MiB.", ""},
		{"the args' repr over lines, deep in the log", strings.Repeat("[TRT-LLM] [RANK 1] [I] x\n", 200) + reprOpen + reprRest,
			"ERROR", "CUDA out of memory. Tried to allocate 40.00 MiB.", ""},
		{"the args' repr never closed", reprOpen + "[TRT-LLM] [RANK 1] [I] x\n)): CUDA out of memory.\n", "ERROR", "", ""},
	} {
		lg, _ := Parse("f.log", strings.NewReader(c.log))
		if len(lg.Processes) != 1 {
			t.Fatalf("%s: %s", c.name, sources(lg))
		}
		p := lg.Processes[0]
		kinds := findingKinds(p)
		if string(p.Outcome()) != c.outcome || p.Cause != c.cause || kinds != c.finding {
			t.Errorf("%s: outcome %q error %q cause %q findings %v", c.name, p.Outcome(), p.Error, p.Cause, kinds)
		}
		if c.outcome == "ERROR" && !strings.HasPrefix(p.Error, "Error executing load_single_module with args") {
			t.Errorf("%s: error %q", c.name, p.Error)
		}
		// The scanner passes the repr's lines on as the reference reads
		// them, wherever chunks and look-ahead blocks cut the log, and whatever
		// the budget of a chunk's events (seed 6: the default).
		for _, seed := range []uint64{1, 6} {
			checkSame(t, []byte(c.log), seed)
		}
	}
}

// TestExceptionAfterTransferFinding: the lines of a transfer's outcome and
// the scheduler's "num_fitting_reqs=0 …" warning are printed only while the
// executor's loop serves requests with a transceiver (py_executor.py prints
// the warning under "if self.kv_cache_transceiver", verified): an exception
// of the same process after one is a runtime error, not how start-up ended.
// Dynamo's known issues for TensorRT-LLM (issue #4327, KV-cache exhaustion in
// disaggregated serving) list the warning and "asyncio.exceptions.
// InvalidStateError: invalid state" as its symptoms; both lines are quoted
// here as that page quotes them. A process restarted (its version line again)
// starts anew; another process's exception still ends its start-up.
func TestExceptionAfterTransferFinding(t *testing.T) {
	const warn = "[11/14/2025-10:00:00] [TRT-LLM] [W] num_fitting_reqs=0 and fitting_disagg_gen_init_requests is empty, may not have enough kvCache\n"
	const exc = "asyncio.exceptions.InvalidStateError: invalid state\n"
	for _, c := range []struct{ name, log, want string }{
		{"issue #4327's symptoms", warn + exc, "process= kv_cache_exhausted,runtime_error"},
		{"after a transfer timeout", "[TRT-LLM] [RANK 0] [W] Terminating generation request 7 due to KV cache transfer timeout\n" + exc,
			"rank 0= kv_transfer_timeout,runtime_error"},
		{"restarted", warn + "[TensorRT-LLM] TensorRT-LLM version: 1.1.0rc5\n" + exc, "process=ERROR kv_cache_exhausted"},
		{"another process", "[TRT-LLM] [RANK 0] [W] Terminating generation request 7 due to KV cache transfer timeout\n" +
			"[TRT-LLM] [RANK 1] [I] x\n" + exc, "rank 0= kv_transfer_timeout;rank 1=ERROR "},
	} {
		lg, _ := Parse("f.log", strings.NewReader(c.log))
		if s := processFindings(lg); s != c.want {
			t.Errorf("%s: %s, want %s", c.name, s, c.want)
		}
	}
}

// TestCppLocationWrapped: a C++ error raised as a Python exception ends with
// its source location; a paste that wrapped it puts "(file.cpp:N)" alone on
// the next line (Dynamo issue #6671). That line is the exception's, and says
// whose failure it is (the transfer agent's: a process with transceiver
// lines). Only such a line is taken, only under a C++ error without its
// location, and only from the same process.
func TestCppLocationWrapped(t *testing.T) {
	const title = "RuntimeError: [TensorRT-LLM][ERROR] Assertion failed: boom"
	for _, c := range []struct{ name, log, err string }{
		{"wrapped", title + "\n(../tensorrt_llm/batch_manager/cacheTransceiver.cpp:42)\n", title + "\n(../tensorrt_llm/batch_manager/cacheTransceiver.cpp:42)"},
		{"indented", title + "\n  (/src/cpp/tensorrt_llm/kernels/x.cu:7)\n", title + "\n(/src/cpp/tensorrt_llm/kernels/x.cu:7)"},
		{"not a location", title + "\n(see the docs)\n", title},
		{"a Python file", title + "\n(model_loader.py:42)\n", title},
		{"location already there", title + " (a.cpp:1)\n(b.cpp:2)\n", title + " (a.cpp:1)"},
		{"a Python error", "[TRT-LLM] [I] Starting TensorRT LLM init.\nRuntimeError: boom\n(a.cpp:1)\n", "RuntimeError: boom"},
		{"another process", " 0: " + title + "\n 1: (a.cpp:1)\n", title},
	} {
		lg, _ := Parse("f.log", strings.NewReader(c.log))
		if len(lg.Processes) == 0 {
			t.Fatalf("%s: no process", c.name)
		}
		if e := lg.Processes[0].Error; e != c.err {
			t.Errorf("%s: error %q, want %q", c.name, e, c.err)
		}
	}
}

// TestAsyncioHandledException: asyncio's default exception handler logs an
// exception it caught and its loop goes on (base_events.py's
// default_exception_handler, verified in CPython 3.11): the header, the
// context's keys ("handle: <Handle …>", "future: <Task finished …>"), the
// traceback. Its exception is a runtime finding of the process, not how its
// start-up ended, before the server is up as after; a chained exception
// under it is the same one. The headers are in the shapes public logs show
// them: bare (streaq issue #37, aiormq PR #163), behind logging's basic
// format ("ERROR:asyncio:", vLLM issue #11189), behind a formatter's
// "LEVEL module.function: ". A worker read "Start-up failed" on such a
// ZMQError and went on to build its transceiver.
func TestAsyncioHandledException(t *testing.T) {
	const start = "[11/14/2025-10:00:00] [TRT-LLM] [I] [RANK 0] Loading model\n"
	const built = "[11/14/2025-10:00:09] [TRT-LLM] [I] [RANK 0] Using KvCacheTransceiverV2\n"
	const zmq = "Traceback (most recent call last):\n  File \"/x/tensorrt_llm/executor/ipc.py\", line 184, in get_async\n    await self.socket.poll(timeout=1)\n" +
		"zmq.error.ZMQError: Operation not supported\n"
	const callback = "Exception in callback _SelectorSocketTransport._read_ready()\nhandle: <Handle _SelectorSocketTransport._read_ready()>\n" +
		"Traceback (most recent call last):\n  File \"/usr/lib/python3.12/asyncio/events.py\", line 88, in _run\n    self._context.run(self._callback, *self._args)\n" +
		"ConnectionResetError: [Errno 104] Connection reset by peer\n"
	const task = "Task exception was never retrieved\nfuture: <Task finished name='Task-3' coro=<IpcQueue.get_async() done, defined at /x/tensorrt_llm/executor/ipc.py:178> exception=ZMQError('Operation not supported')>\n"
	for _, c := range []struct{ name, log, outcome, finding string }{
		{"task, then the transceiver", start + task + zmq + built, "PYTHON", "zmq.error.ZMQError: Operation not supported" + asyncioNote},
		{"callback, before the server", start + callback, "", "ConnectionResetError: [Errno 104] Connection reset by peer" + asyncioNote},
		{"logging's basic format", start + "ERROR:asyncio:" + task + zmq, "", "zmq.error.ZMQError: Operation not supported" + asyncioNote},
		{"module.function target", start + "2025-11-14T10:00:01.000000Z ERROR base_events.default_exception_handler: " + task + zmq, "", "zmq.error.ZMQError: Operation not supported" + asyncioNote},
		{"_GatheringFuture", start + "_GatheringFuture exception was never retrieved\nfuture: <_GatheringFuture finished exception=RuntimeError('x')>\nRuntimeError: x\n", "", "RuntimeError: x" + asyncioNote},
		{"transport", start + "Fatal read error on socket transport\nprotocol: <P>\ntransport: <T>\nRuntimeError: x\n", "", "RuntimeError: x" + asyncioNote},
		{"chained", start + task + zmq + "\nDuring handling of the above exception, another exception occurred:\n\nTraceback (most recent call last):\nRuntimeError: y\n" + built,
			"PYTHON", "zmq.error.ZMQError: Operation not supported" + asyncioNote},
		// Not asyncio's handler: still how start-up ended.
		{"no header", start + zmq, "ERROR", ""},
		{"a later exception", start + task + zmq + "RuntimeError: boom\n", "ERROR", "zmq.error.ZMQError: Operation not supported" + asyncioNote},
		{"far below", start + task + strings.Repeat("    x = y\n", loopWindow) + "RuntimeError: boom\n", "ERROR", ""},
		{"another process", " 0: " + start + " 1: " + task + " 0: RuntimeError: boom\n", "ERROR", ""},
		{"another message", start + "Task exception was never retrieved by anyone\n" + zmq, "ERROR", ""},
		{"restarted", start + task + "[TensorRT-LLM] TensorRT-LLM version: 1.1.0rc5\n" + zmq, "ERROR", ""},
	} {
		lg, _ := Parse("f.log", strings.NewReader(c.log))
		if len(lg.Processes) != 1 {
			t.Fatalf("%s: %s", c.name, sources(lg))
		}
		p := lg.Processes[0]
		var texts []string
		for _, f := range p.Findings {
			texts = append(texts, f.Text)
		}
		if string(p.Outcome()) != c.outcome || strings.Join(texts, "|") != c.finding {
			t.Errorf("%s: outcome %q error %q findings %q", c.name, p.Outcome(), p.Error, texts)
		}
	}
	for in, want := range map[string]bool{
		"Exception in callback _SelectorSocketTransport._read_ready()": true, "Future exception was never retrieved": true,
		"ERROR:asyncio:Exception in callback x()": true, "ERROR x.default_exception_handler: Unhandled exception in event loop": true,
		"2024-11-22 04:51:14,882 - __init__.py - asyncio - ERROR - Task exception was never retrieved":                  true,
		"[2025-11-18 09:33:24] ERROR base_events.py:1821: Exception in callback _SelectorSocketTransport._read_ready()": true,
		"ERROR 03-20 10:42:24 base_events.py:1821] Fatal read error on socket transport":                                true,
		"ERROR:root:Task 3 exception was never retrieved":                                                               false, "ERROR x: Exception in callbacks": false, "WARNING x: Exception in callback x()": false,
		"Task 3 exception was never retrieved": false, "Exception in callbacks": false, "Fatal error on transport now": false,
		strings.Repeat("x", 64) + " ERROR: Exception in callback x()": false,
	} {
		if asyncioHeader(in) != want || asyncioHeader([]byte(in)) != want {
			t.Errorf("asyncioHeader(%q) = %v", in, !want)
		}
	}
}

// TestCrashLines: a process that dies on a fatal signal or an uncaught C++
// exception prints no Python exception line; the lines of the handlers that
// report the death are read (crashLine): before the process's start-up was
// over the death is how start-up ended, after it (its server up, its
// executor's loop running) a process_crashed finding. The handlers that
// print after the first report the same death; a restart may die again.
// The lines are in the shapes TensorRT-LLM issues show them (#752 UCX,
// #395 Open MPI, #12694 the segfault banner, #1826 libstdc++'s terminate)
// and as CPython 3.11's faulthandler prints them.
func TestCrashLines(t *testing.T) {
	const start = "[12/01/2025-10:00:00] [TRT-LLM] [I] [RANK 0] Using LLM with PyTorch backend\n"
	const up = "[12/01/2025-10:00:09] [TRT-LLM] [I] [RANK 0] Using KvCacheTransceiverV2\nINFO:     Application startup complete.\n"
	const ucx = "[gpu-1:140515:0:140515] Caught signal 11 (Segmentation fault: address not mapped to object at address 0x54000009)\n==== backtrace (tid: 140515) ====\n"
	const faulthandler = "Fatal Python error: Segmentation fault\n\nThread 0x00007f8ac33c5b80 (most recent call first):\n  File \"/x/py_executor.py\", line 452 in _executor_loop\n"
	const ompi = "[gpu-1:01874] *** Process received signal ***\n[gpu-1:01874] Signal: Aborted (6)\n[gpu-1:01874] Signal code:  (-6)\n"
	const banner = "!!!!!!! Segfault encountered !!!!!!!\n  File \"<unknown>\", line 0, in PyCallable_Check\n"
	const term = "terminate called after throwing an instance of 'tensorrt_llm::common::TllmException'\n" +
		"  what():  [TensorRT-LLM][ERROR] Assertion failed: status == NIXL_SUCCESS (/src/tensorrt_llm/executor/cache_transmission/nixl_utils/transferAgent.cpp:416)\n"
	for _, c := range []struct{ name, log, outcome, err, finding string }{
		{"UCX, at start-up", start + ucx + faulthandler, "ERROR", "Caught signal 11 (Segmentation fault: address not mapped to object at address 0x54000009)", ""},
		{"faulthandler, at start-up", start + faulthandler, "ERROR", "Fatal Python error: Segmentation fault", ""},
		{"Open MPI, at start-up", start + ompi, "ERROR", "Signal: Aborted (6)", ""},
		{"banner, at start-up", start + banner, "ERROR", "!!!!!!! Segfault encountered !!!!!!!", ""},
		// Abseil's handler in a Ray worker, as vLLM issue #3053 shows it.
		{"Abseil, at start-up", start + "*** SIGSEGV received at time=1709021359 on cpu 44 ***\nPC: @     0x7f3c5f628350  (unknown)  (unknown)\n" + faulthandler,
			"ERROR", "*** SIGSEGV received at time=1709021359 on cpu 44 ***", ""},
		{"UCX, serving", start + up + ucx + faulthandler + ompi, "PYTHON", "", "process_crashed: Caught signal 11 (Segmentation fault: address not mapped to object at address 0x54000009)"},
		{"banner, serving", start + up + banner, "PYTHON", "", "process_crashed: !!!!!!! Segfault encountered !!!!!!!"},
		{"terminate, at start-up", start + term + ompi, "ERROR",
			"tensorrt_llm::common::TllmException: [TensorRT-LLM][ERROR] Assertion failed: status == NIXL_SUCCESS (/src/tensorrt_llm/executor/cache_transmission/nixl_utils/transferAgent.cpp:416)", ""},
		{"terminate, serving", start + up + term, "PYTHON", "",
			"process_crashed: tensorrt_llm::common::TllmException: [TensorRT-LLM][ERROR] Assertion failed: status == NIXL_SUCCESS (/src/tensorrt_llm/executor/cache_transmission/nixl_utils/transferAgent.cpp:416)"},
		{"terminate, a plain what()", start + "terminate called after throwing an instance of 'std::runtime_error'\n  what():  boom\n", "ERROR", "std::runtime_error: boom", ""},
		{"terminate, no what()", start + "terminate called after throwing an instance of 'c10::Error'\n", "ERROR", "terminate called after throwing an instance of 'c10::Error'", ""},
		{"an exception, then the abort", start + "RuntimeError: boom\n" + faulthandler, "ERROR", "RuntimeError: boom", ""},
		{"restarted, dies again", start + up + ucx + "[TensorRT-LLM] TensorRT-LLM version: 1.1.0rc5\n" + start + faulthandler, "ERROR", "Fatal Python error: Segmentation fault",
			"process_crashed: Caught signal 11 (Segmentation fault: address not mapped to object at address 0x54000009)"},
		// Look-alikes.
		{"not a signal", start + "Fatal Python error: init_fs_encoding: failed to get the Python codec\n[x:1] Signal: none\n[a b] Caught signal 11 (x)\nwhat():\n*** SIGSEGV\n*** not received at time=1 ***\n*** SIGTERM received at time=1709021359 on cpu 4 ***\n", "", "", ""},
	} {
		lg, _ := Parse("f.log", strings.NewReader(c.log))
		if len(lg.Processes) != 1 {
			t.Fatalf("%s: %s", c.name, sources(lg))
		}
		p := lg.Processes[0]
		var fs []string
		for _, f := range p.Findings {
			fs = append(fs, fmt.Sprintf("%s: %s", f.Kind, f.Text))
		}
		if string(p.Outcome()) != c.outcome || p.Error != c.err || strings.Join(fs, "|") != c.finding {
			t.Errorf("%s: outcome %q error %q findings %q", c.name, p.Outcome(), p.Error, fs)
		}
	}
	// The verdict on start-up says the crash after it.
	lg, _ := Parse("f.log", strings.NewReader(start+up+ucx))
	if s := Judge(lg, nil, true).Summary(); !strings.HasSuffix(s, "the process shows its transceiver. But rank 0 crashed after start-up (first at line 4).") {
		t.Errorf("verdict: %s", s)
	}
	// The transfer agent's assertion behind an uncaught exception says so.
	lg, _ = Parse("f.log", strings.NewReader(start+term))
	if im := lg.Processes[0].Implications; len(im) == 0 || !strings.Contains(im[0].Text, "transferAgent.cpp") {
		t.Errorf("implications %+v", im)
	}
}

// TestUCXErrorLines: UCX's own ERROR and FATAL lines (its default log
// handler's format, ucs/debug/log.c) are a ucx_error finding of the process
// they belong to, counted, the first one's message kept; its WARN lines and
// look-alikes are not, and UCX's lines alone make no process. The error
// TensorRT-LLM's disaggregated-service FAQ quotes for servers in different
// NVLink domains says so, with its fix. Lines in the shapes Dynamo issues
// #288 and #843 and UCX issue #9908 show them.
func TestUCXErrorLines(t *testing.T) {
	const start = "[04/02/2026-10:00:00] [TRT-LLM] [I] [RANK 0] Using UCX kv-cache transceiver. If your devices are not in the same domain\n"
	for _, c := range []struct{ name, lines, finding, impl string }{
		{"host part", "[1742467344.413567] [VM-195-16-centos:2808 :0]            sock.c:334  UCX  ERROR   connect(fd=143, dest_addr=10.0.0.0:43833) failed: Connection refused\n",
			"1 connect(fd=143, dest_addr=10.0.0.0:43833) failed: Connection refused", ""},
		{"two, counted", "[1745700389.902821] [labinit01:6274 :0]     ib_mlx5_log.c:179  UCX  ERROR Local protection error on mlx5_0:1/RoCE (synd 0x4 vend 0x51 hw_synd 0/2)\n" +
			"[1745700389.902821] [labinit01:6274 :0]     ib_mlx5_log.c:179  UCX  ERROR RC QP 0x9d0 wqe[1]: RDMA_WRITE s--\n",
			"2 Local protection error on mlx5_0:1/RoCE (synd 0x4 vend 0x51 hw_synd 0/2)", ""},
		{"before log init, FATAL", "[1716594409.541480]          sock.c:323  UCX  FATAL boom\n", "1 boom", ""},
		{"NVLink domains", "[1755000000.000001] [gb200-1:77   :3]   cuda_ipc_md.c:357  UCX  ERROR   cuMemImportFromShareableHandle failed: invalid resource handle\n",
			"1 cuMemImportFromShareableHandle failed: invalid resource handle", "UCX_CUDA_IPC_ENABLE_MNNVL=n"},
		{"a warning", "[1784273407.704659] [iv-1:994396:0]         ib_mlx5.h:1018 UCX  WARN  mlx5dv_devx_obj_destroy(CQ) failed: Invalid argument\n", "", ""},
		{"look-alikes", "[gpu-1:1] UCX  ERROR x\n[123] UCX  ERROR\n[1.2] says UCX  ERRORS x\n", "", ""},
	} {
		lg, _ := Parse("f.log", strings.NewReader(start+c.lines))
		if len(lg.Processes) != 1 {
			t.Fatalf("%s: %s", c.name, sources(lg))
		}
		p := lg.Processes[0]
		var got, impl string
		for _, f := range p.Findings {
			got = fmt.Sprintf("%d %s", f.Count, f.Text)
		}
		for _, im := range p.Implications {
			impl += im.Text
		}
		if got != c.finding || !strings.Contains(impl, c.impl) || (c.impl == "") != (impl == "") {
			t.Errorf("%s: finding %q implications %q", c.name, got, impl)
		}
	}
	lg, _ := Parse("f.log", strings.NewReader("[1742467344.413567] [h:1 :0]  sock.c:334  UCX  ERROR   connect failed\n"))
	if len(lg.Processes) != 0 {
		t.Errorf("UCX alone: %s", sources(lg))
	}
}

// TestLauncherDeathLines: the line a launcher prints when one of its
// processes died on a signal (Open MPI's "mpirun noticed that process rank
// N … exited on signal 11 (Segmentation fault).", Slurm's "srun: error:
// node: task N: Segmentation fault (core dumped)", as public logs show
// them) is that process's death, read as the crash handlers' lines are:
// the process is the log's rank N (TensorRT-LLM's [RANK N], mpirun's
// --tag-output [J,N]) or srun's task N; once per death. Processes the
// launcher killed are not read (TestSrunExitLines has exit statuses).
func TestLauncherDeathLines(t *testing.T) {
	const r0 = "[TRT-LLM] [RANK 0] [I] Using LLM with PyTorch backend\n"
	const r1 = "[TRT-LLM] [RANK 1] [I] Using LLM with PyTorch backend\n"
	for _, c := range []struct{ name, log, want string }{
		{"mpirun, rank 1", r0 + r1 + "--------------------------------------------------------------------------\n" +
			"mpirun noticed that process rank 1 with PID 0 on node gpu-1 exited on signal 11 (Segmentation fault).\n",
			"rank 0=;rank 1=ERROR mpirun noticed that process rank 1 with PID 0 on node gpu-1 exited on signal 11 (Segmentation fault)."},
		{"mpiexec, tagged output", "[1,0]<stdout>:" + r0 + "[1,1]<stdout>:" + r1 + "mpiexec noticed that process rank 1 with PID 4 on node n exited on signal 6 (Aborted).\n",
			"mpirun [1,0]=;mpirun [1,1]=ERROR mpiexec noticed that process rank 1 with PID 4 on node n exited on signal 6 (Aborted)."},
		{"srun -l", "0: " + r0 + "1: " + r1 + "srun: error: gpu-1: task 1: Segmentation fault (core dumped)\nsrun: Terminating job step 17309.2\n",
			"srun task 0=;srun task 1=ERROR srun: error: gpu-1: task 1: Segmentation fault (core dumped)"},
		{"srun, ranks", r0 + r1 + "srun: error: gpu-1: task 0: Aborted\n", "rank 0=ERROR srun: error: gpu-1: task 0: Aborted;rank 1="},
		// As a public report quotes a task the cgroup's OOM killer ended.
		{"srun, out of memory", "0: " + r0 + "slurmstepd: error: Detected 1 oom_kill event in StepId=128435.1.\nsrun: error: curie-gpu003: task 0: Out Of Memory\n",
			"srun task 0=ERROR srun: error: curie-gpu003: task 0: Out Of Memory"},
		{"after the rank's own handler", r0 + "Fatal Python error: Segmentation fault\nmpirun noticed that process rank 0 with PID 0 on node g exited on signal 11 (Segmentation fault).\n",
			"rank 0=ERROR Fatal Python error: Segmentation fault"},
		{"serving", r0 + "INFO:     Application startup complete.\nmpirun noticed that process rank 0 with PID 0 on node g exited on signal 11 (Segmentation fault).\n", "rank 0="},
		{"killed", r0 + r1 + "srun: error: gpu-1: task 1: Killed\n" +
			"mpirun noticed that process rank 1 with PID 0 on node g exited on signal 9 (Killed).\nsrun: error: a b: task 1: Aborted\n", "rank 0=;rank 1="},
	} {
		lg, _ := Parse("f.log", strings.NewReader(c.log))
		var got []string
		for _, p := range lg.Processes {
			got = append(got, strings.TrimSpace(fmt.Sprintf("%s=%s %s", p.Source, p.Outcome(), p.Error)))
		}
		if g := strings.Join(got, ";"); g != c.want {
			t.Errorf("%s: %s, want %s", c.name, g, c.want)
		}
		if strings.Contains(c.name, "out of memory") && (len(lg.Processes[0].Implications) != 1 || !strings.Contains(lg.Processes[0].Implications[0].Text, "OOM killer")) {
			t.Errorf("%s: implications %+v", c.name, lg.Processes[0].Implications)
		}
	}
}

// TestCppTransferErrorLines: the C++ transceiver logs a request whose
// transfer raised at ERROR and marks it failed (CacheTransceiver::
// checkContextTransferStatus / checkGenTransferStatus, cacheTransceiver.cpp;
// its sender's and receiver's threads, dataTransceiver.cpp): a
// kv_transfer_failed finding, not a failure of the process; the same words
// at another level are not read. A peer whose KV cache differs is refused
// ("Disagg server does not currently support these cacheState", after the
// formatter's inquireSupport warning that says why): kv_cache_mismatch, and
// what to make alike.
func TestCppTransferErrorLines(t *testing.T) {
	for _, c := range []struct{ log, want string }{
		{"[TensorRT-LLM][INFO] UCX Connection Manager created\n" +
			"[TensorRT-LLM][ERROR] Error occurred during context transfer for request 5: [TensorRT-LLM][ERROR] Assertion failed: x (a.cpp:1)\n", "CPP kv_transfer_failed"},
		{"[TensorRT-LLM][RANK 1][INFO] NIXL Connection Manager created\n" +
			"[TensorRT-LLM][RANK 1][ERROR] Error occurred during generation transfer for request 7: UCX error\n", "CPP kv_transfer_failed"},
		{"[TensorRT-LLM][INFO] UCX Connection Manager created\n[TensorRT-LLM][WARNING] Error occurred during context transfer for request 5: x\n", "CPP "},
		// The sender's and receiver's threads (dataTransceiver.cpp).
		{"[TensorRT-LLM][INFO] UCX Connection Manager created\n[TensorRT-LLM][ERROR] Exception in sendAndRemoveResponse: boom request id: 5\n" +
			"[TensorRT-LLM][ERROR] Exception in CacheReceiver request(): request id:7 , request context id:5 : boom\n" +
			"[TensorRT-LLM][ERROR] Exception in DataRequester request(): request id:8 , request context id:6 : boom\n", "CPP kv_transfer_failed"},
		// A peer whose KV cache differs: the formatter says why, the
		// sender's thread fails on it.
		{"[TensorRT-LLM][INFO] NIXL Connection Manager created\n[TensorRT-LLM][WARNING] CacheFormatter::inquireSupport: only support same tokens per block and size per head\n" +
			"[TensorRT-LLM][ERROR] Exception in CacheSender response: [TensorRT-LLM][ERROR] Assertion failed: Disagg server does not currently support these cacheState, please check the cacheState of the context and gen executors (dataTransceiver.cpp:310)\n",
			"CPP kv_cache_mismatch,kv_transfer_failed same kv_cache_config"},
		{"[TensorRT-LLM][INFO] NIXL Connection Manager created\n[TensorRT-LLM][ERROR] Exception in CacheReceiver request(): request id:7 , request context id:5 : [TensorRT-LLM][ERROR] Assertion failed: Disagg server does not currently support these cacheState. (dataTransceiver.cpp:420)\n",
			"CPP kv_transfer_failed same kv_cache_config"},
	} {
		lg, _ := Parse("f.log", strings.NewReader(c.log))
		if len(lg.Processes) != 1 {
			t.Fatalf("%q: %s", c.log, sources(lg))
		}
		p := lg.Processes[0]
		kinds := findingKinds(p)
		g := string(p.Outcome()) + " " + kinds
		for _, im := range p.Implications {
			if strings.Contains(im.Text, "same kv_cache_config") {
				g += " same kv_cache_config"
			}
		}
		if g != c.want {
			t.Errorf("%q: %s, want %s", c.log, g, c.want)
		}
	}
}

// TestIgnoredException: Python's unraisable hook prints an exception it
// ignored (raised in a __del__ or a finalizer, mostly at shutdown) over its
// traceback; nothing was raised, so it is neither how start-up ended nor a
// finding: a log that ended with TensorRT-LLM issue #1190's IpcMemory.__del__
// errors read "Start-up failed". The shapes of #1190 and #5766 (a Ctrl-C
// echoed before it) and of Python 3.13's wording; an exception after the
// ignored one still ends start-up.
func TestIgnoredException(t *testing.T) {
	const start = "[TRT-LLM] [I] Using LLM with PyTorch backend\n"
	const ipc = "Exception ignored in: <function IpcMemory.__del__ at 0x7fe64738aa70>\nTraceback (most recent call last):\n" +
		"  File \"/usr/local/lib/python3.10/dist-packages/tensorrt_llm/_ipc_utils.py\", line 76, in __del__\n" +
		"TypeError: 'NoneType' object is not callable\n"
	for _, c := range []struct{ name, log, outcome string }{
		{"issue #1190, twice", start + ipc + ipc, ""},
		{"after Ctrl-C", start + "^CException ignored in: <function LLM.__del__ at 0x7f548bcb0ae0>\nTraceback (most recent call last):\nKeyboardInterrupt: \n", ""},
		{"3.13's wording", start + "Exception ignored while calling deallocator <function A.__del__ at 0x1>:\nTraceback (most recent call last):\nTypeError: x\n", ""},
		{"then a real failure", start + ipc + "RuntimeError: boom\n", "ERROR"},
		{"not the header", start + "Exception ignored\nRuntimeError: boom\n", "ERROR"},
	} {
		lg, _ := Parse("f.log", strings.NewReader(c.log))
		if len(lg.Processes) != 1 {
			t.Fatalf("%s: %s", c.name, sources(lg))
		}
		if p := lg.Processes[0]; string(p.Outcome()) != c.outcome || len(p.Findings) != 0 {
			t.Errorf("%s: outcome %q error %q findings %+v", c.name, p.Outcome(), p.Error, p.Findings)
		}
	}
}

// TestReuseTreeTransfer: a context worker whose C++ transceiver did not
// find a request's KV-cache blocks in the reuse tree (BlockRange::
// fromReuseTree, kvCacheUtils.h:84) either logs the transfer's failure
// ("Exception in sendAndRemoveResponse: …", TensorRT-LLM issue #12542) or,
// in a build with assertions, dies on glibc's assert (as a TensorRT-LLM
// design note of 1.3.0rc8 quotes it); both say what it means. glibc's
// assertion line is a crash; look-alikes are not.
func TestReuseTreeTransfer(t *testing.T) {
	const start = "[TRT-LLM] [RANK 0] [I] Using LLM with PyTorch backend\n[TensorRT-LLM][RANK 0][INFO] UCX Connection Manager created\nINFO:     Application startup complete.\n"
	const glibc = "python3: ../include/tensorrt_llm/batch_manager/kvCacheUtils.h:84: static tensorrt_llm::batch_manager::kv_cache_manager::BlockRange " +
		"tensorrt_llm::batch_manager::kv_cache_manager::BlockRange::fromReuseTree(tensorrt_llm::batch_manager::kv_cache_manager::BaseKVCacheManager&, " +
		"const tensorrt_llm::batch_manager::kv_cache_manager::BlockKey&, int32_t): Assertion `lastBlock' failed.\n"
	for _, c := range []struct{ name, log, finding string }{
		{"glibc's assert", start + "[TensorRT-LLM][RANK 0][WARNING] [kv cache manager] storeContextBlocks: Can not find sequence for request 1\n" + glibc, FindingCrashed},
		{"logged", start + "[TensorRT-LLM][RANK 0][ERROR] Exception in sendAndRemoveResponse: [TensorRT-LLM][ERROR] Assertion failed: Couldn't find the requested block in the reuse tree (../include/tensorrt_llm/batch_manager/kvCacheUtils.h:84) request id: 5\n", FindingTransferFailed},
	} {
		lg, _ := Parse("f.log", strings.NewReader(c.log))
		p := lg.Processes[0]
		if len(lg.Processes) != 1 || len(p.Findings) != 1 || p.Findings[0].Kind != c.finding || len(p.Implications) != 1 || !strings.Contains(p.Implications[0].Text, "issue #12542") {
			t.Errorf("%s: %s findings %+v implications %+v", c.name, sources(lg), p.Findings, p.Implications)
		}
	}
	for in, want := range map[string]bool{
		"a: a.cc:2: static int R::fromReuseTree(int): Assertion `x' failed.": true,
		"python3: x.h:84: f(): Assertion `lastBlock' failed.":                true,
		"Assertion `x' failed.":                              false,
		"my prog: a.cc:2: f(): Assertion `x' failed.":        false,
		"a: no location: Assertion `x' failed.":              false,
		"a: Assertion `x' failed.":                           false,
		"python3: x.h:84: f(): Assertion `lastBlock' failed": false,
	} {
		if glibcAssert(in) != want {
			t.Errorf("glibcAssert(%q) = %v", in, !want)
		}
	}
}

// TestModuleReprDump: a model printed as a torch module repr (a MoE
// model's, across hundreds of lines of parentheses and quotes, some naming
// classes that end in Error-like words or hold "Exception") is neither an
// argument dump nor a failure: the worker reads as its transceiver line says.
func TestModuleReprDump(t *testing.T) {
	var b strings.Builder
	b.WriteString("[12/01/2025-10:00:00] [TRT-LLM] [I] [RANK 0] Using LLM with PyTorch backend\n")
	b.WriteString("[12/01/2025-10:00:01] [TRT-LLM] [I] [RANK 0] model: DeepseekV3ForCausalLM(\n  (model): DeepseekV3Model(\n    (layers): ModuleList(\n")
	for i := 0; i < 60; i++ {
		fmt.Fprintf(&b, "      (%d): DeepseekV3DecoderLayer(\n", i)
		b.WriteString("        (self_attn): MLA(quant_config=QuantConfig(quant_algo='FP8_BLOCK_SCALES', kv_cache_quant_algo=None), layer_idx=3)\n")
		b.WriteString("        (mlp): Deepseekv3MoE(\n          (gate): DeepseekV3Gate(routing_method='DeepSeekV3', n_group=8, topk_group=4)\n")
		b.WriteString("          (experts): CutlassFusedMoE(num_experts=256, top_k=8, weight_loading_mode=<MoEWeightLoadingMode.VANILLA: 0>, apply_router_weight_on_input=False)\n")
		b.WriteString("          (shared_experts): GatedMLP(activation='silu', (down_proj): Linear(in_features=2048, out_features=7168, bias=False, dtype='bf16'))\n")
		b.WriteString("          (error_feedback): ErrorFeedback(exception_policy='raise: ValueError', 'note': 'Exception: not raised')\n")
		b.WriteString("        )\n      )\n")
	}
	b.WriteString("    )\n  )\n)\n[12/01/2025-10:00:09] [TRT-LLM] [I] [RANK 0] Using KvCacheTransceiverV2\n")
	lg, _ := Parse("f.log", strings.NewReader(b.String()))
	if len(lg.Processes) != 1 {
		t.Fatalf("%s", sources(lg))
	}
	if p := lg.Processes[0]; p.Outcome() != "PYTHON" || p.Error != "" || p.Inputs.Seen() || len(p.Findings) != 0 {
		t.Errorf("outcome %q error %q inputs %+v findings %+v", p.Outcome(), p.Error, p.Inputs, p.Findings)
	}
}

// TestSrunExitLines: Slurm's line for tasks that exited with a non-zero
// status ("srun: error: node: task N: Exited with exit code C", "tasks
// 10-11", "tasks 0,2-3"; srun's _task_finish) is each task's death, read as
// a signal's line is: how start-up ended (unless the task's own exception
// says more), a process_crashed finding once it was up. Not when the task
// was stopped: its server shut down cleanly (uvicorn's "Shutting down",
// "Finished server process [N]") or Slurm had ended the step ("srun:
// Terminating job step …", "srun: Job step aborted: …", "*** STEP … CANCELLED
// AT … ***").
func TestSrunExitLines(t *testing.T) {
	const r0 = "0: [TRT-LLM] [RANK 0] [I] Using KvCacheTransceiverV2\n"
	const r1 = "1: [TRT-LLM] [RANK 1] [I] Using KvCacheTransceiverV2\n"
	const up0, up1 = "0: INFO:     Application startup complete.\n", "1: INFO:     Application startup complete.\n"
	for _, c := range []struct{ name, log, want string }{
		{"before start-up was over", r0 + r1 + "srun: error: gpu-1: task 1: Exited with exit code 1\n",
			"srun task 0=PYTHON;srun task 1=ERROR srun: error: gpu-1: task 1: Exited with exit code 1"},
		{"after start-up", r0 + up0 + r1 + up1 + "srun: error: gpu-1: task 0: Exited with exit code 137\n",
			"srun task 0=PYTHON process_crashed;srun task 1=PYTHON"},
		// The task's own exception says how its start-up ended.
		{"after its exception", r0 + "0: [TRT-LLM] [RANK 0] [E] Failed to initialize executor on rank 0: boom\n0: RuntimeError: boom\n" +
			"srun: error: gpu-1: task 0: Exited with exit code 1\n", "srun task 0=ERROR RuntimeError: boom"},
		{"a range and a list", r0 + r1 + "2: [TRT-LLM] [RANK 2] [I] Using KvCacheTransceiverV2\n" +
			"srun: error: taurusi2031: tasks 0-1: Exited with exit code 1\nsrun: error: n2: tasks 2,5: Exited with exit code 2\n",
			"srun task 0=ERROR srun: error: taurusi2031: tasks 0-1: Exited with exit code 1;srun task 1=ERROR srun: error: taurusi2031: tasks 0-1: Exited with exit code 1;" +
				"srun task 2=ERROR srun: error: n2: tasks 2,5: Exited with exit code 2;srun task 5=ERROR srun: error: n2: tasks 2,5: Exited with exit code 2"},
		{"without srun's labels", "[TRT-LLM] [RANK 0] [I] Using KvCacheTransceiverV2\nINFO:     Application startup complete.\nsrun: error: g: task 0: Exited with exit code 1\n",
			"rank 0=PYTHON process_crashed"},
		// Stopped, not dead.
		{"clean shutdown", r0 + up0 + "0: INFO:     Shutting down\n0: INFO:     Finished server process [4242]\nsrun: error: gpu-1: task 0: Exited with exit code 1\n", "srun task 0=PYTHON"},
		{"another task's clean shutdown", r0 + up0 + r1 + up1 + "1: INFO:     Shutting down\nsrun: error: gpu-1: task 0: Exited with exit code 1\n",
			"srun task 0=PYTHON process_crashed;srun task 1=PYTHON"},
		{"step terminated after the first death", r0 + up0 + r1 + up1 + "srun: error: gpu-1: task 1: Segmentation fault (core dumped)\nsrun: Terminating job step 17309.2\n" +
			"srun: error: gpu-1: task 0: Exited with exit code 1\n", "srun task 0=PYTHON;srun task 1=PYTHON process_crashed"},
		{"Ctrl-C", r0 + up0 + "^Csrun: interrupt (one more within 1 sec to abort)\nsrun: step:13218794.0 task 0: running\n^Csrun: sending Ctrl-C to job 13218794.0\n" +
			"srun: error: gpu-1: task 0: Exited with exit code 1\n", "srun task 0=PYTHON"},
		{"step aborted", r0 + "srun: Job step aborted: Waiting up to 32 seconds for job step to finish.\nsrun: error: node1-130-01: task 0: Exited with exit code 1\n", "srun task 0=PYTHON"},
		{"step cancelled", r0 + "slurmstepd: error: *** STEP 524547.1 ON ault43 CANCELLED AT 2024-10-09T23:20:53 ***\nsrun: error: ault43: task 0: Exited with exit code 1\n", "srun task 0=PYTHON"},
		{"time limit", r0 + "slurmstepd-c117: error: *** JOB 712854 ON c117 CANCELLED AT 2026-04-06T08:17:04 DUE TO TIME LIMIT ***\nsrun: error: c117: task 0: Exited with exit code 1\n", "srun task 0=PYTHON"},
		// Not Slurm's line.
		{"look-alikes", r0 + "srun: error: gpu-1: task 0: Exited with exit code 0\nsrun: error: a b: task 0: Exited with exit code 1\nsrun: error: g: task x: Exited with exit code 1\n" +
			"srun: error: g: task 0: Exited with exit code -1\nsrun: error: g: tasks: Exited with exit code 1\n", "srun task 0=PYTHON"},
	} {
		lg, _ := Parse("f.log", strings.NewReader(c.log))
		var got []string
		for _, p := range lg.Processes {
			kinds := findingKinds(p)
			got = append(got, strings.Join(strings.Fields(fmt.Sprintf("%s=%s %s %s", p.Source, p.Outcome(), p.Error, kinds)), " "))
		}
		if g := strings.Join(got, ";"); g != c.want {
			t.Errorf("%s: %s, want %s", c.name, g, c.want)
		}
	}
}

// TestProxyOnlyError: the executor proxy's generic "RuntimeError: Executor
// worker returned error" says that the worker's own error, the reason, is
// not in the log only when no process of the log failed otherwise: not
// beside a rank's "Failed to initialize executor on rank N: …", nor after
// the proxy's own "Executor worker initialization error: …" traceback.
func TestProxyOnlyError(t *testing.T) {
	const proxy = "Traceback (most recent call last):\n" +
		"  File \"/usr/local/lib/python3.12/dist-packages/tensorrt_llm/executor/proxy.py\", line 332, in _start_executor_workers\n" +
		"    raise RuntimeError(\n" +
		"RuntimeError: Executor worker returned error\n"
	const said = "in the workers' output"
	for _, c := range []struct {
		name, log string
		want      bool
	}{
		{"alone", proxy, true},
		{"behind a tag", "[TRT-LLM] [E] Executor worker returned error\n", true},
		{"beside a rank's failure", "[TRT-LLM] [RANK 1] [E] Failed to initialize executor on rank 1: CUDA out of memory\n" +
			"[TRT-LLM] [RANK 0] [I] x\n" + proxy, false},
		{"after the worker's traceback", "[TRT-LLM] [E] Executor worker initialization error: Traceback (most recent call last):\n" +
			"  File \"/x/tensorrt_llm/executor/worker.py\", line 799, in worker_main\n" +
			"ValueError: KvCacheTransceiverV2: _check_compatible: tokens_per_block differs\n" + proxy, false},
	} {
		lg, err := Parse("p.log", strings.NewReader(c.log))
		if err != nil {
			t.Fatal(err)
		}
		got := false
		for _, p := range lg.Processes {
			for _, im := range p.Implications {
				got = got || strings.Contains(im.Text, said)
			}
		}
		if got != c.want {
			t.Errorf("%s: implication said %v, want %v (%s)", c.name, got, c.want, sources(lg))
		}
	}
}

// TestWorkerInitError: the executor proxy's "Executor worker initialization
// error: {the worker's traceback}" (ERROR, proxy.py) says a worker's start-up
// failed, also when a copy stops inside that traceback (Dynamo issue
// #4299's 1.1.0rc5 worker); the traceback's exception, when it comes, is the
// error, and the proxy's generic error after it does not replace it.
func TestWorkerInitError(t *testing.T) {
	const head = "[11/17/2025-14:46:34] [TRT-LLM] [E] Executor worker initialization error: Traceback (most recent call last):\n" +
		"  File \"/opt/dynamo/venv/lib/python3.12/site-packages/tensorrt_llm/executor/worker.py\", line 852, in worker_main\n" +
		"    worker: GenerationExecutorWorker = worker_cls(\n" +
		"                                       ^^^^^^^^^^^\n"
	for _, c := range []struct{ name, log, outcome, err, cause string }{
		{"cut inside the traceback", head, "ERROR", "Executor worker initialization error: Traceback (most recent call last):", ""},
		{"the traceback's exception", head + "ValueError: boom\n", "ERROR", "ValueError: boom", ""},
		{"then the proxy's generic error", head + "RuntimeError: Executor worker returned error\n", "ERROR", "Executor worker initialization error: Traceback (most recent call last):", ""},
		{"a message, not a traceback", "[TRT-LLM] [E] Executor worker initialization error: CUDA out of memory\n", "ERROR", "Executor worker initialization error: CUDA out of memory", "CUDA out of memory"},
		{"not at ERROR", strings.Replace(head, "[E]", "[W]", 1), "", "", ""},
	} {
		lg, _ := Parse("f.log", strings.NewReader(c.log))
		if len(lg.Processes) != 1 {
			t.Errorf("%s: %s", c.name, sources(lg))
			continue
		}
		p := lg.Processes[0]
		if string(p.Outcome()) != c.outcome || p.Error != c.err || p.Cause != c.cause {
			t.Errorf("%s: outcome %q error %q cause %q", c.name, p.Outcome(), p.Error, p.Cause)
		}
		for _, im := range p.Implications {
			if strings.Contains(im.Text, "in the workers' output") {
				t.Errorf("%s: %s", c.name, im.Text)
			}
		}
	}
}

// TestWorkerDiedImplication: the proxy's "RuntimeError: Executor worker died
// during initialization" (its MPI worker exited before it was ready) says
// the worker crashed or was killed, and where to look; after the worker's
// own crash line the crash is the failure, said as such.
func TestWorkerDiedImplication(t *testing.T) {
	const died = "[TRT-LLM] [I] Using LLM with PyTorch backend\n" +
		"[TRT-LLM] [E] Executor worker died during initialization.\n" +
		"Traceback (most recent call last):\n" +
		"  File \"/usr/local/lib/python3.12/dist-packages/tensorrt_llm/executor/proxy.py\", line 328, in _start_executor_workers\n" +
		"RuntimeError: Executor worker died during initialization\n"
	const said = "exited before it was ready"
	for _, c := range []struct {
		name, log, err string
		want           bool
	}{
		{"alone", died, "RuntimeError: Executor worker died during initialization", true},
		{"after the crash", "[TRT-LLM] [I] Using LLM with PyTorch backend\n!!!!!!! Segfault encountered !!!!!!!\n" + died, "", false},
		{"another RuntimeError", strings.Replace(died, "RuntimeError: Executor worker died during initialization", "RuntimeError: Executor worker died during initialization of rank 1", 1), "", false},
	} {
		lg, err := Parse("d.log", strings.NewReader(c.log))
		if err != nil {
			t.Fatal(err)
		}
		if len(lg.Processes) != 1 {
			t.Fatalf("%s: %s", c.name, sources(lg))
		}
		p := lg.Processes[0]
		got := false
		for _, im := range p.Implications {
			got = got || strings.Contains(im.Text, said)
		}
		if got != c.want || c.err != "" && p.Error != c.err {
			t.Errorf("%s: error %q, implication %v, want %v", c.name, p.Error, got, c.want)
		}
	}
}

// TestLoopShownWithoutItsException: a paste that stops inside the traceback
// of a worker's submit (Dynamo PR #1690's excerpt) or of PyExecutor's loop
// still shows start-up was over: the verdict says so, not that the log
// stops before the transceiver.
func TestLoopShownWithoutItsException(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("testdata", "real", "dynamo-pr1690-srun-submit.log"))
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ name, log, want string }{
		// Line 3: worker_main's "worker.submit(req)" over submit's frame.
		{"submit", string(data), "though its worker was taking requests (line 3)"},
		{"event loop", "[TRT-LLM] [I] Using LLM with PyTorch backend\nException in thread Thread-3 (_event_loop_wrapper):\nTraceback (most recent call last):\n",
			"though the executor's event loop ran (line 2)"},
		{"neither", "[TRT-LLM] [I] Using LLM with PyTorch backend\nTraceback (most recent call last):\n", "the log stops before it"},
	} {
		lg, err := Parse("l.log", strings.NewReader(c.log))
		if err != nil {
			t.Fatal(err)
		}
		if s := Judge(lg, nil, true).Summary(); !strings.Contains(s, c.want) {
			t.Errorf("%s: %q, want %q in it", c.name, s, c.want)
		}
	}
}

// TestLLMProgress: LLM.generate's progress bar ("Processed requests: 100%|…|
// 1/1 […]", llm.py) shows the LLM's executor was built and served requests,
// so a process that shows no transceiver line did not stop before it: the
// verdict says the INFO lines are missing. Also far into a chunk (equal to
// the reference parser) and after the carriage returns tqdm redraws with;
// not in a process that has not shown itself, nor another bar's words.
func TestLLMProgress(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("testdata", "real", "blog-llmapi-qwen3-1.2.0rc2.log"))
	if err != nil {
		t.Fatal(err)
	}
	var filler strings.Builder
	for i := range 60 {
		fmt.Fprintf(&filler, "[TRT-LLM] [I] filler %d\n", i)
	}
	const up = "though its worker was taking requests"
	for _, c := range []struct {
		name, log string
		want      bool
	}{
		{"the blog's run", string(data), true},
		{"far into a chunk", "[TRT-LLM] [I] Using LLM with PyTorch backend\n" + filler.String() + "Processed requests: 100%|██████████| 4/4 [00:02<00:00,  1.9it/s]\n", true},
		{"tqdm's redraws", "[TRT-LLM] [I] Using LLM with PyTorch backend\nProcessed requests:   0%|          | 0/4 [00:00<?, ?it/s]\rProcessed requests: 100%|██████████| 4/4 [00:02<00:00,  1.9it/s]\n", true},
		{"no process yet", "[TensorRT-LLM] TensorRT-LLM version: 1.2.0rc2\nProcessed requests: 100%|██████████| 4/4 [00:02<00:00,  1.9it/s]\n", false},
		{"another bar", "[TRT-LLM] [I] Using LLM with PyTorch backend\nProcessed prompts: 100%|██████████| 4/4\n", false},
	} {
		lg, err := Parse("p.log", strings.NewReader(c.log))
		if err != nil {
			t.Fatal(err)
		}
		if got := strings.Contains(Judge(lg, nil, true).Summary(), up); got != c.want {
			t.Errorf("%s: said %v, want %v: %s", c.name, got, c.want, Judge(lg, nil, true).Summary())
		}
		checkSame(t, []byte(c.log), 21)
	}
}

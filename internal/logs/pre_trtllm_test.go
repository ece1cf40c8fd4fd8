package logs

import (
	"strings"
	"testing"
)

// TestNotTRTLLMCrashOnly: a file no line of which is TensorRT-LLM's (no tag,
// no version line, no executor or transceiver line) is not a TensorRT-LLM
// log, also when it holds a crash handler's, a launcher's or a traceback's
// lines (a benchmark client's segfault log in the job's directory): they
// make no failed process; alone such a file exits 1 (nothing shows a
// transceiver), as any file that is not TensorRT-LLM's. The same lines in
// a TensorRT-LLM log still end its process's start-up; an exception that is
// TensorRT-LLM's own (its C++ tag, its sources, "Executor worker returned
// error") still makes the log TensorRT-LLM's.
func TestNotTRTLLMCrashOnly(t *testing.T) {
	const start = "[TRT-LLM] [RANK 0] [I] Using LLM with PyTorch backend\n"
	for _, c := range []struct{ name, log string }{
		{"segfault banner", "!!!!!!! Segfault encountered !!!!!!!\n  File \"<unknown>\", line 0, in PyCallable_Check\n"},
		{"srun's task death", "srun: error: gpu-1: task 0: Segmentation fault\n"},
		{"mpirun's", "mpirun noticed that process rank 0 with PID 0 on node gpu-1 exited on signal 11 (Segmentation fault).\n"},
		{"faulthandler", "Fatal Python error: Segmentation fault\n\nCurrent thread 0x00007f8ac33c5b80 (most recent call first):\n  File \"bench.py\", line 9 in main\n"},
		{"a bare traceback", "Traceback (most recent call last):\n  File \"/bench/client.py\", line 12, in <module>\n    main()\nConnectionRefusedError: [Errno 111] Connection refused\n"},
		{"terminate", "terminate called after throwing an instance of 'std::runtime_error'\n  what():  boom\n"},
		{"a crash and UCX", "[1742467344.413567] [h:1 :0]  sock.c:334  UCX  ERROR   connect failed\n[h:1:0:1] Caught signal 11 (Segmentation fault: address not mapped to object at address 0x54000009)\n"},
	} {
		lg, _ := Parse("bench.log", strings.NewReader(c.log))
		if len(lg.Processes) != 0 {
			t.Errorf("%s: processes %s", c.name, sources(lg))
		}
		v := Judge(lg, nil, true)
		if v.Status != StatusNotTRTLLM || v.Exit() != 1 {
			t.Errorf("%s: %s, exit %d", c.name, v.Status, v.Exit())
		}
		// In a TensorRT-LLM log the same lines end its start-up.
		lg, _ = Parse("worker.log", strings.NewReader(start+c.log))
		if len(lg.Processes) == 0 || lg.Processes[0].Outcome() != "ERROR" {
			t.Errorf("%s in a TensorRT-LLM log: %s %v", c.name, sources(lg), lg.Failed())
		}
	}
	// TensorRT-LLM's own exceptions, alone, are still its failures.
	for _, log := range []string{
		"RuntimeError: [TensorRT-LLM][ERROR] Assertion failed: status == NIXL_SUCCESS (/src/tensorrt_llm/executor/cache_transmission/nixl_utils/transferAgent.cpp:416)\n",
		"RuntimeError: Executor worker returned error\n",
		"ValueError: bad (../tensorrt_llm/batch_manager/cacheTransBuffer.cpp:206)\n",
	} {
		lg, _ := Parse("f.log", strings.NewReader(log))
		if len(lg.Processes) != 1 || lg.Processes[0].Outcome() != "ERROR" {
			t.Errorf("%q: %s", log, sources(lg))
		}
	}
}

package logs

import (
	"fmt"
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

// TestUCXErrorBeforeFirstLine: a UCX ERROR line printed before its process's
// first TensorRT-LLM line (UCX logs as the transceiver's context is made,
// before the rank's or the container's lines start) belongs to the process
// that follows in the same file or stream, as the lines printed before the
// rank is known do: its ucx_error finding was dropped. Beside several ranks
// it is shown without rank, as a pod's bare lines are. UCX's lines of a key
// that never shows a TensorRT-LLM line (another container), or alone, still
// make no process.
func TestUCXErrorBeforeFirstLine(t *testing.T) {
	const ucx = "[1742467344.413567] [gpu-1:2808 :0]     sock.c:334  UCX  ERROR   connect(fd=143, dest_addr=10.0.0.0:43833) failed: Connection refused\n"
	const up = "Using KvCacheTransceiverV2\n"
	for _, c := range []struct{ name, log, want string }{
		{"one process", ucx + "[TRT-LLM] [I] " + up, "process=PYTHON ucx_error@1"},
		{"before the rank", ucx + "[TRT-LLM] [RANK 0] [I] " + up, "rank 0=PYTHON ucx_error@1"},
		{"before the rank, C++ logger", ucx + "[TensorRT-LLM][RANK 0][INFO] " + up, "rank 0=PYTHON ucx_error@1"},
		{"srun task", "0: " + ucx + "0: [TRT-LLM] [RANK 0] [I] " + up + "1: [TRT-LLM] [RANK 1] [I] " + up,
			"srun task 0=PYTHON ucx_error@1;srun task 1=PYTHON "},
		{"compose container", "ctx-1  | " + ucx + "gen-1  | [TRT-LLM] [I] " + up + "ctx-1  | [TRT-LLM] [I] " + up,
			"ctx-1=PYTHON ucx_error@1;gen-1=PYTHON "},
		{"compose container, ranked", "ctx-1  | " + ucx + "ctx-1  | [TRT-LLM] [RANK 0] [I] " + up,
			"ctx-1 rank 0=PYTHON ucx_error@1"},
		{"pod", "[pod/ctx-0/trtllm] " + ucx + "[pod/ctx-0/trtllm] [TRT-LLM] [RANK 0] [I] " + up,
			"pod/ctx-0/trtllm rank 0=PYTHON ucx_error@1"},
		{"beside several ranks", ucx + "[TRT-LLM] [RANK 0] [I] " + up + "[TRT-LLM] [RANK 1] [I] " + up,
			"unattributed= ucx_error@1;rank 0=PYTHON ;rank 1=PYTHON "},
		{"another container's", "etcd-1  | " + ucx + "ctx-1  | [TRT-LLM] [I] " + up, "ctx-1=PYTHON "},
		{"UCX alone", ucx + ucx, ""},
	} {
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
		if ref, _ := parseReference("f.log", strings.NewReader(c.log)); summary(t, ref) != summary(t, lg) {
			t.Errorf("%s: the reference parser reads it otherwise", c.name)
		}
	}
}

// TestPastedTracebackThroughTRTLLM: a traceback pasted alone from an issue,
// whose frames run through TensorRT-LLM's package but whose exception names
// nothing of it, is TensorRT-LLM's failure, not "not a TensorRT-LLM log" —
// also when the frame is far from any line the scanner passes on (past a
// chunk's first lines, chunks of every size: checkSame).
func TestPastedTracebackThroughTRTLLM(t *testing.T) {
	const tb = "Traceback (most recent call last):\n" +
		"  File \"/usr/local/lib/python3.12/dist-packages/tensorrt_llm/_torch/pyexecutor/py_executor_creator.py\", line 612, in create_py_executor\n" +
		"    kv_cache_transceiver = create_kv_cache_transceiver(\n" +
		"ValueError: KvCacheTransceiverV2: _check_compatible: tokens_per_block differs\n"
	lg, _ := Parse("issue.log", strings.NewReader(tb))
	if len(lg.Processes) != 1 || lg.Processes[0].Outcome() != "ERROR" {
		t.Errorf("a traceback through tensorrt_llm: %s", sources(lg))
	}
	// Far from the exception and past a chunk's first lines: the frame alone (a traceback whose exception
	// was cut from the paste) makes the log TensorRT-LLM's, so the
	// client's exception after 60 filler lines is its failure.
	var b strings.Builder
	for i := range 60 {
		fmt.Fprintf(&b, "filler line %d\n", i)
	}
	b.WriteString("  File \"/opt/venv/lib/python3.12/site-packages/tensorrt_llm/llmapi/llm.py\", line 120, in __init__\n")
	for i := range 60 {
		fmt.Fprintf(&b, "filler line %d\n", i)
	}
	b.WriteString("ConnectionRefusedError: [Errno 111] Connection refused\n")
	lg, _ = Parse("issue.log", strings.NewReader(b.String()))
	if len(lg.Processes) != 1 {
		t.Errorf("a tensorrt_llm frame far from the exception: %s", sources(lg))
	}
	checkSame(t, []byte(b.String()), 1)
	checkSame(t, []byte(b.String()), 2)
	// A frame's path wrapped by the terminal the traceback was copied from
	// (80 columns or more: in the release containers' path,
	// /usr/local/lib/python3.12/dist-packages/, the package's name ends at
	// column 61, so its first piece holds it whole), far from anything else.
	wrapped := b.String() + "Traceback (most recent call last):\n" +
		"  File \"/usr/local/lib/python3.12/dist-packages/tensorrt_llm/_torch/pyexecutor/py_execut\n" +
		"or_creator.py\", line 123, in create_py_executor\n" +
		"ConnectionRefusedError: [Errno 111] Connection refused\n"
	lg, _ = Parse("issue.log", strings.NewReader(strings.Replace(wrapped, "tensorrt_llm/llmapi", "other/llmapi", 1)))
	if len(lg.Processes) != 1 || lg.Processes[0].Outcome() != "ERROR" {
		t.Errorf("a wrapped frame through tensorrt_llm: %s", sources(lg))
	}
	checkSame(t, []byte(wrapped), 3)
	// Another package's frames do not.
	lg, _ = Parse("bench.log", strings.NewReader(strings.ReplaceAll(tb, "tensorrt_llm/", "aiohttp/")))
	if len(lg.Processes) != 0 {
		t.Errorf("another package's traceback: %s", sources(lg))
	}
}

// TestMpiSessionLineMakesTRTLLM: the executor proxy's bare line as it starts
// its workers ("rank 0 using MpiPoolSession to spawn MPI processes",
// proxy.py) makes a log TensorRT-LLM's, so mpi4py's spawn failure after it
// (a traceback in mpi4py alone: TensorRT-LLM issue #5495's, Dynamo PR
// #808's) is its start-up failure, also far into a chunk (equal to the
// reference parser). Lines that only start alike do not.
func TestMpiSessionLineMakesTRTLLM(t *testing.T) {
	const spawn = "--------------------------------------------------------------------------\n" +
		"All nodes which are allocated for this job are already filled.\n" +
		"--------------------------------------------------------------------------\n" +
		"Exception in thread Thread-3 (_manager_spawn):\n" +
		"Traceback (most recent call last):\n" +
		"  File \"/usr/local/lib/python3.12/dist-packages/mpi4py/futures/_lib.py\", line 324, in _manager_spawn\n" +
		"    comm = serialized(client_spawn)(pyexe, pyargs, nprocs, info)\n" +
		"mpi4py.MPI.Exception: MPI_ERR_SPAWN: could not spawn processes\n"
	var filler strings.Builder
	for i := range 60 {
		fmt.Fprintf(&filler, "filler line %d\n", i)
	}
	for _, c := range []struct {
		line string
		want int
	}{
		{"rank 0 using MpiPoolSession to spawn MPI processes", 1},
		{"\x1b[33mrank 12 using MpiCommSession to bind to external MPI processes\x1b[0m", 1},
		{"Using MpiPoolSession to spawn MPI processes", 1},
		{"rank 0 using MpiPoolSession to spawn MPI processes now", 0},
		{"rank x using MpiPoolSession to spawn MPI processes", 0},
		{"rank 0 is ready", 0},
	} {
		for _, log := range []string{c.line + "\n" + spawn, filler.String() + c.line + "\n" + filler.String() + spawn} {
			lg, _ := Parse("spawn.log", strings.NewReader(log))
			if len(lg.Processes) != c.want || c.want == 1 && lg.Processes[0].Outcome() != "ERROR" {
				t.Errorf("%q: %s", c.line, sources(lg))
			}
			checkSame(t, []byte(log), 5)
		}
	}
	// Cut before the exception (issue #5495's paste): a TensorRT-LLM log
	// that stops early, not "not a TensorRT-LLM log".
	lg, _ := Parse("cut.log", strings.NewReader("rank 0 using MpiPoolSession to spawn MPI processes\nException in thread Thread-3 (_manager_spawn):\nTraceback (most recent call last):\n"))
	if v := Judge(lg, nil, true); v.Status != StatusNoLines {
		t.Errorf("cut before the exception: %s: %s", v.Status, v.Summary())
	}
}

// TestLazyImportCause: transformers' lazy import puts the error it names on
// the line after "Failed to import … because of the following error (look
// up to see its traceback):", not indented (TensorRT-LLM issue #4392's
// trtllm-serve: flash_attn built for another torch). That line, nested ones
// too, is the exception's, as a pydantic error's details are; a missing
// library there says what it is. A traceback or a blank line after it is
// not taken. Equal to the reference parser, late in a chunk.
func TestLazyImportCause(t *testing.T) {
	const tb = "Traceback (most recent call last):\n" +
		"  File \"/usr/local/bin/trtllm-serve\", line 5, in <module>\n" +
		"    from tensorrt_llm.commands.serve import main\n" +
		"  File \"/usr/local/lib/python3.12/dist-packages/tensorrt_llm/__init__.py\", line 33, in <module>\n" +
		"    import tensorrt_llm.models as models\n"
	const head = "RuntimeError: Failed to import transformers.models.bert.modeling_bert because of the following error (look up to see its traceback):"
	const flash = "/usr/local/lib/python3.12/dist-packages/flash_attn_2_cuda.cpython-312-x86_64-linux-gnu.so: undefined symbol: _ZN3c105ErrorC2ENS_14SourceLocationE"
	const nested = "Failed to import transformers.modeling_utils because of the following error (look up to see its traceback):"
	const cudart = "libcudart.so.13: cannot open shared object file: No such file or directory"
	var filler strings.Builder
	for i := range 60 {
		fmt.Fprintf(&filler, "[TRT-LLM] [I] filler line %d\n", i)
	}
	for _, c := range []struct {
		name, log, err, impl string
	}{
		{"its error", tb + head + "\n" + flash + "\n", head + "\n" + flash, "flash_attn_2_cuda.cpython-312-x86_64-linux-gnu.so lacks a symbol of PyTorch's own C++ library"},
		{"the loader's error raised", tb + "ImportError: " + flash + "\n", "ImportError: " + flash, "built against another PyTorch"},
		{"another library's symbol", tb + "ImportError: /x/libnixl.so: undefined symbol: _ZN4nixl5Agent4initEv\n", "ImportError: /x/libnixl.so: undefined symbol: _ZN4nixl5Agent4initEv", "-PyTorch"},
		{"nested", tb + head + "\n" + nested + "\n" + cudart + "\n", head + "\n" + nested + "\n" + cudart, "CUDA 13"},
		{"a blank line", tb + head + "\n\n" + flash + "\n", head, ""},
		{"the chained traceback", tb + head + "\nThe above exception was the direct cause of the following exception:\n", head, ""},
		{"late in a chunk", filler.String() + tb + head + "\n" + flash + "\n", head + "\n" + flash, ""},
	} {
		lg, _ := Parse("imp.log", strings.NewReader(c.log))
		if len(lg.Processes) != 1 {
			t.Errorf("%s: %s", c.name, sources(lg))
			continue
		}
		p := lg.Processes[0]
		if p.Error != c.err {
			t.Errorf("%s: error %q, want %q", c.name, p.Error, c.err)
		}
		var impl []string
		for _, im := range p.Implications {
			impl = append(impl, im.Text)
		}
		if no, ok := strings.CutPrefix(c.impl, "-"); ok {
			if strings.Contains(strings.Join(impl, "|"), no) {
				t.Errorf("%s: implications %q, want none saying %q", c.name, impl, no)
			}
		} else if c.impl != "" && !strings.Contains(strings.Join(impl, "|"), c.impl) {
			t.Errorf("%s: implications %q, want %q", c.name, impl, c.impl)
		}
		for seed := range uint64(4) {
			checkSame(t, []byte(c.log), seed+11)
		}
	}
}

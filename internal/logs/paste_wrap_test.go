package logs

import (
	"strings"
	"testing"
)

// TestUnindentedWrappedCause: a cause on the line under "Failed to
// initialize executor on rank N:" that a paste word-wrapped onto lines that
// are not indented (a public benchmark report's qwen3_5 failure, wrapped at
// about 67 columns) is read whole; a line under a cause is its rest only
// when the wrap is evident (wrapsOn): a tracebacks's line, a crash handler's,
// another program's, a label's, a line under a short or finished one, or one
// that a fill would not have made stay lines of their own.
func TestUnindentedWrappedCause(t *testing.T) {
	const fail = "[TRT-LLM] [E] Failed to initialize executor on rank 0:\n"
	const l1 = "The checkpoint you are trying to load has model type `qwen3_5` but\n"
	const cut = "The checkpoint you are trying to load has model type `qwen3_5` but"
	for _, c := range []struct{ name, log, want string }{
		{"the report's wrap", fail + l1 + "Transformers does not recognize this architecture. This could be\nbecause of an issue with the checkpoint, or because your version of\nTransformers is out of date.\n",
			cut + " Transformers does not recognize this architecture. This could be because of an issue with the checkpoint, or because your version of Transformers is out of date."},
		{"pasted indented as a whole", "    " + fail + "    " + l1 + "    Transformers does not recognize this architecture.\n",
			cut + " Transformers does not recognize this architecture."},
		{"then the traceback", fail + l1 + "Traceback (most recent call last):\n  File \"/usr/local/lib/python3.12/dist-packages/tensorrt_llm/executor/worker.py\", line 1, in worker_main\n", cut},
		{"then libstdc++'s terminate", fail + l1 + "terminate called after throwing an instance of 'std::runtime_error'\n", cut},
		{"then faulthandler", fail + l1 + "Fatal Python error: Segmentation fault\n", cut},
		{"then a thread's exception", fail + l1 + "Exception in thread Thread-3 (_manager_spawn):\n", cut},
		{"then a progress bar", fail + l1 + "Loading safetensors weights in parallel: 100%|██████████| 6/6 [00:00<00:00, 105.78it/s]\n", cut},
		{"then a label", fail + l1 + "WARNING: Logging before InitGoogleLogging() is written to STDERR\n", cut},
		{"then NIXL's line", fail + l1 + "E0421 11:56:59.774282  709103 nixl_agent.cpp:259] getPluginParams: backend 'UCX' not found\n", cut},
		{"then one word", fail + l1 + "Killed\n", cut},
		{"then a blank line", fail + l1 + "\nTransformers does not recognize this architecture.\n", cut},
		{"then a line wider than a fill leaves", fail + l1 + "Transformers does not recognize this architecture and the rest of this line goes on far past the width of the line above it.\n", cut},
		{"under a short line", fail + "boom in load\nunindented rest of it\n", "boom in load"},
		{"under a finished sentence", fail + "The checkpoint you are trying to load has model type `qwen3_5` here.\nTransformers does not recognize this architecture.\n",
			"The checkpoint you are trying to load has model type `qwen3_5` here."},
		{"under a cause after the colon", "[TRT-LLM] [E] Failed to initialize executor on rank 0: The checkpoint you are trying to load has model type `x` but\nTransformers does not recognize this architecture.\n",
			"The checkpoint you are trying to load has model type `x` but"},
	} {
		lg, err := Parse("f.log", strings.NewReader(c.log))
		if err != nil {
			t.Fatal(err)
		}
		if len(lg.Processes) != 1 || lg.Processes[0].Cause != c.want {
			t.Errorf("%s: %s %+v", c.name, sources(lg), lg.Processes)
		}
		checkSame(t, []byte(c.log), 1)
	}
}

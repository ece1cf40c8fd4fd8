package logs

import (
	"strings"
	"testing"
)

// TestCppForwardAsyncError: the C++ executor's "Encountered an error in
// forwardAsync function: …" (executorImpl.cpp's terminateActiveRequests, at
// ERROR) says a step of its loop raised and every active request failed: a
// runtime error of a process whose executor was up, not how its start-up
// ended, and not "no process failed" without a word (TensorRT-LLM issue
// #2708's line). Only the C++ logger's ERROR line says it.
func TestCppForwardAsyncError(t *testing.T) {
	const msg = "Encountered an error in forwardAsync function: [TensorRT-LLM][ERROR] Assertion failed: mNextBlocks.empty() (/home/jenkins/agent/workspace/LLM/helpers/Build-x86_64/llm/cpp/tensorrt_llm/batch_manager/kvCacheManager.cpp:257)"
	for _, c := range []struct {
		name, log, source string
		count             int
	}{
		{"C++ logger", "[TensorRT-LLM][ERROR] " + msg + "\n1             0x413dcc tensorrt_llm::common::throwRuntimeError(char const*, int, std::__cxx11::basic_string<char, std::char_traits<char>, std::allocator<char> > const&) + 71\n", "process", 1},
		{"ranked, twice", "[TensorRT-LLM][RANK 1][ERROR] " + msg + "\n[TensorRT-LLM][RANK 1][ERROR] " + msg + "\n", "rank 1", 2},
		{"a warning", "[TensorRT-LLM][WARNING] " + msg + "\n", "process", 0},
		{"the Python logger", "[TRT-LLM] [E] " + msg + "\n", "process", 0},
	} {
		lg, _ := Parse("f.log", strings.NewReader(c.log))
		if len(lg.Processes) != 1 {
			t.Fatalf("%s: %s", c.name, sources(lg))
		}
		p := lg.Processes[0]
		f := processFinding(p, FindingRuntimeError)
		count := f.Count
		if count > 0 && (f.Text != msg || f.Line != 1) {
			t.Errorf("%s: finding %q at line %d", c.name, f.Text, f.Line)
		}
		if p.Source != c.source || p.Outcome() != "" || p.Error != "" || count != c.count {
			t.Errorf("%s: %s outcome %q error %q, %d runtime error(s)", c.name, p.Source, p.Outcome(), p.Error, count)
		}
	}
}

// TestQuotedTrtllmError: a TensorRT-LLM exception another program caught
// and quotes in its own error line is read as that program's word, not as a
// line of the C++ logger behind a prefix: Triton's tensorrtllm backend could
// not create its model instance (the executor's start-up failed, its C++
// frames escaped on the same line; tensorrtllm_backend issue #710, cut as
// the index keeps it), or a server's request failed in the C++ executor's
// step (Baseten's Briton, TensorRT-LLM issue #5451). A C++ logger's line
// behind a logging library's prefix is still that line.
func TestQuotedTrtllmError(t *testing.T) {
	const triton = `E0218 20:57:33.147956 130 model_lifecycle.cc:654] "failed to load 'tensorrt_llm_2beam' version 1: Internal: unexpected error when creating modelInstanceState: [TensorRT-LLM][ERROR] Assertion failed: 16 != 40 (/workspace/tensorrt_llm/cpp/tensorrt_llm/layers/lookaheadDecodingLayer.cpp:56)\n1       0x7ff34f6bdff8 tensorrt_llm::common::throwRuntimeError(char const*, int, std::__cxx11::basic_string<char, std::char_traits<char>, std::allocator<char> > const&) + 95"`
	const briton = "E0624 21:46:14.504165488     296 briton.cpp:205]                       Executor requestId=235 failed with error: Encountered an error in forwardAsync function: [TensorRT-LLM][ERROR] Assertion failed: decoderFinishedEvent must be nullopt. (/src/tensorrt_llm/cpp/tensorrt_llm/batch_manager/trtGptModelInflightBatching.cpp:1040) "
	for _, c := range []struct {
		name, log, err, finding string
	}{
		{"Triton's load failure", triton + "\n", "[TensorRT-LLM][ERROR] Assertion failed: 16 != 40 (/workspace/tensorrt_llm/cpp/tensorrt_llm/layers/lookaheadDecodingLayer.cpp:56)", ""},
		{"Triton's message closed", `E0218 1 model_lifecycle.cc:654] "failed to load 'tensorrt_llm' version 1: Internal: unexpected error when creating modelInstanceState: [TensorRT-LLM][ERROR] CUDA runtime error in ::cudaMallocAsync(...): out of memory"` + "\n",
			"[TensorRT-LLM][ERROR] CUDA runtime error in ::cudaMallocAsync(...): out of memory", ""},
		{"Briton's request error", briton + "\n", "", "Encountered an error in forwardAsync function: [TensorRT-LLM][ERROR] Assertion failed: decoderFinishedEvent must be nullopt. (/src/tensorrt_llm/cpp/tensorrt_llm/batch_manager/trtGptModelInflightBatching.cpp:1040)"},
		{"the C++ logger behind a logging prefix", "2025-12-01 10:00:09,123 - TRT-LLM - ERROR - [TensorRT-LLM][ERROR] Encountered an error in forwardAsync function: boom\n", "", "Encountered an error in forwardAsync function: boom"},
	} {
		lg, _ := Parse("f.log", strings.NewReader(c.log))
		if len(lg.Processes) != 1 {
			t.Fatalf("%s: %s", c.name, sources(lg))
		}
		p := lg.Processes[0]
		got := processFinding(p, FindingRuntimeError).Text
		if p.Error != c.err || got != c.finding {
			t.Errorf("%s: error %q finding %q", c.name, p.Error, got)
		}
	}
}

// TestLoneWhatLine: libstdc++'s "  what():  …" line of a TensorRT-LLM
// exception pasted without the "terminate called after throwing …" line
// above it (TensorRT-LLM issue #2443's comment) says the process aborted on
// an uncaught C++ exception: only the verbose terminate handler prints it.
// It is not a C++ logger's ERROR line behind a prefix. Under its terminate
// line it still names the exception's class (issue #1826's shape), and a
// what() of another library's exception alone says nothing.
func TestLoneWhatLine(t *testing.T) {
	const what = "  what():  [TensorRT-LLM][ERROR] Assertion failed: KV-cache-less is only supported for context (/app/tensorrt_llm/cpp/tensorrt_llm/plugins/gptAttentionPlugin/gptAttentionPlugin.cpp:1019)\n"
	for _, c := range []struct {
		name, log, err string
		procs          int
	}{
		{"alone", what, "what():  [TensorRT-LLM][ERROR] Assertion failed: KV-cache-less is only supported for context (/app/tensorrt_llm/cpp/tensorrt_llm/plugins/gptAttentionPlugin/gptAttentionPlugin.cpp:1019)", 1},
		{"under its terminate line", "terminate called after throwing an instance of 'tensorrt_llm::common::TllmException'\n" + what,
			"tensorrt_llm::common::TllmException: [TensorRT-LLM][ERROR] Assertion failed: KV-cache-less is only supported for context (/app/tensorrt_llm/cpp/tensorrt_llm/plugins/gptAttentionPlugin/gptAttentionPlugin.cpp:1019)", 1},
		{"another library's", "  what():  std::bad_alloc\n", "", 0},
	} {
		lg, _ := Parse("f.log", strings.NewReader(c.log))
		if len(lg.Processes) != c.procs {
			t.Fatalf("%s: %s", c.name, sources(lg))
		}
		if c.procs == 0 {
			continue
		}
		if p := lg.Processes[0]; p.Error != c.err || p.Outcome() != "ERROR" {
			t.Errorf("%s: outcome %q error %q", c.name, p.Outcome(), p.Error)
		}
	}
}

// TestCodeSpanEnd: the backtick that closes a markdown code span around a
// pasted line is not part of TensorRT-LLM's message (TensorRT-LLM issue
// #13557's rank 0: its error ended in "-> Tensor`"); a pair of TensorRT-LLM's
// own backticks at the end stays.
func TestCodeSpanEnd(t *testing.T) {
	const tag = "[06/03/2026-08:27:38] [TRT-LLM] [E] [executor][RANK 0] Failed to initialize executor on rank 0: "
	for _, c := range []struct{ line, err string }{
		{tag + "x(Tensor tensor) -> Tensor`", "Failed to initialize executor on rank 0: x(Tensor tensor) -> Tensor"},
		{tag + "model type `qwen3_5`", "Failed to initialize executor on rank 0: model type `qwen3_5`"},
		{tag + "model type `qwen3_5` -> Tensor`", "Failed to initialize executor on rank 0: model type `qwen3_5` -> Tensor"},
	} {
		lg, _ := Parse("f.log", strings.NewReader(c.line+"\n"))
		if len(lg.Processes) != 1 || lg.Processes[0].Error != c.err {
			t.Errorf("%q: %s", c.line, sources(lg))
			for _, p := range lg.Processes {
				t.Errorf("  error %q", p.Error)
			}
		}
	}
}

// TestURLCutCause: a weight-loading task's cause that ends inside a URL a
// paste broke (TensorRT-LLM issue #7818's rank 2: PyTorch's "(https://
// pytorch.org/docs/stable/notes/cuda.html#environment-varia" over "bles)")
// takes the URL's rest from the line under it, without a blank; a line
// under a cause that ends otherwise is not taken.
func TestURLCutCause(t *testing.T) {
	const head = "[09/17/2025-21:24:19] [TRT-LLM] [RANK 2] [E] Error executing load_single_module with args ('model.layers.9.mlp.gate_up_proj', Linear()): CUDA out of memory. See documentation for Memory Management  "
	for _, c := range []struct{ log, tail string }{
		{head + "(https://pytorch.org/docs/stable/notes/cuda.html#environment-varia\nbles)\n", "(https://pytorch.org/docs/stable/notes/cuda.html#environment-variables)"},
		{head + "(https://pytorch.org/docs/stable/notes/cuda.html#environment-variables)\nbles)\n", "(https://pytorch.org/docs/stable/notes/cuda.html#environment-variables)"},
		{head + "(see the docs\nbles)\n", "(see the docs"},
		{head + "(https://pytorch.org/docs/stable/notes/cuda.html#environment-varia\nnext line here)\n", "(https://pytorch.org/docs/stable/notes/cuda.html#environment-varia"},
		// The executor's start-up failure, its cause after the colon.
		{"[TRT-LLM] [E] Failed to initialize executor on rank 0: CUDA out of memory. See documentation for Memory Management  (https://pytorch.org/docs/stable/notes/cuda.html#environment-varia\nbles)\n",
			"(https://pytorch.org/docs/stable/notes/cuda.html#environment-variables)"},
	} {
		lg, _ := Parse("f.log", strings.NewReader(c.log))
		if len(lg.Processes) != 1 || !strings.HasSuffix(lg.Processes[0].Cause, "Memory Management  "+c.tail) {
			t.Errorf("%q: %s", c.log, sources(lg))
			for _, p := range lg.Processes {
				t.Errorf("  cause %q", p.Cause)
			}
		}
	}
}

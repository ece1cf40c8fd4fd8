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
		count := 0
		for _, f := range p.Findings {
			if f.Kind == FindingRuntimeError {
				count = f.Count
				if f.Text != msg || f.Line != 1 {
					t.Errorf("%s: finding %q at line %d", c.name, f.Text, f.Line)
				}
			}
		}
		if p.Source != c.source || p.Outcome() != "" || p.Error != "" || count != c.count {
			t.Errorf("%s: %s outcome %q error %q, %d runtime error(s)", c.name, p.Source, p.Outcome(), p.Error, count)
		}
	}
}

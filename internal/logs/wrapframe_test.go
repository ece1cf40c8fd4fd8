package logs

import (
	"strings"
	"testing"
)

// TestWrappedFramePath: a traceback pasted alone whose frame line a
// terminal or a paste wrapped inside its path ("  File \"…/dist-packages/
// tensorrt_" over "llm/_torch/pyexecutor/py_executor.py\", line 290, in
// __init__") is TensorRT-LLM's, as the frame unwrapped is: its exception is
// a start-up failure, not a line of a log that is not TensorRT-LLM's. The
// wrap is read only when evident: the head's path never closes (Python
// prints a frame on one line) and the very next line closes it with
// `", line N, in `; the joined path must be in tensorrt_llm/ (vLLM's path
// wrapped after its "v", TensorRT's own tensorrt_bindings, are not).
func TestWrappedFramePath(t *testing.T) {
	const tb = "Traceback (most recent call last):\n"
	const exc = "    self.kv_cache_transceiver = create_kv_cache_transceiver(\nValueError: KvCacheTransceiverV2: the peer's layout differs\n"
	frame := func(head, tail string) string { return tb + "  File \"" + head + "\n" + tail + exc }
	const dist = "/usr/local/lib/python3.12/dist-packages/"
	const rest = `_torch/pyexecutor/py_executor.py", line 290, in __init__` + "\n"
	noise := strings.Repeat("Loading weights: 100%|██████████| 4/4\n", excWindow+5)
	for _, c := range []struct {
		name, log string
		want      Status
	}{
		{"wrapped after tensorrt_", frame(dist+"tensorrt_", "llm/"+rest), StatusFailed},
		{"wrapped at 80 columns, mid-word", frame("/home/ubuntu/miniconda3/envs/trtllm/lib/python3.10/site-packages/tensorr", "t_llm/"+rest), StatusFailed},
		{"wrapped before tensorrt_llm/", frame(dist, "tensorrt_llm/"+rest), StatusFailed},
		{"wrapped after tensorrt_llm", frame(dist+"tensorrt_llm", "/"+rest), StatusFailed},
		{"past the chunk's first lines", noise + frame(dist+"tensorrt_", "llm/"+rest), StatusFailed},
		{"behind the harness's label", "[PYTHON3] " + tb + "[PYTHON3]   File \"" + dist + "tensorrt_\nllm/" + rest + exc, StatusFailed},
		{"vLLM's path", frame(dist+"v", `llm/engine/llm_engine.py", line 290, in __init__`+"\n"), StatusNotTRTLLM},
		{"TensorRT's bindings", frame(dist+"tensorrt_", `bindings/__init__.py", line 12, in <module>`+"\n"), StatusNotTRTLLM},
		{"a line between", frame(dist+"tensorrt_", "\nllm/"+rest), StatusNotTRTLLM},
		{"no rest of a frame under it", frame(dist+"tensorrt_", "llm/_torch/pyexecutor/py_executor.py is where\n"), StatusNotTRTLLM},
		{"a closed path", tb + "  File \"" + dist + "other/x.py\", line 3, in f\nllm/" + rest + exc, StatusNotTRTLLM},
	} {
		lg, err := Parse("f.log", strings.NewReader(c.log))
		if err != nil {
			t.Fatal(err)
		}
		if got := Judge(lg, nil, true).Status; got != c.want {
			t.Errorf("%s: %s, want %s: %s", c.name, got, c.want, sources(lg))
		}
		checkSame(t, []byte(c.log), 1)
		checkSame(t, []byte(c.log), 2)
	}
}

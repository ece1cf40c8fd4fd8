package logs

import (
	"fmt"
	"strings"
	"testing"
)

// TestIndentedPasteReadsAsIs: a log pasted indented as a whole (a markdown
// code block, four blanks) reads as it does unindented: the lines under a
// start-up failure and an exception's details are indented from the
// failure's own column (a traceback's first line, or the cause's first line
// under "…: "), not from the line's start. Indented, a traceback's exception
// read as one of its frames (its backend and error lost), the lines after a
// cause as the rest of it, and pydantic's details kept the paste's blanks.
func TestIndentedPasteReadsAsIs(t *testing.T) {
	cases := map[string]string{
		"a traceback under a failure": "[TRT-LLM] [RANK 0] [E] Failed to initialize executor on rank 0: Python transceiver currently only supports NIXL backend, got UCX. Please use transceiver_runtime='CPP' for MPI, UCX, or MOONCAKE backends.\n" +
			"Traceback (most recent call last):\n  File \"/usr/lib/python3/dist-packages/tensorrt_llm/_torch/pyexecutor/config_utils.py\", line 88, in resolve_cache_transceiver_config\n    raise ValueError(\n" +
			"ValueError: Python transceiver currently only supports NIXL backend, got UCX. Please use transceiver_runtime='CPP' for MPI, UCX, or MOONCAKE backends.\n",
		"a cause on the lines under": "[TRT-LLM] [E] Failed to initialize executor on rank 0:\nThe checkpoint you are trying to load has model type `qwen3_5` but\nTransformers does not recognize this architecture.\n",
		"details after the cause":    "ERROR [TRT-LLM] Failed to initialize executor on rank 0:\nsetup(): incompatible function arguments.\n\nExpected:\n  max_attention_window: int\n",
		"pydantic's details": "[TRT-LLM] [E] Failed to parse the arguments for the LLM constructor: 1 validation error for TrtLlmArgs\n" +
			"pydantic_core._pydantic_core.ValidationError: 1 validation error for TrtLlmArgs\n  Value error, max_batch_size [2048] is greater than build_config.max_batch_size [64] [type=value_error]\n" +
			"    For further information visit https://errors.pydantic.dev/2.10/v/value_error\nThe above exception was the direct cause of the following exception:\n",
	}
	read := func(text string) string {
		lg, err := Parse("x.log", strings.NewReader(text))
		if err != nil {
			t.Fatal(err)
		}
		var b strings.Builder
		for _, p := range lg.Processes {
			fmt.Fprintf(&b, "%s: %s class %q backend %q error %q cause %q\n", p.Source, p.Outcome(), p.Class, p.Backend, p.Error, p.Cause)
		}
		return b.String()
	}
	for name, text := range cases {
		indented := "    " + strings.ReplaceAll(strings.TrimSuffix(text, "\n"), "\n", "\n    ") + "\n"
		if got, want := read(indented), read(text); got != want {
			t.Errorf("%s, indented:\n%s\nas is:\n%s", name, got, want)
		}
	}
	// A cause after the colon whose rest a paste wrapped and indented
	// still takes it (a public 1.2.1 probe report's shape).
	lg, _ := Parse("x.log", strings.NewReader("[TRT-LLM] [E] Failed to initialize executor on rank 0: The checkpoint you are trying to load\n  has model type `qwen3_5` but Transformers does not recognize this architecture.\n"))
	if len(lg.Processes) != 1 || !strings.HasSuffix(lg.Processes[0].Cause, "does not recognize this architecture.") {
		t.Errorf("the wrapped cause: %+v", lg.Processes)
	}
}

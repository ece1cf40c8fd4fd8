package logs

import (
	"fmt"
	"strings"
	"testing"
)

// collected is a log as a deployment collects it, and what xcvr must read:
// each process "source=OUTCOME kind@line,…", the first process's error.
type collected struct {
	name, log, want, err string
}

func checkCollected(t *testing.T, cases []collected) {
	t.Helper()
	for _, c := range cases {
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
		if len(lg.Processes) > 0 && !strings.HasPrefix(lg.Processes[0].Error, c.err) || c.err == "" && len(lg.Processes) > 0 && lg.Processes[0].Error != "" {
			t.Errorf("%s: error %q, want %q", c.name, lg.Processes[0].Error, c.err)
		}
		if ref, _ := parseReference("f.log", strings.NewReader(c.log)); summary(t, ref) != summary(t, lg) {
			t.Errorf("%s: the reference parser reads it otherwise", c.name)
		}
		for s := uint64(0); s < 3; s++ {
			checkSame(t, []byte(strings.Repeat("0: [TRT-LLM] [RANK 0] [I] iter\n", 60)+c.log), s)
		}
	}
}

// dynRecord is one record of Dynamo's JSONL logging (DYN_LOGGING_JSONL=1) in
// the field order of JsonLog (ai-dynamo/dynamo lib/runtime/src/logging.rs:
// time, level, file, line, target, message, then the other fields), message
// JSON-escaped as serde_json writes it.
func dynRecord(tm, level, target, msg string) string {
	m := strings.NewReplacer(`\`, `\\`, `"`, `\"`, "\n", `\n`, "\t", `\t`, "\r", `\r`, "\x1b", `\u001b`).Replace(msg)
	return `{"time":"2026-01-10T12:00:` + tm + `.000000Z","level":"` + level + `","file":"/opt/dynamo/venv/lib/python3.12/site-packages/dynamo/trtllm/x.py","line":42,"target":"` +
		target + `","message":"` + m + `"}` + "\n"
}

// TestDynamoJSONLTraceback: Python's logging appends an exception's
// traceback to the record's message (exc_info=True, logger.exception), and
// Dynamo's LogHandler formats the record with "%(message)s" and hands the
// whole text to its Rust logger (lib/bindings/python/src/dynamo/runtime/
// logging.py), whose JSONL formatter writes it as one "message" string, the
// traceback's lines joined by "\n" (verified). Readable, Dynamo prints those
// lines as lines of their own; xcvr reads the record as those lines, so the
// traceback's exception is read where it was lost inside one line: a start-up
// failure, or once the engine was up (Dynamo's "Set runtime config
// max_num_seqs") a runtime error.
func TestDynamoJSONLTraceback(t *testing.T) {
	const tb = "Traceback (most recent call last):\n" +
		"  File \"/opt/dynamo/venv/lib/python3.12/site-packages/tensorrt_llm/_torch/pyexecutor/py_executor_creator.py\", line 612, in create_py_executor\n" +
		"    kv_cache_transceiver = create_kv_cache_transceiver(\n" +
		"ValueError: Python transceiver currently only supports NIXL backend, got UCX. Please use transceiver_runtime='CPP' for MPI, UCX, or MOONCAKE backends."
	up := dynRecord("09", "INFO", "llm_worker.init_llm_worker", "Set runtime config max_num_seqs: 256")
	using := dynRecord("05", "INFO", "py_executor_creator.create_py_executor", "[TRT-LLM] [I] Using UCX kv-cache transceiver. If your devices are not in the same domain, please consider setting UCX_CUDA_IPC_ENABLE_MNNVL=n, UCX_RNDV_SCHEME=put_zcopy and/or unset UCX_NET_DEVICES upon server hangs or lower-than-expected performance.")
	checkCollected(t, []collected{
		{"start-up, logged with exc_info", using + dynRecord("06", "ERROR", "main.worker", "Failed to start the engine\n"+tb),
			"process=ERROR ", "ValueError: Python transceiver currently only supports NIXL backend, got UCX."},
		// TensorRT-LLM's logger.error(traceback.format_exc()): its tag
		// on the first line only.
		{"TensorRT-LLM's own traceback line", using + dynRecord("06", "ERROR", "logger.log", "[TRT-LLM] [E] "+tb+"\n"),
			"process=ERROR ", "ValueError: Python transceiver"},
		// handler_base's "Fatal {error_type} in request {id}: {msg}" with
		// exc_info=True, once the engine was up.
		{"a request's failure once up", dynRecord("01", "INFO", "logger.log", "[TRT-LLM] [I] Using KvCacheTransceiverV2") + up +
			dynRecord("11", "ERROR", "handler_base.generate", "Fatal RuntimeError in request 7: boom\nTraceback (most recent call last):\n  File \"/x/handler_base.py\", line 3, in generate\n    raise RuntimeError(\"boom\")\nRuntimeError: boom"),
			"process=PYTHON runtime_error@3", ""},
		// Blank lines, CRLF and colour inside the message.
		{"blank lines and CR", using + dynRecord("06", "ERROR", "main.worker", "Failed\r\n\n\x1b[31m"+tb+"\x1b[0m\r\n"),
			"process=ERROR ", "ValueError: Python transceiver"},
		// Docker's json-file record of one.
		{"in docker's json-file record", `{"log":` + strings.TrimSuffix(fmt.Sprintf("%q", dynRecord("06", "ERROR", "main.worker", "Failed\n"+tb)), `\n"`) + `\n","stream":"stderr","time":"2026-01-10T12:00:06Z"}` + "\n",
			"process=ERROR ", "ValueError: Python transceiver"},
	})
}

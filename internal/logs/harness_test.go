package logs

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestWorkerSubmitCall: a traceback cut under worker_main's frame at its
// source line "worker.submit(req)" (Dynamo PR #8954's worker, each line
// labelled "[PYTHON3] " by Dynamo's test harness) shows a worker that was
// taking requests: the verdict says the lines that show its transceiver are
// not in the log (it starts after them, or they were filtered), not that the
// log stops before the transceiver. worker_main's frame over its start-up
// (worker_cls(…)), the call under another frame, or a label that is not the
// harness's, do not.
func TestWorkerSubmitCall(t *testing.T) {
	real, err := os.ReadFile(filepath.Join("testdata", "real", "dynamo-pr8954-python3-prefix.log"))
	if err != nil {
		t.Fatal(err)
	}
	const tb = "[TRT-LLM] [E] Traceback (most recent call last):\n"
	const frame = "  File \"/usr/local/lib/python3.12/dist-packages/tensorrt_llm/executor/worker.py\", line 328, in worker_main\n"
	const serving = "though its worker was taking requests (line 3)"
	const stops = "the log stops before it"
	noise := strings.Repeat("[PYTHON3] Loading weights: 100%|██████████| 4/4\n", excWindow+5)
	for _, c := range []struct{ name, log, want string }{
		{"PR #8954", string(real), serving},
		{"unlabelled", tb + frame + "    worker.submit(req)\n", serving},
		{"labelled, past the chunk's first lines", noise + "[PYTHON3] " + tb + "[PYTHON3] " + frame + "[PYTHON3]     worker.submit(req)\n", "though its worker was taking requests (line 49)"},
		{"worker_main's start-up", tb + frame + "    worker: ExecutorBindingsWorker = worker_cls(\n", stops},
		{"the call under another frame", tb + "  File \"/opt/app/serve.py\", line 12, in main\n    worker.submit(req)\n", stops},
		{"a label not the harness's", "[python3] " + tb + "[python3] " + frame + "[python3]     worker.submit(req)\n", stops},
	} {
		lg, _ := Parse("f.log", strings.NewReader(c.log))
		s := Judge(lg, nil, true).Summary()
		if !strings.Contains(s, c.want) {
			t.Errorf("%s: %s", c.name, s)
		}
		if c.want != stops && !strings.Contains(s, "it starts after them") {
			t.Errorf("%s: does not say the log may start after them: %s", c.name, s)
		}
		checkSame(t, []byte(c.log), 1)
		checkSame(t, []byte(c.log), 2)
	}
}

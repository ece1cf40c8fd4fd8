package logs

import (
	"strings"
	"testing"
)

// TestLevelLessTag: a paste that drops the Python logger's level keeps its
// tag and text ("[TRT-LLM] Failed to initialize executor on rank 0: …"), or
// puts another logger's level before it ("ERROR [TRT-LLM] …", as a NIM
// troubleshooting recipe quotes the executor's failure, and its retry loop).
// The line reads as TensorRT-LLM's, its level unstated, when it says
// something check-logs knows (other programs print the tag before their own
// words); a group that is no rank or level after the tag, or no blank after
// it, is still no tag.
func TestLevelLessTag(t *testing.T) {
	for _, c := range []struct {
		log, procs, err, cause string
	}{
		{"[TRT-LLM] Failed to initialize executor on rank 0: CUDA out of memory\n", "process=ERROR", "Failed to initialize executor on rank 0: CUDA out of memory", "CUDA out of memory"},
		{"ERROR [TRT-LLM] Failed to initialize executor on rank 0:\nsetup(): incompatible function arguments.\n\nExpected:\n  max_attention_window: int\n",
			"process=ERROR", "Failed to initialize executor on rank 0:", "setup(): incompatible function arguments."},
		// The recipe's restart loop: each attempt fails the same way.
		{"Model init total -- 4.40s\nERROR [TRT-LLM] Failed to initialize executor on rank 0: ...\nINFO Using JIT Config to create LLM args\n" +
			"Model init total -- 4.42s\nERROR [TRT-LLM] Failed to initialize executor on rank 0: ...\n", "process=ERROR", "Failed to initialize executor on rank 0: ...", "..."},
		{"[TRT-LLM] [RANK 1] Failed to initialize executor on rank 1: boom\n", "rank 1=ERROR", "Failed to initialize executor on rank 1: boom", "boom"},
		{"[TRT-LLM] Using KvCacheTransceiverV2\n", "process=PYTHON", "", ""},
		// No tag: another group, or no blank, after it.
		{"[TRT-LLM] [X] Using KvCacheTransceiverV2\n", "", "", ""},
		{"[TRT-LLM]Using KvCacheTransceiverV2\n", "", "", ""},
		{"[TRT-LLM] \n", "", "", ""},
		// Other programs print the tag before their own words (a benchmark
		// client's debug lines): no TensorRT-LLM process, not its log.
		{"[TRT-LLM] POST http://localhost:8000/v1/completions\n[TRT-LLM] Final generated_text (len=12): hi\n", "", "", ""},
		// Unrecognised words after a recognised line of the process are
		// still that process's.
		{"[TRT-LLM] Using KvCacheTransceiverV2\n[TRT-LLM] POST http://localhost:8000/v1/completions\n", "process=PYTHON", "", ""},
	} {
		lg, err := Parse("f.log", strings.NewReader(c.log))
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, p := range lg.Processes {
			got = append(got, p.Source+"="+string(p.Outcome()))
		}
		if s := strings.Join(got, ","); s != c.procs {
			t.Errorf("%q: processes %q, want %q", c.log, s, c.procs)
			continue
		}
		if len(lg.Processes) == 0 {
			if strings.Contains(c.log, "POST") && Judge(lg, nil, true).Status != StatusNotTRTLLM {
				t.Errorf("%q: %s, want not a TensorRT-LLM log", c.log, Judge(lg, nil, true).Status)
			}
			continue
		}
		if p := lg.Processes[0]; !strings.HasPrefix(p.Error, c.err) || (p.Error == "") != (c.err == "") || p.Cause != c.cause {
			t.Errorf("%q: error %q cause %q, want %q, %q", c.log, p.Error, p.Cause, c.err, c.cause)
		}
	}
}

package logs

import (
	"strings"
	"testing"
)

// TestReportReadsAsAnswer: what an operator reads first about each log says
// what happened, in words that are true of it (issue #23's read-through).
func TestReportReadsAsAnswer(t *testing.T) {
	// A failure logged as worker.py logs it, its cause on the line under it:
	// the process's line said "raised Failed to initialize executor on rank
	// 0:", no reason, and called a logged message raised.
	for _, c := range []struct{ file, want string }{
		{"real/nim-recipe-levelless-tag.log", "ERROR · Failed to initialize executor on rank 0: setup(): incompatible function arguments."},
		{"real/trtllm-pr18373-ucx-tls-condensed.log", "ERROR · Failed to initialize executor on rank 1: Assertion failed: status == NIXL_SUCCESS (.../nixl_utils/transferAgent.cpp:505)"},
		// An exception is still said raised.
		{"real/probe-report-import-libcuda-1.2.1.log", "ERROR · raised ImportError: libcuda.so.1: cannot open shared object file"},
		// A crash handler's line is a crash, not an exception raised.
		{"real/trtllm-12694-replica-segfault-shape.log", "ERROR · crashed !!!!!!! Segfault encountered !!!!!!!"},
	} {
		lg := parseFile(t, c.file)
		var got []string
		for _, p := range lg.Processes {
			got = append(got, ObservedSummary(p))
		}
		if !strings.Contains(strings.Join(got, "\n"), c.want) {
			t.Errorf("%s: process lines\n%s\nlack %q", c.file, strings.Join(got, "\n"), c.want)
		}
	}

	// and its line is labelled so.
	if d := strings.Join(ProcessDetail(parseFile(t, "real/trtllm-1826-terminate-shape.log").Processes[0]), "\n"); !strings.Contains(d, "3 crashed terminate called after throwing") || !strings.Contains(d, "4 raised  [TensorRT-LLM][ERROR]") {
		t.Errorf("terminate's lines:\n%s", d)
	}

	// The lines under an exception (here the rest a paste wrapped) follow
	// its line, not a later line of the process (NIXL's, line 4).
	lg := parseFile(t, "real/dynamo-guide-nixl-plugin-quoted.log")
	d := strings.Join(ProcessDetail(lg.Processes[0]), "\n")
	if !strings.Contains(d, "Assertion failed:\n          status == NIXL_SUCCESS (transferAgent.cpp:416)\n      4 ") {
		t.Errorf("the wrapped rest is not under line 2:\n%s", d)
	}

	// cache_transceiver is disabled: the process built no transceiver, and
	// the verdict said it "shows its transceiver".
	lg = parseFile(t, "real/spark-gptoss-agg-1.1.0rc3.log")
	if s := Judge(lg, nil, true).Summary(); s != "No process failed; the process built no transceiver (cache_transceiver is disabled)." {
		t.Errorf("disabled: %q", s)
	}
	// Its second 'disabled' line is a repeat: the note said "past 1 per
	// process", a cap that is the number of lines kept.
	d = strings.Join(ProcessDetail(lg.Processes[0]), "\n")
	if !strings.Contains(d, "(1 more recognised line(s) not shown: repeats of the lines above, or past the 64 a process keeps)") {
		t.Errorf("dropped lines' note:\n%s", d)
	}

	// A process the log names nothing: "Start-up failed: process." read as
	// a fragment.
	lg = parseFile(t, "real/nim-recipe-levelless-tag.log")
	if s := Judge(lg, nil, true).Summary(); s != "Start-up failed: the process." {
		t.Errorf("unnamed failure: %q", s)
	}
}

// TestOrchestratorReportCounts: the orchestrator's own process is counted in
// the header but not listed; the header says which it is ("2 process(es)"
// over one listed process read as a count that disagrees), and a blank line
// parts the listed processes from the closing line, as in any report.
func TestOrchestratorReportCounts(t *testing.T) {
	for _, c := range []struct{ file, header, tail string }{
		{"shapes/orchestrator-beside-rank-1.3.log", ": 8 lines, 2 process(es) (one the orchestrator's), 1 with transceiver lines\n",
			"      1 INFO    Using KvCacheTransceiverV2\n\nNo prediction"},
		{"real/beam-notes-disagg-proxy-1.3.log", ": 23 lines, 1 process(es) (the orchestrator's), 0 with transceiver lines\n", ""},
	} {
		var b strings.Builder
		WriteText(&b, Judge(parseFile(t, c.file), nil, true), Prediction{}, false)
		if !strings.Contains(b.String(), c.header) || !strings.Contains(b.String(), c.tail) {
			t.Errorf("%s:\n%s", c.file, b.String())
		}
	}
}

// TestNotShownWithoutPrediction: without a prediction "Nothing disagrees,
// but the process shows no outcome" said that something was compared.
func TestNotShownWithoutPrediction(t *testing.T) {
	lg := parseFile(t, "real/trtllm-9680-l40s-hang-ucx-warn-1.2.0rc2.log")
	if s := Judge(lg, nil, true).Summary(); !strings.HasPrefix(s, "No process failed, but the process shows no outcome: ") {
		t.Errorf("%q", s)
	}
}

// TestLongErrorSaidOnceWhole: a failure's text of 900 bytes (a CUDA
// out-of-memory message) was said whole on the process's line and again on
// its own line below; the process's line now says its first 200 bytes, cut
// at a word, and the line below keeps it whole. A short one is not cut.
func TestLongErrorSaidOnceWhole(t *testing.T) {
	p := parseFile(t, "real/vss-compose-oom.log").Processes[0]
	s := ObservedSummary(p)
	if !strings.HasSuffix(s, " GPU 0 has a total capacity of 14.56 GiB of which 58.38 MiB is free. Process 244271 has 26.06 MiB memory in …") || len(s) > 260 {
		t.Errorf("process line (%d bytes): %q", len(s), s)
	}
	if d := strings.Join(ProcessDetail(p), "\n"); !strings.Contains(d, "ERROR   Failed to initialize executor on rank 0: "+vssCause) {
		t.Errorf("the whole text is not below:\n%s", d)
	}
	p = parseFile(t, "real/trtllm-pr18373-ucx-tls-condensed.log").Processes[1]
	if s := ObservedSummary(p); !strings.HasSuffix(s, "(.../nixl_utils/transferAgent.cpp:505)") {
		t.Errorf("a short failure is cut: %q", s)
	}
}

// TestCauseNotSaidTwice: a cause that is the end of the failure's own lines,
// as printed above it, is not printed again under "cause:" (opUtils' NCCL
// error was said three times); one on a line of its own still is.
func TestCauseNotSaidTwice(t *testing.T) {
	for _, c := range []struct {
		file  string
		i     int
		cause bool
	}{
		{"real/dynamo-4299-opUtils-nccl-1.1.0rc5.log", 0, false},
		{"real/trtllm-9263-nccl-rank0.log", 0, false},
		{"real/trtllm-pr18373-ucx-tls-condensed.log", 1, true},
		{"real/nim-recipe-levelless-tag.log", 0, true},
	} {
		d := strings.Join(ProcessDetail(parseFile(t, c.file).Processes[c.i]), "\n")
		if strings.Contains(d, "\n  cause: ") != c.cause {
			t.Errorf("%s: cause line %v, want %v:\n%s", c.file, !c.cause, c.cause, d)
		}
	}
}

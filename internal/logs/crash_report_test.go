package logs

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
)

// crashedJob is a log of n srun tasks that each built the transceiver and
// came up, then died on a signal: a process_crashed finding each.
func crashedJob(n int) string {
	var b strings.Builder
	for r := 0; r < n; r++ {
		fmt.Fprintf(&b, "%d: [TRT-LLM] [RANK %d] [I] Using KvCacheTransceiverV2\n%d: INFO:     Application startup complete.\n", r, r, r)
	}
	for r := 0; r < n; r++ {
		fmt.Fprintf(&b, "srun: error: gpu-%d: task %d: Segmentation fault (core dumped)\n", r/8, r)
	}
	return b.String()
}

// TestCrashedAfterStartUpEverywhere: the processes that crashed after
// start-up are named as the failed ones are (three, and how many more),
// listed in the text report and the JSON past the cap on kept detail (the
// verdict names them; a report that hid them would contradict it), and in a
// report of several logs the log's verdict still says so, as -f's end does.
func TestCrashedAfterStartUpEverywhere(t *testing.T) {
	n := maxProcesses + 10
	lg, err := Parse("job.log", strings.NewReader(crashedJob(n)))
	if err != nil {
		t.Fatal(err)
	}
	v := Judge(lg, nil, true)
	want := fmt.Sprintf(" But srun task 0, srun task 1, srun task 2 and %d more crashed after start-up (first at line %d).", n-3, 2*n+1)
	if s := v.Summary(); !strings.HasSuffix(s, want) {
		t.Errorf("summary %q, want it to end %q", s, want)
	}
	var text bytes.Buffer
	WriteText(&text, v, Prediction{}, false)
	last := fmt.Sprintf("srun task %d: PYTHON", n-1)
	if !strings.Contains(text.String(), last) || strings.Contains(text.String(), "summarised (no line kept)") {
		t.Errorf("the text report does not list %q:\n%s", last, tail(text.String()))
	}
	var js bytes.Buffer
	r := NewJSONReport(&js)
	r.Add(v, Prediction{})
	if err := r.Finish(); err != nil {
		t.Fatal(err)
	}
	var got struct {
		Observed []struct {
			Source   string
			Findings []Finding
		}
	}
	if err := json.Unmarshal(js.Bytes(), &got); err != nil {
		t.Fatal(err)
	}
	crashed := 0
	for _, p := range got.Observed {
		for _, f := range p.Findings {
			if f.Kind == FindingCrashed {
				crashed++
			}
		}
	}
	if crashed != n {
		t.Errorf("the JSON shows %d process_crashed findings, want %d", crashed, n)
	}
	// One log among several: its verdict is not left out.
	lg, _ = Parse("one.log", strings.NewReader(crashedJob(1)))
	text.Reset()
	WriteText(&text, Judge(lg, nil, true), Prediction{}, true)
	if !strings.Contains(text.String(), "But srun task 0 crashed after start-up (first at line 3).") {
		t.Errorf("a report of several logs:\n%s", text.String())
	}
}

func tail(s string) string {
	if len(s) > 2000 {
		return "…" + s[len(s)-2000:]
	}
	return s
}

// TestFollowShowsFindings: -f names each kind of runtime finding when it
// first appears, in the batch report's words (a process that crashed after
// start-up read only "1 runtime finding(s)" until Ctrl-C), once per kind
// however the count grows; -f's JSON lines carry the findings as the batch
// JSON does.
func TestFollowShowsFindings(t *testing.T) {
	const up = "[TRT-LLM] [RANK 0] [I] Using KvCacheTransceiverV2\nINFO:     Application startup complete.\n"
	const ucx = "[1745700389.902821] [h:1 :0]  sock.c:334  UCX  ERROR   connect failed\n"
	const crash = "[gpu-1:1:0:1] Caught signal 11 (Segmentation fault: address not mapped)\n"
	var out bytes.Buffer
	f := NewFollowReport(&out, false)
	for _, text := range []string{up, up + ucx, up + ucx + ucx + crash} {
		lg, _ := Parse("live.log", strings.NewReader(text))
		f.Update(Judge(lg, nil, false))
	}
	want := "live.log · rank 0: PYTHON · KvCacheTransceiverV2 · backend NIXL\n" +
		"live.log · rank 0: PYTHON · KvCacheTransceiverV2 · backend NIXL · 1 runtime finding(s)\n" +
		"    ! 1× UCX error, first at line 3: connect failed\n" +
		"live.log · rank 0: PYTHON · KvCacheTransceiverV2 · backend NIXL · 3 runtime finding(s)\n" +
		"    ! 1× process crashed, first at line 5: Caught signal 11 (Segmentation fault: address not mapped)\n"
	if out.String() != want {
		t.Errorf("-f printed\n%s\nwant\n%s", out.String(), want)
	}
	out.Reset()
	lg, _ := Parse("live.log", strings.NewReader(up+ucx+crash))
	NewFollowReport(&out, true).Update(Judge(lg, nil, false))
	var ev struct{ Findings []Finding }
	if err := json.Unmarshal(out.Bytes(), &ev); err != nil || len(ev.Findings) != 2 || ev.Findings[1].Kind != FindingCrashed || ev.Findings[0].Count != 1 {
		t.Errorf("-f -o json: %s (%v)", out.String(), err)
	}
	// Without findings the list is there, empty, as in the batch JSON.
	out.Reset()
	lg, _ = Parse("live.log", strings.NewReader(up))
	NewFollowReport(&out, true).Update(Judge(lg, nil, false))
	if !strings.Contains(out.String(), `"findings":[]`) {
		t.Errorf("-f -o json without findings: %s", out.String())
	}
}

// TestLauncherDeathAllocatesNothing: launcherDeath runs on every bare line a
// log passes on (tracebacks, server lines); it must not allocate for them.
func TestLauncherDeathAllocatesNothing(t *testing.T) {
	for _, line := range []string{"INFO:     127.0.0.1:5000 - \"POST /v1/completions HTTP/1.1\" 200 OK",
		"mpirun noticed that process rank 1 with PID 0 on node gpu-1 exited on signal 11 (Segmentation fault).",
		"srun: error: gpu-1: task 1: Segmentation fault (core dumped)", "srun: error: gpu-1: tasks 0-3: Exited with exit code 1",
		"slurmstepd: error: *** STEP 524547.1 ON ault43 CANCELLED AT 2024-10-09T23:20:53 ***"} {
		if n := testing.AllocsPerRun(100, func() { launcherDeath(line) }); n != 0 {
			t.Errorf("launcherDeath(%q): %v allocations", line, n)
		}
		// So do the reads of a task's exit status and of a stopped step.
		if n := testing.AllocsPerRun(100, func() { srunExit(line); slurmStepEnd(line); cleanShutdown(line) }); n != 0 {
			t.Errorf("srunExit(%q): %v allocations", line, n)
		}
	}
}

// TestCrashNoteBesideDisagreements: a process that crashed after start-up
// is named when the log also disagrees with the prediction: the batch
// report printed only the disagreements (-f's end and the explorer said the
// crash, after "… the first one is marked ▶" with no full stop).
func TestCrashNoteBesideDisagreements(t *testing.T) {
	lg, _ := Parse("job.log", strings.NewReader(crashedJob(1)))
	tr := predict(t, "1.3.0rc26", "GptOssForCausalLM", "UCX")
	v := Judge(lg, &tr, true)
	if len(v.Mismatches) == 0 {
		t.Fatal("no disagreement")
	}
	const note = "But srun task 0 crashed after start-up (first at line 3)."
	if s := v.Summary(); !strings.HasSuffix(s, "marked ▶. "+note) {
		t.Errorf("summary %q", s)
	}
	var text bytes.Buffer
	WriteText(&text, v, Prediction{Trace: &tr, Why: "test"}, false)
	if !strings.Contains(text.String(), "the first one is marked ▶\n"+note+"\n") {
		t.Errorf("the report does not say the crash:\n%s", text.String())
	}
}

// TestCrashedCounted: the job's last line, the JSON's counts and -f's end
// count the processes that crashed after start-up, as they count the ones
// that failed at it: a job of several logs named them nowhere in its
// summary, and the JSON only inside observed[].findings.
func TestCrashedCounted(t *testing.T) {
	lg, _ := Parse("job.log", strings.NewReader(crashedJob(3)))
	v := Judge(lg, nil, true)
	var tl Tally
	tl.Add(v)
	var text bytes.Buffer
	tl.WriteSummary(&text)
	if !strings.Contains(text.String(), "; 3 process(es) crashed after start-up; exit 0") {
		t.Errorf("job line: %s", text.String())
	}
	var js bytes.Buffer
	r := NewJSONReport(&js)
	r.Add(v, Prediction{})
	r.Finish()
	var got struct {
		Crashed *int `json:"processes_crashed"`
	}
	if err := json.Unmarshal(js.Bytes(), &got); err != nil || got.Crashed == nil || *got.Crashed != 3 {
		t.Errorf("JSON: %s", js.String())
	}
	js.Reset()
	NewFollowReport(&js, true).End([]Verdict{v})
	if !strings.Contains(js.String(), `"processes_crashed":3`) {
		t.Errorf("-f's end: %s", js.String())
	}
}

// TestAsyncioNoteSurvivesALongMessage: a long exception asyncio's handler
// logged keeps the note that says the process went on: the finding's text
// was cut past the note (a 2 MB message read as a plain runtime error).
func TestAsyncioNoteSurvivesALongMessage(t *testing.T) {
	log := "[11/14/2025-10:00:00] [TRT-LLM] [I] [RANK 0] Using KvCacheTransceiverV2\nTask exception was never retrieved\nfuture: <Task finished>\n" +
		"Traceback (most recent call last):\nRuntimeError: " + strings.Repeat("Z", 200000) + "\n"
	lg, _ := Parse("f.log", strings.NewReader(log))
	if len(lg.Processes) != 1 || len(lg.Processes[0].Findings) != 1 {
		t.Fatalf("%s", sources(lg))
	}
	f := lg.Processes[0].Findings[0]
	if !strings.HasSuffix(f.Text, asyncioNote) || !strings.Contains(f.Text, "more bytes cut by xcvr]") || len(f.Text) > maxDetailBytes {
		t.Errorf("finding %d bytes: …%s", len(f.Text), f.Text[max(0, len(f.Text)-120):])
	}
	if got := cutText(strings.Repeat("x", 1<<40>>20), 10); len(got) > 10+cutMarkRoom {
		t.Errorf("cutText's mark is longer than cutMarkRoom: %q", got)
	}
}

// TestFindingsPastTheKeptText: once a log's kept text is used up, a new
// finding still counts with its kind and line, its text not kept: the
// crashes of thousands of ranks were dropped (the verdict named 3 of 5,000),
// and a crash's what() text was kept whole past the limit (20,000 ranks'
// kept 80 MB).
func TestFindingsPastTheKeptText(t *testing.T) {
	const n = 3000
	var b strings.Builder
	for r := 0; r < n; r++ {
		fmt.Fprintf(&b, "%d: [TRT-LLM] [RANK %d] [I] Using KvCacheTransceiverV2\n%d: INFO:     Application startup complete.\n", r, r, r)
	}
	for r := 0; r < n; r++ {
		fmt.Fprintf(&b, "%d: [1745700389.902821] [h:1 :0]  sock.c:334  UCX  ERROR %d %s\n", r, r, strings.Repeat("u", 900))
		fmt.Fprintf(&b, "%d: terminate called after throwing an instance of 'std::runtime_error'\n%d:   what():  %d %s\n", r, r, r, strings.Repeat("w", 5000))
	}
	lg, err := Parse("job.log", strings.NewReader(b.String()))
	if err != nil {
		t.Fatal(err)
	}
	kept, notKept := 0, 0
	counts := map[string]int{}
	for _, p := range lg.Processes {
		for _, f := range p.Findings {
			counts[f.Kind] += f.Count
			kept += len(f.Text)
			if f.Text == findingTextNotKept {
				notKept++
			}
		}
	}
	if counts[FindingUCXError] != n || counts[FindingCrashed] != n {
		t.Errorf("counts %v, want %d of each", counts, n)
	}
	if notKept == 0 || kept > maxRetained+2*n*len(findingTextNotKept) {
		t.Errorf("%d bytes of finding text kept, %d findings without their text", kept, notKept)
	}
	if s := Judge(lg, nil, true).Summary(); !strings.Contains(s, fmt.Sprintf("and %d more crashed after start-up", n-3)) {
		t.Errorf("summary %q", s)
	}
}

// TestFindingsBehindALauncherPrefix: behind kubectl's --prefix or docker
// compose's label the lines of a ranked process carry the pod's key and its
// rank ("pod/ctx-0/trtllm rank 0"), its bare lines (uvicorn's, a traceback,
// a crash handler's, UCX's) the pod's key alone. Their findings are the
// ranked process's, as the lines before the rank is known are (one ranked
// process in the pod), or a process "without rank" beside several; they
// were dropped, so a pod whose server crashed or raised read clean.
func TestFindingsBehindALauncherPrefix(t *testing.T) {
	const pod = "[pod/ctx-0/trtllm] "
	const up = pod + "[TRT-LLM] [RANK 0] [I] Using KvCacheTransceiverV2\n" + pod + "INFO:     Application startup complete.\n"
	for _, c := range []struct{ name, log, want string }{
		{"an exception once up", up + pod + "Traceback (most recent call last):\n" + pod + "RuntimeError: boom\n",
			"pod/ctx-0/trtllm rank 0=PYTHON runtime_error"},
		{"a crash and UCX, compose", "ctx-1  | [TRT-LLM] [RANK 0] [I] Using KvCacheTransceiverV2\nctx-1  | INFO:     Application startup complete.\n" +
			"ctx-1  | Fatal Python error: Segmentation fault\nctx-1  | [1745700389.902821] [h:1 :0]  sock.c:334  UCX  ERROR   connect failed\n",
			"ctx-1 rank 0=PYTHON process_crashed,ucx_error"},
		{"asyncio", up + pod + "Task exception was never retrieved\n" + pod + "future: <Task finished>\n" + pod + "RuntimeError: x\n",
			"pod/ctx-0/trtllm rank 0=PYTHON runtime_error"},
		{"two ranks", up + pod + "[TRT-LLM] [RANK 1] [I] Using KvCacheTransceiverV2\n" + pod + "[gpu-1:1:0:1] Caught signal 11 (Segmentation fault)\n",
			"pod/ctx-0/trtllm rank 0=PYTHON ;pod/ctx-0/trtllm rank 1=PYTHON ;pod/ctx-0/trtllm without rank= process_crashed"},
		// No TensorRT-LLM process: nothing is read, as before.
		{"UCX alone", pod + "[1745700389.902821] [h:1 :0]  sock.c:334  UCX  ERROR   connect failed\n", ""},
		{"an exception after a server line alone", pod + "INFO:     Application startup complete.\n" + pod + "RuntimeError: boom\n", ""},
	} {
		lg, _ := Parse("f.log", strings.NewReader(c.log))
		if g := processFindings(lg); g != c.want {
			t.Errorf("%s: %s, want %s", c.name, g, c.want)
		}
	}
}

// TestExitedAfterStartUpWording: a task whose launcher says it exited with a
// non-zero status after start-up (srun's "Exited with exit code C") is said
// to have exited with that code, not to have crashed, in the verdict's
// sentence (text, -f's end, the explorer, --accessible) and the job's line;
// its finding's kind and the JSON's count stay process_crashed.
func TestExitedAfterStartUpWording(t *testing.T) {
	var b strings.Builder
	for r := 0; r < 4; r++ {
		fmt.Fprintf(&b, "%d: [TRT-LLM] [RANK %d] [I] Using KvCacheTransceiverV2\n%d: INFO:     Application startup complete.\n", r, r, r)
	}
	b.WriteString("srun: error: gpu-0: task 0: Segmentation fault (core dumped)\n") // line 9
	b.WriteString("srun: error: gpu-0: task 1: Exited with exit code 1\n")          // line 10
	b.WriteString("srun: error: gpu-0: tasks 2-3: Exited with exit code 1\n")       // line 11
	for _, c := range []struct{ log, want, job string }{
		{b.String(), "But srun task 0 crashed after start-up (first at line 9), and srun task 1, srun task 2, srun task 3 exited with code 1 after start-up (first at line 10).",
			"; 1 process(es) crashed after start-up; 3 process(es) exited with a non-zero code after start-up; exit 0"},
		{strings.Replace(b.String(), "tasks 2-3: Exited with exit code 1", "tasks 2-3: Exited with exit code 137", 1),
			"But srun task 0 crashed after start-up (first at line 9), and srun task 1, srun task 2, srun task 3 exited with non-zero codes after start-up (first at line 10).", ""},
		{"0: [TRT-LLM] [RANK 0] [I] Using KvCacheTransceiverV2\n0: INFO:     Application startup complete.\nsrun: error: gpu-0: task 0: Exited with exit code 1\n",
			"But srun task 0 exited with code 1 after start-up (line 3).", "; 1 process(es) exited with a non-zero code after start-up; exit 0"},
	} {
		lg, _ := Parse("job.log", strings.NewReader(c.log))
		v := Judge(lg, nil, true)
		if s := v.Summary(); !strings.HasSuffix(s, " "+c.want) {
			t.Errorf("summary %q, want it to end %q", s, c.want)
		}
		var tl Tally
		tl.Add(v)
		var text bytes.Buffer
		tl.WriteSummary(&text)
		if c.job != "" && !strings.Contains(text.String(), c.job) {
			t.Errorf("job line: %s, want %s", text.String(), c.job)
		}
		var js bytes.Buffer
		r := NewJSONReport(&js)
		r.Add(v, Prediction{})
		if err := r.Finish(); err != nil {
			t.Fatal(err)
		}
		var got struct {
			Observed []struct{ Findings []Finding }
			Crashed  int `json:"processes_crashed"`
		}
		if err := json.Unmarshal(js.Bytes(), &got); err != nil {
			t.Fatal(err)
		}
		kinds := 0
		for _, p := range got.Observed {
			for _, f := range p.Findings {
				if f.Kind == FindingCrashed {
					kinds++
				}
			}
		}
		if kinds == 0 || kinds != got.Crashed {
			t.Errorf("JSON: %d process_crashed findings, processes_crashed %d", kinds, got.Crashed)
		}
	}
}

// TestFollowEndPointsAtItsLines: -f lists a disagreement as "✗ line N: …"
// and marks none with ▶, so its end names the first one's line instead of
// saying "the first one is marked ▶" of a mark it never printed.
func TestFollowEndPointsAtItsLines(t *testing.T) {
	lg, _ := Parse("job.log", strings.NewReader(crashedJob(1)))
	tr := predict(t, "1.3.0rc26", "GptOssForCausalLM", "UCX")
	v := Judge(lg, &tr, false)
	if len(v.Mismatches) == 0 || v.Mismatches[0].Line == 0 {
		t.Fatalf("want a disagreement on a line, got %+v", v.Mismatches)
	}
	var out bytes.Buffer
	f := NewFollowReport(&out, false)
	f.Update(v)
	f.End([]Verdict{v})
	s := out.String()
	if strings.Contains(s, "▶") {
		t.Errorf("-f printed a ▶ mark or pointed at one:\n%s", s)
	}
	want := fmt.Sprintf("the first one is at line %d. But srun task 0 crashed", v.Mismatches[0].Line)
	if !strings.Contains(s, want) {
		t.Errorf("-f's end does not name the first disagreement's line (%q):\n%s", want, s)
	}
	if !strings.Contains(s, fmt.Sprintf("✗ line %d: ", v.Mismatches[0].Line)) {
		t.Errorf("-f did not list the disagreement at that line:\n%s", s)
	}
}

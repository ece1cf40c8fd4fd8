package cli

import (
	"bufio"
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestCheckLogsExitStatus: one exit status for batch runs, as --help and the
// logs help topic state it: 0 when every process agrees (without a prediction:
// none failed and at least one shows its transceiver), 1 when one disagrees,
// failed or no process shows transceiver lines, 2 for usage and unreadable
// input; indentation never changes it.
func TestCheckLogsExitStatus(t *testing.T) {
	dead := "[TRT-LLM] [RANK 0] [I] Using KvCacheTransceiverV2\n[TRT-LLM] [RANK 1] [E] Failed to initialize executor on rank 1: NIXL agent creation failed\n"
	initOnly := "[TRT-LLM] [I] Starting TensorRT-LLM init.\n" + pyRank0 + strings.ReplaceAll(pyRank0, "RANK 0", "RANK 1")
	cases := []struct {
		name string
		log  string
		args []string
		want int
	}{
		{"python, no prediction", pyRank0, nil, 0},
		{"python, agreeing prediction", pyRank0, []string{"--trtllm", "1.3.0rc26", "--backend", "NIXL"}, 0},
		{"python, disagreeing prediction", pyRank0, []string{"--trtllm", "1.3.0rc26", "--backend", "UCX"}, 1},
		{"a dead rank, no prediction", dead, nil, 1},
		{"no transceiver lines", "INFO:     Started server process [1]\n", nil, 1},
		{"no transceiver lines, prediction", "INFO:     Started server process [1]\n", []string{"--backend", "NIXL"}, 1},
		{"init lines before two ranks", initOnly, []string{"--trtllm", "1.3.0rc26", "--model", "GptOssForCausalLM", "--backend", "NIXL"}, 0},
		{"the orchestrator's log alone", "[TRT-LLM] [I] Waiting for context and generation servers to be ready\n", nil, 1},
	}
	orch := "[TRT-LLM] [I] Waiting for context and generation servers to be ready\n[TRT-LLM] [I] [0] Servers are not ready. Waiting for ['http://gen-0:8002']...\n" +
		"TimeoutError: Timeout waiting for context and generation servers to be ready\n"
	// A job whose workers started but whose orchestrator gave up waiting
	// for them (a wrong address in its config) never served: exit 1.
	jobDir := filepath.Join(t.TempDir(), "job")
	writeLog(t, filepath.Join(jobDir, "gen-0.log"), pyRank0)
	writeLog(t, filepath.Join(jobDir, "disagg.log"), orch)
	if out, errOut, code := run(t, nil, "check-logs", jobDir); code != 1 || !strings.Contains(out, "1 orchestrator(s) gave up waiting for workers; exit 1") ||
		!strings.Contains(out, "It gave up at line 3") || strings.Contains(out, "Start-up failed") {
		t.Errorf("a job whose orchestrator gave up: exit %d\n%s%s", code, out, errOut)
	}
	dir := t.TempDir()
	for i, c := range cases {
		for _, indent := range []string{"", "    "} {
			path := filepath.Join(dir, strconv.Itoa(i)+strconv.Itoa(len(indent))+".log")
			text := c.log
			if indent != "" {
				text = indent + strings.ReplaceAll(strings.TrimSuffix(c.log, "\n"), "\n", "\n"+indent) + "\n"
			}
			writeLog(t, path, text)
			out, errOut, code := run(t, nil, append(append([]string{"check-logs"}, c.args...), path)...)
			if code != c.want {
				t.Errorf("%s (indent %q): exit %d, want %d\n%s%s", c.name, indent, code, c.want, out, errOut)
			}
		}
	}
	if _, _, code := run(t, nil, "check-logs", filepath.Join(dir, "missing.log")); code != 2 {
		t.Errorf("a missing log: exit %d, want 2", code)
	}
	// The help topic states the same rule.
	topic, err := os.ReadFile("../help/topics/logs.md")
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"| 0 | every process agrees with the prediction (without one: none failed, and at least one shows its transceiver) |",
		"| 1 | a process disagrees or failed at start-up, or no process shows transceiver lines, or the orchestrator gave up waiting for its workers |", "| 2 | usage errors and unreadable input",
		"Indentation never changes a verdict."} {
		if !strings.Contains(string(topic), want) {
			t.Errorf("xcvr help logs lacks %q", want)
		}
	}
	// --help states the same rule.
	out, _, _ := run(t, nil, "check-logs", "--help")
	for _, want := range []string{"Exit 0 when every process agrees", "1 when one disagrees", "2 for usage errors and unreadable input"} {
		if !strings.Contains(strings.Join(strings.Fields(out), " "), want) {
			t.Errorf("--help lacks %q:\n%s", want, out)
		}
	}
}

// TestCheckLogsOtherFilesInAJobDirectory: a job's directory holds files that
// are not TensorRT-LLM's (a benchmark client's output, nvidia-smi's): they are
// said to be so and decide nothing, with or without a prediction; a
// directory of only such files still exits 1 (nothing shows a transceiver),
// and a TensorRT-LLM log that stops before its transceiver (its version line
// only) still counts.
func TestCheckLogsOtherFilesInAJobDirectory(t *testing.T) {
	dir := t.TempDir()
	writeLog(t, filepath.Join(dir, "worker.log"), pyRank0)
	writeLog(t, filepath.Join(dir, "bench.log"), "Request throughput (req/s): 12.5\nMean TTFT (ms): 210.4\n")
	writeLog(t, filepath.Join(dir, "nvidia-smi.out"), "| NVIDIA-SMI 570.86.15   Driver Version: 570.86.15   CUDA Version: 12.8 |\n")
	// A benchmark client's crash: its handler's, its launcher's, its
	// traceback's lines, and none of TensorRT-LLM's.
	writeLog(t, filepath.Join(dir, "bench-segv.err"), "!!!!!!! Segfault encountered !!!!!!!\n")
	writeLog(t, filepath.Join(dir, "bench-srun.err"), "srun: error: gpu-1: task 0: Segmentation fault\n")
	writeLog(t, filepath.Join(dir, "bench-py.err"), "Traceback (most recent call last):\n  File \"/bench/client.py\", line 12, in <module>\nConnectionRefusedError: [Errno 111] Connection refused\n")
	for _, args := range [][]string{nil, {"--trtllm", "1.3.0rc26", "--backend", "NIXL"}} {
		out, errOut, code := run(t, nil, append(append([]string{"check-logs"}, args...), dir)...)
		if code != 0 || strings.Count(out, "No line of this log is TensorRT-LLM's") != 5 || strings.Contains(out, "Start-up failed") {
			t.Errorf("%v: exit %d\n%s%s", args, code, out, errOut)
		}
	}
	// The job's verdict is its TensorRT-LLM logs', not the other files'.
	out, _, _ := run(t, nil, "check-logs", "-o", "json", dir)
	var job struct{ Verdict string }
	if err := json.Unmarshal([]byte(out), &job); err != nil || job.Verdict != "shown" {
		t.Errorf("JSON verdict %q (%v)", job.Verdict, err)
	}
	other := t.TempDir()
	writeLog(t, filepath.Join(other, "bench.log"), "Request throughput (req/s): 12.5\n")
	if out, _, code := run(t, nil, "check-logs", other); code != 1 {
		t.Errorf("only other files: exit %d\n%s", code, out)
	}
	writeLog(t, filepath.Join(other, "bench-segv.err"), "!!!!!!! Segfault encountered !!!!!!!\n")
	if out, _, code := run(t, nil, "check-logs", other); code != 1 || strings.Contains(out, "Start-up failed") || strings.Count(out, "No line of this log is TensorRT-LLM's") != 2 {
		t.Errorf("only other files, a crash among them: exit %d\n%s", code, out)
	}
	writeLog(t, filepath.Join(dir, "stopped.log"), "[TensorRT-LLM] TensorRT-LLM version: 1.3.0rc26\n")
	if out, _, code := run(t, nil, "check-logs", dir); code != 1 {
		t.Errorf("a TensorRT-LLM log without transceiver lines: exit %d\n%s", code, out)
	}
}

// TestCheckLogsDeadRankNamed: the dead rank and its root cause are in the
// report, not only the generic worker error.
func TestCheckLogsDeadRankNamed(t *testing.T) {
	path := filepath.Join(t.TempDir(), "gen.log")
	writeLog(t, path, "[_torch][RANK 0] Using KvCacheTransceiverV2\n"+
		"[executor][RANK 1] Failed to initialize executor on rank 1:\n"+
		"  Assertion failed: status == NIXL_SUCCESS (.../nixl_utils/transferAgent.cpp:505)\n"+
		"RuntimeError: Executor worker returned error\n")
	out, _, code := run(t, nil, "check-logs", path)
	for _, want := range []string{"rank 1: ERROR · Failed to initialize executor on rank 1: Assertion failed: status == NIXL_SUCCESS (.../nixl_utils/transferAgent.cpp:505)",
		"cause: Assertion failed: status == NIXL_SUCCESS (.../nixl_utils/transferAgent.cpp:505)", "Start-up failed: rank 1."} {
		if !strings.Contains(out, want) {
			t.Errorf("report lacks %q:\n%s", want, out)
		}
	}
	if code != 1 {
		t.Errorf("exit %d", code)
	}
}

// TestCheckLogsJobPastTheCap: a job of more processes than are kept in detail
// still counts each one; a failing rank past the cap decides the verdict,
// and the JSON says how many were summarised.
func TestCheckLogsJobPastTheCap(t *testing.T) {
	var b strings.Builder
	for r := 0; r < 5000; r++ {
		b.WriteString("[TRT-LLM] [RANK " + strconv.Itoa(r) + "] [I] Using KvCacheTransceiverV2\n")
	}
	b.WriteString("[TRT-LLM] [RANK 4999] [E] Failed to initialize executor on rank 4999: out of memory\n")
	path := filepath.Join(t.TempDir(), "big.log")
	writeLog(t, path, b.String())
	out, _, code := run(t, nil, "check-logs", path)
	if code != 1 || !strings.Contains(out, "rank 4999: ERROR") || !strings.Contains(out, "904 more summarised") || !strings.Contains(out, "903× PYTHON on NIXL (first: rank 4096)") {
		t.Errorf("exit %d\n%s", code, tail(out, 1500))
	}
	out, _, _ = run(t, nil, "check-logs", "-o", "json", path)
	var got struct {
		Observed            []struct{ Source, Status string }
		Processes           int  `json:"processes"`
		ProcessesSummarised int  `json:"processes_summarised"`
		ProcessesFailed     int  `json:"processes_failed"`
		Exit                *int `json:"exit"`
	}
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatal(err)
	}
	last := got.Observed[len(got.Observed)-1]
	if got.Processes != 5000 || got.ProcessesSummarised != 904 || got.ProcessesFailed != 1 || got.Exit == nil || *got.Exit != 1 ||
		last.Source != "rank 4999" || last.Status != "failed" || len(got.Observed) != 4097 {
		t.Errorf("%d observed, last %+v, counts %d/%d/%d", len(got.Observed), last, got.Processes, got.ProcessesSummarised, got.ProcessesFailed)
	}
}

func tail(s string, n int) string {
	if len(s) > n {
		return "…" + s[len(s)-n:]
	}
	return s
}

// TestCheckLogsFollowJSONLines: -f -o json prints one JSON object per line.
func TestCheckLogsFollowJSONLines(t *testing.T) {
	old := followInterval
	followInterval = 10 * time.Millisecond
	defer func() { followInterval = old }()
	path := filepath.Join(t.TempDir(), "gen.log")
	writeLog(t, path, "[TensorRT-LLM] TensorRT-LLM version: 1.3.0rc26\n"+pyRank0+ucxRank)
	var out, errb syncBuffer
	done := make(chan int, 1)
	go func() {
		done <- Main([]string{"check-logs", "-f", "--fail-fast", "-o", "json", "--backend", "NIXL", path}, strings.NewReader(""), &out, &errb, nil)
	}()
	code := exitOf(t, done)
	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	if code != 1 || len(lines) < 3 {
		t.Fatalf("exit %d\n%s", code, out.String())
	}
	sources := map[string]bool{}
	for _, l := range lines {
		var v map[string]any
		if err := json.Unmarshal([]byte(l), &v); err != nil {
			t.Fatalf("not one JSON object per line: %q: %v", l, err)
		}
		if s, ok := v["source"].(string); ok {
			sources[s+":"+v["status"].(string)] = true
		}
	}
	if !sources["rank 0:agrees"] || !sources["rank 1:disagrees"] {
		t.Errorf("verdicts %v\n%s", sources, out.String())
	}
}

// TestCheckLogsFollowJSONWithoutPrediction: with nothing predicted, a
// process's "agrees" is null (there is nothing to agree with), not false,
// and its status says what it showed.
func TestCheckLogsFollowJSONWithoutPrediction(t *testing.T) {
	old := followInterval
	followInterval = 10 * time.Millisecond
	defer func() { followInterval = old }()
	path := filepath.Join(t.TempDir(), "gen.log")
	writeLog(t, path, pyRank0+"[TRT-LLM] [RANK 1] [E] Failed to initialize executor on rank 1: x\n")
	var out, errb syncBuffer
	done := make(chan int, 1)
	go func() {
		done <- Main([]string{"check-logs", "-f", "--fail-fast", "-o", "json", path}, strings.NewReader(""), &out, &errb, nil)
	}()
	code := exitOf(t, done)
	seen := 0
	for _, l := range strings.Split(strings.TrimSpace(out.String()), "\n") {
		var v map[string]any
		if err := json.Unmarshal([]byte(l), &v); err != nil {
			t.Fatalf("not one JSON object per line: %q: %v", l, err)
		}
		if v["source"] != "rank 0" {
			continue
		}
		seen++
		if a, ok := v["agrees"]; !ok || a != nil || v["status"] != "shown" {
			t.Errorf("rank 0 without a prediction: agrees %v (present %v), status %v; want null and shown\n%s", a, ok, v["status"], l)
		}
	}
	if code != 1 || seen == 0 {
		t.Fatalf("exit %d, rank 0 seen %d times\n%s", code, seen, out.String())
	}
}

// TestCheckLogsFollowCtrlC runs the real binary, supervisor included, as a
// terminal does: Ctrl-C goes to the whole process group, and the supervisor
// forwards it again. check-logs -f exits with the verdict (0 or 1), never 130.
func TestCheckLogsFollowCtrlC(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary")
	}
	bin := filepath.Join(t.TempDir(), "xcvr")
	if out, err := exec.Command("go", "build", "-o", bin, "../..").CombinedOutput(); err != nil {
		t.Fatalf("build: %v\n%s", err, out)
	}
	dir := t.TempDir()
	agree, disagree := filepath.Join(dir, "agree.log"), filepath.Join(dir, "disagree.log")
	writeLog(t, agree, pyRank0)
	writeLog(t, disagree, "[TRT-LLM] [RANK 1] [E] Failed to initialize executor on rank 1: x\n")
	for i := 0; i < 3; i++ {
		for _, c := range []struct {
			path string
			want int
		}{{agree, 0}, {disagree, 1}} {
			cmd := exec.Command(bin, "check-logs", "-f", c.path)
			cmd.Env = []string{"PATH=" + os.Getenv("PATH")}
			cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
			stdout, _ := cmd.StdoutPipe()
			var errb bytes.Buffer
			cmd.Stderr = &errb
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			sc := bufio.NewScanner(stdout)
			for sc.Scan() && !strings.Contains(sc.Text(), "rank ") {
			}
			// The terminal's Ctrl-C goes to the whole group; a forwarded
			// copy may come at any moment after, so keep sending until the
			// process is gone (a handler removed too early shows as 130).
			stop := make(chan struct{})
			go func() {
				for {
					select {
					case <-stop:
						return
					default:
						syscall.Kill(-cmd.Process.Pid, syscall.SIGINT)
						time.Sleep(200 * time.Microsecond)
					}
				}
			}()
			var rest bytes.Buffer
			for sc.Scan() {
				rest.WriteString(sc.Text() + "\n")
			}
			err := cmd.Wait()
			close(stop)
			code := 0
			if ee, ok := err.(*exec.ExitError); ok {
				code = ee.ExitCode()
			}
			if code != c.want {
				t.Errorf("%s: Ctrl-C exit %d, want %d\n%s%s", filepath.Base(c.path), code, c.want, rest.String(), errb.String())
			}
		}
	}
}

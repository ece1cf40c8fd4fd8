package cli

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"xcvr/internal/inputs"
	"xcvr/internal/logs"
	"xcvr/resolver"
)

func writeLog(t *testing.T, path, s string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(s), 0o644); err != nil {
		t.Fatal(err)
	}
}

const (
	pyRank0 = "[TRT-LLM] [RANK 0] [I] Resolved transceiver_runtime='auto' to 'PYTHON' for GptOssForCausalLM.\n" +
		"[TRT-LLM] [RANK 0] [I] Resolved use_kv_cache_manager_v2='auto' to True for GptOssForCausalLM\n[TRT-LLM] [RANK 0] [I] Using KvCacheTransceiverV2\n"
	pyPlain = "[TRT-LLM] [I] Resolved transceiver_runtime='auto' to 'PYTHON' for GptOssForCausalLM.\n" +
		"[TRT-LLM] [I] Resolved use_kv_cache_manager_v2='auto' to True for GptOssForCausalLM\n[TRT-LLM] [I] Using KvCacheTransceiverV2\n"
	ucxRank = "[TRT-LLM] [RANK 1] [I] Falling back to the C++ transceiver: backend 'UCX' (the Python transceiver requires NIXL).\n" +
		"[TRT-LLM] [RANK 1] [I] Resolved transceiver_runtime='auto' to None for GptOssForCausalLM.\n" +
		"[TRT-LLM] [RANK 1] [I] Using UCX kv-cache transceiver. If your devices are not in the same domain, please consider setting UCX_CUDA_IPC_ENABLE_MNNVL=n, UCX_RNDV_SCHEME=put_zcopy and/or unset UCX_NET_DEVICES upon server hangs or lower-than-expected performance.\n"
)

// TestCheckLogsWholeJob reads a directory holding a slurm %j-%t.out set and an
// mpirun --output-filename tree (files without an extension), skipping other
// files, and reports every process named by its file and rank, in one report.
func TestCheckLogsWholeJob(t *testing.T) {
	dir := t.TempDir()
	writeLog(t, filepath.Join(dir, "slurm", "job-12-0.out"), "[TensorRT-LLM] TensorRT-LLM version: 1.3.0rc26\n"+pyRank0)
	writeLog(t, filepath.Join(dir, "slurm", "job-12-1.out"), "[TensorRT-LLM] TensorRT-LLM version: 1.3.0rc26\n"+ucxRank)
	writeLog(t, filepath.Join(dir, "mpi", "1", "rank.0", "stdout"), pyPlain)
	writeLog(t, filepath.Join(dir, "mpi", "1", "rank.1", "stdout"), pyPlain)
	writeLog(t, filepath.Join(dir, "notes.txt"), ucxRank)

	out, errOut, code := run(t, nil, "check-logs", "--model", "GptOssForCausalLM", "--backend", "NIXL", dir)
	if code != 1 {
		t.Fatalf("exit %d, want 1 (rank 1 of the slurm set fell back to UCX)\n%s%s", code, out, errOut)
	}
	for _, want := range []string{
		filepath.Join(dir, "mpi", "1", "rank.0", "stdout") + ": 3 lines, 1 process(es), 1 with transceiver lines",
		filepath.Join(dir, "slurm", "job-12-1.out") + " · rank 1: CPP",
		"Predicted for TensorRT-LLM 1.3.0rc26: Python transceiver (KvCacheTransceiverV2)\n  version: the log states TensorRT-LLM 1.3.0rc26 (line 1)",
		"══ 4 logs, 4 process(es), 4 with transceiver lines; ",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("report lacks %q:\n%s", want, out)
		}
	}
	if strings.Contains(out, "notes.txt") {
		t.Errorf("a .txt file was read:\n%s", out)
	}
	// Every disagreement of rank 1 is listed, not only the first.
	if n := strings.Count(out, "job-12-1.out · rank 1 line"); n < 2 {
		t.Errorf("%d disagreements listed for rank 1:\n%s", n, out)
	}

	// A glob, and -o json listing each process with its file.
	out, _, _ = run(t, nil, "check-logs", "--backend", "NIXL", "-o", "json", filepath.Join(dir, "slurm", "job-12-*.out"))
	var got struct {
		Observed []struct {
			File, Source string
		} `json:"observed"`
		Predictions []struct{ File, TRTLLM, Why string } `json:"predictions"`
		Mismatches  []struct{ File, Source string }      `json:"mismatches"`
	}
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	if len(got.Observed) != 2 || !strings.HasSuffix(got.Observed[0].File, "job-12-0.out") || got.Observed[1].Source != "rank 1" ||
		len(got.Predictions) != 2 || got.Predictions[1].TRTLLM != "1.3.0rc26" || len(got.Mismatches) == 0 || !strings.HasSuffix(got.Mismatches[0].File, "job-12-1.out") {
		t.Errorf("json:\n%s", out)
	}

	// A binary file among the logs is skipped with a message; the others are
	// still reported, and the exit status says one was not read.
	writeLog(t, filepath.Join(dir, "core", "dump"), "\x7fELF\x00\x00")
	writeLog(t, filepath.Join(dir, "core", "ok.log"), pyPlain)
	out, errOut, code = run(t, nil, "check-logs", filepath.Join(dir, "core"))
	if code != 2 || !strings.Contains(errOut, "skipped: "+filepath.Join(dir, "core", "dump")+": refused: binary data") || !strings.Contains(out, "ok.log · process: PYTHON") {
		t.Errorf("binary file among logs: exit %d\n%s\n%s", code, out, errOut)
	}

	// --fail-fast stops at the first log that disagrees.
	out, _, code = run(t, nil, "check-logs", "--fail-fast", "--backend", "NIXL", filepath.Join(dir, "slurm", "job-12-*.out"), filepath.Join(dir, "mpi"))
	if code != 1 || !strings.Contains(out, "job-12-1.out · rank 1") || strings.Contains(out, "rank.0") {
		t.Errorf("--fail-fast: exit %d\n%s", code, out)
	}

	_, errOut, code = run(t, nil, "check-logs", filepath.Join(dir, "nothing-*.log"))
	if code != 2 || !strings.Contains(errOut, "no file matches") {
		t.Errorf("unmatched glob: exit %d %s", code, errOut)
	}
	empty := filepath.Join(dir, "empty")
	os.Mkdir(empty, 0o755)
	if _, errOut, code = run(t, nil, "check-logs", empty); code != 2 || !strings.Contains(errOut, "no log files") {
		t.Errorf("empty directory: exit %d %s", code, errOut)
	}
}

// TestCheckLogsEscapesLogText: what a log says reaches the terminal escaped.
func TestCheckLogsEscapesLogText(t *testing.T) {
	log := "[TRT-LLM] [RANK 0] [I] Resolved transceiver_runtime='auto' to None for Evil\x1b]0;owned\x07\x9b31m\rX.\n" +
		"[TRT-LLM] [RANK 0] [E] backend \x1bP+q\x1b\\ broke\n"
	var out, errb bytes.Buffer
	Main([]string{"check-logs", "-"}, strings.NewReader(log), &out, &errb, nil)
	s := out.String()
	for _, c := range s {
		if (c < 0x20 && c != '\n' && c != '\t') || c == 0x7f || (c >= 0x80 && c < 0xa0) {
			t.Fatalf("raw control %q reached the terminal:\n%q", c, s)
		}
	}
	if !strings.Contains(s, `\x1bP+q\x1b\`) {
		t.Errorf("the escapes are not visible:\n%s", s)
	}
}

// syncBuffer is a bytes.Buffer safe to read while check-logs -f writes it.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// waitFor polls cond for at most 20 s (the machine may be loaded); no sleep is
// an assertion.
// exitOf waits for the exit status a check-logs run sends on done
// (--fail-fast ends it).
func exitOf(t *testing.T, done <-chan int) int {
	t.Helper()
	var code int
	waitFor(t, "--fail-fast to exit", func() bool {
		select {
		case code = <-done:
			return true
		default:
			return false
		}
	})
	return code
}

func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	for deadline := time.Now().Add(20 * time.Second); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		if cond() {
			return
		}
	}
	t.Fatalf("timed out waiting for %s", what)
}

// TestCheckLogsFollowFailFast follows a growing log: the agreeing rank's verdict
// is printed as soon as its lines are there, and --fail-fast exits 1 when a
// disagreeing rank appears.
func TestCheckLogsFollowFailFast(t *testing.T) {
	old := followInterval
	followInterval = 10 * time.Millisecond
	defer func() { followInterval = old }()
	path := filepath.Join(t.TempDir(), "gen.log")
	writeLog(t, path, "[TensorRT-LLM] TensorRT-LLM version: 1.3.0rc26\n")
	var out, errb syncBuffer
	done := make(chan int, 1)
	go func() {
		done <- Main([]string{"check-logs", "-f", "--fail-fast", "--backend", "NIXL", path}, strings.NewReader(""), &out, &errb, nil)
	}()
	// A log that only states its version yet disagrees with nothing.
	waitFor(t, "the log to be opened", func() bool { return strings.Contains(out.String(), "gen.log: opened") })
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	f.WriteString(pyRank0)
	waitFor(t, "rank 0's verdict", func() bool {
		return strings.Contains(out.String(), "gen.log · rank 0: PYTHON") && strings.Contains(out.String(), "✓ agrees with the prediction for 1.3.0rc26")
	})
	select {
	case code := <-done:
		t.Fatalf("check-logs -f exited %d while everything agreed\n%s%s", code, out.String(), errb.String())
	default:
	}
	f.WriteString(ucxRank)
	code := exitOf(t, done)
	if code != 1 || !strings.Contains(out.String(), "rank 1: CPP") || !strings.Contains(out.String(), "✗ line ") {
		t.Errorf("exit %d\n%s%s", code, out.String(), errb.String())
	}
	if _, errOut, code := run(t, nil, "check-logs", "-f", "-"); code != 2 || !strings.Contains(errOut, "stdin") {
		t.Errorf("-f on stdin: exit %d %s", code, errOut)
	}
}

// The explorer explores the version the --log states, with the log line as its
// origin, unless --trtllm names one.
func TestWithLogVersion(t *testing.T) {
	f, err := os.Open(lt + "ctx-era2-srun.log")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	lg, err := logs.Parse("ctx.log", f)
	if err != nil {
		t.Fatal(err)
	}
	s := withLogVersion(inputs.Defaults(), lg)
	if s.Version.Raw != "1.3.0rc26" || s.Version.Origin.String() != "ctx.log:2" {
		t.Errorf("version %q from %q", s.Version.Raw, s.Version.Origin)
	}
	flagged := inputs.Defaults()
	flagged.Version = inputs.Value{Raw: "1.4.0rc1", Origin: resolver.Origin{Kind: resolver.OriginFlag, Detail: "--trtllm"}}
	if s := withLogVersion(flagged, lg); s.Version.Raw != "1.4.0rc1" {
		t.Errorf("--trtllm lost to the log: %q", s.Version.Raw)
	}
}

// The logs of a directory are judged by several workers, which share one
// prediction per version: the JSON's "predicted" still names the first log's
// version line, as a serial run did, whichever worker resolved the version.
func TestCheckLogsPredictedNamesTheFirstLog(t *testing.T) {
	dir := t.TempDir()
	for i := 0; i < 40; i++ {
		writeLog(t, filepath.Join(dir, "r"+strconv.Itoa(100 + i)[1:]+".log"), "[TensorRT-LLM] TensorRT-LLM version: 1.3.0rc26\n"+pyRank0)
	}
	want := `"` + filepath.Join(dir, "r00.log") + `:1"`
	for run := 0; run < 5; run++ {
		var out, errb bytes.Buffer
		Main([]string{"check-logs", "--backend", "NIXL", "-o", "json", dir}, strings.NewReader(""), &out, &errb, nil)
		if !strings.Contains(out.String(), want) {
			t.Fatalf("run %d: the predicted version's origin is not %s:\n%s", run, want, grepLines(out.String(), "origin"))
		}
	}
}

func grepLines(s, sub string) string {
	var keep []string
	for _, l := range strings.Split(s, "\n") {
		if strings.Contains(l, sub) {
			keep = append(keep, l)
		}
	}
	return strings.Join(keep, "\n")
}

// TestCheckLogsDirectoryInWalkOrder: a directory of more logs than the
// workers take at once is reported in the walk's order, whichever worker read
// which log; a binary log among them is skipped in its place, an empty one and
// one larger than a small log (mapped, not read whole) are read; --fail-fast
// stops at the first disagreement, however far into the walk it is.
func TestCheckLogsDirectoryInWalkOrder(t *testing.T) {
	dir := t.TempDir()
	rank := func(i int) string { return "[TRT-LLM] [RANK " + strconv.Itoa(i) + "] [I] Using KvCacheTransceiverV2\n" }
	for i := 0; i < 400; i++ {
		writeLog(t, filepath.Join(dir, "d"+strconv.Itoa(i/100), "rank-"+strconv.Itoa(i)+".log"), rank(i))
	}
	writeLog(t, filepath.Join(dir, "d1.log"), rank(1000)) // between d1/ and d2/ in the walk
	writeLog(t, filepath.Join(dir, "d1", "rank-150.log"), "\x00\x01binary")
	writeLog(t, filepath.Join(dir, "d3", "rank-340.log"), "")
	writeLog(t, filepath.Join(dir, "d2", "rank-260.log"), strings.Repeat(rank(260), int(logs.SmallLog)/len(rank(260))+10))
	writeLog(t, filepath.Join(dir, "d3", "rank-330.log"), ucxRank)
	var want []string
	filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if !d.IsDir() && !strings.HasSuffix(p, "rank-150.log") {
			want = append(want, p)
		}
		return nil
	})
	header := func(out string) []string {
		var got []string
		for _, line := range strings.Split(out, "\n") {
			if p, rest, ok := strings.Cut(line, ": "); ok && (strings.Contains(rest, " lines, ") || strings.Contains(rest, " line, ")) {
				got = append(got, p)
			}
		}
		return got
	}
	out, errOut, code := run(t, nil, "check-logs", dir)
	if got := header(out); strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("%d logs reported, want %d in walk order; first difference at %d", len(got), len(want), firstDiff(got, want))
	}
	if code != 2 || errOut != "xcvr: skipped: "+filepath.Join(dir, "d1", "rank-150.log")+": refused: binary data (NUL byte) near the start; this is not a text log\n" ||
		!strings.Contains(out, "rank-260.log: "+strconv.Itoa(int(logs.SmallLog)/len(rank(260))+10)+" lines") {
		t.Errorf("exit %d, stderr %q\n%s", code, errOut, tail(out, 600))
	}
	os.Remove(filepath.Join(dir, "d1", "rank-150.log"))
	out, _, code = run(t, nil, "check-logs", "--fail-fast", "--backend", "NIXL", dir)
	got := header(out)
	if code != 1 || len(got) == 0 || !strings.HasSuffix(got[len(got)-1], "rank-330.log") || strings.Contains(out, "rank-331.log") {
		t.Errorf("--fail-fast: exit %d, %d logs, last %q", code, len(got), got[max(0, len(got)-1):])
	}
}

func firstDiff(a, b []string) int {
	for i := range min(len(a), len(b)) {
		if a[i] != b[i] {
			return i
		}
	}
	return min(len(a), len(b))
}

// TestIsLogName: what a directory walk reads, rotated and gzipped logs
// included, and what it leaves (core dumps, archives, hidden files).
func TestIsLogName(t *testing.T) {
	for name, want := range map[string]bool{
		"0.log": true, "rank-3.out": true, "job.err": true, "stdout": true,
		"0.log.20251201-101010":    true,                       // the kubelet's last rotated file
		"0.log.20251201-101010.gz": true,                       // its older, gzipped ones
		"app.log.1":                true, "app.log.2.gz": true, // logrotate
		"app.log-20251201": true, "app.log-20251201.gz": true, // logrotate dateext
		"slurm-1234.out.gz": true, "stdout.gz": true,
		"core.12345": false, "model.tar.gz": false, "notes.txt": false, "x.log.bak": false,
		".hidden.log": false, "config.yaml": false, "app.log.1x": false, "app.log-": false,
	} {
		if got := isLogName(name); got != want {
			t.Errorf("isLogName(%q) = %v, want %v", name, got, want)
		}
	}
}

// TestCheckLogsRotatedGzipDirectory: a pod's log directory as the kubelet
// leaves it, the start-up in a rotated gzipped file: it is read.
func TestCheckLogsRotatedGzipDirectory(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "ns_ctx-0_uid", "main")
	writeLog(t, filepath.Join(dir, "0.log"), "2025-12-01T10:20:00.000000001Z stdout F [TRT-LLM] [RANK 0] [I] iter = 5\n")
	var z bytes.Buffer
	zw := gzip.NewWriter(&z)
	cri := "2025-12-01T10:10:00.000000001Z stdout F "
	zw.Write([]byte(cri + strings.ReplaceAll(strings.TrimSpace(pyRank0), "\n", "\n"+cri) + "\n"))
	zw.Close()
	writeLog(t, filepath.Join(dir, "0.log.20251201-101010.gz"), z.String())
	var out, errb bytes.Buffer
	code := Main([]string{"check-logs", filepath.Dir(dir)}, strings.NewReader(""), &out, &errb, nil)
	if code != 0 || !strings.Contains(out.String(), "0.log.20251201-101010.gz · rank 0: PYTHON") {
		t.Fatalf("exit %d\n%s\n%s", code, out.String(), errb.String())
	}
}

// TestCheckLogsNameWithGlobCharacters: a log whose name holds [ or * (a
// launcher's ctx[0].log) is read as named, not taken for a pattern (it was
// "syntax error in pattern" or "no file matches"); a pattern still globs.
func TestCheckLogsNameWithGlobCharacters(t *testing.T) {
	dir := t.TempDir()
	for _, name := range []string{"ctx[0].log", "gen*.log", "x[.log"} {
		p := filepath.Join(dir, name)
		writeLog(t, p, pyRank0)
		out, errOut, code := run(t, nil, "check-logs", p)
		if code != 0 || !strings.Contains(out, name+": ") {
			t.Errorf("%s: exit %d\n%s%s", name, code, out, errOut)
		}
	}
	if out, errOut, code := run(t, nil, "check-logs", filepath.Join(dir, "c*.log")); code != 0 || !strings.Contains(out, "ctx[0].log") {
		t.Errorf("a pattern: exit %d\n%s%s", code, out, errOut)
	}
}

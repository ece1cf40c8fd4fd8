package ui

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"xcvr/internal/inputs"
	"xcvr/internal/logs"
	"xcvr/resolver"
)

// cutMark is where a line was cut to fit: "…" after a word, at its end.
var cutMark = regexp.MustCompile(`\S…\s*$`)

// squeeze drops every space, so that text wrapped across lines (a word broken
// where it does not fit) compares with the same text on one line.
func squeeze(s string) string {
	return strings.Join(strings.Fields(ansi.Strip(s)), "")
}

// The outcome view (`o`) holds, whole at any width, what check-logs says of
// each process: its outcome with -f's verdict, its lines, a start-up failure's
// root cause and the runtime findings. The verdict is the one check-logs -f
// gives on the same content while the file is followed, and the batch one
// when the log is read whole (--log -).
func TestObservedWholeIsCheckLogsReport(t *testing.T) {
	files, _ := filepath.Glob("../internal/logs/testdata/*.log")
	for _, dir := range []string{"real", "shapes"} {
		more, _ := filepath.Glob("../internal/logs/testdata/" + dir + "/*.log")
		files = append(files, more...)
	}
	if len(files) < 5 {
		t.Fatalf("fixtures: %v", files)
	}
	for _, path := range files {
		name := filepath.Base(path)
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		for _, follow := range []bool{true, false} {
			var lg *logs.Log
			var fw *logs.Follower
			if follow {
				fw = logs.NewFollower(path, name)
				if _, _, err := fw.Poll(); err != nil {
					t.Fatal(err)
				}
				lg = fw.Log()
			} else if lg, err = logs.Parse(name, bytes.NewReader(data)); err != nil {
				t.Fatal(err)
			}
			spec := logs.WithVersion(testSpec(), lg)
			for _, w := range []int{64, 80, 120, 200} {
				m := New(Options{Spec: spec, Width: w, Height: 24, Log: lg, LogFollow: fw})
				whole := m.observedWhole(w)
				for i, l := range whole {
					if c := ansi.StringWidth(l); c > w {
						t.Errorf("%s %d cols: line %d is %d cells: %q", name, w, i, c, ansi.Strip(l))
					}
					// A cut ends its text with "…" right after a word; xcvr's
					// own "… pending" and "on rank N: …'" are not cuts.
					if cutMark.MatchString(ansi.Strip(l)) && !strings.Contains(string(data), "…") {
						t.Errorf("%s %d cols: line %d is cut: %q", name, w, i, ansi.Strip(l))
					}
				}
				got := squeeze(strings.Join(whole, "\n"))
				tr := m.trace
				v := logs.Judge(lg, &tr, !follow)
				if v.Status != m.verdict.Status || !strings.Contains(got, squeeze(v.Label()+" · "+v.Summary())) {
					t.Errorf("%s (follow %v): the explorer says %q, check-logs %q %q", name, follow, m.verdict.Status, v.Status, v.Summary())
				}
				var want bytes.Buffer
				if follow {
					logs.NewFollowReport(&want, false).Update(v)
				} else {
					logs.WriteText(&want, v, logs.Prediction{Trace: &tr, Why: "test"}, false)
				}
				for _, l := range strings.Split(want.String(), "\n") {
					// check-logs' own lines name the file; the explorer names
					// it once, above.
					l = strings.TrimPrefix(l, name+" · ")
					if strings.HasPrefix(l, name+": ") || strings.HasPrefix(l, name+" line ") || strings.HasPrefix(l, "Predicted for") || strings.HasPrefix(l, "  version: ") ||
						strings.Contains(l, "disagreement(s); the first") || strings.HasPrefix(l, "▶ ") || (strings.HasPrefix(l, "  ") && strings.Contains(l, "rank") && strings.Contains(l, ": predicted")) {
						continue // the header and the disagreements, which the explorer lists in its own words
					}
					if s := squeeze(strings.TrimPrefix(strings.TrimPrefix(l, "    ✗ "), "  ")); s != "" && !strings.Contains(got, s) {
						t.Errorf("%s (follow %v) %d cols: check-logs prints %q, the outcome view lacks it:\n%s", name, follow, w, l, ansi.Strip(strings.Join(whole, "\n")))
					}
				}
			}
			if fw != nil {
				fw.Close()
			}
		}
	}
}

// A dead rank's cause and the other rank's KV-transfer timeouts are on the
// main screen at 80x24 (cut, with o to read them whole), before the
// disagreements they explain.
func TestObservedFailureAndFindingsOnTheMainScreen(t *testing.T) {
	f, err := os.Open("../internal/logs/testdata/gen-1.3-dead-rank.log")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	lg, err := logs.Parse("gen-1.3-dead-rank.log", f)
	if err != nil {
		t.Fatal(err)
	}
	spec := logs.WithVersion(testSpec(), lg)
	spec.Model = inputs.Value{Raw: "GptOssForCausalLM", Origin: resolver.Origin{Kind: resolver.OriginFlag}}
	m := New(Options{Spec: spec, Width: 80, Height: 24, Log: lg})
	plain := ansi.Strip(m.frame())
	failed := strings.Index(plain, "✗ rank 1 failed: Failed to initialize executor on rank 1 — cause: Assert")
	finding := strings.Index(plain, "! rank 0: 2× KV transfer timed out, first at line 16")
	more := strings.Index(plain, "more · o shows them whole")
	if failed < 0 || finding < failed || more < finding || !strings.Contains(plain, "✗ start-up failed") {
		t.Fatalf("80x24:\n%s", plain)
	}
	om := keys(t, m, "o")
	o := ansi.Strip(strings.Join(om.observedWhole(80), "\n"))
	for _, want := range []string{"rank 1: ERROR", "— ✗ start-up failed", "cause: Assertion failed: status == NIXL_SUCCESS",
		"! 2× KV transfer timed out, first at line 16: Terminating generation"} {
		if !strings.Contains(o, want) {
			t.Errorf("the outcome view lacks %q:\n%s", want, o)
		}
	}
}

// While followed, a process that shows no outcome yet is pending in the
// outcome view too, in check-logs -f's words; read whole, the same lines are
// "not shown", as a batch run says.
func TestObservedWholePendingWhileFollowed(t *testing.T) {
	path := filepath.Join(t.TempDir(), "ctx.log")
	text := "[TensorRT-LLM] TensorRT-LLM version: 1.3.0rc26\n[TRT-LLM] [I] [_torch  ] [RANK 0] Resolved transceiver_runtime='auto' to 'PYTHON' for GptOssForCausalLM.\n"
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	fw := logs.NewFollower(path, "ctx.log")
	defer fw.Close()
	if _, _, err := fw.Poll(); err != nil {
		t.Fatal(err)
	}
	spec := logs.WithVersion(testSpec(), fw.Log())
	spec.Model = inputs.Value{Raw: "GptOssForCausalLM", Origin: resolver.Origin{Kind: resolver.OriginFlag}}
	m := New(Options{Spec: spec, Width: 80, Height: 24, Log: fw.Log(), LogFollow: fw})
	m = keys(t, m, "o")
	o := squeeze(strings.Join(m.observedWhole(80), "\n"))
	if !strings.Contains(o, squeeze("… pending · Pending: the process shows no outcome yet")) || !strings.Contains(o, squeeze("rank 0: no outcome yet · resolved 'auto' to 'PYTHON' for GptOssForCausalLM — … pending for 1.3.0rc26")) || strings.Contains(o, "outcome not shown") || strings.Contains(o, "✗") {
		t.Fatalf("followed, two lines in:\n%s", ansi.Strip(strings.Join(m.observedWhole(80), "\n")))
	}
	lg, _ := logs.Parse("ctx.log", strings.NewReader(text))
	m = New(Options{Spec: spec, Width: 80, Height: 24, Log: lg})
	if o := ansi.Strip(strings.Join(m.observedWhole(80), "\n")); !strings.Contains(o, "✗ 2 disagreements") && !strings.Contains(o, "not shown") {
		t.Fatalf("read whole:\n%s", o)
	}
}

// A job of thousands of failed ranks: the main screen draws the few lines it
// has room for and counts the rest exactly; the outcome view wraps the log
// once per verdict, not once per key.
func TestObservedBigJob(t *testing.T) {
	var b strings.Builder
	const ranks = 5000
	for r := 0; r < ranks; r++ {
		fmt.Fprintf(&b, "[TRT-LLM] [RANK %d] [E] Failed to initialize executor on rank %d: boom\n", r, r)
		fmt.Fprintf(&b, "[TRT-LLM] [RANK %d] [W] Terminating generation request 1 due to KV cache transfer timeout\n", r)
	}
	lg, err := logs.Parse("big.log", strings.NewReader(b.String()))
	if err != nil {
		t.Fatal(err)
	}
	m := New(Options{Spec: testSpec(), Width: 80, Height: 24, Log: lg})
	total := 2*ranks + len(m.mismatches)
	plain := ansi.Strip(m.frame())
	shown := strings.Count(plain, "    ✗ rank ") + strings.Count(plain, "    ! rank ")
	if want := "… and " + strconv.Itoa(total-shown) + " more · o shows them whole"; shown == 0 || !strings.Contains(plain, want) {
		t.Fatalf("%d items, %d shown; want %q:\n%s", total, shown, want, plain)
	}
	m = keys(t, m, "o")
	first := m.observedWhole(80)
	if again := m.observedWhole(80); len(first) == 0 || &first[0] != &again[0] {
		t.Error("the observed lines are wrapped again for the same verdict")
	}
	if !strings.Contains(strings.Join(first, "\n"), "rank 4999: ERROR") {
		t.Error("the outcome view lacks the last rank")
	}
}

// TestObservedOrchestratorLog: the orchestrator's log in --log says what its
// wait came to, not "process: outcome not shown" (its own quiet process).
func TestObservedOrchestratorLog(t *testing.T) {
	lg, err := logs.Parse("disagg.log", strings.NewReader("[TRT-LLM] [I] Waiting for context and generation servers to be ready\n"+
		"[TRT-LLM] [I] [0] Servers are not ready. Waiting for ['http://gen-0:8002']...\n"+
		"TimeoutError: Timeout waiting for context and generation servers to be ready\n"))
	if err != nil {
		t.Fatal(err)
	}
	m := New(Options{Spec: testSpec(), Width: 100, Height: 30, Log: lg})
	plain := ansi.Strip(m.frame())
	if !strings.Contains(plain, "disagg.log: the orchestrator gave up waiting for its workers (line 3)") || strings.Contains(plain, "outcome not shown") {
		t.Fatalf("100x30:\n%s", plain)
	}
}

package logs

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
)

// TestEventsStayWithinBudget: on a window of tracebacks (every line passed
// on), one scan stops once its events' text reaches eventBudget, and says
// where; the differential tests (checkSame) check that the rest, scanned
// after the replay, reads as one scan would.
func TestEventsStayWithinBudget(t *testing.T) {
	var b strings.Builder
	for i := 0; b.Len() < 4*eventBudget; i++ {
		fmt.Fprintf(&b, "[TRT-LLM] [RANK %d] [E] Error in event loop: boom %d\nTraceback (most recent call last):\n", i%8, i)
		for k := range 10 {
			fmt.Fprintf(&b, "  File \"/usr/lib/python3.12/site-packages/tensorrt_llm/_torch/pyexecutor/py_executor.py\", line %d, in _loop\n    self.step(%d)\n", 100+k, k)
		}
		fmt.Fprintf(&b, "RuntimeError: [TensorRT-LLM][ERROR] Assertion failed: x %d\n", i)
	}
	data := []byte(b.String())
	sc := newScanner()
	var res chunkResult
	sc.scan(data, &res)
	if res.consumed >= len(data) || res.consumed <= 0 {
		t.Fatalf("the scan covered %d of %d bytes: it did not stop at the budget", res.consumed, len(data))
	}
	if data[res.consumed-1] != '\n' {
		t.Fatalf("the scan stopped inside a line (byte %d)", res.consumed)
	}
	kept := 0
	for _, ev := range res.events {
		kept += len(ev.msg) + eventCost
	}
	if last := len(res.events[len(res.events)-1].msg) + eventCost; kept-last >= eventBudget || kept < eventBudget {
		t.Errorf("events hold %d bytes (the last %d), budget %d", kept, last, eventBudget)
	}
	if res.lines != strings.Count(string(data[:res.consumed]), "\n") {
		t.Errorf("lines = %d, the covered bytes hold %d", res.lines, strings.Count(string(data[:res.consumed]), "\n"))
	}
}

// TestMayExcIsNecessary: every line reExc matches passes mayExc, the filter
// run before it (a line it turned away would lose its exception).
func TestMayExcIsNecessary(t *testing.T) {
	parts := []string{"Error", "Exception", "Value", "torch.", "a", "_", "9", ".", ":", ": ", " ", "x: y", "Error:", "[", "é", "\t"}
	rng := rand.New(rand.NewPCG(1, 2))
	lines := []string{"RuntimeError: x", "Exception: ", "a.b.CudaError: y", "KeyError: None", "Error: x", "ValueError:x", "  File \"a.py\", line 3, in f"}
	for range 200000 {
		var b strings.Builder
		for range 1 + rng.IntN(6) {
			b.WriteString(parts[rng.IntN(len(parts))])
		}
		lines = append(lines, b.String())
	}
	matched := 0
	for _, l := range lines {
		if reExc().MatchString(l) {
			matched++
			if !mayExc(l) {
				t.Fatalf("reExc matches %q, mayExc turns it away", l)
			}
		}
	}
	if matched < 1000 {
		t.Fatalf("only %d generated lines are exceptions: the test checks little", matched)
	}
}

package logs

import (
	"bytes"
	"fmt"
	"strings"
	"testing"
	"unicode/utf8"

	"xcvr/resolver"
)

// TestProcessesPastTrackedCap: a log that makes up more process labels than
// maxTracked (a hostile one: no job has 65,536 ranks) is read in memory
// bounded by the cap, not by the labels: the processes past it are read as
// one, whose failure still decides the verdict, and the report says so.
func TestProcessesPastTrackedCap(t *testing.T) {
	var b bytes.Buffer
	const extra = 5000
	for i := range maxTracked + extra {
		fmt.Fprintf(&b, "%d: [TRT-LLM] [I] Using KvCacheTransceiverV2\n", i)
	}
	// A process past the cap fails at start-up.
	fmt.Fprintf(&b, "%d: [TRT-LLM] [E] Failed to initialize executor on rank 0: NIXL agent creation failed\n", maxTracked+extra+1)
	data := b.Bytes()
	if maxTracked != 65536 || overflowKey != "processes past 65,536, read as one" {
		t.Fatal("the report's text names 65,536: change it with maxTracked")
	}
	for _, c := range []struct {
		name  string
		parse func() *Log
	}{
		{"read", func() *Log { lg, _ := Parse("job.log", bytes.NewReader(data)); return lg }},
		{"mapped", func() *Log { return parseMappedFile(t, data) }},
	} {
		lg := c.parse()
		if len(lg.Processes) != maxTracked+1 {
			t.Errorf("%s: %d processes, want %d and the overflow", c.name, len(lg.Processes), maxTracked)
		}
		if lg.Overflow != extra+1 {
			t.Errorf("%s: %d lines past the cap, want %d", c.name, lg.Overflow, extra+1)
		}
		v := Judge(lg, nil, true)
		last := lg.Processes[len(lg.Processes)-1]
		if last.Source != overflowKey || last.Outcome() != resolver.OutcomeError {
			t.Errorf("%s: last process %q %s, want the overflow, failed", c.name, last.Source, last.Outcome())
		}
		var w strings.Builder
		WriteText(&w, v, Prediction{}, false)
		if !strings.Contains(w.String(), "5001 line(s) of processes past 65,536 are read as one process") {
			t.Errorf("%s: the report does not say so:\n%.600s", c.name, w.String())
		}
		var tally Tally
		tally.Add(v)
		if tally.Exit() != 1 {
			t.Errorf("%s: exit %d, want 1: the overflow's failure counts", c.name, tally.Exit())
		}
	}
}

// TestLongKeysCut: a process key longer than maxKeyBytes (a made-up pod
// name: Kubernetes' are at most 253 bytes) is cut, so made-up names cannot
// make xcvr hold their bytes per process; lines of one such pod stay one
// process, another pod stays another, and the cut is stable.
func TestLongKeysCut(t *testing.T) {
	name := strings.Repeat("é", 20000) // two bytes each: a cut must not split one
	var b strings.Builder
	for _, pod := range []string{name + "a", name + "b"} {
		fmt.Fprintf(&b, "[pod/%s/trtllm] [TRT-LLM] [I] Using KvCacheTransceiverV2\n", pod)
	}
	fmt.Fprintf(&b, "[pod/x-%s/trtllm] [TRT-LLM] [E] Failed to initialize executor on rank 0: boom\n", name)
	fmt.Fprintf(&b, "[pod/x-%s/trtllm] Traceback (most recent call last):\n", name)
	// A bare line is the current process's: the replay hands its key on whole.
	b.WriteString("RuntimeError: boom\n")
	lg, err := Parse("f.log", strings.NewReader(b.String()))
	if err != nil {
		t.Fatal(err)
	}
	// The first two share their first 512 bytes: one process, as a cut
	// key must; the third is its own, failed.
	if len(lg.Processes) != 2 {
		t.Fatalf("%d processes, want 2", len(lg.Processes))
	}
	for _, p := range lg.Processes {
		if len(p.Source) > maxKeyBytes+len("…") || !utf8.ValidString(p.Source) || !strings.HasSuffix(p.Source, "…") {
			t.Errorf("key of %d bytes (valid UTF-8: %v): %.40q", len(p.Source), utf8.ValidString(p.Source), p.Source)
		}
	}
	if o := lg.Processes[1].Outcome(); o != resolver.OutcomeError {
		t.Errorf("the failing pod: %q, want ERROR", o)
	}
	if k := cutKey(name); cutKey(k) != k {
		t.Error("a cut key cuts again")
	}
}

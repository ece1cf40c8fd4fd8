package logs

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestMPISpawnFailure: a log whose executor proxy could not spawn its MPI
// workers (TensorRT-LLM issue #5495's sanity check: Open MPI's "All nodes
// which are allocated for this job are already filled.", then the header of
// mpi4py's spawning thread, where the paste is cut) says so, and
// the fix TensorRT-LLM's LLM API guide gives, not that the log level may
// hide the transceiver's lines; the exception under that header (Dynamo PR
// #15060's worker) says the same of its process. Another thread's
// exception, or one far below the header, does not.
func TestMPISpawnFailure(t *testing.T) {
	read := func(name string) string {
		b, err := os.ReadFile(filepath.Join("testdata", "real", name))
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	const spawn = "MPI could not spawn the executor's workers"
	const fix = "mpirun -n 1 --oversubscribe --allow-run-as-root"
	const pool = "rank 0 using MpiPoolSession to spawn MPI processes\n"
	const header = "Exception in thread Thread-3 (_manager_spawn):\n"
	noise := strings.Repeat("Loading weights: 100%|██████████| 4/4\n", excWindow+5)
	for _, c := range []struct {
		name, log   string
		summary     string // in the verdict's summary
		implication bool   // the first process's implications say spawn
	}{
		{"issue #5495", read("trtllm-5495-mpi-spawn-cut-padded.log"), "(line 7: mpi4py's spawning thread", false},
		{"PR #15060", read("dynamo-pr15060-mpi-spawn-1.3.0rc27.log"), "Start-up failed", true},
		{"past the chunk's first lines", noise + pool + header + "Traceback (most recent call last):\n", "(line 48: mpi4py's spawning thread", false},
		{"the event loop's thread", pool + "Exception in thread Thread-3 (_event_loop_wrapper):\nTraceback (most recent call last):\n", "though the executor's event loop ran", false},
		{"the proxy's line alone", pool, "set TLLM_LOG_LEVEL=INFO", false},
		{"an exception far below", pool + header + strings.Repeat("x\n", loopWindow) + "mpi4py.MPI.Exception: MPI_ERR_SPAWN: could not spawn processes\n", "Start-up failed", false},
	} {
		lg, err := Parse("f.log", strings.NewReader(c.log))
		if err != nil {
			t.Fatal(err)
		}
		s := Judge(lg, nil, true).Summary()
		if !strings.Contains(s, c.summary) {
			t.Errorf("%s: %s", c.name, s)
		}
		if sp := strings.Contains(s, spawn); sp != strings.Contains(c.summary, "spawning thread") || sp && (!strings.Contains(s, fix) || strings.Contains(s, "TLLM_LOG_LEVEL")) {
			t.Errorf("%s: %s", c.name, s)
		}
		said := false
		if len(lg.Processes) > 0 {
			for _, im := range lg.Processes[0].Implications {
				said = said || strings.Contains(im.Text, spawn) && strings.Contains(im.Text, fix)
			}
		}
		if said != c.implication {
			t.Errorf("%s: implication %v, want %v: %+v", c.name, said, c.implication, lg.Processes)
		}
		checkSame(t, []byte(c.log), 1)
		checkSame(t, []byte(c.log), 2)
	}
}

package logs

import (
	"strings"
	"testing"
)

// TestRankPlaceholder: a report that writes one line for every rank puts a
// placeholder where the rank was ("[TRT-LLM] [E] [executor] [RANK N] Failed
// to initialize executor on rank N:", a 1.3.0rc15 NVRTC failure's write-up).
// The line is still that start-up failure, of the process the prefixes name,
// the placeholder before the level or after it; a numeric rank keeps its own
// process, and a group that is no placeholder stays in the message.
func TestRankPlaceholder(t *testing.T) {
	for _, c := range []struct {
		log, procs, err string
	}{
		{"[TRT-LLM] [E] [executor] [RANK N] Failed to initialize executor on rank N:\n  Failed to preprocess kernel ...: NVRTC_ERROR_COMPILATION\n",
			"process=ERROR", "Failed to initialize executor on rank N:"},
		{"[TRT-LLM] [RANK n] [E] Failed to initialize executor on rank n: CUDA out of memory\n", "process=ERROR", "Failed to initialize executor on rank n: CUDA out of memory"},
		{"[TRT-LLM] [E] [MPI_Rank x] Failed to initialize executor on rank <rank>: boom\n", "process=ERROR", "Failed to initialize executor on rank <rank>: boom"},
		{"[TRT-LLM] [I] [_torch  ] [RANK *] Using KvCacheTransceiverV2\n", "process=PYTHON", ""},
		// A numeric rank is still the tag's own.
		{"[TRT-LLM] [E] [executor] [RANK 3] Failed to initialize executor on rank 3: boom\n", "rank 3=ERROR", "Failed to initialize executor on rank 3: boom"},
		// Not a placeholder: a blank inside the brackets, or nothing in them.
		{"[TRT-LLM] [I] [RANK a b] Using KvCacheTransceiverV2\n", "process=", ""},
		{"[TRT-LLM] [I] [RANK 0] [RANK N] Using KvCacheTransceiverV2\n", "rank 0=", ""},
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
		if len(lg.Processes) > 0 && !strings.HasPrefix(lg.Processes[0].Error, c.err) || c.err == "" && len(lg.Processes) > 0 && lg.Processes[0].Error != "" {
			t.Errorf("%q: error %q, want %q", c.log, lg.Processes[0].Error, c.err)
		}
	}
	for g, want := range map[string]int{
		"[RANK N] Failed": 8, "[MPI_Rank i] x": 12, "[RANK <rank>]": 13, "[RANK 0] x": 0, "[RANK 12] x": 0,
		"[RANK abcdefghijklmnop] x": 23, "[RANK abcdefghijklmnopq] x": 0, "[RANK [x] y": 0, "[RANK a b] x": 0, "[RANK N": 0, "x [RANK N]": 0,
	} {
		if got := rankPlaceholder([]byte(g)); got != want {
			t.Errorf("rankPlaceholder(%q) = %d, want %d", g, got, want)
		}
	}
}

package logs

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A log truncated and written again past its old end between two polls (a
// restarted server writing a longer start-up than the follower had read) is a
// restart, not growth: the size alone cannot tell, the bytes before the old end
// can. Read as growth, the new log was parsed from the middle of a line, with
// the old release's version and line numbers off by one.
func TestFollowerNoticesARewritePastTheOldEnd(t *testing.T) {
	path := filepath.Join(t.TempDir(), "gen.log")
	old := "[TensorRT-LLM] TensorRT-LLM version: 1.3.0rc20\n"
	if err := os.WriteFile(path, []byte(old), 0o644); err != nil {
		t.Fatal(err)
	}
	fw := NewFollower(path, "gen.log")
	defer fw.Close()
	if lg := poll(t, fw, NoteOpened); len(lg.Stated) != 1 || lg.Stated[0].Version != "1.3.0rc20" {
		t.Fatalf("before: %+v", lg.Stated)
	}
	// Growth by appending is not a restart, however small each piece.
	for _, piece := range []string{"[TRT-LLM] [RANK 0] [I] Resolved ", "transceiver_runtime='auto' to 'PYTHON' for GptOssForCausalLM.\n", "x\n"} {
		appendFile(t, path, piece)
		poll(t, fw, NoteNone)
	}
	restarted := "[TensorRT-LLM] TensorRT LLM version: 1.3.0rc26\n" + strings.Repeat("[TRT-LLM] [I] [_common ] Starting TensorRT LLM init.\n", 4) +
		"[TRT-LLM] [RANK 1] [E] Failed to initialize executor on rank 1: boom\n"
	if err := os.WriteFile(path, []byte(restarted), 0o644); err != nil {
		t.Fatal(err)
	}
	lg := poll(t, fw, NoteTruncated)
	if len(lg.Stated) != 1 || lg.Stated[0].Version != "1.3.0rc26" || lg.Stated[0].Line != 1 {
		t.Fatalf("after the rewrite the log states %+v, want 1.3.0rc26 at line 1", lg.Stated)
	}
	if len(lg.Processes) != 1 || lg.Processes[0].Source != "rank 1" || lg.Processes[0].Outcome() != "ERROR" || lg.Lines != 6 {
		t.Fatalf("after the rewrite: %d lines %+v", lg.Lines, lg.Processes)
	}
	if prev := fw.Previous(); prev == nil || len(prev.Processes) != 1 || prev.Processes[0].Source != "rank 0" {
		t.Fatalf("the log before the restart: %+v", prev)
	}
	// A rewrite that starts with the very bytes already read reads on: what
	// was parsed still holds.
	appendFile(t, path, "[TRT-LLM] [RANK 0] [I] Using KvCacheTransceiverV2\n")
	if lg := poll(t, fw, NoteNone); len(lg.Processes) != 2 {
		t.Fatalf("after growth: %+v", lg.Processes)
	}
}

// keepSeam keeps the last seamSize bytes of everything read, in order,
// whatever the sizes of the reads.
func TestFollowerSeam(t *testing.T) {
	var fw Follower
	all := ""
	for i, n := range []int{1, 5, 63, 64, 65, 2, 200, 3} {
		p := strings.Repeat(string(rune('a'+i)), n)
		all += p
		fw.keepSeam([]byte(p))
		want := all[max(0, len(all)-seamSize):]
		if got := string(fw.seam[:fw.seamN]); got != want {
			t.Fatalf("after %d bytes: seam %q, want %q", len(all), got, want)
		}
	}
}

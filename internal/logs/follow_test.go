package logs

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func appendFile(t *testing.T, path, s string) {
	t.Helper()
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o644)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.WriteString(s); err != nil {
		t.Fatal(err)
	}
	f.Close()
}

func poll(t *testing.T, fw *Follower, wantNote FollowNote) *Log {
	t.Helper()
	_, note, err := fw.Poll()
	if err != nil {
		t.Fatal(err)
	}
	if note != wantNote {
		t.Fatalf("note %q, want %q", note, wantNote)
	}
	return fw.Log()
}

// TestFollowerTailF drives a follower step by step (no sleeps): growth, a
// partial line, truncation and rotation, as tail -F sees them.
func TestFollowerTailF(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "gen.log")
	fw := NewFollower(path, "gen.log")
	defer fw.Close()
	poll(t, fw, NoteWaiting)
	poll(t, fw, NoteNone)

	appendFile(t, path, "[TRT-LLM] [RANK 0] [I] Resolved transceiver_runtime='auto' to 'PYTHON' for GptOssForCausalLM.\n[TRT-LLM] [RANK 0] [I] Using KvCache")
	lg := poll(t, fw, NoteOpened)
	if len(lg.Processes) != 1 || lg.Processes[0].Class != "" || lg.Lines != 1 {
		t.Fatalf("after the first line: %d lines %+v", lg.Lines, lg.Processes)
	}
	// The rest of the partial line arrives.
	appendFile(t, path, "TransceiverV2\n")
	lg = poll(t, fw, NoteNone)
	if p := lg.Processes[0]; p.Outcome() != "PYTHON" || lg.Lines != 2 {
		t.Fatalf("after the partial line was completed: %d lines %+v", lg.Lines, p)
	}

	// Truncated and rewritten by a restart: read again from the start.
	if err := os.WriteFile(path, []byte("[TRT-LLM] [RANK 3] [I] cache_transceiver is disabled\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	lg = poll(t, fw, NoteTruncated)
	if len(lg.Processes) != 1 || lg.Processes[0].Source != "rank 3" || lg.Processes[0].Outcome() != "DISABLED" {
		t.Fatalf("after truncation: %+v", lg.Processes)
	}

	// Rotated: the old file's last line is read, then the new file.
	appendFile(t, path, "[TRT-LLM] [RANK 4] [I] Using KvCacheTransceiverV2\n")
	if err := os.Rename(path, path+".1"); err != nil {
		t.Fatal(err)
	}
	appendFile(t, path, "[TRT-LLM] [RANK 5] [I] Using KvCacheTransceiverV2\n")
	lg = poll(t, fw, NoteRotated)
	if len(lg.Processes) != 1 || lg.Processes[0].Source != "rank 5" {
		t.Fatalf("after rotation: %+v", lg.Processes)
	}
	prev := fw.Previous()
	if prev == nil || len(prev.Processes) != 2 || prev.Processes[1].Source != "rank 4" || prev.Processes[1].Outcome() != "PYTHON" {
		t.Fatalf("the rotated file's last lines: %+v", prev)
	}
	if fw.Previous() != nil {
		t.Fatal("Previous returned the old log twice")
	}
}

func TestFollowerRefusesDirectories(t *testing.T) {
	if _, _, err := NewFollower(t.TempDir(), "dir").Poll(); err == nil {
		t.Fatal("a directory was followed as a log")
	}
}

// TestFollowerEndReadsTheLastLine: a log whose last line has no newline (a
// pasted excerpt) reads, at the end of following (-f's Ctrl-C) or read once
// (--accessible --log), as a batch run reads it; while followed, that line
// waits for its newline (its writer may not have written the rest yet). So
// does the old file's last line when it is rotated or truncated.
func TestFollowerEndReadsTheLastLine(t *testing.T) {
	path := filepath.Join(t.TempDir(), "gen.log")
	text := "[TRT-LLM] [RANK 0] [I] Using KvCacheTransceiverV2\n[TRT-LLM] [RANK 1] [E] Failed to initialize executor on rank 1: boom"
	appendFile(t, path, text)
	fw := NewFollower(path, "gen.log")
	defer fw.Close()
	if lg := poll(t, fw, NoteOpened); len(lg.Processes) != 1 || lg.Failed() {
		t.Fatalf("followed, the last line is read before its newline: %d processes", len(lg.Processes))
	}
	batch, _ := Parse("gen.log", strings.NewReader(text))
	if lg := fw.End(); len(lg.Processes) != 2 || !lg.Failed() || lg.Failed() != batch.Failed() {
		t.Fatalf("at the end, the last line is not read: %d processes, failed %v", len(lg.Processes), lg.Failed())
	}
	// Truncated: what the old content showed ends with its last line.
	fw2 := NewFollower(path, "gen.log")
	defer fw2.Close()
	poll(t, fw2, NoteOpened)
	if err := os.WriteFile(path, []byte("x\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	poll(t, fw2, NoteTruncated)
	if prev := fw2.Previous(); prev == nil || !prev.Failed() {
		t.Fatal("the truncated file's last line is lost")
	}
}

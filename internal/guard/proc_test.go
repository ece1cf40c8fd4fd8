package guard

import (
	"errors"
	"os"
	"path/filepath"
	"syscall"
	"testing"
)

// /proc/kmsg passed the regular-file check (procfs calls it a regular file of
// size 0) and was waited on forever, also through a symlink in a log
// directory. A file the kernel polls like a pipe is refused before any read;
// the /proc files xcvr reads (a process's cmdline and environ) still open.
func TestStreamLikeProcFilesAreRefused(t *testing.T) {
	if _, err := os.Stat("/proc/self/mounts"); err != nil {
		t.Skip("no procfs")
	}
	link := filepath.Join(t.TempDir(), "rank0.log")
	if err := os.Symlink("/proc/self/mounts", link); err != nil {
		t.Fatal(err)
	}
	streams := []string{"/proc/self/mounts", link}
	if f, err := os.OpenFile("/proc/kmsg", os.O_RDONLY|syscall.O_NONBLOCK, 0); err == nil {
		f.Close() // opened, never read
		streams = append(streams, "/proc/kmsg")
	}
	for _, p := range streams {
		st, err := os.Stat(p)
		if err != nil || !st.Mode().IsRegular() {
			t.Fatalf("%s: %v %v: the test needs a file stat calls regular", p, st, err)
		}
		f, err := Open(p, Limits{})
		if err == nil {
			f.Close()
			t.Errorf("%s: opened", p)
			continue
		}
		if !errors.Is(err, ErrNotRegular) {
			t.Errorf("%s: %v, want ErrNotRegular", p, err)
		}
		if _, err := ReadFile(p, JSONLimits()); err == nil {
			t.Errorf("%s: ReadFile read it", p)
		}
	}
	for _, p := range []string{"/proc/self/cmdline", "/proc/self/environ"} {
		if _, err := ReadRaw(p, ProcLimits()); err != nil {
			t.Errorf("%s: %v; xcvr reads these for --pid", p, err)
		}
	}
	// A file on a disk, empty or not, is a file.
	empty := filepath.Join(t.TempDir(), "empty.log")
	if err := os.WriteFile(empty, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	if f, err := Open(empty, Limits{}); err != nil {
		t.Errorf("empty file: %v", err)
	} else {
		f.Close()
	}
}

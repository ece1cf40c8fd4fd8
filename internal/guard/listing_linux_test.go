package guard

import (
	"os"
	"path/filepath"
	"strconv"
	"syscall"
	"testing"
)

// pollable asks the kernel what Go's poller asks it (streamLike): the two
// answers agree on files of a disk, empty or not, procfs files that poll
// (/proc/kmsg when it opens, mounts) and that do not (cmdline, environ), a
// sysfs attribute, a pipe and a directory; nothing is read.
func TestPollableIsStreamLike(t *testing.T) {
	dir := t.TempDir()
	empty, full := filepath.Join(dir, "empty.log"), filepath.Join(dir, "full.log")
	os.WriteFile(empty, nil, 0o600)
	os.WriteFile(full, []byte("x\n"), 0o600)
	paths := []string{empty, full, dir, "/proc/self/mounts", "/proc/self/mountinfo", "/proc/kmsg",
		"/proc/self/cmdline", "/proc/self/environ", "/sys/kernel/address_bits", "/dev/null"}
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	defer w.Close()
	paths = append(paths, "/proc/self/fd/"+strconv.Itoa(int(r.Fd())))
	want := map[string]bool{empty: false, full: false, "/proc/self/mounts": true, "/proc/kmsg": true}
	checked := 0
	for _, p := range paths {
		f, err := os.OpenFile(p, os.O_RDONLY|syscall.O_NONBLOCK, 0)
		if err != nil {
			continue // no such file here, or no permission (/proc/kmsg)
		}
		gos := streamLike(f)
		f.Close()
		fd, err := syscall.Open(p, syscall.O_RDONLY|syscall.O_NONBLOCK|syscall.O_CLOEXEC, 0)
		if err != nil {
			t.Fatal(err)
		}
		ours := pollable(fd)
		syscall.Close(fd)
		if ours != gos {
			t.Errorf("%s: pollable %v, Go's poller %v", p, ours, gos)
		}
		if w, ok := want[p]; ok && ours != w {
			t.Errorf("%s: pollable %v, want %v", p, ours, w)
		}
		checked++
	}
	if checked < 4 {
		t.Fatalf("only %d files could be opened", checked)
	}
}

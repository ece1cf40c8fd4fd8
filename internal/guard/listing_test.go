//go:build unix

package guard

import (
	"errors"
	"io"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"
)

// Listing.Open is OpenEntry for an entry listed as a regular file, relative to
// the directory: what it refuses, and the very words it refuses with, are
// OpenEntry's (a missing entry, an entry swapped for a symbolic link, a FIFO
// or a directory, one over MaxBytes), and a name that is not one entry of the
// directory is refused before any open.
func TestListingOpenIsOpenEntry(t *testing.T) {
	dir := t.TempDir()
	plain := filepath.Join(dir, "rank0.log")
	if err := os.WriteFile(plain, []byte("hello\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(plain, filepath.Join(dir, "link.log")); err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(filepath.Join(dir, "sub.log"), 0o755); err != nil {
		t.Fatal(err)
	}
	names := []string{"link.log", "sub.log", "missing.log"}
	if err := syscall.Mkfifo(filepath.Join(dir, "fifo.log"), 0o600); err == nil {
		names = append(names, "fifo.log")
	}
	l, err := OpenListing(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()

	e, err := l.Open("rank0.log", plain, Limits{})
	if err != nil {
		t.Fatal(err)
	}
	data, err := io.ReadAll(e)
	if err != nil || string(data) != "hello\n" || e.Size() != 6 {
		t.Errorf("read %q, size %d, %v", data, e.Size(), err)
	}
	if err := e.Close(); err != nil {
		t.Error(err)
	}
	// Handed to an *os.File (for a mapped read), the descriptor is that file's.
	e, err = l.Open("rank0.log", plain, Limits{})
	if err != nil {
		t.Fatal(err)
	}
	f := e.File()
	if data, err := io.ReadAll(f); err != nil || string(data) != "hello\n" {
		t.Errorf("as *os.File: %q %v", data, err)
	}
	f.Close()

	type result struct {
		name string
		got  error
	}
	done := make(chan result)
	go func() {
		for _, name := range names {
			_, err := l.Open(name, filepath.Join(dir, name), Limits{})
			done <- result{name, err}
		}
		close(done)
	}()
	for range names {
		select {
		case r := <-done:
			f, _, want := OpenEntry(filepath.Join(dir, r.name), 0, Limits{})
			if f != nil {
				f.Close()
			}
			if r.got == nil || want == nil || r.got.Error() != want.Error() {
				t.Errorf("%s: %v, OpenEntry: %v", r.name, r.got, want)
			}
			if r.name == "fifo.log" && !errors.Is(r.got, ErrNotRegular) {
				t.Errorf("fifo: %v, want ErrNotRegular", r.got)
			}
		case <-time.After(5 * time.Second):
			t.Fatal("Listing.Open blocked")
		}
	}
	_, got := l.Open("rank0.log", plain, Limits{MaxBytes: 3})
	_, _, want := OpenEntry(plain, 0, Limits{MaxBytes: 3})
	if got == nil || want == nil || got.Error() != want.Error() {
		t.Errorf("over MaxBytes: %v, OpenEntry: %v", got, want)
	}
	for _, name := range []string{"", ".", "..", "../rank0.log", "sub.log/x"} {
		if e, err := l.Open(name, filepath.Join(dir, name), Limits{}); err == nil {
			e.Close()
			t.Errorf("%q: opened", name)
		}
	}
	if _, err := OpenListing(plain); err == nil {
		t.Error("OpenListing of a file: no error")
	}
}

// Files stat calls regular that the kernel polls (procfs, sysfs) are refused
// when a directory listing names them, as Open refuses them; the /proc files
// xcvr reads still open.
func TestListingRefusesStreams(t *testing.T) {
	for _, c := range []struct {
		dir, name string
		stream    bool
	}{
		{"/proc/self", "mounts", true},
		{"/proc/self", "mountinfo", true},
		{"/proc", "kmsg", true},
		{"/sys/kernel", "address_bits", true},
		{"/proc/self", "cmdline", false},
		{"/proc/self", "environ", false},
	} {
		path := filepath.Join(c.dir, c.name)
		f, err := os.OpenFile(path, os.O_RDONLY|syscall.O_NONBLOCK, 0)
		if err != nil {
			continue // no procfs or sysfs, or /proc/kmsg without root
		}
		f.Close()
		l, err := OpenListing(c.dir)
		if err != nil {
			t.Fatal(err)
		}
		e, err := l.Open(c.name, path, Limits{})
		l.Close()
		switch {
		case c.stream && err == nil:
			e.Close()
			t.Errorf("%s: opened", path)
		case c.stream && (!errors.Is(err, ErrNotRegular) || err.Error() != streamErr(path).Error()):
			t.Errorf("%s: %v", path, err)
		case !c.stream && err != nil:
			t.Errorf("%s: %v", path, err)
		case !c.stream:
			e.Close()
		}
	}
}

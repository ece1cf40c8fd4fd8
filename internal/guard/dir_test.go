package guard

import (
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

func TestDirOpensOnlyItsOwnRegularFiles(t *testing.T) {
	base := t.TempDir()
	offered := filepath.Join(base, "offered")
	os.Mkdir(offered, 0o755)
	os.WriteFile(filepath.Join(offered, "ok.yaml"), []byte("a: 1\n"), 0o644)
	os.WriteFile(filepath.Join(offered, "big.yaml"), make([]byte, 2048), 0o644)
	os.WriteFile(filepath.Join(base, "secret"), []byte("SECRET\n"), 0o644)
	os.Symlink(filepath.Join(base, "secret"), filepath.Join(offered, "out.yaml"))
	os.Symlink("ok.yaml", filepath.Join(offered, "in.yaml"))
	os.Mkdir(filepath.Join(offered, "sub"), 0o755)
	if err := syscall.Mkfifo(filepath.Join(offered, "fifo.yaml"), 0o644); err != nil {
		t.Fatal(err)
	}
	d, err := OpenDir(offered)
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()

	data, err := ReadFileFS(d, d.Path("ok.yaml"), YAMLLimits())
	if err != nil || string(data) != "a: 1\n" {
		t.Fatalf("ok.yaml: %q %v", data, err)
	}
	for name, want := range map[string]string{
		// A FIFO nobody writes to: refused, not waited on (the test would hang).
		"fifo.yaml": "a FIFO (named pipe)",
		"out.yaml":  "a symbolic link",
		"in.yaml":   "a symbolic link",
		"sub":       "a directory",
		"big.yaml":  "over the 1 KiB limit",
	} {
		_, err := ReadFileFS(d, d.Path(name), Limits{MaxBytes: 1024})
		if err == nil || !strings.Contains(err.Error(), want) || !strings.HasPrefix(err.Error(), d.Path(name)+":") {
			t.Errorf("%s: %v, want %q naming the offered path", name, err, want)
		}
	}
	for _, p := range []string{filepath.Join(base, "secret"), d.Path("../secret"), "/etc/passwd", offered + "x/ok.yaml"} {
		if _, err := d.Open(p, Limits{}); !errors.Is(err, ErrOutside) {
			t.Errorf("%s: %v, want ErrOutside", p, err)
		}
	}
	if _, err := d.Open(d.Path("missing.yaml"), Limits{}); !errors.Is(err, os.ErrNotExist) || !strings.Contains(err.Error(), d.Path("missing.yaml")) {
		t.Errorf("missing: %v", err)
	}
}

// The descriptor Open checked is the one read: a file swapped for a symbolic
// link to a secret after the open still reads as the file that was checked.
func TestDirReadsTheDescriptorItChecked(t *testing.T) {
	base := t.TempDir()
	os.WriteFile(filepath.Join(base, "secret"), []byte("SECRET\n"), 0o644)
	p := filepath.Join(base, "log")
	os.WriteFile(p, []byte("checked\n"), 0o644)
	d, err := OpenDir(base)
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	f, err := d.Open(d.Path("log"), Limits{})
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	os.Remove(p)
	os.Symlink(filepath.Join(base, "secret"), p)
	data, _ := io.ReadAll(f)
	if string(data) != "checked\n" {
		t.Errorf("read %q after the swap", data)
	}
	if _, err := d.Open(d.Path("log"), Limits{}); err == nil || !strings.Contains(err.Error(), "a symbolic link") {
		t.Errorf("the swapped name opened again: %v", err)
	}
}

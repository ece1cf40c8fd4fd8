//go:build unix

package cli

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// A FIFO given as a log is refused at once, without blocking on it.
func TestCheckLogsRefusesFIFO(t *testing.T) {
	p := filepath.Join(t.TempDir(), "pipe.log")
	if err := syscall.Mkfifo(p, 0o644); err != nil {
		t.Skip(err)
	}
	for _, args := range [][]string{{"check-logs", p}, {"check-logs", "-f", p}, {"check-logs", filepath.Dir(p)}} {
		_, errOut, code := run(t, nil, args...)
		if code != 2 || !(strings.Contains(errOut, "a FIFO") || strings.Contains(errOut, "no log files")) {
			t.Errorf("%v: exit %d %s", args, code, errOut)
		}
	}
}

// In a directory, a symlink to a log is read and a FIFO is skipped without
// blocking.
func TestCheckLogsDirectoryLinksAndFIFOs(t *testing.T) {
	dir := t.TempDir()
	writeLog(t, filepath.Join(dir, "real", "rank0.log"), pyPlain)
	if err := os.MkdirAll(filepath.Join(dir, "job"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(dir, "real", "rank0.log"), filepath.Join(dir, "job", "link.log")); err != nil {
		t.Skip(err)
	}
	if err := syscall.Mkfifo(filepath.Join(dir, "job", "pipe.log"), 0o644); err != nil {
		t.Skip(err)
	}
	out, errOut, code := run(t, nil, "check-logs", filepath.Join(dir, "job"))
	if code != 0 || !strings.Contains(out, "link.log: 3 lines") || strings.Contains(out, "pipe.log") {
		t.Errorf("exit %d\n%s%s", code, out, errOut)
	}
}

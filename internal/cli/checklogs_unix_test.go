//go:build unix

package cli

import (
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

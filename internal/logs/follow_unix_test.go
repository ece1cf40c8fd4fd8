//go:build unix

package logs

import (
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// A FIFO named as a log is refused at once: opening it for reading would block
// until a writer came.
func TestFollowerRefusesFIFO(t *testing.T) {
	p := filepath.Join(t.TempDir(), "fifo.log")
	if err := syscall.Mkfifo(p, 0o644); err != nil {
		t.Skip(err)
	}
	_, _, err := NewFollower(p, "fifo.log").Poll()
	if err == nil || !strings.Contains(err.Error(), "a FIFO") {
		t.Fatalf("err %v", err)
	}
}

package crash

import (
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// A supervisor killed outright (SIGKILL: it cannot pass the signal on) left
// its child running: `xcvr serve` kept its port with no parent, and the serve
// tests' cleanup, which kills the process it started, leaked a server per
// test. The child now gets SIGTERM when its supervisor dies.
func TestChildEndsWithItsSupervisor(t *testing.T) {
	bin := xcvrBinary(t)
	dir := t.TempDir()
	log := filepath.Join(dir, "job.log")
	if err := os.WriteFile(log, []byte("[TRT-LLM] [I] Starting TensorRT-LLM init.\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	// check-logs -f runs until it is stopped.
	cmd := exec.Command(bin, "check-logs", "-f", "--clean-env", log)
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	child := 0
	for i := 0; i < 400 && child == 0; i++ {
		time.Sleep(25 * time.Millisecond)
		child = childOf(cmd.Process.Pid)
	}
	if child == 0 {
		cmd.Process.Kill()
		cmd.Wait()
		t.Fatal("the supervisor started no child")
	}
	if err := cmd.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	cmd.Wait()
	// The orphan is reparented to init (or a subreaper), which reaps it; a
	// zombie counts as gone.
	for i := 0; i < 400; i++ {
		b, err := os.ReadFile("/proc/" + strconv.Itoa(child) + "/stat")
		if err != nil {
			return
		}
		if f := strings.Fields(string(b)); len(f) > 2 && f[2] == "Z" {
			return
		}
		time.Sleep(25 * time.Millisecond)
	}
	syscall.Kill(child, syscall.SIGKILL)
	t.Fatalf("the child %d still runs 10 s after its supervisor was killed", child)
}

package deploy

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

// --pid of a process with nothing in user space to read gave the kernel's
// raw words, "open /proc/2/environ: no such process". Each case now names
// --pid and says why, from /proc/PID/stat.
func TestReadProcessNothingToRead(t *testing.T) {
	root := t.TempDir()
	put := func(pid int, files map[string]string) {
		dir := filepath.Join(root, strconv.Itoa(pid))
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		for name, data := range files {
			if err := os.WriteFile(filepath.Join(dir, name), []byte(data), 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	// /proc/2/stat and /proc/PID/stat of a zombie as Linux 6 writes them.
	put(2, map[string]string{"cmdline": "", "stat": "2 (kthreadd) S 0 0 0 0 -1 2129984 0 0 0 0 1 0 0 0 20 0 1 0 24 0 0\n"})
	put(3, map[string]string{"cmdline": "", "stat": "3 (python3 (x)) Z 12387 12383 12012 0 -1 4227148 234 0 0 0 0\n"})
	put(4, map[string]string{"cmdline": "trtllm-serve\x00m\x00"}) // environ and stat gone: it ended between the reads
	put(5, map[string]string{"cmdline": "\x00", "stat": "5 (blank) S 1 5 5 0 -1 4194560 0\n"})
	for pid, want := range map[int]string{
		2:   "--pid 2: process 2 (kthreadd) is a kernel thread: it has no command line or environment to read; give the PID of trtllm-serve (pgrep -af trtllm-serve lists them)",
		3:   "--pid 3: process 3 (python3 (x)) has exited (a zombie its parent has not yet reaped): its command line and environment are gone",
		4:   "--pid 4: process 4 exited while xcvr read " + filepath.Join(root, "4", "environ") + "; nothing left to read",
		5:   "--pid 5: process 5 (blank) has an empty command line; nothing to read",
		999: "--pid 999: no process 999 (" + filepath.Join(root, "999") + " does not exist): it has exited, or its PID is another PID namespace's (a host's PID inside a container, or a container's on the host)",
	} {
		if _, err := ReadProcess(root, pid); err == nil || err.Error() != want {
			t.Errorf("pid %d: %v\nwant %s", pid, err, want)
		}
	}
}

// The same on the real /proc: a kernel thread, and a zombie made here.
func TestReadProcessRealKernelThreadAndZombie(t *testing.T) {
	if _, err := os.Stat("/proc/self/stat"); err != nil {
		t.Skip("no /proc")
	}
	// A kernel thread: only in the host's PID namespace (kthreadd is 2
	// there); a container sees none.
	ents, _ := os.ReadDir("/proc")
	found := false
	for _, e := range ents {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		st, err := os.ReadFile("/proc/" + e.Name() + "/stat")
		if err != nil || !kthread(st) {
			continue
		}
		found = true
		_, err = ReadProcess("/proc", pid)
		if err == nil || !strings.Contains(err.Error(), "--pid "+e.Name()+": process "+e.Name()+" (") || !strings.Contains(err.Error(), ") is a kernel thread") {
			t.Errorf("kernel thread %d: %v", pid, err)
		}
		break
	}
	if !found {
		t.Log("no kernel thread in this PID namespace: that case is skipped")
	}
	cmd := exec.Command("true")
	if err := cmd.Start(); err != nil {
		t.Skip(err)
	}
	pid := cmd.Process.Pid
	defer cmd.Wait()
	// Not a speed bound: the state is polled until the child has exited.
	for deadline := time.Now().Add(20 * time.Second); ; time.Sleep(10 * time.Millisecond) {
		st, _ := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
		if i := bytes.LastIndexByte(st, ')'); i > 0 && bytes.HasPrefix(st[i+1:], []byte(" Z")) {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the child never became a zombie")
		}
	}
	_, err := ReadProcess("/proc", pid)
	if want := "--pid " + strconv.Itoa(pid) + ": process " + strconv.Itoa(pid) + " (true) has exited (a zombie its parent has not yet reaped): its command line and environment are gone"; err == nil || err.Error() != want {
		t.Errorf("zombie: %v\nwant %s", err, want)
	}
}

func kthread(stat []byte) bool {
	i := bytes.LastIndexByte(stat, ')')
	if i < 0 {
		return false
	}
	f := strings.Fields(string(stat[i+1:]))
	if len(f) < 7 {
		return false
	}
	flags, _ := strconv.ParseUint(f[6], 10, 64)
	return flags&0x00200000 != 0 // PF_KTHREAD
}

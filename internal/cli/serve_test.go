package cli

import (
	"bufio"
	"bytes"
	"context"
	"crypto/ed25519"
	"crypto/rand"
	"encoding/pem"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	gossh "golang.org/x/crypto/ssh"

	"xcvr/internal/guard"
	"xcvr/internal/serve"
)

func parse(t *testing.T, box *sandbox, env []string, args ...string) (serve.Request, string, error) {
	t.Helper()
	var out bytes.Buffer
	req, err := parseClient(context.Background(), serve.Client{Args: args, Environ: env, Stdout: &out, Stderr: &out}, box)
	return req, out.String(), err
}

func TestServedSessionsUseTheLocalFlags(t *testing.T) {
	req, _, err := parse(t, nil, []string{"TRTLLM_USE_UCX_KVCACHE=1", "NO_COLOR=1"},
		"--trtllm", "1.3.0rc22", "--model", "LlamaForCausalLM", "--backend", "DEFAULT", "--env", "TRTLLM_USE_NIXL_KVCACHE=0", "--color", "never")
	if err != nil {
		t.Fatal(err)
	}
	sp := req.Options.Spec
	if req.Kind != serve.KindExplorer || sp.Version.Raw != "1.3.0rc22" || sp.Model.Raw != "LlamaForCausalLM" || req.Options.Color != "never" {
		t.Errorf("request = %v %+v", req.Kind, sp)
	}
	// The client's environment (what its ssh sent) feeds the worker env like
	// xcvr's own environment does locally; --env sits on top.
	if sp.Env["TRTLLM_USE_UCX_KVCACHE"].Value != "1" || sp.Env["TRTLLM_USE_NIXL_KVCACHE"].Value != "0" {
		t.Errorf("env = %+v", sp.Env)
	}
	// No arguments (plain ssh -t HOST): the default explorer, whatever the
	// server's own command line was.
	if req, _, err := parse(t, nil, nil); err != nil || req.Kind != serve.KindExplorer {
		t.Errorf("no arguments: %v %v", req.Kind, err)
	}
	if _, _, err := parse(t, nil, nil, "--trtllm", "9.9"); err == nil || !strings.Contains(err.Error(), `unknown TensorRT-LLM version "9.9"`) {
		t.Errorf("a bad value: %v", err)
	}
	if req, _, err := parse(t, nil, nil, "--accessible", "--backend", "UCX"); err != nil || req.Kind != serve.KindAccessible || req.Options.Spec.Backend.Raw != "UCX" {
		t.Errorf("--accessible: %v %v", req.Kind, err)
	}
	if req, _, err := parse(t, nil, nil, "tour"); err != nil || req.Kind != serve.KindTour || len(req.Tour) != 9 {
		t.Errorf("tour: kind %v, %d stops, %v", req.Kind, len(req.Tour), err)
	}
	// The linear tour is the session's to run, a stop per Enter: nothing is
	// printed while parsing.
	if req, out, err := parse(t, nil, nil, "tour", "--accessible"); err != nil || req.Kind != serve.KindAccessibleTour || len(req.Tour) != 9 || out != "" {
		t.Errorf("tour --accessible: %v, %d stops, %v, printed %q", req.Kind, len(req.Tour), err, out)
	}
	if req, out, err := parse(t, nil, nil, "--help"); err != nil || req.Kind != serve.KindNone || !strings.Contains(out, "--accessible") {
		t.Errorf("--help: %v %v\n%s", req.Kind, err, out)
	}
	if _, _, err := parse(t, nil, nil, "--bogus"); err == nil || !strings.Contains(err.Error(), "unknown flag: --bogus") {
		t.Errorf("--bogus: %v", err)
	}
}

func TestServedSessionsNeverReadTheServersFiles(t *testing.T) {
	for _, args := range [][]string{
		{"--config", "/etc/passwd"}, {"--disagg=/etc/passwd"}, {"--log", "/var/log/syslog"},
		{"--env-file", "/proc/self/environ"}, {"--install"}, {"--pid", "1"}, {"--catalog", "x.yaml"},
		{"--model-dir", "/models"}, {"--model-config", "/models/config.json"}, {"tour", "--tour", "/etc/passwd"},
	} {
		_, _, err := parse(t, nil, nil, args...)
		var re *serve.RefusedError
		if !errors.As(err, &re) || re.Code != exitUsage || !strings.Contains(err.Error(), "; a served session cannot use it") {
			t.Errorf("%v: err = %v, want a refusal (exit 2)", args, err)
		}
	}
	// After --, words are values, not flags.
	if _, _, err := parse(t, nil, nil, "--env", "X=1", "--", "--config"); err == nil || strings.Contains(err.Error(), "server's files") {
		t.Errorf("-- then --config: %v", err)
	}
}

func TestServeDirOffersFilesByNameOnly(t *testing.T) {
	dir := t.TempDir()
	offered := filepath.Join(dir, "offered")
	os.Mkdir(offered, 0o755)
	os.WriteFile(filepath.Join(offered, "worker.yaml"), []byte("cache_transceiver_config:\n  backend: UCX\n  transceiver_runtime: CPP\n"), 0o644)
	secret := filepath.Join(dir, "secret.yaml")
	os.WriteFile(secret, []byte("cache_transceiver_config:\n  backend: MPI\n"), 0o644)
	os.Symlink(secret, filepath.Join(offered, "link.yaml"))
	os.Mkdir(filepath.Join(offered, "sub"), 0o755)
	team := filepath.Join(offered, "team.yaml")
	data, _ := os.ReadFile("../tour/testdata/team.yaml")
	os.WriteFile(team, data, 0o644)

	gd, err := guard.OpenDir(offered)
	if err != nil {
		t.Fatal(err)
	}
	defer gd.Close()
	box := &sandbox{dir: gd}

	req, _, err := parse(t, box, nil, "--config", "worker.yaml", "--trtllm", "1.4.0rc1")
	if err != nil {
		t.Fatal(err)
	}
	if sp := req.Options.Spec; sp.Backend.Raw != "UCX" || sp.Runtime.Raw != "CPP" {
		t.Errorf("the offered worker.yaml was not applied: %+v", sp)
	}
	os.WriteFile(filepath.Join(offered, "server.log"), []byte("[TRT-LLM] [I] Using KvCacheTransceiverV2\n"), 0o644)
	if req, _, err := parse(t, box, nil, "--log", "server.log"); err != nil || req.Options.Log == nil || req.Options.LogFollow == nil {
		t.Errorf("an offered log: %v", err)
	} else {
		req.Options.LogFollow.Close()
	}
	if _, _, err := parse(t, box, nil, "--log", "-"); err == nil {
		t.Error("--log - (the session's stdin) was accepted as an offered file")
	}
	if req, _, err := parse(t, box, nil, "tour", "--tour", "team.yaml"); err != nil || len(req.Tour) != 10 {
		t.Errorf("an offered tour: %d stops, %v", len(req.Tour), err)
	}
	for _, name := range []string{"../secret.yaml", secret, "link.yaml", "sub", "missing.yaml"} {
		_, _, err := parse(t, box, nil, "--config", name)
		if err == nil {
			t.Errorf("--config %s was read", name)
			continue
		}
		if strings.Contains(err.Error(), "MPI") {
			t.Errorf("--config %s leaked the file: %v", name, err)
		}
	}
	if _, _, err := parse(t, box, nil, "--pid", "1"); err == nil {
		t.Error("--pid is allowed with --serve-dir")
	}
}

// A FIFO in --serve-dir is refused at once for every file flag (it used to
// block the session at open, before any check, keeping its slot for good), and
// a name swapped for a symbolic link is refused, never followed out.
func TestServeDirRefusesFIFOsAndLinksWithoutBlocking(t *testing.T) {
	dir := t.TempDir()
	offered := filepath.Join(dir, "offered")
	os.Mkdir(offered, 0o755)
	os.WriteFile(filepath.Join(dir, "secret.yaml"), []byte("cache_transceiver_config:\n  backend: MPI\n"), 0o644)
	for _, n := range []string{"fifo.yaml", "fifo.log", "fifo.env"} {
		if err := syscall.Mkfifo(filepath.Join(offered, n), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	gd, err := guard.OpenDir(offered)
	if err != nil {
		t.Fatal(err)
	}
	defer gd.Close()
	box := &sandbox{dir: gd}
	for _, args := range [][]string{
		{"--config", "fifo.yaml"}, {"--disagg", "fifo.yaml"}, {"--catalog", "fifo.yaml"}, {"--model-config", "fifo.yaml"},
		{"--env-file", "fifo.env"}, {"--log", "fifo.log"}, {"tour", "--tour", "fifo.yaml"},
	} {
		done := make(chan error, 1)
		go func() { _, _, err := parse(t, box, nil, args...); done <- err }()
		select {
		case err := <-done:
			if err == nil || !strings.Contains(err.Error(), "a FIFO (named pipe)") {
				t.Errorf("%v: %v", args, err)
			}
		case <-time.After(10 * time.Second):
			t.Fatalf("%v blocked on the FIFO", args)
		}
	}
	// worker.yaml is a regular file when the name is checked, a symbolic link
	// to a file outside when a reader opens it: every open is checked, so
	// the second is refused too.
	w := filepath.Join(offered, "worker.yaml")
	os.WriteFile(w, []byte("cache_transceiver_config:\n  backend: UCX\n"), 0o644)
	p, err := box.path("config", "worker.yaml")
	if err != nil {
		t.Fatal(err)
	}
	os.Remove(w)
	os.Symlink(filepath.Join(dir, "secret.yaml"), w)
	fl := &deployFlags{config: p, files: box.files(), remote: true}
	if err := fl.load(&appEnv{stderr: io.Discard, environ: nil}); err == nil || !strings.Contains(err.Error(), "a symbolic link") || strings.Contains(err.Error(), "MPI") {
		t.Errorf("the swapped worker.yaml: %v", err)
	}
}

func TestServeRefusesToStartWithoutAuthorizedKeys(t *testing.T) {
	_, errOut, code := run(t, nil, "serve", "--host-key", filepath.Join(t.TempDir(), "hk"))
	if code != exitUsage || !strings.Contains(errOut, "--authorized-keys FILE is required") {
		t.Errorf("exit %d, stderr %q", code, errOut)
	}
	for flag, want := range map[string]string{
		"--login-grace-time=0": "--login-grace-time 0s: want a positive duration", "--max-startups=0": "--max-startups 0: want at least 1",
		// A negative limit used to start the server with the default
		// (--max-sessions) or with no timeout at all.
		"--max-sessions=-3": "--max-sessions -3: want at least 1", "--max-sessions=0": "--max-sessions 0: want at least 1",
		"--idle-timeout=-5s": "--idle-timeout -5s: want a duration, or 0 for never", "--max-timeout=-1m": "--max-timeout -1m0s: want a duration, or 0 for never",
	} {
		if _, errOut, code := run(t, nil, "serve", flag, "--authorized-keys", "x"); code != exitUsage || !strings.Contains(errOut, want) {
			t.Errorf("%s: exit %d, stderr %q", flag, code, errOut)
		}
	}
}

func TestTourCommand(t *testing.T) {
	out, errOut, code := run(t, nil, "tour", "--tour", "../tour/testdata/team.yaml")
	if code != 0 || errOut != "" {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	for _, want := range []string{"Tour 1/10: GPT-OSS opts into", "Tour 10/10: Our decode pool on 1.4", "Python transceiver needs NIXL ('python-nixl') in the explain text below."} {
		if !strings.Contains(out, want) {
			t.Errorf("missing %q", want)
		}
	}
	bad := filepath.Join(t.TempDir(), "bad.yaml")
	os.WriteFile(bad, []byte("scenarios:\n  - id: a\n    title: A\n    inputs: {backend: UCX}\n    expect: PYTHON\n    step: auto\n    narrate: x\n"), 0o644)
	_, errOut, code = run(t, nil, "tour", "--tour", bad)
	if code != exitUsage || !strings.Contains(errOut, bad+":5:13: scenario a claims PYTHON, but the resolver gives ERROR") {
		t.Errorf("exit %d, stderr %q", code, errOut)
	}
	bin := filepath.Join(t.TempDir(), "bin.yaml")
	os.WriteFile(bin, []byte("scenarios:\x00\n"), 0o644)
	if _, errOut, code := run(t, nil, "tour", "--tour", bin); code != exitUsage || !strings.Contains(errOut, bin+":1:11: refused: binary data") {
		t.Errorf("binary tour: exit %d, %q", code, errOut)
	}
}

func TestAccessibleFlag(t *testing.T) {
	// xcvr tui refuses to start off a terminal, but not in linear mode.
	for _, cmd := range [][]string{{}, {"tui"}} {
		var out, errb bytes.Buffer
		args := append(cmd, "--accessible", "--trtllm", "1.3.0rc22", "--backend", "UCX")
		code := Main(args, strings.NewReader("\n\nNIXL\nq\n"), &out, &errb, nil)
		if code != 0 || errb.Len() > 0 {
			t.Fatalf("%v: exit %d: %s", args, code, errb.String())
		}
		s := out.String()
		for _, want := range []string{"Backend [UCX]: ", "Outcome: C++ transceiver (BindKvCacheTransceiver) on backend UCX", "Outcome: Python transceiver (KvCacheTransceiverV2) on backend NIXL", "Bye."} {
			if !strings.Contains(s, want) {
				t.Errorf("%v: missing %q", args, want)
			}
		}
	}
}

// realServer is `xcvr serve` run as a subprocess on a random loopback port,
// and what the system ssh client needs to reach it.
type realServer struct {
	cmd    *exec.Cmd
	dir    string
	idFile string
	host   string
	port   string
	lines  chan string
	sshBin string
}

// buildOnce builds xcvr once for the real-client tests.
var buildOnce struct {
	sync.Once
	bin string
	err error
}

// startRealServer builds xcvr and starts `xcvr serve` with extra flags, behind
// wrap (a command such as prlimit that runs the rest of its arguments) when
// given. It skips the test with -short or without an ssh client.
func startRealServer(t *testing.T, wrap []string, extra ...string) *realServer {
	t.Helper()
	if testing.Short() {
		t.Skip("builds the binary; skipped with -short")
	}
	sshBin, err := exec.LookPath("ssh")
	if err != nil {
		t.Skip("no ssh client on PATH (apt-get install openssh-client); skipping the real-client test")
	}
	buildOnce.Do(func() {
		dir, err := os.MkdirTemp("", "xcvr-serve-test-")
		if err != nil {
			buildOnce.err = err
			return
		}
		buildOnce.bin = filepath.Join(dir, "xcvr")
		build := exec.Command("go", "build", "-o", buildOnce.bin, ".")
		build.Dir = "../.."
		if out, err := build.CombinedOutput(); err != nil {
			buildOnce.err = fmt.Errorf("go build: %v\n%s", err, out)
		}
	})
	if buildOnce.err != nil {
		t.Fatal(buildOnce.err)
	}
	dir := t.TempDir()
	_, priv, _ := ed25519.GenerateKey(rand.Reader)
	blk, err := gossh.MarshalPrivateKey(priv, "")
	if err != nil {
		t.Fatal(err)
	}
	idFile := filepath.Join(dir, "id_ed25519")
	os.WriteFile(idFile, pem.EncodeToMemory(blk), 0o600)
	signer, _ := gossh.NewSignerFromKey(priv)
	ak := filepath.Join(dir, "authorized_keys")
	os.WriteFile(ak, gossh.MarshalAuthorizedKey(signer.PublicKey()), 0o600)

	args := append([]string{buildOnce.bin, "serve", "--listen", "127.0.0.1:0", "--authorized-keys", ak, "--host-key", filepath.Join(dir, "host")}, extra...)
	args = append(append([]string{}, wrap...), args...)
	srv := exec.Command(args[0], args[1:]...)
	srv.Env = []string{"PATH=" + os.Getenv("PATH"), "HOME=" + dir}
	stderr, _ := srv.StderrPipe()
	srv.Env = append(srv.Env, "GOMEMLIMIT=256MiB")
	if err := srv.Start(); err != nil {
		t.Fatal(err)
	}
	rs := &realServer{cmd: srv, dir: dir, idFile: idFile, lines: make(chan string, 256), sshBin: sshBin}
	go func() {
		sc := bufio.NewScanner(stderr)
		for sc.Scan() {
			rs.lines <- sc.Text()
		}
		close(rs.lines)
	}()
	t.Cleanup(func() { srv.Process.Kill(); srv.Wait() })
	first := rs.next(t, "the listening line")
	_, rest, _ := strings.Cut(first, " ")
	addr, _, ok := strings.Cut(strings.TrimPrefix(rest, "xcvr serve: listening on "), " ")
	if !ok || !strings.HasPrefix(addr, "127.0.0.1:") {
		t.Fatalf("start-up line: %q", first)
	}
	if _, err := time.Parse(time.RFC3339, strings.Fields(first)[0]); err != nil {
		t.Errorf("the start-up line does not start with its time: %q", first)
	}
	rs.host, rs.port, _ = strings.Cut(addr, ":")
	return rs
}

// next is the server's next log line.
func (rs *realServer) next(t *testing.T, what string) string {
	t.Helper()
	select {
	case l, ok := <-rs.lines:
		if !ok {
			t.Fatalf("server stderr closed while waiting for %s", what)
		}
		return l
	case <-time.After(20 * time.Second):
		t.Fatalf("timed out waiting for %s", what)
	}
	return ""
}

// nextWith is the server's next log line containing want.
func (rs *realServer) nextWith(t *testing.T, what, want string) string {
	t.Helper()
	for {
		if l := rs.next(t, what); strings.Contains(l, want) {
			return l
		}
	}
}

// ssh is the system ssh client's command line for the server (with -tt when
// tty), ending in "--" and rest.
func (rs *realServer) ssh(tty bool, rest ...string) []string {
	a := []string{rs.sshBin, "-F", "/dev/null", "-i", rs.idFile, "-p", rs.port, "-o", "BatchMode=yes", "-o", "IdentitiesOnly=yes",
		"-o", "StrictHostKeyChecking=no", "-o", "UserKnownHostsFile=/dev/null", "-o", "LogLevel=ERROR"}
	if tty {
		a = append(a, "-tt")
	}
	a = append(a, "tester@"+rs.host, "--")
	return append(a, rest...)
}

// TestServeOverRealSSH builds xcvr, starts `xcvr serve` on a random loopback
// port and connects with the system ssh client: the explorer with preset
// inputs, a refused flag, and the server's log line, then SIGTERM.
func TestServeOverRealSSH(t *testing.T) {
	rs := startRealServer(t, nil)
	srv, dir := rs.cmd, rs.dir
	next := func(what string) string { t.Helper(); return rs.nextWith(t, what, "xcvr serve: session ") }
	sshArgs := func(tty bool, rest ...string) *exec.Cmd {
		a := rs.ssh(tty, rest...)
		return exec.Command(a[0], a[1:]...)
	}

	// The explorer, preset from the command line, quit with q.
	c := sshArgs(true, "--trtllm", "1.3.0rc22", "--backend", "UCX")
	c.Env = []string{"TERM=xterm-256color", "PATH=" + os.Getenv("PATH"), "HOME=" + dir}
	in, _ := c.StdinPipe()
	var out syncWriter
	c.Stdout, c.Stderr = &out, &out
	if err := c.Start(); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(20 * time.Second)
	for !strings.Contains(out.String(), "BindKvCacheTransceiver") {
		if time.Now().After(deadline) {
			t.Fatalf("no explorer over ssh; output:\n%q", out.String())
		}
		time.Sleep(50 * time.Millisecond)
	}
	io.WriteString(in, "q")
	if err := waitTimeout(c, 20*time.Second); err != nil {
		t.Errorf("ssh -t ... q: %v\n%q", err, out.String())
	}
	if l := next("the session line"); !strings.Contains(l, "xcvr serve: session key=SHA256:") || !strings.Contains(l, "user=tester") ||
		!strings.Contains(l, "mode=explorer") || !strings.Contains(l, `reason="quit"`) {
		t.Errorf("session line: %q", l)
	}

	// A flag that would read the server's files: refused in the session, exit 2.
	c = sshArgs(false, "--config", "/etc/passwd")
	var ref syncWriter
	c.Stdout, c.Stderr = &ref, &ref
	err := waitTimeout(c, 20*time.Second)
	var ee *exec.ExitError
	if !errors.As(err, &ee) || ee.ExitCode() != 2 || !strings.Contains(ref.String(), "--config reads the server's files") {
		t.Errorf("--config over ssh: %v\n%s", err, ref.String())
	}
	if l := next("the refusal line"); !strings.Contains(l, `reason="refused: --config reads the server's files`) || !strings.Contains(l, "exit=2") {
		t.Errorf("refusal line: %q", l)
	}

	_ = srv.Process.Signal(syscall.SIGTERM)
	if err := waitTimeout(srv, 20*time.Second); err != nil {
		t.Errorf("server after SIGTERM: %v", err)
	}
}

func waitTimeout(c *exec.Cmd, d time.Duration) error {
	done := make(chan error, 1)
	go func() {
		if c.Process == nil {
			done <- c.Run()
			return
		}
		done <- c.Wait()
	}()
	select {
	case err := <-done:
		return err
	case <-time.After(d):
		if c.Process != nil {
			c.Process.Kill()
		}
		return errors.New("timed out")
	}
}

// syncWriter collects a process's output for polling while it runs.
type syncWriter struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncWriter) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncWriter) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// peakRSS is the largest resident set (VmHWM, in bytes) of pid and its
// children: xcvr runs as a supervisor and one child.
func peakRSS(t *testing.T, pid int) int64 {
	t.Helper()
	pids := []string{fmt.Sprint(pid)}
	tasks, _ := filepath.Glob(fmt.Sprintf("/proc/%d/task/*/children", pid))
	for _, f := range tasks {
		data, _ := os.ReadFile(f)
		pids = append(pids, strings.Fields(string(data))...)
	}
	var peak int64
	for _, p := range pids {
		data, err := os.ReadFile("/proc/" + p + "/status")
		if err != nil {
			continue
		}
		for _, l := range strings.Split(string(data), "\n") {
			if v, ok := strings.CutPrefix(l, "VmHWM:"); ok {
				var kb int64
				fmt.Sscan(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(v), "kB")), &kb)
				peak = max(peak, kb<<10)
			}
		}
	}
	if peak == 0 {
		t.Skip("no /proc/PID/status VmHWM here")
	}
	return peak
}

// TestServeClampsAHugeWindowOverRealSSH is the report's attack with the real
// client: ssh -tt in a terminal of 10000x10000 (about 20 GB of cells at the
// renderer's cost), then a storm of 200 resizes, against a server under a
// memory limit (GOMEMLIMIT, and RLIMIT_AS of 4 GiB through prlimit where it is
// installed). The session draws 640x200 and says so; the server's resident
// memory stays bounded and the session ends as the user ends it.
func TestServeClampsAHugeWindowOverRealSSH(t *testing.T) {
	scriptBin, err := exec.LookPath("script")
	if err != nil {
		t.Skip("no script(1) (util-linux) to give ssh a terminal of 10000x10000")
	}
	var wrap []string
	if p, err := exec.LookPath("prlimit"); err == nil {
		wrap = []string{p, "--as=" + fmt.Sprint(4<<30), "--"}
	}
	rs := startRealServer(t, wrap)
	a := rs.ssh(true)
	for i, w := range a {
		a[i] = "'" + w + "'"
	}
	// stty sets the size of script's terminal, ssh sends it; the background
	// loop resizes it 200 times under the running session (each a SIGWINCH,
	// each a window-change), then to 100x30.
	sh := "stty rows 10000 cols 10000; " +
		"(sleep 1; i=0; while [ $i -lt 200 ]; do stty rows $((9000+i)) cols $((10000-i)) </dev/tty; i=$((i+1)); done; stty rows 30 cols 100 </dev/tty) & " +
		"exec " + strings.Join(a, " ")
	c := exec.Command(scriptBin, "-qfec", sh, "/dev/null")
	c.Env = []string{"TERM=xterm-256color", "PATH=" + os.Getenv("PATH"), "HOME=" + rs.dir}
	in, _ := c.StdinPipe()
	var out syncWriter
	c.Stdout, c.Stderr = &out, &out
	if err := c.Start(); err != nil {
		t.Fatal(err)
	}
	tail := func() string { s := out.String(); return s[max(0, len(s)-2000):] }
	deadline := time.Now().Add(30 * time.Second)
	for !strings.Contains(out.String(), "your window is 10000x10000; a served session draws at most 640x200") {
		if time.Now().After(deadline) {
			t.Fatalf("no clamped explorer over ssh; output ends:\n%q", tail())
		}
		time.Sleep(50 * time.Millisecond)
	}
	// Let the storm run through the session: until the output stops growing.
	for n := -1; n != len(out.String()) && time.Now().Before(deadline); {
		n = len(out.String())
		time.Sleep(time.Second)
	}
	io.WriteString(in, "q")
	if err := waitTimeout(c, 30*time.Second); err != nil {
		t.Errorf("ssh -tt at 10000x10000 ... q: %v\n%q", err, tail())
	}
	l := rs.nextWith(t, "the session line", "xcvr serve: session ")
	if !strings.Contains(l, `reason="quit"`) || !strings.Contains(l, "exit=0") {
		t.Errorf("session line: %q", l)
	}
	// 640x200 costs about 30 MB; 10000x10000 would not fit in the limit.
	if peak := peakRSS(t, rs.cmd.Process.Pid); peak > 300<<20 {
		t.Errorf("the server's peak RSS is %d MB", peak>>20)
	} else {
		t.Logf("the server's peak RSS: %d MB", peak>>20)
	}
	if rs.cmd.ProcessState != nil {
		t.Error("the server exited")
	}
}

// Served --help describes a session: ssh command lines, not a program called
// "ssh", and only the flags a session accepts.
func TestServedHelpDescribesASession(t *testing.T) {
	flagged := func(out, name string) bool { return strings.Contains(out, "--"+name+" ") }
	_, out, err := parse(t, nil, nil, "--help")
	if err != nil {
		t.Fatal(err)
	}
	for _, bad := range []string{"Usage:\n  ssh [", "ssh [command]", "help for ssh", "Available Commands"} {
		if strings.Contains(out, bad) {
			t.Errorf("--help says %q:\n%s", bad, out)
		}
	}
	for _, want := range []string{"ssh -t HOST [-- FLAGS]", "ssh -t HOST -- tour", "ssh HOST -- --accessible", "--trtllm string", "--accessible"} {
		if !strings.Contains(out, want) {
			t.Errorf("--help lacks %q:\n%s", want, out)
		}
	}
	for _, name := range append(append([]string{"worker", "role"}, neverRemote...), fileFlags...) {
		if flagged(out, name) {
			t.Errorf("--help lists --%s, which a session without --serve-dir refuses", name)
		}
	}
	if _, out, _ := parse(t, nil, nil, "tour", "--help"); !strings.Contains(out, "ssh -t HOST -- tour [FLAGS]") || flagged(out, "tour") {
		t.Errorf("tour --help:\n%s", out)
	}
	// With --serve-dir, the file flags are there, for offered names; the
	// process and directory flags stay hidden.
	gd, err := guard.OpenDir(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer gd.Close()
	_, out, _ = parse(t, &sandbox{dir: gd}, nil, "--help")
	if !strings.Contains(out, "--config string") || !strings.Contains(out, "NAME of a file the server offers: worker YAML") {
		t.Errorf("--help with --serve-dir:\n%s", out)
	}
	for _, name := range neverRemote {
		if flagged(out, name) {
			t.Errorf("--help with --serve-dir lists --%s", name)
		}
	}
	if _, _, err := parse(t, nil, nil, "--bogus"); err == nil || strings.Contains(err.Error(), `"ssh"`) {
		t.Errorf("--bogus: %v", err)
	}
}

// A served session suggests as the local commands do: the nearest command,
// flag, version and backend, with advice that works in a session.
func TestServedSessionsSuggest(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"explian"}, `unknown command "explian" for "xcvr"; did you mean explain? A served session offers the explorer, tour and --accessible (the explain text after each change); xcvr explain runs where xcvr is installed`},
		{[]string{"explain"}, `unknown command "explain" for "xcvr": a served session offers the explorer, tour and --accessible`},
		{[]string{"toru"}, `unknown command "toru" for "xcvr"; did you mean tour?`},
		{[]string{"completion", "bash"}, `unknown command "completion" for "xcvr": a served session offers`},
		{[]string{"help", "explain"}, `help "explain": a served session has no such command; 'ssh HOST -- --help' lists what it offers`},
		{[]string{"help", "toru"}, `help "toru": a served session has no such command; did you mean tour?`},
		{[]string{"--bogus"}, `unknown flag: --bogus; 'ssh HOST -- --help' lists its flags`},
		{[]string{"--trtlm", "1.3.0rc22"}, `unknown flag: --trtlm; did you mean --trtllm?`},
		{[]string{"--accesible"}, `unknown flag: --accesible; did you mean --accessible?`},
		{[]string{"tour", "--accesible"}, `unknown flag: --accesible; did you mean --accessible?`},
		{[]string{"tour", "--bogus"}, `unknown flag: --bogus; 'ssh HOST -- tour --help' lists its flags`},
	} {
		_, out, err := parse(t, nil, nil, tc.args...)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%v: %v (printed %q), want %q", tc.args, err, out, tc.want)
		}
		if err != nil && strings.Contains(err.Error(), "\n") {
			t.Errorf("%v: a message of more than one line: %q", tc.args, err)
		}
	}
	if req, out, err := parse(t, nil, nil, "help", "tour"); err != nil || req.Kind != serve.KindNone || !strings.Contains(out, "ssh -t HOST -- tour [FLAGS]") {
		t.Errorf("help tour: %v %v\n%s", req.Kind, err, out)
	}
	// Refused flags are never suggested.
	if _, _, err := parse(t, nil, nil, "--instal", "auto"); err == nil || strings.Contains(err.Error(), "did you mean --install") {
		t.Errorf("--instal: %v", err)
	}
	// Values: a note on the session's stderr, and the session goes on.
	for _, tc := range []struct {
		args      []string
		want, not string
	}{
		{[]string{"--accessible", "--trtllm", "1.4.0rc5"}, "xcvr: note: 1.4.0rc5 is not a release xcvr lists; did you mean 1.4.0rc4?", "pass --install"},
		{[]string{"--accessible", "--backend", "UCXX"}, "xcvr: note: --backend 'UCXX' is not a backend TensorRT-LLM accepts; did you mean UCX?", ""},
		{[]string{"--backend", "UCXX"}, "did you mean UCX?", ""},
		{[]string{"--runtime", "python"}, "did you mean PYTHON?", ""},
	} {
		req, out, err := parse(t, nil, nil, tc.args...)
		if err != nil || req.Kind == serve.KindNone || !strings.Contains(out, tc.want) || tc.not != "" && strings.Contains(out, tc.not) {
			t.Errorf("%v: %v %v, printed:\n%s", tc.args, req.Kind, err, out)
		}
	}
}

// The linear tour and the suggestions with the system ssh client: with -tt the
// tour advances on \r and ends on q, with \r\n line ends; without a terminal on
// \n and at the end of input; a typo gets the local commands' suggestion.
func TestServedLinearTourAndSuggestionsOverRealSSH(t *testing.T) {
	rs := startRealServer(t, nil)
	cmd := func(tty bool, rest ...string) *exec.Cmd {
		a := rs.ssh(tty, rest...)
		c := exec.Command(a[0], a[1:]...)
		c.Env = []string{"TERM=xterm-256color", "PATH=" + os.Getenv("PATH"), "HOME=" + rs.dir}
		return c
	}
	waitOut := func(out *syncWriter, want string) string {
		t.Helper()
		deadline := time.Now().Add(20 * time.Second)
		for !strings.Contains(out.String(), want) {
			if time.Now().After(deadline) {
				s := out.String()
				t.Fatalf("no %q over ssh; output ends:\n%q", want, s[max(0, len(s)-600):])
			}
			time.Sleep(50 * time.Millisecond)
		}
		return out.String()
	}
	for _, tty := range []bool{true, false} {
		c := cmd(tty, "tour", "--accessible")
		in, _ := c.StdinPipe()
		var out syncWriter
		c.Stdout, c.Stderr = &out, &out
		if err := c.Start(); err != nil {
			t.Fatal(err)
		}
		enter, nl := "\n", "\n"
		if tty {
			enter, nl = "\r", "\r\n"
		}
		s := waitOut(&out, "Press Enter for stop 2 of 9, or type q and Enter to leave: ")
		if strings.Contains(s, "Tour 2/9") || !strings.Contains(s, "This stop is: ssh -p "+rs.port+" HOST -- --accessible --clean-env") {
			t.Errorf("tty %v: the first stop:\n%s", tty, s)
		}
		io.WriteString(in, enter)
		waitOut(&out, "Press Enter for stop 3 of 9")
		if tty {
			io.WriteString(in, "q"+enter)
		} else {
			in.Close()
		}
		if err := waitTimeout(c, 20*time.Second); err != nil {
			t.Errorf("tty %v: %v", tty, err)
		}
		s = out.String()
		tail := "Bye." + nl
		if !tty {
			tail = "Input ended; 7 stops not shown." + nl
		}
		if !strings.HasSuffix(s, tail) || strings.Contains(s, "Tour 3/9") || strings.ContainsRune(s, 0x1b) {
			t.Errorf("tty %v: ends %q", tty, s[max(0, len(s)-200):])
		}
		if tty && strings.Contains(strings.ReplaceAll(s, "\r\n", ""), "\n") {
			t.Errorf("a bare \\n on the terminal")
		}
		if l := rs.nextWith(t, "the session line", "xcvr serve: session "); !strings.Contains(l, "mode=accessible-tour") || !strings.Contains(l, "exit=0") {
			t.Errorf("session line: %q", l)
		}
	}
	// The suggestions; and the linear mode's one-line outcome of a multi-line
	// exception, without a literal \n.
	for _, tc := range []struct {
		args    []string
		code    int
		want    string
		wantOut string
	}{
		{[]string{"explian"}, 2, "xcvr: unknown command \"explian\" for \"xcvr\"; did you mean explain?", ""},
		{[]string{"--bogus"}, 2, "xcvr: unknown flag: --bogus; 'ssh HOST -- --help' lists its flags\n", ""},
		{[]string{"--accessible", "--trtllm", "1.4.0rc5"}, 0, "xcvr: note: 1.4.0rc5 is not a release xcvr lists; did you mean 1.4.0rc4?", ""},
		{[]string{"--accessible", "--backend", "UCXX"}, 0, "did you mean UCX?",
			"\nOutcome: start-up fails: pydantic_core._pydantic_core.ValidationError: 1 validation error for TorchLlmArgs (and 2 more lines, in the explain text below); raised at step 2"},
	} {
		c := cmd(false, tc.args...)
		var errb, outb syncWriter
		c.Stdout, c.Stderr = &outb, &errb
		err := waitTimeout(c, 20*time.Second)
		code := 0
		var ee *exec.ExitError
		if errors.As(err, &ee) {
			code = ee.ExitCode()
		} else if err != nil {
			t.Fatal(err)
		}
		if code != tc.code || !strings.Contains(errb.String(), tc.want) || strings.Contains(errb.String(), `\n`) {
			t.Errorf("%v: exit %d, stderr %q", tc.args, code, errb.String())
		}
		if !strings.Contains(outb.String(), tc.wantOut) || strings.Contains(outb.String(), `\n`) {
			t.Errorf("%v: stdout lacks %q or has a literal \\n:\n%s", tc.args, tc.wantOut, outb.String())
		}
	}
}

// Every flag served --help lists is one a session accepts: each is given, with
// its default or a valid value, and parsed without a refusal.
func TestServedHelpListsOnlyAcceptedFlags(t *testing.T) {
	values := map[string]string{"env": "TRTLLM_USE_UCX_KVCACHE=1", "timeout-ms": "100"}
	var req serve.Request
	root := newSessionRoot(&appEnv{stdin: strings.NewReader(""), stdout: io.Discard, stderr: io.Discard}, &req, nil)
	for _, cmd := range []string{"", "tour"} {
		c, pre := root, []string{}
		if cmd != "" {
			var err error
			c, _, err = root.Find([]string{cmd})
			if err != nil || c.Name() != cmd {
				t.Fatalf("the session has no %s: %v", cmd, err)
			}
			pre = []string{cmd}
		}
		_, help, err := parse(t, nil, nil, append(pre, "--help")...)
		if err != nil {
			t.Fatal(err)
		}
		_, flags, ok := strings.Cut(help, "\nFlags:\n")
		if !ok {
			t.Fatalf("no Flags: in %s --help:\n%s", cmd, help)
		}
		n := 0
		for _, line := range strings.Split(flags, "\n") {
			f := strings.Fields(line)
			for len(f) > 0 && !strings.HasPrefix(f[0], "--") {
				f = f[1:] // -h,
			}
			if len(f) == 0 {
				continue
			}
			name := strings.TrimPrefix(f[0], "--")
			fl := c.Flags().Lookup(name)
			if fl == nil {
				fl = c.PersistentFlags().Lookup(name)
			}
			if fl == nil {
				fl = c.InheritedFlags().Lookup(name)
			}
			if fl == nil {
				t.Errorf("%s --help lists --%s, which the session's command does not have", cmd, name)
				continue
			}
			n++
			args := append(append([]string{}, pre...), "--"+name)
			if fl.Value.Type() != "bool" {
				v, ok := values[name]
				if !ok {
					v = fl.DefValue
				}
				args = append(args, v)
			}
			if name != "accessible" && name != "help" {
				args = append(args, "--accessible") // no terminal needed to parse
			}
			if _, out, err := parse(t, nil, nil, args...); err != nil {
				t.Errorf("%s --help lists --%s, but %v is refused: %v\n%s", cmd, name, args, err, out)
			}
		}
		if min := map[string]int{"": 10, "tour": 3}[cmd]; n < min {
			t.Errorf("only %d flags found in %s --help:\n%s", n, cmd, help)
		}
	}
}

// Served sessions in a real terminal (tmux, 80x24) through the system ssh
// client: the linear tour advances on Enter and ends on ctrl+d, the linear
// mode quits on ctrl+c, and the full-screen tour scrolls its story and leaves
// the terminal as it found it.
func TestServedSessionsInTmuxAt80x24(t *testing.T) {
	if _, err := exec.LookPath("tmux"); err != nil {
		t.Skip("tmux is not installed")
	}
	rs := startRealServer(t, nil)
	sock := filepath.Join(rs.dir, "tmux")
	env := []string{"PATH=" + os.Getenv("PATH"), "HOME=" + rs.dir, "TERM=xterm-256color"}
	tmux := func(args ...string) string {
		c := exec.Command("tmux", append([]string{"-S", sock, "-f", "/dev/null"}, args...)...)
		c.Env = env
		out, _ := c.CombinedOutput()
		return string(out)
	}
	t.Cleanup(func() { tmux("kill-server") })
	tmux("new-session", "-d", "-s", "keep", "sleep", "600")
	quote := func(a []string) string {
		for i, w := range a {
			a[i] = "'" + w + "'"
		}
		return strings.Join(a, " ")
	}
	screen := func(name string) string { return tmux("capture-pane", "-p", "-t", name) }
	waitScreen := func(name, want string) string {
		t.Helper()
		deadline := time.Now().Add(20 * time.Second)
		for {
			s := screen(name)
			if strings.Contains(s, want) {
				return s
			}
			if time.Now().After(deadline) {
				t.Fatalf("%s: no %q on the screen:\n%s", name, want, s)
			}
			time.Sleep(100 * time.Millisecond)
		}
	}
	start := func(name string, rest ...string) {
		a := rs.ssh(true, rest...)
		a[len(a)-len(rest)-3] = "-t" // a real terminal: -t, not -tt
		tmux("new-session", "-d", "-s", name, "-x", "80", "-y", "24", "sh", "-c", quote(a)+"; echo EXIT=$?; sleep 600")
	}
	restored := func(name string) {
		t.Helper()
		s := tmux("display-message", "-p", "-t", name, "#{alternate_on} #{cursor_flag} #{mouse_any_flag}")
		if got := strings.TrimSpace(s); got != "0 1 0" {
			t.Errorf("%s after exit: alternate_on cursor_flag mouse_any_flag = %q, want \"0 1 0\"", name, got)
		}
	}

	start("lt", "tour", "--accessible")
	waitScreen("lt", "Press Enter for stop 2 of 9, or type q and Enter to leave:")
	tmux("send-keys", "-t", "lt", "Enter")
	waitScreen("lt", "Press Enter for stop 3 of 9")
	tmux("send-keys", "-t", "lt", "C-d")
	s := waitScreen("lt", "EXIT=0")
	if !strings.Contains(s, "Input ended; 7 stops not shown.") {
		t.Errorf("ctrl+d did not end the linear tour:\n%s", s)
	}
	restored("lt")

	start("acc", "--accessible")
	waitScreen("acc", "TensorRT-LLM version [")
	tmux("send-keys", "-t", "acc", "1.3.0rc2")
	waitScreen("acc", "]: 1.3.0rc2")
	tmux("send-keys", "-t", "acc", "C-c")
	if s := waitScreen("acc", "EXIT=0"); !strings.Contains(s, "1.3.0rc2^C\nBye.") {
		t.Errorf("ctrl+c did not quit the linear mode:\n%s", s)
	}

	start("tour", "tour")
	waitScreen("tour", "n/p stop · [ ] story")
	for range 5 {
		tmux("send-keys", "-t", "tour", "n")
	}
	waitScreen("tour", "Tour 6/9")
	tmux("send-keys", "-t", "tour", "]")
	tmux("send-keys", "-t", "tour", "]")
	waitScreen("tour", "Try: set timeout ms back to a number")
	tmux("send-keys", "-t", "tour", "q")
	waitScreen("tour", "EXIT=0")
	restored("tour")
}

package serve

import (
	"bytes"
	"context"
	"crypto/ed25519"
	"crypto/rand"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"charm.land/wish/v2/testsession"
	gossh "golang.org/x/crypto/ssh"

	"xcvr/internal/inputs"
	"xcvr/internal/tour"
	"xcvr/ui"
)

// syncBuf is a bytes.Buffer safe for the session goroutines and the test.
type syncBuf struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuf) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuf) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// waitFor polls f's output until it contains want.
func waitFor(t *testing.T, what string, f func() string, want string) string {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		s := f()
		if strings.Contains(s, want) {
			return s
		}
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s (%q); got:\n%s", what, want, s)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// fixture is a server with one authorized client key.
type fixture struct {
	srv    *Server
	log    *syncBuf
	addr   string
	client gossh.Signer
	dir    string
}

// stubParse is a stand-in for the CLI's parser: enough words to pick each kind.
func stubParse(c Client) (Request, error) {
	req := Request{Kind: KindExplorer, Options: ui.Options{Spec: inputs.Defaults()}}
	for _, a := range c.Args {
		switch a {
		case "--accessible":
			if req.Kind == KindTour {
				req.Kind = KindAccessibleTour
				continue
			}
			req.Kind = KindAccessible
		case "--config":
			return Request{}, &RefusedError{Msg: "--config reads the server's files; a served session cannot use it", Code: 2}
		case "--help":
			io.WriteString(c.Stdout, "usage: ...\n")
			return Request{Kind: KindNone}, nil
		case "tour":
			stops, err := tour.Builtin()
			if err != nil {
				return Request{}, err
			}
			req.Tour = stops
			if req.Kind == KindAccessible {
				req.Kind = KindAccessibleTour
				continue
			}
			req.Kind = KindTour
		case "--backend=UCX":
			req.Options.Spec.Backend.Raw = "UCX"
		}
	}
	return req, nil
}

func newFixture(t *testing.T, mod func(*Config)) *fixture {
	t.Helper()
	dir := t.TempDir()
	_, priv, err := ed25519.GenerateKey(rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	signer, err := gossh.NewSignerFromKey(priv)
	if err != nil {
		t.Fatal(err)
	}
	ak := filepath.Join(dir, "authorized_keys")
	if err := os.WriteFile(ak, append([]byte("# the team\n"), gossh.MarshalAuthorizedKey(signer.PublicKey())...), 0o600); err != nil {
		t.Fatal(err)
	}
	log := &syncBuf{}
	cfg := Config{AuthorizedKeys: ak, HostKey: filepath.Join(dir, "keys", "host"), Log: log, Parse: stubParse}
	if mod != nil {
		mod(&cfg)
	}
	srv, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return &fixture{srv: srv, log: log, addr: testsession.Listen(t, srv.ssh), client: signer, dir: dir}
}

func (f *fixture) config() *gossh.ClientConfig {
	return &gossh.ClientConfig{User: "alice", Auth: []gossh.AuthMethod{gossh.PublicKeys(f.client)}}
}

// open starts a session; with a PTY unless cols is 0.
func (f *fixture) open(t *testing.T, cols, rows int, env map[string]string) (*gossh.Session, io.WriteCloser, *syncBuf, *syncBuf) {
	t.Helper()
	sess, err := testsession.NewClientSession(t, f.addr, f.config())
	if err != nil {
		t.Fatal(err)
	}
	for k, v := range env {
		if err := sess.Setenv(k, v); err != nil {
			t.Fatalf("setenv %s: %v", k, err)
		}
	}
	if cols > 0 {
		if err := sess.RequestPty("xterm-256color", rows, cols, gossh.TerminalModes{}); err != nil {
			t.Fatal(err)
		}
	}
	in, err := sess.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	out, errb := &syncBuf{}, &syncBuf{}
	sess.Stdout, sess.Stderr = out, errb
	return sess, in, out, errb
}

func exitStatus(t *testing.T, sess *gossh.Session) int {
	t.Helper()
	done := make(chan error, 1)
	go func() { done <- sess.Wait() }()
	select {
	case err := <-done:
		var ee *gossh.ExitError
		if errors.As(err, &ee) {
			return ee.ExitStatus()
		}
		if err != nil {
			t.Fatalf("session: %v", err)
		}
		return 0
	case <-time.After(10 * time.Second):
		t.Fatal("session did not end")
		return -1
	}
}

func TestExplorerSessionPresetsAndQuits(t *testing.T) {
	f := newFixture(t, nil)
	sess, in, out, _ := f.open(t, 100, 30, nil)
	if err := sess.Start("--backend=UCX"); err != nil {
		t.Fatal(err)
	}
	waitFor(t, "the preset outcome", out.String, "Start-up fails")
	io.WriteString(in, "q")
	if code := exitStatus(t, sess); code != 0 {
		t.Errorf("exit status after q = %d, want 0", code)
	}
	line := waitFor(t, "the session log line", f.log.String, "reason=")
	if n := strings.Count(line, "xcvr serve: session "); n != 1 {
		t.Errorf("want one session line, got %d:\n%s", n, line)
	}
	fp := gossh.FingerprintSHA256(f.client.PublicKey())
	for _, want := range []string{"key=" + fp, "user=alice", "remote=127.0.0.1:", "mode=explorer", "exit=0", `reason="quit"`, "duration="} {
		if !strings.Contains(line, want) {
			t.Errorf("log line lacks %q:\n%s", want, line)
		}
	}
}

func TestRefusedArgumentsEndTheSessionWithAMessage(t *testing.T) {
	f := newFixture(t, nil)
	sess, _, out, errb := f.open(t, 80, 24, nil)
	if err := sess.Start("--config /etc/passwd"); err != nil {
		t.Fatal(err)
	}
	if code := exitStatus(t, sess); code != 2 {
		t.Errorf("exit status = %d, want 2", code)
	}
	if !strings.Contains(errb.String()+out.String(), "--config reads the server's files") {
		t.Errorf("the session did not say why:\nstdout %q\nstderr %q", out.String(), errb.String())
	}
	waitFor(t, "the log line", f.log.String, `reason="refused: --config reads the server's files`)
}

func TestOnlyAuthorizedPublicKeysGetIn(t *testing.T) {
	f := newFixture(t, nil)
	_, other, _ := ed25519.GenerateKey(rand.Reader)
	otherSigner, _ := gossh.NewSignerFromKey(other)
	cases := map[string][]gossh.AuthMethod{
		"unknown key":          {gossh.PublicKeys(otherSigner)},
		"password":             {gossh.Password("anything")},
		"keyboard-interactive": {gossh.KeyboardInteractive(func(string, string, []string, []bool) ([]string, error) { return nil, nil })},
		"none":                 nil,
	}
	for name, auth := range cases {
		t.Run(name, func(t *testing.T) {
			_, err := testsession.NewClientSession(t, f.addr, &gossh.ClientConfig{User: "mallory", Auth: auth})
			if err == nil {
				t.Fatal("connected; want the handshake refused")
			}
			if !strings.Contains(err.Error(), "unable to authenticate") {
				t.Errorf("err = %v, want an authentication failure", err)
			}
		})
	}
}

func TestNewRefusesToStartWithoutKeys(t *testing.T) {
	dir := t.TempDir()
	empty := filepath.Join(dir, "empty")
	os.WriteFile(empty, []byte("# nobody yet\n"), 0o600)
	bad := filepath.Join(dir, "bad")
	os.WriteFile(bad, []byte("ssh-ed25519 AAAA\n"), 0o600)
	// Every login reads the file with a 4 MiB bound (authorized): a larger
	// file of good keys would start a server no one can log in to.
	pub, _, _, _, err := gossh.ParseAuthorizedKey([]byte("ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIGLbbOOwQ3Mr1QbzLCwo1aSqiHtcbYtu6yrYrW8aFnMM qa\n"))
	if err != nil {
		t.Fatal(err)
	}
	line := gossh.MarshalAuthorizedKey(pub)
	huge := filepath.Join(dir, "huge")
	os.WriteFile(huge, bytes.Repeat(line, maxAuthKeysBytes/len(line)+1), 0o600)
	for name, tc := range map[string]struct{ keys, want string }{
		"missing flag": {"", "--authorized-keys FILE is required"},
		"no such file": {filepath.Join(dir, "nope"), "--authorized-keys " + filepath.Join(dir, "nope") + ": no such file or directory"},
		"no keys":      {empty, "--authorized-keys " + empty + ": no public keys"},
		"not a key":    {bad, "--authorized-keys " + bad + ":1: not a public key"},
		"over 4 MiB":   {huge, "--authorized-keys " + huge + ": refused: 4.00 MiB is over the 4 MiB limit"},
		"a directory":  {dir, "--authorized-keys " + dir + ": refused: a directory"},
		// Read with os.ReadFile, /dev/zero filled memory until the kernel
		// stopped it, and a FIFO held the start-up until a writer came.
		"a device": {os.DevNull, "--authorized-keys " + os.DevNull + ": refused: a device"},
	} {
		t.Run(name, func(t *testing.T) {
			_, err := New(Config{AuthorizedKeys: tc.keys, HostKey: filepath.Join(dir, "h"), Parse: stubParse})
			var ue *UsageError
			if !errors.As(err, &ue) || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("err = %v, want a UsageError containing %q", err, tc.want)
			}
		})
	}
}

func TestHostKeyIsCreatedPrivate(t *testing.T) {
	f := newFixture(t, nil)
	// One session first: testsession's server goroutine fails the test if the
	// cleanup closes its listener before Serve has taken it.
	sess, _, _, _ := f.open(t, 80, 24, nil)
	if err := sess.Start("--help"); err != nil {
		t.Fatal(err)
	}
	exitStatus(t, sess)
	st, err := os.Stat(filepath.Join(f.dir, "keys", "host"))
	if err != nil {
		t.Fatal(err)
	}
	if m := st.Mode().Perm(); m != 0o600 {
		t.Errorf("host key mode = %04o, want 0600", m)
	}
	// A second start reuses it (same fingerprint), and one readable by others
	// is refused.
	fp1 := f.srv.hostKey
	s2, err := New(f.srv.cfg)
	if err != nil || s2.hostKey != fp1 {
		t.Fatalf("restart: err %v, fingerprint %s want %s", err, s2.hostKey, fp1)
	}
	os.Chmod(filepath.Join(f.dir, "keys", "host"), 0o644)
	if _, err := New(f.srv.cfg); err == nil || !strings.Contains(err.Error(), "readable by others") {
		t.Errorf("a 0644 host key: err = %v", err)
	}
}

// panicky is a model that crashes on the key x.
type panicky struct{ ui.Model }

func (p panicky) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	if k, ok := msg.(tea.KeyPressMsg); ok && k.String() == "x" {
		panic("boom in a session")
	}
	m, cmd := p.Model.Update(msg)
	return panicky{m.(ui.Model)}, cmd
}

func TestAPanicEndsOnlyThatSession(t *testing.T) {
	f := newFixture(t, func(c *Config) {
		c.model = func(_ Request, o ui.Options) tea.Model { return panicky{ui.New(o)} }
	})
	// A bystander session stays up through the crash.
	other, otherIn, otherOut, _ := f.open(t, 100, 30, nil)
	if err := other.Shell(); err != nil {
		t.Fatal(err)
	}
	waitFor(t, "the bystander's explorer", otherOut.String, "Chain")

	sess, in, out, errb := f.open(t, 100, 30, nil)
	if err := sess.Shell(); err != nil {
		t.Fatal(err)
	}
	waitFor(t, "the explorer", out.String, "Chain")
	io.WriteString(in, "x")
	if code := exitStatus(t, sess); code != 3 {
		t.Errorf("exit status after a panic = %d, want 3", code)
	}
	if !strings.Contains(errb.String(), "crashed; the session ends") {
		t.Errorf("the session was not told: %q", errb.String())
	}
	waitFor(t, "the log line", f.log.String, `reason="panic: boom in a session"`)

	io.WriteString(otherIn, "q")
	if code := exitStatus(t, other); code != 0 {
		t.Errorf("the bystander's exit status = %d, want 0", code)
	}
}

func TestMaxSessions(t *testing.T) {
	f := newFixture(t, func(c *Config) { c.MaxSessions = 1 })
	first, in, out, _ := f.open(t, 100, 30, nil)
	if err := first.Shell(); err != nil {
		t.Fatal(err)
	}
	waitFor(t, "the first explorer", out.String, "Chain")
	second, _, _, errb := f.open(t, 100, 30, nil)
	if err := second.Shell(); err != nil {
		t.Fatal(err)
	}
	if code := exitStatus(t, second); code != 1 {
		t.Errorf("second session's exit = %d, want 1 (busy)", code)
	}
	if !strings.Contains(errb.String(), "busy") {
		t.Errorf("second session was not told: %q", errb.String())
	}
	io.WriteString(in, "q")
	exitStatus(t, first)
}

func TestExplorerWithoutPTYIsRefusedButAccessibleWorks(t *testing.T) {
	f := newFixture(t, nil)
	sess, _, _, errb := f.open(t, 0, 0, nil)
	if err := sess.Start(""); err != nil {
		t.Fatal(err)
	}
	if code := exitStatus(t, sess); code != 2 {
		t.Errorf("explorer without a PTY: exit %d, want 2", code)
	}
	if !strings.Contains(errb.String(), "needs a terminal: connect with ssh -t") {
		t.Errorf("stderr = %q", errb.String())
	}

	sess, in, out, _ := f.open(t, 0, 0, nil)
	if err := sess.Start("--accessible"); err != nil {
		t.Fatal(err)
	}
	waitFor(t, "the first prompt", out.String, "TensorRT-LLM version [")
	io.WriteString(in, "\n\nUCX\n")
	waitFor(t, "the new outcome", out.String, "Outcome: start-up fails: ValueError: Python transceiver currently only supports NIXL backend, got UCX.")
	io.WriteString(in, "q\n")
	if code := exitStatus(t, sess); code != 0 {
		t.Errorf("accessible exit = %d", code)
	}
	if s := out.String(); strings.Contains(s, "\x1b") || strings.Contains(s, "\r") {
		t.Errorf("linear mode without a terminal must be plain lines:\n%q", s)
	}
}

// A client whose TERM is dumb (ssh -t from Emacs' M-x shell) gets the same
// advice as one without a terminal; the linear mode still works. The explorer
// used to draw its frames, cursor movement and all, into it.
func TestDumbTerminalIsRefusedButAccessibleWorks(t *testing.T) {
	f := newFixture(t, nil)
	open := func() (*gossh.Session, io.WriteCloser, *syncBuf, *syncBuf) {
		sess, err := testsession.NewClientSession(t, f.addr, f.config())
		if err != nil {
			t.Fatal(err)
		}
		if err := sess.RequestPty("dumb", 24, 80, gossh.TerminalModes{}); err != nil {
			t.Fatal(err)
		}
		in, _ := sess.StdinPipe()
		out, errb := &syncBuf{}, &syncBuf{}
		sess.Stdout, sess.Stderr = out, errb
		return sess, in, out, errb
	}
	for _, args := range []string{"", "tour"} {
		sess, _, out, errb := open()
		if err := sess.Start(args); err != nil {
			t.Fatal(err)
		}
		if code := exitStatus(t, sess); code != 2 {
			t.Errorf("%q on TERM=dumb: exit %d, want 2", args, code)
		}
		if !strings.Contains(errb.String(), "needs a terminal that can draw it, and TERM is dumb") || strings.Contains(out.String(), "\x1b[?1049h") {
			t.Errorf("%q on TERM=dumb: stderr %q, stdout %q", args, errb.String(), out.String()[:min(len(out.String()), 200)])
		}
	}
	sess, in, out, _ := open()
	if err := sess.Start("--accessible"); err != nil {
		t.Fatal(err)
	}
	waitFor(t, "the first prompt", out.String, "TensorRT-LLM version [")
	io.WriteString(in, "q\r")
	if code := exitStatus(t, sess); code != 0 {
		t.Errorf("accessible on TERM=dumb: exit %d", code)
	}
}

func TestHelpEndsCleanly(t *testing.T) {
	f := newFixture(t, nil)
	sess, _, out, _ := f.open(t, 80, 24, nil)
	if err := sess.Start("--help"); err != nil {
		t.Fatal(err)
	}
	if code := exitStatus(t, sess); code != 0 {
		t.Errorf("exit = %d", code)
	}
	if !strings.Contains(out.String(), "usage: ...\r\n") {
		t.Errorf("stdout = %q", out.String())
	}
}

// sizes records the window sizes a session's model sees.
type sizes struct {
	ui.Model
	ch chan<- tea.WindowSizeMsg
}

func (s sizes) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	if w, ok := msg.(tea.WindowSizeMsg); ok {
		select {
		case s.ch <- w:
		default:
		}
	}
	m, cmd := s.Model.Update(msg)
	return sizes{m.(ui.Model), s.ch}, cmd
}

func TestResizeFollowsTheClient(t *testing.T) {
	ch := make(chan tea.WindowSizeMsg, 16)
	f := newFixture(t, func(c *Config) {
		c.model = func(_ Request, o ui.Options) tea.Model { return sizes{ui.New(o), ch} }
	})
	sess, in, out, _ := f.open(t, 100, 30, nil)
	if err := sess.Shell(); err != nil {
		t.Fatal(err)
	}
	waitFor(t, "the explorer", out.String, "Chain")
	if err := sess.WindowChange(40, 132); err != nil {
		t.Fatal(err)
	}
	deadline := time.After(10 * time.Second)
	for {
		select {
		case w := <-ch:
			if w.Width == 132 && w.Height == 40 {
				io.WriteString(in, "q")
				exitStatus(t, sess)
				return
			}
		case <-deadline:
			t.Fatal("the model never saw 132x40")
		}
	}
}

func TestColourFollowsTheClientEnvironment(t *testing.T) {
	f := newFixture(t, nil)
	run := func(env map[string]string) string {
		sess, in, out, _ := f.open(t, 100, 30, env)
		if err := sess.Shell(); err != nil {
			t.Fatal(err)
		}
		s := waitFor(t, "the explorer", out.String, "Chain")
		time.Sleep(200 * time.Millisecond) // the rest of the first frame
		io.WriteString(in, "q")
		exitStatus(t, sess)
		return s + out.String()
	}
	if s := run(map[string]string{"COLORTERM": "truecolor"}); !strings.Contains(s, "38;2;") {
		t.Errorf("COLORTERM=truecolor: no 24-bit colour in the frame")
	}
	if s := run(map[string]string{"NO_COLOR": "yes"}); strings.Contains(s, "38;2;") || strings.Contains(s, "38;5;") {
		t.Errorf("NO_COLOR=yes: the frame still sets colours")
	}
}

func TestAccessibleOnATerminalEchoesAndEditsTheLine(t *testing.T) {
	f := newFixture(t, nil)
	sess, in, out, _ := f.open(t, 90, 30, nil)
	if err := sess.Start("--accessible"); err != nil {
		t.Fatal(err)
	}
	waitFor(t, "the first prompt", out.String, "TensorRT-LLM version [")
	// A typo fixed with backspace, and an arrow key that must not land in the
	// answer; Enter arrives as \r from a raw terminal.
	io.WriteString(in, "1.3.0rc2X\x7f2\x1b[D\r")
	s := waitFor(t, "the new outcome", out.String, "TensorRT-LLM 1.3.0rc22 (era 1)")
	if !strings.Contains(s, "1.3.0rc2X\b \b2\r\n") {
		t.Errorf("typing was not echoed with the erase:\n%q", s)
	}
	io.WriteString(in, "q\r")
	if code := exitStatus(t, sess); code != 0 {
		t.Errorf("exit = %d", code)
	}
	if strings.Contains(out.String(), "\x1b[D") {
		t.Error("the arrow key's sequence was echoed")
	}
}

// stops reports the tour's current stop after every update.
type stops struct {
	tour.Model
	ch chan<- int
}

func (s stops) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	m, cmd := s.Model.Update(msg)
	select {
	case s.ch <- m.(tour.Model).At():
	default: // the test stopped listening
	}
	return stops{m.(tour.Model), s.ch}, cmd
}

func TestTourInAServedSession(t *testing.T) {
	ch := make(chan int, 256)
	f := newFixture(t, func(c *Config) {
		c.model = func(r Request, o ui.Options) tea.Model { return stops{tour.New(r.Tour, o), ch} }
	})
	sess, in, out, _ := f.open(t, 120, 40, nil)
	if err := sess.Start("tour"); err != nil {
		t.Fatal(err)
	}
	waitFor(t, "the first stop", out.String, "Tour 1/9")
	io.WriteString(in, "n")
	deadline := time.After(10 * time.Second)
	for at := 0; at != 1; {
		select {
		case at = <-ch:
		case <-deadline:
			t.Fatal("n did not reach the second stop")
		}
	}
	io.WriteString(in, "q")
	if code := exitStatus(t, sess); code != 0 {
		t.Errorf("exit = %d", code)
	}
	waitFor(t, "the log line", f.log.String, "mode=tour")
}

// tour --accessible in a session is step-wise: a stop, then a prompt that
// waits for Enter (\r from a raw terminal, \n from a client without one),
// with \r\n line ends on a terminal; q leaves, the end of input ends it.
func TestAccessibleTourInAServedSessionIsStepwise(t *testing.T) {
	f := newFixture(t, nil)
	sess, in, out, _ := f.open(t, 90, 30, nil)
	if err := sess.Start("tour --accessible"); err != nil {
		t.Fatal(err)
	}
	s := waitFor(t, "the first prompt", out.String, "Press Enter for stop 2 of 9, or type q and Enter to leave: ")
	if strings.Contains(s, "Tour 2/9") {
		t.Fatal("the second stop came before Enter")
	}
	if !strings.Contains(s, "This stop is: ssh -p ") || !strings.Contains(s, " HOST -- --accessible --clean-env --trtllm ") {
		t.Errorf("the stop's command is not the session's own:\n%s", s)
	}
	io.WriteString(in, "\r")
	waitFor(t, "the second stop", out.String, "Press Enter for stop 3 of 9")
	io.WriteString(in, "q\r")
	if code := exitStatus(t, sess); code != 0 {
		t.Errorf("exit = %d", code)
	}
	s = out.String()
	if !strings.HasSuffix(s, "q\r\nBye.\r\n") || strings.Contains(strings.ReplaceAll(s, "\r\n", ""), "\n") || strings.ContainsRune(s, 0x1b) {
		t.Errorf("on a terminal: %q", s[max(0, len(s)-200):])
	}
	waitFor(t, "the log line", f.log.String, `mode=accessible-tour duration=`)

	// Without a terminal: \n-ended lines, plain \n, and the end of input.
	sess, in, out, _ = f.open(t, 0, 0, nil)
	if err := sess.Start("tour --accessible"); err != nil {
		t.Fatal(err)
	}
	waitFor(t, "the first prompt", out.String, "Press Enter for stop 2 of 9")
	io.WriteString(in, "\n")
	waitFor(t, "the second stop", out.String, "Press Enter for stop 3 of 9")
	in.Close()
	if code := exitStatus(t, sess); code != 0 {
		t.Errorf("exit = %d", code)
	}
	if s := out.String(); !strings.HasSuffix(s, "Input ended; 7 stops not shown.\n") || strings.Contains(s, "\r") {
		t.Errorf("without a terminal: %q", s[max(0, len(s)-200):])
	}
}

func TestParsePanicEndsTheSessionNotTheServer(t *testing.T) {
	calls := 0
	f := newFixture(t, func(c *Config) {
		c.Parse = func(cl Client) (Request, error) {
			calls++
			if calls == 1 {
				panic("parser bug")
			}
			return stubParse(cl)
		}
	})
	sess, _, _, _ := f.open(t, 80, 24, nil)
	if err := sess.Start("--anything"); err != nil {
		t.Fatal(err)
	}
	if code := exitStatus(t, sess); code != 3 {
		t.Errorf("exit after a panic in the handler = %d, want 3", code)
	}
	waitFor(t, "the log line", f.log.String, `reason="panic: parser bug"`)
	waitFor(t, "the recover middleware's stack", f.log.String, "panic: parser bug\n")
	sess, _, out, _ := f.open(t, 80, 24, nil)
	if err := sess.Start("--help"); err != nil {
		t.Fatal(err)
	}
	if code := exitStatus(t, sess); code != 0 || !strings.Contains(out.String(), "usage") {
		t.Errorf("the next session: exit %d, %q", code, out.String())
	}
}

// restored reports whether out ends with the client's terminal given back:
// alternate screen left, mouse reporting off, cursor shown.
func restored(out string) bool {
	i := strings.LastIndex(out, "\x1b[?1049h")
	rest := out[i+1:]
	for _, seq := range []string{"\x1b[?1049l", "\x1b[?1002l", "\x1b[?1003l", "\x1b[?1006l", "\x1b[?25h", "\x1b[?2004l"} {
		if !strings.Contains(rest, seq) {
			return false
		}
	}
	return i >= 0
}

func TestMaxTimeoutEndsTheSession(t *testing.T) {
	f := newFixture(t, func(c *Config) { c.MaxTimeout = 500 * time.Millisecond })
	sess, _, out, errb := f.open(t, 100, 30, nil)
	if err := sess.Shell(); err != nil {
		t.Fatal(err)
	}
	waitFor(t, "the explorer", out.String, "Chain")
	done := make(chan error, 1)
	go func() { done <- sess.Wait() }()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		t.Fatal("--max-timeout did not close the session")
	}
	waitFor(t, "the log line", f.log.String, `reason="max timeout"`)
	if !restored(out.String()) {
		t.Errorf("the client's terminal was not restored:\n%q", out.String()[max(0, len(out.String())-300):])
	}
	if !strings.Contains(errb.String(), "xcvr serve: closed by the server: the connection reached --max-timeout (500ms)") {
		t.Errorf("the session did not say why: %q", errb.String())
	}
}

func TestIdleTimeoutClosesAnIdleSession(t *testing.T) {
	f := newFixture(t, func(c *Config) { c.IdleTimeout = 700 * time.Millisecond })
	sess, _, out, errb := f.open(t, 100, 30, nil)
	if err := sess.Shell(); err != nil {
		t.Fatal(err)
	}
	waitFor(t, "the explorer", out.String, "Chain")
	done := make(chan error, 1)
	go func() { done <- sess.Wait() }()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		t.Fatal("--idle-timeout did not close an idle session")
	}
	waitFor(t, "the log line", f.log.String, `reason="idle timeout"`)
	if !restored(out.String()) {
		t.Errorf("the client's terminal was not restored:\n%q", out.String()[max(0, len(out.String())-300):])
	}
	if !strings.Contains(errb.String(), "xcvr serve: closed by the server: no input for 700ms (--idle-timeout)") {
		t.Errorf("the session did not say why: %q", errb.String())
	}
}

// The linear modes, with a terminal or without, waiting on a question: an
// idle or stopping server ends them as it ends the explorer, with the reason
// and an exit status. Their read of the client was not interrupted, so the
// connection was cut after closeGrace instead: the client got "Connection
// closed by remote host" (ssh exit 255), no reason, no exit status.
func TestServerClosesAWaitingLinearSession(t *testing.T) {
	f := newFixture(t, func(c *Config) { c.IdleTimeout = 700 * time.Millisecond })
	for _, tc := range []struct {
		name string
		cols int
		args string
	}{
		{"accessible", 0, "--accessible"},
		{"accessible on a terminal", 80, "--accessible"},
		{"tour --accessible", 0, "tour --accessible"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			sess, _, out, _ := f.open(t, tc.cols, 24, nil)
			if err := sess.Start(tc.args); err != nil {
				t.Fatal(err)
			}
			waitFor(t, "the first question", out.String, ": ")
			if code := exitStatus(t, sess); code != 0 {
				t.Errorf("exit status = %d, want 0", code)
			}
			if !strings.Contains(out.String(), "xcvr serve: closed by the server: no input for 700ms (--idle-timeout)") {
				t.Errorf("the session did not say why; its output ends %q", out.String()[max(0, len(out.String())-200):])
			}
		})
	}
}

// --idle-timeout counts what the user sends, not the connection's bytes: a
// client's keepalives (ssh -o ServerAliveInterval, a global request, or a
// channel request) kept an idle session open for good; keys and window changes
// still keep it.
func TestIdleTimeoutIgnoresKeepalives(t *testing.T) {
	f := newFixture(t, func(c *Config) { c.IdleTimeout = 700 * time.Millisecond })
	client, err := gossh.Dial("tcp", f.addr, f.config2())
	if err != nil {
		t.Fatal(err)
	}
	defer client.Close()
	sess, err := client.NewSession()
	if err != nil {
		t.Fatal(err)
	}
	if err := sess.RequestPty("xterm-256color", 30, 100, gossh.TerminalModes{}); err != nil {
		t.Fatal(err)
	}
	in, _ := sess.StdinPipe()
	out := &syncBuf{}
	sess.Stdout, sess.Stderr = out, &syncBuf{}
	if err := sess.Shell(); err != nil {
		t.Fatal(err)
	}
	waitFor(t, "the explorer", out.String, "Chain")
	done := make(chan error, 1)
	go func() { done <- sess.Wait() }()
	// For 1.2 s (past the 700 ms), the user resizes and types; then only
	// keepalives come.
	for i := range 6 {
		select {
		case <-done:
			t.Fatal("the session was closed while the user was typing and resizing")
		case <-time.After(200 * time.Millisecond):
		}
		if i%2 == 0 {
			sess.WindowChange(30, 100+i)
		} else {
			in.Write([]byte("j"))
		}
	}
	stop := make(chan struct{})
	defer close(stop)
	go func() {
		for {
			select {
			case <-stop:
				return
			case <-time.After(100 * time.Millisecond):
				client.SendRequest("keepalive@openssh.com", true, nil)
				sess.SendRequest("keepalive@openssh.com", true, nil)
			}
		}
	}()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		t.Fatal("keepalives kept an idle session open past --idle-timeout")
	}
	waitFor(t, "the log line", f.log.String, `reason="idle timeout"`)
}

// Two sessions on one connection (what ssh's ControlMaster does) each get their
// own request: the connection's context is shared, the session state is not.
func TestSessionsOnOneConnectionKeepTheirOwnRequests(t *testing.T) {
	f := newFixture(t, nil)
	client, err := gossh.Dial("tcp", f.addr, &gossh.ClientConfig{User: "alice", Auth: []gossh.AuthMethod{gossh.PublicKeys(f.client)}, HostKeyCallback: gossh.InsecureIgnoreHostKey()})
	if err != nil {
		t.Fatal(err)
	}
	defer client.Close()
	type run struct {
		sess *gossh.Session
		in   io.WriteCloser
		out  *syncBuf
	}
	open := func(cmd string) run {
		s, err := client.NewSession()
		if err != nil {
			t.Fatal(err)
		}
		if err := s.RequestPty("xterm-256color", 30, 100, gossh.TerminalModes{}); err != nil {
			t.Fatal(err)
		}
		in, _ := s.StdinPipe()
		out := &syncBuf{}
		s.Stdout, s.Stderr = out, io.Discard
		if err := s.Start(cmd); err != nil {
			t.Fatal(err)
		}
		return run{s, in, out}
	}
	a, b := open("--backend=UCX"), open("")
	waitFor(t, "session a", a.out.String, "Start-up fails")
	waitFor(t, "session b", b.out.String, "Python transceiver")
	if strings.Contains(b.out.String(), "Start-up fails") {
		t.Error("session b shows session a's preset")
	}
	for _, r := range []run{a, b} {
		io.WriteString(r.in, "q")
		if code := exitStatus(t, r.sess); code != 0 {
			t.Errorf("exit = %d", code)
		}
	}
}

// heapInUse is the test process's live heap after a collection.
func heapInUse() uint64 {
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return m.HeapInuse
}

// A window of 10000x10000 (about 20 GB at the renderer's cost per cell) is
// drawn at MaxWidth x MaxHeight, at the pty request and at every window change,
// and the session's last row says so; a storm of window changes leaves the
// server's heap bounded.
func TestHugeWindowsAreClamped(t *testing.T) {
	ch := make(chan tea.WindowSizeMsg, 1024)
	f := newFixture(t, func(c *Config) {
		c.model = func(_ Request, o ui.Options) tea.Model {
			ch <- tea.WindowSizeMsg{Width: o.Width, Height: o.Height}
			return sizes{ui.New(o), ch}
		}
	})
	before := heapInUse()
	sess, in, out, errb := f.open(t, 10000, 10000, nil)
	if err := sess.Shell(); err != nil {
		t.Fatal(err)
	}
	waitFor(t, "the explorer", out.String, "Chain")
	waitFor(t, "the notice", out.String, "a served session draws at most 640x200")
	waitFor(t, "the notice before the program", errb.String, "xcvr serve: your window is 10000x10000; a served session draws at most 640x200")
	for i := range 200 {
		w, h := 10000-i, 10000+i
		if i%2 == 1 {
			w, h = 120+i, 40
		}
		if err := sess.WindowChange(h, w); err != nil {
			t.Fatal(err)
		}
	}
	if err := sess.WindowChange(10000, 10000); err != nil {
		t.Fatal(err)
	}
	// A last, small size: once the model has it, every earlier one was seen.
	if err := sess.WindowChange(30, 100); err != nil {
		t.Fatal(err)
	}
	deadline := time.After(20 * time.Second)
	seen := 0
	for done := false; !done; {
		select {
		case w := <-ch:
			seen++
			if w.Width > MaxWidth || w.Height > MaxHeight {
				t.Fatalf("the model was given %dx%d", w.Width, w.Height)
			}
			if seen == 1 && (w.Width != MaxWidth || w.Height != MaxHeight-1) {
				t.Errorf("the first size = %dx%d, want %dx%d (the last row is the notice's)", w.Width, w.Height, MaxWidth, MaxHeight-1)
			}
			done = w.Width == 100 && w.Height == 30
		case <-deadline:
			t.Fatal("the model never saw 100x30")
		}
	}
	// Clamped, the whole storm costs what a 640x200 frame costs (about 27 MB);
	// unclamped the first frame alone would not fit in memory.
	if grew := int64(heapInUse()) - int64(before); grew > 100<<20 {
		t.Errorf("the server's heap grew by %d MB", grew>>20)
	}
	t.Logf("%d window sizes reached the model (the rest coalesced)", seen)
	io.WriteString(in, "q")
	if code := exitStatus(t, sess); code != 0 {
		t.Errorf("exit %d", code)
	}
}

// A host key another user could read or replace is refused, as the README
// promises: owned by someone else (even at 0600), group- or world-readable, a
// symbolic link, or in a directory anyone may write to without the sticky bit.
func TestHostKeyOwnerModeAndDirectoryAreChecked(t *testing.T) {
	base := t.TempDir()
	key, err := newHostKey()
	if err != nil {
		t.Fatal(err)
	}
	put := func(dir string, dirMode os.FileMode, mode os.FileMode) string {
		t.Helper()
		d := filepath.Join(base, dir)
		os.MkdirAll(d, 0o700)
		os.Chmod(d, dirMode)
		p := filepath.Join(d, "host")
		os.WriteFile(p, key, 0o600)
		os.Chmod(p, mode)
		return p
	}
	if _, _, err := ensureHostKey(put("ok", 0o700, 0o600)); err != nil {
		t.Errorf("a private key in a private directory: %v", err)
	}
	// /tmp-like: world-writable with the sticky bit is fine.
	if _, _, err := ensureHostKey(put("sticky", 0o777|os.ModeSticky, 0o600)); err != nil {
		t.Errorf("a directory of mode 1777: %v", err)
	}
	for name, tc := range map[string]struct {
		path string
		want string
	}{
		"0640":            {put("grp", 0o700, 0o640), "readable by others (mode 0640)"},
		"world-writable":  {put("open", 0o777, 0o600), "is writable by anyone (mode 0777) without the sticky bit"},
		"under-writable":  {put("open2/inner", 0o700, 0o600), "is writable by anyone"},
		"a symbolic link": {filepath.Join(base, "link"), "host key is a symbolic link"},
	} {
		if name == "under-writable" {
			os.Chmod(filepath.Join(base, "open2"), 0o777)
		}
		if name == "a symbolic link" {
			os.Symlink(filepath.Join(base, "ok", "host"), tc.path)
		}
		if _, _, err := ensureHostKey(tc.path); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: %v, want %q", name, err, tc.want)
		}
	}
	// A missing key is not created in a world-writable directory either.
	open := filepath.Join(base, "open", "new")
	if _, _, err := ensureHostKey(open); err == nil || !strings.Contains(err.Error(), "writable by anyone") {
		t.Errorf("a new key in a 0777 directory: %v", err)
	}
	if _, err := os.Stat(open); err == nil {
		t.Error("the key was created there anyway")
	}
	if os.Getuid() != 0 {
		t.Log("not root: the other-owner cases need chown; skipped")
		return
	}
	other := put("other", 0o700, 0o600)
	os.Chown(other, 4242, 4242)
	if _, _, err := ensureHostKey(other); err == nil || !strings.Contains(err.Error(), "owned by uid 4242") {
		t.Errorf("a 0600 key of another user: %v", err)
	}
	theirs := put("theirs", 0o700, 0o600)
	os.Chown(filepath.Dir(theirs), 4242, 4242)
	if _, _, err := ensureHostKey(theirs); err == nil || !strings.Contains(err.Error(), "is owned by uid 4242") {
		t.Errorf("a key in another user's directory: %v", err)
	}
}

// A connection that never logs in is closed after --login-grace-time, and at
// most --max-startups connections may be logging in at once: the next is
// dropped at once and logged, and a slot frees when one logs in or leaves.
func TestUnauthenticatedConnectionsAreBounded(t *testing.T) {
	f := newFixture(t, func(c *Config) { c.LoginGraceTime = 300 * time.Millisecond; c.MaxStartups = 3 })
	dial := func() net.Conn {
		t.Helper()
		c, err := net.Dial("tcp", f.addr)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { c.Close() })
		return c
	}
	// closedWithin reads c to its end: the server closed it (io.EOF or a
	// reset), rather than the 10-second guard of the test.
	closed := func(c net.Conn) bool {
		c.SetReadDeadline(time.Now().Add(10 * time.Second))
		_, err := io.ReadAll(c)
		var ne net.Error
		return !(errors.As(err, &ne) && ne.Timeout())
	}
	// Three silent connections fill the slots; the fourth is dropped.
	silent := []net.Conn{dial(), dial(), dial()}
	waitFor(t, "three connections", f.log.String, "connection remote=")
	for strings.Count(f.log.String(), "connection remote=") < 3 {
		time.Sleep(10 * time.Millisecond)
	}
	fourth := dial()
	if !closed(fourth) {
		t.Error("a fourth connection logging in was kept")
	}
	waitFor(t, "the refusal", f.log.String, "refused: 3 connections are logging in, the limit is 3 (--max-startups)")
	// The silent ones are closed by the grace time, each logged with why.
	for i, c := range silent {
		if !closed(c) {
			t.Errorf("silent connection %d was never closed", i)
		}
	}
	for deadline := time.Now().Add(10 * time.Second); strings.Count(f.log.String(), `reason="not logged in within 300ms (--login-grace-time)"`) < 3; {
		if time.Now().After(deadline) {
			t.Fatalf("not three login-failed lines for the grace time:\n%s", f.log.String())
		}
		time.Sleep(10 * time.Millisecond)
	}
	// Their slots are free again: a real client logs in.
	sess, _, out, _ := f.open(t, 0, 0, nil)
	if err := sess.Start("--help"); err != nil {
		t.Fatal(err)
	}
	if code := exitStatus(t, sess); code != 0 || !strings.Contains(out.String(), "usage") {
		t.Errorf("a client after the flood: exit %d", code)
	}
	waitFor(t, "the login line", f.log.String, "xcvr serve: login key=SHA256:")
}

// A key not in --authorized-keys is refused and logged with its fingerprint
// and the (escaped) user name the client sent.
func TestRejectedKeysAreLogged(t *testing.T) {
	f := newFixture(t, nil)
	_, priv, _ := ed25519.GenerateKey(rand.Reader)
	stranger, _ := gossh.NewSignerFromKey(priv)
	_, err := gossh.Dial("tcp", f.addr, &gossh.ClientConfig{User: "mallory\n2026-01-01T00:00:00Z xcvr serve: login", Auth: []gossh.AuthMethod{gossh.PublicKeys(stranger)}, HostKeyCallback: gossh.InsecureIgnoreHostKey()})
	if err == nil {
		t.Fatal("a stranger's key got in")
	}
	line := waitFor(t, "the rejection", f.log.String, "xcvr serve: rejected key="+gossh.FingerprintSHA256(stranger.PublicKey()))
	if !strings.Contains(line, `user=mallory\n2026`) {
		t.Errorf("the user name is not escaped:\n%s", line)
	}
	for _, l := range strings.Split(strings.TrimSpace(f.log.String()), "\n") {
		if _, err := time.Parse(time.RFC3339, strings.Fields(l)[0]); err != nil {
			t.Errorf("a log line without its time: %q", l)
		}
	}
}

// What a client sends cannot grow the server's memory without bound: a
// thousand environment variables of 30 KiB each are cut at maxEnvVars, and a
// connection opens at most maxChannelsPerConn sessions.
func TestClientEnvAndChannelsAreBounded(t *testing.T) {
	var seen []string
	var mu sync.Mutex
	f := newFixture(t, func(c *Config) {
		c.Parse = func(cl Client) (Request, error) {
			mu.Lock()
			seen = cl.Environ
			mu.Unlock()
			return stubParse(cl)
		}
	})
	client, err := gossh.Dial("tcp", f.addr, f.config2())
	if err != nil {
		t.Fatal(err)
	}
	defer client.Close()
	before := heapInUse()
	sess, err := client.NewSession()
	if err != nil {
		t.Fatal(err)
	}
	big := strings.Repeat("x", 30<<10)
	refused := 0
	for i := range 1000 {
		if err := sess.Setenv(fmt.Sprintf("TRTLLM_V%d", i), big); err != nil {
			refused++
		}
	}
	if refused < 1000-maxEnvVars {
		t.Errorf("%d of 1000 env requests refused, want at least %d", refused, 1000-maxEnvVars)
	}
	var out bytes.Buffer
	sess.Stdout = &out
	if err := sess.Run("--help"); err != nil {
		t.Fatal(err)
	}
	mu.Lock()
	n := len(seen)
	mu.Unlock()
	if n > maxEnvVars {
		t.Errorf("the session got %d variables", n)
	}
	if grew := int64(heapInUse()) - int64(before); grew > 8<<20 {
		t.Errorf("30 MB of env requests grew the heap by %d MB", grew>>20)
	}
	// Sessions held open on one connection: the eleventh is refused.
	var open []*gossh.Session
	for range maxChannelsPerConn {
		s, err := client.NewSession()
		if err != nil {
			t.Fatalf("session %d: %v", len(open)+1, err)
		}
		open = append(open, s)
	}
	if _, err := client.NewSession(); err == nil || !strings.Contains(err.Error(), "at most 10 sessions on one connection") {
		t.Errorf("the eleventh session: %v", err)
	}
	for _, s := range open {
		s.Close()
	}
}

func (f *fixture) config2() *gossh.ClientConfig {
	c := f.config()
	c.HostKeyCallback = gossh.InsecureIgnoreHostKey()
	return c
}

// Stopping the server (SIGTERM) ends every session the way a timeout does:
// the client's terminal restored, a word on why, the real reason logged.
func TestStoppingTheServerRestoresClients(t *testing.T) {
	dir := t.TempDir()
	_, priv, _ := ed25519.GenerateKey(rand.Reader)
	signer, _ := gossh.NewSignerFromKey(priv)
	ak := filepath.Join(dir, "ak")
	os.WriteFile(ak, gossh.MarshalAuthorizedKey(signer.PublicKey()), 0o600)
	log := &syncBuf{}
	srv, err := New(Config{AuthorizedKeys: ak, HostKey: filepath.Join(dir, "hk"), Log: log, Parse: stubParse})
	if err != nil {
		t.Fatal(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	served := make(chan error, 1)
	go func() { served <- srv.Serve(ctx, ln) }()
	f := &fixture{srv: srv, log: log, addr: ln.Addr().String(), client: signer, dir: dir}
	sess, _, out, errb := f.open(t, 100, 30, nil)
	if err := sess.Shell(); err != nil {
		t.Fatal(err)
	}
	waitFor(t, "the explorer", out.String, "Chain")
	cancel()
	exitStatus(t, sess)
	if err := <-served; err != nil {
		t.Errorf("Serve: %v", err)
	}
	if !restored(out.String()) {
		t.Errorf("the client's terminal was not restored:\n%q", out.String()[max(0, len(out.String())-300):])
	}
	if !strings.Contains(errb.String(), "closed by the server: it is stopping") {
		t.Errorf("stderr: %q", errb.String())
	}
	waitFor(t, "the log line", log.String, `reason="server stopping"`)
}

// A bracketed paste, an OSC or a DCS that never ends (32 MiB after its
// opening) leaves the server's heap as it was: Bubble Tea's decoder would
// collect it whole (100 MB of paste cost 126 MB of heap, 5.5 MB of OSC 20 MB
// and stalled the session, before inputLimit).
func TestEndlessInputSequencesAreBounded(t *testing.T) {
	f := newFixture(t, nil)
	for _, tc := range []struct{ start, end string }{{"\x1b[200~", "\x1b[201~"}, {"\x1b]", "\x07"}, {"\x1bP", "\x1b\\"}} {
		before := heapInUse()
		sess, in, out, _ := f.open(t, 100, 30, nil)
		if err := sess.Shell(); err != nil {
			t.Fatal(err)
		}
		waitFor(t, "the explorer", out.String, "Chain")
		io.WriteString(in, tc.start)
		chunk := strings.Repeat("1", 1<<20)
		for range 32 {
			if _, err := io.WriteString(in, chunk); err != nil {
				t.Fatal(err)
			}
		}
		io.WriteString(in, tc.end+"q")
		if code := exitStatus(t, sess); code != 0 {
			t.Errorf("%q: exit %d", tc.start, code)
		}
		if grew := int64(heapInUse()) - int64(before); grew > 16<<20 {
			t.Errorf("%q and 32 MiB grew the heap by %d MB", tc.start, grew>>20)
		}
	}
}

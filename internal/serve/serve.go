// Package serve is xcvr serve: the explorer, the tour and the linear mode offered
// over SSH with Charm's wish. Only public keys listed in an authorized_keys file
// get in (no password, keyboard-interactive or "none" authentication); each
// session gets its own explorer, a panic ends that session only, and every
// session leaves one line in the server's log.
//
// What a session may ask for is decided by the caller's Parse (internal/cli reuses
// the local flag parsing for it); this package owns the SSH side.
package serve

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"sync"
	"sync/atomic"
	"time"

	tea "charm.land/bubbletea/v2"
	"charm.land/ssh"
	"charm.land/wish/v2"
	"charm.land/wish/v2/bubbletea"
	"charm.land/wish/v2/recover"
	gossh "golang.org/x/crypto/ssh"

	"xcvr/internal/guard"
	"xcvr/internal/tour"
	"xcvr/ui"
)

// Defaults of the serve flags.
const (
	DefaultListen      = "127.0.0.1:23234"
	DefaultMaxSessions = 32
	DefaultIdleTimeout = 15 * time.Minute
)

// Kind is what a session runs.
type Kind int

// Session kinds.
const (
	// KindNone runs nothing: the request printed its own output (--help) and
	// the session ends with Request.Code.
	KindNone Kind = iota
	KindExplorer
	KindTour
	KindAccessible
	// KindAccessibleTour is the tour in the linear mode: one stop per Enter.
	KindAccessibleTour
)

func (k Kind) String() string {
	switch k {
	case KindExplorer:
		return "explorer"
	case KindTour:
		return "tour"
	case KindAccessible:
		return "accessible"
	case KindAccessibleTour:
		return "accessible-tour"
	}
	return "none"
}

// Request is what a client's arguments asked for.
type Request struct {
	Kind Kind
	// Options presets the explorer (Spec, Catalog, Color, Log, Roles, RoleName);
	// the terminal fields are filled in per session.
	Options ui.Options
	// Tour is the tour's scenarios for KindTour and KindAccessibleTour.
	Tour []tour.Scenario
	// Code is the exit status for KindNone.
	Code int
}

// Client is one session's side of the request: the arguments after `ssh -t host
// --`, the environment the client sent, and where messages go.
type Client struct {
	Args    []string
	Environ []string
	Stdout  io.Writer
	Stderr  io.Writer
}

// RefusedError is a request the server will not run: a flag that would read the
// server's files, a bad value. Its message is shown in the session, which ends
// with Code.
type RefusedError struct {
	Msg string
	// Hint, when set, is a line of its own after Msg (where the usage is).
	Hint string
	Code int
}

func (e *RefusedError) Error() string { return e.Msg }

// Config is xcvr serve's configuration.
type Config struct {
	Listen         string
	AuthorizedKeys string
	HostKey        string
	MaxSessions    int
	IdleTimeout    time.Duration
	MaxTimeout     time.Duration
	// LoginGraceTime bounds how long a connection may take to log in (0:
	// DefaultLoginGraceTime); MaxStartups how many may be logging in at once
	// (0: DefaultMaxStartups).
	LoginGraceTime time.Duration
	MaxStartups    int
	// Log receives the server's lines: one per session, plus start-up. nil
	// means os.Stderr.
	Log io.Writer
	// Parse turns a client's arguments into a request; a *RefusedError's
	// message is shown in the session.
	Parse func(Client) (Request, error)

	// model, when set, builds each session's root model instead of the
	// explorer or the tour; tests use it to crash a session on purpose.
	model func(Request, ui.Options) tea.Model
}

// UsageError is a configuration the server refuses to start with (exit 2).
type UsageError struct{ Err error }

func (e *UsageError) Error() string { return e.Err.Error() }
func (e *UsageError) Unwrap() error { return e.Err }

// Server is a configured, not yet listening, xcvr SSH server.
type Server struct {
	cfg      Config
	ssh      *ssh.Server
	log      *lineLog
	active   atomic.Int64
	unauth   atomic.Int64 // connections not logged in yet
	authed   atomic.Int64 // connections logged in
	conns    sync.Map     // *connState → struct{}, while open
	hostKey  string       // fingerprint, for the start-up line
	sessions sync.WaitGroup
	states   sync.Map // ssh.Session → *state, while its program runs
}

// New checks cfg and builds the server. It refuses to start without a readable
// authorized_keys file holding at least one key, and creates the host key (mode
// 0600) when the file is missing.
func New(cfg Config) (*Server, error) {
	if cfg.AuthorizedKeys == "" {
		return nil, &UsageError{errors.New("--authorized-keys FILE is required: only the public keys listed in it may connect")}
	}
	n, err := countKeys(cfg.AuthorizedKeys)
	if err != nil {
		return nil, &UsageError{guard.FlagError("--authorized-keys", cfg.AuthorizedKeys, err)}
	}
	if n == 0 {
		return nil, &UsageError{fmt.Errorf("--authorized-keys %s: no public keys; nobody could connect", cfg.AuthorizedKeys)}
	}
	if cfg.HostKey == "" {
		return nil, &UsageError{errors.New("--host-key FILE is required")}
	}
	if cfg.Listen == "" {
		cfg.Listen = DefaultListen
	}
	if cfg.MaxSessions <= 0 {
		cfg.MaxSessions = DefaultMaxSessions
	}
	if cfg.LoginGraceTime <= 0 {
		cfg.LoginGraceTime = DefaultLoginGraceTime
	}
	if cfg.MaxStartups <= 0 {
		cfg.MaxStartups = DefaultMaxStartups
	}
	if cfg.Parse == nil {
		return nil, errors.New("serve: Config.Parse is nil")
	}
	if cfg.Log == nil {
		cfg.Log = os.Stderr
	}
	hostPEM, fp, err := ensureHostKey(cfg.HostKey)
	if err != nil {
		return nil, &UsageError{guard.FlagError("--host-key", cfg.HostKey, err)}
	}
	s := &Server{cfg: cfg, log: &lineLog{w: cfg.Log}, hostKey: fp}
	opts := []ssh.Option{
		wish.WithAddress(cfg.Listen),
		// The bytes ensureHostKey checked, not the path read a second time.
		wish.WithHostKeyPEM(hostPEM),
		// Public keys only: with no password or keyboard-interactive handler
		// set, the server offers neither, and "none" is refused.
		wish.WithPublicKeyAuth(s.authorized),
		func(srv *ssh.Server) error {
			srv.HandshakeTimeout = cfg.LoginGraceTime
			srv.ConnCallback = s.accept
			srv.ConnectionFailedCallback = s.failed
			srv.ServerConfigCallback = s.serverConfig
			srv.ChannelHandlers = map[string]ssh.ChannelHandler{"session": s.sessionChannel}
			return nil
		},
		// An emulated PTY, as soft-serve uses. With ssh.AllocatePty (charm.land/ssh
		// v0.4.3) the server's own PTY-resize goroutine and the bubbletea
		// middleware both read the one window-change channel, so about half the
		// client's resizes never reach the program.
		ssh.EmulatePty(),
		wish.WithMiddleware(
			recover.MiddlewareWithLogger(s.log,
				bubbletea.MiddlewareWithProgramHandler(s.program),
				s.session,
			),
		),
	}
	// --idle-timeout and --max-timeout are not the socket deadlines wish
	// offers: a deadline cuts the connection before a session can restore the
	// client's terminal. connState.watch closes connections instead.
	srv, err := wish.NewServer(opts...)
	if err != nil {
		return nil, &UsageError{err}
	}
	s.ssh = srv
	return s, nil
}

// Serve accepts connections on ln until ctx ends, then closes the listener and
// the open sessions.
func (s *Server) Serve(ctx context.Context, ln net.Listener) error {
	s.log.Printf("xcvr serve: listening on %s (host key %s, keys from %s, at most %d sessions)",
		ln.Addr(), s.hostKey, s.cfg.AuthorizedKeys, s.cfg.MaxSessions)
	done := make(chan struct{})
	defer close(done)
	go func() {
		select {
		case <-ctx.Done():
			// Every session restores its client's terminal and says why
			// before the connections go.
			var wg sync.WaitGroup
			s.conns.Range(func(k, _ any) bool {
				wg.Go(func() { k.(*connState).close("server stopping") })
				return true
			})
			wg.Wait()
			_ = s.ssh.Close()
		case <-done:
		}
	}()
	err := s.ssh.Serve(ln)
	if errors.Is(err, ssh.ErrServerClosed) {
		s.sessions.Wait()
		return nil
	}
	return err
}

// ListenAndServe listens on cfg.Listen and serves until ctx ends.
func (s *Server) ListenAndServe(ctx context.Context) error {
	ln, err := net.Listen("tcp", s.cfg.Listen)
	if err != nil {
		return &UsageError{err}
	}
	return s.Serve(ctx, ln)
}

// countKeys reads an authorized_keys file and counts the keys it holds; a line
// that is not a key is an error naming FILE:LINE. It reads the file as every
// login does (authorized): a regular file of at most maxAuthKeysBytes, so that
// the server does not start on a file no login could read, nor wait on a FIFO
// or read /dev/zero without end.
func countKeys(path string) (int, error) {
	data, err := guard.ReadRaw(path, guard.Limits{MaxBytes: maxAuthKeysBytes})
	if err != nil {
		return 0, err
	}
	n, line := 0, 0
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(make([]byte, 0, 64<<10), 1<<20)
	for sc.Scan() {
		line++
		l := bytes.TrimSpace(sc.Bytes())
		if len(l) == 0 || l[0] == '#' {
			continue
		}
		if _, _, _, _, err := gossh.ParseAuthorizedKey(l); err != nil {
			return 0, fmt.Errorf("%s:%d: not a public key: %v", path, line, err)
		}
		n++
	}
	if err := sc.Err(); err != nil {
		return 0, fmt.Errorf("%s: %w", path, err)
	}
	return n, nil
}

// The largest window a session draws. Bubble Tea's renderer keeps cell buffers
// for the whole window, and the explorer lays out every cell: about 210 bytes
// of server memory per cell (measured: 93 MB at 1280x360), so a client's window
// size must not decide the server's memory. 640x200 is what an 8K screen
// (7680x4320) shows at 200% scaling with a 6x12 font (640x180), with room for a
// tall one; at most 128,000 cells, about 27 MB a session. A larger window is
// drawn in its top-left 640x200 corner, and the session's last line says so.
const (
	MaxWidth  = 640
	MaxHeight = 200
)

// clampWindow bounds w to MaxWidth x MaxHeight and reports whether it had to.
func clampWindow(w ssh.Window) (ssh.Window, bool) {
	c := w
	c.Width, c.Height = min(w.Width, MaxWidth), min(w.Height, MaxHeight)
	return c, c.Width != w.Width || c.Height != w.Height
}

// windows is the session as the programs see it: its window clamped
// (clampWindow) at the pty request and at every window change, a window of 0x0
// hidden, and a storm of window changes coalesced to the latest one.
//
// A client without a terminal of its own (ssh -tt from a script or a CI job)
// reports its window as 0x0; the bubbletea middleware forwards every window
// change to the program, whose renderer would then draw nothing for the rest of
// the session. The session starts at 80x24 instead (see program) and follows
// the first real size the client sends. The client's own size is kept in st, so
// that the session can say it draws less.
func windows(sess ssh.Session, st *state) ssh.Session {
	pty, in, ok := sess.Pty()
	if !ok {
		return sess
	}
	st.setWindow(pty.Window)
	out := make(chan ssh.Window, 1)
	done := sess.Context().Done()
	go func() {
		var latest ssh.Window
		pending := false
		for {
			var send chan<- ssh.Window
			if pending {
				send = out
			}
			select {
			case w, open := <-in:
				if !open {
					return
				}
				if w.Width <= 0 || w.Height <= 0 {
					continue
				}
				st.setWindow(w)
				latest, _ = clampWindow(w)
				pending = true
			case send <- latest:
				pending = false
			case <-done:
				return
			}
		}
	}()
	return sizedSession{Session: sess, windows: out}
}

// sizedSession is a session whose window changes come through windows.
type sizedSession struct {
	ssh.Session
	windows <-chan ssh.Window
}

// Pty returns the client's terminal with its window clamped and the filtered
// window changes.
func (s sizedSession) Pty() (ssh.Pty, <-chan ssh.Window, bool) {
	p, _, ok := s.Session.Pty()
	p.Window, _ = clampWindow(p.Window)
	return p, s.windows, ok
}

package serve

import (
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"sync"
	"sync/atomic"
	"time"

	"charm.land/ssh"
	gossh "golang.org/x/crypto/ssh"

	"xcvr/internal/guard"
	"xcvr/internal/termsafe"
)

// Defaults of the connection limits.
const (
	// DefaultLoginGraceTime is how long a connection may take to log in:
	// OpenSSH's LoginGraceTime is 120 s; a key login takes well under a second.
	DefaultLoginGraceTime = 20 * time.Second
	// DefaultMaxStartups is how many connections may be logging in at once,
	// OpenSSH's MaxStartups start value (10); the next one is dropped.
	DefaultMaxStartups = 10
)

// Per-connection bounds on what a client can make the server hold, whatever it
// sends: sessions (channels) per connection, as OpenSSH's MaxSessions default,
// and the environment a session may set (OpenSSH passes only AcceptEnv names;
// xcvr reads TERM, COLORTERM, NO_COLOR and TRTLLM_* ones).
const (
	maxChannelsPerConn = 10
	maxEnvVars         = 64
	maxEnvBytes        = 64 << 10
	maxAuthKeysBytes   = 4 << 20
	// closeGrace is how long a session closed by the server has to restore
	// the client's terminal before the connection is cut.
	closeGrace = 2 * time.Second
)

// connKey is where a connection's connState sits in its ssh.Context.
type connKey struct{}

// connState is one TCP connection: whether it has logged in, when the client
// last sent anything, its sessions, and why the server closed it.
type connState struct {
	s      *Server
	raw    net.Conn
	remote string
	start  time.Time
	lastIn atomic.Int64 // UnixNano of the user's last input (active), or of the connection

	authed   atomic.Bool
	slot     sync.Once // gives back the not-yet-logged-in slot
	channels atomic.Int64
	closed   chan struct{}
	closeOne sync.Once

	mu       sync.Mutex
	key      string // fingerprint of the accepted key
	user     string
	readErr  error
	reason   string // why the server closed the connection, once it did
	sessions map[*state]struct{}
}

func connOf(ctx ssh.Context) *connState {
	cs, _ := ctx.Value(connKey{}).(*connState)
	return cs
}

// trackedConn is the raw connection as the SSH server reads it: its first
// read error is kept (a deadline means the login grace time passed). Its bytes
// are not activity for --idle-timeout: a client's keepalives (ssh -o
// ServerAliveInterval, common in ~/.ssh/config) would keep an abandoned session
// open for good; activeChannel marks what the user sends.
type trackedConn struct {
	net.Conn
	cs *connState
}

// active marks input from the user: a session's data (keys, pastes, answers)
// or a window change.
func (cs *connState) active() { cs.lastIn.Store(time.Now().UnixNano()) }

func (c trackedConn) Read(p []byte) (int, error) {
	n, err := c.Conn.Read(p)
	if err != nil {
		c.cs.mu.Lock()
		if c.cs.readErr == nil {
			c.cs.readErr = err
		}
		c.cs.mu.Unlock()
	}
	return n, err
}

func (c trackedConn) Close() error {
	c.cs.done()
	return c.Conn.Close()
}

// accept is the SSH server's ConnCallback: the cap on connections that have
// not logged in yet (--max-startups), and one log line per connection.
func (s *Server) accept(ctx ssh.Context, conn net.Conn) net.Conn {
	remote := conn.RemoteAddr().String()
	if n := s.unauth.Add(1); n > int64(s.cfg.MaxStartups) {
		s.unauth.Add(-1)
		s.log.Printf("xcvr serve: connection remote=%s refused: %d connections are logging in, the limit is %d (--max-startups)", remote, n-1, s.cfg.MaxStartups)
		return nil
	}
	cs := &connState{s: s, raw: conn, remote: remote, start: time.Now(), closed: make(chan struct{}), sessions: map[*state]struct{}{}}
	cs.lastIn.Store(cs.start.UnixNano())
	ctx.SetValue(connKey{}, cs)
	s.conns.Store(cs, struct{}{})
	s.log.Printf("xcvr serve: connection remote=%s", remote)
	go cs.watch()
	return trackedConn{conn, cs}
}

// done runs once when the connection closes.
func (cs *connState) done() {
	cs.closeOne.Do(func() {
		cs.releaseSlot()
		close(cs.closed)
		cs.s.conns.Delete(cs)
		if cs.authed.Load() {
			cs.s.authed.Add(-1)
		}
	})
}

func (cs *connState) releaseSlot() { cs.slot.Do(func() { cs.s.unauth.Add(-1) }) }

// loggedIn is the AuthLogCallback's success: the connection leaves the
// logging-in count. Beyond twice --max-sessions logged-in connections (room
// for a session to be told "busy"), it is closed: a connection holds memory
// with no session too.
func (cs *connState) loggedIn(user string) {
	cs.mu.Lock()
	cs.user = user
	key := cs.key
	cs.mu.Unlock()
	cs.authed.Store(true)
	cs.releaseSlot()
	n := cs.s.authed.Add(1)
	cs.s.log.Printf("xcvr serve: login key=%s user=%s remote=%s", key, termsafe.Line(user), cs.remote)
	if n > 2*int64(cs.s.cfg.MaxSessions) {
		go cs.close(fmt.Sprintf("busy (%d connections)", 2*cs.s.cfg.MaxSessions))
	}
}

// failed is the SSH server's ConnectionFailedCallback: a connection that did
// not log in, logged with why.
func (s *Server) failed(conn net.Conn, err error) {
	var cs *connState
	s.conns.Range(func(k, _ any) bool {
		if c := k.(*connState); c.remote == conn.RemoteAddr().String() {
			cs = c
			return false
		}
		return true
	})
	var rerr error
	if cs != nil {
		cs.mu.Lock()
		rerr = cs.readErr
		cs.mu.Unlock()
	}
	reason := termsafe.Line(err.Error())
	switch {
	case errors.Is(err, os.ErrDeadlineExceeded) || errors.Is(rerr, os.ErrDeadlineExceeded):
		reason = fmt.Sprintf("not logged in within %s (--login-grace-time)", s.cfg.LoginGraceTime)
	case errors.Is(err, io.EOF) || errors.Is(rerr, io.EOF):
		reason = "the client left before logging in"
	}
	s.log.Printf("xcvr serve: login failed remote=%s reason=%q", conn.RemoteAddr(), reason)
}

// authorized is the public key handler: the key must be in --authorized-keys,
// read again at every login so that a removed key is out at once. A rejected
// key is logged.
func (s *Server) authorized(ctx ssh.Context, key ssh.PublicKey) bool {
	fp := gossh.FingerprintSHA256(key)
	cs := connOf(ctx)
	remote := ""
	if cs != nil {
		remote = cs.remote
	}
	data, err := guard.ReadRaw(s.cfg.AuthorizedKeys, guard.Limits{MaxBytes: maxAuthKeysBytes})
	if err != nil {
		s.log.Printf("xcvr serve: rejected key=%s user=%s remote=%s: %s", fp, termsafe.Line(ctx.User()), remote, termsafe.Line(err.Error()))
		return false
	}
	for rest := data; len(rest) > 0; {
		k, _, _, r, err := gossh.ParseAuthorizedKey(rest)
		if err != nil {
			break
		}
		rest = r
		if ssh.KeysEqual(k, key) {
			if cs != nil {
				cs.mu.Lock()
				cs.key = fp
				cs.mu.Unlock()
			}
			return true
		}
	}
	s.log.Printf("xcvr serve: rejected key=%s user=%s remote=%s: not in %s", fp, termsafe.Line(ctx.User()), remote, s.cfg.AuthorizedKeys)
	return false
}

// serverConfig adds to the SSH server's configuration what wish has no option
// for: the successful login, seen by the connection.
func (s *Server) serverConfig(ctx ssh.Context) *gossh.ServerConfig {
	return &gossh.ServerConfig{
		MaxAuthTries: 6,
		AuthLogCallback: func(md gossh.ConnMetadata, _ string, err error) {
			if cs := connOf(ctx); err == nil && cs != nil {
				cs.loggedIn(md.User())
			}
		},
	}
}

// watch closes the connection when it has been idle for --idle-timeout or open
// for --max-timeout. The server closes it itself, not through a deadline on the
// socket, so that each session can first restore the client's terminal.
func (cs *connState) watch() {
	cfg := cs.s.cfg
	tick := time.Second
	for _, d := range []time.Duration{cfg.IdleTimeout, cfg.MaxTimeout} {
		if d > 0 {
			tick = min(tick, max(d/10, 10*time.Millisecond))
		}
	}
	t := time.NewTicker(tick)
	defer t.Stop()
	for {
		select {
		case <-cs.closed:
			return
		case now := <-t.C:
			if !cs.authed.Load() {
				continue // the login grace time is the socket's deadline
			}
			switch {
			case cfg.MaxTimeout > 0 && now.Sub(cs.start) >= cfg.MaxTimeout:
				cs.close("max timeout")
				return
			case cfg.IdleTimeout > 0 && now.Sub(time.Unix(0, cs.lastIn.Load())) >= cfg.IdleTimeout:
				cs.close("idle timeout")
				return
			}
		}
	}
}

// close ends every session of the connection with reason (each restores its
// client's terminal and says why), waits up to closeGrace for them, then cuts
// the connection.
func (cs *connState) close(reason string) {
	cs.mu.Lock()
	if cs.reason == "" {
		cs.reason = reason
	}
	var open []*state
	for st := range cs.sessions {
		open = append(open, st)
	}
	cs.mu.Unlock()
	for _, st := range open {
		st.stop(reason)
	}
	deadline := time.NewTimer(closeGrace)
	defer deadline.Stop()
	tick := time.NewTicker(10 * time.Millisecond)
	defer tick.Stop()
wait:
	for {
		cs.mu.Lock()
		n := len(cs.sessions)
		cs.mu.Unlock()
		if n == 0 {
			break
		}
		select {
		case <-deadline.C:
			break wait
		case <-tick.C:
		case <-cs.closed:
			return
		}
	}
	if len(open) == 0 {
		cs.mu.Lock()
		key, user := cs.key, cs.user
		cs.mu.Unlock()
		cs.s.log.Printf("xcvr serve: closed key=%s user=%s remote=%s duration=%s reason=%q",
			key, termsafe.Line(user), cs.remote, time.Since(cs.start).Round(time.Millisecond), reason)
	}
	_ = cs.raw.Close()
	cs.done()
}

func (cs *connState) add(st *state) {
	cs.mu.Lock()
	defer cs.mu.Unlock()
	cs.sessions[st] = struct{}{}
}

func (cs *connState) remove(st *state) {
	cs.mu.Lock()
	defer cs.mu.Unlock()
	delete(cs.sessions, st)
}

// sessionChannel is the "session" channel handler: at most maxChannelsPerConn
// open on one connection, and each channel's requests filtered (limitEnv).
func (s *Server) sessionChannel(srv *ssh.Server, conn *gossh.ServerConn, nc gossh.NewChannel, ctx ssh.Context) {
	cs := connOf(ctx)
	if cs != nil {
		if n := cs.channels.Add(1); n > maxChannelsPerConn {
			cs.channels.Add(-1)
			_ = nc.Reject(gossh.ResourceShortage, fmt.Sprintf("at most %d sessions on one connection", maxChannelsPerConn))
			return
		}
		defer cs.channels.Add(-1)
	}
	ssh.DefaultSessionHandler(srv, conn, limitedChannel{nc, cs}, ctx)
}

// limitedChannel is a new session channel whose requests pass limitEnv and
// whose data and window changes are the connection's activity.
type limitedChannel struct {
	gossh.NewChannel
	cs *connState
}

func (c limitedChannel) Accept() (gossh.Channel, <-chan *gossh.Request, error) {
	ch, reqs, err := c.NewChannel.Accept()
	if err != nil {
		return ch, reqs, err
	}
	out := make(chan *gossh.Request)
	go limitEnv(reqs, out, c.cs)
	if c.cs != nil {
		ch = activeChannel{ch, c.cs}
	}
	return ch, out, nil
}

// activeChannel is a session channel whose reads mark the connection active.
type activeChannel struct {
	gossh.Channel
	cs *connState
}

func (c activeChannel) Read(p []byte) (int, error) {
	n, err := c.Channel.Read(p)
	if n > 0 {
		c.cs.active()
	}
	return n, err
}

// limitEnv passes a channel's requests on, refusing "env" requests beyond
// maxEnvVars variables or maxEnvBytes in all: charm.land/ssh keeps every one a
// client sends, before any handler of ours runs. A window change is activity.
func limitEnv(in <-chan *gossh.Request, out chan<- *gossh.Request, cs *connState) {
	defer close(out)
	vars, size := 0, 0
	for req := range in {
		if req.Type == "window-change" && cs != nil {
			cs.active()
		}
		if req.Type == "env" {
			if vars >= maxEnvVars || size+len(req.Payload) > maxEnvBytes {
				if req.WantReply {
					_ = req.Reply(false, nil)
				}
				continue
			}
			vars++
			size += len(req.Payload)
		}
		out <- req
	}
}

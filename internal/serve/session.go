package serve

import (
	"context"
	"crypto/ed25519"
	"crypto/rand"
	"encoding/pem"
	"errors"
	"fmt"
	"io"
	"net"
	"strings"
	"sync"
	"time"

	tea "charm.land/bubbletea/v2"
	"charm.land/ssh"
	"charm.land/wish/v2/bubbletea"
	"github.com/charmbracelet/x/ansi"
	gossh "golang.org/x/crypto/ssh"

	"xcvr/internal/accessible"
	"xcvr/internal/termsafe"
	"xcvr/internal/tour"
	"xcvr/ui"
)

// Exit statuses of a session, as the local commands use them.
const (
	exitOK    = 0
	exitBusy  = 1
	exitUsage = 2
	exitCrash = 3
)

// state is one session's record, shared by the middlewares through
// Server.states.
type state struct {
	mu     sync.Mutex
	req    Request
	reason string
	code   int
	window ssh.Window // the client's last window size, as it sent it
	// closedBy is why the server ends the session (idle timeout, max
	// timeout, server stopping, busy), once it does; quit ends its program.
	closedBy string
	quit     func()
}

// stop ends the session on the server's side: its program quits (restoring
// the client's terminal) and the session says why.
func (st *state) stop(reason string) {
	st.mu.Lock()
	if st.closedBy == "" {
		st.closedBy = reason
	}
	q := st.quit
	st.mu.Unlock()
	code := exitOK
	if strings.HasPrefix(reason, "busy") {
		code = exitBusy
	}
	st.set(reason, code)
	if q != nil {
		go q() // tea.Program.Quit blocks until the program reads it
	}
}

// setQuit records how to end the session's program; when the server has
// already ended the session, it is called at once.
func (st *state) setQuit(q func()) {
	st.mu.Lock()
	st.quit = q
	stopped := st.closedBy != ""
	st.mu.Unlock()
	if stopped {
		go q()
	}
}

func (st *state) stoppedBy() string {
	st.mu.Lock()
	defer st.mu.Unlock()
	return st.closedBy
}

// restoreTerminal undoes every mode the explorer and the tour set on the
// client's terminal: the alternate screen, mouse reporting (all encodings),
// bracketed paste, the hidden cursor, the keyboard enhancements (kitty's and
// xterm's modifyOtherKeys) and the colours. Bubble Tea writes the same when a
// program ends; a close by the server writes it again, so that a program that
// did not get to end cleanly still leaves the terminal as it found it.
const restoreTerminal = "\x1b[m\x1b[<u\x1b[>4m\x1b[?1049l\x1b[?1000l\x1b[?1002l\x1b[?1003l\x1b[?1006l\x1b[?2004l\x1b[?25h"

// closeMessage is what a session closed by the server tells its user.
func (s *Server) closeMessage(reason string) string {
	switch reason {
	case "idle timeout":
		return fmt.Sprintf("xcvr serve: closed by the server: no input for %s (--idle-timeout)", s.cfg.IdleTimeout)
	case "max timeout":
		return fmt.Sprintf("xcvr serve: closed by the server: the connection reached --max-timeout (%s)", s.cfg.MaxTimeout)
	case "server stopping":
		return "xcvr serve: closed by the server: it is stopping"
	}
	return "xcvr serve: closed by the server: " + reason
}

func (st *state) setWindow(w ssh.Window) {
	st.mu.Lock()
	defer st.mu.Unlock()
	st.window = w
}

// clampNotice is the line a session shows in its last row while the client's
// window is larger than MaxWidth x MaxHeight, or "" when it is not.
func (st *state) clampNotice() string {
	st.mu.Lock()
	w := st.window
	st.mu.Unlock()
	if _, clamped := clampWindow(w); !clamped {
		return ""
	}
	return fmt.Sprintf("xcvr serve: your window is %dx%d; a served session draws at most %dx%d",
		w.Width, w.Height, MaxWidth, MaxHeight)
}

func (st *state) set(reason string, code int) {
	st.mu.Lock()
	defer st.mu.Unlock()
	if st.reason == "" || code > st.code {
		st.reason, st.code = reason, code
	}
}

// session is the outer middleware: the session limit, the client's arguments,
// the linear mode, and the one log line. The explorer and the tour run in the
// bubbletea middleware it wraps (next).
func (s *Server) session(next ssh.Handler) ssh.Handler {
	return func(sess ssh.Session) {
		start := time.Now()
		st := &state{}
		s.sessions.Add(1)
		defer s.sessions.Done()
		cs := connOf(sess.Context())
		if cs != nil {
			cs.add(st)
			defer cs.remove(st) // after the log line and the exit status
			cs.mu.Lock()
			closing := cs.reason
			cs.mu.Unlock()
			if closing != "" {
				st.stop(closing) // the connection is being closed already
			}
		}
		defer func() {
			if r := recover(); r != nil {
				st.set(fmt.Sprintf("panic: %v", r), exitCrash)
				s.logSession(sess, st, start)
				_ = sess.Exit(exitCrash)
				panic(r) // the recover middleware logs the stack
			}
			s.logSession(sess, st, start)
			_ = sess.Exit(st.code)
		}()
		if n := s.active.Add(1); n > int64(s.cfg.MaxSessions) {
			s.active.Add(-1)
			fmt.Fprintf(sess.Stderr(), "xcvr serve: busy: %d sessions are open, the limit is %d; try again later\r\n", n-1, s.cfg.MaxSessions)
			st.set(fmt.Sprintf("refused: busy (%d sessions)", s.cfg.MaxSessions), exitBusy)
			return
		}
		defer s.active.Add(-1)

		sess = windows(sess, st)
		pty, _, hasPty := sess.Pty()
		env := sess.Environ()
		if hasPty {
			env = append(env, "TERM="+pty.Term)
		}
		// A client with a terminal has it in raw mode: lines need \r\n. Without
		// one, output may go to a file and stays as it is.
		var outw, errw io.Writer = sess, sess.Stderr()
		if hasPty {
			outw, errw = crlfWriter{sess}, crlfWriter{sess.Stderr()}
		}
		// Never nil: a nil argument list would make cobra parse the server's own
		// os.Args.
		args := append([]string{}, sess.Command()...)
		req, err := s.cfg.Parse(Client{Args: args, Environ: env, Stdout: outw, Stderr: errw})
		if err != nil {
			code := exitUsage
			var re *RefusedError
			if errors.As(err, &re) && re.Code != 0 {
				code = re.Code
			}
			fmt.Fprintln(errw, "xcvr: "+termsafe.Message(err))
			if re != nil && re.Hint != "" {
				fmt.Fprintln(errw, termsafe.Line(re.Hint))
			}
			st.set("refused: "+firstLine(err.Error()), code)
			return
		}
		st.req = req
		if f := req.Options.LogFollow; f != nil {
			defer f.Close() // a --log offered by --serve-dir, followed while the session runs
		}
		switch req.Kind {
		case KindNone:
			st.set("done", req.Code)
			return
		case KindAccessible, KindAccessibleTour:
			s.runAccessible(sess, st, req)
			return
		}
		if !hasPty {
			fmt.Fprintln(errw, "xcvr: the "+req.Kind.String()+" needs a terminal: connect with ssh -t, or add --accessible for the linear mode")
			st.set("refused: no terminal", exitUsage)
			return
		}
		if pty.Term == "dumb" {
			// A terminal that says it is dumb (Emacs' M-x shell) shows text
			// but not a full screen: the explorer's frames would be noise.
			fmt.Fprintln(errw, "xcvr: the "+req.Kind.String()+" needs a terminal that can draw it, and TERM is dumb: connect from another terminal, or add --accessible for the linear mode")
			st.set("refused: TERM=dumb", exitUsage)
			return
		}
		// Per session, not in sess.Context(): that context belongs to the
		// connection, which a multiplexing client (ControlMaster) shares
		// between sessions.
		if n := st.clampNotice(); n != "" {
			fmt.Fprintln(errw, n)
		}
		s.states.Store(sess, st)
		defer s.states.Delete(sess)
		next(sess)
		if by := st.stoppedBy(); by != "" {
			io.WriteString(sess, restoreTerminal)
			fmt.Fprintln(errw, s.closeMessage(by))
		}
		switch {
		case st.reason != "":
		case sess.Context().Err() != nil:
			st.set("disconnected", exitOK) // the client left
		default:
			st.set("quit", exitOK)
		}
		if st.code == exitCrash {
			fmt.Fprintln(errw, "xcvr: the "+req.Kind.String()+" crashed; the session ends (other sessions are not affected)")
		}
	}
}

// program is the bubbletea middleware's handler: a fresh explorer or tour for
// the session, sized to its terminal, coloured from the client's TERM, COLORTERM
// and NO_COLOR.
func (s *Server) program(sess ssh.Session) *tea.Program {
	v, ok := s.states.Load(sess)
	if !ok {
		return nil
	}
	st := v.(*state)
	pty, _, _ := sess.Pty()
	opts := st.req.Options
	opts.Environ = append(sess.Environ(), "TERM="+pty.Term)
	opts.Width, opts.Height = pty.Window.Width, pty.Window.Height
	if opts.Width <= 0 || opts.Height <= 0 {
		// A client without a terminal of its own (ssh -tt from a script)
		// reports 0x0; draw at the classic size until it sends a real one.
		opts.Width, opts.Height = 80, 24
	}
	opts.In, opts.Out = sess, sess
	fullHeight := opts.Height
	g := sessionModel{st: st}.sized(opts.Width)
	if g.notice != "" && opts.Height > 1 {
		opts.Height-- // the last row says the window is clamped
	}
	var root tea.Model
	switch {
	case s.cfg.model != nil:
		root = s.cfg.model(st.req, opts)
	case st.req.Kind == KindTour:
		root = tour.New(st.req.Tour, opts)
	default:
		root = ui.New(opts)
	}
	// MakeOptions sizes the program and takes the colour profile from the
	// session's TERM and COLORTERM; --color and a NO_COLOR of any value (which
	// colorprofile alone honours only when it parses as true) come after it, so
	// they win.
	popts := append(bubbletea.MakeOptions(sess), tea.WithFPS(30), tea.WithWindowSize(opts.Width, fullHeight),
		tea.WithInput(limitInput(sess))) // after MakeOptions' own WithInput, so it wins
	if p, ok := ui.ColorProfile(opts); ok {
		popts = append(popts, tea.WithColorProfile(p))
	}
	g.Model = root
	p := tea.NewProgram(g, popts...)
	st.setQuit(p.Quit)
	return p
}

// runAccessible runs the linear mode on the session. With a terminal (ssh -t)
// the client's side is in raw mode, so the mode echoes what is typed and ends
// lines with \r\n itself; without one (plain ssh HOST -- --accessible) the
// client's own terminal edits and echoes each line, which suits screen readers
// best.
func (s *Server) runAccessible(sess ssh.Session, st *state, req Request) {
	pty, _, hasPty := sess.Pty()
	ctx, cancel := context.WithCancel(sess.Context())
	defer cancel()
	st.setQuit(cancel)
	in := cancelableReader(ctx, sess)
	defer in.Close()
	o := accessible.Options{Spec: req.Options.Spec, Catalog: req.Options.Catalog, In: in, Out: sess, Width: 80}
	if hasPty {
		o.CRLF, o.Echo = true, true
		o.Width = min(max(pty.Window.Width, 40), 120)
	}
	var err error
	if req.Kind == KindAccessibleTour {
		err = accessible.Tour(ctx, accessible.TourOptions{
			Stops: req.Tour, Catalog: req.Options.Catalog, In: in, Out: sess,
			Width: o.Width, CRLF: o.CRLF, Echo: o.Echo, Step: true,
			Command: servedCommand(sess.LocalAddr()),
		})
	} else {
		err = accessible.Run(ctx, o)
	}
	if by := st.stoppedBy(); by != "" {
		w := io.Writer(sess)
		if hasPty {
			w = crlfWriter{sess}
		}
		fmt.Fprintln(w, "\n"+s.closeMessage(by))
		return
	}
	switch {
	case err == nil:
		st.set("quit", exitOK)
	case errors.Is(err, context.Canceled) || sess.Context().Err() != nil:
		st.set("disconnected", exitOK)
	default:
		st.set("error: "+err.Error(), exitCrash)
	}
}

// cancelableReader returns r as a reader whose Read ends with ctx's error
// once ctx is done. The linear modes wait for the client in a plain Read of
// the channel, which nothing but the client interrupts: a session the server
// ended (--idle-timeout, --max-timeout, the server stopping) sat in it until
// the connection was cut, and its user got no reason and no exit status.
// r is read in a goroutine through an io.Pipe, which holds nothing: at most
// one read's bytes wait there, so the SSH channel's window still paces the
// client. Close ends the goroutine's writes; its last Read of r ends when the
// channel closes, after the session.
func cancelableReader(ctx context.Context, r io.Reader) io.ReadCloser {
	pr, pw := io.Pipe()
	go func() {
		_, err := io.Copy(pw, r)
		pw.CloseWithError(err)
	}()
	go func() {
		<-ctx.Done()
		pr.CloseWithError(ctx.Err())
	}()
	return pr
}

// servedCommand turns the xcvr explain command line of a tour stop into the
// ssh command line that shows the same in a session's linear mode: the
// explain flags are the session's own. HOST stands for the name the user
// connected to, which the server cannot know; the port is the one the
// connection came in on, when it is not ssh's default.
func servedCommand(local net.Addr) func([]string) []string {
	head := []string{"ssh"}
	if _, port, err := net.SplitHostPort(fmt.Sprint(local)); err == nil && port != "22" {
		head = append(head, "-p", port)
	}
	head = append(head, "HOST", "--", "--accessible")
	return func(args []string) []string {
		if len(args) > 0 && args[0] == "xcvr" {
			args = args[1:]
		}
		if len(args) > 0 && args[0] == "explain" {
			args = args[1:]
		}
		return append(append([]string{}, head...), args...)
	}
}

// sessionModel records a panic in the session's model before Bubble Tea recovers it
// (and restores the session's terminal), so the log line can say why the
// session ended. While the client's window is larger than a session draws, it
// gives the model one row less and shows in that row why the window is not
// filled.
type sessionModel struct {
	tea.Model
	st *state
	// notice is clampNotice as of the last window size, cut to width.
	notice string
	width  int
}

// sized returns g for a window of width columns: the notice decided once per
// size, so that a frame and the size its model was given always agree.
func (g sessionModel) sized(width int) sessionModel {
	g.width = width
	g.notice = ""
	if n := g.st.clampNotice(); n != "" {
		g.notice = ansi.Truncate(n, width, "…")
	}
	return g
}

func (g sessionModel) note() {
	if r := recover(); r != nil {
		g.st.set(fmt.Sprintf("panic: %v", r), exitCrash)
		panic(r)
	}
}

func (g sessionModel) Update(msg tea.Msg) (m tea.Model, cmd tea.Cmd) {
	defer g.note()
	if w, ok := msg.(tea.WindowSizeMsg); ok {
		g = g.sized(w.Width)
		if g.notice != "" && w.Height > 1 {
			w.Height--
			msg = w
		}
	}
	nm, cmd := g.Model.Update(msg)
	g.Model = nm
	return g, cmd
}

func (g sessionModel) View() tea.View {
	defer g.note()
	v := g.Model.View()
	if g.notice != "" {
		v.Content = strings.TrimSuffix(v.Content, "\n") + "\n" + g.notice
	}
	return v
}

// logSession writes the session's one line: who (key fingerprint and user),
// from where, what, for how long, and why it ended.
func (s *Server) logSession(sess ssh.Session, st *state, start time.Time) {
	fp := "none"
	if k := sess.PublicKey(); k != nil {
		fp = gossh.FingerprintSHA256(k)
	}
	st.mu.Lock()
	reason, code, kind := st.reason, st.code, st.req.Kind
	st.mu.Unlock()
	if reason == "" {
		reason = "ended"
	}
	s.log.Printf("xcvr serve: session key=%s user=%s remote=%s mode=%s duration=%s exit=%d reason=%q",
		fp, termsafe.Line(sess.User()), sess.RemoteAddr(), kind, time.Since(start).Round(time.Millisecond), code, termsafe.Line(reason))
}

// lineLog serialises log lines from concurrent sessions and starts each with
// its time (UTC, RFC 3339, as journald and kubectl logs show it); it also serves
// the recover middleware as its logger.
type lineLog struct {
	mu  sync.Mutex
	w   io.Writer
	now func() time.Time // nil: time.Now
}

func (l *lineLog) Printf(format string, args ...any) {
	l.mu.Lock()
	defer l.mu.Unlock()
	now := time.Now
	if l.now != nil {
		now = l.now
	}
	msg := now().UTC().Format(time.RFC3339) + " " + fmt.Sprintf(format, args...)
	if !strings.HasSuffix(msg, "\n") {
		msg += "\n"
	}
	_, _ = io.WriteString(l.w, msg)
}

// crlfWriter ends lines with \r\n: a session's terminal is in raw mode on the
// client, so a bare \n would not return the carriage.
type crlfWriter struct{ w io.Writer }

func (c crlfWriter) Write(p []byte) (int, error) {
	s := strings.ReplaceAll(strings.ReplaceAll(string(p), "\r\n", "\n"), "\n", "\r\n")
	if _, err := io.WriteString(c.w, s); err != nil {
		return 0, err
	}
	return len(p), nil
}

func firstLine(s string) string {
	s, _, _ = strings.Cut(s, "\n")
	return s
}

// newHostKey makes an ed25519 private key in OpenSSH PEM form.
func newHostKey() ([]byte, error) {
	_, priv, err := ed25519.GenerateKey(rand.Reader)
	if err != nil {
		return nil, err
	}
	blk, err := gossh.MarshalPrivateKey(priv, "xcvr serve host key")
	if err != nil {
		return nil, err
	}
	return pem.EncodeToMemory(blk), nil
}

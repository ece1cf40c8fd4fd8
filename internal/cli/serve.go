package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"time"

	"github.com/spf13/cobra"

	"xcvr/internal/guard"
	"xcvr/internal/serve"
	"xcvr/internal/termsafe"
	"xcvr/models"
	"xcvr/ui"
)

// serveFlags are xcvr serve's own flags.
type serveFlags struct {
	listen, authorizedKeys, hostKey, serveDir string
	maxSessions, maxStartups                  int
	idleTimeout, maxTimeout, loginGrace       time.Duration
}

func newServeCmd(app *appEnv) *cobra.Command {
	var sf serveFlags
	cmd := &cobra.Command{
		Use:   "serve",
		Short: "Serve the explorer over SSH to the keys in an authorized_keys file",
		Long: `xcvr serve offers the explorer, the tour and the linear mode over SSH. Only the
public keys listed in --authorized-keys may connect (no passwords); each session
gets its own explorer and reads none of the server's files, except those the
operator offers by name with --serve-dir.

  ssh -t -p 23234 HOST                                  the explorer
  ssh -t -p 23234 HOST -- --trtllm 1.3.0rc22 --backend UCX   preset inputs
  ssh -t -p 23234 HOST -- tour                          the guided tour
  ssh -p 23234 HOST -- --accessible                     the linear mode`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error { return runServe(cmd, app, &sf) },
	}
	fs := cmd.Flags()
	fs.StringVar(&sf.listen, "listen", serve.DefaultListen, "address to listen on")
	fs.StringVar(&sf.authorizedKeys, "authorized-keys", "", "authorized_keys file: the public keys that may connect (required)")
	fs.StringVar(&sf.hostKey, "host-key", "", "the server's private host key; created (ed25519, mode 0600) when missing (default: xcvr/ssh_host_ed25519_key in the user config directory, ~/.config on Linux)")
	fs.IntVar(&sf.maxSessions, "max-sessions", serve.DefaultMaxSessions, "sessions open at once; more are turned away")
	fs.DurationVar(&sf.idleTimeout, "idle-timeout", serve.DefaultIdleTimeout, "close a connection with no input for this long, its sessions first (0: never)")
	fs.DurationVar(&sf.maxTimeout, "max-timeout", 0, "close any connection after this long, its sessions first (0: never)")
	fs.DurationVar(&sf.loginGrace, "login-grace-time", serve.DefaultLoginGraceTime, "close a connection that has not logged in after this long (OpenSSH's LoginGraceTime)")
	fs.IntVar(&sf.maxStartups, "max-startups", serve.DefaultMaxStartups, "connections logging in at once; more are dropped (OpenSSH's MaxStartups)")
	fs.StringVar(&sf.serveDir, "serve-dir", "", "offer the files in DIR, read-only and by name, to sessions' --config, --disagg, --log, --env-file, --catalog, --model-config and tour --tour")
	_ = cmd.MarkFlagFilename("authorized-keys")
	_ = cmd.MarkFlagFilename("host-key")
	_ = cmd.MarkFlagDirname("serve-dir")
	return cmd
}

// defaultHostKey is the host key's default place, in the user's config directory.
func defaultHostKey() string {
	dir, err := os.UserConfigDir()
	if err != nil {
		return "xcvr_ssh_host_ed25519_key"
	}
	return filepath.Join(dir, "xcvr", "ssh_host_ed25519_key")
}

func runServe(cmd *cobra.Command, app *appEnv, sf *serveFlags) error {
	if sf.loginGrace <= 0 {
		return usageErr(fmt.Errorf("--login-grace-time %s: want a positive duration; a connection that never logs in must not stay", sf.loginGrace))
	}
	if sf.maxStartups <= 0 {
		return usageErr(fmt.Errorf("--max-startups %d: want at least 1", sf.maxStartups))
	}
	// serve.New reads a limit of 0 or less as "the default" or "never": a
	// negative value given on purpose is a mistake to say, not to read so.
	if sf.maxSessions <= 0 {
		return usageErr(fmt.Errorf("--max-sessions %d: want at least 1", sf.maxSessions))
	}
	if sf.idleTimeout < 0 {
		return usageErr(fmt.Errorf("--idle-timeout %s: want a duration, or 0 for never", sf.idleTimeout))
	}
	if sf.maxTimeout < 0 {
		return usageErr(fmt.Errorf("--max-timeout %s: want a duration, or 0 for never", sf.maxTimeout))
	}
	if sf.hostKey == "" {
		sf.hostKey = defaultHostKey()
	}
	var box *sandbox
	if sf.serveDir != "" {
		dir, err := guard.OpenDir(sf.serveDir)
		if err != nil {
			return usageErr(guard.FlagError("--serve-dir", sf.serveDir, err))
		}
		defer dir.Close()
		box = &sandbox{dir: dir}
	}
	srv, err := serve.New(serve.Config{
		Listen: sf.listen, AuthorizedKeys: sf.authorizedKeys, HostKey: sf.hostKey,
		MaxSessions: sf.maxSessions, IdleTimeout: sf.idleTimeout, MaxTimeout: sf.maxTimeout,
		LoginGraceTime: sf.loginGrace, MaxStartups: sf.maxStartups,
		Log:   app.stderr,
		Parse: func(c serve.Client) (serve.Request, error) { return parseClient(cmd.Context(), c, box) },
	})
	var ue *serve.UsageError
	if errors.As(err, &ue) {
		return usageErr(err)
	}
	if err != nil {
		return err
	}
	ctx, stop := signal.NotifyContext(cmd.Context(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	err = srv.ListenAndServe(ctx)
	if errors.As(err, &ue) {
		return usageErr(err)
	}
	return err
}

// Flags a client may never give: they read the server's processes, directories
// or install things. fileFlags read one file each and are allowed, by name inside
// --serve-dir, only when the operator offers a directory.
var (
	neverRemote = []string{"pid", "install", "model-dir"}
	fileFlags   = []string{"config", "disagg", "log", "env-file", "catalog", "model-config", "tour"}
)

// refusedFlag returns the first flag of args a served session may not use, or "".
func refusedFlag(args []string, box *sandbox) string {
	for _, a := range args {
		if a == "--" {
			return ""
		}
		name, ok := strings.CutPrefix(a, "--")
		if !ok {
			continue
		}
		name, _, _ = strings.Cut(name, "=")
		for _, n := range neverRemote {
			if name == n {
				return n
			}
		}
		if box == nil {
			for _, n := range fileFlags {
				if name == n {
					return n
				}
			}
		}
	}
	return ""
}

// parseClient turns a served session's arguments into a request with the same
// flags and the same parsing as the local commands. The session's environment is
// the client's (only what its ssh sends), never the server's.
func parseClient(ctx context.Context, c serve.Client, box *sandbox) (serve.Request, error) {
	if f := refusedFlag(c.Args, box); f != "" {
		var msg string
		switch f {
		case "pid":
			msg = "--pid reads the server's processes; a served session cannot use it"
		case "install":
			msg = "--install changes the server; a served session cannot use it"
		case "model-dir":
			msg = "--model-dir reads the server's directories; a served session cannot use it"
		default:
			msg = "--" + f + " reads the server's files; a served session cannot use it" +
				" (the operator can offer files by name with xcvr serve --serve-dir DIR)"
		}
		return serve.Request{}, &serve.RefusedError{Msg: msg, Code: exitUsage}
	}
	app := &appEnv{stdin: strings.NewReader(""), stdout: c.Stdout, stderr: c.Stderr, environ: c.Environ, ctx: ctx, served: true}
	var req serve.Request
	root := newSessionRoot(app, &req, box)
	// An empty list, never nil: cobra reads os.Args (the server's own command
	// line) when given nil.
	root.SetArgs(append([]string{}, c.Args...))
	root.SetIn(app.stdin)
	root.SetOut(c.Stdout)
	root.SetErr(c.Stderr)
	err := root.ExecuteContext(ctx)
	if err == nil {
		return req, nil
	}
	var ee *exitError
	if errors.As(err, &ee) {
		if ee.err == nil {
			return serve.Request{}, &serve.RefusedError{Msg: "refused", Code: ee.code}
		}
		return serve.Request{}, &serve.RefusedError{Msg: ee.err.Error(), Code: ee.code}
	}
	// cobra's own errors (an unknown command): where the usage is, on a line
	// of its own, as the local commands say it.
	return serve.Request{}, &serve.RefusedError{Msg: err.Error(), Hint: "Run 'ssh HOST -- --help' for usage.", Code: exitUsage}
}

// sessionCommandArgs is a session root's Args: no positional arguments. An
// unknown command names the nearest of the session's own (tour); one of
// xcvr's commands a session does not run (explain, or a typo of it) is named
// with what a session offers instead.
func sessionCommandArgs(cmd *cobra.Command, args []string) error {
	if len(args) == 0 {
		return nil
	}
	word := args[0]
	msg := fmt.Sprintf("unknown command %q for %q", word, cmd.CommandPath())
	if hint := didYouMean(word, []string{"tour"}); hint != "" {
		return errors.New(msg + hint)
	}
	var local []string
	for _, c := range newRoot(&appEnv{stdin: strings.NewReader(""), stdout: io.Discard, stderr: io.Discard}).Commands() {
		if c.IsAvailableCommand() && c.Name() != "tour" {
			local = append(local, c.Name())
		}
	}
	local = append(local, "completion") // cobra's, added when xcvr runs
	offers := "a served session offers the explorer, tour and --accessible (the explain text after each change)"
	switch {
	case slices.Contains(local, word):
		return fmt.Errorf("%s: %s; xcvr %s runs where xcvr is installed", msg, offers, termsafe.Line(word))
	case didYouMean(word, local) != "":
		n := nearest(word, local)
		return fmt.Errorf("%s%s %s; xcvr %s runs where xcvr is installed", msg, didYouMean(word, local), strings.ToUpper(offers[:1])+offers[1:], n[0])
	}
	return errors.New(msg)
}

// newSessionRoot is the command tree a served session sees: the explorer's input
// flags (as xcvr and xcvr tui take them), --accessible, and tour.
func newSessionRoot(app *appEnv, req *serve.Request, box *sandbox) *cobra.Command {
	var flags inputFlags
	var color string
	var acc bool
	root := &cobra.Command{
		// The name in cobra's own messages (unknown flag, unknown command);
		// --help describes the session with ssh command lines (sessionHelp).
		Use:           "xcvr",
		Short:         "xcvr's explorer, served over SSH",
		Args:          sessionCommandArgs,
		SilenceUsage:  true,
		SilenceErrors: true,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if err := box.rewrite(&flags); err != nil {
				return err
			}
			flags.deploy.remote = true
			if acc {
				_, spec, cat, err := flags.resolveInputs(cmd, app)
				if err != nil {
					return err
				}
				req.Kind = serve.KindAccessible
				req.Options.Spec, req.Options.Catalog = spec, cat
				return nil
			}
			opts, err := explorerOptions(cmd, app, &flags, color)
			if err != nil {
				return err
			}
			req.Kind, req.Options = serve.KindExplorer, opts
			return nil
		},
	}
	root.PersistentFlags().StringVar(&color, "color", "auto", "colour: auto|always|never (NO_COLOR, when your ssh sends it, turns auto off)")
	flags.register(root.Flags())
	flags.deploy.registerExplorer(root.Flags())
	root.Flags().BoolVar(&acc, "accessible", false, "linear mode: one prompt at a time, the explain text after each change (works without -t)")
	// An unknown flag names the nearest the session accepts (the hidden ones,
	// which it refuses, are never suggested), as the local commands do.
	root.SetFlagErrorFunc(func(cmd *cobra.Command, err error) error {
		help := "--help"
		if cmd != cmd.Root() {
			help = cmd.Name() + " --help"
		}
		return flagErrorWith(cmd, err, "'ssh HOST -- "+help+"' lists its flags")
	})
	root.PersistentPreRunE = func(*cobra.Command, []string) error {
		switch color {
		case "auto", "always", "never":
			return nil
		}
		return usageErr(fmt.Errorf("--color %q: want auto, always or never", color))
	}

	var files []string
	var tourAcc bool
	tourCmd := &cobra.Command{
		Use:   "tour",
		Short: "The guided tour",
		Args:  cobra.NoArgs,
		RunE: func(*cobra.Command, []string) error {
			for i, f := range files {
				p, err := box.path("tour", f)
				if err != nil {
					return err
				}
				files[i] = p
			}
			stops, err := loadTour(box.files(), files, models.Builtin())
			if err != nil {
				return err
			}
			if tourAcc {
				req.Kind, req.Tour = serve.KindAccessibleTour, stops // one stop per Enter, read by the session
				return nil
			}
			req.Kind, req.Tour = serve.KindTour, stops
			req.Options = ui.Options{Catalog: models.Builtin(), Color: color}
			return nil
		},
	}
	tourCmd.Flags().StringArrayVar(&files, "tour", nil, "extra scenarios: a file the operator offers with --serve-dir")
	tourCmd.Flags().BoolVar(&tourAcc, "accessible", false, "one stop at a time, Enter for the next: plain lines, no alternate screen (works without -t)")
	root.AddCommand(tourCmd)
	root.CompletionOptions.DisableDefaultCmd = true
	sessionHelp(root, tourCmd, box)
	return root
}

// sessionHelp makes --help describe a session, not the program cobra would
// name after the first word of Use ("ssh"): how to start each mode with ssh,
// and only the flags a session accepts. The flags it always refuses are
// hidden; the file flags are hidden without --serve-dir and, with it, say they
// take the name of an offered file.
func sessionHelp(root, tourCmd *cobra.Command, box *sandbox) {
	hide := append([]string{"worker"}, neverRemote...)
	if box == nil {
		hide = append(hide, fileFlags...)
		hide = append(hide, "role") // it goes with --disagg
	}
	for _, c := range []*cobra.Command{root, tourCmd} {
		c.Flags().BoolP("help", "h", false, "this help")
		for _, name := range hide {
			if c.Flags().Lookup(name) != nil {
				_ = c.Flags().MarkHidden(name)
			}
		}
	}
	if box != nil {
		for _, name := range fileFlags {
			for _, c := range []*cobra.Command{root, tourCmd} {
				if f := c.Flags().Lookup(name); f != nil {
					f.Usage = "NAME of a file the server offers: " + f.Usage
				}
			}
		}
	}
	if f := root.Flags().Lookup("clean-env"); f != nil {
		f.Usage = "ignore the TRTLLM_* variables your ssh sends (SendEnv)"
	}
	root.SetUsageTemplate(`xcvr's explorer, served over SSH: everything after -- is read as xcvr's own flags.

Usage:
  ssh -t HOST [-- FLAGS]                  the explorer, inputs preset by FLAGS
  ssh -t HOST -- tour                     the guided tour
  ssh HOST -- --accessible [FLAGS]        the linear mode (works without -t)
  ssh HOST -- tour --accessible           the tour, one stop per Enter (works without -t)

Flags:
{{.LocalFlags.FlagUsages | trimTrailingWhitespaces}}
`)
	tourCmd.SetUsageTemplate(`The guided tour, served over SSH.

Usage:
  ssh -t HOST -- tour [FLAGS]
  ssh HOST -- tour --accessible

Flags:
{{.LocalFlags.FlagUsages | trimTrailingWhitespaces}}

Also:
{{.InheritedFlags.FlagUsages | trimTrailingWhitespaces}}
`)
	root.SetHelpTemplate("{{.UsageString}}")
	tourCmd.SetHelpTemplate("{{.UsageString}}")
	// help TOPIC: a command the session does not have is an error (exit 2),
	// not the session's help with exit 0, as locally.
	root.InitDefaultHelpCmd()
	for _, c := range root.Commands() {
		if c.Name() != "help" {
			continue
		}
		run := c.Run
		c.Run = nil
		c.RunE = func(cmd *cobra.Command, args []string) error {
			if target, rest, err := root.Find(args); err != nil || target == nil || len(rest) > 0 {
				return usageErr(fmt.Errorf("help %q: a served session has no such command%s; 'ssh HOST -- --help' lists what it offers",
					termsafe.Line(strings.Join(args, " ")), didYouMean(strings.Join(args, " "), []string{"tour"})))
			}
			run(cmd, args)
			return nil
		}
	}
}

// sandbox is the directory the operator offers with --serve-dir. Every read of
// a session's file flags goes through it (guard.Dir): opened relative to the
// directory, non-blocking, only a regular file that is not a symbolic link,
// and read from the very descriptor that was checked.
type sandbox struct {
	dir *guard.Dir
}

// files is where a session's file flags are read from.
func (b *sandbox) files() guard.FS {
	if b == nil {
		return guard.Host{} // unused: refusedFlag turns the file flags away
	}
	return b.dir
}

// path checks name (the guard's own checks, so a FIFO or a symbolic link is
// refused here already, without blocking) and returns DIR/NAME for the
// readers, which read it through b.dir again. Paths are joined to DIR as the
// operator wrote it, so messages and origins in a session say "DIR/NAME:LINE"
// and no more of the server.
func (b *sandbox) path(flag, name string) (string, error) {
	if b == nil {
		return "", usageErr(fmt.Errorf("--%s reads the server's files; a served session cannot use it", flag))
	}
	if !filepath.IsLocal(name) {
		return "", usageErr(fmt.Errorf("--%s %q: give the name of a file the server offers (no absolute path, no ..)", flag, name))
	}
	p := b.dir.Path(name)
	f, err := b.dir.Open(p, guard.Limits{})
	if errors.Is(err, os.ErrNotExist) {
		return "", usageErr(fmt.Errorf("--%s %q: not offered by this server", flag, name))
	}
	if err != nil {
		return "", usageErr(fmt.Errorf("--%s %q: %w", flag, name, err))
	}
	f.Close()
	return p, nil
}

// rewrite maps the file flags of a session to paths inside the offered
// directory and reads them from it; without one, refusedFlag has already
// turned them away.
func (b *sandbox) rewrite(f *inputFlags) error {
	f.deploy.files = b.files()
	for _, p := range []struct {
		flag string
		v    *string
	}{
		{"config", &f.deploy.config}, {"disagg", &f.deploy.disagg}, {"log", &f.deploy.log},
		{"env-file", &f.deploy.envFile}, {"catalog", &f.catalog}, {"model-config", &f.deploy.modelConfig},
	} {
		if *p.v == "" {
			continue
		}
		path, err := b.path(p.flag, *p.v)
		if err != nil {
			return err
		}
		*p.v = path
	}
	return nil
}

// Package accessible is xcvr's linear mode (--accessible): one prompt at a time,
// plain lines only — no alternate screen, no cursor movement, no box drawing, no
// colour — and the explain text after every change. A screen reader reads it top
// to bottom, and over a poor link only a line at a time is sent.
package accessible

import (
	"bufio"
	"context"
	"errors"
	"io"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"xcvr/internal/inputs"
	"xcvr/internal/logs"
	"xcvr/internal/report"
	"xcvr/internal/suggest"
	"xcvr/internal/termsafe"
	"xcvr/models"
	"xcvr/resolver"
)

// MaxLine bounds one answer; longer input is cut there, so a pasted file cannot
// make the prompt hold it all.
const MaxLine = 4096

// Options configures a linear session.
type Options struct {
	// Spec is the starting inputs; Catalog nil means models.Builtin().
	Spec    inputs.Spec
	Catalog *models.Catalog
	In      io.Reader
	Out     io.Writer
	// Width wraps the explain text; 0 means 80.
	Width int
	// Log, when set, is a server log (--log FILE, read once): after each
	// explain text the mode prints what check-logs says of it against the
	// current prediction, each process with its cause and findings.
	Log *logs.Log
	// CRLF ends lines with \r\n and Echo writes back what is typed (with
	// backspace): a terminal in raw mode on the far side of an SSH session does
	// neither itself.
	CRLF bool
	Echo bool
}

// prompt is one question: its label, the current value, the choices "?" lists,
// and how an answer is applied to the spec.
type prompt struct {
	label   string
	current func(s *inputs.Spec) string
	choices func(cat *models.Catalog, s *inputs.Spec) []string
	apply   func(s *inputs.Spec, answer string) error
	// repeat asks again after a change (several variables in a row); Enter
	// alone moves on.
	repeat bool
	// names is what the choices are ("a backend TensorRT-LLM accepts"), for
	// the note on an answer near one of them; "": no suggestions.
	names string
}

var errQuit = errors.New("quit")

const versionLabel = "TensorRT-LLM version"

// Run asks version, model, backend, runtime and env in turn, again and again,
// printing the explain text after each change, until q or the end of input.
func Run(ctx context.Context, o Options) error {
	cat := o.Catalog
	if cat == nil {
		cat = models.Builtin()
	}
	w := &writer{out: o.Out, crlf: o.CRLF, observed: o.Log}
	r := newLineReader(ctx, o.In)
	if o.Echo {
		r.echo = w
	}
	spec := o.Spec
	if spec.Version.Raw == "" {
		spec = inputs.Defaults()
	}
	w.line("xcvr, linear mode. One question at a time: type a new value and press Enter,")
	w.line("or press Enter alone to keep the value in brackets. ? lists the choices; q quits.")
	w.line("")
	if !w.explain(spec, cat, o.Width) {
		spec = inputs.Defaults()
		w.explain(spec, cat, o.Width)
	}
	prompts := questions()
	for {
		for _, p := range prompts {
			if err := ctx.Err(); err != nil {
				return err
			}
			if w.err != nil {
				return w.err // the reader is gone
			}
			err := ask(r, w, p, &spec, cat, o.Width)
			if errors.Is(err, errQuit) || errors.Is(err, io.EOF) {
				w.line("Bye.")
				return w.err
			}
			if err != nil {
				return err
			}
		}
		w.line("Back to the first question (q quits).")
	}
}

// ask repeats one question until the answer is kept or applied.
func ask(r *lineReader, w *writer, p prompt, spec *inputs.Spec, cat *models.Catalog, width int) error {
	for {
		w.prompt(p.label + " [" + termsafe.Line(p.current(spec)) + "]: ")
		ans, err := r.next()
		if err != nil {
			return err
		}
		ans = strings.TrimSpace(ans)
		switch ans {
		case "":
			return nil
		case "q", "quit":
			return errQuit
		case "?":
			w.line("Choices: " + termsafe.Line(strings.Join(p.choices(cat, spec), ", ")))
			continue
		}
		if !p.repeat && ans == p.current(spec) {
			return nil // the same value: nothing changes, nothing to read again
		}
		// A name near one of the choices, but not one of them: the nearest,
		// as the command line suggests them.
		var hint string
		if p.names != "" && !slices.Contains(p.choices(cat, spec), ans) {
			near := p.choices(cat, spec)
			if p.label == versionLabel {
				near = slices.Clone(near)
				slices.Reverse(near) // the newest first among equally near ones, as --trtllm's note
				if n := suggest.Release(ans, near); n != "" {
					hint = "did you mean " + termsafe.Line(n) + "?"
				}
			} else if n := suggest.Nearest(ans, near); len(n) > 0 {
				hint = "did you mean " + termsafe.Line(n[0]) + "?"
			}
		}
		next := cloneSpec(*spec)
		if err := p.apply(&next, ans); err != nil {
			w.lines("Not changed: ", err.Error())
			continue
		}
		in, err := inputs.Build(next, cat)
		if err != nil {
			w.lines("Not changed: ", err.Error())
			if hint != "" {
				w.line("  " + strings.ToUpper(hint[:1]) + hint[1:])
			}
			continue
		}
		*spec = next
		w.line("")
		if pl := in.Version.Placement; p.label == versionLabel && pl != "" {
			// The rules it is answered with; --install is a command-line flag.
			pl, _ = strings.CutSuffix(pl, "; pass --install to read yours")
			w.line("Note: " + termsafe.Line(pl) + ".")
		}
		if hint != "" {
			w.line("Note: " + resolver.Str(termsafe.Line(ans)).Repr() + " is not " + p.names + "; " + hint)
		}
		w.explain(*spec, cat, width)
		if p.repeat {
			continue
		}
		return nil
	}
}

// backendChoices is what "?" lists for the backend: the names the chosen
// build accepts, as it spells them (inputs.BackendsOf), and none; on 1.0.0rc4
// it listed DEFAULT, NIXL, UCX, MPI and MOONCAKE, each one refused there.
func backendChoices(_ *models.Catalog, s *inputs.Spec) []string {
	v, err := s.ParseVersion()
	if err != nil {
		return inputs.Backends()
	}
	return append(inputs.BackendsOf(v), "none")
}

// backendAsRead is the backend in brackets: xcvr's own DEFAULT as the chosen
// build spells it (default on 1.0.0rc4 to 1.0.0, as the explain text reads
// it), a value the user gave as given.
func backendAsRead(s *inputs.Spec) string {
	b := s.Backend
	if b.Origin.Kind != resolver.OriginPreset || b.Raw != inputs.DefaultBackend {
		return b.Raw
	}
	v, err := s.ParseVersion()
	if err != nil {
		return b.Raw
	}
	for _, n := range inputs.BackendsOf(v) {
		if strings.EqualFold(n, b.Raw) {
			return n
		}
	}
	return b.Raw
}

func questions() []prompt {
	typed := resolver.Origin{Kind: resolver.OriginFlag, Detail: "typed in linear mode"}
	set := func(field func(s *inputs.Spec) *inputs.Value) func(*inputs.Spec, string) error {
		return func(s *inputs.Spec, a string) error {
			*field(s) = inputs.Value{Raw: a, Origin: typed}
			return nil
		}
	}
	fixed := func(list []string) func(*models.Catalog, *inputs.Spec) []string {
		return func(*models.Catalog, *inputs.Spec) []string { return list }
	}
	return []prompt{
		{
			label:   versionLabel,
			current: func(s *inputs.Spec) string { return s.Version.Raw },
			choices: func(*models.Catalog, *inputs.Spec) []string {
				var out []string
				for _, v := range resolver.KnownVersions() {
					out = append(out, v.Name)
				}
				return append(out, "main@YYYY-MM-DD")
			},
			apply: set(func(s *inputs.Spec) *inputs.Value { return &s.Version }),
			names: "a release xcvr lists",
		},
		{
			label:   "Model architecture",
			current: func(s *inputs.Spec) string { return s.Model.Raw },
			choices: func(cat *models.Catalog, _ *inputs.Spec) []string {
				var out []string
				for _, e := range cat.Entries() {
					out = append(out, e.Arch)
				}
				return append(out, "none")
			},
			apply: set(func(s *inputs.Spec) *inputs.Value { return &s.Model }),
			names: "an architecture xcvr's catalog lists",
		},
		{
			label:   "Backend",
			current: backendAsRead,
			choices: backendChoices,
			apply:   set(func(s *inputs.Spec) *inputs.Value { return &s.Backend }),
			names:   "a backend TensorRT-LLM accepts",
		},
		{
			label:   "transceiver_runtime",
			current: func(s *inputs.Spec) string { return s.Runtime.Raw },
			choices: fixed(inputs.Runtimes()),
			apply:   set(func(s *inputs.Spec) *inputs.Value { return &s.Runtime }),
			names:   "a transceiver_runtime TensorRT-LLM accepts",
		},
		{
			label: "Environment variable",
			current: func(s *inputs.Spec) string {
				var kv []string
				for _, k := range s.EnvNames() {
					kv = append(kv, k+"="+s.Env[k].Value)
				}
				if len(kv) == 0 {
					return "none set; KEY=VALUE sets, KEY alone unsets"
				}
				return strings.Join(kv, " ")
			},
			choices: func(*models.Catalog, *inputs.Spec) []string {
				var out []string
				for _, e := range resolver.EnvVars() {
					out = append(out, e.Name+"=")
				}
				return out
			},
			apply: func(s *inputs.Spec, a string) error {
				if k, v, ok := strings.Cut(a, "="); !ok {
					if _, set := s.Env[a]; !set {
						return errors.New(a + " is not set; KEY=VALUE sets a variable")
					}
				} else if cur, set := s.Env[k]; set && cur.Value == v {
					return errors.New(k + " is already " + v)
				}
				return s.SetEnv(a, typed)
			},
			repeat: true,
		},
	}
}

func cloneSpec(s inputs.Spec) inputs.Spec {
	c := s
	c.Env = make(map[string]resolver.EnvVar, len(s.Env))
	for k, v := range s.Env {
		c.Env[k] = v
	}
	return c
}

// writer writes lines, remembering the first error so the loop stays simple.
type writer struct {
	out  io.Writer
	crlf bool
	err  error
	// observed is Options.Log.
	observed *logs.Log
}

func (w *writer) write(s string) {
	if w.err != nil {
		return
	}
	if w.crlf {
		s = strings.ReplaceAll(s, "\n", "\r\n")
	}
	_, w.err = io.WriteString(w.out, s)
}

func (w *writer) line(s string) { w.write(s + "\n") }

func (w *writer) prompt(s string) { w.write(s) }

// explain prints the plain explain text of spec; false when spec does not build.
func (w *writer) explain(spec inputs.Spec, cat *models.Catalog, width int) bool {
	in, err := inputs.Build(spec, cat)
	if err != nil {
		w.lines("The starting inputs do not build, so the defaults are used: ", err.Error())
		return false
	}
	t := resolver.Resolve(in)
	// The outcome first: a screen reader reaches it without the whole chain.
	w.line("Outcome: " + outcome(t.Result) + decided(&t))
	w.write(report.Text(t, report.TextOptions{Width: width, Styles: report.PlainStyles()}))
	w.line("")
	if lg := w.observed; lg != nil {
		// The log as check-logs reads a whole file: the same verdict, the
		// same text, against the prediction just printed.
		v := logs.Judge(lg, &t, true)
		w.line("Observed in " + termsafe.Line(lg.Name) + ": " + v.Label() + ". " + v.Summary())
		var b strings.Builder
		logs.WriteText(&b, v, logs.Prediction{Trace: &t, Why: "the version row, from " + spec.Version.Origin.String()}, false)
		w.write(b.String())
		w.line("")
	}
	return true
}

// Pacing of a session's lines: a burst of LineBurst lines passes at once (a
// pasted set of answers), after which lines are taken at most LinesPerSecond.
// A client that sends lines faster than anyone types (a script in a loop, a
// pasted file) waits instead of making the mode compute an explain text per
// line without pause; what it sent meanwhile stays in its own connection's
// flow-control window, never in this reader.
const (
	LineBurst      = 64
	LinesPerSecond = 20
)

// lineReader returns lines ended by \n, \r or \r\n (a raw terminal sends \r),
// each cut at MaxLine bytes, and paced (LineBurst, LinesPerSecond). On a raw
// terminal ctrl+c quits and ctrl+d at the start of a line ends the input.
type lineReader struct {
	ctx    context.Context
	r      *bufio.Reader
	lastCR bool
	echo   *writer // nil: the terminal echoes
	// tokens is the pacing bucket, as of last.
	tokens float64
	last   time.Time
	now    func() time.Time
	sleep  func(context.Context, time.Duration) error
}

func newLineReader(ctx context.Context, in io.Reader) *lineReader {
	return &lineReader{ctx: ctx, r: bufio.NewReaderSize(in, MaxLine), tokens: LineBurst, now: time.Now, sleep: sleepCtx}
}

func sleepCtx(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}

// pace takes a line's token, waiting for one when the burst is spent.
func (l *lineReader) pace() error {
	now := l.now()
	if !l.last.IsZero() {
		l.tokens = min(LineBurst, l.tokens+now.Sub(l.last).Seconds()*LinesPerSecond)
	}
	l.last = now
	if l.tokens < 1 {
		wait := time.Duration((1 - l.tokens) / LinesPerSecond * float64(time.Second))
		if err := l.sleep(l.ctx, wait); err != nil {
			return err
		}
		l.last = l.last.Add(wait)
		l.tokens = 1
	}
	l.tokens--
	return nil
}

func (l *lineReader) next() (string, error) {
	if err := l.pace(); err != nil {
		return "", err
	}
	var b strings.Builder
	for {
		c, err := l.r.ReadByte()
		if err != nil {
			if b.Len() > 0 && errors.Is(err, io.EOF) {
				return b.String(), nil
			}
			return "", err
		}
		wasCR := l.lastCR
		l.lastCR = c == '\r'
		switch {
		case c == '\n' && wasCR:
			continue // the \n of a \r\n pair
		case c == '\n' || c == '\r':
			if l.echo != nil {
				l.echo.line("")
			}
			return b.String(), nil
		case c == 0x7f || c == 0x08: // backspace: drop the last character
			if s := b.String(); s != "" {
				_, size := utf8.DecodeLastRuneInString(s)
				b.Reset()
				b.WriteString(s[:len(s)-size])
				if l.echo != nil {
					l.echo.write("\b \b")
				}
			}
		case c == 0x1b:
			l.skipEscape()
		case c == 0x03: // ctrl+c on a raw terminal
			if l.echo != nil {
				l.echo.line("^C")
			}
			return "", errQuit
		case c == 0x04: // ctrl+d on a raw terminal: the end of input at the start of a line
			if b.Len() == 0 {
				if l.echo != nil {
					l.echo.line("")
				}
				return "", io.EOF
			}
		case c < 0x20:
			// other controls are not part of an answer and must not be
			// echoed raw
		case b.Len() < MaxLine:
			b.WriteByte(c)
			if l.echo != nil && (c < 0x80 || utf8.FullRuneInString(b.String()[lastRuneStart(b.String()):])) {
				l.echo.write(termsafe.Line(b.String()[lastRuneStart(b.String()):]))
			}
		}
	}
}

// outcome is the result in one line, as the explain text's own outcome says it.
func outcome(r resolver.Result) string {
	switch r.Outcome {
	case resolver.OutcomePython, resolver.OutcomeCPP:
		return map[resolver.Outcome]string{resolver.OutcomePython: "Python", resolver.OutcomeCPP: "C++"}[r.Outcome] +
			" transceiver (" + r.Class + ") on backend " + termsafe.Line(r.EffectiveBackend.String())
	case resolver.OutcomeDisabled:
		return "disaggregation off: no transceiver"
	}
	// One line is one line: a screen reader must not read "backslash n". The
	// exception's further lines (pydantic's per-field ones) follow in the
	// explain text.
	first, rest, multi := strings.Cut(r.Error, "\n")
	s := "start-up fails: " + termsafe.Line(first)
	if multi {
		n := strings.Count(rest, "\n") + 1
		s += " (and " + strconv.Itoa(n) + " more lines, in the explain text below)"
	}
	return s
}

// decided names the step that decided the outcome, after the outcome.
func decided(t *resolver.Trace) string {
	if at := report.DecidedAt(t); at != "" {
		return "; " + at
	}
	return ""
}

// lines writes text a line at a time, each escaped on its own, so a message
// with a newline never reaches the reader as a literal backslash-n.
func (w *writer) lines(prefix, text string) {
	for i, l := range strings.Split(text, "\n") {
		if i > 0 {
			prefix = "  "
		}
		w.line(prefix + termsafe.Line(l))
	}
}

// lastRuneStart is the index where the last (possibly incomplete) UTF-8
// sequence of s begins; echo waits for a rune to be complete.
func lastRuneStart(s string) int {
	i := len(s) - 1
	for i > 0 && len(s)-i < utf8.UTFMax && !utf8.RuneStart(s[i]) {
		i--
	}
	return max(i, 0)
}

// skipEscape drops the rest of an escape sequence (an arrow key sends ESC [ A),
// so it neither lands in the answer nor is echoed.
func (l *lineReader) skipEscape() {
	c, err := l.r.ReadByte()
	if err != nil || (c != '[' && c != 'O') {
		if err == nil {
			_ = l.r.UnreadByte()
		}
		return
	}
	for i := 0; i < 32; i++ {
		c, err := l.r.ReadByte()
		if err != nil || (c >= 0x40 && c <= 0x7e) {
			return
		}
	}
}

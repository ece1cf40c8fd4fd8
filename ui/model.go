// Package ui is xcvr's interactive explorer: a full-screen Bubble Tea v2 program
// that lets an operator pick the TensorRT-LLM version, model, backend, environment
// and overrides, and watch the resolver's chain re-resolve on every change.
//
// Only the root Model returns a tea.View. The panes are plain render functions of
// the model's state (see render.go), so they can be golden-tested at fixed widths
// without a terminal. Update never does I/O: the clipboard goes through
// tea.SetClipboard (OSC 52) and timers through tea.Tick.
package ui

import (
	"io"
	"time"
	"xcvr/internal/termsafe"

	"charm.land/bubbles/v2/help"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/colorprofile"

	"xcvr/internal/inputs"
	"xcvr/internal/logs"
	"xcvr/models"
	"xcvr/resolver"
)

// Options configures the explorer. The CLI fills it from its flags; tests fill it
// directly.
type Options struct {
	// Spec is the starting choice of every input, with origins (defaults, flags,
	// the caller's environment). `r` returns to it.
	Spec inputs.Spec
	// Catalog is the model catalog; nil means models.Builtin().
	Catalog *models.Catalog
	// Color is auto, always or never (the --color flag).
	Color string
	// In and Out are the terminal; nil means os.Stdin and os.Stdout.
	In  io.Reader
	Out io.Writer
	// Environ is the process environment (os.Environ() form), used for NO_COLOR
	// and terminal detection.
	Environ []string
	// Width and Height, when both are positive, are the initial size; tests use it.
	Width, Height int
	// Profile, when set, forces the colour profile and skips detection; tests use it.
	Profile *colorprofile.Profile

	// Log, when set, is a server log shown as "observed" next to the prediction,
	// with the first disagreement marked (xcvr --log FILE).
	Log *logs.Log
	// LogFollow, when set, follows Log's file while the explorer runs: new
	// lines update the observed column live (deploy.go).
	LogFollow *logs.Follower
	// Roles is the other role of a disaggregated YAML (xcvr --disagg FILE without
	// --role): the chain pane shows both roles side by side and `R` switches which
	// one the inputs edit. Only the first entry is used.
	Roles []Role
	// RoleName names the role Spec describes ("context" unless the other role
	// is the context one). It is ignored without Roles.
	RoleName string

	// Command is the part of the command line that the inputs cannot say
	// (--config FILE, --disagg FILE, --env-file FILE, --catalog FILE, --clean-env,
	// ...), as the CLI was given it; `x` starts the xcvr explain command line it
	// copies with these and adds a flag for every input set by flag or in the
	// explorer.
	Command []string

	// Notice, when set, is shown in the status area until the first key: the
	// notes the command line printed on stderr before the explorer took the
	// screen (a --trtllm or --backend near a known one), which it would hide.
	Notice string

	// panicKey, when set, makes that key panic inside Update. Run sets it from
	// XCVR_TEST_PANIC so the smoke test can check, in a real terminal, that a crash
	// restores the terminal and exits non-zero.
	panicKey string

	// observe, when set, is called with every new trace; tests use it to follow a
	// flow step by step. It runs inside Update and must not block.
	observe func(resolver.Trace)
}

// pane is which half of the screen has focus.
type pane int

const (
	paneInputs pane = iota
	paneChain
)

// statusDuration is how long a status line ("copied …") stays.
const statusDuration = 3 * time.Second

// flashDoneMsg ends the change marks of generation gen. Nothing sends it in the
// program (marks stay until the next change); tests use it to draw settled frames.
type flashDoneMsg struct{ gen int }

// statusDoneMsg clears the status line of generation gen.
type statusDoneMsg struct{ gen int }

// Model is the explorer's root model. It is a value; its caches hang off a pointer
// so that a View of an unchanged model costs nothing.
type Model struct {
	cat   *models.Catalog
	start inputs.Spec // what `r` returns to
	spec  inputs.Spec
	trace resolver.Trace

	rows []inputRow

	// Change marks: which step ids and whether the outcome changed with the last
	// input change; flashGen lets an old timer's message be ignored.
	changed        map[string]bool
	outcomeChanged bool
	flashGen       int

	styles *Styles
	keys   KeyMap
	help   help.Model

	width, height int
	focus         pane
	row           int // selected input row
	step          int // selected chain step
	expanded      bool
	// colDetail is expanded for the two-column views (compare, both roles),
	// where the selected step starts folded so that more rows fit.
	colDetail bool

	edit editState
	pick pickState

	// mode is explore, compare or matrix; cmp and mat hold those views' state.
	mode viewMode
	cmp  compareState
	mat  matrixState

	// chainFlt and matFlt are `/` on the chain and on the matrix (filter.go).
	chainFlt, matFlt listFilter

	status    string
	statusErr bool
	// statusHint marks a status that reports nothing done (a key that does
	// nothing here): it reads "·", not "✓".
	statusHint bool
	statusGen  int
	// notice is a longer message shown full width above the key bar until the
	// next key: the command line `x` copied.
	notice string

	// outView shows the whole outcome in the body, scrolled to outTop.
	outView bool
	outTop  int

	command []string

	lastTimeout string            // the number the timeout row cycles back to
	envLast     map[string]string // the value an env var gets back when toggled on

	observe  func(resolver.Trace)
	panicKey string

	// observed comes from a real deployment's log (deploy.go).
	observed   *logs.Log
	mismatches []logs.Mismatch
	verdict    logs.Verdict
	// verdictGen counts the verdicts judged (recompare), for the cache of
	// the observed lines.
	verdictGen int
	follow     *logs.Follower
	// roleName is the role the inputs edit and other the role beside it, for a
	// disaggregated YAML with both roles (roles.go); other is nil otherwise.
	roleName string
	other    *otherRole

	// rev counts every change that can alter the frame; the frame cache is keyed
	// on it.
	rev   int
	cache *renderCache
	// traceGen counts the traces the model has had, for caches of what a trace
	// draws (the step lines).
	traceGen int
}

// New builds the explorer's model without a terminal. It resolves the starting
// spec once; if the spec does not build (a bad flag value the CLI let through), it
// falls back to the built-in defaults and says why in the status line.
func New(opts Options) Model {
	cat := opts.Catalog
	if cat == nil {
		cat = models.Builtin()
	}
	m := Model{
		cat:         cat,
		start:       cloneSpec(opts.Spec),
		styles:      NewStyles(true),
		keys:        DefaultKeyMap(),
		help:        help.New(),
		width:       opts.Width,
		height:      opts.Height,
		changed:     map[string]bool{},
		lastTimeout: "60000",
		envLast:     map[string]string{},
		observe:     opts.observe,
		panicKey:    opts.panicKey,
		cache:       &renderCache{},
		expanded:    true,
		observed:    opts.Log,
		command:     append([]string(nil), opts.Command...),
		follow:      opts.LogFollow,
		notice:      termsafe.Line(opts.Notice),
	}
	if m.start.Version.Raw == "" && m.start.Model.Raw == "" && m.start.Backend.Raw == "" {
		m.start = inputs.Defaults()
	}
	m.help.Styles = m.styles.Help
	m.rows = buildRows()
	m.pick.filter = m.newInput("", nil)
	m.spec = cloneSpec(m.start)
	if _, err := inputs.Build(m.spec, cat); err != nil {
		m.status, m.statusErr = "start-up input rejected, using defaults: "+err.Error(), true
		d := inputs.Defaults()
		d.Env = m.spec.Env
		m.start, m.spec = d, cloneSpec(d)
	}
	if t := m.spec.TimeoutMS.Raw; t != "" && t != "null" && t != "default" {
		m.lastTimeout = t
	}
	m.resolve(false)
	if len(opts.Roles) > 0 {
		m.other = m.newOtherRole(opts.Roles[0])
		m.roleName = opts.RoleName
		if m.roleName == "" {
			m.roleName = roleContext
			if m.other.name == roleContext {
				m.roleName = roleGeneration
			}
		}
	}
	m.openFailure(true)
	return m
}

// cloneSpec copies a spec deeply enough that editing the copy never touches the
// original (the env map is the only shared part).
func cloneSpec(s inputs.Spec) inputs.Spec {
	c := s
	c.Env = make(map[string]resolver.EnvVar, len(s.Env))
	for k, v := range s.Env {
		c.Env[k] = v
	}
	return c
}

// resolve rebuilds the trace from the spec. It is the only place the resolver runs,
// and it runs only when an input changed. With mark set it records which steps and
// whether the outcome differ from the previous trace.
func (m *Model) resolve(mark bool) tea.Cmd {
	in, err := inputs.Build(m.spec, m.cat)
	if err != nil {
		// Edits are validated before they are applied, so this is a bug; keep the
		// last good trace rather than drawing a broken one.
		m.setStatus("cannot resolve: "+err.Error(), true)
		return nil
	}
	prev := m.trace
	var selID string
	if m.step >= 0 && m.step < len(prev.Steps) && m.mode == viewExplore && m.other == nil {
		selID = prev.Steps[m.step].ID
	}
	m.trace = resolver.Resolve(in)
	m.traceGen++
	m.recompare()
	if selID != "" {
		// Another version may order the steps differently: the selection
		// follows its step, not its position.
		m.showStep(selID)
	}
	if m.step >= len(m.trace.Steps) {
		m.step = len(m.trace.Steps) - 1
	}
	if m.observe != nil {
		m.observe(m.trace)
	}
	if !mark {
		return nil
	}
	m.changed = diffSteps(prev, m.trace)
	m.outcomeChanged = outcomeDiffers(prev, m.trace)
	m.flashGen++
	m.outTop = 0
	if r := m.trace.Result; r.Outcome == resolver.OutcomeError && (prev.Result.Outcome != r.Outcome || prev.Result.FailedStep != r.FailedStep) {
		// A failure opens where it is, whatever was selected before the edit.
		m.openFailure(false)
	}
	return nil
}

// diffSteps returns the ids of steps whose verdict or reason changed.
func diffSteps(a, b resolver.Trace) map[string]bool {
	out := map[string]bool{}
	for _, s := range b.Steps {
		old, ok := a.Step(s.ID)
		if !ok || old.Verdict != s.Verdict || old.Reason != s.Reason || old.Title != s.Title {
			out[s.ID] = true
		}
	}
	return out
}

// outcomeDiffers reports whether the outcome line or the log lines changed.
func outcomeDiffers(a, b resolver.Trace) bool {
	if a.Result != b.Result || len(a.Logs) != len(b.Logs) {
		return true
	}
	for i := range a.Logs {
		if a.Logs[i] != b.Logs[i] {
			return true
		}
	}
	return false
}

func (m *Model) setStatus(s string, isErr bool) tea.Cmd {
	m.status, m.statusErr, m.statusHint = s, isErr, false
	m.statusGen++
	gen := m.statusGen
	return tea.Tick(statusDuration, func(time.Time) tea.Msg { return statusDoneMsg{gen} })
}

// Trace returns the current resolution, for tests and callers that embed the model.
func (m Model) Trace() resolver.Trace { return m.trace }

// Spec returns the current raw inputs.
func (m Model) Spec() inputs.Spec { return m.spec }

// Observed returns the verdict the explorer shows of its --log against the
// current prediction (logs.Judge: pending while the file is followed), for
// tests and callers that embed the model; the zero Verdict without a log.
func (m Model) Observed() logs.Verdict { return m.verdict }

// Init implements tea.Model: ask the terminal for its background so the palette
// fits light and dark terminals (dark until the answer arrives).
func (m Model) Init() tea.Cmd { return tea.Batch(tea.RequestBackgroundColor, m.followLog()) }

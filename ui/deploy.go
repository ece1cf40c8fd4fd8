package ui

import (
	"strconv"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"xcvr/internal/inputs"
	"xcvr/internal/logs"
	"xcvr/internal/report"
	"xcvr/internal/termsafe"
	"xcvr/resolver"
)

// Role is another worker role of the same disaggregated deployment, shown beside
// the one being explored so that a ctx/gen disagreement is visible at once.
type Role struct {
	// Name is "context" or "generation"; Source names the file it came from.
	Name, Source string
	// Spec is the role's inputs, with origins; with it the role can be edited
	// (`R`). Without it, Trace is shown as given.
	Spec  inputs.Spec
	Trace resolver.Trace
}

// recompare judges the observed log (if any) against the current trace, by
// check-logs' rules (logs.Judge): while the log is followed, a process that
// shows no outcome yet is pending, not a disagreement; a log read whole is
// judged as a batch run judges it. It runs with every resolve, so the first
// disagreement follows the operator's edits.
func (m *Model) recompare() {
	if m.observed == nil {
		return
	}
	t := m.trace
	m.verdict = logs.Judge(m.observed, &t, m.follow == nil)
	m.mismatches = m.verdict.Mismatches
	m.verdictGen++
}

// renderDeploy draws the lines under the outcome that come from a real
// deployment: the other role of a disaggregated YAML and what the server log
// observed, with its first disagreement marked. It draws nothing for plain flags.
func (m *Model) renderDeploy(w int) []string {
	st := m.styles
	var out []string
	if o := m.other; o != nil {
		// The verdict is kept whole and the outcome cut before it, so that a
		// narrow terminal still says whether the roles agree.
		verdict, vp := "same as "+m.roleName, st.Dim
		if !sameEnd(o.trace.Result, m.trace.Result) {
			verdict, vp = "✗ differs from "+m.roleName, st.OutcomeError
		}
		l := newLine(w, paint{})
		l.add(paint{}, "  ")
		l.add(st.Bold, o.name+" role: ")
		l.add(outcomePaint(st, o.trace.Result), fitPlain(report.OutcomeLine(o.trace.Result), max(l.room()-cells(verdict)-1, 1)))
		l.add(st.Dim, fitPlain(outcomeContext(o.trace.Result), max(l.room()-cells(verdict)-1, 0)))
		l.right(vp, verdict)
		out = append(out, l.String())
	}
	if m.observed == nil {
		return out
	}
	l := newLine(w, paint{})
	l.add(paint{}, "  ")
	l.add(st.Bold, "observed ")
	verdict := m.verdict.Label()
	vp := st.OutcomeError
	switch m.verdict.Status {
	case logs.StatusAgrees:
		vp = st.OutcomePython
	case logs.StatusPending, logs.StatusNotShown, logs.StatusOrchestrator:
		vp = st.Dim
		if m.observed.TimedOut > 0 {
			vp = st.OutcomeError // the orchestrator gave up: the job never served
		}
	}
	// The verdict is kept whole and the file and summary cut before it.
	keep := 0
	if verdict != "" {
		keep = cells(verdict) + 1
	}
	l.add(st.Value, fitPlain(termsafe.Line(m.observed.Name)+": ", max(l.room()-keep, 1)))
	l.add(paint{}, fitPlain(termsafe.Line(observedSummary(m.observed)), max(l.room()-keep, 0)))
	l.right(vp, verdict)
	out = append(out, l.String())
	// What decides the verdict comes first: each failed process with its
	// cause, then the runtime findings, then the disagreements, the first
	// one whole (wrapped) as far as the height allows, the others on a line
	// each; the rest are counted, and `o` shows every one whole: nothing is
	// cut without a mark.
	// Items are drawn only as far as the room goes: a job of thousands of
	// failed ranks costs a few lines, not one string per rank.
	type item struct {
		pv      *logs.ProcessVerdict
		finding int // index into the process's findings; -1: its failure
	}
	var items []item
	for i := range m.verdict.Processes {
		if m.verdict.Processes[i].Status == logs.StatusFailed {
			items = append(items, item{pv: &m.verdict.Processes[i], finding: -1})
		}
	}
	for i := range m.verdict.Processes {
		for f := range m.verdict.Processes[i].Process.Findings {
			items = append(items, item{pv: &m.verdict.Processes[i], finding: f})
		}
	}
	notes := len(items)
	total := notes + len(m.mismatches)
	room := max(1, m.height/8)
	used := 0
	for i := 0; i < total; i++ {
		if used >= room {
			l := newLine(w, paint{})
			l.add(st.Dim, fitPlain("      … and "+strconv.Itoa(total-i)+" more · o shows them whole", w-1))
			out = append(out, l.String())
			break
		}
		var it []string
		switch {
		case i >= notes:
			mm := m.mismatches[i-notes]
			it = m.mismatchLines(w, mm, false)
			if i == 0 && room >= 2 {
				// The first disagreement, whole when it fits.
				if whole := m.mismatchLines(w, mm, true); len(whole) <= room {
					it = whole
				}
			}
		case items[i].finding < 0:
			p := items[i].pv.Process
			it = []string{m.noteLine(w, st.OutcomeError, "✗ ", p.Source+" failed: "+failureText(p))}
		default:
			p := items[i].pv.Process
			f := p.Findings[items[i].finding]
			it = []string{m.noteLine(w, st.Warn, "! ", p.Source+": "+strconv.Itoa(f.Count)+"× "+logs.FindingWords(f.Kind)+", first at line "+strconv.Itoa(f.Line)+": "+f.Text)}
		}
		out = append(out, it...)
		used += len(it)
	}
	return out
}

// noteLine draws one line under the observed log: a mark and a text cut with
// an ellipsis (the outcome view, `o`, shows it whole).
func (m *Model) noteLine(w int, p paint, mark, text string) string {
	l := newLine(w, paint{})
	l.add(paint{}, "    ")
	l.add(p, mark)
	l.add(paint{}, fitPlain(termsafe.Line(text), max(w-7, 1)))
	return l.String()
}

// failureText is a failed process's error, with its root cause when the log
// shows one apart from it.
func failureText(p *logs.Process) string {
	e, _, _ := strings.Cut(p.Error, "\n")
	if p.Cause != "" && !strings.Contains(e, p.Cause) {
		return strings.TrimSuffix(strings.TrimSpace(e), ":") + " — cause: " + p.Cause
	}
	return e
}

// mismatchLines draws one disagreement: whole, wrapped under its mark, or on
// one line cut with an ellipsis.
func (m *Model) mismatchLines(w int, mm logs.Mismatch, whole bool) []string {
	st := m.styles
	where := mm.Source
	if mm.Line > 0 {
		where += " line " + strconv.Itoa(mm.Line)
	}
	mark := "  ✗ "
	if whole && len(m.mismatches) > 0 && mm == m.mismatches[0] {
		mark = "  ▶ first disagreement "
	}
	head := "  " + mark + termsafe.Line(where) + ": "
	msg := termsafe.Line(mm.Message)
	if !whole {
		l := newLine(w, paint{})
		l.add(paint{}, "  ")
		l.add(st.OutcomeError, mark)
		l.add(st.Dim, termsafe.Line(where)+": ")
		l.add(paint{}, fitPlain(msg, max(w-cells(head), 1)))
		return []string{l.String()}
	}
	indent := 6
	body := strings.Split(ansi.Wrap(msg, max(w-indent-1, 10), ""), "\n")
	var out []string
	l := newLine(w, paint{})
	l.add(paint{}, "  ")
	l.add(st.OutcomeError, mark)
	// Where it is, whole: a long process name (a Ray worker's "pid=…, ip=…
	// rank 1 line 3") goes under the mark, wrapped as the message is.
	if at := termsafe.Line(where) + ":"; cells(at) <= max(w-cells("  "+mark)-1, 1) {
		l.add(st.Dim, at)
		out = append(out, l.String())
	} else {
		out = append(out, l.String())
		for _, b := range strings.Split(ansi.Wrap(at, max(w-indent-1, 10), ""), "\n") {
			l := newLine(w, paint{})
			l.add(paint{}, strings.Repeat(" ", indent))
			l.add(st.Dim, fitPlain(b, max(w-indent-1, 1)))
			out = append(out, l.String())
		}
	}
	for _, b := range body {
		l := newLine(w, paint{})
		l.add(paint{}, strings.Repeat(" ", indent))
		l.add(paint{}, fitPlain(b, max(w-indent-1, 1)))
		out = append(out, l.String())
	}
	return out
}

// observedWhole is what the whole-outcome view (`o`) adds under the outcome:
// the observed log's verdict, then each process as check-logs reports it (its
// outcome with the verdict -f prints, its recognised lines, a failure's cause,
// the runtime findings: logs.ProcessDetail), and every disagreement, all
// wrapped, never cut.
func (m *Model) observedWhole(w int) []string {
	if m.observed == nil {
		return nil
	}
	if c := m.cache; c != nil {
		o := &c.observed
		if o.lines == nil || o.gen != m.verdictGen || o.w != w || o.styles != m.styles {
			o.gen, o.w, o.styles, o.lines = m.verdictGen, w, m.styles, m.observedLines(w)
		}
		return o.lines
	}
	return m.observedLines(w)
}

// observedLines draws what observedWhole shows.
func (m *Model) observedLines(w int) []string {
	st := m.styles
	l := newLine(w, paint{})
	l.add(st.Bold, "Observed ")
	l.add(st.Value, fitPlain(termsafe.Line(m.observed.Name)+": ", max(w-10, 1)))
	out := []string{"", l.String()}
	out = append(out, wrapPainted(verdictPaint(st, m.verdict.Status), m.verdict.Label()+" · "+m.verdict.Summary(), w, 2, 2)...)
	v := m.verdict
	for _, pv := range v.Processes {
		p := pv.Process
		if !logs.Listed(p, pv.Status) {
			continue
		}
		out = append(out, "")
		out = append(out, wrapPainted(verdictPaint(st, pv.Status), p.Source+": "+v.FollowedLine(pv), w, 2, 4)...)
		for _, d := range logs.ProcessDetail(p) {
			t := strings.TrimLeft(d, " ")
			ind := 2 + len(d) - len(t)
			pt := paint{}
			switch {
			case strings.HasPrefix(t, "cause: "):
				pt = st.OutcomeError
			case strings.HasPrefix(t, "! "):
				pt = st.Warn
			}
			out = append(out, wrapPainted(pt, t, w, ind, 4)...)
		}
	}
	if sum := logs.Summarised(v); len(sum) > 0 {
		out = append(out, "", "  "+fitPlain("summarised (no line kept):", max(w-3, 1)))
		for _, s := range sum {
			out = append(out, wrapPainted(paint{}, strings.TrimLeft(s, " "), w, 4, 4)...)
		}
	}
	if len(m.mismatches) > 0 {
		out = append(out, "")
	}
	for _, mm := range m.mismatches {
		out = append(out, m.mismatchLines(w, mm, true)...)
	}
	return out
}

// verdictPaint is how a verdict is painted: agreement green, failure and
// disagreement red, the rest dim.
func verdictPaint(st *Styles, s logs.Status) paint {
	switch s {
	case logs.StatusAgrees, logs.StatusShown:
		return st.OutcomePython
	case logs.StatusFailed, logs.StatusDisagrees, logs.StatusNoLines:
		return st.OutcomeError
	}
	return st.Dim
}

// wrapPainted wraps plain text s to lines of w-1 cells: the first indented by
// ind, the others by ind+hang; nothing is cut (a word longer than a line is
// broken).
func wrapPainted(p paint, s string, w, ind, hang int) []string {
	room := max(w-1-ind-hang, 10)
	var out []string
	for i, part := range wrapWords(termsafe.Line(s), room) {
		pad := ind
		if i > 0 {
			pad += hang
		}
		l := newLine(w, paint{})
		l.add(paint{}, strings.Repeat(" ", pad))
		l.add(p, part)
		out = append(out, l.String())
	}
	return out
}

// logPollInterval is how often the explorer looks for new lines in --log.
const logPollInterval = 250 * time.Millisecond

// logPolledMsg carries what the followed log shows after a poll; lg is nil when
// nothing changed. note says whether the file restarted (truncated, rotated).
type logPolledMsg struct {
	lg   *logs.Log
	note logs.FollowNote
}

// followLog polls the followed log in the background (a tea.Cmd: no I/O in
// Update). Each result schedules the next poll, so polls never overlap.
func (m Model) followLog() tea.Cmd {
	fw := m.follow
	if fw == nil {
		return nil
	}
	return tea.Tick(logPollInterval, func(time.Time) tea.Msg {
		grew, note, err := fw.Poll()
		if err != nil || (!grew && note == logs.NoteNone) {
			return logPolledMsg{}
		}
		return logPolledMsg{lg: fw.Log(), note: note}
	})
}

// logPolled shows the followed log's new state and asks for the next poll.
func (m Model) logPolled(msg logPolledMsg) (tea.Model, tea.Cmd) {
	if msg.lg != nil {
		m.observed = msg.lg
		// A log that restarted for another release (or states its version
		// only now) moves the explored version with it, when the version
		// came from the log: never a stale version against new lines.
		if s := logs.WithVersion(m.spec, msg.lg); s.Version != m.spec.Version {
			m.spec.Version = s.Version
			m.start.Version = s.Version
			m.resolve(false)
		}
		m.recompare()
		m.rev++ // the cached frame is stale
	}
	return m, m.followLog()
}

func outcomePaint(st *Styles, r resolver.Result) paint {
	switch r.Outcome {
	case resolver.OutcomePython:
		return st.OutcomePython
	case resolver.OutcomeDisabled:
		return st.OutcomeOff
	case resolver.OutcomeError:
		return st.OutcomeError
	}
	return st.OutcomeCPP
}

// sameEnd reports whether two roles end on the same transceiver and backend.
func sameEnd(a, b resolver.Result) bool {
	return a.Outcome == b.Outcome && a.Class == b.Class && a.EffectiveBackend == b.EffectiveBackend
}

// observedSummary groups the log's processes by what they ended with, e.g.
// "srun task 0–3: PYTHON on NIXL".
func observedSummary(lg *logs.Log) string {
	if s := logs.OrchestratorShort(lg); s != "" {
		return s // not its own quiet process ("process: outcome not shown")
	}
	if len(lg.Processes) == 0 {
		if len(lg.Stated) == 0 && lg.Orchestrator == 0 {
			return "no line of it is TensorRT-LLM's"
		}
		return "no transceiver lines (log level WARNING, or start-up stopped earlier)"
	}
	type group struct {
		what    string
		sources []string
	}
	var groups []*group
	for _, p := range lg.Processes {
		what := string(p.Outcome())
		if what == "" {
			what = "outcome not shown"
		}
		if p.Backend != "" {
			what += " on " + p.Backend
		}
		var g *group
		for _, x := range groups {
			if x.what == what {
				g = x
			}
		}
		if g == nil {
			g = &group{what: what}
			groups = append(groups, g)
		}
		g.sources = append(g.sources, p.Source)
	}
	var parts []string
	for _, g := range groups {
		who := g.sources[0]
		if n := len(g.sources); n > 1 {
			who += " +" + strconv.Itoa(n-1)
		}
		parts = append(parts, who+": "+g.what)
	}
	return strings.Join(parts, "; ")
}

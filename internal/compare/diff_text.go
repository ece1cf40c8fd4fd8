package compare

import (
	"sort"
	"strconv"
	"strings"

	"xcvr/internal/report"
	"xcvr/resolver"
)

// diffIDWidth fits the longest step id ("model-requirement") plus a gap.
const diffIDWidth = 18

// DiffText renders the two chains side by side: one row per step id, in the TO
// version's order, "≠" in the first column where the step changed. Changed steps
// show both reasons in full; unchanged ones take one line unless opts.All.
func DiffText(d Diff, opts TextOptions) string {
	w := opts.width()
	var b strings.Builder
	fv, tv := d.From.Inputs.Version, d.To.Inputs.Version
	b.WriteString(opts.style(sgrBold, oneLine("xcvr diff: "+fv.Name+" -> "+tv.Name, w)) + "\n")
	writeWrapped(&b, "  from: ", versionLine(fv), w)
	writeWrapped(&b, "  to:   ", versionLine(tv), w)
	writeWrapped(&b, "  inputs: ", inputsLine(d.To.Inputs), w)
	if len(d.Changes) == 0 {
		writeWrapped(&b, "  upstream changes in between: ", "none modelled", w)
	} else {
		b.WriteString("  upstream changes in between:\n")
		for _, c := range d.Changes {
			pr := "#" + strconv.Itoa(c.PR)
			if c.PR == 0 {
				pr = "(no PR)"
			}
			b.WriteString(oneLine("    "+pr+" "+c.Merged.String()+" "+c.Summary, w) + "\n")
		}
	}
	b.WriteByte('\n')

	rest := w - 2 - diffIDWidth
	left := (rest - 3) / 2
	right := rest - 3 - left
	row := func(mark, id string, l, r []string, changed bool) {
		n := max(len(l), len(r))
		for i := 0; i < n; i++ {
			var lc, rc string
			if i < len(l) {
				lc = l[i]
			}
			if i < len(r) {
				rc = r[i]
			}
			m, idc := "  ", ""
			if i == 0 {
				m, idc = mark+" ", id
			}
			line := m + pad(idc, diffIDWidth) + pad(lc, left) + " │ " + rc
			line = strings.TrimRight(line, " ")
			if changed && i == 0 {
				line = opts.style(sgrChanged, m) + line[len(m):]
			}
			b.WriteString(line + "\n")
		}
	}
	row(" ", "step", []string{oneLine(fv.Name, left)}, []string{oneLine(tv.Name, right)}, false)
	row(" ", strings.Repeat("─", diffIDWidth-1), []string{strings.Repeat("─", left)}, []string{strings.Repeat("─", right)}, false)
	for _, s := range d.Steps {
		mark := UnchangedMark
		if s.Changed {
			mark = ChangeMark
		}
		var l, r []string
		if s.Changed || opts.All {
			l, r = wrapCell(stepCell(s.From), left), wrapCell(stepCell(s.To), right)
		} else {
			l, r = []string{oneLine(stepCell(s.From), left)}, []string{oneLine(stepCell(s.To), right)}
		}
		row(mark, s.ID, l, r, s.Changed)
	}
	mark := UnchangedMark
	if d.OutcomeChanged {
		mark = ChangeMark
	}
	row(mark, "outcome", wrapCell(resultCell(d.From.Result), left), wrapCell(resultCell(d.To.Result), right), d.OutcomeChanged)
	b.WriteByte('\n')

	for _, side := range []struct {
		name string
		res  resolver.Result
	}{{fv.Name, d.From.Result}, {tv.Name, d.To.Result}} {
		if side.res.Error != "" {
			writeWrapped(&b, "", opts.style(sgrError, "✗")+" "+side.name+" fails at "+side.res.FailedStep+":", w)
			writeWrapped(&b, "    ", side.res.Error, w)
		}
	}
	if gone, added := LogDiff(d.From.Logs, d.To.Logs); len(gone)+len(added) > 0 {
		writeWrapped(&b, "", "log lines (- only in "+fv.Name+", + only in "+tv.Name+"):", w)
		for _, l := range gone {
			writeWrapped(&b, "  - ", report.LogPrefix(l.Level)+l.Message, w)
		}
		for _, l := range added {
			writeWrapped(&b, "  + ", report.LogPrefix(l.Level)+l.Message, w)
		}
		b.WriteByte('\n')
	}
	if d.Changed() {
		what := strconv.Itoa(len(d.ChangedSteps)) + " step"
		if len(d.ChangedSteps) != 1 {
			what += "s"
		}
		outcome := "outcome stays " + OutcomeLabel(d.To.Result.Outcome)
		if d.OutcomeChanged {
			outcome = "outcome " + OutcomeLabel(d.From.Result.Outcome) + " -> " + OutcomeLabel(d.To.Result.Outcome)
		}
		writeItems(&b, ChangeMark+" ", []string{outcome, "changed: " + what + ":"}, "; ", w)
		if len(d.ChangedSteps) > 0 {
			writeItems(&b, "  ", d.ChangedSteps, ", ", w)
		}
	} else {
		writeWrapped(&b, "", "= no change: every step decides the same; outcome stays "+OutcomeLabel(d.To.Result.Outcome), w)
	}
	return b.String()
}

// LogDiff returns the log lines only the first list has and those only the
// second has, each in its own order; a line printed twice counts twice.
func LogDiff(from, to []resolver.LogLine) (gone, added []resolver.LogLine) {
	left := map[resolver.LogLine]int{}
	for _, l := range to {
		left[l]++
	}
	for _, l := range from {
		if left[l] > 0 {
			left[l]--
			continue
		}
		gone = append(gone, l)
	}
	right := map[resolver.LogLine]int{}
	for _, l := range from {
		right[l]++
	}
	for _, l := range to {
		if right[l] > 0 {
			right[l]--
			continue
		}
		added = append(added, l)
	}
	return gone, added
}

// stepCell is "glyph verdict: reason".
func stepCell(s resolver.Step) string {
	if s.ID == "" {
		return "(step absent)"
	}
	return VerdictGlyph(s.Verdict) + " " + string(s.Verdict) + ": " + s.Reason
}

// resultCell is the outcome with the class or the failed step, and the KV-cache
// manager when one was chosen.
func resultCell(r resolver.Result) string {
	s := OutcomeLabel(r.Outcome)
	switch {
	case r.Class != "":
		s += " (" + r.Class + ")"
	case r.FailedStep != "":
		s += " at " + r.FailedStep
	}
	if r.KVManager.Valid && r.FailedStep == "" {
		s += ", KV-cache manager " + r.KVManager.S
	}
	return s
}

// versionLine is "1.3.0rc22: era 1, main 2026-07-21 (derived)".
func versionLine(v resolver.Version) string {
	s := v.Name + ": era " + strconv.Itoa(v.Era) + ", behaves like main " + v.Main.String()
	if v.Confidence != "" {
		s += " (" + string(v.Confidence) + ")"
	}
	return s
}

// inputsLine summarises the inputs both chains share.
func inputsLine(in resolver.Inputs) string {
	model := in.Model.Value.Arch
	if model == "" {
		model = "(none)"
	}
	backend := "omitted"
	if in.Backend.Value.Valid {
		backend = in.Backend.Value.S
	} else if in.Backend.Given() {
		backend = "null"
	}
	runtime := "unset"
	if in.Runtime.Given() {
		runtime = in.Runtime.Value.String()
		if !in.Runtime.Value.Valid {
			runtime = "null"
		}
	}
	timeout := in.Timeout.Value.String()
	if !in.Timeout.Given() {
		timeout = "default"
	}
	s := "model " + model + ", backend " + backend + ", transceiver_runtime " + runtime +
		", kv_transfer_timeout_ms " + timeout
	if l := in.Loader.Value; l != "" && l != resolver.LoaderPyTorch {
		s += ", loader " + string(l)
	}
	if in.Pipelined.Given() {
		s += ", enable_pipelined_transfer " + strconv.FormatBool(in.Pipelined.Value)
	}
	for _, k := range sortedEnv(in.Env) {
		s += ", " + k + "=" + in.Env[k].Value
	}
	return s
}

func sortedEnv(e resolver.Env) []string {
	keys := make([]string, 0, len(e))
	for k := range e {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

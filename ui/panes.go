package ui

import (
	"path"
	"strconv"
	"strings"

	"github.com/charmbracelet/x/ansi"

	"xcvr/internal/termsafe"
	"xcvr/resolver"
)

// scrollTop keeps [selStart, selEnd] visible in a window of h lines, moving the
// previous top as little as possible so the list does not jump on every key.
func scrollTop(prev, selStart, selEnd, total, h int) int {
	top := prev
	if selEnd >= top+h {
		top = selEnd - h + 1
	}
	if selStart < top {
		top = selStart
	}
	return clamp(top, 0, max(total-h, 0))
}

// renderInputs draws the inputs pane (or the model picker in its place) as exactly
// h lines of w cells. hits[i] is the row (or picker match) drawn on line i, -1 for
// none; mouse clicks use it.
func (m *Model) renderInputs(w, h int) ([]string, []int) {
	if m.pick.open {
		return m.renderPicker(w, h)
	}
	st := m.styles
	focused := m.focus == paneInputs
	body := make([]string, 0, len(m.rows)+2)
	rowHits := make([]int, 0, len(m.rows)+2)
	selLine := 0
	for i, r := range m.rows {
		if r.kind == rowEnv && (i == 0 || m.rows[i-1].kind != rowEnv) {
			l := newLine(w, paint{})
			l.add(st.Label, "  environment (TRTLLM_…)")
			body = append(body, l.String())
			rowHits = append(rowHits, -1)
		}
		if i == m.row {
			selLine = len(body)
		}
		body = append(body, m.inputLine(r, i == m.row, focused, w))
		rowHits = append(rowHits, i)
	}
	out := make([]string, 0, h)
	hits := make([]int, 0, h)
	title := "Inputs"
	if m.other != nil {
		title += " · " + m.roleName + " role · R edits " + m.other.name
	}
	out = append(out, paneTitle(st, title, focused, w))
	hits = append(hits, -1)
	avail := h - 2
	if avail < 1 {
		return out[:min(len(out), h)], hits[:min(len(hits), h)]
	}
	top := scrollTop(m.cache.inputsTop, selLine, selLine, len(body), avail)
	m.cache.inputsTop = top
	for i := top; i < len(body) && len(out) < h-1; i++ {
		out = append(out, body[i])
		hits = append(hits, rowHits[i])
	}
	for len(out) < h-1 {
		out = append(out, strings.Repeat(" ", w))
		hits = append(hits, -1)
	}
	out = append(out, m.hintLine(w))
	hits = append(hits, -1)
	return out, hits
}

// hintLine is the last line of the inputs pane: the selected row's meaning, or the
// editor while a raw value is typed.
func (m *Model) hintLine(w int) string {
	st := m.styles
	l := newLine(w, paint{})
	if m.edit.active {
		r := m.rows[m.edit.row]
		l.add(st.Bold, " "+r.label+" = ")
		l.add(st.Value, string(m.edit.buf))
		l.add(st.Selected, "█")
		if m.edit.err != "" {
			l.add(paint{}, "  ")
			l.add(st.Error, "✗ "+m.edit.err)
		}
		return l.String()
	}
	l.add(st.Dim, " "+rowHint(m.rows[m.row]))
	return l.String()
}

// inputLine draws one input row: selection marker, name, value, what the value
// means, and where it came from.
func (m *Model) inputLine(r inputRow, selected, focused bool, w int) string {
	st := m.styles
	base, marker := st.selection(selected, focused, "  ", "› ")
	l := newLine(w, base)
	l.add(paint{}, marker)
	v := rawOf(&m.spec, r)
	origin := ""
	if r.kind == rowEnv {
		set := v.Raw != envUnset
		if set {
			l.add(st.Counts, "[x] ")
		} else {
			l.add(st.Dim, "[ ] ")
		}
		l.add(st.Value, r.label)
		if !set {
			l.add(st.Dim, " unset")
		} else {
			origin = v.Origin.String()
			l.add(st.Value, "="+resolver.Str(v.Raw).Repr())
			// Every variable but the NIXL transport is read as "exactly '1'".
			if r.env.Name != resolver.EnvNIXLBackend {
				if v.Raw == "1" {
					l.add(st.Counts, " counts")
				} else {
					l.add(st.Ignored, " ignored (not '1')")
				}
			}
		}
	} else {
		origin = v.Origin.String()
		l.add(st.Label, padRight(r.label, 11))
		val, extra := m.displayValue(r, v.Raw)
		l.add(st.Value, val)
		l.add(st.Dim, extra)
	}
	if origin != "" && w >= 40 {
		// Keep the origin visible: if the row is too long, the origin's paths
		// lose their directories first, then the origin wins over the tail.
		if l.room() < cells(origin)+2 {
			origin = shortOrigin(origin)
		}
		if l.room() < cells(origin)+2 {
			return cutForOrigin(l, st, origin, base, w)
		}
		l.right(st.Origin, origin)
	}
	return l.String()
}

// shortOrigin drops the directories of the paths in an origin
// ("deploy/testdata/disagg.yaml:11" -> "disagg.yaml:11"): in a narrow pane the
// file and line say enough, and the value they set stays readable.
func shortOrigin(o string) string {
	f := strings.Fields(o)
	for i, s := range f {
		if j := strings.LastIndexByte(s, '/'); j >= 0 {
			lead := ""
			if strings.HasPrefix(s, "(") {
				lead = "("
			}
			f[i] = lead + s[j+1:]
		}
	}
	return strings.Join(f, " ")
}

// cutForOrigin redraws a too-long row's origin over its last cells.
func cutForOrigin(l *line, st *Styles, origin string, base paint, w int) string {
	s := l.String()
	keep := w - len(origin) - 1
	cut := ansi.Truncate(s, keep, "…")
	if cw := ansi.StringWidth(cut); cw < keep {
		cut += strings.Repeat(" ", keep-cw)
	}
	return cut + base.pre + " " + st.Origin.pre + origin + st.Origin.suf + base.suf
}

func padRight(s string, n int) string {
	if len(s) >= n {
		return s + " "
	}
	return s + strings.Repeat(" ", n-len(s))
}

// displayValue renders a field row's value and a quiet remark on what it means.
func (m *Model) displayValue(r inputRow, raw string) (string, string) {
	in := m.trace.Inputs
	switch r.kind {
	case rowVersion:
		if in.Version.Install != nil {
			// Read from --install: the origin column says "install version.py:N";
			// the value came from a file, so it is escaped.
			return termsafe.Line(raw), " era " + strconv.Itoa(in.Version.Era)
		}
		return raw, " era " + strconv.Itoa(in.Version.Era)
	case rowModel:
		if raw == "" {
			raw = "(none)"
		}
		return raw, " " + shortPref(in.Model.Value)
	case rowBackend:
		if raw == "" || raw == "none" || raw == "null" {
			return "none", " disaggregation off"
		}
		return raw, ""
	case rowRuntime:
		if raw == "" || raw == "unset" {
			return "unset", " version default"
		}
		return raw, ""
	case rowTimeout:
		switch raw {
		case "", "default":
			return "default", " (" + strconv.Itoa(resolver.DefaultTimeoutMS) + ")"
		case "null":
			return "null", " no timeout"
		}
		return raw, ""
	case rowLoader:
		if raw == "" {
			return string(resolver.LoaderPyTorch), ""
		}
		return raw, ""
	case rowPipelined:
		if raw == "" {
			return "omitted", ""
		}
		return raw, ""
	case rowKVManager:
		if raw == "" {
			return "unset", " version default"
		}
		return raw, ""
	}
	return raw, ""
}

// renderPicker draws the model list with its filter in the inputs pane's place.
func (m *Model) renderPicker(w, h int) ([]string, []int) {
	st := m.styles
	out := make([]string, 0, h)
	hits := make([]int, 0, h)
	title := "Model for " + m.trace.Inputs.Version.Name
	out = append(out, paneTitle(st, title, true, w))
	hits = append(hits, -1)
	fl := newLine(w, paint{})
	fl.add(st.Label, " filter: ")
	fl.add(st.Value, string(m.pick.filter))
	if m.pick.filtering {
		fl.add(st.Selected, "█")
	} else {
		fl.add(st.Dim, "press / to type")
	}
	out = append(out, fl.String())
	hits = append(hits, -1)
	avail := h - 2
	if avail <= 0 {
		return out[:h], hits[:h]
	}
	items := m.pick.items
	top := scrollTop(0, m.pick.sel, m.pick.sel, len(m.pick.matches), avail)
	for i := top; i < len(m.pick.matches) && len(out) < h; i++ {
		it := items[m.pick.matches[i]]
		base := paint{}
		marker := "  "
		if i == m.pick.sel {
			base, marker = st.Selected, "› "
		}
		l := newLine(w, base)
		l.add(paint{}, marker)
		if it.custom {
			l.add(st.Value, it.arch)
			if len(m.pick.filter) > 0 {
				l.add(st.Dim, " ("+string(m.pick.filter)+")")
			}
		} else {
			l.add(st.Value, padRight(it.arch, 32))
			pp := st.Dim
			if strings.HasPrefix(it.pref, "prefers") {
				pp = st.Counts
			}
			l.add(pp, padRight(it.pref, 16))
			l.add(st.Dim, it.family)
		}
		out = append(out, l.String())
		hits = append(hits, i)
	}
	for len(out) < h {
		out = append(out, strings.Repeat(" ", w))
		hits = append(hits, -1)
	}
	return out, hits
}

// sourceTag is a step's source in a few cells: the PR, else the file's base name.
func sourceTag(s resolver.Source) string {
	switch {
	case s.PR != 0:
		return "#" + strconv.Itoa(s.PR)
	case s.File != "":
		return path.Base(s.File)
	}
	return ""
}

// renderChain draws the resolver's steps, numbered, one line each, with the
// selected step expanded when asked. hits[i] is the step index drawn on line i.
func (m *Model) renderChain(w, h int) ([]string, []int) {
	if m.mode == viewCompare {
		return m.renderCompare(w, h)
	}
	if m.other != nil {
		return m.renderRoles(w, h)
	}
	st := m.styles
	t := &m.trace
	focused := m.focus == paneChain
	body := make([]string, 0, len(t.Steps)+8)
	bodyHits := make([]int, 0, len(t.Steps)+8)
	selStart, selEnd := 0, 0
	for i, s := range t.Steps {
		sel := i == m.step
		if sel {
			selStart = len(body)
		}
		body = append(body, m.stepLine(i, s, sel, focused, w))
		bodyHits = append(bodyHits, i)
		if sel && m.showDetail() {
			for _, x := range stepDetail(st, s, w) {
				body = append(body, x)
				bodyHits = append(bodyHits, i)
			}
		}
		if sel {
			selEnd = len(body) - 1
		}
	}
	out := make([]string, 0, h)
	hits := make([]int, 0, h)
	title := "Chain · " + strconv.Itoa(len(t.Steps)) + " steps · " + t.Inputs.Version.Name
	if m.showDetail() {
		title += " · enter folds"
	} else {
		title += " · enter explains"
	}
	out = append(out, paneTitle(st, title, focused, w))
	hits = append(hits, -1)
	avail := h - 1
	if avail <= 0 {
		return out[:h], hits[:h]
	}
	return m.scrollChain(out, hits, body, bodyHits, selStart, selEnd, avail, w, h)
}

// stepLine is one step: selection marker, change mark, number, verdict glyph and
// word (so the verdict never rests on colour alone), title and reason, and at the
// right its source and an "inferred" mark when the spec is unverified.
func (m *Model) stepLine(i int, s resolver.Step, sel, focused bool, w int) string {
	st := m.styles
	base, marker := st.selection(sel, focused, " ", "›")
	l := newLine(w, base)
	l.add(paint{}, marker)
	if m.changed[s.ID] {
		l.add(st.Changed, "*")
	} else {
		l.add(paint{}, " ")
	}
	num := strconv.Itoa(i + 1)
	if i < 9 {
		num = " " + num
	}
	l.add(st.Dim, num+" ")
	vp := st.Verdict[s.Verdict]
	l.add(vp, glyphOf(s.Verdict)+" "+verdictWord(s.Verdict)+" ")
	tail := sourceTag(s.Source)
	if len(tail) > l.room()/5 {
		// A long file name would eat the reason; the expansion shows it in full.
		tail = ""
	}
	if s.Confidence == resolver.Inferred {
		if tail != "" {
			tail += " "
		}
		tail += "inferred"
	}
	text := s.Title + ": " + s.Reason
	if tail != "" && l.room() >= 40 {
		l.add(paint{}, fitPlain(text, l.room()-len(tail)-1))
		l.right(st.Dim, tail)
	} else {
		l.add(paint{}, text)
	}
	return l.String()
}

// stepDetail is the expansion of a selected step: the full reason and
// explanation, wrapped, then source and confidence in words.
func stepDetail(st *Styles, s resolver.Step, w int) []string {
	const indent = "      "
	iw := w - len(indent) - 1
	if iw < 10 {
		return nil
	}
	var out []string
	wrap := func(p paint, text string) {
		for _, ln := range strings.Split(ansi.Wrap(text, iw, ""), "\n") {
			l := newLine(w, paint{})
			l.add(paint{}, indent)
			l.add(p, ln)
			out = append(out, l.String())
		}
	}
	wrap(st.Value, s.Reason)
	if s.Detail != "" {
		wrap(st.Dim, s.Detail)
	}
	src := s.Source.String()
	if src == "" {
		src = "none recorded"
	}
	wrap(st.Label, "source: "+src)
	conf := "confidence: " + string(s.Confidence)
	switch s.Confidence {
	case resolver.Inferred:
		conf += " (the spec marks this unverified)"
	case resolver.Derived:
		conf += " (derived from verified facts)"
	}
	wrap(st.Label, conf+" · phase: "+string(s.Phase))
	return out
}

// showDetail reports whether the selected step is drawn expanded. Stacked, an
// unfocused chain pane is too short for an explanation, so it shows the overview.
func (m *Model) showDetail() bool {
	return m.expanded && (m.width >= twoColumnWidth || m.focus == paneChain)
}

// shortPref is prefWord in fewer cells, for the model row where the origin must
// still fit; the picker spells it out.
func shortPref(info resolver.ModelInfo) string {
	switch {
	case !info.Known:
		return "unregistered"
	case info.Preference.IsNone():
		return "no pref"
	default:
		return "pref " + info.Preference.S
	}
}

// scrollChain appends to out the window of body (avail lines) that keeps the
// selected step's lines selStart..selEnd in view, remembering the scroll position,
// and pads the pane to h lines; hits map each line to the step it shows (-1: none).
func (m *Model) scrollChain(out []string, hits []int, body []string, bodyHits []int, selStart, selEnd, avail, w, h int) ([]string, []int) {
	top := scrollTop(m.cache.chainTop, selStart, min(selEnd, selStart+avail-1), len(body), avail)
	m.cache.chainTop = top
	for i := top; i < len(body) && len(out) < h; i++ {
		out = append(out, body[i])
		hits = append(hits, bodyHits[i])
	}
	pad := strings.Repeat(" ", w)
	for len(out) < h {
		out = append(out, pad)
		hits = append(hits, -1)
	}
	return out, hits
}

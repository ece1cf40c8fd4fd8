package ui

import (
	"path"
	"slices"
	"strconv"
	"strings"

	"github.com/charmbracelet/x/ansi"

	"xcvr/internal/inputs"
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
			l.add(st.Label, "  environment (TRTLLM_… unless spelt out)")
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
	avail := h - 1
	if avail < 1 {
		out = append(out, paneTitle(st, title, focused, w))
		hits = append(hits, -1)
		return out[:min(len(out), h)], hits[:min(len(hits), h)]
	}
	top := scrollTop(m.cache.inputsTop, selLine, selLine, len(body), avail)
	m.cache.inputsTop = top
	out = append(out, paneTitle(st, title+scrollMarks(top, len(body), avail), focused, w))
	hits = append(hits, -1)
	for i := top; i < len(body) && len(out) < h; i++ {
		out = append(out, body[i])
		hits = append(hits, rowHits[i])
	}
	for len(out) < h {
		out = append(out, strings.Repeat(" ", w))
		hits = append(hits, -1)
	}
	return out, hits
}

// inputsWidth is the width at which every input row shows its value, its
// remark and its whole origin: what the inputs pane asks of the layout.
func (m *Model) inputsWidth() int {
	need := 0
	for _, r := range m.rows {
		v := rawOf(&m.spec, r)
		n := 2
		origin := v.Origin.String()
		if r.kind == rowEnv {
			n += 4 + cells(r.label)
			if v.Raw == envUnset {
				n += len(" unset")
				origin = ""
			} else {
				n += 1 + cells(resolver.Str(v.Raw).Repr()) + len(" ignored (not '1')")
			}
		} else if e, bad := fileInvalid(&m.spec, r); bad {
			origin = e.Origin.String()
			n += 11 + cells(e.Input) + len(" ✗ invalid")
		} else {
			val, extra := m.displayValue(r, v.Raw)
			n += 11 + cells(val) + cells(extra)
		}
		if origin != "" {
			n += 2 + cells(origin)
		}
		need = max(need, n)
	}
	if m.other != nil {
		need = max(need, cells(" Inputs · "+m.roleName+" role · R edits "+m.other.name)+6)
	}
	return need + 1
}

// statusLines is the one status area, above the key bar: the command line x
// just copied, else the last action's message, wrapped whole; nil for neither.
func (m *Model) statusLines(w int) []string {
	st := m.styles
	notice, p := m.notice, st.Value
	if notice == "" {
		if m.status == "" {
			return nil
		}
		notice, p = "✓ "+m.status, st.Counts
		if m.statusHint {
			notice, p = "· "+m.status, st.Dim
		}
		if m.statusErr {
			notice, p = "✗ "+m.status, st.Error
		}
	}
	var out []string
	for _, s := range wrapWords(termsafe.Line(notice), w-2) {
		l := newLine(w, paint{})
		l.add(paint{}, " ")
		l.add(p, s)
		out = append(out, l.String())
	}
	return out
}

// hintLines is the full-width area above the key bar: the selected row's
// meaning, or the editor while a raw value is typed (its error wrapped in full
// below it), or the command line `x` just copied.
func (m *Model) hintLines(w int) []string {
	st := m.styles
	if m.edit.active {
		r := m.rows[m.edit.row]
		l := newLine(w, paint{})
		l.add(st.Bold, " "+r.label+" = ")
		m.edit.in.SetWidth(max(l.room()-2, 1))
		v := m.edit.in.View()
		l.raw(v, ansi.StringWidth(v))
		out := []string{l.String()}
		if m.edit.err != "" {
			for _, s := range strings.Split(ansi.Wrap("✗ "+termsafe.Line(m.edit.err), w-3, ""), "\n") {
				e := newLine(w, paint{})
				e.add(paint{}, "   ")
				e.add(st.Error, s)
				out = append(out, e.String())
			}
		}
		return out
	}
	if out := m.statusLines(w); len(out) > 0 {
		return out
	}
	if m.pick.open || m.mode == viewCompare {
		return nil
	}
	hint := "n/N: next/previous deciding step · o: the whole outcome"
	if !m.keys.NextStep.Enabled() {
		hint = "N: previous deciding step · o: the whole outcome"
	}
	if m.focus == paneInputs {
		hint = rowHint(m.rows[m.row])
	}
	// Two lines at most, so the panes do not jump; a longer hint is cut with a mark.
	parts := wrapWords(hint, w-2)
	if len(parts) > 2 {
		parts[1] = fitPlain(strings.Join(parts[1:], " "), w-2)
		parts = parts[:2]
	}
	out := make([]string, 0, 2)
	for _, p := range parts {
		l := newLine(w, paint{})
		l.add(st.Dim, " "+p)
		out = append(out, l.String())
	}
	return out
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
			// The variables without their own values are read as "exactly '1'".
			if len(r.env.Values) == 0 {
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
		if e, bad := fileInvalid(&m.spec, r); bad {
			// The file's value, as TensorRT-LLM would print it, and that it is
			// rejected: the default is not what the worker receives.
			origin = termsafe.Line(e.Origin.String())
			l.add(st.Error, termsafe.Line(e.Input))
			l.add(st.Error, " ✗ invalid")
		} else {
			raw := v.Raw
			if b := m.trace.Inputs.Backend.Value; r.kind == rowBackend && v.Origin.Kind == resolver.OriginPreset && b.Valid {
				raw = b.S // xcvr's own choice, as the build spells it ('default' on 1.0)
			}
			val, extra := m.displayValue(r, raw)
			if m.rejected(r, raw) {
				// A literal TensorRT-LLM refuses ('nixl', 'Auto', 0): the chain's
				// validation step says why.
				l.add(st.Error, val)
				l.add(st.Error, " ✗ invalid")
				extra = ""
			} else {
				l.add(st.Value, val)
			}
			if l.room() >= cells(extra)+cells(shortOrigin(origin))+2 || origin == "" {
				l.add(st.Dim, extra)
			}
		}
	}
	if origin != "" && w >= 40 {
		// The value is never hidden behind its origin: the origin's paths lose
		// their directories first, then its "(overrides …)" is cut, with a mark.
		if l.room() < cells(origin)+2 {
			origin = shortOrigin(origin)
		}
		if room := l.room() - 1; room < cells(origin) && room >= 6 {
			origin = fitPlain(origin, room)
		}
		l.right(st.Origin, origin)
	}
	return l.String()
}

// wrapWords wraps at spaces only, so that a command line breaks between its
// words and never inside a flag such as --clean-env (a copied line must read
// the same as the one on screen); a word longer than w is broken by cells.
func wrapWords(s string, w int) []string {
	var out []string
	cur := ""
	for _, word := range strings.Split(s, " ") {
		switch {
		case cur == "":
			cur = word
		case cells(cur)+1+cells(word) <= w:
			cur += " " + word
		default:
			out = append(out, cur)
			cur = word
		}
		for cells(cur) > w {
			out = append(out, ansi.Truncate(cur, w, ""))
			cur = ansi.TruncateLeft(cur, w, "")
		}
	}
	return append(out, cur)
}

// rejected reports whether a row's raw value is one TensorRT-LLM's validation
// refuses: a backend outside the build's literals (case-sensitive: 1.0 takes
// only default, ucx, nixl, mpi), a runtime outside the literals, or a timeout
// that is not > 0.
func (m *Model) rejected(r inputRow, raw string) bool {
	switch r.kind {
	case rowBackend:
		return raw != "" && raw != "null" && !slices.Contains(m.choices(r), raw)
	case rowRuntime:
		return raw != "" && !slices.Contains(inputs.Runtimes(), raw)
	case rowTimeout:
		n, err := strconv.ParseInt(strings.TrimSpace(raw), 10, 64)
		return err == nil && n <= 0
	}
	return false
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
	if m.pick.kind == rowVersion {
		title = "Version · " + strconv.Itoa(len(m.pick.items)-1) + " to choose from"
	}
	top := scrollTop(0, m.pick.sel, m.pick.sel, len(m.pick.matches), max(h-2, 1))
	out = append(out, paneTitle(st, title+scrollMarks(top, len(m.pick.matches), h-2), true, w))
	hits = append(hits, -1)
	fl := newLine(w, paint{})
	fl.add(st.Label, " filter: ")
	if m.pick.filtering {
		m.pick.filter.SetWidth(max(fl.room()-2, 1))
		v := m.pick.filter.View()
		fl.raw(v, ansi.StringWidth(v))
	} else {
		fl.add(st.Value, m.pick.filter.Value())
		fl.add(st.Dim, " press / to type")
	}
	out = append(out, fl.String())
	hits = append(hits, -1)
	avail := h - 2
	if avail <= 0 {
		return out[:h], hits[:h]
	}
	items := m.pick.items
	// The name column is as wide as the longest name, up to what leaves the
	// preference its room; a longer name is cut with a mark, never pushing the
	// columns after it out of line.
	archW := 0
	for _, it := range items {
		if !it.custom {
			archW = max(archW, cells(it.arch))
		}
	}
	archW = min(archW, max(w-2-16-8, 16))
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
			if f := m.pick.filter.Value(); f != "" {
				l.add(st.Dim, " ("+f+")")
			}
		} else {
			l.add(st.Value, fitPlain(it.arch, archW))
			l.pad(2 + archW + 1)
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
	// Under `/`, only the steps that match (and the selected one) are drawn.
	shown := make([]bool, len(t.Steps))
	nShown := 0
	for i, s := range t.Steps {
		if shown[i] = m.stepShown(i, stepText(s)); shown[i] {
			nShown++
		}
	}
	// Room the pane has beyond one line per step (and the expansion) is spent
	// wrapping the reasons that do not fit, in order, rather than left empty.
	spare := h - 1 - nShown
	if m.showDetail() && m.step < len(t.Steps) {
		spare -= len(m.cachedDetail(m.step, t.Steps[m.step], w))
	}
	for i, s := range t.Steps {
		if !shown[i] {
			continue
		}
		sel := i == m.step
		if sel {
			selStart = len(body)
		}
		extra := 0
		if spare > 0 && !(sel && m.showDetail()) {
			extra = spare
		}
		lines := m.cachedStepLine(i, s, sel, focused, w, extra)
		spare -= len(lines) - 1
		for _, x := range lines {
			body = append(body, x)
			bodyHits = append(bodyHits, i)
		}
		if sel && m.showDetail() {
			for _, x := range m.cachedDetail(i, s, w) {
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
	title := "Chain · " + strconv.Itoa(len(t.Steps)) + " steps" + filterMark(&m.chainFlt, nShown, len(t.Steps)) + " · " + t.Inputs.Version.Name
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
	out, hits = m.scrollChain(out, hits, body, bodyHits, selStart, selEnd, avail, w, h)
	if marks := scrollMarks(m.cache.chainTop, len(body), avail); marks != "" {
		out[0] = paneTitle(st, withMarks(title, marks), focused, w)
	}
	return out, hits
}

// withMarks puts scroll marks after a title's first part, where a narrow pane
// does not cut them off.
func withMarks(title, marks string) string {
	if i := strings.Index(title, " · "); i >= 0 {
		return title[:i] + marks + title[i:]
	}
	return title + marks
}

// cachedStepLine is stepLine, drawn once per trace, width and state.
func (m *Model) cachedStepLine(i int, s resolver.Step, sel, focused bool, w, extra int) []string {
	c := m.cache
	if c.steps == nil || len(c.steps) > 512 {
		c.steps = map[stepKey][]string{}
	}
	k := stepKey{i: i, w: w, extra: extra, sel: sel, focused: focused, changed: m.changed[s.ID], styles: m.styles, step: s}
	if l, ok := c.steps[k]; ok {
		return l
	}
	l := m.stepLine(i, s, sel, focused, w, extra)
	c.steps[k] = l
	return l
}

// cachedDetail is stepDetail, drawn once per trace, width and palette.
func (m *Model) cachedDetail(i int, s resolver.Step, w int) []string {
	c := m.cache
	if c.steps == nil || len(c.steps) > 512 {
		c.steps = map[stepKey][]string{}
	}
	k := stepKey{i: i, w: w, extra: -1, styles: m.styles, step: s}
	if l, ok := c.steps[k]; ok {
		return l
	}
	l := stepDetail(m.styles, s, w)
	c.steps[k] = l
	return l
}

// stepLine is one step: selection marker, change mark, number, verdict glyph and
// word (so the verdict never rests on colour alone), title and reason, and at the
// right its source and an "inferred" mark when the spec is unverified. A reason
// that does not fit wraps onto up to extra more lines, aligned under the text;
// past those it is cut with a mark (enter shows it whole).
func (m *Model) stepLine(i int, s resolver.Step, sel, focused bool, w, extra int) []string {
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
	col := l.w
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
	room := l.room()
	if tail != "" && room >= 40 {
		room -= len(tail) + 1
	} else {
		tail = ""
	}
	if extra <= 0 || cells(text) <= room {
		l.add(paint{}, fitPlain(text, room))
		if tail != "" {
			l.right(st.Dim, tail)
		}
		return []string{l.String()}
	}
	// The first line shares its row with the source tag; the rest have the
	// whole width after the verdict.
	full := w - col
	parts := strings.Split(ansi.Wrap(text, room, ""), "\n")
	if rest := strings.TrimLeft(strings.TrimPrefix(text, parts[0]), " "); rest != "" && full > room {
		parts = append(parts[:1], strings.Split(ansi.Wrap(rest, full, ""), "\n")...)
	}
	n := min(len(parts), 1+extra)
	if n < len(parts) {
		parts[n-1] = fitPlain(strings.Join(parts[n-1:], " "), full)
	}
	l.add(paint{}, parts[0])
	if tail != "" {
		l.right(st.Dim, tail)
	}
	out := []string{l.String()}
	for _, p := range parts[1:n] {
		c := newLine(w, base)
		c.pad(col)
		c.add(paint{}, p)
		out = append(out, c.String())
	}
	return out
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

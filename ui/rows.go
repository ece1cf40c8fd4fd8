package ui

import (
	"charm.land/bubbles/v2/textinput"
	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"

	"strconv"
	"strings"

	"github.com/sahilm/fuzzy"

	"xcvr/internal/inputs"
	"xcvr/internal/termsafe"
	"xcvr/resolver"
)

// rowKind is which input an inputs-pane row edits.
type rowKind int

const (
	rowVersion rowKind = iota
	rowModel
	rowBackend
	rowRuntime
	rowTimeout
	rowLoader
	rowPipelined
	rowKVManager
	rowEnv
)

// inputRow is one selectable line of the inputs pane.
type inputRow struct {
	kind  rowKind
	label string
	env   resolver.EnvSpec // for rowEnv
}

// envUnset stands for "variable absent" in an env row's choices; it cannot be a
// real value because a NUL cannot be in the environment.
const envUnset = "\x00"

// explorerOrigin marks a value the user set in the explorer. It is rendered
// "explorer" everywhere, including in the resolver's reasons.
var explorerOrigin = resolver.Origin{Kind: resolver.OriginKind("explorer")}

func buildRows() []inputRow {
	rows := []inputRow{
		{kind: rowVersion, label: "version"},
		{kind: rowModel, label: "model"},
		{kind: rowBackend, label: "backend"},
		{kind: rowRuntime, label: "runtime"},
		{kind: rowTimeout, label: "timeout ms"},
		{kind: rowLoader, label: "loader"},
		{kind: rowPipelined, label: "pipelined"},
		{kind: rowKVManager, label: "kv manager"},
	}
	for _, e := range resolver.EnvVars() {
		rows = append(rows, inputRow{kind: rowEnv, label: strings.TrimPrefix(e.Name, "TRTLLM_"), env: e})
	}
	return rows
}

// rowHint is the one-line explanation shown under the inputs for the selected row.
func rowHint(r inputRow) string {
	switch r.kind {
	case rowVersion:
		return "TensorRT-LLM build; ←→ steps through releases, enter lists them all (type to filter, or main@YYYY-MM-DD)"
	case rowModel:
		return "config.json architectures[0]; enter or / picks; any name works"
	case rowBackend:
		return "cache_transceiver_config.backend; none turns disaggregation off"
	case rowRuntime:
		return "cache_transceiver_config.transceiver_runtime; unset = default"
	case rowTimeout:
		return "cache_transceiver_config.kv_transfer_timeout_ms; enter types ms"
	case rowLoader:
		return "how the model is loaded; only pytorch resolves 'auto' at load"
	case rowPipelined:
		return "cache_transceiver_config.enable_pipelined_transfer"
	case rowKVManager:
		return "kv_cache_config.use_kv_cache_manager_v2; unset = version default"
	}
	return r.env.Name + ": " + r.env.Help
}

// rawOf returns the row's raw value and origin; for env rows an absent variable is
// envUnset.
func rawOf(s *inputs.Spec, r inputRow) inputs.Value {
	switch r.kind {
	case rowVersion:
		return s.Version
	case rowModel:
		return s.Model
	case rowBackend:
		return s.Backend
	case rowRuntime:
		return s.Runtime
	case rowTimeout:
		return s.TimeoutMS
	case rowLoader:
		return s.Loader
	case rowPipelined:
		return s.Pipelined
	case rowKVManager:
		return s.KVManager
	}
	v, ok := s.Env[r.env.Name]
	if !ok {
		return inputs.Value{Raw: envUnset}
	}
	return inputs.Value{Raw: v.Value, Origin: v.Origin}
}

// rowField is the cache_transceiver_config field a row edits, "" for the others.
func rowField(r inputRow) string {
	switch r.kind {
	case rowBackend:
		return inputs.FieldBackend
	case rowRuntime:
		return inputs.FieldRuntime
	case rowTimeout:
		return inputs.FieldTimeout
	case rowPipelined:
		return inputs.FieldPipelined
	}
	return ""
}

// fileInvalid returns the value a file writes for the row's field that
// TensorRT-LLM rejects, when nothing else (a flag, an edit) set the field: that
// is what the worker receives, so the row shows it rather than the default xcvr
// resolves in its place.
func fileInvalid(s *inputs.Spec, r inputRow) (resolver.FieldError, bool) {
	f := rowField(r)
	if f == "" || len(s.ConfigErrors) == 0 {
		return resolver.FieldError{}, false
	}
	if !rawOf(s, r).Origin.IsDefault() {
		return resolver.FieldError{}, false
	}
	return s.Invalid(f)
}

// overrides says which file line a value replaces, from the origin of the value
// it replaces: a file's line, or the one an earlier override already named.
func overrides(o resolver.Origin) string {
	if o.Kind == resolver.OriginFile {
		return o.Detail
	}
	if _, after, ok := strings.Cut(o.Detail, "(overrides "); ok {
		return strings.TrimSuffix(after, ")")
	}
	return ""
}

// setRaw stores a raw value with the explorer's origin. Like a flag for the same
// field (deploy.Apply), it overrides what a file writes there, valid or not: the
// file's validation error for the field goes, and the origin names the line.
func setRaw(s *inputs.Spec, r inputRow, raw string) {
	over := overrides(rawOf(s, r).Origin)
	if f := rowField(r); f != "" {
		if w := s.Override(f); w != "" {
			over = w
		}
	}
	v := inputs.Value{Raw: raw, Origin: explorerOrigin}
	if over != "" {
		v.Origin.Detail = "(overrides " + over + ")"
	}
	switch r.kind {
	case rowVersion:
		s.Version = v
	case rowModel:
		s.Model = v
	case rowBackend:
		s.Backend = v
	case rowRuntime:
		s.Runtime = v
	case rowTimeout:
		s.TimeoutMS = v
	case rowLoader:
		s.Loader = v
	case rowPipelined:
		s.Pipelined = v
	case rowKVManager:
		s.KVManager = v
	case rowEnv:
		// The spec is cloned before every edit, so this map is the model's own.
		if raw == envUnset {
			delete(s.Env, r.env.Name)
		} else {
			s.Env[r.env.Name] = resolver.EnvVar{Value: raw, Origin: v.Origin}
		}
	}
}

// choices lists what ←/→ cycle through for a row.
func (m *Model) choices(r inputRow) []string {
	switch r.kind {
	case rowVersion:
		vs := resolver.KnownVersions()
		out := make([]string, 0, len(vs)+1)
		ic := installChoice(&m.spec)
		var day resolver.Day
		if ic != "" {
			day = resolver.InstallVersion(m.spec.Install).Main
		}
		for _, v := range vs {
			if ic != "" && v.Main > day {
				// The installed version goes where its day puts it, after a
				// release of the same day (and name).
				out = append(out, ic)
				ic = ""
			}
			out = append(out, v.Name)
		}
		if ic != "" {
			out = append(out, ic)
		}
		return out
	case rowModel:
		es := m.cat.Entries()
		out := make([]string, len(es))
		for i, e := range es {
			out[i] = e.Arch
		}
		return out
	case rowBackend:
		// "none" (disaggregation off) first, so that ← from DEFAULT turns it
		// off; then the names the build's CacheTransceiverConfig accepts, as
		// it spells them (1.0 takes default, ucx, nixl, mpi and refuses
		// DEFAULT; MOONCAKE only from 1.2.0rc6).
		return append([]string{"none"}, inputs.BackendsOf(m.trace.Inputs.Version)...)
	case rowRuntime:
		return inputs.Runtimes()
	case rowTimeout:
		return []string{"", "null", m.lastTimeout}
	case rowLoader:
		ls := resolver.Loaders()
		out := make([]string, len(ls))
		for i, l := range ls {
			out[i] = string(l)
		}
		return out
	case rowPipelined:
		return []string{"", "true", "false"}
	case rowKVManager:
		return []string{"", "auto", "v1", "v2"}
	}
	if len(r.env.Values) > 0 {
		return append(append([]string{envUnset}, r.env.Values...), "")
	}
	// The values that make the point: only "1" counts.
	return []string{envUnset, "1", "true", "0", ""}
}

// cycle moves the row's value by delta through its choices and re-resolves. The
// ends clamp, as the matrix cursor does: → on the newest version must not land
// on the oldest era. At an end it says so and what else there is; ok is false
// when nothing changed and nothing was said.
func (m *Model) cycle(r inputRow, delta int) tea.Cmd {
	ch := m.choices(r)
	cur := rawOf(&m.spec, r).Raw
	if _, bad := fileInvalid(&m.spec, r); bad {
		cur = "\x00invalid" // the file's value is none of the choices
	}
	if r.kind == rowVersion && m.spec.Install != nil && m.spec.Version.Origin.Kind == resolver.OriginInstall {
		cur = installChoice(&m.spec)
	}
	idx := -1
	for i, c := range ch {
		// A backend is found in the build's own spelling too: xcvr's preset
		// DEFAULT is 'default' on 1.0, and a NIXL chosen on 1.4 steps from
		// 'nixl' once the version is 1.0.
		if c == cur || r.kind == rowBackend && strings.EqualFold(c, cur) {
			idx = i
			break
		}
	}
	var next int
	switch {
	case idx < 0 && delta > 0:
		next = 0
	case idx < 0:
		next = len(ch) - 1
	default:
		next = idx + delta
	}
	if next < 0 || next >= len(ch) {
		if r.kind == rowVersion && next >= len(ch) && ch[len(ch)-1] == installChoice(&m.spec) {
			return m.setStatus("the install is newer than every known release; ← goes to them", false)
		}
		return m.setStatus(endHint(r, next >= len(ch)), false)
	}
	return m.apply(r, ch[next])
}

// endHint is what → or ← at the end of a row's choices says.
func endHint(r inputRow, last bool) string {
	back := "→"
	if last {
		back = "←"
	}
	switch {
	case r.kind == rowVersion && last:
		return "newest known release; e types main@YYYY-MM-DD"
	case r.kind == rowVersion:
		return "oldest known release; e types main@YYYY-MM-DD"
	case r.kind == rowTimeout:
		return "last choice; e types any number of ms"
	case r.kind == rowEnv:
		return "last choice; " + back + " goes back, e types any value"
	}
	if last {
		return "last choice; ← goes back"
	}
	return "first choice; → goes on"
}

// toggle turns an env var on (to its last value, "1" the first time) or off; on
// other rows it is the next choice.
func (m *Model) toggle(r inputRow) tea.Cmd {
	if r.kind != rowEnv {
		return m.cycle(r, +1)
	}
	cur := rawOf(&m.spec, r).Raw
	if cur != envUnset {
		m.envLast[r.env.Name] = cur
		return m.apply(r, envUnset)
	}
	v, ok := m.envLast[r.env.Name]
	if !ok {
		v = "1"
	}
	return m.apply(r, v)
}

// apply sets a row's raw value, re-resolves and marks what changed. Setting the
// value a row already holds is a no-op, so nothing is re-resolved for nothing.
func (m *Model) apply(r inputRow, raw string) tea.Cmd {
	if r.kind == rowVersion && raw != "" && raw == installChoice(&m.spec) {
		// Back to the installed TensorRT-LLM: its version with its own origin,
		// so the chain is resolved from its code again.
		m.spec = cloneSpec(m.spec)
		m.spec.Version = inputs.Value{Raw: m.spec.Install.Version,
			Origin: resolver.Origin{Kind: resolver.OriginInstall, Detail: m.spec.Install.VersionEvidence}}
		m.pick.items = nil
		return m.resolve(true)
	}
	old := rawOf(&m.spec, r)
	if old.Raw == raw && old.Origin.Kind == explorerOrigin.Kind {
		return nil
	}
	m.spec = cloneSpec(m.spec)
	setRaw(&m.spec, r, raw)
	if r.kind == rowTimeout && raw != "" && raw != "null" {
		m.lastTimeout = raw
	}
	if r.kind == rowVersion {
		m.pick.items = nil // preferences depend on the version
	}
	return m.resolve(true)
}

// trial reports whether a raw value would build, without applying it.
func (m *Model) trial(r inputRow, raw string) error {
	s := cloneSpec(m.spec)
	setRaw(&s, r, raw)
	_, err := inputs.Build(s, m.cat)
	return err
}

// editState is the one-line editor for raw values (env vars, timeout, version,
// custom model names, or any literal such as 'nixl' to see validation fail). It is
// bubbles' textinput: cursor movement, word delete, home/end and completion from
// the row's known values (tab accepts, ↑/↓ pick another).
type editState struct {
	active bool
	row    int
	// in is a pointer: a textinput is large, and the Model is copied on every
	// Update and View.
	in  *textinput.Model
	err string
}

// pickState is the model picker: the catalog plus a custom entry, filterable.
type pickState struct {
	// kind is the row the picker sets: rowModel or rowVersion.
	kind      rowKind
	open      bool
	filtering bool
	filter    *textinput.Model // a pointer, like editState.in
	items     []pickItem       // built lazily for the current version
	matches   []int            // indices into items, in display order
	sel       int
}

// newInput is a focused textinput holding value, completing from suggestions.
// The cursor does not blink: a blinking cursor redraws the frame twice a second
// for nothing and makes screenshots differ.
func (m *Model) newInput(value string, suggestions []string) *textinput.Model {
	ti := textinput.New()
	ti.Prompt = ""
	// No value or filter is longer (a main@ day, an architecture, an
	// environment value); a paste beyond it is cut, so that a pasted log line
	// cannot fill the screen with the rejected value and push its reason off.
	ti.CharLimit = maxInputChars
	st := textinput.DefaultStyles(m.styles.IsDark)
	st.Cursor.Blink = false
	sug := lipgloss.NewStyle().Foreground(m.styles.pal.dim)
	if m.styles.Plain {
		st.Cursor.Color = nil
		sug = lipgloss.NewStyle().Faint(true)
	}
	st.Focused.Suggestion, st.Blurred.Suggestion = sug, sug
	ti.SetStyles(st)
	if len(suggestions) > 0 {
		ti.ShowSuggestions = true
		ti.SetSuggestions(safeSuggestions(suggestions))
	}
	ti.SetValue(termsafe.Line(value))
	ti.CursorEnd()
	ti.Focus()
	return &ti
}

// The textinput draws its runes as they are (its sanitizer drops C0 and C1 but
// keeps bidi controls and invisibles, and completions are not sanitized at
// all), so everything that enters it passes termsafe.Line first: a value
// pre-filled from a file, a completion from a --catalog file, a paste. Such a
// value is shown, and kept, as its escapes (\x1b]8;;…, \u202e); the terminal,
// a served client's too, never receives the raw bytes.

// safeSuggestions escapes each completion, dropping the duplicates escaping
// makes; clean lists are returned as they are.
func safeSuggestions(list []string) []string {
	clean := true
	for _, s := range list {
		if termsafe.Line(s) != s {
			clean = false
			break
		}
	}
	if clean {
		return list
	}
	out := make([]string, 0, len(list))
	seen := make(map[string]bool, len(list))
	for _, s := range list {
		if e := termsafe.Line(s); !seen[e] {
			seen[e] = true
			out = append(out, e)
		}
	}
	return out
}

// keepSafe re-escapes the editor's text after a key: a paste can bring what
// typing cannot.
// maxInputChars bounds what the editor and the filters hold.
const maxInputChars = 256

func keepSafe(in *textinput.Model) {
	if v := in.Value(); termsafe.Line(v) != v {
		in.SetValue(termsafe.Line(v))
		in.CursorEnd()
	}
}

// suggestions are the values the editor completes for a row: the known
// versions and their main@ days, the catalog's architectures, the literals a
// field takes.
func (m *Model) suggestions(r inputRow) []string {
	switch r.kind {
	case rowVersion:
		var out []string
		seen := map[string]bool{}
		for _, v := range resolver.KnownVersions() {
			for _, n := range []string{v.Name, "main@" + v.Main.String()} {
				if !seen[n] {
					seen[n] = true
					out = append(out, n)
				}
			}
		}
		return out
	case rowModel:
		return m.choices(r)
	case rowTimeout:
		return []string{"60000", "null"}
	case rowEnv:
		if len(r.env.Values) > 0 {
			return r.env.Values
		}
		return []string{"1", "0", "true"}
	}
	var out []string
	for _, c := range m.choices(r) {
		if c != "" {
			out = append(out, c)
		}
	}
	return out
}

// openEditor opens the raw-value editor on row i, pre-filled with value.
func (m *Model) openEditor(i int, value string) {
	m.edit = editState{active: true, row: i, in: m.newInput(value, m.suggestions(m.rows[i]))}
}

// pickItem is one model choice with its preference in the chosen version.
type pickItem struct {
	arch, family, pref string
	search             string
	custom             bool
}

// pickItems builds the picker's list for the current version.
func (m *Model) pickItems() []pickItem {
	if m.pick.items != nil {
		return m.pick.items
	}
	if m.pick.kind == rowVersion {
		m.pick.items = m.versionItems()
		return m.pick.items
	}
	v := m.trace.Inputs.Version
	es := m.cat.Entries()
	items := make([]pickItem, 0, len(es)+1)
	for _, e := range es {
		info := m.cat.Lookup(e.Arch, v)
		items = append(items, pickItem{
			arch: e.Arch, family: e.Family, pref: prefWord(info),
			search: e.Arch + " " + e.Family + " " + strings.Join(e.HFIDs, " "),
		})
	}
	items = append(items, pickItem{arch: "unknown / custom name…", custom: true})
	m.pick.items = items
	return items
}

// versionItems lists the version row's choices, oldest first as ←/→ walks
// them, each with its family ("1.3"), era and the main day it behaves like, so
// that a filter on "1.3" or "era 2" or "2026-09" finds them; the last entry
// types any other version or main@YYYY-MM-DD.
func (m *Model) versionItems() []pickItem {
	byName := map[string]resolver.Version{}
	for _, v := range resolver.KnownVersions() {
		byName[v.Name] = v
	}
	var items []pickItem
	for _, c := range m.choices(m.rows[rowVersion]) {
		it := pickItem{arch: c}
		if v, ok := byName[c]; ok {
			it.family = versionFamily(c) + " · main " + v.Main.String()
			it.pref = "era " + strconv.Itoa(v.Era)
		} else {
			it.family, it.pref = "read from the install", "install"
		}
		it.search = it.arch + " " + it.pref + " " + it.family
		items = append(items, it)
	}
	return append(items, pickItem{arch: "type a version or main@YYYY-MM-DD…", custom: true})
}

// versionFamily is a release's major.minor ("1.3" for 1.3.0rc22).
func versionFamily(name string) string {
	parts := strings.SplitN(name, ".", 3)
	if len(parts) < 2 {
		return name
	}
	return parts[0] + "." + parts[1]
}

// prefWord says in one word what a model prefers in a version.
func prefWord(info resolver.ModelInfo) string {
	switch {
	case !info.Known:
		return "not registered"
	case info.Preference.IsNone():
		return "no preference"
	default:
		return "prefers " + info.Preference.S
	}
}

// refilter recomputes the picker matches. The custom entry always stays last so a
// name the catalog does not know can still be typed.
func (m *Model) refilter() {
	items := m.pickItems()
	m.pick.matches = m.pick.matches[:0]
	f := m.pick.filter.Value()
	if f == "" {
		for i := range items {
			m.pick.matches = append(m.pick.matches, i)
		}
	} else {
		// Names that contain the filter come first, in catalog order; loose
		// subsequence matches (fuzzy) follow, best first. Each tier looks at
		// the name and family first, then at the Hugging Face ids too: a
		// Llama entry lists deepseek-ai/DeepSeek-R1-Distill-Llama-8B, which
		// must not rank it among the DeepSeek architectures.
		lf := strings.ToLower(f)
		names := make([]string, len(items)-1)
		data := make([]string, len(items)-1)
		for i := range data {
			names[i] = items[i].arch + " " + items[i].family
			data[i] = items[i].search
		}
		seen := make([]bool, len(items))
		add := func(i int) {
			if !seen[i] {
				m.pick.matches = append(m.pick.matches, i)
				seen[i] = true
			}
		}
		for _, list := range [][]string{names, data} {
			for i, s := range list {
				if strings.Contains(strings.ToLower(s), lf) {
					add(i)
				}
			}
		}
		for _, list := range [][]string{names, data} {
			for _, mt := range fuzzy.Find(f, list) {
				add(mt.Index)
			}
		}
		m.pick.matches = append(m.pick.matches, len(items)-1)
	}
	if m.pick.sel >= len(m.pick.matches) {
		m.pick.sel = len(m.pick.matches) - 1
	}
	if m.pick.sel < 0 {
		m.pick.sel = 0
	}
}

// installChoice is the version row's choice for the install given with
// --install ("install 1.3.0rc27"), "" without one.
func installChoice(s *inputs.Spec) string {
	if s.Install == nil {
		return ""
	}
	return "install " + s.Install.Version
}

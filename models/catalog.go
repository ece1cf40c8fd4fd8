// Package models is xcvr's catalog of model architectures: which TensorRT-LLM class
// each Hugging Face architecture maps to, and what that class's
// get_preferred_transceiver_runtime() returns in each version.
package models

import (
	"bytes"
	"errors"
	"fmt"
	"reflect"
	"sort"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"

	"github.com/goccy/go-yaml"
	"github.com/goccy/go-yaml/ast"
	"github.com/goccy/go-yaml/parser"
	"github.com/sahilm/fuzzy"

	"xcvr/internal/termsafe"
	"xcvr/internal/yamlpos"
	"xcvr/resolver"
)

// Preference is what the hook returns from a day on.
type Preference struct {
	Since      resolver.Day
	Value      resolver.PyStr // None, 'PYTHON' or 'CPP'
	PR         int
	Confidence resolver.Confidence
	// Evidence says where the value was read (a repository path at a commit, a
	// test, a PR) or why it is only derived or inferred.
	Evidence string
}

// KVPreference is what get_preferred_kv_cache_manager_version() returns from a
// day on (before the hook existed: the get_model_defaults() value).
type KVPreference struct {
	Since      resolver.Day
	Value      resolver.PyStr // None, 'V1' or 'V2'
	PR         int
	Confidence resolver.Confidence
	// ViaDefaults is true for a get_model_defaults() use_kv_cache_manager_v2=True.
	ViaDefaults bool
	Evidence    string
}

// Entry is one architecture.
type Entry struct {
	Arch        string
	Class       string
	Family      string
	HFIDs       []string
	Registered  resolver.Day // 0: every modelled version
	Preferences []Preference // oldest first
	// KVPreferences are the KV-cache manager preferences, oldest first.
	KVPreferences []KVPreference
	// Cache is the cache layout get_kv_cache_manager_cls() branches on.
	Cache resolver.CacheKind
	// Evidence is where the entry as a whole was checked.
	Evidence       string
	RequiresPython bool
	Confidence     resolver.Confidence // of "no preference"
	Note           string
	// Origin is "built-in" or "FILE:LINE" for entries from --catalog.
	Origin string
}

// PreferenceAt returns the preference in force on day d (zero Preference if none).
func (e Entry) PreferenceAt(d resolver.Day) Preference {
	var p Preference
	for _, x := range e.Preferences {
		if x.Since <= d {
			p = x
		}
	}
	return p
}

// Catalog is an ordered set of architectures.
type Catalog struct {
	entries []Entry
	byArch  map[string]int
	// notes remembers what Lookup said of names the catalog does not know,
	// so the suggestions are worked out once per name, not once per
	// resolution (the explorer resolves on every key, serve per session).
	notes noteCache
}

// noteCache is a small memo of unknown names' notes, safe for the sessions of
// one server sharing a catalog.
type noteCache struct {
	mu sync.Mutex
	m  map[string]string
}

// Bounds of the memo: names up to 64 KiB are remembered (a longer one costs one
// bounded pass, see unknownNote, and is not worth keeping alive), 256 at most.
const (
	maxMemoName  = 64 << 10
	maxMemoNames = 256
)

func (n *noteCache) get(name string) (string, bool) {
	n.mu.Lock()
	defer n.mu.Unlock()
	s, ok := n.m[name]
	return s, ok
}

func (n *noteCache) put(name, note string) {
	if len(name) > maxMemoName {
		return
	}
	n.mu.Lock()
	defer n.mu.Unlock()
	if n.m == nil || len(n.m) >= maxMemoNames {
		n.m = make(map[string]string)
	}
	n.m[name] = note
}

// Entries returns the architectures in catalog order.
func (c *Catalog) Entries() []Entry { return c.entries }

// Get returns the entry for an architecture name (exact match).
func (c *Catalog) Get(arch string) (Entry, bool) {
	i, ok := c.byArch[arch]
	if !ok {
		return Entry{}, false
	}
	return c.entries[i], true
}

// Merge returns a catalog with other's entries added; an entry with the same arch
// replaces the existing one in place.
func (c *Catalog) Merge(other *Catalog) *Catalog {
	out := &Catalog{byArch: map[string]int{}}
	out.entries = append(out.entries, c.entries...)
	for k, v := range c.byArch {
		out.byArch[k] = v
	}
	for _, e := range other.entries {
		if i, ok := out.byArch[e.Arch]; ok {
			out.entries[i] = e
			continue
		}
		out.byArch[e.Arch] = len(out.entries)
		out.entries = append(out.entries, e)
	}
	return out
}

// Lookup says what TensorRT-LLM knows about arch in version v. An empty arch means
// config.json had no architectures.
func (c *Catalog) Lookup(arch string, v resolver.Version) resolver.ModelInfo {
	if v.Rules != nil && v.Rules.FromInstall && arch != "" {
		return c.lookupInstall(arch, v)
	}
	info := resolver.ModelInfo{Arch: arch}
	if arch == "" {
		info.Note = "no architectures in config.json"
		return info
	}
	e, ok := c.Get(arch)
	if !ok {
		if cls, ok := registeredElsewhere[arch]; ok {
			// Registered upstream with no rule xcvr knows: no preference, the
			// model builds; when and under which class name is inferred.
			info.Known, info.Class, info.PreferenceConfidence = true, cls, resolver.Inferred
			info.Note = "not in xcvr's catalog, but registered upstream (" + registeredIndex + ") with no transceiver or KV-cache rule xcvr knows; the first release that registers it is not known"
			if cls == "" {
				info.Class = arch
				info.Note += "; the index names its module, not its class (named after the architecture here)"
			}
			return info
		}
		info.Note = c.unknownNote(arch)
		return info
	}
	if e.Registered != 0 && v.Main < e.Registered {
		info.Note = "registered only from " + e.Registered.String()
		info.Unregistered = true
		return info
	}
	info.Known = true
	info.Class = e.Class
	info.RequiresPython = e.RequiresPython
	info.Cache = e.Cache
	if kp := e.KVPreferenceAt(v.Main); kp.Since != 0 {
		info.KVPreference = kp.Value
		info.KVViaDefaults = kp.ViaDefaults
		info.KVPreferencePR = kp.PR
		info.KVPreferenceSince = kp.Since
		info.KVPreferenceConfidence = kp.Confidence
	}
	p := e.PreferenceAt(v.Main)
	info.Preference = p.Value
	info.PreferencePR = p.PR
	info.PreferenceSince = p.Since
	info.PreferenceConfidence = p.Confidence
	if p.Since == 0 {
		info.PreferenceConfidence = e.Confidence
		if next := e.nextPreference(v.Main); next.Since != 0 {
			info.Note = "prefers " + next.Value.Repr() + " only from " + next.Since.String()
			if next.PR != 0 {
				info.Note += " (#" + fmt.Sprint(next.PR) + ")"
			}
		}
	}
	if info.Note == "" {
		info.Note = e.Note
	}
	return info
}

// KVPreferenceAt returns the KV-cache manager preference in force on day d.
func (e Entry) KVPreferenceAt(d resolver.Day) KVPreference {
	var p KVPreference
	for _, x := range e.KVPreferences {
		if x.Since <= d {
			p = x
		}
	}
	return p
}

func (e Entry) nextPreference(d resolver.Day) Preference {
	for _, x := range e.Preferences {
		if x.Since > d {
			return x
		}
	}
	return Preference{}
}

// unknownNote is Lookup's note for a name the catalog does not have: a name
// that is a known one with invisible characters or spaces added says so (it
// prints exactly like the known name, and names are compared exactly);
// otherwise the closest names, if any. It is remembered per name.
func (c *Catalog) unknownNote(arch string) string {
	if note, ok := c.notes.get(arch); ok {
		return note
	}
	note := "not in xcvr's catalog; if TensorRT-LLM registers it, its log names the class instead of 'unknown model'"
	bare, hidden := stripInvisible(arch)
	_, known := c.byArch[bare]
	switch {
	case hidden != "" && known:
		note = "not in xcvr's catalog: it reads as " + bare + " but holds " + hidden +
			"; architecture names are compared exactly, so TensorRT-LLM would not find " + bare + " under it either"
	case hidden != "":
		if s := c.Suggest(bare, 3); len(s) > 0 {
			note = "not in xcvr's catalog: it holds " + hidden + " (without them, did you mean " + strings.Join(s, ", ") + "?)"
		} else {
			note = "not in xcvr's catalog: it holds " + hidden
		}
	default:
		if s := c.Suggest(arch, 3); len(s) > 0 {
			note = "not in xcvr's catalog (did you mean " + strings.Join(s, ", ") + "?)"
		}
	}
	c.notes.put(arch, note)
	return note
}

// stripInvisible returns name without its invisible characters (termsafe's:
// zero-width, bidi marks, U+FEFF, tags …) and spaces, and a description of
// what it took out ("invisible characters (U+200B, U+2060)"); hidden is ""
// when there was nothing to take out, or when what is left is longer than
// maxSuggestName (no catalog name is). It stops there: one pass over at most
// the whole name, memory bounded by maxSuggestName.
func stripInvisible(name string) (bare, hidden string) {
	var b strings.Builder
	var seen []rune
	spaces := false
	for _, r := range name {
		if termsafe.Invisible(r) || unicode.IsSpace(r) {
			if r == ' ' {
				spaces = true
			} else if len(seen) < 4 && !slicesContains(seen, r) {
				seen = append(seen, r)
			}
			continue
		}
		if b.Len() >= maxSuggestName {
			return "", ""
		}
		b.WriteRune(r)
	}
	if len(seen) == 0 && !spaces {
		return "", ""
	}
	var what []string
	if len(seen) > 0 {
		codes := make([]string, len(seen))
		for i, r := range seen {
			codes[i] = fmt.Sprintf("%U", r)
		}
		what = append(what, "invisible characters ("+strings.Join(codes, ", ")+")")
	}
	if spaces {
		what = append(what, "spaces")
	}
	return b.String(), strings.Join(what, " and ")
}

func slicesContains(rs []rune, r rune) bool {
	for _, x := range rs {
		if x == r {
			return true
		}
	}
	return false
}

// Bounds of Suggest, so that its time does not depend on what a file says: a
// name longer than maxSuggestName gets no suggestion (real architecture names
// and Hugging Face ids are well under it), catalog names longer than it are
// not candidates, at most maxSuggestCandidates names are compared, and the edit
// distance is computed only for names whose length is within the distance
// allowed, stopping as soon as that distance is exceeded.
const (
	maxSuggestName       = 128
	maxSuggestCandidates = 4096
)

// Suggest returns up to n catalog names close to name: case-insensitive matches,
// names within a small edit distance, names that contain it, then (for names of six
// characters or more) fuzzy subsequence matches. A name with a "/" is compared
// with the known Hugging Face ids too. Its work is bounded (see maxSuggestName).
func (c *Catalog) Suggest(name string, n int) []string {
	if name == "" || n <= 0 || len(name) > maxSuggestName {
		return nil
	}
	hf := strings.Contains(name, "/")
	names := make([]string, 0, min(len(c.entries), maxSuggestCandidates))
	candidate := func(s string) {
		if len(s) <= maxSuggestName && len(names) < maxSuggestCandidates {
			names = append(names, s)
		}
	}
	for _, e := range c.entries {
		candidate(e.Arch)
		if hf {
			// A Hugging Face id with a slip: suggest the ids xcvr knows.
			for _, id := range e.HFIDs {
				candidate(id)
			}
		}
	}
	var out []string
	seen := map[string]bool{}
	add := func(s string) {
		if !seen[s] && s != name && len(out) < n {
			seen[s] = true
			out = append(out, s)
		}
	}
	for _, s := range names {
		if strings.EqualFold(s, name) {
			add(s)
		}
	}
	type scored struct {
		s string
		d int
	}
	var near []scored
	lname := strings.ToLower(name)
	limit := max(2, len(name)/5)
	dist := distance{a: []rune(lname)}
	for _, s := range names {
		if len(s) > len(name)+limit*utf8MaxBytes || len(name) > len(s)+limit*utf8MaxBytes {
			continue // the lengths alone put it further than limit edits away
		}
		if d := dist.to(s, limit); d <= limit {
			near = append(near, scored{s, d})
		}
	}
	sort.SliceStable(near, func(i, j int) bool { return near[i].d < near[j].d })
	for _, x := range near {
		add(x.s)
	}
	var within []string
	var lower []byte
	for _, s := range names {
		lower = lower[:0]
		for _, r := range s {
			lower = utf8.AppendRune(lower, unicode.ToLower(r))
		}
		if bytes.Contains(lower, []byte(lname)) {
			within = append(within, s)
		}
	}
	// The shortest name that contains it adds the least: "qwen3" is Qwen3ForCausalLM
	// before Qwen3NextForCausalLM.
	sort.SliceStable(within, func(i, j int) bool { return len(within[i]) < len(within[j]) })
	for _, s := range within {
		add(s)
	}
	// A fuzzy subsequence of a short name matches nearly every architecture
	// ("Foo" is in "...ForConditionalGeneration"), which is noise, not a hint.
	if len(name) >= 6 {
		for _, m := range fuzzy.Find(name, names) {
			add(m.Str)
		}
	}
	return out
}

// utf8MaxBytes is the most bytes one edit (of one rune) changes a length by.
const utf8MaxBytes = 4

// distance computes edit distances between one name and many candidates,
// reusing its buffers: Suggest allocates the same whatever the catalog holds.
type distance struct {
	a         []rune // the name, lower-cased
	b         []rune
	prev, cur []int
}

// to is the case-insensitive Levenshtein distance from the name to s, or
// limit+1 as soon as every path costs more than limit; fuzzy matching alone
// misses transpositions such as "Casual" for "Causal". Suggest keeps both
// strings within maxSuggestName.
func (d *distance) to(s string, limit int) int {
	d.b = d.b[:0]
	for _, r := range s {
		d.b = append(d.b, unicode.ToLower(r))
	}
	ra, rb := d.a, d.b
	if n := len(rb) + 1; cap(d.prev) < n {
		d.prev, d.cur = make([]int, n), make([]int, n)
	}
	prev, cur := d.prev[:len(rb)+1], d.cur[:len(rb)+1]
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(ra); i++ {
		cur[0] = i
		best := cur[0]
		for j := 1; j <= len(rb); j++ {
			cost := 1
			if ra[i-1] == rb[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
			best = min(best, cur[j])
		}
		if best > limit {
			return limit + 1 // a row only grows from here
		}
		prev, cur = cur, prev
	}
	return prev[len(rb)]
}

// FindHFID returns the entry whose hf_ids lists id (case-insensitive).
func (c *Catalog) FindHFID(id string) (Entry, bool) {
	for _, e := range c.entries {
		for _, h := range e.HFIDs {
			if strings.EqualFold(h, id) {
				return e, true
			}
		}
	}
	return Entry{}, false
}

// fileEntry is one entry as written in YAML.
type fileEntry struct {
	Arch           string     `yaml:"arch"`
	Class          string     `yaml:"class"`
	Family         string     `yaml:"family"`
	HFIDs          []string   `yaml:"hf_ids"`
	Registered     string     `yaml:"registered"`
	Preferences    []filePref `yaml:"preferences"`
	KVPreferences  []fileKV   `yaml:"kv_preferences"`
	Cache          string     `yaml:"cache"`
	Evidence       string     `yaml:"evidence"`
	RequiresPython bool       `yaml:"requires_python"`
	Confidence     string     `yaml:"confidence"`
	Note           string     `yaml:"note"`
}

type filePref struct {
	Since      string `yaml:"since"`
	Value      string `yaml:"value"`
	PR         int    `yaml:"pr"`
	Confidence string `yaml:"confidence"`
	Evidence   string `yaml:"evidence"`
}

type fileKV struct {
	Since      string `yaml:"since"`
	Value      string `yaml:"value"`
	PR         int    `yaml:"pr"`
	Confidence string `yaml:"confidence"`
	Via        string `yaml:"via"`
	Evidence   string `yaml:"evidence"`
}

type fileCatalog struct {
	Models []fileEntry `yaml:"models"`
}

// aliasFinder records the first alias or tag of a tree: a catalog needs neither,
// and go-yaml's decoder expands aliases in full and can panic on odd tags.
type aliasFinder struct {
	at   ast.Node
	what string
}

// Visit implements ast.Visitor.
func (a *aliasFinder) Visit(n ast.Node) ast.Visitor {
	if a.at != nil {
		return nil
	}
	switch n.(type) {
	case *ast.AliasNode:
		a.at, a.what = n, "aliases (*name)"
		return nil
	case *ast.TagNode:
		a.at, a.what = n, "tags (!name)"
		return nil
	}
	return a
}

// decodeCatalog decodes strictly; a panic inside go-yaml's decoder (fuzzing found
// one on malformed tags) becomes an error naming the file instead of a crash.
func decodeCatalog(data []byte, fc *fileCatalog) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("the YAML decoder failed on this file (%v)", r)
		}
	}()
	return yaml.UnmarshalWithOptions(data, fc, yaml.Strict())
}

// MaxCatalogBytes bounds a catalog file; real ones are a few kilobytes.
const MaxCatalogBytes = 4 << 20

// Parse reads a catalog file. name is used in error messages ("FILE:LINE:COL: ...");
// origin labels the entries ("built-in", or empty to use FILE:LINE).
func Parse(name string, data []byte, origin string) (*Catalog, error) {
	if len(data) > MaxCatalogBytes {
		return nil, fmt.Errorf("%s: catalog is %d bytes; the limit is %d", name, len(data), MaxCatalogBytes)
	}
	// PyYAML skips a byte-order mark; go-yaml would read it as part of the first key.
	data = bytes.TrimPrefix(data, []byte("\ufeff"))
	f, err := parser.ParseBytes(data, 0)
	if err != nil {
		return nil, yamlpos.Wrap(name, err)
	}
	// go-yaml's decoder expands every alias in full, so ten nested aliases of ten
	// make it build ten billion values; a catalog needs none.
	for _, d := range f.Docs {
		if d == nil || d.Body == nil {
			continue
		}
		var af aliasFinder
		ast.Walk(&af, d.Body)
		if af.at != nil {
			return nil, yamlpos.At(name, af.at, "%s are not allowed in a catalog", af.what)
		}
	}
	for _, d := range f.Docs {
		if k, key := yamlpos.FirstUnknownKey(d, reflect.TypeFor[fileCatalog]()); k != nil {
			return nil, yamlpos.At(name, k, "unknown field %q", key)
		}
	}
	var fc fileCatalog
	if err := decodeCatalog(data, &fc); err != nil {
		return nil, yamlpos.Wrap(name, err)
	}
	if yamlpos.Lookup(f, "$.models") == nil {
		return nil, &yamlpos.Error{File: name, Line: 1, Msg: "no 'models:' list"}
	}
	c := &Catalog{byArch: map[string]int{}}
	for i, fe := range fc.Models {
		at := func(field string) string {
			p := fmt.Sprintf("$.models[%d]", i)
			if field != "" {
				p += "." + field
			}
			return p
		}
		where := func(field string, format string, args ...any) error {
			n := yamlpos.Lookup(f, at(field))
			if n == nil {
				n = yamlpos.Lookup(f, at(""))
			}
			return yamlpos.At(name, n, format, args...)
		}
		if strings.TrimSpace(fe.Arch) == "" {
			return nil, where("", "entry %d has no arch", i+1)
		}
		if _, dup := c.byArch[fe.Arch]; dup {
			return nil, where("arch", "architecture %s is listed twice", fe.Arch)
		}
		e := Entry{Arch: fe.Arch, Class: fe.Class, Family: fe.Family, HFIDs: fe.HFIDs,
			RequiresPython: fe.RequiresPython, Note: fe.Note, Origin: origin, Evidence: fe.Evidence}
		switch fe.Cache {
		case "", "attention":
		case "mamba-hybrid":
			e.Cache = resolver.CacheMambaHybrid
		case "kimi-linear":
			e.Cache = resolver.CacheKimiLinear
		default:
			return nil, where("cache", "cache must be attention, mamba-hybrid or kimi-linear, not %q", fe.Cache)
		}
		if e.Class == "" {
			e.Class = fe.Arch
		}
		if origin == "" {
			e.Origin = fmt.Sprintf("%s:%d", name, yamlpos.Line(yamlpos.Lookup(f, at("arch"))))
		}
		if fe.Registered != "" {
			d, err := resolver.ParseDay(fe.Registered)
			if err != nil {
				return nil, where("registered", "registered: %v", err)
			}
			e.Registered = d
		}
		conf, err := parseConfidence(fe.Confidence)
		if err != nil {
			return nil, where("confidence", "%v", err)
		}
		e.Confidence = conf
		var last resolver.Day
		for j, fp := range fe.Preferences {
			field := fmt.Sprintf("preferences[%d]", j)
			d, err := resolver.ParseDay(fp.Since)
			if err != nil {
				return nil, where(field+".since", "since: %v", err)
			}
			if d < last {
				return nil, where(field+".since", "preferences must be in date order (%s is before %s)", d, last)
			}
			last = d
			var val resolver.PyStr
			switch fp.Value {
			case "PYTHON", "CPP":
				val = resolver.Str(fp.Value)
			case "none", "None", "null", "":
			default:
				return nil, where(field+".value", "value must be PYTHON, CPP or none, not %q (get_preferred_transceiver_runtime returns only these)", fp.Value)
			}
			pc, err := parseConfidence(fp.Confidence)
			if err != nil {
				return nil, where(field+".confidence", "%v", err)
			}
			e.Preferences = append(e.Preferences, Preference{Since: d, Value: val, PR: fp.PR, Confidence: pc, Evidence: fp.Evidence})
		}
		last = 0
		for j, fk := range fe.KVPreferences {
			field := fmt.Sprintf("kv_preferences[%d]", j)
			d, err := resolver.ParseDay(fk.Since)
			if err != nil {
				return nil, where(field+".since", "since: %v", err)
			}
			if d < last {
				return nil, where(field+".since", "kv_preferences must be in date order (%s is before %s)", d, last)
			}
			last = d
			var val resolver.PyStr
			switch fk.Value {
			case "V1", "V2":
				val = resolver.Str(fk.Value)
			case "none", "None", "null", "":
			default:
				return nil, where(field+".value", "value must be V1, V2 or none, not %q (get_preferred_kv_cache_manager_version returns only these)", fk.Value)
			}
			via := false
			switch fk.Via {
			case "", "hook":
			case "defaults":
				via = true
			default:
				return nil, where(field+".via", "via must be hook or defaults, not %q", fk.Via)
			}
			pc, err := parseConfidence(fk.Confidence)
			if err != nil {
				return nil, where(field+".confidence", "%v", err)
			}
			e.KVPreferences = append(e.KVPreferences, KVPreference{Since: d, Value: val, PR: fk.PR, Confidence: pc, ViaDefaults: via, Evidence: fk.Evidence})
		}
		c.byArch[e.Arch] = len(c.entries)
		c.entries = append(c.entries, e)
	}
	return c, nil
}

func parseConfidence(s string) (resolver.Confidence, error) {
	switch s {
	case "", "verified":
		return resolver.Verified, nil
	case "derived":
		return resolver.Derived, nil
	case "inferred":
		return resolver.Inferred, nil
	}
	return "", errors.New("confidence must be verified, derived or inferred, not " + fmt.Sprintf("%q", s))
}

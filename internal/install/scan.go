// Package install reads an installed TensorRT-LLM (a site-packages tensorrt_llm
// directory) without importing or running it: its version, fingerprints of each
// dated rule xcvr models, the wording of the log lines and exceptions, and the
// model classes' registrations and transceiver hooks. Every fact carries the
// FILE:LINE that shows it. Reads are bounded (see Limits).
package install

import (
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"runtime"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"

	"xcvr/internal/termsafe"
	"xcvr/resolver"
)

// Files the rules live in, relative to the package directory. Several moved
// between releases; each fact is looked for in every place it has lived.
const (
	relVersion      = "version.py"
	relLLMArgs      = "llmapi/llm_args.py"
	relLLMUtils     = "llmapi/llm_utils.py"
	relConfigUtils  = "_torch/pyexecutor/config_utils.py"
	relOldCreate    = "_torch/pyexecutor/kv_cache_transceiver.py"
	relNewCreate    = "_torch/disaggregation/kv_cache_transceiver.py"
	relTransceiver  = "_torch/disaggregation/transceiver.py"
	relUtil         = "_torch/pyexecutor/_util.py"
	relMambaManager = "_torch/pyexecutor/mamba_cache_manager.py"
	// relKVMambaManager and the package files are where the Mamba cache
	// managers live after PR #17899 moved them under _torch/pyexecutor/kv_cache/
	// (upstream stores both a kv_cache/mamba_cache_manager.py and a
	// kv_cache/mamba_cache_manager/ package of legacy.py, common.py and
	// mamba_cache_manager_v2.py).
	relKVMambaManager = "_torch/pyexecutor/kv_cache/mamba_cache_manager.py"
	relKVMambaPackage = "_torch/pyexecutor/kv_cache/mamba_cache_manager/"
	relModels         = "_torch/models"
	relArchIndex      = "_torch/models/_arch_index.py"
	hookRuntime       = "get_preferred_transceiver_runtime"
	hookKVManager     = "get_preferred_kv_cache_manager_version"
	maxDelegation     = 16
	maxConditionLen   = 160
)

// Feature is one fingerprint: a dated rule's presence and the line that shows it.
type Feature struct {
	ID      string
	Present bool
	// Evidence is FILE:LINE, or FILE alone with a remark when the file was read
	// and the thing is absent; "" when the file that would show it is missing.
	Evidence string
}

// Pref is what a hook returns for an architecture.
type Pref struct {
	// Kind is "literal", "none" or "undetermined".
	Kind string
	// Value is the literal ("PYTHON", "CPP", "V2", ...).
	Value string
	// Depends lists the pretrained_config attributes an undetermined hook reads,
	// and Conditions the tests it makes (as written).
	Depends    []string
	Conditions []string
	// Why says in words how the value was found (delegation, inheritance).
	Why      string
	Evidence string
}

// Model is one registered architecture.
type Model struct {
	Arch, Class    string
	Preference     Pref
	KVCacheManager Pref
	// Evidence is the registration's FILE:LINE, or the _arch_index.py line of
	// an architecture only the lazy index lists (IndexModule is then the
	// module it names, whose registration was not found).
	Evidence    string
	IndexModule string
}

// Text is a log or exception message as the installed code writes it.
type Text struct {
	ID string
	// Text is the message with each f-string field as {expr} / {expr!r}.
	Text string
	// Plain is true when every field is a name or attribute (xcvr can fill it).
	Plain    bool
	Parts    []resolver.TextPart
	Evidence string
}

// Report is everything a scan found.
type Report struct {
	// Path is the tensorrt_llm package directory.
	Path          string
	Version       string
	VersionSource string // FILE:LINE
	Era           int
	EraEvidence   string
	// BackendOrder is the DEFAULT backend's selector priority as the install
	// writes it ("TRTLLM_USE_NIXL_KVCACHE=NIXL > ..."); "" when not found.
	BackendOrder string
	// BackendSelectors is the same table as data, in priority order.
	BackendSelectors []resolver.BackendSelector
	// Fields is CacheTransceiverConfig's fields as declared (nil when the class
	// was not read), FieldsEvidence the class's FILE:LINE.
	Fields         []resolver.InstallField
	FieldsEvidence string
	// Validators are CacheTransceiverConfig's validators as read (with Fields).
	Validators []resolver.InstallValidator
	// RuntimeDefault is transceiver_runtime's default as written ("auto",
	// "PYTHON", "None"); "" when not found.
	RuntimeDefault string
	Features       []Feature
	Models         []Model
	Texts          []Text
	// Notes are files skipped by the limits and other remarks.
	Notes []string
	// LLMArgsFields are the top-level keys a worker YAML may hold (the
	// fields of BaseLlmArgs and TorchLlmArgs); nil when not read.
	LLMArgsFields []string
}

// ErrNoVersion is returned when neither version.py nor a dist-info METADATA
// names the version.
var ErrNoVersion = errors.New("no version: neither tensorrt_llm/version.py nor a tensorrt_llm-*.dist-info/METADATA names one")

// Scan reads the package directory pkg (a tensorrt_llm directory; see Locate).
func Scan(pkg string, lim Limits) (*Report, error) {
	t, err := newTree(pkg, lim)
	if err != nil {
		return nil, err
	}
	rep := &Report{Path: t.root}
	if err := rep.readVersion(t); err != nil {
		return nil, err
	}
	s := &scanner{t: t, rep: rep, mods: map[string]*pyModule{}}
	s.features()
	s.texts()
	s.models()
	if s.classesCut {
		return nil, fmt.Errorf("%s: refused: more than %d classes under _torch/models (a TensorRT-LLM release has about a thousand); its registrations cannot all be read, so no answer from it would be sound", t.root, maxModelClasses)
	}
	s.decideEra()
	rep.Notes = t.notes
	return rep, nil
}

// maxModelClasses bounds the classes the model scan keeps: each costs about a
// kilobyte outlined, so a tree of 92 MiB of one-line classes held gigabytes.
const maxModelClasses = 50_000

type scanner struct {
	t    *tree
	rep  *Report
	mods map[string]*pyModule // by path relative to the package
	// classesCut is set when the model modules held more than maxModelClasses.
	classesCut bool
}

// module reads and outlines a file once; nil when missing or skipped.
func (s *scanner) module(rel string) *pyModule { return s.moduleAs(rel, false) }

// moduleAs reads a file in full, or (model) only the parts the registry scan
// needs; a file read both ways is read in full.
func (s *scanner) moduleAs(rel string, model bool) *pyModule {
	if m, ok := s.mods[rel]; ok {
		return m
	}
	data, err := s.t.read(rel)
	if err != nil {
		s.mods[rel] = nil
		return nil
	}
	var m *pyModule
	if model {
		m = parseModelModule("tensorrt_llm/"+rel, data)
	} else {
		m = parseModule("tensorrt_llm/"+rel, data)
	}
	s.mods[rel] = m
	return m
}

func at(m *pyModule, line int) string { return m.rel + ":" + strconv.Itoa(line) }

func (s *scanner) add(id string, present bool, ev string) {
	s.rep.Features = append(s.rep.Features, Feature{ID: id, Present: present, Evidence: ev})
}

// readVersion takes __version__ from version.py, else Version: from METADATA.
func (rep *Report) readVersion(t *tree) error {
	if data, err := t.read(relVersion); err == nil {
		for _, l := range lex(data) {
			if len(l.toks) >= 3 && l.toks[0].text == "__version__" && l.toks[1].text == "=" && l.toks[2].kind == tkString && l.toks[2].str.isConst() {
				rep.Version = l.toks[2].str.value()
				rep.VersionSource = "tensorrt_llm/version.py:" + strconv.Itoa(l.line)
				return checkVersion(rep)
			}
		}
	}
	ents, err := readDirLimited(t.site, 4096)
	if err != nil {
		return ErrNoVersion
	}
	for _, e := range ents {
		n := e
		if !strings.HasSuffix(n, ".dist-info") || !(strings.HasPrefix(n, "tensorrt_llm-") || strings.HasPrefix(n, "tensorrt-llm-")) {
			continue
		}
		data, err := t.readIn(filepath.Join(t.site, n, "METADATA"), filepath.Join(t.site, n))
		if err != nil {
			continue
		}
		for i, line := range strings.Split(string(data), "\n") {
			if line == "" {
				break // the headers end at the first blank line
			}
			if v, ok := strings.CutPrefix(line, "Version:"); ok {
				rep.Version = strings.TrimSpace(v)
				rep.VersionSource = termsafe.Line(n) + "/METADATA:" + strconv.Itoa(i+1)
				return checkVersion(rep)
			}
		}
	}
	return ErrNoVersion
}

// safe reports whether a string read from the install can be shown as it is:
// one line, no control characters or bidi overrides, not absurdly long. What is
// not safe is left out (with a note), so nothing from the install reaches a
// terminal unescaped, whichever renderer prints it.
func safe(s string) bool { return s != "" && len(s) <= 4096 && termsafe.Line(s) == s }

func checkVersion(rep *Report) error {
	if !safe(rep.Version) || len(rep.Version) > 100 {
		return fmt.Errorf("%s: the version %s is empty, too long or holds control characters", rep.VersionSource, termsafe.Line(strconv.Quote(rep.Version)))
	}
	return nil
}

// builtinBackendOrder is xcvr's DEFAULT-backend priority (resolver/env.go).
const builtinBackendOrder = "TRTLLM_USE_NIXL_KVCACHE=NIXL > TRTLLM_USE_UCX_KVCACHE=UCX > TRTLLM_USE_MOONCAKE_KVCACHE=MOONCAKE > TRTLLM_USE_MPI_KVCACHE=MPI"

// backendOrder reads the DEFAULT backend's selector table: the module constant
// _CACHE_TRANSCEIVER_BACKEND_ENV_VARS of llm_args.py (#16164 on), else a
// backend_env_vars list in the creation code (before).
func (s *scanner) backendOrder() {
	var sels []resolver.BackendSelector
	pairs := func(t []token) []string {
		var out []string
		sels = sels[:0]
		for i := 0; i+2 < len(t); i++ {
			if t[i].kind == tkString && t[i+1].text == "," && t[i+2].kind == tkString && strings.HasPrefix(t[i].str.value(), "TRTLLM_USE_") {
				out = append(out, t[i].str.value()+"="+t[i+2].str.value())
				sels = append(sels, resolver.BackendSelector{Env: t[i].str.value(), Backend: t[i+2].str.value()})
			}
		}
		return out
	}
	try := func(m *pyModule, lines []logical) bool {
		for _, l := range lines {
			if len(l.toks) < 3 || l.toks[0].kind != tkName || !strings.Contains(strings.ToLower(l.toks[0].text), "backend_env_vars") {
				continue
			}
			eq := 1
			if l.toks[1].text == ":" { // an annotated assignment
				for eq < len(l.toks) && l.toks[eq].text != "=" {
					eq++
				}
			}
			if eq >= len(l.toks) || l.toks[eq].text != "=" {
				continue
			}
			if p := pairs(l.toks[eq:]); len(p) > 0 {
				s.rep.BackendOrder = strings.Join(p, " > ")
				s.rep.BackendSelectors = sels
				s.add("backend_env_priority", true, at(m, l.line))
				return true
			}
		}
		return false
	}
	if m := s.module(relLLMArgs); m != nil && try(m, m.lines) {
		return
	}
	for _, rel := range []string{relConfigUtils, relNewCreate, relOldCreate} {
		if m := s.module(rel); m != nil {
			for _, fn := range []string{"resolve_cache_transceiver_config", "create_kv_cache_transceiver"} {
				if f, ok := m.funcs[fn]; ok && try(m, f.body) {
					return
				}
			}
		}
	}
}

// features fingerprints the dated rules.
func (s *scanner) features() {
	s.configFields()
	s.llmArgsFields()
	s.backendOrder()
	if m := s.module(relLLMUtils); m != nil {
		f, ok := m.funcs["_resolve_transceiver_runtime_auto"]
		if ok {
			s.add(resolver.FeatureAutoResolver, true, at(m, f.line))
			reroute, fieldsSet, onlyAuto := 0, 0, 0
			for _, l := range f.body {
				txt := render(l.toks)
				if onlyAuto == 0 && l.first() == "if" && strings.Contains(txt, "transceiver_runtime") && strings.Contains(txt, `!= "auto"`) {
					onlyAuto = l.line
				}
				if l.first() == "if" && strings.Contains(txt, `"PYTHON"`) && strings.Contains(txt, `"NIXL"`) && strings.Contains(txt, "!=") {
					reroute = l.line
				}
				if fieldsSet == 0 && strings.Contains(txt, "fields_set") {
					fieldsSet = l.line
				}
			}
			if reroute > 0 {
				s.add(resolver.FeatureAutoReroutes, true, at(m, reroute))
			} else {
				s.add(resolver.FeatureAutoReroutes, false, at(m, f.line)+" (no PYTHON-off-NIXL reroute in the function)")
			}
			if fieldsSet > 0 {
				s.add("auto_reads_fields_set", true, at(m, fieldsSet))
			}
			// The early return that leaves every value but 'auto' alone: with a
			// 'PYTHON' default, an unset field then never reaches the hook.
			if onlyAuto > 0 {
				s.add("auto_returns_unless_auto", true, at(m, onlyAuto))
			} else {
				s.add("auto_returns_unless_auto", false, at(m, f.line)+" (no early return for values other than 'auto')")
			}
		} else {
			s.add(resolver.FeatureAutoResolver, false, m.rel+" (no such function)")
		}
		if f, ok := m.funcs["_transceiver_python_fallback_reason"]; ok {
			s.add(resolver.FeatureFallbackReason, true, at(m, f.line))
		} else {
			s.add(resolver.FeatureFallbackReason, false, m.rel+" (no such function)")
		}
	}
	// Where resolve_cache_transceiver_config and create_kv_cache_transceiver live.
	found := false
	for _, rel := range []string{relConfigUtils, relOldCreate, relNewCreate} {
		if m := s.module(rel); m != nil {
			if f, ok := m.funcs["resolve_cache_transceiver_config"]; ok && !found {
				s.add(resolver.FeatureResolveInConfigU, true, at(m, f.line))
				found = true
			}
		}
	}
	if !found && (s.module(relOldCreate) != nil || s.module(relNewCreate) != nil) {
		s.add(resolver.FeatureResolveInConfigU, false, "tensorrt_llm/"+relOldCreate+" (no such function)")
	}
	if m := s.module(relNewCreate); m != nil && m.funcs["create_kv_cache_transceiver"] != nil {
		s.add(resolver.FeatureCreateInDisagg, true, at(m, m.funcs["create_kv_cache_transceiver"].line))
	} else if m := s.module(relOldCreate); m != nil && m.funcs["create_kv_cache_transceiver"] != nil {
		s.add(resolver.FeatureCreateInDisagg, false, at(m, m.funcs["create_kv_cache_transceiver"].line)+" (still in _torch/pyexecutor)")
	}
	if m := s.module(relTransceiver); m != nil {
		line := 0
		for _, l := range m.lines {
			for _, tk := range l.toks {
				if tk.kind == tkString && strings.Contains(tk.str.value(), "requires a finite kv_transfer_timeout_ms") {
					line = tk.line
				}
			}
			if line > 0 {
				break
			}
		}
		if line > 0 {
			s.add(resolver.FeatureV2TimeoutError, true, at(m, line))
		} else {
			s.add(resolver.FeatureV2TimeoutError, false, m.rel+" (no finite-timeout check)")
		}
	}
}

// configFields reads CacheTransceiverConfig's fields, transceiver_runtime's
// Literal values and default.
func (s *scanner) configFields() {
	m := s.module(relLLMArgs)
	if m == nil {
		return
	}
	var cls *classDef
	for _, c := range m.classes {
		if c.name == "CacheTransceiverConfig" {
			cls = c
			break
		}
	}
	if cls == nil {
		s.add("field:transceiver_runtime", false, m.rel+" (no class CacheTransceiverConfig)")
		return
	}
	// The class body: lines after the header indented under it.
	var body []logical
	for i := range m.lines {
		if m.lines[i].line == cls.line && m.lines[i].first() == "class" {
			for j := i + 1; j < len(m.lines) && m.lines[j].indent > m.lines[i].indent; j++ {
				body = append(body, m.lines[j])
			}
			break
		}
	}
	if len(body) == 0 {
		return
	}
	s.rep.FieldsEvidence = at(m, cls.line)
	s.rep.Fields = []resolver.InstallField{}
	s.rep.Validators = configValidators(m, body)
	fieldIndent := body[0].indent
	pipelined := false
	for _, l := range body {
		if l.indent != fieldIndent || len(l.toks) < 3 || l.toks[0].kind != tkName || l.toks[1].text != ":" {
			continue
		}
		name := l.toks[0].text
		if strings.HasPrefix(name, "_") || name == "model_config" {
			continue
		}
		s.add("field:"+name, true, at(m, l.line))
		s.rep.Fields = append(s.rep.Fields, resolver.InstallField{FieldSpec: fieldSpec(name, l.toks), Evidence: at(m, l.line)})
		if name == "enable_pipelined_transfer" {
			pipelined = true
			s.add(resolver.FeaturePipelined, true, at(m, l.line))
		}
		if name != "transceiver_runtime" {
			continue
		}
		eq := -1
		depth := 0
		for i, tk := range l.toks {
			switch tk.text {
			case "(", "[", "{":
				depth++
			case ")", "]", "}":
				depth--
			case "=":
				if depth == 0 && eq < 0 {
					eq = i
				}
			}
		}
		auto := false
		typeEnd := len(l.toks)
		if eq > 0 {
			typeEnd = eq
		}
		for _, tk := range l.toks[2:typeEnd] {
			if tk.kind == tkString && tk.str.value() == "auto" {
				auto = true
			}
		}
		s.add("transceiver_runtime_literal_auto", auto, at(m, l.line))
		def := defaultOf(l.toks, eq)
		s.rep.RuntimeDefault = def
		if def != "" {
			s.add("transceiver_runtime_default", true, at(m, l.line))
		}
		s.add(resolver.FeatureDefaultPython, def == "PYTHON", at(m, l.line)+" (default "+orNone(def)+")")
	}
	if !pipelined {
		s.add(resolver.FeaturePipelined, false, at(m, cls.line)+" (CacheTransceiverConfig has no such field)")
	}
}

func orNone(s string) string {
	if s == "" {
		return "not found"
	}
	if s == "None" {
		return s
	}
	return strconv.Quote(s)
}

// defaultOf reads a pydantic field's default: "x: T = value" or
// "x: T = Field(default=value, ...)". It returns the string literal, "None", or
// "" when it cannot tell.
func defaultOf(toks []token, eq int) string {
	if eq < 0 || eq+1 >= len(toks) {
		return ""
	}
	v := toks[eq+1:]
	if v[0].text == "Field" && len(v) > 1 && v[1].text == "(" {
		args := splitArgs(inside(v[1:]))
		v = nil
		for i, a := range args {
			if len(a) >= 3 && a[0].text == "default" && a[1].text == "=" {
				v = a[2:]
				break
			}
			if i == 0 && !(len(a) >= 2 && a[1].text == "=") {
				v = a // Field(value, ...): the first positional is the default
			}
		}
		if v == nil {
			return ""
		}
	}
	switch {
	case v[0].kind == tkString && v[0].str.isConst():
		return v[0].str.value()
	case v[0].text == "None":
		return "None"
	}
	return ""
}

// textSite says where a message lives: a function in one of the files, and a
// piece of its text that identifies it.
type textSite struct {
	id     string
	files  []string
	fn     string // "" = anywhere in the file
	anchor string
}

func textSites() []textSite {
	create := []string{relNewCreate, relOldCreate}
	early := []string{relConfigUtils, relOldCreate, relNewCreate}
	return []textSite{
		{resolver.TextFallbackBackend, []string{relLLMUtils}, "_resolve_transceiver_runtime_auto", "Model prefers the Python transceiver"},
		{resolver.TextFallbackReason, []string{relLLMUtils}, "", "Falling back to the C++ transceiver"},
		{resolver.TextResolvedAuto, []string{relLLMUtils}, "_resolve_transceiver_runtime_auto", "Resolved transceiver_runtime="},
		{resolver.TextHookInvalid, []string{relLLMUtils}, "_resolve_transceiver_runtime_auto", "get_preferred_transceiver_runtime() must"},
		{resolver.TextPythonNIXLEarly, early, "resolve_cache_transceiver_config", "Python transceiver currently only supports"},
		{resolver.TextPythonNIXLCreate, create, "create_kv_cache_transceiver", "Python transceiver currently only supports"},
		{resolver.TextPipelinedBackend, early, "resolve_cache_transceiver_config", "enable_pipelined_transfer is set but backend"},
		{resolver.TextPipelinedCPP, early, "resolve_cache_transceiver_config", "explicitly disables Python auto-selection"},
		{resolver.TextPipelinedAuto, early, "resolve_cache_transceiver_config", "auto-selecting the Python"},
		{resolver.TextEnvSelector, append(append([]string{}, create...), relConfigUtils), "", "is set, but it's recommended"},
		{resolver.TextMPIDeprecated, create, "create_kv_cache_transceiver", "MPI CacheTransceiver is deprecated"},
		{resolver.TextUCXHint, create, "create_kv_cache_transceiver", "Using UCX kv-cache transceiver"},
		{resolver.TextUsingV2, create, "create_kv_cache_transceiver", "Using KvCacheTransceiverV2"},
		{resolver.TextDisabled, create, "create_kv_cache_transceiver", "cache_transceiver is disabled"},
		{resolver.TextV2Timeout, []string{relTransceiver}, "", "requires a finite kv_transfer_timeout_ms"},
		{resolver.TextInflightWarning, create, "is_disagg_inflight_cancel_enabled", "in-flight cancellation was requested"},
		{resolver.TextInflightAmbig, create, "_validate_disagg_inflight_cancel_config", "requires an unambiguous"},
		{resolver.TextInflightUnsupp, create, "_validate_disagg_inflight_cancel_config", "is experimental and"},
		// Kimi K3's guard in get_kv_cache_manager_cls (#17480); the Mamba
		// guards of the creation code and the manager choice; the fabric-memory
		// default (#16832). Where each helper lives moved between releases, so
		// the whole file is searched (docstrings are skipped).
		{resolver.TextKimiK3, []string{relUtil}, "", "Kimi K3 disaggregated serving requires"},
		{resolver.TextMambaMixed, create, "", "requires the Python transceiver runtime"},
		{resolver.TextMambaCpp, create, "", "cannot drive CppMambaHybridCacheManager"},
		{resolver.TextPyMambaReuse, mambaManagerFiles(), "", "forces MixedMambaHybridCacheManager"},
		{resolver.TextFabricMemory, append(append([]string{}, create...), relUtil), "", "with C++ KV cache manager detected"},
	}
}

// mambaManagerFiles are the files get_kv_cache_manager_cls's Mamba refusals may
// live in: _util.py, the manager module before #17899, and its places under
// kv_cache/ after it.
func mambaManagerFiles() []string {
	return []string{relUtil, relMambaManager, relKVMambaManager, relKVMambaPackage + "__init__.py",
		relKVMambaPackage + "legacy.py", relKVMambaPackage + "common.py"}
}

// texts takes each message's wording from the install.
func (s *scanner) texts() {
	for _, site := range textSites() {
		for _, rel := range site.files {
			m := s.module(rel)
			if m == nil {
				continue
			}
			lines := m.lines
			if site.fn != "" {
				f, ok := m.funcs[site.fn]
				if !ok {
					continue
				}
				lines = f.body
			}
			if tx, ok := findText(m, lines, site); ok {
				if !safe(tx.Text) {
					s.t.note("%s: message %s skipped: control characters or several lines", tx.Evidence, tx.ID)
					break
				}
				s.rep.Texts = append(s.rep.Texts, tx)
				break
			}
		}
	}
}

func findText(m *pyModule, lines []logical, site textSite) (Text, bool) {
	for _, l := range lines {
		if len(l.toks) == 1 {
			// A string alone on its line is a docstring (or a no-op), not a
			// message: a model's docstring may quote the guard's words.
			continue
		}
		for _, tk := range l.toks {
			if tk.kind != tkString || !strings.Contains(tk.str.value(), site.anchor) {
				continue
			}
			tx := Text{ID: site.id, Text: tk.str.value(), Plain: tk.str.plain(), Evidence: at(m, tk.line)}
			for _, p := range tk.str.parts {
				switch n := len(tx.Parts); {
				case p.field:
					tx.Parts = append(tx.Parts, resolver.TextPart{Field: true, Repr: p.conv == 'r'})
				case p.lit == "":
				case n > 0 && !tx.Parts[n-1].Field:
					// Implicit concatenation splits the text; join it again.
					tx.Parts[n-1].Lit += p.lit
				default:
					tx.Parts = append(tx.Parts, resolver.TextPart{Lit: p.lit})
				}
			}
			return tx, true
		}
	}
	return Text{}, false
}

// decideEra reads the rule set from the fingerprints: the 'PYTHON' default is
// era 3; no auto resolver is era 0; a resolver that reroutes a PYTHON preference
// off NIXL is era 1; otherwise (the preference adopted, the fallback only
// through _transceiver_python_fallback_reason) era 2.
func (s *scanner) decideEra() {
	f := map[string]Feature{}
	for _, x := range s.rep.Features {
		f[x.ID] = x
	}
	switch {
	case f[resolver.FeatureDefaultPython].Present:
		s.rep.Era, s.rep.EraEvidence = 3, trimRemark(f[resolver.FeatureDefaultPython].Evidence)
	case f[resolver.FeatureAutoResolver].Evidence == "":
		s.rep.Era, s.rep.EraEvidence = -1, ""
	case !f[resolver.FeatureAutoResolver].Present:
		s.rep.Era, s.rep.EraEvidence = 0, trimRemark(f[resolver.FeatureAutoResolver].Evidence)
	case f[resolver.FeatureAutoReroutes].Present:
		s.rep.Era, s.rep.EraEvidence = 1, f[resolver.FeatureAutoReroutes].Evidence
	case f[resolver.FeatureFallbackReason].Present:
		s.rep.Era, s.rep.EraEvidence = 2, f[resolver.FeatureFallbackReason].Evidence
	default:
		s.rep.Era, s.rep.EraEvidence = 2, f[resolver.FeatureAutoResolver].Evidence
	}
}

func trimRemark(ev string) string {
	if i := strings.Index(ev, " ("); i >= 0 {
		return ev[:i]
	}
	return ev
}

// models scans _torch/models/ for registrations and hooks.
func (s *scanner) models() {
	files := s.t.walkPy(relModels)
	s.preloadModels(files)
	byName := make(map[string][]*classDef, 16*len(files))
	var regs []struct {
		reg registration
		cls *classDef
		mod *pyModule
	}
	for _, rel := range files {
		m := s.moduleAs(rel, true)
		if m == nil {
			continue
		}
		for _, c := range m.classes {
			if !safe(c.name) {
				s.t.note("%s: class name %s skipped: control characters", at(m, c.line), termsafe.Line(c.name))
				continue
			}
			byName[c.name] = append(byName[c.name], c)
			for _, d := range c.decos {
				if lastDot(d.name) != "register_auto_model" || len(d.args) == 0 || d.args[0].kind != tkString || !d.args[0].str.isConst() {
					continue
				}
				if arch := d.args[0].str.value(); !safe(arch) {
					s.t.note("%s: architecture %s skipped: control characters", at(m, d.line), termsafe.Line(strconv.Quote(arch)))
					continue
				}
				regs = append(regs, struct {
					reg registration
					cls *classDef
					mod *pyModule
				}{registration{arch: d.args[0].str.value(), class: c.name, line: d.line}, c, m})
			}
		}
		for _, call := range m.calls {
			if !safe(call.arch) || !safe(call.class) {
				s.t.note("%s: registration skipped: control characters", at(m, call.line))
				continue
			}
			regs = append(regs, struct {
				reg registration
				cls *classDef
				mod *pyModule
			}{call, nil, m})
		}
	}
	res := newHookResolver(byName, s.t.total)
	seen := map[string]bool{}
	for _, r := range regs {
		if seen[r.reg.arch] {
			continue // a later registration of the same name does not replace a built-in one
		}
		seen[r.reg.arch] = true
		cls := r.cls
		if cls == nil {
			cls = res.find(r.reg.class, r.mod)
		}
		// Names may share a source buffer (see lex): copy what the report keeps.
		mdl := Model{Arch: strings.Clone(r.reg.arch), Class: strings.Clone(r.reg.class), Evidence: at(r.mod, r.reg.line)}
		if cls == nil {
			why := "class " + r.reg.class + " not found in the package"
			mdl.Preference = Pref{Kind: "undetermined", Why: why, Evidence: mdl.Evidence}
			mdl.KVCacheManager = mdl.Preference
		} else {
			mdl.Preference = res.pref(cls, hookRuntime)
			mdl.KVCacheManager = res.pref(cls, hookKVManager)
		}
		s.rep.Models = append(s.rep.Models, mdl)
	}
	// The lazy index names architectures whose module may not have been read:
	// the "Arch": "modeling_x" pairs of MODEL_ARCH_TO_MODULE. It names no
	// class; MODEL_CLASS_TO_MODULE lists the public classes, so an
	// architecture listed there too, for the same module, is that class.
	if m := s.module(relArchIndex); m != nil {
		classes := indexTable(m, "MODEL_CLASS_TO_MODULE")
		for _, e := range indexTable(m, "MODEL_ARCH_TO_MODULE") {
			arch, mod := e.key, e.mod
			if seen[arch] {
				continue
			}
			seen[arch] = true
			ev := at(m, e.line)
			mdl := Model{Arch: arch, Evidence: ev, IndexModule: mod,
				Preference:     Pref{Kind: "undetermined", Why: "listed in _arch_index.py, but no @register_auto_model(\"" + arch + "\") was found in " + mod + ".py", Evidence: ev},
				KVCacheManager: Pref{Kind: "undetermined", Why: "registration not found", Evidence: ev}}
			for _, c := range classes {
				if c.key == arch && c.mod == mod {
					mdl.Class = arch
				}
			}
			s.rep.Models = append(s.rep.Models, mdl)
		}
	}
	sort.SliceStable(s.rep.Models, func(i, j int) bool { return s.rep.Models[i].Arch < s.rep.Models[j].Arch })
}

// indexEntry is one "Name": "modeling_x" pair of an _arch_index.py table.
type indexEntry struct {
	key, mod string
	line     int
}

// indexTable reads the string pairs of the dict assigned to name.
func indexTable(m *pyModule, name string) []indexEntry {
	var out []indexEntry
	for _, l := range m.lines {
		if len(l.toks) < 3 || l.toks[0].text != name || l.toks[1].text != "=" {
			continue
		}
		t := l.toks
		for i := 0; i+2 < len(t); i++ {
			if t[i].kind == tkString && t[i+1].text == ":" && t[i+2].kind == tkString {
				out = append(out, indexEntry{t[i].str.value(), t[i+2].str.value(), t[i].line})
			}
		}
	}
	return out
}

// preloadModels reads the model modules in order (the reads and their limits are
// sequential) while other goroutines outline the ones already read: outlining is
// pure. A few read buffers go round between the reader and the outliners, which
// copy what they keep (see detach): the scan does not allocate the tree's size.
func (s *scanner) preloadModels(files []string) {
	type job struct {
		i    int
		data []byte
	}
	workers := max(1, runtime.GOMAXPROCS(0))
	out := make([]*pyModule, len(files))
	next := make(chan job, 4)
	free := make(chan []byte, workers+len(next)+1)
	for range cap(free) {
		free <- nil
	}
	var wg sync.WaitGroup
	var classes atomic.Int64
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := range next {
				out[j.i] = parseModelModule("tensorrt_llm/"+files[j.i], j.data)
				classes.Add(int64(len(out[j.i].classes)))
				free <- j.data[:0]
			}
		}()
	}
	read := make([]bool, len(files))
	for i, rel := range files {
		if _, ok := s.mods[rel]; ok {
			continue
		}
		if s.classesCut || classes.Load() > maxModelClasses {
			s.classesCut = true
			s.mods[rel] = nil // not read, and not read later either
			continue
		}
		buf := <-free
		data, err := s.t.readBuf(rel, buf)
		if err != nil {
			free <- buf
			s.mods[rel] = nil
			continue
		}
		read[i] = true
		next <- job{i, data}
	}
	close(next)
	wg.Wait()
	s.classesCut = s.classesCut || classes.Load() > maxModelClasses
	for i, rel := range files {
		if read[i] {
			s.mods[rel] = out[i]
		}
	}
}

// hookResolver follows a hook through delegation and inheritance, in bounded
// work: a class's answer is remembered per hook, an inheritance chain is
// followed at most maxInheritance classes, and every step (a class visited, a
// body read) is paid from work, which the tree's byte budget sets. What a limit
// cuts short is undetermined, never the base's answer nor "no hook": a class
// 65 bases above a 'PYTHON' hook was reported "None, verified (install)".
type hookResolver struct {
	byName map[string][]*classDef
	found  map[hookKey]lookupResult
	prefs  map[hookKey]Pref
	work   int
}

type hookKey struct {
	cls  *classDef
	hook string
}

// lookupResult is where a class finds a hook: owner and f, levels classes up
// (0: the class itself); or nothing, having looked levels classes up; or cut
// short by a limit (cut says which).
type lookupResult struct {
	owner  *classDef
	f      *funcDef
	levels int
	cut    string
	// budget is the levels the search had: a cut result holds for any budget
	// no larger; the others hold for any budget of at least levels.
	budget int
}

const (
	// maxInheritance bounds the classes followed up one chain; upstream's
	// deepest is a handful (DecoderModelForCausalLM and a mixin or two).
	maxInheritance = 64
	// bytesPerStep sets the resolver's steps from the bytes the scan read: the
	// total work is a fixed fraction of the byte budget, whatever the shape.
	// A real install needs a few thousand steps (two hundred registrations, a
	// few classes and a few body lines each) of the million its modules buy.
	bytesPerStep = 4
	minWork      = 1 << 16
)

func newHookResolver(byName map[string][]*classDef, bytesRead int64) *hookResolver {
	return &hookResolver{byName: byName, found: map[hookKey]lookupResult{}, prefs: map[hookKey]Pref{},
		work: max(minWork, int(min(bytesRead, 1<<40)/bytesPerStep))}
}

// spend pays n steps; false when the work budget is spent.
func (h *hookResolver) spend(n int) bool {
	h.work -= n
	return h.work >= 0
}

const workSpent = "the install scan's work budget is spent (the tree is larger or more tangled than any TensorRT-LLM release)"

// find looks a class up by name, preferring the module that names it.
func (h *hookResolver) find(name string, from *pyModule) *classDef {
	name = lastDot(name)
	cands := h.byName[name]
	for _, c := range cands {
		if c.file == from {
			return c
		}
	}
	if len(cands) > 0 {
		return cands[0]
	}
	return nil
}

// pref resolves what cls.hook() returns, once per class and hook.
func (h *hookResolver) pref(cls *classDef, hook string) Pref {
	k := hookKey{cls, hook}
	if p, ok := h.prefs[k]; ok {
		return p
	}
	p := h.prefDepth(cls, hook, 0, map[*classDef]bool{})
	h.prefs[k] = p
	return p
}

func (h *hookResolver) prefDepth(cls *classDef, hook string, depth int, seen map[*classDef]bool) Pref {
	if depth > maxDelegation || seen[cls] {
		return Pref{Kind: "undetermined", Why: "delegation or inheritance loops at " + cls.name}
	}
	seen[cls] = true
	r := h.lookup(cls, hook)
	if r.cut != "" {
		return Pref{Kind: "undetermined", Why: r.cut}
	}
	owner, f := r.owner, r.f
	if f == nil {
		// Not in the package: TensorRT-LLM reads the hook with getattr(...,
		// None), so no hook means no preference.
		return Pref{Kind: "none", Why: cls.name + " and its bases in the package define no " + hook + "()"}
	}
	if !h.spend(len(f.body)) {
		return Pref{Kind: "undetermined", Why: workSpent}
	}
	ev := at(owner.file, f.line)
	p := h.body(owner, f, hook, depth, seen)
	if p.Evidence == "" {
		p.Evidence = ev
	}
	if owner != cls {
		// The hook cls runs is owner's: its def line is the evidence (the
		// return line that gives the value belongs to owner's body).
		p.Evidence = ev
		p.Why = joinWhy("inherited from "+owner.name, p.Why)
	}
	return p
}

// lookup finds the class that defines the hook: cls, then its bases depth-first
// in order (Python's MRO for the single-inheritance chains upstream uses), at
// most maxInheritance classes up.
func (h *hookResolver) lookup(cls *classDef, hook string) lookupResult {
	return h.lookupWithin(cls, hook, maxInheritance, map[*classDef]bool{})
}

func (h *hookResolver) lookupWithin(cls *classDef, hook string, budget int, onPath map[*classDef]bool) lookupResult {
	k := hookKey{cls, hook}
	if r, ok := h.found[k]; ok {
		switch {
		case r.cut == "" && r.levels <= budget:
			return r
		case r.cut == "":
			return h.tooDeep(cls, budget)
		case r.budget >= budget:
			return r
		}
	}
	if onPath[cls] {
		return lookupResult{budget: budget} // a loop: nothing down this path
	}
	if !h.spend(1) {
		return lookupResult{cut: workSpent, budget: budget}
	}
	if f, ok := cls.methods[hook]; ok {
		r := lookupResult{owner: cls, f: f, budget: budget}
		h.found[k] = r
		return r
	}
	onPath[cls] = true
	defer delete(onPath, cls)
	r := lookupResult{budget: budget}
	for _, b := range cls.bases {
		bc := h.find(b, cls.file)
		if bc == nil {
			continue // not in the package (nn.Module, Generic[...]): no hook there
		}
		if budget == 0 {
			r = h.tooDeep(cls, budget)
			break
		}
		br := h.lookupWithin(bc, hook, budget-1, onPath)
		if br.cut != "" {
			r = lookupResult{cut: br.cut, budget: budget}
			break // a base not followed to its end: what the MRO finds is unknown
		}
		if br.f != nil {
			r = lookupResult{owner: br.owner, f: br.f, levels: br.levels + 1, budget: budget}
			break
		}
		r.levels = max(r.levels, br.levels+1) // for "nothing": how far it looked
	}
	if r.cut != workSpent {
		h.found[k] = r
	}
	return r
}

// tooDeep is the answer for a chain longer than the levels left.
func (h *hookResolver) tooDeep(cls *classDef, budget int) lookupResult {
	return lookupResult{cut: "the inheritance chain is deeper than " + strconv.Itoa(maxInheritance) + " classes (cut at " + cls.name + ")", budget: budget}
}

// body reads a hook's body: the returns, and whether anything else decides.
func (h *hookResolver) body(owner *classDef, f *funcDef, hook string, depth int, seen map[*classDef]bool) Pref {
	var rets [][]token
	var retLines []int
	var conds []string
	raises := false
	lastTop := ""
	topIndent := -1
	for i, l := range f.body {
		if i == 0 && len(l.toks) == 1 && l.toks[0].kind == tkString {
			continue // docstring
		}
		if topIndent < 0 {
			topIndent = l.indent
		}
		if l.indent == topIndent {
			lastTop = l.first()
		}
		switch l.first() {
		case "return":
			rets = append(rets, l.toks[1:])
			retLines = append(retLines, l.line)
		case "if", "elif", "while", "for", "match", "case", "try", "except", "with":
			c := render(l.toks)
			if len(c) > maxConditionLen {
				c = c[:maxConditionLen] + "…"
			}
			conds = append(conds, termsafe.Line(c)+" ("+at(owner.file, l.line)+")")
		case "raise":
			raises = true
		}
	}
	if len(rets) == 0 {
		return Pref{Kind: "none", Why: owner.name + "." + hook + "() has no return: None"}
	}
	var vals []Pref
	for i, r := range rets {
		vals = append(vals, h.expr(owner, r, hook, depth, seen, at(owner.file, retLines[i])))
	}
	same := true
	for _, v := range vals[1:] {
		if v.Kind != vals[0].Kind || v.Value != vals[0].Value {
			same = false
		}
	}
	fallsOff := lastTop != "return" && vals[0].Kind != "none"
	if same && !raises && !fallsOff && vals[0].Kind != "undetermined" {
		return vals[0]
	}
	p := Pref{Kind: "undetermined", Conditions: conds}
	for _, v := range vals {
		if v.Kind == "undetermined" {
			p.Depends = append(p.Depends, v.Depends...)
			if v.Why != "" && p.Why == "" {
				p.Why = v.Why
			}
		}
	}
	p.Depends = append(p.Depends, configAttrs(f.body)...)
	p.Depends = uniq(p.Depends)
	if p.Why == "" {
		var outs []string
		for _, v := range vals {
			outs = append(outs, v.show())
		}
		p.Why = "the result depends on a condition: returns " + strings.Join(uniq(outs), " or ")
		if fallsOff {
			p.Why += " or falls through to None"
		}
	}
	return p
}

// show renders a pref value for a reason.
func (p Pref) show() string {
	switch p.Kind {
	case "literal":
		return strconv.Quote(p.Value)
	case "none":
		return "None"
	}
	return "an undetermined value"
}

// expr evaluates one return expression.
func (h *hookResolver) expr(owner *classDef, e []token, hook string, depth int, seen map[*classDef]bool, ev string) Pref {
	switch {
	case len(e) == 0:
		return Pref{Kind: "none", Evidence: ev}
	case len(e) == 1 && e[0].kind == tkString && e[0].str.isConst():
		return Pref{Kind: "literal", Value: e[0].str.value(), Evidence: ev}
	case len(e) == 1 && e[0].text == "None":
		return Pref{Kind: "none", Evidence: ev}
	}
	// Delegation: Other.hook(...), super().hook(...), cls.hook / self.hook are
	// loops or dynamic.
	if name, rest := dotted(e); name != "" && (len(rest) == 0 || rest[0].text == "(" && matchClose(rest) == len(rest)-1) {
		parts := strings.Split(name, ".")
		if len(parts) >= 2 && parts[len(parts)-1] == hook {
			target := parts[len(parts)-2]
			if target == "cls" || target == "self" {
				return Pref{Kind: "undetermined", Why: "calls itself through " + target, Evidence: ev}
			}
			if c := h.find(target, owner.file); c != nil {
				p := h.prefDepth(c, hook, depth+1, seen)
				p.Why = joinWhy("delegates to "+target+"."+hook+"() ("+ev+")", p.Why)
				return p
			}
			return Pref{Kind: "undetermined", Why: "delegates to " + target + ", which is not in the package", Evidence: ev}
		}
	}
	if len(e) >= 6 && e[0].text == "super" && e[1].text == "(" {
		close := matchClose(e[1:]) + 1
		if close+2 < len(e) && e[close+1].text == "." && e[close+2].text == hook {
			for _, b := range owner.bases {
				if bc := h.find(b, owner.file); bc != nil {
					p := h.prefDepth(bc, hook, depth+1, seen)
					p.Why = joinWhy("super() -> "+bc.name+" ("+ev+")", p.Why)
					return p
				}
			}
			return Pref{Kind: "none", Why: "super() reaches no base in the package", Evidence: ev}
		}
	}
	return Pref{Kind: "undetermined", Why: "returns " + termsafe.Line(render(e)), Depends: configAttrs([]logical{{toks: e}}), Evidence: ev}
}

// wholeConfig is the Depends entry of a hook that uses pretrained_config
// without reading an attribute of it (it passes it on).
const wholeConfig = "pretrained_config"

// configAttrs lists the pretrained_config attributes read in the lines, or
// wholeConfig when pretrained_config is only passed on.
func configAttrs(lines []logical) []string {
	var out []string
	for _, l := range lines {
		t := l.toks
		for i := 0; i < len(t); i++ {
			if t[i].text != "pretrained_config" {
				continue
			}
			if i+2 < len(t) && t[i+1].text == "." && t[i+2].kind == tkName {
				out = append(out, strings.Clone(t[i+2].text))
			}
			if i >= 2 && t[i-1].text == "(" && t[i-2].text == "getattr" && i+2 < len(t) && t[i+1].text == "," && t[i+2].kind == tkString {
				if a := t[i+2].str.value(); safe(a) {
					out = append(out, a)
				}
			}
		}
	}
	if len(out) == 0 {
		for _, l := range lines {
			for _, tk := range l.toks {
				if tk.text == "pretrained_config" {
					return []string{wholeConfig}
				}
			}
		}
	}
	return out
}

func joinWhy(a, b string) string {
	if b == "" {
		return a
	}
	return a + "; " + b
}

func uniq(s []string) []string {
	var out []string
	seen := map[string]bool{}
	for _, x := range s {
		if !seen[x] {
			seen[x] = true
			out = append(out, x)
		}
	}
	return out
}

// readDirLimited lists up to n names of a directory.
func readDirLimited(dir string, n int) ([]string, error) {
	f, err := openDir(dir)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	names, err := f.Readdirnames(n)
	if err != nil && !errors.Is(err, fs.ErrNotExist) && len(names) == 0 {
		return nil, err
	}
	sort.Strings(names)
	return names, nil
}

// fieldSpec reads a pydantic field declaration "name: ANNOTATION [= default]":
// the kind of value, Literal choices, None allowed, and a gt/ge bound from
// PositiveInt/NonNegativeInt or Field(gt=N, ge=N). What it cannot read leaves
// Kind "" (the resolver then accepts the value, and says so).
func fieldSpec(name string, toks []token) resolver.FieldSpec {
	f := resolver.FieldSpec{Name: name}
	if len(toks) < 2 {
		return f
	}
	eq, depth := len(toks), 0
	for i, tk := range toks {
		// The annotation starts after "name:"; an "=" before it (a line such as
		// "=:") is not a default.
		if tk.kind != tkOp || i < 2 {
			continue
		}
		switch tk.text {
		case "(", "[", "{":
			depth++
		case ")", "]", "}":
			depth--
		case "=":
			if depth == 0 && eq == len(toks) {
				eq = i
			}
		}
	}
	ann := toks[2:eq]
	kinds := map[string]bool{}
	literal := false
	for i := 0; i < len(ann); i++ {
		tk := ann[i]
		if tk.kind != tkName {
			continue
		}
		switch tk.text {
		case "None", "Optional":
			f.Optional = true
		case "Literal":
			literal = true
			for _, x := range inside(ann[i+1:]) {
				if x.kind == tkString && x.str.isConst() {
					f.Literals = append(f.Literals, x.str.value())
				}
			}
			i += len(inside(ann[i+1:])) + 1
		case "int", "StrictInt":
			kinds["int"] = true
		case "PositiveInt":
			kinds["int"], f.Bound, f.BoundN = true, "gt", 0
		case "NonNegativeInt":
			kinds["int"], f.Bound, f.BoundN = true, "ge", 0
		case "bool", "StrictBool":
			kinds["bool"] = true
		case "str", "StrictStr":
			kinds["str"] = true
		case "Dict", "dict", "Mapping":
			// Its key and value types are not checked.
			kinds["dict"] = true
			i += len(inside(ann[i+1:])) + 1
		case "Annotated", "Union", "typing":
		case "Gt", "Ge", "Field", "conint":
			// Annotated[int, Gt(gt=0)] and the like: a bound, not a type.
			args := inside(ann[i+1:])
			for _, a := range splitArgs(args) {
				if len(a) == 3 && a[1].text == "=" && (a[0].text == "gt" || a[0].text == "ge") && a[2].kind == tkNumber {
					if n, err := strconv.ParseInt(a[2].text, 10, 64); err == nil {
						f.Bound, f.BoundN = a[0].text, n
					}
				}
			}
			if tk.text == "conint" {
				kinds["int"] = true
			}
			i += len(args) + 1
		default:
			kinds["?"] = true // a type xcvr does not model
		}
	}
	switch {
	case literal && len(kinds) == 0 && len(f.Literals) > 0:
		f.Kind = "literal"
	case !literal && len(kinds) == 1 && !kinds["?"]:
		for k := range kinds {
			f.Kind = k
		}
	}
	// Field(gt=N) / Field(ge=N) bounds.
	if eq+2 < len(toks) && toks[eq+1].text == "Field" && toks[eq+2].text == "(" {
		for _, a := range splitArgs(inside(toks[eq+2:])) {
			if len(a) == 3 && a[1].text == "=" && (a[0].text == "gt" || a[0].text == "ge") && a[2].kind == tkNumber {
				if n, err := strconv.ParseInt(a[2].text, 10, 64); err == nil {
					f.Bound, f.BoundN = a[0].text, n
				}
			}
		}
	}
	if f.Kind != "int" {
		f.Bound, f.BoundN = "", 0
	}
	return f
}

// Package deploy reads real deployments — worker YAMLs, the disaggregated
// orchestrator YAML, checkpoints' config.json, env files and running processes —
// into the raw inputs xcvr resolves, with every value's FILE:LINE origin. It reads
// files the way TensorRT-LLM does (yaml.safe_load, pydantic validation of
// cache_transceiver_config) so that what xcvr predicts is what the server would do.
package deploy

import (
	"errors"
	"fmt"
	"math"
	"math/big"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"

	"xcvr/internal/inputs"
	"xcvr/internal/termsafe"
	"xcvr/internal/yamlpos"
	"xcvr/resolver"
)

// Setting is one value a file sets, already in the raw form inputs.Spec takes.
type Setting struct {
	Raw    string
	Origin resolver.Origin
}

// Overlay is what one worker's LLM args (a --config YAML, or one role of a
// disaggregated YAML) say about the inputs xcvr resolves. A nil Setting means the
// file does not set that input, so TensorRT-LLM's default applies.
type Overlay struct {
	// File names the source in messages.
	File string
	// Backend, Runtime, TimeoutMS and Pipelined come from cache_transceiver_config.
	Backend, Runtime, TimeoutMS, Pipelined *Setting
	// Loader comes from the top-level "backend" key (pytorch, _autodeploy).
	Loader *Setting
	// Model is the top-level "model" key as written (an HF id or a path); the
	// caller decides how to read it.
	Model *Setting
	// KVManager is kv_cache_config.use_kv_cache_manager_v2 ("v1", "v2", "auto").
	KVManager *Setting
	// KVDtype is kv_cache_config.dtype as validate_dtype keeps it (lower-cased).
	KVDtype *Setting
	// Static holds the settings enable_pipelined_transfer's static checks read
	// (enable_chunked_prefill, parallel sizes, beam width, block reuse, the bounce
	// buffer, a two-model draft), each with its FILE:LINE.
	Static resolver.Static
	// VersionedKeys are agent_bounce_* keys, which exist only in some versions.
	VersionedKeys []resolver.VersionedKey
	// ConfigKeys are every cache_transceiver_config key, in input order (an
	// installed TensorRT-LLM's field set may differ from xcvr's).
	ConfigKeys []resolver.VersionedKey
	// ConfigErrors are values pydantic would reject, Loc relative to
	// cache_transceiver_config.
	ConfigErrors []resolver.FieldError
	// BounceParams are agent_bounce_params' keys as str(k), as its
	// field_validator coerces them; nil when absent, None or empty.
	BounceParams []string
	// NoTransceiverConfig: the file has no cache_transceiver_config object
	// (no key, or null).
	NoTransceiverConfig bool
	// Warnings are things TensorRT-LLM accepts silently but an operator should know.
	Warnings []string
	// TopKeys are the file's top-level keys, in input order: TorchLlmArgs is a
	// strict model, so a key that is not one of its fields refuses the file
	// (inputs.Build checks them against the version's field list).
	TopKeys []resolver.VersionedKey
	// NestedKeys are the string keys written inside the mappings of
	// resolver.NestedRoots (kv_cache_config, scheduler_config,
	// cuda_graph_config, attention_dp_config, moe_config), in input order:
	// those models are strict too (inputs.Build checks them against the
	// version's lists).
	NestedKeys []resolver.NestedKey
	// Locate, when set, renders a line of the worker YAML as an origin, for a
	// YAML held inside another file (a ConfigMap's data value), e.g.
	// "deploy.yaml:35 (ConfigMap trtllm-config, prefill.yaml:23)".
	Locate func(line int) string

	// runtimeBad is a non-string transceiver_runtime; its literal_error depends on
	// the version (era 0 has no 'auto'), which is only known in Apply.
	runtimeBad       *Node
	runtimeBadOrigin resolver.Origin
}

// ReadWorkerConfig reads the YAML given to trtllm-serve --config (also spelled
// --extra_llm_api_options). Syntax errors and files TensorRT-LLM could not load at
// all are returned as errors naming FILE:LINE:COL; values pydantic would reject are
// returned in Overlay.ConfigErrors so the resolver shows them as the outcome ERROR.
func ReadWorkerConfig(name string, data []byte) (*Overlay, error) {
	if err := ShellScript(name, data); err != nil {
		return nil, err
	}
	doc, err := ParseYAML(name, data)
	if err != nil {
		return nil, manifestHint(name, data, err)
	}
	ov := &Overlay{File: name, Warnings: doc.Warnings}
	if doc.Root == nil || doc.Root.Kind == KindNull {
		ov.Warnings = append(ov.Warnings, name+": the file is empty; TensorRT-LLM's defaults apply (no cache_transceiver_config: disaggregation off)")
		ov.NoTransceiverConfig = true
		return ov, nil
	}
	if doc.Root.Kind != KindMap {
		return nil, &yamlpos.Error{File: name, Line: doc.Root.Line, Col: doc.Root.Col,
			Msg: "ValueError: Configuration file root must be a mapping."}
	}
	if err := notWorker(name, doc.Root); err != nil {
		return nil, err
	}
	if err := ov.readLLMArgs(doc.Root); err != nil {
		return nil, err
	}
	ov.topKeys(doc.Root, nil)
	return ov, nil
}

// manifestHint adds, to the error for a multi-document file, that it holds
// Kubernetes objects and that audit reads those.
func manifestHint(name string, data []byte, err error) error {
	var ye *yamlpos.Error
	if !errors.As(err, &ye) || !strings.Contains(ye.Msg, "expected a single document in the stream") {
		return err
	}
	docs, derr := ParseYAMLDocs(name, data)
	if derr != nil {
		return err
	}
	for _, d := range docs {
		if d.Root == nil || d.Root.Kind != KindMap {
			continue
		}
		kp, ok1 := d.Root.Get("kind")
		_, ok2 := d.Root.Get("apiVersion")
		if ok1 && ok2 {
			e := *ye
			e.Msg += "\nthe file holds Kubernetes objects (" + kp.Val.Repr() + ", ...): xcvr audit " + termsafe.Line(name) + " resolves the workers they describe"
			return termsafe.MultilineError{Err: &e}
		}
	}
	return err
}

// ShellScript returns PyYAML's own error for a shell script (an sbatch file)
// given as a YAML: go-yaml stops elsewhere and with other words, and operators
// compare with what TensorRT-LLM printed. nil when the file does not look like
// a script or PyYAML's scanner reads it.
func ShellScript(name string, data []byte) error {
	text := string(data)
	if !strings.HasPrefix(text, "#!") && !strings.HasPrefix(text, "#SBATCH") && !strings.Contains(text, "\n#SBATCH") {
		return nil
	}
	if pyReaderError(name, data, false) != nil {
		return nil
	}
	pe := PyYAMLLoad(name, text)
	if pe == nil {
		return nil
	}
	return pyYAMLFileErr(pe, "a shell script, not YAML; yaml.safe_load refuses it:\n")
}

// ReadWorkerNode reads a worker YAML already parsed, e.g. a ConfigMap value or a
// worker_config section of a Slurm submit config; locate, when not nil, renders
// its lines as origins. A root that is not a mapping is TensorRT-LLM's
// "Configuration file root must be a mapping."
func ReadWorkerNode(name string, root *Node, locate func(int) string) (*Overlay, error) {
	ov := &Overlay{File: name, Locate: locate}
	if root == nil || root.Kind == KindNull {
		ov.Warnings = append(ov.Warnings, name+": the file is empty; TensorRT-LLM's defaults apply (no cache_transceiver_config: disaggregation off)")
		ov.NoTransceiverConfig = true
		return ov, nil
	}
	if root.Kind != KindMap {
		return nil, &yamlpos.Error{File: name, Line: root.Line, Col: root.Col,
			Msg: "ValueError: Configuration file root must be a mapping."}
	}
	if err := ov.readLLMArgs(root); err != nil {
		return nil, err
	}
	ov.topKeys(root, nil)
	return ov, nil
}

// topKeys records the mapping's keys as the worker's top-level keys, except
// those skip names (keys an orchestrator section consumes itself).
func (ov *Overlay) topKeys(m *Node, skip map[string]bool) {
	for _, p := range m.Pairs {
		if p.Key.Kind == KindStr && skip[p.Key.Str] {
			continue
		}
		ov.TopKeys = append(ov.TopKeys, resolver.VersionedKey{Key: p.KeyString(), Input: p.Val.Repr(), InputType: p.Val.TypeName(), Origin: ov.origin(p.KeyLine)})
	}
}

// BackendKey is the file's top-level backend key, whatever its value, and
// whether it has one: trtllm-serve lays the file over its command line, so
// the key, not --backend, picks the LLM class then (even trt, tensorrt or a
// value it refuses).
func (ov *Overlay) BackendKey() (resolver.VersionedKey, bool) {
	if ov == nil {
		return resolver.VersionedKey{}, false
	}
	for _, k := range ov.TopKeys {
		if k.Key == "backend" {
			return k, true
		}
	}
	return resolver.VersionedKey{}, false
}

func (ov *Overlay) origin(line int) resolver.Origin {
	if ov.Locate != nil {
		return resolver.Origin{Kind: resolver.OriginFile, Detail: ov.Locate(line)}
	}
	return resolver.Origin{Kind: resolver.OriginFile, Detail: ov.File + ":" + strconv.Itoa(line)}
}

// readLLMArgs reads the TorchLlmArgs keys xcvr needs from a mapping.
func (ov *Overlay) readLLMArgs(m *Node) error {
	if p, ok := m.Get("backend"); ok {
		switch v := p.Val; {
		case v.Kind == KindStr && (v.Str == "pytorch" || v.Str == "_autodeploy"):
			ov.Loader = &Setting{Raw: v.Str, Origin: ov.origin(p.KeyLine)}
		case v.Kind == KindNull:
			// None means the default PyTorch path.
		default:
			ov.Warnings = append(ov.Warnings, fmt.Sprintf("%s:%d: backend %s is not a PyTorch-path loader xcvr models (pytorch, _autodeploy); ignored",
				ov.File, p.KeyLine, v.Repr()))
		}
	}
	if p, ok := m.Get("model"); ok && p.Val.Kind == KindStr {
		ov.Model = &Setting{Raw: p.Val.Str, Origin: ov.origin(p.KeyLine)}
	}
	ov.readStatic(m)
	p, ok := m.Get("cache_transceiver_config")
	if !ok || p.Val.Kind == KindNull {
		ov.NoTransceiverConfig = true
		return nil
	}
	if p.Val.Kind != KindMap {
		// pydantic rejects the whole field (loc cache_transceiver_config, the
		// empty Loc): a refused configuration like any other wrong type.
		ov.fieldErr("", p.Val, "model_type", "Input should be a valid dictionary or instance of CacheTransceiverConfig", p.KeyLine)
		return nil
	}
	ov.readCacheTransceiver(p.Val)
	return nil
}

// readStatic reads the TorchLlmArgs settings outside cache_transceiver_config
// that the KV-cache manager and enable_pipelined_transfer's static checks depend
// on. Values of the wrong type are left out (TensorRT-LLM's own validation of them
// is not modelled) with a warning.
func (ov *Overlay) readStatic(m *Node) {
	intKey := func(key string, dst *resolver.Field[int64]) {
		p, ok := m.Get(key)
		if !ok || p.Val.Kind == KindNull {
			return
		}
		if p.Val.Kind != KindInt || !p.Val.Int.IsInt64() {
			ov.Warnings = append(ov.Warnings, fmt.Sprintf("%s:%d: %s %s is not an integer; xcvr ignores it", ov.File, p.KeyLine, key, p.Val.Repr()))
			return
		}
		*dst = resolver.Field[int64]{Value: p.Val.Int.Int64(), Origin: ov.origin(p.KeyLine)}
	}
	boolKey := func(mm *Node, key string, dst *resolver.Field[bool]) {
		p, ok := mm.Get(key)
		if !ok || p.Val.Kind == KindNull {
			return
		}
		if p.Val.Kind != KindBool {
			ov.Warnings = append(ov.Warnings, fmt.Sprintf("%s:%d: %s %s is not a boolean; xcvr ignores it", ov.File, p.KeyLine, key, p.Val.Repr()))
			return
		}
		*dst = resolver.Field[bool]{Value: p.Val.Bool, Origin: ov.origin(p.KeyLine)}
	}
	for _, root := range resolver.NestedRoots() {
		p, ok := m.Get(root)
		if !ok || p.Val.Kind != KindMap {
			continue
		}
		for _, q := range p.Val.Pairs {
			if q.Key.Kind != KindStr {
				// pydantic's loc would hold the key as it is (an int); xcvr
				// does not refuse what it cannot render.
				continue
			}
			ov.NestedKeys = append(ov.NestedKeys, resolver.NestedKey{Root: root, VersionedKey: resolver.VersionedKey{
				Key: q.Key.Str, Input: q.Val.Repr(), InputType: q.Val.TypeName(), Origin: ov.origin(q.KeyLine)}})
		}
	}
	boolKey(m, "enable_chunked_prefill", &ov.Static.ChunkedPrefill)
	intKey("pipeline_parallel_size", &ov.Static.PP)
	intKey("context_parallel_size", &ov.Static.CP)
	intKey("max_beam_width", &ov.Static.BeamWidth)
	if p, ok := m.Get("kv_cache_config"); ok && p.Val.Kind == KindMap {
		boolKey(p.Val, "enable_block_reuse", &ov.Static.BlockReuse)
		if q, ok := p.Val.Get("dtype"); ok && q.Val.Kind == KindStr {
			ov.KVDtype = &Setting{Raw: strings.ToLower(q.Val.Str), Origin: ov.origin(q.KeyLine)}
		}
		if q, ok := p.Val.Get("use_kv_cache_manager_v2"); ok {
			o := ov.origin(q.KeyLine)
			switch v := q.Val; {
			case v.Kind == KindBool && v.Bool:
				ov.KVManager = &Setting{Raw: "v2", Origin: o}
			case v.Kind == KindBool:
				ov.KVManager = &Setting{Raw: "v1", Origin: o}
			case v.Kind == KindStr && v.Str == "auto":
				ov.KVManager = &Setting{Raw: "auto", Origin: o}
			default:
				ov.Warnings = append(ov.Warnings, fmt.Sprintf("%s:%d: use_kv_cache_manager_v2 %s is not True, False or 'auto'; xcvr ignores it", ov.File, q.KeyLine, v.Repr()))
			}
		}
	}
	// A draft model run in its own engine (two-model speculative decoding)
	// demotes a V2 preference. xcvr reads it from decoding_type DraftTarget, or
	// Eagle/Eagle3 with eagle3_one_model: false [U: the upstream predicate was
	// not read].
	if p, ok := m.Get("speculative_config"); ok && p.Val.Kind == KindMap {
		dt, _ := p.Val.Get("decoding_type")
		one, hasOne := p.Val.Get("eagle3_one_model")
		two := false
		if dt.Val != nil && dt.Val.Kind == KindStr {
			switch dt.Val.Str {
			case "DraftTarget":
				two = true
			case "Eagle", "Eagle3":
				two = hasOne && one.Val.Kind == KindBool && !one.Val.Bool
			}
		}
		if two {
			ov.Static.TwoModelDraft = resolver.Field[bool]{Value: true, Origin: ov.origin(p.KeyLine)}
		}
	}
}

// cacheFields lists CacheTransceiverConfig's fields in declaration order, which is
// the order pydantic reports their errors in (extra keys come after).
var cacheFields = []string{"backend", "transceiver_runtime", "max_tokens_in_buffer",
	"kv_transfer_timeout_ms", "kv_transfer_sender_future_timeout_ms", "kv_transfer_poll_interval_ms",
	"kv_cache_bounce_size_mb", "enable_pipelined_transfer", "agent_bounce_buffer_enable", "agent_bounce_params"}

// CacheTransceiverFields lists the cache_transceiver_config keys TensorRT-LLM
// accepts (era 2 and later; enable_pipelined_transfer only from PR #15727, which the
// resolver checks against the version).
func CacheTransceiverFields() []string { return append([]string(nil), cacheFields...) }

func (ov *Overlay) fieldErr(loc string, v *Node, typ, msg string, line int) {
	ov.ConfigErrors = append(ov.ConfigErrors, resolver.FieldError{Loc: loc, Message: msg, Type: typ,
		Input: v.Repr(), InputType: v.TypeName(), Origin: ov.origin(line)})
}

// keyErr is an error at the key k of cache_transceiver_config: the empty key
// "" is a location item too (pydantic prints "cache_transceiver_config.").
func (ov *Overlay) keyErr(k, v *Node, typ, msg string, line int) {
	loc := locItem(k)
	ov.fieldErr(loc, v, typ, msg, line)
	ov.ConfigErrors[len(ov.ConfigErrors)-1].EmptyKey = loc == ""
}

func (ov *Overlay) readCacheTransceiver(m *Node) {
	known := map[string]bool{}
	for _, f := range cacheFields {
		known[f] = true
	}
	for _, field := range cacheFields {
		p, ok := m.Get(field)
		if !ok {
			continue
		}
		v, line := p.Val, p.KeyLine
		o := ov.origin(line)
		switch field {
		case "backend":
			ov.Backend = ov.literal(field, v, line, []string{"", "none", "null"})
		case "transceiver_runtime":
			ov.Runtime = ov.literal(field, v, line, []string{"", "unset", "null"})
		case "kv_transfer_timeout_ms":
			if v.Kind == KindNull {
				ov.TimeoutMS = &Setting{Raw: "null", Origin: o}
				continue
			}
			n, ok := ov.intValue(field, v, line)
			if !ok {
				continue
			}
			if v.Kind != KindInt && n.Sign() <= 0 {
				// False, '0', 0.0: pydantic names the value as written.
				ov.fieldErr(field, v, "greater_than", "Input should be greater than 0", line)
				continue
			}
			if !n.IsInt64() {
				// Python ints are unbounded; xcvr's are not. Any such value is a
				// finite positive (or negative) timeout, so the sign is all that matters.
				ov.Warnings = append(ov.Warnings, fmt.Sprintf("%s:%d: kv_transfer_timeout_ms %s does not fit 64 bits; xcvr uses the nearest 64-bit value", ov.File, line, n))
				if n.Sign() > 0 {
					n = big.NewInt(math.MaxInt64)
				} else {
					n = big.NewInt(math.MinInt64)
				}
			}
			// The resolver checks > 0 itself, with the same pydantic message.
			ov.TimeoutMS = &Setting{Raw: n.String(), Origin: o}
		case "kv_transfer_sender_future_timeout_ms", "kv_transfer_poll_interval_ms":
			if v.Kind == KindNull {
				continue
			}
			if n, ok := ov.intValue(field, v, line); ok && n.Sign() <= 0 {
				ov.fieldErr(field, v, "greater_than", "Input should be greater than 0", line)
			}
		case "max_tokens_in_buffer":
			if v.Kind != KindNull {
				ov.intValue(field, v, line)
			}
		case "kv_cache_bounce_size_mb":
			if v.Kind == KindNull {
				ov.fieldErr(field, v, "int_type", "Input should be a valid integer", line)
				continue
			}
			if n, ok := ov.intValue(field, v, line); ok && n.Sign() < 0 {
				ov.fieldErr(field, v, "greater_than_equal", "Input should be greater than or equal to 0", line)
			} else if ok && n.IsInt64() {
				ov.Static.BounceMB = resolver.Field[int64]{Value: n.Int64(), Origin: o}
			}
		case "enable_pipelined_transfer":
			if b, ok := ov.boolValue(field, v, line); ok {
				ov.Pipelined = &Setting{Raw: strconv.FormatBool(b), Origin: o}
			}
		case "agent_bounce_buffer_enable":
			ov.VersionedKeys = append(ov.VersionedKeys, resolver.VersionedKey{Key: field, Input: v.Repr(), InputType: v.TypeName(), Origin: o})
			if b, ok := ov.boolValue(field, v, line); ok {
				ov.Static.AgentBounce = resolver.Field[bool]{Value: b, Origin: o}
			}
		case "agent_bounce_params":
			ov.VersionedKeys = append(ov.VersionedKeys, resolver.VersionedKey{Key: field, Input: v.Repr(), InputType: v.TypeName(), Origin: o})
			// coerce_agent_bounce_params_to_str (mode='before', llm_args.py
			// @0649223e) turns keys and values into str() before Dict[str, str]
			// sees them, and refuses anything but a dict.
			switch v.Kind {
			case KindNull:
			case KindMap:
				for _, q := range v.Pairs {
					ov.BounceParams = append(ov.BounceParams, pyStr(q.Key))
				}
			default:
				ov.fieldErr(field, v, "value_error", "Value error, agent_bounce_params must be a dict of str to str, got "+v.TypeName(), line)
			}
		}
	}
	ov.Static.ConfigRepr, ov.Static.ConfigOrigin = m.Repr(), ov.origin(m.Line)
	for _, p := range m.Pairs {
		ov.ConfigKeys = append(ov.ConfigKeys, resolver.VersionedKey{Key: p.KeyString(), Input: p.Val.Repr(), InputType: p.Val.TypeName(), Origin: ov.origin(p.KeyLine)})
	}
	suggested := 0
	for _, p := range m.Pairs {
		if p.Key.Kind == KindStr && known[p.Key.Str] {
			continue
		}
		if p.Key.Kind != KindStr {
			// pydantic refuses the key itself, before asking whether it is a field.
			ov.keyErr(p.Key, p.Key, "invalid_key", "Keys should be strings", p.KeyLine)
			continue
		}
		ov.keyErr(p.Key, p.Val, "extra_forbidden", "Extra inputs are not permitted", p.KeyLine)
		if p.Key.Kind == KindStr {
			if s := suggestField(p.Key.Str); s != "" {
				if suggested++; suggested <= maxRepeatedWarnings {
					ov.Warnings = append(ov.Warnings, fmt.Sprintf("%s:%d: unknown key %s in cache_transceiver_config; did you mean %s?", ov.File, p.KeyLine, PyRepr(p.Key.Str), s))
				}
			}
		}
	}
	if suggested > maxRepeatedWarnings {
		ov.Warnings = append(ov.Warnings, fmt.Sprintf("%s: and %d more unknown keys that look like misspelt fields", ov.File, suggested-maxRepeatedWarnings))
	}
}

// pyStr is str(v) of a scalar key, as agent_bounce_params' validator applies
// it: a string as itself, anything else as its repr (a date's text).
func pyStr(v *Node) string {
	switch v.Kind {
	case KindStr, KindDate:
		return v.Str
	}
	return v.Repr()
}

// locItem renders a dict key as one item of pydantic's error location: an int
// (a bool counts as one) as its value, a string as itself, anything else as its
// repr; an item holding a '.' is put in backticks so the dotted path stays
// readable.
func locItem(k *Node) string {
	var s string
	switch k.Kind {
	case KindStr:
		s = k.Str
	case KindBool:
		s = "0"
		if k.Bool {
			s = "1"
		}
	default:
		s = k.Repr()
	}
	if strings.Contains(s, ".") {
		return "`" + s + "`"
	}
	return s
}

// suggestField names the known field an unknown key most likely meant (a case or
// separator slip), or "".
func suggestField(k string) string {
	if len(k) > 64 {
		return ""
	}
	nk := normField(k)
	for _, f := range cacheFields {
		if normField(f) == nk {
			return f
		}
	}
	return ""
}

// normField folds case and drops '-' and '_'.
func normField(s string) string {
	b := make([]byte, 0, len(s))
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '-' || c == '_':
		case 'A' <= c && c <= 'Z':
			b = append(b, c+'a'-'A')
		default:
			b = append(b, c)
		}
	}
	return string(b)
}

// literal passes a string through for the resolver's own literal check, except
// strings that inputs.Build would read as "omitted" or "null" (its flag spellings),
// which pydantic rejects as literals and so are reported here. A rejected runtime is
// kept aside: its literal list depends on the version, known only in Apply.
func (ov *Overlay) literal(field string, v *Node, line int, reserved []string) *Setting {
	o := ov.origin(line)
	if v.Kind == KindNull {
		return &Setting{Raw: "null", Origin: o}
	}
	if v.Kind == KindStr && !slices.Contains(reserved, v.Str) {
		return &Setting{Raw: v.Str, Origin: o}
	}
	if field == "transceiver_runtime" {
		ov.runtimeBad, ov.runtimeBadOrigin = v, o
		return nil
	}
	ov.fieldErr(field, v, "literal_error", "Input should be "+literalList(backendLiterals), line)
	return nil
}

var backendLiterals = []string{"DEFAULT", "UCX", "NIXL", "MOONCAKE", "MPI"}

// runtimeLiterals is transceiver_runtime's Literal[...] in an era.
func runtimeLiterals(era int) []string {
	if era == 0 {
		return []string{"CPP", "PYTHON"}
	}
	return []string{"CPP", "PYTHON", "auto"}
}

// literalList renders pydantic's "'A', 'B' or 'C'".
func literalList(vals []string) string {
	var b strings.Builder
	for i, v := range vals {
		switch {
		case i == 0:
		case i == len(vals)-1:
			b.WriteString(" or ")
		default:
			b.WriteString(", ")
		}
		b.WriteString("'" + v + "'")
	}
	return b.String()
}

var reIntString = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^[ \t\n\r]*[-+]?[0-9]+(?:_[0-9]+)*(?:\.0*)?[ \t\n\r]*$`)
})

// intValue validates an int field as pydantic's lax mode does and reports the error
// when it fails.
func (ov *Overlay) intValue(field string, v *Node, line int) (*big.Int, bool) {
	switch v.Kind {
	case KindInt:
		return v.Int, true
	case KindBool:
		if v.Bool {
			return big.NewInt(1), true
		}
		return new(big.Int), true
	case KindFloat:
		if math.IsInf(v.Float, 0) || math.IsNaN(v.Float) {
			ov.fieldErr(field, v, "finite_number", "Input should be a finite number", line)
			return nil, false
		}
		if v.Float != math.Trunc(v.Float) {
			ov.fieldErr(field, v, "int_from_float", "Input should be a valid integer, got a number with a fractional part", line)
			return nil, false
		}
		n, _ := new(big.Float).SetFloat64(v.Float).Int(nil)
		return n, true
	case KindStr, KindBytes:
		if reIntString().MatchString(v.Str) {
			s := strings.TrimSpace(strings.ReplaceAll(v.Str, "_", ""))
			s, _, _ = strings.Cut(s, ".")
			if n, ok := new(big.Int).SetString(strings.TrimPrefix(s, "+"), 10); ok {
				return n, true
			}
		}
		ov.fieldErr(field, v, "int_parsing", "Input should be a valid integer, unable to parse string as an integer", line)
		return nil, false
	}
	ov.fieldErr(field, v, "int_type", "Input should be a valid integer", line)
	return nil, false
}

// boolValue validates a bool field as pydantic's lax mode does.
func (ov *Overlay) boolValue(field string, v *Node, line int) (bool, bool) {
	switch v.Kind {
	case KindBool:
		return v.Bool, true
	case KindInt:
		if v.Int.IsInt64() && (v.Int.Int64() == 0 || v.Int.Int64() == 1) {
			return v.Int.Int64() == 1, true
		}
		ov.fieldErr(field, v, "bool_parsing", "Input should be a valid boolean, unable to interpret input", line)
		return false, false
	case KindFloat:
		if v.Float == 0 || v.Float == 1 {
			return v.Float == 1, true
		}
		ov.fieldErr(field, v, "bool_type", "Input should be a valid boolean", line)
		return false, false
	case KindStr, KindBytes:
		// pydantic's lax mode reads bytes as their text.
		switch strings.ToLower(strings.TrimSpace(v.Str)) {
		case "1", "on", "t", "true", "y", "yes":
			return true, true
		case "0", "off", "f", "false", "n", "no":
			return false, true
		}
		ov.fieldErr(field, v, "bool_parsing", "Input should be a valid boolean, unable to interpret input", line)
		return false, false
	}
	ov.fieldErr(field, v, "bool_type", "Input should be a valid boolean", line)
	return false, false
}

// Apply lays the overlay over spec. Inputs the user set with a flag win, and their
// origin says which file line they override; every other cache_transceiver_config
// input takes the file's value, or is reset to "omitted" when the file leaves it
// out, because the file is what the worker actually receives.
func Apply(spec *inputs.Spec, ov *Overlay) {
	if ov == nil {
		return
	}
	overridden := map[string]bool{}
	set := func(dst *inputs.Value, s *Setting, loc string, resetWhenAbsent bool) {
		if dst.Origin.Kind == resolver.OriginFlag {
			if s != nil {
				dst.Origin.Detail = strings.TrimSpace(dst.Origin.Detail + " (overrides " + s.Origin.Detail + ")")
			}
			overridden[loc] = true
			return
		}
		switch {
		case s != nil:
			*dst = inputs.Value{Raw: s.Raw, Origin: s.Origin}
		case resetWhenAbsent:
			*dst = inputs.Value{Origin: resolver.Origin{Kind: resolver.OriginDefault}}
		}
	}
	runtime := ov.Runtime
	if ov.runtimeBad != nil {
		runtime = &Setting{Origin: ov.runtimeBadOrigin} // only for the override note
	}
	set(&spec.Backend, ov.Backend, "backend", true)
	set(&spec.Runtime, runtime, "transceiver_runtime", true)
	if ov.runtimeBad != nil && !overridden["transceiver_runtime"] {
		spec.Runtime = inputs.Value{Origin: resolver.Origin{Kind: resolver.OriginDefault}}
	}
	set(&spec.TimeoutMS, ov.TimeoutMS, "kv_transfer_timeout_ms", true)
	set(&spec.Pipelined, ov.Pipelined, "enable_pipelined_transfer", true)
	set(&spec.KVManager, ov.KVManager, "kv_cache_config.use_kv_cache_manager_v2", true)
	spec.Static = ov.Static
	spec.VersionedKeys = ov.VersionedKeys
	spec.ConfigKeys = ov.ConfigKeys
	spec.BounceParams = ov.BounceParams
	// Without a cache_transceiver_config object there is none, unless a flag
	// describes one.
	spec.NoTransceiverConfig = ov.NoTransceiverConfig && !overridden["backend"] && !overridden["transceiver_runtime"] &&
		!overridden["kv_transfer_timeout_ms"] && !overridden["enable_pipelined_transfer"]
	spec.TopKeys = ov.TopKeys
	spec.NestedKeys = ov.NestedKeys
	if ov.Loader != nil {
		set(&spec.Loader, ov.Loader, "", false)
	}
	for _, e := range ov.ConfigErrors {
		if !overridden[e.Loc] {
			spec.ConfigErrors = append(spec.ConfigErrors, e)
		}
	}
	if ov.runtimeBad != nil && !overridden["transceiver_runtime"] {
		era := 2
		if v, err := resolver.ParseVersion(spec.Version.Raw); err == nil {
			era = v.Era
		}
		spec.ConfigErrors = append(spec.ConfigErrors, resolver.FieldError{Loc: "transceiver_runtime",
			Message: "Input should be " + literalList(runtimeLiterals(era)), Type: "literal_error",
			Input: ov.runtimeBad.Repr(), InputType: ov.runtimeBad.TypeName(), Origin: ov.runtimeBadOrigin})
	}
}

// Package inputs turns what a user typed (flags, the explorer's choices, the process
// environment) into resolver.Inputs, with each value's origin. The CLI and the
// explorer share it so that both read the same flags the same way.
package inputs

import (
	"fmt"
	"slices"
	"sort"
	"strconv"
	"strings"

	"xcvr/internal/llmargs"
	"xcvr/models"
	"xcvr/resolver"
)

// Backends lists the backend choices in display order; "none" turns disaggregation off.
func Backends() []string { return []string{"DEFAULT", "NIXL", "UCX", "MPI", "MOONCAKE", "none"} }

// BackendsOf is Backends' names, without "none", as the build v accepts them
// and spelt its way: 1.0.0rc4 to 1.0.0 take default, nixl, ucx and mpi
// (lower-case Literal until #6323) and refuse DEFAULT; MOONCAKE only from
// 1.2.0rc6. The explorer's backend row and the linear mode offer these.
func BackendsOf(v resolver.Version) []string {
	rs := v.Rules
	if rs == nil {
		rs = resolver.ReleaseRules(v)
	}
	lits := resolver.BackendLiterals(rs)
	bs := Backends()
	var out []string
	for _, b := range bs[:len(bs)-1] {
		if i := slices.IndexFunc(lits, func(l string) bool { return strings.EqualFold(l, b) }); i >= 0 {
			out = append(out, lits[i])
		} else if len(lits) == 0 {
			out = append(out, b)
		}
	}
	return out
}

// Runtimes lists the transceiver_runtime choices; "unset" omits the field.
func Runtimes() []string { return []string{"unset", "auto", "CPP", "PYTHON", "null"} }

// KVManagers lists the --kv-cache-manager choices: auto leaves
// use_kv_cache_manager_v2 unset (the version's default); v1 and v2 write false and
// true.
func KVManagers() []string { return []string{"auto", "v1", "v2"} }

// DefaultModel is the explorer's and explain's built-in model.
const DefaultModel = "GptOssForCausalLM"

// DefaultBackend is the built-in backend.
const DefaultBackend = "DEFAULT"

// Value is one raw input and where it came from.
type Value struct {
	Raw    string
	Origin resolver.Origin
}

// Spec is the raw, unvalidated choice of every input, as typed.
type Spec struct {
	Version Value
	Model   Value
	// ExecModel is the architecture the model runs as when it differs from
	// Model's (an Eagle3 draft's "EAGLE3" + architectures[0]); "" otherwise.
	ExecModel string
	Backend   Value
	Runtime   Value
	TimeoutMS Value
	Loader    Value
	Pipelined Value // "true"/"false"; empty = omitted
	// KVManager is kv_cache_config.use_kv_cache_manager_v2: "" or "auto" with
	// origin default = omitted; "auto" from a file = written as 'auto'; "v1"/"v2"
	// (or "false"/"true") = written.
	KVManager Value
	// Static is what a worker YAML says outside cache_transceiver_config.
	Static resolver.Static
	// VersionedKeys are version-dependent cache_transceiver_config keys a file sets.
	VersionedKeys []resolver.VersionedKey
	// ConfigKeys are every cache_transceiver_config key a file sets.
	ConfigKeys []resolver.VersionedKey
	// BounceParams are agent_bounce_params' keys as its validator coerces them.
	BounceParams []string
	// NoTransceiverConfig: the worker's file has no cache_transceiver_config
	// object and no flag sets one of its fields.
	NoTransceiverConfig bool
	// TopKeys are a worker YAML's top-level keys; Build refuses those that are
	// not TorchLlmArgs fields (see internal/llmargs).
	TopKeys []resolver.VersionedKey
	// NestedKeys are the keys a worker YAML writes inside the models of
	// resolver.NestedRoots (kv_cache_config, scheduler_config,
	// cuda_graph_config, attention_dp_config, moe_config); Build refuses
	// those that are not fields of their model in the version
	// (resolver.NestedErrors), unless the version is an install's (xcvr does
	// not read its nested models).
	NestedKeys []resolver.NestedKey
	// LLMArgsFields, when not nil, are the install's own TorchLlmArgs fields,
	// which decide TopKeys instead of xcvr's list.
	LLMArgsFields []string
	// Env holds the worker's environment (only TRTLLM_* variables matter).
	Env map[string]resolver.EnvVar
	// ConfigErrors are validation failures found while reading files.
	ConfigErrors []resolver.FieldError
	// Install, when set, is an installed TensorRT-LLM read by --install; it is
	// used while Version's origin is the install (an edit in the explorer
	// leaves it).
	Install *resolver.Install
}

// Defaults returns the built-in choices: the newest version, GPT-OSS, backend DEFAULT,
// runtime unset, and an empty environment.
func Defaults() Spec {
	preset := resolver.Origin{Kind: resolver.OriginPreset}
	return Spec{
		Version: Value{resolver.DefaultVersionName, preset},
		Model:   Value{DefaultModel, preset},
		Backend: Value{DefaultBackend, preset},
		Runtime: Value{"unset", resolver.Origin{Kind: resolver.OriginDefault}},
		Loader:  Value{string(resolver.LoaderPyTorch), resolver.Origin{Kind: resolver.OriginDefault}},
		Env:     map[string]resolver.EnvVar{},
	}
}

// FromEnviron copies the TRTLLM_* variables of a process environment (os.Environ()
// form) into s.Env, with origin env.
func (s *Spec) FromEnviron(environ []string) {
	if s.Env == nil {
		s.Env = map[string]resolver.EnvVar{}
	}
	for _, kv := range environ {
		k, v, ok := strings.Cut(kv, "=")
		if !ok || !strings.HasPrefix(k, "TRTLLM_") {
			continue
		}
		s.Env[k] = resolver.EnvVar{Value: v, Origin: resolver.Origin{Kind: resolver.OriginEnv}}
	}
}

// SetEnv parses KEY=VALUE (as given to --env) into s.Env. "KEY=" sets an empty
// value; "KEY" alone unsets the variable.
func (s *Spec) SetEnv(kv string, origin resolver.Origin) error {
	if s.Env == nil {
		s.Env = map[string]resolver.EnvVar{}
	}
	k, v, ok := strings.Cut(kv, "=")
	if k == "" || strings.ContainsAny(k, " \t") {
		return fmt.Errorf("--env %q: want KEY=VALUE (or KEY alone to unset it)", kv)
	}
	if !ok {
		delete(s.Env, k)
		return nil
	}
	s.Env[k] = resolver.EnvVar{Value: v, Origin: origin}
	return nil
}

// EnvNames returns the variable names of s.Env in sorted order.
func (s *Spec) EnvNames() []string {
	names := make([]string, 0, len(s.Env))
	for k := range s.Env {
		names = append(names, k)
	}
	sort.Strings(names)
	return names
}

// ParseVersion is the version the spec names: its install's, when the version
// came from one, else the parsed release or main@ day.
func (s Spec) ParseVersion() (resolver.Version, error) {
	if s.Install != nil && s.Version.Origin.Kind == resolver.OriginInstall {
		return resolver.InstallVersion(s.Install), nil
	}
	return resolver.ParseVersion(s.Version.Raw)
}

// Build validates the raw spec and returns resolver inputs. Invalid literals that
// TensorRT-LLM itself would reject ('Auto', 'nixl', 0) are passed through for the
// resolver to report; only what xcvr cannot represent is an error here.
func Build(s Spec, cat *models.Catalog) (resolver.Inputs, error) {
	var in resolver.Inputs
	v, err := s.ParseVersion()
	if err != nil {
		return in, err
	}
	in.Version = v
	in.VersionOrigin = s.Version.Origin

	model := strings.TrimSpace(s.Model.Raw)
	if e, ok := cat.FindHFID(model); ok {
		model = e.Arch
	}
	switch strings.ToLower(model) {
	case "none", "unknown":
		model = ""
	}
	in.Model = resolver.Field[resolver.ModelInfo]{Value: cat.Lookup(model, v), Origin: s.Model.Origin}
	if x := s.ExecModel; x != "" && x != model && in.Model.Value.Known {
		// The class registered for the execution architecture, named after it
		// when xcvr does not know it.
		ex := cat.Lookup(x, v)
		in.Model.Value.ExecClass, in.Model.Value.ExecClassConfidence = x, resolver.Inferred
		if ex.Known && ex.Class != "" {
			in.Model.Value.ExecClass, in.Model.Value.ExecClassConfidence = ex.Class, ex.PreferenceConfidence
		}
	}

	switch b := s.Backend.Raw; b {
	case "", "none", "null":
		in.Backend = resolver.Field[resolver.PyStr]{Origin: s.Backend.Origin}
		if b == "" {
			in.Backend.Origin = resolver.Origin{Kind: resolver.OriginDefault}
		}
	default:
		in.Backend = resolver.Field[resolver.PyStr]{Value: resolver.Str(b), Origin: s.Backend.Origin}
	}

	switch r := s.Runtime.Raw; r {
	case "", "unset":
		in.Runtime = resolver.Field[resolver.PyStr]{Origin: resolver.Origin{Kind: resolver.OriginDefault}}
	case "null":
		in.Runtime = resolver.Field[resolver.PyStr]{Origin: s.Runtime.Origin}
	default:
		in.Runtime = resolver.Field[resolver.PyStr]{Value: resolver.Str(r), Origin: s.Runtime.Origin}
	}

	switch t := strings.TrimSpace(s.TimeoutMS.Raw); t {
	case "", "default":
		in.Timeout = resolver.Field[resolver.OptInt]{Value: resolver.Int(resolver.DefaultTimeoutMS), Origin: resolver.Origin{Kind: resolver.OriginDefault}}
	case "null", "none", "None":
		in.Timeout = resolver.Field[resolver.OptInt]{Origin: s.TimeoutMS.Origin}
	default:
		n, err := strconv.ParseInt(t, 10, 64)
		if err != nil {
			return in, fmt.Errorf("--timeout-ms %q: want a whole number of milliseconds or null", t)
		}
		in.Timeout = resolver.Field[resolver.OptInt]{Value: resolver.Int(n), Origin: s.TimeoutMS.Origin}
	}

	switch l := resolver.Loader(s.Loader.Raw); l {
	case "":
		in.Loader = resolver.Field[resolver.Loader]{Value: resolver.LoaderPyTorch, Origin: resolver.Origin{Kind: resolver.OriginDefault}}
	case resolver.LoaderPyTorch, resolver.LoaderAutoDeploy, resolver.LoaderNone:
		in.Loader = resolver.Field[resolver.Loader]{Value: l, Origin: s.Loader.Origin}
	case "_autodeploy":
		in.Loader = resolver.Field[resolver.Loader]{Value: resolver.LoaderAutoDeploy, Origin: s.Loader.Origin}
	default:
		return in, fmt.Errorf("--loader %q: want pytorch, autodeploy or none", s.Loader.Raw)
	}

	switch p := s.Pipelined.Raw; p {
	case "":
		in.Pipelined = resolver.Field[bool]{Origin: resolver.Origin{Kind: resolver.OriginDefault}}
	case "true":
		in.Pipelined = resolver.Field[bool]{Value: true, Origin: s.Pipelined.Origin}
	case "false":
		in.Pipelined = resolver.Field[bool]{Value: false, Origin: s.Pipelined.Origin}
	default:
		return in, fmt.Errorf("--pipelined %q: want true or false", p)
	}

	switch k := strings.ToLower(strings.TrimSpace(s.KVManager.Raw)); {
	case k == "" || (k == "auto" && s.KVManager.Origin.IsDefault()):
		in.KVManager = resolver.Field[resolver.KVSetting]{Origin: resolver.Origin{Kind: resolver.OriginDefault}}
	case k == "auto":
		in.KVManager = resolver.Field[resolver.KVSetting]{Value: resolver.KVAuto, Origin: s.KVManager.Origin}
	case k == "v1" || k == "false":
		in.KVManager = resolver.Field[resolver.KVSetting]{Value: resolver.KVV1, Origin: s.KVManager.Origin}
	case k == "v2" || k == "true":
		in.KVManager = resolver.Field[resolver.KVSetting]{Value: resolver.KVV2, Origin: s.KVManager.Origin}
	default:
		return in, fmt.Errorf("--kv-cache-manager %q: want auto, v1 or v2", s.KVManager.Raw)
	}
	if s.Static != (resolver.Static{}) {
		st := s.Static
		in.Static = &st
	}
	in.VersionedKeys = s.VersionedKeys
	in.ConfigKeys = s.ConfigKeys
	in.BounceParams = s.BounceParams
	in.NoTransceiverConfig = s.NoTransceiverConfig

	in.Env = resolver.Env{}
	for k, v := range s.Env {
		in.Env[k] = v
	}
	in.ConfigErrors = s.ConfigErrors
	if len(s.TopKeys) > 0 {
		// Extra keys are pydantic's last errors; the slice is copied so a spec
		// reused for another version keeps its own.
		in.ConfigErrors = append(slices.Clip(s.ConfigErrors), llmargs.ErrorsFor(s.TopKeys, s.LLMArgsFields, v)...)
	}
	fromInstall := s.Install != nil && s.Version.Origin.Kind == resolver.OriginInstall
	if len(s.NestedKeys) > 0 && s.LLMArgsFields == nil && !fromInstall {
		// An install's own nested models are not read: release data would
		// answer for code xcvr has not seen.
		in.ConfigErrors = append(slices.Clip(in.ConfigErrors), resolver.NestedErrors(v, s.NestedKeys)...)
	}
	return in, nil
}

// Field names of cache_transceiver_config that the inputs edit, as pydantic
// names them in a validation error's loc.
const (
	FieldBackend   = "backend"
	FieldRuntime   = "transceiver_runtime"
	FieldTimeout   = "kv_transfer_timeout_ms"
	FieldPipelined = "enable_pipelined_transfer"
)

// fieldOf is the cache_transceiver_config key a pydantic loc starts with.
func fieldOf(loc string) string {
	f, _, _ := strings.Cut(loc, ".")
	return f
}

// Invalid returns the validation error a file reader recorded for field: the
// value the file writes there, which TensorRT-LLM would reject, with its FILE:LINE.
// The spec's own value for the field is then the default, because that is all
// xcvr can resolve; the explorer and explain -o json show the file's value instead.
func (s *Spec) Invalid(field string) (resolver.FieldError, bool) {
	for _, e := range s.ConfigErrors {
		if e.Loc != "" && fieldOf(e.Loc) == field {
			return e, true
		}
	}
	return resolver.FieldError{}, false
}

// Override drops the file's validation errors for field, exactly as a flag for that
// field does when the file is read (deploy.Apply): a value the user sets wins over
// whatever the file writes, valid or not. It returns where the dropped value was
// written ("" when none was). The slice is copied, so a spec sharing it (the
// explorer's starting point) keeps its errors.
func (s *Spec) Override(field string) string {
	where := ""
	var kept []resolver.FieldError
	for _, e := range s.ConfigErrors {
		if e.Loc != "" && fieldOf(e.Loc) == field {
			if where == "" {
				where = e.Origin.String()
			}
			continue
		}
		kept = append(kept, e)
	}
	if where != "" {
		s.ConfigErrors = kept
	}
	return where
}

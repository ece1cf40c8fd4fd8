// Package report renders a resolver.Trace for people and programs: the explain text,
// Markdown, and the stable JSON object. It writes nothing itself; callers choose the
// writer.
package report

import (
	"encoding/json"
	"math"
	"regexp"
	"strconv"
	"strings"
	"sync"

	"xcvr/internal/install"
	"xcvr/models"
	"xcvr/resolver"
)

// InputJSON is one input in the JSON contract: its value and where it came from.
type InputJSON struct {
	Value  any    `json:"value"`
	Origin string `json:"origin"`
	// Invalid is pydantic's message when the value is one a file writes and
	// TensorRT-LLM rejects (Value is then the file's value, Origin its FILE:LINE);
	// absent otherwise.
	Invalid string `json:"invalid,omitempty"`
}

// LogJSON is one expected log line.
type LogJSON struct {
	Level   string `json:"level"`
	Message string `json:"message"`
}

// StepJSON is one step in the JSON contract.
type StepJSON struct {
	ID         string `json:"id"`
	Title      string `json:"title"`
	Verdict    string `json:"verdict"`
	Reason     string `json:"reason"`
	Source     string `json:"source"`
	Confidence string `json:"confidence"`
}

// ExplainJSON is xcvr's stable JSON object for one resolution (see README,
// "JSON contract"). Fields are only ever added, never renamed.
type ExplainJSON struct {
	TRTLLM           string               `json:"trtllm"`
	Inputs           map[string]InputJSON `json:"inputs"`
	Outcome          string               `json:"outcome"`
	ResolvedRuntime  *string              `json:"resolved_runtime"`
	EffectiveBackend *string              `json:"effective_backend"`
	BackendSource    *string              `json:"backend_source"`
	TransceiverClass *string              `json:"transceiver_class"`
	Error            *string              `json:"error"`
	// KVCacheManager is the KV-cache manager version ("V1", "V2"), or null when
	// disaggregation is off or start-up failed before it was chosen.
	KVCacheManager *string `json:"kv_cache_manager"`
	// CacheManagerClass (extra) is the class get_kv_cache_manager_cls() returns.
	CacheManagerClass *string `json:"cache_manager_class"`
	// EnvSet (extra) is a NAME=VALUE TensorRT-LLM sets in the worker's own
	// environment (TRTLLM_KVCACHE_POOL_USE_FABRIC_MEMORY=1), or null.
	EnvSet *string `json:"env_set"`
	// RequestError (extra) is what the worker raises for every disaggregated
	// request it is sent when it runs without a transceiver (from #5234 on), or
	// null.
	RequestError *string    `json:"request_error"`
	Logs         []LogJSON  `json:"logs"`
	Steps        []StepJSON `json:"steps"`
	// Era and MainDate are extras: the rule set and the main-branch day the version
	// behaves like.
	Era      int    `json:"era"`
	MainDate string `json:"main_date"`
	// Hint is a one-line way out of an ERROR outcome, or null.
	Hint *string `json:"hint"`
	// VersionPlacement (extra) says, for a version xcvr does not list, whose
	// rules answer it (inferred); null for a listed release or main@DATE.
	VersionPlacement *string `json:"version_placement"`
	// Disagreements (extra) are where the install given with --install and
	// xcvr's built-in rules for its version differ (the install was used); []
	// with an install that agrees, absent without one. The caller fills it in:
	// the trace does not carry the comparison.
	Disagreements []DisagreementJSON `json:"disagreements,omitzero"`
}

// DisagreementJSON is one difference between the install and xcvr's rules.
type DisagreementJSON struct {
	What     string `json:"what"`
	Xcvr     string `json:"xcvr"`
	Install  string `json:"install"`
	Evidence string `json:"evidence"`
}

func strPtr(s string) *string { return &s }

// pyStrPtr maps None to JSON null and a string to itself.
func pyStrPtr(p resolver.PyStr) *string {
	if !p.Valid {
		return nil
	}
	return strPtr(p.S)
}

// Explain builds the JSON object for a trace.
func Explain(t resolver.Trace) ExplainJSON {
	in := t.Inputs
	res := t.Result
	out := ExplainJSON{
		TRTLLM:   in.Version.Name,
		Inputs:   InputsJSON(in),
		Outcome:  string(res.Outcome),
		Logs:     make([]LogJSON, 0, len(t.Logs)),
		Steps:    make([]StepJSON, 0, len(t.Steps)),
		Era:      in.Version.Era,
		MainDate: in.Version.Main.String(),
	}
	if res.RuntimeKnown {
		out.ResolvedRuntime = pyStrPtr(res.ResolvedRuntime)
	}
	out.EffectiveBackend = pyStrPtr(res.EffectiveBackend)
	if res.BackendSource != "" {
		out.BackendSource = strPtr(res.BackendSource)
	}
	if res.Class != "" {
		out.TransceiverClass = strPtr(res.Class)
	}
	if res.Error != "" {
		out.Error = strPtr(res.Error)
	}
	out.KVCacheManager = pyStrPtr(res.KVManager)
	if res.CacheManagerClass != "" {
		out.CacheManagerClass = strPtr(res.CacheManagerClass)
	}
	if res.RequestError != "" {
		out.RequestError = strPtr(res.RequestError)
	}
	if p := in.Version.Placement; p != "" && in.Version.Install == nil {
		out.VersionPlacement = strPtr(p)
	}
	if res.EnvSet != "" {
		out.EnvSet = strPtr(res.EnvSet)
	}
	if res.Hint != "" {
		out.Hint = strPtr(res.Hint)
	}
	for _, l := range t.Logs {
		out.Logs = append(out.Logs, LogJSON{Level: string(l.Level), Message: l.Message})
	}
	for _, s := range t.Steps {
		out.Steps = append(out.Steps, StepJSON{ID: s.ID, Title: s.Title, Verdict: string(s.Verdict),
			Reason: s.Reason, Source: s.Source.String(), Confidence: string(s.Confidence)})
	}
	return out
}

// InputsJSON maps each input name to its value and origin. Omitted config fields
// show the value TensorRT-LLM uses by default, with origin "default".
func InputsJSON(in resolver.Inputs) map[string]InputJSON {
	m := make(map[string]InputJSON, 8+len(in.Env))
	m["trtllm"] = InputJSON{Value: in.Version.Name, Origin: in.VersionOrigin.String()}
	var model any
	if in.Model.Value.Arch != "" {
		model = in.Model.Value.Arch
	}
	m["model"] = InputJSON{Value: model, Origin: in.Model.Origin.String()}
	m["backend"] = InputJSON{Value: pyAny(in.Backend.Value), Origin: in.Backend.Origin.String()}
	if in.Runtime.Given() {
		m["transceiver_runtime"] = InputJSON{Value: pyAny(in.Runtime.Value), Origin: in.Runtime.Origin.String()}
	} else {
		m["transceiver_runtime"] = InputJSON{Value: defaultRuntime(in.Version.Era), Origin: "default"}
	}
	if in.Timeout.Given() {
		var v any
		if in.Timeout.Value.Valid {
			v = in.Timeout.Value.N
		}
		m["kv_transfer_timeout_ms"] = InputJSON{Value: v, Origin: in.Timeout.Origin.String()}
	} else {
		m["kv_transfer_timeout_ms"] = InputJSON{Value: resolver.DefaultTimeoutMS, Origin: "default"}
	}
	loader := in.Loader.Value
	if loader == "" {
		loader = resolver.LoaderPyTorch
	}
	m["loader"] = InputJSON{Value: string(loader), Origin: in.Loader.Origin.String()}
	m["enable_pipelined_transfer"] = InputJSON{Value: in.Pipelined.Value, Origin: in.Pipelined.Origin.String()}
	m["use_kv_cache_manager_v2"] = kvInput(in)
	// A value the file writes but pydantic rejects is what the file says: show it
	// with its FILE:LINE rather than the default xcvr resolves in its place.
	for _, e := range in.ConfigErrors {
		f, _, _ := strings.Cut(e.Loc, ".")
		if cur, ok := m[f]; ok && e.Loc != "" && cur.Invalid == "" && !given(in, f) {
			m[f] = InputJSON{Value: PyValue(e.Input), Origin: e.Origin.String(), Invalid: e.Message}
		}
	}
	for k, v := range in.Env {
		m[k] = InputJSON{Value: v.Value, Origin: v.Origin.String()}
	}
	return m
}

// kvInput is use_kv_cache_manager_v2 as JSON: true, false or "auto", with the
// version's default when omitted (false before #15823, "auto" until 1.4, true
// in 1.4 per #17495's release note).
func kvInput(in resolver.Inputs) InputJSON {
	val := func(k resolver.KVSetting) any {
		switch k {
		case resolver.KVV1:
			return false
		case resolver.KVV2:
			return true
		}
		return "auto"
	}
	if in.KVManager.Given() && in.KVManager.Value != "" {
		return InputJSON{Value: val(in.KVManager.Value), Origin: in.KVManager.Origin.String()}
	}
	return InputJSON{Value: val(resolver.DefaultKVSetting(in.Version)), Origin: "default"}
}

func pyAny(p resolver.PyStr) any {
	if !p.Valid {
		return nil
	}
	return p.S
}

// defaultRuntime is the field's default in an era, as JSON.
func defaultRuntime(era int) any {
	switch era {
	case 0:
		return nil
	case 1, 2:
		return "auto"
	}
	return "PYTHON"
}

// OutcomeLine is the one-line verdict: "Python transceiver (KvCacheTransceiverV2)",
// "C++ transceiver (BindKvCacheTransceiver)", "Disaggregation off" or
// "Start-up fails: <first line of the exception>".
func OutcomeLine(r resolver.Result) string {
	switch r.Outcome {
	case resolver.OutcomePython:
		// The class the build makes: PyNativeCacheTransceiver in 1.3.0rc8-rc10.
		class := r.Class
		if class == "" {
			class = resolver.ClassPython
		}
		return "Python transceiver (" + class + ")"
	case resolver.OutcomeCPP:
		return "C++ transceiver (" + resolver.ClassCPP + ")"
	case resolver.OutcomeDisabled:
		return "Disaggregation off (no transceiver)"
	}
	msg := r.Error
	if i := strings.IndexByte(msg, '\n'); i >= 0 {
		msg = msg[:i]
	}
	return "Start-up fails: " + msg
}

// LogPrefix is TensorRT-LLM's logger prefix for a level ("[TRT-LLM] [I] ").
func LogPrefix(l resolver.Level) string {
	switch l {
	case resolver.LevelWarning:
		return "[TRT-LLM] [W] "
	case resolver.LevelError:
		return "[TRT-LLM] [E] "
	}
	return "[TRT-LLM] [I] "
}

// Glyph is the verdict's symbol; it always travels with the verdict's word so that
// no state is told by colour alone.
func Glyph(v resolver.Verdict) string {
	switch v {
	case resolver.Applied:
		return "✓"
	case resolver.Skipped:
		return "·"
	case resolver.Fallback:
		return "↩"
	case resolver.Error:
		return "✗"
	}
	return "i"
}

// given reports whether a cache_transceiver_config input has a value of its own
// (a flag, or a valid file value) rather than the default.
func given(in resolver.Inputs, field string) bool {
	switch field {
	case "backend":
		return !in.Backend.Origin.IsDefault()
	case "transceiver_runtime":
		return in.Runtime.Given()
	case "kv_transfer_timeout_ms":
		return in.Timeout.Given()
	case "enable_pipelined_transfer":
		return in.Pipelined.Given()
	}
	return true
}

var reDigits = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^-?[0-9]+$`) })

// PyValue turns the Python repr of a rejected input (resolver.FieldError.Input)
// back into the value the file wrote: 'x' -> "x", 600 -> 600, True -> true,
// None -> nil. Anything else (a list, a dict) stays its repr.
func PyValue(repr string) any {
	switch repr {
	case "True":
		return true
	case "False":
		return false
	case "None":
		return nil
	}
	if n, err := strconv.ParseInt(repr, 10, 64); err == nil {
		return n
	}
	if f, err := strconv.ParseFloat(repr, 64); err == nil && !math.IsInf(f, 0) && !math.IsNaN(f) {
		if _, err := strconv.ParseInt(strings.TrimPrefix(repr, "-"), 10, 64); err != nil && reDigits().MatchString(repr) {
			// An int beyond 64 bits: exact, as JSON allows.
			return json.Number(repr)
		}
		return f
	}
	// inf and nan (a float YAML's .inf/.nan) have no JSON number: their repr.
	return PyRaw(repr)
}

// PyRaw is the text a rejected input was written as: a Python string repr
// without its quotes and escapes, anything else as it is.
func PyRaw(repr string) string {
	if len(repr) < 2 || (repr[0] != '\'' && repr[0] != '"') || repr[len(repr)-1] != repr[0] {
		return repr
	}
	body := repr[1 : len(repr)-1]
	if !strings.Contains(body, "\\") {
		return body
	}
	var b strings.Builder
	for i := 0; i < len(body); i++ {
		c := body[i]
		if c != '\\' || i+1 == len(body) {
			b.WriteByte(c)
			continue
		}
		i++
		switch body[i] {
		case 'n':
			b.WriteByte('\n')
		case 't':
			b.WriteByte('\t')
		case 'r':
			b.WriteByte('\r')
		default:
			b.WriteByte(body[i])
		}
	}
	return b.String()
}

// ExplainInstall is explain's JSON object (Explain), with the install's disagreements when the
// trace was resolved from it: those about rules and texts, and the model ones
// for the architecture resolved (the others concern models not deployed).
func ExplainInstall(t resolver.Trace, rep *install.Report) ExplainJSON {
	j := Explain(t)
	if rep == nil || t.Inputs.Version.Install == nil {
		return j
	}
	arch := t.Inputs.Model.Value.Arch
	j.Disagreements = []DisagreementJSON{}
	for _, d := range rep.Disagreements(models.Builtin()) {
		if strings.HasPrefix(d.What, "model ") && d.What != "model "+arch && d.What != "model "+arch+" preference" {
			continue
		}
		j.Disagreements = append(j.Disagreements, DisagreementJSON{What: d.What, Xcvr: d.Xcvr, Install: d.Install, Evidence: d.Evidence})
	}
	return j
}

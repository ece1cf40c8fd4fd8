package deploy

import (
	"fmt"
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"

	"xcvr/internal/llmargs"
	"xcvr/internal/oracle"
	"xcvr/resolver"
)

// release is one TensorRT-LLM release's CacheTransceiverConfig, declared from
// its field facts as the pydantic model the oracle validates with: the
// llm_args.py of the lower-case era (1.0: backend and max_tokens_in_buffer), of
// the upper-case era before MOONCAKE (1.2.0rc2-rc6: kv_transfer_timeout_ms,
// default None; not yet a field in 1.1), of era 0 (transceiver_runtime, kv_transfer_sender_future_timeout_ms;
// no poll interval or bounce size); the versioned CacheTransceiverConfig pages
// of 1.3.0rc27, 1.4.0rc1 and 1.4.0rc4; enable_pipelined_transfer from #15727;
// kv_cache_bounce_size_mb from #15618 (July 2026); agent_bounce_* and
// validate_bounce_config from #15780 (2026-09-16), as 1.3.0rc29's llm_args.py
// declares them (gh-pages latest/_modules/tensorrt_llm/llmapi/llm_args.html
// @cd798f61; 1.4.0rc1's derived from it). validators is Python source added
// to the class body.
type release struct {
	version    string
	backends   string // the Literal[...] of backend; the newest five when ""
	runtime    string // the Literal[...] of transceiver_runtime; no field when ""
	timeout    string // kv_transfer_timeout_ms's default; no field when ""
	future     bool   // kv_transfer_sender_future_timeout_ms
	poll       bool   // kv_transfer_poll_interval_ms
	bounceMB   bool   // kv_cache_bounce_size_mb
	pipelined  bool
	bounce     bool
	validators string
}

var releases = []release{
	{version: "1.0.0rc4", backends: `"default", "ucx", "nixl", "mpi"`},
	{version: "1.1.0rc5", backends: `"DEFAULT", "UCX", "NIXL", "MPI"`},
	{version: "1.2.0rc2", backends: `"DEFAULT", "UCX", "NIXL", "MPI"`, timeout: "None"},
	{version: "1.3.0rc15", runtime: `"CPP", "PYTHON"`, timeout: "60000", future: true},
	{version: "1.3.0rc20", runtime: `"CPP", "PYTHON"`, timeout: "60000", future: true},
	{version: "1.3.0rc22", runtime: `"CPP", "PYTHON", "auto"`, timeout: "60000", future: true, poll: true, bounceMB: true},
	{version: "1.3.0rc27", runtime: `"CPP", "PYTHON", "auto"`, timeout: "60000", future: true, poll: true, bounceMB: true, pipelined: true},
	{version: "1.4.0rc1", runtime: `"CPP", "PYTHON", "auto"`, timeout: "60000", future: true, poll: true, bounceMB: true, pipelined: true, bounce: true, validators: bounceConfig},
	{version: "1.4.0rc4", runtime: `"CPP", "PYTHON", "auto"`, timeout: "60000", future: true, poll: true, bounceMB: true, pipelined: true, bounce: true, validators: coerceParams + `
    @model_validator(mode='after')
    def validate_agent_bounce(self):
        if self.agent_bounce_params:
            if self.kv_cache_bounce_size_mb == 0:
                raise ValueError("agent_bounce_params requires kv_cache_bounce_size_mb > 0; "
                                 "the bounce fast path is disabled at size 0, so the params "
                                 "would be ignored.")
` + unknownKeys},
}

// coerceParams and unknownKeys are upstream's validators as read at
// llm_args.py@0649223e (coerce_agent_bounce_params_to_str and the unknown-key
// part of validate_bounce_exclusive), with bounce_knobs.py's key set.
// bounceConfig is validate_bounce_config as 1.3.0rc29's llm_args.py declares
// it (the oracle's AGENT_BOUNCE_PARAM_KEYS are xcvr's).
var bounceConfig = coerceParams + `
    @model_validator(mode='after')
    def validate_bounce_config(self):
        if self.agent_bounce_buffer_enable and self.kv_cache_bounce_size_mb == 0:
            raise ValueError(` + pyQuote(resolver.TextBounceEnableNoSize) + `)
        if self.agent_bounce_params:
            if not self.agent_bounce_buffer_enable:
                raise ValueError(` + pyQuote(resolver.TextBounceParamsNoFlag) + `)
` + unknownKeys

const coerceParams = `
    @field_validator('agent_bounce_params', mode='before')
    @classmethod
    def coerce_agent_bounce_params_to_str(cls, v):
        if v is None:
            return v
        if not isinstance(v, dict):
            raise ValueError(
                f"agent_bounce_params must be a dict of str to str, got "
                f"{type(v).__name__}")
        return {str(k): str(val) for k, val in v.items()}
`

const unknownKeys = `            AGENT_BOUNCE_PARAM_KEYS = frozenset({"max_chunk_size", "arena_allocation_granularity",
                "max_inflight_chunks_per_request", "copy_stream_count", "scatter_worker_count",
                "min_descriptor_count", "max_average_descriptor_size", "request_timeout_ms",
                "disable_fabric_memory", "enable_eager_gather", "use_zero_copy_arguments"})
            unknown = sorted(set(self.agent_bounce_params) - AGENT_BOUNCE_PARAM_KEYS)
            if unknown:
                raise ValueError(
                    f"Unknown agent_bounce_params key(s) {unknown}; valid keys "
                    f"are {sorted(AGENT_BOUNCE_PARAM_KEYS)}.")
        return self
`

// resolverVersion parses a listed release's name.
func resolverVersion(name string) resolver.Version {
	v, err := resolver.ParseVersion(name)
	if err != nil {
		panic(err)
	}
	return v
}

// pyQuote is a Python string literal of s.
func pyQuote(s string) string { return strconv.Quote(s) }

// pydanticSource declares TorchLlmArgs (extra="forbid", as every TensorRT-LLM
// config model is a StrictBaseModel) with this release's CacheTransceiverConfig.
func (r release) pydanticSource() string {
	var b strings.Builder
	b.WriteString("class CacheTransceiverConfig(StrictBaseModel):\n")
	backends := r.backends
	if backends == "" {
		backends = `"DEFAULT", "UCX", "NIXL", "MOONCAKE", "MPI"`
	}
	fmt.Fprintf(&b, "    backend: Optional[Literal[%s]] = None\n", backends)
	if r.runtime != "" {
		fmt.Fprintf(&b, "    transceiver_runtime: Optional[Literal[%s]] = None\n", r.runtime)
	}
	b.WriteString("    max_tokens_in_buffer: Optional[int] = None\n")
	if r.timeout != "" {
		fmt.Fprintf(&b, "    kv_transfer_timeout_ms: Optional[PositiveInt] = %s\n", r.timeout)
	}
	if r.future {
		b.WriteString("    kv_transfer_sender_future_timeout_ms: Optional[PositiveInt] = 1000\n")
	}
	if r.poll {
		b.WriteString("    kv_transfer_poll_interval_ms: Optional[PositiveInt] = 5000\n")
	}
	if r.bounceMB {
		b.WriteString("    kv_cache_bounce_size_mb: int = Field(default=0, ge=0)\n")
	}
	if r.pipelined {
		b.WriteString("    enable_pipelined_transfer: bool = False\n")
	}
	if r.bounce {
		b.WriteString("    agent_bounce_buffer_enable: bool = False\n")
		b.WriteString("    agent_bounce_params: Optional[Dict[str, str]] = None\n")
	}
	b.WriteString(r.validators)
	// The top level: every TorchLlmArgs field xcvr knows (their own
	// validation is not modelled, so any value), and nothing else.
	b.WriteString("class TorchLlmArgs(StrictBaseModel):\n    cache_transceiver_config: Optional[CacheTransceiverConfig] = None\n")
	for _, f := range llmargs.FieldsFor(resolverVersion(r.version)) {
		if f != "cache_transceiver_config" {
			fmt.Fprintf(&b, "    %s: Any = None\n", f)
		}
	}
	return b.String()
}

// validateScript answers {"release": VERSION, "yaml": TEXT} with the
// ValidationError yaml.safe_load's value raises in that release's TorchLlmArgs
// (its text without pydantic's URL lines), or {} when it validates.
func validateScript(rs []release) string {
	var b strings.Builder
	b.WriteString(`
import sys, json, yaml
from typing import Any, Optional, Literal, Dict
from pydantic import BaseModel, ConfigDict, Field, PositiveInt, ValidationError, field_validator, model_validator
class StrictBaseModel(BaseModel):
    model_config = ConfigDict(extra="forbid", protected_namespaces=())
models = {}
`)
	for _, r := range rs {
		b.WriteString("def _define():\n")
		for _, line := range strings.Split(r.pydanticSource(), "\n") {
			b.WriteString("    " + line + "\n")
		}
		b.WriteString("    return TorchLlmArgs\n")
		fmt.Fprintf(&b, "models[%q] = _define()\n", r.version)
	}
	b.WriteString(`
for line in sys.stdin:
    req = json.loads(line)
    out = {}
    try:
        data = yaml.safe_load(req["yaml"])
        models[req["release"]](**data)
    except ValidationError as e:
        out["error"] = "\n".join(l for l in str(e).split("\n") if not l.startswith("    For further information visit"))
    except Exception as e:
        out["other"] = type(e).__name__ + ": " + str(e)
    print(json.dumps(out), flush=True)
`)
	return b.String()
}

type validateAnswer struct {
	Error string `json:"error"`
	Other string `json:"other"`
}

const pydanticPrefix = "pydantic_core._pydantic_core.ValidationError: "

// compareValidation reports how xcvr's validation of text in release r differs
// from pydantic's, byte for byte, or "" when they agree.
func compareValidation(t *testing.T, p *oracle.Proc, r release, text string) string {
	var ans validateAnswer
	if err := p.Ask(map[string]string{"release": r.version, "yaml": text}, &ans); err != nil {
		return "oracle: " + err.Error()
	}
	if ans.Other != "" {
		return "" // not a mapping of settings: not a validation question
	}
	if skew := oracle.PrintableSkew(t, text); len(skew) > 0 {
		// pydantic reprs the input value with the oracle Python's Unicode.
		ans.Error = oracle.AsModelledPython(ans.Error, skew)
	}
	ov, err := ReadWorkerConfig("v.yaml", []byte(text))
	if err != nil {
		return "xcvr cannot read it: " + err.Error()
	}
	tr := resolveWith(t, ov, r.version, nil)
	got := ""
	if e, ok := strings.CutPrefix(tr.Result.Error, pydanticPrefix); ok && tr.Result.Outcome == resolver.OutcomeError {
		got = e
	}
	if got != ans.Error {
		return fmt.Sprintf("\nxcvr:\n%s\npydantic:\n%s", got, ans.Error)
	}
	return ""
}

// fieldValues are values of every YAML type for each field, valid and not.
var fieldValues = []string{
	"NIXL", "UCX", "DEFAULT", "nixl", "PYTHON", "CPP", "auto", "Auto", "null", "~", "''", "'None'",
	"0", "1", "-1", "5000", "'5000'", "' 5000 '", "5_000", "'5_000'", "1.0", "1.5", "'1.5'", "1e3", ".inf", "-.inf", ".nan",
	"true", "false", "yes", "off", "'true'", "'yes'", "'t'", "'off'", "'0'", "'2'", "2", "0.0",
	"[]", "[1, 2]", "{}", "{a: b}", "{max_chunk_size: 32MB}", "{max_chunk_size: 33554432, copy_stream_count: 4}",
	"{bogus_knob: '1'}", "{1: 2}", "{a: [1]}", "!!binary TklYTA==", "2001-12-14", "2001-12-14 21:59:43",
	"'" + strings.Repeat("x", 60) + "'", "[" + strings.Repeat("1, ", 30) + "1]",
	"{backend: NIXL, agent_bounce_buffer_enable: true, kv_cache_bounce_size_mb: 0}",
	"{copy_stream_count: 4, bogus: 1, aaa: x}", "{copy_stream_count: 4}", "{true: 1}", "{2001-12-14: x}",
}

// bounceDocs cover the agent_bounce validators' conditions.
func bounceDocs() []string {
	var docs []string
	for _, en := range []string{"", "  agent_bounce_buffer_enable: true\n", "  agent_bounce_buffer_enable: false\n"} {
		for _, mb := range []string{"", "  kv_cache_bounce_size_mb: 0\n", "  kv_cache_bounce_size_mb: 2048\n"} {
			for _, pr := range []string{"", "  agent_bounce_params: {}\n", "  agent_bounce_params: {max_chunk_size: 32MB}\n",
				"  agent_bounce_params: {zeta: 1, alpha: true, max_chunk_size: 1}\n", "  agent_bounce_params: [a]\n", "  agent_bounce_params: null\n"} {
				docs = append(docs, "cache_transceiver_config:\n  backend: NIXL\n"+en+mb+pr)
			}
		}
	}
	return docs
}

var ctcFields = []string{"backend", "transceiver_runtime", "max_tokens_in_buffer", "kv_transfer_timeout_ms",
	"kv_transfer_sender_future_timeout_ms", "kv_transfer_poll_interval_ms", "kv_cache_bounce_size_mb",
	"enable_pipelined_transfer", "agent_bounce_buffer_enable", "agent_bounce_params", "bogus_field", "Backend", "1", "null"}

// validationDocs builds worker YAMLs: each field with each value (with backend
// NIXL beside it), and random combinations of several fields.
func validationDocs(n int) []string {
	var docs []string
	for _, f := range ctcFields {
		for _, v := range fieldValues {
			docs = append(docs, "cache_transceiver_config:\n  "+f+": "+v+"\n")
			if f != "backend" {
				docs = append(docs, "cache_transceiver_config:\n  backend: NIXL\n  "+f+": "+v+"\n")
			}
		}
	}
	docs = append(docs, bounceDocs()...)
	// Top-level keys that are fields in some release lines only (ArgsFieldsFor).
	for _, k := range []string{"sparse_attention_config: {}", "orchestrator_type: rpc", "build_config: {}",
		"env_overrides: {}", "telemetry_config: {}", "enable_mixed_sampler: true", "connector_config: {}",
		"kv_connector_config: {}", "enable_sleep: true", "bogus_key: 3"} {
		docs = append(docs, k+"\n", k+"\ncache_transceiver_config:\n  backend: NIXL\n  bogus: 1\n")
	}
	docs = append(docs, "cache_transceiver_config: 5\n", "cache_transceiver_config: [NIXL]\n", "cache_transceiver_config: NIXL\n",
		"cache_transceiver_config: null\n", "cache_transceiver_config: {}\n", "cache_transceiver_config: {1: 2, backend: NIXL}\n",
		// The empty key: pydantic's loc ('cache_transceiver_config', '') prints
		// "cache_transceiver_config.", a top-level '' an empty line.
		"cache_transceiver_config:\n  '': 1\n", "cache_transceiver_config:\n  backend: NIXL\n  \"\": x\n  zz: 2\n",
		"'': 1\n", "'': 1\ncache_transceiver_config:\n  backend: NIXL\n", "'': {}\ncache_transceiver_config: {'': 1, backend: UCX}\nbogus: 2\n",
		"cache_transceiver_config: {'': 1, backend: nixl}\n", "'a.b': 1\ncache_transceiver_config: {'a.b': 1}\n")
	rng := rand.New(rand.NewPCG(19, 2026))
	for range n {
		var b strings.Builder
		b.WriteString("cache_transceiver_config:\n")
		used := map[string]bool{}
		for k := 1 + rng.IntN(4); k > 0; k-- {
			f := ctcFields[rng.IntN(len(ctcFields))]
			if used[f] {
				continue
			}
			used[f] = true
			fmt.Fprintf(&b, "  %s: %s\n", f, fieldValues[rng.IntN(len(fieldValues))])
		}
		docs = append(docs, b.String())
	}
	return docs
}

// TestPydanticDifferential compares xcvr's validation errors with pydantic's
// ValidationError, byte for byte (less the URL lines), for each release.
func TestPydanticDifferential(t *testing.T) {
	p := oracle.Start(t, validateScript(releases))
	docs := validationDocs(400)
	for _, r := range releases {
		agree, fails := 0, 0
		for _, d := range docs {
			if diff := compareValidation(t, p, r, d); diff != "" {
				if fails++; fails <= 15 {
					t.Errorf("%s %q: %s", r.version, d, diff)
				}
				continue
			}
			agree++
		}
		t.Logf("%s: %d of %d generated configurations validate as pydantic validates them", r.version, agree, len(docs))
	}
}

// FuzzPydanticDifferential runs the validation comparison on mutated worker
// YAMLs, in every release.
func FuzzPydanticDifferential(f *testing.F) {
	for _, d := range validationDocs(50) {
		f.Add(d)
	}
	p := oracle.Start(f, validateScript(releases))
	load := oracle.Start(f, safeLoadScript)
	f.Fuzz(func(t *testing.T, text string) {
		if len(text) > 2048 || !utf8Valid(text) {
			return
		}
		if compareLoad(t, load, text) != "" {
			// A YAML reading that differs is FuzzPyYAMLDifferential's and the
			// known limits' question; this fuzzer asks about validation.
			return
		}
		if _, err := ReadWorkerConfig("v.yaml", []byte(text)); err != nil {
			return // not a loadable worker YAML: TestPyYAMLDifferential's question
		}
		for _, r := range releases {
			if diff := compareValidation(t, p, r, text); diff != "" {
				t.Errorf("%s %q: %s", r.version, text, diff)
			}
		}
	})
}

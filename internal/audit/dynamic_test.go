package audit

import (
	"math"
	"strings"
	"testing"

	"xcvr/internal/deploy"
	"xcvr/internal/inputs"
	"xcvr/models"
	"xcvr/resolver"
)

// infer_type (ai-dynamo/dynamo dynamic_flags.py): int(), then float(), then
// true/false in any case, else the string; Python's int and float strip
// blanks and take one _ between digits.
func TestInferType(t *testing.T) {
	for in, want := range map[string]string{
		"6528": "int 6528", "-1": "int -1", "+7": "int 7", "1_000": "int 1000", " 12 ": "int 12", "007": "int 7",
		"0.7": "float 0.7", "1e3": "float 1000", "1.": "float 1", ".5": "float 0.5", "1_0.5": "float 10.5", "-2.5E-1": "float -0.25",
		"inf": "float +Inf", "-Infinity": "float -Inf", "NaN": "float NaN",
		"true": "bool true", "False": "bool false", "TRUE": "bool true",
		"DEFAULT": "str DEFAULT", "NIXL": "str NIXL", "1__0": "str 1__0", "_1": "str _1", "1_": "str 1_", "0x10": "str 0x10",
		"": "str ", "yes": "str yes", "1.2.3": "str 1.2.3",
	} {
		n := inferType(in)
		var got string
		switch n.Kind {
		case deploy.KindInt:
			got = "int " + n.Int.String()
		case deploy.KindFloat:
			switch {
			case math.IsNaN(n.Float):
				got = "float NaN"
			case math.IsInf(n.Float, 1):
				got = "float +Inf"
			case math.IsInf(n.Float, -1):
				got = "float -Inf"
			default:
				got = "float " + strings.TrimSuffix(strings.TrimRight(strings.TrimRight(deploy.PyFloat(n.Float), "0"), "."), ".")
			}
		case deploy.KindBool:
			got = "bool false"
			if n.Bool {
				got = "bool true"
			}
		case deploy.KindStr:
			got = "str " + n.Str
		}
		if got != want {
			t.Errorf("inferType(%q) = %s, want %s", in, got, want)
		}
	}
}

// Dynamo's profiler writes a worker's engine args as --trtllm.<key> <value>
// flags (aiconfigurator's yaml_to_dynamic_flags, "accepted by dynamo >=
// 1.1.0"): dynamo.trtllm lays them over its engine args as
// --override-engine-args, with or without --extra-engine-args. They were not
// read: a worker whose only cache_transceiver_config is on its command line
// was "off", and so was one given --override-engine-args alone.
func TestDynamoDynamicFlags(t *testing.T) {
	dgd := func(args ...string) string {
		var b strings.Builder
		b.WriteString("apiVersion: nvidia.com/v1alpha1\nkind: DynamoGraphDeployment\nmetadata:\n  name: d\nspec:\n  services:\n    prefill:\n      componentType: worker\n      extraPodSpec:\n        mainContainer:\n          command: [python3, -m, dynamo.trtllm]\n          args:\n")
		for _, a := range args {
			b.WriteString("            - '" + strings.ReplaceAll(a, "'", "''") + "'\n")
		}
		return b.String()
	}
	base := []string{"--model-path", "Qwen/Qwen3-8B", "--disaggregation-mode", "prefill"}
	cases := []struct {
		name    string
		args    []string
		files   map[string]string
		outcome string // outcome and backend, or ERROR: the error's text
		origin  string // the backend's origin, when one is given
	}{
		{"flags alone", []string{"--trtllm.cache_transceiver_config.backend", "UCX", "--trtllm.cache_transceiver_config.max_tokens_in_buffer", "6528"}, nil,
			"CPP UCX", "dgd.yaml:11 (--trtllm.cache_transceiver_config.backend UCX)"},
		{"flags over the file", []string{"--extra-engine-args", "/cfg/prefill.yaml", "--trtllm.cache_transceiver_config.backend", "UCX"},
			map[string]string{"prefill.yaml": "cache_transceiver_config:\n  backend: NIXL\n  max_tokens_in_buffer: 8192\n"},
			"CPP UCX", "dgd.yaml:11 (--trtllm.cache_transceiver_config.backend UCX)"},
		{"a later flag wins", []string{"--trtllm.cache_transceiver_config.backend", "UCX", "--trtllm.cache_transceiver_config.backend", "NIXL"}, nil,
			"CPP NIXL", "dgd.yaml:11 (--trtllm.cache_transceiver_config.backend NIXL)"},
		{"typed as infer_type does", []string{"--trtllm.cache_transceiver_config.backend", "NIXL", "--trtllm.cache_transceiver_config.kv_transfer_timeout_ms", "0"}, nil,
			"ERROR: Input should be greater than 0 [type=greater_than, input_value=0, input_type=int]", ""},
		{"override alone", []string{"--override-engine-args", `{"cache_transceiver_config": {"backend": "UCX"}}`}, nil,
			"CPP UCX", "dgd.yaml:11 (--override-engine-args)"},
		{"both refused", []string{"--override-engine-args", `{"cache_transceiver_config": {"backend": "UCX"}}`, "--trtllm.cache_transceiver_config.backend", "UCX"}, nil,
			"ERROR: dynamo.trtllm refuses its command line and exits 1 (ERROR --override-engine-args and --trtllm.* dynamic flags are mutually exclusive. Use one or the other.)", ""},
		{"no value", []string{"--trtllm.cache_transceiver_config.backend", "--trtllm.disable_overlap_scheduler", "true"}, nil,
			"ERROR: dynamo.trtllm refuses its command line and exits 1 (ERROR Dynamic flag --trtllm.cache_transceiver_config.backend requires a value)", ""},
		{"empty key segment", []string{"--trtllm.cache_transceiver_config..backend", "UCX"}, nil,
			"ERROR: dynamo.trtllm refuses its command line and exits 1 (ERROR Invalid dynamic flag (empty key segment): --trtllm.cache_transceiver_config..backend)", ""},
		{"a value then a key under it", []string{"--trtllm.cache_transceiver_config", "x", "--trtllm.cache_transceiver_config.backend", "UCX"}, nil,
			"ERROR: dynamo.trtllm refuses its command line and exits 1 (ERROR set_nested raises on --trtllm.cache_transceiver_config.backend: an earlier --trtllm flag set cache_transceiver_config to a value (str), not a dict)", ""},
		{"none", nil, nil, "DISABLED None", ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			ins := []Input{{Name: "dgd.yaml", Data: []byte(dgd(append(append([]string{}, base...), c.args...)...))}}
			for name, text := range c.files {
				ins = append(ins, Input{Name: name, Data: []byte(text)})
			}
			if c.files != nil {
				// The file is the set's, matched by its name under /cfg.
				ins[0].Data = []byte(strings.Replace(string(ins[0].Data), "/cfg/prefill.yaml", "prefill.yaml", 1))
			}
			set, err := Read(ins)
			if err != nil {
				t.Fatal(err)
			}
			in := inputs.Defaults()
			in.Version = inputs.Value{Raw: "1.3.0rc19", Origin: resolver.Origin{Kind: resolver.OriginFlag, Detail: "--trtllm"}}
			r := Resolve(set, Options{Base: in, Catalog: models.Builtin()})
			if len(r.Entries) != 1 {
				t.Fatalf("entries %d, unplaced %+v", len(r.Entries), r.Set.Unplaced)
			}
			e := r.Entries[0]
			got := string(e.Trace.Result.Outcome) + " " + e.Trace.Result.EffectiveBackend.String()
			if e.Err != "" {
				got = "ERROR: " + e.Err
			} else if e.Trace.Result.Outcome == "ERROR" {
				got = "ERROR: " + e.Trace.Result.Error
			}
			if strings.HasPrefix(c.outcome, "ERROR: ") && strings.HasPrefix(got, "ERROR: ") {
				if !strings.Contains(got, strings.TrimPrefix(c.outcome, "ERROR: ")) {
					t.Errorf("got %s\nwant it to hold %s", got, c.outcome)
				}
			} else if got != c.outcome {
				t.Errorf("outcome %s, want %s (config %s)", got, c.outcome, e.Worker.Config)
			}
			if o := e.Inputs.Backend.Origin.Detail; c.origin != "" && o != c.origin {
				t.Errorf("backend origin %q, want %q", o, c.origin)
			}
		})
	}
}

// Dynamo's docs run a worker with --trtllm.kv_cache_config.* flags from a
// shell: read as its override_engine_args, no error, aggregated and off.
func TestDynamoDocsDynamicFlags(t *testing.T) {
	r := audit(t, "1.3.0rc19", "real/dynamo-docs-trtllm-flags/launch.sh")
	if len(r.Entries) != 1 {
		t.Fatalf("entries %+v unplaced %+v", r.Entries, r.Set.Unplaced)
	}
	e := r.Entries[0]
	if e.Err != "" || e.Worker.Config != "none (no --extra-engine-args: dynamo.trtllm's own engine args) with its --trtllm.* flags (Dynamo's override_engine_args, deep_update)" || e.Trace.Result.Outcome != resolver.OutcomeDisabled {
		t.Errorf("err %q config %q outcome %s", e.Err, e.Worker.Config, e.Trace.Result.Outcome)
	}
	if o := e.Inputs.Static.BlockReuse.Origin.Detail; o != "real/dynamo-docs-trtllm-flags/launch.sh:6 (--trtllm.kv_cache_config.enable_block_reuse true)" {
		t.Errorf("enable_block_reuse origin %q", o)
	}
}

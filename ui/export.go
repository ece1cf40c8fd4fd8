package ui

import (
	"strconv"
	"strings"

	"xcvr/report"
	"xcvr/resolver"
)

// configYAML renders the cache_transceiver_config snippet for `y`. When the worker
// gets a transceiver, the snippet pins what the chain resolved to (concrete backend
// and runtime), so an upgrade or a stray TRTLLM_USE_* variable cannot change it.
// Otherwise it echoes the current inputs and says why nothing is pinned. A local
// stand-in until the shared YAML pin function lands in report.
func configYAML(t resolver.Trace) string {
	in := t.Inputs
	r := t.Result
	var b strings.Builder
	switch r.Outcome {
	case resolver.OutcomePython, resolver.OutcomeCPP:
		b.WriteString("# xcvr: pins " + report.OutcomeLine(r) + " for TensorRT-LLM " + in.Version.Name + "\n")
		b.WriteString("cache_transceiver_config:\n")
		b.WriteString("  backend: " + r.EffectiveBackend.S + "\n")
		rt := "PYTHON"
		if r.Outcome == resolver.OutcomeCPP {
			rt = "CPP"
		}
		b.WriteString("  transceiver_runtime: " + rt + "\n")
	case resolver.OutcomeDisabled:
		return "# xcvr: disaggregation is off (backend omitted or null); no cache_transceiver_config to pin\n"
	default:
		b.WriteString("# xcvr: start-up fails with these settings: " + oneLine(r.Error) + "\n")
		b.WriteString("cache_transceiver_config:\n")
		if in.Backend.Given() || in.Backend.Value.Valid {
			b.WriteString("  backend: " + yamlScalar(in.Backend.Value) + "\n")
		}
		if in.Runtime.Given() {
			b.WriteString("  transceiver_runtime: " + yamlScalar(in.Runtime.Value) + "\n")
		}
	}
	if in.Timeout.Given() {
		b.WriteString("  kv_transfer_timeout_ms: " + in.Timeout.Value.String() + "\n")
		if !in.Timeout.Value.Valid {
			// OptInt renders None; YAML wants null.
			s := b.String()
			return strings.TrimSuffix(s, "None\n") + "null\n" + pipelinedYAML(in)
		}
	}
	return b.String() + pipelinedYAML(in)
}

func pipelinedYAML(in resolver.Inputs) string {
	if !in.Pipelined.Given() {
		return ""
	}
	return "  enable_pipelined_transfer: " + strconv.FormatBool(in.Pipelined.Value) + "\n"
}

// yamlScalar writes a PyStr as YAML: null for None, the bare word otherwise.
func yamlScalar(p resolver.PyStr) string {
	if !p.Valid {
		return "null"
	}
	return strconv.Quote(p.S)
}

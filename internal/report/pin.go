package report

import (
	"strings"

	"xcvr/resolver"
)

// PinYAML returns the smallest cache_transceiver_config block that makes the
// trace's outcome explicit, so that a TensorRT-LLM upgrade (a new default, a model
// that gains a preference, an env var on a new host) cannot silently change it. It
// names the concrete backend rather than DEFAULT and the runtime rather than auto
// or unset. The first line names the version it was resolved against. For an ERROR
// outcome nothing can be pinned; the text says why, as YAML comments only.
func PinYAML(t resolver.Trace) string {
	t = Safe(t)
	var b strings.Builder
	v := t.Inputs.Version
	b.WriteString("# pinned by xcvr against TensorRT-LLM " + v.Name)
	if v.Name != "main@"+v.Main.String() {
		b.WriteString(" (main@" + v.Main.String() + ")")
	}
	b.WriteString("\n")
	res := t.Result
	switch res.Outcome {
	case resolver.OutcomeError:
		b.Reset()
		b.WriteString("# xcvr: nothing to pin: TensorRT-LLM " + v.Name + " refuses this configuration\n")
		for _, l := range strings.Split(res.Error, "\n") {
			b.WriteString("#   " + l + "\n")
		}
		b.WriteString("# Fix the configuration first; then xcvr explain -o yaml prints the block to pin.\n")
		return b.String()
	case resolver.OutcomeDisabled:
		b.WriteString("# disaggregation is off: no transceiver is created. Keeping cache_transceiver_config\n")
		b.WriteString("# null (or absent) keeps it off in every version.\n")
		b.WriteString("cache_transceiver_config: null\n")
		return b.String()
	}
	backend := res.EffectiveBackend.S
	runtime := "CPP"
	if res.Outcome == resolver.OutcomePython {
		runtime = "PYTHON"
	}
	in := t.Inputs
	if in.Backend.Value.Is("DEFAULT") {
		why := "DEFAULT resolved to " + backend
		if res.BackendSource != "" && strings.HasPrefix(res.BackendSource, "TRTLLM_") {
			why += " because " + res.BackendSource + "=1"
		}
		b.WriteString("# backend: " + why + "; naming it makes the env vars irrelevant\n")
	}
	if !in.Runtime.Given() || in.Runtime.Value.Is("auto") {
		b.WriteString("# transceiver_runtime: resolved to " + runtime + " (" + OutcomeLine(res) + ")\n")
	}
	b.WriteString("cache_transceiver_config:\n")
	b.WriteString("  backend: " + backend + "\n")
	b.WriteString("  transceiver_runtime: " + runtime + "\n")
	// Other fields do not decide the transceiver here, but a pasted block must not
	// drop them silently.
	if in.Timeout.Given() {
		b.WriteString("  # also keep kv_transfer_timeout_ms: " + in.Timeout.Value.String() + " (" + in.Timeout.Origin.String() + ")\n")
	}
	if in.Pipelined.Given() {
		val := "false"
		if in.Pipelined.Value {
			val = "true"
		}
		b.WriteString("  # also keep enable_pipelined_transfer: " + val + " (" + in.Pipelined.Origin.String() + ")\n")
	}
	// The KV-cache manager follows the runtime and the version (1.4 defaults to
	// V2); it sits in another block, so it is offered, not pinned.
	if kv := res.KVManager; kv.Valid && !(in.KVManager.Given() && in.KVManager.Value != resolver.KVAuto) {
		b.WriteString("# the KV-cache manager resolves to " + kv.S + " here; to pin it as well:\n")
		b.WriteString("#   kv_cache_config:\n#     use_kv_cache_manager_v2: " + strings.ToLower(pyBoolKV(kv.S)) + "\n")
	}
	return b.String()
}

func pyBoolKV(kv string) string {
	if kv == "V2" {
		return "true"
	}
	return "false"
}

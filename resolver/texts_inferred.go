package resolver

// Messages xcvr infers or derives: upstream's exact text was not found, so the
// rules hold xcvr's wording with its confidence, and a step that raises one is
// as sure as the text. They are rules like the others (an install's reading or
// a later release's evidence replaces them as data), but no install reader
// looks for them and TextIDs does not list them.
const (
	// TextV2NoneDivision is what a null kv_transfer_timeout_ms meets in
	// KvCacheTransceiverV2 before #17137's explicit error: a division [inferred].
	TextV2NoneDivision = "v2-timeout-none-division"
	// TextKVV2TwoModel is the refusal of an explicit use_kv_cache_manager_v2=True
	// with two-model speculative decoding: the docstring says so, the raise was
	// not found [inferred].
	TextKVV2TwoModel = "kv-v2-two-model"
	// TextBindKVV2 is BindKvCacheTransceiver's refusal of KVCacheManagerV2 (a
	// pybind type error whose text was not found) [derived from the precheck's
	// comment].
	TextBindKVV2 = "bind-kv-v2-type"
	// TextMambaV2Python is the refusal of MambaHybridCacheManagerV2 off the
	// Python transceiver [verified with the step].
	TextMambaV2Python = "mamba-v2-needs-python"
)

// InferredTextIDs lists the messages of xcvr's own wording (see above).
func InferredTextIDs() []string {
	return []string{TextV2NoneDivision, TextKVV2TwoModel, TextBindKVV2, TextMambaV2Python}
}

// inferredText is the wording of a message of InferredTextIDs, and how sure
// xcvr is of it ("" for another id).
func inferredText(id string) (string, Confidence) {
	switch id {
	case TextV2NoneDivision:
		return "unsupported operand type(s) for /: 'NoneType' and 'float'", Inferred
	case TextKVV2TwoModel:
		return "… (an explicit use_kv_cache_manager_v2=True is rejected with two-model speculative decoding; TensorRT-LLM's message was not found)", Inferred
	case TextBindKVV2:
		return "… (BindKvCacheTransceiver is given KVCacheManagerV2; the C++ transceiver only supports the V1 manager; the binding's message was not found)", Derived
	case TextMambaV2Python:
		return "MambaHybridCacheManagerV2 requires transceiver_runtime='PYTHON' with backend='NIXL'; it cannot use the C++ transceiver.", Verified
	}
	return "", ""
}

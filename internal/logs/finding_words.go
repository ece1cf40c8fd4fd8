package logs

// findingWords are the plain words the human outputs (the text report, -f's
// lines, --accessible, the explorer's observed log) say for each finding
// kind: "2× KV transfer failed", not "2× kv_transfer_failed", which an
// operator at 3 a.m. has to look up. The JSON keeps the kinds (Finding.Kind):
// scripts gate on them. xcvr help logs' table gives both, and a test holds
// every Finding* constant to a row here and there.
var findingWords = map[string]string{
	FindingTransferTimeout:   "KV transfer timed out",
	FindingTransferWait:      "KV transfer timed out on the context side",
	FindingTransferFailed:    "KV transfer failed",
	FindingTransferCancelled: "KV transfer cancelled",
	FindingCacheMismatch:     "KV cache differs between workers",
	FindingKVExhausted:       "KV cache exhausted",
	FindingDynamicBuffer:     "KV transfer buffer too small",
	FindingNixlBackend:       "NIXL backend fell back to UCX",
	FindingNoTransceiver:     "disaggregated request without a transceiver",
	FindingRuntimeError:      "runtime error",
	FindingCrashed:           "process crashed",
	FindingUCXError:          "UCX error",
}

// FindingWords is what the human outputs say for a finding kind (see
// findingWords); a kind without words is said as it is.
func FindingWords(kind string) string {
	if w, ok := findingWords[kind]; ok {
		return w
	}
	return kind
}

package ui

import (
	"xcvr/internal/report"
	"xcvr/resolver"
)

// configYAML renders the cache_transceiver_config snippet for `y`: the same text
// as xcvr explain -o yaml (report.PinYAML), which pins what the chain resolved to
// so that an upgrade or a stray TRTLLM_USE_* variable cannot change it, and says
// why nothing can be pinned when start-up fails.
func configYAML(t resolver.Trace) string { return report.PinYAML(t) }

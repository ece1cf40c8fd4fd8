package logs

import (
	"strings"
	"testing"
)

// TestCoordinatorTransferLines: the disaggregated transfer coordinator of
// current builds words a transfer's timeout "Observed timeout on {kind}
// request N due to KV cache transfer timeout: elapsed …" when it does not
// cancel in flight (and "Requesting cancellation for …" when it does), and,
// under attention DP, logs the ranks' vote on failed transfers ("Disagg KV
// cache transfer error: rank=…"). Each is its finding, after 45 other lines
// of the rank (past the lines a chunk passes on whatever they say).
func TestCoordinatorTransferLines(t *testing.T) {
	filler := strings.Repeat("[TRT-LLM] [I] [_torch  ] [RANK 0] iter\n", excWindow+4)
	for msg, kind := range map[string]string{
		"Observed timeout on context request 7 due to KV cache transfer timeout: elapsed 1520ms > kv_transfer_timeout_ms=1000ms":            FindingTransferTimeout,
		"Observed timeout on generation request 9 due to KV cache transfer timeout: elapsed 3000ms > kv_transfer_timeout_ms=2000ms":         FindingTransferTimeout,
		"Requesting cancellation for generation request 9 due to KV cache transfer timeout: elapsed 3000ms > kv_transfer_timeout_ms=2000ms": FindingTransferTimeout,
		"Disagg KV cache transfer error: rank=1 local_err_count=1, voted_err_count=2, blocked_err_count=0":                                  FindingTransferFailed,
	} {
		log := "[TRT-LLM] [I] [_torch  ] [RANK 0] Using KvCacheTransceiverV2\n" + filler + "[TRT-LLM] [W] [_torch  ] [RANK 0] " + msg + "\n"
		lg, err := Parse("f.log", strings.NewReader(log))
		if err != nil {
			t.Fatal(err)
		}
		if len(lg.Processes) != 1 {
			t.Fatalf("%q: %s", msg, sources(lg))
		}
		p := lg.Processes[0]
		if len(p.Findings) != 1 || p.Findings[0].Kind != kind || p.Findings[0].Line != excWindow+6 {
			t.Errorf("%q: findings %+v, want one %s at line %d", msg, p.Findings, kind, excWindow+6)
		}
	}
	// Its other words are not a finding of their own: the line before them
	// counted the timeout.
	lg, _ := Parse("f.log", strings.NewReader("[TRT-LLM] [W] Cancelled timed-out context KV transfer for request 7; waiting for C++ transfer status to report final cleanup\n"))
	if len(lg.Processes) == 1 && len(lg.Processes[0].Findings) > 0 {
		t.Errorf("a cancellation's follow-up counted: %+v", lg.Processes[0].Findings)
	}
}

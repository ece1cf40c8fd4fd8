package logs

import (
	"fmt"
	"reflect"
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
		"Observed timeout on context request 7 due to KV cache transfer timeout: elapsed 1520ms > kv_transfer_timeout_ms=1000ms":             FindingTransferTimeout,
		"Observed timeout on generation request 9 due to KV cache transfer timeout: elapsed 3000ms > kv_transfer_timeout_ms=2000ms":          FindingTransferTimeout,
		"Requesting cancellation for generation request 9 due to KV cache transfer timeout: elapsed 3000ms > kv_transfer_timeout_ms=2000ms":  FindingTransferTimeout,
		"Disagg KV cache transfer error: rank=1 local_err_count=1, voted_err_count=2, blocked_err_count=0":                                   FindingTransferFailed,
		"Cancelled timed-out context KV transfer for request 7; waiting for C++ transfer status to report final cleanup":                     FindingTransferCancelled,
		"KV transfer cancellation failed for request 7; will retry: [TensorRT-LLM][ERROR] Assertion failed: cancel (cacheTransceiver.cpp:9)": FindingTransferFailed,
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
	// A timeout cancelled in flight: the timeout counted once, the
	// cancellation its own kind; a TP peer that did not cross the timeout
	// itself prints only the cancellation. Words that only start alike are
	// not read.
	lg, err := Parse("f.log", strings.NewReader(`[TRT-LLM] [I] [_torch  ] [RANK 0] Using KvCacheTransceiverV2
[TRT-LLM] [I] [_torch  ] [RANK 1] Using KvCacheTransceiverV2
[TRT-LLM] [W] [_torch  ] [RANK 0] Requesting cancellation for generation request 9 due to KV cache transfer timeout
[TRT-LLM] [W] [_torch  ] [RANK 0] Cancelled timed-out generation KV transfer for request 9; waiting for C++ transfer status to report final cleanup
[TRT-LLM] [W] [_torch  ] [RANK 1] Cancelled timed-out generation KV transfer for request 9; waiting for C++ transfer status to report final cleanup
[TRT-LLM] [W] [_torch  ] [RANK 1] Cancelled timed-out order 9
`))
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	for _, p := range lg.Processes {
		var ks []string
		for _, f := range p.Findings {
			ks = append(ks, fmt.Sprintf("%s×%d@%d", f.Kind, f.Count, f.Line))
		}
		got[p.Source] = strings.Join(ks, ",")
	}
	want := map[string]string{"rank 0": "kv_transfer_timeout×1@3,kv_transfer_cancelled×1@4", "rank 1": "kv_transfer_cancelled×1@5"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("findings %v, want %v", got, want)
	}
}

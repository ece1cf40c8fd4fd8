package logs

import (
	"strings"
	"testing"

	"xcvr/resolver"
)

// #6085 (merged 2025-07-24, first in 1.0.0rc5) added the UCX INFO hint; its
// review diff of 07-18 printed "Use UCX kv-cache transervier. ... upon server
// hangs." and the wording it merged with is not read, while xcvr predicts the
// one read in code later ("Using UCX kv-cache transceiver. ... or
// lower-than-expected performance."). A 1.0 log with either wording agrees
// with a UCX prediction; it was "predicted INFO ... is not in the log". A
// different line is still a disagreement.
func TestUCXHintEitherWording(t *testing.T) {
	v, err := resolver.ParseVersion("1.0.0rc5")
	if err != nil {
		t.Fatal(err)
	}
	tr := resolver.Resolve(resolver.Inputs{Version: v, Env: resolver.Env{},
		Backend: resolver.Field[resolver.PyStr]{Value: resolver.Str("ucx"), Origin: resolver.Origin{Kind: resolver.OriginFlag, Detail: "--backend"}}})
	if len(tr.Logs) != 1 {
		t.Fatalf("1.0.0rc5 ucx: predicted logs %+v, want the UCX hint", tr.Logs)
	}
	for _, c := range []struct {
		line string
		ok   bool
	}{
		{"[TRT-LLM] [I] Use UCX kv-cache transervier. If your devices are not in the same domain, please consider setting UCX_CUDA_IPC_ENABLE_MNNVL=n, UCX_RNDV_SCHEME=put_zcopy and/or unset UCX_NET_DEVICES upon server hangs.", true},
		{"[TRT-LLM] [I] Use UCX kv-cache transceiver. If your devices are not in the same domain, please consider setting UCX_CUDA_IPC_ENABLE_MNNVL=n, UCX_RNDV_SCHEME=put_zcopy and/or unset UCX_NET_DEVICES upon server hangs.", true},
		{"[TRT-LLM] [I] " + tr.Logs[0].Message, true},
		{"[TRT-LLM] [W] MPI CacheTransceiver is deprecated, UCX or NIXL is recommended", false},
	} {
		lg, err := Parse("rc5.log", strings.NewReader(c.line+"\n"))
		if err != nil {
			t.Fatal(err)
		}
		m := Compare(lg, tr)
		if (len(m) == 0) != c.ok {
			t.Errorf("%q: %d disagreements %+v, want ok=%v", c.line, len(m), m, c.ok)
		}
	}
}

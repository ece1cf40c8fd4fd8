package logs

import (
	"strings"
	"testing"

	"xcvr/resolver"
)

// The Python transceiver of 1.3.0rc8 and rc9 is PyNativeCacheTransceiver, whose
// lines name it (create_kv_cache_transceiver's `logger.info("Using
// PyNativeCacheTransceiver")` and its __init__'s `device_id: {id} in
// PyNativeCacheTransceiver`, verified in kv_cache_transceiver.py and
// native/py_cache_transceiver.py at bdubayah/TensorRT-LLM@aa0117b5, a copy of
// main about 2026-03-17..20). Such a log is a Python-transceiver process of a
// build from 2026-03-17 to about 2026-03-27; before the change it read
// "outcome not shown" and a 1.3.0rc8 prediction disagreed with it.
func TestPyNativeCacheTransceiverLines(t *testing.T) {
	for _, line := range []string{
		"[03/20/2026-10:00:01] [TRT-LLM] [I] Using PyNativeCacheTransceiver",
		"[03/20/2026-10:00:01] [TRT-LLM] [RANK 0] [I] device_id: 0 in PyNativeCacheTransceiver",
	} {
		lg, err := Parse("rc8.log", strings.NewReader(line+"\n"))
		if err != nil {
			t.Fatal(err)
		}
		if len(lg.Processes) != 1 {
			t.Fatalf("%q: %d processes", line, len(lg.Processes))
		}
		p := lg.Processes[0]
		if p.Class != resolver.ClassPythonNative || p.ClassInferred || p.Outcome() != resolver.OutcomePython || p.Backend != "NIXL" {
			t.Fatalf("%q: class %q (inferred %v), outcome %q, backend %q", line, p.Class, p.ClassInferred, p.Outcome(), p.Backend)
		}
		if len(p.Implications) != 1 || p.Implications[0].After != dayFieldExists || p.Implications[0].Before != dayPyTransceiverV2 {
			t.Fatalf("%q: implications %+v", line, p.Implications)
		}
	}
	// The V2 class's own lines are not the native one's.
	lg, err := Parse("rc11.log", strings.NewReader("[TRT-LLM] [I] device_id: 0 in KvCacheTransceiverV2\n"))
	if err != nil {
		t.Fatal(err)
	}
	if p := lg.Processes[0]; p.Class != resolver.ClassPython {
		t.Fatalf("V2 line read as %q", p.Class)
	}
}

// A 1.3.0rc8 PYTHON worker's log agrees with xcvr's prediction for rc8 and
// disagrees with one for rc11 (the V2 line is predicted there).
func TestPyNativeComparesByRelease(t *testing.T) {
	lg, err := Parse("rc8.log", strings.NewReader("[TRT-LLM] [I] Using PyNativeCacheTransceiver\n"))
	if err != nil {
		t.Fatal(err)
	}
	predict := func(ver string) resolver.Trace {
		v, err := resolver.ParseVersion(ver)
		if err != nil {
			t.Fatal(err)
		}
		flag := resolver.Origin{Kind: resolver.OriginFlag, Detail: "--x"}
		return resolver.Resolve(resolver.Inputs{Version: v, Env: resolver.Env{},
			Backend: resolver.Field[resolver.PyStr]{Value: resolver.Str("NIXL"), Origin: flag},
			Runtime: resolver.Field[resolver.PyStr]{Value: resolver.Str("PYTHON"), Origin: flag}})
	}
	if m := Compare(lg, predict("1.3.0rc8")); len(m) != 0 {
		t.Fatalf("rc8: %d disagreements, first %+v", len(m), m[0])
	}
	if m := Compare(lg, predict("1.3.0rc11")); len(m) == 0 {
		t.Fatal("rc11: no disagreement with a PyNativeCacheTransceiver log")
	}
}

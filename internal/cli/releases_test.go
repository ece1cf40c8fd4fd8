package cli

import (
	"strings"
	"testing"
)

// Every command that takes a version takes the old releases and places the ones
// xcvr does not list, saying so on stderr.
func TestReleasesAcrossCommands(t *testing.T) {
	out, errOut, code := run(t, nil, "explain", "--clean-env", "--trtllm", "1.4.0rc9", "--backend", "NIXL")
	if code != 0 || !strings.Contains(errOut, "xcvr: note: xcvr's rules end at 1.4.0rc4; 1.4.0rc9 is answered with them; pass --install to read yours") ||
		!strings.Contains(out, "TensorRT-LLM 1.4.0rc9 (era 3)") {
		t.Errorf("placed past the newest: exit %d\nstderr %s\nstdout %.200s", code, errOut, out)
	}
	out, _, _ = run(t, nil, "explain", "--clean-env", "--trtllm", "1.1.0rc2.post3", "--backend", "UCX", "-o", "json")
	if !strings.Contains(out, `"version_placement": "1.1.0rc2.post3 is not a release xcvr lists; it is answered with the rules of 1.1.0rc2.post2, the release before it; pass --install to read yours"`) {
		t.Errorf("JSON lacks the placement:\n%.600s", out)
	}
	if _, errOut, _ := run(t, nil, "explain", "--clean-env", "--trtllm", "1.3.0rc22", "--backend", "NIXL"); strings.Contains(errOut, "note:") {
		t.Errorf("a listed release has a note: %s", errOut)
	}

	out, _, code = run(t, nil, "explain", "--clean-env", "--trtllm", "1.0.0rc4", "--config", "testdata/releases/gen-1.0.0rc4.yaml")
	if code != 0 || !strings.Contains(out, "Outcome: C++ transceiver (BindKvCacheTransceiver)") || !strings.Contains(out, "backend UCX (config)") {
		t.Errorf("1.0.0rc4 with backend: ucx should serve on C++ over UCX: exit %d\n%s", code, out)
	}

	// The upgrade the issue asks for: a 1.x config that 1.4 rejects, and the
	// verified fix (both edits).
	out, _, code = run(t, nil, "upgrade-check", "--clean-env", "--from", "1.0.0rc4", "--to", "1.4.0rc4", "--config", "testdata/releases/gen-1.0.0rc4.yaml")
	for _, want := range []string{"✗ BREAKS", "Input should be 'DEFAULT', 'UCX', 'NIXL', 'MOONCAKE' or 'MPI'", "backend: UCX", "transceiver_runtime: CPP", "verified: 1.4.0rc4 gives ● CPP"} {
		if !strings.Contains(out, want) {
			t.Errorf("upgrade-check 1.0.0rc4 -> 1.4.0rc4 lacks %q (exit %d):\n%s", want, code, out)
		}
	}
	if code != 1 {
		t.Errorf("a breaking upgrade exits %d, want 1", code)
	}

	out, _, _ = run(t, nil, "versions")
	for _, want := range []string{"— 1.0 —", "— 1.4 —", "1.1.0rc2.post2", "C++ only; backend ucx,nixl,mpi; DEFAULT=UCX", "any other X.Y.Z[rcN][.postN][.devN] from 1.0.0rc0 on"} {
		if !strings.Contains(out, want) {
			t.Errorf("versions lacks %q", want)
		}
	}

	// A log is predicted for the version it states, an old one included; in
	// that C++-only release the UCX line with no error after it is the outcome.
	out, _, code = run(t, nil, "check-logs", "--clean-env", "--backend", "UCX", "testdata/releases/ctx-1.1.0rc5.log")
	if !strings.Contains(out, "Predicted for TensorRT-LLM 1.1.0rc5: C++ transceiver") || !strings.Contains(out, "version: the log states TensorRT-LLM 1.1.0rc5 (line 1)") ||
		!strings.Contains(out, "process: CPP · BindKvCacheTransceiver (inferred) · backend UCX") || !strings.Contains(out, "Every process agrees with the prediction.") || code != 0 {
		t.Errorf("check-logs on a 1.1.0rc5 log:\n%s", out)
	}

	out, _, _ = run(t, nil, "__complete", "explain", "--trtllm", "1.1.0rc2")
	if !strings.Contains(out, "1.1.0rc2.post2") {
		t.Errorf("completion of 1.1.0rc2: %s", out)
	}
}

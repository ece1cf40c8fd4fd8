package logs

import (
	"strings"
	"testing"

	"xcvr/resolver"
)

// TestCPPOnlyBuildSettlesTheOutcome: in a build without transceiver_runtime
// (1.0 to 1.3.0rc7) create_kv_cache_transceiver always ends in
// BindKvCacheTransceiver and prints nothing after the backend's line, so that
// line with no error after it is the outcome (inferred). Before, every healthy
// log of those releases read "outcome not shown" and exited 1.
func TestCPPOnlyBuildSettlesTheOutcome(t *testing.T) {
	const ucx = "Using UCX kv-cache transceiver. If your devices are not in the same domain, please consider setting UCX_CUDA_IPC_ENABLE_MNNVL=n, UCX_RNDV_SCHEME=put_zcopy and/or unset UCX_NET_DEVICES upon server hangs or lower-than-expected performance."
	cases := []struct {
		name, log string
		trtllm    string // the prediction's version, "" for none
		want      resolver.Outcome
		status    Status
	}{
		{"1.1 states its version, two ranks", "", "", resolver.OutcomeCPP, StatusShown},
		{"1.1 with its own prediction", "", "1.1.0rc5", resolver.OutcomeCPP, StatusAgrees},
		{"1.0 lower-case era, MPI", "[TensorRT-LLM] TensorRT-LLM version: 1.0.0rc4\n[TRT-LLM] [W] MPI CacheTransceiver is deprecated, UCX or NIXL is recommended\n", "", resolver.OutcomeCPP, StatusShown},
		{"1.1 DEFAULT with TRTLLM_USE_NIXL_KVCACHE", "[TensorRT-LLM] TensorRT-LLM version: 1.1.0rc2.post2\n[TRT-LLM] [RANK 0] [W] TRTLLM_USE_NIXL_KVCACHE=1 is set, but it's recommended to set cache_transceiver_config.backend in yaml config\n", "", resolver.OutcomeCPP, StatusShown},
		{"1.0.0rc2 (before #5234): the C++ transceiver's own transport line", "[TensorRT-LLM] TensorRT-LLM version: 1.0.0rc2\n[TensorRT-LLM][RANK 0][INFO] Enable UCX KV cache transport.\n", "", resolver.OutcomeCPP, StatusShown},
		{"1.0.0rc2, NIXL by TRTLLM_USE_NIXL_KVCACHE", "[TensorRT-LLM] TensorRT-LLM version: 1.0.0rc2\n[TensorRT-LLM][INFO] Enable NIXL KV cache transport.\n", "", resolver.OutcomeCPP, StatusShown},
		{"1.2 C++ NIXL agent line", "[TensorRT-LLM] TensorRT-LLM version: 1.2.0rc3\n[TensorRT-LLM][INFO] NixlTransferAgent::NixlTransferAgent using NIXL backend: UCX\n", "", resolver.OutcomeCPP, StatusShown},
		// The C++ NIXL agent before it named its backend: only its address
		// line, as Dynamo's TensorRT-LLM 1.0 builds with NIXL print it (the
		// shape of the excerpt in ai-dynamo/dynamo#2284).
		{"1.0 C++ NIXL agent's address line", "[TensorRT-LLM] TensorRT-LLM version: 1.0.0rc4\n[TensorRT-LLM][INFO] CacheTransBufferManager: mMaxNumTokens:0, mRecvBufferCount:1, mSendBufferCount:1,mTransferBufferSize:536870912, mPreAllocBufferSize:1073741824,mOnlyUseDynamicBuffer:0 mUseFabricMemory:0 mDataType:7\n[TensorRT-LLM][INFO] NixlTransferAgent::NixlTransferAgent mAddress: 10.110.41.163:32787\n[TensorRT-LLM][INFO] NIXL Connection Manager created\n", "", resolver.OutcomeCPP, StatusShown},
		{"no version line: the prediction's version decides", "[TRT-LLM] [I] " + ucx + "\n", "1.2.0rc3", resolver.OutcomeCPP, StatusAgrees},
		// An error after the backend's line is the outcome.
		{"1.1 fails after the UCX line", "[TensorRT-LLM] TensorRT-LLM version: 1.1.0rc5\n[TRT-LLM] [RANK 0] [I] " + ucx + "\n[TRT-LLM] [RANK 0] [E] Failed to initialize executor on rank 0: UCX error: Connection refused\n", "", resolver.OutcomeError, StatusFailed},
		// From 1.3.0rc8 the Python transceiver exists, and 1.3.0rc15 prints the
		// UCX line before it checks transceiver_runtime='PYTHON' against the
		// backend: the line alone does not settle it.
		{"1.3.0rc15 has the Python transceiver too", "[TensorRT-LLM] TensorRT LLM version: 1.3.0rc15\n[TRT-LLM] [I] [RANK 0] " + ucx + "\n", "", "", StatusNotShown},
		// No version anywhere: nothing to infer from.
		{"no version at all", "[TRT-LLM] [I] " + ucx + "\n", "", "", StatusNotShown},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var lg *Log
			if c.log == "" {
				lg = parseFile(t, "gen-1.1-ucx-2ranks.log")
			} else {
				var err error
				if lg, err = Parse("x.log", strings.NewReader(c.log)); err != nil {
					t.Fatal(err)
				}
			}
			var tr *resolver.Trace
			if c.trtllm != "" {
				p := predict(t, c.trtllm, "LlamaForCausalLM", "UCX")
				if c.log != "" && strings.Contains(c.log, "NixlTransferAgent") {
					p = predict(t, c.trtllm, "LlamaForCausalLM", "NIXL")
				}
				tr = &p
			}
			v := Judge(lg, tr, true)
			if len(v.Processes) == 0 {
				t.Fatalf("no process: %+v", lg)
			}
			for _, pv := range v.Processes {
				if got := pv.Process.Outcome(); got != c.want {
					t.Errorf("%s: outcome %q, want %q", pv.Process.Source, got, c.want)
				}
				// The C++ transceiver's "NIXL Connection Manager created"
				// shows its class itself: not inferred from the build.
				inferred := !strings.Contains(c.log, "Connection Manager created")
				if c.want == resolver.OutcomeCPP && (pv.Process.ClassInferred != inferred || pv.Process.Class != resolver.ClassCPP) {
					t.Errorf("%s: class %q inferred %v", pv.Process.Source, pv.Process.Class, pv.Process.ClassInferred)
				}
			}
			if v.Status != c.status {
				t.Errorf("status %q, want %q (mismatches %+v)", v.Status, c.status, v.Mismatches)
			}
		})
	}
}

// TestCPPOnlyInferenceIsSaid: the report says why the class is inferred, at
// the backend's line, and a disagreeing prediction names the reason.
func TestCPPOnlyInferenceIsSaid(t *testing.T) {
	lg := parseFile(t, "gen-1.1-ucx-2ranks.log")
	v := Judge(lg, nil, true)
	if len(v.Processes) != 2 || v.Exit() != 0 {
		t.Fatalf("want two ranks and exit 0, got %d processes, exit %d", len(v.Processes), v.Exit())
	}
	var b strings.Builder
	WriteText(&b, v, Prediction{}, false)
	out := b.String()
	for _, want := range []string{
		"rank 0: CPP · BindKvCacheTransceiver (inferred) · backend UCX",
		"→ line 10: TensorRT-LLM 1.1.0rc5 has only the C++ transceiver (no transceiver_runtime yet) and no error follows this line: BindKvCacheTransceiver on UCX",
		"rank 1: CPP",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("report lacks %q:\n%s", want, out)
		}
	}
	// Judged again (as -f does on every poll), the reason is said once.
	v = Judge(lg, nil, true)
	if n := len(v.Processes[0].Process.Implications); n != 1 {
		t.Errorf("%d implications after a second Judge, want 1", n)
	}
	// A prediction of the Python transceiver disagrees, and says why the log's
	// class is inferred.
	lg = parseFile(t, "gen-1.1-ucx-2ranks.log")
	tr := predict(t, "1.4.0rc4", "LlamaForCausalLM", "NIXL")
	v = Judge(lg, &tr, true)
	found := false
	for _, m := range v.Mismatches {
		if m.Kind == KindOutcome && strings.Contains(m.Message, "CPP (inferred: 1.1.0rc5 has only the C++ transceiver)") {
			found = true
		}
	}
	if !found {
		t.Errorf("no outcome disagreement naming the reason: %+v", v.Mismatches)
	}
}

// TestVersionLineAfterAPreamble: the version line printed at import is read
// wherever it stands, not only among a chunk's first lines (a Slurm job's log
// often opens with its script's echo, nvidia-smi and an environment dump; the
// line was read only when it fell in the 41 lines the scanner always passes
// on, and such a log "stated no version" and was predicted with the newest
// release's rules).
func TestVersionLineAfterAPreamble(t *testing.T) {
	for _, banner := range []string{
		"[TensorRT-LLM] TensorRT-LLM version: 1.1.0rc5",
		"[TensorRT-LLM] TensorRT LLM version: 1.3.0rc15",
		"  [TensorRT-LLM] TensorRT LLM version: 1.4.0rc1 (backend: cuda)",
		"3: [TensorRT-LLM] TensorRT-LLM version: 1.2.0rc3",
	} {
		var b strings.Builder
		for i := 0; i < 500; i++ {
			b.WriteString("+ echo a line of the job script's preamble\n")
		}
		b.WriteString(banner + "\n")
		lg, err := Parse("job.log", strings.NewReader(b.String()))
		if err != nil {
			t.Fatal(err)
		}
		want := strings.Fields(strings.SplitN(banner, "version: ", 2)[1])[0]
		if len(lg.Stated) != 1 || lg.Stated[0].Version != want || lg.Stated[0].Line != 501 {
			t.Errorf("%q after 500 lines: stated %+v, want %s at line 501", banner, lg.Stated, want)
		}
	}
}

// TestDisabledSaidAsLogged: a log whose process built no transceiver is
// summed up with the words it said so in: a TensorRT engine's C++ executor
// says "CacheTransceiver is disabled.", the Python executor "cache_transceiver
// is disabled", and a worker asked for a disaggregated request the
// assertion's "kv_cache_transceiver is disabled, …". The summary quoted the
// Python words for all three.
func TestDisabledSaidAsLogged(t *testing.T) {
	for _, tc := range []struct{ name, log, want string }{
		{"C++ executor", "[TensorRT-LLM][INFO] CacheTransceiver is disabled.\n",
			"No process failed; the process built no transceiver (CacheTransceiver is disabled)."},
		{"Python executor", "[TRT-LLM] [RANK 0] [I] cache_transceiver is disabled\n",
			"No process failed; the process built no transceiver (cache_transceiver is disabled)."},
		{"assertion", "[TRT-LLM] [RANK 0] [I] Using LLM with PyTorch backend\n" +
			"AssertionError: kv_cache_transceiver is disabled, please set 'cache_transceiver_config: backend:<backend_type>` in config file for disaggregated serving\n",
			"No process failed; the process built no transceiver (kv_cache_transceiver is disabled)."},
		{"two processes, the C++ one first", "[TensorRT-LLM][RANK 0][INFO] CacheTransceiver is disabled.\n[TRT-LLM] [RANK 1] [I] cache_transceiver is disabled\n",
			"No process failed; 2 of 2 processes show their outcome: no transceiver (CacheTransceiver is disabled)."},
	} {
		lg, err := Parse("x.log", strings.NewReader(tc.log))
		if err != nil {
			t.Fatal(err)
		}
		if got := Judge(lg, nil, true).Summary(); got != tc.want {
			t.Errorf("%s:\n got %q\nwant %q", tc.name, got, tc.want)
		}
	}
}

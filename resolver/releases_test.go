package resolver

import (
	"strings"
	"testing"
)

// One table per release family, with the strings operators grep for verbatim.
func TestReleaseFamilies(t *testing.T) {
	const (
		lowerLits = "Input should be 'default', 'ucx', 'nixl' or 'mpi'"
		upperLits = "Input should be 'DEFAULT', 'UCX', 'NIXL' or 'MPI'"
	)
	cases := []tc{
		// 1.0: lower-case names; DEFAULT means UCX; the C++ transceiver only.
		// #6085 (the UCX hint) merged 2025-07-24, after the v1.0.0rc4 tag
		// (main's commit 69e9f6d489 of 07-19) and before rc5's (fbee279909,
		// 08-01) [D: main's git log, a stored commit listing]: rc4 logs
		// nothing for UCX, rc5 the hint.
		{name: "1.0.0rc4 ucx serves on C++, no UCX hint yet", version: "1.0.0rc4", backend: "ucx", outcome: OutcomeCPP, backendEff: "UCX", logs: []string{}},
		{name: "1.0.0rc5 ucx logs the UCX hint (#6085)", version: "1.0.0rc5", backend: "ucx", outcome: OutcomeCPP, backendEff: "UCX", logs: []string{ucxInfo}},
		{name: "1.0.0rc4 UCX is rejected", version: "1.0.0rc4", backend: "UCX", outcome: OutcomeError, failed: StepValidate,
			errHas: "cache_transceiver_config.backend\n  " + lowerLits + " [type=literal_error, input_value='UCX', input_type=str]"},
		{name: "1.0.0rc4 default is UCX", version: "1.0.0rc4", backend: "default", outcome: OutcomeCPP, backendEff: "UCX", logs: []string{}},
		// #5234's own selectors (1.0.0rc4 to about 2025-08-14): any non-empty
		// value, UCX > NIXL > MPI, no warning.
		{name: "1.0.0rc4 default with the NIXL selector: no warning", version: "1.0.0rc4", backend: "default", env: map[string]string{EnvUseNIXL: "1"}, outcome: OutcomeCPP, backendEff: "NIXL",
			logs: []string{}},
		{name: "1.0.0rc4 a selector of 0 counts", version: "1.0.0rc4", backend: "default", env: map[string]string{EnvUseMPI: "0"}, outcome: OutcomeCPP, backendEff: "MPI",
			logs: []string{mpiWarn}},
		{name: "1.0.0rc5 UCX before NIXL", version: "1.0.0rc5", backend: "default", env: map[string]string{EnvUseNIXL: "1", EnvUseUCX: "yes"}, outcome: OutcomeCPP, backendEff: "UCX",
			logs: []string{ucxInfo}},
		{name: "1.0.0rc5 an empty selector does not count", version: "1.0.0rc5", backend: "default", env: map[string]string{EnvUseNIXL: ""}, outcome: OutcomeCPP, backendEff: "UCX",
			logs: []string{ucxInfo}},
		{name: "1.0.0 keeps #5234's selectors", version: "1.0.0", backend: "default", env: map[string]string{EnvUseNIXL: "true"}, outcome: OutcomeCPP, backendEff: "NIXL", logs: []string{}},
		// Before #5234 (new in the 1.0.0rc4 notes): 1.0.0rc0 to rc3.
		{name: "1.0.0rc3 a selector alone turns it on", version: "1.0.0rc3", env: map[string]string{EnvUseNIXL: "1"}, outcome: OutcomeCPP, backendEff: "NIXL"},
		{name: "1.0.0rc2 the config does not turn it on", version: "1.0.0rc2", backend: "ucx", outcome: OutcomeDisabled},
		// Before #5234 CacheTransceiverConfig is a BaseModel with max_num_tokens
		// only (0.21.0's): other keys are ignored, not refused.
		{name: "1.0.0rc3 an upper-case backend is ignored", version: "1.0.0rc3", backend: "UCX", outcome: OutcomeDisabled},
		{name: "1.0.0rc1 transceiver_runtime is ignored", version: "1.0.0rc1", backend: "MOONCAKE", runtime: "PYTHON", timeout: "0",
			env: map[string]string{EnvUseMPI: "1"}, outcome: OutcomeCPP, backendEff: "MPI"},
		{name: "1.0.0rc4 transceiver_runtime is not a field", version: "1.0.0rc4", backend: "nixl", runtime: "CPP", outcome: OutcomeError, failed: StepValidate,
			errHas: "cache_transceiver_config.transceiver_runtime\n  Extra inputs are not permitted [type=extra_forbidden, input_value='CPP', input_type=str]"},
		{name: "1.0.0rc4 no backend: requests refused", version: "1.0.0rc4", outcome: OutcomeDisabled, logs: []string{"cache_transceiver is disabled"}},
		{name: "1.0.0rc0 a truthy selector alone turns it on", version: "1.0.0rc0", env: map[string]string{EnvUseUCX: "0"}, outcome: OutcomeCPP, backendEff: "UCX"},
		{name: "1.0.0rc0 no selector: off", version: "1.0.0rc0", backend: "ucx", outcome: OutcomeDisabled},
		// 1.1: upper-case names; DEFAULT still UCX before #7926; selectors
		// exactly "1", warned, NIXL then MPI.
		{name: "1.1.0rc0 the NIXL selector is warned", version: "1.1.0rc0", backend: "DEFAULT", env: map[string]string{EnvUseNIXL: "1", EnvUseUCX: "1"}, outcome: OutcomeCPP, backendEff: "NIXL",
			logs: []string{"TRTLLM_USE_NIXL_KVCACHE=1 is set, but it's recommended to set cache_transceiver_config.backend in yaml config"}},
		{name: "1.1.0rc0 a selector of 0 does not count", version: "1.1.0rc0", backend: "DEFAULT", env: map[string]string{EnvUseMPI: "0"}, outcome: OutcomeCPP, backendEff: "UCX",
			logs: []string{ucxInfo}},
		{name: "1.1.0rc5 ucx is rejected", version: "1.1.0rc5", backend: "ucx", outcome: OutcomeError, failed: StepValidate,
			errHas: "cache_transceiver_config.backend\n  " + upperLits + " [type=literal_error, input_value='ucx', input_type=str]"},
		{name: "1.1.0rc5 DEFAULT is UCX", version: "1.1.0rc5", backend: "DEFAULT", outcome: OutcomeCPP, backendEff: "UCX", logs: []string{ucxInfo}},
		{name: "1.1.0rc2.post2 MPI warns", version: "1.1.0rc2.post2", backend: "MPI", outcome: OutcomeCPP, logs: []string{mpiWarn}},
		{name: "1.1.0rc5 kv_transfer_timeout_ms is not a field yet (#8459)", version: "1.1.0rc5", backend: "UCX", timeout: "5000", outcome: OutcomeError, failed: StepValidate,
			errHas: "cache_transceiver_config.kv_transfer_timeout_ms\n  Extra inputs are not permitted [type=extra_forbidden, input_value=5000, input_type=int]"},
		// #8459 merged 2025-10-22, after the 1.2.0rc1 tag (main's git log).
		{name: "1.2.0rc1 kv_transfer_timeout_ms is not a field yet (#8459)", version: "1.2.0rc1", backend: "DEFAULT", timeout: "5000", outcome: OutcomeError, failed: StepValidate,
			errHas: "cache_transceiver_config.kv_transfer_timeout_ms\n  Extra inputs are not permitted [type=extra_forbidden, input_value=5000, input_type=int]"},
		{name: "1.2.0rc2 kv_transfer_timeout_ms validates", version: "1.2.0rc2", backend: "DEFAULT", timeout: "5000", outcome: OutcomeCPP, backendEff: "NIXL"},
		{name: "1.1.0rc3 MOONCAKE is not a backend yet", version: "1.1.0rc3", backend: "MOONCAKE", outcome: OutcomeError, failed: StepValidate, errHas: upperLits},
		// 1.2: DEFAULT means NIXL (a 1.2.0rc3 DEFAULT deployment ran the NIXL agent).
		{name: "1.2.0rc3 DEFAULT is NIXL", version: "1.2.0rc3", backend: "DEFAULT", outcome: OutcomeCPP, backendEff: "NIXL", logs: []string{}},
		{name: "1.2.0rc3 DEFAULT with the UCX selector", version: "1.2.0rc3", backend: "DEFAULT", env: map[string]string{EnvUseUCX: "1"}, outcome: OutcomeCPP, backendEff: "UCX",
			logs: []string{ucxEnvWarn, ucxInfo}},
		{name: "1.2.0rc2 the NIXL selector is not one yet", version: "1.2.0rc2", backend: "DEFAULT", env: map[string]string{EnvUseNIXL: "1", EnvUseMPI: "1"}, outcome: OutcomeCPP, backendEff: "MPI"},
		// Merge days from main's git log (a stored commit listing): #7926
		// (DEFAULT -> NIXL) is dd25595ae8 of 2025-10-19, after v1.2.0rc0's
		// publication (09-30) and just before the v1.2.0rc1 tag 796891ba2a;
		// #8309 (MOONCAKE, the four selectors) is 9f283f330b of 2025-12-19,
		// after the v1.2.0rc3 tag 2128f73d58 (11-20) and before main was bumped
		// to 1.2.0rc7 (12-23), so after rc6 (12-15). xcvr had #7926 on 09-29 and
		// #8309 on 11-12.
		{name: "1.2.0rc0 DEFAULT is still UCX (#7926 merged 10-19)", version: "1.2.0rc0", backend: "DEFAULT", outcome: OutcomeCPP, backendEff: "UCX", logs: []string{ucxInfo}},
		{name: "1.2.0rc0 the NIXL selector of the UCX default", version: "1.2.0rc0", backend: "DEFAULT", env: map[string]string{EnvUseNIXL: "1", EnvUseUCX: "1"}, outcome: OutcomeCPP, backendEff: "NIXL",
			logs: []string{"TRTLLM_USE_NIXL_KVCACHE=1 is set, but it's recommended to set cache_transceiver_config.backend in yaml config"}},
		{name: "1.2.0rc1 DEFAULT is NIXL", version: "1.2.0rc1", backend: "DEFAULT", outcome: OutcomeCPP, backendEff: "NIXL", logs: []string{}},
		{name: "1.2.0rc3 the NIXL selector is not one yet (#8309 merged 12-19)", version: "1.2.0rc3", backend: "DEFAULT", env: map[string]string{EnvUseNIXL: "1", EnvUseMPI: "1"}, outcome: OutcomeCPP, backendEff: "MPI",
			logs: []string{"TRTLLM_USE_MPI_KVCACHE=1 is set, but it's recommended to set cache_transceiver_config.backend in yaml config", mpiWarn}},
		{name: "1.2.0rc5 MOONCAKE is not a backend yet", version: "1.2.0rc5", backend: "MOONCAKE", outcome: OutcomeError, failed: StepValidate, errHas: upperLits},
		// 1.2.0rc6 is main's 9ba14263db of 2025-12-15 (its docs build's
		// commit), four days before #8309; its .post1 and .post3 declare
		// backend Literal['DEFAULT', 'UCX', 'NIXL', 'MPI'] in their own
		// llm_args.py (gh-pages <version>/_modules/tensorrt_llm/llmapi/
		// llm_args.html, verified). xcvr had it after #8309 (12-22).
		{name: "1.2.0rc6 MOONCAKE is not a backend yet (cut 12-15)", version: "1.2.0rc6", backend: "MOONCAKE", outcome: OutcomeError, failed: StepValidate, errHas: upperLits},
		{name: "1.2.0rc6.post3 MOONCAKE is not a backend (its llm_args.py)", version: "1.2.0rc6.post3", backend: "MOONCAKE", outcome: OutcomeError, failed: StepValidate, errHas: upperLits},
		{name: "1.2.0rc6 the two selectors, UCX before MPI", version: "1.2.0rc6", backend: "DEFAULT", env: map[string]string{EnvUseNIXL: "1", EnvUseMPI: "1"}, outcome: OutcomeCPP, backendEff: "MPI",
			logs: []string{"TRTLLM_USE_MPI_KVCACHE=1 is set, but it's recommended to set cache_transceiver_config.backend in yaml config", mpiWarn}},
		{name: "1.2.0rc7 MOONCAKE and the four selectors (#8309)", version: "1.2.0rc7", backend: "DEFAULT", env: map[string]string{EnvUseNIXL: "1", EnvUseMPI: "1"}, outcome: OutcomeCPP, backendEff: "NIXL",
			logs: []string{"TRTLLM_USE_NIXL_KVCACHE=1 is set, but it's recommended to set cache_transceiver_config.backend in yaml config"}},
		{name: "1.2.0 MOONCAKE validates", version: "1.2.0", backend: "MOONCAKE", outcome: OutcomeCPP, backendEff: "MOONCAKE"},
		// 1.3 before transceiver_runtime, then era 0.
		{name: "1.3.0rc7 transceiver_runtime is not a field", version: "1.3.0rc7", backend: "NIXL", runtime: "PYTHON", outcome: OutcomeError, failed: StepValidate,
			errHas: "Extra inputs are not permitted [type=extra_forbidden, input_value='PYTHON', input_type=str]"},
		{name: "1.3.0rc15 omitted runtime is C++", version: "1.3.0rc15", backend: "NIXL", outcome: OutcomeCPP, rt: "None"},
		// The first Python transceiver, PyNativeCacheTransceiver (1.3.0rc8 and
		// rc9), logs its own name and keeps a null kv_transfer_timeout_ms
		// without dividing it [V: kv_cache_transceiver.py and
		// native/py_cache_transceiver.py __init__ at bdubayah/TensorRT-LLM@aa0117b5,
		// whose llm_args.py is era 0's first form (timeout default None);
		// derived for rc8]: rc8's default None starts. KvCacheTransceiverV2,
		// on main by 2026-04-09 (PR #12882 changes it; its first form divides
		// kv_transfer_timeout_ms / 1000.0 in __init__ [V a stored
		// transceiver.py with request_and_receive_sync still a stub]) and
		// taken to come with #12342 (new in the rc10 notes; inferred), fails
		// on the same null.
		{name: "1.3.0rc8 PYTHON builds PyNativeCacheTransceiver, the null default timeout starts", version: "1.3.0rc8", backend: "NIXL", runtime: "PYTHON", outcome: OutcomePython,
			logs: []string{"Using PyNativeCacheTransceiver"}},
		{name: "1.3.0rc9 PYTHON with a null timeout still starts", version: "1.3.0rc9", backend: "NIXL", runtime: "PYTHON", timeout: "null", outcome: OutcomePython,
			logs: []string{"Using PyNativeCacheTransceiver"}},
		{name: "1.3.0rc10 PYTHON is KvCacheTransceiverV2 (#12342, inferred), a null timeout fails its init", version: "1.3.0rc10", backend: "NIXL", runtime: "PYTHON", timeout: "null", outcome: OutcomeError, failed: StepTransceiver,
			logs: []string{"Using KvCacheTransceiverV2"}, errHas: "TypeError: unsupported operand type(s) for /: 'NoneType' and 'float'"},
		{name: "1.3.0rc15 PYTHON with the 60 s default is KvCacheTransceiverV2", version: "1.3.0rc15", backend: "NIXL", runtime: "PYTHON", outcome: OutcomePython,
			logs: []string{"Using KvCacheTransceiverV2"}},
		{name: "1.3.0rc8 PYTHON on DEFAULT with the UCX selector: the era-0 refusal", version: "1.3.0rc8", backend: "DEFAULT", runtime: "PYTHON", env: map[string]string{EnvUseUCX: "1"}, outcome: OutcomeError, failed: StepPythonNIXL,
			errHas: "ValueError: Python transceiver currently only supports NIXL or DEFAULT backend, got UCX. Please use transceiver_runtime='CPP' for MPI, UCX, or MOONCAKE backends."},
		{name: "1.3.0rc15 PYTHON on UCX", version: "1.3.0rc15", backend: "UCX", runtime: "PYTHON", outcome: OutcomeError, failed: StepPythonNIXL,
			errHas: "ValueError: Python transceiver currently only supports NIXL or DEFAULT backend, got UCX. Please use transceiver_runtime='CPP' for MPI, UCX, or MOONCAKE backends."},
		{name: "1.3.0rc15 MOONCAKE validates", version: "1.3.0rc15", backend: "MOONCAKE", outcome: OutcomeCPP},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			tr := Resolve(c.inputs(t))
			checkWellFormed(t, tr)
			if tr.Result.Outcome != c.outcome {
				t.Fatalf("outcome = %s, want %s; error %q", tr.Result.Outcome, c.outcome, tr.Result.Error)
			}
			if c.rt != "" && tr.Result.ResolvedRuntime.Repr() != c.rt {
				t.Errorf("resolved runtime = %s, want %s", tr.Result.ResolvedRuntime.Repr(), c.rt)
			}
			if c.backendEff != "" && tr.Result.EffectiveBackend.S != c.backendEff {
				t.Errorf("effective backend = %v, want %s", tr.Result.EffectiveBackend, c.backendEff)
			}
			if c.errHas != "" && !strings.Contains(tr.Result.Error, c.errHas) {
				t.Errorf("error = %q\nwant it to contain %q", tr.Result.Error, c.errHas)
			}
			if c.failed != "" && tr.Result.FailedStep != c.failed {
				t.Errorf("failed step = %q, want %q", tr.Result.FailedStep, c.failed)
			}
			if c.logs != nil {
				var got []string
				for _, l := range tr.Logs {
					got = append(got, l.Message)
				}
				if strings.Join(got, "\n") != strings.Join(c.logs, "\n") {
					t.Errorf("logs:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(c.logs, "\n"))
				}
			}
			if c.outcome == OutcomeDisabled {
				want := ""
				if Must(ParseVersion(c.version)).Has(dayConfigKnobs) {
					want = "AssertionError: kv_cache_transceiver is disabled, please set 'cache_transceiver_config: backend:<backend_type>` in config file for disaggregated serving"
				}
				if tr.Result.RequestError != want {
					t.Errorf("request error = %q, want %q", tr.Result.RequestError, want)
				}
			}
		})
	}
}

// Must is ParseVersion for tests of known-good names.
func Must(v Version, err error) Version {
	if err != nil {
		panic(err)
	}
	return v
}

func TestPlacement(t *testing.T) {
	newest := KnownVersions()[len(KnownVersions())-1]
	for _, c := range []struct {
		in, name, like, placement string
	}{
		{"1.4.0rc9", "1.4.0rc9", newest.Name, "xcvr's rules end at 1.4.0rc4; 1.4.0rc9 is answered with them; pass --install to read yours"},
		{"v1.4.0", "1.4.0", newest.Name, "xcvr's rules end at 1.4.0rc4; 1.4.0 is answered with them; pass --install to read yours"},
		{"1.1.0rc2.post3", "1.1.0rc2.post3", "1.1.0rc2.post2", "1.1.0rc2.post3 is not a release xcvr lists; it is answered with the rules of 1.1.0rc2.post2, the release before it; pass --install to read yours"},
		{"1.2.2", "1.2.2", "1.2.1", ""},
		{"1.2.0rc6.post5", "1.2.0rc6.post5", "1.2.0rc6.post4", ""},
		{"1.3.0rc30", "1.3.0rc30", "1.3.0rc29", ""},
		{"1.0.1", "1.0.1", "1.0.0", ""},
		{"1.3.0rc28.dev2026100100", "main@2026-10-01", "", "1.3.0rc28.dev2026100100 is a nightly of main: answered as main@2026-10-01"},
	} {
		v, err := ParseVersion(c.in)
		if err != nil {
			t.Fatalf("ParseVersion(%q): %v", c.in, err)
		}
		if v.Name != c.name || v.Confidence != Inferred && c.like != "" || v.Placement == "" {
			t.Errorf("ParseVersion(%q) = %s (%s, placement %q)", c.in, v.Name, v.Confidence, v.Placement)
		}
		if c.like != "" {
			if like := Must(ParseVersion(c.like)); v.Main != like.Main || v.Era != like.Era {
				t.Errorf("%s placed at %s, want %s's day %s", c.in, v.Main, c.like, like.Main)
			}
		}
		if c.placement != "" && v.Placement != c.placement {
			t.Errorf("placement = %q\nwant        %q", v.Placement, c.placement)
		}
	}
	if v := Must(ParseVersion("1.2.0rc3")); v.Placement != "" {
		t.Errorf("a listed release has a placement: %q", v.Placement)
	}
	_, err := ParseVersion("0.21.0")
	if err == nil || !strings.Contains(err.Error(), "1.0.0rc0") {
		t.Errorf("0.x: %v", err)
	}
	var names []string
	for _, f := range ReleaseFamilies() {
		names = append(names, f.Name)
	}
	if strings.Join(names, " ") != "1.0 1.1 1.2 1.3 1.4" {
		t.Errorf("families %v", names)
	}
}

// An install's version.py is placed as --trtllm is: between the releases xcvr
// lists, never after the newest for an old one.
func TestInstallVersionPlaced(t *testing.T) {
	v := InstallVersion(&Install{Version: "1.2.0rc9"})
	if want := Must(ParseVersion("1.2.0rc8")).Main; v.Main != want || v.Confidence != Inferred {
		t.Errorf("1.2.0rc9 install placed at %s (%s), want %s", v.Main, v.Confidence, want)
	}
	if v := InstallVersion(&Install{Version: "1.2.0rc2"}); v.Main != Must(ParseVersion("1.2.0rc2")).Main {
		t.Errorf("1.2.0rc2 install placed at %s", v.Main)
	}
}

// FuzzParseVersion: any string is either refused or placed, never a panic; a
// placed version's canonical name places the same way again, and its day is a
// listed release's.
func FuzzParseVersion(f *testing.F) {
	for _, s := range []string{"1.3.0rc22", "v1.1.0rc2.post2", "1.4.0rc9", "1.3.0rc27.dev2026091700", "0.21.0", "main@2026-08-01", "1.0.0rc0.dev1", "01.3.0", "1.3.0rc22.post1.dev+1", "9999.9999.9999rc9999.post9999.dev99999999999999"} {
		f.Add(s)
	}
	days := map[Day]bool{}
	for _, v := range KnownVersions() {
		days[v.Main] = true
	}
	f.Fuzz(func(t *testing.T, s string) {
		v, err := ParseVersion(s)
		if err != nil {
			return
		}
		if !v.Release {
			return // main@DATE or a nightly
		}
		again, err := ParseVersion(v.Name)
		if err != nil || again.Name != v.Name || again.Main != v.Main || again.Era != v.Era {
			t.Fatalf("%q -> %s (%s); its name gives %s (%s), %v", s, v.Name, v.Main, again.Name, again.Main, err)
		}
		if !days[v.Main] {
			t.Fatalf("%q placed at %s, no listed release's day", s, v.Main)
		}
	})
}

// #5234's own selector form (1.0 line) and the exactly-"1" form (1.1 on) are
// different rules, and comparing the two releases says so.
func TestSelectorFormsCompared(t *testing.T) {
	a := ReleaseRules(Must(ParseVersion("1.0.0rc4")))
	b := ReleaseRules(Must(ParseVersion("1.1.0rc0")))
	if !a.SelectorsTruthy || b.SelectorsTruthy {
		t.Fatalf("truthy: 1.0.0rc4 %v, 1.1.0rc0 %v", a.SelectorsTruthy, b.SelectorsTruthy)
	}
	for _, d := range CompareRules(a, b) {
		if d.What == "DEFAULT backend selectors" {
			if d.A != "TRTLLM_USE_UCX_KVCACHE=UCX > TRTLLM_USE_NIXL_KVCACHE=NIXL > TRTLLM_USE_MPI_KVCACHE=MPI (any non-empty value)" ||
				d.B != "TRTLLM_USE_NIXL_KVCACHE=NIXL > TRTLLM_USE_MPI_KVCACHE=MPI" {
				t.Errorf("difference %+v", d)
			}
			return
		}
	}
	t.Error("no selector difference between 1.0.0rc4 and 1.1.0rc0")
}

// Each dated change that a release's notes first list is in that release and
// not in the one before it (notes are per-candidate deltas), and no release is
// cut after it was published.
func TestReleaseNotesBoundChanges(t *testing.T) {
	for _, c := range []struct {
		change        Day
		before, first string
	}{
		{dayConfigKnobs, "1.0.0rc3", "1.0.0rc4"},    // #5234 in the v1.0.0rc4 notes
		{dayFieldExists, "1.3.0rc7", "1.3.0rc8"},    // the Python cache transceiver in v1.3.0rc8's
		{dayTimeoutDefault, "1.3.0rc8", "1.3.0rc9"}, // #12249 in v1.3.0rc9's
		{day16164, "1.3.0rc21", "1.3.0rc22"},        // #16164 in v1.3.0rc22's
		{day17495, "1.3.0rc29", "1.4.0rc1"},         // #17495 in v1.4.0rc1's
	} {
		if b := Must(ParseVersion(c.before)); b.Has(c.change) {
			t.Errorf("%s has the change of %s", c.before, c.change)
		}
		if f := Must(ParseVersion(c.first)); !f.Has(c.change) {
			t.Errorf("%s lacks the change of %s", c.first, c.change)
		}
	}
	for _, v := range KnownVersions() {
		if v.Published != 0 && v.Main > v.Published {
			t.Errorf("%s is cut on %s, after its publication on %s", v.Name, v.Main, v.Published)
		}
	}
}

// Before #5234 the validate step says which keys the plain BaseModel ignores:
// the user's, not xcvr's own default backend.
func TestIgnoredBefore5234(t *testing.T) {
	for _, c := range []struct {
		in   tc
		want string
	}{
		{tc{version: "1.0.0rc3", backend: "UCX"}, "which ignores other keys; backend ignored"},
		{tc{version: "1.0.0rc3", backend: "UCX", runtime: "PYTHON"}, "; backend, transceiver_runtime ignored"},
	} {
		tr := Resolve(c.in.inputs(t))
		for _, s := range tr.Steps {
			if s.ID == StepValidate && !strings.HasSuffix(s.Reason, c.want) {
				t.Errorf("%+v: validate says %q, want it to end %q", c.in, s.Reason, c.want)
			}
		}
	}
	in := tc{version: "1.0.0rc3"}.inputs(t)
	in.Backend = Field[PyStr]{Value: Str("DEFAULT"), Origin: Origin{Kind: OriginPreset}}
	for _, s := range Resolve(in).Steps {
		if s.ID == StepValidate && strings.Contains(s.Reason, "ignored") {
			t.Errorf("xcvr's default backend is called ignored: %q", s.Reason)
		}
	}
}

// TestCutsFromDocsBuilds: the releases whose cut is the main commit their docs
// build was generated from (the footer of their pages on NVIDIA/TensorRT-LLM's
// gh-pages branch, dated by main's git log or a weekly change report of
// main's commits), and the dated changes those days put on each side.
func TestCutsFromDocsBuilds(t *testing.T) {
	for _, c := range []struct{ version, cut string }{
		{"1.0.0rc0", "2025-06-21"}, // ebadc13086
		{"1.0.0rc2", "2025-07-06"}, // 66f299a205
		{"1.1.0rc1", "2025-08-19"}, // 7334f9390c
		{"1.1.0rc2", "2025-08-29"}, // 15ec2b855d
		{"1.2.0rc5", "2025-12-07"}, // e4c707845f
		{"1.2.0rc6", "2025-12-15"}, // 9ba14263db
		{"1.2.0rc7", "2026-01-04"}, // a65b0d4efa
		{"1.2.0rc8", "2026-01-11"}, // 80649a8b78
		{"1.3.0rc0", "2026-01-18"}, // 0af1a0e478
		{"1.3.0rc1", "2026-01-25"}, // 45d7022cc3
		{"1.3.0rc5", "2026-02-22"}, // 630fccb3ca
		{"1.3.0rc12", "2026-04-16"},
		{"1.3.0rc13", "2026-04-26"},
		{"1.3.0rc15", "2026-05-20"}, // c72d43d896
		{"1.3.0rc16", "2026-05-25"}, // 4517988cb3
		{"1.3.0rc17", "2026-06-01"}, // a422420db9
		{"1.3.0rc24", "2026-08-09"}, // 1cef02e901
		{"1.3.0rc25", "2026-08-27"}, // 785c948197
		{"1.3.0rc26", "2026-09-04"}, // c295dd9fca
		{"1.3.0rc27", "2026-09-14"}, // 6e1cc953c0
		{"1.3.0rc28", "2026-09-21"}, // fca831eac3
		{"1.3.0rc29", "2026-09-24"}, // c76f4a8564
	} {
		v := Must(ParseVersion(c.version))
		if v.Main.String() != c.cut || v.Confidence != Derived {
			t.Errorf("%s: main %s (%s), want %s (derived)", c.version, v.Main, v.Confidence, c.cut)
		}
	}
	for _, c := range []struct {
		version string
		change  Day
		has     bool
	}{
		{"1.2.0rc6", dayMooncake, false}, // #8309, 12-19
		{"1.2.0rc6.post4", dayMooncake, false},
		{"1.2.0rc7", dayMooncake, true},
		{"1.3.0rc24", 20260806, true},  // #17269
		{"1.3.0rc24", day17137, false}, // placed 08-10
		{"1.3.0rc25", day18134, false}, // 08-28
		{"1.3.0rc26", day15727, true},  // e34a4ff974, 09-02
		{"1.3.0rc26", day17899, false}, // c3c207a190, 09-05
		{"1.3.0rc27", day17899, true},
		{"1.3.0rc27", 20260915, false},       // #19004 and #19140
		{"1.3.0rc27", dayAgentBounce, false}, // #15780, 4bee19ab76 of 09-16
		{"1.3.0rc28", dayAgentBounce, true},
		{"1.3.0rc29", day17495, false},
	} {
		if got := Must(ParseVersion(c.version)).Has(c.change); got != c.has {
			t.Errorf("%s has the change of %s: %v, want %v", c.version, c.change, got, c.has)
		}
	}
	// #17899 moved create_kv_cache_transceiver the day after 1.3.0rc26's cut.
	for version, file := range map[string]string{"1.3.0rc26": fileOldCreate, "1.3.0rc27": fileNewCreate} {
		tr := Resolve(tc{version: version, backend: "NIXL", runtime: "PYTHON"}.inputs(t))
		if s := stepOf(tr, StepTransceiver); s.Source.File != file {
			t.Errorf("%s: the transceiver step cites %q, want %q", version, s.Source.File, file)
		}
	}
}

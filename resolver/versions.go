package resolver

import (
	"errors"
	"strconv"
	"strings"
	"time"
)

// Day is a UTC calendar day written as the number yyyymmdd, so days compare with <.
type Day int32

// ParseDay reads "YYYY-MM-DD".
func ParseDay(s string) (Day, error) {
	t, err := time.Parse("2006-01-02", s)
	if err != nil {
		return 0, errors.New("not a date of the form YYYY-MM-DD: " + strconv.Quote(s))
	}
	return Day(t.Year()*10000 + int(t.Month())*100 + t.Day()), nil
}

// String renders the day as YYYY-MM-DD.
func (d Day) String() string {
	if d == 0 {
		return ""
	}
	var tmp [16]byte
	return string(d.append(tmp[:0]))
}

// append writes the day as YYYY-MM-DD.
func (d Day) append(b []byte) []byte {
	y, m, dd := int(d)/10000, int(d)/100%100, int(d)%100
	b = strconv.AppendInt(b, int64(y), 10)
	return append(b, '-', byte('0'+m/10), byte('0'+m%10), '-', byte('0'+dd/10), byte('0'+dd%10))
}

// Change is an upstream pull request that changed the resolution, with the UTC day
// it was merged into main.
type Change struct {
	PR         int
	Merged     Day
	Confidence Confidence // of the merge day
	Summary    string
}

// The changes the resolver branches on. Merge days come from the spec's timeline;
// where the spec marks a day [U], the constant's Change entry says inferred.
const (
	dayFieldExists Day = 20260317 // transceiver_runtime field [D: the release notes of 1.3.0rc8 (published 2026-03-17 19:43 UTC) add the Python cache transceiver; rc7's (03-10) do not]
	// dayPyTransceiverV2: create_kv_cache_transceiver builds KvCacheTransceiverV2
	// (_torch/disaggregation/transceiver.py) for 'PYTHON'; before it,
	// PyNativeCacheTransceiver (_torch/disaggregation/native/py_cache_transceiver.py),
	// logging "Using PyNativeCacheTransceiver" and keeping kv_transfer_timeout_ms
	// without dividing it at init [V: bdubayah/TensorRT-LLM@aa0117b5
	// kv_cache_transceiver.py (the PYTHON branch) and native/py_cache_transceiver.py
	// (__init__), whose llm_args.py at the same commit is era 0's first form:
	// transceiver_runtime Optional[Literal["CPP", "PYTHON"]] default None,
	// kv_transfer_timeout_ms default None, i.e. main about 2026-03-17..20].
	// [U: the switch is taken to be PR #12342 "[TRTLLM-9523][chore] PyTransceiver
	// code consolidation" (opened 2026-03-19; "Streamlined worker configuration",
	// and the first stored KvCacheTransceiverV2 builds its worker from a
	// TransferWorkerConfig the native class does not use), which the v1.3.0rc10
	// release notes (published 2026-03-31) list as new, so merged after rc9's
	// cut (03-24): placed 03-27. Against it: PRs #12599/#12602 (about 03-30)
	// still build on the native class, on branches based earlier. By 2026-04-09
	// V2 is on main (PR #12882 changes it). So rc8 and rc9 build the native
	// class, rc10 on V2; rc10 is the release this placement decides.]
	dayPyTransceiverV2 Day = 20260327
	day16164           Day = 20260716 // auto + model hook (era 1)
	day16479           Day = 20260720 // GPT-OSS prefers PYTHON
	day17137           Day = 20260810 // explicit V2 null-timeout error [U day]
	day17480           Day = 20260817 // Kimi K3 rejects non-Python routes [D: weekly change report 08-10→08-17, commit 55be7e53d3]
	day18134           Day = 20260828 // PYTHON by default for auto (era 2)
	day15727           Day = 20260902 // enable_pipelined_transfer
	day17899           Day = 20260905 // file moves to _torch/disaggregation
	day17495           Day = 20261020 // default becomes 'PYTHON' (era 3) [U day]

	// KV-cache manager and issue-9 changes.
	// day10659: kv_cache_config.use_kv_cache_manager_v2 becomes a field (a
	// plain bool, default False) with the V2 manager [D: main's git log as a
	// stored commit listing, row 689: 0306c0f12c "[TRTLLM-9766][feat]
	// Integration of the KVCacheManager V2 to TRTLLM Runtime (#10659)" of
	// 2026-02-02, between the bumps to 1.3.0rc2 (01-27, #11021) and rc3
	// (02-03, #11238)]. Before it KvCacheConfig, a StrictBaseModel, refuses
	// the key as an extra input.
	day10659       Day = 20260202
	day15823       Day = 20260713 // use_kv_cache_manager_v2 'auto' from model defaults [D: weekly change report 07-06→07-13, commit c883622b6b]
	day16060       Day = 20260811 // get_preferred_kv_cache_manager_version hook + disagg V1 demotion [D: weekly change report 08-10→08-17, commit bfc4966e4c]
	day16832       Day = 20260729 // fabric memory default for PYTHON + C++ V1 manager [D: weekly change report 07-27→08-03, commit 097cbc102b]
	dayHybridV2    Day = day18134 // hybrid Mamba V2 routed by use_kv_cache_manager_v2 [U day: era-2 wording]
	dayAgentBounce Day = 20260916 // agent_bounce_* fields: PR #15780 [D: merged 2026-09-16 as 4bee19ab76 (weekly change report 09-14→09-21); absent in docs 1.3.0rc27 (09-14), in 1.3.0rc28's and rc29's llm_args.py (verified)]
	dayBounceNoop  Day = 20261111 // agent_bounce_buffer_enable a deprecated no-op [U day: docs 1.4.0rc4]
)

// Changes lists the upstream changes xcvr models, oldest first.
func Changes() []Change {
	return []Change{
		{5234, dayConfigKnobs, Derived, "cache_transceiver_config.backend becomes the switch (new in the 1.0.0rc4 notes); before it a truthy TRTLLM_USE_*_KVCACHE alone turned the C++ transceiver on; a worker without one refuses disaggregated requests; DEFAULT takes the first non-empty TRTLLM_USE_UCX/NIXL/MPI_KVCACHE, else UCX, without a warning"},
		{6085, day6085, Derived, "the UCX INFO hint is logged"},
		{6323, dayUpperCase, Derived, "backend names upper-case only (DEFAULT, UCX, NIXL, MPI); lower-case ones fail validation"},
		{0, daySelectorsExact, Inferred, "DEFAULT's selectors count only when exactly '1' and warn (NIXL, then MPI; UCX otherwise)"},
		{8459, dayTimeoutField, Derived, "kv_transfer_timeout_ms becomes a field (default None)"},
		{7926, dayNIXLDefault, Derived, "DEFAULT resolves to NIXL instead of UCX"},
		{9155, daySenderFuture, Derived, "kv_transfer_sender_future_timeout_ms becomes a field (default 1000)"},
		{8309, dayMooncake, Derived, "MOONCAKE backend and TRTLLM_USE_MOONCAKE_KVCACHE; selector order NIXL > UCX > MOONCAKE > MPI"},
		{10659, day10659, Derived, "kv_cache_config.use_kv_cache_manager_v2 becomes a field (a plain bool, default False) and the KV-cache manager V2 exists; before, the key is an extra input"},
		{0, dayFieldExists, Derived, "transceiver_runtime field exists, 'PYTHON' building PyNativeCacheTransceiver (era 0; the Python cache transceiver is new in the 1.3.0rc8 notes)"},
		{12249, dayTimeoutDefault, Derived, "kv_transfer_timeout_ms defaults to 60000 (was None; new in the 1.3.0rc9 notes)"},
		{12342, dayPyTransceiverV2, Inferred, "'PYTHON' builds KvCacheTransceiverV2 (logging 'Using KvCacheTransceiverV2'; a null kv_transfer_timeout_ms now fails its init) instead of PyNativeCacheTransceiver"},
		{15356, dayPollInterval, Inferred, "kv_transfer_poll_interval_ms becomes a field (default 5000)"},
		{15618, dayBounceSize, Derived, "kv_cache_bounce_size_mb becomes a field (default 0: no bounce buffer)"},
		{15823, day15823, Derived, "use_kv_cache_manager_v2 defaults to 'auto', resolved from the model defaults (KV-cache manager V2 opt-in)"},
		{16164, day16164, Verified, "'auto' becomes the default; model hook get_preferred_transceiver_runtime(); PYTHON preference only on NIXL (era 1)"},
		{16479, day16479, Verified, "GPT-OSS prefers PYTHON"},
		{16482, 20260721, Verified, "Kimi-K2.5 prefers PYTHON"},
		{16524, 20260723, Verified, "GLM-5 checkpoints on the shared DeepSeek class prefer PYTHON"},
		{16832, day16832, Derived, "a Python transceiver with the C++ V1 KV-cache manager turns on TRTLLM_KVCACHE_POOL_USE_FABRIC_MEMORY"},
		{16908, 20260803, Verified, "DeepSeek V3/R1/V3.2 (and Kimi-K2) prefer PYTHON"},
		{17269, 20260806, Verified, "Kimi K3 (KimiLinear) support, prefers PYTHON"},
		{17137, day17137, Inferred, "KvCacheTransceiverV2 raises an explicit error for a null kv_transfer_timeout_ms"},
		{17480, day17480, Derived, "Kimi K3 rejects non-Python transceiver routes"},
		{16060, day16060, Derived, "get_preferred_kv_cache_manager_version() hook; V2 falls back to V1 off PYTHON-on-NIXL in disaggregated serving"},
		{16787, 20260811, Verified, "LlamaForCausalLM and Gemma3ForCausalLM prefer PYTHON"},
		{17396, 20260818, Verified, "Gemma3/Gemma4 prefer KV manager V2 and PYTHON"},
		{18134, day18134, Verified, "'auto' without a preference selects PYTHON, falling back to C++ only for non-NIXL or a null timeout (era 2)"},
		{15727, day15727, Verified, "enable_pipelined_transfer; a leftover None runtime switches to PYTHON on NIXL"},
		{17899, day17899, Verified, "create_kv_cache_transceiver moves to _torch/disaggregation"},
		{19140, 20260915, Derived, "Nemotron VL family on KV manager V2 / PYTHON"},
		{19004, 20260915, Verified, "Llama4ForConditionalGeneration prefers PYTHON"},
		{15780, dayAgentBounce, Derived, "agent_bounce_buffer_enable and agent_bounce_params become cache_transceiver_config fields, with validate_bounce_config"},
		{17495, day17495, Inferred, "transceiver_runtime defaults to 'PYTHON'; C++ transceiver deprecated (era 3, 1.4)"},
	}
}

// Era numbers the four rule sets of the spec.
func eraOf(d Day) int {
	switch {
	case d < day16164:
		return 0
	case d < day18134:
		return 1
	case d < day17495:
		return 2
	default:
		return 3
	}
}

// EraSummary describes an era in one line.
func EraSummary(era int) string {
	switch era {
	case 0:
		return "era 0: no 'auto'; unset means None, the C++ transceiver"
	case 1:
		return "era 1 (#16164): 'auto' by default; a model's PYTHON preference is used only on NIXL"
	case 2:
		return "era 2 (#18134): 'auto' picks PYTHON unless the backend is not NIXL or the timeout is null"
	default:
		return "era 3 (#17495, 1.4): transceiver_runtime defaults to 'PYTHON'; C++ is deprecated"
	}
}

// Version is a TensorRT-LLM build: a release tag or main at the end of a UTC day.
// Every rule is decided by Main, the day of main the build corresponds to.
type Version struct {
	// Name is the canonical spelling: "1.3.0rc22" or "main@2026-08-20".
	Name string
	// Main is the main-branch day the build corresponds to (a release's cut day).
	Main Day
	// Era is 0..3.
	Era int
	// Release is true for a release tag, false for main@DATE.
	Release bool
	// Published is the release's publication day, 0 when not established.
	Published Day
	// Confidence says how sure xcvr is of Main for a release.
	Confidence Confidence
	// Evidence says where Main comes from.
	Evidence string

	// Placement, when set, says that the version is not one xcvr lists and whose
	// rules answer it, in a sentence for stderr ("xcvr's rules end at 1.4.0rc4;
	// 1.4.0rc9 is answered with them; pass --install to read yours").
	Placement string

	// Rules, when set, are the build's rules: an installed tree's
	// (InstallVersion), or a release's made once by a caller that resolves many
	// inputs (v.Rules = ReleaseRules(v)); nil means ReleaseRules(v) per
	// resolution.
	Rules *Rules
	// Install, when set, is what was read from the installed tree the Rules
	// come from (its path, version line and fingerprints).
	Install *Install

	// summary caches the version step's reason; it depends only on the version.
	summary string
}

// withSummary fills the cached version-step reason.
func (v Version) withSummary() Version {
	if v.Release {
		v.summary = v.Name + " behaves like main at " + v.Main.String() + ": " + rulesSummary(v.Main, v.Era)
	} else {
		v.summary = "main at the end of " + v.Main.String() + " UTC: " + rulesSummary(v.Main, v.Era)
	}
	return v
}

// Summary says which main day and rule set the version follows.
func (v Version) Summary() string {
	if v.summary != "" {
		return v.summary
	}
	return v.withSummary().summary
}

// Has reports whether the build contains the change merged on day d.
func (v Version) Has(d Day) bool { return v.has(d) }

// has is Has without copying the Version, for the resolver's many checks.
func (v *Version) has(d Day) bool {
	if v.Rules != nil {
		return v.Rules.Has(d)
	}
	return v.Main >= d
}

// KnownVersions lists the release tags xcvr knows, oldest first (see
// releases.go for the table and its evidence). Each release behaves like main at
// its cut day; where the cut day could not be established from public material,
// the entry says inferred and why.
func KnownVersions() []Version {
	rt := releaseTable()
	out := make([]Version, len(rt))
	for i, r := range rt {
		out[i] = r.version()
	}
	return out
}

// DefaultVersionName is the newest known release, xcvr's default.
const DefaultVersionName = "1.4.0rc4"

// ParseVersion reads a release tag ("1.3.0rc22", "v1.3.0rc22"), any version of
// the form X.Y.Z[rcN][.postN][.devYYYYMMDDNN] from 1.0 on, or "main@YYYY-MM-DD".
// A version xcvr does not list is placed between the releases it does (see
// PlaceVersion); its Placement says so. 0.x and malformed versions are errors.
func ParseVersion(s string) (Version, error) {
	name := strings.TrimSpace(s)
	if rest, ok := strings.CutPrefix(strings.ToLower(name), "main@"); ok {
		d, err := ParseDay(rest)
		if err != nil {
			return Version{}, errors.New("version " + strconv.Quote(s) + ": " + err.Error())
		}
		return mainVersion(s, d)
	}
	return PlaceVersion(name)
}

// mainVersion is main at the end of day d, from the first day xcvr models.
func mainVersion(s string, d Day) (Version, error) {
	rt := releaseTable()
	first := rt[0].main
	if d < first {
		return Version{}, errors.New("version " + strconv.Quote(s) + " predates the oldest release xcvr models (" +
			rt[0].name + ", main@" + first.String() + "); xcvr models main@" + first.String() + " and later")
	}
	conf := Derived
	if d > rt[len(rt)-1].main {
		conf = Inferred
	}
	return Version{Name: "main@" + d.String(), Main: d, Era: eraOf(d), Confidence: conf,
		Evidence: "main at the end of " + d.String() + " UTC"}.withSummary(), nil
}

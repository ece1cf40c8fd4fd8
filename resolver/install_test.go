package resolver

import (
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// era2Install is what a scan of an era-2 tree reports, written by hand: the
// resolver takes it as data.
func era2Install(version string) *Install {
	const utils = "tensorrt_llm/llmapi/llm_utils.py"
	return &Install{
		Path: "/site/tensorrt_llm", Version: version, VersionEvidence: "tensorrt_llm/version.py:2",
		Era: 2, EraEvidence: utils + ":6",
		Features: map[string]InstallFact{
			FeatureAutoResolver:           {true, utils + ":22"},
			FeaturePipelined:              {true, "tensorrt_llm/llmapi/llm_args.py:42"},
			FeatureCreateInDisagg:         {true, "tensorrt_llm/_torch/disaggregation/kv_cache_transceiver.py:8"},
			FeatureResolveInConfigU:       {true, "tensorrt_llm/_torch/pyexecutor/config_utils.py:4"},
			"transceiver_runtime_default": {true, "tensorrt_llm/llmapi/llm_args.py:18"},
		},
		Texts: map[string]InstallText{
			TextPythonNIXLEarly: {Evidence: "tensorrt_llm/_torch/pyexecutor/config_utils.py:39", Parts: []TextPart{
				{Lit: "The Python transceiver needs NIXL, not "}, {Field: true, Repr: true}, {Lit: "."}}},
			TextResolvedAuto: {Evidence: utils + ":54", Parts: []TextPart{
				{Lit: "transceiver_runtime 'auto' -> "}, {Field: true}, {Lit: " ("}, {Field: true}, {Lit: ")"}}},
		},
		Models: map[string]InstallModel{"GptOssForCausalLM": {Class: "GptOssForCausalLM",
			Evidence: "tensorrt_llm/_torch/models/modeling_gpt_oss.py:8", HookEvidence: "tensorrt_llm/_torch/models/modeling_gpt_oss.py:20",
			Preference: Str("PYTHON")},
			// tc's default model: registered, with no hook.
			"MistralForCausalLM": {Class: "MistralForCausalLM", Evidence: "tensorrt_llm/_torch/models/modeling_mistral.py:5"}},
	}
}

func TestInstallVersion(t *testing.T) {
	cases := []struct {
		version string
		main    string
		conf    Confidence
		summary string
	}{
		{"1.3.0rc22", "2026-07-21", Derived, "install: tensorrt_llm/llmapi/llm_utils.py:6"},
		{"v1.3.0rc26", "2026-09-04", Derived, "1.3.0rc26 behaves like main at 2026-09-04"},
		{"1.5.0rc1.dev2026112500", "2026-11-25", Inferred, "not a release xcvr knows"},
		{"1.4.0rc5+local.abc", "2026-11-11", Inferred, "not a release xcvr knows"},
		{"1.5.0rc1.dev2026139900", "2026-11-11", Inferred, "not a release xcvr knows"}, // no such day
	}
	for _, c := range cases {
		v := InstallVersion(era2Install(c.version))
		if v.Main.String() != c.main || v.Confidence != c.conf || v.Era != 2 || v.Install == nil ||
			!strings.Contains(v.Summary(), c.summary) || !strings.Contains(v.Evidence, "tensorrt_llm/version.py:2") {
			t.Errorf("%s: main %s conf %s era %d summary %q evidence %q", c.version, v.Main, v.Confidence, v.Era, v.Summary(), v.Evidence)
		}
	}
}

func TestInstallDecides(t *testing.T) {
	// 1.3.0rc22 is era 1 in xcvr's model; this install of it is era 2: the
	// install wins, so a GPT-OSS PYTHON preference is adopted on UCX and fails.
	in := tc{version: "1.3.0rc22", backend: "UCX", pref: "PYTHON"}.inputs(t)
	in.Version = InstallVersion(era2Install("1.3.0rc22"))
	tr := Resolve(in)
	checkWellFormed(t, tr)
	if tr.Result.Outcome != OutcomeError || tr.Result.FailedStep != StepPythonNIXL {
		t.Fatalf("outcome %s at %q", tr.Result.Outcome, tr.Result.FailedStep)
	}
	// The exception takes the install's wording (with its !r field).
	if tr.Result.Error != "ValueError: The Python transceiver needs NIXL, not 'UCX'." {
		t.Errorf("error %q", tr.Result.Error)
	}
	// The resolved-auto log line too: two plain fields in order, the first
	// without !r, so unquoted as Python would print it.
	// (Before #16060, xcvr's day for this version, the KV-cache manager's line
	// comes first.)
	found := false
	for _, l := range tr.Logs {
		found = found || l.Message == "transceiver_runtime 'auto' -> PYTHON (GptOssForCausalLM)"
	}
	if !found {
		t.Errorf("logs %+v", tr.Logs)
	}
	want := map[string]string{
		StepVersion:    "install tensorrt_llm/version.py:2",
		StepRuntime:    "install tensorrt_llm/llmapi/llm_args.py:18",
		StepAuto:       "install tensorrt_llm/llmapi/llm_utils.py:22",
		StepPythonNIXL: "install tensorrt_llm/_torch/pyexecutor/config_utils.py:39",
	}
	for id, src := range want {
		s, _ := tr.Step(id)
		if s.Source.String() != src || s.Confidence != VerifiedInstall {
			t.Errorf("%s: source %q confidence %q, want %q verified (install)", id, s.Source, s.Confidence, src)
		}
	}
	// Steps the install says nothing about keep xcvr's own source.
	if s, _ := tr.Step(StepDisagg); s.Source.Install != "" || s.Confidence == VerifiedInstall {
		t.Errorf("disagg step claims the install: %+v", s)
	}
	// Not reached steps are not credited to the install.
	if s, _ := tr.Step(StepTransceiver); s.Confidence == VerifiedInstall {
		t.Errorf("a step not reached claims the install: %+v", s)
	}
}

func TestInstallFeatureOverridesDate(t *testing.T) {
	// Main is after #15727, but the install has no enable_pipelined_transfer: the
	// field is refused as TensorRT-LLM would, whatever the date says.
	in := tc{version: "1.3.0rc27", backend: "NIXL", pipe: "true"}.inputs(t)
	inst := era2Install("1.3.0rc27")
	inst.Features[FeaturePipelined] = InstallFact{false, "tensorrt_llm/llmapi/llm_args.py:11"}
	in.Version = InstallVersion(inst)
	if in.Version.Has(day15727) {
		t.Fatal("Has(#15727) true against the install")
	}
	tr := Resolve(in)
	if tr.Result.FailedStep != StepValidate || !strings.Contains(tr.Result.Error, "enable_pipelined_transfer\n  Extra inputs are not permitted") {
		t.Fatalf("failed at %q: %q", tr.Result.FailedStep, tr.Result.Error)
	}
	// Without the install the same version accepts it.
	in2 := tc{version: "1.3.0rc27", backend: "NIXL", pipe: "true"}.inputs(t)
	if tr2 := Resolve(in2); tr2.Result.FailedStep == StepValidate {
		t.Fatalf("built-in rc27 refuses the field: %q", tr2.Result.Error)
	}
}

func TestInstallTextsNeedMatchingFields(t *testing.T) {
	inst := era2Install("1.3.0rc27")
	// An install text with more fields than the message has values is not used.
	inst.Texts[TextUsingV2] = InstallText{Evidence: "f.py:1", Parts: []TextPart{{Lit: "Using "}, {Field: true}}}
	// A plain field where xcvr's own wording is plain too.
	inst.Texts[TextFallbackReason] = InstallText{Evidence: "u.py:9", Parts: []TextPart{{Lit: "C++ because "}, {Field: true}, {Lit: "!"}}}
	rs := InstallVersion(inst).Rules
	if got := rs.text(TextUsingV2); got.Template != "Using KvCacheTransceiverV2" || got.Evidence.read() {
		t.Errorf("using-v2 is %q (%s)", got.Template, got.Evidence.Source)
	}
	in := tc{version: "1.3.0rc27", backend: "UCX"}.inputs(t)
	in.Version = InstallVersion(inst)
	tr := Resolve(in)
	found := false
	for _, l := range tr.Logs {
		found = found || l.Message == "C++ because backend 'UCX' (the Python transceiver requires NIXL)!"
	}
	if !found {
		t.Errorf("logs %+v", tr.Logs)
	}
}

func TestTemplatePartsRoundTrip(t *testing.T) {
	for _, v := range KnownVersions() {
		for _, id := range TextIDs() {
			tx := ReleaseRules(v).Text(id)
			if got := RenderParts(TemplateParts(tx.Template)); got != tx.Template {
				t.Errorf("%s %s: %q -> %q", v.Name, tx.ID, tx.Template, got)
			}
		}
	}
}

func TestEra3RuntimeStepNeedsTheEarlyReturn(t *testing.T) {
	// 1.4's default 'PYTHON' skips the hook only if the auto resolver returns
	// for every value but 'auto'; without that line in the install the step
	// stays inferred.
	inst := era2Install("1.4.0rc1")
	inst.Era = 3
	in := tc{version: "1.4.0rc1", backend: "NIXL"}.inputs(t)
	in.Version = InstallVersion(inst)
	if s, _ := Resolve(in).Step(StepRuntime); s.Confidence != Inferred {
		t.Fatalf("runtime step %q from %q without the early return", s.Confidence, s.Source)
	}
	inst.Features["auto_returns_unless_auto"] = InstallFact{true, "tensorrt_llm/llmapi/llm_utils.py:32"}
	in.Version = InstallVersion(inst)
	if s, _ := Resolve(in).Step(StepRuntime); s.Confidence != VerifiedInstall || s.Source.Install != "tensorrt_llm/llmapi/llm_args.py:18" {
		t.Fatalf("runtime step %q from %q with it", s.Confidence, s.Source)
	}
}

// TestBuiltinTextsMatchTheResolver keeps the rules' texts in step with the
// messages Resolve prints: every template of the versions below must be printed
// by some resolution, or the rule is dead (and an install's wording of it could
// never show).
func TestBuiltinTextsMatchTheResolver(t *testing.T) {
	cases := []tc{
		{version: "1.3.0rc20", backend: "UCX", runtime: "PYTHON"},
		{version: "1.3.0rc22", backend: "UCX", pref: "PYTHON"},
		{version: "1.3.0rc22", backend: "MPI", runtime: "PYTHON"},
		{version: "1.3.0rc27", backend: "UCX", runtime: "PYTHON"},
		{version: "1.3.0rc27", backend: "UCX"},
		{version: "1.3.0rc27", backend: "NIXL", timeout: "null"},
		{version: "1.3.0rc27", backend: "NIXL", timeout: "null", runtime: "PYTHON"},
		{version: "1.3.0rc27", backend: "UCX", pipe: "true", runtime: "null"},
		{version: "1.3.0rc27", backend: "NIXL", pipe: "true", runtime: "null"},
		{version: "1.3.0rc27", backend: "NIXL", pipe: "true", runtime: "CPP"},
		{version: "1.3.0rc27", backend: "NIXL", pref: "Python"},
		{version: "1.3.0rc27", backend: "DEFAULT", env: map[string]string{"TRTLLM_USE_UCX_KVCACHE": "1"}, runtime: "CPP"},
		{version: "1.3.0rc27"},
		{version: "1.3.0rc27", backend: "NIXL", env: map[string]string{EnvInflightCancel: "1"}},
		{version: "1.3.0rc27", backend: "DEFAULT", runtime: "CPP", env: map[string]string{EnvInflightCancel: "1", "TRTLLM_USE_UCX_KVCACHE": "1", "TRTLLM_USE_NIXL_KVCACHE": "1"}},
	}
	hybrid := ModelInfo{Arch: "NemotronHForCausalLM", Known: true, Class: "NemotronHForCausalLM", Preference: Str("PYTHON"),
		KVPreference: Str("V2"), Cache: CacheMambaHybrid}
	kimi := ModelInfo{Arch: "KimiLinearForCausalLM", Known: true, Class: "KimiLinearForCausalLM", Preference: Str("PYTHON"), RequiresPython: true, Cache: CacheKimiLinear}
	reuseOff := Static{BlockReuse: Field[bool]{false, fileAt("7")}}
	reuseOn := Static{BlockReuse: Field[bool]{true, fileAt("7")}}
	kvCases := []kvc{
		{version: "1.3.0rc27", backend: "UCX", runtime: "PYTHON", model: kimi},
		{version: "1.3.0rc27", backend: "NIXL", runtime: "CPP", model: hybrid, static: reuseOff, env: map[string]string{"TRTLLM_USE_PY_MAMBA": "1"}},
		{version: "main@2026-08-20", backend: "NIXL", runtime: "CPP", model: hybrid, static: reuseOff, env: map[string]string{"TLLM_MAMBA_MANAGER_PREFERENCE": "mixed"}},
		{version: "main@2026-08-20", backend: "NIXL", runtime: "CPP", kv: KVV2, model: hybrid},
		{version: "main@2026-08-20", backend: "NIXL", model: hybrid},
		{version: "1.3.0rc27", backend: "NIXL", model: kimi, static: reuseOn},
		{version: "1.3.0rc27", backend: "NIXL", model: hybrid, env: map[string]string{"TRTLLM_USE_PY_MAMBA": "1"}},
		{version: "1.3.0rc27", backend: "NIXL", runtime: "CPP", kv: KVV2, model: hybrid},
		{version: "1.3.0rc27", backend: "NIXL", kv: KVV1, model: hybrid},
		{version: "1.4.0rc4", backend: "NIXL", kv: KVV2, model: hybrid, env: map[string]string{"TLLM_MAMBA_MANAGER_PREFERENCE": "mixed"}},
		{version: "1.4.0rc4", backend: "NIXL", runtime: "PYTHON", kv: KVV2, model: hybrid, env: map[string]string{"TLLM_MAMBA_MANAGER_PREFERENCE": "v2"}},
		{version: "1.4.0rc4", backend: "NIXL", kv: KVV1, model: hybrid, static: reuseOff},
		{version: "main@2026-08-20", backend: "NIXL", runtime: "PYTHON", model: hybrid, static: reuseOff},
		{version: "main@2026-08-20", backend: "NIXL", runtime: "CPP", model: hybrid, static: reuseOff, env: map[string]string{"TLLM_MAMBA_MANAGER_PREFERENCE": "cpp"}},
		{version: "main@2026-08-20", backend: "NIXL", runtime: "CPP", model: hybrid, static: reuseOff, env: map[string]string{"TLLM_MAMBA_MANAGER_PREFERENCE": "bogus"}},
		{version: "1.4.0rc1", backend: "NIXL", pipe: true, static: Static{ChunkedPrefill: Field[bool]{true, fileAt("3")}, CP: Field[int64]{2, fileAt("5")}}},
	}
	ins := []Inputs{}
	for _, c := range cases {
		ins = append(ins, c.inputs(t))
	}
	for _, c := range kvCases {
		ins = append(ins, c.inputs(t))
	}
	// matches reports whether msg is the template with its fields filled: its
	// literal parts, in order, with the first at the start.
	matches := func(tmpl, msg string) bool {
		for i, p := range TemplateParts(tmpl) {
			if p.Field {
				continue
			}
			j := strings.Index(msg, p.Lit)
			if j < 0 || (i == 0 && j != 0) {
				return false
			}
			msg = msg[j+len(p.Lit):]
		}
		return true
	}
	matched := map[string]bool{}
	all := map[string]string{}
	for _, in := range ins {
		tr := Resolve(in)
		msgs := []string{}
		for _, l := range tr.Logs {
			msgs = append(msgs, l.Message)
		}
		if _, m, ok := strings.Cut(tr.Result.Error, ": "); ok {
			msgs = append(msgs, m)
		}
		for _, id := range TextIDs() {
			tx := ReleaseRules(in.Version).Text(id)
			all[tx.Template] = tx.ID
			for _, msg := range msgs {
				if matches(tx.Template, msg) {
					matched[tx.Template] = true
				}
			}
		}
	}
	for tmpl, id := range all {
		if !matched[tmpl] {
			t.Errorf("no resolution prints %s: %q", id, tmpl)
		}
	}
}

func TestInferredTextStaysInferred(t *testing.T) {
	// An install without the finite-timeout check: KvCacheTransceiverV2 fails
	// with the TypeError xcvr infers; the step names the install's file but
	// keeps its inferred mark.
	inst := era2Install("1.3.0rc27")
	inst.Features[FeatureV2TimeoutError] = InstallFact{false, "tensorrt_llm/_torch/disaggregation/transceiver.py"}
	in := tc{version: "1.3.0rc27", backend: "NIXL", timeout: "null", runtime: "PYTHON"}.inputs(t)
	in.Version = InstallVersion(inst)
	tr := Resolve(in)
	s, _ := tr.Step(StepTransceiver)
	if !strings.HasPrefix(tr.Result.Error, "TypeError") || s.Confidence != Inferred {
		t.Fatalf("error %q, step %+v", tr.Result.Error, s)
	}
}

func TestInstallBackendOrder(t *testing.T) {
	// An install whose selector table puts MPI first and UCX before NIXL: with
	// backend DEFAULT its order decides, and the backend step names the table.
	const table = "tensorrt_llm/llmapi/llm_args.py:9"
	swapped := []BackendSelector{{EnvUseMPI, "MPI"}, {EnvUseUCX, "UCX"}, {EnvUseNIXL, "NIXL"}, {EnvUseMooncake, "MOONCAKE"}}
	cases := []struct {
		env        map[string]string
		order      []BackendSelector // nil: xcvr's own
		want, src  string
		reasonHas  string
		installSrc bool
	}{
		{map[string]string{EnvUseNIXL: "1", EnvUseUCX: "1"}, nil, "NIXL", EnvUseNIXL, "TRTLLM_USE_UCX_KVCACHE=1 is ignored (lower priority)", false},
		{map[string]string{EnvUseNIXL: "1", EnvUseUCX: "1"}, swapped, "UCX", EnvUseUCX, "TRTLLM_USE_NIXL_KVCACHE=1 is ignored (lower priority)", true},
		{map[string]string{EnvUseNIXL: "1", EnvUseMPI: "1", EnvUseUCX: "1"}, swapped, "MPI", EnvUseMPI, "DEFAULT -> MPI: TRTLLM_USE_MPI_KVCACHE is exactly '1'", true},
		{map[string]string{EnvUseMooncake: "1", EnvUseNIXL: "1"}, swapped, "NIXL", EnvUseNIXL, "TRTLLM_USE_MOONCAKE_KVCACHE=1 is ignored (lower priority)", true},
		{map[string]string{EnvUseMooncake: "1", EnvUseNIXL: "1"}, nil, "NIXL", EnvUseNIXL, "TRTLLM_USE_MOONCAKE_KVCACHE=1 is ignored", false},
		// A table without a selector leaves that variable without effect.
		{map[string]string{EnvUseMooncake: "1"}, swapped[:3], "NIXL", "NIXL default", "TRTLLM_USE_MOONCAKE_KVCACHE is not a selector in the install's table", true},
		{map[string]string{}, swapped, "NIXL", "NIXL default", "DEFAULT -> NIXL", true},
	}
	for i, c := range cases {
		inst := era2Install("1.3.0rc27")
		if c.order != nil {
			inst.BackendOrder = c.order
			inst.Features["backend_env_priority"] = InstallFact{true, table}
		}
		in := tc{version: "1.3.0rc27", backend: "DEFAULT", runtime: "CPP", env: c.env}.inputs(t)
		in.Version = InstallVersion(inst)
		tr := Resolve(in)
		checkWellFormed(t, tr)
		s, _ := tr.Step(StepBackend)
		if tr.Result.EffectiveBackend.S != c.want || tr.Result.BackendSource != c.src || !strings.Contains(s.Reason, c.reasonHas) {
			t.Errorf("%d: %s from %q, reason %q", i, tr.Result.EffectiveBackend.S, tr.Result.BackendSource, s.Reason)
		}
		if got := s.Source.Install == table && s.Confidence == VerifiedInstall; got != c.installSrc {
			t.Errorf("%d: backend step source %q confidence %q", i, s.Source, s.Confidence)
		}
	}
	// The in-flight-cancel ambiguity lists the selectors in the install's order.
	inst := era2Install("1.3.0rc27")
	inst.BackendOrder = swapped
	in := tc{version: "1.3.0rc27", backend: "DEFAULT", runtime: "CPP", env: map[string]string{EnvInflightCancel: "1", EnvUseNIXL: "1", EnvUseUCX: "1"}}.inputs(t)
	in.Version = InstallVersion(inst)
	if tr := Resolve(in); !strings.Contains(tr.Result.Error, "enabled: ['TRTLLM_USE_UCX_KVCACHE', 'TRTLLM_USE_NIXL_KVCACHE'].") {
		t.Errorf("error %q", tr.Result.Error)
	}
}

// withFields gives an install xcvr's field set for its version, edited.
func withFields(inst *Install, v Version, edit func([]InstallField) []InstallField) *Install {
	var fs []InstallField
	for i, f := range CacheTransceiverFieldsFor(v) {
		fs = append(fs, InstallField{FieldSpec: f, Evidence: "tensorrt_llm/llmapi/llm_args.py:" + strconv.Itoa(20+3*i)})
	}
	inst.Fields = edit(fs)
	inst.FieldsEvidence = "tensorrt_llm/llmapi/llm_args.py:16"
	return inst
}

func TestInstallFieldSet(t *testing.T) {
	file := func(line string) Origin { return Origin{Kind: OriginFile, Detail: "w.yaml:" + line} }
	key := func(k, input, typ, line string) VersionedKey {
		return VersionedKey{Key: k, Input: input, InputType: typ, Origin: file(line)}
	}
	// What the file reader reports for a key xcvr does not know.
	extra := func(k VersionedKey) FieldError {
		return FieldError{Loc: k.Key, Type: "extra_forbidden", Message: "Extra inputs are not permitted", Input: k.Input, InputType: k.InputType, Origin: k.Origin}
	}
	retries := InstallField{FieldSpec: FieldSpec{Name: "kv_transfer_retries", Kind: "int", Bound: "ge"}, Evidence: "tensorrt_llm/llmapi/llm_args.py:60"}
	add := func(f InstallField) func([]InstallField) []InstallField {
		return func(fs []InstallField) []InstallField { return append(fs, f) }
	}
	drop := func(name string) func([]InstallField) []InstallField {
		return func(fs []InstallField) []InstallField {
			return slices.DeleteFunc(fs, func(f InstallField) bool { return f.Name == name })
		}
	}
	set := func(name string, spec FieldSpec) func([]InstallField) []InstallField {
		return func(fs []InstallField) []InstallField {
			for i := range fs {
				if fs[i].Name == name {
					spec.Name = name
					fs[i].FieldSpec = spec
				}
			}
			return fs
		}
	}
	cases := []struct {
		name    string
		edit    func([]InstallField) []InstallField // nil: no field set read
		keys    []VersionedKey
		backend string
		pipe    string
		errIs   string // "" accepted
		conf    Confidence
	}{
		{name: "a field the install has and xcvr does not is accepted",
			edit: add(retries), keys: []VersionedKey{key("kv_transfer_retries", "3", "int", "4")}, conf: VerifiedInstall},
		{name: "and checked by its annotation",
			edit: add(retries), keys: []VersionedKey{key("kv_transfer_retries", "-1", "int", "4")},
			errIs: "cache_transceiver_config.kv_transfer_retries\n  Input should be greater than or equal to 0 [type=greater_than_equal, input_value=-1, input_type=int]"},
		{name: "a string that is no integer",
			edit: add(retries), keys: []VersionedKey{key("kv_transfer_retries", "'three'", "str", "4")},
			errIs: "Input should be a valid integer, unable to parse string as an integer [type=int_parsing, input_value='three', input_type=str]"},
		{name: "without the install's field set, xcvr's model refuses it",
			keys:  []VersionedKey{key("kv_transfer_retries", "3", "int", "4")},
			errIs: "cache_transceiver_config.kv_transfer_retries\n  Extra inputs are not permitted [type=extra_forbidden, input_value=3, input_type=int]"},
		{name: "a field xcvr knows and the install does not is an extra input",
			edit: drop("max_tokens_in_buffer"), keys: []VersionedKey{key("max_tokens_in_buffer", "4096", "int", "5")},
			errIs: "cache_transceiver_config.max_tokens_in_buffer\n  Extra inputs are not permitted [type=extra_forbidden, input_value=4096, input_type=int]"},
		{name: "a stricter bound in the install",
			edit: set("kv_cache_bounce_size_mb", FieldSpec{Kind: "int", Bound: "gt"}), keys: []VersionedKey{key("kv_cache_bounce_size_mb", "0", "int", "6")},
			errIs: "cache_transceiver_config.kv_cache_bounce_size_mb\n  Input should be greater than 0 [type=greater_than, input_value=0, input_type=int]"},
		{name: "the install's Literal choices for backend",
			edit: set("backend", FieldSpec{Kind: "literal", Literals: []string{"DEFAULT", "UCX", "NIXL", "MPI"}, Optional: true}), backend: "MOONCAKE",
			errIs: "cache_transceiver_config.backend\n  Input should be 'DEFAULT', 'UCX', 'NIXL' or 'MPI' [type=literal_error, input_value='MOONCAKE', input_type=str]"},
		{name: "a backend the install adds",
			edit: set("backend", FieldSpec{Kind: "literal", Literals: []string{"DEFAULT", "UCX", "NIXL", "MOONCAKE", "MPI", "NCCL"}, Optional: true}), backend: "NCCL",
			conf: VerifiedInstall},
		{name: "a flag for a field the install lacks",
			edit: drop("enable_pipelined_transfer"), pipe: "true",
			errIs: "cache_transceiver_config.enable_pipelined_transfer\n  Extra inputs are not permitted [type=extra_forbidden, input_value=True, input_type=bool]"},
		{name: "an annotation xcvr cannot read: accepted, inferred",
			edit: add(InstallField{FieldSpec: FieldSpec{Name: "layout"}, Evidence: "tensorrt_llm/llmapi/llm_args.py:70"}),
			keys: []VersionedKey{key("layout", "'A'", "str", "4")}, conf: Inferred},
		{name: "errors in the install's declaration order, extra keys last",
			edit: func(fs []InstallField) []InstallField {
				return append([]InstallField{retries}, drop("max_tokens_in_buffer")(fs)...)
			},
			keys: []VersionedKey{key("max_tokens_in_buffer", "1", "int", "3"), key("bogus", "1", "int", "4"), key("kv_transfer_retries", "-2", "int", "5")},
			errIs: "3 validation errors for TorchLlmArgs\ncache_transceiver_config.kv_transfer_retries\n  Input should be greater than or equal to 0 [type=greater_than_equal, input_value=-2, input_type=int]\n" +
				"cache_transceiver_config.max_tokens_in_buffer\n  Extra inputs are not permitted [type=extra_forbidden, input_value=1, input_type=int]\n" +
				"cache_transceiver_config.bogus\n  Extra inputs are not permitted"},
	}
	for _, c := range cases {
		backend := c.backend
		if backend == "" {
			backend = "NIXL"
		}
		in := tc{version: "1.3.0rc27", backend: backend, runtime: "CPP", pipe: c.pipe}.inputs(t)
		inst := era2Install("1.3.0rc27")
		if c.edit != nil {
			inst = withFields(inst, in.Version, c.edit)
		}
		in.Version = InstallVersion(inst)
		in.ConfigKeys = c.keys
		known := map[string]bool{}
		for _, f := range newestFields() {
			known[f.Name] = true
		}
		for _, k := range c.keys {
			if !known[k.Key] {
				in.ConfigErrors = append(in.ConfigErrors, extra(k))
			}
		}
		tr := Resolve(in)
		checkWellFormed(t, tr)
		s, _ := tr.Step(StepValidate)
		if c.errIs == "" {
			if tr.Result.FailedStep == StepValidate || s.Confidence != c.conf || s.Source.Install != "tensorrt_llm/llmapi/llm_args.py:16" {
				t.Errorf("%s: %q; step %q from %q (%s)", c.name, tr.Result.Error, s.Reason, s.Source, s.Confidence)
			}
			continue
		}
		if tr.Result.FailedStep != StepValidate || !strings.Contains(tr.Result.Error, c.errIs) {
			t.Errorf("%s: failed at %q:\n%s", c.name, tr.Result.FailedStep, tr.Result.Error)
		}
		if c.edit != nil && (s.Source.Install != "tensorrt_llm/llmapi/llm_args.py:16" || s.Confidence != VerifiedInstall) {
			t.Errorf("%s: step from %q (%s)", c.name, s.Source, s.Confidence)
		}
	}
}

// TestStepsCiteTheChangeRule: a step that branches on a dated change takes its
// PR from the change's rule, and, where an install's code settles the change,
// the install's line instead (issue 17 §1: no step writes a PR of its own).
func TestStepsCiteTheChangeRule(t *testing.T) {
	// 1.3.0rc22 has no #15727 in xcvr's model: the pipelined steps skip and
	// cite the PR the change rule carries.
	in := tc{version: "1.3.0rc22", backend: "NIXL", runtime: "PYTHON"}.inputs(t)
	rel := Resolve(in)
	for _, id := range []string{StepPipelined, StepPipelinedStatic} {
		if s := stepOf(rel, id); s.Verdict != Skipped || s.Source.PR != 15727 || s.Source.Install != "" {
			t.Errorf("release %s: %+v", id, s)
		}
	}
	if c := ReleaseRules(in.Version).Change(15727); c.Has || c.PR != 15727 || c.Evidence.read() {
		t.Errorf("release Change(15727) = %+v", c)
	}
	// An install of it whose llm_args.py shows the field absent (line 9):
	// the same skips cite that line, verified from the install.
	inst := era2Install("1.3.0rc22")
	inst.Features[FeaturePipelined] = InstallFact{false, "tensorrt_llm/llmapi/llm_args.py:9"}
	in.Version = InstallVersion(inst)
	tr := Resolve(in)
	checkWellFormed(t, tr)
	if s := stepOf(tr, StepPipelinedStatic); s.Verdict != Skipped || s.Source != (Source{Install: "tensorrt_llm/llmapi/llm_args.py:9"}) || s.Confidence != VerifiedInstall {
		t.Errorf("install pipelined-static: %+v", s)
	}
	if c := in.Version.Rules.Change(15727); c.Has || c.Evidence.Source.Install != "tensorrt_llm/llmapi/llm_args.py:9" {
		t.Errorf("install Change(15727) = %+v", c)
	}
	// The hook is called where the install's auto resolver is: a model the
	// install does not register skips the preference citing that line.
	in = tc{version: "1.3.0rc26", backend: "NIXL", pref: "unknown"}.inputs(t)
	in.Version = InstallVersion(era2Install("1.3.0rc26"))
	if s := stepOf(Resolve(in), StepPreference); s.Source != (Source{Install: "tensorrt_llm/llmapi/llm_utils.py:22"}) || s.Confidence != VerifiedInstall {
		t.Errorf("install preference: %+v", s)
	}
	in.Version = Must(ParseVersion("1.3.0rc26"))
	if s := stepOf(Resolve(in), StepPreference); s.Source != (Source{PR: 16164, File: fileLLMUtils}) {
		t.Errorf("release preference: %+v", s)
	}
}

// TestResolveLooksUpTheModelInTheRules: the resolver takes the model's
// registration and hook result from the rules it applies, whatever the caller
// looked up: an install that registers GPT-OSS with a hook returning 'CPP'
// beats the catalog's 'PYTHON', and an architecture the install does not
// register is the unknown model; Rules.Model applied twice changes nothing.
func TestResolveLooksUpTheModelInTheRules(t *testing.T) {
	inst := era2Install("1.3.0rc26")
	gpt := inst.Models["GptOssForCausalLM"]
	gpt.Preference = Str("CPP")
	inst.Models["GptOssForCausalLM"] = gpt
	in := tc{version: "1.3.0rc26", backend: "NIXL", pref: "PYTHON"}.inputs(t) // the catalog's answer
	in.Version = InstallVersion(inst)
	tr := Resolve(in)
	checkWellFormed(t, tr)
	if tr.Result.ResolvedRuntime != Str("CPP") || stepOf(tr, StepPreference).Source.Install != gpt.HookEvidence {
		t.Errorf("runtime %v, preference %+v", tr.Result.ResolvedRuntime, stepOf(tr, StepPreference))
	}
	in.Model.Value = ModelInfo{Arch: "Qwen3ForCausalLM", Known: true, Class: "Qwen3ForCausalLM"}
	tr = Resolve(in)
	if tr.Result.FailedStep != StepModelRequirement || !strings.Contains(tr.Result.Error, "Unknown architecture for AutoModelForCausalLM: Qwen3ForCausalLM") {
		t.Errorf("unregistered: %s at %s", tr.Result.Error, tr.Result.FailedStep)
	}
	rs := in.Version.Rules
	for _, m := range []ModelInfo{in.Model.Value, {Arch: "GptOssForCausalLM", Known: true, Class: "GptOssForCausalLM", Preference: Str("PYTHON")}} {
		once := rs.Model(m)
		if twice := rs.Model(once); !reflect.DeepEqual(once, twice) {
			t.Errorf("not idempotent: %+v then %+v", once, twice)
		}
	}
}

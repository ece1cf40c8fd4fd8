package deploy

import (
	"xcvr/internal/guard"

	"errors"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"

	"xcvr/internal/inputs"
	"xcvr/models"
	"xcvr/resolver"
)

func readTestdata(t *testing.T, name string) []byte {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	return data
}

func worker(t *testing.T, name string) *Overlay {
	t.Helper()
	ov, err := ReadWorkerConfig(name, readTestdata(t, name))
	if err != nil {
		t.Fatalf("ReadWorkerConfig(%s): %v", name, err)
	}
	return ov
}

// resolveWith applies the overlay to the built-in defaults at version and resolves.
func resolveWith(t *testing.T, ov *Overlay, version string, tweak func(*inputs.Spec)) resolver.Trace {
	t.Helper()
	spec := inputs.Defaults()
	if version != "" {
		spec.Version = inputs.Value{Raw: version, Origin: resolver.Origin{Kind: resolver.OriginFlag, Detail: "--version"}}
	}
	if tweak != nil {
		tweak(&spec)
	}
	Apply(&spec, ov)
	in, err := inputs.Build(spec, models.Builtin())
	if err != nil {
		t.Fatalf("Build: %v", err)
	}
	return resolver.Resolve(in)
}

func TestWorkerNIXLOrigins(t *testing.T) {
	ov := worker(t, "ctx-nixl.yaml")
	if ov.Backend == nil || ov.Backend.Raw != "NIXL" || ov.Backend.Origin.Detail != "ctx-nixl.yaml:18" {
		t.Fatalf("backend = %+v, want NIXL from ctx-nixl.yaml:18", ov.Backend)
	}
	if ov.TimeoutMS == nil || ov.TimeoutMS.Raw != "600000" || ov.TimeoutMS.Origin.Detail != "ctx-nixl.yaml:19" {
		t.Fatalf("timeout = %+v", ov.TimeoutMS)
	}
	if ov.Runtime != nil || len(ov.ConfigErrors) != 0 {
		t.Fatalf("runtime %+v errors %+v, want omitted and none", ov.Runtime, ov.ConfigErrors)
	}
	tr := resolveWith(t, ov, "main@2026-09-10", nil)
	if tr.Result.Outcome != resolver.OutcomePython {
		t.Fatalf("outcome %s, want PYTHON (era 2, GPT-OSS on NIXL)", tr.Result.Outcome)
	}
	if got := tr.Inputs.Backend.Origin.String(); got != "ctx-nixl.yaml:18" {
		t.Errorf("backend origin in trace = %q", got)
	}
}

func TestWorkerOmittedBackendTurnsOffPreset(t *testing.T) {
	// The explorer's preset backend is DEFAULT; a worker file without
	// cache_transceiver_config must still mean "disaggregation off".
	ov, err := ReadWorkerConfig("agg.yaml", []byte("tensor_parallel_size: 8\nkv_cache_config:\n  dtype: fp8\n"))
	if err != nil {
		t.Fatal(err)
	}
	tr := resolveWith(t, ov, "", nil)
	if tr.Result.Outcome != resolver.OutcomeDisabled {
		t.Fatalf("outcome %s, want DISABLED", tr.Result.Outcome)
	}
}

func TestFlagOverridesFile(t *testing.T) {
	ov := worker(t, "gen-ucx-cpp.yaml")
	tr := resolveWith(t, ov, "main@2026-09-10", func(s *inputs.Spec) {
		s.Runtime = inputs.Value{Raw: "PYTHON", Origin: resolver.Origin{Kind: resolver.OriginFlag, Detail: "--runtime"}}
	})
	if got := tr.Inputs.Runtime.Origin.String(); got != "flag --runtime (overrides gen-ucx-cpp.yaml:16)" {
		t.Errorf("runtime origin = %q", got)
	}
	if got := tr.Inputs.Backend.Origin.String(); got != "gen-ucx-cpp.yaml:15" {
		t.Errorf("backend origin = %q", got)
	}
	// PYTHON on UCX fails at creation.
	if tr.Result.Outcome != resolver.OutcomeError || !strings.Contains(tr.Result.Error, "Python transceiver currently only supports NIXL backend, got UCX") {
		t.Fatalf("result %+v", tr.Result)
	}
}

func TestWorkerValidationErrors(t *testing.T) {
	ov := worker(t, "gen-invalid.yaml")
	var locs []string
	for _, e := range ov.ConfigErrors {
		locs = append(locs, e.Loc+"="+e.Type+"@"+e.Origin.Detail)
	}
	want := []string{
		"kv_transfer_timeout_ms=int_parsing@gen-invalid.yaml:10",
		"enable_pipelined_transfer=bool_parsing@gen-invalid.yaml:12",
		"chunk_size_blocks=extra_forbidden@gen-invalid.yaml:11",
	}
	if strings.Join(locs, " ") != strings.Join(want, " ") {
		t.Fatalf("errors\n got %v\nwant %v", locs, want)
	}
	tr := resolveWith(t, ov, "main@2026-09-10", nil)
	if tr.Result.Outcome != resolver.OutcomeError || tr.Result.FailedStep != resolver.StepValidate {
		t.Fatalf("result %+v", tr.Result)
	}
	for _, frag := range []string{
		"4 validation errors for TorchLlmArgs",
		"cache_transceiver_config.kv_transfer_timeout_ms\n  Input should be a valid integer, unable to parse string as an integer [type=int_parsing, input_value='600s', input_type=str]",
		"cache_transceiver_config.chunk_size_blocks\n  Extra inputs are not permitted [type=extra_forbidden, input_value=32, input_type=int]",
		"cache_transceiver_config.backend\n  Input should be 'DEFAULT', 'UCX', 'NIXL', 'MOONCAKE' or 'MPI' [type=literal_error, input_value='nixl', input_type=str]",
	} {
		if !strings.Contains(tr.Result.Error, frag) {
			t.Errorf("error lacks %q:\n%s", frag, tr.Result.Error)
		}
	}
	// pydantic's order: declared fields in declaration order (the resolver's own
	// backend literal check first), then extra keys.
	wantErr := "pydantic_core._pydantic_core.ValidationError: 4 validation errors for TorchLlmArgs\n" +
		"cache_transceiver_config.backend\n  Input should be 'DEFAULT', 'UCX', 'NIXL', 'MOONCAKE' or 'MPI' [type=literal_error, input_value='nixl', input_type=str]\n" +
		"cache_transceiver_config.kv_transfer_timeout_ms\n  Input should be a valid integer, unable to parse string as an integer [type=int_parsing, input_value='600s', input_type=str]\n" +
		"cache_transceiver_config.enable_pipelined_transfer\n  Input should be a valid boolean, unable to interpret input [type=bool_parsing, input_value='maybe', input_type=str]\n" +
		"cache_transceiver_config.chunk_size_blocks\n  Extra inputs are not permitted [type=extra_forbidden, input_value=32, input_type=int]"
	if tr.Result.Error != wantErr {
		t.Errorf("error\n%s\nwant\n%s", tr.Result.Error, wantErr)
	}
	st, _ := tr.Step(resolver.StepValidate)
	for _, fl := range []string{"gen-invalid.yaml:8", "gen-invalid.yaml:10", "gen-invalid.yaml:11", "gen-invalid.yaml:12"} {
		if !strings.Contains(st.Reason, fl) {
			t.Errorf("validate reason %q does not name %s", st.Reason, fl)
		}
	}
}

func TestZeroTimeoutIsResolverError(t *testing.T) {
	ov := worker(t, "ctx-zero-timeout.yaml")
	tr := resolveWith(t, ov, "main@2026-09-10", nil)
	if !strings.Contains(tr.Result.Error, "Input should be greater than 0 [type=greater_than, input_value=0, input_type=int]") {
		t.Fatalf("error %q", tr.Result.Error)
	}
	if st, _ := tr.Step(resolver.StepValidate); !strings.Contains(st.Reason, "ctx-zero-timeout.yaml:6") {
		t.Errorf("reason %q", st.Reason)
	}
}

func TestAnchorsAndMerge(t *testing.T) {
	ov := worker(t, "anchors.yaml")
	if ov.Backend == nil || ov.Backend.Raw != "NIXL" || ov.Backend.Origin.Detail != "anchors.yaml:4" {
		t.Fatalf("backend %+v", ov.Backend)
	}
	if ov.TimeoutMS == nil || ov.TimeoutMS.Raw != "null" || ov.TimeoutMS.Origin.Detail != "anchors.yaml:10" {
		t.Fatalf("timeout %+v (the explicit key must win over the merged one)", ov.TimeoutMS)
	}
	// The anchor's own key is a top-level key TorchLlmArgs does not have: the
	// strict model refuses the file before the timeout matters.
	tr := resolveWith(t, ov, "main@2026-09-10", nil)
	if tr.Result.Outcome != resolver.OutcomeError || !strings.Contains(tr.Result.Error, "\nx-transceiver\n  Extra inputs are not permitted [type=extra_forbidden, input_value={'backend': 'NIXL'") {
		t.Fatalf("result %+v", tr.Result)
	}
}

func TestPyYAMLScalars(t *testing.T) {
	doc, err := ParseYAML("s.yaml", []byte("a: yes\nb: 1.5e3\nc: 012\nd: 0x1F\ne: ~\nf: '1'\ng: 1_000\nh: 1.0\ni: 2026-08-28\nj: .inf\nk: Off\n"))
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{"a": "True", "b": "'1.5e3'", "c": "10", "d": "31", "e": "None", "f": "'1'", "g": "1000", "h": "1.0", "i": "datetime.date(2026, 8, 28)", "j": "inf", "k": "False"}
	for k, w := range want {
		p, ok := doc.Root.Get(k)
		if !ok || p.Val.Repr() != w {
			t.Errorf("%s = %s, want %s", k, p.Val.Repr(), w)
		}
	}
}

func TestWorkerRuntimeWrongType(t *testing.T) {
	ov, err := ReadWorkerConfig("w.yaml", []byte("cache_transceiver_config:\n  backend: NIXL\n  transceiver_runtime: off\n"))
	if err != nil {
		t.Fatal(err)
	}
	tr := resolveWith(t, ov, "1.3.0rc20", nil)
	if !strings.Contains(tr.Result.Error, "Input should be 'CPP' or 'PYTHON' [type=literal_error, input_value=False, input_type=bool]") {
		t.Fatalf("era-0 error %q", tr.Result.Error)
	}
	tr = resolveWith(t, ov, "main@2026-09-10", nil)
	if !strings.Contains(tr.Result.Error, "Input should be 'CPP', 'PYTHON' or 'auto' [type=literal_error, input_value=False, input_type=bool]") {
		t.Fatalf("era-2 error %q", tr.Result.Error)
	}
}

func TestWorkerFileErrors(t *testing.T) {
	for _, tc := range []struct{ name, data, want string }{
		{"list.yaml", "- a\n- b\n", "list.yaml:1:1: ValueError: Configuration file root must be a mapping."},
		// PyYAML's own errors, byte for byte (as yaml.safe_load of the file
		// prints them), at the problem's mark.
		{"syntax.yaml", "cache_transceiver_config:\n  backend: [NIXL\n", "syntax.yaml:3:1: yaml.parser.ParserError: while parsing a flow sequence\n" +
			"  in \"syntax.yaml\", line 2, column 12\nexpected ',' or ']', but got '<stream end>'\n  in \"syntax.yaml\", line 3, column 1"},
		{"two.yaml", "a: 1\n---\nb: 2\n", "two.yaml:2:1: yaml.composer.ComposerError: expected a single document in the stream\n" +
			"  in \"two.yaml\", line 1, column 1\nbut found another document\n  in \"two.yaml\", line 2, column 1"},
		{"bin.yaml", "a: 1\nb: \x00\x01", "bin.yaml:2:4: refused: binary data"},
		{"tag.yaml", "a: !!python/object:os.system x\n", "tag.yaml:1:4: yaml.constructor.ConstructorError: could not determine a constructor for the tag 'tag:yaml.org,2002:python/object:os.system'"},
	} {
		_, err := ReadWorkerConfig(tc.name, []byte(tc.data))
		if err == nil || !strings.HasPrefix(err.Error(), tc.want) {
			t.Errorf("%s: err %v, want prefix %q", tc.name, err, tc.want)
		}
	}
}

// TestCacheTransceiverConfigNotAMapping: pydantic rejects a scalar or a list for
// the whole field with a model_type error, a refused configuration (ERROR, exit 1)
// like any other wrong type, not an unreadable file.
func TestCacheTransceiverConfigNotAMapping(t *testing.T) {
	for _, tc := range []struct{ data, input string }{
		{"tensor_parallel_size: 2\ncache_transceiver_config: NIXL\n", "input_value='NIXL', input_type=str"},
		{"tensor_parallel_size: 2\ncache_transceiver_config: [NIXL, PYTHON]\n", "input_value=['NIXL', 'PYTHON'], input_type=list"},
	} {
		ov, err := ReadWorkerConfig("ctc.yaml", []byte(tc.data))
		if err != nil {
			t.Fatalf("%q: err %v, want the validation error as the outcome", tc.data, err)
		}
		tr := resolveWith(t, ov, "main@2026-09-10", nil)
		want := "pydantic_core._pydantic_core.ValidationError: 1 validation error for TorchLlmArgs\ncache_transceiver_config\n" +
			"  Input should be a valid dictionary or instance of CacheTransceiverConfig [type=model_type, " + tc.input + "]"
		if tr.Result.Outcome != resolver.OutcomeError || tr.Result.Error != want {
			t.Errorf("%q: outcome %s error\n%s\nwant\n%s", tc.data, tr.Result.Outcome, tr.Result.Error, want)
		}
		if tr.Result.Hint != "write cache_transceiver_config as a mapping of its fields, e.g. {backend: NIXL}" {
			t.Errorf("hint %q", tr.Result.Hint)
		}
		st, _ := tr.Step(resolver.StepValidate)
		if !strings.HasPrefix(st.Reason, "cache_transceiver_config: Input should be a valid dictionary") || !strings.Contains(st.Reason, "ctc.yaml:2") {
			t.Errorf("validate reason %q", st.Reason)
		}
	}
}

func TestRefusesHostileYAML(t *testing.T) {
	bomb := "a: &a [x, x, x, x, x, x, x, x, x, x]\n"
	prev := "a"
	for i := 0; i < 12; i++ {
		name := string(rune('b' + i))
		bomb += name + ": &" + name + " [*" + prev + ", *" + prev + ", *" + prev + ", *" + prev + ", *" + prev + ", *" + prev + ", *" + prev + ", *" + prev + ", *" + prev + ", *" + prev + "]\n"
		prev = name
	}
	deep := strings.Repeat("[", 1000) + strings.Repeat("]", 1000)
	var block strings.Builder
	for i := 0; i < 200; i++ {
		block.WriteString(strings.Repeat(" ", i) + "k:\n")
	}
	big := make([]byte, guard.MaxYAMLBytes+1)
	for i := range big {
		big[i] = 'a'
	}
	for _, tc := range []struct{ name, data, want string }{
		{"bomb.yaml", bomb, "alias bomb"},
		{"deep.yaml", deep, "nested deeper than 64 levels"},
		{"block.yaml", block.String(), "nested deeper than 64 levels"},
		{"big.yaml", string(big), "over the 4 MiB limit"},
		{"list.yaml", strings.Repeat("- a\n", 60_000), "more than 50000 lines"},
		{"flow.yaml", "k: [" + strings.Repeat("1, 2, 3, 4, 5, 6, 7, 8, 9, 10,\n", 6000) + "1]\n", "more than 50000 lines or list entries"},
		{"scalar.yaml", "a: \"" + strings.Repeat("y", 1_000_000) + "\"\n", "a line longer than 64 KiB"},
	} {
		// Bytes allocated, not time: a refusal must come before the parser
		// builds anything in proportion to the bomb.
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		_, err := ReadWorkerConfig(tc.name, []byte(tc.data))
		runtime.ReadMemStats(&after)
		if err == nil || !strings.Contains(err.Error(), tc.want) || !strings.HasPrefix(err.Error(), tc.name+":") {
			t.Errorf("%s: err %v, want %q", tc.name, err, tc.want)
		}
		if got := after.TotalAlloc - before.TotalAlloc; got > 16*uint64(len(tc.data))+1<<20 {
			t.Errorf("%s: %d bytes of input allocated %d bytes", tc.name, len(tc.data), got)
		}
	}
}

func TestReadFileRefusesLargeFile(t *testing.T) {
	p := filepath.Join(t.TempDir(), "shard.safetensors")
	f, err := os.Create(p)
	if err != nil {
		t.Fatal(err)
	}
	if err := f.Truncate(guard.MaxFileBytes + 4096); err != nil {
		t.Fatal(err)
	}
	f.Close()
	if _, err := ReadJSONFile(p); err == nil || !strings.Contains(err.Error(), "16 MiB") {
		t.Fatalf("err %v", err)
	}
}

func TestDisaggInheritance(t *testing.T) {
	d, err := ReadDisagg("disagg-nixl.yaml", readTestdata(t, "disagg-nixl.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	for _, role := range Roles() {
		ov := d.Roles[role]
		if ov.Backend == nil || ov.Backend.Raw != "NIXL" || ov.Backend.Origin.Detail != "disagg-nixl.yaml:9" {
			t.Errorf("%s backend %+v, want NIXL inherited from line 9", role, ov.Backend)
		}
		if ov.Loader == nil || ov.Loader.Raw != "pytorch" || ov.Model == nil || ov.Model.Raw != "openai/gpt-oss-120b" {
			t.Errorf("%s loader %+v model %+v", role, ov.Loader, ov.Model)
		}
	}
	if got := strings.Join(d.Inherited[RoleContext], ","); got != "model,backend,free_gpu_memory_fraction,cache_transceiver_config" {
		t.Errorf("inherited %s", got)
	}
}

func TestDisaggMismatchResolvesPerRole(t *testing.T) {
	d, err := ReadDisagg("disagg-mismatch.yaml", readTestdata(t, "disagg-mismatch.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	ctx := resolveWith(t, d.Roles[RoleContext], "main@2026-09-10", nil)
	gen := resolveWith(t, d.Roles[RoleGeneration], "main@2026-09-10", nil)
	if ctx.Result.Outcome != resolver.OutcomePython || gen.Result.Outcome != resolver.OutcomeCPP {
		t.Fatalf("ctx %s gen %s, want PYTHON and CPP", ctx.Result.Outcome, gen.Result.Outcome)
	}
	if got := gen.Inputs.Runtime.Origin.String(); got != "disagg-mismatch.yaml:17" {
		t.Errorf("gen runtime origin %q", got)
	}
}

func TestDisaggConflict(t *testing.T) {
	_, err := ReadDisagg("disagg-conflict.yaml", readTestdata(t, "disagg-conflict.yaml"))
	var ce *ConflictError
	if !errors.As(err, &ce) {
		t.Fatalf("err %v, want *ConflictError", err)
	}
	if ce.Message() != "ValueError: Parameter cache_transceiver_config is specified both in the top-level and in the generation_servers section, but with different values" {
		t.Errorf("message %q", ce.Message())
	}
	if !strings.HasPrefix(err.Error(), "disagg-conflict.yaml:13: ") {
		t.Errorf("error %q does not start with the section's FILE:LINE", err)
	}
	// Python ==: 1 == 1.0 == True, and dict order does not matter.
	ok := "max_batch_size: 1\nx: {a: 1, b: 2}\ncontext_servers: {max_batch_size: 1.0, x: {b: 2, a: 1}}\ngeneration_servers: {max_batch_size: true}\n"
	if _, err := ReadDisagg("eq.yaml", []byte(ok)); err != nil {
		t.Errorf("equal values reported as conflict: %v", err)
	}
}

func TestModelConfig(t *testing.T) {
	cat := models.Builtin()
	mc, err := ReadModelConfig("gpt-oss-120b/config.json", readTestdata(t, "gpt-oss-120b/config.json"))
	if err != nil {
		t.Fatal(err)
	}
	if key, _ := mc.ModelKey(cat); key != "GptOssForCausalLM" || mc.ModelType != "gpt_oss" || mc.ArchLine != 2 {
		t.Errorf("gpt-oss: key %q type %q line %d", key, mc.ModelType, mc.ArchLine)
	}
	mc, err = ReadModelConfig("llama-eagle3/config.json", readTestdata(t, "llama-eagle3/config.json"))
	if err != nil {
		t.Fatal(err)
	}
	if !mc.Eagle3 || mc.ExecArch != "EAGLE3LlamaForCausalLM" {
		t.Errorf("eagle3: %+v", mc)
	}
	if key, note := mc.ModelKey(cat); key != "EAGLE3LlamaForCausalLM" || !strings.Contains(note, "renamed") {
		t.Errorf("eagle3 key %q note %q", key, note)
	}
	mc, err = ReadModelConfig("no-arch/config.json", readTestdata(t, "no-arch/config.json"))
	if err != nil {
		t.Fatal(err)
	}
	if mc.Arch != "" || len(mc.Notes) == 0 || !strings.Contains(mc.Notes[0], "unknown model") {
		t.Errorf("no-arch: %+v", mc)
	}
	if _, err := ReadModelConfig("bad.json", []byte("{\n  \"architectures\": [\"A\",]\n}")); err == nil || !strings.HasPrefix(err.Error(), "bad.json:2:") {
		t.Errorf("syntax error %v", err)
	}
	if _, err := ReadModelConfig("arr.json", []byte("[1]")); err == nil || !strings.Contains(err.Error(), "JSON object") {
		t.Errorf("array root %v", err)
	}
}

func TestEnvFile(t *testing.T) {
	ef, err := ReadEnvFile("worker.env", readTestdata(t, "worker.env"))
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{
		"CUDA_VISIBLE_DEVICES": "4,5,6,7", "TRTLLM_USE_UCX_KVCACHE": "1", "UCX_NET_DEVICES": "mlx5_0:1,mlx5_1:1",
		"TRTLLM_NIXL_KVCACHE_BACKEND": "UCX", "NCCL_DEBUG": "WARN", "TLLM_LOG_LEVEL": "INFO", "EMPTY": "", "QUOTED": `a "b" $HOME`,
	}
	for k, w := range want {
		if v, ok := ef.Vars[k]; !ok || v.Value != w {
			t.Errorf("%s = %q, want %q", k, v.Value, w)
		}
	}
	if got := ef.Vars["TRTLLM_USE_UCX_KVCACHE"].Origin.String(); got != "worker.env:3" {
		t.Errorf("origin %q", got)
	}
	for _, tc := range []struct{ data, want string }{
		{"A=1\nexport 9X=2\n", "e.env:2:8: "},
		{"A='open\n", "e.env:1:3: unterminated single quote"},
		{"A=two words\n", "e.env:1:3: unquoted space"},
		{"just words\n", "e.env:1:1: want KEY=VALUE"},
	} {
		if _, err := ReadEnvFile("e.env", []byte(tc.data)); err == nil || !strings.HasPrefix(err.Error(), tc.want) {
			t.Errorf("%q: err %v, want prefix %q", tc.data, err, tc.want)
		}
	}
}

// TestEnvFileExportP reads bash's own `export -p` output: valueless exports
// ("declare -x OLDPWD") set nothing, $'...' is ANSI-C quoting, and escaped \$ is
// not an expansion worth a warning.
func TestEnvFileExportP(t *testing.T) {
	ef, err := ReadEnvFile("gen-export-p.env", readTestdata(t, "gen-export-p.env"))
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{
		"MOTD": "Welcome to gpu-node-17\n\tmaintenance window: Sun 02:00", "PS1": `\u@\h:\w\$ `,
		"TRTLLM_DISAGG_ENABLE_INFLIGHT_CANCEL": "1", "TRTLLM_USE_UCX_KVCACHE": "1", "TLLM_LOG_LEVEL": "INFO",
	}
	for k, w := range want {
		if v, ok := ef.Vars[k]; !ok || v.Value != w {
			t.Errorf("%s = %q, want %q", k, v.Value, w)
		}
	}
	if _, ok := ef.Vars["OLDPWD"]; ok {
		t.Error("declare -x OLDPWD (no value) was read as set")
	}
	if got := ef.Vars["TRTLLM_DISAGG_ENABLE_INFLIGHT_CANCEL"].Origin.String(); got != "gen-export-p.env:10" {
		t.Errorf("origin %q", got)
	}
	if len(ef.Warnings) != 0 {
		t.Errorf("warnings %q, want none (nothing here expands)", ef.Warnings)
	}
	ef, err = ReadEnvFile("e.env", []byte("A=$HOME/x\nB=\"${USER}\"\nC='$HOME'\nD=\"\\$5\"\n"))
	if err != nil {
		t.Fatal(err)
	}
	if len(ef.Warnings) != 2 || !strings.HasPrefix(ef.Warnings[0], "e.env:1: A contains $") || !strings.HasPrefix(ef.Warnings[1], "e.env:2: B contains $") {
		t.Errorf("warnings %q, want A and B only", ef.Warnings)
	}
	for _, tc := range []struct{ data, want string }{
		{"just_a_name\n", "e.env:1:1: want KEY=VALUE"},
		{"declare -x A=$'open\n", "e.env:1:14: unterminated $'...' quote"},
	} {
		if _, err := ReadEnvFile("e.env", []byte(tc.data)); err == nil || !strings.HasPrefix(err.Error(), tc.want) {
			t.Errorf("%q: err %v, want prefix %q", tc.data, err, tc.want)
		}
	}
}

func TestReadProcess(t *testing.T) {
	root := t.TempDir()
	dir := filepath.Join(root, "4242")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	cmd := "/usr/bin/python3\x00/usr/local/bin/trtllm-serve\x00serve\x00/models/gpt-oss-120b\x00--host\x000.0.0.0\x00--trust_remote_code\x00--extra_llm_api_options\x00gen.yaml\x00--backend\x00pytorch\x00"
	env := "PATH=/usr/bin\x00TRTLLM_USE_UCX_KVCACHE=1\x00HOME=/root\x00"
	os.WriteFile(filepath.Join(dir, "cmdline"), []byte(cmd), 0o644)
	os.WriteFile(filepath.Join(dir, "environ"), []byte(env), 0o644)
	os.Symlink("/srv/run", filepath.Join(dir, "cwd"))
	p, err := ReadProcess(root, 4242)
	if err != nil {
		t.Fatal(err)
	}
	s := p.Serve
	if s == nil || s.Model != "/models/gpt-oss-120b" || s.Config != "/srv/run/gen.yaml" || s.ConfigFlag != "--extra_llm_api_options" || s.Backend != "pytorch" {
		t.Fatalf("serve %+v", s)
	}
	if len(p.Environ) != 3 || p.Environ[1] != "TRTLLM_USE_UCX_KVCACHE=1" {
		t.Errorf("environ %q", p.Environ)
	}
	if _, err := ReadProcess(root, 999); err == nil || !strings.Contains(err.Error(), "no process 999") {
		t.Errorf("missing pid: %v", err)
	}
	if os.Getuid() != 0 {
		os.Chmod(filepath.Join(dir, "environ"), 0)
		if _, err := ReadProcess(root, 4242); err == nil || !strings.HasPrefix(err.Error(), "--pid 4242: cannot read "+filepath.Join(dir, "environ")+": permission denied; ") {
			t.Errorf("unreadable environ: %v", err)
		}
	}
}

func TestParseServeCommand(t *testing.T) {
	for _, tc := range []struct {
		argv []string
		want ServeCommand
	}{
		{[]string{"trtllm-serve", "openai/gpt-oss-120b", "--config", "ctx.yaml"}, ServeCommand{Subcommand: "serve", Model: "openai/gpt-oss-120b", Config: "ctx.yaml", ConfigFlag: "--config"}},
		{[]string{"python3", "-m", "tensorrt_llm.commands.serve", "--backend=_autodeploy", "/m"}, ServeCommand{Subcommand: "serve", Model: "/m", Backend: "_autodeploy"}},
		{[]string{"trtllm-serve", "disaggregated", "-c", "disagg.yaml", "-t", "600"}, ServeCommand{Subcommand: "disaggregated", DisaggConfig: "disagg.yaml"}},
	} {
		got := ParseServeCommand(tc.argv)
		if got == nil || *got != tc.want {
			t.Errorf("%q: got %+v, want %+v", tc.argv, got, tc.want)
		}
	}
	if ParseServeCommand([]string{"python3", "train.py", "--config", "x.yaml"}) != nil {
		t.Error("non-trtllm command recognised")
	}
}

// bash keeps C strings: a $'...' value is cut at its first NUL, and the word parts
// after the quote are kept (bash 5.2: x=$'ab\x00cd'ef gives "abef").
func TestEnvFileNULCutAsBash(t *testing.T) {
	ef, err := ReadEnvFile("w.env", []byte("A=$'ab\\x00cd'ef\nB=$'x\\0y'\nC=\"q\"$'\\x00'\"r\"\n"))
	if err != nil {
		t.Fatal(err)
	}
	for k, want := range map[string]string{"A": "abef", "B": "x", "C": "qr"} {
		if got := ef.Vars[k].Value; got != want {
			t.Errorf("%s = %q, want %q", k, got, want)
		}
	}
}

// Read what Python reads: a BOM is skipped (PyYAML does), integers past CPython's
// 4,300-digit limit are refused with its ValueError (checked with CPython 3.11.7 and
// PyYAML 6.0.3), and an empty architectures[0] is an unknown model with a warning.
func TestReadWhatPythonReads(t *testing.T) {
	ov, err := ReadWorkerConfig("w.yaml", []byte("\ufeffcache_transceiver_config:\n  backend: NIXL\n"))
	if err != nil || ov.Backend == nil || ov.Backend.Raw != "NIXL" || ov.Backend.Origin.Detail != "w.yaml:2" {
		t.Fatalf("BOM: %+v %v", ov, err)
	}
	if ov, err := ReadWorkerConfig("w.yaml", []byte("\ufeff")); err != nil || ov.Backend != nil {
		t.Fatalf("BOM-only file is not an empty file: %+v %v", ov, err)
	}
	ef, err := ReadEnvFile("w.env", []byte("\ufeffTRTLLM_USE_UCX_KVCACHE=1\n"))
	if err != nil || ef.Vars["TRTLLM_USE_UCX_KVCACHE"].Value != "1" {
		t.Fatalf("env BOM: %+v %v", ef, err)
	}
	limit := "ValueError: Exceeds the limit (4300 digits) for integer string conversion: value has 4301 digits; use sys.set_int_max_str_digits() to increase the limit"
	_, err = ReadWorkerConfig("w.yaml", []byte("cache_transceiver_config:\n  kv_transfer_timeout_ms: -"+strings.Repeat("1", 4301)+"\n"))
	if err == nil || err.Error() != "w.yaml:2:27: "+limit {
		t.Fatalf("4301 digits: %v", err)
	}
	for _, ok := range []string{strings.Repeat("1", 4300), "0x" + strings.Repeat("f", 5000), strings.Repeat("1_", 3000) + "1"} {
		if _, err := ReadWorkerConfig("w.yaml", []byte("a: "+ok+"\n")); err != nil {
			t.Errorf("%.20s…: %v", ok, err)
		}
	}
	_, err = ReadModelConfig("config.json", []byte(`{"architectures": ["X"], "n": `+strings.Repeat("9", 4301)+`}`))
	if err == nil || err.Error() != "config.json:1:31: "+limit {
		t.Fatalf("json 4301 digits: %v", err)
	}
	if _, err := ReadModelConfig("config.json", []byte(`{"f": 1.`+strings.Repeat("9", 5000)+`, "e": 1e-`+strings.Repeat("0", 5000)+`1}`)); err != nil {
		t.Fatalf("floats have no digit limit: %v", err)
	}
	mc, err := ReadModelConfig("config.json", []byte("\ufeff{\"architectures\": [\"\"]}"))
	if err != nil || mc.Arch != "" || len(mc.Notes) != 2 ||
		!strings.Contains(mc.Notes[0], "Unexpected UTF-8 BOM") || !strings.Contains(mc.Notes[1], "architectures[0] is an empty string") {
		t.Fatalf("%+v %v", mc, err)
	}
}

// TestNotWorkerMatchesPydantic: the refusal of a deployment file given as a
// worker config is pydantic's own text for a model with extra="forbid" (its
// keys, values truncated as pydantic-core truncates them, in input order).
func TestNotWorkerMatchesPydantic(t *testing.T) {
	py, err := exec.LookPath("python3")
	if err != nil {
		t.Skip("python3 (the pydantic oracle) not found")
	}
	f := "../audit/testdata/submit.yaml"
	data, err := os.ReadFile(f)
	if err != nil {
		t.Fatal(err)
	}
	_, err = ReadWorkerConfig(f, data)
	var nw *NotWorkerError
	if !errors.As(err, &nw) {
		t.Fatalf("got %v", err)
	}
	out, err := exec.Command(py, "-c", `import sys, yaml
from pydantic import BaseModel, ConfigDict
class TorchLlmArgs(BaseModel):
    model_config = ConfigDict(extra="forbid")
try:
    TorchLlmArgs(**yaml.safe_load(open(sys.argv[1])))
except Exception as e:
    print("\n".join(l for l in str(e).split("\n") if "errors.pydantic.dev" not in l))`, f).Output()
	if err != nil {
		t.Fatal(err)
	}
	want := "pydantic_core._pydantic_core.ValidationError: " + strings.TrimSpace(string(out))
	if nw.Pydantic != want {
		t.Errorf("xcvr:\n%s\npydantic:\n%s", nw.Pydantic, want)
	}
}

// The validators of CacheTransceiverConfig, with their verbatim texts
// (resolver/validators.go names the evidence of each).
func TestBounceValidators(t *testing.T) {
	for _, tc := range []struct{ version, yaml, want string }{
		// validate_bounce_config's texts, verbatim in 1.3.0rc29's llm_args.py
		// (the first release after #15780), taken for 1.4.0rc1.
		{"1.3.0rc29", "cache_transceiver_config:\n  backend: NIXL\n  agent_bounce_buffer_enable: true\n",
			"cache_transceiver_config\n  Value error, agent_bounce_buffer_enable selects the C++ transfer-agent bounce implementation, but kv_cache_bounce_size_mb is 0 (bounce disabled); set a positive capacity. [type=value_error, input_value={'backend': 'NIXL', 'agen...ce_buffer_enable': True}, input_type=dict]"},
		{"1.3.0rc29", "cache_transceiver_config:\n  backend: NIXL\n  agent_bounce_params: {copy_stream_count: 4}\n",
			"Value error, agent_bounce_params only applies to the C++ transfer-agent bounce implementation; set agent_bounce_buffer_enable=True or drop the params."},
		{"1.4.0rc1", "cache_transceiver_config:\n  backend: NIXL\n  agent_bounce_buffer_enable: true\n",
			"cache_transceiver_config\n  Value error, agent_bounce_buffer_enable selects the C++ transfer-agent bounce implementation, but kv_cache_bounce_size_mb is 0 (bounce disabled); set a positive capacity. [type=value_error, input_value={'backend': 'NIXL', 'agen...ce_buffer_enable': True}, input_type=dict]"},
		{"1.4.0rc1", "cache_transceiver_config:\n  backend: NIXL\n  agent_bounce_params: [a, b]\n",
			"cache_transceiver_config.agent_bounce_params\n  Value error, agent_bounce_params must be a dict of str to str, got list [type=value_error, input_value=['a', 'b'], input_type=list]"},
		{"1.4.0rc1", "cache_transceiver_config:\n  backend: NIXL\n  agent_bounce_params: {copy_stream_count: 4}\n",
			"Value error, agent_bounce_params only applies to the C++ transfer-agent bounce implementation; set agent_bounce_buffer_enable=True or drop the params."},
		{"1.4.0rc1", "cache_transceiver_config:\n  backend: NIXL\n  agent_bounce_buffer_enable: true\n  kv_cache_bounce_size_mb: 1024\n  agent_bounce_params: {zeta: 1, copy_stream_count: 4, alpha: true}\n",
			"Value error, Unknown agent_bounce_params key(s) ['alpha', 'zeta']; valid keys are ['arena_allocation_granularity', 'copy_stream_count', 'disable_fabric_memory', 'enable_eager_gather', 'max_average_descriptor_size', 'max_chunk_size', 'max_inflight_chunks_per_request', 'min_descriptor_count', 'request_timeout_ms', 'scatter_worker_count', 'use_zero_copy_arguments']."},
		{"1.4.0rc4", "cache_transceiver_config:\n  backend: NIXL\n  agent_bounce_params: {copy_stream_count: 4}\n",
			"Value error, agent_bounce_params requires kv_cache_bounce_size_mb > 0; the bounce fast path is disabled at size 0, so the params would be ignored."},
	} {
		ov, err := ReadWorkerConfig("b.yaml", []byte(tc.yaml))
		if err != nil {
			t.Fatal(err)
		}
		tr := resolveWith(t, ov, tc.version, nil)
		if !strings.Contains(tr.Result.Error, tc.want) {
			t.Errorf("%s %q:\n%s\nwant it to contain\n%s", tc.version, tc.yaml, tr.Result.Error, tc.want)
		}
	}
	// Values are coerced to strings, so ints and bools pass; with the flag
	// and a capacity (rc1) or a capacity alone (rc4) the known keys validate.
	for _, tc := range []struct{ version, yaml string }{
		{"1.4.0rc1", "cache_transceiver_config:\n  backend: NIXL\n  agent_bounce_buffer_enable: true\n  kv_cache_bounce_size_mb: 1024\n  agent_bounce_params: {copy_stream_count: 4, enable_eager_gather: true}\n"},
		{"1.4.0rc4", "cache_transceiver_config:\n  backend: NIXL\n  agent_bounce_buffer_enable: true\n  kv_cache_bounce_size_mb: 0\n"},
		{"1.4.0rc4", "cache_transceiver_config:\n  backend: NIXL\n  kv_cache_bounce_size_mb: 512\n  agent_bounce_params: {max_chunk_size: 32MB}\n"},
	} {
		ov, err := ReadWorkerConfig("b.yaml", []byte(tc.yaml))
		if err != nil {
			t.Fatal(err)
		}
		if tr := resolveWith(t, ov, tc.version, nil); strings.Contains(tr.Result.Error, "ValidationError") {
			t.Errorf("%s %q: %s", tc.version, tc.yaml, tr.Result.Error)
		}
	}
}

// A /proc file the kernel refuses says why from the owner and xcvr's user:
// "belongs to another user, so run xcvr as that user or as root" was said to
// root, and of a process of xcvr's own user.
func TestProcPermissionHint(t *testing.T) {
	p := filepath.Join(t.TempDir(), "environ") // its directory is xcvr's own
	err := procErr(4242, p, fs.ErrPermission)
	if want := "process 4242 runs as xcvr's own user (uid " + strconv.Itoa(os.Geteuid()) + ")"; !strings.Contains(err.Error(), want) || strings.Contains(err.Error(), "belongs to another user") {
		t.Errorf("own process: %v", err)
	}
	for _, tc := range []struct {
		owner, euid int
		want        string
	}{
		{1000, 0, "process 7 runs as uid 1000 and xcvr as root without CAP_SYS_PTRACE (a container drops it by default), so run xcvr as uid 1000 or give it CAP_SYS_PTRACE"},
		{1000, 1001, "process 7 runs as uid 1000, not as xcvr's uid 1001, so run xcvr as that user or as root"},
		{-1, 1001, "process 7 belongs to another user, so run xcvr as that user or as root"},
	} {
		if got := permissionHint(7, tc.owner, tc.euid); got != tc.want {
			t.Errorf("owner %d, xcvr %d: %q", tc.owner, tc.euid, got)
		}
	}
}

package cli

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/charmbracelet/x/exp/golden"

	"xcvr/internal/report"
)

// run calls Main in-process with a fixed, clean environment.
func run(t *testing.T, env []string, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	var out, errb bytes.Buffer
	code = Main(args, strings.NewReader(""), &out, &errb, env)
	return out.String(), errb.String(), code
}

func TestExplainGoldens(t *testing.T) {
	cases := map[string][]string{
		"default":            {"explain"},
		"era1_ucx_fallback":  {"explain", "--trtllm", "1.3.0rc22", "--backend", "UCX"},
		"era2_env_true":      {"explain", "--trtllm", "1.3.0rc26", "--model", "MistralForCausalLM", "--env", "TRTLLM_USE_UCX_KVCACHE=true"},
		"era3_ucx_breaks":    {"explain", "--trtllm", "1.4.0rc1", "--model", "DeepseekV3ForCausalLM", "--backend", "DEFAULT", "--env", "TRTLLM_USE_UCX_KVCACHE=1"},
		"validation_nixl":    {"explain", "--backend", "nixl", "--runtime", "Auto"},
		"disabled":           {"explain", "--backend", "none"},
		"markdown_era2":      {"explain", "--trtllm", "main@2026-09-10", "--model", "LlamaForCausalLM", "--timeout-ms", "null", "-o", "markdown"},
		"unknown_model_json": {"explain", "--model", "GptOssForCasualLM", "--trtllm", "1.3.0rc22", "-o", "json"},
	}
	for name, args := range cases {
		t.Run(name, func(t *testing.T) {
			out, errOut, _ := run(t, nil, args...)
			// A note on stderr (a near miss such as 'nixl') is fine; anything
			// else is not.
			for _, l := range strings.Split(strings.TrimSpace(errOut), "\n") {
				if l != "" && !strings.HasPrefix(l, "xcvr: note: ") {
					t.Fatalf("stderr: %s", errOut)
				}
			}
			golden.RequireEqual(t, out)
		})
	}
}

func TestExitCodesAndStreams(t *testing.T) {
	cases := []struct {
		args      []string
		code      int
		stdoutHas string
		stderrHas string
	}{
		{[]string{"explain"}, 0, "Outcome: Python transceiver (KvCacheTransceiverV2)", ""},
		{[]string{"explain", "--backend", "none"}, 0, "Outcome: Disaggregation off", ""},
		{[]string{"explain", "--trtllm", "1.3.0rc20"}, 0, "Outcome: C++ transceiver", ""},
		{[]string{"explain", "--backend", "UCX"}, 1, "Start-up fails: ValueError: Python transceiver currently only supports NIXL backend, got UCX.", ""},
		{[]string{"explain", "--backend", "UCX", "-o", "json"}, 1, `"outcome": "ERROR"`, ""},
		{[]string{"explain", "--trtllm", "9.9"}, 2, "", "unknown TensorRT-LLM version \"9.9\": want X.Y.Z[rcN][.postN][.devYYYYMMDDNN]"},
		{[]string{"explain", "--trtllm", "0.21.0"}, 2, "", "TensorRT-LLM 0.21.0 is not modelled: xcvr's rules start at 1.0.0rc0"},
		{[]string{"explain", "--loader", "vllm"}, 2, "", "--loader \"vllm\": want pytorch, autodeploy or none"},
		{[]string{"explain", "--timeout-ms", "soon"}, 2, "", "want a whole number of milliseconds or null"},
		{[]string{"explain", "--env", "=x"}, 2, "", "want KEY=VALUE"},
		{[]string{"explain", "-o", "xml"}, 2, "", `-o "xml": want text, json, markdown`},
		{[]string{"explain", "--no-such-flag"}, 2, "", "unknown flag: --no-such-flag"},
		{[]string{"explain", "--catalog", "testdata/missing.yaml"}, 2, "", "testdata/missing.yaml"},
		{[]string{"explain", "--catalog", "../../models/testdata/bad-value.yaml"}, 2, "", "bad-value.yaml:5:"},
		{[]string{"--color", "sometimes", "explain"}, 2, "", `--color "sometimes"`},
		{[]string{"nonsense"}, 2, "", "unknown command"},
		{[]string{"--version"}, 0, "\ncatalog: ", ""},
		{[]string{"versions"}, 0, "1.3.0rc20", ""},
		{[]string{"models", "--trtllm", "main@2026-08-01"}, 0, "LlamaForCausalLM", ""},
		{[]string{"models", "--trtllm", "nope"}, 2, "", "unknown TensorRT-LLM version"},
		{[]string{}, 0, "Outcome: Python transceiver", ""}, // not a terminal: explain text
		{[]string{"tui"}, 2, "", "tui: stdout is not a terminal; use 'xcvr explain' for text output"},
	}
	for _, c := range cases {
		t.Run(strings.Join(c.args, " "), func(t *testing.T) {
			out, errOut, code := run(t, nil, c.args...)
			if code != c.code {
				t.Fatalf("exit %d, want %d\nstdout: %s\nstderr: %s", code, c.code, out, errOut)
			}
			if c.code == 2 && out != "" {
				t.Errorf("usage errors must print nothing on stdout, got %q", out)
			}
			if c.stdoutHas != "" && !strings.Contains(out, c.stdoutHas) {
				t.Errorf("stdout lacks %q:\n%s", c.stdoutHas, out)
			}
			if c.stderrHas != "" && !strings.Contains(errOut, c.stderrHas) {
				t.Errorf("stderr lacks %q:\n%s", c.stderrHas, errOut)
			}
			if c.code != 2 && errOut != "" {
				t.Errorf("unexpected stderr: %s", errOut)
			}
		})
	}
}

func TestEnvironmentIsInherited(t *testing.T) {
	env := []string{"TRTLLM_USE_UCX_KVCACHE=1", "HOME=/root", "TRTLLM_USE_NIXL_KVCACHE=true"}
	out, _, code := run(t, env, "explain", "-o", "json")
	if code != 1 {
		t.Fatalf("UCX from the environment on 1.4 should fail start-up, exit %d", code)
	}
	var got report.ExplainJSON
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatal(err)
	}
	if in := got.Inputs["TRTLLM_USE_UCX_KVCACHE"]; in.Value != "1" || in.Origin != "env" {
		t.Errorf("env input = %+v", in)
	}
	if _, ok := got.Inputs["HOME"]; ok {
		t.Error("only TRTLLM_* variables are inputs")
	}
	if got.BackendSource == nil || *got.BackendSource != "TRTLLM_USE_UCX_KVCACHE" {
		t.Errorf("backend_source = %v", got.BackendSource)
	}
	// --clean-env drops them; --env puts one back with origin flag.
	out, _, code = run(t, env, "explain", "--clean-env", "--env", "TRTLLM_USE_MPI_KVCACHE=1", "--runtime", "CPP", "-o", "json")
	if code != 0 {
		t.Fatalf("exit %d", code)
	}
	got = report.ExplainJSON{}
	_ = json.Unmarshal([]byte(out), &got)
	if _, ok := got.Inputs["TRTLLM_USE_UCX_KVCACHE"]; ok {
		t.Error("--clean-env kept an inherited variable")
	}
	if in := got.Inputs["TRTLLM_USE_MPI_KVCACHE"]; in.Origin != "flag --env" || *got.EffectiveBackend != "MPI" {
		t.Errorf("--env input = %+v, backend %v", in, got.EffectiveBackend)
	}
}

// The JSON contract's corners: without any cache_transceiver_config object
// resolved_runtime is null (there is no field to hold a value), while an
// object without a backend keeps the version's default; a setting that stays
// 'auto' (AutoDeploy, no checkpoint loader) gives the V1 manager, because
// get_kv_cache_manager_cls picks V2 only for True.
func TestJSONContractCorners(t *testing.T) {
	dir := t.TempDir()
	noObject := filepath.Join(dir, "plain.yaml")
	emptyObject := filepath.Join(dir, "empty.yaml")
	os.WriteFile(noObject, []byte("kv_cache_config:\n  enable_block_reuse: false\n"), 0o644)
	os.WriteFile(emptyObject, []byte("cache_transceiver_config: {}\n"), 0o644)
	get := func(args ...string) map[string]any {
		t.Helper()
		out, errOut, _ := run(t, nil, append(args, "-o", "json")...)
		var m map[string]any
		if err := json.Unmarshal([]byte(out), &m); err != nil {
			t.Fatalf("%v: %v\n%s%s", args, err, out, errOut)
		}
		return m
	}
	for _, v := range []string{"1.3.0rc27", "1.4.0rc4"} {
		if m := get("explain", "--config", noObject, "--trtllm", v); m["outcome"] != "DISABLED" || m["resolved_runtime"] != nil || m["kv_cache_manager"] != nil {
			t.Errorf("%s, no object: outcome %v resolved_runtime %v kv_cache_manager %v", v, m["outcome"], m["resolved_runtime"], m["kv_cache_manager"])
		}
	}
	if m := get("explain", "--config", emptyObject, "--trtllm", "1.3.0rc27"); m["resolved_runtime"] != "auto" {
		t.Errorf("an object without backend: resolved_runtime %v, want the default 'auto'", m["resolved_runtime"])
	}
	if m := get("explain", "--config", noObject, "--backend", "NIXL", "--trtllm", "1.3.0rc27"); m["resolved_runtime"] != "PYTHON" {
		t.Errorf("a flag describes the object: resolved_runtime %v", m["resolved_runtime"])
	}
	for _, loader := range []string{"_autodeploy", "none"} {
		m := get("explain", "--backend", "NIXL", "--loader", loader, "--trtllm", "1.3.0rc27")
		in := m["inputs"].(map[string]any)["use_kv_cache_manager_v2"].(map[string]any)
		if m["kv_cache_manager"] != "V1" || in["value"] != "auto" {
			t.Errorf("loader %s: kv_cache_manager %v with use_kv_cache_manager_v2 %v", loader, m["kv_cache_manager"], in["value"])
		}
	}
}

func TestJSONContract(t *testing.T) {
	out, _, _ := run(t, nil, "explain", "--trtllm", "1.3.0rc22", "--backend", "UCX", "-o", "json")
	var m map[string]any
	if err := json.Unmarshal([]byte(out), &m); err != nil {
		t.Fatal(err)
	}
	for _, k := range []string{"trtllm", "inputs", "outcome", "resolved_runtime", "effective_backend", "backend_source", "transceiver_class", "error", "logs", "steps"} {
		if _, ok := m[k]; !ok {
			t.Errorf("JSON lacks %q", k)
		}
	}
	if m["resolved_runtime"] != nil || m["outcome"] != "CPP" || m["transceiver_class"] != "BindKvCacheTransceiver" || m["error"] != nil {
		t.Errorf("values: %v %v %v %v", m["resolved_runtime"], m["outcome"], m["transceiver_class"], m["error"])
	}
	step := m["steps"].([]any)[0].(map[string]any)
	for _, k := range []string{"id", "title", "verdict", "reason", "source", "confidence"} {
		if _, ok := step[k]; !ok {
			t.Errorf("step lacks %q", k)
		}
	}
	// 1.3.0rc22 resolves use_kv_cache_manager_v2 from the model defaults first
	// (GPT-OSS had none yet), then the transceiver.
	logs := m["logs"].([]any)
	first, second := logs[0].(map[string]any), logs[1].(map[string]any)
	if first["level"] != "INFO" || first["message"] != "Resolved use_kv_cache_manager_v2='auto' to False for GptOssForCausalLM" {
		t.Errorf("first log %v", first)
	}
	if second["level"] != "INFO" || !strings.HasPrefix(second["message"].(string), "Model prefers the Python transceiver") {
		t.Errorf("second log %v", second)
	}
	if m["kv_cache_manager"] != "V1" || m["cache_manager_class"] != "KVCacheManager" {
		t.Errorf("kv_cache_manager %v, cache_manager_class %v", m["kv_cache_manager"], m["cache_manager_class"])
	}
	if in := m["inputs"].(map[string]any)["use_kv_cache_manager_v2"].(map[string]any); in["value"] != "auto" || in["origin"] != "default" {
		t.Errorf("inputs.use_kv_cache_manager_v2 %v", in)
	}
	out, _, _ = run(t, nil, "explain", "--backend", "none", "-o", "json")
	m = nil
	if err := json.Unmarshal([]byte(out), &m); err != nil {
		t.Fatal(err)
	}
	if v, ok := m["kv_cache_manager"]; !ok || v != nil {
		t.Errorf("disaggregation off: kv_cache_manager %v (present %v), want null", v, ok)
	}
}

func TestNoANSIUnlessAsked(t *testing.T) {
	out, _, _ := run(t, nil, "explain")
	if strings.Contains(out, "\x1b[") {
		t.Error("ANSI escapes on a non-terminal")
	}
	out, _, _ = run(t, nil, "--color", "always", "explain")
	if !strings.Contains(out, "\x1b[") {
		t.Error("--color always printed no colour")
	}
	out, _, _ = run(t, []string{"NO_COLOR=1"}, "explain", "--color", "auto")
	if strings.Contains(out, "\x1b[") {
		t.Error("NO_COLOR ignored")
	}
}

// TestBinary runs the real command: exit codes and stream separation as a shell
// sees them.
func TestBinary(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary")
	}
	bin := filepath.Join(t.TempDir(), "xcvr")
	build := exec.Command("go", "build", "-o", bin, "../..")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("build: %v\n%s", err, out)
	}
	cmd := exec.Command(bin, "explain", "--backend", "MPI", "--trtllm", "1.3.0rc26", "--model", "MistralForCausalLM")
	cmd.Env = []string{"PATH=" + os.Getenv("PATH")}
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	if err := cmd.Run(); err != nil {
		t.Fatalf("run: %v %s", err, errb.String())
	}
	if !strings.Contains(out.String(), "[TRT-LLM] [W] MPI CacheTransceiver is deprecated, UCX or NIXL is recommended") || errb.Len() != 0 {
		t.Errorf("stdout %q stderr %q", out.String(), errb.String())
	}
	cmd = exec.Command(bin, "explain", "--trtllm", "2.0")
	cmd.Env = []string{"PATH=" + os.Getenv("PATH")}
	out.Reset()
	errb.Reset()
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != 2 || out.Len() != 0 || !strings.HasPrefix(errb.String(), "xcvr: unknown TensorRT-LLM version") {
		t.Errorf("err %v stdout %q stderr %q", err, out.String(), errb.String())
	}
}

func TestCompletion(t *testing.T) {
	out, _, code := run(t, nil, "__complete", "explain", "--model", "Gpt")
	if code != 0 || !strings.Contains(out, "GptOssForCausalLM") {
		t.Errorf("model completion: exit %d\n%s", code, out)
	}
	out, _, _ = run(t, nil, "__complete", "explain", "--backend", "")
	for _, b := range []string{"DEFAULT", "NIXL", "UCX", "MPI", "MOONCAKE", "none"} {
		if !strings.Contains(out, b+"\n") {
			t.Errorf("backend completion lacks %s:\n%s", b, out)
		}
	}
	out, _, _ = run(t, nil, "__complete", "explain", "--trtllm", "1.4")
	if !strings.Contains(out, "1.4.0rc1") {
		t.Errorf("version completion:\n%s", out)
	}
	out, _, code = run(t, nil, "completion", "bash")
	if code != 0 || !strings.Contains(out, "bash completion") {
		t.Errorf("completion bash: exit %d", code)
	}
}

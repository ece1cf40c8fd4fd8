package cli

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"
)

const dt = "../deploy/testdata/"
const lt = "../logs/testdata/"

func TestDeployExitCodesAndStreams(t *testing.T) {
	cases := []struct {
		args      []string
		code      int
		stdoutHas string
		stderrHas string
	}{
		{[]string{"explain", "--config", dt + "ctx-nixl.yaml", "--trtllm", "main@2026-09-10"}, 0, "Outcome: Python transceiver", ""},
		{[]string{"explain", "--config", dt + "gen-invalid.yaml"}, 1, "Extra inputs are not permitted [type=extra_forbidden, input_value=32, input_type=int]", ""},
		{[]string{"explain", "--config", dt + "gen-invalid.yaml"}, 1, "gen-invalid.yaml:10", ""},
		{[]string{"explain", "--config", dt + "ctx-zero-timeout.yaml"}, 1, "Input should be greater than 0", ""},
		{[]string{"explain", "--config", dt + "gen-transceiver-scalar.yaml"}, 1, "cache_transceiver_config\n    Input should be a valid dictionary or instance of CacheTransceiverConfig [type=model_type, input_value='UCX', input_type=str]", ""},
		{[]string{"explain", "--config", dt + "gen-transceiver-scalar.yaml", "-o", "json"}, 1, `"error": "pydantic_core._pydantic_core.ValidationError: 1 validation error for TorchLlmArgs\ncache_transceiver_config\n  Input should be a valid dictionary`, ""},
		{[]string{"explain", "--config", dt + "gen-ucx-cpp.yaml", "--runtime", "PYTHON", "-o", "json"}, 1, "flag --runtime (overrides ../deploy/testdata/gen-ucx-cpp.yaml:16)", ""},
		{[]string{"explain", "--disagg", dt + "disagg-conflict.yaml"}, 1, "", "disagg-conflict.yaml:13: ValueError: Parameter cache_transceiver_config is specified both in the top-level and in the generation_servers section, but with different values"},
		{[]string{"explain", "--disagg", dt + "disagg-nixl.yaml", "--role", "generation", "--trtllm", "main@2026-09-10"}, 0, "Outcome: Python transceiver", ""},
		{[]string{"explain", "--disagg", dt + "disagg-nixl.yaml", "--role", "prefill"}, 2, "", `--role "prefill": want context or generation`},
		{[]string{"explain", "--role", "context"}, 2, "", "--role needs --disagg"},
		{[]string{"explain", "--config", dt + "ctx-nixl.yaml", "--disagg", dt + "disagg-nixl.yaml"}, 2, "", "give one"},
		{[]string{"explain", "--config", dt + "missing.yaml"}, 2, "", "missing.yaml"},
		// A checkpoint's config.json given as the worker YAML: TorchLlmArgs is
		// strict, so its keys refuse the file.
		{[]string{"explain", "--config", dt + "gpt-oss-120b/config.json", "-o", "json"}, 1, `architectures\n  Extra inputs are not permitted [type=extra_forbidden, input_value=['GptOssForCausalLM'], input_type=list]`, ""},
		// No architectures: no model class at config load, and from_config then
		// refuses the config.
		{[]string{"explain", "--model-dir", dt + "no-arch"}, 1, "Outcome: Start-up fails: ValueError: architectures field is required in pretrained_config from HF checkpoint config.json", "TensorRT-LLM resolves no model class"},
		{[]string{"explain", "--model-dir", dt + "gpt-oss-120b", "--model", "LlamaForCausalLM", "-o", "json"}, 0, `"origin": "flag --model (overrides ../deploy/testdata/gpt-oss-120b/config.json)"`, ""},
		{[]string{"explain", "--model-config", dt + "llama-eagle3/config.json"}, 0, "", "renamed EAGLE3LlamaForCausalLM"},
		// An Eagle3 draft of a registered architecture: the transceiver line names
		// the class registered for architectures[0], the KV-cache manager line the
		// class it runs as.
		{[]string{"explain", "--clean-env", "--model-config", dt + "llama-eagle3-draft/config.json", "--trtllm", "main@2026-09-10", "--backend", "NIXL"}, 0,
			"[TRT-LLM] [I] Resolved transceiver_runtime='auto' to 'PYTHON' for LlamaForCausalLM.\n  [TRT-LLM] [I] Resolved use_kv_cache_manager_v2='auto' to False for EAGLE3LlamaForCausalLM\n", "runs as EAGLE3LlamaForCausalLM"},
		{[]string{"explain", "--env-file", dt + "worker.env", "--backend", "DEFAULT", "--trtllm", "main@2026-09-10", "--model", "Qwen3ForCausalLM", "-o", "json"}, 0, `"origin": "../deploy/testdata/worker.env:3"`, ""},
		{[]string{"explain", "--env-file", dt + "worker.env", "--env", "TRTLLM_USE_UCX_KVCACHE=0", "-o", "json"}, 0, `"value": "0",
      "origin": "flag --env"`, ""},
		{[]string{"explain", "--trtllm", "1.4.0rc4", "-o", "yaml"}, 0, "# pinned by xcvr against TensorRT-LLM 1.4.0rc4 (main@2026-11-11)", ""},
		{[]string{"explain", "--backend", "UCX", "-o", "yaml"}, 1, "# xcvr: nothing to pin", ""},
		{[]string{"explain", "--pid", "-5"}, 2, "", "want a positive process id"},
		{[]string{"check-logs", lt + "ctx-era2-srun.log"}, 0, "srun task 3: PYTHON", ""},
		{[]string{"check-logs", lt + "ctx-era2-srun.log"}, 0, "ctx-era2-srun.log: 40 lines, 4 process(es), 4 with transceiver lines\n", ""},
		{[]string{"check-logs", lt + "one-node-ctx-tp1-gen-tp2.log"}, 0, "one-node-ctx-tp1-gen-tp2.log: 20 lines, 3 process(es), 3 with transceiver lines\n", ""},
		{[]string{"check-logs", lt + "gen-era2-error.log"}, 1, "rank 1: ERROR", ""},
		{[]string{"check-logs", "--trtllm", "main@2026-09-10", "--backend", "UCX", lt + "gen-era2-error.log"}, 0, "Every process agrees with the prediction.", ""},
		{[]string{"check-logs", "--trtllm", "main@2026-09-10", "--backend", "UCX", lt + "gen-era1-mpirun.log"}, 1, "▶ mpirun [1,0] line 4:", ""},
		{[]string{"check-logs", "--disagg", dt + "disagg-nixl.yaml", lt + "ctx-era2-srun.log"}, 2, "", "pass --role context or --role generation"},
		// Issue 9: the KV-cache manager and pipelined transfer's static settings from the file.
		{[]string{"explain", "--config", dt + "worker-pipelined.yaml", "--trtllm", "main@2026-09-10"}, 1, "Outcome: Start-up fails: ValueError: enable_chunked_prefill is required when enable_pipelined_transfer is set.", ""},
		{[]string{"explain", "--config", dt + "worker-pipelined.yaml", "--trtllm", "main@2026-09-10", "-o", "json"}, 1, `"origin": "../deploy/testdata/worker-pipelined.yaml:8"`, ""},
		// V2 written with the C++ transceiver: kept, and then BindKvCacheTransceiver cannot take it.
		{[]string{"explain", "--config", dt + "worker-kv-v2-ucx.yaml", "--trtllm", "main@2026-09-10", "-o", "json"}, 1, `"kv_cache_manager": "V2"`, ""},
		{[]string{"explain", "--config", dt + "worker-kv-v2-ucx.yaml", "--trtllm", "main@2026-09-10", "-o", "json"}, 1, `"use_kv_cache_manager_v2": {
      "value": true,
      "origin": "../deploy/testdata/worker-kv-v2-ucx.yaml:3"`, ""},
		{[]string{"explain", "--config", dt + "worker-kv-v2-ucx.yaml", "--trtllm", "main@2026-09-10", "--kv-cache-manager", "v1", "-o", "json"}, 0, `"origin": "flag --kv-cache-manager (overrides ../deploy/testdata/worker-kv-v2-ucx.yaml:3)"`, ""},
		{[]string{"explain", "--kv-cache-manager", "v3"}, 2, "", `--kv-cache-manager "v3": want auto, v1 or v2`},
		{[]string{"explain", "--config", dt + "worker-agent-bounce.yaml", "--trtllm", "1.3.0rc27"}, 1, "cache_transceiver_config.agent_bounce_buffer_enable\n    Extra inputs are not permitted [type=extra_forbidden, input_value=True, input_type=bool]", ""},
		// validate_bounce_config refuses the flag without a capacity from
		// #15780 (2026-09-16; read in 1.3.0rc29's llm_args.py, so 1.3.0rc28
		// on); from 1.4.0rc4 the flag is a no-op.
		{[]string{"explain", "--config", dt + "worker-agent-bounce.yaml", "--trtllm", "1.3.0rc28"}, 1, "    Value error, agent_bounce_buffer_enable selects the C++ transfer-agent bounce implementation, but kv_cache_bounce_size_mb is 0 (bounce disabled); set a positive capacity. [type=value_error", ""},
		{[]string{"explain", "--config", dt + "worker-agent-bounce.yaml", "--trtllm", "1.4.0rc1"}, 1, "    Value error, agent_bounce_buffer_enable selects the C++ transfer-agent bounce implementation, but kv_cache_bounce_size_mb is 0 (bounce disabled); set a positive capacity. [type=value_error", ""},
		{[]string{"explain", "--config", dt + "worker-agent-bounce.yaml", "--trtllm", "1.4.0rc4"}, 0, "Outcome: Python transceiver", ""},
		{[]string{"explain", "--disagg", dt + "disagg-pipelined.yaml", "--trtllm", "main@2026-09-10", "-o", "json"}, 0, "enable_pipelined_transfer on the context role needs context_parallel_size=1 on both peers (docs 1.3.0rc27); the generation role sets 2 (../deploy/testdata/disagg-pipelined.yaml:15)", ""},
		{[]string{"check-logs", "--disagg", dt + "disagg-nixl.yaml", "--role", "context", lt + "ctx-era2-srun.log"}, 0, "Every process agrees", ""},
		{[]string{"check-logs", "--disagg", dt + "disagg-nixl.yaml", "--role", "context", lt + "ctx-era2-srun.log"}, 0, "Predicted for TensorRT-LLM 1.3.0rc26: Python transceiver (KvCacheTransceiverV2)\n  version: the log states TensorRT-LLM 1.3.0rc26 (line 2)\n", ""},
		{[]string{"check-logs", "--disagg", dt + "disagg-nixl.yaml", "--role", "context", "--trtllm", "main@2026-09-10", lt + "ctx-era2-srun.log"}, 1, "▶ srun task 0 line 2: the log states TensorRT-LLM 1.3.0rc26 (behaves like main at 2026-09-04), but the prediction is for main@2026-09-10", ""},
		{[]string{"check-logs", lt + "nope.log"}, 2, "", "nope.log"},
		{[]string{"check-logs"}, 2, "", "check-logs needs the logs"},
	}
	for _, c := range cases {
		t.Run(strings.Join(c.args, " "), func(t *testing.T) {
			out, errOut, code := run(t, nil, c.args...)
			if code != c.code {
				t.Fatalf("exit %d, want %d\nstdout: %s\nstderr: %s", code, c.code, out, errOut)
			}
			if !strings.Contains(out, c.stdoutHas) {
				t.Errorf("stdout lacks %q:\n%s", c.stdoutHas, out)
			}
			if !strings.Contains(errOut, c.stderrHas) {
				t.Errorf("stderr lacks %q:\n%s", c.stderrHas, errOut)
			}
		})
	}
}

func TestExplainBothRolesJSON(t *testing.T) {
	out, errOut, code := run(t, nil, "explain", "--disagg", dt+"disagg-mismatch.yaml", "--trtllm", "main@2026-09-10", "-o", "json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var got struct {
		Roles map[string]struct {
			Outcome string `json:"outcome"`
			Inputs  map[string]struct {
				Value  any    `json:"value"`
				Origin string `json:"origin"`
			} `json:"inputs"`
		} `json:"roles"`
		Consistent bool     `json:"consistent"`
		Warnings   []string `json:"warnings"`
	}
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatal(err)
	}
	if got.Consistent || len(got.Warnings) != 1 || !strings.Contains(got.Warnings[0], "transceiver_runtime (context: auto from default; generation: CPP from ../deploy/testdata/disagg-mismatch.yaml:17)") {
		t.Errorf("consistent %v warnings %q", got.Consistent, got.Warnings)
	}
	if got.Roles["context"].Outcome != "PYTHON" || got.Roles["generation"].Outcome != "CPP" {
		t.Errorf("roles %+v", got.Roles)
	}
	if o := got.Roles["generation"].Inputs["backend"].Origin; o != "../deploy/testdata/disagg-mismatch.yaml:16" {
		t.Errorf("backend origin %q", o)
	}

	out, _, code = run(t, nil, "explain", "--disagg", dt+"disagg-nixl.yaml", "--trtllm", "main@2026-09-10", "-o", "json")
	if code != 0 || !strings.Contains(out, `"consistent": true`) || !strings.Contains(out, `"warnings": []`) {
		t.Errorf("consistent disagg: exit %d\n%s", code, out)
	}
	out, _, _ = run(t, nil, "explain", "--disagg", dt+"disagg-nixl.yaml", "--trtllm", "main@2026-09-10")
	if !strings.Contains(out, "══ context role (context_servers of ../deploy/testdata/disagg-nixl.yaml) ══") || !strings.Contains(out, "Both roles: Python transceiver (KvCacheTransceiverV2) on NIXL") {
		t.Errorf("text:\n%s", out)
	}
}

func TestCheckLogsJSONAndStdin(t *testing.T) {
	data, err := os.ReadFile(lt + "gen-era1-mpirun.log")
	if err != nil {
		t.Fatal(err)
	}
	var out, errb strings.Builder
	code := Main([]string{"check-logs", "--trtllm", "main@2026-08-05", "--backend", "UCX", "-o", "json", "-"}, strings.NewReader(string(data)), &out, &errb, nil)
	if code != 0 {
		t.Fatalf("exit %d: %s\n%s", code, errb.String(), out.String())
	}
	var got struct {
		Observed []struct {
			Source           string  `json:"source"`
			ResolvedRuntime  *string `json:"resolved_runtime"`
			TransceiverClass string  `json:"transceiver_class"`
			EffectiveBackend string  `json:"effective_backend"`
			Error            *string `json:"error"`
			Lines            []struct {
				Line    int    `json:"line"`
				Message string `json:"message"`
			} `json:"lines"`
		} `json:"observed"`
		Predicted  map[string]any `json:"predicted"`
		Mismatches []any          `json:"mismatches"`
	}
	if err := json.Unmarshal([]byte(out.String()), &got); err != nil {
		t.Fatal(err)
	}
	if len(got.Observed) != 2 || got.Observed[0].Source != "mpirun [1,0]" || got.Observed[0].ResolvedRuntime != nil ||
		got.Observed[0].TransceiverClass != "BindKvCacheTransceiver" || got.Observed[0].EffectiveBackend != "UCX" || got.Observed[0].Error != nil {
		t.Errorf("observed %+v", got.Observed)
	}
	if got.Predicted["outcome"] != "CPP" || got.Mismatches == nil || len(got.Mismatches) != 0 {
		t.Errorf("predicted %v mismatches %v", got.Predicted["outcome"], got.Mismatches)
	}
	out.Reset()
	Main([]string{"check-logs", "-o", "json", lt + "env-ucx-srun.log"}, nil, &out, &errb, nil)
	if !strings.Contains(out.String(), `"predicted": null`) {
		t.Errorf("no-prediction JSON:\n%s", out.String())
	}
}

// TestPidReadsRunningServer starts a stand-in trtllm-serve (a shell script of that
// name) and reads its command line, working directory and environment via /proc.
func TestPidReadsRunningServer(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("needs /proc")
	}
	abs, _ := filepath.Abs(dt)
	pid := startServe(t, abs, []string{"PATH=/usr/bin:/bin", "TRTLLM_USE_NIXL_KVCACHE=1"},
		"openai/gpt-oss-120b", "--host", "0.0.0.0", "--extra_llm_api_options", "gen-ucx-cpp.yaml", "--backend", "pytorch")
	out, errOut, code := run(t, nil, "explain", "--pid", itoa(pid), "--trtllm", "main@2026-09-10", "-o", "json")
	if code != 0 {
		t.Fatalf("exit %d\n%s\n%s", code, out, errOut)
	}
	for _, want := range []string{
		`"origin": "` + abs + `/gen-ucx-cpp.yaml:15"`,
		`"TRTLLM_USE_NIXL_KVCACHE": {
      "value": "1",
      "origin": "env /proc/` + itoa(pid) + `/environ"`,
		`"value": "GptOssForCausalLM",
      "origin": "flag trtllm-serve MODEL (/proc/`,
		`"outcome": "CPP"`,
	} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %s\n%s", want, out)
		}
	}
}

// startServe starts a stand-in trtllm-serve (a shell script of that name
// that sleeps) in dir with env and args, and returns its process id once
// /proc shows its command line.
func startServe(t *testing.T, dir string, env []string, args ...string) int {
	t.Helper()
	script := filepath.Join(t.TempDir(), "trtllm-serve")
	if err := os.WriteFile(script, []byte("#!/bin/sh\nsleep 30\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command("/bin/sh", append([]string{script}, args...)...)
	cmd.Dir = dir
	cmd.Env = env
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cmd.Process.Kill(); _ = cmd.Wait() })
	// The kernel fills /proc/PID/cmdline at exec; wait until it shows the script.
	for i := 0; i < 100; i++ {
		b, _ := os.ReadFile(filepath.Join("/proc", itoa(cmd.Process.Pid), "cmdline"))
		if strings.Contains(string(b), "trtllm-serve") {
			break
		}
		time.Sleep(10 * time.Millisecond)
	}
	return cmd.Process.Pid
}

// TestPidServeBackendUnderConfig: the config's backend key wins over
// trtllm-serve's --backend (serve.py lays the YAML over the command line:
// llm_args | llm_args_dict), which decides only when the config is silent.
func TestPidServeBackendUnderConfig(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("needs /proc")
	}
	dir := t.TempDir()
	for name, yaml := range map[string]string{
		"ad.yaml":    "backend: _autodeploy\ncache_transceiver_config:\n  backend: NIXL\n",
		"plain.yaml": "cache_transceiver_config:\n  backend: NIXL\n",
		"trt.yaml":   "backend: trt\ncache_transceiver_config:\n  backend: NIXL\n",
	} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(yaml), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, c := range []struct{ config, flag, want, warn string }{
		{"ad.yaml", "pytorch", `"value": "autodeploy",
      "origin": "` + dir + `/ad.yaml:1"`, "trtllm-serve --backend pytorch: the config's backend key wins"},
		{"plain.yaml", "_autodeploy", `"value": "autodeploy",
      "origin": "flag trtllm-serve --backend (/proc/`, ""},
		// The same value on both sides, one xcvr does not model as a
		// loader: nothing to warn about.
		{"trt.yaml", "trt", `"value": "pytorch",`, ""},
	} {
		pid := startServe(t, dir, []string{"PATH=/usr/bin:/bin"}, "openai/gpt-oss-120b", "--extra_llm_api_options", c.config, "--backend", c.flag)
		out, errOut, code := run(t, nil, "explain", "--pid", itoa(pid), "--trtllm", "1.3.0rc26", "-o", "json")
		if code != 0 || !strings.Contains(out, c.want) || !strings.Contains(errOut, c.warn) || c.warn == "" && strings.Contains(errOut, "wins") {
			t.Errorf("%s, --backend %s: exit %d, want %s and warning %q\n%s\n%s", c.config, c.flag, code, c.want, c.warn, out, errOut)
		}
	}
}

func itoa(n int) string { return strconv.Itoa(n) }

// TestCheckLogsCountsProcessesWithLines: a rank that logged only unrelated lines
// is a process, but not one "with transceiver lines".
func TestCheckLogsCountsProcessesWithLines(t *testing.T) {
	log := " 0: [09/20/2026-11:00:01] [TRT-LLM] [RANK 0] [I] cache_transceiver is disabled\n" +
		" 1: [09/20/2026-11:00:01] [TRT-LLM] [RANK 1] [I] Using LLM with PyTorch backend\n"
	var out, errb bytes.Buffer
	code := Main([]string{"check-logs", "-"}, strings.NewReader(log), &out, &errb, nil)
	if code != 0 || !strings.HasPrefix(out.String(), "stdin: 2 lines, 2 process(es), 1 with transceiver lines\n") {
		t.Errorf("exit %d\n%s%s", code, out.String(), errb.String())
	}
}

// Issue 19: an nvfp4 KV cache on an MLA model is reported to force
// KVCacheManagerV2 before the model preference; no upstream code was found,
// so xcvr does not apply it but says, only then, that its answer may be wrong.
func TestNVFP4OnMLANote(t *testing.T) {
	dir := t.TempDir()
	write := func(name, text string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	mla := write("mla.json", `{"architectures": ["DeepseekV3ForCausalLM"], "kv_lora_rank": 512, "qk_rope_head_dim": 64}`)
	zero := write("zero.json", `{"architectures": ["DeepseekV3ForCausalLM"], "kv_lora_rank": 0, "qk_rope_head_dim": 64}`)
	nvfp4 := write("w.yaml", "kv_cache_config:\n  dtype: NVFP4\ncache_transceiver_config:\n  backend: NIXL\n")
	fp8 := write("fp8.yaml", "kv_cache_config:\n  dtype: fp8\ncache_transceiver_config:\n  backend: NIXL\n")
	pinned := write("v1.yaml", "kv_cache_config:\n  dtype: nvfp4\n  use_kv_cache_manager_v2: false\ncache_transceiver_config:\n  backend: NIXL\n")
	want := NVFP4MLANote(nvfp4+":2", mla)
	for _, c := range []struct {
		config, model string
		note          bool
	}{
		{nvfp4, mla, true},
		{nvfp4, zero, false}, // is_mla: kv_lora_rank must be truthy
		{fp8, mla, false},    // not an nvfp4 KV cache
		{pinned, mla, false}, // set explicitly: not 'auto'
	} {
		_, errOut, code := run(t, nil, "explain", "--clean-env", "--config", c.config, "--model-config", c.model)
		if code != 0 || strings.Contains(errOut, "issue 19 reports") != c.note {
			t.Errorf("%s with %s: exit %d, note %v:\n%s", filepath.Base(c.config), filepath.Base(c.model), code, c.note, errOut)
		}
		if c.note && !strings.Contains(errOut, want) {
			t.Errorf("note:\n%s\nwant:\n%s", errOut, want)
		}
	}
}

// TestExplainModelByName: a worker YAML's model that is not a listed id as
// written but names one (quantized, a checkpoint directory) is read as audit
// reads it (models.Catalog.FindByName, FindByDirName), inferred and said so;
// explain used xcvr's default model with "not a Hugging Face id xcvr knows".
func TestExplainModelByName(t *testing.T) {
	dir := t.TempDir()
	for _, c := range []struct{ model, origin, warn string }{
		{"Qwen/Qwen3-32B-FP8", ", inferred from Qwen/Qwen3-32B-FP8 as Qwen/Qwen3-32B quantized", "it names Qwen/Qwen3-32B quantized, whose architecture is Qwen3ForCausalLM"},
		{"/models/Qwen3-8B", ", inferred from the directory name Qwen3-8B", "a path; its directory is named as Qwen/Qwen3-8B is"},
	} {
		cfg := filepath.Join(dir, "w.yaml")
		if err := os.WriteFile(cfg, []byte("model: "+c.model+"\ncache_transceiver_config:\n  backend: NIXL\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		out, errOut, code := run(t, nil, "explain", "--trtllm", "1.3.0rc26", "--config", cfg, "-o", "json")
		want := `"value": "Qwen3ForCausalLM",
      "origin": "` + cfg + `:1` + c.origin + `"`
		if code != 0 || !strings.Contains(out, want) || !strings.Contains(errOut, c.warn) {
			t.Errorf("%s: exit %d, want %s and warning %q\n%s\n%s", c.model, code, want, c.warn, out, errOut)
		}
	}
}

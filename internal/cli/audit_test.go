package cli

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

const at = "../audit/testdata/"

func TestAuditExitCodesAndOutputs(t *testing.T) {
	cases := []struct {
		args      []string
		code      int
		stdoutHas string
		stderrHas string
	}{
		{[]string{"audit", at + "k8s-deploy.yaml", "--trtllm", "1.3.0rc29"}, 0, "Deployment: ✓ every context and generation worker ends on Python transceiver (KvCacheTransceiverV2) on NIXL.", ""},
		{[]string{"audit", at + "dgd.yaml", "--trtllm", "1.3.0rc29"}, 1, "  decode: backend: NIXL → PYTHON KvCacheTransceiverV2 on NIXL", ""},
		{[]string{"audit", at + "dgd.yaml", "--trtllm", "1.3.0rc29", "-o", "markdown"}, 1, "| generation | decode | 1 | ● CPP | UCX |", ""},
		{[]string{"audit", at + "submit.yaml", "--trtllm", "1.3.0rc29"}, 0, "worker_config.ctx  2  ✓ PYTHON", ""},
		// A real sbatch script (upstream's simple_example) with its worker YAMLs.
		{[]string{"audit", at + "real/simple_example/launch.slurm", at + "real/simple_example/ctx_extra-llm-api-config.yaml", at + "real/simple_example/gen_extra-llm-api-config.yaml", "--trtllm", "1.2.0"}, 0, "context     ctx_extra-llm-api-config.yaml  1  ● CPP    UCX", ""},
		// Only an orchestrator's routes: no worker resolved, so nothing is
		// vouched for (exit 1, as for an empty List below).
		{[]string{"audit", at + "orchestrator.yaml"}, 1, "only lists its servers; each worker's own --config decides its transceiver: context ctx-0:8001, ctx-1:8001; generation gen-0:8002;", ""},
		// --env applies to every worker: UCX for DEFAULT fails both DGD roles.
		{[]string{"audit", at + "dgd.yaml", "--trtllm", "1.3.0rc29", "--env", "TRTLLM_USE_UCX_KVCACHE=0"}, 0, "Deployment: ✓", ""},
		// xcvr's own environment is not the workers'.
		{[]string{"audit", at + "k8s-deploy.yaml", "--trtllm", "1.3.0rc29", "--config", "x.yaml"}, 2, "", "audit reads whole deployments"},
		{[]string{"audit", at + "missing.yaml"}, 2, "", "missing.yaml"},
		{[]string{"audit"}, 2, "", "audit needs the deployment's files"},
		{[]string{"audit", at + "k8s-deploy.yaml", "-o", "yaml"}, 2, "", "want text, json, markdown"},
		// --to: upgrade-check's verdicts for every worker.
		{[]string{"audit", at + "kubectl-list.yaml", "--trtllm", "1.3.0rc22", "--to", "1.4.0rc1"}, 1, "decode/worker", ""},
		// A deployment file given to --config or --disagg.
		{[]string{"explain", "--config", at + "submit.yaml"}, 1, "", "is a Slurm submit config (worker_config.ctx/gen, as upstream's submit.py reads), not a worker config; TensorRT-LLM refuses it:\npydantic_core._pydantic_core.ValidationError: 5 validation errors for TorchLlmArgs\nslurm\n  Extra inputs are not permitted [type=extra_forbidden"},
		{[]string{"explain", "--config", at + "dgd.yaml"}, 2, "", "expected a single document in the stream\n  in \"../audit/testdata/dgd.yaml\", line 5, column 1\nbut found another document\n  in \"../audit/testdata/dgd.yaml\", line 31, column 1\nthe file holds Kubernetes objects ('ConfigMap', ...): xcvr audit ../audit/testdata/dgd.yaml resolves the workers they describe"},
		{[]string{"explain", "--disagg", at + "orchestrator.yaml"}, 0, "  context (context_servers): ctx-0:8001, ctx-1:8001\n", ""},
		{[]string{"upgrade-check", "--from", "1.3.0rc29", "--disagg", at + "orchestrator.yaml"}, 0, "each worker's own --config decides its transceiver, not this file", ""},
		// One worker of a set in explain and upgrade-check.
		{[]string{"explain", "--worker", at + "dgd.yaml#decode", "--trtllm", "1.3.0rc29"}, 0, "Qwen3ForCausalLM · backend DEFAULT", ""},
		{[]string{"explain", "--worker", at + "dgd.yaml#decode", "--trtllm", "1.3.0rc29", "-o", "json"}, 0, `"origin": "../audit/testdata/dgd.yaml:30 (ConfigMap nvidia-config, decode.yaml:9)"`, ""},
		{[]string{"upgrade-check", "--worker", at + "kubectl-list.yaml#prefill/worker", "--from", "1.3.0rc29", "--to", "1.4.0rc1"}, 0, "", ""},
		{[]string{"explain", "--worker", at + "dgd.yaml#nope"}, 2, "", `--worker: no worker "nope" in ../audit/testdata/dgd.yaml (it has: prefill, decode)`},
		{[]string{"explain", "--worker", at + "dgd.yaml"}, 2, "", "want FILE[,FILE...]#NAME"},
	}
	for _, c := range cases {
		t.Run(strings.Join(c.args, " "), func(t *testing.T) {
			out, errOut, code := run(t, []string{"TRTLLM_USE_UCX_KVCACHE=1"}, c.args...)
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

// kubectl get ... -o yaml | xcvr audit -, and the JSON contract's fields.
func TestAuditStdinJSON(t *testing.T) {
	data, err := os.ReadFile(at + "kubectl-list.yaml")
	if err != nil {
		t.Fatal(err)
	}
	var out, errb bytes.Buffer
	code := Main([]string{"audit", "-", "--trtllm", "1.3.0rc29", "-o", "json"}, bytes.NewReader(data), &out, &errb, nil)
	if code != 1 {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	var got struct {
		TRTLLM  string `json:"trtllm"`
		Workers []struct {
			Name, Role, Source, Outcome string
			Count                       int
			EffectiveBackend            *string `json:"effective_backend"`
			ResolvedRuntime             *string `json:"resolved_runtime"`
			TransceiverClass            *string `json:"transceiver_class"`
			KVCacheManager              *string `json:"kv_cache_manager"`
			Error                       *string `json:"error"`
			Inputs                      map[string]struct {
				Value  any
				Origin string
			}
		} `json:"workers"`
		Consistent bool     `json:"consistent"`
		Failing    []string `json:"failing"`
		Fix        []struct {
			Worker string
			Edits  []string
		} `json:"fix"`
		Unplaced []any    `json:"unplaced"`
		Warnings []string `json:"warnings"`
		Objects  int      `json:"objects"`
	}
	if err := json.Unmarshal(out.Bytes(), &got); err != nil {
		t.Fatalf("%v\n%s", err, out.String())
	}
	if got.TRTLLM != "1.3.0rc29" || len(got.Workers) != 2 || got.Objects != 6 || !got.Consistent {
		t.Fatalf("%+v", got)
	}
	w := got.Workers[1]
	if w.Name != "decode/worker" || w.Role != "generation" || w.Outcome != "ERROR" || w.Error == nil || w.Count != 2 ||
		w.Source != "-:24 Deployment/decode container worker" || w.Inputs["backend"].Origin != "-:7 (ConfigMap gen-config, worker.yaml:2)" {
		t.Errorf("worker %+v", w)
	}
	if len(got.Failing) != 1 || len(got.Fix) != 1 || got.Fix[0].Edits[0] != "transceiver_runtime: CPP" {
		t.Errorf("failing %q fix %+v", got.Failing, got.Fix)
	}
}

// A directory is its deployment files: a recipe folder audited as a whole,
// hidden directories, symbolic links and other files left out.
func TestAuditDirectory(t *testing.T) {
	dir := t.TempDir()
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	for name, src := range map[string]string{
		"deploy/docker-compose-disagg.yml":  "../audit/testdata/real/dynamo-compose/docker-compose-disagg.yml",
		"engine_configs/qwen3/prefill.yaml": "../audit/testdata/real/dynamo-qwen3/prefill.yaml",
		"engine_configs/qwen3/decode.yaml":  "../audit/testdata/real/dynamo-qwen3/decode.yaml",
		".git/hooks/broken.yaml":            "",
	} {
		must(os.MkdirAll(filepath.Join(dir, filepath.Dir(name)), 0o755))
		data := []byte(": [\n")
		if src != "" {
			b, err := os.ReadFile(src)
			must(err)
			data = b
		}
		must(os.WriteFile(filepath.Join(dir, name), data, 0o644))
	}
	must(os.WriteFile(filepath.Join(dir, "README.md"), []byte("# not read\n"), 0o644))
	must(os.WriteFile(filepath.Join(dir, "weights.bin"), []byte{0, 1, 2}, 0o644))
	must(os.Symlink("/dev/zero", filepath.Join(dir, "zero.yaml")))
	out, errOut, code := run(t, nil, "audit", dir, "--trtllm", "1.3.0rc29")
	if code != 0 || !strings.Contains(out, "Audit: 2 worker configuration(s), 2 replica(s)/server(s), from 3 object(s)") {
		t.Fatalf("exit %d\n%s\n%s", code, out, errOut)
	}
	empty := t.TempDir()
	must(os.WriteFile(filepath.Join(empty, "notes.txt"), []byte("x"), 0o644))
	if _, errOut, code := run(t, nil, "audit", empty); code != 2 || !strings.Contains(errOut, "a directory with no deployment files") {
		t.Errorf("empty: exit %d %s", code, errOut)
	}
}

// The walk of a directory is bounded in entries, not only in files read.
func TestAuditDirectoryBounded(t *testing.T) {
	dir := t.TempDir()
	for i := 0; i < 30; i++ {
		if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("n%02d.txt", i)), nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	defer func(n int) { maxAuditDirEntries = n }(maxAuditDirEntries)
	maxAuditDirEntries = 10
	if _, err := expandAuditDirs([]string{dir}); err == nil || !strings.Contains(err.Error(), "more than 10 entries under it") {
		t.Errorf("err %v", err)
	}
}

// A gate must not pass on nothing: kubectl get in the wrong namespace prints
// an empty List (items: []), a kubectl that failed prints nothing, and a set
// of Services holds no worker. Each is said, and exits 1, as check-logs does
// when no process shows its transceiver.
func TestAuditNothingToAudit(t *testing.T) {
	const emptyList = "apiVersion: v1\nitems: []\nkind: List\nmetadata:\n  resourceVersion: \"\"\n"
	const services = "apiVersion: v1\nkind: Service\nmetadata:\n  name: trtllm-gen\n"
	cases := []struct {
		name, stdin string
		args        []string
		want        []string
	}{
		{"empty List", emptyList, nil, []string{
			"Audit: 0 worker configuration(s), 0 replica(s)/server(s), from 0 object(s)",
			"Deployment: ✗ no TensorRT-LLM worker in the input; nothing was audited.\n",
			"Warning: -:2: a List with no items: kubectl get found no objects (check its -n namespace, its context and the kinds it asked for)\n"}},
		{"empty List json", emptyList, []string{"-o", "json"}, []string{
			`"objects": 0,`, `"no TensorRT-LLM worker in the input; nothing was audited"`, `"-:2: a List with no items: kubectl get found no objects`}},
		{"empty List markdown", emptyList, []string{"-o", "markdown"}, []string{
			"Context and generation workers: ✗ no TensorRT-LLM worker in the input; nothing was audited\n",
			"Warning: -:2: a List with no items"}},
		{"empty stdin", "", nil, []string{"nothing was audited.\n", "Warning: -: empty: no YAML document in it\n"}},
		{"services only", services, nil, []string{"from 1 object(s)", "nothing was audited.\n", "-:2 Service/trtllm-gen: kind Service runs no TensorRT-LLM worker"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var out, errb bytes.Buffer
			code := Main(append([]string{"audit", "-", "--trtllm", "1.3.0rc29"}, c.args...), strings.NewReader(c.stdin), &out, &errb, nil)
			if code != 1 {
				t.Errorf("exit %d, want 1\n%s%s", code, out.String(), errb.String())
			}
			for _, w := range c.want {
				if !strings.Contains(out.String(), w) {
					t.Errorf("stdout lacks %q:\n%s", w, out.String())
				}
			}
			if strings.Contains(out.String(), "agree: ✓") {
				t.Errorf("an empty audit agrees:\n%s", out.String())
			}
		})
	}
}

// A worker found but not resolved (its config is the image's own, not in the
// set) is no pass: Dynamo's v1beta1 disagg example names
// ./examples/backends/trtllm/engine_configs/qwen3/{prefill,decode}.yaml
// inside its image. Alone, it said "no TensorRT-LLM worker in the input";
// with prefill.yaml given, "✓ every context and generation worker ends on
// C++ ... on NIXL" and exit 0, the decode worker never checked.
func TestAuditUnresolvedWorkers(t *testing.T) {
	dgd := filepath.Join("..", "audit", "testdata", "real", "dynamo-v1beta1-disagg.yaml")
	prefill := filepath.Join("..", "audit", "testdata", "real", "dynamo-qwen3", "prefill.yaml")
	cases := []struct {
		name   string
		args   []string
		want   []string
		unwant []string
	}{
		{"none resolved", []string{dgd}, []string{
			"Deployment: ✗ 2 TensorRT-LLM worker(s) found, none resolved: the config each names is not in the set or cannot be read (under Not placed); give audit those files.\n",
			"component decode container main: --extra-engine-args ./examples/backends/trtllm/engine_configs/qwen3/decode.yaml: no volume is mounted at"},
			[]string{"no TensorRT-LLM worker in the input"}},
		{"none resolved json", []string{dgd, "-o", "json"}, []string{
			`"2 TensorRT-LLM worker(s) found, none resolved:`, `"worker": true`}, nil},
		{"one resolved", []string{dgd, prefill}, []string{
			"Deployment: ✓ every resolved context and generation worker ends on C++ transceiver (BindKvCacheTransceiver) on NIXL.\n",
			"✗ Not resolved (1), so not checked against the others: " + dgd + ":24 DynamoGraphDeployment/trtllm-disagg component decode container main; the config each names is not in the set or cannot be read (under Not placed): give audit those files.\n"},
			[]string{"✓ every context"}},
		{"one resolved markdown", []string{dgd, prefill, "-o", "markdown"}, []string{
			"\n✗ Not resolved (1), so not checked against the others: "}, nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var out, errb bytes.Buffer
			code := Main(append([]string{"audit", "--trtllm", "1.3.0rc19"}, c.args...), strings.NewReader(""), &out, &errb, nil)
			if code != 1 {
				t.Errorf("exit %d, want 1\n%s%s", code, out.String(), errb.String())
			}
			for _, w := range c.want {
				if !strings.Contains(out.String(), w) {
					t.Errorf("stdout lacks %q:\n%s", w, out.String())
				}
			}
			for _, w := range c.unwant {
				if strings.Contains(out.String(), w) {
					t.Errorf("stdout holds %q:\n%s", w, out.String())
				}
			}
		})
	}
	// Given both configs, every worker is resolved: the gate passes.
	var out, errb bytes.Buffer
	decode := filepath.Join("..", "audit", "testdata", "real", "dynamo-qwen3", "decode.yaml")
	if code := Main([]string{"audit", "--trtllm", "1.3.0rc19", dgd, prefill, decode}, strings.NewReader(""), &out, &errb, nil); code != 0 || strings.Contains(out.String(), "Not resolved") {
		t.Errorf("exit %d\n%s%s", code, out.String(), errb.String())
	}
}

package audit

import (
	"fmt"
	"os"
	"slices"
	"strings"
	"testing"
)

// A trtllm-serve started without --port listens on 8000 (serve.py's
// default): an orchestrator url on 8000 reaches it, in a script (by host
// and port) and through a Kubernetes Service that forwards to 8000. Such
// a server was left aggregated. One without --host listens on localhost
// only: an orchestrator that reaches it by another name is refused, which
// is said.
func TestDefaultPortRoutes(t *testing.T) {
	for _, c := range []struct {
		file string
		want []string
	}{
		{"default-port/launch.sh default-port/disagg.yaml default-port/worker.yaml", []string{
			"context 7: its port 8000 (no --port: trtllm-serve's default) is in the orchestrator's context_servers urls: localhost:8000 at default-port/disagg.yaml:6 | ",
			"generation 8: its --port 8001 is in the orchestrator's generation_servers urls: localhost:8001 at default-port/disagg.yaml:10 | ",
		}},
		{"k8s-default-port.yaml", []string{
			"context 39: the orchestrator's context_servers urls list it: llama-a:80 at k8s-default-port.yaml:19 (ConfigMap trtllm-cfg, disagg.yaml:6), whose port 80 its Service llama-a (k8s-default-port.yaml:49) forwards to its port 8000 (no --port: trtllm-serve's default) | ",
			"generation 71: the orchestrator's generation_servers urls list it: llama-b:8000 at k8s-default-port.yaml:23 (ConfigMap trtllm-cfg, disagg.yaml:10), whose port 8000 its Service llama-b (k8s-default-port.yaml:81) forwards to its port 8000 (no --port: trtllm-serve's default) | no --host: trtllm-serve listens on localhost (its default, serve.py) and takes no connection from another address, but the orchestrator reaches it as llama-b (llama-b:8000 at k8s-default-port.yaml:23 (ConfigMap trtllm-cfg, disagg.yaml:10)): start it with --host 0.0.0.0 (or its own address)",
		}},
	} {
		r := audit(t, "1.3.0rc29", strings.Fields(c.file)...)
		var got []string
		for _, e := range r.Entries {
			got = append(got, fmt.Sprintf("%s %d: %s | %s", e.Worker.Role, e.Worker.Source.Line, e.Worker.RoleFrom, strings.Join(e.Worker.Notes, "; ")))
		}
		if !slices.Equal(got, c.want) {
			t.Errorf("%s: workers\n%s\nwant\n%s", c.file, strings.Join(got, "\n"), strings.Join(c.want, "\n"))
		}
	}
}

// Upstream's disaggregated README starts its two context servers on two
// command lines, the same but for CUDA_VISIBLE_DEVICES, --port and the
// log file, in the background: one worker configuration counted twice,
// as a loop's iterations are, not two rows. Lines whose effective inputs
// differ, or that do not run side by side, stay apart.
func TestSameCommandLinesCounted(t *testing.T) {
	r := audit(t, "1.3.0rc29", "real/trtllm-readme/nixl-launch.sh")
	var got []string
	for _, e := range r.Entries {
		got = append(got, fmt.Sprintf("%s %s %d %d: %s", e.Worker.Role, e.Worker.Name, e.Worker.Source.Line, e.Worker.Count, e.Worker.CountFrom))
	}
	want := []string{
		"context context_config.yml 6 2: one per command line: real/trtllm-readme/nixl-launch.sh:6 and real/trtllm-readme/nixl-launch.sh:7, the same command but for its ports, devices, nodes and logs",
		"generation gen_config.yml 13 1: one command line",
	}
	if !slices.Equal(got, want) {
		t.Errorf("workers\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}

	cfg := []byte("cache_transceiver_config:\n  backend: UCX\n")
	const a = "CUDA_VISIBLE_DEVICES=0 trtllm-serve m --host localhost --port 8001 --config ctx.yaml &> log_0 &\n"
	const b = "CUDA_VISIBLE_DEVICES=1 trtllm-serve m --host localhost --port 8002 --config ctx.yaml > log_1 2>&1 &\n"
	const fn = "launch_ctx() {\n  CUDA_VISIBLE_DEVICES=$1 trtllm-serve m --host localhost --port $2 --config ctx.yaml &> \"$3\" &\n}\n"
	for _, c := range []struct {
		name, script string
		counts       []int
	}{
		{"side by side", a + b, []int{2}},
		{"the last one in the foreground", a + strings.TrimSuffix(b, "&\n") + "\n", []int{2}},
		{"inside bash -c", "srun -N1 bash -c \"CUDA_VISIBLE_DEVICES=0 trtllm-serve m --port 8001 --config ctx.yaml\" &\nsrun -N1 bash -c \"CUDA_VISIBLE_DEVICES=1 trtllm-serve m --port 8002 --config ctx.yaml\" &\n", []int{2}},
		{"the first in the foreground", strings.TrimSuffix(a, "&\n") + "\n" + b, []int{1, 1}},
		{"a wait between", a + "wait\n" + b, []int{1, 1}},
		{"another host", a + strings.Replace(b, "localhost", "node2", 1), []int{1, 1}},
		{"another variable", a + "export TRTLLM_USE_UCX_KVCACHE=1\n" + b, []int{1, 1}},
		{"another option", a + strings.Replace(b, "--config", "--max_batch_size 8 --config", 1), []int{1, 1}},
		{"the config written again", "echo -e 'cache_transceiver_config:\\n  backend: UCX' > ctx.yaml\n" + a + "echo -e 'cache_transceiver_config:\\n  backend: NIXL' > ctx.yaml\n" + b, []int{1, 1}},
		{"an if xcvr does not decide", "if [ -n \"$X\" ]; then\n" + a + "else\n" + b + "fi\n", []int{1, 1}},
		// A function called twice, its body in the background (a user's
		// launch_ctx GPU PORT LOG, as real/user-ctx-gen-functions).
		{"a function's calls", fn + "launch_ctx 0 8401 log_ctx_0\nlaunch_ctx 1 8402 log_ctx_1\n", []int{2}},
		{"a function's calls, one under an if", fn + "launch_ctx 0 8401 log_ctx_0\nif [ -n \"$X\" ]; then\n  launch_ctx 1 8402 log_ctx_1\nfi\n", []int{1, 1}},
		{"a function's calls in the foreground", strings.Replace(fn, "&> \"$3\" &", "&> \"$3\"", 1) + "launch_ctx 0 8401 log_ctx_0\nlaunch_ctx 1 8402 log_ctx_1\n", []int{1, 1}},
	} {
		set, err := Read([]Input{{Name: "run.sh", Data: []byte("#!/bin/bash\n" + c.script)}, {Name: "ctx.yaml", Data: cfg}})
		if err != nil {
			t.Fatal(err)
		}
		var counts []int
		for _, w := range set.Workers {
			if w.Source.File == "run.sh" {
				counts = append(counts, w.Count)
			}
		}
		if !slices.Equal(counts, c.counts) {
			t.Errorf("%s: counts %v, want %v", c.name, counts, c.counts)
		}
	}
}

// A recipe directory holding its deployment twice (deploy.yaml and the
// kustomize/base/deploy.yaml of the same bytes) and a rendered variant
// (deploy-gcp.yaml, one provider delta): the copy is shown once and
// listed, not as a second deployment of the same names (nor, each copy
// reading the other's ConfigMap, one deployment with doubled counts);
// the variant is a deployment of its own, its workers told apart by path.
func TestDeploymentCopies(t *testing.T) {
	r := audit(t, "1.3.0rc22", "copies/gpt-oss/deploy-gcp.yaml", "copies/gpt-oss/deploy.yaml", "copies/gpt-oss/kustomize/base/deploy.yaml")
	var got []string
	for _, e := range r.order() {
		got = append(got, fmt.Sprintf("%s %d %s | %s", e.Worker.Name, e.Worker.Count, e.Worker.Source.File, e.Worker.Config))
	}
	want := []string{
		"TrtllmPrefillWorker (gpt-oss-disagg, deploy-gcp.yaml) 1 copies/gpt-oss/deploy-gcp.yaml | ConfigMap llm-config key prefill.yaml (copies/gpt-oss/deploy-gcp.yaml:8)",
		"TrtllmPrefillWorker (gpt-oss-disagg, deploy.yaml) 1 copies/gpt-oss/deploy.yaml | ConfigMap llm-config key prefill.yaml (copies/gpt-oss/deploy.yaml:8)",
		"TrtllmDecodeWorker (gpt-oss-disagg, deploy-gcp.yaml) 1 copies/gpt-oss/deploy-gcp.yaml | ConfigMap llm-config key decode.yaml (copies/gpt-oss/deploy-gcp.yaml:33)",
		"TrtllmDecodeWorker (gpt-oss-disagg, deploy.yaml) 1 copies/gpt-oss/deploy.yaml | ConfigMap llm-config key decode.yaml (copies/gpt-oss/deploy.yaml:33)",
	}
	if !slices.Equal(got, want) {
		t.Errorf("workers\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if len(r.Groups) != 2 {
		t.Errorf("deployments %q", r.Groups)
	}
	j := r.JSON()
	if len(j.Copies) != 1 || j.Copies[0].Source != "copies/gpt-oss/kustomize/base/deploy.yaml DynamoGraphDeployment/gpt-oss-disagg" ||
		j.Copies[0].SameAs != "copies/gpt-oss/deploy.yaml DynamoGraphDeployment/gpt-oss-disagg" || j.Copies[0].Workers != 2 {
		t.Errorf("copies %+v", j.Copies)
	}
	if !strings.Contains(r.Text(), "Copies, shown once (1):\n  copies/gpt-oss/kustomize/base/deploy.yaml DynamoGraphDeployment/gpt-oss-disagg: a copy of copies/gpt-oss/deploy.yaml DynamoGraphDeployment/gpt-oss-disagg (the same bytes, the same 2 worker configuration(s)): shown once\n") {
		t.Errorf("text:\n%s", r.Text())
	}

	// A launch script and its copy, with the configs they name: one.
	sh := []byte("#!/bin/bash\ntrtllm-serve m --port 8001 --config ctx.yaml &\ntrtllm-serve m --port 8002 --config gen.yaml &\n")
	cfg := []byte("cache_transceiver_config:\n  backend: UCX\n")
	set, err := Read([]Input{{Name: "a/launch.sh", Data: sh}, {Name: "vendor/a/launch.sh", Data: sh}, {Name: "ctx.yaml", Data: cfg}, {Name: "gen.yaml", Data: cfg}})
	if err != nil {
		t.Fatal(err)
	}
	if len(set.Workers) != 2 || len(set.Copies) != 1 || set.Copies[0].Source != "vendor/a/launch.sh" {
		t.Errorf("script copies: %d workers, copies %+v", len(set.Workers), set.Copies)
	}
	// Not a copy: one byte differs (the same workers, though).
	set, err = Read([]Input{{Name: "a/launch.sh", Data: sh}, {Name: "b/launch.sh", Data: append([]byte("# b\n"), sh...)}, {Name: "ctx.yaml", Data: cfg}, {Name: "gen.yaml", Data: cfg}})
	if err != nil {
		t.Fatal(err)
	}
	if len(set.Workers) != 4 || len(set.Copies) != 0 {
		t.Errorf("different files: %d workers, copies %+v", len(set.Workers), set.Copies)
	}
}

// A Deployment's manifest vendored twice, its ConfigMap in a third file
// both read: one object's pods, not counted twice.
func TestDeploymentCopySharedConfigMap(t *testing.T) {
	dep := []byte(`apiVersion: apps/v1
kind: Deployment
metadata:
  name: llama-ctx
spec:
  replicas: 2
  template:
    spec:
      containers:
        - name: server
          command: ["trtllm-serve", "m", "--server_role", "CONTEXT", "--config", "/cfg/ctx.yaml"]
          volumeMounts:
            - {name: cfg, mountPath: /cfg}
      volumes:
        - name: cfg
          configMap: {name: trtllm-cfg}
`)
	cm := []byte("apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: trtllm-cfg\ndata:\n  ctx.yaml: |\n    cache_transceiver_config:\n      backend: UCX\n")
	set, err := Read([]Input{{Name: "k8s/ctx.yaml", Data: dep}, {Name: "vendor/k8s/ctx.yaml", Data: dep}, {Name: "k8s/cm.yaml", Data: cm}})
	if err != nil {
		t.Fatal(err)
	}
	if len(set.Workers) != 1 || set.Workers[0].Count != 2 || len(set.Copies) != 1 || set.Copies[0].Source != "vendor/k8s/ctx.yaml" {
		t.Errorf("workers %d (count %d), copies %+v", len(set.Workers), set.Workers[0].Count, set.Copies)
	}
}

// Dynamo's launch scripts pass --override-engine-args through a bash
// array ("${TRTLLM_OVERRIDE_ARGS[@]}"), its JSON from a sourced helper's
// function: it was silently not read. An array the script sets on one
// line is read; one it cannot read, and an override whose value is a
// variable it does not know, are warned of with the line, what and why
// (and such a value is not called malformed JSON, which would fail it).
func TestOverrideArrays(t *testing.T) {
	r := audit(t, "1.3.0rc29", "real/dynamo-launch-override/disagg_router.sh", "real/dynamo-launch-override/engine_configs/qwen3/prefill.yaml", "real/dynamo-launch-override/engine_configs/qwen3/decode.yaml")
	want := []string{
		"real/dynamo-launch-override/disagg_router.sh:39: --override-engine-args $OVERRIDE_JSON is not read: it comes from the array TRTLLM_OVERRIDE_ARGS set at real/dynamo-launch-override/disagg_router.sh:26, under the condition at real/dynamo-launch-override/disagg_router.sh:25 (taken as run); $OVERRIDE_JSON is set at real/dynamo-launch-override/disagg_router.sh:24 from a command's output ($(build_trtllm_override_args_with_mem)), which xcvr does not run; the script sources $SCRIPT_DIR/../../../common/gpu_utils.sh (real/dynamo-launch-override/disagg_router.sh:9), $SCRIPT_DIR/../../../common/launch_utils.sh (real/dynamo-launch-override/disagg_router.sh:10) (not read); the engine args are --extra-engine-args /workspace/examples/backends/trtllm/engine_configs/qwen3/prefill.yaml alone, which that JSON may change",
		"real/dynamo-launch-override/disagg_router.sh:49: --override-engine-args $OVERRIDE_JSON is not read: it comes from the array TRTLLM_OVERRIDE_ARGS set at real/dynamo-launch-override/disagg_router.sh:26, under the condition at real/dynamo-launch-override/disagg_router.sh:25 (taken as run); $OVERRIDE_JSON is set at real/dynamo-launch-override/disagg_router.sh:24 from a command's output ($(build_trtllm_override_args_with_mem)), which xcvr does not run; the script sources $SCRIPT_DIR/../../../common/gpu_utils.sh (real/dynamo-launch-override/disagg_router.sh:9), $SCRIPT_DIR/../../../common/launch_utils.sh (real/dynamo-launch-override/disagg_router.sh:10) (not read); the engine args are --extra-engine-args /workspace/examples/backends/trtllm/engine_configs/qwen3/decode.yaml alone, which that JSON may change",
	}
	if !slices.Equal(r.Set.Warnings, want) {
		t.Errorf("warnings\n%s\nwant\n%s", strings.Join(r.Set.Warnings, "\n"), strings.Join(want, "\n"))
	}
	if len(r.Entries) != 2 || r.Entries[0].Failed() || r.Entries[1].Failed() {
		t.Errorf("entries %d", len(r.Entries))
	}

	cfg := []byte("cache_transceiver_config:\n  backend: UCX\n")
	read := func(script string) *Set {
		t.Helper()
		set, err := Read([]Input{{Name: "run.sh", Data: []byte("#!/bin/bash\n" + script)}, {Name: "prefill.yaml", Data: cfg}})
		if err != nil {
			t.Fatal(err)
		}
		return set
	}
	const launch = "python3 -m dynamo.trtllm --model-path Qwen/Qwen3-0.6B --extra-engine-args prefill.yaml --disaggregation-mode prefill "
	// Set in the script: read, laid over the engine args.
	set := read("ARGS=(--override-engine-args '{\"cache_transceiver_config\": {\"backend\": \"NIXL\"}}')\n" + launch + "\"${ARGS[@]}\" &\n")
	if len(set.Workers) != 1 || set.Workers[0].Overlay == nil || set.Workers[0].Overlay.Backend == nil || set.Workers[0].Overlay.Backend.Raw != "NIXL" || len(set.Warnings) != 0 {
		t.Errorf("array set in the script: %+v, warnings %q", set.Workers, set.Warnings)
	}
	// Over several lines, a word a line.
	set = read("ARGS=(\n  --publish-kv-events\n  --override-engine-args '{\"cache_transceiver_config\": {\"backend\": \"NIXL\"}}'\n)\n" + launch + "\"${ARGS[@]}\" &\n")
	if len(set.Workers) != 1 || set.Workers[0].Overlay == nil || set.Workers[0].Overlay.Backend == nil || set.Workers[0].Overlay.Backend.Raw != "NIXL" || set.Workers[0].Source.Line != 6 || len(set.Warnings) != 0 {
		t.Errorf("array over lines: %+v, warnings %q", set.Workers, set.Warnings)
	}
	// Added to in the script: its words are the sum.
	set = read("ARGS=(--publish-kv-events)\nARGS+=(--override-engine-args '{\"cache_transceiver_config\": {\"backend\": \"NIXL\"}}')\n" + launch + "${ARGS[@]} &\n")
	if len(set.Workers) != 1 || set.Workers[0].Overlay.Backend == nil || set.Workers[0].Overlay.Backend.Raw != "NIXL" {
		t.Errorf("array added to: %+v, warnings %q", set.Workers, set.Warnings)
	}
	// Not set in the script: said.
	set = read("source ./helpers.sh\n" + launch + "\"${TRTLLM_OVERRIDE_ARGS[@]}\" &\n")
	if len(set.Warnings) != 1 || set.Warnings[0] != `run.sh:3: "${TRTLLM_OVERRIDE_ARGS[@]}" on the dynamo.trtllm command line is a bash array xcvr does not read: the script does not set it: it sources ./helpers.sh (run.sh:2) (not read); what it holds (an --override-engine-args JSON laid over the engine args, say) is not in this worker's inputs` {
		t.Errorf("array not set: %q", set.Warnings)
	}
	// Added to in a loop xcvr does not run, so not known, but with words
	// it does not read (--router-mode KV): nothing to say.
	set = read("EXTRA=()\nfor ((i=0; i<N; i++)); do\n  EXTRA+=(--router-mode KV)\ndone\n" + launch + "\"${EXTRA[@]}\" &\n")
	if len(set.Warnings) != 0 {
		t.Errorf("array of options xcvr does not read: %q", set.Warnings)
	}
	// A variable override: not read, not malformed.
	set = read("OVERRIDES=$(make_overrides)\n" + launch + "--override-engine-args \"$OVERRIDES\" &\n")
	if len(set.Workers) != 1 || len(set.Workers[0].Notes) != 1 || !strings.HasPrefix(set.Workers[0].Notes[0], "--override-engine-args $OVERRIDES is not read: $OVERRIDES is set at run.sh:2 from a command's output ($(make_overrides))") || len(set.Warnings) != 1 {
		t.Errorf("variable override: %+v, warnings %q", set.Workers, set.Warnings)
	}
}

// The orchestrator's count of the configurations that serve its urls is
// the table's: two context servers of one configuration are one, and
// their servers are said.
func TestServedCountsConfigurations(t *testing.T) {
	sh, err := os.ReadFile("testdata/real/trtllm-readme/nixl-launch.sh")
	if err != nil {
		t.Fatal(err)
	}
	orch := []byte("hostname: localhost\nport: 8000\ncontext_servers:\n  num_instances: 2\n  urls:\n    - \"localhost:8001\"\n    - \"localhost:8002\"\ngeneration_servers:\n  num_instances: 1\n  urls:\n    - \"localhost:8003\"\n")
	set, err := Read([]Input{{Name: "launch.sh", Data: sh}, {Name: "disagg.yaml", Data: orch}})
	if err != nil {
		t.Fatal(err)
	}
	if len(set.Orchestrators) != 1 || set.Orchestrators[0].Served != 2 || set.Orchestrators[0].ServedCount != 3 {
		t.Errorf("orchestrators %+v", set.Orchestrators)
	}
}

package audit

import (
	"encoding/json"
	"fmt"
	"os"
	"slices"
	"strings"
	"testing"

	"xcvr/internal/inputs"
	"xcvr/models"
	"xcvr/resolver"
)

// A recipe directory's rendered near-copy of its DynamoGraphDeployment
// (deploy-gcp.yaml beside kustomize/base/deploy.yaml: a comment added, the
// image tag changed) is a deployment of its own, its workers all shown;
// that the two resolve alike, worker for worker, is said once, with what
// their files differ in. Deployments of one name whose workers resolve
// differently (a backend, a release the image runs) are not said alike.
func TestAlikeDeployments(t *testing.T) {
	files := []string{"alike/gpt-oss/deploy-gcp.yaml", "alike/gpt-oss/kustomize/base/deploy.yaml"}
	r := audit(t, "1.3.0rc22", files...)
	if len(r.Entries) != 4 || len(r.Groups) != 2 || len(r.Set.Copies) != 0 {
		t.Fatalf("entries %d, deployments %q, copies %+v: nothing is left out", len(r.Entries), r.Groups, r.Set.Copies)
	}
	want := Alike{Name: "gpt-oss-disagg",
		Deployments: []string{"alike/gpt-oss/deploy-gcp.yaml DynamoGraphDeployment/gpt-oss-disagg", "alike/gpt-oss/kustomize/base/deploy.yaml DynamoGraphDeployment/gpt-oss-disagg"},
		Paths:       []string{"deploy-gcp.yaml", "deploy.yaml"},
		Differs:     []string{"the image tag of nvcr.io/nvidia/ai-dynamo/tensorrtllm-runtime (1.3.1.post1 vs 1.3.1)", "1 comment line"}}
	if len(r.Alike) != 1 || r.Alike[0].Name != want.Name || !slices.Equal(r.Alike[0].Deployments, want.Deployments) ||
		!slices.Equal(r.Alike[0].Paths, want.Paths) || !slices.Equal(r.Alike[0].Differs, want.Differs) {
		t.Errorf("alike %+v\nwant %+v", r.Alike, want)
	}
	line := "  deploy-gcp.yaml and deploy.yaml: the same deployment (gpt-oss-disagg), their files differing only in the image tag of nvcr.io/nvidia/ai-dynamo/tensorrtllm-runtime (1.3.1.post1 vs 1.3.1) and 1 comment line; their workers resolve alike (the same roles, counts, inputs, transceiver, backend and KV-cache manager).\n"
	text := r.Text()
	if !strings.Contains(text, "DynamoGraphDeployment/gpt-oss-disagg: ✓ every context and generation worker ends on C++ transceiver (BindKvCacheTransceiver) on UCX.\n"+line) {
		t.Errorf("text:\n%s", text)
	}
	var j map[string]any
	b, _ := json.Marshal(r.JSON())
	if err := json.Unmarshal(b, &j); err != nil {
		t.Fatal(err)
	}
	sd, _ := j["same_deployments"].([]any)
	if len(sd) != 1 || len(j["workers"].([]any)) != 4 {
		t.Fatalf("json same_deployments %v, %d workers", j["same_deployments"], len(j["workers"].([]any)))
	}
	if d := sd[0].(map[string]any); d["name"] != "gpt-oss-disagg" || len(d["deployments"].([]any)) != 2 || !strings.HasPrefix(d["why"].(string), "the same deployment (gpt-oss-disagg), their files differing only in the image tag") {
		t.Errorf("json %v", d)
	}

	keep := func(s string) string { return s }
	read := func(t *testing.T, base bool, edit, edit1 func(string) string) *Report {
		t.Helper()
		var ins []Input
		for i, f := range files {
			data, err := os.ReadFile("testdata/" + f)
			if err != nil {
				t.Fatal(err)
			}
			if i == 0 {
				data = []byte(edit(string(data)))
			} else {
				data = []byte(edit1(string(data)))
			}
			ins = append(ins, Input{Name: f, Data: data})
		}
		set, err := Read(ins)
		if err != nil {
			t.Fatal(err)
		}
		if base {
			return Resolve(set, Options{Base: inputs.Defaults(), Catalog: models.Builtin()})
		}
		s := inputs.Defaults()
		s.Version = inputs.Value{Raw: "1.3.0rc22", Origin: resolver.Origin{Kind: resolver.OriginFlag, Detail: "--trtllm"}}
		return Resolve(set, Options{Base: s, Catalog: models.Builtin()})
	}
	// The decode worker's backend differs: two deployments, not alike.
	nixl := read(t, false, func(s string) string {
		return strings.Replace(s, "    cache_transceiver_config:\n      backend: UCX", "    cache_transceiver_config:\n      backend: NIXL", 2)
	}, keep)
	if len(nixl.Alike) != 0 || strings.Contains(nixl.Text(), "the same deployment") || len(nixl.JSON().SameDeployments) != 0 {
		t.Errorf("a backend differs: alike %+v", nixl.Alike)
	}
	// The prefill worker's replica count differs (the frontend's first).
	count := read(t, false, func(s string) string {
		i := strings.Index(s, "TrtllmPrefillWorker:")
		return s[:i] + strings.Replace(s[i:], "replicas: 1", "replicas: 2", 1)
	}, keep)
	if len(count.Alike) != 0 {
		t.Errorf("a count differs: alike %+v", count.Alike)
	}
	// Without --trtllm the images say the release: Dynamo 0.6.0 and 0.6.1
	// both ship TensorRT-LLM 1.1.0rc5 (alike), 0.7.0 ships 1.2.0rc2 (not).
	tag := func(v string) func(string) string {
		return func(s string) string {
			s = strings.ReplaceAll(s, "runtime:1.3.1.post1\n", "runtime:"+v+"\n")
			return strings.ReplaceAll(s, "runtime:1.3.1\n", "runtime:"+v+"\n")
		}
	}
	if same := read(t, true, tag("0.6.1"), tag("0.6.0")); len(same.Alike) != 1 ||
		!slices.Equal(same.Alike[0].Differs, []string{"the image tag of nvcr.io/nvidia/ai-dynamo/tensorrtllm-runtime (0.6.1 vs 0.6.0)", "1 comment line"}) {
		t.Errorf("0.6.1 and 0.6.0: alike %+v", same.Alike)
	}
	if other := read(t, true, tag("0.7.0"), tag("0.6.0")); len(other.Alike) != 0 {
		t.Errorf("0.7.0 and 0.6.0: alike %+v", other.Alike)
	}
}

// A loop's iterations that all fail to place the same worker, for the same
// reason, are one Not placed line that says how often it ran; the verdict
// counts the servers (TensorRT-LLM developer's NVBug reproduction launcher:
// three context servers, two generation servers, every config a function's
// output).
func TestUnresolvedRunsJoined(t *testing.T) {
	r := audit(t, "1.3.0rc29", "real/trtllm-nvbug-repro/launch_disagg.sh")
	var runs []int
	for _, u := range r.Set.Unplaced {
		runs = append(runs, u.Runs)
	}
	if fmt.Sprint(runs) != "[3 2 0]" {
		t.Errorf("runs %v", runs)
	}
	text := r.Text()
	for _, want := range []string{"Deployment: ✗ 5 TensorRT-LLM worker(s) found, none resolved:", "(×3: the same line, run 3 times)\n", "(×2: the same line, run 2 times)\n"} {
		if !strings.Contains(text, want) {
			t.Errorf("text lacks %q:\n%s", want, text)
		}
	}
	if j := r.JSON(); len(j.Unplaced) != 3 || j.Unplaced[0].Runs != 3 {
		t.Errorf("json unplaced %+v", j.Unplaced)
	}
}

// A container's command-line values are said at the line that starts the
// program, not at the container's first key (its name, image or env, lines
// above): a bash -c script's export and trtllm-serve lines, a command list's
// dynamo.trtllm entry, a folded args string's indicator.
func TestCommandLineOrigins(t *testing.T) {
	r := audit(t, "1.3.0rc29", "k8s-deploy.yaml")
	g := entry(t, r, "trtllm-gen/trtllm")
	if o := g.Inputs.Model.Origin.Detail; o != "k8s-deploy.yaml:92 (command line)" {
		t.Errorf("model origin %q", o)
	}
	if e := g.Worker.Env; len(e) == 0 || e[0].Origin != "k8s-deploy.yaml:91 (command line)" {
		t.Errorf("env %+v", e)
	}
	if o := entry(t, r, "trtllm-ctx/trtllm").Inputs.Model.Origin.Detail; o != "k8s-deploy.yaml:46 (command line)" {
		t.Errorf("context model origin %q", o)
	}
	r = audit(t, "1.3.0rc29", "dgd.yaml")
	if o := entry(t, r, "prefill").Inputs.Model.Origin.Detail; o != "dgd.yaml:64 (command line)" {
		t.Errorf("prefill model origin %q", o)
	}
	if o := entry(t, r, "decode").Inputs.Model.Origin.Detail; o != "dgd.yaml:92 (command line)" {
		t.Errorf("decode model origin %q", o)
	}
	r = audit(t, "1.3.0rc11", "real/dynamo-dsr1-agg-b200-deploy.yaml")
	if o := r.Entries[0].Inputs.Model.Origin.Detail; !strings.HasPrefix(o, "real/dynamo-dsr1-agg-b200-deploy.yaml:111 (command line)") {
		t.Errorf("folded args' model origin %q (a >- keeps its indicator's line)", o)
	}
	// A compose service's command: > starts on the line after its
	// indicator (it was the service's key line, 60).
	r = audit(t, "1.3.0rc19", "real/dynamo-compose/docker-compose-disagg.yml", "real/dynamo-qwen3/prefill.yaml", "real/dynamo-qwen3/decode.yaml")
	for _, e := range r.Entries {
		if e.Worker.Name == "prefill-0" && !strings.Contains(strings.Join(e.Notes, "\n"), "model /model (real/dynamo-compose/docker-compose-disagg.yml:71 (command line))") {
			t.Errorf("compose model note %q", e.Notes)
		}
	}
}

// The fix moves a worker to the end most workers have, even when that is
// not NIXL: two context workers on UCX beside a generation worker on NIXL
// need backend: UCX on the generation worker (it said "none of up to 2
// edits"); and a 1.0 release, which takes lower-case names only, is fixed by
// the lower-case spelling of the backend written (it said none too).
func TestFixToTargetBackend(t *testing.T) {
	set := func() *Set {
		s, err := Read([]Input{
			{Name: "ctx_a.yaml", Data: []byte("cache_transceiver_config:\n  backend: UCX\n")},
			{Name: "ctx_b.yaml", Data: []byte("cache_transceiver_config:\n  backend: UCX\n  max_tokens_in_buffer: 4096\n")},
			{Name: "gen.yaml", Data: []byte("cache_transceiver_config:\n  backend: NIXL\n")},
		})
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	for _, c := range []struct{ version, want string }{
		{"1.2.0", "gen.yaml: backend: UCX → CPP on UCX"},
		{"1.0.0", "ctx_a.yaml: backend: ucx → CPP on UCX; ctx_b.yaml: backend: ucx → CPP on UCX; gen.yaml: backend: ucx → CPP on UCX"},
	} {
		in := inputs.Defaults()
		in.Version = inputs.Value{Raw: c.version, Origin: resolver.Origin{Kind: resolver.OriginFlag, Detail: "--trtllm"}}
		r := Resolve(set(), Options{Base: in, Catalog: models.Builtin()})
		if g := fixSummary(r); g != c.want {
			t.Errorf("%s: fix %q, want %q", c.version, g, c.want)
		}
	}
}

// Dynamo's TensorRT-LLM sidecar is no engine: srt-slurm's srtctl starts
// "python3 -m dynamo.trtllm.sidecar --grpc-endpoint 127.0.0.1:PORT
// --model-path M" beside "python3 -m tensorrt_llm.commands.serve M --grpc
// ... --extra_llm_api_options CONFIG" (its trtllm backend's
// _build_sidecar_command). The sidecar was read as a dynamo.trtllm worker
// with no config: a second, invented aggregated worker.
func TestTrtllmSidecarIsNoWorker(t *testing.T) {
	script := "#!/bin/bash\n" +
		"python3 -m tensorrt_llm.commands.serve /model --grpc --host 127.0.0.1 --port 30001 --extra_llm_api_options /logs/trtllm_config_agg.yaml &\n" +
		"python3 -m dynamo.trtllm.sidecar --grpc-endpoint 127.0.0.1:30001 --model-path /model --context-length 8192 &\n" +
		"wait\n"
	set, err := Read([]Input{{Name: "run.sh", Data: []byte(script)},
		{Name: "trtllm_config_agg.yaml", Data: []byte("cache_transceiver_config:\n  backend: NIXL\n")}})
	if err != nil {
		t.Fatal(err)
	}
	r := Resolve(set, Options{Base: inputs.Defaults(), Catalog: models.Builtin()})
	if len(r.Entries) != 1 || r.Entries[0].Worker.Name != "trtllm_config_agg.yaml" {
		var names []string
		for _, e := range r.Entries {
			names = append(names, e.Worker.Name)
		}
		t.Fatalf("workers %q", names)
	}
	if len(r.Set.Unplaced) != 1 || !strings.Contains(r.Set.Unplaced[0].Why, "Dynamo's TensorRT-LLM sidecar (python3 -m dynamo.trtllm.sidecar)") || r.Set.Unplaced[0].Worker {
		t.Errorf("unplaced %+v", r.Set.Unplaced)
	}
}

// fixSummary is a report's fix, one "worker: edit, edit → outcome on
// backend" per worker, joined by "; ".
func fixSummary(r *Report) string {
	var got []string
	for _, f := range r.Fix {
		var edits []string
		for _, e := range f.Edits {
			edits = append(edits, e.String())
		}
		got = append(got, fmt.Sprintf("%s: %s → %s on %s", f.Worker, strings.Join(edits, ", "), f.Outcome.Outcome, f.Outcome.EffectiveBackend))
	}
	return strings.Join(got, "; ")
}

package audit

import (
	"encoding/json"
	"math/big"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"xcvr/internal/deploy"
	"xcvr/internal/inputs"
	"xcvr/models"
	"xcvr/resolver"
)

func readSet(t *testing.T, files ...string) *Set {
	t.Helper()
	var ins []Input
	for _, f := range files {
		data, err := os.ReadFile(filepath.Join("testdata", f))
		if err != nil {
			t.Fatal(err)
		}
		ins = append(ins, Input{Name: f, Data: data})
	}
	set, err := Read(ins)
	if err != nil {
		t.Fatal(err)
	}
	return set
}

func audit(t *testing.T, version string, files ...string) *Report {
	t.Helper()
	s := inputs.Defaults()
	s.Version = inputs.Value{Raw: version, Origin: resolver.Origin{Kind: resolver.OriginFlag, Detail: "--trtllm"}}
	return Resolve(readSet(t, files...), Options{Base: s, Catalog: models.Builtin()})
}

func entry(t *testing.T, r *Report, name string) Entry {
	t.Helper()
	for _, e := range r.Entries {
		if e.Worker.Name == name {
			return e
		}
	}
	var names []string
	for _, e := range r.Entries {
		names = append(names, e.Worker.Name)
	}
	t.Fatalf("no worker %q (have %q)", name, names)
	return Entry{}
}

// A Deployment with env and a ConfigMap volume, and a StatefulSet whose
// ConfigMap is mounted through items and whose shell script exports a variable.
func TestDeploymentAndStatefulSet(t *testing.T) {
	r := audit(t, "1.3.0rc29", "k8s-deploy.yaml")
	ctx := entry(t, r, "trtllm-ctx/trtllm")
	if ctx.Worker.Role != RoleContext || ctx.Worker.Count != 2 || ctx.Trace.Result.Outcome != resolver.OutcomePython {
		t.Fatalf("ctx %+v %s", ctx.Worker, ctx.Trace.Result.Outcome)
	}
	// The ConfigMap value's lines are the manifest's, and name both places.
	if o := ctx.Trace.Inputs.Backend.Origin.Detail; o != "k8s-deploy.yaml:18 (ConfigMap trtllm-config, prefill.yaml:8)" {
		t.Errorf("backend origin %q", o)
	}
	if v, ok := ctx.Trace.Inputs.Env["TRTLLM_DISABLE_KV_CACHE_TRANSFER_OVERLAP"]; !ok || v.Value != "0" || v.Origin.Detail != "k8s-deploy.yaml:57" {
		t.Errorf("env %+v", ctx.Trace.Inputs.Env)
	}
	if _, ok := ctx.Trace.Inputs.Env["UCX_TLS"]; ok {
		t.Error("a non-TRTLLM variable reached the resolver")
	}
	gen := entry(t, r, "trtllm-gen/trtllm")
	if gen.Worker.Count != 3 || gen.Worker.Config != "ConfigMap trtllm-config key decode.yaml (k8s-deploy.yaml:20)" {
		t.Errorf("gen %+v", gen.Worker)
	}
	if v := gen.Trace.Inputs.Env["TRTLLM_USE_UCX_KVCACHE"]; v.Value != "1" {
		t.Errorf("exported variable not read: %+v", gen.Trace.Inputs.Env)
	}
	if !r.Consistent || r.Fails() {
		t.Errorf("consistent %v fails %v: %s", r.Consistent, r.Fails(), r.Split)
	}
	if len(r.Set.Unplaced) != 1 || !strings.Contains(r.Set.Unplaced[0].Source.String(), "Service/trtllm-gen") {
		t.Errorf("unplaced %+v", r.Set.Unplaced)
	}
}

// fixJoins checks that a fix really joins the roles: the fixed worker's
// inputs with its edits, resolved again, end where the other worker does.
func fixJoins(t *testing.T, fix WorkerFix, fixed, other Entry) {
	t.Helper()
	in := fixed.Inputs
	for _, e := range fix.Edits {
		in = e.Apply(in)
	}
	if got := resolver.Resolve(in).Result; !sameEnd(got, other.Trace.Result) {
		t.Errorf("fixed %s ends %s, %s %s", fixed.Worker.Name, end(got), other.Worker.Name, end(other.Trace.Result))
	}
}

// A DynamoGraphDeployment: roles from --disaggregation-mode, the engine
// configs from the mounted ConfigMap (a relative path under workingDir), the
// service's envs, the model from the command line (Qwen/Qwen3-0.6B, a
// Qwen3ForCausalLM without a preference); the decode worker's
// TRTLLM_USE_UCX_KVCACHE turns DEFAULT into UCX, so 'auto' ends on C++ there
// and on Python (NIXL) for prefill, and the fix is verified.
func TestDynamoGraphDeployment(t *testing.T) {
	r := audit(t, "1.3.0rc29", "dgd.yaml")
	p, d := entry(t, r, "prefill"), entry(t, r, "decode")
	if p.Worker.Role != RoleContext || d.Worker.Role != RoleGeneration || p.Worker.Count != 2 {
		t.Fatalf("roles %s %s count %d", p.Worker.Role, d.Worker.Role, p.Worker.Count)
	}
	if !strings.Contains(p.Worker.Source.String(), "DynamoGraphDeployment/trtllm-disagg service prefill") {
		t.Errorf("source %s", p.Worker.Source)
	}
	if d.Trace.Inputs.Model.Value.Arch != "Qwen3ForCausalLM" || d.Trace.Result.Outcome != resolver.OutcomeCPP || !d.Trace.Result.EffectiveBackend.Is("UCX") ||
		p.Trace.Result.Outcome != resolver.OutcomePython {
		t.Fatalf("decode %+v", d.Trace.Result)
	}
	if v := d.Trace.Inputs.Env["TRTLLM_USE_UCX_KVCACHE"]; v.Origin.Detail != "dgd.yaml:81" {
		t.Errorf("env origin %+v", v)
	}
	if !r.Fails() || len(r.Fix) != 1 || r.Fix[0].Worker != "decode" || r.Fix[0].Outcome.Outcome != resolver.OutcomePython {
		t.Fatalf("fix %+v", r.Fix)
	}
	fixJoins(t, r.Fix[0], d, p)
	if p.Worker.Notes == nil || !strings.Contains(strings.Join(p.Worker.Notes, "\n"), "envFromSecret hf-token-secret") {
		t.Errorf("notes %q", p.Worker.Notes)
	}
}

// Dynamo's v1beta1 DynamoGraphDeployment: spec.components, each a pod
// template; the worker is the container that runs dynamo.trtllm (not the
// sidecar), the count replicas with multinode noted, spec.env the
// environment of every component; a worker component without a pod template
// is said, not dropped, and the frontend and planner are not workers.
func TestDynamoGraphDeploymentV1beta1(t *testing.T) {
	r := audit(t, "1.3.0rc10", "dgd-v1beta1.yaml")
	p, d := entry(t, r, "prefill"), entry(t, r, "decode")
	if p.Worker.Role != RoleContext || d.Worker.Role != RoleGeneration || p.Worker.Count != 2 || d.Worker.Count != 1 {
		t.Fatalf("roles %s %s counts %d %d", p.Worker.Role, d.Worker.Role, p.Worker.Count, d.Worker.Count)
	}
	if !strings.Contains(d.Worker.Source.String(), "dgd-v1beta1.yaml:49 DynamoGraphDeployment/trtllm-disagg-tp8 component decode container main") ||
		!strings.Contains(p.Worker.CountFrom, "2 nodes each (multinode.nodeCount, dgd-v1beta1.yaml:73)") {
		t.Errorf("source %s, count from %s", d.Worker.Source, p.Worker.CountFrom)
	}
	if !strings.Contains(p.Worker.Config, "ConfigMap nvidia-config key prefill.yaml") {
		t.Errorf("config %s", p.Worker.Config)
	}
	for _, e := range []Entry{p, d} {
		if v := e.Trace.Inputs.Env["TRTLLM_USE_UCX_KVCACHE"]; v.Origin.Detail != "dgd-v1beta1.yaml:109" {
			t.Errorf("%s: env %+v", e.Worker.Name, v)
		}
		if !e.Trace.Result.EffectiveBackend.Is("UCX") {
			t.Errorf("%s: backend %s", e.Worker.Name, e.Trace.Result.EffectiveBackend)
		}
	}
	if len(r.Set.Workers) != 2 || len(r.Set.Unplaced) != 1 || !strings.Contains(r.Set.Unplaced[0].Why, "a prefill component without podTemplate.spec") {
		t.Errorf("workers %d, unplaced %+v", len(r.Set.Workers), r.Set.Unplaced)
	}
}

// A Dynamo worker whose command line does not say its role takes it from
// its service's subComponentType (v1alpha1) or its component's type
// (v1beta1); --disaggregation-mode, where given, wins.
func TestDynamoRoleFromType(t *testing.T) {
	r := audit(t, "1.3.0rc10", "dgd-roles.yaml")
	for name, want := range map[string]struct{ role, from string }{
		"TRTLLMPrefillWorker": {RoleContext, "subComponentType prefill (dgd-roles.yaml:12)"},
		"TRTLLMDecodeWorker":  {RoleGeneration, "type decode (dgd-roles.yaml:25)"},
		"odd":                 {RoleContext, "--disaggregation-mode prefill"},
	} {
		w := entry(t, r, name).Worker
		if w.Role != want.role || !strings.HasPrefix(w.RoleFrom, want.from) {
			t.Errorf("%s: role %s from %q, want %s from %q", name, w.Role, w.RoleFrom, want.role, want.from)
		}
	}
}

// A docker compose file: its services that run dynamo.trtllm or
// trtllm-serve are workers (the frontend is not), the merge key's anchor laid
// in and overridden by a service's own environment mapping, configs found
// through the ./engine bind mount among the files of the set, deploy.replicas
// counted; the decode worker's TRTLLM_USE_UCX_KVCACHE splits the deployment
// and the fix is verified. Read before this, the compose file was taken for a
// worker YAML and failed TorchLlmArgs' validation.
func TestDockerCompose(t *testing.T) {
	r := audit(t, "1.3.0rc10", "compose/docker-compose.yml", "compose/engine/prefill.yaml", "compose/engine/decode.yaml")
	p, d, g := entry(t, r, "prefill-0"), entry(t, r, "decode-0"), entry(t, r, "gen-serve")
	if p.Worker.Role != RoleContext || d.Worker.Role != RoleGeneration || g.Worker.Role != RoleGeneration || g.Worker.Count != 2 || len(r.Entries) != 3 {
		t.Fatalf("roles %s %s %s, gen-serve count %d, %d entries", p.Worker.Role, d.Worker.Role, g.Worker.Role, g.Worker.Count, len(r.Entries))
	}
	if !strings.Contains(p.Worker.Config, "compose/engine/prefill.yaml") || !strings.Contains(p.Worker.Config, "bind-mounted at /opt/engine (compose/docker-compose.yml:11)") {
		t.Errorf("config %s", p.Worker.Config)
	}
	if v := d.Trace.Inputs.Env["TRTLLM_USE_UCX_KVCACHE"]; v.Origin.Detail != "compose/docker-compose.yml:34" || !d.Trace.Result.EffectiveBackend.Is("UCX") {
		t.Errorf("decode env %+v, backend %s", v, d.Trace.Result.EffectiveBackend)
	}
	if _, ok := p.Trace.Inputs.Env["TRTLLM_USE_UCX_KVCACHE"]; ok || !p.Trace.Result.EffectiveBackend.Is("NIXL") {
		t.Errorf("prefill backend %s", p.Trace.Result.EffectiveBackend)
	}
	if !r.Fails() || len(r.Fix) != 1 || r.Fix[0].Worker != "decode-0" {
		t.Fatalf("fix %+v", r.Fix)
	}
	fixJoins(t, r.Fix[0], d, p)
	// Without the engine files, each worker says where its config is.
	r = audit(t, "1.3.0rc10", "compose/docker-compose.yml")
	if len(r.Entries) != 0 || len(r.Set.Unplaced) != 3 || !strings.Contains(r.Set.Unplaced[0].Why, "--extra-engine-args /opt/engine/prefill.yaml: not in the set") {
		t.Errorf("unplaced %+v", r.Set.Unplaced)
	}
}

// A YAML none of whose keys any release accepts (a test harness's) is not
// a worker config and is said to be so; a worker YAML whose one key has a
// typo is still a worker, which TensorRT-LLM refuses.
func TestNotAWorkerConfig(t *testing.T) {
	r := audit(t, "1.3.0rc10", "harness.yaml", "typo-worker.yaml")
	if len(r.Set.Unplaced) != 1 || !strings.Contains(r.Set.Unplaced[0].Why, "not a worker config: none of its 5 top-level keys (slurm, hardware, environment, test_matrix, …)") {
		t.Errorf("unplaced %+v", r.Set.Unplaced)
	}
	w := entry(t, r, "typo-worker.yaml")
	if w.Trace.Result.Outcome != resolver.OutcomeError || !strings.Contains(w.Trace.Result.Error, "cache_tranceiver_config") {
		t.Errorf("typo worker: %+v", w.Trace.Result)
	}
}

// Upstream's submit.py config: both roles, their server counts and the
// worker environment (common, then the gen extras).
func TestSlurmSubmitConfig(t *testing.T) {
	r := audit(t, "1.3.0rc29", "submit.yaml")
	ctx, gen := entry(t, r, "worker_config.ctx"), entry(t, r, "worker_config.gen")
	if ctx.Worker.Count != 2 || gen.Worker.Count != 1 {
		t.Errorf("counts %d %d", ctx.Worker.Count, gen.Worker.Count)
	}
	for _, e := range []Entry{ctx, gen} {
		if e.Trace.Result.Outcome != resolver.OutcomePython || !e.Trace.Result.EffectiveBackend.Is("NIXL") {
			t.Errorf("%s: %s", e.Worker.Name, end(e.Trace.Result))
		}
	}
	if v := ctx.Trace.Inputs.Env["TRTLLM_ENABLE_PDL"]; v.Value != "1" || !strings.Contains(v.Origin.Detail, "environment.worker_env_var") {
		t.Errorf("ctx env %+v", ctx.Trace.Inputs.Env)
	}
	if _, ok := ctx.Trace.Inputs.Env["TRTLLM_USE_NIXL_KVCACHE"]; ok {
		t.Error("gen_worker_env_var reached the ctx worker")
	}
	if _, ok := gen.Trace.Inputs.Env["TRTLLM_USE_NIXL_KVCACHE"]; !ok {
		t.Error("gen_worker_env_var missing on the gen worker")
	}
	if !r.Consistent || r.Fails() {
		t.Errorf("consistent %v: %s", r.Consistent, r.Split)
	}
}

// kubectl get -o yaml: a List whose Pods belong to a Deployment in the set
// (not counted twice) and to a StatefulSet that is not (merged into one entry).
func TestKubectlList(t *testing.T) {
	r := audit(t, "1.3.0rc29", "kubectl-list.yaml")
	if len(r.Entries) != 2 || r.Set.Objects != 6 {
		t.Fatalf("%d entries from %d objects", len(r.Entries), r.Set.Objects)
	}
	dec := entry(t, r, "decode/worker")
	if dec.Worker.Count != 2 || dec.Trace.Result.Outcome != resolver.OutcomeError {
		t.Errorf("decode %d %s", dec.Worker.Count, dec.Trace.Result.Outcome)
	}
	pre := entry(t, r, "prefill/worker")
	if pre.Worker.Count != 2 || pre.Trace.Result.Outcome != resolver.OutcomeCPP {
		t.Errorf("prefill %d %s", pre.Worker.Count, pre.Trace.Result.Outcome)
	}
	if o := pre.Trace.Inputs.Runtime.Origin.Detail; o != "kubectl-list.yaml:109 (ConfigMap prefill-config, config.yaml:4)" {
		t.Errorf("runtime origin %q", o)
	}
	if len(r.Fix) != 1 || r.Fix[0].Worker != "decode/worker" || r.Fix[0].Edits[0].String() != "transceiver_runtime: CPP" {
		t.Errorf("fix %+v", r.Fix)
	}
}

// A LeaderWorkerSet: the leader template runs trtllm-serve under mpirun (role
// from --server_role), its environment from a ConfigMap through envFrom; the
// workers' template runs no TensorRT-LLM.
func TestLeaderWorkerSet(t *testing.T) {
	r := audit(t, "1.3.0rc29", "lws.yaml")
	e := entry(t, r, "trtllm-decode/leader")
	if e.Worker.Role != RoleGeneration || e.Worker.RoleFrom != "--server_role GENERATION" || e.Worker.Count != 2 {
		t.Fatalf("%+v", e.Worker)
	}
	if !strings.Contains(e.Worker.Source.String(), "LeaderWorkerSet/trtllm-decode container leader (leader template)") {
		t.Errorf("source %s", e.Worker.Source)
	}
	if v := e.Trace.Inputs.Env["TRTLLM_USE_UCX_KVCACHE"]; v.Origin.Detail != "lws.yaml:9 (ConfigMap gen-env)" {
		t.Errorf("envFrom %+v", v)
	}
	if e.Trace.Result.Outcome != resolver.OutcomeCPP || !e.Trace.Result.EffectiveBackend.Is("UCX") {
		t.Errorf("%s", end(e.Trace.Result))
	}
	if e.Trace.Inputs.Model.Value.Arch != "DeepseekV3ForCausalLM" {
		t.Errorf("model %s", e.Trace.Inputs.Model.Value.Arch)
	}
}

// An orchestrator-only disaggregated file decides nothing: no DISABLED
// workers, its servers listed.
func TestOrchestratorOnly(t *testing.T) {
	r := audit(t, "1.3.0rc29", "orchestrator.yaml")
	if len(r.Entries) != 0 || len(r.Set.Orchestrators) != 1 || r.Fails() {
		t.Fatalf("entries %d orchestrators %d", len(r.Entries), len(r.Set.Orchestrators))
	}
	if got := r.Set.Orchestrators[0].Servers[RoleContext].URLs; !reflect.DeepEqual(got, []string{"ctx-0:8001", "ctx-1:8001"}) {
		t.Errorf("urls %q", got)
	}
	if txt := r.Text(); strings.Contains(txt, "DISABLED") || !strings.Contains(txt, "each worker's own --config decides") {
		t.Errorf("text:\n%s", txt)
	}
}

// What cannot be placed is listed: a config path no volume holds, a ConfigMap
// not in the set, a mounted ConfigMap without the key.
func TestUnplaced(t *testing.T) {
	doc := `apiVersion: apps/v1
kind: Deployment
metadata: {name: a}
spec:
  template:
    spec:
      containers:
      - name: w
        command: [trtllm-serve, m, --config, /opt/cfg.yaml]
---
apiVersion: apps/v1
kind: Deployment
metadata: {name: b}
spec:
  template:
    spec:
      volumes: [{name: v, configMap: {name: missing}}]
      containers:
      - name: w
        command: [trtllm-serve, m, --config, /c/x.yaml]
        volumeMounts: [{name: v, mountPath: /c}]
---
apiVersion: v1
kind: ConfigMap
metadata: {name: here}
data: {other.yaml: "a: 1"}
---
apiVersion: apps/v1
kind: Deployment
metadata: {name: c}
spec:
  template:
    spec:
      volumes: [{name: v, configMap: {name: here}}]
      containers:
      - name: w
        command: [trtllm-serve, m, --config, /c/x.yaml]
        volumeMounts: [{name: v, mountPath: /c}]
`
	set, err := Read([]Input{{Name: "u.yaml", Data: []byte(doc)}})
	if err != nil {
		t.Fatal(err)
	}
	var whys []string
	for _, u := range set.Unplaced {
		whys = append(whys, u.Source.String()+": "+u.Why)
	}
	want := []string{
		"u.yaml:8 Deployment/a container w: --config /opt/cfg.yaml: no volume is mounted at /opt/cfg.yaml; the file is the image's own, not in the set",
		"u.yaml:19 Deployment/b container w: --config /c/x.yaml: it is in ConfigMap missing (mounted at /c), which is not in the set",
		"u.yaml:36 Deployment/c container w: --config /c/x.yaml: ConfigMap here (mounted at /c) has no key x.yaml (it has other.yaml)",
	}
	if !reflect.DeepEqual(whys, want) {
		t.Errorf("unplaced:\n%s", strings.Join(whys, "\n"))
	}
	if len(set.Workers) != 0 {
		t.Errorf("workers %d", len(set.Workers))
	}
}

// A worker YAML that is no TorchLlmArgs (an unknown top-level key) fails like
// TensorRT-LLM, with pydantic's text, after the nested errors.
func TestStrictTopLevel(t *testing.T) {
	set, err := Read([]Input{{Name: "w.yaml", Data: []byte("bogus_key: 3\ncache_transceiver_config:\n  backend: NIXL\n  transceiver_runtime: python\n")}})
	if err != nil {
		t.Fatal(err)
	}
	s := inputs.Defaults()
	r := Resolve(set, Options{Base: s, Catalog: models.Builtin()})
	got := r.Entries[0].Trace.Result.Error
	want := "pydantic_core._pydantic_core.ValidationError: 2 validation errors for TorchLlmArgs\ncache_transceiver_config.transceiver_runtime\n  Input should be 'CPP', 'PYTHON' or 'auto' [type=literal_error, input_value='python', input_type=str]\nbogus_key\n  Extra inputs are not permitted [type=extra_forbidden, input_value=3, input_type=int]"
	if got != want {
		t.Errorf("error:\n%s\nwant:\n%s", got, want)
	}
}

// toAny is a document as Python's json.dumps would see it.
func toAny(n *deploy.Node) any {
	switch n.Kind {
	case deploy.KindMap:
		m := map[string]any{}
		for _, p := range n.Pairs {
			m[p.KeyString()] = toAny(p.Val)
		}
		return m
	case deploy.KindSeq:
		out := []any{}
		for _, it := range n.Items {
			out = append(out, toAny(it))
		}
		return out
	case deploy.KindStr, deploy.KindDate:
		return n.Str
	case deploy.KindInt:
		f, _ := new(big.Float).SetInt(n.Int).Float64()
		return f
	case deploy.KindFloat:
		return n.Float
	case deploy.KindBool:
		return n.Bool
	}
	return nil
}

// TestDocsMatchPyYAML reads every fixture with ParseYAMLDocs and with PyYAML's
// safe_load_all: the same documents with the same values (a List's items,
// which audit reads one at a time, against PyYAML's items).
func TestDocsMatchPyYAML(t *testing.T) {
	py, err := exec.LookPath("python3")
	if err != nil {
		t.Skip("python3 (the PyYAML oracle) not found")
	}
	files, _ := filepath.Glob("testdata/*.yaml")
	for _, f := range files {
		out, err := exec.Command(py, "-c", `import sys, json, yaml
docs = [d for d in yaml.safe_load_all(open(sys.argv[1])) if d is not None]
if len(docs) == 1 and isinstance(docs[0], dict) and docs[0].get("kind") == "List":
    docs = docs[0]["items"]
print(json.dumps(docs, default=str))`, f).Output()
		if err != nil {
			t.Fatalf("%s: python3: %v", f, err)
		}
		var want any
		if err := json.Unmarshal(out, &want); err != nil {
			t.Fatal(err)
		}
		data, _ := os.ReadFile(f)
		docs, err := deploy.ParseYAMLDocs(f, data)
		if err != nil {
			t.Fatal(err)
		}
		got := []any{}
		for _, d := range docs {
			if d.Root != nil {
				got = append(got, toAny(d.Root))
			}
		}
		gj, _ := json.Marshal(got)
		var g any
		_ = json.Unmarshal(gj, &g)
		if !reflect.DeepEqual(g, want) {
			t.Errorf("%s: xcvr and PyYAML differ:\n xcvr %s\n  py  %s", f, gj, out)
		}
	}
}

// header reads kubectl's layout: a List item's kind, name and owners; a Pod
// whose owner's controller is in the input is skipped, one whose controller is
// not is parsed.
func TestOwnedPodsPrefilter(t *testing.T) {
	data, err := os.ReadFile("testdata/kubectl-list.yaml")
	if err != nil {
		t.Fatal(err)
	}
	skip := ownedPods(data)
	if skip == nil {
		t.Fatal("no controllers found")
	}
	var skipped, kept []string
	for _, doc := range splitTexts(data) {
		kind, name, owners := header(doc)
		if kind == "" {
			continue
		}
		if skip(doc) {
			skipped = append(skipped, kind+"/"+name+" "+strings.Join(owners, ","))
		} else {
			kept = append(kept, kind+"/"+name)
		}
	}
	if !reflect.DeepEqual(skipped, []string{"Pod/decode-5d9c7b6f4-abcde ReplicaSet/decode-5d9c7b6f4"}) {
		t.Errorf("skipped %q", skipped)
	}
	if len(kept) != 5 {
		t.Errorf("kept %q", kept)
	}
}

// Names from a manifest reach the terminal escaped: an OSC title, a clear
// screen and a bidi override in an object's and a container's name.
func TestHostileNamesEscaped(t *testing.T) {
	doc := "apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: \"evil\\e]0;pwned\\a\\u202e\"}\nspec:\n  template:\n    spec:\n      containers:\n      - name: \"c\\e[2J\"\n        command: [trtllm-serve, m]\n"
	set, err := Read([]Input{{Name: "evil.yaml", Data: []byte(doc)}})
	if err != nil {
		t.Fatal(err)
	}
	r := Resolve(set, Options{Base: inputs.Defaults(), Catalog: models.Builtin()})
	for _, out := range []string{r.Text(), r.Markdown()} {
		if strings.ContainsAny(out, "\x1b\a\u202e") {
			t.Errorf("raw control characters in:\n%q", out)
		}
		if !strings.Contains(out, `evil\x1b]0;pwned\x07\u202e`) {
			t.Errorf("name not shown escaped:\n%s", out)
		}
	}
}

// Jobs, CronJobs and DaemonSets; env from a ConfigMap key; an env file of the
// set under every worker's own environment (the object's variable wins).
func TestJobsAndEnvSources(t *testing.T) {
	doc := `apiVersion: v1
kind: ConfigMap
metadata: {name: knobs}
data: {ucx: "1"}
---
apiVersion: batch/v1
kind: Job
metadata: {name: bench-ctx}
spec:
  parallelism: 4
  template:
    spec:
      containers:
      - name: w
        command: [trtllm-serve, m]
        env:
        - name: TRTLLM_USE_UCX_KVCACHE
          valueFrom: {configMapKeyRef: {name: knobs, key: ucx}}
        - name: TRTLLM_SECRET
          valueFrom: {secretKeyRef: {name: s, key: k}}
---
apiVersion: batch/v1
kind: CronJob
metadata: {name: nightly}
spec:
  jobTemplate:
    spec:
      template:
        spec:
          containers:
          - {name: w, command: [trtllm-serve, m]}
---
apiVersion: apps/v1
kind: DaemonSet
metadata: {name: node-gen}
spec:
  template:
    spec:
      containers:
      - {name: w, command: [trtllm-serve, m]}
`
	set, err := Read([]Input{{Name: "jobs.yaml", Data: []byte(doc)},
		{Name: "site.env", Data: []byte("TRTLLM_USE_UCX_KVCACHE=0\nTRTLLM_ENABLE_PDL=1\n")}})
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]*Worker{}
	for _, w := range set.Workers {
		got[w.Name] = w
	}
	ctx, cron, ds := got["bench-ctx/w"], got["nightly/w"], got["node-gen/w"]
	if ctx == nil || cron == nil || ds == nil {
		t.Fatalf("workers %v", got)
	}
	if ctx.Count != 4 || ctx.Role != RoleContext || cron.Count != 1 || ds.Count != 0 || ds.Role != RoleGeneration {
		t.Errorf("ctx %d %s, cron %d, ds %d %s", ctx.Count, ctx.Role, cron.Count, ds.Count, ds.Role)
	}
	env := map[string]EnvVar{}
	for _, e := range ctx.Env {
		env[e.Name] = e
	}
	if e := env["TRTLLM_USE_UCX_KVCACHE"]; e.Value != "1" || e.Origin != "jobs.yaml:4 (ConfigMap knobs, key ucx)" {
		t.Errorf("configMapKeyRef %+v", e)
	}
	if e := env["TRTLLM_ENABLE_PDL"]; e.Value != "1" || e.Origin != "site.env:2" {
		t.Errorf("env file %+v", e)
	}
	if !strings.Contains(strings.Join(ctx.Notes, "\n"), "TRTLLM_SECRET comes from a Secret") {
		t.Errorf("notes %q", ctx.Notes)
	}
}

// Dynamo's --override-engine-args JSON is laid over the engine args file as
// deep_update does, and its values' origin is the command line.
func TestDynamoOverrideEngineArgs(t *testing.T) {
	doc := `apiVersion: v1
kind: ConfigMap
metadata: {name: c}
data:
  decode.yaml: |
    cache_transceiver_config:
      backend: UCX
      kv_transfer_timeout_ms: 1000
---
apiVersion: nvidia.com/v1alpha1
kind: DynamoGraphDeployment
metadata: {name: g}
spec:
  services:
    decode:
      componentType: worker
      extraPodSpec:
        volumes: [{name: c, configMap: {name: c}}]
        mainContainer:
          command: [python3, -m, dynamo.trtllm]
          args: [--extra-engine-args, /cfg/decode.yaml, --disaggregation-mode, decode,
                 --override-engine-args, '{"cache_transceiver_config": {"backend": "NIXL"}}']
          volumeMounts: [{name: c, mountPath: /cfg}]
`
	set, err := Read([]Input{{Name: "o.yaml", Data: []byte(doc)}})
	if err != nil {
		t.Fatal(err)
	}
	r := Resolve(set, Options{Base: inputs.Defaults(), Catalog: models.Builtin()})
	e := entry(t, r, "decode")
	in := e.Trace.Inputs
	if !in.Backend.Value.Is("NIXL") || in.Backend.Origin.Detail != "o.yaml:20 (--override-engine-args)" {
		t.Errorf("backend %+v", in.Backend)
	}
	// The file's other keys under cache_transceiver_config stay (a nested merge).
	if in.Timeout.Value.N != 1000 || in.Timeout.Origin.Detail != "o.yaml:8 (ConfigMap c, decode.yaml:3)" {
		t.Errorf("timeout %+v", in.Timeout)
	}
}

// A docker compose service's --override-engine-args is laid over its engine
// args file as in Kubernetes and scripts (one reader, readConfig): compose
// ignored it, and this worker read UCX from its file.
func TestComposeOverrideEngineArgs(t *testing.T) {
	compose := `services:
  decode-0:
    image: x
    volumes: [./engine:/opt/engine:ro]
    command: >
      python3 -m dynamo.trtllm --disaggregation-mode decode
      --extra-engine-args /opt/engine/decode.yaml
      --override-engine-args '{"cache_transceiver_config": {"backend": "NIXL"}}'
`
	set, err := Read([]Input{{Name: "dc/docker-compose.yml", Data: []byte(compose)},
		{Name: "dc/engine/decode.yaml", Data: []byte("cache_transceiver_config:\n  backend: UCX\n")}})
	if err != nil {
		t.Fatal(err)
	}
	r := Resolve(set, Options{Base: inputs.Defaults(), Catalog: models.Builtin()})
	in := entry(t, r, "decode-0").Trace.Inputs
	if !in.Backend.Value.Is("NIXL") || in.Backend.Origin.Detail != "dc/docker-compose.yml:6 (--override-engine-args)" {
		t.Errorf("backend %+v", in.Backend)
	}
}

// TestServeBackendPicksLoader: trtllm-serve's --backend decides the loader
// (serve.py's launch_server: pytorch, _autodeploy, tensorrt), unless the
// config's backend key says otherwise (update_llm_args_with_extra_dict lays
// the YAML over the command line: llm_args | llm_args_dict) or --loader is
// given. In 1.3.0rc26 AutoDeploy skips ModelLoader's 'auto' resolution, so a
// GPT-OSS context worker under --backend _autodeploy ends on C++ while its
// generation peer ends on Python: the deployment cannot exchange KV cache.
func TestServeBackendPicksLoader(t *testing.T) {
	script := `#!/bin/bash
trtllm-serve openai/gpt-oss-120b --backend _autodeploy --server_role CONTEXT --extra_llm_api_options ctx.yaml &
trtllm-serve openai/gpt-oss-120b --server_role GENERATION --extra_llm_api_options gen.yaml &
trtllm-serve openai/gpt-oss-120b --backend _autodeploy --server_role GENERATION --extra_llm_api_options gen-pt.yaml &
trtllm-serve openai/gpt-oss-120b --backend tensorrt --server_role GENERATION --extra_llm_api_options gen-trt.yaml &
trtllm-serve openai/gpt-oss-120b --backend _autodeploy --server_role GENERATION --extra_llm_api_options gen-trtcfg.yaml &
`
	nixl := "cache_transceiver_config:\n  backend: NIXL\n"
	ins := []Input{{Name: "d/launch.sh", Data: []byte(script)},
		{Name: "d/ctx.yaml", Data: []byte(nixl)}, {Name: "d/gen.yaml", Data: []byte(nixl)},
		{Name: "d/gen-pt.yaml", Data: []byte("backend: pytorch\n" + nixl)}, {Name: "d/gen-trt.yaml", Data: []byte(nixl)},
		{Name: "d/gen-trtcfg.yaml", Data: []byte("backend: trt\n" + nixl)}}
	set, err := Read(ins)
	if err != nil {
		t.Fatal(err)
	}
	base := inputs.Defaults()
	base.Version = inputs.Value{Raw: "1.3.0rc26", Origin: resolver.Origin{Kind: resolver.OriginFlag, Detail: "--trtllm"}}
	r := Resolve(set, Options{Base: base, Catalog: models.Builtin()})
	for _, c := range []struct{ name, loader, origin, outcome, note string }{
		{"ctx.yaml", "autodeploy", "trtllm-serve --backend at d/launch.sh:2", "CPP", ""},
		{"gen.yaml", "pytorch", "", "PYTHON", ""},
		{"gen-pt.yaml", "pytorch", "d/gen-pt.yaml:1", "PYTHON", ""},
		{"gen-trt.yaml", "pytorch", "", "PYTHON", "trtllm-serve --backend tensorrt at d/launch.sh:5 is not the PyTorch path"},
		// The config's backend: trt wins over --backend _autodeploy.
		{"gen-trtcfg.yaml", "pytorch", "", "PYTHON", "backend 'trt' (d/gen-trtcfg.yaml:1) runs the TensorRT engine"},
	} {
		e := entry(t, r, c.name)
		in := e.Trace.Inputs
		if string(in.Loader.Value) != c.loader || in.Loader.Origin.Detail != c.origin || string(e.Trace.Result.Outcome) != c.outcome {
			t.Errorf("%s: loader %q from %q, outcome %s; want %q from %q, %s", c.name, in.Loader.Value, in.Loader.Origin.Detail, e.Trace.Result.Outcome, c.loader, c.origin, c.outcome)
		}
		if got := strings.Join(e.Notes, "\n"); !strings.Contains(got, c.note) {
			t.Errorf("%s: notes %q, want %q", c.name, got, c.note)
		}
	}
	if r.Consistent {
		t.Error("an AutoDeploy context worker (C++) beside a PyTorch generation worker (Python) reads as compatible")
	}

	// --loader on audit's command line wins over --backend, and says so.
	base.Loader = inputs.Value{Raw: "pytorch", Origin: resolver.Origin{Kind: resolver.OriginFlag, Detail: "--loader"}}
	r = Resolve(set, Options{Base: base, Catalog: models.Builtin()})
	if in := entry(t, r, "ctx.yaml").Trace.Inputs; string(in.Loader.Value) != "pytorch" || !strings.Contains(in.Loader.Origin.Detail, "overrides trtllm-serve --backend _autodeploy") {
		t.Errorf("with --loader: %+v", in.Loader)
	}
}

// TestDeploymentLineLeadsWithFailure: a deployment whose generation worker
// fails to start exchanges no KV cache, so its Deployment line leads with ✗,
// though the workers that start agree (it read "✓ every context and
// generation worker that starts ends on …", the failure only on the next
// line, and the exit status 1).
func TestDeploymentLineLeadsWithFailure(t *testing.T) {
	r := audit(t, "1.3.0rc29", "kubectl-list.yaml")
	if !r.Consistent {
		t.Fatalf("the fixture's starting workers agree: %s", r.Split)
	}
	text := r.Text()
	if !strings.Contains(text, "\nDeployment: ✗ 1 context or generation worker configuration(s) fail to start; those that start end on C++ transceiver (BindKvCacheTransceiver) on UCX.\nFailing: decode/worker.\n") {
		t.Errorf("text:\n%s", text)
	}
}

// TestMarkdownLeadsWithFailure is TestDeploymentLineLeadsWithFailure for
// -o markdown: "agree: ✓" stood under the failing worker's section.
func TestMarkdownLeadsWithFailure(t *testing.T) {
	md := audit(t, "1.3.0rc29", "kubectl-list.yaml").Markdown()
	if !strings.Contains(md, "Context and generation workers: ✗ 1 configuration(s) fail to start; those that start agree\n") || strings.Contains(md, "agree: ✓") {
		t.Errorf("markdown:\n%s", md)
	}
}

// dgd.yaml's context ends on C++ over NIXL, its generation on C++ over UCX:
// one worker each, a tie. The target was whichever a map gave first, so the
// same audit printed a fix on one run and "none" on the next; ties now go
// to NIXL, TensorRT-LLM's direction, and the generation worker's fix is
// backend: NIXL, every run.
func TestFixTieIsStable(t *testing.T) {
	for range 40 {
		r := audit(t, "1.2.0", "dgd.yaml")
		if len(r.Fix) != 1 || r.Fix[0].Worker != "decode" || r.Fix[0].YAML != "cache_transceiver_config:\n  backend: NIXL\n" {
			t.Fatalf("fix %+v", r.Fix)
		}
	}
}

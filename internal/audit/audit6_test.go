package audit

import (
	"fmt"
	"os"
	"slices"
	"strings"
	"testing"

	"xcvr/internal/inputs"
	"xcvr/models"
	"xcvr/resolver"
)

// A launcher that runs each srun through a wrapper function
// (start_bg() { "$@" & }; start_bg srun ... bash -c "... trtllm-serve ...")
// starts each server once, through the function: the call's own words are
// its arguments, not a second command. They were read twice, six workers
// and two orchestrators for three servers and one.
func TestWrapperFunctionRunsOnce(t *testing.T) {
	r := audit(t, "1.3.0rc29", "wrapper/sweep.sbatch")
	var got []string
	for _, e := range r.Entries {
		got = append(got, fmt.Sprintf("%s %d %s", e.Worker.Role, e.Worker.Source.Line, e.Worker.Source.Kind))
	}
	// The two context servers, the same but for their devices and port,
	// are one configuration counted twice (audit7's TestSameCommandLinesCounted).
	want := []string{
		"context 64 trtllm-serve command in the function start_bg (line 22)",
		"generation 68 trtllm-serve command in the function start_bg (line 22)",
	}
	if !slices.Equal(got, want) {
		t.Fatalf("workers\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if r.Entries[0].Worker.Count != 2 {
		t.Errorf("context servers counted %d", r.Entries[0].Worker.Count)
	}
	if len(r.Set.Unplaced) != 1 || !strings.Contains(r.Set.Unplaced[0].Why, "the disaggregated orchestrator") {
		t.Errorf("unplaced %+v", r.Set.Unplaced)
	}
	// The command line's words are the call's: its line, not "$@"'s.
	if e := r.Entries[0]; len(e.Worker.Env) == 0 || e.Worker.Env[0].Origin != "wrapper/sweep.sbatch:64 (command line)" || e.Worker.ServeBackendOrigin != "wrapper/sweep.sbatch:64" {
		t.Errorf("origins %+v, --backend at %q", e.Worker.Env, e.Worker.ServeBackendOrigin)
	}
}

// A server whose command line or config's name says one role while the
// orchestrator's urls list its --port under the other keeps its own role,
// with a note: the orchestrator sends it the other phase's requests. One
// whose role agrees gets none, and the orchestrator says how many of the
// set's workers serve its urls instead of asking for their configs.
func TestRoleAgainstRoutes(t *testing.T) {
	const orch = "context_servers:\n  urls: [\"localhost:8001\"]\ngeneration_servers:\n  urls: [\"localhost:8002\", \"localhost:8003\"]\n"
	script := "#!/bin/bash\n" +
		"trtllm-serve m --port 8002 --config ctx.yaml &\n" +
		"trtllm-serve m --port 8001 --server_role GENERATION --config w.yaml &\n" +
		"trtllm-serve m --port 8003 --config gen.yaml &\n"
	cfg := []byte("cache_transceiver_config:\n  backend: UCX\n")
	set, err := Read([]Input{{Name: "run.sh", Data: []byte(script)}, {Name: "disagg.yaml", Data: []byte(orch)},
		{Name: "ctx.yaml", Data: cfg}, {Name: "w.yaml", Data: cfg}, {Name: "gen.yaml", Data: cfg}})
	if err != nil {
		t.Fatal(err)
	}
	want := map[int]string{
		2: "context: its config's name ctx.yaml says context, but the orchestrator's generation_servers urls list it (localhost:8002 at disagg.yaml:4, its --port 8002): that orchestrator sends it generation requests; check which role this server has (xcvr keeps context)",
		3: "generation: --server_role GENERATION says generation, but the orchestrator's context_servers urls list it (localhost:8001 at disagg.yaml:2, its --port 8001): that orchestrator sends it context requests; check which role this server has (xcvr keeps generation)",
		4: "generation: ",
	}
	for _, w := range set.Workers {
		got := w.Role + ": " + strings.Join(w.Notes, " | ")
		if got != want[w.Source.Line] {
			t.Errorf("line %d: %q\nwant %q", w.Source.Line, got, want[w.Source.Line])
		}
	}
	if len(set.Orchestrators) != 1 || set.Orchestrators[0].Served != 3 {
		t.Errorf("orchestrators %+v", set.Orchestrators)
	}
}

// Kubernetes workers whose names do not say their role take the role of
// the orchestrator's urls that reach them: through a Service that selects
// their pods and forwards the url's port to their --port (a named
// targetPort too), or a StatefulSet pod's own name. The orchestrator's
// config is a ConfigMap key its pod mounts.
func TestK8sRolesFromRoutes(t *testing.T) {
	r := audit(t, "1.3.0rc29", "k8s-routes/serving.yaml")
	var got []string
	for _, e := range r.Entries {
		got = append(got, e.Worker.Name+" "+e.Worker.Role+": "+e.Worker.RoleFrom)
	}
	want := []string{
		"llama-a/server context: the orchestrator's context_servers urls list it: llama-a:8001 at k8s-routes/serving.yaml:22 (ConfigMap trtllm-cfg, disagg.yaml:6), whose port 8001 its Service llama-a (k8s-routes/serving.yaml:54) forwards to its --port 8001",
		"llama-b/server generation: the orchestrator's generation_servers urls list it: llama-b.serving.svc.cluster.local:80 at k8s-routes/serving.yaml:26 (ConfigMap trtllm-cfg, disagg.yaml:10), whose port 80 its Service llama-b (k8s-routes/serving.yaml:89) forwards to its --port 8002",
		"llama-c/server generation: the orchestrator's generation_servers urls list it: llama-c-0.llama-c-hl:8003 at k8s-routes/serving.yaml:26 (ConfigMap trtllm-cfg, disagg.yaml:10), llama-c-0 being a pod of StatefulSet llama-c, on its --port 8003",
	}
	if !slices.Equal(got, want) {
		t.Fatalf("workers\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	// What does not reach a worker: a Service selecting other pods, one in
	// another namespace, a port the Service does not forward to its
	// --port. They stay aggregated.
	const m = `apiVersion: v1
kind: ConfigMap
metadata: {name: c}
data:
  w.yaml: "cache_transceiver_config: {backend: UCX}\n"
  d.yaml: "context_servers:\n  urls: [\"a:8001\", \"b.other:8001\"]\ngeneration_servers:\n  urls: [\"c:9000\", \"d:8001\"]\n"
---
apiVersion: apps/v1
kind: Deployment
metadata: {name: router}
spec:
  template:
    spec:
      containers:
        - {name: r, command: [trtllm-serve, disaggregated, -c, /c/d.yaml], volumeMounts: [{name: c, mountPath: /c}]}
      volumes: [{name: c, configMap: {name: c}}]
`
	worker := func(name string) string {
		return "---\napiVersion: apps/v1\nkind: Deployment\nmetadata: {name: " + name + "}\nspec:\n  template:\n    metadata:\n      labels: {app: " + name +
			"}\n    spec:\n      containers:\n        - {name: s, command: [trtllm-serve, m, --port, \"8001\", --config, /c/w.yaml], volumeMounts: [{name: c, mountPath: /c}]}\n      volumes: [{name: c, configMap: {name: c}}]\n"
	}
	svc := func(name, ns, app, port string) string {
		return "---\napiVersion: v1\nkind: Service\nmetadata: {name: " + name + ", namespace: " + ns + "}\nspec:\n  selector: {app: " + app + "}\n  ports: [{port: " + port + "}]\n"
	}
	doc := m + worker("w1") + worker("w2") + worker("w3") + worker("w4") + svc("a", "default", "other", "8001") + svc("b", "default", "w2", "8001") + svc("c", "default", "w3", "9000") + svc("d", "default", "w4", "8001")
	set, err := Read([]Input{{Name: "m.yaml", Data: []byte(doc)}})
	if err != nil {
		t.Fatal(err)
	}
	for _, w := range set.Workers {
		// w4, in the default namespace as its Service d is, is reached.
		if (w.Role != RoleAggregated) != (w.Name == "w4/s") {
			t.Errorf("%s: %s (%s)", w.Name, w.Role, w.RoleFrom)
		}
	}
	if len(set.Workers) != 4 {
		t.Errorf("%d workers", len(set.Workers))
	}
}

// Compose services whose names do not say their role take the role of the
// orchestrator's urls that name them (the service's name, or its hostname)
// on their --port.
func TestComposeRolesFromRoutes(t *testing.T) {
	r := audit(t, "1.3.0rc29", "compose-routes/docker-compose.yml", "compose-routes/cfg/worker.yaml", "compose-routes/cfg/disagg.yaml")
	var got []string
	for _, e := range r.Entries {
		got = append(got, e.Worker.Name+" "+e.Worker.Role+": "+e.Worker.RoleFrom)
	}
	want := []string{
		"server-a context: the orchestrator's context_servers urls list it: server-a:8001 at compose-routes/cfg/disagg.yaml:5, the compose service reached as server-a, on its --port 8001",
		"server-b generation: the orchestrator's generation_servers urls list it: decode-host:8002 at compose-routes/cfg/disagg.yaml:9, the compose service reached as decode-host, on its --port 8002",
	}
	if !slices.Equal(got, want) {
		t.Fatalf("workers\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if !strings.Contains(r.Text(), "2 worker configuration(s) of the set serve its urls (matched by host and port).") {
		t.Errorf("text:\n%s", r.Text())
	}
}

// A trtllm-serve worker nothing places in a role says so, and in a set
// with context and generation workers says that it is checked against
// none of them and how to place it; the report lists it with where it
// ends. A dynamo.trtllm worker without --disaggregation-mode is
// aggregated, Dynamo's default, and says that instead.
func TestUnknownRole(t *testing.T) {
	cfg := func(b string) []byte { return []byte("cache_transceiver_config:\n  backend: " + b + "\n") }
	set, err := Read([]Input{{Name: "run.sh", Data: []byte("#!/bin/bash\n" +
		"trtllm-serve Qwen/Qwen3-8B --port 8001 --config ctx.yaml &\n" +
		"trtllm-serve Qwen/Qwen3-8B --port 8002 --config gen.yaml &\n" +
		"trtllm-serve Qwen/Qwen3-8B --port 8003 --config extra.yaml &\n" +
		"python3 -m dynamo.trtllm --model-path Qwen/Qwen3-8B --extra-engine-args agg.yaml &\n")},
		{Name: "ctx.yaml", Data: cfg("UCX")}, {Name: "gen.yaml", Data: cfg("UCX")}, {Name: "extra.yaml", Data: cfg("NIXL")}, {Name: "agg.yaml", Data: cfg("NIXL")}})
	if err != nil {
		t.Fatal(err)
	}
	byName := map[string]*Worker{}
	for _, w := range set.Workers {
		byName[w.Name] = w
	}
	x, a := byName["extra.yaml"], byName["agg.yaml"]
	if x == nil || a == nil {
		t.Fatalf("workers %v", byName)
	}
	if x.Role != RoleAggregated || x.RoleFrom != "role not known, read as aggregated: no --server_role, its config's name extra.yaml says neither context nor generation, and no orchestrator url of the set reaches it" ||
		len(x.Notes) != 1 || !strings.HasPrefix(x.Notes[0], "the set's other workers are context and generation workers, and this one is checked against none of them") {
		t.Errorf("extra.yaml: %s (%s) %q", x.Role, x.RoleFrom, x.Notes)
	}
	if a.Role != RoleAggregated || a.RoleFrom != "no --disaggregation-mode: dynamo.trtllm serves both phases (its default mode, aggregated)" || len(a.Notes) != 0 {
		t.Errorf("agg.yaml: %s (%s) %q", a.Role, a.RoleFrom, a.Notes)
	}
	s := inputs.Defaults()
	s.Version = inputs.Value{Raw: "1.3.0rc29", Origin: resolver.Origin{Kind: resolver.OriginFlag, Detail: "--trtllm"}}
	text := Resolve(set, Options{Base: s, Catalog: models.Builtin()}).Text()
	if !strings.Contains(text, "\nNot checked against them (role not known): extra.yaml → PYTHON KvCacheTransceiverV2 on NIXL.\n") {
		t.Errorf("text:\n%s", text)
	}
	if md := Resolve(set, Options{Base: s, Catalog: models.Builtin()}).Markdown(); !strings.Contains(md, "\nNot checked against them (role not known): extra.yaml → PYTHON KvCacheTransceiverV2 on NIXL\n") {
		t.Errorf("markdown:\n%s", md)
	}
	// Alone, nothing to check it against: no note, no line.
	set, err = Read([]Input{{Name: "run.sh", Data: []byte("trtllm-serve m --config extra.yaml\n")}, {Name: "extra.yaml", Data: cfg("NIXL")}})
	if err != nil {
		t.Fatal(err)
	}
	if len(set.Workers) != 1 || len(set.Workers[0].Notes) != 0 {
		t.Errorf("alone: %+v", set.Workers)
	}
}

// A container whose bash -c script starts a context server, a generation
// server and their orchestrator was one aggregated worker, the first
// command's; the others were lost. Its script is now read as a shell
// script: two workers, their lines the manifest's, the container's
// environment theirs, their roles from the urls of the orchestrator's
// config, the ConfigMap key the pod mounts.
func TestPodScriptStartsSeveralServers(t *testing.T) {
	r := audit(t, "1.3.0rc29", "k8s-onepod/disagg-pod.yaml")
	var got []string
	for _, e := range r.Entries {
		var env []string
		for _, v := range e.Worker.Env {
			env = append(env, v.Name+"="+v.Value)
		}
		got = append(got, fmt.Sprintf("%s %s line %d %s [%s] %s", e.Worker.Role, e.Worker.Name, e.Worker.Source.Line, e.Worker.Config, strings.Join(env, " "), end(e.Trace.Result)))
	}
	want := []string{
		"context worker.yaml line 41 ConfigMap disagg-cfg key worker.yaml (k8s-onepod/disagg-pod.yaml:10) [TRTLLM_ENABLE_PDL=1] CPP BindKvCacheTransceiver on UCX",
		"generation worker.yaml (disagg-pod.yaml:42) line 42 ConfigMap disagg-cfg key worker.yaml (k8s-onepod/disagg-pod.yaml:10) [TRTLLM_ENABLE_PDL=1] CPP BindKvCacheTransceiver on UCX",
	}
	if !slices.Equal(got, want) {
		t.Fatalf("workers\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if len(r.Set.Unplaced) != 1 || r.Set.Unplaced[0].Source.Line != 43 || !strings.HasSuffix(r.Set.Unplaced[0].Why, "its config is ConfigMap disagg-cfg key disagg.yaml (k8s-onepod/disagg-pod.yaml:14)") {
		t.Errorf("unplaced %+v", r.Set.Unplaced)
	}
}

// The same in one compose service: its script's servers are workers, their
// configs found through its bind mount, its environment theirs; gen.yaml
// was read as a stray worker file at xcvr's default release, and the
// service as one aggregated worker on ctx.yaml.
func TestComposeScriptStartsSeveralServers(t *testing.T) {
	r := audit(t, "1.3.0rc29", "compose-onecontainer/docker-compose.yml", "compose-onecontainer/cfg/ctx.yaml",
		"compose-onecontainer/cfg/gen.yaml", "compose-onecontainer/cfg/disagg.yaml")
	var got []string
	for _, e := range r.Entries {
		var env []string
		for _, v := range e.Worker.Env {
			env = append(env, v.Name+"="+v.Value)
		}
		got = append(got, fmt.Sprintf("%s %s line %d [%s] %s", e.Worker.Role, e.Worker.Name, e.Worker.Source.Line, strings.Join(env, " "), end(e.Trace.Result)))
	}
	want := []string{
		"context ctx.yaml line 12 [TRTLLM_ENABLE_PDL=1] PYTHON KvCacheTransceiverV2 on NIXL",
		"generation gen.yaml line 13 [TRTLLM_ENABLE_PDL=1] CPP BindKvCacheTransceiver on UCX",
	}
	if !slices.Equal(got, want) {
		t.Fatalf("workers\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if r.Consistent || len(r.Set.Unplaced) != 1 || r.Set.Unplaced[0].Source.Line != 14 {
		t.Errorf("consistent %v, unplaced %+v", r.Consistent, r.Set.Unplaced)
	}
}

// A LeaderWorkerSet's group leader is reached by its pod's name, NAME-N,
// as a StatefulSet's pods are; its worker template's pods are not.
func TestLWSLeaderFromRoutes(t *testing.T) {
	const m = `apiVersion: v1
kind: ConfigMap
metadata: {name: c}
data:
  w.yaml: "cache_transceiver_config: {backend: UCX}\n"
  d.yaml: "context_servers:\n  urls: [\"big-0.big:8001\"]\ngeneration_servers:\n  urls: [\"other:8001\"]\n"
---
apiVersion: apps/v1
kind: Deployment
metadata: {name: router}
spec:
  template:
    spec:
      containers:
        - {name: r, command: [trtllm-serve, disaggregated, -c, /c/d.yaml], volumeMounts: [{name: c, mountPath: /c}]}
      volumes: [{name: c, configMap: {name: c}}]
---
apiVersion: leaderworkerset.x-k8s.io/v1
kind: LeaderWorkerSet
metadata: {name: big}
spec:
  replicas: 1
  leaderWorkerTemplate:
    size: 2
    leaderTemplate:
      spec:
        containers:
          - {name: l, command: [trtllm-serve, m, --port, "8001", --config, /c/w.yaml], volumeMounts: [{name: c, mountPath: /c}]}
        volumes: [{name: c, configMap: {name: c}}]
    workerTemplate:
      spec:
        containers:
          - {name: w, command: [trtllm-serve, m, --port, "8001", --config, /c/w.yaml], volumeMounts: [{name: c, mountPath: /c}]}
        volumes: [{name: c, configMap: {name: c}}]
`
	set, err := Read([]Input{{Name: "m.yaml", Data: []byte(m)}})
	if err != nil {
		t.Fatal(err)
	}
	roles := map[string]string{}
	for _, w := range set.Workers {
		roles[w.Source.Container] = w.Role
	}
	if roles["l (leader template)"] != RoleContext || roles["w (worker template)"] != RoleAggregated {
		t.Errorf("roles %v", roles)
	}
}

// Compose services on the host's network (network_mode: host, as GPU
// servers often run) are reached at a loopback url on their --port; one on
// compose's own network is not.
func TestComposeHostNetworkRoutes(t *testing.T) {
	const compose = `services:
  a:
    network_mode: host
    command: trtllm-serve m --port 8001 --config /cfg/w.yaml
    volumes: ["./cfg:/cfg"]
  b:
    network_mode: host
    command: trtllm-serve m --port 8002 --config /cfg/w.yaml
    volumes: ["./cfg:/cfg"]
  c:
    command: trtllm-serve m --port 8003 --config /cfg/w.yaml
    volumes: ["./cfg:/cfg"]
`
	set, err := Read([]Input{{Name: "docker-compose.yml", Data: []byte(compose)},
		{Name: "cfg/w.yaml", Data: []byte("cache_transceiver_config:\n  backend: NIXL\n")},
		{Name: "cfg/d.yaml", Data: []byte("context_servers:\n  urls: [\"localhost:8001\"]\ngeneration_servers:\n  urls: [\"127.0.0.1:8002\", \"localhost:8003\"]\n")}})
	if err != nil {
		t.Fatal(err)
	}
	roles := map[string]string{}
	for _, w := range set.Workers {
		roles[w.Name] = w.Role
	}
	if roles["a"] != RoleContext || roles["b"] != RoleGeneration || roles["c"] != RoleAggregated {
		t.Errorf("roles %v", roles)
	}
}

// A config an init container's script writes to a volume the server also
// mounts (an emptyDir) is that worker's config, found at the init
// container's own mount path (subPath too); it was "not in the set".
func TestInitContainerWritesConfig(t *testing.T) {
	const m = `apiVersion: apps/v1
kind: Deployment
metadata: {name: trtllm-gen}
spec:
  template:
    spec:
      initContainers:
        - name: skip
          command: [sh, -c, "echo nothing"]
        - name: write
          command: [sh, -c]
          args:
            - |
              mkdir -p /out/cfg
              cat > /out/cfg/gen.yaml <<'EOF'
              cache_transceiver_config:
                backend: UCX
                transceiver_runtime: CPP
              EOF
          volumeMounts: [{name: work, mountPath: /out}]
      containers:
        - name: server
          command: [trtllm-serve, Qwen/Qwen3-8B, --config, /etc/trtllm/gen.yaml]
          volumeMounts: [{name: work, mountPath: /etc/trtllm, subPath: cfg}]
      volumes:
        - {name: work, emptyDir: {}}
`
	r := Resolve(readInputs(t, Input{Name: "m.yaml", Data: []byte(m)}), opts13rc29())
	if len(r.Entries) != 1 {
		t.Fatalf("entries %+v, unplaced %+v", r.Entries, r.Set.Unplaced)
	}
	e := r.Entries[0]
	if e.Worker.Config != "here-document /out/cfg/gen.yaml in init container write's script (m.yaml:15)" || end(e.Trace.Result) != "CPP BindKvCacheTransceiver on UCX" {
		t.Errorf("config %q, ends %s", e.Worker.Config, end(e.Trace.Result))
	}
	// Another volume, or a path the init container does not write: not found.
	for _, other := range []string{"volumeMounts: [{name: other, mountPath: /out}]", "cat > /out/cfg/ctx.yaml <<'EOF'"} {
		old := map[bool]string{true: "volumeMounts: [{name: work, mountPath: /out}]", false: "cat > /out/cfg/gen.yaml <<'EOF'"}[strings.HasPrefix(other, "volume")]
		set, err := Read([]Input{{Name: "m.yaml", Data: []byte(strings.Replace(m, old, other, 1))}})
		if err != nil {
			t.Fatal(err)
		}
		if len(set.Workers) != 0 || len(set.Unplaced) != 1 {
			t.Errorf("%s: workers %+v unplaced %+v", other, set.Workers, set.Unplaced)
		}
	}
}

func readInputs(t *testing.T, in ...Input) *Set {
	t.Helper()
	set, err := Read(in)
	if err != nil {
		t.Fatal(err)
	}
	return set
}

func opts13rc29() Options {
	s := inputs.Defaults()
	s.Version = inputs.Value{Raw: "1.3.0rc29", Origin: resolver.Origin{Kind: resolver.OriginFlag, Detail: "--trtllm"}}
	return Options{Base: s, Catalog: models.Builtin()}
}

// A directory of variants (Dynamo's recipes keep hopper/ and blackwell/
// DynamoGraphDeployments side by side) holds several deployments: each is
// checked on its own. Both variants agree within themselves, one on UCX and
// one on NIXL; the set was called inconsistent, with a "fix" moving one
// variant to the other's backend.
func TestVariantsCheckedApart(t *testing.T) {
	r := audit(t, "1.3.0rc29", "variants/hopper/deploy.yaml", "variants/blackwell/deploy.yaml")
	if !r.Consistent || r.Fails() || len(r.Fix) != 0 || len(r.Groups) != 2 {
		t.Fatalf("consistent %v, split %q, fix %+v, groups %q", r.Consistent, r.Split, r.Fix, r.Groups)
	}
	var names []string
	for _, e := range r.Entries {
		names = append(names, e.Worker.Name)
	}
	slices.Sort(names)
	if want := []string{"decode (qwen3-disagg-blackwell)", "decode (qwen3-disagg-hopper)", "prefill (qwen3-disagg-blackwell)", "prefill (qwen3-disagg-hopper)"}; !slices.Equal(names, want) {
		t.Errorf("names %q, want %q", names, want)
	}
	text := r.Text()
	for _, want := range []string{
		"\nDeployments: 2, each checked on its own",
		"\n  variants/hopper/deploy.yaml DynamoGraphDeployment/qwen3-disagg-hopper: ✓ every context and generation worker ends on C++ transceiver (BindKvCacheTransceiver) on UCX.\n",
		"\n  variants/blackwell/deploy.yaml DynamoGraphDeployment/qwen3-disagg-blackwell: ✓ every context and generation worker ends on C++ transceiver (BindKvCacheTransceiver) on NIXL.\n",
	} {
		if !strings.Contains(text, want) {
			t.Errorf("text lacks %q:\n%s", want, text)
		}
	}
	// A variant that disagrees within itself is still caught, its fix its own;
	// and workers of files that hold one role each are checked together.
	hop, err := os.ReadFile("testdata/variants/hopper/deploy.yaml")
	if err != nil {
		t.Fatal(err)
	}
	bad := strings.Replace(string(hop), "backend: UCX", "backend: NIXL", 1) // its prefill only
	ctx := "apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: a-ctx}\nspec:\n  template:\n    spec:\n      containers:\n        - {name: s, command: [trtllm-serve, m, --config, ctx.yaml]}\n"
	gen := strings.NewReplacer("a-ctx", "a-gen", "ctx.yaml", "gen.yaml").Replace(ctx)
	set, err := Read([]Input{{Name: "hopper.yaml", Data: []byte(bad)}, {Name: "blackwell.yaml", Data: mustRead(t, "testdata/variants/blackwell/deploy.yaml")},
		{Name: "ctx-deploy.yaml", Data: []byte(ctx)}, {Name: "gen-deploy.yaml", Data: []byte(gen)},
		{Name: "ctx.yaml", Data: []byte("cache_transceiver_config:\n  backend: UCX\n  transceiver_runtime: CPP\n")},
		{Name: "gen.yaml", Data: []byte("cache_transceiver_config:\n  backend: NIXL\n")}})
	if err != nil {
		t.Fatal(err)
	}
	r = Resolve(set, opts13rc29())
	if r.Consistent || len(r.Groups) != 3 || !strings.HasPrefix(r.Split, "in hopper.yaml DynamoGraphDeployment/qwen3-disagg-hopper, ") ||
		!strings.Contains(r.Split, "; in the other files, ") || strings.Contains(r.Split, "blackwell") {
		t.Errorf("consistent %v, groups %q, split %q", r.Consistent, r.Groups, r.Split)
	}
}

func mustRead(t *testing.T, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

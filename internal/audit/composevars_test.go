package audit

import (
	"os"
	"strings"
	"testing"

	"xcvr/internal/inputs"
	"xcvr/models"
)

// Compose's interpolation (docs.docker.com reference/compose-file/interpolation):
// what the .env sets is taken, default forms apply to what it does not set,
// and anything else stays as written (the shell's environment is not known).
func TestComposeInterpolate(t *testing.T) {
	cv := &composeVars{vals: map[string]string{"IMG": "nvcr.io/x:1", "EMPTY": "", "P": "/cfg"}, origin: map[string]string{"IMG": ".env:1", "EMPTY": ".env:2", "P": ".env:3"}}
	for in, want := range map[string]string{
		"${IMG}":                "nvcr.io/x:1",
		"$IMG/a":                "nvcr.io/x:1/a",
		"${IMG:?set IMG}":       "nvcr.io/x:1",
		"${EMPTY:?set it}":      "${EMPTY:?set it}",
		"${EMPTY?set it}":       "",
		"${EMPTY:-d}":           "d",
		"${EMPTY-d}":            "",
		"${UNSET:-d}":           "d",
		"${UNSET-d}":            "d",
		"${UNSET}":              "${UNSET}",
		"$UNSET":                "$UNSET",
		"${UNSET:?need it}":     "${UNSET:?need it}",
		"${IMG:+yes}":           "yes",
		"${EMPTY:+yes}":         "",
		"${EMPTY+yes}":          "yes",
		"${UNSET+yes}":          "",
		"${UNSET:-${P}/p.yaml}": "/cfg/p.yaml",
		"${UNSET:-${NO:-deep}}": "deep",
		"$$IMG":                 "$IMG",
		"$${IMG}":               "${IMG}",
		"cost $5":               "cost $5",
		"${IMG/x/y}":            "${IMG/x/y}",
		"${unterminated":        "${unterminated",
		"a $ b":                 "a $ b",
	} {
		if got := cv.interpolate(in, map[string]bool{}); got != want {
			t.Errorf("interpolate(%q) = %q, want %q", in, got, want)
		}
	}
	// Without a .env, the default forms still apply.
	var none *composeVars
	if got := none.interpolate("${E:-/a} ${F}", map[string]bool{}); got != "/a ${F}" {
		t.Errorf("no .env: %q", got)
	}
	// Nesting and size are bounded.
	deep := strings.Repeat("${A:-", 50) + "x" + strings.Repeat("}", 50)
	if got := none.interpolate(deep, map[string]bool{}); got != deep {
		t.Errorf("deep nesting expanded: %q", got)
	}
}

// Dynamo's compose file with a .env beside it: the image its
// ${CONTAINER_IMAGE:?...} names decides the release; the .env does not
// reach the containers (no env_file names it). An env_file the service
// names does, under its environment.
func TestComposeProjectEnv(t *testing.T) {
	data, err := os.ReadFile("testdata/real/dynamo-compose/docker-compose-disagg.yml")
	if err != nil {
		t.Fatal(err)
	}
	p, _ := os.ReadFile("testdata/real/dynamo-qwen3/prefill.yaml")
	d, _ := os.ReadFile("testdata/real/dynamo-qwen3/decode.yaml")
	env := "CONTAINER_IMAGE=nvcr.io/nvidia/ai-dynamo/tensorrtllm-runtime:0.7.1\nMODEL_PATH=/models/qwen3\nTRTLLM_USE_UCX_KVCACHE=1\n"
	set, err := Read([]Input{{Name: "deploy/docker-compose-disagg.yml", Data: data}, {Name: "deploy/.env", Data: []byte(env)},
		{Name: "engine_configs/qwen3/prefill.yaml", Data: p}, {Name: "engine_configs/qwen3/decode.yaml", Data: d}})
	if err != nil {
		t.Fatal(err)
	}
	r := Resolve(set, Options{Base: inputs.Defaults(), Catalog: models.Builtin()})
	if len(r.Entries) != 2 {
		t.Fatalf("entries %d unplaced %+v", len(r.Entries), set.Unplaced)
	}
	for _, e := range r.Entries {
		if e.Inputs.Version.Name != "1.2.0rc3" || !strings.Contains(e.Inputs.VersionOrigin.Detail, "(CONTAINER_IMAGE from deploy/.env:1)") {
			t.Errorf("%s: version %s from %q", e.Worker.Name, e.Inputs.Version.Name, e.Inputs.VersionOrigin.Detail)
		}
		if len(e.Worker.Env) != 0 {
			t.Errorf("%s: the project .env reached the container: %+v", e.Worker.Name, e.Worker.Env)
		}
	}
	// Without the .env, the image is a variable: the worker says so.
	set2, err := Read([]Input{{Name: "deploy/docker-compose-disagg.yml", Data: data},
		{Name: "engine_configs/qwen3/prefill.yaml", Data: p}, {Name: "engine_configs/qwen3/decode.yaml", Data: d}})
	if err != nil {
		t.Fatal(err)
	}
	r2 := Resolve(set2, Options{Base: inputs.Defaults(), Catalog: models.Builtin()})
	if n := strings.Join(r2.Entries[0].Notes, "\n"); !strings.Contains(n, "image ${CONTAINER_IMAGE:?Set CONTAINER_IMAGE to a tensorrtllm-runtime image} (deploy/docker-compose-disagg.yml:33): the set does not set its variable (give audit the .env beside the compose file); using 1.4.0rc4") {
		t.Errorf("notes %q", n)
	}
	compose := `services:
  prefill:
    image: ${IMG:-nvcr.io/nvidia/tensorrt-llm/release:1.1.0}
    env_file: [worker.env]
    environment:
      TRTLLM_USE_NIXL_KVCACHE: "0"
    command: trtllm-serve m --config ${CFG:-/cfg/ctx.yaml} --server_role CONTEXT
`
	set, err = Read([]Input{{Name: "docker-compose.yml", Data: []byte(compose)}, {Name: "worker.env", Data: []byte("TRTLLM_USE_UCX_KVCACHE=1\nTRTLLM_USE_NIXL_KVCACHE=1\n")},
		{Name: "ctx.yaml", Data: []byte("cache_transceiver_config:\n  backend: DEFAULT\n")}})
	if err != nil {
		t.Fatal(err)
	}
	if len(set.Workers) != 1 {
		t.Fatalf("workers %+v unplaced %+v", set.Workers, set.Unplaced)
	}
	w := set.Workers[0]
	if w.Image != "nvcr.io/nvidia/tensorrt-llm/release:1.1.0" || w.Config != "ctx.yaml (matched by its path /cfg/ctx.yaml)" {
		t.Errorf("image %q config %q", w.Image, w.Config)
	}
	var got []string
	for _, e := range w.Env {
		got = append(got, e.Name+"="+e.Value+"@"+e.Origin)
	}
	if strings.Join(got, " ") != "TRTLLM_USE_UCX_KVCACHE=1@worker.env:1 TRTLLM_USE_NIXL_KVCACHE=0@docker-compose.yml:6" {
		t.Errorf("env %q", got)
	}
}

// FuzzComposeInterpolate: any value is interpolated without a panic, and
// within the bound.
func FuzzComposeInterpolate(f *testing.F) {
	for _, s := range []string{"${A:-${B:?x}}", "$$${", "${:-}", "${A:+${A+${A}}}", "$A$B$"} {
		f.Add(s)
	}
	cv := &composeVars{vals: map[string]string{"A": strings.Repeat("a", 1000), "B": ""}, origin: map[string]string{"A": ".env:1", "B": ".env:2"}}
	f.Fuzz(func(t *testing.T, s string) {
		if out := cv.interpolate(s, map[string]bool{}); len(out) > maxShellExpand+len(s) {
			t.Fatalf("%d bytes", len(out))
		}
	})
}

// FuzzReadSet: any YAML document set (Kubernetes objects, compose files,
// srt-slurm recipes, worker YAMLs) is read and resolved without a panic.
func FuzzReadSet(f *testing.F) {
	for _, s := range []string{
		"engine: trtllm\nmodel: {path: /m}\nroles:\n  prefill: {workers: 2, env: {A: 1}, args: {cache_transceiver_config: {backend: UCX}}}\n  decode: x\n",
		"backend:\n  type: trtllm\n  trtllm_config: {prefill: [1], decode: null}\nresources: {prefill_workers: 0, decode_workers: -1}\nmodel: {container: \"${X}\"}\n",
		"base:\n  backend: {type: trtllm}\n  model: {path: hf:a/b-FP8-v2}\n  resources: {agg_workers: 1}\n",
		"services:\n  p:\n    image: ${I:-nvcr.io/nvidia/tensorrt-llm/release:1.1.0}\n    env_file: [{path: .env}]\n    command: trtllm-serve m --config ${C:?x}\n",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		set, err := Read([]Input{{Name: "f.yaml", Data: []byte(s)}, {Name: ".env", Data: []byte("I=x\n")}})
		if err != nil {
			t.Skip()
		}
		Resolve(set, Options{Base: inputs.Defaults(), Catalog: models.Builtin()})
	})
}

package audit

import (
	"strings"
	"testing"

	"xcvr/internal/inputs"
	"xcvr/models"
)

func TestImageVersion(t *testing.T) {
	for img, want := range map[string]string{
		"nvcr.io/nvidia/tensorrt-llm/release:1.2.0rc4":                 "1.2.0rc4",
		"nvcr.io/nvidia/tensorrt-llm/release:1.0.0":                    "1.0.0",
		"nvcr.io/nvidia/tensorrt-llm/release:spark-single-gpu-dev":     "",
		"nvcr.io/nvidia/tensorrt-llm/release":                          "",
		"nvcr.io/nvidia/ai-dynamo/tensorrtllm-runtime:0.7.1":           "1.2.0rc3",
		"nvcr.io/nvidia/ai-dynamo/tensorrtllm-runtime:0.8.1.post2":     "1.2.0rc6.post2",
		"nvcr.io/nvidia/ai-dynamo/tensorrtllm-runtime:1.0.0":           "1.3.0rc5.post1",
		"nvcr.io/nvidia/ai-dynamo/tensorrtllm-runtime:0.5.0":           "", // not in the matrix xcvr read
		"nvcr.io/nvidia/ai-dynamo/tensorrtllm-runtime:1.3.1":           "1.3.0rc19",
		"nvcr.io/nvidia/ai-dynamo/tensorrtllm-runtime:1.1.0":           "1.3.0rc11",
		"nvcr.io/nvidia/ai-dynamo/tensorrtllm-runtime:1.1.1":           "1.3.0rc11",
		"nvcr.io/nvidia/ai-dynamo/tensorrtllm-runtime:1.2.1":           "1.3.0rc14",
		"nvcr.io/nvidia/ai-dynamo/tensorrtllm-runtime:1.0.2":           "1.3.0rc5.post1",
		"nvcr.io/nvidia/ai-dynamo/tensorrtllm-runtime:1.4.2":           "1.3.0rc22",
		"nvcr.io/nvidia/ai-dynamo/tensorrtllm-runtime:1.1.0-dev.2":     "1.3.0rc9",
		"nvcr.io/nvidia/ai-dynamo/tensorrtllm-runtime:1.3.0-dev.1":     "1.3.0rc17",
		"nvcr.io/nvidia/ai-dynamo/tensorrtllm-runtime:1.4.2-efa":       "1.3.0rc22",
		"nvcr.io/nvidia/ai-dynamo/tensorrtllm-runtime:1.0.0-efa-amd64": "1.3.0rc5.post1",
		"nvcr.io/nvidia/ai-dynamo/tensorrtllm-runtime:1.0.0-amd64":     "1.3.0rc5.post1",
		"nvcr.io/nvidia/ai-dynamo/tensorrtllm-runtime:9.9.9-efa":       "",
		"nvcr.io/nvidia/ai-dynamo/tensorrtllm-runtime:-efa":            "",
		"nvcr.io/nvidia/ai-dynamo/trtllm-runtime:v0.4.0":               "", // Dynamo 0.4's name; not in the release data
		"nvcr.io/nvidia/ai-dynamo/tensorrtllm-runtime:0.7.1@sha256:ab": "1.2.0rc3",
		"nvcr.io/nvidia/ai-dynamo/vllm-runtime:0.7.1":                  "",
		"${CONTAINER_IMAGE}":                 "",
		"registry:5000/tensorrt-llm/release": "",
		"aibrix-public-release-cn-beijing.cr.volces.com/aibrix/tensorrt-llm:1.3.0rc8": "1.3.0rc8",
		"example.com/tensorrt-llm:latest":                                             "",
	} {
		got, _, ok := imageVersion(img)
		if got != want || ok != (want != "") {
			t.Errorf("imageVersion(%q) = %q, %v; want %q", img, got, ok, want)
		}
	}
	for cmd, want := range map[string]string{
		"docker run --rm -it --gpus all --ipc host -e A=1 -v /a:/b -p 8000:8000 nvcr.io/nvidia/tensorrt-llm/release:1.1.0 trtllm-serve m": "nvcr.io/nvidia/tensorrt-llm/release:1.1.0",
		"docker run --name x -d --network=host img:1 bash -c 'x'":                                                                         "img:1",
		"srun --container-image=nvcr.io/nvidia/tensorrt-llm/release:1.0.0 -N 1 trtllm-serve m":                                            "nvcr.io/nvidia/tensorrt-llm/release:1.0.0",
		"srun --container-image img2 --mpi=pmix bash x.sh":                                                                                "img2",
		"trtllm-serve m --config c.yaml":                                                                                                  "",
	} {
		if got := commandImage(shellWords(cmd)); got != want {
			t.Errorf("commandImage(%q) = %q, want %q", cmd, got, want)
		}
	}
}

// Without --trtllm each worker is resolved for the release its image runs,
// said with the image's line; a worker whose image does not say is resolved
// for xcvr's default and says so; the header names both releases.
func TestImageDecidesVersion(t *testing.T) {
	script := `#!/bin/bash
cat > ctx.yaml <<EOF
cache_transceiver_config:
  backend: UCX
EOF
docker run --rm --gpus all -v $PWD/ctx.yaml:/ctx.yaml nvcr.io/nvidia/tensorrt-llm/release:1.1.0 trtllm-serve m --config /ctx.yaml --server_role CONTEXT
docker run --rm --gpus all -v $PWD/ctx.yaml:/ctx.yaml my/own:latest trtllm-serve m --config /ctx.yaml --server_role GENERATION
`
	set, err := Read([]Input{{Name: "run.sh", Data: []byte(script)}})
	if err != nil {
		t.Fatal(err)
	}
	r := Resolve(set, Options{Base: inputs.Defaults(), Catalog: models.Builtin()})
	if len(r.Entries) != 2 {
		t.Fatalf("entries %+v", r.Entries)
	}
	c, g := r.Entries[0], r.Entries[1]
	if c.Inputs.Version.Name != "1.1.0" || c.Inputs.VersionOrigin.Detail != "run.sh:6 (image nvcr.io/nvidia/tensorrt-llm/release:1.1.0: the TensorRT-LLM release image's tag)" {
		t.Errorf("context version %s from %+v", c.Inputs.Version.Name, c.Inputs.VersionOrigin)
	}
	if g.Inputs.Version.Name != "1.4.0rc4" || !strings.Contains(strings.Join(g.Notes, "\n"), "image my/own:latest (run.sh:7): xcvr does not know which TensorRT-LLM release it runs; using 1.4.0rc4, xcvr's default (pass --trtllm)") {
		t.Errorf("generation version %s notes %q", g.Inputs.Version.Name, g.Notes)
	}
	if !strings.HasPrefix(r.Text(), "Audit: 2 worker configuration(s), 2 replica(s)/server(s), from 1 object(s) · TensorRT-LLM per worker: 1.1.0, 1.4.0rc4\n") {
		t.Errorf("header %q", strings.SplitN(r.Text(), "\n", 2)[0])
	}
	// --trtllm wins over the image.
	r = audit(t, "1.2.0", "real/dynamo-qwen3/disagg_planner.yaml", "real/dynamo-qwen3/prefill.yaml", "real/dynamo-qwen3/decode.yaml")
	for _, e := range r.Entries {
		if e.Inputs.Version.Name != "1.2.0" {
			t.Errorf("%s: %s", e.Worker.Name, e.Inputs.Version.Name)
		}
	}
}

package audit

import (
	"fmt"
	"strings"
	"syscall"
	"testing"
	"time"

	"xcvr/internal/inputs"
	"xcvr/models"
)

// kubectlList is a kubectl get -o yaml List of n objects in the shapes a real
// cluster returns: for every group of ten, one ConfigMap, one Deployment and
// eight Pods it owns.
func kubectlList(n int) []byte {
	var b strings.Builder
	b.WriteString("apiVersion: v1\nitems:\n")
	for i := 0; i < n; i++ {
		g := i / 10
		role := "prefill"
		if g%2 == 1 {
			role = "decode"
		}
		switch i % 10 {
		case 0:
			fmt.Fprintf(&b, `- apiVersion: v1
  data:
    worker.yaml: |
      tensor_parallel_size: 4
      enable_chunked_prefill: true
      cache_transceiver_config:
        backend: NIXL
        transceiver_runtime: PYTHON
        kv_transfer_timeout_ms: 60000
  kind: ConfigMap
  metadata:
    name: cfg-%d
    namespace: llm
`, g)
		case 1:
			fmt.Fprintf(&b, `- apiVersion: apps/v1
  kind: Deployment
  metadata:
    labels:
      app: %s-%d
    name: %s-%d
    namespace: llm
  spec:
    replicas: 8
    selector:
      matchLabels:
        app: %s-%d
    template:
      metadata:
        labels:
          app: %s-%d
      spec:
        containers:
        - args:
          - Qwen/Qwen3-32B
          - --extra_llm_api_options
          - /cfg/worker.yaml
          command:
          - trtllm-serve
          env:
          - name: TRTLLM_ENABLE_PDL
            value: "1"
          - name: NCCL_DEBUG
            value: WARN
          image: nvcr.io/nvidia/tensorrt-llm/release:1.2.0
          name: trtllm
          resources:
            limits:
              nvidia.com/gpu: "4"
          volumeMounts:
          - mountPath: /cfg
            name: cfg
        volumes:
        - configMap:
            name: cfg-%d
          name: cfg
`, role, g, role, g, role, g, role, g, g)
		default:
			fmt.Fprintf(&b, `- apiVersion: v1
  kind: Pod
  metadata:
    name: %s-%d-5d9c7b6f4-%d
    namespace: llm
    ownerReferences:
    - apiVersion: apps/v1
      controller: true
      kind: ReplicaSet
      name: %s-%d-5d9c7b6f4
  spec:
    containers:
    - args:
      - Qwen/Qwen3-32B
      - --extra_llm_api_options
      - /cfg/worker.yaml
      command:
      - trtllm-serve
      name: trtllm
      volumeMounts:
      - mountPath: /cfg
        name: cfg
    volumes:
    - configMap:
        name: cfg-%d
      name: cfg
  status:
    phase: Running
`, role, g, i, role, g, g)
		}
	}
	b.WriteString("kind: List\nmetadata:\n  resourceVersion: \"\"\n")
	return []byte(b.String())
}

func benchAudit(b *testing.B, data []byte) {
	opt := Options{Base: inputs.Defaults(), Catalog: models.Builtin()}
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	var before syscall.Rusage
	_ = syscall.Getrusage(syscall.RUSAGE_SELF, &before)
	defer func() {
		// The process's CPU time per op, next to the wall time: on a shared
		// host the wall clock measures the neighbours too.
		var after syscall.Rusage
		_ = syscall.Getrusage(syscall.RUSAGE_SELF, &after)
		cpu := time.Duration(after.Utime.Nano() + after.Stime.Nano() - before.Utime.Nano() - before.Stime.Nano())
		b.ReportMetric(float64(cpu.Microseconds())/1000/float64(b.N), "cpu-ms/op")
	}()
	for b.Loop() {
		set, err := Read([]Input{{Name: "-", Data: data}})
		if err != nil {
			b.Fatal(err)
		}
		r := Resolve(set, opt)
		if len(r.Entries) == 0 {
			b.Fatal("no workers")
		}
	}
}

// BenchmarkAudit10kObjects audits a kubectl List of 10,000 objects (issue 18
// §5: under a second).
func BenchmarkAudit10kObjects(b *testing.B) { benchAudit(b, kubectlList(10_000)) }

// BenchmarkAudit1kWorkers audits 1,000 distinct workers: 1,000 Deployments,
// each with its own ConfigMap (issue 22: at most 200 ms).
func BenchmarkAudit1kWorkers(b *testing.B) {
	var sb strings.Builder
	for i := 0; i < 1000; i++ {
		if i > 0 {
			sb.WriteString("---\n")
		}
		fmt.Fprintf(&sb, `apiVersion: v1
kind: ConfigMap
metadata: {name: cfg-%d}
data:
  w.yaml: |
    cache_transceiver_config:
      backend: NIXL
      transceiver_runtime: PYTHON
---
apiVersion: apps/v1
kind: Deployment
metadata: {name: w-%d-%s}
spec:
  replicas: 2
  template:
    spec:
      volumes: [{name: c, configMap: {name: cfg-%d}}]
      containers:
      - name: t
        command: [trtllm-serve, Qwen/Qwen3-32B, --config, /c/w.yaml]
        volumeMounts: [{name: c, mountPath: /c}]
`, i, i, []string{"prefill", "decode"}[i%2], i)
	}
	benchAudit(b, []byte(sb.String()))
}

// TestBenchmarkSetsAreRead checks the benchmarks' inputs read as intended:
// every Pod is counted by its Deployment, so a List of 10,000 objects has
// 1,000 workers of 8 replicas.
func TestBenchmarkSetsAreRead(t *testing.T) {
	set, err := Read([]Input{{Name: "-", Data: kubectlList(100)}})
	if err != nil {
		t.Fatal(err)
	}
	if set.Objects != 100 || len(set.Workers) != 10 || len(set.Unplaced) != 0 {
		t.Fatalf("objects %d workers %d unplaced %+v", set.Objects, len(set.Workers), set.Unplaced)
	}
	for _, w := range set.Workers {
		if w.Count != 8 || w.Overlay == nil {
			t.Errorf("worker %s count %d overlay %v", w.Name, w.Count, w.Overlay != nil)
		}
	}
}

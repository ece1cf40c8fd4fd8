package logs

import (
	"errors"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"xcvr/resolver"
)

// FuzzParse: the log parser never panics, stays within its limits and finishes in
// bounded time; comparing with any prediction never panics either.
func FuzzParse(f *testing.F) {
	for _, data := range fuzzSeeds() {
		f.Add(data)
	}
	f.Add([]byte("0: [1,2]<stderr>:\x1b[31m[TRT-LLM] [RANK 9] [E] ValueError: x\npydantic_core._pydantic_core.ValidationError: 1 validation error for TorchLlmArgs\n  a\n"))
	trace := resolver.Resolve(resolver.Inputs{Version: resolver.KnownVersions()[len(resolver.KnownVersions())-1]})
	f.Fuzz(func(t *testing.T, data []byte) {
		start := time.Now()
		lg, err := Parse("f.log", strings.NewReader(string(data)))
		if errors.Is(err, ErrBinary) {
			return
		}
		if err != nil {
			t.Fatal(err)
		}
		if len(lg.Processes) > maxProcesses {
			t.Fatalf("%d processes", len(lg.Processes))
		}
		for _, p := range lg.Processes {
			if len(p.Lines) > maxLinesPerProcess {
				t.Fatalf("%d lines kept", len(p.Lines))
			}
		}
		_ = Compare(lg, trace)
		_ = JSON(lg, nil, nil)
		if d := time.Since(start); fuzzing() && d > 3*time.Second {
			t.Errorf("%d bytes took %v", len(data), d)
		}
	})
}

// fuzzSeeds are the fuzz targets' seed logs: the testdata logs, one log of
// each reader added late (testdata/shapes), and those readers' lines cut
// where a reader stops (right after a tag's "[RANK ", a JSON key, stern's
// namespace), with many escapes or marks, or a byte no reader expects.
func fuzzSeeds() [][]byte {
	var seeds [][]byte
	for _, glob := range []string{"*.log", filepath.Join("shapes", "*.log")} {
		files, _ := filepath.Glob(filepath.Join("testdata", glob))
		for _, p := range files {
			if data, err := os.ReadFile(p); err == nil {
				seeds = append(seeds, data)
			}
		}
	}
	const rec = `{"time":"2026-01-10T12:00:05Z","level":"ERROR","target":"main.worker","message":"`
	for _, s := range []string{
		"[TRT-LLM] [RANK ",
		"[TRT-LLM] [RANK N",
		"[TRT-LLM] [I] [_torch  ] [RANK ",
		"[TRT-LLM] ",
		"ERROR [TRT-LLM] [RANK 1] Failed to initialize executor on rank 1: x",
		"[pod/decode-0/main] " + rec[:20],
		"[pod/decode-0/main] " + rec + `Traceback (most recent call last):\n  File \"/x/tensorrt_llm/a.py\", line 1, in f\nValueError: x\n"}`,
		rec + strings.Repeat(`\n`, 200) + `RuntimeError: x"}`,
		"decode-0 main " + rec + strings.Repeat("\n", 50) + `"}`,
		"team-b ",
		"team-b trtllm-decode-0 ",
		"team-b trtllm-decode-0 main ",
		"team-b trtllm-decode-0 main Traceback (most recent call last):\x00",
		"[rank",
		"[rank1]:",
		"[rank1]: RuntimeError: x\r",
		"2026-01-01T00:00:00.000Z DEBUG dynamo_run::subprocess: ",
		"2026-01-01T00:00:00.000Z DEBUG dynamo_run::subprocess: Traceback (most recent call last):",
		"(RayWorkerWrapper pid=1, ip=10.0.0.2) [TRT-LLM] [RANK 0] [I] Using KvCacheTransceiverV2" + strings.Repeat(" [repeated 3x across cluster]", 100),
		"(RayWorkerWrapper pid=1, ip=10.0.0.2) RuntimeError: x [repeated 2x across cluster] (Ray deduplicates logs by default.",
		"[TensorRT-LLM][INFO] NixlTransferAgent::NixlTransferAgent mAddress: ",
		"[TensorRT-LLM][INFO] NixlTransferAgent::NixlTransferAgent mAddress: 169.254.\x1b]0;t\x07:1",
		"ImportError: \xc2\x9b: cannot open shared object file: No such file or directory",
		"[TRT-LLM] [I] server is ready with info: {",
		"[TensorRT-LLM][RANK 0][INFO] UCX Connection Manager created\n[TRT-LLM] [RANK 0] [I] Using KvCacheTransceiverV2",
		`{"message":"`,
		`{"message":"[TRT-LLM] [I] x","nodeName":"n","namespace":"`,
		`{"message":"[TRT-LLM] [I] x","namespace":"d","podName":"ctx-0","containerName":"main"`,
		`{"message":"` + rec[:40] + `","namespace":"d","podName":"ctx-0","containerName":"main"}`,
		`{"namespace": "d", "pod": "ctx-0", "container": "`,
		`{"pod": "ctx-0", "container": "main", "message": ` + rec + `x"}}`,
		`{"pod": "ctx-0", "container": "main", "message": "\u001b[31mRuntimeError: x\r"}`,
		"2026-01-10T12:00:06Z stdout P ", "2026-01-10T12:00:06.1+01:00 stderr P " + rec[:50] + "\n2026-01-10T12:00:06Z stdout F x\n2026-01-10T12:00:07Z stderr F " + rec[50:] + `"}`,
		"[default0]:", "[default0]:" + rec[:30], "(EngineCore_DP0 pid=1) (RayWorkerWrapper pid=", "(autoscaler +1h2m", "(raylet, ip=",
	} {
		seeds = append(seeds, []byte(s+"\n"), []byte(s), []byte(s+"\r"), []byte(s+"\xff\x00\n"))
	}
	return seeds
}

// fuzzing reports whether this run is fuzzing (go test -fuzz). The time bound
// that catches a hang is enforced only then: a normal test run, on a CI host
// of any load, asserts nothing about wall-clock time.
func fuzzing() bool {
	f := flag.Lookup("test.fuzz")
	return f != nil && f.Value.String() != ""
}

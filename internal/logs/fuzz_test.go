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
	files, _ := filepath.Glob(filepath.Join("testdata", "*.log"))
	for _, p := range files {
		if data, err := os.ReadFile(p); err == nil {
			f.Add(data)
		}
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

// fuzzing reports whether this run is fuzzing (go test -fuzz). The time bound
// that catches a hang is enforced only then: a normal test run, on a CI host
// of any load, asserts nothing about wall-clock time.
func fuzzing() bool {
	f := flag.Lookup("test.fuzz")
	return f != nil && f.Value.String() != ""
}

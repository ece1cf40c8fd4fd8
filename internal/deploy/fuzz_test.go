package deploy

import (
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// addSeeds adds every testdata file matching pattern to the fuzz corpus.
func addSeeds(f *testing.F, pattern string) {
	files, _ := filepath.Glob(filepath.Join("testdata", pattern))
	for _, p := range files {
		if data, err := os.ReadFile(p); err == nil {
			f.Add(data)
		}
	}
}

// checkBounded fails when one input takes long enough to suggest super-linear
// behaviour; the limit is generous because fuzzing shares the CPU.
func checkBounded(t *testing.T, start time.Time, n int) {
	if d := time.Since(start); fuzzing() && d > 3*time.Second {
		t.Errorf("%d-byte input took %v", n, d)
	}
}

// FuzzReadWorkerConfig: the YAML reader never panics, errors always name the
// file, and every value it passes on has a FILE:LINE origin.
func FuzzReadWorkerConfig(f *testing.F) {
	addSeeds(f, "*.yaml")
	f.Add([]byte("a: &a [*a]\n"))
	f.Add([]byte("cache_transceiver_config: {backend: !!int 1, <<: [{x: 1}, {y: 2}], kv_transfer_timeout_ms: 1:30}\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		start := time.Now()
		ov, err := ReadWorkerConfig("w.yaml", data)
		checkBounded(t, start, len(data))
		if err != nil {
			if !strings.HasPrefix(err.Error(), "w.yaml") {
				t.Fatalf("error without the file name: %v", err)
			}
			return
		}
		for _, s := range []*Setting{ov.Backend, ov.Runtime, ov.TimeoutMS, ov.Pipelined, ov.Loader, ov.Model} {
			if s != nil && !strings.HasPrefix(s.Origin.Detail, "w.yaml:") {
				t.Fatalf("origin %q", s.Origin.Detail)
			}
		}
		for _, e := range ov.ConfigErrors {
			// Only the whole field's model_type error has no key under it.
			if (e.Loc == "") != (e.Type == "model_type") || e.Message == "" || !strings.HasPrefix(e.Origin.Detail, "w.yaml:") {
				t.Fatalf("field error %+v", e)
			}
		}
		// The disagg reader walks the same documents differently.
		if _, err := ReadDisagg("d.yaml", data); err != nil && !strings.HasPrefix(err.Error(), "d.yaml") {
			t.Fatalf("disagg error without the file name: %v", err)
		}
	})
}

// FuzzReadModelConfig: the config.json reader never panics and positions errors.
func FuzzReadModelConfig(f *testing.F) {
	addSeeds(f, "*/config.json")
	f.Add([]byte(`{"architectures": "GptOssForCausalLM"}`))
	f.Add([]byte(`{"architectures": [], "draft_vocab_size": null}`))
	f.Add([]byte(`{"architectures":[""]}`))
	f.Add([]byte("\ufeff{\"architectures\": [\"\\u001b]0;x\\u0007\"], \"n\": 1e99999}"))
	f.Fuzz(func(t *testing.T, data []byte) {
		start := time.Now()
		mc, err := ReadModelConfig("config.json", data)
		checkBounded(t, start, len(data))
		if err != nil {
			if !strings.HasPrefix(err.Error(), "config.json") {
				t.Fatalf("error without the file name: %v", err)
			}
			return
		}
		if (mc.Arch == "") != (len(mc.Architectures) == 0 || mc.Architectures[0] == "") {
			t.Fatalf("arch %q with list %q", mc.Arch, mc.Architectures)
		}
	})
}

// FuzzReadEnvFile: the env-file reader never panics, names FILE:LINE, and every
// variable name it returns is a valid shell name.
func FuzzReadEnvFile(f *testing.F) {
	addSeeds(f, "*.env")
	f.Add([]byte("export A=\"multi\nline\"\nB='x'y\"z\"\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		start := time.Now()
		ef, err := ReadEnvFile("e.env", data)
		checkBounded(t, start, len(data))
		if err != nil {
			if !strings.HasPrefix(err.Error(), "e.env") {
				t.Fatalf("error without the file name: %v", err)
			}
			return
		}
		for _, k := range ef.Names {
			if !validEnvName(k) || !strings.HasPrefix(ef.Vars[k].Origin.Detail, "e.env:") {
				t.Fatalf("variable %q %+v", k, ef.Vars[k])
			}
		}
	})
}

// FuzzReadDisagg: the orchestrator reader never panics, errors name the file,
// and each role it returns has origins in the file.
func FuzzReadDisagg(f *testing.F) {
	addSeeds(f, "disagg-*.yaml")
	f.Add([]byte("cache_transceiver_config: {backend: NIXL}\ncontext_servers: {cache_transceiver_config: {backend: NIXL}}\ngeneration_servers: &g {x: 1}\nx: *g\n"))
	f.Add([]byte("a: 1\n1: a\n1.0: b\ntrue: c\ncontext_servers: {1: a, true: z}\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		start := time.Now()
		d, err := ReadDisagg("d.yaml", data)
		checkBounded(t, start, len(data))
		if err != nil {
			if !strings.HasPrefix(err.Error(), "d.yaml") {
				t.Fatalf("error without the file name: %v", err)
			}
			return
		}
		for _, role := range Roles() {
			ov := d.Roles[role]
			if ov == nil {
				t.Fatalf("role %s missing", role)
			}
			for _, s := range []*Setting{ov.Backend, ov.Runtime, ov.TimeoutMS, ov.Pipelined, ov.Loader, ov.Model} {
				if s != nil && !strings.HasPrefix(s.Origin.Detail, "d.yaml:") {
					t.Fatalf("origin %q", s.Origin.Detail)
				}
			}
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

package guard

import (
	"strings"
	"testing"
)

// BenchmarkYAMLRefuseBlockSequences is the 60 KB "- - - …" file that cost go-yaml
// 1.4 GB and 3 s before the pre-scan.
func BenchmarkYAMLRefuseBlockSequences(b *testing.B) {
	data := []byte(strings.Repeat("- ", 30000) + "x\n")
	b.ReportAllocs()
	for b.Loop() {
		if YAML("f.yaml", data, YAMLLimits()) == nil {
			b.Fatal("accepted")
		}
	}
}

// BenchmarkCheckConfig is the guard's whole cost on a real-sized worker YAML.
func BenchmarkCheckConfig(b *testing.B) {
	data := []byte(strings.Repeat("cache_transceiver_config:\n  backend: NIXL  # comment\n  kv_transfer_timeout_ms: 60000\n", 40))
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Check("f.yaml", data, YAMLLimits()); err != nil {
			b.Fatal(err)
		}
	}
}

package deploy

import (
	"strconv"
	"strings"
	"testing"
)

// BenchmarkUnknownKeys reads a cache_transceiver_config with 4,000 unknown keys
// (10,000 took 17 s when duplicate detection and the misspelling hint were
// quadratic; the guard now stops at 5,000 keys in one mapping).
func BenchmarkUnknownKeys(b *testing.B) {
	var s strings.Builder
	s.WriteString("cache_transceiver_config:\n  backend: NIXL\n")
	for i := 0; i < 4000; i++ {
		s.WriteString("  k" + strconv.Itoa(i) + ": 1\n")
	}
	data := []byte(s.String())
	b.ReportAllocs()
	for b.Loop() {
		ov, err := ReadWorkerConfig("w.yaml", data)
		if err != nil || len(ov.ConfigErrors) != 4000 {
			b.Fatal(err)
		}
	}
}

package resolver_test

import (
	"testing"

	"xcvr/internal/inputs"
	"xcvr/models"
	"xcvr/resolver"
)

// BenchmarkResolveCrossProduct resolves the full cross product the issue names:
// every catalog model × backend (including none) × transceiver_runtime value ×
// --kv-cache-manager choice × known version.
func BenchmarkResolveCrossProduct(b *testing.B) {
	cat := models.Builtin()
	flag := resolver.Origin{Kind: resolver.OriginFlag}
	var all []resolver.Inputs
	for _, e := range cat.Entries() {
		for _, backend := range inputs.Backends() {
			for _, runtime := range inputs.Runtimes() {
				for _, kv := range inputs.KVManagers() {
					for _, v := range resolver.KnownVersions() {
						s := inputs.Defaults()
						s.Version = inputs.Value{Raw: v.Name, Origin: flag}
						s.Model = inputs.Value{Raw: e.Arch, Origin: flag}
						s.Backend = inputs.Value{Raw: backend, Origin: flag}
						s.Runtime = inputs.Value{Raw: runtime, Origin: flag}
						if kv != "auto" {
							s.KVManager = inputs.Value{Raw: kv, Origin: flag}
						}
						in, err := inputs.Build(s, cat)
						if err != nil {
							b.Fatal(err)
						}
						all = append(all, in)
					}
				}
			}
		}
	}
	b.ReportMetric(float64(len(all)), "resolutions/op")
	b.ReportAllocs()
	for b.Loop() {
		for i := range all {
			_ = resolver.Resolve(all[i])
		}
	}
}

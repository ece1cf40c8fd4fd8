package resolver

import "testing"

// BenchmarkResolve is one resolution of the explorer's default (1.4.0rc4, GPT-OSS,
// DEFAULT with a UCX selector in the environment).
func BenchmarkResolve(b *testing.B) {
	in := tc{version: "main@2026-09-10", backend: "DEFAULT", pref: "PYTHON", env: map[string]string{EnvUseUCX: "1"}}.inputs(&testing.T{})
	b.ReportAllocs()
	for b.Loop() {
		_ = Resolve(in)
	}
}

// BenchmarkResolveCrossProduct resolves every known version × 6 backends × 5
// runtime values × 30 model shapes (the catalog's size).
func BenchmarkResolveCrossProduct(b *testing.B) {
	var all []Inputs
	for _, v := range KnownVersions() {
		for _, be := range []string{"DEFAULT", "NIXL", "UCX", "MPI", "MOONCAKE", ""} {
			for _, rt := range []string{"unset", "auto", "CPP", "PYTHON", "null"} {
				for m := 0; m < 30; m++ {
					pref := []string{"", "PYTHON", "CPP"}[m%3]
					in := tc{version: v.Name, backend: be, runtime: rt, pref: pref}.inputs(&testing.T{})
					all = append(all, in)
				}
			}
		}
	}
	b.ReportMetric(float64(len(all)), "resolutions/op")
	b.ReportAllocs()
	for b.Loop() {
		for i := range all {
			_ = Resolve(all[i])
		}
	}
}

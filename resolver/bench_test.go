package resolver

import "testing"

// BenchmarkResolve is one resolution that walks most steps: main@2026-09-10 (era 2),
// GPT-OSS, backend DEFAULT with TRTLLM_USE_UCX_KVCACHE=1, which ends in the
// PYTHON-needs-NIXL error (so the hint is built too).
func BenchmarkResolve(b *testing.B) {
	in := tc{version: "main@2026-09-10", backend: "DEFAULT", pref: "PYTHON", env: map[string]string{EnvUseUCX: "1"}}.inputs(&testing.T{})
	b.ReportAllocs()
	for b.Loop() {
		_ = Resolve(in)
	}
}

package cli

import (
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// BenchmarkCheckLogsDirectory reads a job directory of small per-rank logs
// (XCVR_BENCH_FILES of them, 5,000 by default; the README's run uses 50,000
// beside grep -r). It is a benchmark, never a timed test.
func BenchmarkCheckLogsDirectory(b *testing.B) {
	n := 5000
	if s := os.Getenv("XCVR_BENCH_FILES"); s != "" {
		n, _ = strconv.Atoi(s)
	}
	dir := b.TempDir()
	for i := 0; i < n; i++ {
		sub := filepath.Join(dir, "d"+strconv.Itoa(i/500))
		if i%500 == 0 {
			os.MkdirAll(sub, 0o755)
		}
		line := "[TRT-LLM] [RANK " + strconv.Itoa(i) + "] [I] Using KvCacheTransceiverV2\n"
		if err := os.WriteFile(filepath.Join(sub, "rank-"+strconv.Itoa(i)+".log"), []byte(line), 0o644); err != nil {
			b.Fatal(err)
		}
	}
	b.ResetTimer()
	for b.Loop() {
		if code := Main([]string{"check-logs", dir}, strings.NewReader(""), io.Discard, io.Discard, nil); code != 0 {
			b.Fatalf("exit %d", code)
		}
	}
}

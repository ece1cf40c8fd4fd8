package crash

import (
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"boot"
)

// BenchmarkStartup measures whole processes side by side in one run: a Go
// hello-world, then xcvr as a user and a shell run it (issue 22: at most 5 ms
// per explain process, at most 5x the hello-world). Each process is timed from
// fork to exit, output to /dev/null. It builds both binaries as the release does
// (static, stripped) and is skipped by -short. The README records its numbers;
// nothing asserts a time.
//
//	go test -run '^$' -bench Startup -benchtime 200x ./internal/crash
func BenchmarkStartup(b *testing.B) {
	if testing.Short() {
		b.Skip("builds two binaries")
	}
	dir := b.TempDir()
	hello := filepath.Join(dir, "hello")
	if err := os.WriteFile(filepath.Join(dir, "main.go"), []byte("package main\n\nimport \"fmt\"\n\nfunc main() { fmt.Println(\"hello\") }\n"), 0o644); err != nil {
		b.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "go.mod"), []byte("module hello\n\ngo 1.26\n"), 0o644); err != nil {
		b.Fatal(err)
	}
	build := func(out, pkgDir, pkg string) {
		cmd := exec.Command("go", "build", "-trimpath", "-ldflags", "-s -w", "-o", out, pkg)
		cmd.Dir = pkgDir
		cmd.Env = append(os.Environ(), "CGO_ENABLED=0")
		if msg, err := cmd.CombinedOutput(); err != nil {
			b.Fatalf("go build %s: %v\n%s", pkg, err, msg)
		}
	}
	build(hello, dir, ".")
	xcvr := filepath.Join(dir, "xcvr")
	build(xcvr, "../..", ".")

	runs := []struct {
		name string
		bin  string
		args []string
		env  []string
	}{
		{"hello", hello, nil, nil},
		{"explain", xcvr, []string{"explain", "--clean-env"}, nil},
		{"explain-unsupervised", xcvr, []string{"explain", "--clean-env"}, []string{boot.EnvOff + "=1"}},
		{"version", xcvr, []string{"--version"}, nil},
		{"complete", xcvr, []string{"__complete", "explain", "--model", ""}, nil},
	}
	// One op runs every process once, in turn, so that a change of load on
	// a shared host falls on all of them alike; each reports its median
	// (ms) and its median over the hello-world's (x-hello). ns/op is the
	// whole round.
	times := make([][]time.Duration, len(runs))
	envs := make([][]string, len(runs))
	for i, r := range runs {
		envs[i] = append(os.Environ(), r.env...)
	}
	for b.Loop() {
		for i, r := range runs {
			cmd := exec.Command(r.bin, r.args...)
			cmd.Env = envs[i]
			start := time.Now()
			if err := cmd.Run(); err != nil {
				b.Fatalf("%s %v: %v", r.bin, r.args, err)
			}
			times[i] = append(times[i], time.Since(start))
		}
	}
	median := func(d []time.Duration) float64 {
		s := slices.Clone(d)
		slices.Sort(s)
		return float64(s[len(s)/2]) / 1e6
	}
	base := median(times[0])
	for i, r := range runs {
		m := median(times[i])
		b.ReportMetric(m, r.name+"-ms")
		if i > 0 {
			b.ReportMetric(m/base, r.name+"-x-hello")
		}
	}
}

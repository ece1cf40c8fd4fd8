package cli

import (
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"
)

// hostileCorpus generates the large members of the hostile-input corpus (the
// small ones are committed under testdata/hostile): each is what a hostile or
// mistaken file looks like, and each must be answered — refused or read — with a
// clear error, a bounded number of allocated bytes and no internal error.
func hostileCorpus() []struct {
	name, data string
	flag       string
	code       int
	want       string
	maxAlloc   uint64
} {
	lines := func(n int, f func(i int) string) string {
		var b strings.Builder
		for i := 0; i < n; i++ {
			b.WriteString(f(i))
		}
		return b.String()
	}
	bomb := "a: &a [x, x, x, x, x, x, x, x, x, x]\n"
	prev := "a"
	for i := 0; i < 9; i++ {
		name := string(rune('b' + i))
		bomb += name + ": &" + name + " [" + strings.Repeat("*"+prev+", ", 9) + "*" + prev + "]\n"
		prev = name
	}
	const mib = 1 << 20
	return []struct {
		name, data string
		flag       string
		code       int
		want       string
		maxAlloc   uint64
	}{
		{"block-seq.yaml", strings.Repeat("- ", 30000) + "x\n", "--config", 2, ":1:131: refused: nested deeper than 64 levels", 8 * mib},
		{"indent-deep.yaml", lines(200, func(i int) string { return strings.Repeat(" ", i) + "k:\n" }), "--config", 2, ":65:65: refused: nested deeper than 64 levels", 8 * mib},
		{"flow-deep.yaml", "k: " + strings.Repeat("[", 60000) + "\n", "--disagg", 2, "refused: nested deeper than 64 levels", 8 * mib},
		{"alias-bomb.yaml", bomb, "--config", 2, "an alias bomb", 68 * mib},
		{"comment-line.yaml", "# " + strings.Repeat("x", 70<<10) + "\nk: 1\n", "--config", 2, ":1:65537: refused: a line longer than 64 KiB", 8 * mib},
		{"block-scalar-lines.yaml", "k: |\n" + strings.Repeat("  text\n", 60000), "--config", 2, ":50001:1: refused: more than 50000 lines", 8 * mib},
		{"quoted-lines.yaml", "k: \"" + strings.Repeat("a\n", 60000) + "\"\n", "--config", 2, "refused: more than 50000 lines", 8 * mib},
		{"big.yaml", strings.Repeat("k: v\n", 1<<20), "--config", 2, "refused: 5 MiB is over the 4 MiB limit", 16 * mib},
		{"multi-doc.yaml", "a: 1\n---\nb: 2\n", "--config", 2, ":2:1: yaml.composer.ComposerError: expected a single document in the stream", 8 * mib},
		{"int-5000.yaml", "cache_transceiver_config:\n  kv_transfer_timeout_ms: " + strings.Repeat("7", 5000) + "\n", "--config", 1,
			"ValueError: Exceeds the limit (4300 digits) for integer string conversion: value has 5000 digits", 8 * mib},
		// go-yaml is quadratic in the keys of one block mapping: the guard stops it.
		{"unknown-10k.yaml", "cache_transceiver_config:\n  backend: NIXL\n" + lines(10000, func(i int) string { return "  k" + strconv.Itoa(i) + ": 1\n" }), "--config", 2,
			":5002:3: refused: more than 5000 entries in one block mapping or list", 8 * mib},
		{"unknown-4k.yaml", "cache_transceiver_config:\n  backend: NIXL\n" + lines(4000, func(i int) string { return "  k" + strconv.Itoa(i) + ": 1\n" }), "--config", 1,
			"4000 validation errors for TorchLlmArgs", 256 * mib},
		{"dup-4k.yaml", "cache_transceiver_config:\n" + lines(4000, func(int) string { return "  backend: NIXL\n" }), "--config", 0,
			"and 3989 more keys written twice", 256 * mib},
		{"env-60k.env", lines(60000, func(i int) string { return "A" + strconv.Itoa(i) + "=1\n" }), "--env-file", 2, "refused: more than 50000 lines", 8 * mib},
		{"env-quote.env", "A='" + strings.Repeat("x\n", 40000), "--env-file", 2, "unterminated single quote", 8 * mib},
		{"env-multiline.env", lines(48, func(i int) string {
			return "A" + strconv.Itoa(i) + "=\"" + strings.Repeat(strings.Repeat("x", 60)+"\n", 990) + "\"\n"
		}), "--env-file", 0, "", 64 * mib},
		{"config-deep.json", strings.Repeat("[", 100) + strings.Repeat("]", 100), "--model-config", 2, "refused: nested deeper than 64 levels", 8 * mib},
		{"catalog-bomb.yaml", bomb + "models:\n  - arch: A\n    hf_ids: *j\n", "--catalog", 2, ":2:8: aliases (*name) are not allowed in a catalog", 8 * mib},
		{"catalog-deep.yaml", "models:\n" + strings.Repeat("- ", 100) + "x\n", "--catalog", 2, "refused: nested deeper than 64 levels", 8 * mib},
	}
}

func TestHostileCorpus(t *testing.T) {
	dir := t.TempDir()
	for _, c := range hostileCorpus() {
		p := filepath.Join(dir, c.name)
		if err := os.WriteFile(p, []byte(c.data), 0o600); err != nil {
			t.Fatal(err)
		}
		var before, after runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&before)
		out, errOut, code := run(t, nil, "explain", "--clean-env", c.flag, p)
		runtime.ReadMemStats(&after)
		alloc := after.TotalAlloc - before.TotalAlloc
		if code != c.code || !strings.Contains(errOut+out, c.want) {
			t.Errorf("%s: exit %d (want %d), stderr %.300q; want %q", c.name, code, c.code, errOut, c.want)
		}
		if c.code == 2 && out != "" {
			t.Errorf("%s: refused but printed %d bytes on stdout", c.name, len(out))
		}
		if alloc > c.maxAlloc {
			t.Errorf("%s: %d MiB allocated, budget %d MiB", c.name, alloc>>20, c.maxAlloc>>20)
		}
		if n := strings.Count(errOut, "\n"); n > 30 {
			t.Errorf("%s: %d lines of warnings; repeated warnings must be capped", c.name, n)
		}
		t.Logf("%-24s exit %d, %6.1f MiB allocated", c.name, code, float64(alloc)/(1<<20))
	}
}

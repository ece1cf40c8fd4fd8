package resolver_test

import (
	"crypto/sha256"
	"fmt"
	"hash"
	"io"
	"os"
	"path/filepath"
	"testing"

	"xcvr/internal/install"
	"xcvr/models"
	"xcvr/resolver"
)

// TestDigest is the refactor guard of the rule system: it prints a SHA-256 per
// section of everything the rules decide — the traces (steps, logs, result) of
// the full cross product (every release × model × backend × runtime × KV
// choice), of environment and input variants, of main@DAY every few days and
// of the install fixtures read as installs placed at several releases — and of
// the rules themselves as their accessors show them (texts, code path, dated
// changes, fields, selectors, the tables' briefs). Run it before and after a
// change that should move nothing; every line must match:
//
//	XCVR_DIGEST=1 go test -run '^TestDigest$' -v ./resolver/ | grep digest
//
// XCVR_DIGEST_RULES=FILE also writes the rules section's text to FILE.
//
// It is skipped otherwise (about a minute of CPU).
func TestDigest(t *testing.T) {
	if os.Getenv("XCVR_DIGEST") == "" {
		t.Skip("set XCVR_DIGEST=1 to print the rule system's digest")
	}
	cat := models.Builtin()
	flag := resolver.Origin{Kind: resolver.OriginFlag}
	n := 0
	put := func(h hash.Hash, tr resolver.Trace) {
		fmt.Fprintf(h, "%+v\n%+v\n%+v\n", tr.Steps, tr.Logs, tr.Result)
		n++
	}
	report := func(name string, h hash.Hash) {
		t.Logf("digest %-8s %x (%d resolutions so far)", name, h.Sum(nil), n)
	}

	// 1. The cross product, every release.
	c := newCrossInputs(t)
	h := sha256.New()
	c.each(func(tr resolver.Trace) { put(h, tr) })
	report("cross", h)

	// 2. Environment and input variants on every release, three models.
	envs := []map[string]string{
		{resolver.EnvUseUCX: "1"}, {resolver.EnvUseNIXL: "1"}, {resolver.EnvUseMPI: "1"},
		{resolver.EnvUseMooncake: "1"}, {resolver.EnvUseNIXL: "1", resolver.EnvUseUCX: "1"},
		{resolver.EnvUseUCX: "true"}, {resolver.EnvUseMPI: "0", resolver.EnvUseUCX: "1"},
		{resolver.EnvInflightCancel: "1"}, {resolver.EnvInflightCancel: "1", resolver.EnvUseNIXL: "1", resolver.EnvUseUCX: "1"},
		{resolver.EnvInflightCancel: "1", resolver.EnvNIXLBackend: "LIBFABRIC"},
		{resolver.EnvInflightCancel: "1", resolver.EnvTryZcopy: "1"},
	}
	for _, e := range resolver.EnvVars() {
		for _, val := range append(e.Values, "1", "0") {
			envs = append(envs, map[string]string{e.Name: val})
		}
	}
	archs := []string{"GptOssForCausalLM", "LlamaForCausalLM", "Qwen3NextForCausalLM", "KimiLinearForCausalLM", "NoSuchForCausalLM", ""}
	h = sha256.New()
	for _, v := range c.versions {
		for _, b := range c.bases {
			if b.KVManager.Given() {
				continue
			}
			for _, arch := range archs {
				in := b
				in.Version = v
				in.Model = resolver.Field[resolver.ModelInfo]{Value: cat.Lookup(arch, v), Origin: flag}
				for _, e := range envs {
					in.Env = resolver.Env{}
					for k, x := range e {
						in.Env[k] = resolver.EnvVar{Value: x, Origin: flag}
					}
					put(h, resolver.Resolve(in))
				}
				in.Env = nil
				for _, l := range resolver.Loaders() {
					in.Loader = resolver.Field[resolver.Loader]{Value: l, Origin: flag}
					put(h, resolver.Resolve(in))
				}
				in.Loader = b.Loader
				in.Timeout = resolver.Field[resolver.OptInt]{Origin: flag}
				put(h, resolver.Resolve(in))
				in.Timeout = b.Timeout
				in.Pipelined = resolver.Field[bool]{Value: true, Origin: flag}
				put(h, resolver.Resolve(in))
			}
		}
	}
	report("variants", h)

	// 3. main@DAY every third day from the first modelled day to past the
	// newest release.
	h = sha256.New()
	first, last := c.versions[0].Main, c.versions[len(c.versions)-1].Main
	for d := first; d <= last+100; d = nextDay(d, 3) {
		v, err := resolver.ParseVersion("main@" + d.String())
		if err != nil {
			t.Fatal(err)
		}
		for _, b := range c.bases {
			for _, arch := range archs[:4] {
				in := b
				in.Version = v
				in.Model = resolver.Field[resolver.ModelInfo]{Value: cat.Lookup(arch, v), Origin: flag}
				put(h, resolver.Resolve(in))
			}
		}
	}
	report("main", h)

	// 4. The install fixtures, each read as itself and as installs of several
	// releases.
	h = sha256.New()
	for _, fx := range []string{"era1", "era2", "v14"} {
		pkg := filepath.Join("..", "internal", "install", "testdata", fx, "site-packages", "tensorrt_llm")
		rep, err := install.Scan(pkg, install.DefaultLimits())
		if err != nil {
			t.Fatal(err)
		}
		for _, name := range []string{"", "1.0.0rc4", "1.2.0rc3", "1.3.0rc22", "1.3.0rc26", "1.4.0rc4", "1.5.0rc1.dev2026112500"} {
			if name != "" {
				rep.Version = name
			}
			v := resolver.InstallVersion(rep.Facts(nil))
			fmt.Fprintf(h, "%+v\n", rep.Disagreements(cat))
			for _, b := range c.bases {
				for _, e := range cat.Entries() {
					in := b
					in.Version = v
					in.Model = resolver.Field[resolver.ModelInfo]{Value: cat.Lookup(e.Arch, v), Origin: flag}
					put(h, resolver.Resolve(in))
				}
				in := b
				in.Version = v
				in.Model = resolver.Field[resolver.ModelInfo]{Value: cat.Lookup("NoSuchForCausalLM", v), Origin: flag}
				put(h, resolver.Resolve(in))
			}
		}
	}
	report("install", h)

	// 5. The rules as their accessors show them, and the tables' words
	// (written to $XCVR_DIGEST_RULES too, when set, to diff).
	h = sha256.New()
	var w io.Writer = h
	if name := os.Getenv("XCVR_DIGEST_RULES"); name != "" {
		f, err := os.Create(name)
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		w = io.MultiWriter(h, f)
	}
	var prev *resolver.Rules
	for _, v := range c.versions {
		rs := cat.ReleaseRules(v)
		fmt.Fprintf(w, "%s %v %v %v %v %v %+v %+v %+v\n", v.Name, rs.Era, rs.Version, rs.EraEvidence,
			rs.RuntimeDefault, rs.RuntimeDefaultEvidence, rs.Fields, rs.FieldsEvidence, rs.Validators)
		fmt.Fprintf(w, "%+v %s %+v\n", rs.Selectors, rs.DefaultBackend, rs.SelectorsEvidence)
		for _, id := range append(resolver.TextIDs(), resolver.InferredTextIDs()...) {
			fmt.Fprintf(w, "%+v\n", rs.Text(id))
		}
		for _, id := range resolver.PathIDs() {
			fmt.Fprintf(w, "%+v\n", rs.Rule(id))
		}
		for _, ch := range resolver.Changes() {
			fmt.Fprintf(w, "%d %v\n", ch.PR, rs.Has(ch.Merged))
		}
		for _, a := range rs.ModelOrder {
			fmt.Fprintf(w, "%s %+v\n", a, rs.Models[a])
		}
		fmt.Fprintf(w, "%s\n", digestBrief(v))
		if prev != nil {
			fmt.Fprintf(w, "%+v\n", resolver.CompareRules(prev, rs))
		}
		prev = rs
	}
	report("rules", h)
}

// nextDay is the day k days after d.
func nextDay(d resolver.Day, k int) resolver.Day {
	y, m, dd := int(d)/10000, int(d)/100%100, int(d)%100
	for ; k > 0; k-- {
		dd++
		if dd > daysIn(y, m) {
			dd, m = 1, m+1
			if m > 12 {
				m, y = 1, y+1
			}
		}
	}
	return resolver.Day(y*10000 + m*100 + dd)
}

func daysIn(y, m int) int {
	switch m {
	case 2:
		if y%4 == 0 && (y%100 != 0 || y%400 == 0) {
			return 29
		}
		return 28
	case 4, 6, 9, 11:
		return 30
	}
	return 31
}

// digestBrief is what the tables say of a version (its brief, backend
// literals and spellings).
func digestBrief(v resolver.Version) string {
	rs := resolver.ReleaseRules(v)
	return fmt.Sprint(resolver.RulesBrief(rs), resolver.BackendLiterals(rs), resolver.SpellBackend(rs, "UCX"),
		resolver.SpellBackend(rs, "default"), resolver.SpellBackend(rs, "MOONCAKE"))
}

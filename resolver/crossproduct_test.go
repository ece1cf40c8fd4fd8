package resolver_test

import (
	"reflect"
	"strings"
	"testing"

	"xcvr/internal/inputs"
	"xcvr/models"
	"xcvr/resolver"
)

// crossInputs is the full cross product the issue names: every catalog model ×
// backend (including none) × transceiver_runtime value × --kv-cache-manager choice
// × known version. Like compare.Evaluate, it keeps one Inputs per backend ×
// runtime × KV choice (built by inputs.Build, as the CLI builds them) and swaps in
// the version and the catalog's answer for each model, so what is measured is the
// resolutions, not the collector scanning tens of thousands of stored Inputs.
type crossInputs struct {
	bases    []resolver.Inputs
	versions []resolver.Version
	infos    [][]resolver.ModelInfo // [version][model]
}

func newCrossInputs(tb testing.TB) crossInputs {
	cat := models.Builtin()
	flag := resolver.Origin{Kind: resolver.OriginFlag}
	var c crossInputs
	for _, backend := range inputs.Backends() {
		for _, runtime := range inputs.Runtimes() {
			for _, kv := range inputs.KVManagers() {
				s := inputs.Defaults()
				s.Backend = inputs.Value{Raw: backend, Origin: flag}
				s.Runtime = inputs.Value{Raw: runtime, Origin: flag}
				if kv != "auto" {
					s.KVManager = inputs.Value{Raw: kv, Origin: flag}
				}
				in, err := inputs.Build(s, cat)
				if err != nil {
					tb.Fatal(err)
				}
				c.bases = append(c.bases, in)
			}
		}
	}
	c.versions = resolver.KnownVersions()
	for _, v := range c.versions {
		row := make([]resolver.ModelInfo, 0, len(cat.Entries()))
		for _, e := range cat.Entries() {
			row = append(row, cat.Lookup(e.Arch, v))
		}
		c.infos = append(c.infos, row)
	}
	return c
}

// each resolves every combination with one Resolver, as compare.Evaluate does,
// and calls f with each trace (valid until f returns).
func (c crossInputs) each(f func(resolver.Trace)) {
	var rs resolver.Resolver
	c.eachWith(rs.Resolve, f)
}

// eachWith resolves every combination with resolve and calls f with each trace.
func (c crossInputs) eachWith(resolve func(resolver.Inputs) resolver.Trace, f func(resolver.Trace)) {
	for bi := range c.bases {
		in := c.bases[bi]
		for vi, v := range c.versions {
			in.Version = v
			for _, info := range c.infos[vi] {
				in.Model.Value = info
				f(resolve(in))
			}
		}
	}
}

func (c crossInputs) size() int { return len(c.bases) * len(c.versions) * len(c.infos[0]) }

// BenchmarkResolveCrossProduct resolves the full cross product once per op, in
// one Resolver's memory as the matrix does.
func BenchmarkResolveCrossProduct(b *testing.B) {
	c := newCrossInputs(b)
	b.ReportMetric(float64(c.size()), "resolutions/op")
	b.ReportAllocs()
	for b.Loop() {
		c.each(func(resolver.Trace) {})
	}
}

// BenchmarkResolveCrossProductFresh is the same walk with a fresh trace for each
// resolution (resolver.Resolve), to show what the Resolver saves.
func BenchmarkResolveCrossProductFresh(b *testing.B) {
	c := newCrossInputs(b)
	b.ReportMetric(float64(c.size()), "resolutions/op")
	b.ReportAllocs()
	for b.Loop() {
		c.eachWith(resolver.Resolve, func(resolver.Trace) {})
	}
}

// TestResolverMatchesResolve walks the cross product with one Resolver and checks
// each trace against a fresh resolution of the same inputs: nothing of an earlier
// trace (a longer log, a step's reason, an error) may leak into a later one.
func TestResolverMatchesResolve(t *testing.T) {
	c := newCrossInputs(t)
	var rs resolver.Resolver
	n := 0
	c.eachWith(rs.Resolve, func(got resolver.Trace) {
		n++
		want := resolver.Resolve(got.Inputs)
		if !reflect.DeepEqual(got.Steps, want.Steps) || !reflect.DeepEqual(got.Logs, want.Logs) || !reflect.DeepEqual(got.Result, want.Result) {
			t.Fatalf("resolution %d (%s, %s) differs from a fresh one:\n got %+v\nwant %+v", n, got.Inputs.Version.Name, got.Inputs.Model.Value.Arch, got.Result, want.Result)
		}
	})
	if n != c.size() {
		t.Fatalf("walked %d of %d", n, c.size())
	}
}

// TestCrossProductWellFormed walks the whole cross product: every trace holds each
// step id exactly once, an ERROR names its step and exception, and the KV-cache
// manager is chosen exactly when a worker starts with disaggregation on.
func TestCrossProductWellFormed(t *testing.T) {
	c := newCrossInputs(t)
	ids := resolver.StepIDs()
	n := 0
	c.each(func(tr resolver.Trace) {
		n++
		if len(tr.Steps) != len(ids) {
			t.Fatalf("%d steps, want %d", len(tr.Steps), len(ids))
		}
		seen := map[string]bool{}
		for _, s := range tr.Steps {
			if seen[s.ID] {
				t.Fatalf("step %s twice", s.ID)
			}
			seen[s.ID] = true
		}
		r := tr.Result
		switch r.Outcome {
		case resolver.OutcomeError:
			if r.Error == "" || r.FailedStep == "" {
				t.Fatalf("ERROR without exception or step: %+v", r)
			}
		case resolver.OutcomeDisabled:
			if r.KVManager.Valid {
				t.Fatalf("disaggregation off with a KV manager %v", r.KVManager)
			}
		default:
			if !r.KVManager.Valid {
				t.Fatalf("%s started without a KV manager (%s, %s)", r.Outcome, tr.Inputs.Version.Name, tr.Inputs.Model.Value.Arch)
			}
		}
	})
	if n != c.size() || n < 29*6*5*3*16 {
		t.Fatalf("walked %d resolutions", n)
	}
}

// TestResolverTextOutlivesTheNextTrace keeps the strings of early traces (which
// live in the Resolver's text chunks) and checks them after the rest of the cross
// product has been resolved in the same Resolver: a chunk must never be written
// over, or an error message kept by a caller would silently change.
func TestResolverTextOutlivesTheNextTrace(t *testing.T) {
	c := newCrossInputs(t)
	type kept struct{ got, want string }
	var keep []kept
	n := 0
	c.each(func(tr resolver.Trace) {
		n++
		if n%97 != 1 {
			return
		}
		for _, s := range tr.Steps {
			keep = append(keep, kept{s.Reason, strings.Clone(s.Reason)})
		}
		for _, l := range tr.Logs {
			keep = append(keep, kept{l.Message, strings.Clone(l.Message)})
		}
		keep = append(keep, kept{tr.Result.Error, strings.Clone(tr.Result.Error)})
	})
	if len(keep) < 1000 {
		t.Fatalf("kept only %d strings", len(keep))
	}
	for i, k := range keep {
		if k.got != k.want {
			t.Fatalf("string %d changed after later resolutions:\n got %q\nwant %q", i, k.got, k.want)
		}
	}
}

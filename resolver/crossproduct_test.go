package resolver_test

import (
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

// each resolves every combination and calls f with each trace.
func (c crossInputs) each(f func(resolver.Trace)) {
	for bi := range c.bases {
		in := c.bases[bi]
		for vi, v := range c.versions {
			in.Version = v
			for _, info := range c.infos[vi] {
				in.Model.Value = info
				f(resolver.Resolve(in))
			}
		}
	}
}

func (c crossInputs) size() int { return len(c.bases) * len(c.versions) * len(c.infos[0]) }

// BenchmarkResolveCrossProduct resolves the full cross product once per op. No
// command runs it; it is reported, not a target.
func BenchmarkResolveCrossProduct(b *testing.B) {
	c := newCrossInputs(b)
	b.ReportMetric(float64(c.size()), "resolutions/op")
	b.ReportAllocs()
	for b.Loop() {
		c.each(func(resolver.Trace) {})
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
			// The contract: no transceiver, no kv_cache_manager (the step
			// still shows what config load resolved).
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

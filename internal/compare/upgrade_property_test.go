package compare

import (
	"fmt"
	"maps"
	"math/rand/v2"
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/goccy/go-yaml"

	"xcvr/internal/deploy"
	"xcvr/internal/inputs"
	"xcvr/resolver"
)

// workerFile is one worker as an operator deploys it: a --config YAML and an
// environment. It is what the property test generates, writes out, patches with
// the printed fix and reads back through the deploy reader, so that the fix is
// checked the way it would be used, sharing no code with Fix.Apply.
type workerFile struct {
	model   string
	ctc     map[string]any // cache_transceiver_config; nil = the key is absent
	loader  string         // the top-level "backend" key; "" = absent
	env     map[string]string
	comment string // for failure messages
}

func (w workerFile) yaml(t *testing.T) []byte {
	t.Helper()
	doc := map[string]any{}
	if w.ctc != nil {
		doc["cache_transceiver_config"] = w.ctc
	}
	if w.loader != "" {
		doc["backend"] = w.loader
	}
	if len(doc) == 0 {
		return []byte("{}\n")
	}
	b, err := yaml.Marshal(doc)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// resolve reads the worker back through the deploy reader, as `--config FILE` does,
// and resolves it under v.
func (w workerFile) resolve(t *testing.T, v resolver.Version) resolver.Trace {
	t.Helper()
	ov, err := deploy.ReadWorkerConfig("worker.yaml", w.yaml(t))
	if err != nil {
		t.Fatalf("%s: the deploy reader refuses the worker YAML: %v\n%s", w.comment, err, w.yaml(t))
	}
	s := inputs.Defaults()
	s.Version = inputs.Value{Raw: v.Name, Origin: resolver.Origin{Kind: resolver.OriginFlag}}
	s.Model = inputs.Value{Raw: w.model, Origin: resolver.Origin{Kind: resolver.OriginFlag}}
	for k, val := range w.env {
		s.Env[k] = resolver.EnvVar{Value: val, Origin: resolver.Origin{Kind: resolver.OriginEnv}}
	}
	deploy.Apply(&s, ov)
	in, err := inputs.Build(s, cat)
	if err != nil {
		t.Fatalf("%s: %v", w.comment, err)
	}
	return resolver.Resolve(in)
}

// patch merges a printed fix snippet into the worker the way an operator would:
// the YAML keys are merged into the file, the comment lines are followed.
func (w workerFile) patch(t *testing.T, snippet string) workerFile {
	t.Helper()
	out := w
	out.ctc = maps.Clone(w.ctc)
	out.env = maps.Clone(w.env)
	var doc map[string]any
	if err := yaml.Unmarshal([]byte(snippet), &doc); err != nil {
		t.Fatalf("%s: the fix is not YAML: %v\n%s", w.comment, err, snippet)
	}
	for k, v := range doc {
		if k != "cache_transceiver_config" {
			t.Fatalf("%s: a worker's fix sets top-level key %q\n%s", w.comment, k, snippet)
		}
		m, ok := v.(map[string]any)
		if !ok {
			t.Fatalf("%s: cache_transceiver_config in the fix is %T\n%s", w.comment, v, snippet)
		}
		if out.ctc == nil {
			out.ctc = map[string]any{}
		}
		maps.Copy(out.ctc, m)
	}
	for _, line := range strings.Split(snippet, "\n") {
		c, ok := strings.CutPrefix(line, "# ")
		if !ok {
			continue
		}
		switch {
		case strings.HasPrefix(c, "unset "):
			name := strings.Fields(c)[1]
			if _, ok := out.env[name]; !ok {
				t.Fatalf("%s: the fix unsets %s, which is not set\n%s", w.comment, name, snippet)
			}
			delete(out.env, name)
		case strings.HasPrefix(c, "delete cache_transceiver_config."):
			key := strings.TrimPrefix(c, "delete cache_transceiver_config.")
			if _, ok := out.ctc[key]; !ok {
				t.Fatalf("%s: the fix deletes %s, which is not set\n%s", w.comment, key, snippet)
			}
			delete(out.ctc, key)
		default:
			t.Fatalf("%s: a comment of the fix is not an instruction: %q", w.comment, c)
		}
	}
	return out
}

// randomWorker draws a realistic worker: a catalog model (or none, or one xcvr
// does not know), a backend, a runtime value, a timeout, pipelining, a loader and
// a few TRTLLM_* variables.
func randomWorker(r *rand.Rand) workerFile {
	entries := cat.Entries()
	w := workerFile{env: map[string]string{}}
	switch n := r.IntN(20); {
	case n == 0:
		w.model = "none"
	case n == 1:
		w.model = "SomeFutureForCausalLM"
	default:
		w.model = entries[r.IntN(len(entries))].Arch
	}
	pick := func(vals ...any) any { return vals[r.IntN(len(vals))] }
	if r.IntN(12) != 0 {
		w.ctc = map[string]any{}
		if b := pick("DEFAULT", "NIXL", "UCX", "MPI", "MOONCAKE", "NIXL", "UCX", nil, "absent"); b != "absent" {
			w.ctc["backend"] = b
		}
		if rt := pick("absent", "absent", "auto", "CPP", "PYTHON", nil, "cpp"); rt != "absent" {
			w.ctc["transceiver_runtime"] = rt
		}
		if to := pick("absent", "absent", 600000, 1000, nil, 0); to != "absent" {
			w.ctc["kv_transfer_timeout_ms"] = to
		}
		if p := pick("absent", "absent", "absent", true, false); p != "absent" {
			w.ctc["enable_pipelined_transfer"] = p
		}
	}
	if r.IntN(6) == 0 {
		w.loader = pick("pytorch", "_autodeploy").(string)
	}
	for _, kv := range [][2]string{
		{resolver.EnvUseUCX, "1"}, {resolver.EnvUseNIXL, "1"}, {resolver.EnvUseMPI, "1"}, {resolver.EnvUseMooncake, "1"},
		{resolver.EnvUseUCX, "0"}, {resolver.EnvInflightCancel, "1"}, {resolver.EnvNIXLBackend, "LIBFABRIC"},
		{resolver.EnvLayerwise, "1"},
	} {
		if r.IntN(7) == 0 {
			w.env[kv[0]] = kv[1]
		}
	}
	return w
}

func randomVersion(r *rand.Rand) resolver.Version {
	known := resolver.KnownVersions()
	if r.IntN(5) == 0 {
		// A day of main, around the era boundaries and the model opt-ins.
		day := []string{"2026-07-10", "2026-07-16", "2026-07-22", "2026-08-02", "2026-08-04", "2026-08-07",
			"2026-08-11", "2026-08-27", "2026-08-28", "2026-09-03", "2026-09-15", "2026-10-21", "2026-11-20"}[r.IntN(13)]
		v, err := resolver.ParseVersion("main@" + day)
		if err != nil {
			panic(err)
		}
		return v
	}
	return known[r.IntN(len(known))]
}

// TestUpgradeFixProperty checks, over many random but realistic workers and
// version pairs (either direction), what upgrade-check promises:
//
//   - the verdict is "breaks" exactly when the TO outcome is ERROR and the FROM
//     outcome is not; "same" exactly when the outcomes are equal (so a worker that
//     already fails under FROM and still fails under TO is "same": the upgrade
//     breaks nothing that worked, and upgrade-check exits 0 for it);
//   - a worker that breaks or changes from a working outcome gets a fix unless
//     none of up to MaxFixEdits edits works, and one that stays gets none;
//   - merging exactly the printed snippet into the worker's YAML (and following
//     its comment lines), read back through the deploy reader, makes the TO
//     version start with the outcome the fix claims, and the FROM version give
//     the FROM outcome the fix claims;
//   - "restores" is true exactly when the fixed TO outcome equals the unfixed FROM
//     outcome, and "keeps from" exactly when the fixed FROM outcome does.
func TestUpgradeFixProperty(t *testing.T) {
	n := 4000
	if testing.Short() {
		n = 500
	}
	seed := uint64(17495)
	if s := os.Getenv("XCVR_PROPERTY_SEED"); s != "" {
		seed, _ = strconv.ParseUint(s, 10, 64)
	}
	r := rand.New(rand.NewPCG(seed, 18134))
	fixes, breaks := 0, 0
	for i := range n {
		w := randomWorker(r)
		from, to := randomVersion(r), randomVersion(r)
		w.comment = fmt.Sprintf("case %d (%s -> %s, model %s, ctc %v, loader %q, env %v)", i, from.Name, to.Name, w.model, w.ctc, w.loader, w.env)
		base := inputs.Defaults()
		base.Version = inputs.Value{Raw: from.Name, Origin: resolver.Origin{Kind: resolver.OriginFlag}}
		base.Model = inputs.Value{Raw: w.model, Origin: resolver.Origin{Kind: resolver.OriginFlag}}
		for k, val := range w.env {
			base.Env[k] = resolver.EnvVar{Value: val, Origin: resolver.Origin{Kind: resolver.OriginEnv}}
		}
		ov, err := deploy.ReadWorkerConfig("worker.yaml", w.yaml(t))
		if err != nil {
			t.Fatalf("%s: %v", w.comment, err)
		}
		deploy.Apply(&base, ov)
		in, err := inputs.Build(base, cat)
		if err != nil {
			t.Fatalf("%s: %v", w.comment, err)
		}
		u := UpgradeCheck([]Role{{Name: "worker", Inputs: in}}, from, to, cat)
		f := u.Findings[0]
		before, after := f.From.Result.Outcome, f.To.Result.Outcome
		// The check must agree with resolving the file directly under each version.
		if got := w.resolve(t, from).Result.Outcome; got != before {
			t.Fatalf("%s: FROM outcome %s, the file resolves to %s", w.comment, before, got)
		}
		if got := w.resolve(t, to).Result.Outcome; got != after {
			t.Fatalf("%s: TO outcome %s, the file resolves to %s", w.comment, after, got)
		}
		wantVerdict := VerdictChanges
		switch {
		case before == after:
			wantVerdict = VerdictSame
		case after == resolver.OutcomeError:
			wantVerdict = VerdictBreaks
		}
		if f.Verdict != wantVerdict {
			t.Fatalf("%s: verdict %s for %s -> %s, want %s", w.comment, f.Verdict, before, after, wantVerdict)
		}
		if (f.Verdict == VerdictBreaks) != (after == resolver.OutcomeError && before != resolver.OutcomeError) {
			t.Fatalf("%s: verdict %s for %s -> %s", w.comment, f.Verdict, before, after)
		}
		if u.Breaks() != (f.Verdict == VerdictBreaks) {
			t.Fatalf("%s: Breaks() = %v with verdict %s", w.comment, u.Breaks(), f.Verdict)
		}
		wantsFix := f.Verdict == VerdictBreaks || (f.Verdict == VerdictChanges && before != resolver.OutcomeError)
		if !wantsFix {
			if f.Fix != nil {
				t.Fatalf("%s: verdict %s (%s -> %s) got a fix %v", w.comment, f.Verdict, before, after, f.Fix.Edits)
			}
			continue
		}
		if f.Verdict == VerdictBreaks {
			breaks++
		}
		if f.Fix == nil {
			if f.Verdict == VerdictBreaks {
				t.Logf("%s: breaks and no fix found (%d tried)", w.comment, f.Tried)
			}
			continue
		}
		fixes++
		fx := f.Fix
		if fx.Restores != (fx.ToOutcome == before) || fx.KeepsFrom != (fx.FromOutcome == before) {
			t.Fatalf("%s: restores %v keeps-from %v, but fixed outcomes %s/%s and FROM outcome %s",
				w.comment, fx.Restores, fx.KeepsFrom, fx.ToOutcome, fx.FromOutcome, before)
		}
		fixed := w.patch(t, fx.YAML)
		gotTo, gotFrom := fixed.resolve(t, to), fixed.resolve(t, from)
		if gotTo.Result.Outcome == resolver.OutcomeError {
			t.Fatalf("%s: the printed fix still fails under %s at %s: %s\nfix:\n%s\nfixed file:\n%s",
				w.comment, to.Name, gotTo.Result.FailedStep, gotTo.Result.Error, fx.YAML, fixed.yaml(t))
		}
		if gotTo.Result.Outcome != fx.ToOutcome || gotFrom.Result.Outcome != fx.FromOutcome {
			t.Fatalf("%s: the printed fix gives %s/%s, it claims %s/%s\nfix:\n%s\nfixed file:\n%s",
				w.comment, gotTo.Result.Outcome, gotFrom.Result.Outcome, fx.ToOutcome, fx.FromOutcome, fx.YAML, fixed.yaml(t))
		}
		if fx.Restores != (gotTo.Result.Outcome == before) {
			t.Fatalf("%s: restores %v, but the fixed file gives %s under %s and the unfixed one %s under %s",
				w.comment, fx.Restores, gotTo.Result.Outcome, to.Name, before, from.Name)
		}
		if len(fx.Edits) == 0 || len(fx.Edits) > MaxFixEdits {
			t.Fatalf("%s: %d edits", w.comment, len(fx.Edits))
		}
	}
	t.Logf("%d cases, %d breaks, %d fixes checked", n, breaks, fixes)
	if fixes < n/20 {
		t.Errorf("only %d of %d cases exercised a fix; the generator is too tame", fixes, n)
	}
}

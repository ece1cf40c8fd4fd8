package compare

import (
	"slices"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/exp/golden"

	"xcvr/internal/inputs"
	"xcvr/models"
	"xcvr/resolver"
)

var cat = models.Builtin()

// mustInputs builds resolver inputs from the explain defaults with a few raw
// values replaced, the way the CLI's flags do.
func mustInputs(t testing.TB, version, model, backend string, edit func(*inputs.Spec)) resolver.Inputs {
	t.Helper()
	s := inputs.Defaults()
	flag := resolver.Origin{Kind: resolver.OriginFlag}
	s.Version = inputs.Value{Raw: version, Origin: flag}
	s.Model = inputs.Value{Raw: model, Origin: flag}
	s.Backend = inputs.Value{Raw: backend, Origin: flag}
	if edit != nil {
		edit(&s)
	}
	in, err := inputs.Build(s, cat)
	if err != nil {
		t.Fatal(err)
	}
	return in
}

func mustVersion(t testing.TB, name string) resolver.Version {
	t.Helper()
	v, err := resolver.ParseVersion(name)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

// checkWidth fails when a rendered line is wider than w cells.
func checkWidth(t *testing.T, out string, w int) {
	t.Helper()
	for i, l := range strings.Split(out, "\n") {
		if n := ansi.StringWidth(l); n > w {
			t.Errorf("line %d is %d cells wide (> %d): %q", i+1, n, w, l)
		}
	}
}

// One golden per era boundary: the inputs are chosen so that the boundary changes
// what an operator gets.
func TestDiffEraBoundaries(t *testing.T) {
	cases := []struct {
		name, from, to, model, backend string
		edit                           func(*inputs.Spec)
		wantOutcomes                   [2]resolver.Outcome
		wantChanged                    []string // must be among the changed steps
	}{
		// #16164: GPT-OSS gets its PYTHON preference honoured on NIXL.
		{"16164_gptoss_default", "1.3.0rc21", "1.3.0rc22", "GptOssForCausalLM", "DEFAULT", nil,
			[2]resolver.Outcome{resolver.OutcomeCPP, resolver.OutcomePython},
			[]string{resolver.StepVersion, resolver.StepRuntime, resolver.StepPreference, resolver.StepAuto, resolver.StepTransceiver}},
		// #18134: DeepSeek's PYTHON preference is no longer rerouted on UCX: start-up fails.
		{"18134_deepseek_ucx", "1.3.0rc25", "1.3.0rc26", "DeepseekV3ForCausalLM", "UCX", nil,
			[2]resolver.Outcome{resolver.OutcomeCPP, resolver.OutcomeError},
			[]string{resolver.StepAuto, resolver.StepPythonNIXL}},
		// #17495: no preference on UCX fell back to C++; the 1.4 default PYTHON fails.
		{"17495_qwen3_ucx", "1.3.0rc29", "1.4.0rc1", "Qwen3ForCausalLM", "UCX", nil,
			[2]resolver.Outcome{resolver.OutcomeCPP, resolver.OutcomeError},
			[]string{resolver.StepVersion, resolver.StepRuntime, resolver.StepAuto, resolver.StepPythonNIXL}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			in := mustInputs(t, c.from, c.model, c.backend, c.edit)
			d := DiffVersions(in, mustVersion(t, c.from), mustVersion(t, c.to), cat)
			if got := [2]resolver.Outcome{d.From.Result.Outcome, d.To.Result.Outcome}; got != c.wantOutcomes {
				t.Fatalf("outcomes %v, want %v", got, c.wantOutcomes)
			}
			if !d.Changed() || !d.OutcomeChanged {
				t.Fatal("an era boundary that changes the outcome must be reported as changed")
			}
			for _, id := range c.wantChanged {
				if !slices.Contains(d.ChangedSteps, id) {
					t.Errorf("step %s not marked changed; changed: %v", id, d.ChangedSteps)
				}
			}
			out := DiffText(d, TextOptions{Width: 80})
			checkWidth(t, out, 80)
			if strings.Contains(out, "\x1b") {
				t.Error("colour off must mean no escape sequences")
			}
			golden.RequireEqual(t, out)
		})
	}
}

func TestDiffAlignsEveryStepOnce(t *testing.T) {
	in := mustInputs(t, "1.3.0rc18", "DeepseekV3ForCausalLM", "DEFAULT", nil)
	// Era 0 runs the steps in another order than era 2: alignment must be by id.
	d := DiffVersions(in, mustVersion(t, "1.3.0rc18"), mustVersion(t, "1.3.0rc27"), cat)
	var ids []string
	for _, s := range d.Steps {
		if s.From.ID != s.ID || s.To.ID != s.ID {
			t.Errorf("row %s pairs %q with %q", s.ID, s.From.ID, s.To.ID)
		}
		ids = append(ids, s.ID)
	}
	want := resolver.StepIDs()
	slices.Sort(ids)
	slices.Sort(want)
	if !slices.Equal(ids, want) {
		t.Errorf("rows %v, want every step id once: %v", ids, want)
	}
}

func TestDiffSameVersionUnchanged(t *testing.T) {
	in := mustInputs(t, "1.3.0rc26", "GptOssForCausalLM", "NIXL", nil)
	v := mustVersion(t, "1.3.0rc26")
	d := DiffVersions(in, v, v, cat)
	if d.Changed() || len(d.ChangedSteps) != 0 || len(d.Changes) != 0 {
		t.Fatalf("same version reported a change: %v %v", d.ChangedSteps, d.Changes)
	}
	if !strings.Contains(DiffText(d, TextOptions{}), "= no change") {
		t.Error("text does not say nothing changed")
	}
}

func TestDiffSameEraVersionStepNotChanged(t *testing.T) {
	// rc26 and rc27 are both era 2 and nothing in between touches a GPT-OSS NIXL
	// worker: the version step's reason differs by name only.
	in := mustInputs(t, "1.3.0rc26", "GptOssForCausalLM", "NIXL", nil)
	d := DiffVersions(in, mustVersion(t, "1.3.0rc26"), mustVersion(t, "1.3.0rc27"), cat)
	if d.Changed() {
		t.Fatalf("changed steps %v, outcome changed %v", d.ChangedSteps, d.OutcomeChanged)
	}
	if len(d.Changes) == 0 {
		t.Error("the upstream changes between rc26 and rc27 (#15727 at least) are missing")
	}
}

func TestDiffDowngradeListsSameChanges(t *testing.T) {
	in := mustInputs(t, "1.3.0rc21", "GptOssForCausalLM", "DEFAULT", nil)
	a, b := mustVersion(t, "1.3.0rc21"), mustVersion(t, "1.3.0rc22")
	up, down := DiffVersions(in, a, b, cat), DiffVersions(in, b, a, cat)
	if len(up.Changes) == 0 || len(up.Changes) != len(down.Changes) {
		t.Fatalf("changes up %d, down %d", len(up.Changes), len(down.Changes))
	}
	if up.From.Result.Outcome != down.To.Result.Outcome {
		t.Error("downgrade does not mirror the upgrade")
	}
}

func TestDiffErrorTextOnlyCountsAsChange(t *testing.T) {
	// Explicit PYTHON on UCX fails in every era, at the same step with the same
	// reason, but the exception's wording changes at #15727 ("the NIXL backend" ->
	// "NIXL backend").
	edit := func(s *inputs.Spec) {
		s.Runtime = inputs.Value{Raw: "PYTHON", Origin: resolver.Origin{Kind: resolver.OriginFlag}}
	}
	in := mustInputs(t, "1.3.0rc25", "Qwen3ForCausalLM", "UCX", edit)
	d := DiffVersions(in, mustVersion(t, "1.3.0rc25"), mustVersion(t, "1.3.0rc27"), cat)
	if d.From.Result.Error == d.To.Result.Error {
		t.Skip("the resolver words both errors the same; nothing to test")
	}
	if !slices.Contains(d.ChangedSteps, resolver.StepPythonNIXL) {
		t.Errorf("python-nixl not changed though its exception differs: %v", d.ChangedSteps)
	}
}

func TestDiffColorOnlyWhenAsked(t *testing.T) {
	in := mustInputs(t, "1.3.0rc21", "GptOssForCausalLM", "DEFAULT", nil)
	d := DiffVersions(in, mustVersion(t, "1.3.0rc21"), mustVersion(t, "1.3.0rc22"), cat)
	out := DiffText(d, TextOptions{Color: true, Width: 80})
	if !strings.Contains(out, "\x1b[") {
		t.Error("colour requested but no escape sequence")
	}
	checkWidth(t, out, 80)
	if ansi.Strip(out) != DiffText(d, TextOptions{Width: 80}) {
		t.Error("colour must only add emphasis, never change the text")
	}
}

func TestLogDiff(t *testing.T) {
	a := resolver.LogLine{Level: resolver.LevelInfo, Message: "a"}
	b := resolver.LogLine{Level: resolver.LevelInfo, Message: "b"}
	w := resolver.LogLine{Level: resolver.LevelWarning, Message: "a"}
	gone, added := LogDiff([]resolver.LogLine{a, a, b}, []resolver.LogLine{a, w})
	if !slices.Equal(gone, []resolver.LogLine{a, b}) || !slices.Equal(added, []resolver.LogLine{w}) {
		t.Errorf("gone %v, added %v", gone, added)
	}
	if g, ad := LogDiff([]resolver.LogLine{a, b}, []resolver.LogLine{b, a}); len(g)+len(ad) != 0 {
		t.Errorf("same lines in another order reported: %v %v", g, ad)
	}
}

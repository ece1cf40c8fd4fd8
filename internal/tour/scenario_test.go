package tour

import (
	"os"
	"strings"
	"testing"

	"github.com/goccy/go-yaml"

	"xcvr/assets"
	"xcvr/internal/inputs"
	"xcvr/models"
	"xcvr/resolver"
)

// TestBuiltinScenariosTellTheResolversStory resolves every embedded scenario
// afresh and checks what its data claims: the outcome, and that the step it
// points at takes part (it is not skipped; for a failure, it is where start-up
// fails). The raw file is decoded here on its own, so the test does not trust
// Parse's reading of it.
func TestBuiltinScenariosTellTheResolversStory(t *testing.T) {
	var raw struct {
		Scenarios []struct {
			ID     string         `yaml:"id"`
			Expect string         `yaml:"expect"`
			Step   string         `yaml:"step"`
			Inputs map[string]any `yaml:"inputs"`
		} `yaml:"scenarios"`
	}
	if err := yaml.Unmarshal(assets.TourYAML, &raw); err != nil {
		t.Fatal(err)
	}
	stops, err := Builtin()
	if err != nil {
		t.Fatal(err)
	}
	if len(stops) != len(raw.Scenarios) || len(stops) != 9 {
		t.Fatalf("%d stops parsed, %d in the file; issues 21 and 17 list 9", len(stops), len(raw.Scenarios))
	}
	for i, s := range stops {
		r := raw.Scenarios[i]
		t.Run(s.ID, func(t *testing.T) {
			if s.ID != r.ID || string(s.Expect) != r.Expect || s.Step != r.Step {
				t.Fatalf("parsed %s/%s/%s, file says %s/%s/%s", s.ID, s.Expect, s.Step, r.ID, r.Expect, r.Step)
			}
			in, err := inputs.Build(s.Spec, models.Builtin())
			if err != nil {
				t.Fatal(err)
			}
			if v, ok := r.Inputs["trtllm"]; ok && in.Version.Name != v {
				t.Errorf("version %s, file says %v", in.Version.Name, v)
			}
			tr := resolver.Resolve(in)
			if got := string(tr.Result.Outcome); got != r.Expect {
				t.Errorf("resolver gives %s; the scenario claims %s", got, r.Expect)
			}
			st, ok := tr.Step(r.Step)
			if !ok {
				t.Fatalf("no step %q in the trace", r.Step)
			}
			if st.Verdict == resolver.Skipped {
				t.Errorf("step %q is skipped here: the narration points at a step that does nothing (%s)", r.Step, st.Reason)
			}
			if r.Expect == string(resolver.OutcomeError) && tr.Result.FailedStep != r.Step {
				t.Errorf("start-up fails at %q, the scenario points at %q", tr.Result.FailedStep, r.Step)
			}
		})
	}
}

func TestParseErrorsNameTheLine(t *testing.T) {
	const good = `scenarios:
  - id: a
    title: A
    inputs:
      trtllm: 1.3.0rc22
      model: GptOssForCausalLM
      backend: UCX
    expect: CPP
    step: auto
    narrate: falls back
`
	cases := []struct{ name, yaml, want string }{
		{"claim the resolver denies", strings.Replace(good, "expect: CPP", "expect: PYTHON", 1),
			"t.yaml:8:13: scenario a claims PYTHON, but the resolver gives CPP"},
		{"unknown step", strings.Replace(good, "step: auto", "step: magic", 1),
			`t.yaml:9:11: scenario a: step "magic" is not a resolver step id`},
		{"unknown outcome", strings.Replace(good, "expect: CPP", "expect: MAYBE", 1),
			`t.yaml:8:13: scenario a: expect "MAYBE"`},
		{"unknown key", strings.Replace(good, "narrate:", "narate:", 1), "t.yaml:10"},
		{"bad version", strings.Replace(good, "1.3.0rc22", "9.9", 1), "t.yaml:5"},
		{"env without =", strings.Replace(good, "backend: UCX", "backend: UCX\n      env: [TRTLLM_X]", 1), `env "TRTLLM_X": want KEY=VALUE`},
		{"empty list", "scenarios: []\n", "t.yaml:1:12: the 'scenarios:' list is empty"},
		{"not a tour", "title: x\n", `t.yaml:1:1: unknown field "title"`},
		// The first of several, at every run (go-yaml picks one from a map).
		{"not a tour, twice", "title: x\nid: y\nnarrate: z\nstep: w\nexpect: v\n", `t.yaml:1:1: unknown field "title"`},
		{"not a tour, twice", "title: x\nid: y\nnarrate: z\nstep: w\nexpect: v\n", `t.yaml:1:1: unknown field "title"`},
		{"not a tour, twice", "title: x\nid: y\nnarrate: z\nstep: w\nexpect: v\n", `t.yaml:1:1: unknown field "title"`},
		{"not a tour, twice", "title: x\nid: y\nnarrate: z\nstep: w\nexpect: v\n", `t.yaml:1:1: unknown field "title"`},
		{"not a tour, twice", "title: x\nid: y\nnarrate: z\nstep: w\nexpect: v\n", `t.yaml:1:1: unknown field "title"`},
		{"not a tour, twice", "title: x\nid: y\nnarrate: z\nstep: w\nexpect: v\n", `t.yaml:1:1: unknown field "title"`},
		{"duplicate id", good + strings.TrimPrefix(good, "scenarios:\n"), `t.yaml:11:9: scenario id "a" is used twice`},
		{"no narration", strings.Replace(good, "    narrate: falls back\n", "", 1), "t.yaml:2:7: scenario a has no narrate text"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := Parse("t.yaml", []byte(c.yaml), models.Builtin())
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("err = %v\nwant it to contain %q", err, c.want)
			}
		})
	}
	if _, err := Parse("t.yaml", []byte(good), models.Builtin()); err != nil {
		t.Fatalf("the good file: %v", err)
	}
}

func TestNullTimeoutIsNotAMissingOne(t *testing.T) {
	doc := func(extra string) string {
		return "scenarios:\n  - id: a\n    title: A\n    inputs:\n      trtllm: 1.3.0rc26\n      model: MistralForCausalLM\n      backend: NIXL\n" +
			extra + "    expect: %s\n    step: auto\n    narrate: n\n"
	}
	// Era 2, no preference, NIXL: PYTHON with the default timeout, C++ with null.
	for _, c := range []struct{ extra, expect string }{
		{"", "PYTHON"},
		{"      timeout_ms: null\n", "CPP"},
		{"      timeout_ms: 1000\n", "PYTHON"},
	} {
		src := strings.Replace(doc(c.extra), "%s", c.expect, 1)
		if _, err := Parse("t.yaml", []byte(src), models.Builtin()); err != nil {
			t.Errorf("timeout %q: %v", strings.TrimSpace(c.extra), err)
		}
	}
}

func TestScenarioOriginsNameTheFile(t *testing.T) {
	stops, err := Builtin()
	if err != nil {
		t.Fatal(err)
	}
	o := stops[0].Spec.Backend.Origin
	if o.Kind != resolver.OriginFile || !strings.HasPrefix(o.Detail, "tour.yaml:") {
		t.Errorf("backend origin = %+v, want the tour file and line", o)
	}
	// The team example in the README parses.
	if data, err := os.ReadFile("testdata/team.yaml"); err == nil {
		if _, err := Parse("testdata/team.yaml", data, models.Builtin()); err != nil {
			t.Errorf("testdata/team.yaml: %v", err)
		}
	}
}

// Package tour is xcvr's guided tour: scenarios of the transceiver rules' history,
// each presetting the real explorer, pointing at the step that matters and
// inviting one edit. Scenarios are data (assets/tour.yaml, plus a team's own
// files); Parse checks every scenario's claimed outcome against the resolver, so a
// story can never drift from the rules it tells.
package tour

import (
	"fmt"
	"reflect"
	"strconv"
	"strings"

	"github.com/goccy/go-yaml"
	"github.com/goccy/go-yaml/ast"
	"github.com/goccy/go-yaml/parser"

	"xcvr/assets"
	"xcvr/internal/inputs"
	"xcvr/internal/yamlpos"
	"xcvr/models"
	"xcvr/resolver"
)

// MaxScenarios bounds one tour file: a tour is read by people, stop by stop.
const MaxScenarios = 200

// Scenario is one stop of the tour.
type Scenario struct {
	ID    string
	Title string
	// Spec is the explorer's starting inputs; every value's origin names the tour.
	Spec inputs.Spec
	// Expect is the outcome the scenario claims.
	Expect resolver.Outcome
	// Step is the resolver step id the narration is about.
	Step string
	// Narrate says what to look at; Try invites one edit.
	Narrate string
	Try     string
	// TryFlags is Try as explain flags added to the stop's own (Command), for
	// the linear tour, where the explorer's keys do not exist; nil when the
	// scenario gives none.
	TryFlags []string
	// Source is FILE:LINE of the scenario, for messages.
	Source string
}

type fileTour struct {
	Scenarios []fileScenario `yaml:"scenarios"`
}

type fileScenario struct {
	ID      string     `yaml:"id"`
	Title   string     `yaml:"title"`
	Inputs  fileInputs `yaml:"inputs"`
	Expect  string     `yaml:"expect"`
	Step    string     `yaml:"step"`
	Narrate string     `yaml:"narrate"`
	Try     string     `yaml:"try"`
	// TryFlags is the same edit as explain flags (try_flags: [--backend, UCX]).
	TryFlags []string `yaml:"try_flags"`
}

type fileInputs struct {
	TRTLLM    string   `yaml:"trtllm"`
	Model     string   `yaml:"model"`
	Backend   string   `yaml:"backend"`
	Runtime   string   `yaml:"runtime"`
	TimeoutMS *string  `yaml:"timeout_ms"`
	Loader    string   `yaml:"loader"`
	Pipelined *bool    `yaml:"pipelined"`
	Env       []string `yaml:"env"`
}

// Builtin returns the scenarios embedded in the binary (assets/tour.yaml).
func Builtin() ([]Scenario, error) {
	return Parse("tour.yaml", assets.TourYAML, models.Builtin())
}

// Parse reads a tour file. Every error names FILE:LINE: unknown keys, a missing
// id, title or narration, an unknown step id or outcome, inputs that do not
// build, and a claimed outcome the resolver does not give. cat nil means
// models.Builtin().
func Parse(name string, data []byte, cat *models.Catalog) ([]Scenario, error) {
	if cat == nil {
		cat = models.Builtin()
	}
	f, err := parser.ParseBytes(data, 0)
	if err != nil {
		return nil, yamlpos.Wrap(name, err)
	}
	for _, d := range f.Docs {
		if k, key := yamlpos.FirstUnknownKey(d, reflect.TypeFor[fileTour]()); k != nil {
			return nil, yamlpos.At(name, k, "unknown field %q", key)
		}
	}
	var ft fileTour
	if err := yaml.UnmarshalWithOptions(data, &ft, yaml.Strict()); err != nil {
		return nil, yamlpos.Wrap(name, err)
	}
	if yamlpos.Lookup(f, "$.scenarios") == nil {
		return nil, &yamlpos.Error{File: name, Line: 1, Msg: "no 'scenarios:' list"}
	}
	if len(ft.Scenarios) == 0 {
		return nil, yamlpos.At(name, yamlpos.Lookup(f, "$.scenarios"), "the 'scenarios:' list is empty")
	}
	if len(ft.Scenarios) > MaxScenarios {
		return nil, yamlpos.At(name, yamlpos.Lookup(f, "$.scenarios"), "%d scenarios; the limit is %d", len(ft.Scenarios), MaxScenarios)
	}
	known := map[string]bool{}
	for _, id := range resolver.StepIDs() {
		known[id] = true
	}
	seen := map[string]bool{}
	out := make([]Scenario, 0, len(ft.Scenarios))
	for i, fs := range ft.Scenarios {
		base := "$.scenarios[" + strconv.Itoa(i) + "]"
		node := func(field string) ast.Node {
			if field != "" {
				if n := yamlpos.Lookup(f, base+"."+field); n != nil {
					return n
				}
			}
			return yamlpos.Lookup(f, base)
		}
		where := func(field, format string, args ...any) error {
			return yamlpos.At(name, node(field), format, args...)
		}
		switch {
		case strings.TrimSpace(fs.ID) == "":
			return nil, where("", "scenario %d has no id", i+1)
		case seen[fs.ID]:
			return nil, where("id", "scenario id %q is used twice", fs.ID)
		case strings.TrimSpace(fs.Title) == "":
			return nil, where("", "scenario %s has no title", fs.ID)
		case strings.TrimSpace(fs.Narrate) == "":
			return nil, where("", "scenario %s has no narrate text", fs.ID)
		case !known[fs.Step]:
			return nil, where("step", "scenario %s: step %q is not a resolver step id (want one of %s)", fs.ID, fs.Step, strings.Join(resolver.StepIDs(), ", "))
		}
		seen[fs.ID] = true
		expect := resolver.Outcome(strings.ToUpper(fs.Expect))
		switch expect {
		case resolver.OutcomePython, resolver.OutcomeCPP, resolver.OutcomeDisabled, resolver.OutcomeError:
		default:
			return nil, where("expect", "scenario %s: expect %q: want PYTHON, CPP, DISABLED or ERROR", fs.ID, fs.Expect)
		}
		src := name + ":" + strconv.Itoa(yamlpos.Line(node("")))
		spec, err := fs.spec(f, base, src)
		if err != nil {
			return nil, where("inputs", "scenario %s: %v", fs.ID, err)
		}
		sc := Scenario{ID: fs.ID, Title: fs.Title, Spec: spec, Expect: expect, Step: fs.Step,
			Narrate: strings.TrimSpace(fs.Narrate), Try: strings.TrimSpace(fs.Try), TryFlags: fs.TryFlags, Source: src}
		for _, fl := range fs.TryFlags {
			if strings.ContainsAny(fl, "\n\r\x00") {
				return nil, where("try_flags", "scenario %s: a try flag holds a control character", fs.ID)
			}
		}
		t, err := sc.Resolve(cat)
		if err != nil {
			return nil, where("inputs", "scenario %s: %v", fs.ID, err)
		}
		if t.Result.Outcome != expect {
			return nil, where("expect", "scenario %s claims %s, but the resolver gives %s for these inputs", fs.ID, expect, t.Result.Outcome)
		}
		out = append(out, sc)
	}
	return out, nil
}

// spec turns a scenario's inputs into the explorer's starting spec. timeout_ms:
// null is told apart from a missing key through the syntax tree.
func (fs fileScenario) spec(f *ast.File, base, src string) (inputs.Spec, error) {
	s := inputs.Defaults()
	o := resolver.Origin{Kind: resolver.OriginFile, Detail: src}
	in := fs.Inputs
	set := func(v *inputs.Value, raw string) {
		if raw != "" {
			*v = inputs.Value{Raw: raw, Origin: o}
		}
	}
	set(&s.Version, in.TRTLLM)
	set(&s.Model, in.Model)
	set(&s.Backend, in.Backend)
	set(&s.Runtime, in.Runtime)
	set(&s.Loader, in.Loader)
	switch {
	case in.TimeoutMS != nil:
		set(&s.TimeoutMS, *in.TimeoutMS)
	case yamlpos.Lookup(f, base+".inputs.timeout_ms") != nil:
		s.TimeoutMS = inputs.Value{Raw: "null", Origin: o}
	}
	if in.Pipelined != nil {
		s.Pipelined = inputs.Value{Raw: strconv.FormatBool(*in.Pipelined), Origin: o}
	}
	for _, kv := range in.Env {
		if !strings.Contains(kv, "=") {
			return s, fmt.Errorf("env %q: want KEY=VALUE", kv)
		}
		if err := s.SetEnv(kv, o); err != nil {
			return s, err
		}
	}
	return s, nil
}

// Command is the xcvr explain command line (as arguments, "xcvr" first) that
// shows this stop: --clean-env, then a flag for every input the scenario sets.
func (s Scenario) Command() []string {
	out := []string{"xcvr", "explain", "--clean-env"}
	add := func(flag string, v inputs.Value) {
		if v.Origin.Kind == resolver.OriginFile && v.Raw != "" {
			out = append(out, flag, v.Raw)
		}
	}
	add("--trtllm", s.Spec.Version)
	add("--model", s.Spec.Model)
	add("--backend", s.Spec.Backend)
	add("--runtime", s.Spec.Runtime)
	add("--timeout-ms", s.Spec.TimeoutMS)
	add("--loader", s.Spec.Loader)
	if v := s.Spec.Pipelined; v.Origin.Kind == resolver.OriginFile && v.Raw != "" {
		out = append(out, "--pipelined="+v.Raw)
	}
	for _, k := range s.Spec.EnvNames() {
		out = append(out, "--env", k+"="+s.Spec.Env[k].Value)
	}
	return out
}

// TryCommand is Command with the scenario's try_flags, nil without them: a
// flag the stop already sets gets the new value in place (for --env, the same
// variable's), so the line reads as the one edit it is.
func (s Scenario) TryCommand() []string {
	if len(s.TryFlags) == 0 {
		return nil
	}
	out := s.Command()
	for i := 0; i < len(s.TryFlags); i++ {
		fl := s.TryFlags[i]
		if !strings.HasPrefix(fl, "--") || i+1 >= len(s.TryFlags) || strings.HasPrefix(s.TryFlags[i+1], "-") {
			out = append(out, fl)
			continue
		}
		val := s.TryFlags[i+1]
		i++
		replaced := false
		for j := 1; j+1 < len(out); j++ {
			if out[j] != fl {
				continue
			}
			if fl == "--env" {
				k, _, _ := strings.Cut(val, "=")
				if ok, _, _ := strings.Cut(out[j+1], "="); ok != k {
					continue
				}
			}
			out[j+1], replaced = val, true
			break
		}
		if !replaced {
			out = append(out, fl, val)
		}
	}
	return out
}

// Resolve runs the resolver on the scenario's inputs; cat nil means
// models.Builtin().
func (s Scenario) Resolve(cat *models.Catalog) (resolver.Trace, error) {
	if cat == nil {
		cat = models.Builtin()
	}
	in, err := inputs.Build(s.Spec, cat)
	if err != nil {
		return resolver.Trace{}, err
	}
	return resolver.Resolve(in), nil
}

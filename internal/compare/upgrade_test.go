package compare

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/charmbracelet/x/exp/golden"
	"github.com/goccy/go-yaml"

	"xcvr/internal/inputs"
	"xcvr/resolver"
)

// upgradeCase is one role as the operator typed it.
type upgradeCase struct {
	name             string
	from, to         string
	model, backend   string
	edit             func(*inputs.Spec)
	wantVerdict      UpgradeVerdict
	wantFix          []string // the edits of the expected smallest fix
	wantRestores     bool
	wantKeepsFromFix bool
}

func flagValue(raw string) inputs.Value {
	return inputs.Value{Raw: raw, Origin: resolver.Origin{Kind: resolver.OriginFlag}}
}

func setEnv(kv string) func(*inputs.Spec) {
	return func(s *inputs.Spec) {
		if err := s.SetEnv(kv, resolver.Origin{Kind: resolver.OriginEnv}); err != nil {
			panic(err)
		}
	}
}

func (c upgradeCase) spec() inputs.Spec {
	s := inputs.Defaults()
	s.Version = flagValue(c.from)
	s.Model = flagValue(c.model)
	s.Backend = flagValue(c.backend)
	if c.edit != nil {
		c.edit(&s)
	}
	return s
}

var upgradeCases = []upgradeCase{
	{name: "stays_gptoss_nixl", from: "1.3.0rc26", to: "1.4.0rc1", model: "GptOssForCausalLM", backend: "NIXL",
		wantVerdict: VerdictSame},
	{name: "changes_gptoss_default", from: "1.3.0rc21", to: "1.3.0rc22", model: "GptOssForCausalLM", backend: "DEFAULT",
		wantVerdict: VerdictChanges, wantFix: []string{"transceiver_runtime: CPP"}, wantRestores: true, wantKeepsFromFix: true},
	{name: "breaks_qwen3_ucx_17495", from: "1.3.0rc29", to: "1.4.0rc1", model: "Qwen3ForCausalLM", backend: "UCX",
		wantVerdict: VerdictBreaks, wantFix: []string{"transceiver_runtime: CPP"}, wantRestores: true, wantKeepsFromFix: true},
	{name: "breaks_deepseek_ucx_18134", from: "1.3.0rc25", to: "1.3.0rc26", model: "DeepseekV3ForCausalLM", backend: "UCX",
		wantVerdict: VerdictBreaks, wantFix: []string{"transceiver_runtime: CPP"}, wantRestores: true, wantKeepsFromFix: true},
	{name: "breaks_null_timeout_17495", from: "1.3.0rc29", to: "1.4.0rc1", model: "Qwen3ForCausalLM", backend: "NIXL",
		edit:        func(s *inputs.Spec) { s.TimeoutMS = flagValue("null") },
		wantVerdict: VerdictBreaks, wantFix: []string{"transceiver_runtime: CPP"}, wantRestores: true, wantKeepsFromFix: true},
	{name: "breaks_inflight_cancel_18134", from: "1.3.0rc25", to: "1.3.0rc26", model: "Qwen3ForCausalLM", backend: "NIXL",
		edit:        setEnv(resolver.EnvInflightCancel + "=1"),
		wantVerdict: VerdictBreaks, wantFix: []string{"transceiver_runtime: CPP"}, wantRestores: true, wantKeepsFromFix: true},
	// Kimi K3 on UCX ran on C++ until #17480 made it refuse every route but
	// PYTHON on NIXL: the old outcome cannot be kept, so the fix only has to start.
	{name: "breaks_kimi_k3_ucx_17480", from: "main@2026-08-07", to: "main@2026-08-18", model: "KimiLinearForCausalLM", backend: "UCX",
		// Before #17480 K3 had no PYTHON hook yet (#17480's description), so
		// backend NIXL still gives C++ under FROM: the fix keeps FROM's outcome.
		wantVerdict: VerdictBreaks, wantFix: []string{"backend: NIXL"}, wantRestores: false, wantKeepsFromFix: true},
	// DEFAULT turned into UCX by the environment, across #17495.
	{name: "breaks_default_ucx_env_17495", from: "1.3.0rc29", to: "1.4.0rc1", model: "Qwen3ForCausalLM", backend: "DEFAULT",
		edit:        setEnv(resolver.EnvUseUCX + "=1"),
		wantVerdict: VerdictBreaks, wantFix: []string{"transceiver_runtime: CPP"}, wantRestores: true, wantKeepsFromFix: true},
}

func TestUpgradeCheckCases(t *testing.T) {
	for _, c := range upgradeCases {
		t.Run(c.name, func(t *testing.T) {
			in, err := inputs.Build(c.spec(), cat)
			if err != nil {
				t.Fatal(err)
			}
			from, to := mustVersion(t, c.from), mustVersion(t, c.to)
			u := UpgradeCheck([]Role{{Name: "worker", Inputs: in}}, from, to, cat)
			f := u.Findings[0]
			if f.Verdict != c.wantVerdict {
				t.Fatalf("verdict %s (%s -> %s), want %s", f.Verdict, f.From.Result.Outcome, f.To.Result.Outcome, c.wantVerdict)
			}
			if u.Breaks() != (c.wantVerdict == VerdictBreaks) {
				t.Errorf("Breaks() = %v", u.Breaks())
			}
			if c.wantVerdict == VerdictSame {
				if f.Fix != nil {
					t.Errorf("a role that stays got a fix: %v", f.Fix.Edits)
				}
				return
			}
			if f.Fix == nil {
				t.Fatalf("no fix found (%d tried)", f.Tried)
			}
			var got []string
			for _, e := range f.Fix.Edits {
				got = append(got, e.String())
			}
			if strings.Join(got, "; ") != strings.Join(c.wantFix, "; ") {
				t.Errorf("fix %q, want %q", got, c.wantFix)
			}
			if f.Fix.Restores != c.wantRestores || f.Fix.KeepsFrom != c.wantKeepsFromFix {
				t.Errorf("restores %v keeps-from %v, want %v %v", f.Fix.Restores, f.Fix.KeepsFrom, c.wantRestores, c.wantKeepsFromFix)
			}
			// The snippet shown to the operator, applied on its own, must make the
			// TO version start (and give the outcome the fix claims).
			for _, v := range []resolver.Version{to, from} {
				s := applySnippet(t, c.spec(), f.Fix.YAML)
				s.Version = flagValue(v.Name)
				fixed, err := inputs.Build(s, cat)
				if err != nil {
					t.Fatal(err)
				}
				tr := resolver.Resolve(fixed)
				want := f.Fix.ToOutcome
				if v.Name == from.Name {
					want = f.Fix.FromOutcome
				}
				if tr.Result.Outcome != want {
					t.Errorf("%s with the snippet: %s (%s), fix claims %s", v.Name, tr.Result.Outcome, tr.Result.Error, want)
				}
				if v.Name == to.Name && tr.Result.Outcome == resolver.OutcomeError {
					t.Errorf("the suggested fix still breaks under %s: %s", v.Name, tr.Result.Error)
				}
			}
		})
	}
}

// applySnippet applies a fix the way an operator would: merge the YAML keys into
// the role's config, follow the comment lines. It shares no code with Fix.Apply.
func applySnippet(t *testing.T, s inputs.Spec, snippet string) inputs.Spec {
	t.Helper()
	var doc struct {
		CTC map[string]any `yaml:"cache_transceiver_config"`
	}
	if err := yaml.Unmarshal([]byte(snippet), &doc); err != nil {
		t.Fatalf("snippet is not YAML: %v\n%s", err, snippet)
	}
	origin := resolver.Origin{Kind: resolver.OriginFile, Detail: "fix.yaml"}
	for k, v := range doc.CTC {
		raw := strings.TrimSpace(strings.Trim(strings.TrimSpace(toString(v)), "'\""))
		switch k {
		case "transceiver_runtime":
			s.Runtime = inputs.Value{Raw: raw, Origin: origin}
		case "backend":
			s.Backend = inputs.Value{Raw: raw, Origin: origin}
		case "kv_transfer_timeout_ms":
			s.TimeoutMS = inputs.Value{Raw: raw, Origin: origin}
		default:
			t.Fatalf("snippet sets an unexpected key %q", k)
		}
	}
	for _, line := range strings.Split(snippet, "\n") {
		c, ok := strings.CutPrefix(line, "# ")
		if !ok {
			continue
		}
		switch {
		case strings.HasPrefix(c, "unset "):
			name := strings.Fields(c)[1]
			if _, ok := s.Env[name]; !ok {
				t.Fatalf("snippet unsets %s, which is not set", name)
			}
			delete(s.Env, name)
		case strings.HasSuffix(c, "enable_pipelined_transfer"):
			s.Pipelined = inputs.Value{}
		default:
			t.Fatalf("snippet comment not understood: %q", c)
		}
	}
	return s
}

func toString(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}

func TestUpgradeDisaggGolden(t *testing.T) {
	// A disaggregated deployment upgraded across #17495: the context servers on
	// UCX break, the generation servers on NIXL stay.
	ctx := upgradeCase{from: "1.3.0rc29", model: "Qwen3ForCausalLM", backend: "UCX"}
	gen := upgradeCase{from: "1.3.0rc29", model: "Qwen3ForCausalLM", backend: "NIXL"}
	var roles []Role
	for _, r := range []struct {
		name string
		c    upgradeCase
		path string
	}{{"context", ctx, "context_servers"}, {"generation", gen, "generation_servers"}} {
		in, err := inputs.Build(r.c.spec(), cat)
		if err != nil {
			t.Fatal(err)
		}
		roles = append(roles, Role{Name: r.name, Inputs: in, YAMLPaths: [][]string{{r.path}}})
	}
	u := UpgradeCheck(roles, mustVersion(t, "1.3.0rc29"), mustVersion(t, "1.4.0rc1"), cat)
	if !u.Breaks() {
		t.Fatal("the context role must break")
	}
	if got := u.Findings[0].Fix; got == nil || !strings.HasPrefix(got.YAML, "context_servers:\n  cache_transceiver_config:\n    transceiver_runtime: CPP") {
		t.Fatalf("context fix not nested under context_servers: %+v", got)
	}
	out := UpgradeText(u, TextOptions{Width: 80})
	checkWidth(t, out, 80)
	golden.RequireEqual(t, out)

	j, err := json.MarshalIndent(u.JSON(), "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	t.Run("json", func(t *testing.T) { golden.RequireEqual(t, append(j, '\n')) })
}

func TestFixYAMLComments(t *testing.T) {
	got := FixYAML([]Edit{{EditUnsetEnv, resolver.EnvUseUCX}, {EditPipelined, ""}, {EditTimeout, "60000"}}, nil)
	want := "cache_transceiver_config:\n  kv_transfer_timeout_ms: 60000\n" +
		"# unset TRTLLM_USE_UCX_KVCACHE in the worker's environment\n" +
		"# delete cache_transceiver_config.enable_pipelined_transfer\n"
	if got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
}

func TestEditApplyDoesNotShareEnv(t *testing.T) {
	in := mustInputs(t, "1.3.0rc29", "Qwen3ForCausalLM", "DEFAULT", setEnv(resolver.EnvUseUCX+"=1"))
	out := Edit{EditUnsetEnv, resolver.EnvUseUCX}.Apply(in)
	if _, ok := in.Env[resolver.EnvUseUCX]; !ok {
		t.Error("Apply changed the caller's environment map")
	}
	if _, ok := out.Env[resolver.EnvUseUCX]; ok {
		t.Error("Apply did not unset the variable")
	}
}

// A disaggregated deployment whose roles both run C++ before the upgrade, one of
// them pinned: after #17495 the unpinned role moves to PYTHON while the pinned one
// stays on C++. Neither role fails to start, but they can no longer exchange KV
// cache, so the check must say so and the "changes" fix is not optional.
func TestUpgradeRolesSplit(t *testing.T) {
	ctx := upgradeCase{from: "1.3.0rc21", model: "Qwen3ForCausalLM", backend: "NIXL"}
	gen := upgradeCase{from: "1.3.0rc21", model: "Qwen3ForCausalLM", backend: "NIXL",
		edit: func(s *inputs.Spec) { s.Runtime = flagValue("CPP") }}
	var roles []Role
	for _, r := range []struct {
		name string
		c    upgradeCase
	}{{"context", ctx}, {"generation", gen}} {
		in, err := inputs.Build(r.c.spec(), cat)
		if err != nil {
			t.Fatal(err)
		}
		roles = append(roles, Role{Name: r.name, Inputs: in, YAMLPaths: [][]string{{r.name + "_servers"}}})
	}
	u := UpgradeCheck(roles, mustVersion(t, "1.3.0rc21"), mustVersion(t, "1.4.0rc1"), cat)
	if u.Breaks() || u.Findings[0].Verdict != VerdictChanges || u.Findings[1].Verdict != VerdictSame {
		t.Fatalf("verdicts %s, %s", u.Findings[0].Verdict, u.Findings[1].Verdict)
	}
	if !u.Split || !u.FixesJoin {
		t.Fatalf("split %v, fixes join %v; want both", u.Split, u.FixesJoin)
	}
	out := UpgradeText(u, TextOptions{Width: 80})
	checkWidth(t, out, 80)
	for _, want := range []string{"(needed: the roles would split)", "warning: after the upgrade the roles end on different"} {
		if !strings.Contains(out, want) {
			t.Errorf("text lacks %q:\n%s", want, out)
		}
	}
	if strings.Contains(out, "(optional)") {
		t.Errorf("the fix that keeps the roles together is called optional:\n%s", out)
	}
	if md := UpgradeMarkdown(u); !strings.Contains(md, "**Warning:**") {
		t.Errorf("markdown lacks the warning:\n%s", md)
	}
	if j := u.JSON(); !j.RolesSplit || !j.FixesJoin {
		t.Errorf("JSON roles_split %v fixes_join %v", j.RolesSplit, j.FixesJoin)
	}

	// Both roles moving together is no split.
	gen.edit = nil
	in, err := inputs.Build(gen.spec(), cat)
	if err != nil {
		t.Fatal(err)
	}
	roles[1].Inputs = in
	if u := UpgradeCheck(roles, mustVersion(t, "1.3.0rc21"), mustVersion(t, "1.4.0rc1"), cat); u.Split {
		t.Error("both roles move to PYTHON together, reported as a split")
	}
}

// A fix that starts under FROM can be rolled out before the upgrade; only a fix
// that fails under FROM has to ship with it. (Kimi K3 on UCX: C++ before #17480,
// only PYTHON on NIXL after; K3's PYTHON hook came with #17480 too, so NIXL still
// gives C++ under FROM.)
func TestUpgradeTextRolloutAdvice(t *testing.T) {
	for _, c := range []struct {
		from, to, model, backend string
		want, not                string
	}{
		{"main@2026-08-07", "main@2026-08-18", "KimiLinearForCausalLM", "UCX",
			"main@2026-08-07 gives ● CPP, so it can be rolled out before the upgrade", "apply it together"},
		{"1.3.0rc29", "1.4.0rc1", "Qwen3ForCausalLM", "UCX", "gives ● CPP, so it can be rolled out before the upgrade", "apply it together"},
	} {
		in := mustInputs(t, c.from, c.model, c.backend, nil)
		u := UpgradeCheck([]Role{{Name: "worker", Inputs: in}}, mustVersion(t, c.from), mustVersion(t, c.to), cat)
		out := strings.ReplaceAll(UpgradeText(u, TextOptions{Width: 200}), "\n  ", " ")
		if !strings.Contains(out, c.want) || strings.Contains(out, c.not) {
			t.Errorf("%s -> %s %s: want %q, not %q:\n%s", c.from, c.to, c.model, c.want, c.not, out)
		}
	}
}

// The split counts the roles that break as fixed: context on NIXL with a null
// timeout breaks at #17495 (its fix pins CPP), generation on NIXL moves to
// PYTHON, so once context is fixed the roles split unless generation is pinned
// too. Roles that already failed before the upgrade do not split.
func TestUpgradeRolesSplitAfterBreakFix(t *testing.T) {
	build := func(edit func(*inputs.Spec)) resolver.Inputs {
		return mustInputs(t, "1.3.0rc21", "Qwen3ForCausalLM", "NIXL", edit)
	}
	nullTimeout := func(s *inputs.Spec) { s.TimeoutMS = flagValue("null") }
	roles := []Role{{Name: "context", Inputs: build(nullTimeout)}, {Name: "generation", Inputs: build(nil)}}
	u := UpgradeCheck(roles, mustVersion(t, "1.3.0rc21"), mustVersion(t, "1.4.0rc1"), cat)
	if u.Findings[0].Verdict != VerdictBreaks || u.Findings[1].Verdict != VerdictChanges {
		t.Fatalf("verdicts %s, %s", u.Findings[0].Verdict, u.Findings[1].Verdict)
	}
	if !u.Split || !u.FixesJoin {
		t.Fatalf("split %v, fixes join %v", u.Split, u.FixesJoin)
	}
	if out := UpgradeText(u, TextOptions{Width: 200}); !strings.Contains(out, "context ● CPP on NIXL with its fix; generation ✓ PYTHON on NIXL") {
		t.Errorf("warning does not name the ends:\n%s", out)
	}

	// Both roles fail alike before ('auto' does not exist in era 0) and end on
	// different transceivers after (the null timeout falls back to C++): the
	// upgrade makes them start, it does not split a working deployment.
	auto := func(s *inputs.Spec) { s.Runtime = flagValue("auto") }
	roles = []Role{{Name: "context", Inputs: build(auto)}, {Name: "generation", Inputs: build(func(s *inputs.Spec) { auto(s); nullTimeout(s) })}}
	u = UpgradeCheck(roles, mustVersion(t, "1.3.0rc21"), mustVersion(t, "1.4.0rc1"), cat)
	for _, f := range u.Findings {
		if f.From.Result.Outcome != resolver.OutcomeError || f.To.Result.Outcome == resolver.OutcomeError {
			t.Fatalf("%s: %s -> %s, want ERROR -> a transceiver", f.Role, f.From.Result.Outcome, f.To.Result.Outcome)
		}
	}
	if sameEnd(u.Findings[0].To.Result, u.Findings[1].To.Result) {
		t.Fatal("the roles should end apart after the upgrade")
	}
	if u.Split {
		t.Error("roles that failed before the upgrade reported as a split")
	}
}

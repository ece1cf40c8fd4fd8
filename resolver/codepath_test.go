package resolver

import (
	"strings"
	"testing"
)

// flipped resolves c with the release's rules, one code-path rule flipped.
func flipped(t *testing.T, c tc, id string) (Trace, Trace) {
	t.Helper()
	in := c.inputs(t)
	before := Resolve(in)
	rs := ReleaseRules(in.Version)
	for i := range rs.CodePath {
		if rs.CodePath[i].ID == id {
			rs.CodePath[i].On = !rs.CodePath[i].On
		}
	}
	in.Version.Rules = rs
	return before, Resolve(in)
}

func stepOf(tr Trace, id string) Step {
	for _, s := range tr.Steps {
		if s.ID == id {
			return s
		}
	}
	return Step{}
}

// TestCodePathRulesDecide: a step reads the rule, not the era: the same era
// with one rule flipped answers as the rule says, and cites the rule's PR.
func TestCodePathRulesDecide(t *testing.T) {
	// Era 2 without #18134's resolver: no preference means None, as in era 1.
	before, after := flipped(t, tc{version: "1.3.0rc27", backend: "NIXL"}, PathAutoPython)
	if got := stepOf(before, StepAuto); !strings.Contains(got.Reason, "-> 'PYTHON'") || got.Source.PR != 18134 {
		t.Fatalf("era 2 auto: %+v", got)
	}
	if got := stepOf(after, StepAuto); !strings.Contains(got.Reason, "no preference: None") || got.Source.PR != 16164 || after.Result.Outcome != OutcomeCPP {
		t.Fatalf("era 2 with PathAutoPython off: %+v, %s", got, after.Result.Outcome)
	}

	// Era 1 without config-load resolution: DEFAULT is resolved at creation,
	// the hook is not consulted, the PR is none.
	before, after = flipped(t, tc{version: "1.3.0rc22", backend: "DEFAULT", pref: "PYTHON"}, PathConfigLoad)
	if before.Result.Outcome != OutcomePython {
		t.Fatalf("era 1 with GPT-OSS on NIXL: %s", before.Result.Outcome)
	}
	if got := stepOf(after, StepPreference); got.Verdict != Skipped || after.Result.Outcome != OutcomeCPP {
		t.Fatalf("era 1 with PathConfigLoad off: %+v, %s", got, after.Result.Outcome)
	}
	if got := stepOf(after, StepBackend); got.Phase != PhaseCreation || got.Source.PR != 0 {
		t.Fatalf("backend step without config load: %+v", got)
	}

	// The in-flight checks and the 1.4 notes follow their rules.
	_, after = flipped(t, tc{version: "1.3.0rc18", backend: "UCX", env: map[string]string{EnvInflightCancel: "1"}}, PathInflightChecks)
	if after.Result.FailedStep != StepInflightCancel {
		t.Fatalf("era 0 with the in-flight checks on: %+v", after.Result)
	}
	before, after = flipped(t, tc{version: "1.4.0rc4", backend: "UCX", runtime: "CPP"}, PathCppDeprecated)
	if !strings.Contains(stepOf(before, StepTransceiver).Reason, "deprecated") || strings.Contains(stepOf(after, StepTransceiver).Reason, "deprecated") {
		t.Fatal("the deprecation note does not follow PathCppDeprecated")
	}
	in := tc{version: "1.4.0rc4"}.inputs(t)
	rs := ReleaseRules(in.Version)
	if rs.kvDefault() != KVV2 {
		t.Fatalf("1.4 KV default %v", rs.kvDefault())
	}
	for i := range rs.CodePath {
		if rs.CodePath[i].ID == PathKVV2Default {
			rs.CodePath[i].On = false
		}
	}
	if rs.kvDefault() != KVAuto {
		t.Fatalf("1.4 without PathKVV2Default: %v", rs.kvDefault())
	}
}

// TestCompareRulesCodePath: a code-path rule is a difference of its own only
// when the eras do not explain it.
func TestCompareRulesCodePath(t *testing.T) {
	for era := 0; era <= 3; era++ {
		for i, p := range releasePath(era) {
			if p.ID != PathIDs()[i] {
				t.Fatalf("era %d: rule %d is %s, PathIDs has %s", era, i, p.ID, PathIDs()[i])
			}
		}
	}
	a := ReleaseRules(Version{Name: "a", Main: 20260917, Era: 2})
	b := ReleaseRules(Version{Name: "b", Main: 20260917, Era: 2})
	if d := comparePath(a, b); len(d) != 0 {
		t.Fatalf("same rules: %v", d)
	}
	b.CodePath[1].On = false // PathAutoPython
	d := comparePath(a, b)
	if len(d) != 1 || d[0].What != "code path "+PathAutoPython || d[0].A != "present" || d[0].B != "absent" {
		t.Fatalf("flipped rule: %+v", d)
	}
	if d := comparePath(ReleaseRules(Version{Main: 20260720, Era: 1}), a); len(d) != 0 {
		t.Fatalf("era 1 vs era 2 is the era's difference: %v", d)
	}
}

// TestInferredTextsAreRules: xcvr's own wording of a message upstream's text
// was not found for is a rule: the rules' template is what is raised, and the
// step is no surer than the text.
func TestInferredTextsAreRules(t *testing.T) {
	in := tc{version: "1.3.0rc20", backend: "NIXL", timeout: "null", runtime: "PYTHON"}.inputs(t)
	tr := Resolve(in)
	if tr.Result.Error != "TypeError: unsupported operand type(s) for /: 'NoneType' and 'float'" || stepOf(tr, StepTransceiver).Confidence != Inferred {
		t.Fatalf("before #17137: %q %+v", tr.Result.Error, stepOf(tr, StepTransceiver))
	}
	rs := ReleaseRules(in.Version)
	rs.Texts = append(rs.Texts, Text{ID: TextV2NoneDivision, Template: "unsupported operand type(s) for /: 'NoneType' and 'int'", Evidence: Evidence{Confidence: Derived}})
	in.Version.Rules = rs
	tr = Resolve(in)
	if tr.Result.Error != "TypeError: unsupported operand type(s) for /: 'NoneType' and 'int'" || stepOf(tr, StepTransceiver).Confidence != Derived {
		t.Fatalf("reworded: %q %+v", tr.Result.Error, stepOf(tr, StepTransceiver))
	}
}

// TestValidatorsAreData: the validate step applies the messages the rules'
// validators raise: 1.4.0rc4's rules with validate_bounce_config (read in
// 1.3.0rc29's llm_args.py, derived for 1.4.0rc1) refuse the flag without a
// capacity, and with none the settings pass.
func TestValidatorsAreData(t *testing.T) {
	in := tc{version: "1.4.0rc4", backend: "NIXL"}.inputs(t)
	in.Static = &Static{AgentBounce: Field[bool]{true, fileAt("4")}, ConfigRepr: "{'agent_bounce_buffer_enable': True}", ConfigOrigin: fileAt("3")}
	if tr := Resolve(in); tr.Result.FailedStep != "" {
		t.Fatalf("1.4.0rc4: the flag is a no-op, got %s", tr.Result.Error)
	}
	rs := ReleaseRules(in.Version)
	rs.Validators = releaseValidators(dayAgentBounce)
	in.Version.Rules = rs
	tr := Resolve(in)
	if tr.Result.FailedStep != StepValidate || !strings.Contains(tr.Result.Error, TextBounceEnableNoSize) || stepOf(tr, StepValidate).Confidence != Derived {
		t.Fatalf("with 1.4.0rc1's validators: %q %+v", tr.Result.Error, stepOf(tr, StepValidate))
	}
	in.BounceParams = []string{"bogus"}
	in.Static.AgentBounce.Value = false
	in.Static.BounceMB = Field[int64]{64, fileAt("5")}
	rs.Validators = nil
	if tr := Resolve(in); tr.Result.FailedStep != "" {
		t.Fatalf("no validators: %s", tr.Result.Error)
	}
	rs.Validators = releaseValidators(dayBounceNoop)
	if tr := Resolve(in); !strings.Contains(tr.Result.Error, "Unknown agent_bounce_params key(s) ['bogus']") {
		t.Fatalf("1.4.0rc4's validators: %q", tr.Result.Error)
	}
}

// TestInstallStatesItsCodePath: an install's code-path rules cite the
// fingerprints that show them, and the steps stay as they were.
func TestInstallStatesItsCodePath(t *testing.T) {
	inst := era2Install("1.3.0rc27")
	v := InstallVersion(inst)
	p := v.Rules.Rule(PathConfigLoad)
	if !p.On || p.Evidence.Source.Install != inst.Features[FeatureAutoResolver].Evidence || p.Evidence.Source.PR != 16164 {
		t.Fatalf("config-load rule of an era-2 install: %+v", p)
	}
	if p := v.Rules.Rule(PathKVV2Default); p.On || p.Evidence.Source.Install != "" {
		t.Fatalf("1.4's KV default in an era-2 install: %+v", p)
	}
	if d := comparePath(ReleaseRules(KnownVersions()[len(KnownVersions())-1]), v.Rules); len(d) != 0 {
		t.Fatalf("the eras explain every code-path difference: %+v", d)
	}
}

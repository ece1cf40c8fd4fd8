package compare

import (
	"encoding/json"
	"slices"
	"testing"

	"github.com/charmbracelet/x/exp/golden"

	"xcvr/internal/inputs"
	"xcvr/resolver"
)

func TestMatrixGoldens(t *testing.T) {
	cases := []struct {
		name       string
		version    string
		model      string
		backend    string
		rows, cols Axis
	}{
		{"models_x_backends_1.4.0rc4", "1.4.0rc4", "GptOssForCausalLM", "DEFAULT", AxisModel, AxisBackend},
		{"versions_x_backends_qwen3", "1.4.0rc4", "Qwen3ForCausalLM", "DEFAULT", AxisVersion, AxisBackend},
		{"versions_x_models_ucx", "1.4.0rc4", "GptOssForCausalLM", "UCX", AxisVersion, AxisModel},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			base := mustInputs(t, c.version, c.model, c.backend, nil)
			m, err := NewMatrix(base, c.rows, c.cols, cat)
			if err != nil {
				t.Fatal(err)
			}
			out := MatrixText(m, TextOptions{Width: 80})
			checkWidth(t, out, 80)
			golden.RequireEqual(t, out)
		})
	}
}

func TestMatrixMarkdownAndJSONGolden(t *testing.T) {
	base := mustInputs(t, "1.3.0rc26", "Qwen3ForCausalLM", "DEFAULT", nil)
	m, err := NewMatrix(base, AxisVersion, AxisBackend, cat)
	if err != nil {
		t.Fatal(err)
	}
	t.Run("markdown", func(t *testing.T) { golden.RequireEqual(t, MatrixMarkdown(m)) })
	j, err := json.MarshalIndent(m.JSON(), "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	var back MatrixJSON
	if err := json.Unmarshal(j, &back); err != nil || len(back.Cells) != len(m.RowKeys)*len(m.ColKeys) {
		t.Fatalf("JSON round trip: %v, %d cells", err, len(back.Cells))
	}
	t.Run("json", func(t *testing.T) { golden.RequireEqual(t, append(j, '\n')) })
}

// Every cell must be what explain would say for the same inputs built the
// ordinary way, whatever the axes.
func TestMatrixCellsMatchIndependentResolve(t *testing.T) {
	env := setEnv(resolver.EnvUseUCX + "=1")
	base := mustInputs(t, "1.3.0rc26", "DeepseekV3ForCausalLM", "DEFAULT", env)
	for _, ax := range [][2]Axis{{AxisModel, AxisBackend}, {AxisVersion, AxisModel}, {AxisBackend, AxisVersion}} {
		m, err := NewMatrix(base, ax[0], ax[1], cat)
		if err != nil {
			t.Fatal(err)
		}
		for r := range m.RowKeys {
			for c := range m.ColKeys {
				cell := m.At(r, c)
				s := inputs.Defaults()
				s.Version = flagValue(cell.Version)
				s.Model = flagValue(cell.Model)
				// The matrix writes a backend the way the row's version spells it
				// (ucx in 1.0), as an operator of that version would.
				s.Backend = flagValue(cell.Backend)
				if v, err := resolver.ParseVersion(cell.Version); err == nil && cell.Backend != "none" {
					s.Backend = flagValue(resolver.SpellBackend(resolver.ReleaseRules(v), cell.Backend))
				}
				env(&s)
				in, err := inputs.Build(s, cat)
				if err != nil {
					t.Fatal(err)
				}
				want := resolver.Resolve(in).Result
				if cell.Outcome != want.Outcome || cell.ResolvedRuntime != want.ResolvedRuntime || cell.FailedStep != want.FailedStep {
					t.Fatalf("%v: cell %+v, explain says %s/%s/%s", ax, cell, want.Outcome, want.ResolvedRuntime, want.FailedStep)
				}
				opened, err := m.CellInputs(r, c, cat)
				if err != nil {
					t.Fatal(err)
				}
				if got := resolver.Resolve(opened).Result.Outcome; got != cell.Outcome {
					t.Fatalf("CellInputs(%d,%d) resolves to %s, cell shows %s", r, c, got, cell.Outcome)
				}
			}
		}
	}
}

// Spot checks against the spec's summary matrix (§2.4): no model preference, the
// runtime omitted.
func TestMatrixSummaryRows(t *testing.T) {
	base := mustInputs(t, "1.4.0rc4", "Qwen3ForCausalLM", "DEFAULT", nil)
	m, err := NewMatrix(base, AxisVersion, AxisBackend, cat)
	if err != nil {
		t.Fatal(err)
	}
	find := func(version, backend string) resolver.Outcome {
		for r, rk := range m.RowKeys {
			for c, ck := range m.ColKeys {
				if rk == version && ck == backend {
					return m.At(r, c).Outcome
				}
			}
		}
		t.Fatalf("no cell %s/%s", version, backend)
		return ""
	}
	for _, c := range []struct {
		version, backend string
		want             resolver.Outcome
	}{
		{"1.3.0rc20", "NIXL", resolver.OutcomeCPP},    // era 0
		{"1.3.0rc22", "NIXL", resolver.OutcomeCPP},    // era 1: no preference -> C++
		{"1.3.0rc26", "NIXL", resolver.OutcomePython}, // era 2: PYTHON by default
		{"1.3.0rc26", "UCX", resolver.OutcomeCPP},     // era 2: fallback
		{"1.4.0rc1", "UCX", resolver.OutcomeError},    // era 3: PYTHON on UCX fails
		{"1.4.0rc1", "none", resolver.OutcomeDisabled},
	} {
		if got := find(c.version, c.backend); got != c.want {
			t.Errorf("%s %s: %s, want %s", c.version, c.backend, got, c.want)
		}
	}
}

func TestMatrixAxes(t *testing.T) {
	base := mustInputs(t, "1.4.0rc4", "Qwen3ForCausalLM", "DEFAULT", nil)
	if _, err := NewMatrix(base, AxisModel, AxisModel, cat); err == nil {
		t.Error("rows == cols accepted")
	}
	for in, want := range map[string]Axis{"models": AxisModel, "Backend": AxisBackend, "versions": AxisVersion} {
		if got, err := ParseAxis(in); err != nil || got != want {
			t.Errorf("ParseAxis(%q) = %q, %v", in, got, err)
		}
	}
	if _, err := ParseAxis("colour"); err == nil {
		t.Error("ParseAxis accepted a bad axis")
	}
}

func TestEvaluateDefaultGridSize(t *testing.T) {
	base := mustInputs(t, "1.4.0rc4", "Qwen3ForCausalLM", "DEFAULT", nil)
	g := DefaultGrid(base, cat)
	cells := Evaluate(g, cat, nil)
	if len(cells) != len(cat.Entries())*len(inputs.Backends())*len(resolver.KnownVersions()) {
		t.Fatalf("%d cells", len(cells))
	}
	for _, c := range cells {
		if c.Outcome == "" {
			t.Fatalf("cell without outcome: %+v", c)
		}
	}
}

// BenchmarkMatrixCommand is what `xcvr matrix` resolves by default: every
// catalog model × every backend at one version (budget: 50 ms).
func BenchmarkMatrixCommand(b *testing.B) {
	base := mustInputs(b, "1.4.0rc4", "GptOssForCausalLM", "DEFAULT", nil)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := NewMatrix(base, AxisModel, AxisBackend, cat); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkMatrixVersions is the largest slice a command resolves: every
// catalog model × every known version (`matrix --cols version`).
func BenchmarkMatrixVersions(b *testing.B) {
	base := mustInputs(b, "1.4.0rc4", "GptOssForCausalLM", "DEFAULT", nil)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := NewMatrix(base, AxisModel, AxisVersion, cat); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkDefaultMatrix resolves every catalog model × backend × known version:
// the whole grid, which no command resolves at once (each shows one slice of
// it); reported, not a target.
func BenchmarkDefaultMatrix(b *testing.B) {
	base := mustInputs(b, "1.4.0rc4", "GptOssForCausalLM", "DEFAULT", nil)
	g := DefaultGrid(base, cat)
	out := make([]Cell, g.Size())
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		out = Evaluate(g, cat, out)
	}
	b.ReportMetric(float64(g.Size()), "cells/op")
}

func TestMatrixVersionAxisHasTheInstall(t *testing.T) {
	// An install of 1.3.0rc22 whose code is era 2 (xcvr models rc22 as era 1)
	// and registers GPT-OSS with a PYTHON hook: its row follows its code.
	inst := &resolver.Install{Path: "/site/tensorrt_llm", Version: "1.3.0rc22", VersionEvidence: "tensorrt_llm/version.py:2",
		Era: 2, EraEvidence: "tensorrt_llm/llmapi/llm_utils.py:6", Features: map[string]resolver.InstallFact{},
		Models: map[string]resolver.InstallModel{"GptOssForCausalLM": {Class: "GptOssForCausalLM",
			Evidence: "tensorrt_llm/_torch/models/modeling_gpt_oss.py:8", Preference: resolver.Str("PYTHON")}}}
	base := mustInputs(t, "1.3.0rc22", "GptOssForCausalLM", "UCX", nil)
	base.Version = resolver.InstallVersion(inst)
	m, err := NewMatrix(base, AxisVersion, AxisBackend, cat)
	if err != nil {
		t.Fatal(err)
	}
	last := len(m.RowKeys) - 1
	if m.RowKeys[last] != "install 1.3.0rc22" || len(m.RowKeys) != len(resolver.KnownVersions())+1 {
		t.Fatalf("rows %v", m.RowKeys)
	}
	ucx := slices.Index(m.ColKeys, "UCX")
	rc22 := slices.Index(m.RowKeys, "1.3.0rc22")
	// The release row is xcvr's era-1 rc22 (fallback to C++); the install's row
	// adopts the PYTHON preference on UCX and fails, as its code does.
	if got := m.At(rc22, ucx).Outcome; got != resolver.OutcomeCPP {
		t.Errorf("release rc22 on UCX: %s", got)
	}
	if got := m.At(last, ucx).Outcome; got != resolver.OutcomeError {
		t.Errorf("install on UCX: %s", got)
	}
	for _, r := range []int{rc22, last} {
		opened, err := m.CellInputs(r, ucx, cat)
		if err != nil {
			t.Fatal(err)
		}
		if (opened.Version.Install != nil) != (r == last) || resolver.Resolve(opened).Result.Outcome != m.At(r, ucx).Outcome {
			t.Errorf("row %s: opened %s (install %v)", m.RowKeys[r], opened.Version.Name, opened.Version.Install != nil)
		}
	}
	// With the version fixed, the matrix is the install's alone.
	m, err = NewMatrix(base, AxisModel, AxisBackend, cat)
	if err != nil {
		t.Fatal(err)
	}
	opened, err := m.CellInputs(0, 0, cat)
	if err != nil || opened.Version.Install == nil {
		t.Fatalf("fixed version: %v %+v", err, opened.Version.Name)
	}
}

package compare

import (
	"strings"
	"testing"

	"xcvr/internal/inputs"
	"xcvr/models"
	"xcvr/resolver"
)

// TestSpecSummaryMatrix asserts the spec's summary matrix (§2.4 of
// trtllm-transceiver-resolution.md: standard loader, disaggregation on) row by
// row, era by era, through the matrix (versions × backends for one model, the
// way `xcvr matrix --rows version --cols backend` shows it), for a representative
// model of each preference kind:
//
//   - no preference: Qwen3ForCausalLM;
//   - PYTHON: GptOssForCausalLM (#16479, 2026-07-20, so from 1.3.0rc22 on);
//   - CPP: no upstream model returns CPP, so an in-house catalog entry
//     (models/testdata/inhouse.yaml, CPP since #16164's day), as an operator's
//     --catalog would add it.
//
// One version per era: 1.3.0rc20 (era 0), 1.3.0rc25 (era 1), 1.3.0rc29 (era 2),
// 1.4.0rc1 (era 3). "C" is C++, "P" the Python transceiver, "E" a start-up
// failure, "-" disaggregation off.
func TestSpecSummaryMatrix(t *testing.T) {
	inhouse, err := models.Parse("inhouse.yaml", []byte(`models:
  - arch: AcmeForCausalLM
    class: AcmeForCausalLM
    preferences:
      - {since: 2026-07-16, value: CPP}
`), "")
	if err != nil {
		t.Fatal(err)
	}
	c := cat.Merge(inhouse)
	eras := []string{"1.3.0rc20", "1.3.0rc25", "1.3.0rc29", "1.4.0rc1"}
	outcome := map[byte]resolver.Outcome{'C': resolver.OutcomeCPP, 'P': resolver.OutcomePython,
		'E': resolver.OutcomeError, '-': resolver.OutcomeDisabled}
	const (
		noPref   = "Qwen3ForCausalLM"
		prefPy   = "GptOssForCausalLM"
		prefCPP  = "AcmeForCausalLM"
		omitted  = "unset"
		ucxEnv   = resolver.EnvUseUCX + "=1"
		autoDepl = "autodeploy"
	)
	rows := []struct {
		row      string // the §2.4 row
		model    string
		backends []string // every backend of the row must give the same outcomes
		runtime  string
		timeout  string
		env      string
		loader   string
		want     string // era 0..3
		// fallbackEra is 1 + the era whose C++ outcome §2.4 marks "(fallback
		// log)"; 0 for none.
		fallbackEra int
	}{
		{"omitted, NIXL, no model pref", noPref, []string{"NIXL"}, omitted, "", "", "", "CCPP", 0},
		{"omitted, NIXL, pref PYTHON", prefPy, []string{"NIXL"}, omitted, "", "", "", "CPPP", 0},
		{"omitted, NIXL, pref CPP", prefCPP, []string{"NIXL"}, omitted, "", "", "", "CCCP", 0},
		{"omitted, UCX/MPI/MOONCAKE, no pref", noPref, []string{"UCX", "MPI", "MOONCAKE"}, omitted, "", "", "", "CCCE", 3},
		{"omitted, UCX, pref PYTHON", prefPy, []string{"UCX"}, omitted, "", "", "", "CCEE", 2},
		{"omitted, DEFAULT, no env (as NIXL), no pref", noPref, []string{"DEFAULT"}, omitted, "", "", "", "CCPP", 0},
		{"omitted, DEFAULT, no env (as NIXL), pref PYTHON", prefPy, []string{"DEFAULT"}, omitted, "", "", "", "CPPP", 0},
		{"omitted, DEFAULT + TRTLLM_USE_UCX_KVCACHE=1 (as UCX), no pref", noPref, []string{"DEFAULT"}, omitted, "", ucxEnv, "", "CCCE", 0},
		{"omitted, DEFAULT + TRTLLM_USE_UCX_KVCACHE=1 (as UCX), pref PYTHON", prefPy, []string{"DEFAULT"}, omitted, "", ucxEnv, "", "CCEE", 0},
		{"omitted, NIXL, kv_transfer_timeout_ms: null, no pref", noPref, []string{"NIXL"}, omitted, "null", "", "", "CCCE", 3},
		{"same, pref PYTHON", prefPy, []string{"NIXL"}, omitted, "null", "", "", "CEEE", 0},
		// Explicit auto: a validation error in era 0, else as omitted; era 3 follows
		// the era-2 rules.
		{"explicit auto, NIXL, no pref", noPref, []string{"NIXL"}, "auto", "", "", "", "ECPP", 0},
		{"explicit auto, NIXL, pref CPP", prefCPP, []string{"NIXL"}, "auto", "", "", "", "ECCC", 0},
		{"explicit auto, UCX, no pref", noPref, []string{"UCX"}, "auto", "", "", "", "ECCC", 0},
		{"explicit auto, UCX, pref PYTHON", prefPy, []string{"UCX"}, "auto", "", "", "", "ECEE", 0},
		{"explicit CPP", prefPy, []string{"NIXL", "UCX", "DEFAULT"}, "CPP", "", "", "", "CCCC", 0},
		{"explicit null", prefPy, []string{"NIXL", "UCX", "DEFAULT"}, "null", "", "", "", "CCCC", 0},
		{"explicit PYTHON + non-NIXL", noPref, []string{"UCX", "MPI", "MOONCAKE"}, "PYTHON", "", "", "", "EEEE", 0},
		{"AutoDeploy, runtime omitted", prefPy, []string{"NIXL"}, omitted, "", "", autoDepl, "CCCP", 0},
		{"backend missing or null", prefPy, []string{"none"}, omitted, "", "", "", "----", 0},
		{"backend missing or null, UCX env", noPref, []string{"none"}, omitted, "", ucxEnv, "", "----", 0},
	}
	for _, r := range rows {
		t.Run(r.row, func(t *testing.T) {
			s := inputs.Defaults()
			flag := resolver.Origin{Kind: resolver.OriginFlag}
			s.Version = inputs.Value{Raw: eras[0], Origin: flag}
			s.Model = inputs.Value{Raw: r.model, Origin: flag}
			s.Runtime = inputs.Value{Raw: r.runtime, Origin: flag}
			if r.timeout != "" {
				s.TimeoutMS = inputs.Value{Raw: r.timeout, Origin: flag}
			}
			if r.loader != "" {
				s.Loader = inputs.Value{Raw: r.loader, Origin: flag}
			}
			if r.env != "" {
				if err := s.SetEnv(r.env, flag); err != nil {
					t.Fatal(err)
				}
			}
			base, err := inputs.Build(s, c)
			if err != nil {
				t.Fatal(err)
			}
			m, err := NewMatrix(base, AxisVersion, AxisBackend, c)
			if err != nil {
				t.Fatal(err)
			}
			for _, b := range r.backends {
				for ei, v := range eras {
					cell, ok := cellAt(m, v, b)
					if !ok {
						t.Fatalf("no cell %s × %s", v, b)
					}
					if want := outcome[r.want[ei]]; cell.Outcome != want {
						t.Errorf("era %d (%s), backend %s: %s (failed at %q), §2.4 says %s", ei, v, b, cell.Outcome, cell.FailedStep, want)
					}
					// "C++ (fallback log)": the cell's full chain logs the fallback.
					if r.fallbackEra == ei+1 {
						in, err := m.CellInputs(slicesIndex(m.RowKeys, v), slicesIndex(m.ColKeys, b), c)
						if err != nil {
							t.Fatal(err)
						}
						logged := false
						for _, l := range resolver.Resolve(in).Logs {
							logged = logged || strings.Contains(strings.ToLower(l.Message), "falling back to the c++ transceiver")
						}
						if !logged {
							t.Errorf("era %d (%s), backend %s: no fallback log line", ei, v, b)
						}
					}
				}
			}
		})
	}
}

func slicesIndex(keys []string, k string) int {
	for i, x := range keys {
		if x == k {
			return i
		}
	}
	return -1
}

func cellAt(m Matrix, row, col string) (Cell, bool) {
	for r, rk := range m.RowKeys {
		for c, ck := range m.ColKeys {
			if rk == row && ck == col {
				return m.At(r, c), true
			}
		}
	}
	return Cell{}, false
}

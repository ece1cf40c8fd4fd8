package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/exp/golden"

	"xcvr/internal/inputs"
)

func TestCompareCommandGoldens(t *testing.T) {
	cases := []struct {
		name string
		args []string
		code int
	}{
		{"diff_16164", []string{"diff", "--from", "1.3.0rc21", "--to", "1.3.0rc22"}, 0},
		{"diff_markdown_18134", []string{"diff", "--from", "1.3.0rc25", "--to", "1.3.0rc26", "--model", "DeepseekV3ForCausalLM", "--backend", "UCX", "-o", "markdown"}, 0},
		{"upgrade_breaks_17495", []string{"upgrade-check", "--from", "1.3.0rc29", "--to", "1.4.0rc1", "--model", "Qwen3ForCausalLM", "--backend", "UCX"}, 1},
		{"upgrade_stays", []string{"upgrade-check", "--from", "1.3.0rc26", "--to", "1.4.0rc1", "--backend", "NIXL"}, 0},
		{"upgrade_changes_env", []string{"upgrade-check", "--from", "1.3.0rc25", "--to", "1.3.0rc26", "--model", "Qwen3ForCausalLM", "--env", "TRTLLM_USE_NIXL_KVCACHE=1"}, 0},
		{"matrix_default", []string{"matrix", "--trtllm", "1.3.0rc26"}, 0},
		{"matrix_versions_backends", []string{"matrix", "--rows", "version", "--cols", "backend", "--model", "DeepseekV3ForCausalLM"}, 0},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			out, errOut, code := run(t, nil, c.args...)
			if code != c.code || errOut != "" {
				t.Fatalf("exit %d (want %d), stderr %q", code, c.code, errOut)
			}
			if strings.Contains(out, "\x1b") {
				t.Error("escape sequences in output that is not a terminal")
			}
			for i, l := range strings.Split(out, "\n") {
				if !strings.HasPrefix(c.name, "diff_markdown") && ansi.StringWidth(l) > 80 {
					t.Errorf("line %d wider than 80 cells: %q", i+1, l)
				}
			}
			golden.RequireEqual(t, out)
		})
	}
}

func TestDiffJSONContract(t *testing.T) {
	for _, c := range []struct {
		args        []string
		changed     bool
		wantChanged []string
	}{
		{[]string{"diff", "--from", "1.3.0rc29", "--to", "1.4.0rc1", "--model", "Qwen3ForCausalLM", "--backend", "UCX", "-o", "json"}, true, []string{"runtime", "python-nixl"}},
		{[]string{"diff", "--from", "1.3.0rc26", "--to", "1.3.0rc26", "-o", "json"}, false, nil},
	} {
		out, errOut, code := run(t, nil, c.args...)
		if code != 0 || errOut != "" {
			t.Fatalf("%v: exit %d, stderr %q", c.args, code, errOut)
		}
		var got struct {
			From         map[string]any `json:"from"`
			To           map[string]any `json:"to"`
			Changed      *bool          `json:"changed"`
			ChangedSteps []string       `json:"changed_steps"`
		}
		if err := json.Unmarshal([]byte(out), &got); err != nil {
			t.Fatal(err)
		}
		if got.Changed == nil || *got.Changed != c.changed || got.ChangedSteps == nil {
			t.Fatalf("%v: changed %v, changed_steps %v", c.args, got.Changed, got.ChangedSteps)
		}
		for _, id := range c.wantChanged {
			if !slices.Contains(got.ChangedSteps, id) {
				t.Errorf("changed_steps %v lacks %s", got.ChangedSteps, id)
			}
		}
		// from and to are explain's own JSON objects.
		for name, obj := range map[string]map[string]any{"from": got.From, "to": got.To} {
			if _, ok := obj["steps"]; !ok {
				t.Errorf("%s is not an explain object: %v", name, obj)
			}
		}
	}
}

func TestUpgradeCheckJSONContract(t *testing.T) {
	out, _, code := run(t, nil, "upgrade-check", "--from", "1.3.0rc25", "--to", "1.3.0rc26",
		"--model", "DeepseekV3ForCausalLM", "--backend", "UCX", "-o", "json")
	if code != 1 {
		t.Fatalf("exit %d, want 1 (the role breaks)", code)
	}
	var got struct {
		From, To string
		Findings []struct {
			Role        string `json:"role"`
			FromOutcome string `json:"from_outcome"`
			ToOutcome   string `json:"to_outcome"`
			Verdict     string `json:"verdict"`
			Fix         *struct {
				YAML string `json:"yaml"`
			} `json:"fix"`
		} `json:"findings"`
	}
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatal(err)
	}
	if got.From != "1.3.0rc25" || got.To != "1.3.0rc26" || len(got.Findings) != 1 {
		t.Fatalf("%+v", got)
	}
	f := got.Findings[0]
	if f.Role != "worker" || f.FromOutcome != "CPP" || f.ToOutcome != "ERROR" || f.Verdict != "breaks" || f.Fix == nil ||
		!strings.Contains(f.Fix.YAML, "transceiver_runtime: CPP") {
		t.Errorf("%+v", f)
	}
	// The suggested fix, typed back as a flag, must make explain succeed.
	if _, _, code := run(t, nil, "explain", "--trtllm", "1.3.0rc26", "--model", "DeepseekV3ForCausalLM", "--backend", "UCX", "--runtime", "CPP"); code != 0 {
		t.Errorf("explain with the fix exits %d", code)
	}
}

func TestMatrixJSONContract(t *testing.T) {
	out, _, code := run(t, nil, "matrix", "-o", "json")
	if code != 0 {
		t.Fatalf("exit %d", code)
	}
	var got struct {
		Rows    []string `json:"rows"`
		Columns []string `json:"columns"`
		Cells   []struct {
			Model, Backend, Version, Outcome string
			ResolvedRuntime                  *string `json:"resolved_runtime"`
		} `json:"cells"`
	}
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatal(err)
	}
	if len(got.Columns) != len(inputs.Backends()) || len(got.Cells) != len(got.Rows)*len(got.Columns) {
		t.Fatalf("%d rows, %d columns, %d cells", len(got.Rows), len(got.Columns), len(got.Cells))
	}
	for _, c := range got.Cells {
		if c.Model == "" || c.Backend == "" || c.Version == "" || c.Outcome == "" {
			t.Fatalf("incomplete cell %+v", c)
		}
	}
}

func TestCompareUsageErrors(t *testing.T) {
	cases := []struct {
		args      []string
		stderrHas string
	}{
		{[]string{"diff"}, "--from is required"},
		{[]string{"diff", "--from", "9.9"}, `--from: unknown TensorRT-LLM version "9.9"`},
		{[]string{"diff", "--from", "1.3.0rc20", "--to", "nope"}, "--to: unknown TensorRT-LLM version"},
		{[]string{"diff", "--from", "1.3.0rc20", "--trtllm", "1.4.0rc1"}, "use --from and --to"},
		{[]string{"diff", "--from", "1.3.0rc20", "-o", "xml"}, `-o "xml"`},
		{[]string{"upgrade-check", "--from", "1.3.0rc20", "--config", "a.yaml", "--disagg", "b.yaml"}, "give one"},
		{[]string{"upgrade-check", "--from", "1.3.0rc20", "--disagg", "testdata/compare/missing.yaml"}, "missing.yaml"},
		{[]string{"diff", "--from", "1.3.0rc20", "--disagg", "testdata/compare/disagg-ucx.yaml"}, "diff shows one worker"},
		{[]string{"matrix", "--disagg", "testdata/compare/disagg-ucx.yaml"}, "matrix shows one worker"},
		{[]string{"upgrade-check", "--from", "1.3.0rc20", "--timeout-ms", "soon"}, "milliseconds"},
		{[]string{"matrix", "--rows", "colour"}, "--rows: axis"},
		{[]string{"matrix", "--rows", "backend", "--cols", "backend"}, "must differ"},
		{[]string{"matrix", "--backend", "UCX"}, "--backend has no effect"},
		{[]string{"matrix", "--rows", "version", "--cols", "model", "--trtllm", "1.4.0rc1"}, "--trtllm has no effect"},
	}
	for _, c := range cases {
		t.Run(strings.Join(c.args, " "), func(t *testing.T) {
			out, errOut, code := run(t, nil, c.args...)
			if code != 2 || !strings.Contains(errOut, c.stderrHas) {
				t.Fatalf("exit %d (want 2), stderr %q (want %q), stdout %q", code, errOut, c.stderrHas, out)
			}
		})
	}
}

func TestCompareColour(t *testing.T) {
	args := []string{"diff", "--from", "1.3.0rc21", "--to", "1.3.0rc22"}
	plain, _, _ := run(t, nil, args...)
	coloured, _, code := run(t, nil, append([]string{"--color", "always"}, args...)...)
	if code != 0 || !strings.Contains(coloured, "\x1b[") {
		t.Fatalf("--color always: exit %d, no escape sequence", code)
	}
	if ansi.Strip(coloured) != plain {
		t.Error("colour changed the text, not only its emphasis")
	}
	// auto: not a terminal here, and NO_COLOR set: plain either way.
	out, _, _ := run(t, []string{"NO_COLOR=1"}, append([]string{"--color", "auto"}, args...)...)
	if strings.Contains(out, "\x1b") {
		t.Error("NO_COLOR with --color auto printed escape sequences")
	}
}

// upgrade-check on a disaggregated YAML: each role on its own, the fix nested under
// the role's section, and the fixed file really starts under the new version.
func TestUpgradeCheckDisagg(t *testing.T) {
	const file = "testdata/compare/disagg-ucx.yaml"
	out, errOut, code := run(t, nil, "upgrade-check", "--from", "1.3.0rc29", "--to", "1.4.0rc1",
		"--disagg", file, "--model", "Qwen3ForCausalLM", "-o", "json")
	if code != 1 {
		t.Fatalf("exit %d, want 1 (context breaks); stderr %q", code, errOut)
	}
	var got struct {
		Findings []struct {
			Role    string `json:"role"`
			Verdict string `json:"verdict"`
			Fix     *struct {
				YAML string `json:"yaml"`
			} `json:"fix"`
		} `json:"findings"`
	}
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatal(err)
	}
	if len(got.Findings) != 2 || got.Findings[0].Role != "context" || got.Findings[1].Role != "generation" {
		t.Fatalf("findings %+v", got.Findings)
	}
	ctx, gen := got.Findings[0], got.Findings[1]
	if ctx.Verdict != "breaks" || ctx.Fix == nil || gen.Verdict != "same" || gen.Fix != nil {
		t.Fatalf("context %+v, generation %+v", ctx, gen)
	}
	want := "context_servers:\n  cache_transceiver_config:\n    transceiver_runtime: CPP\n"
	if ctx.Fix.YAML != want {
		t.Fatalf("fix %q, want %q", ctx.Fix.YAML, want)
	}
	// Merge the snippet into the file by hand and check the context role starts.
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	fixed := strings.Replace(string(data), "    backend: UCX\n", "    backend: UCX\n    transceiver_runtime: CPP\n", 1)
	path := filepath.Join(t.TempDir(), "fixed.yaml")
	if err := os.WriteFile(path, []byte(fixed), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, v := range []string{"1.4.0rc1", "1.3.0rc29"} {
		out, errOut, code := run(t, nil, "explain", "--trtllm", v, "--disagg", path, "--role", "context", "--model", "Qwen3ForCausalLM")
		if code != 0 || !strings.Contains(out, "C++ transceiver") {
			t.Errorf("%s with the fix: exit %d, stderr %q\n%s", v, code, errOut, out)
		}
	}
	// --role checks one role only.
	out, _, code = run(t, nil, "upgrade-check", "--from", "1.3.0rc29", "--to", "1.4.0rc1",
		"--disagg", file, "--role", "generation", "--model", "Qwen3ForCausalLM")
	if code != 0 || !strings.Contains(out, "generation") || strings.Contains(out, "context ") {
		t.Errorf("--role generation: exit %d\n%s", code, out)
	}
}

package models

import (
	"strings"
	"testing"

	"xcvr/resolver"
)

func version(t *testing.T, s string) resolver.Version {
	t.Helper()
	v, err := resolver.ParseVersion(s)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

func TestBuiltinCoversSpec(t *testing.T) {
	c := Builtin()
	// Every architecture the spec's section 4 names.
	for _, arch := range []string{"GptOssForCausalLM", "KimiK25ForConditionalGeneration", "GlmMoeDsaForCausalLM",
		"DeepseekV3ForCausalLM", "DeepseekV32ForCausalLM", "LlamaForCausalLM", "Gemma3ForCausalLM",
		"Gemma3ForConditionalGeneration", "Gemma4ForConditionalGeneration", "Gemma4UnifiedForConditionalGeneration",
		"Gemma4ForCausalLM", "Llama4ForConditionalGeneration", "KimiLinearForCausalLM", "NemotronHForCausalLM",
		"Qwen3NextForCausalLM", "MistralForCausalLM", "Qwen3ForCausalLM", "Qwen3MoeForCausalLM", "MiniMaxM2ForCausalLM"} {
		if _, ok := c.Get(arch); !ok {
			t.Errorf("catalog lacks %s", arch)
		}
	}
}

func TestLookupIsDated(t *testing.T) {
	c := Builtin()
	cases := []struct {
		arch, version string
		known         bool
		pref          string
		class         string
	}{
		{"LlamaForCausalLM", "main@2026-08-01", true, "None", "LlamaForCausalLM"},
		{"LlamaForCausalLM", "main@2026-08-20", true, "'PYTHON'", "LlamaForCausalLM"},
		{"GptOssForCausalLM", "main@2026-07-19", true, "None", "GptOssForCausalLM"},
		{"GptOssForCausalLM", "main@2026-07-20", true, "'PYTHON'", "GptOssForCausalLM"},
		{"DeepseekV3ForCausalLM", "main@2026-07-25", true, "None", "DeepseekV3ForCausalLM"},
		{"GlmMoeDsaForCausalLM", "main@2026-07-25", true, "'PYTHON'", "DeepseekV3ForCausalLM"},
		{"DeepseekV3ForCausalLM", "1.3.0rc26", true, "'PYTHON'", "DeepseekV3ForCausalLM"},
		{"Llama4ForConditionalGeneration", "1.3.0rc26", true, "None", "Llama4ForConditionalGeneration"},
		// #19004 merged 2026-09-15 (f11db85547), the day after 1.3.0rc27's
		// cut (its tag 6e1cc953c0, main 09-14): rc28 (09-21) is the first.
		{"Llama4ForConditionalGeneration", "1.3.0rc27", true, "None", "Llama4ForConditionalGeneration"},
		{"Llama4ForConditionalGeneration", "1.3.0rc28", true, "'PYTHON'", "Llama4ForConditionalGeneration"},
		{"Glm5NextForCausalLM", "1.3.0rc29", false, "None", ""},
		{"Glm5NextForCausalLM", "1.4.0rc1", true, "'PYTHON'", "Glm5NextForCausalLM"},
		{"MistralForCausalLM", "1.4.0rc4", true, "None", "MistralForCausalLM"},
		// Qwen3.5: the text classes inherit Qwen3-Next's hook; the VLM wrappers
		// are registered under their own class names.
		{"Qwen3_5ForCausalLM", "main@2026-08-10", true, "'PYTHON'", "Qwen3_5ForCausalLM"},
		{"Qwen3_5MoeForCausalLM", "main@2026-08-09", true, "None", "Qwen3_5MoeForCausalLM"},
		{"Qwen3_5MoeForConditionalGeneration", "main@2026-08-27", true, "None", "Qwen3_5MoeVLModel"},
		{"Qwen3_5ForConditionalGeneration", "main@2026-07-06", false, "None", ""},
		{"Qwen3_5ForConditionalGeneration", "main@2026-08-28", true, "'PYTHON'", "Qwen3_5VLModel"},
		// Kimi K3's hook came with #17480, merged 2026-08-17 (weekly change report).
		{"KimiLinearForCausalLM", "main@2026-08-16", true, "None", "KimiLinearForCausalLM"},
		{"KimiLinearForCausalLM", "main@2026-08-17", true, "'PYTHON'", "KimiLinearForCausalLM"},
		{"NoSuchForCausalLM", "1.4.0rc4", false, "None", ""},
		{"", "1.4.0rc4", false, "None", ""},
	}
	for _, tc := range cases {
		info := c.Lookup(tc.arch, version(t, tc.version))
		if info.Known != tc.known || info.Preference.Repr() != tc.pref || info.Class != tc.class {
			t.Errorf("Lookup(%s, %s) = known %v pref %s class %q; want %v %s %q",
				tc.arch, tc.version, info.Known, info.Preference.Repr(), info.Class, tc.known, tc.pref, tc.class)
		}
	}
	info := c.Lookup("LlamaForCausalLM", version(t, "main@2026-08-01"))
	if !strings.Contains(info.Note, "only from 2026-08-11 (#16787)") {
		t.Errorf("a model before its opt-in should say when it changes: %q", info.Note)
	}
	if info := c.Lookup("KimiLinearForCausalLM", version(t, "1.4.0rc4")); !info.RequiresPython {
		t.Error("Kimi K3 must require the Python transceiver")
	}
}

// The KV-cache manager preferences whose days the issue-9 audit moved.
func TestKVPreferenceDays(t *testing.T) {
	c := Builtin()
	for _, tc := range []struct {
		arch, version, want string
	}{
		// #17125 (Kimi-K2.5 model defaults) merged 2026-08-07, not 07-31.
		{"KimiK25ForConditionalGeneration", "main@2026-08-06", "None"},
		{"KimiK25ForConditionalGeneration", "main@2026-08-07", "'V2'"},
		// #17360 (MiniMax-M2 defaults) merged 2026-08-07; #16942 (GPT-OSS
		// defaults) 2026-08-10.
		{"MiniMaxM2ForCausalLM", "main@2026-08-06", "None"},
		{"MiniMaxM2ForCausalLM", "main@2026-08-07", "'V2'"},
		{"GptOssForCausalLM", "main@2026-08-09", "None"},
		{"GptOssForCausalLM", "main@2026-08-10", "'V2'"},
		// #16060 merged 2026-08-11.
		{"GlmMoeDsaForCausalLM", "main@2026-08-10", "None"},
		{"GlmMoeDsaForCausalLM", "main@2026-08-11", "'V2'"},
		// NemotronH declares no KV hook in an era-1 file version; V2 is placed
		// with the V2 hybrid route.
		{"NemotronHForCausalLM", "main@2026-08-27", "None"},
		{"NemotronHForCausalLM", "main@2026-08-28", "'V2'"},
		// The releases around them, by their tags' days: 1.3.0rc24 is main's
		// 1cef02e901 of 2026-08-09, after #17125 and #17360; 1.3.0rc27 is
		// 6e1cc953c0 of 09-14, the day before #19004 (f11db85547) and
		// #19140 (000d3e98ca) merged (weekly change report 09-14→09-21).
		{"KimiK25ForConditionalGeneration", "1.3.0rc24", "'V2'"},
		{"MiniMaxM2ForCausalLM", "1.3.0rc24", "'V2'"},
		{"LlamaForCausalLM", "1.3.0rc27", "None"},
		{"LlamaForCausalLM", "1.3.0rc28", "'V2'"},
		{"NemotronH_Nano_VL_V2", "1.3.0rc27", "None"},
		{"NemotronH_Nano_VL_V2", "main@2026-09-15", "'V2'"},
		{"NemotronH_Nano_VL_V2", "1.3.0rc28", "'V2'"},
	} {
		info := c.Lookup(tc.arch, version(t, tc.version))
		if got := info.KVPreference.Repr(); got != tc.want {
			t.Errorf("%s at %s: KV preference %s, want %s", tc.arch, tc.version, got, tc.want)
		}
	}
}

func TestSuggest(t *testing.T) {
	c := Builtin()
	for in, want := range map[string]string{
		"GptOssForCasualLM": "GptOssForCausalLM",
		"gptossforcausallm": "GptOssForCausalLM",
		"LlamaForCausalLm":  "LlamaForCausalLM",
		"Qwen3ForCausalLLM": "Qwen3ForCausalLM",
		"DeepSeekV3":        "DeepseekV3ForCausalLM",
	} {
		got := c.Suggest(in, 3)
		if len(got) == 0 || got[0] != want {
			t.Errorf("Suggest(%q) = %v, want %s first", in, got, want)
		}
	}
	// HF ids with a slip get the known ids; a short name that only matches as a
	// scattered subsequence gets no suggestion rather than noise.
	if got := c.Suggest("openai/gpt-oss-12b", 3); len(got) == 0 || got[0] != "openai/gpt-oss-120b" {
		t.Errorf("Suggest(openai/gpt-oss-12b) = %v", got)
	}
	if got := c.Suggest("Foo", 3); len(got) != 0 {
		t.Errorf("Suggest(Foo) = %v, want none", got)
	}
	if got := c.Suggest("qwen3", 3); len(got) == 0 || got[0] != "Qwen3ForCausalLM" {
		t.Errorf("Suggest(qwen3) = %v", got)
	}
	info := c.Lookup("GptOssForCasualLM", version(t, "1.4.0rc4"))
	if info.Known || !strings.Contains(info.Note, "did you mean GptOssForCausalLM") {
		t.Errorf("unknown model note: %+v", info)
	}
}

func TestHFIDs(t *testing.T) {
	c := Builtin()
	for id, arch := range map[string]string{"openai/gpt-oss-120b": "GptOssForCausalLM", "moonshotai/Kimi-K2-Thinking": "DeepseekV3ForCausalLM", "META-LLAMA/Llama-3.1-8B-Instruct": "LlamaForCausalLM"} {
		e, ok := c.FindHFID(id)
		if !ok || e.Arch != arch {
			t.Errorf("FindHFID(%s) = %s %v, want %s", id, e.Arch, ok, arch)
		}
	}
}

func TestParseErrorsNameFileLine(t *testing.T) {
	cases := map[string]string{
		"models:\n  - arch: A\n    bogus: 1\n":                                                 `x.yaml:3:5: unknown field "bogus"`,
		"models:\n  - arch: A\n    preferences:\n      - {since: 2026-13-01, value: PYTHON}\n": "x.yaml:4:17: since: not a date",
		"models:\n  - arch: A\n  - arch: A\n":                                                  "x.yaml:3:11: architecture A is listed twice",
		"models:\n  - class: B\n":                                                              "x.yaml:2:10: entry 1 has no arch",
		"models: [\n":                                                                          "x.yaml:",
		"nothing: here\n":                                                                      `unknown field "nothing"`,
		"models:\n  - arch: A\n    preferences:\n      - {since: 2026-09-01, value: PYTHON}\n      - {since: 2026-08-01, value: CPP}\n": "x.yaml:5:17: preferences must be in date order",
		"models:\n  - arch: A\n    confidence: sure\n": "x.yaml:3:17: confidence must be verified, derived or inferred",
	}
	for in, want := range cases {
		_, err := Parse("x.yaml", []byte(in), "")
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("Parse(%q) error = %v, want it to contain %q", in, err, want)
		}
	}
	if _, err := Parse("big.yaml", make([]byte, MaxCatalogBytes+1), ""); err == nil {
		t.Error("an oversized catalog must be refused")
	}
}

// A file with several unknown keys (a worker YAML given as --catalog) names
// the first of them, the same one at every run: go-yaml's strict decoder picks
// one by ranging over a map, and the error changed from run to run.
func TestUnknownFieldIsTheFirstOne(t *testing.T) {
	doc := []byte("tensor_parallel_size: 8\nmoe_expert_parallel_size: 8\nmax_batch_size: 256\nmax_num_tokens: 512\n" +
		"models:\n  - arch: A\n    zeta: 1\n    alpha: 2\n")
	for range 40 {
		_, err := Parse("x.yaml", doc, "")
		if err == nil || err.Error() != `x.yaml:1:1: unknown field "tensor_parallel_size"` {
			t.Fatalf("err = %v, want the first unknown key, x.yaml:1:1", err)
		}
	}
	doc = []byte("models:\n  - arch: A\n    zeta: 1\n    alpha: 2\n    beta: 3\n    gamma: 4\n")
	for range 40 {
		_, err := Parse("x.yaml", doc, "")
		if err == nil || err.Error() != `x.yaml:3:5: unknown field "zeta"` {
			t.Fatalf("err = %v, want x.yaml:3:5 zeta", err)
		}
	}
}

func TestMergeOverridesAndAdds(t *testing.T) {
	extra, err := Parse("testdata/inhouse.yaml", mustRead(t, "testdata/inhouse.yaml"), "")
	if err != nil {
		t.Fatal(err)
	}
	c := Builtin().Merge(extra)
	if len(c.Entries()) != len(Builtin().Entries())+1 {
		t.Errorf("merge should add one entry and replace one")
	}
	acme := c.Lookup("AcmeForCausalLM", version(t, "1.3.0rc22"))
	if !acme.Known || acme.Preference.Repr() != "'CPP'" || acme.PreferenceConfidence != resolver.Derived {
		t.Errorf("in-house entry: %+v", acme)
	}
	e, _ := c.Get("AcmeForCausalLM")
	if e.Origin != "testdata/inhouse.yaml:3" {
		t.Errorf("origin = %q", e.Origin)
	}
	if m := c.Lookup("MistralForCausalLM", version(t, "1.4.0rc4")); m.Preference.Repr() != "'PYTHON'" {
		t.Errorf("override of Mistral not applied: %+v", m)
	}
	_, err = Parse("testdata/bad-value.yaml", mustRead(t, "testdata/bad-value.yaml"), "")
	if err == nil || !strings.HasPrefix(err.Error(), "testdata/bad-value.yaml:5:") {
		t.Errorf("bad value error = %v", err)
	}
}

// An architecture upstream registers (its lazy index) but the catalog does not
// list is a registered model with no preference, inferred; a name in neither
// is unknown.
func TestRegisteredOutsideTheCatalog(t *testing.T) {
	c := Builtin()
	v, _ := resolver.ParseVersion("1.3.0rc26")
	q := c.Lookup("Qwen2ForCausalLM", v)
	if !q.Known || q.Class != "Qwen2ForCausalLM" || q.Preference.Valid || q.PreferenceConfidence != resolver.Inferred || !strings.Contains(q.Note, "_arch_index.py@065ff9e9") {
		t.Errorf("Qwen2ForCausalLM: %+v", q)
	}
	if e := c.Lookup("EAGLE3LlamaForCausalLM", v); !e.Known || e.Class != "EAGLE3LlamaForCausalLM" || !strings.Contains(e.Note, "not its class") {
		t.Errorf("EAGLE3LlamaForCausalLM: %+v", e)
	}
	if f := c.Lookup("FooForCausalLM", v); f.Known || f.Unregistered {
		t.Errorf("FooForCausalLM: %+v", f)
	}
	if d := c.Lookup("DeepseekV41ForCausalLM", v); d.Known || !d.Unregistered {
		t.Errorf("DeepseekV41ForCausalLM in 1.3.0rc26 (registered later): %+v", d)
	}
}

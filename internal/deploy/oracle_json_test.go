package deploy

import (
	"fmt"
	"strings"
	"testing"

	"xcvr/internal/oracle"
)

// jsonLoadsScript answers {"text": S} with what json.loads(S) does, as
// transformers' _dict_from_json_file reads a config.json: the error's line and
// column, or the value's type, architectures[0] and whether is_mla's keys are
// truthy.
const jsonLoadsScript = `
import sys, json
for line in sys.stdin:
    s = json.loads(line)["text"]
    try:
        v = json.loads(s)
    except json.JSONDecodeError as e:
        print(json.dumps({"err": True, "line": e.lineno, "col": e.colno}), flush=True)
        continue
    out = {"err": False, "dict": isinstance(v, dict), "arch": "", "mla": False}
    if isinstance(v, dict):
        a = v.get("architectures")
        if isinstance(a, list) and a and isinstance(a[0], str):
            out["arch"] = a[0]
        out["mla"] = bool(v.get("kv_lora_rank")) and bool(v.get("qk_rope_head_dim"))
    print(json.dumps(out), flush=True)
`

// TestModelConfigAsJSONLoads compares ReadModelConfig with json.loads on the
// config.json mistakes an operator makes by hand, and on the constants
// json.loads takes beyond JSON. A mistake is placed at json.loads' line and
// column (the column used to be one past it: encoding/json's Offset counts the
// byte refused); a file json.loads reads is read (NaN, Infinity and -Infinity
// used to be refused, though transformers before its {"__float__": ...} tags
// saved such values bare).
func TestModelConfigAsJSONLoads(t *testing.T) {
	p := oracle.Start(t, jsonLoadsScript)
	for _, text := range []string{
		"{\n  \"architectures\": [\"LlamaForCausalLM\",]\n}",                             // trailing comma in a list
		"{\n  \"architectures\": [\"LlamaForCausalLM\"]\n  \"model_type\": \"llama\"\n}", // missing comma
		"{\"architectures\": [\"LlamaForCausalLM\"]} x",                                  // extra data
		"{\"architectures\": x}",
		"{\"architectures\": [\"LlamaForCausalLM\"], \"a\": 01}",
		"{\"architectures\": ['LlamaForCausalLM']}",  // single quotes
		"{\"architectures\": [\"LlamaForCausalLM\"]", // cut short
		"{\"architectures\": [\"LlamaForCausalLM\"], \"rope_theta\": NaN}",
		"{\"architectures\": [\"DeepseekV3ForCausalLM\"],\n \"kv_lora_rank\": Infinity,\n \"qk_rope_head_dim\": -Infinity}",
		"{\"architectures\": [\"DeepseekV3ForCausalLM\"], \"kv_lora_rank\": NaN, \"qk_rope_head_dim\": 64}",
		"{\"architectures\": [\"NaN\"], \"x\": [NaN, Infinity, {\"y\": -Infinity}]}",
		"{\"architectures\": [\"Infinity\\\" NaN\"]}",
		"{\"architectures\": [\"LlamaForCausalLM\"], \"x\": nan}", // lower case is not a constant
		"{\"architectures\": [\"LlamaForCausalLM\"], \"x\": tru}",
		"{\"architectures\": [\"LlamaForCausalLM\"], \"x\": True}",
	} {
		var want struct {
			Err       bool
			Line, Col int
			Dict      bool
			Arch      string
			MLA       bool
		}
		if err := p.Ask(map[string]string{"text": text}, &want); err != nil {
			t.Fatal(err)
		}
		mc, err := ReadModelConfig("config.json", []byte(text))
		switch {
		case want.Err:
			if pos := fmt.Sprintf("config.json:%d:%d: ", want.Line, want.Col); err == nil || !strings.HasPrefix(err.Error(), pos) {
				t.Errorf("%q: json.loads refuses it at %s; xcvr: %v", text, pos, err)
			}
		case !want.Dict:
		case err != nil:
			t.Errorf("%q: json.loads reads it; xcvr: %v", text, err)
		case mc.Arch != want.Arch || mc.MLA != want.MLA:
			t.Errorf("%q: xcvr reads architectures[0] %q, MLA %v; json.loads %q, %v", text, mc.Arch, mc.MLA, want.Arch, want.MLA)
		}
	}
	// A top-level value that is no object is placed where it starts.
	if _, err := ReadModelConfig("config.json", []byte("\n\n  \"LlamaForCausalLM\"\n")); err == nil || !strings.HasPrefix(err.Error(), "config.json:3:3: config.json must be a JSON object, not string") {
		t.Errorf("a string at the top: %v", err)
	}
}

package install

import (
	"flag"
	"strings"
	"testing"
	"time"
)

// FuzzScanModule feeds arbitrary source to the lexer, the outliner and the hook
// reader: no panic, and time linear in the input (a generous per-byte bound).
func FuzzScanModule(f *testing.F) {
	for _, s := range []string{
		"@register_auto_model(\"A\")\nclass A(B):\n    @classmethod\n    def get_preferred_transceiver_runtime(cls, p=None):\n        return \"PYTHON\"\n",
		"class A(B[C], metaclass=M):\n  def get_preferred_transceiver_runtime(cls): return super().get_preferred_transceiver_runtime()\n",
		"x = f\"{a!r:>{w}} {{ }} {b['k']}\" 'c' \\\n  r'\\d'\n",
		"def f(:\n  return (((\n",
		"'''unterminated",
		"@\n@@\nclass\ndef\nreturn X.get_preferred_transceiver_runtime(\n",
		"register_auto_model(\"Z\")(Y)\nMODEL_ARCH_TO_MODULE = {\"A\": \"modeling_a\", 1: }\n",
		"\t\t\x00\xff\xfe\r\n  \f#",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, src string) {
		start := time.Now()
		m := parseModule("tensorrt_llm/_torch/models/modeling_fuzz.py", []byte(src))
		h := &hookResolver{byName: map[string][]*classDef{}}
		for _, c := range m.classes {
			h.byName[c.name] = append(h.byName[c.name], c)
		}
		for _, c := range m.classes {
			p := h.pref(c, hookRuntime)
			switch p.Kind {
			case "literal", "none", "undetermined":
			default:
				t.Fatalf("kind %q", p.Kind)
			}
			_ = p.describe(ConfigValues{"model_type": "x"})
		}
		for _, l := range m.lines {
			for _, tk := range l.toks {
				if tk.kind == tkString {
					_ = tk.str.value()
					_ = tk.str.plain()
				}
			}
			_ = render(l.toks)
		}
		if d := time.Since(start); fuzzing() && d > time.Second+time.Duration(len(src))*20*time.Microsecond {
			t.Fatalf("%d bytes took %v", len(src), d)
		}
		_ = strings.TrimSpace
	})
}

// fuzzing reports whether this run is fuzzing (go test -fuzz). The time bound
// that catches a hang is enforced only then: a normal test run, on a CI host
// of any load, asserts nothing about wall-clock time.
func fuzzing() bool {
	f := flag.Lookup("test.fuzz")
	return f != nil && f.Value.String() != ""
}

package install

import (
	"flag"
	"fmt"
	"strings"
	"testing"
	"time"
)

// FuzzScanModule feeds arbitrary source to the lexer, the outliner and the hook
// reader: no panic, time linear in the input (a generous per-byte bound), and
// the same logical lines whether the lines around them are tokenised or
// skipped.
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
		// Python 3.12 f-strings: same quotes, nesting, fields over lines.
		"x = f\"{x[\"k\"]}\" + f'{a + f'{b!r:>{w}}'}'\nclass A(B): pass\n",
		"x = f\"{', '.join([\n  'a',  # c\n])}\" rf\"\\{y}\" f\"\\N{DASH}\"\n",
		"def f():\n    x = f\"{f\"{f\"{'''\nclass C:\n'''}\"}\"}\"\nclass D: pass\n",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, src string) {
		start := time.Now()
		m := parseModule("tensorrt_llm/_torch/models/modeling_fuzz.py", []byte(src))
		h := newHookResolver(map[string][]*classDef{}, int64(len(src)))
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
		// The skipping path (skipLogical) must end every logical line where
		// the tokenising path does: any line kept by an arbitrary choice must
		// come out exactly as lex makes it.
		_ = parseModelModule("tensorrt_llm/_torch/models/modeling_fuzz.py", []byte(src))
		all := map[int]logical{}
		for _, l := range m.lines {
			all[l.line] = l
		}
		var allAt, someAt []int
		lexKeep([]byte(src), func(_ []byte, at, _ int) bool { allAt = append(allAt, at); return true })
		for _, l := range lexKeep([]byte(src), func(_ []byte, at, indent int) bool {
			someAt = append(someAt, at)
			return (at+indent)%3 != 0
		}) {
			w, ok := all[l.line]
			if !ok || w.indent != l.indent || len(w.toks) != len(l.toks) || render(w.toks) != render(l.toks) {
				t.Fatalf("line %d kept as %q (indent %d), lexed as %q (indent %d)", l.line, render(l.toks), l.indent, render(w.toks), w.indent)
			}
		}
		if fmt.Sprint(allAt) != fmt.Sprint(someAt) {
			t.Fatalf("statements start at %v when tokenised, at %v when some are skipped", allAt, someAt)
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

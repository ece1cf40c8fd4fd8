package install

import (
	"runtime"
	"strings"
	"testing"
)

// TestLexFStrings312 covers Python 3.12's f-strings (PEP 701): a field may hold
// strings with the f-string's own quotes, nested f-strings, newlines and
// comments. Each source is "x = LITERAL" and then "y = 1": the literal must be
// one token, decoded as shown, and the next statement must start on its line.
// Every source was checked with CPython 3.12's ast.parse.
func TestLexFStrings312(t *testing.T) {
	cases := []struct {
		name, lit string
		value     string
		fields    []string // each field's expression as written
		plain     bool
	}{
		{"same quotes in a subscript", `f"{x["k"]}"`, `{x["k"]}`, []string{`x["k"]`}, false},
		{"nested f-string, same quotes", `f'{a + f'{b}'}'`, `{a + f'{b}'}`, []string{`a + f'{b}'`}, false},
		{"three deep", `f"{f"{f"{x}"}"}"`, `{f"{f"{x}"}"}`, []string{`f"{f"{x}"}"`}, false},
		{"conversion and nested spec", `f"{x!r:>{w}}"`, `{x!r}`, []string{"x"}, false},
		{"!= is no conversion", `f"{a != b}"`, `{a != b}`, []string{"a != b"}, false},
		{"a field over lines, with a comment", "f\"{\", \".join([\n    'a',  # a comment in a field\n    'b',\n])}\"", "{\", \".join([\n    'a',  # a comment in a field\n    'b',\n])}", nil, false},
		{"a string in the spec", `f"{x:{'>'}10}"`, `{x}`, []string{"x"}, false},
		{"named character", `f"\N{BULLET} {x}"`, `\N{BULLET} {x}`, []string{"x"}, true},
		{"raw: backslash, then a field", `rf"\{x}"`, `\{x}`, []string{"x"}, true},
		{"a brace in a quoted field", `f"{'}'}"`, `{'}'}`, []string{"'}'"}, false},
		{"doubled braces", `f"{{x}}"`, `{x}`, nil, true},
		{"triple quotes in triple quotes", `f"""{x["""y"""]}"""`, `{x["""y"""]}`, []string{`x["""y"""]`}, false},
		{"a class line inside a field", "f\"{'''\nclass Fake(Base):\n    pass\n'''}\"", "{'''\nclass Fake(Base):\n    pass\n'''}", nil, false},
		{"concatenated", `"a" f"{x["k"]}" 'b'`, `a{x["k"]}b`, []string{`x["k"]`}, false},
		{"self-documenting", `f"{x=}"`, `{x=}`, []string{"x="}, false},
		{"conversion, then a spec with colons", `f"{x!r}" f'{y:%H:%M}'`, `{x!r}{y}`, []string{"x", "y"}, false},
		{"subscripts, conversion, nested spec", `f"{d["a"]["b"]!s:{w}.{p}}"`, `{d["a"]["b"]!s}`, []string{`d["a"]["b"]`}, false},
		{"template string (3.14)", `t"{x["k"]}"`, `{x["k"]}`, []string{`x["k"]`}, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			src := "x = " + c.lit + "\ny = 1\n"
			ls := lex([]byte(src))
			if len(ls) != 2 || len(ls[0].toks) != 3 || ls[0].toks[2].kind != tkString {
				t.Fatalf("%d logical lines, first %q", len(ls), render(ls[0].toks))
			}
			if want := 2 + strings.Count(c.lit, "\n"); ls[1].first() != "y" || ls[1].line != want {
				t.Errorf("next statement %q on line %d, want y on %d", ls[1].first(), ls[1].line, want)
			}
			s := ls[0].toks[2].str
			if s.value() != c.value || s.plain() != c.plain {
				t.Errorf("value %q plain=%v, want %q plain=%v", s.value(), s.plain(), c.value, c.plain)
			}
			var fields []string
			for _, p := range s.parts {
				if p.field {
					fields = append(fields, p.expr)
				}
			}
			if c.fields != nil && strings.Join(fields, "|") != strings.Join(c.fields, "|") {
				t.Errorf("fields %q, want %q", fields, c.fields)
			}
			if !s.fstr {
				t.Error("not marked as an f-string")
			}
			// The skipping path must end the statement at the same place.
			m := parseModelModule("tensorrt_llm/_torch/models/m.py", []byte("def f():\n    x = "+c.lit+"\nclass Y:\n    pass\n"))
			if len(m.classes) != 1 || m.classes[0].name != "Y" || m.classes[0].line != 3+strings.Count(c.lit, "\n") {
				t.Errorf("skipped body: classes %+v", m.classes)
			}
		})
	}
}

// TestFStringFieldHidesClass: a class header inside an f-string field (3.12
// lets a single-quoted f-string's field span lines) is text, not a class,
// whether the line is tokenised or skipped.
func TestFStringFieldHidesClass(t *testing.T) {
	rep := scanFiles(t, map[string]string{"tensorrt_llm/_torch/models/modeling_a.py": `
def describe(cfg):
    return f"{'''
@register_auto_model("Fake")
class Fake(DecoderModelForCausalLM):
    pass
'''}" + f'{cfg[f'{"k"}']}'


@register_auto_model("A")
class A(DecoderModelForCausalLM):
    @classmethod
    def get_preferred_transceiver_runtime(cls, pretrained_config=None):
        return f"{"PY"}" if False else "PYTHON"
`})
	if _, ok := rep.model("Fake"); ok {
		t.Error("registered Fake from inside a string")
	}
	m, ok := rep.model("A")
	if !ok || m.Evidence != "tensorrt_llm/_torch/models/modeling_a.py:10" {
		t.Fatalf("A: %+v", m)
	}
	if m.Preference.Kind != "undetermined" || !strings.Contains(m.Preference.Why, `if False else "PYTHON"`) {
		t.Errorf("A: %+v", m.Preference)
	}
}

// TestFStringMalformed: unterminated and absurdly nested f-strings end
// somewhere, never panic, and cost one pass (memory linear in the source).
func TestFStringMalformed(t *testing.T) {
	for name, src := range map[string]string{
		"open field at EOF":         `x = f"{`,
		"open field, then lines":    "x = f\"{a\nclass A:\n    pass\n",
		"conversion at EOF":         `x = f"{a!`,
		"spec at EOF":               `x = f"{a:{`,
		"nested unterminated":       "x = f\"{'abc\n}\"\nclass A: pass\n",
		"lone closing brace":        `x = f"}" + f"a}b"`,
		"backslash at EOF":          `x = f"\`,
		"named escape at EOF":       `x = f"\N{`,
		"deep f-strings":            "x = " + strings.Repeat(`f"{`, 50_000) + "1" + strings.Repeat(`}"`, 50_000) + "\n",
		"deep specs":                "x = f\"{a" + strings.Repeat(":{a", 50_000) + strings.Repeat("}", 50_001) + "\"\n",
		"deep brackets in a field":  "x = f\"{" + strings.Repeat("(", 200_000) + "\"\n",
		"many fields":               "x = f\"" + strings.Repeat("{a}", 200_000) + "\"\n",
		"unterminated deep strings": "x = " + strings.Repeat(`f'{'`, 100_000),
	} {
		// Bytes allocated, not wall-clock time (see
		// TestPathologicalSourceIsLinear): nesting that rescanned or copied
		// per level would allocate the square of the source.
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		for _, l := range lex([]byte(src)) {
			for _, tk := range l.toks {
				if tk.kind == tkString {
					_ = tk.str.value()
					_ = tk.str.plain()
				}
			}
		}
		_ = parseModelModule("tensorrt_llm/_torch/models/x.py", []byte(src))
		_ = parseModule("tensorrt_llm/x.py", []byte(src))
		runtime.ReadMemStats(&after)
		// A field costs a part (its slice grows by a quarter at a time) and its
		// expression: under 128 bytes a source byte per pass, plus each pass's
		// fixed buffers.
		if got := after.TotalAlloc - before.TotalAlloc; got > 3*(128*uint64(len(src))+64<<10) {
			t.Errorf("%s: %d bytes of source allocated %d bytes in three passes", name, len(src), got)
		}
	}
}

// TestWordAtATime checks the eight-byte shortcuts against byte-by-byte loops:
// skipMask must mark every byte skipLogical looks at (false alarms only on
// $ % & |), and indexAny3 must find exactly the first match.
func TestWordAtATime(t *testing.T) {
	rnd := uint64(1)
	next := func() byte {
		rnd ^= rnd << 13
		rnd ^= rnd >> 7
		rnd ^= rnd << 17
		return byte(rnd)
	}
	block := make([]byte, 8)
	for trial := 0; trial < 200_000; trial++ {
		for i := range block {
			switch {
			case trial < 256*8: // every byte value at every position, among letters
				block[i] = 'a'
				if i == trial%8 {
					block[i] = byte(trial / 8)
				}
			case trial%2 == 0: // mostly ASCII code
				block[i] = next() & 0x7f
			default:
				block[i] = next()
			}
		}
		x := uint64(0)
		for i := 7; i >= 0; i-- {
			x = x<<8 | uint64(block[i])
		}
		if x&msb == 0 {
			// skipMask marks every byte that matters (and maybe $ % & |).
			m := skipMask(x)
			for i, c := range block {
				if marked := m>>(8*i+7)&1 == 1; skipClass[c] != 0 && !marked || marked && skipClass[c] == 0 && !strings.ContainsRune("$%&|", rune(c)) {
					t.Fatalf("skipMask(%q) = %x: byte %d (%q)", block, m, i, c)
				}
			}
		}
		src := append(append([]byte{}, block...), block[:trial%5]...)
		a, b, c := next(), byte('\\'), byte('\n')
		want := len(src)
		for i, d := range src {
			if d == a || d == b || d == c {
				want = i
				break
			}
		}
		if got := indexAny3(src, 0, a, b, c); got != want {
			t.Fatalf("indexAny3(%q, %q) = %d, want %d", src, []byte{a, b, c}, got, want)
		}
	}
}

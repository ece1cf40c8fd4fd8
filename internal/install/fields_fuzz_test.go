package install

import "testing"

// FuzzFieldSpec feeds arbitrary declarations to the CacheTransceiverConfig
// field reader: it must not panic, and what it reads must be consistent (a
// bound only on an int, choices only on a Literal).
func FuzzFieldSpec(f *testing.F) {
	for _, s := range []string{
		`backend: Optional[Literal["DEFAULT", "UCX"]] = Field(default=None)`,
		`kv_transfer_poll_interval_ms: Annotated[int, Gt(gt=0)] | None = 5000`,
		`x: int = Field(default=0, ge=0)`,
		`x: Literal[`, `x: Dict[str, str] | None = None`, `x: Gt(`, `x: = Field(gt=`,
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, src string) {
		for _, l := range lex([]byte(src)) {
			if len(l.toks) < 2 || l.toks[1].text != ":" {
				continue
			}
			spec := fieldSpec(l.toks[0].text, l.toks)
			if spec.Bound != "" && spec.Kind != "int" {
				t.Fatalf("%q: bound %s on %q", src, spec.Bound, spec.Kind)
			}
			if spec.Kind == "literal" && len(spec.Literals) == 0 {
				t.Fatalf("%q: a Literal without choices", src)
			}
			_ = spec.Describe()
		}
	})
}

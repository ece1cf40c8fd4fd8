package install

import (
	"strings"
	"testing"
)

// The plain condition of each raise is read with it: the tests of the ifs it
// is nested in, and none where a branch needs the branches before it.
func TestRaiseConditions(t *testing.T) {
	src := `class CacheTransceiverConfig(BaseModel):
    @field_validator('agent_bounce_params', mode='before')
    @classmethod
    def coerce(cls, v):
        if v is None:
            return v
        if not isinstance(v, dict):
            raise ValueError(
                f"must be a dict, got {type(v).__name__}")
        return v

    @model_validator(mode='after')
    def check(self):
        if self.agent_bounce_params:
            unknown = sorted(set(self.agent_bounce_params) - KEYS)
            if self.kv_cache_bounce_size_mb == 0 or self.x:
                raise ValueError("no size")
            if unknown: raise ValueError(f"unknown {unknown}")
        elif self.flag:
            raise ValueError("flag")
        for k in self.keys:
            raise ValueError("loop")
        raise ValueError("always")
`
	lines := lex([]byte(src))
	m := &pyModule{rel: "tensorrt_llm/llmapi/llm_args.py"}
	got := configValidators(m, lines[1:])
	if len(got) != 2 {
		t.Fatalf("validators %+v", got)
	}
	want := [][]string{
		{"not isinstance(v, dict)"},
		{"self.agent_bounce_params and (self.kv_cache_bounce_size_mb == 0 or self.x)", "self.agent_bounce_params and unknown", "", "", "True"},
	}
	for i, v := range got {
		if strings.Join(v.When, "|") != strings.Join(want[i], "|") || len(v.When) != len(v.Raises) {
			t.Errorf("%s: conditions %q for %q, want %q", v.Name, v.When, v.Raises, want[i])
		}
	}
}

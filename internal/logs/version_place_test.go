package logs

import (
	"strings"
	"testing"
)

// A log states the version it ran; xcvr checks it against that version even when
// it is an old release (1.0 to 1.3.0rc17) or one xcvr does not list.
func TestOwnVersionPlaced(t *testing.T) {
	for _, c := range []struct{ line, name, why string }{
		{"[TensorRT-LLM] TensorRT-LLM version: 1.1.0rc5\n", "1.1.0rc5", "the log states TensorRT-LLM 1.1.0rc5 (line 1)"},
		{"[TensorRT-LLM] TensorRT-LLM version: 1.0.0rc4\n", "1.0.0rc4", "the log states TensorRT-LLM 1.0.0rc4 (line 1)"},
		{"[TensorRT-LLM] TensorRT-LLM version: 1.4.0rc9\n", "1.4.0rc9", "xcvr's rules end at 1.4.0rc4; 1.4.0rc9 is answered with them; pass --install to read yours (inferred)"},
	} {
		lg, _ := Parse("n.log", strings.NewReader(c.line))
		ov, ok := lg.Own()
		if !ok || !ov.Stated || ov.Version.Name != c.name || !strings.Contains(ov.Why, c.why) {
			t.Errorf("%q: %+v %v", c.line, ov, ok)
		}
	}
	lg, _ := Parse("n.log", strings.NewReader("[TensorRT-LLM] TensorRT-LLM version: 0.21.0\n"))
	if ov, ok := lg.Own(); ok {
		t.Errorf("0.x is not modelled, yet placed: %+v", ov)
	}
}

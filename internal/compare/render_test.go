package compare

import (
	"testing"

	"github.com/charmbracelet/x/ansi"
)

// TestUniqueCutsTellRowsApart: architectures that share their first eleven
// characters used to print as identical row labels; each must now be its own
// label, within the width, while names that cut apart keep oneLine's cut.
func TestUniqueCutsTellRowsApart(t *testing.T) {
	names := []string{
		"GptOssForCausalLM",
		"Qwen3_5ForCausalLM", "Qwen3_5ForConditionalGeneration",
		"Qwen3_5MoeForCausalLM", "Qwen3_5MoeForConditionalGeneration",
		"DeepseekV41ForCausalLM", "DeepseekV41ForConditionalGeneration",
		"Short",
	}
	const width = 12
	got := uniqueCuts(names, width)
	seen := map[string]string{}
	for i, l := range got {
		if w := ansi.StringWidth(l); w > width {
			t.Errorf("%q: label %q is %d cells", names[i], l, w)
		}
		if other, ok := seen[l]; ok {
			t.Errorf("%q and %q share the label %q", other, names[i], l)
		}
		seen[l] = names[i]
	}
	if got[0] != oneLine(names[0], width) || got[7] != "Short" {
		t.Errorf("names that cut apart changed: %q, %q", got[0], got[7])
	}
	if got[1] != "Qwen3_5Fo…LM" || got[2] != "Qwen3_5Fo…on" {
		t.Errorf("Qwen3.5 labels %q, %q: want the longest head that leaves a telling tail", got[1], got[2])
	}
	again := uniqueCuts(names, width)
	for i := range got {
		if again[i] != got[i] {
			t.Fatalf("labels differ between calls: %q vs %q", got, again)
		}
	}
}

package models

import (
	"fmt"
	"runtime"
	"strings"
	"testing"
)

// A name that prints exactly as a known one but holds invisible characters
// was "unknown" with no hint why; it says what it holds now.
func TestLookupNamesInvisibleCharacters(t *testing.T) {
	c := Builtin()
	v := version(t, "1.4.0rc4")
	for in, want := range map[string]string{
		"Gpt\u200bOssForCausalLM":           "it reads as GptOssForCausalLM but holds invisible characters (U+200B)",
		"GptOss\u200e\u200fForCausalLM":     "holds invisible characters (U+200E, U+200F)",
		"\ufeffGptOssForCausalLM\u061c":     "(U+FEFF, U+061C)",
		"GptOssForCausalLM\U000e0041":       "(U+E0041)",
		"GptOssForCausalLM\u2028":           "(U+2028)",
		"GptOssForCausalLM ":                "it reads as GptOssForCausalLM but holds spaces",
		"Gpt\u200bOssForCasualLM":           "holds invisible characters (U+200B) (without them, did you mean GptOssForCausalLM?)",
		"\u200b\u200c":                      "not in xcvr's catalog: it holds invisible characters (U+200B, U+200C)",
		"\u200b" + strings.Repeat("a", 200): "if TensorRT-LLM registers it",
	} {
		info := c.Lookup(in, v)
		if info.Known || !strings.Contains(info.Note, want) {
			t.Errorf("Lookup(%q): known=%v note %q, want %q", in, info.Known, info.Note, want)
		}
	}
	// The known name itself is known, and a plain typo keeps its suggestion.
	if info := c.Lookup("GptOssForCausalLM", v); !info.Known {
		t.Errorf("GptOssForCausalLM unknown: %+v", info)
	}
}

// bytesPerCall is the bytes f allocates, on average over runs calls.
func bytesPerCall(runs int, f func()) uint64 {
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	for i := 0; i < runs; i++ {
		f()
	}
	runtime.ReadMemStats(&after)
	return (after.TotalAlloc - before.TotalAlloc) / uint64(runs)
}

// Suggestions were quadratic: a 16 MiB unknown name was compared in full with
// every catalog name on every resolution (24 s and 278 MB per explain). They
// are bounded now and remembered per name: Lookup of such a name allocates
// next to nothing, the first time and after.
func TestSuggestionsAreBounded(t *testing.T) {
	c := Builtin()
	v := version(t, "1.4.0rc4")
	huge := "GptOssForCausalLX" + strings.Repeat("a", 16<<20)
	hidden := strings.Repeat("\u200b", 4<<20) + "GptOssForCausalLM" // 12 MiB of zero-width spaces
	for _, name := range []string{huge, hidden, strings.Repeat("x", maxSuggestName), strings.Repeat("é", maxSuggestName/2)} {
		for round := 0; round < 2; round++ {
			if per := bytesPerCall(3, func() { c.Lookup(name, v) }); per > 256<<10 {
				t.Errorf("Lookup of a %d-byte name (round %d): %d bytes allocated per call, budget 256 KiB", len(name), round, per)
			}
		}
	}
	if info := c.Lookup(hidden, v); !strings.Contains(info.Note, "it reads as GptOssForCausalLM but holds invisible characters (U+200B)") {
		t.Errorf("12 MiB of zero-width spaces: %q", info.Note)
	}

	// A --catalog of thousands of long names: candidates are capped before any
	// distance is computed.
	var b strings.Builder
	b.WriteString("models:\n")
	for i := 0; b.Len() < 1<<20; i++ { // more names than maxSuggestCandidates
		fmt.Fprintf(&b, "  - {arch: %s%d}\n", strings.Repeat("Q", 120), i)
	}
	big, err := Parse("big.yaml", []byte(b.String()), "--catalog big.yaml")
	if err != nil {
		t.Fatal(err)
	}
	name := strings.Repeat("Q", 119) + "X"
	per := bytesPerCall(3, func() { big.Suggest(name, 3) })
	if per > 8<<20 {
		t.Errorf("Suggest over %d long names: %d bytes per call, budget 8 MiB", len(big.Entries()), per)
	}
	t.Logf("Suggest over %d names of 121+ bytes: %d KiB per call", len(big.Entries()), per>>10)
}

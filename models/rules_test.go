package models

import (
	"strings"
	"testing"

	"xcvr/resolver"
)

// A release's model registrations are rules like the others: two releases'
// are compared by CompareRules as an install's are (an architecture
// registered only later, a hook result that changed).
func TestReleaseRegistrationsCompare(t *testing.T) {
	c := Builtin()
	a, _ := resolver.ParseVersion("1.3.0rc20")
	b, _ := resolver.ParseVersion("1.4.0rc4")
	ra, rb := c.ReleaseRules(a), c.ReleaseRules(b)
	if m := ra.Models["Qwen3_5ForConditionalGeneration"]; !m.Unregistered {
		t.Fatalf("registered only from 2026-07-07, in 1.3.0rc20: %+v", m)
	}
	if m := rb.Models["GptOssForCausalLM"]; m.Unregistered || !m.Preference.Is("PYTHON") || m.PR != 16479 {
		t.Fatalf("GPT-OSS in 1.4.0rc4: %+v", m)
	}
	got := map[string]resolver.RuleDifference{}
	for _, d := range resolver.CompareRules(ra, rb) {
		got[d.What] = d
	}
	if d := got["model Qwen3_5ForConditionalGeneration"]; d.A != "not registered in 1.3.0rc20" || !strings.HasPrefix(d.B, "registered as ") {
		t.Errorf("registration: %+v", d)
	}
	if d := got["model GptOssForCausalLM preference"]; d.A != "None" || d.B != "'PYTHON'" {
		t.Errorf("preference: %+v", d)
	}
	// The catalog's order.
	if len(ra.ModelOrder) != len(c.Entries()) || ra.ModelOrder[0] != c.Entries()[0].Arch {
		t.Errorf("order %v", ra.ModelOrder[:3])
	}
	// Without registrations on one side there is nothing to compare.
	for _, d := range resolver.CompareRules(resolver.ReleaseRules(a), rb) {
		if strings.HasPrefix(d.What, "model ") {
			t.Errorf("compared without registrations: %+v", d)
		}
	}
}

package ui

import (
	"os"
	"strings"
	"testing"

	"xcvr/internal/deploy"
	"xcvr/internal/inputs"
	"xcvr/resolver"
)

// TestExplorerShowsNestedRefusal: the explorer, built from --config like
// explain, opens a worker whose moe_config carries 1.4.0rc4's tactic on 1.3
// as a start-up failure, on its error step, with MoeConfig's own error.
func TestExplorerShowsNestedRefusal(t *testing.T) {
	data, err := os.ReadFile("../internal/deploy/testdata/nested/moe-tactic.yaml")
	if err != nil {
		t.Fatal(err)
	}
	ov, err := deploy.ReadWorkerConfig("moe-tactic.yaml", data)
	if err != nil {
		t.Fatal(err)
	}
	s := testSpec()
	s.Version = inputs.Value{Raw: "1.3.0rc20", Origin: resolver.Origin{Kind: resolver.OriginFlag, Detail: "--trtllm"}}
	deploy.Apply(&s, ov)
	m := New(Options{Spec: s, Width: 120, Height: 40})
	if m.trace.Result.Outcome != resolver.OutcomeError || !strings.Contains(m.trace.Result.Error, "1 validation error for MoeConfig\ntactic\n") {
		t.Fatalf("outcome %s, error %q; want MoeConfig's refusal of tactic", m.trace.Result.Outcome, m.trace.Result.Error)
	}
	if f := plainFrame(m); !strings.Contains(f, "moe_config.tactic") {
		t.Errorf("the frame does not name moe_config.tactic:\n%s", f)
	}
}

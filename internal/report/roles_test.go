package report

import (
	"strings"
	"testing"

	"xcvr/internal/deploy"
	"xcvr/resolver"
)

func roleTrace(outcome resolver.Outcome, class, backend string) resolver.Trace {
	var t resolver.Trace
	t.Result.Outcome = outcome
	t.Result.Class = class
	t.Result.EffectiveBackend = resolver.Str(backend)
	t.Inputs.Backend = resolver.Field[resolver.PyStr]{Value: resolver.Str(backend), Origin: resolver.Origin{Kind: resolver.OriginFile, Detail: "d.yaml:3"}}
	return t
}

// TestCompareRoles: the same transceiver and backend is consistent; a
// different backend is not, and the warning names both ends and the input
// that differs.
func TestCompareRoles(t *testing.T) {
	a := roleTrace(resolver.OutcomePython, resolver.ClassPython, "NIXL")
	if ok, w := CompareRoles(a, a); !ok || len(w) != 0 {
		t.Fatalf("same roles: %v %q", ok, w)
	}
	b := roleTrace(resolver.OutcomeCPP, resolver.ClassCPP, "UCX")
	ok, w := CompareRoles(a, b)
	if ok || len(w) != 1 {
		t.Fatalf("different roles: %v %q", ok, w)
	}
	for _, want := range []string{"context → ", "generation → ", " on UCX", "backend (context: NIXL from d.yaml:3; generation: UCX from d.yaml:3)"} {
		if !strings.Contains(w[0], want) {
			t.Errorf("warning lacks %q:\n%s", want, w[0])
		}
	}
}

func TestSectionName(t *testing.T) {
	if SectionName(RoleContext) != "context_servers" || SectionName(RoleGeneration) != "generation_servers" {
		t.Fatal("section names")
	}
}

// TestRoleNamesAreDeploys: the names match what internal/deploy reads.
func TestRoleNamesAreDeploys(t *testing.T) {
	if RoleContext != deploy.RoleContext || RoleGeneration != deploy.RoleGeneration {
		t.Fatalf("report's roles %q/%q, deploy's %q/%q", RoleContext, RoleGeneration, deploy.RoleContext, deploy.RoleGeneration)
	}
}

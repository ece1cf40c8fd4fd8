package yamlpos

import (
	"testing"

	"github.com/goccy/go-yaml"
	"github.com/goccy/go-yaml/parser"
)

func TestWrapKeepsPosition(t *testing.T) {
	var v struct {
		A int `yaml:"a"`
	}
	err := yaml.UnmarshalWithOptions([]byte("a: 1\nb: 2\n"), &v, yaml.Strict())
	got := Wrap("f.yaml", err)
	if got == nil || got.Error() != `f.yaml:2:1: unknown field "b"` {
		t.Errorf("Wrap = %v", got)
	}
	if Wrap("f.yaml", nil) != nil {
		t.Error("Wrap(nil) must be nil")
	}
}

func TestLookupAndAt(t *testing.T) {
	f, err := parser.ParseBytes([]byte("top:\n  list:\n    - x: 1\n    - x: 2\n"), 0)
	if err != nil {
		t.Fatal(err)
	}
	n := Lookup(f, "$.top.list[1].x")
	if Line(n) != 4 {
		t.Errorf("line %d, want 4", Line(n))
	}
	if e := At("f.yaml", n, "bad %s", "x"); e.Error() != "f.yaml:4:10: bad x" {
		t.Errorf("At = %v", e)
	}
	if Lookup(f, "$.nope") != nil || Lookup(f, "not a path[") != nil {
		t.Error("missing paths must give nil")
	}
	if e := (&Error{File: "f"}); e.Error() != "f: " {
		t.Errorf("%q", e.Error())
	}
}

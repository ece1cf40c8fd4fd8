package yamlpos

import (
	"reflect"
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

func TestFirstUnknownKeyIsInDocumentOrder(t *testing.T) {
	type inner struct {
		Since string `yaml:"since"`
	}
	type Base struct {
		Note string `yaml:"note"`
	}
	type entry struct {
		Base  `yaml:",inline"`
		Arch  string            `yaml:"arch"`
		Prefs []inner           `yaml:"preferences"`
		Extra map[string]*inner `yaml:"extra"`
		Plain int
	}
	type file struct {
		Models []entry `yaml:"models"`
	}
	for _, c := range []struct{ doc, key string }{
		{"models:\n  - arch: A\n    note: n\n    plain: 1\n", ""},
		{"models:\n  - arch: A\n    zeta: 1\n    alpha: 2\n", "zeta"},
		{"zz: 1\naa: 2\nmodels: []\n", "zz"},
		{"models:\n  - arch: A\n    preferences:\n      - {since: x, valu: y}\n  - bogus: 1\n", "valu"},
		{"models:\n  - arch: A\n    extra:\n      k: {since: x, nope: 1}\n", "nope"},
		{"models:\n  - &a\n    arch: A\n    <<: {}\n    wrong: 1\n", "wrong"},
		{"models:\n  - arch: A\n    <<: {note: n, merged: 1}\n    wrong: 1\n", "merged"},
	} {
		f, err := parser.ParseBytes([]byte(c.doc), 0)
		if err != nil {
			t.Fatal(err)
		}
		n, key := FirstUnknownKey(f.Docs[0].Body, reflect.TypeOf(file{}))
		if key != c.key || (n == nil) != (c.key == "") {
			t.Errorf("%q: first unknown key %q (node %v), want %q", c.doc, key, n, c.key)
		}
	}
}

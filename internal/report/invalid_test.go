package report

import (
	"testing"

	"xcvr/resolver"
)

// A file's rejected value goes back to what the file wrote, for JSON and for the
// explorer's editor.
func TestPyValueAndRaw(t *testing.T) {
	for _, c := range []struct {
		repr string
		val  any
		raw  string
	}{
		{"'600s'", "600s", "600s"},
		{`"it's"`, "it's", "it's"},
		{`'a\'b'`, "a'b", "a'b"},
		{`'tab\there'`, "tab\there", "tab\there"},
		{"600", int64(600), "600"},
		{"1.5", 1.5, "1.5"},
		{"True", true, "True"},
		{"None", nil, "None"},
		{"[1, 2]", "[1, 2]", "[1, 2]"},
	} {
		if got := PyValue(c.repr); got != c.val {
			t.Errorf("PyValue(%s) = %#v, want %#v", c.repr, got, c.val)
		}
		if got := PyRaw(c.repr); got != c.raw {
			t.Errorf("PyRaw(%s) = %q, want %q", c.repr, got, c.raw)
		}
	}
}

// explain -o json shows the file's rejected value with its FILE:LINE and
// pydantic's message, not the default; a field a flag set keeps the flag's value.
func TestInputsJSONInvalidFileValue(t *testing.T) {
	o := resolver.Origin{Kind: resolver.OriginFile, Detail: "gen.yaml:10"}
	in := resolver.Inputs{
		Timeout:      resolver.Field[resolver.OptInt]{Value: resolver.Int(resolver.DefaultTimeoutMS), Origin: resolver.Origin{Kind: resolver.OriginDefault}},
		Pipelined:    resolver.Field[bool]{Value: true, Origin: resolver.Origin{Kind: resolver.OriginFlag, Detail: "--pipelined"}},
		ConfigErrors: []resolver.FieldError{{Loc: "kv_transfer_timeout_ms", Message: "Input should be a valid integer", Input: "'600s'", InputType: "str", Origin: o}, {Loc: "enable_pipelined_transfer", Message: "x", Input: "'maybe'", Origin: o}},
	}
	m := InputsJSON(in)
	if got := m["kv_transfer_timeout_ms"]; got.Value != "600s" || got.Origin != "gen.yaml:10" || got.Invalid != "Input should be a valid integer" {
		t.Errorf("timeout: %+v", got)
	}
	if got := m["enable_pipelined_transfer"]; got.Value != true || got.Invalid != "" {
		t.Errorf("a flag's value must stay: %+v", got)
	}
}

// Package llmargs knows which top-level keys TensorRT-LLM's argument model
// accepts in a worker YAML. TorchLlmArgs (through BaseLlmArgs) is a pydantic
// StrictBaseModel with extra="forbid": any other key refuses the whole file with
// pydantic's extra_forbidden error, before anything else runs. The field lists
// are release data (resolver.ArgsFieldsFor); an install's own list, when read,
// takes their place.
package llmargs

import (
	"slices"
	"sync"

	"xcvr/resolver"
)

// newest is the field list of xcvr's default release.
var newest = sync.OnceValue(func() resolver.LLMArgsFields {
	v, err := resolver.ParseVersion(resolver.DefaultVersionName)
	if err != nil {
		panic(err) // the default is a listed release
	}
	return resolver.ArgsFieldsFor(v)
})

// Evidence names what the default release's field list was read from.
func Evidence() string { return newest().Evidence }

// Fields lists the keys xcvr accepts at the top level of a worker YAML of the
// default release when no install is read, sorted.
func Fields() []string { return slices.Clone(newest().Accepted()) }

// FieldsFor lists the keys version v accepts at the top level, sorted.
func FieldsFor(v resolver.Version) []string {
	return slices.Clone(resolver.ArgsFieldsFor(v).Accepted())
}

// Known reports whether key is a top-level key TensorRT-LLM accepts: one of
// fields (an install's own list, when not nil) or else of the default
// release's.
func Known(key string, fields []string) bool {
	if fields != nil {
		return slices.Contains(fields, key)
	}
	return newest().Accepts(key)
}

// Errors are pydantic's extra_forbidden errors for keys that are not fields of
// the default release (or of fields, an install's list, when not nil), in
// input order (pydantic reports extra inputs after every declared field).
func Errors(keys []resolver.VersionedKey, fields []string) []resolver.FieldError {
	return errs(keys, func(k string) bool { return Known(k, fields) })
}

// ErrorsFor is Errors against version v's own field list when fields is nil.
func ErrorsFor(keys []resolver.VersionedKey, fields []string, v resolver.Version) []resolver.FieldError {
	if fields != nil {
		return Errors(keys, fields)
	}
	a := resolver.ArgsFieldsFor(v)
	return errs(keys, a.Accepts)
}

func errs(keys []resolver.VersionedKey, known func(string) bool) []resolver.FieldError {
	var out []resolver.FieldError
	for _, k := range keys {
		if known(k.Key) {
			continue
		}
		out = append(out, resolver.FieldError{Root: k.Key, Type: "extra_forbidden", Message: "Extra inputs are not permitted",
			Input: k.Input, InputType: k.InputType, Origin: k.Origin, TopKey: true})
	}
	return out
}

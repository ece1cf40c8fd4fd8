package models

import "slices"

//go:generate go run -tags xcvr_nogen ../internal/cataloggen builtin_gen.go

// Builtin returns the embedded catalog (assets/models.yaml). The YAML is parsed
// when xcvr is built, not when it starts (builtin_gen.go, which a test keeps
// current): parsing it was most of a command's start-up. Each call returns a
// catalog of its own.
func Builtin() *Catalog {
	c := &Catalog{entries: slices.Clone(builtinEntries), byArch: make(map[string]int, len(builtinEntries))}
	for i, e := range c.entries {
		c.byArch[e.Arch] = i
	}
	return c
}

//go:build xcvr_nogen

package models

import "xcvr/assets"

// builtinEntries, under the xcvr_nogen tag that the generator builds with, is
// parsed from the YAML at start-up, so a generated file that no longer
// compiles can still be made again.
var builtinEntries = func() []Entry {
	c, err := Parse("assets/models.yaml", assets.ModelsYAML, "built-in")
	if err != nil {
		panic("embedded catalog is invalid: " + err.Error())
	}
	return c.entries
}()

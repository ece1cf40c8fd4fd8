package models

import "xcvr/resolver"

// lookupInstall answers Lookup from an installed tree's registrations and hooks:
// the catalog's answer for the release the install is placed at, with the
// install's registration and hook result put in its place by the rules
// (resolver.Rules.Model, which Resolve applies too). The catalog still
// supplies what the code scan does not (the Kimi K3 requirement, the KV-cache
// preference).
func (c *Catalog) lookupInstall(arch string, v resolver.Version) resolver.ModelInfo {
	builtin := v
	builtin.Install, builtin.Rules = nil, nil
	return v.Rules.Model(c.Lookup(arch, builtin))
}

package models

import "xcvr/resolver"

// lookupInstall answers Lookup from an installed tree's registrations and hooks:
// an architecture the install does not register is TensorRT-LLM's unknown model
// even when the catalog knows it, and a hook read from the code beats the
// catalog's dated preference. The catalog still supplies what the code scan does
// not (the Kimi K3 requirement); an undetermined hook keeps the catalog's value,
// marked inferred, with the reason.
func (c *Catalog) lookupInstall(arch string, v resolver.Version) resolver.ModelInfo {
	builtin := v
	builtin.Install, builtin.Rules = nil, nil
	base := c.Lookup(arch, builtin)
	im, ok := v.Rules.Models[arch]
	if !ok {
		info := resolver.ModelInfo{Arch: arch, Note: "not registered in the install: unknown model", Unregistered: true}
		if base.Known {
			info.Note += " (xcvr's catalog knows it as " + base.Class + ")"
		}
		return info
	}
	info := base
	info.Known = true
	if im.Class != "" {
		info.Class = im.Class
	}
	info.PreferencePR, info.PreferenceSince = 0, 0
	info.Note = im.Why
	if im.Undetermined != "" {
		info.PreferenceConfidence = resolver.Inferred
		info.Note = "install: undetermined (" + im.Undetermined + "); xcvr's catalog value is used"
		return info
	}
	info.Preference = im.Preference
	info.PreferenceConfidence = resolver.VerifiedInstall
	return info
}

package models

import "xcvr/resolver"

// Registrations is the catalog's model registrations in build v, as rules:
// every architecture the catalog lists, in its order, with the class it is
// registered on and what its get_preferred_transceiver_runtime() returns on
// v's day (with that result's PR and confidence); an architecture registered
// only later is marked Unregistered.
func (c *Catalog) Registrations(v resolver.Version) (map[string]resolver.InstallModel, []string) {
	m := make(map[string]resolver.InstallModel, len(c.entries))
	order := make([]string, 0, len(c.entries))
	for _, e := range c.entries {
		order = append(order, e.Arch)
		if e.Registered != 0 && v.Main < e.Registered {
			m[e.Arch] = resolver.InstallModel{Unregistered: true, Why: "registered only from " + e.Registered.String()}
			continue
		}
		p := e.PreferenceAt(v.Main)
		conf := p.Confidence
		if p.Since == 0 {
			conf = e.Confidence
		}
		m[e.Arch] = resolver.InstallModel{Class: e.Class, Preference: p.Value, PR: p.PR, Confidence: conf}
	}
	return m, order
}

// ReleaseRules is xcvr's model of release (or main@DAY) v with its model
// registrations from the catalog, so that CompareRules compares them with an
// install's like every other rule. Rules already attached to v are returned as
// they are (an install's hold its own registrations).
func (c *Catalog) ReleaseRules(v resolver.Version) *resolver.Rules {
	if v.Rules != nil {
		return v.Rules
	}
	rs := resolver.ReleaseRules(v)
	rs.Models, rs.ModelOrder = c.Registrations(v)
	return rs
}

package resolver

import "slices"

// compareModels lists the registrations b holds differently from a, in a's
// order (ModelOrder, else by architecture), when both rules hold
// registrations: an architecture only one registers, and a hook result that
// differs where b's is determined. An architecture b does not list is not
// registered in it (an install registers what its code shows); one a does not
// list is not compared (xcvr has no model of it).
func compareModels(a, b *Rules) []RuleDifference {
	if a.Models == nil || b.Models == nil {
		return nil
	}
	order := a.ModelOrder
	if order == nil {
		for arch := range a.Models {
			order = append(order, arch)
		}
		slices.Sort(order)
	}
	var out []RuleDifference
	for _, arch := range order {
		am, ok := a.Models[arch]
		if !ok {
			continue
		}
		bm, reg := b.Models[arch]
		reg = reg && !bm.Unregistered
		switch {
		case !am.Unregistered && !reg:
			out = append(out, RuleDifference{"model " + arch, "registered", "not registered (unknown model)", "tensorrt_llm/_torch/models/"})
		case am.Unregistered && reg:
			how := bm.Registration
			if how == "" {
				how = "registered as " + bm.Class
			}
			out = append(out, RuleDifference{"model " + arch, "not registered in " + a.Build, how, bm.Evidence})
		case reg && bm.Undetermined == "" && bm.Preference != am.Preference:
			out = append(out, RuleDifference{"model " + arch + " preference", am.Preference.Repr(), bm.Preference.Repr(), bm.HookEvidence})
		}
	}
	return out
}

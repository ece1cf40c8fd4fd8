package install

import (
	"fmt"
	"sort"
	"strings"

	"xcvr/models"
	"xcvr/resolver"
)

// Facts is the report as the resolver takes it: data only, no I/O. cfg, when
// not nil, holds the checkpoint's config.json values, so an undetermined hook
// says what the checkpoint has.
func (r *Report) Facts(cfg ConfigValues) *resolver.Install {
	in := &resolver.Install{Path: r.Path, Version: r.Version, VersionEvidence: r.VersionSource,
		Era: r.Era, EraEvidence: r.EraEvidence, RuntimeDefault: r.RuntimeDefault,
		Features: map[string]resolver.InstallFact{}, Texts: map[string]resolver.InstallText{},
		Models: map[string]resolver.InstallModel{}}
	for _, f := range r.Features {
		in.Features[f.ID] = resolver.InstallFact{Present: f.Present, Evidence: trimRemark(f.Evidence)}
	}
	if r.Fields != nil {
		in.Fields = append([]resolver.InstallField{}, r.Fields...)
		in.FieldsEvidence = r.FieldsEvidence
		in.Validators = append([]resolver.InstallValidator{}, r.Validators...)
	}
	if r.BackendOrder != "" {
		// The install's selector table decides a DEFAULT backend, whatever
		// order xcvr's model has.
		in.BackendOrder = append([]resolver.BackendSelector(nil), r.BackendSelectors...)
	}
	for _, t := range r.Texts {
		if t.Plain {
			in.Texts[t.ID] = resolver.InstallText{Parts: t.Parts, Evidence: t.Evidence, Written: t.Text}
		}
	}
	for _, m := range r.Models {
		im := resolver.InstallModel{Class: m.Class, Evidence: m.Evidence, HookEvidence: m.Preference.Evidence, Why: m.Preference.Why}
		if m.IndexModule != "" {
			im.Registration = m.registeredAs()
		}
		switch m.Preference.Kind {
		case "literal":
			im.Preference = resolver.Str(m.Preference.Value)
		case "none":
		default:
			im.Undetermined = m.Preference.describe(cfg)
			if im.Undetermined == "" {
				im.Undetermined = "the hook's result cannot be read from the code"
			}
		}
		in.Models[m.Arch] = im
	}
	return in
}

// ResolverVersion is the resolver version the install behaves as. An install
// whose era could not be read (llm_utils.py missing or unreadable) is an error:
// xcvr would otherwise guess.
func (r *Report) ResolverVersion(cfg ConfigValues) (resolver.Version, error) {
	if r.Era < 0 {
		return resolver.Version{}, fmt.Errorf("%s: cannot tell the rules: tensorrt_llm/llmapi/llm_utils.py was not read", r.Path)
	}
	return resolver.InstallVersion(r.Facts(cfg)), nil
}

// model returns the install's entry for an architecture.
func (r *Report) model(arch string) (Model, bool) {
	i := sort.Search(len(r.Models), func(i int) bool { return r.Models[i].Arch >= arch })
	if i < len(r.Models) && r.Models[i].Arch == arch {
		return r.Models[i], true
	}
	return Model{}, false
}

// ConfigValues are a checkpoint's config.json values an undetermined hook may
// read (attribute -> value as written), for saying what would decide it.
type ConfigValues map[string]string

// describe says what an undetermined hook depends on and, with a checkpoint's
// config, which value it has there.
func (p Pref) describe(cfg ConfigValues) string {
	var b []string
	if p.Why != "" {
		b = append(b, p.Why)
	}
	for _, d := range p.Depends {
		if d == wholeConfig {
			// Passed on (to a call) rather than read: no one value decides.
			b = append(b, "depends on pretrained_config (passed on whole)")
			continue
		}
		s := "depends on pretrained_config." + d
		if cfg != nil {
			if v, ok := cfg[d]; ok {
				s += " (config.json has " + v + ")"
			} else {
				s += " (not in config.json as xcvr reads it)"
			}
		} else {
			s += "; pass --model-dir or --model-config to see the checkpoint's value"
		}
		b = append(b, s)
	}
	if len(p.Conditions) > 0 {
		b = append(b, "tests "+strings.Join(p.Conditions, "; "))
	}
	return strings.Join(b, "; ")
}

// Disagreement is one place where the install and xcvr's built-in model of the
// same version differ; the install wins.
type Disagreement struct {
	What     string `json:"what"`
	Xcvr     string `json:"xcvr"`
	Install  string `json:"install"`
	Evidence string `json:"evidence"`
}

// Disagreements compares the install's rules with xcvr's built-in rules for the
// version it names (resolver.CompareRules; nothing to compare for a version xcvr
// does not know but the version itself); with a catalog, the model
// registrations and hook results are rules of both and compared with them.
func (r *Report) Disagreements(cat *models.Catalog) []Disagreement {
	var out []Disagreement
	builtin, err := resolver.ParseVersion(r.Version)
	if err != nil {
		return []Disagreement{{What: "version", Xcvr: "unknown to xcvr", Install: r.Version, Evidence: r.VersionSource}}
	}
	// The rules: xcvr's model of the version (with the catalog's model
	// registrations, given a catalog) against the install's. The
	// registrations are listed last, after the texts that are not rules.
	xcvr := resolver.ReleaseRules(builtin)
	if cat != nil {
		xcvr = cat.ReleaseRules(builtin)
	}
	inst := resolver.InstallVersion(r.Facts(nil)).Rules
	var registrations []Disagreement
	for _, d := range resolver.CompareRules(xcvr, inst) {
		dis := Disagreement{What: d.What, Xcvr: d.A, Install: d.B, Evidence: d.Evidence}
		if strings.HasPrefix(d.What, "model ") {
			registrations = append(registrations, dis)
			continue
		}
		out = append(out, dis)
	}
	// The texts the install writes that are not rules (a field xcvr cannot
	// fill, or more values than the message has): xcvr keeps its own wording.
	for _, t := range r.Texts {
		tmpl := resolver.RenderParts(t.Parts)
		if used := inst.Text(t.ID); used.Evidence.Source.Install == t.Evidence {
			continue
		}
		own := xcvr.Text(t.ID).Template
		if own == "" || resolver.SameText(t.ID, own, tmpl) {
			continue
		}
		inst := t.Text
		if !t.Plain {
			inst += " (not a plain f-string: xcvr keeps its own text)"
		} else {
			inst += " (its fields do not match the message: xcvr keeps its own text)"
		}
		out = append(out, Disagreement{What: "text " + t.ID, Xcvr: own, Install: inst, Evidence: t.Evidence})
	}
	out = append(out, registrations...)
	return out
}

// registeredAs says how the install registers the architecture: its class, or,
// for one only the lazy index lists, the module it names and the class when
// MODEL_CLASS_TO_MODULE tells it.
func (m Model) registeredAs() string {
	if m.IndexModule == "" {
		return "registered as " + m.Class
	}
	s := "listed in _arch_index.py as provided by " + m.IndexModule + " (no @register_auto_model read there)"
	if m.Class != "" {
		s += ", class " + m.Class + " (MODEL_CLASS_TO_MODULE)"
	}
	return s
}

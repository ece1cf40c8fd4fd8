package install

import "xcvr/models"

// JSON is `xcvr inspect -o json`: exactly the fields of issue 10's contract.
type JSON struct {
	Path          string         `json:"path"`
	Version       string         `json:"version"`
	VersionSource string         `json:"version_source"`
	Era           *int           `json:"era"`
	Features      []FeatureJSON  `json:"features"`
	Models        []ModelJSON    `json:"models"`
	Strings       []StringJSON   `json:"strings"`
	Disagreements []Disagreement `json:"disagreements"`
}

// FeatureJSON is one fingerprint.
type FeatureJSON struct {
	ID       string `json:"id"`
	Present  bool   `json:"present"`
	Evidence string `json:"evidence"`
}

// ModelJSON is one registered architecture. Preference and KVCacheManager are the
// hook's literal, null (no preference) or "undetermined".
type ModelJSON struct {
	Arch           string  `json:"arch"`
	Class          string  `json:"class"`
	Preference     *string `json:"preference"`
	KVCacheManager *string `json:"kv_cache_manager"`
	Evidence       string  `json:"evidence"`
}

// StringJSON is one message as the install writes it.
type StringJSON struct {
	ID       string `json:"id"`
	Text     string `json:"text"`
	Evidence string `json:"evidence"`
}

// JSONValue renders a Pref for JSON.
func (p Pref) JSONValue() *string {
	switch p.Kind {
	case "literal":
		v := p.Value
		return &v
	case "none":
		return nil
	}
	u := "undetermined"
	return &u
}

// EvidenceLine joins the registration and the hook's evidence with how the hook was
// found, for one line of output.
func (m Model) EvidenceLine() string {
	s := "registered at " + m.Evidence
	if m.IndexModule != "" {
		s = "listed at " + m.Evidence + " (module " + m.IndexModule + ")"
	}
	if m.Preference.Evidence != "" && m.Preference.Evidence != m.Evidence {
		s += "; hook at " + m.Preference.Evidence
	}
	if m.Preference.Kind == "undetermined" {
		s += "; undetermined: " + m.Preference.describe(nil)
	} else if m.Preference.Why != "" {
		s += "; " + m.Preference.Why
	}
	return s
}

// ToJSON builds the inspect JSON, with the disagreements against xcvr's built-in
// rules for the same version.
func (r *Report) ToJSON(cat *models.Catalog) JSON {
	j := JSON{Path: r.Path, Version: r.Version, VersionSource: "install " + r.VersionSource,
		Features: []FeatureJSON{}, Models: []ModelJSON{}, Strings: []StringJSON{}, Disagreements: r.Disagreements(cat)}
	if r.Era >= 0 {
		e := r.Era
		j.Era = &e
	}
	for _, f := range r.Features {
		j.Features = append(j.Features, FeatureJSON{ID: f.ID, Present: f.Present, Evidence: f.Evidence})
	}
	for _, m := range r.Models {
		j.Models = append(j.Models, ModelJSON{Arch: m.Arch, Class: m.Class, Preference: m.Preference.JSONValue(),
			KVCacheManager: m.KVCacheManager.JSONValue(), Evidence: m.EvidenceLine()})
	}
	for _, t := range r.Texts {
		j.Strings = append(j.Strings, StringJSON{ID: t.ID, Text: t.Text, Evidence: t.Evidence})
	}
	if j.Disagreements == nil {
		j.Disagreements = []Disagreement{}
	}
	return j
}

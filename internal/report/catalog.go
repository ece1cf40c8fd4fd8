package report

import (
	"bytes"
	"fmt"
	"io"
	"strconv"
	"strings"
	"text/tabwriter"

	"xcvr/internal/install"
	"xcvr/internal/termsafe"
	"xcvr/models"
	"xcvr/resolver"
)

// The catalog listings: `xcvr models` (the catalog in a version, or what an
// install registers) and `xcvr versions`, as rows for JSON and as tables for
// people. internal/cli only parses the flags and writes what these return.

// table is a tabwriter whose lines end where their text does: tabwriter pads
// an empty last cell (a release line's header in `xcvr versions`, a model with
// no KV preference in `xcvr models`) to its column's width with spaces.
type table struct {
	*tabwriter.Writer
	buf bytes.Buffer
	w   io.Writer
}

func newTable(w io.Writer) *table {
	t := &table{w: w}
	t.Writer = tabwriter.NewWriter(&t.buf, 0, 0, 2, ' ', 0)
	return t
}

// Flush writes the table, each line without its trailing spaces.
func (t *table) Flush() error {
	if err := t.Writer.Flush(); err != nil {
		return err
	}
	var out bytes.Buffer
	for _, l := range strings.SplitAfter(t.buf.String(), "\n") {
		nl := strings.HasSuffix(l, "\n")
		out.WriteString(strings.TrimRight(strings.TrimSuffix(l, "\n"), " "))
		if nl {
			out.WriteByte('\n')
		}
	}
	t.buf.Reset()
	_, err := t.w.Write(out.Bytes())
	return err
}

// ModelRow is one architecture of `xcvr models`; its JSON is `-o json`'s.
type ModelRow struct {
	Arch           string   `json:"arch"`
	Class          string   `json:"class"`
	Family         string   `json:"family"`
	HFIDs          []string `json:"hf_ids"`
	Registered     bool     `json:"registered"`
	Preference     *string  `json:"preference"`
	PreferencePR   *int     `json:"preference_pr"`
	PreferenceDate *string  `json:"preference_since"`
	Confidence     string   `json:"confidence"`
	// KVPreference is get_preferred_kv_cache_manager_version() in the version
	// ("V1", "V2" or null), with its PR, day, confidence and whether it came from
	// get_model_defaults() (before the hook).
	KVPreference   *string `json:"kv_preference"`
	KVPreferencePR *int    `json:"kv_preference_pr"`
	KVPreferenceAt *string `json:"kv_preference_since"`
	KVConfidence   string  `json:"kv_confidence"`
	KVViaDefaults  bool    `json:"kv_via_model_defaults"`
	// Cache is the cache layout (attention, mamba-hybrid, kimi-linear).
	Cache string `json:"cache"`
	// Evidence is where the entry's preferences were read.
	Evidence       string `json:"evidence"`
	RequiresPython bool   `json:"requires_python"`
	Note           string `json:"note"`
	Origin         string `json:"origin"`
}

// ModelRows lists the catalog's architectures as TensorRT-LLM v sees them.
func ModelRows(cat *models.Catalog, v resolver.Version) []ModelRow {
	var rows []ModelRow
	for _, e := range cat.Entries() {
		info := cat.Lookup(e.Arch, v)
		r := ModelRow{Arch: e.Arch, Class: e.Class, Family: e.Family, HFIDs: e.HFIDs, Registered: info.Known,
			Confidence: string(info.PreferenceConfidence), RequiresPython: e.RequiresPython, Note: info.Note, Origin: e.Origin}
		if r.HFIDs == nil {
			r.HFIDs = []string{}
		}
		r.Cache = string(e.Cache)
		if r.Cache == "" {
			r.Cache = "attention"
		}
		r.Evidence = entryEvidence(e, v.Main)
		if info.Known && info.KVPreference.Valid {
			p, d := info.KVPreference.S, info.KVPreferenceSince.String()
			r.KVPreference, r.KVPreferenceAt = &p, &d
			if pr := info.KVPreferencePR; pr != 0 {
				r.KVPreferencePR = &pr
			}
			r.KVConfidence = string(info.KVPreferenceConfidence)
			r.KVViaDefaults = info.KVViaDefaults
		}
		if info.Preference.Valid {
			p, pr, d := info.Preference.S, info.PreferencePR, info.PreferenceSince.String()
			r.Preference, r.PreferenceDate = &p, &d
			if pr != 0 {
				r.PreferencePR = &pr
			}
		}
		rows = append(rows, r)
	}
	return rows
}

// WriteModels writes ModelRows as `xcvr models` prints them.
func WriteModels(w io.Writer, v resolver.Version, rows []ModelRow) error {
	tw := newTable(w)
	fmt.Fprintf(tw, "ARCHITECTURE\tPREFERS (%s)\tSINCE\tCONFIDENCE\tKV MANAGER\tKV SINCE\n", v.Name)
	for _, r := range rows {
		kv, kvSince := "none", ""
		if r.KVPreference != nil {
			kv, kvSince = *r.KVPreference, *r.KVPreferenceAt
			if r.KVViaDefaults {
				kv += " (defaults)"
			}
			if r.KVPreferencePR != nil {
				kvSince = "#" + strconv.Itoa(*r.KVPreferencePR) + " " + kvSince
			}
		} else if !r.Registered {
			kv = ""
		}
		pref, since := "none", ""
		switch {
		case !r.Registered:
			pref = "not registered"
		case r.Preference != nil:
			pref = *r.Preference
			since = *r.PreferenceDate
			if r.PreferencePR != nil {
				since = "#" + strconv.Itoa(*r.PreferencePR) + " " + since
			}
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\n", termsafe.Line(r.Arch), pref, since, r.Confidence, kv, kvSince)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	if v.Era == 3 {
		fmt.Fprintln(w, "\nIn 1.4 the default runtime is 'PYTHON'; a preference is only consulted with transceiver_runtime: auto.")
	} else if v.Era == 0 {
		fmt.Fprintln(w, "\nBefore #16164 (2026-07-16) no preference is consulted.")
	}
	return nil
}

// entryEvidence joins the entry's own evidence with that of the preferences in
// force on day d.
func entryEvidence(e models.Entry, d resolver.Day) string {
	var parts []string
	if p := e.PreferenceAt(d); p.Evidence != "" {
		parts = append(parts, "transceiver: "+p.Evidence)
	}
	if p := e.KVPreferenceAt(d); p.Evidence != "" {
		parts = append(parts, "KV manager: "+p.Evidence)
	}
	if e.Evidence != "" {
		parts = append(parts, e.Evidence)
	}
	return strings.Join(parts, "; ")
}

// VersionRow is one release of `xcvr versions`; its JSON is `-o json`'s.
type VersionRow struct {
	Name       string  `json:"name"`
	MainDate   string  `json:"main_date"`
	Era        int     `json:"era"`
	Published  *string `json:"published"`
	Confidence string  `json:"confidence"`
	Evidence   string  `json:"evidence"`
	Default    bool    `json:"default"`
	Family     string  `json:"family"`
	Rules      string  `json:"rules"`
}

// VersionRows lists the releases xcvr knows, oldest first.
func VersionRows() []VersionRow {
	var rows []VersionRow
	for _, v := range resolver.KnownVersions() {
		r := VersionRow{Name: v.Name, MainDate: v.Main.String(), Era: v.Era, Confidence: string(v.Confidence),
			Evidence: v.Evidence, Default: v.Name == resolver.DefaultVersionName, Family: v.Family(), Rules: resolver.RulesBrief(resolver.ReleaseRules(v))}
		if v.Published != 0 {
			p := v.Published.String()
			r.Published = &p
		}
		rows = append(rows, r)
	}
	return rows
}

// OtherVersions says which version names xcvr accepts beyond its table.
func OtherVersions() (main, other string) {
	first := resolver.KnownVersions()[0]
	return "main@YYYY-MM-DD (from " + first.Main.String() + ")",
		"any other X.Y.Z[rcN][.postN][.devN] from " + first.Name + " on: the rules of the release before it (inferred; said on stderr)"
}

// WriteVersions writes VersionRows as `xcvr versions` prints them.
func WriteVersions(w io.Writer, rows []VersionRow) error {
	first := resolver.KnownVersions()[0]
	_, other := OtherVersions()
	tw := newTable(w)
	fmt.Fprintln(tw, "VERSION\tBEHAVES LIKE\tERA\tPUBLISHED\tCUT DAY IS\tRULES")
	family := ""
	for _, r := range rows {
		if r.Family != family {
			family = r.Family
			fmt.Fprintf(tw, "%s\t\t\t\t\t\n", "— "+family+" —")
		}
		pub := "unknown"
		if r.Published != nil {
			pub = *r.Published
		}
		name := r.Name
		if r.Default {
			name += " *"
		}
		fmt.Fprintf(tw, "%s\tmain@%s\t%d\t%s\t%s\t%s\n", name, r.MainDate, r.Era, pub, r.Confidence, r.Rules)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	fmt.Fprintln(w, "\n* default.  Also accepted: main@YYYY-MM-DD from "+first.Main.String()+" (main at the end of that UTC day);")
	fmt.Fprintln(w, "  "+other+".")
	for era := 0; era <= 3; era++ {
		fmt.Fprintln(w, "  "+resolver.EraSummary(era))
	}
	return nil
}

// UnknownToInstall is the preference column of a catalog architecture the
// install does not register (TensorRT-LLM's unknown model there).
const UnknownToInstall = "unknown to this install"

// WriteInstallModels writes InstallModelRows as `xcvr models --install` prints them.
func WriteInstallModels(w io.Writer, rep *install.Report, rows []ModelRow) error {
	fmt.Fprintln(w, termsafe.Line("TensorRT-LLM "+rep.Version+" at "+rep.Path+" ("+rep.VersionSource+")"))
	tw := newTable(w)
	fmt.Fprintln(tw, "ARCHITECTURE\tPREFERS (install)\tKV MANAGER\tCONFIDENCE\tEVIDENCE")
	for _, r := range rows {
		pref, kv := UnknownToInstall, ""
		if r.Registered {
			pref, kv = "none", "none"
			if r.Preference != nil {
				pref = *r.Preference
			}
			if r.KVPreference != nil {
				kv = *r.KVPreference
			}
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\n", termsafe.Line(r.Arch), termsafe.Line(pref), termsafe.Line(kv), r.Confidence, termsafe.Line(r.Evidence))
	}
	return tw.Flush()
}

// InstallModelRows lists the install's registrations (sorted by architecture)
// and then the catalog's architectures it does not register.
func InstallModelRows(rep *install.Report, cat *models.Catalog, v resolver.Version) []ModelRow {
	var rows []ModelRow
	registered := map[string]bool{}
	for _, m := range rep.Models {
		registered[m.Arch] = true
		info := cat.Lookup(m.Arch, v)
		r := ModelRow{Arch: m.Arch, Class: m.Class, HFIDs: []string{}, Registered: true, Cache: "attention",
			Preference: m.Preference.JSONValue(), KVPreference: m.KVCacheManager.JSONValue(),
			Confidence: string(resolver.VerifiedInstall), Evidence: "install: " + m.EvidenceLine(), Note: info.Note, Origin: "install"}
		if r.KVPreference != nil {
			r.KVConfidence = string(resolver.VerifiedInstall)
			if m.KVCacheManager.Kind == "undetermined" {
				r.KVConfidence = "undetermined"
			}
		}
		if m.Preference.Kind == "undetermined" {
			r.Confidence = "undetermined"
		}
		if e, ok := cat.Get(m.Arch); ok {
			r.Family, r.RequiresPython = e.Family, e.RequiresPython
			if e.HFIDs != nil {
				r.HFIDs = e.HFIDs
			}
			if e.Cache != "" {
				r.Cache = string(e.Cache)
			}
		} else if r.Note == "" {
			r.Note = "not in xcvr's catalog"
		}
		rows = append(rows, r)
	}
	for _, e := range cat.Entries() {
		if registered[e.Arch] {
			continue
		}
		r := ModelRow{Arch: e.Arch, Class: e.Class, Family: e.Family, HFIDs: e.HFIDs, Registered: false, Cache: string(e.Cache),
			RequiresPython: e.RequiresPython, Note: UnknownToInstall + ": TensorRT-LLM treats it as an unknown model",
			Evidence: "not registered under tensorrt_llm/_torch/models/", Origin: e.Origin}
		if r.HFIDs == nil {
			r.HFIDs = []string{}
		}
		if r.Cache == "" {
			r.Cache = "attention"
		}
		rows = append(rows, r)
	}
	return rows
}

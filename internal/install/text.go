package install

import (
	"fmt"
	"io"
	"strconv"
	"strings"
	"text/tabwriter"

	"xcvr/internal/termsafe"
	"xcvr/resolver"
)

// WriteText writes what `xcvr inspect` prints for people: the version, the
// rules' fingerprints, the registered models, the messages and where they
// differ from xcvr's built-in rules (j is r.ToJSON of the catalog). Every
// string from the install is escaped for the terminal.
func (rep *Report) WriteText(w io.Writer, j JSON) error {
	L := termsafe.Line
	var b strings.Builder
	b.WriteString("TensorRT-LLM " + L(rep.Version) + " at " + L(rep.Path) + "\n")
	b.WriteString("  version from install " + L(rep.VersionSource) + "\n")
	if rep.Era >= 0 {
		b.WriteString("  " + resolver.EraSummary(rep.Era) + "\n  (decided by " + L(rep.EraEvidence) + ")\n")
	}
	b.WriteString("\nRules (fingerprints)\n")
	tw := tabwriter.NewWriter(&b, 0, 0, 2, ' ', 0)
	for _, f := range rep.Features {
		mark := "✗ absent "
		if f.Present {
			mark = "✓ present"
		}
		fmt.Fprintf(tw, "  %s\t%s\t%s\n", mark, L(f.ID), L(f.Evidence))
	}
	tw.Flush()
	b.WriteString("\nModels (" + strconv.Itoa(len(rep.Models)) + " registered)\n")
	tw = tabwriter.NewWriter(&b, 0, 0, 2, ' ', 0)
	fmt.Fprintf(tw, "  ARCHITECTURE\tCLASS\tPREFERS\tKV MANAGER\tEVIDENCE\n")
	for i, m := range rep.Models {
		fmt.Fprintf(tw, "  %s\t%s\t%s\t%s\t%s\n", L(m.Arch), L(m.Class), prefWord(m.Preference), prefWord(m.KVCacheManager), L(j.Models[i].Evidence))
	}
	tw.Flush()
	b.WriteString("\nMessages\n")
	for _, t := range rep.Texts {
		plain := ""
		if !t.Plain {
			plain = " (fields are not plain: xcvr keeps its own text)"
		}
		b.WriteString("  " + L(t.ID) + " · " + L(t.Evidence) + plain + "\n    " + L(t.Text) + "\n")
	}
	if len(j.Disagreements) == 0 {
		b.WriteString("\nAgrees with xcvr's built-in rules for " + L(rep.Version) + "\n")
	} else {
		b.WriteString("\nDiffers from xcvr's built-in rules (the install wins)\n")
		for _, d := range j.Disagreements {
			b.WriteString("  " + L(d.What) + ": xcvr " + L(d.Xcvr) + "; install " + L(d.Install) + " (" + L(d.Evidence) + ")\n")
		}
	}
	if len(rep.Notes) > 0 {
		b.WriteString("\nNot read\n")
		for _, n := range rep.Notes {
			b.WriteString("  " + L(n) + "\n")
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}

func prefWord(p Pref) string {
	switch p.Kind {
	case "literal":
		return termsafe.Line("'" + p.Value + "'")
	case "none":
		return "None"
	}
	return "undetermined"
}

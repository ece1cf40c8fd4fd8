package cli

import (
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"xcvr/internal/install"
	"xcvr/internal/termsafe"
	"xcvr/models"
	"xcvr/resolver"
)

func newInspectCmd(app *appEnv) *cobra.Command {
	var output, catalog string
	var pid int
	cmd := &cobra.Command{
		Use:   "inspect PATH|auto",
		Short: "Show what an installed TensorRT-LLM says: version, rules, model hooks, messages",
		Long: `inspect reads an installed TensorRT-LLM's own source (never imports or runs it):
its version, a fingerprint of every dated rule xcvr models with the FILE:LINE that
shows it, every registered architecture with what its
get_preferred_transceiver_runtime() and get_preferred_kv_cache_manager_version()
return, the log and exception texts, and where all of that differs from xcvr's
built-in model of the same version. PATH is a site-packages directory, the
tensorrt_llm package directory or a Python prefix; auto searches $VIRTUAL_ENV,
$CONDA_PREFIX and the system and user site-packages (with --pid, the install that
process loaded first). Exit 0, 2 for an unusable PATH.`,
		Example: `  xcvr inspect /usr/local/lib/python3.12/dist-packages
  xcvr inspect auto --pid 4242
  xcvr inspect /opt/venv -o json`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := checkOutput(output, "text", "json"); err != nil {
				return err
			}
			cat := models.Builtin()
			if catalog != "" {
				f := inputFlags{catalog: catalog}
				c, err := f.loadCatalog()
				if err != nil {
					return usageErr(err)
				}
				cat = c
			}
			if args[0] == "" {
				return usageErr(errors.New("inspect: PATH is empty"))
			}
			rep, err := findInstall(app, "inspect", args[0], pid, "")
			if err != nil {
				return err
			}
			j := rep.ToJSON(cat)
			if output == "json" {
				return writeJSON(app, j)
			}
			return writeInspectText(app.stdout, rep, j)
		},
	}
	cmd.ValidArgsFunction = func(_ *cobra.Command, args []string, _ string) ([]cobra.Completion, cobra.ShellCompDirective) {
		if len(args) > 0 {
			return nil, cobra.ShellCompDirectiveNoFileComp
		}
		return []cobra.Completion{"auto"}, cobra.ShellCompDirectiveFilterDirs
	}
	cmd.Flags().StringVarP(&output, "output", "o", "text", "output format: text|json")
	cmd.Flags().StringVar(&catalog, "catalog", "", "YAML file adding or overriding architectures in the catalog")
	cmd.Flags().IntVar(&pid, "pid", 0, "with PATH auto: prefer the install this process loaded (/proc/PID/maps, then /proc/PID/exe)")
	return cmd
}

// writeInspectText prints the report for people; every string from the install
// is escaped for the terminal.
func writeInspectText(w io.Writer, rep *install.Report, j install.JSON) error {
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

func prefWord(p install.Pref) string {
	switch p.Kind {
	case "literal":
		return termsafe.Line("'" + p.Value + "'")
	case "none":
		return "None"
	}
	return "undetermined"
}

//go:build xcvr_man

package cli

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"xcvr/internal/help"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

// visibleCommands walks the tree as a reader of `xcvr --help` sees it.
func visibleCommands(c *cobra.Command) []string {
	var out []string
	for _, sub := range c.Commands() {
		if sub.IsAvailableCommand() && !sub.IsAdditionalHelpTopicCommand() {
			out = append(out, strings.ReplaceAll(sub.CommandPath(), " ", "-"))
			out = append(out, visibleCommands(sub)...)
		}
	}
	return out
}

func TestManPage(t *testing.T) {
	out, errOut, code := run(t, nil, "man")
	if code != 0 || errOut != "" {
		t.Fatalf("exit %d, stderr %q", code, errOut)
	}
	if !strings.HasPrefix(out, ".nh\n.TH \"XCVR\" \"1\" ") {
		t.Fatalf("not a man page:\n%.200s", out)
	}
	// Every flag of the root command is documented, and every top-level command is
	// referred to; a new command or flag reaches the page without anyone editing it.
	root := newRoot(&appEnv{})
	root.Flags().VisitAll(func(f *pflag.Flag) {
		if !f.Hidden && !strings.Contains(out, `\fB--`+f.Name+`\fP`) {
			t.Errorf("xcvr.1 does not document --%s", f.Name)
		}
	})
	for _, sub := range root.Commands() {
		if sub.IsAvailableCommand() && !strings.Contains(out, `\fBxcvr-`+sub.Name()+`(1)\fP`) {
			t.Errorf("xcvr.1 does not refer to xcvr-%s(1)", sub.Name())
		}
	}
	if strings.Contains(out, "xcvr-man") || strings.Contains(out, "Auto generated") {
		t.Error("the page mentions the hidden man command or cobra's dated trailer")
	}
}

func TestManTree(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "man1")
	if _, errOut, code := run(t, nil, "man", "--dir", dir); code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, e := range entries {
		got = append(got, strings.TrimSuffix(e.Name(), ".1"))
	}
	root := newRoot(&appEnv{})
	root.InitDefaultCompletionCmd() // cobra adds it when the command runs
	want := append([]string{"xcvr"}, visibleCommands(root)...)
	for _, tp := range help.Topics() {
		want = append(want, "xcvr-help-"+tp.Name)
	}
	slices.Sort(want)
	slices.Sort(got)
	if !slices.Equal(got, want) {
		t.Fatalf("pages %v\nwant %v", got, want)
	}
	if !slices.Contains(got, "xcvr-explain") || !slices.Contains(got, "xcvr-completion-bash") {
		t.Errorf("pages %v lack explain or the completion commands", got)
	}
	// Each page carries every visible flag's help as --help prints it: cobra/doc
	// goes through Markdown, which made "architectures[0] (e.g. …)" a link and
	// would make "*…*" or "_…_" emphasis.
	var check func(c *cobra.Command)
	check = func(c *cobra.Command) {
		name := strings.ReplaceAll(c.CommandPath(), " ", "-")
		page, err := os.ReadFile(filepath.Join(dir, name+".1"))
		if err != nil {
			t.Fatal(err)
		}
		c.Flags().VisitAll(func(f *pflag.Flag) {
			if !f.Hidden && !strings.Contains(string(page), `\fB--`+f.Name+`\fP`) {
				t.Errorf("%s.1 does not document --%s", name, f.Name)
			}
			if !f.Hidden && !strings.Contains(string(page), "\n\t"+f.Usage+"\n") {
				t.Errorf("%s.1: the help of --%s is not verbatim %q", name, f.Name, f.Usage)
			}
		})
		for _, sub := range c.Commands() {
			if sub.IsAvailableCommand() && !sub.IsAdditionalHelpTopicCommand() {
				check(sub)
			}
		}
	}
	check(root)
}

func TestManHidden(t *testing.T) {
	out, _, _ := run(t, nil, "--help")
	if strings.Contains(out, "man ") {
		t.Errorf("--help lists the hidden man command:\n%s", out)
	}
	if _, errOut, code := run(t, nil, "man", "--dir", "/dev/null/x"); code != 2 || !strings.Contains(errOut, "/dev/null/x") {
		t.Errorf("an unwritable --dir: exit %d, stderr %q; want 2 naming the directory", code, errOut)
	}
}

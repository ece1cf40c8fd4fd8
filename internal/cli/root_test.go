package cli

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"github.com/spf13/cobra"
)

// TestCommandNames keeps the table a run builds one command from (commands)
// true to the commands: each entry's name is its command's, and the whole
// tree has no other command but man, the help topics and cobra's own.
func TestCommandNames(t *testing.T) {
	var color string
	named := map[string]bool{}
	for _, c := range commands(&appEnv{}, &color) {
		if got := c.make(); got.Name() != c.name || len(got.Aliases) > 0 {
			t.Errorf("entry %q makes %q (aliases %v)", c.name, got.Name(), got.Aliases)
		}
		named[c.name] = true
	}
	for _, c := range newRoot(&appEnv{}).Commands() {
		if !named[c.Name()] && c.Name() != "man" && (c.Runnable() || c.HasSubCommands()) {
			t.Errorf("command %q is not in commands(): a run of it would get the whole tree, and a run of it by name none", c.Name())
		}
	}
}

// TestOneCommandTree: a run that names a command, a shell's completion of
// what follows one and --version build a smaller tree (newRootFor); what each
// prints for help, an unknown flag, a near-miss flag, a bad --color, the
// completions of flags and values, and the version, is what the whole tree
// prints.
func TestOneCommandTree(t *testing.T) {
	var color string
	runs := [][]string{{"--version"}, {"-v"}}
	for _, c := range commands(&appEnv{}, &color) {
		runs = append(runs,
			[]string{c.name, "--help"},
			[]string{c.name, "--bogus"},
			[]string{c.name, "--modle", "x"},
			[]string{c.name, "--color", "sometimes"},
			[]string{"__complete", c.name, "--"},
			[]string{"__complete", c.name, "--color", ""},
			[]string{"__complete", c.name, "--model", ""},
			[]string{"__complete", c.name, "--trtllm", "1.2"},
			[]string{"__completeNoDesc", c.name, ""},
		)
		if n := len(newRootFor(&appEnv{}, []string{c.name}).Commands()); n != 1 {
			t.Errorf("%s: the tree has %d commands, want that one", c.name, n)
		}
	}
	for _, args := range runs {
		run := func(root func(*appEnv) *cobra.Command) (string, string, int) {
			var out, errb bytes.Buffer
			app := &appEnv{stdin: strings.NewReader(""), stdout: &out, stderr: &errb, ctx: context.Background()}
			code := execute(root(app), app, args)
			return out.String(), errb.String(), code
		}
		wantOut, wantErr, wantCode := run(newRoot)
		gotOut, gotErr, gotCode := run(func(app *appEnv) *cobra.Command { return newRootFor(app, args) })
		if gotOut != wantOut || gotErr != wantErr || gotCode != wantCode {
			t.Errorf("%q: the smaller tree printed\n%s%s(exit %d)\nthe whole tree\n%s%s(exit %d)", args, gotOut, gotErr, gotCode, wantOut, wantErr, wantCode)
		}
		if len(wantOut+wantErr) == 0 {
			t.Errorf("%q printed nothing", args)
		}
	}
}

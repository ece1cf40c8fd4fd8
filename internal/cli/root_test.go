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

// TestOneCommandTree: a run that names a command builds the root with that
// command alone (newRootFor); what it prints for help, an unknown flag, a bad
// --color or a stray argument is what the whole tree prints.
func TestOneCommandTree(t *testing.T) {
	var color string
	for _, c := range commands(&appEnv{}, &color) {
		for _, args := range [][]string{
			{c.name, "--help"},
			{c.name, "--bogus"},
			{c.name, "--modle", "x"},
			{c.name, "--color", "sometimes"},
		} {
			run := func(build func(*appEnv) *cobra.Command) (string, string, int) {
				var out, errb bytes.Buffer
				app := &appEnv{stdin: strings.NewReader(""), stdout: &out, stderr: &errb, ctx: context.Background()}
				code := execute(build(app), app, args)
				return out.String(), errb.String(), code
			}
			wantOut, wantErr, wantCode := run(newRoot)
			gotOut, gotErr, gotCode := run(func(app *appEnv) *cobra.Command { return newRootFor(app, args[0]) })
			if gotOut != wantOut || gotErr != wantErr || gotCode != wantCode {
				t.Errorf("%v: one-command tree printed\n%s%s(exit %d)\nthe whole tree\n%s%s(exit %d)", args, gotOut, gotErr, gotCode, wantOut, wantErr, wantCode)
			}
		}
		if n := len(newRootFor(&appEnv{}, c.name).Commands()); n != 1 {
			t.Errorf("%s: the tree has %d commands, want that one", c.name, n)
		}
	}
}

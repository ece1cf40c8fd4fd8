package crash

import (
	"bytes"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"boot"
)

// TestNoStartupRegexps keeps regular expressions out of package initialisation:
// every xcvr process, the supervisor included, runs every package's init, and
// compiling the package-level regexps was about a seventh of an explain's
// process time. A package-level regexp is compiled on first use instead
// (sync.OnceValue).
func TestNoStartupRegexps(t *testing.T) {
	var bad []string
	err := filepath.WalkDir("../..", func(path string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (d.Name() == "testdata" || strings.HasPrefix(d.Name(), ".")) && path != "../.." {
			return filepath.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		f, err := parser.ParseFile(token.NewFileSet(), path, nil, 0)
		if err != nil {
			return err
		}
		for _, decl := range f.Decls {
			g, ok := decl.(*ast.GenDecl)
			if !ok || g.Tok != token.VAR {
				continue
			}
			for _, spec := range g.Specs {
				for _, v := range spec.(*ast.ValueSpec).Values {
					if c, ok := v.(*ast.CallExpr); ok {
						if s, ok := c.Fun.(*ast.SelectorExpr); ok && s.Sel.Name == "MustCompile" {
							bad = append(bad, path)
						}
					}
				}
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(bad) > 0 {
		t.Errorf("package-level regexp.MustCompile (compiled by every process at start-up; wrap it in sync.OnceValue): %v", bad)
	}
}

// TestSupervisorInitialisesFirst checks that the supervisor (package
// boot/start) is initialised before the rest of xcvr: the parent process,
// which only waits for the child, then runs none of cobra's, lipgloss's,
// go-yaml's, the SSH server's or xcvr's own package initialisation. What may
// come first is the standard library's lowest layers and x/ansi's parser
// table, whose path sorts before "os" and whose imports are ready by then.
// The order is fixed by the linker, so one process shows it.
func TestSupervisorInitialisesFirst(t *testing.T) {
	bin := xcvrBinary(t)
	cmd := exec.Command(bin, "--version")
	cmd.Env = append(os.Environ(), "GODEBUG=inittrace=1", boot.EnvOff+"=1")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("xcvr --version: %v\n%s", err, stderr.String())
	}
	allowed := map[string]bool{"github.com/charmbracelet/x/ansi/parser": true}
	var before []string
	found := false
	for _, line := range strings.Split(stderr.String(), "\n") {
		f := strings.Fields(line)
		if len(f) < 2 || f[0] != "init" {
			continue
		}
		if f[1] == "boot/start" {
			found = true
			break
		}
		before = append(before, f[1])
	}
	if !found {
		t.Fatalf("no init of boot/start in the trace:\n%s", stderr.String())
	}
	for _, p := range before {
		first, _, _ := strings.Cut(p, "/")
		if strings.Contains(first, ".") && !allowed[p] {
			t.Errorf("%s is initialised before the supervisor starts (the parent pays for it); all before it: %v", p, before)
		}
	}
	if len(before) > 40 {
		t.Errorf("%d packages are initialised before the supervisor: %v", len(before), before)
	}
}

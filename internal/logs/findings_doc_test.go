package logs

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"strconv"
	"strings"
	"testing"
)

// TestFindingKindsDocumented: every finding kind check-logs reports (each
// Finding* constant of this package) has its row in xcvr help logs' table of
// runtime findings, and the table names no kind that does not exist: a user
// gating on the JSON's findings[].kind reads the names there.
func TestFindingKindsDocumented(t *testing.T) {
	fset := token.NewFileSet()
	pkgs, err := parser.ParseDir(fset, ".", func(fi os.FileInfo) bool { return !strings.HasSuffix(fi.Name(), "_test.go") }, 0)
	if err != nil {
		t.Fatal(err)
	}
	kinds := map[string]bool{}
	for _, f := range pkgs["logs"].Files {
		for _, d := range f.Decls {
			g, ok := d.(*ast.GenDecl)
			if !ok || g.Tok != token.CONST {
				continue
			}
			for _, sp := range g.Specs {
				vs := sp.(*ast.ValueSpec)
				for i, name := range vs.Names {
					if !strings.HasPrefix(name.Name, "Finding") || i >= len(vs.Values) {
						continue
					}
					if lit, ok := vs.Values[i].(*ast.BasicLit); ok && lit.Kind == token.STRING {
						v, _ := strconv.Unquote(lit.Value)
						kinds[v] = true
					}
				}
			}
		}
	}
	if len(kinds) < 10 {
		t.Fatalf("found only %d finding kinds: %v", len(kinds), kinds)
	}
	topic, err := os.ReadFile("../help/topics/logs.md")
	if err != nil {
		t.Fatal(err)
	}
	_, table, ok := strings.Cut(string(topic), "**Runtime findings**")
	if table, _, ok = strings.Cut(table, "\n\n"+"Findings do not change"); !ok {
		t.Fatal("xcvr help logs has no table of runtime findings")
	}
	rows := map[string]bool{}
	for _, l := range strings.Split(table, "\n") {
		if k, ok := strings.CutPrefix(l, "| `"); ok {
			k, _, _ = strings.Cut(k, "`")
			rows[k] = true
		}
	}
	for k := range kinds {
		if !rows[k] {
			t.Errorf("finding kind %q has no row in xcvr help logs' table", k)
		}
	}
	for k := range rows {
		if !kinds[k] {
			t.Errorf("xcvr help logs' table names %q, which is no finding kind", k)
		}
	}
}

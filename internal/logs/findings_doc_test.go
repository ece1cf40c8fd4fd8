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

// findingKindConsts are the finding kinds this package reports: the value of
// each Finding* string constant of its (non-test) source.
func findingKindConsts(t *testing.T) map[string]bool {
	t.Helper()
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
	return kinds
}

// TestFindingKindsDocumented: every finding kind check-logs reports (each
// Finding* constant of this package) has its row in xcvr help logs' table of
// runtime findings, with the words the text says for it (FindingWords) beside
// the JSON's kind, and the table names no kind that does not exist: a user
// gating on the JSON's findings[].kind reads the names there, and one who
// read "KV transfer failed" in the text finds its kind there.
func TestFindingKindsDocumented(t *testing.T) {
	kinds := findingKindConsts(t)
	topic, err := os.ReadFile("../help/topics/logs.md")
	if err != nil {
		t.Fatal(err)
	}
	_, table, ok := strings.Cut(string(topic), "**Runtime findings**")
	if table, _, ok = strings.Cut(table, "\n\n"+"Findings do not change"); !ok {
		t.Fatal("xcvr help logs has no table of runtime findings")
	}
	rows := map[string]string{} // kind: the words its row gives
	for _, l := range strings.Split(table, "\n") {
		cells := strings.Split(l, " | ")
		if len(cells) < 3 || !strings.HasPrefix(cells[1], "`") {
			continue
		}
		rows[strings.Trim(cells[1], "`")] = strings.TrimPrefix(cells[0], "| ")
	}
	for k := range kinds {
		words, ok := rows[k]
		switch {
		case !ok:
			t.Errorf("finding kind %q has no row in xcvr help logs' table", k)
		case words != FindingWords(k):
			t.Errorf("xcvr help logs' row of %q says %q, the text says %q", k, words, FindingWords(k))
		}
	}
	for k := range rows {
		if !kinds[k] {
			t.Errorf("xcvr help logs' table names %q, which is no finding kind", k)
		}
	}
}

// TestFindingWords: every finding kind has plain words for the human outputs
// (the text says "2× KV transfer failed", the JSON "kv_transfer_failed"), no
// two kinds the same words, and no words for a kind that does not exist.
func TestFindingWords(t *testing.T) {
	kinds := findingKindConsts(t)
	seen := map[string]string{}
	for k := range kinds {
		w, ok := findingWords[k]
		switch {
		case !ok:
			t.Errorf("finding kind %q has no words in findingWords", k)
			continue
		case w == "" || w == k || strings.Contains(w, "_"):
			t.Errorf("finding kind %q is said %q: not plain words", k, w)
		case seen[w] != "":
			t.Errorf("kinds %q and %q are both said %q", seen[w], k, w)
		}
		seen[w] = k
		if FindingWords(k) != w {
			t.Errorf("FindingWords(%q) = %q, want %q", k, FindingWords(k), w)
		}
	}
	for k := range findingWords {
		if !kinds[k] {
			t.Errorf("findingWords has %q, which is no finding kind", k)
		}
	}
	if got := FindingWords("no_such_kind"); got != "no_such_kind" {
		t.Errorf("an unknown kind is said %q, want it as it is", got)
	}
}

package resolver

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"
)

// TestEnvVarsListsEveryVariableRead parses the resolver's own source and
// collects every variable it looks up in the environment (Env.Lookup(NAME) and
// Env[NAME], NAME a constant or a literal). Each must be in EnvVars(): the
// explorer's rows, the completion and the linear mode are built from that list,
// so a variable read without an entry would decide steps no one can set.
func TestEnvVarsListsEveryVariableRead(t *testing.T) {
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	consts := map[string]string{}
	var parsed []*ast.File
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		af, err := parser.ParseFile(fset, f, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		parsed = append(parsed, af)
		ast.Inspect(af, func(n ast.Node) bool {
			if vs, ok := n.(*ast.ValueSpec); ok {
				for i, name := range vs.Names {
					if i < len(vs.Values) {
						if bl, ok := vs.Values[i].(*ast.BasicLit); ok && bl.Kind == token.STRING {
							consts[name.Name], _ = strconv.Unquote(bl.Value)
						}
					}
				}
			}
			return true
		})
	}
	name := func(e ast.Expr) (string, bool) {
		switch x := e.(type) {
		case *ast.BasicLit:
			s, err := strconv.Unquote(x.Value)
			return s, err == nil
		case *ast.Ident:
			s, ok := consts[x.Name]
			return s, ok
		}
		return "", false // a loop variable over a list (the selectors): not a new name
	}
	isEnv := func(e ast.Expr) bool {
		sel, ok := e.(*ast.SelectorExpr)
		return ok && sel.Sel.Name == "Env"
	}
	read := map[string]string{}
	for _, af := range parsed {
		ast.Inspect(af, func(n ast.Node) bool {
			switch x := n.(type) {
			case *ast.CallExpr:
				if sel, ok := x.Fun.(*ast.SelectorExpr); ok && sel.Sel.Name == "Lookup" && isEnv(sel.X) && len(x.Args) == 1 {
					if s, ok := name(x.Args[0]); ok {
						read[s] = fset.Position(x.Pos()).String()
					}
				}
			case *ast.Ident:
				// A constant named env…/Env… holding a variable's name, used
				// anywhere but in its declaration (passed to a helper such as
				// envRepr, listed in the selectors' table).
				if v, ok := consts[x.Name]; ok && x.Obj != nil && x.Obj.Kind == ast.Con && envLike(x.Name, v) {
					if _, isDecl := x.Obj.Decl.(*ast.ValueSpec); isDecl && x.Obj.Decl.(*ast.ValueSpec).Names[0].Pos() != x.Pos() {
						read[v] = fset.Position(x.Pos()).String()
					}
				}
			case *ast.IndexExpr:
				if isEnv(x.X) {
					if s, ok := name(x.Index); ok {
						read[s] = fset.Position(x.Pos()).String()
					}
				}
			}
			return true
		})
	}
	if len(read) < 12 {
		t.Fatalf("found only %d variables read (%v): the source scan is broken", len(read), read)
	}
	listed := map[string]bool{}
	for _, e := range EnvVars() {
		if listed[e.Name] {
			t.Errorf("EnvVars lists %s twice", e.Name)
		}
		listed[e.Name] = true
	}
	var missing []string
	for n, at := range read {
		if !listed[n] {
			missing = append(missing, n+" (read at "+at+")")
		}
	}
	sort.Strings(missing)
	for _, m := range missing {
		t.Errorf("the resolver reads %s but EnvVars() has no entry for it", m)
	}
	for _, e := range EnvVars() {
		if _, ok := read[e.Name]; !ok && e.Selects == "" {
			t.Errorf("EnvVars lists %s, which the resolver never reads", e.Name)
		}
	}
}

// envLike reports whether a constant names an environment variable: its Go
// name starts with env or Env and its value is upper-case TensorRT-LLM style.
func envLike(goName, v string) bool {
	if !strings.HasPrefix(goName, "env") && !strings.HasPrefix(goName, "Env") {
		return false
	}
	if !strings.HasPrefix(v, "TRTLLM_") && !strings.HasPrefix(v, "TLLM_") {
		return false
	}
	return strings.ToUpper(v) == v && !strings.HasSuffix(v, "_")
}

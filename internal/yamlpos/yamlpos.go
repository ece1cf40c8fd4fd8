// Package yamlpos turns go-yaml errors and nodes into "FILE:LINE:COL: message"
// errors, so every complaint about a YAML file names the place to look.
package yamlpos

import (
	"errors"
	"fmt"
	"strings"

	"github.com/goccy/go-yaml"
	"github.com/goccy/go-yaml/ast"
	"github.com/goccy/go-yaml/token"
)

// Error is a problem at a place in a file.
type Error struct {
	File string
	Line int
	Col  int
	Msg  string
}

// Error renders "FILE:LINE:COL: message" (LINE and COL only when known).
func (e *Error) Error() string {
	var b strings.Builder
	b.WriteString(e.File)
	if e.Line > 0 {
		fmt.Fprintf(&b, ":%d", e.Line)
		if e.Col > 0 {
			fmt.Fprintf(&b, ":%d", e.Col)
		}
	}
	b.WriteString(": ")
	b.WriteString(e.Msg)
	return b.String()
}

// Wrap converts a go-yaml error into an *Error for file, keeping its position and
// dropping go-yaml's multi-line source excerpt.
func Wrap(file string, err error) error {
	if err == nil {
		return nil
	}
	var ye yaml.Error
	if errors.As(err, &ye) {
		e := &Error{File: file, Msg: ye.GetMessage()}
		if tk := ye.GetToken(); tk != nil && tk.Position != nil {
			e.Line, e.Col = tk.Position.Line, tk.Position.Column
		}
		return e
	}
	msg := err.Error()
	if i := strings.IndexByte(msg, '\n'); i >= 0 {
		msg = msg[:i]
	}
	return &Error{File: file, Msg: msg}
}

// At returns an *Error positioned at node.
func At(file string, node ast.Node, format string, args ...any) error {
	e := &Error{File: file, Msg: fmt.Sprintf(format, args...)}
	if node != nil {
		if tk := node.GetToken(); tk != nil && tk.Position != nil {
			e.Line, e.Col = tk.Position.Line, tk.Position.Column
		}
	}
	return e
}

// Line returns the 1-based line of node, or 0.
func Line(node ast.Node) int {
	if node == nil {
		return 0
	}
	if tk := node.GetToken(); tk != nil && tk.Position != nil {
		return tk.Position.Line
	}
	return 0
}

// Lookup finds the node at a YAML path such as "$.models[2].since", or nil.
func Lookup(f *ast.File, path string) ast.Node {
	p, err := yaml.PathString(path)
	if err != nil {
		return nil
	}
	n, err := p.FilterFile(f)
	if err != nil {
		return nil
	}
	return n
}

// KeyPos returns the position of the key token of a mapping value, for pointing at
// "key:" rather than at its value.
func KeyPos(mv *ast.MappingValueNode) *token.Position {
	if mv == nil || mv.Key == nil {
		return nil
	}
	if tk := mv.Key.GetToken(); tk != nil {
		return tk.Position
	}
	return nil
}

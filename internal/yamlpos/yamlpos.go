// Package yamlpos turns go-yaml errors and nodes into "FILE:LINE:COL: message"
// errors, so every complaint about a YAML file names the place to look.
package yamlpos

import (
	"errors"
	"fmt"
	"reflect"
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

// FirstUnknownKey returns the first key, in document order, of a mapping in
// node that the struct type t (or the structs it holds, through pointers,
// slices, arrays and maps' values) has no yaml field for, and that key's text;
// nil when every key is known. go-yaml's strict decoder reports one unknown
// field too, but picks it by ranging over a Go map: a file with two was a
// different error at each run, where an operator greps for one.
func FirstUnknownKey(node ast.Node, t reflect.Type) (ast.Node, string) {
	for t != nil && t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if node == nil || t == nil {
		return nil, ""
	}
	switch n := node.(type) {
	case *ast.AnchorNode:
		return FirstUnknownKey(n.Value, t)
	case *ast.TagNode:
		return FirstUnknownKey(n.Value, t)
	case *ast.DocumentNode:
		return FirstUnknownKey(n.Body, t)
	}
	switch t.Kind() {
	case reflect.Struct:
		fields := map[string]reflect.Type{}
		structFields(t, fields)
		for _, mv := range mappingValues(node) {
			if mv.Key == nil {
				continue
			}
			key := mv.Key.GetToken()
			if key == nil {
				continue
			}
			if key.Value == "<<" {
				// A merge key brings its mapping's keys into this one (an
				// alias is not followed: the decoder still checks those).
				if k, name := FirstUnknownKey(mv.Value, t); k != nil {
					return k, name
				}
				continue
			}
			ft, ok := fields[key.Value]
			if !ok {
				return mv.Key, key.Value
			}
			if k, name := FirstUnknownKey(mv.Value, ft); k != nil {
				return k, name
			}
		}
	case reflect.Slice, reflect.Array:
		if s, ok := node.(*ast.SequenceNode); ok {
			for _, v := range s.Values {
				if k, name := FirstUnknownKey(v, t.Elem()); k != nil {
					return k, name
				}
			}
		}
	case reflect.Map:
		for _, mv := range mappingValues(node) {
			if k, name := FirstUnknownKey(mv.Value, t.Elem()); k != nil {
				return k, name
			}
		}
	}
	return nil, ""
}

// structFields maps the yaml names of t's fields (inline ones flattened, as
// go-yaml does) to their types. A field without a tag is its lower-cased name,
// go-yaml's default.
func structFields(t reflect.Type, into map[string]reflect.Type) {
	for i := range t.NumField() {
		f := t.Field(i)
		if !f.IsExported() {
			continue
		}
		tag := f.Tag.Get("yaml")
		name, opts, _ := strings.Cut(tag, ",")
		if name == "-" {
			continue
		}
		if strings.Contains(","+opts+",", ",inline,") {
			ft := f.Type
			for ft.Kind() == reflect.Pointer {
				ft = ft.Elem()
			}
			if ft.Kind() == reflect.Struct {
				structFields(ft, into)
			}
			continue
		}
		if name == "" {
			name = strings.ToLower(f.Name)
		}
		into[name] = f.Type
	}
}

// mappingValues returns the key-value pairs of a mapping node (a one-pair
// mapping is a bare MappingValueNode in go-yaml's tree), or nil.
func mappingValues(node ast.Node) []*ast.MappingValueNode {
	switch n := node.(type) {
	case *ast.MappingNode:
		return n.Values
	case *ast.MappingValueNode:
		return []*ast.MappingValueNode{n}
	}
	return nil
}

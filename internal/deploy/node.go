package deploy

import (
	"fmt"
	"math"
	"math/big"
	"regexp"
	"strconv"
	"strings"

	"github.com/goccy/go-yaml/ast"
	"github.com/goccy/go-yaml/parser"
	"github.com/goccy/go-yaml/token"

	"xcvr/internal/guard"
	"xcvr/internal/yamlpos"
	"xcvr/resolver"
)

// Kind is the Python type a YAML value loads as under yaml.safe_load, which is how
// TensorRT-LLM reads every YAML it is given.
type Kind uint8

// The kinds of loaded values.
const (
	KindNull Kind = iota
	KindBool
	KindInt
	KindFloat
	KindStr
	KindMap
	KindSeq
	// KindDate is a datetime.date or datetime.datetime (PyYAML resolves plain
	// timestamps); xcvr keeps only the text.
	KindDate
)

// Node is one loaded YAML value with the place it was written. Values follow PyYAML's
// YAML 1.1 rules, not go-yaml's: "yes" is True, "1.5e3" is a string, "012" is 10.
type Node struct {
	Kind  Kind
	Bool  bool
	Int   *big.Int
	Float float64
	// Str is the string value, or a timestamp's text.
	Str string
	// Pairs holds a mapping's entries in Python dict order (first insertion).
	Pairs []Pair
	Items []*Node
	// Line and Col locate the value (1-based); for a mapping, its first key.
	Line, Col int
}

// Pair is one mapping entry; KeyLine is where the key was written.
type Pair struct {
	Key     *Node
	Val     *Node
	KeyLine int
	KeyCol  int
}

// KeyString renders the key as Python's str() would for dict lookups by name.
func (p Pair) KeyString() string {
	if p.Key.Kind == KindStr {
		return p.Key.Str
	}
	return p.Key.Repr()
}

// Get returns the value of a string key in a mapping.
func (n *Node) Get(key string) (Pair, bool) {
	if n == nil || n.Kind != KindMap {
		return Pair{}, false
	}
	for _, p := range n.Pairs {
		if p.Key.Kind == KindStr && p.Key.Str == key {
			return p, true
		}
	}
	return Pair{}, false
}

// TypeName is the Python type name pydantic prints as input_type.
func (n *Node) TypeName() string {
	switch n.Kind {
	case KindNull:
		return "NoneType"
	case KindBool:
		return "bool"
	case KindInt:
		return "int"
	case KindFloat:
		return "float"
	case KindStr:
		return "str"
	case KindMap:
		return "dict"
	case KindSeq:
		return "list"
	default:
		if strings.ContainsAny(n.Str, "Tt :") {
			return "datetime"
		}
		return "date"
	}
}

// Repr renders the value as Python's repr() would (pydantic's input_value). It is
// bounded: very long output is cut with "..." as pydantic also shortens it.
func (n *Node) Repr() string {
	var b strings.Builder
	n.repr(&b, 0)
	s := b.String()
	if len(s) > 200 {
		s = s[:200] + "..."
	}
	return s
}

func (n *Node) repr(b *strings.Builder, depth int) {
	if b.Len() > 400 || depth > MaxDepth {
		b.WriteString("...")
		return
	}
	switch n.Kind {
	case KindNull:
		b.WriteString("None")
	case KindBool:
		if n.Bool {
			b.WriteString("True")
		} else {
			b.WriteString("False")
		}
	case KindInt:
		b.WriteString(n.Int.String())
	case KindFloat:
		b.WriteString(PyFloat(n.Float))
	case KindStr:
		b.WriteString(PyRepr(n.Str))
	case KindDate:
		b.WriteString(PyRepr(n.Str))
	case KindSeq:
		b.WriteByte('[')
		for i, it := range n.Items {
			if i > 0 {
				b.WriteString(", ")
			}
			it.repr(b, depth+1)
		}
		b.WriteByte(']')
	case KindMap:
		b.WriteByte('{')
		for i, p := range n.Pairs {
			if i > 0 {
				b.WriteString(", ")
			}
			p.Key.repr(b, depth+1)
			b.WriteString(": ")
			p.Val.repr(b, depth+1)
		}
		b.WriteByte('}')
	}
}

// PyFloat renders f as Python's float repr: shortest round-trip digits, ".0" on
// whole numbers, exponent form below 1e-4 and from 1e16.
func PyFloat(f float64) string {
	switch {
	case math.IsInf(f, 1):
		return "inf"
	case math.IsInf(f, -1):
		return "-inf"
	case math.IsNaN(f):
		return "nan"
	}
	e := strconv.FormatFloat(f, 'e', -1, 64)
	mant, expS, _ := strings.Cut(e, "e")
	exp, _ := strconv.Atoi(expS)
	if exp < -4 || exp >= 16 {
		sign := "+"
		if exp < 0 {
			sign = "-"
			exp = -exp
		}
		return fmt.Sprintf("%se%s%02d", mant, sign, exp)
	}
	s := strconv.FormatFloat(f, 'f', -1, 64)
	if !strings.ContainsAny(s, ".") {
		s += ".0"
	}
	return s
}

// PyRepr quotes s as Python's str repr does (single quotes unless s holds a single
// quote and no double quote; non-printable characters, C1 included, escaped as
// \xhh, \uhhhh or \Uhhhhhhhh). It is the resolver's own quoting, so a value reads
// the same in a file's error and in the resolver's.
func PyRepr(s string) string { return resolver.Str(s).Repr() }

// PyEqual is Python's == on loaded values, which TensorRT-LLM uses to compare a
// top-level key with a section's: 1 == 1.0 == True, dicts compare by content
// regardless of order, lists element-wise.
func PyEqual(a, b *Node) bool {
	if a == b {
		return true
	}
	if num, ok := a.number(); ok {
		if other, ok2 := b.number(); ok2 {
			return num.Cmp(other) == 0
		}
		return false
	}
	if a.Kind != b.Kind {
		return false
	}
	switch a.Kind {
	case KindNull:
		return true
	case KindStr, KindDate:
		return a.Str == b.Str
	case KindSeq:
		if len(a.Items) != len(b.Items) {
			return false
		}
		for i := range a.Items {
			if !PyEqual(a.Items[i], b.Items[i]) {
				return false
			}
		}
		return true
	case KindMap:
		if len(a.Pairs) != len(b.Pairs) {
			return false
		}
		ix := keyIndex{}
		for i, q := range b.Pairs {
			ix.add(q.Key, i)
		}
		for _, p := range a.Pairs {
			i := ix.find(b.Pairs, p.Key)
			if i < 0 || !PyEqual(p.Val, b.Pairs[i].Val) {
				return false
			}
		}
		return true
	}
	return false
}

// number returns bools, ints and finite floats as exact rationals, because Python
// compares them by value across types.
func (n *Node) number() (*big.Rat, bool) {
	switch n.Kind {
	case KindBool:
		if n.Bool {
			return big.NewRat(1, 1), true
		}
		return new(big.Rat), true
	case KindInt:
		return new(big.Rat).SetInt(n.Int), true
	case KindFloat:
		if math.IsInf(n.Float, 0) || math.IsNaN(n.Float) {
			// Never equal to an int; nan is not even equal to itself, but that
			// only matters for configs nobody writes.
			return nil, false
		}
		return new(big.Rat).SetFloat64(n.Float), true
	}
	return nil, false
}

// maxRepeatedWarnings caps warnings of one kind; the rest are counted in one
// "and N more" line, so a hostile file cannot flood the terminal.
const maxRepeatedWarnings = 10

// Doc is a parsed YAML file.
type Doc struct {
	File string
	// Root is the single document's value; nil for an empty file.
	Root *Node
	// Warnings are things PyYAML accepts silently but an operator should know,
	// e.g. a key written twice (the last one wins).
	Warnings []string
}

// ParseYAML loads data the way yaml.safe_load would, with positions, refusing
// oversized, binary, too deeply nested and alias-bomb input before it can cost
// much time or memory. Errors are *yamlpos.Error ("FILE:LINE:COL: message").
func ParseYAML(name string, data []byte) (*Doc, error) {
	data, err := guard.Check(name, data, guard.YAMLLimits())
	if err != nil {
		return nil, err
	}
	f, err := parser.ParseBytes(data, 0, parser.AllowDuplicateMapKey())
	if err != nil {
		return nil, yamlpos.Wrap(name, err)
	}
	var docs []*ast.DocumentNode
	for _, d := range f.Docs {
		if d != nil && d.Body != nil {
			docs = append(docs, d)
		}
	}
	doc := &Doc{File: name}
	if len(docs) == 0 {
		return doc, nil
	}
	if len(docs) > 1 {
		at := ast.Node(docs[1].Body)
		if m, ok := at.(*ast.MappingNode); ok && len(m.Values) > 0 {
			at = m.Values[0].Key
		} else if mv, ok := at.(*ast.MappingValueNode); ok {
			at = mv.Key
		}
		return nil, yamlpos.At(name, at, "expected a single document in the stream, but found another document")
	}
	c := &converter{file: name, anchors: map[string]*Node{}, sizes: map[*Node]int{}, doc: doc}
	root, err := c.convert(docs[0].Body, 0)
	if err != nil {
		return nil, err
	}
	doc.Root = root
	return doc, nil
}

type converter struct {
	file    string
	anchors map[string]*Node
	sizes   map[*Node]int
	total   int
	doc     *Doc
}

func (c *converter) errAt(n ast.Node, format string, args ...any) error {
	return yamlpos.At(c.file, n, format, args...)
}

// count adds k values to the document's expanded size and refuses past MaxNodes;
// only aliases can get there, since the pre-scan bounds what is written.
func (c *converter) count(n ast.Node, k int) error {
	c.total += k
	if c.total > MaxNodes {
		return c.errAt(n, "refused: the aliases expand the document to more than %d values (an alias bomb)", MaxNodes)
	}
	return nil
}

// size is the number of values v stands for when every alias is expanded.
func (c *converter) size(v *Node) int {
	if s, ok := c.sizes[v]; ok {
		return s
	}
	s := 1
	for _, it := range v.Items {
		s += c.size(it)
		if s > MaxNodes {
			break
		}
	}
	for _, p := range v.Pairs {
		s += c.size(p.Key) + c.size(p.Val)
		if s > MaxNodes {
			break
		}
	}
	c.sizes[v] = s
	return s
}

func pos(n ast.Node) (int, int) {
	if n == nil {
		return 0, 0
	}
	if tk := n.GetToken(); tk != nil && tk.Position != nil {
		return tk.Position.Line, tk.Position.Column
	}
	return 0, 0
}

func (c *converter) convert(n ast.Node, depth int) (*Node, error) {
	if depth > MaxDepth {
		return nil, c.errAt(n, "refused: nested deeper than %d levels", MaxDepth)
	}
	line, col := pos(n)
	switch v := n.(type) {
	case nil:
		return &Node{Kind: KindNull}, nil
	case *ast.AnchorNode:
		val, err := c.convert(v.Value, depth)
		if err != nil {
			return nil, err
		}
		if v.Name != nil {
			c.anchors[v.Name.String()] = val
		}
		return val, nil
	case *ast.AliasNode:
		name := ""
		if v.Value != nil {
			name = v.Value.String()
		}
		val, ok := c.anchors[name]
		if !ok {
			return nil, c.errAt(n, "found undefined alias %q", name)
		}
		if err := c.count(n, c.size(val)); err != nil {
			return nil, err
		}
		return val, nil
	case *ast.TagNode:
		return c.tagged(v, depth)
	case *ast.MappingNode:
		return c.mapping(n, v.Values, depth)
	case *ast.MappingValueNode:
		return c.mapping(n, []*ast.MappingValueNode{v}, depth)
	case *ast.SequenceNode:
		if err := c.count(n, 1); err != nil {
			return nil, err
		}
		out := &Node{Kind: KindSeq, Line: line, Col: col}
		for _, it := range v.Values {
			x, err := c.convert(it, depth+1)
			if err != nil {
				return nil, err
			}
			out.Items = append(out.Items, x)
		}
		return out, nil
	case *ast.LiteralNode:
		if err := c.count(n, 1); err != nil {
			return nil, err
		}
		s := ""
		if v.Value != nil {
			s = v.Value.Value
		}
		return &Node{Kind: KindStr, Str: s, Line: line, Col: col}, nil
	case *ast.CommentGroupNode:
		return &Node{Kind: KindNull, Line: line, Col: col}, nil
	}
	if err := c.count(n, 1); err != nil {
		return nil, err
	}
	tk := n.GetToken()
	if tk == nil {
		return &Node{Kind: KindNull, Line: line, Col: col}, nil
	}
	switch tk.Type {
	case token.DoubleQuoteType, token.SingleQuoteType:
		return &Node{Kind: KindStr, Str: tk.Value, Line: line, Col: col}, nil
	case token.ImplicitNullType:
		return &Node{Kind: KindNull, Line: line, Col: col}, nil
	}
	if s, ok := n.(*ast.StringNode); ok && tk.Type != token.StringType {
		// Block scalars and other quoted forms are strings as written.
		return &Node{Kind: KindStr, Str: s.Value, Line: line, Col: col}, nil
	}
	if d := decimalDigits(tk.Value); d > PyMaxStrDigits {
		return nil, c.errAt(n, "%s", PyIntLimitError(d))
	}
	out := resolvePlain(tk.Value)
	out.Line, out.Col = line, col
	return out, nil
}

// PyMaxStrDigits is CPython's default sys.get_int_max_str_digits() (3.11 and
// later): int() of a decimal string with more digits raises ValueError, so
// yaml.safe_load and json.loads refuse such a file.
const PyMaxStrDigits = 4300

// PyIntLimitError is CPython's message for a decimal integer of digits digits
// (checked against CPython 3.11.7).
func PyIntLimitError(digits int) string {
	return fmt.Sprintf("ValueError: Exceeds the limit (%d digits) for integer string conversion: value has %d digits; use sys.set_int_max_str_digits() to increase the limit",
		PyMaxStrDigits, digits)
}

// decimalDigits counts the digits of a plain scalar PyYAML converts with int(s)
// in base 10 (not 0x, 0b, octal or sexagesimal, whose conversion has no limit);
// 0 for anything else. Underscores are dropped first, as construct_yaml_int does.
func decimalDigits(s string) int {
	if len(s) <= PyMaxStrDigits || !reInt.MatchString(s) {
		return 0
	}
	t := strings.TrimLeft(s, "+-")
	if strings.HasPrefix(t, "0") || strings.Contains(t, ":") {
		return 0
	}
	return len(t) - strings.Count(t, "_")
}

func (c *converter) mapping(n ast.Node, values []*ast.MappingValueNode, depth int) (*Node, error) {
	if err := c.count(n, 1); err != nil {
		return nil, err
	}
	line, col := pos(n)
	out := &Node{Kind: KindMap, Line: line, Col: col}
	var merged []Pair
	ix := keyIndex{}
	dups := 0
	for _, mv := range values {
		if mv == nil {
			continue
		}
		if _, ok := mv.Key.(*ast.MergeKeyNode); ok {
			ps, err := c.mergeSources(mv.Value, depth)
			if err != nil {
				return nil, err
			}
			merged = append(merged, ps...)
			continue
		}
		kn := ast.Node(mv.Key)
		if mk, ok := mv.Key.(*ast.MappingKeyNode); ok {
			kn = mk.Value
		}
		key, err := c.convert(kn, depth+1)
		if err != nil {
			return nil, err
		}
		if key.Kind == KindMap || key.Kind == KindSeq {
			return nil, c.errAt(kn, "found unhashable key")
		}
		val, err := c.convert(mv.Value, depth+1)
		if err != nil {
			return nil, err
		}
		kl, kc := pos(kn)
		if i := ix.find(out.Pairs, key); i >= 0 {
			if dups++; dups <= maxRepeatedWarnings {
				c.doc.Warnings = append(c.doc.Warnings, fmt.Sprintf("%s:%d: key %s is written twice (also line %d); like PyYAML, xcvr uses the last one",
					c.file, kl, key.Repr(), out.Pairs[i].KeyLine))
			}
			out.Pairs[i].Val = val
			out.Pairs[i].KeyLine, out.Pairs[i].KeyCol = kl, kc
			continue
		}
		ix.add(key, len(out.Pairs))
		out.Pairs = append(out.Pairs, Pair{Key: key, Val: val, KeyLine: kl, KeyCol: kc})
	}
	if dups > maxRepeatedWarnings {
		c.doc.Warnings = append(c.doc.Warnings, fmt.Sprintf("%s:%d: and %d more keys written twice in this mapping", c.file, line, dups-maxRepeatedWarnings))
	}
	// PyYAML's flatten_mapping puts merged entries first; explicit keys win.
	if len(merged) > 0 {
		var all []Pair
		seen := keyIndex{}
		for _, p := range merged {
			if ix.find(out.Pairs, p.Key) < 0 && seen.find(all, p.Key) < 0 {
				seen.add(p.Key, len(all))
				all = append(all, p)
			}
		}
		out.Pairs = append(all, out.Pairs...)
	}
	if len(out.Pairs) > 0 && out.Pairs[0].KeyLine > 0 {
		out.Line, out.Col = out.Pairs[0].KeyLine, out.Pairs[0].KeyCol
	}
	return out, nil
}

// mergeSources returns the entries a "<<" value contributes: a mapping, or a
// sequence of mappings where earlier ones win.
func (c *converter) mergeSources(v ast.Node, depth int) ([]Pair, error) {
	val, err := c.convert(v, depth+1)
	if err != nil {
		return nil, err
	}
	switch val.Kind {
	case KindMap:
		return val.Pairs, nil
	case KindSeq:
		var out []Pair
		ix := keyIndex{}
		for _, it := range val.Items {
			if it.Kind != KindMap {
				return nil, c.errAt(v, "expected a mapping for merging, but found %s", it.TypeName())
			}
			for _, p := range it.Pairs {
				if ix.find(out, p.Key) < 0 {
					ix.add(p.Key, len(out))
					out = append(out, p)
				}
			}
		}
		return out, nil
	}
	return nil, c.errAt(v, "expected a mapping or list of mappings for merging, but found %s", val.TypeName())
}

func indexKey(ps []Pair, k *Node) int {
	for i, p := range ps {
		if PyEqual(p.Key, k) && (p.Key.Kind == KindStr) == (k.Kind == KindStr) {
			return i
		}
	}
	return -1
}

// hashKey is a string equal for two keys exactly when Python's dict would treat
// them as the same key (1, 1.0 and True are one key), so that duplicate keys are
// found in linear time. ok is false for keys without one (NaN is never equal to
// itself, and collections cannot be keys).
func hashKey(k *Node) (string, bool) {
	switch k.Kind {
	case KindStr:
		return "s" + k.Str, true
	case KindDate:
		return "d" + k.Str, true
	case KindNull:
		return "n", true
	}
	if r, ok := k.number(); ok {
		return "#" + r.RatString(), true
	}
	if k.Kind == KindFloat && math.IsInf(k.Float, 0) {
		return "f" + PyFloat(k.Float), true
	}
	return "", false
}

// keyIndex finds keys in a mapping being built in constant time per key.
type keyIndex map[string]int

func (ix keyIndex) find(ps []Pair, k *Node) int {
	h, ok := hashKey(k)
	if !ok {
		return indexKey(ps, k)
	}
	if i, ok := ix[h]; ok {
		return i
	}
	return -1
}

func (ix keyIndex) add(k *Node, i int) {
	if h, ok := hashKey(k); ok {
		ix[h] = i
	}
}

func (c *converter) tagged(v *ast.TagNode, depth int) (*Node, error) {
	tag := ""
	if v.Start != nil {
		tag = v.Start.Value
	}
	val, err := c.convert(v.Value, depth)
	if err != nil {
		return nil, err
	}
	text := ""
	if v.Value != nil {
		if tk := v.Value.GetToken(); tk != nil {
			text = tk.Value
		}
	}
	switch tag {
	case "!!str", "tag:yaml.org,2002:str":
		if val.Kind == KindMap || val.Kind == KindSeq {
			return nil, c.errAt(v, "expected a scalar node for %s, but found a collection", tag)
		}
		if val.Kind == KindStr {
			return val, nil
		}
		return &Node{Kind: KindStr, Str: text, Line: val.Line, Col: val.Col}, nil
	case "!!int", "!!float", "!!bool", "!!null":
		want := map[string]Kind{"!!int": KindInt, "!!float": KindFloat, "!!bool": KindBool, "!!null": KindNull}[tag]
		if val.Kind == want || (want == KindFloat && val.Kind == KindInt) {
			if want == KindFloat && val.Kind == KindInt {
				f, _ := new(big.Float).SetInt(val.Int).Float64()
				return &Node{Kind: KindFloat, Float: f, Line: val.Line, Col: val.Col}, nil
			}
			return val, nil
		}
		return nil, c.errAt(v, "could not construct %s from %s", tag, PyRepr(text))
	case "!!map", "!!seq", "!!omap":
		return val, nil
	}
	return nil, c.errAt(v, "could not determine a constructor for the tag %s (yaml.safe_load refuses it)", PyRepr(tag))
}

// PyYAML's implicit resolvers (YAML 1.1), used for plain scalars.
var (
	reBool  = regexp.MustCompile(`^(?:yes|Yes|YES|no|No|NO|true|True|TRUE|false|False|FALSE|on|On|ON|off|Off|OFF)$`)
	reInt   = regexp.MustCompile(`^(?:[-+]?0b[0-1_]+|[-+]?0[0-7_]+|[-+]?(?:0|[1-9][0-9_]*)|[-+]?0x[0-9a-fA-F_]+|[-+]?[1-9][0-9_]*(?::[0-5]?[0-9])+)$`)
	reFloat = regexp.MustCompile(`^(?:[-+]?(?:[0-9][0-9_]*)\.[0-9_]*(?:[eE][-+][0-9]+)?|\.[0-9][0-9_]*(?:[eE][-+][0-9]+)?|[-+]?[0-9][0-9_]*(?::[0-5]?[0-9])+\.[0-9_]*|[-+]?\.(?:inf|Inf|INF)|\.(?:nan|NaN|NAN))$`)
	reNull  = regexp.MustCompile(`^(?:~|null|Null|NULL|)$`)
	reTime  = regexp.MustCompile(`^(?:[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]|[0-9][0-9][0-9][0-9]-[0-9][0-9]?-[0-9][0-9]?(?:[Tt]|[ \t]+)[0-9][0-9]?:[0-9][0-9]:[0-9][0-9](?:\.[0-9]*)?(?:[ \t]*(?:Z|[-+][0-9][0-9]?(?::[0-9][0-9])?))?)$`)
)

// resolvePlain types an unquoted scalar as PyYAML's SafeLoader does.
func resolvePlain(s string) *Node {
	if plainWord(s) {
		// Most plain scalars of a manifest (keys, names, images) are words
		// no implicit resolver can match: skip the regular expressions.
		return &Node{Kind: KindStr, Str: s}
	}
	switch {
	case reNull.MatchString(s):
		return &Node{Kind: KindNull}
	case reBool.MatchString(s):
		l := strings.ToLower(s)
		return &Node{Kind: KindBool, Bool: l == "yes" || l == "true" || l == "on"}
	case reInt.MatchString(s):
		if n, ok := pyInt(s); ok {
			return &Node{Kind: KindInt, Int: n}
		}
	case reFloat.MatchString(s):
		if f, ok := pyFloat(s); ok {
			return &Node{Kind: KindFloat, Float: f}
		}
	case reTime.MatchString(s):
		return &Node{Kind: KindDate, Str: s}
	}
	return &Node{Kind: KindStr, Str: s}
}

// plainWord reports whether s starts with a letter and is none of the YAML 1.1
// bool and null words: no other implicit resolver of PyYAML's can match it
// (ints, floats and timestamps start with a digit, a sign or '.').
func plainWord(s string) bool {
	if s == "" || !('a' <= s[0] && s[0] <= 'z' || 'A' <= s[0] && s[0] <= 'Z') {
		return false
	}
	if len(s) <= 5 {
		switch strings.ToLower(s) {
		case "yes", "no", "true", "false", "on", "off", "null":
			return false
		}
	}
	return true
}

// pyInt follows SafeConstructor.construct_yaml_int.
func pyInt(s string) (*big.Int, bool) {
	s = strings.ReplaceAll(s, "_", "")
	sign := ""
	if s != "" && (s[0] == '-' || s[0] == '+') {
		if s[0] == '-' {
			sign = "-"
		}
		s = s[1:]
	}
	n := new(big.Int)
	var ok bool
	switch {
	case s == "0":
		return n, true
	case strings.HasPrefix(s, "0b"):
		_, ok = n.SetString(sign+s[2:], 2)
	case strings.HasPrefix(s, "0x"):
		_, ok = n.SetString(sign+s[2:], 16)
	case strings.HasPrefix(s, "0"):
		_, ok = n.SetString(sign+s[1:], 8)
	case strings.Contains(s, ":"):
		n.SetInt64(0)
		for _, part := range strings.Split(s, ":") {
			d, err := strconv.ParseInt(part, 10, 64)
			if err != nil {
				return nil, false
			}
			n.Mul(n, big.NewInt(60))
			n.Add(n, big.NewInt(d))
		}
		if sign == "-" {
			n.Neg(n)
		}
		ok = true
	default:
		_, ok = n.SetString(sign+s, 10)
	}
	return n, ok
}

// pyFloat follows SafeConstructor.construct_yaml_float.
func pyFloat(s string) (float64, bool) {
	s = strings.ToLower(strings.ReplaceAll(s, "_", ""))
	sign := 1.0
	if s != "" && (s[0] == '-' || s[0] == '+') {
		if s[0] == '-' {
			sign = -1
		}
		s = s[1:]
	}
	switch {
	case s == ".inf":
		return sign * math.Inf(1), true
	case s == ".nan":
		return math.NaN(), true
	case strings.Contains(s, ":"):
		parts := strings.Split(s, ":")
		v := 0.0
		for _, p := range parts {
			d, err := strconv.ParseFloat(p, 64)
			if err != nil {
				return 0, false
			}
			v = v*60 + d
		}
		return sign * v, true
	}
	f, err := strconv.ParseFloat(s, 64)
	if err != nil && !strings.Contains(err.Error(), "range") {
		return 0, false
	}
	return sign * f, true
}

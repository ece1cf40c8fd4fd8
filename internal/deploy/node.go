package deploy

import (
	"errors"
	"fmt"
	"math"
	"math/big"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"unicode/utf8"

	"xcvr/internal/guard"
	"xcvr/internal/termsafe"
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
	// KindBytes is a Python bytes value (a !!binary scalar, base64-decoded); Str
	// holds the bytes.
	KindBytes
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
	case KindBytes:
		return "bytes"
	default:
		if strings.ContainsAny(n.Str, "Tt :") {
			return "datetime"
		}
		return "date"
	}
}

// Repr renders the value as Python's repr() would (pydantic's input_value). A
// repr longer than maxRepr bytes is returned as pydantic prints it (PyTruncate),
// its tail rendered on its own, so a hostile value costs no more than maxRepr.
func (n *Node) Repr() string {
	var b strings.Builder
	if n.repr(&b, 0) {
		return b.String()
	}
	head := b.String()
	if len(head) > 25 {
		head = head[:25]
	}
	return PyTruncate(head + strings.Repeat(" ", 50) + n.reprTail(24, 0))
}

// maxRepr bounds a full repr; longer ones are only shown truncated anyway.
const maxRepr = 4096

// repr writes n's repr into b and reports whether it fit in maxRepr bytes.
func (n *Node) repr(b *strings.Builder, depth int) bool {
	if b.Len() > maxRepr || depth > MaxDepth {
		return false
	}
	switch n.Kind {
	case KindSeq:
		b.WriteByte('[')
		for i, it := range n.Items {
			if i > 0 {
				b.WriteString(", ")
			}
			if !it.repr(b, depth+1) {
				return false
			}
		}
		b.WriteByte(']')
	case KindMap:
		b.WriteByte('{')
		for i, p := range n.Pairs {
			if i > 0 {
				b.WriteString(", ")
			}
			if !p.Key.repr(b, depth+1) {
				return false
			}
			b.WriteString(": ")
			if !p.Val.repr(b, depth+1) {
				return false
			}
		}
		b.WriteByte('}')
	default:
		b.WriteString(n.scalarRepr())
	}
	return b.Len() <= maxRepr
}

// reprTail returns at least the last k bytes of n's repr (all of it when
// shorter), rendering only the last entries of collections.
func (n *Node) reprTail(k, depth int) string {
	if depth > MaxDepth {
		return "..."
	}
	var open, closing string
	var parts []string
	total := 0
	add := func(s string) bool {
		parts = append(parts, s)
		total += len(s)
		return total >= k
	}
	switch n.Kind {
	case KindSeq:
		open, closing = "[", "]"
		for i := len(n.Items) - 1; i >= 0; i-- {
			sep := ""
			if i > 0 {
				sep = ", "
			}
			if add(sep + n.Items[i].reprTail(k-total, depth+1)) {
				break
			}
		}
	case KindMap:
		open, closing = "{", "}"
		for i := len(n.Pairs) - 1; i >= 0; i-- {
			sep := ""
			if i > 0 {
				sep = ", "
			}
			p := n.Pairs[i]
			v := p.Val.reprTail(k-total, depth+1)
			if add(sep + p.Key.reprTail(k-total-len(v)-2, depth+1) + ": " + v) {
				break
			}
		}
	default:
		s := n.scalarRepr()
		k = max(k, 0)
		if len(s) > k+4 {
			i := len(s) - k - 4
			for i > 0 && !utf8.RuneStart(s[i]) {
				i--
			}
			s = s[i:]
		}
		return s
	}
	var b strings.Builder
	b.WriteString(open)
	for i := len(parts) - 1; i >= 0; i-- {
		b.WriteString(parts[i])
	}
	b.WriteString(closing)
	return b.String()
}

// scalarRepr is the repr of a scalar node.
func (n *Node) scalarRepr() string {
	switch n.Kind {
	case KindNull:
		return "None"
	case KindBool:
		if n.Bool {
			return "True"
		}
		return "False"
	case KindInt:
		return n.Int.String()
	case KindFloat:
		return PyFloat(n.Float)
	case KindStr:
		return PyRepr(n.Str)
	case KindDate:
		return n.pyDateRepr()
	case KindBytes:
		return pyBytesRepr(n.Str)
	}
	return ""
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
	case KindStr, KindDate, KindBytes:
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
func ParseYAML(name string, data []byte) (*Doc, error) { return parseYAMLAt(name, data, 0) }

// parseYAMLAt is ParseYAML for a text that starts at line lineOff+1 of file
// name (a document of a stream): the lines of its errors are the file's.
func parseYAMLAt(name string, data []byte, lineOff int) (*Doc, error) {
	doc, err := parseYAML(name, data, lineOff)
	var ye *yamlpos.Error
	if err != nil && lineOff > 0 && !errors.As(err, new(pyYAMLFileError)) && errors.As(err, &ye) && ye.Line > 0 {
		ye.Line += lineOff
	}
	return doc, err
}

// pyYAMLFileError is a PyYAMLError as xcvr reports it: "FILE:LINE:COL:" at
// the problem's mark, then the exception as Python prints it.
type pyYAMLFileError struct{ e *yamlpos.Error }

func (e pyYAMLFileError) Error() string { return e.e.Error() }
func (e pyYAMLFileError) Unwrap() error { return e.e }

func pyYAMLFileErr(pe *PyYAMLError, prefix string) error {
	return termsafe.MultilineError{Err: pyYAMLFileError{&yamlpos.Error{File: termsafe.Line(pe.File), Line: pe.ProblemLine, Col: pe.ProblemCol,
		Msg: prefix + pe.Error()}}}
}

func parseYAML(name string, data []byte, lineOff int) (*Doc, error) {
	size := len(data)
	data, err := guard.Check(name, data, guard.YAMLLimits())
	if err != nil {
		return nil, err
	}
	if err := pyReaderError(name, data, len(data) < size); err != nil {
		return nil, err
	}
	// PyYAML's scanner, parser and composer decide whether the text is YAML
	// at all, and which error it gets; the composed nodes are what
	// SafeConstructor builds the values from.
	root, pe := pyYAMLCompose(name, string(data), lineOff)
	if pe != nil {
		return nil, pyYAMLFileErr(pe, "")
	}
	doc := &Doc{File: name}
	if root == nil || root.empty {
		return doc, nil
	}
	c := &pyConstructor{file: name, doc: doc}
	v, err := c.construct(root, 0)
	if err != nil {
		return nil, err
	}
	doc.Root = v
	return doc, nil
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
	if len(s) <= PyMaxStrDigits || !reInt().MatchString(s) {
		return 0
	}
	t := strings.TrimLeft(s, "+-")
	if strings.HasPrefix(t, "0") || strings.Contains(t, ":") {
		return 0
	}
	return len(t) - strings.Count(t, "_")
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
func hashKey(k *Node) (dictKey, bool) {
	switch k.Kind {
	case KindStr:
		return dictKey{'s', k.Str}, true
	case KindDate:
		return dictKey{'d', k.Str}, true
	case KindBytes:
		return dictKey{'b', k.Str}, true
	case KindNull:
		return dictKey{'n', ""}, true
	}
	if r, ok := k.number(); ok {
		return dictKey{'#', r.RatString()}, true
	}
	if k.Kind == KindFloat && math.IsInf(k.Float, 0) {
		return dictKey{'f', PyFloat(k.Float)}, true
	}
	return dictKey{}, false
}

// dictKey is hashKey's value: a kind and a text, kept apart so that a string
// key (most of them) needs no new string.
type dictKey struct {
	kind byte
	text string
}

// keyIndex finds keys in a mapping being built in constant time per key.
type keyIndex map[dictKey]int

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

// longTag spells a "!!x" shorthand as PyYAML names it in errors.
func longTag(tag string) string {
	if rest, ok := strings.CutPrefix(tag, "!!"); ok {
		return "tag:yaml.org,2002:" + rest
	}
	return tag
}

// PyYAML's implicit resolvers (YAML 1.1), used for plain scalars.
var (
	reBool = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`^(?:yes|Yes|YES|no|No|NO|true|True|TRUE|false|False|FALSE|on|On|ON|off|Off|OFF)$`)
	})
	reInt = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`^(?:[-+]?0b[0-1_]+|[-+]?0[0-7_]+|[-+]?(?:0|[1-9][0-9_]*)|[-+]?0x[0-9a-fA-F_]+|[-+]?[1-9][0-9_]*(?::[0-5]?[0-9])+)$`)
	})
	reFloat = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`^(?:[-+]?(?:[0-9][0-9_]*)\.[0-9_]*(?:[eE][-+][0-9]+)?|\.[0-9][0-9_]*(?:[eE][-+][0-9]+)?|[-+]?[0-9][0-9_]*(?::[0-5]?[0-9])+\.[0-9_]*|[-+]?\.(?:inf|Inf|INF)|\.(?:nan|NaN|NAN))$`)
	})
	reNull = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^(?:~|null|Null|NULL|)$`) })
	reTime = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`^(?:[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]|[0-9][0-9][0-9][0-9]-[0-9][0-9]?-[0-9][0-9]?(?:[Tt]|[ \t]+)[0-9][0-9]?:[0-9][0-9]:[0-9][0-9](?:\.[0-9]*)?(?:[ \t]*(?:Z|[-+][0-9][0-9]?(?::[0-9][0-9])?))?)$`)
	})
)

// resolvePlain types an unquoted scalar as PyYAML's SafeLoader does.
func resolvePlain(s string) *Node {
	if !mayResolve(s) {
		// Most plain scalars of a manifest (keys, names, images, paths,
		// flags) no implicit resolver can match: skip the regular expressions.
		return &Node{Kind: KindStr, Str: s}
	}
	switch {
	case reNull().MatchString(s):
		return &Node{Kind: KindNull}
	case reBool().MatchString(s):
		l := strings.ToLower(s)
		return &Node{Kind: KindBool, Bool: l == "yes" || l == "true" || l == "on"}
	case reInt().MatchString(s):
		if n, ok := pyInt(s); ok {
			return &Node{Kind: KindInt, Int: n}
		}
	case reFloat().MatchString(s):
		if f, ok := pyFloat(s); ok {
			return &Node{Kind: KindFloat, Float: f}
		}
	case reTime().MatchString(s):
		return &Node{Kind: KindDate, Str: s}
	}
	return &Node{Kind: KindStr, Str: s}
}

// mayResolve reports whether an implicit resolver other than str's could claim
// the plain scalar s. Each of the patterns above can only match a scalar that
// starts with one of a few characters (PyYAML registers them by first
// character too): null "", '~' or a letter; bool a letter; int, float and
// timestamp a digit, a sign or '.'. Anything else is a string without running
// them.
func mayResolve(s string) bool {
	if s == "" {
		return true
	}
	switch c := s[0]; {
	case '0' <= c && c <= '9', c == '-', c == '+', c == '.', c == '~':
		return true
	case 'a' <= c && c <= 'z', 'A' <= c && c <= 'Z':
		return !plainWord(s)
	}
	return false
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
			d, ok := new(big.Int).SetString(part, 10)
			if !ok {
				return nil, false
			}
			n.Mul(n, big.NewInt(60))
			n.Add(n, d)
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
		// construct_yaml_float sums from the last part up (value += d*base,
		// base *= 60), whose rounding differs from Horner's.
		parts := strings.Split(s, ":")
		v, base := 0.0, 1.0
		for i := len(parts) - 1; i >= 0; i-- {
			d, err := strconv.ParseFloat(parts[i], 64)
			if err != nil {
				return 0, false
			}
			v += d * base
			base *= 60
		}
		return sign * v, true
	}
	f, err := strconv.ParseFloat(s, 64)
	if err != nil && !strings.Contains(err.Error(), "range") {
		return 0, false
	}
	return sign * f, true
}

package deploy

import (
	"fmt"
	"strings"

	"xcvr/internal/yamlpos"
)

// The values of a document, as yaml.safe_load builds them: the PyYAML port's
// composer (Composer.compose_node) builds the node graph from the parser's
// events, and construct builds xcvr's Nodes from it as SafeConstructor does,
// with PyYAML's YAML 1.1 resolvers (resolvePlain) and constructors
// (constructTagged). go-yaml is not involved, so every text PyYAML composes
// is read, and read as PyYAML reads it: a '?' or "k:v" in a flow collection,
// an anchor on an empty key, NEL, LS and PS line breaks, tabs in a block
// scalar's lines, the '!' tag on a quoted scalar.

// pyNode is a composed node: a scalar, sequence or mapping (kind is the
// event kind that started it).
type pyNode struct {
	kind     evKind
	tag      string
	implicit bool
	value    string
	empty    bool
	start    pyMark
	at       pyMark
	items    []*pyNode
	pairs    [][2]*pyNode
	// anchored: the node has an anchor, so aliases can reach it again.
	anchored bool
}

// composeNode is Composer.compose_node: anchors are registered when their
// node starts, so an alias inside the node it names composes (a recursive
// structure, which construct refuses).
func (p *pyParser) composeNode(anchors map[string]*pyNode) *pyNode {
	ev := p.getEvent()
	if ev.kind == evAlias {
		n, ok := anchors[ev.anchor]
		if !ok {
			p.sc.raise("", nil, "found undefined alias "+PyRepr(ev.anchor), ev.start, PyComposerError)
		}
		return n
	}
	if ev.hasAnchor {
		if first, ok := anchors[ev.anchor]; ok {
			p.sc.raise(fmt.Sprintf("found duplicate anchor %s; first occurrence", PyRepr(ev.anchor)), &first.start,
				"second occurrence", ev.start, PyComposerError)
		}
	}
	n := &pyNode{kind: ev.kind, tag: ev.tag, implicit: ev.implicit, value: ev.value, empty: ev.empty && !ev.hasAnchor,
		start: ev.start, at: ev.at, anchored: ev.hasAnchor}
	if ev.hasAnchor {
		anchors[ev.anchor] = n
	}
	switch ev.kind {
	case evSeqStart:
		for !p.checkEvent(evSeqEnd) {
			n.items = append(n.items, p.composeNode(anchors))
		}
		p.getEvent()
	case evMapStart:
		for !p.checkEvent(evMapEnd) {
			k := p.composeNode(anchors)
			v := p.composeNode(anchors)
			n.pairs = append(n.pairs, [2]*pyNode{k, v})
		}
		p.getEvent()
	}
	return n
}

// pyConstructor builds Nodes from composed nodes (SafeConstructor).
type pyConstructor struct {
	file string
	doc  *Doc
	// built and building hold anchored nodes only, the ones an alias can
	// reach: built their values, building the collections being constructed
	// (an alias to one of them is a recursive structure). Made on the first
	// anchor: most documents have none.
	built    map[*pyNode]*Node
	building map[*pyNode]bool
	sizes    map[*Node]int
	total    int
}

func (c *pyConstructor) errAt(m pyMark, format string, args ...any) error {
	return &yamlpos.Error{File: c.file, Line: m.line + 1, Col: m.col + 1, Msg: fmt.Sprintf(format, args...)}
}

// count adds k values to the document's expanded size and refuses past
// MaxNodes; only aliases can get there, since the pre-scan bounds what is
// written.
func (c *pyConstructor) count(m pyMark, k int) error {
	c.total += k
	if c.total > MaxNodes {
		return c.errAt(m, "refused: the aliases expand the document to more than %d values (an alias bomb)", MaxNodes)
	}
	return nil
}

// size is the number of values v stands for when every alias is expanded.
func (c *pyConstructor) size(v *Node) int {
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

const yamlTagPrefix = "tag:yaml.org,2002:"

// shortTag spells a standard tag as "!!x", as constructTagged names them.
func shortTag(tag string) string {
	if rest, ok := strings.CutPrefix(tag, yamlTagPrefix); ok {
		return "!!" + rest
	}
	return tag
}

// resolvedTag is the tag the resolver gives a node without an explicit one
// (Resolver.resolve), as "!!x".
func (n *pyNode) resolvedTag() string {
	switch {
	case n.kind == evSeqStart && n.implicit:
		return "!!seq"
	case n.kind == evMapStart && n.implicit:
		return "!!map"
	case n.kind == evScalar && n.implicit:
		switch v := n.matchValue(); {
		case v == "<<":
			return "!!merge"
		case v == "=":
			return "!!value"
		case v == "!" || v == "&" || v == "*":
			// The yaml resolver, which only a quoted scalar tagged '!' can
			// reach: plain scalars cannot start with these.
			return "!!yaml"
		}
		return "" // the implicit resolvers: resolvePlain
	case n.kind == evScalar && n.tag == "":
		return "!!str"
	}
	return shortTag(n.tag)
}

// matchValue is the value as the resolvers' regexps see it: Python's '$'
// also matches before a final line break, which only a quoted or block
// scalar tagged '!' can end with.
func (n *pyNode) matchValue() string {
	if n.tag == "!" {
		return strings.TrimSuffix(n.value, "\n")
	}
	return n.value
}

func (c *pyConstructor) construct(n *pyNode, depth int) (*Node, error) {
	if depth > MaxDepth {
		return nil, c.errAt(n.start, "refused: nested deeper than %d levels", MaxDepth)
	}
	if !n.anchored {
		// Composed once: no alias reaches it.
		return c.constructNew(n, depth)
	}
	if v, ok := c.built[n]; ok {
		// An alias: the same value again.
		if err := c.count(n.start, c.size(v)); err != nil {
			return nil, err
		}
		return v, nil
	}
	if c.building[n] {
		return nil, c.errAt(n.start, "refused: an alias refers to the collection that holds it (a recursive structure, which no TensorRT-LLM field takes)")
	}
	if c.built == nil {
		c.built, c.building, c.sizes = map[*pyNode]*Node{}, map[*pyNode]bool{}, map[*Node]int{}
	}
	v, err := c.constructNew(n, depth)
	if err != nil {
		return nil, err
	}
	c.built[n] = v
	return v, nil
}

// enter marks an anchored collection as being constructed; the func it
// returns unmarks it.
func (c *pyConstructor) enter(n *pyNode) func() {
	if !n.anchored {
		return func() {}
	}
	c.building[n] = true
	return func() { delete(c.building, n) }
}

// nodeKind names a node's kind as PyYAML's constructor errors do.
func nodeKind(k evKind) string {
	switch k {
	case evScalar:
		return "scalar"
	case evSeqStart:
		return "sequence"
	case evMapStart:
		return "mapping"
	}
	return ""
}

func (c *pyConstructor) constructNew(n *pyNode, depth int) (*Node, error) {
	line, col := n.at.line+1, n.at.col+1
	tag := n.resolvedTag()
	kind := nodeKind(n.kind)
	switch tag {
	case "!!set", "!!omap", "!!pairs":
		return nil, c.errAt(n.start, "%s: PyYAML builds a Python %s here, which no TensorRT-LLM field takes; xcvr does not read it",
			tag, map[string]string{"!!set": "set", "!!omap": "list of pairs", "!!pairs": "list of pairs"}[tag])
	case "!!seq":
		if n.kind != evSeqStart {
			return nil, c.errAt(n.start, "yaml.constructor.ConstructorError: expected a sequence node, but found %s", kind)
		}
		if err := c.count(n.start, 1); err != nil {
			return nil, err
		}
		defer c.enter(n)()
		out := &Node{Kind: KindSeq, Line: line, Col: col, Items: make([]*Node, 0, len(n.items))}
		for _, it := range n.items {
			x, err := c.construct(it, depth+1)
			if err != nil {
				return nil, err
			}
			out.Items = append(out.Items, x)
		}
		return out, nil
	case "!!map":
		if n.kind != evMapStart {
			return nil, c.errAt(n.start, "yaml.constructor.ConstructorError: expected a mapping node, but found %s", kind)
		}
		defer c.enter(n)()
		return c.mapping(n, depth)
	}
	if n.kind != evScalar {
		if tag == "!!str" || tag == "!!int" || tag == "!!float" || tag == "!!bool" || tag == "!!null" || tag == "!!binary" || tag == "!!timestamp" {
			return nil, c.errAt(n.start, "yaml.constructor.ConstructorError: expected a scalar node, but found %s", kind)
		}
		return nil, c.errAt(n.start, "yaml.constructor.ConstructorError: could not determine a constructor for the tag %s", PyRepr(longTag(tag)))
	}
	if err := c.count(n.start, 1); err != nil {
		return nil, err
	}
	switch tag {
	case "":
		return c.plain(n)
	case "!!merge", "!!value", "!!yaml":
		// The merge and value resolvers claim "<<" and "=" anywhere;
		// SafeLoader constructs neither outside a mapping's key, nor the
		// yaml resolver's '!', '&' and '*'.
		return nil, c.errAt(n.start, "yaml.constructor.ConstructorError: could not determine a constructor for the tag '%s%s'", yamlTagPrefix, tag[2:])
	case "!!str", "!!int", "!!float", "!!bool", "!!null", "!!binary", "!!timestamp":
		if tag == "!!str" {
			return &Node{Kind: KindStr, Str: n.value, Line: line, Col: col}, nil
		}
		if tag == "!!int" {
			if d := decimalDigits(n.value); d > PyMaxStrDigits {
				return nil, c.errAt(n.start, "%s", PyIntLimitError(d))
			}
		}
		out, exc := constructTagged(tag, n.value)
		if out == nil {
			return nil, c.errAt(n.start, "%s (constructing %s %s)", exc, tag, PyRepr(n.value))
		}
		out.Line, out.Col = line, col
		return out, nil
	}
	return nil, c.errAt(n.start, "yaml.constructor.ConstructorError: could not determine a constructor for the tag %s", PyRepr(longTag(tag)))
}

// plain constructs a scalar the implicit resolvers type (a plain scalar, an
// empty one, or one tagged '!').
func (c *pyConstructor) plain(n *pyNode) (*Node, error) {
	s := n.value
	if core := n.matchValue(); core != s {
		// Resolved by "value\n" matching the regexp, constructed from the
		// whole value: int() and float() strip the break, a bool's lookup
		// does not.
		out, exc := resolvePlain(core), ""
		switch out.Kind {
		case KindStr:
			out.Str = s
		case KindBool:
			out, exc = nil, "KeyError: "+PyRepr(strings.ToLower(s))
		case KindInt:
			out, exc = constructInt(s)
		case KindFloat:
			out, exc = constructFloat(s)
		case KindDate:
			if _, _, err := pyTimestamp(core); err != nil {
				out, exc = nil, err.Error()
			}
		}
		if out == nil {
			return nil, c.errAt(n.start, "%s (constructing %s)", exc, PyRepr(s))
		}
		out.Line, out.Col = n.at.line+1, n.at.col+1
		return out, nil
	}
	if d := decimalDigits(s); d > PyMaxStrDigits {
		return nil, c.errAt(n.start, "%s", PyIntLimitError(d))
	}
	if mayResolve(s) && !reNull().MatchString(s) && !reBool().MatchString(s) && reInt().MatchString(s) {
		if _, ok := pyInt(s); !ok {
			// The int resolver claims it ("0b_", "0x_"), and int() of what is
			// left raises: PyYAML refuses the file.
			_, exc := constructInt(s)
			return nil, c.errAt(n.start, "%s (constructing the int %s)", exc, PyRepr(s))
		}
	}
	out := resolvePlain(s)
	if out.Kind == KindDate {
		// construct_yaml_timestamp raises on a day that does not exist.
		if _, _, err := pyTimestamp(out.Str); err != nil {
			return nil, c.errAt(n.start, "%v (constructing the timestamp %s)", err, PyRepr(out.Str))
		}
	}
	out.Line, out.Col = n.at.line+1, n.at.col+1
	return out, nil
}

// mapping is construct_mapping after flatten_mapping: the merged entries come
// before the explicit ones, and the dict keeps each key where it was first
// inserted with the last value.
func (c *pyConstructor) mapping(n *pyNode, depth int) (*Node, error) {
	if err := c.count(n.start, 1); err != nil {
		return nil, err
	}
	line, col := n.at.line+1, n.at.col+1
	out := &Node{Kind: KindMap, Line: line, Col: col}
	var ix lazyIndex
	put := func(p Pair) {
		if i := ix.find(out.Pairs, p.Key); i >= 0 {
			out.Pairs[i].Val = p.Val
			out.Pairs[i].KeyLine, out.Pairs[i].KeyCol = p.KeyLine, p.KeyCol
			return
		}
		ix.add(p.Key, len(out.Pairs))
		out.Pairs = append(out.Pairs, p)
	}
	var explicit [][2]*pyNode
	for _, kv := range n.pairs {
		if kv[0].kind == evScalar && kv[0].resolvedTag() == "!!merge" {
			ps, err := c.mergeSources(kv[1], depth)
			if err != nil {
				return nil, err
			}
			for _, p := range ps {
				put(p)
			}
			continue
		}
		explicit = append(explicit, kv)
	}
	var seen lazyIndex
	var firsts []Pair // explicit keys only, for the duplicate warning
	dups := 0
	for _, kv := range explicit {
		kn := kv[0]
		var key *Node
		var err error
		if kn.kind == evScalar && kn.resolvedTag() == "!!value" {
			// flatten_mapping makes a "=" key a str.
			key = &Node{Kind: KindStr, Str: kn.value, Line: kn.at.line + 1, Col: kn.at.col + 1}
			err = c.count(kn.start, 1)
		} else {
			key, err = c.construct(kn, depth+1)
		}
		if err != nil {
			return nil, err
		}
		if key.Kind == KindMap || key.Kind == KindSeq {
			return nil, c.errAt(kn.start, "found unhashable key")
		}
		val, err := c.construct(kv[1], depth+1)
		if err != nil {
			return nil, err
		}
		kl, kc := kn.at.line+1, kn.at.col+1
		if i := seen.find(firsts, key); i >= 0 {
			if dups++; dups <= maxRepeatedWarnings {
				c.doc.Warnings = append(c.doc.Warnings, fmt.Sprintf("%s:%d: key %s is written twice (also line %d); like PyYAML, xcvr uses the last one",
					c.file, kl, key.Repr(), firsts[i].KeyLine))
			}
			firsts[i].KeyLine = kl
		} else {
			seen.add(key, len(firsts))
			firsts = append(firsts, Pair{Key: key, KeyLine: kl})
		}
		put(Pair{Key: key, Val: val, KeyLine: kl, KeyCol: kc})
	}
	if dups > maxRepeatedWarnings {
		c.doc.Warnings = append(c.doc.Warnings, fmt.Sprintf("%s:%d: and %d more keys written twice in this mapping", c.file, line, dups-maxRepeatedWarnings))
	}
	if len(out.Pairs) > 0 && out.Pairs[0].KeyLine > 0 {
		out.Line, out.Col = out.Pairs[0].KeyLine, out.Pairs[0].KeyCol
	}
	return out, nil
}

// mergeSources returns the entries a "<<" value contributes: a mapping, or a
// sequence of mappings where earlier ones win (flatten_mapping reverses the
// list, so the first mapping's values are inserted last and win, while the
// last mapping's keys come first).
func (c *pyConstructor) mergeSources(v *pyNode, depth int) ([]Pair, error) {
	val, err := c.construct(v, depth+1)
	if err != nil {
		return nil, err
	}
	switch {
	case v.kind == evMapStart && val.Kind == KindMap:
		return val.Pairs, nil
	case v.kind == evSeqStart && val.Kind == KindSeq:
		var out []Pair
		for i := len(val.Items) - 1; i >= 0; i-- {
			it := val.Items[i]
			if it.Kind != KindMap {
				return nil, c.errAt(v.items[i].start, "expected a mapping for merging, but found %s", it.TypeName())
			}
			out = append(out, it.Pairs...)
		}
		return out, nil
	}
	return nil, c.errAt(v.start, "expected a mapping or list of mappings for merging, but found %s", val.TypeName())
}

// lazyIndex is a keyIndex of a mapping being built, made only once the
// mapping has lazyScan keys: most mappings have a few, which a scan finds for
// less than a map costs to make.
type lazyIndex struct{ m keyIndex }

const lazyScan = 8

// find is keyIndex.find for the keys of ps (each added when appended).
func (l *lazyIndex) find(ps []Pair, k *Node) int {
	if l.m == nil {
		if len(ps) < lazyScan {
			h, ok := hashKey(k)
			if !ok {
				return indexKey(ps, k)
			}
			for i := range ps {
				if h2, ok := hashKey(ps[i].Key); ok && h2 == h {
					return i
				}
			}
			return -1
		}
		l.m = keyIndex{}
		for i := range ps {
			l.m.add(ps[i].Key, i)
		}
	}
	return l.m.find(ps, k)
}

// add records that ps[i] (of the ps find was last given) holds k.
func (l *lazyIndex) add(k *Node, i int) {
	if l.m != nil {
		l.m.add(k, i)
	}
}

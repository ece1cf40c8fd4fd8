package deploy

import (
	"fmt"
	"sync"
)

type evKind uint8

const (
	evStreamStart evKind = iota
	evStreamEnd
	evDocStart
	evDocEnd
	evAlias
	evScalar
	evSeqStart
	evSeqEnd
	evMapStart
	evMapEnd
)

type pyEvent struct {
	kind      evKind
	anchor    string
	hasAnchor bool
	start     pyMark
	// at is the mark of the node's content (its scalar or collection start
	// token), which xcvr reports as the value's place; start includes a tag
	// or an anchor before it.
	at pyMark
	// tag is the node's resolved tag ("" none, "!" the non-specific tag);
	// implicit is the scalar's implicit[0]: resolve it by its value. value
	// is a scalar's value; empty marks the empty scalar the parser makes up.
	tag      string
	implicit bool
	value    string
	empty    bool
}

// pState names the Parser method PyYAML keeps in self.state.
type pState uint8

const (
	psNone pState = iota
	psStreamStart
	psImplicitDocStart
	psDocStart
	psDocEnd
	psDocContent
	psBlockNode
	psBlockSeqFirst
	psBlockSeqEntry
	psIndentlessSeqEntry
	psBlockMapFirstKey
	psBlockMapKey
	psBlockMapValue
	psFlowSeqFirst
	psFlowSeqEntry
	psFlowSeqEntryMapKey
	psFlowSeqEntryMapValue
	psFlowSeqEntryMapEnd
	psFlowMapFirstKey
	psFlowMapKey
	psFlowMapValue
	psFlowMapEmptyValue
)

// pyParser is PyYAML's Parser (yaml/parser.py, 6.0) over pyScanner: the same
// states, the same errors at the same marks, the same events.
type pyParser struct {
	sc      *pyScanner
	state   pState
	states  []pState
	marks   []pyMark
	current pyEvent
	cached  bool
	// handles are the document's TAG handles besides '!' and '!!', which
	// every document has, with their prefixes.
	handles map[string]string
}

func (p *pyParser) parseErr(context string, ctx *pyMark, problem string, at pyMark) {
	p.sc.raise(context, ctx, problem, at, PyParserError)
}

func (p *pyParser) checkEvent(kind evKind) bool {
	ev, ok := p.peekEvent()
	return ok && ev.kind == kind
}

func (p *pyParser) peekEvent() (pyEvent, bool) {
	if !p.cached && p.state != psNone {
		p.current, p.cached = p.step(), true
	}
	return p.current, p.cached
}

func (p *pyParser) getEvent() pyEvent {
	ev, _ := p.peekEvent()
	p.cached = false
	return ev
}

func (p *pyParser) pop() pState {
	s := p.states[len(p.states)-1]
	p.states = p.states[:len(p.states)-1]
	return s
}

func (p *pyParser) popMark() {
	p.marks = p.marks[:len(p.marks)-1]
}

func (p *pyParser) lastMark() *pyMark {
	m := p.marks[len(p.marks)-1]
	return &m
}

func tokRepr(t pyToken) string { return "'" + tokID[t.kind] + "'" }

func empty(m pyMark) pyEvent {
	return pyEvent{kind: evScalar, start: m, at: m, implicit: true, empty: true}
}

func (p *pyParser) step() pyEvent {
	sc := p.sc
	switch p.state {
	case psStreamStart:
		t := sc.getToken()
		p.state = psImplicitDocStart
		return pyEvent{kind: evStreamStart, start: t.start}
	case psImplicitDocStart:
		if !sc.checkToken(tDirective, tDocStart, tStreamEnd) {
			p.handles = nil
			t := sc.peekToken()
			p.states = append(p.states, psDocEnd)
			p.state = psBlockNode
			return pyEvent{kind: evDocStart, start: t.start}
		}
		return p.parseDocumentStart()
	case psDocStart:
		return p.parseDocumentStart()
	case psDocEnd:
		t := sc.peekToken()
		if sc.checkToken(tDocEnd) {
			sc.getToken()
		}
		p.state = psDocStart
		return pyEvent{kind: evDocEnd, start: t.start}
	case psDocContent:
		if sc.checkToken(tDirective, tDocStart, tDocEnd, tStreamEnd) {
			ev := empty(sc.peekToken().start)
			p.state = p.pop()
			return ev
		}
		return p.parseNode(true, false)
	case psBlockNode:
		return p.parseNode(true, false)
	case psBlockSeqFirst:
		t := sc.getToken()
		p.marks = append(p.marks, t.start)
		return p.blockSeqEntry()
	case psBlockSeqEntry:
		return p.blockSeqEntry()
	case psIndentlessSeqEntry:
		if sc.checkToken(tBlockEntry) {
			t := sc.getToken()
			if !sc.checkToken(tBlockEntry, tKey, tValue, tBlockEnd) {
				p.states = append(p.states, psIndentlessSeqEntry)
				return p.parseNode(true, false)
			}
			p.state = psIndentlessSeqEntry
			return empty(t.end)
		}
		t := sc.peekToken()
		p.state = p.pop()
		return pyEvent{kind: evSeqEnd, start: t.start}
	case psBlockMapFirstKey:
		t := sc.getToken()
		p.marks = append(p.marks, t.start)
		return p.blockMapKey()
	case psBlockMapKey:
		return p.blockMapKey()
	case psBlockMapValue:
		if sc.checkToken(tValue) {
			t := sc.getToken()
			if !sc.checkToken(tKey, tValue, tBlockEnd) {
				p.states = append(p.states, psBlockMapKey)
				return p.parseNode(true, true)
			}
			p.state = psBlockMapKey
			return empty(t.end)
		}
		p.state = psBlockMapKey
		return empty(sc.peekToken().start)
	case psFlowSeqFirst:
		t := sc.getToken()
		p.marks = append(p.marks, t.start)
		return p.flowSeqEntry(true)
	case psFlowSeqEntry:
		return p.flowSeqEntry(false)
	case psFlowSeqEntryMapKey:
		t := sc.getToken()
		if !sc.checkToken(tValue, tFlowEntry, tFlowSeqEnd) {
			p.states = append(p.states, psFlowSeqEntryMapValue)
			return p.parseNode(false, false)
		}
		p.state = psFlowSeqEntryMapValue
		return empty(t.end)
	case psFlowSeqEntryMapValue:
		if sc.checkToken(tValue) {
			t := sc.getToken()
			if !sc.checkToken(tFlowEntry, tFlowSeqEnd) {
				p.states = append(p.states, psFlowSeqEntryMapEnd)
				return p.parseNode(false, false)
			}
			p.state = psFlowSeqEntryMapEnd
			return empty(t.end)
		}
		p.state = psFlowSeqEntryMapEnd
		return empty(sc.peekToken().start)
	case psFlowSeqEntryMapEnd:
		p.state = psFlowSeqEntry
		return pyEvent{kind: evMapEnd, start: sc.peekToken().start}
	case psFlowMapFirstKey:
		t := sc.getToken()
		p.marks = append(p.marks, t.start)
		return p.flowMapKey(true)
	case psFlowMapKey:
		return p.flowMapKey(false)
	case psFlowMapValue:
		if sc.checkToken(tValue) {
			t := sc.getToken()
			if !sc.checkToken(tFlowEntry, tFlowMapEnd) {
				p.states = append(p.states, psFlowMapKey)
				return p.parseNode(false, false)
			}
			p.state = psFlowMapKey
			return empty(t.end)
		}
		p.state = psFlowMapKey
		return empty(sc.peekToken().start)
	case psFlowMapEmptyValue:
		p.state = psFlowMapKey
		return empty(sc.peekToken().start)
	}
	panic(fmt.Sprintf("pyParser: state %d", p.state))
}

func (p *pyParser) parseDocumentStart() pyEvent {
	sc := p.sc
	for sc.checkToken(tDocEnd) {
		sc.getToken()
	}
	if sc.checkToken(tStreamEnd) {
		t := sc.getToken()
		p.state = psNone
		return pyEvent{kind: evStreamEnd, start: t.start}
	}
	start := sc.peekToken().start
	p.processDirectives()
	if !sc.checkToken(tDocStart) {
		t := sc.peekToken()
		p.parseErr("", nil, "expected '<document start>', but found "+tokRepr(t), t.start)
	}
	sc.getToken()
	p.states = append(p.states, psDocEnd)
	p.state = psDocContent
	return pyEvent{kind: evDocStart, start: start}
}

func (p *pyParser) processDirectives() {
	sc := p.sc
	version := false
	p.handles = nil
	for sc.checkToken(tDirective) {
		t := sc.getToken()
		switch t.value {
		case "YAML":
			if version {
				p.parseErr("", nil, "found duplicate YAML directive", t.start)
			}
			if !t.versionOne {
				p.parseErr("", nil, "found incompatible YAML document (version 1.* is required)", t.start)
			}
			version = true
		case "TAG":
			if _, ok := p.handles[t.tagHandle]; ok {
				p.parseErr("", nil, "duplicate tag handle "+PyRepr(t.tagHandle), t.start)
			}
			if p.handles == nil {
				p.handles = map[string]string{}
			}
			p.handles[t.tagHandle] = t.tagPrefix
		}
	}
}

func (p *pyParser) parseNode(block, indentlessSequence bool) pyEvent {
	sc := p.sc
	if sc.checkToken(tAlias) {
		t := sc.getToken()
		p.state = p.pop()
		return pyEvent{kind: evAlias, anchor: t.value, hasAnchor: true, start: t.start}
	}
	var ev pyEvent
	var tag *pyToken
	var start, tagMark *pyMark
	if sc.checkToken(tAnchor) {
		t := sc.getToken()
		start = &t.start
		ev.anchor, ev.hasAnchor = t.value, true
		if sc.checkToken(tTag) {
			tt := sc.getToken()
			tagMark, tag = &tt.start, &tt
		}
	} else if sc.checkToken(tTag) {
		tt := sc.getToken()
		start, tagMark, tag = &tt.start, &tt.start, &tt
		if sc.checkToken(tAnchor) {
			t := sc.getToken()
			ev.anchor, ev.hasAnchor = t.value, true
		}
	}
	if tag != nil {
		ev.tag = tag.sval
		if tag.hasHandle {
			prefix, ok := p.handles[tag.value]
			switch {
			case tag.value == "!!" && !ok:
				prefix = "tag:yaml.org,2002:"
			case tag.value == "!" && !ok:
				prefix = "!"
			case !ok:
				p.parseErr("while parsing a node", start, "found undefined tag handle "+PyRepr(tag.value), *tagMark)
			}
			ev.tag = prefix + tag.sval
		}
	}
	if start == nil {
		m := sc.peekToken().start
		start = &m
	}
	ev.start = *start
	ev.at = sc.peekToken().start
	ev.implicit = ev.tag == "" || ev.tag == "!"
	if indentlessSequence && sc.checkToken(tBlockEntry) {
		ev.kind = evSeqStart
		p.state = psIndentlessSeqEntry
		return ev
	}
	switch {
	case sc.checkToken(tScalar):
		t := sc.getToken()
		ev.kind = evScalar
		ev.value = t.sval
		// A quoted or block scalar is a str unless tagged '!'.
		ev.implicit = (t.plain && ev.tag == "") || ev.tag == "!"
		p.state = p.pop()
	case sc.checkToken(tFlowSeqStart):
		ev.kind = evSeqStart
		p.state = psFlowSeqFirst
	case sc.checkToken(tFlowMapStart):
		ev.kind = evMapStart
		p.state = psFlowMapFirstKey
	case block && sc.checkToken(tBlockSeqStart):
		ev.kind = evSeqStart
		p.state = psBlockSeqFirst
	case block && sc.checkToken(tBlockMapStart):
		ev.kind = evMapStart
		p.state = psBlockMapFirstKey
	case ev.hasAnchor || tag != nil:
		ev.kind = evScalar
		ev.at = ev.start
		p.state = p.pop()
	default:
		node := "flow"
		if block {
			node = "block"
		}
		t := sc.peekToken()
		p.parseErr("while parsing a "+node+" node", start, "expected the node content, but found "+tokRepr(t), t.start)
	}
	return ev
}

func (p *pyParser) blockSeqEntry() pyEvent {
	sc := p.sc
	if sc.checkToken(tBlockEntry) {
		t := sc.getToken()
		if !sc.checkToken(tBlockEntry, tBlockEnd) {
			p.states = append(p.states, psBlockSeqEntry)
			return p.parseNode(true, false)
		}
		p.state = psBlockSeqEntry
		return empty(t.end)
	}
	if !sc.checkToken(tBlockEnd) {
		t := sc.peekToken()
		p.parseErr("while parsing a block collection", p.lastMark(), "expected <block end>, but found "+tokRepr(t), t.start)
	}
	t := sc.getToken()
	p.state = p.pop()
	p.popMark()
	return pyEvent{kind: evSeqEnd, start: t.start}
}

func (p *pyParser) blockMapKey() pyEvent {
	sc := p.sc
	if sc.checkToken(tKey) {
		t := sc.getToken()
		if !sc.checkToken(tKey, tValue, tBlockEnd) {
			p.states = append(p.states, psBlockMapValue)
			return p.parseNode(true, true)
		}
		p.state = psBlockMapValue
		return empty(t.end)
	}
	if !sc.checkToken(tBlockEnd) {
		t := sc.peekToken()
		p.parseErr("while parsing a block mapping", p.lastMark(), "expected <block end>, but found "+tokRepr(t), t.start)
	}
	t := sc.getToken()
	p.state = p.pop()
	p.popMark()
	return pyEvent{kind: evMapEnd, start: t.start}
}

func (p *pyParser) flowSeqEntry(first bool) pyEvent {
	sc := p.sc
	if !sc.checkToken(tFlowSeqEnd) {
		if !first {
			if sc.checkToken(tFlowEntry) {
				sc.getToken()
			} else {
				t := sc.peekToken()
				p.parseErr("while parsing a flow sequence", p.lastMark(), "expected ',' or ']', but got "+tokRepr(t), t.start)
			}
		}
		if sc.checkToken(tKey) {
			t := sc.peekToken()
			p.state = psFlowSeqEntryMapKey
			return pyEvent{kind: evMapStart, start: t.start, at: t.start, implicit: true}
		} else if !sc.checkToken(tFlowSeqEnd) {
			p.states = append(p.states, psFlowSeqEntry)
			return p.parseNode(false, false)
		}
	}
	t := sc.getToken()
	p.state = p.pop()
	p.popMark()
	return pyEvent{kind: evSeqEnd, start: t.start}
}

func (p *pyParser) flowMapKey(first bool) pyEvent {
	sc := p.sc
	if !sc.checkToken(tFlowMapEnd) {
		if !first {
			if sc.checkToken(tFlowEntry) {
				sc.getToken()
			} else {
				t := sc.peekToken()
				p.parseErr("while parsing a flow mapping", p.lastMark(), "expected ',' or '}', but got "+tokRepr(t), t.start)
			}
		}
		if sc.checkToken(tKey) {
			t := sc.getToken()
			if !sc.checkToken(tValue, tFlowEntry, tFlowMapEnd) {
				p.states = append(p.states, psFlowMapValue)
				return p.parseNode(false, false)
			}
			p.state = psFlowMapValue
			return empty(t.end)
		} else if !sc.checkToken(tFlowMapEnd) {
			p.states = append(p.states, psFlowMapEmptyValue)
			return p.parseNode(false, false)
		}
	}
	t := sc.getToken()
	p.state = p.pop()
	p.popMark()
	return pyEvent{kind: evMapEnd, start: t.start}
}

// PyYAMLLoad runs what yaml.safe_load runs on text before it constructs a
// value — PyYAML's scanner, parser and composer (get_single_node) — and returns
// the first error it raises, nil when the text composes. Construction errors
// (tags, ints, timestamps) are ParseYAML's. The Reader's check for
// non-printable characters is not done here (pyReaderError does it first).
func PyYAMLLoad(file, text string) *PyYAMLError {
	_, err := pyYAMLCompose(file, text, 0)
	return err
}

// pyYAMLCompose is PyYAMLLoad for a text that starts at file line lineOff+1;
// it also returns the single document's root node, nil for none.
func pyYAMLCompose(file, text string, lineOff int) (root *pyNode, err *PyYAMLError) {
	defer func() {
		if r := recover(); r != nil {
			pr, ok := r.(pyRaise)
			if !ok {
				panic(r)
			}
			err = pr.err
		}
	}()
	sc := newPyScanner(file, text, lineOff)
	// The token queue: taken from tokenPool, given back when the text is read.
	q := tokenPool.Get().(*[]pyToken)
	sc.q = append((*q)[:0], sc.q...)
	defer func() {
		clear(sc.q[:cap(sc.q)])
		*q = sc.q[:0]
		tokenPool.Put(q)
	}()
	p := &pyParser{sc: sc, state: psStreamStart}
	return p.composeSingle(), nil
}

// tokenPool holds the scanners' token queues, which grow to the most tokens a
// text has waiting at once (a possible simple key holds them back) and are
// empty again when it is read.
var tokenPool = sync.Pool{New: func() any { return new([]pyToken) }}

// composeSingle is Composer.get_single_node.
func (p *pyParser) composeSingle() *pyNode {
	p.getEvent() // STREAM-START
	var root *pyNode
	if !p.checkEvent(evStreamEnd) {
		p.getEvent() // DOCUMENT-START
		root = p.composeNode(map[string]*pyNode{})
		p.getEvent() // DOCUMENT-END
	}
	if !p.checkEvent(evStreamEnd) {
		ev := p.getEvent()
		p.sc.raise("expected a single document in the stream", &root.start, "but found another document", ev.start, PyComposerError)
	}
	p.getEvent()
	return root
}

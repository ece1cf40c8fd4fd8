package deploy

import "fmt"

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
// states, the same errors at the same marks, events without values.
type pyParser struct {
	sc      *pyScanner
	state   pState
	states  []pState
	marks   []pyMark
	current pyEvent
	cached  bool
	// handles are the document's TAG handles besides '!' and '!!', which
	// every document has.
	handles map[string]bool
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

func empty(m pyMark) pyEvent { return pyEvent{kind: evScalar, start: m} }

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
			if p.handles[t.tagHandle] {
				p.parseErr("", nil, "duplicate tag handle "+PyRepr(t.tagHandle), t.start)
			}
			if p.handles == nil {
				p.handles = map[string]bool{}
			}
			p.handles[t.tagHandle] = true
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
	if tag != nil && tag.hasHandle && tag.value != "!" && tag.value != "!!" && !p.handles[tag.value] {
		p.parseErr("while parsing a node", start, "found undefined tag handle "+PyRepr(tag.value), *tagMark)
	}
	if start == nil {
		m := sc.peekToken().start
		start = &m
	}
	ev.start = *start
	if indentlessSequence && sc.checkToken(tBlockEntry) {
		ev.kind = evSeqStart
		p.state = psIndentlessSeqEntry
		return ev
	}
	switch {
	case sc.checkToken(tScalar):
		sc.getToken()
		ev.kind = evScalar
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
			return pyEvent{kind: evMapStart, start: t.start}
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
	_, err := pyYAMLLoad(file, text, 0)
	return err
}

// pyYAMLLoad is PyYAMLLoad for a text that starts at file line lineOff+1; it
// also returns the byte offsets of the raw tabs inside double-quoted scalars.
func pyYAMLLoad(file, text string, lineOff int) (quotedTabs []int, err *PyYAMLError) {
	defer func() {
		if r := recover(); r != nil {
			pr, ok := r.(pyRaise)
			if !ok {
				panic(r)
			}
			err = pr.err
		}
	}()
	p := &pyParser{sc: newPyScanner(file, text, lineOff), state: psStreamStart}
	p.composeSingle()
	return p.sc.quotedTabs, nil
}

// composeSingle is Composer.get_single_node without building nodes: it
// follows the events, checking aliases and anchors as compose_node does.
func (p *pyParser) composeSingle() {
	p.getEvent() // STREAM-START
	var root *pyMark
	if !p.checkEvent(evStreamEnd) {
		m := p.composeDocument()
		root = &m
	}
	if !p.checkEvent(evStreamEnd) {
		ev := p.getEvent()
		p.sc.raise("expected a single document in the stream", root, "but found another document", ev.start, PyComposerError)
	}
	p.getEvent()
}

// composeDocument composes one document and returns its root node's mark.
func (p *pyParser) composeDocument() pyMark {
	p.getEvent() // DOCUMENT-START
	var anchors map[string]pyMark
	var root pyMark
	depth := 0
	for {
		ev := p.getEvent()
		if depth == 0 {
			root = ev.start
		}
		switch ev.kind {
		case evAlias:
			if _, ok := anchors[ev.anchor]; !ok {
				p.sc.raise("", nil, "found undefined alias "+PyRepr(ev.anchor), ev.start, PyComposerError)
			}
		case evSeqEnd, evMapEnd:
			depth--
		default:
			if ev.hasAnchor {
				if first, ok := anchors[ev.anchor]; ok {
					p.sc.raise(fmt.Sprintf("found duplicate anchor %s; first occurrence", PyRepr(ev.anchor)), &first,
						"second occurrence", ev.start, PyComposerError)
				}
				if anchors == nil {
					anchors = map[string]pyMark{}
				}
				anchors[ev.anchor] = ev.start
			}
			if ev.kind == evSeqStart || ev.kind == evMapStart {
				depth++
			}
		}
		if depth == 0 {
			break
		}
	}
	p.getEvent() // DOCUMENT-END
	return root
}

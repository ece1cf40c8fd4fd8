package deploy

import (
	"bytes"
	"regexp"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
)

// DocAt is one document of a multi-document YAML stream (a Kubernetes manifest,
// kubectl get -o yaml output), with its values' lines counted in the whole file.
type DocAt struct {
	// Root is the document's value; nil for an empty document.
	Root *Node
	// Line is the file line the document starts on.
	Line int
	// Item is true for one entry of a kubectl List's items, read on its own.
	Item bool
	// Skipped is true for a document the caller chose not to parse.
	Skipped bool
	// Warnings are PyYAML-silent surprises (a key written twice), with file lines.
	Warnings []string
}

// ParseYAMLDocs reads every document of a YAML stream the way yaml.safe_load_all
// would, each through the same reader (and guard) as a worker YAML. Documents are
// split at their "---" and "..." markers, which YAML only allows at column 0 and
// never inside a scalar's content, and a kubectl List's block-style items are each
// read as a document of their own: real streams hold thousands of objects, and one
// object at a time keeps the work linear and every object within the limits one
// configuration file gets. Lines in values and errors are the file's.
func ParseYAMLDocs(name string, data []byte) ([]DocAt, error) {
	return ParseYAMLDocsSkip(name, data, nil)
}

// ParseYAMLDocsSkip is ParseYAMLDocs that leaves unparsed each document (or
// List item) whose text skip accepts: it is returned with a nil Root and
// Skipped set, so callers that know from the text alone that an object changes
// nothing (a Pod its controller already counts) need not pay for its parse.
func ParseYAMLDocsSkip(name string, data []byte, skip func(text []byte) bool) ([]DocAt, error) {
	type job struct {
		text  []byte
		line  int
		item  bool
		whole bool // a document read whole: dropped when empty
	}
	var jobs []job
	for _, chunk := range splitDocs(data) {
		items, ok := listItems(chunk.text)
		if !ok {
			jobs = append(jobs, job{text: chunk.text, line: chunk.line, whole: true})
			continue
		}
		for _, it := range items {
			jobs = append(jobs, job{text: it.text, line: chunk.line + it.line - 1, item: true})
		}
	}
	// Documents are independent: parse them on every core, keep their order.
	docs := make([]DocAt, len(jobs))
	errs := make([]error, len(jobs))
	var wg sync.WaitGroup
	next := atomic.Int64{}
	for range min(runtime.GOMAXPROCS(0), max(len(jobs)/16, 1)) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				i := int(next.Add(1) - 1)
				if i >= len(jobs) {
					return
				}
				if skip != nil && skip(jobs[i].text) {
					docs[i] = DocAt{Line: jobs[i].line, Item: jobs[i].item, Skipped: true}
					continue
				}
				docs[i], errs[i] = parseAt(name, jobs[i].text, jobs[i].line)
				docs[i].Item = jobs[i].item
			}
		}()
	}
	wg.Wait()
	var out []DocAt
	for i, d := range docs {
		if errs[i] != nil {
			return nil, errs[i]
		}
		if jobs[i].whole && d.Root == nil && len(d.Warnings) == 0 && !d.Skipped {
			continue
		}
		out = append(out, d)
	}
	return out, nil
}

type textChunk struct {
	text []byte
	line int // 1-based line of text's first line in the whole
}

// splitDocs cuts data at document markers. A "--- X" line opens a document whose
// first line is X, with the marker blanked so columns are kept.
func splitDocs(data []byte) []textChunk {
	var out []textChunk
	start, startLine, open := 0, 1, false
	var first []byte // a "--- X" line's X, columns kept
	closeAt := func(end int) {
		if !open {
			return
		}
		text := data[start:end]
		if first != nil {
			text = append(first, text...)
		}
		out = append(out, textChunk{text: text, line: startLine})
	}
	line := 1
	for i := 0; i < len(data); line++ {
		next := len(data)
		if j := bytes.IndexByte(data[i:], '\n'); j >= 0 {
			next = i + j + 1
		}
		body := bytes.TrimRight(data[i:next], "\r\n")
		switch {
		case isMarker(body, "---"):
			closeAt(i)
			start, startLine, open, first = next, line+1, true, nil
			if rest := body[3:]; len(bytes.TrimSpace(rest)) > 0 {
				first = append(append([]byte("   "), rest...), '\n')
				startLine = line
			}
		case isMarker(body, "..."):
			closeAt(i)
			open, first = false, nil
		default:
			if !open {
				start, startLine, open, first = i, line, true, nil
			}
		}
		i = next
	}
	closeAt(len(data))
	return out
}

func isMarker(l []byte, m string) bool {
	l = bytes.TrimSuffix(l, []byte("\r"))
	return bytes.HasPrefix(l, []byte(m)) && (len(l) == 3 || l[3] == ' ' || l[3] == '\t')
}

// listItems splits a kubectl List document (a column-0 "items:" followed by a
// block sequence of mappings at column 0 or 2) into one text per item, dedented so
// the item is a document of its own. ok is false for anything else, which is then
// read whole.
func listItems(doc []byte) ([]textChunk, bool) {
	lines := bytes.SplitAfter(doc, []byte("\n"))
	isList := false
	for _, l := range lines {
		if t := bytes.TrimRight(l, " \t\r\n"); bytes.Equal(t, []byte("kind: List")) {
			isList = true
			break
		}
	}
	if !isList {
		return nil, false
	}
	at := -1
	for i, l := range lines {
		if bytes.Equal(bytes.TrimRight(l, " \t\r\n"), []byte("items:")) {
			at = i
			break
		}
	}
	if at < 0 {
		return nil, false
	}
	ind := -1
	var out []textChunk
	var cur []byte
	curLine := 0
	flush := func() {
		if cur != nil {
			out = append(out, textChunk{text: cur, line: curLine})
			cur = nil
		}
	}
	for i := at + 1; i < len(lines); i++ {
		l := lines[i]
		t := bytes.TrimLeft(l, " ")
		n := len(l) - len(t)
		blank := len(bytes.TrimSpace(l)) == 0 || t[0] == '#'
		if blank {
			if cur != nil {
				cur = append(cur, '\n')
			}
			continue
		}
		if ind < 0 {
			if !bytes.HasPrefix(t, []byte("- ")) || (n != 0 && n != 2) {
				return nil, false
			}
			ind = n
		}
		switch {
		case n == ind && bytes.HasPrefix(t, []byte("- ")):
			flush()
			curLine = i + 1
			cur = append(append(cur, bytes.Repeat([]byte(" "), ind+2)...), t[2:]...)
			cur = dedentLine(cur, ind+2)
		case n > ind && cur != nil:
			cur = append(cur, dedentLine(append([]byte(nil), l...), ind+2)...)
		case n < ind || (n == ind && !bytes.HasPrefix(t, []byte("-"))):
			// Back at the List's own keys (kind:, metadata:).
			flush()
			return out, true
		default:
			return nil, false
		}
	}
	flush()
	return out, true
}

// dedentLine drops up to k leading spaces of a line; lines of block scalars
// are indented deeper than the item, so their content is kept.
func dedentLine(l []byte, k int) []byte {
	n := 0
	for n < k && n < len(l) && l[n] == ' ' {
		n++
	}
	return l[n:]
}

// parseAt parses one document whose first line is file line first.
func parseAt(name string, text []byte, first int) (DocAt, error) {
	doc, err := parseYAMLAt(name, text, first-1)
	if err != nil {
		return DocAt{}, err
	}
	d := DocAt{Root: doc.Root, Line: first}
	if first > 1 {
		var seen map[*Node]bool
		if bytes.IndexByte(text, '*') >= 0 {
			// Aliases share nodes: shift each once.
			seen = map[*Node]bool{}
		}
		shiftNode(doc.Root, first-1, seen)
		for _, w := range doc.Warnings {
			d.Warnings = append(d.Warnings, shiftWarning(name, w, first-1))
		}
	} else {
		d.Warnings = doc.Warnings
	}
	return d, nil
}

// shiftNode adds off to every line of n; a node shared through an alias is
// shifted once.
func shiftNode(n *Node, off int, seen map[*Node]bool) {
	if n == nil || seen[n] {
		return
	}
	if seen != nil {
		seen[n] = true
	}
	if n.Line > 0 {
		n.Line += off
	}
	for _, it := range n.Items {
		shiftNode(it, off, seen)
	}
	for i := range n.Pairs {
		if n.Pairs[i].KeyLine > 0 {
			n.Pairs[i].KeyLine += off
		}
		shiftNode(n.Pairs[i].Key, off, seen)
		shiftNode(n.Pairs[i].Val, off, seen)
	}
}

var reWarnLine = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`(^|also line |: )([0-9]+)([:)])`) })

// shiftWarning moves the line numbers of a reader warning ("FILE:12: ... (also
// line 9)") by off.
func shiftWarning(name, w string, off int) string {
	rest, ok := strings.CutPrefix(w, name+":")
	if !ok {
		return w
	}
	return name + ":" + reWarnLine().ReplaceAllStringFunc(rest, func(m string) string {
		sub := reWarnLine().FindStringSubmatch(m)
		n, _ := strconv.Atoi(sub[2])
		return sub[1] + strconv.Itoa(n+off) + sub[3]
	})
}

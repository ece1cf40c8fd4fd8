package audit

import (
	"bytes"
	"strings"
)

// ownedPods returns a skip function for the documents of one input: a Pod
// whose ownerReferences name a controller that is itself in the input (as
// kubectl get deploy,pod prints them) is counted by that controller, so its
// text need not be parsed. The test is on kubectl's own layout (top-level
// "kind:", "metadata:" with "name:" and "ownerReferences:" entries); anything
// else is parsed as usual.
func ownedPods(data []byte) func([]byte) bool {
	// A first pass over the documents' text: the controllers' kind/name.
	controllers := map[string]bool{}
	for _, doc := range splitTexts(data) {
		kind, name, _ := header(doc)
		if kind != "" && kind != "Pod" && name != "" {
			controllers[kind+"/"+name] = true
		}
	}
	if len(controllers) == 0 {
		return nil
	}
	return func(text []byte) bool {
		kind, _, owners := header(text)
		if kind != "Pod" || len(owners) == 0 {
			return false
		}
		for _, o := range owners {
			k, n, _ := strings.Cut(o, "/")
			if controllers[o] {
				return true
			}
			if k == "ReplicaSet" {
				if i := strings.LastIndexByte(n, '-'); i > 0 && controllers["Deployment/"+n[:i]] {
					return true
				}
			}
		}
		return false
	}
}

// splitTexts cuts data into the texts ParseYAMLDocs reads one at a time,
// without parsing them: each List item, or each document.
func splitTexts(data []byte) [][]byte {
	var out [][]byte
	start := 0
	for off := 0; off < len(data); {
		end := len(data)
		if i := bytes.IndexByte(data[off:], '\n'); i >= 0 {
			end = off + i + 1
		}
		t := bytes.TrimRight(data[off:end], "\r\n")
		if bytes.HasPrefix(t, []byte("- ")) || bytes.Equal(t, []byte("---")) {
			out = append(out, data[start:off])
			start = off
		}
		off = end
	}
	return append(out, data[start:])
}

// header reads kubectl's layout of an object's text (a List item, "- " or
// dedented): its top-level kind, metadata.name and ownerReferences'
// kind/name. Lines are compared after dropping the item's own indent. It
// reads every document of an input, so it works on the bytes and makes
// strings only of what it returns.
func header(text []byte) (kind, name string, owners []string) {
	base := -1
	inMeta, inOwners := false, false
	ownerKind, ownerName := "", ""
	flush := func() {
		if ownerKind != "" && ownerName != "" {
			owners = append(owners, ownerKind+"/"+ownerName)
		}
		ownerKind, ownerName = "", ""
	}
	cut := func(b []byte, prefix string) (string, bool) {
		if v, ok := bytes.CutPrefix(b, []byte(prefix)); ok {
			return string(v), true
		}
		return "", false
	}
	for len(text) > 0 {
		l := text
		if i := bytes.IndexByte(text, '\n'); i >= 0 {
			l, text = text[:i], text[i+1:]
		} else {
			text = nil
		}
		t := bytes.TrimRight(l, "\r ")
		if body := bytes.TrimSpace(t); len(body) == 0 || body[0] == '#' {
			continue
		}
		// A "- " opening the item counts as two spaces of indent.
		lead := 0
		if bytes.HasPrefix(t, []byte("- ")) {
			t, lead = t[2:], 2
		}
		ind := lead + len(t) - len(bytes.TrimLeft(t, " "))
		body := bytes.TrimSpace(t)
		if base < 0 {
			base = ind
		}
		rel := ind - base
		switch {
		case rel == 0:
			inMeta = string(body) == "metadata:"
			inOwners = false
			if v, ok := cut(body, "kind: "); ok {
				kind = v
			}
		case inOwners && rel == 2 && bytes.HasPrefix(body, []byte("- ")):
			flush()
			body = body[2:]
			fallthrough
		case inOwners && rel == 4:
			if v, ok := cut(body, "kind: "); ok {
				ownerKind = v
			}
			if v, ok := cut(body, "name: "); ok {
				ownerName = v
			}
		case inMeta && rel == 2:
			inOwners = string(body) == "ownerReferences:"
			if v, ok := cut(body, "name: "); ok {
				name = v
			}
		}
	}
	flush()
	return kind, name, owners
}

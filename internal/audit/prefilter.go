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
	lines := bytes.SplitAfter(data, []byte("\n"))
	off := 0
	for _, l := range lines {
		t := bytes.TrimRight(l, "\r\n")
		if bytes.HasPrefix(t, []byte("- ")) || bytes.Equal(t, []byte("---")) {
			out = append(out, data[start:off])
			start = off
		}
		off += len(l)
	}
	return append(out, data[start:])
}

// header reads kubectl's layout of an object's text (a List item, "- " or
// dedented): its top-level kind, metadata.name and ownerReferences'
// kind/name. Lines are compared after dropping the item's own indent.
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
	for _, l := range bytes.Split(text, []byte("\n")) {
		t := strings.TrimRight(string(l), "\r ")
		if strings.TrimSpace(t) == "" || strings.HasPrefix(strings.TrimSpace(t), "#") {
			continue
		}
		if strings.HasPrefix(t, "- ") {
			t = "  " + t[2:]
		}
		ind := len(t) - len(strings.TrimLeft(t, " "))
		if base < 0 {
			base = ind
		}
		rel := ind - base
		body := strings.TrimSpace(t)
		switch {
		case rel == 0:
			inMeta = body == "metadata:"
			inOwners = false
			if v, ok := strings.CutPrefix(body, "kind: "); ok {
				kind = v
			}
		case inOwners && rel == 2 && strings.HasPrefix(body, "- "):
			flush()
			body = strings.TrimPrefix(body, "- ")
			fallthrough
		case inOwners && rel == 4:
			if v, ok := strings.CutPrefix(body, "kind: "); ok {
				ownerKind = v
			}
			if v, ok := strings.CutPrefix(body, "name: "); ok {
				ownerName = v
			}
		case inMeta && rel == 2:
			inOwners = body == "ownerReferences:"
			if v, ok := strings.CutPrefix(body, "name: "); ok {
				name = v
			}
		case false:
			if v, ok := strings.CutPrefix(body, "kind: "); ok {
				ownerKind = v
			}
			if v, ok := strings.CutPrefix(body, "name: "); ok {
				ownerName = v
			}
		}
	}
	flush()
	return kind, name, owners
}

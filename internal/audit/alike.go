package audit

import (
	"fmt"
	"sort"
	"strings"

	"xcvr/internal/report"
)

// Dynamo's recipe directories hold rendered near-copies of one
// DynamoGraphDeployment (deploy-<provider>.yaml beside
// kustomize/base/deploy.yaml): a comment, an image tag, a namespace or an
// annotation differs. Their bytes differ, so each is a deployment of its
// own (copies.go shows only identical files once), its workers told apart
// by path; listed so, an operator cannot see that they resolve the same.
// Deployments of one name whose workers resolve alike, worker for worker,
// are said to be so, once, with what their files differ in; nothing is
// merged or left out.

// Alike is deployments of one name whose workers resolve alike.
type Alike struct {
	// Name is their object's (or file's) name.
	Name string
	// Deployments are their labels ("FILE Kind/name"), Paths as much of
	// their files' paths as tells them apart.
	Deployments, Paths []string
	// Differs says what their files differ in ("the image (A vs B)",
	// "1 comment line"); empty when nothing (one file).
	Differs []string
}

// alikeWhy is the sentence for the text and the JSON.
func alikeWhy(a Alike) string {
	what := "differing in nothing xcvr reads"
	if len(a.Differs) > 0 {
		what = "their files differing only in " + andList(a.Differs)
	}
	return fmt.Sprintf("the same deployment (%s), %s; their workers resolve alike (the same roles, counts, inputs, transceiver, backend and KV-cache manager)", a.Name, what)
}

func andList(xs []string) string {
	if len(xs) < 2 {
		return strings.Join(xs, "")
	}
	return strings.Join(xs[:len(xs)-1], ", ") + " and " + xs[len(xs)-1]
}

// resolvedAs is what a worker's outcome is, without where it is written:
// its name (before groupNames), role, count, inputs' values, outcome,
// transceiver, backend and KV-cache manager.
func resolvedAs(e Entry) string {
	w := e.Worker
	name := w.Name
	if w.base != "" {
		name = w.base
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%s\x00%s\x00%d\x00%s", name, w.Role, w.Count, w.CommandError)
	if e.Err != "" {
		b.WriteString("\x00error " + e.Err)
		return b.String()
	}
	j := report.Explain(e.Trace)
	for _, p := range []*string{j.ResolvedRuntime, j.EffectiveBackend, j.TransceiverClass, j.KVCacheManager, j.Error} {
		s := "-"
		if p != nil {
			s = *p
		}
		b.WriteString("\x00" + s)
	}
	b.WriteString("\x00" + j.Outcome)
	keys := make([]string, 0, len(j.Inputs))
	for k := range j.Inputs {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		fmt.Fprintf(&b, "\x00%s=%v", k, j.Inputs[k].Value)
	}
	return b.String()
}

// alike finds, among the deployments names (parts their entries), those of
// one name whose workers resolve alike; files are the inputs' bytes.
func alike(names []string, parts [][]Entry, files map[string][]byte) []Alike {
	var out []Alike
	var named []int
	for i, g := range names {
		if g != "" {
			named = append(named, i)
		}
	}
	for _, idx := range groupInOrder(named, func(i int) string { return shortGroup(names[i]) }) {
		if len(idx) < 2 {
			continue
		}
		short := shortGroup(names[idx[0]])
		same := groupInOrder(idx, func(i int) string {
			var sig []string
			for _, e := range parts[i] {
				sig = append(sig, resolvedAs(e))
			}
			sort.Strings(sig)
			return strings.Join(sig, "\x01")
		})
		for _, is := range same {
			if len(is) < 2 {
				continue
			}
			a := Alike{Name: short}
			var fs []string
			for _, i := range is {
				a.Deployments = append(a.Deployments, names[i])
				fs = append(fs, groupFile(names[i]))
			}
			a.Paths = distinctTails(fs)
			a.Differs = fileDiffs(fs, files)
			out = append(out, a)
		}
	}
	return out
}

// groupInOrder groups is by key, the groups in the order of their first
// member, each member in is's order.
func groupInOrder(is []int, key func(int) string) [][]int {
	var groups [][]int
	at := map[string]int{}
	for _, i := range is {
		k := key(i)
		g, ok := at[k]
		if !ok {
			g = len(groups)
			at[k] = g
			groups = append(groups, nil)
		}
		groups[g] = append(groups[g], i)
	}
	return groups
}

// fileDiffs says what the files fs differ in from the first of them, line
// by line (as multisets): image lines (with the images), namespace lines
// (with the namespaces), comments, and the other lines' count.
func fileDiffs(fs []string, files map[string][]byte) []string {
	var images, namespaces []string
	seen := map[string]bool{}
	comments, other := 0, 0
	add := func(list *[]string, v string) {
		if !seen[v] {
			seen[v] = true
			*list = append(*list, v)
		}
	}
	value := func(l, key string) (string, bool) {
		l = strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(l), "- "))
		v, ok := strings.CutPrefix(l, key+":")
		return strings.Trim(strings.TrimSpace(v), `"'`), ok
	}
	for _, f := range fs[1:] {
		if f == fs[0] {
			continue
		}
		onlyA, onlyB := lineDiff(files[fs[0]], files[f])
		counts := [2][3]int{}
		for side, ls := range [][]string{onlyA, onlyB} {
			for _, l := range ls {
				if v, ok := value(l, "image"); ok {
					add(&images, "\x00i"+v)
					counts[side][0]++
				} else if v, ok := value(l, "namespace"); ok {
					add(&namespaces, "\x00n"+v)
					counts[side][0]++
				} else if strings.HasPrefix(strings.TrimSpace(l), "#") {
					counts[side][1]++
				} else {
					counts[side][2]++
				}
			}
		}
		comments += max(counts[0][1], counts[1][1])
		other += max(counts[0][2], counts[1][2])
	}
	var out []string
	strip := func(xs []string) []string {
		for i := range xs {
			xs[i] = xs[i][2:]
		}
		return xs
	}
	if len(images) > 0 {
		out = append(out, imageDiff(strip(images)))
	}
	if len(namespaces) > 0 {
		out = append(out, "the namespace ("+strings.Join(strip(namespaces), " vs ")+")")
	}
	if comments > 0 {
		out = append(out, plural(comments, "comment line"))
	}
	if other > 0 {
		out = append(out, plural(other, "other line"))
	}
	return out
}

func plural(n int, s string) string {
	if n == 1 {
		return "1 " + s
	}
	return fmt.Sprintf("%d %ss", n, s)
}

// lineDiff is the lines of a not in b and of b not in a, as multisets.
func lineDiff(a, b []byte) (onlyA, onlyB []string) {
	n := map[string]int{}
	la := strings.Split(string(a), "\n")
	lb := strings.Split(string(b), "\n")
	for _, l := range la {
		n[strings.TrimRight(l, "\r")]++
	}
	for _, l := range lb {
		l = strings.TrimRight(l, "\r")
		if n[l] > 0 {
			n[l]--
		} else {
			onlyB = append(onlyB, l)
		}
	}
	m := map[string]int{}
	for _, l := range lb {
		m[strings.TrimRight(l, "\r")]++
	}
	for _, l := range la {
		l = strings.TrimRight(l, "\r")
		if m[l] > 0 {
			m[l]--
		} else {
			onlyA = append(onlyA, l)
		}
	}
	return onlyA, onlyB
}

// imageDiff names the images two files differ in: their tags when that
// is all ("the image tag of REPO (1.3.1.post1 vs 1.3.1)").
func imageDiff(images []string) string {
	repo, _ := imageRef(images[0])
	var tags []string
	for _, im := range images {
		r, tag := imageRef(im)
		if r != repo || tag == "" {
			return "the image (" + strings.Join(images, " vs ") + ")"
		}
		tags = append(tags, tag)
	}
	return "the image tag of " + repo + " (" + strings.Join(tags, " vs ") + ")"
}

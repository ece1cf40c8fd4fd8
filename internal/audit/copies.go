package audit

import (
	"fmt"
	"path"
	"slices"
	"strings"
)

// A repository checkout often holds one deployment twice: a recipe's
// deploy.yaml next to the kustomize/base/deploy.yaml it is rendered from
// or copied to, the same manifest vendored under two directories, a
// launch script copied beside another. Audited as a directory, each copy
// was a deployment of its own, with the same names in the table (or, for
// a DynamoGraphDeployment whose ConfigMap both copies define, one
// deployment with every count doubled). An operator applies one of them:
// a copy whose file has the same bytes as another's and whose workers are
// the same is said once, with where its copies are; two files that differ
// are two deployments, their workers told apart by path (groupNames).

// Copy is a deployment read twice: Source is the copy left out, SameAs the
// one shown (a file, or "FILE Kind/name" for an object of it).
type Copy struct {
	Source, SameAs string
	// Workers counts the worker configurations left out.
	Workers int
}

// unit is what a worker is a copy as part of: its deployment (Group) when
// it has one, else its file.
func unit(w *Worker) string {
	if w.Group != "" {
		return w.Group
	}
	if w.top != "" {
		return w.top
	}
	return w.Source.File
}

// fingerprint is what a worker's outcome depends on, without where it is
// written: two copies' workers have the same one.
func fingerprint(w *Worker) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s\x00%s\x00%d\x00%d\x00%s\x00%s\x00%s\x00%s\x00%s\x00%s\x00%s", w.Name, w.Role, w.Count, w.Source.Line, w.Source.Kind,
		w.Model, w.ServedModel, w.ServeBackend, w.Image, w.CommandError, w.Config)
	for _, e := range w.Env {
		b.WriteString("\x00" + e.Name + "=" + e.Value)
	}
	if o := w.Overlay; o != nil {
		for _, s := range []any{o.Backend, o.Runtime, o.TimeoutMS, o.Pipelined, o.Loader, o.Model, o.KVManager, o.KVDtype} {
			fmt.Fprintf(&b, "\x00%v", s)
		}
		fmt.Fprintf(&b, "\x00%v\x00%v\x00%v", o.TopKeys, o.ConfigErrors, o.NestedKeys)
	}
	return b.String()
}

// copies leaves out each deployment that is a copy of one read before it:
// its file has the same bytes, and its workers the same fingerprints (an
// engine config found by path may still differ). Its unplaced entries and
// orchestrators go with it when its whole file is a copy.
func (r *reader) copies() {
	var order []string
	members := map[string][]*Worker{}
	for _, w := range r.set.Workers {
		u := unit(w)
		if _, ok := members[u]; !ok {
			order = append(order, u)
		}
		members[u] = append(members[u], w)
	}
	if len(order) < 2 {
		return
	}
	sig := func(u string) string {
		file, obj, _ := strings.Cut(u, " ")
		sum, ok := r.sums[file]
		if !ok {
			return ""
		}
		var fps []string
		for _, w := range members[u] {
			// Where it is written is the copy's own path; its name may
			// say its line, when an earlier copy took the name
			// (worker.yaml (launch.sh:8)).
			fp := strings.ReplaceAll(fingerprint(w), file, "\x01")
			if name, _, ok := strings.Cut(w.Name, " ("+path.Base(file)+":"); ok {
				fp = name + strings.TrimPrefix(fp, w.Name)
			}
			fps = append(fps, fp)
		}
		slices.Sort(fps)
		return fmt.Sprintf("%x\x00%s\x00%s", sum, obj, strings.Join(fps, "\x02"))
	}
	first := map[string]string{}
	dropped := map[string]bool{}
	// kept counts the units of each file that are not copies.
	kept := map[string]int{}
	for _, u := range order {
		s := sig(u)
		if of, ok := first[s]; ok && s != "" {
			dropped[u] = true
			r.set.Copies = append(r.set.Copies, Copy{Source: u, SameAs: of, Workers: len(members[u])})
			continue
		}
		if s != "" {
			first[s] = u
		}
		file, _, _ := strings.Cut(u, " ")
		kept[file]++
	}
	if len(dropped) == 0 {
		return
	}
	ws := r.set.Workers[:0]
	for _, w := range r.set.Workers {
		if !dropped[unit(w)] {
			ws = append(ws, w)
		}
	}
	r.set.Workers = ws
	// A file every unit of which is a copy: its other entries are too.
	whole := map[string]bool{}
	for u := range dropped {
		file, _, _ := strings.Cut(u, " ")
		if kept[file] == 0 {
			whole[file] = true
		}
	}
	us := r.set.Unplaced[:0]
	for _, x := range r.set.Unplaced {
		if !whole[x.Source.File] {
			us = append(us, x)
		}
	}
	r.set.Unplaced = us
	ors := r.set.Orchestrators[:0]
	for _, o := range r.set.Orchestrators {
		if !whole[o.Source.File] {
			ors = append(ors, o)
		}
	}
	r.set.Orchestrators = ors
}

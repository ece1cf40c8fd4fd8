package audit

import (
	"path"
	"strings"
)

// A directory of deployment files often holds several deployments, not
// one: Dynamo's recipes keep a hopper/ and a blackwell/ variant of a
// DynamoGraphDeployment side by side, its launch/ directory a script per
// topology, upstream's README three launch scripts. Each of those holds its
// own context and generation workers, which exchange KV cache with each
// other only. A file (for a DynamoGraphDeployment or StormService, an
// object) that holds both a context and a generation worker is one
// deployment, checked on its own; the workers of files that hold one role
// only (a Deployment per role, a worker YAML, a script per role) are the
// set's shared deployment, checked together as before.

// groups sets each worker's Group: its file's (or object's) label when that
// file holds both roles, else "".
func (r *reader) groups() {
	roles := map[string]map[string]bool{}
	key := func(w *Worker) string {
		file := w.Source.File
		if w.top != "" {
			file = w.top
		}
		switch w.Source.Kind {
		case "DynamoGraphDeployment", "StormService":
			if name, _, ok := strings.Cut(w.Source.Name, " "); ok {
				return file + " " + w.Source.Kind + "/" + name
			}
		}
		return file
	}
	for _, w := range r.set.Workers {
		k := key(w)
		if roles[k] == nil {
			roles[k] = map[string]bool{}
		}
		roles[k][w.Role] = true
	}
	for _, w := range r.set.Workers {
		if k := key(w); roles[k][RoleContext] && roles[k][RoleGeneration] {
			w.Group = k
		}
	}
}

// groupNames tells two deployments' workers of one name (each variant's
// prefill) apart by their deployment's short name, or, when that is one
// name too (an object of one name in two files that differ), by as much
// of their files' paths as tells them apart.
func (r *reader) groupNames() {
	// Two deployments' workers of one name (each variant's prefill) are
	// told apart by their deployment's short name.
	groupsOf := map[string]map[string]bool{}
	for _, w := range r.set.Workers {
		if groupsOf[w.Name] == nil {
			groupsOf[w.Name] = map[string]bool{}
		}
		groupsOf[w.Name][w.Group] = true
	}
	label := map[string]map[string]string{}
	for name, gs := range groupsOf {
		if len(gs) > 1 {
			label[name] = groupLabels(gs)
		}
	}
	for _, w := range r.set.Workers {
		if l, ok := label[w.Name][w.Group]; ok && w.Group != "" {
			w.base = w.Name
			w.Name += " (" + l + ")"
		}
	}
}

// groupLabels labels each of the deployments gs by its short name; those
// whose short names collide get the trailing part of their file's path
// that tells them apart (kustomize/base/deploy.yaml, recipe/deploy.yaml).
func groupLabels(gs map[string]bool) map[string]string {
	out := map[string]string{}
	byShort := map[string][]string{}
	for g := range gs {
		if g != "" {
			byShort[shortGroup(g)] = append(byShort[shortGroup(g)], g)
		}
	}
	for short, same := range byShort {
		if len(same) == 1 {
			out[same[0]] = short
			continue
		}
		files := make([]string, len(same))
		for i, g := range same {
			files[i] = groupFile(g)
		}
		tails := distinctTails(files)
		for i, g := range same {
			if tails[i] == short {
				out[g] = short
			} else {
				out[g] = short + ", " + tails[i]
			}
		}
	}
	return out
}

// groupFile is the file of a deployment's label ("FILE Kind/name" or FILE).
func groupFile(g string) string {
	if f, _, ok := strings.Cut(g, " "); ok {
		return f
	}
	return g
}

// distinctTails gives each path the fewest trailing elements that no
// other path of files ends with; the whole path when it needs them all.
func distinctTails(files []string) []string {
	out := make([]string, len(files))
	for i, f := range files {
		parts := strings.Split(f, "/")
		out[i] = f
		for n := 1; n <= len(parts); n++ {
			tail := strings.Join(parts[len(parts)-n:], "/")
			unique := true
			for j, g := range files {
				if j != i && (g == tail || strings.HasSuffix(g, "/"+tail)) {
					unique = false
					break
				}
			}
			if unique {
				out[i] = tail
				break
			}
		}
	}
	return out
}

// shortGroup is a deployment's object name, or its file's base name.
func shortGroup(g string) string {
	if i := strings.LastIndexByte(g, '/'); i >= 0 && strings.Contains(g, " ") {
		return g[i+1:]
	}
	return path.Base(g)
}

// groupsOf splits the entries by Group, in first-seen order; one group
// (with every entry) when at most one holds context or generation workers.
func groupsOf(es []Entry) (names []string, parts [][]Entry) {
	at := map[string]int{}
	disagg := map[string]bool{}
	for _, e := range es {
		g := e.Worker.Group
		if _, ok := at[g]; !ok {
			at[g] = len(names)
			names = append(names, g)
			parts = append(parts, nil)
		}
		parts[at[g]] = append(parts[at[g]], e)
		if e.Worker.Role != RoleAggregated {
			disagg[g] = true
		}
	}
	if len(disagg) <= 1 {
		return []string{""}, [][]Entry{es}
	}
	return names, parts
}

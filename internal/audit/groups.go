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
	// Two deployments' workers of one name (each variant's prefill) are
	// told apart by their deployment's short name.
	groupsOf := map[string]map[string]bool{}
	for _, w := range r.set.Workers {
		if groupsOf[w.Name] == nil {
			groupsOf[w.Name] = map[string]bool{}
		}
		groupsOf[w.Name][w.Group] = true
	}
	for _, w := range r.set.Workers {
		if len(groupsOf[w.Name]) > 1 && w.Group != "" {
			w.Name += " (" + shortGroup(w.Group) + ")"
		}
	}
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

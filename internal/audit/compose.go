package audit

import (
	"fmt"
	"path"
	"strings"

	"xcvr/internal/deploy"
)

// composeFile is a docker compose document of the set.
type composeFile struct {
	file string
	root *deploy.Node
}

// isCompose reports whether a document is a docker compose file: a services
// mapping of which at least one entry is a container (image, build, command
// or entrypoint). TensorRT-LLM's options have no "services".
func isCompose(root *deploy.Node) bool {
	services := get(root, "services")
	if services == nil || services.Kind != deploy.KindMap {
		return false
	}
	for _, p := range services.Pairs {
		if p.Val.Kind != deploy.KindMap {
			continue
		}
		for _, k := range []string{"image", "build", "command", "entrypoint"} {
			if get(p.Val, k) != nil {
				return true
			}
		}
	}
	return false
}

// compose reads a docker compose file (as Dynamo's
// examples/backends/trtllm/deploy/docker-compose-disagg.yml): each service
// whose entrypoint and command run dynamo.trtllm or trtllm-serve is a
// worker (anchors and merge keys are YAML's, already laid in). Its role is
// the command's, else its name's; its environment the service's
// environment (a list of NAME=VALUE or a mapping); its config the file the
// command names, looked for through the service's bind mounts
// (HOST:CONTAINER) among the files of the set, else by its path.
func (r *reader) compose(file string, root *deploy.Node) {
	found := false
	cv := r.projectEnv(file)
	for _, p := range get(root, "services").Pairs {
		name, raw := p.KeyString(), p.Val
		if raw.Kind != deploy.KindMap {
			continue
		}
		// Every string value as compose interpolates it.
		svc := cv.interpolateNode(raw, map[string]bool{})
		src := Source{File: file, Line: p.KeyLine, Kind: "compose service", Name: name}
		if s, _ := scriptShellOf(svc, "entrypoint", "command"); s != nil && launchLines(s.Str) > 1 {
			// A script that starts several servers (and perhaps their
			// orchestrator) in one container: each its own worker.
			if r.composeScript(file, p.KeyLine, name, svc, raw, s, cv) {
				found = true
			}
			continue
		}
		l, ok := parseLaunch(wordsOf(svc, "entrypoint", "command"))
		if !ok {
			continue
		}
		found = true
		if l.program == "trtllm-serve" && l.sub == "disaggregated" {
			r.set.Unplaced = append(r.set.Unplaced, Unplaced{Source: src,
				Why: "the disaggregated orchestrator (trtllm-serve disaggregated " + l.config + "): it routes requests; each worker's own --config decides its transceiver"})
			continue
		}
		if l.program == "trtllm-serve" && l.sub == "disaggregated_mpi_worker" {
			r.set.Unplaced = append(r.set.Unplaced, Unplaced{Source: src, Why: mpiWhy(l.config)})
			continue
		}
		if l.encode || l.sidecar {
			r.encodeWorker(src, l)
			continue
		}
		n, from := 1, "one container (a compose service)"
		if v, ln, ok := intAt(svc, "deploy", "replicas"); ok {
			n, from = v, fmt.Sprintf("deploy.replicas (%s)", origin(file, ln))
		}
		w := &Worker{Name: name, Source: src, Count: n, CountFrom: from, CommandError: l.refused}
		// The command line's values at the line that names the program
		// (commandLine), not the service's key.
		cmdLine := commandLine(svc, programWord(l), p.KeyLine, "entrypoint", "command")
		cmdAt := origin(file, cmdLine)
		if img := str(raw, "image"); img != "" {
			used := map[string]bool{}
			w.Image, w.ImageOrigin = cv.interpolate(img, used), origin(file, line(svc, "image"))
			if u := cv.usedFrom(used); u != "" {
				w.ImageOrigin += " (" + u + ")"
			}
		}
		var env envSet
		w.Notes = append(w.Notes, r.composeServiceEnv(file, svc, &env)...)
		for _, k := range l.envOrd {
			env.set(EnvVar{Name: k, Value: l.env[k], Origin: origin(file, commandLine(svc, k+"=", cmdLine, "entrypoint", "command")) + " (command line)"})
		}
		w.Env = env.trtllm()
		if n := env.droppedNote(); n != "" {
			w.Notes = append(w.Notes, n)
		}
		switch role := roleFromName(name); {
		case l.role != "":
			w.Role, w.RoleFrom, w.roleBy = l.role, l.roleArg, "flag"
		case role != "":
			w.Role, w.RoleFrom, w.roleBy = role, "inferred from the name "+name, "name"
		default:
			w.Role, w.RoleFrom, w.roleUnknown = aggregatedWhy(l.program, "its name "+name)
		}
		if l.program == "trtllm-serve" {
			// Compose's DNS: the service's name, its container_name,
			// hostname and network aliases reach it (routes.go).
			w.host = l.host
			w.port, w.portDefault = listenPort(l)
			w.place = &placement{kind: "compose service", name: name, aliases: composeNames(svc), hostNet: str(svc, "network_mode") == "host"}
		}
		if l.model != "" {
			w.Model, w.ModelOrigin = l.model, cmdAt+" (command line)"
			w.ServedModel = l.served
		}
		w.serveBackend(l, cmdAt)
		w.key = "compose\x00" + file + "\x00" + name
		if l.config == "" {
			w.Config = "none (TensorRT-LLM's defaults: no cache_transceiver_config)"
			if handled, ok := r.overrideOnly(w, src, l, cmdAt); handled && !ok {
				continue
			}
			r.set.Workers = append(r.set.Workers, w)
			continue
		}
		var cfg *deploy.Node
		var locate func(int) string
		var cname, where, why string
		ok = false
		if s, sh := scriptShellOf(svc, "entrypoint", "command"); s != nil {
			cfg, locate, cname, where, why, ok = r.heredocConfig(file, s, sh, str(svc, "working_dir"), l.config)
			if why != "" {
				r.unresolved(src, l.flag+" "+l.config+": "+why)
				continue
			}
		}
		if !ok {
			cfg, locate, cname, where, ok = r.composeConfig(file, svc, l.config)
		}
		if !ok {
			r.unresolved(src, l.flag+" "+l.config+": not in the set (a file of the image, or a bind mount's file not given to audit); give it to audit")
			continue
		}
		where, ok = r.readConfig(w, src, l, cname, cfg, locate, where, cmdAt)
		if !ok {
			continue
		}
		w.key += "\x00" + where
		r.set.Workers = append(r.set.Workers, w)
	}
	if !found {
		r.set.Unplaced = append(r.set.Unplaced, Unplaced{Source: Source{File: file, Line: root.Line, Kind: "compose file"}, Why: "no service runs trtllm-serve or dynamo.trtllm"})
	}
}

// composeScript reads a service's sh -c script that starts several servers
// as a shell script run in its container: its environment (env_file, then
// environment) exported, a config path looked up through its bind mounts,
// its lines the compose file's; each worker is counted as the service is.
func (r *reader) composeScript(file string, keyLine int, name string, svc, raw, s *deploy.Node, cv *composeVars) bool {
	var env envSet
	notes := r.composeServiceEnv(file, svc, &env)
	sv := newShellVars()
	for _, k := range env.order {
		e := env.vars[k]
		sv.set(k, e.Value, e.Origin, "", false)
		sv.exported[k] = true
	}
	call := &scriptCall{env: sv, from: fmt.Sprintf("%s compose service %s", origin(file, keyLine), name),
		mounted: func(p string) (*deploy.Node, func(int) string, string, string, string, bool) {
			root, locate, cname, where, ok := r.composeConfig(file, svc, p)
			return root, locate, cname, where, "", ok
		}}
	first := s.Line - 1
	if strings.Contains(strings.TrimRight(s.Str, "\n"), "\n") {
		first = s.Line // a block scalar's text starts on the next line
	}
	n, from := 1, "one container (a compose service)"
	if v, ln, ok := intAt(svc, "deploy", "replicas"); ok {
		n, from = v, fmt.Sprintf("deploy.replicas (%s)", origin(file, ln))
	}
	before := len(r.set.Workers)
	found := r.script(scriptFile{file: file, data: []byte(strings.Repeat("\n", first) + s.Str)}, call)
	for _, w := range r.set.Workers[before:] {
		w.Count, w.CountFrom = n, from
		w.Notes = append(w.Notes, notes...)
		if img := str(raw, "image"); img != "" && w.Image == "" {
			used := map[string]bool{}
			w.Image, w.ImageOrigin = cv.interpolate(img, used), origin(file, line(svc, "image"))
		}
	}
	return found
}

// envFileAt is the env file of the set at a path (the same path, else the
// same trailing path); nil when none.
func (r *reader) envFileAt(p string) *deploy.EnvFile {
	p = path.Clean(p)
	for _, ef := range r.envFiles {
		if f := path.Clean(ef.File); f == p || strings.HasSuffix(p, "/"+f) || strings.HasSuffix(f, "/"+strings.TrimPrefix(p, "./")) {
			return ef
		}
	}
	return nil
}

// composeEnv reads a service's environment: a list of NAME=VALUE (a NAME
// alone takes the shell's value, not in the set) or a mapping.
func composeEnv(file string, n *deploy.Node, set func(EnvVar)) {
	if n == nil {
		return
	}
	if n.Kind == deploy.KindMap {
		for _, p := range n.Pairs {
			v := p.Val.Str
			if p.Val.Kind != deploy.KindStr {
				v = strings.Trim(p.Val.Repr(), "'")
			}
			set(EnvVar{Name: p.KeyString(), Value: v, Origin: origin(file, p.KeyLine)})
		}
		return
	}
	for _, it := range listOf(n) {
		if k, v, ok := strings.Cut(it.Str, "="); ok && it.Kind == deploy.KindStr {
			set(EnvVar{Name: k, Value: v, Origin: origin(file, it.Line)})
		}
	}
}

// composeConfig finds the file a service's command names: through a bind
// mount (HOST:CONTAINER[:MODE], HOST relative to the compose file), a file
// of the set at that host path; else a file of the set by the path itself.
func (r *reader) composeConfig(file string, svc *deploy.Node, config string) (root *deploy.Node, locate func(int) string, name, where string, ok bool) {
	p := config
	if wd := str(svc, "working_dir"); wd != "" && !strings.HasPrefix(p, "/") {
		p = path.Join(wd, p)
	}
	p = path.Clean(p)
	for _, v := range listOf(get(svc, "volumes")) {
		if v.Kind != deploy.KindStr {
			continue
		}
		parts := strings.Split(v.Str, ":")
		if len(parts) < 2 || !(strings.HasPrefix(parts[0], ".") || strings.HasPrefix(parts[0], "/")) {
			continue // a named volume: its files are not in the set
		}
		mp := path.Clean(parts[1])
		if !strings.HasPrefix(p, mp+"/") && p != mp {
			continue
		}
		host := path.Join(parts[0], strings.TrimPrefix(p, mp))
		if !strings.HasPrefix(parts[0], "/") {
			host = path.Join(path.Dir(file), host)
		}
		if root, locate, name, where, ok := r.matchPlain(host); ok {
			return root, locate, name, where + ", bind-mounted at " + mp + " (" + origin(file, v.Line) + ")", true
		}
	}
	return r.matchPlain(config)
}

// composeServiceEnv sets in env a compose service's variables: its env_file
// files first (those in the set), then its environment, which wins over
// them. It returns a note for each env_file that is not in the set.
func (r *reader) composeServiceEnv(file string, svc *deploy.Node, env *envSet) (notes []string) {
	for _, ef := range listOf(get(svc, "env_file")) {
		p := ef.Str
		if ef.Kind == deploy.KindMap {
			p = str(ef, "path")
		}
		if p == "" {
			continue
		}
		if f := r.envFileAt(path.Join(path.Dir(file), p)); f != nil {
			for _, k := range f.Names {
				v := f.Vars[k]
				env.set(EnvVar{Name: k, Value: v.Value, Origin: v.Origin.String()})
			}
			continue
		}
		notes = append(notes, fmt.Sprintf("env_file %s (%s): not in the set; give the file to audit to read its variables", p, origin(file, ef.Line)))
	}
	composeEnv(file, get(svc, "environment"), env.set)
	return notes
}

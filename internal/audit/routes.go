package audit

import (
	"fmt"
	"strings"

	"xcvr/internal/deploy"
)

// A trtllm-serve disaggregated orchestrator sends each request's context
// phase to a server of its context_servers urls and its generation phase to
// one of its generation_servers urls (tensorrt_llm/commands/serve.py,
// get_ctx_gen_server_urls: http://{hostname}:{port}, verified). A worker
// started without --server_role is still such a server: upstream's
// disaggregated launchers (examples/ray_orchestrator/disaggregated/
// disagg_serving_local.sh) start theirs so, on the ports their orchestrator
// config lists. A script's worker with no role of its own takes the role of
// the urls its --port (and --host) is in.

// serveDefaultPort is the port trtllm-serve listens on when its command
// line has no --port: tensorrt_llm/commands/serve.py's serve command
// declares --port with default=8000 (and --host with default="localhost"):
// verified in the two stored revisions of serve.py, 4c05a74 (the option on
// one line, --extra_llm_api_options its only config flag) and 00209af
// (launch_grpc_server, the option's help tagged "beta"); the trtllm-serve
// docs pages say 8000 too. An orchestrator url on port 8000 reaches it.
const serveDefaultPort = "8000"

// listenPort is the port a trtllm-serve command line l listens on: its
// --port as written, else serveDefaultPort (dflt true).
func listenPort(l launch) (port string, dflt bool) {
	if l.port == "" && (l.sub == "" || l.sub == "serve") {
		return serveDefaultPort, true
	}
	return l.port, false
}

// portSays names worker w's port for its RoleFrom: "--port 8001", or
// trtllm-serve's default when its command line has none.
func (w *Worker) portSays() string {
	if w.portDefault {
		return "port " + w.port + " (no --port: trtllm-serve's default)"
	}
	return "--port " + w.port
}

// route is one url of a disaggregated config's section: the role it
// serves, its host and port, and where it is written.
type route struct {
	role, host, port string
	url, section     string
	where            string
	// script is the script that wrote the config, "" for a file of the
	// set: its own workers name it first.
	script string
	// file is the set's file the config is ("" when a script wrote it).
	file string
}

// addRoutes records the urls of a disaggregated config; name is the
// config's name, at the origin of its line l, script the script that
// wrote it ("" for a file of the set).
func (r *reader) addRoutes(d *deploy.Disagg, name, script, file string, at func(l int) string) {
	for _, role := range deploy.Roles() {
		s, ok := d.Servers[role]
		if !ok {
			continue
		}
		sec := map[string]string{RoleContext: "context_servers", RoleGeneration: "generation_servers"}[role]
		for _, u := range s.URLs {
			host, port, ok := splitURL(u)
			if !ok {
				continue
			}
			where := name
			if s.Line > 0 {
				where = at(s.Line)
			}
			r.routes = append(r.routes, route{role: role, host: host, port: port, url: u, section: sec, where: where, script: script, file: file})
		}
	}
}

// splitURL cuts an orchestrator url (host:port, http://host:port) into its
// host and port; ok is false when the port is not a number as written.
func splitURL(u string) (host, port string, ok bool) {
	u = strings.TrimPrefix(strings.TrimPrefix(u, "http://"), "https://")
	u = strings.TrimSuffix(u, "/")
	i := strings.LastIndexByte(u, ':')
	if i < 0 || !isPort(u[i+1:]) {
		return "", "", false
	}
	return strings.Trim(u[:i], "[]"), u[i+1:], true
}

func isPort(s string) bool {
	if s == "" || len(s) > 5 {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

// sameHost reports whether a worker's --host (as written, "" when none)
// may be a url's host: a host either side does not know (a variable, the
// wildcard 0.0.0.0 the worker listens on everywhere) matches any; localhost
// and the loopback addresses are one.
func sameHost(worker, url string) bool {
	if worker == "" || url == "" || strings.ContainsAny(worker+url, "$`") {
		return true
	}
	loop := func(h string) string {
		switch h = strings.Trim(strings.ToLower(h), "[]"); h {
		case "127.0.0.1", "::1":
			return "localhost"
		}
		return h
	}
	w := loop(worker)
	return w == "0.0.0.0" || w == "::" || w == loop(url)
}

// isLoopback reports whether a url's host is this machine's loopback
// address, where a server listening on localhost is reached.
func isLoopback(h string) bool {
	h = strings.Trim(strings.ToLower(h), "[]")
	return h == "localhost" || h == "::1" || strings.HasPrefix(h, "127.")
}

// routesRole gives a script's worker that has no role of its own (no
// --server_role or --disaggregation-mode, a config whose name does not
// say) the role of the orchestrator urls its --port is in. A port in both
// sections' urls, or in none, leaves it aggregated. A role the worker's
// config's name gave stays: a set may hold several deployments' files,
// another's orchestrator on the same ports.
func (r *reader) routesRole() {
	if len(r.routes) == 0 {
		return
	}
	for _, w := range r.set.Workers {
		if !isPort(w.port) || w.roleBy == "" && w.Role != RoleAggregated {
			continue
		}
		var match *route
		var how string
		roles := map[string]bool{}
		for i := range r.routes {
			rt := &r.routes[i]
			if h, ok := r.reaches(w, rt); ok {
				roles[rt.role] = true
				if match == nil || rt.script == w.script && match.script != w.script {
					match, how = rt, h
				}
			}
		}
		if len(roles) != 1 {
			continue
		}
		w.servedBy = match.file
		if w.host == "" && !isLoopback(match.host) && !strings.ContainsAny(match.host, "$`") {
			w.Notes = append(w.Notes, fmt.Sprintf("no --host: trtllm-serve listens on localhost (its default, serve.py) and takes no connection from another address, but the orchestrator reaches it as %s (%s at %s): start it with --host 0.0.0.0 (or its own address)", match.host, match.url, match.where))
		}
		if w.roleBy != "" {
			// A role of its own stays (the set may hold another
			// deployment's orchestrator on the same ports), but one the
			// orchestrator contradicts is said: it sends this server the
			// other phase's requests.
			if match.role != w.Role {
				says := w.RoleFrom
				if n, ok := strings.CutPrefix(says, "inferred from the config's name "); ok {
					says = "its config's name " + n
				} else if n, ok := strings.CutPrefix(says, "inferred from the name "); ok {
					says = "its name " + n
				}
				w.Notes = append(w.Notes, fmt.Sprintf("%s says %s, but the orchestrator's %s urls list it (%s at %s, %s): that orchestrator sends it %s requests; check which role this server has (xcvr keeps %s)",
					says, w.Role, match.section, match.url, match.where, how, match.role, w.Role))
			}
			continue
		}
		w.Role, w.roleBy, w.roleUnknown = match.role, "routes", false
		if w.place == nil {
			w.RoleFrom = fmt.Sprintf("%s is in the orchestrator's %s urls: %s at %s", how, match.section, match.url, match.where)
		} else {
			w.RoleFrom = fmt.Sprintf("the orchestrator's %s urls list it: %s at %s, %s", match.section, match.url, match.where, how)
		}
		w.key += "\x00role " + match.role
	}
}

// countServed counts, for each orchestrator file, the worker
// configurations (and their servers) whose port is in its urls: after
// merge, so that servers of one configuration (a loop's, two command
// lines') are one configuration, as the table has them.
func (r *reader) countServed() {
	for i := range r.set.Orchestrators {
		o := &r.set.Orchestrators[i]
		o.Served, o.ServedCount = 0, 0
		for _, w := range r.set.Workers {
			if w.servedBy != "" && w.servedBy == o.Source.File {
				o.Served++
				o.ServedCount += w.Count
			}
		}
	}
}

// placement is where an orchestrator's url reaches a Kubernetes or compose
// worker: its object's kind, name and namespace, its pod template's labels
// (a Service selects its pods by them) and its container's named ports, or
// a compose service's other DNS names.
type placement struct {
	kind, name, namespace string
	labels                *deploy.Node
	// ports maps a container port's name to its number.
	ports map[string]string
	// aliases are a compose service's container_name, hostname and network
	// aliases.
	aliases []string
	// part is a LeaderWorkerSet template's: "leader" or "worker".
	part string
	// hostNet marks a compose service on the host's network
	// (network_mode: host): a loopback url on its --port reaches it.
	hostNet bool
}

// service is a Kubernetes Service of the set: its name, the labels it
// selects pods by, and its ports (port and targetPort as written).
type service struct {
	name, namespace, where string
	selector               map[string]string
	ports                  [][2]string
}

// service records a Service's name, selector and ports.
func (r *reader) service(o *object) {
	s := service{name: o.name, namespace: o.namespace, where: origin(o.file, o.line), selector: map[string]string{}}
	if sel := get(o.root, "spec", "selector"); sel != nil && sel.Kind == deploy.KindMap {
		for _, p := range sel.Pairs {
			s.selector[p.KeyString()] = scalar(p.Val)
		}
	}
	for _, p := range listOf(get(o.root, "spec", "ports")) {
		port, target := scalar(get(p, "port")), scalar(get(p, "targetPort"))
		if target == "" {
			target = port
		}
		s.ports = append(s.ports, [2]string{port, target})
	}
	r.services = append(r.services, s)
}

// scalar is a string or number node's text as written, "" otherwise.
func scalar(n *deploy.Node) string {
	switch {
	case n == nil:
		return ""
	case n.Kind == deploy.KindStr:
		return n.Str
	case n.Kind == deploy.KindInt && n.Int != nil:
		return n.Int.String()
	}
	return ""
}

// templateLabels are the labels of the pod template t of o.
func templateLabels(o *object, t podTemplate) *deploy.Node {
	switch o.kind {
	case "Pod":
		return get(o.root, "metadata", "labels")
	case "CronJob":
		return get(o.root, "spec", "jobTemplate", "spec", "template", "metadata", "labels")
	case "LeaderWorkerSet":
		return get(o.root, "spec", "leaderWorkerTemplate", t.part+"Template", "metadata", "labels")
	}
	return get(o.root, "spec", "template", "metadata", "labels")
}

// containerPorts maps a container's named ports to their numbers.
func containerPorts(c *deploy.Node) map[string]string {
	m := map[string]string{}
	for _, p := range listOf(get(c, "ports")) {
		if n := str(p, "name"); n != "" {
			m[n] = scalar(get(p, "containerPort"))
		}
	}
	return m
}

// composeNames are the names compose's DNS gives a service besides its
// own: container_name, hostname, and each network's aliases.
func composeNames(svc *deploy.Node) []string {
	var out []string
	for _, k := range []string{"container_name", "hostname"} {
		if v := str(svc, k); v != "" {
			out = append(out, v)
		}
	}
	if nets := get(svc, "networks"); nets != nil && nets.Kind == deploy.KindMap {
		for _, p := range nets.Pairs {
			for _, a := range listOf(get(p.Val, "aliases")) {
				if a.Kind == deploy.KindStr {
					out = append(out, a.Str)
				}
			}
		}
	}
	return out
}

// reaches reports whether url route rt reaches worker w, and how, for its
// RoleFrom: a script's worker by its --port (and --host); a Kubernetes
// worker through a Service of the set that selects its pods and forwards
// the url's port to its --port, a StatefulSet pod's own name
// (NAME-N.SERVICE), or its object's name when no Service of that name is
// in the set; a compose service by its name or aliases and its --port.
func (r *reader) reaches(w *Worker, rt *route) (string, bool) {
	if w.place == nil {
		if rt.port == w.port && sameHost(w.host, rt.host) {
			return "its " + w.portSays(), true
		}
		return "", false
	}
	p := w.place
	labels := strings.Split(strings.ToLower(rt.host), ".")
	first := labels[0]
	// The url's namespace, when it names one (svc.ns, svc.ns.svc...).
	ns := ""
	if len(labels) > 1 && labels[1] != "svc" {
		ns = labels[1]
	}
	if p.kind == "compose service" {
		if rt.port != w.port {
			return "", false
		}
		if p.hostNet && sameHost("localhost", rt.host) && !strings.ContainsAny(rt.host, "$`") {
			return fmt.Sprintf("the compose service on the host's network (network_mode: host), on its %s", w.portSays()), true
		}
		if len(labels) > 1 {
			return "", false
		}
		for _, n := range append([]string{p.name}, p.aliases...) {
			if strings.ToLower(n) == first {
				return fmt.Sprintf("the compose service reached as %s, on its %s", n, w.portSays()), true
			}
		}
		return "", false
	}
	orDefault := func(n string) string {
		if n == "" {
			return "default"
		}
		return n
	}
	sameNS := func(svcNS string) bool {
		if ns == "" {
			// A bare name resolves in the caller's namespace, taken to
			// be the worker's.
			return orDefault(svcNS) == orDefault(p.namespace)
		}
		return ns == orDefault(svcNS)
	}
	named := false
	for _, s := range r.services {
		if strings.ToLower(s.name) != first || !sameNS(s.namespace) {
			continue
		}
		named = true
		if len(s.selector) == 0 || !selects(s.selector, p.labels) {
			continue
		}
		for _, sp := range s.ports {
			target := sp[1]
			if n, ok := p.ports[target]; ok {
				target = n
			}
			if sp[0] == rt.port && target == w.port {
				return fmt.Sprintf("whose port %s its Service %s (%s) forwards to its %s", sp[0], s.name, s.where, w.portSays()), true
			}
		}
	}
	if rt.port != w.port {
		return "", false
	}
	// A StatefulSet's pods are NAME-0, NAME-1...; a LeaderWorkerSet's
	// group leaders too (its workers NAME-0-1...).
	ordinal := strings.HasPrefix(first, strings.ToLower(p.name)+"-") && isPort(first[len(p.name)+1:])
	if ordinal && (p.kind == "StatefulSet" || p.kind == "LeaderWorkerSet" && p.part == "leader") {
		return fmt.Sprintf("%s being a pod of %s %s, on its %s", first, p.kind, p.name, w.portSays()), true
	}
	if !named && first == strings.ToLower(p.name) && sameNS(p.namespace) {
		return fmt.Sprintf("by its name %s and %s (no Service of that name is in the set: one is taken to select its pods)", p.name, w.portSays()), true
	}
	return "", false
}

// selects reports whether a Service's selector picks pods with labels.
func selects(sel map[string]string, labels *deploy.Node) bool {
	if labels == nil {
		return false
	}
	for k, v := range sel {
		if scalar(get(labels, k)) != v {
			return false
		}
	}
	return true
}

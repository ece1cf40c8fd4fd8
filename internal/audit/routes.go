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
	served := map[string]int{}
	defer func() {
		for i := range r.set.Orchestrators {
			o := &r.set.Orchestrators[i]
			o.Served = served[o.Source.File]
		}
	}()
	for _, w := range r.set.Workers {
		if !isPort(w.port) || w.roleBy == "" && w.Role != RoleAggregated {
			continue
		}
		var match *route
		roles := map[string]bool{}
		for i := range r.routes {
			rt := &r.routes[i]
			if rt.port == w.port && sameHost(w.host, rt.host) {
				roles[rt.role] = true
				if match == nil || rt.script == w.script && match.script != w.script {
					match = rt
				}
			}
		}
		if len(roles) != 1 {
			continue
		}
		if match.file != "" {
			served[match.file]++
		}
		if w.roleBy != "" {
			// A role of its own stays (the set may hold another
			// deployment's orchestrator on the same ports), but one the
			// orchestrator contradicts is said: it sends this server the
			// other phase's requests.
			if match.role != w.Role {
				how := w.RoleFrom
				if n, ok := strings.CutPrefix(how, "inferred from the config's name "); ok {
					how = "its config's name " + n
				}
				w.Notes = append(w.Notes, fmt.Sprintf("%s says %s, but its --port %s is in the orchestrator's %s urls (%s at %s): that orchestrator sends it %s requests; check which role this server has (xcvr keeps %s)",
					how, w.Role, w.port, match.section, match.url, match.where, match.role, w.Role))
			}
			continue
		}
		w.Role, w.roleBy = match.role, "routes"
		w.RoleFrom = fmt.Sprintf("its --port %s is in the orchestrator's %s urls: %s at %s", w.port, match.section, match.url, match.where)
		w.key += "\x00role " + match.role
	}
}

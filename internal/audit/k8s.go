package audit

import (
	"fmt"
	"path"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"sync"

	"xcvr/internal/deploy"
	"xcvr/resolver"
)

// podSpecs returns the pod templates of a workload, with the count of pods (or
// groups) each stands for.
type podTemplate struct {
	spec      *deploy.Node
	count     int
	countFrom string
	part      string // "leader" or "worker" for a LeaderWorkerSet
	// labels are the pod template's metadata.labels (a Service's selector
	// picks its pods by them); nil when it has none.
	labels *deploy.Node
}

func intAt(n *deploy.Node, keys ...string) (int, int, bool) {
	if len(keys) == 0 {
		return 0, 0, false
	}
	parent := get(n, keys[:len(keys)-1]...)
	if parent == nil {
		return 0, 0, false
	}
	p, ok := parent.Get(keys[len(keys)-1])
	if !ok || p.Val.Kind != deploy.KindInt || !p.Val.Int.IsInt64() {
		return 0, 0, false
	}
	return int(p.Val.Int.Int64()), p.KeyLine, true
}

func (r *reader) replicas(o *object, keys []string, def int, what string) (int, string) {
	if n, l, ok := intAt(o.root, keys...); ok {
		return n, fmt.Sprintf("%s (%s)", strings.Join(keys[len(keys)-1:], ""), origin(o.file, l))
	}
	return def, what
}

// workload reads one Kubernetes or Dynamo object.
func (r *reader) workload(o *object) {
	src := Source{File: o.file, Line: o.line, Kind: o.kind, Name: o.name}
	for _, ow := range o.owners {
		if by := r.countedBy(ow); by != "" {
			// The controller's entry counts this object's pods already.
			return
		}
	}
	var tpls []podTemplate
	switch o.kind {
	case "Deployment", "StatefulSet", "ReplicaSet", "ReplicationController":
		n, from := r.replicas(o, []string{"spec", "replicas"}, 1, "replicas default (1)")
		tpls = append(tpls, podTemplate{spec: get(o.root, "spec", "template", "spec"), count: n, countFrom: from})
	case "DaemonSet":
		tpls = append(tpls, podTemplate{spec: get(o.root, "spec", "template", "spec"), count: 0, countFrom: "one per matching node"})
	case "Job":
		n, from := r.replicas(o, []string{"spec", "parallelism"}, 1, "parallelism default (1)")
		tpls = append(tpls, podTemplate{spec: get(o.root, "spec", "template", "spec"), count: n, countFrom: from})
	case "CronJob":
		tpls = append(tpls, podTemplate{spec: get(o.root, "spec", "jobTemplate", "spec", "template", "spec"), count: 1, countFrom: "one job per schedule"})
	case "Pod":
		tpls = append(tpls, podTemplate{spec: get(o.root, "spec"), count: 1, countFrom: "one pod"})
	case "LeaderWorkerSet":
		n, from := r.replicas(o, []string{"spec", "replicas"}, 1, "replicas default (1)")
		if size, l, ok := intAt(o.root, "spec", "leaderWorkerTemplate", "size"); ok {
			from += fmt.Sprintf(", groups of %d pods (size, %s)", size, origin(o.file, l))
		}
		if lt := get(o.root, "spec", "leaderWorkerTemplate", "leaderTemplate", "spec"); lt != nil {
			tpls = append(tpls, podTemplate{spec: lt, count: n, countFrom: from, part: "leader"})
		}
		tpls = append(tpls, podTemplate{spec: get(o.root, "spec", "leaderWorkerTemplate", "workerTemplate", "spec"), count: n, countFrom: from, part: "worker"})
	case "DynamoGraphDeployment":
		r.dynamo(o)
		return
	case "StormService":
		r.stormService(o)
		return
	default:
		if o.kind == "Service" {
			// No worker, but its name, selector and ports say which
			// pods an orchestrator's url reaches (routes.go).
			r.service(o)
			r.set.Unplaced = append(r.set.Unplaced, Unplaced{Source: src, Why: "kind Service runs no TensorRT-LLM worker (its selector and ports are read only to match an orchestrator's urls)"})
			return
		}
		r.set.Unplaced = append(r.set.Unplaced, Unplaced{Source: src, Why: "kind " + o.kind + " is not read (no TensorRT-LLM worker in it that audit knows of)"})
		return
	}
	found := false
	for _, t := range tpls {
		if t.spec == nil {
			continue
		}
		if t.labels == nil {
			t.labels = templateLabels(o, t)
		}
		for _, c := range listOf(get(t.spec, "containers")) {
			if r.container(o, t, c, nil) {
				found = true
			}
		}
	}
	if !found {
		why := "no container runs trtllm-serve or dynamo.trtllm"
		if s := r.configMapScript(o, tpls); s != "" {
			why = s
		}
		r.set.Unplaced = append(r.set.Unplaced, Unplaced{Source: src, Why: why})
	}
}

// configMapRun reads the script a container runs from a ConfigMap of the
// set (command: [bash, /scripts/start.sh], /scripts a ConfigMap volume) as
// the shell runs it: the container's environment exported, the words after
// it its arguments, a config path it names looked up in the pod's mounts
// first. Its lines are the manifest's. It reports whether the script runs
// a TensorRT-LLM worker.
func (r *reader) configMapRun(o *object, t podTemplate, c *deploy.Node, words []string, env *envSet) bool {
	// The words, a sh -c script's split too: the script's path, then its
	// arguments.
	var all []string
	for _, w := range words {
		all = append(all, strings.Fields(w)...)
	}
	for i, w := range all {
		if !isScriptName(w) || strings.Contains(w, "$") || !strings.HasPrefix(w, "/") {
			continue
		}
		cm, key, pair, mounted, _ := r.mountedKey(o, t.spec, c, path.Clean(w))
		if !mounted || cm == nil || pair.Val == nil || pair.Val.Kind != deploy.KindStr {
			return false
		}
		first := pair.KeyLine // a block scalar's text starts on the next line
		if pair.Val.Line > pair.KeyLine {
			first = pair.Val.Line - 1
		}
		data := strings.Repeat("\n", first) + pair.Val.Str
		from := fmt.Sprintf("%s %s/%s container %s, ConfigMap %s key %s", origin(o.file, c.Line), o.kind, o.name, str(c, "name"), cm.name, key)
		var args []string
		for _, a := range all[i+1:] {
			if a == "&&" || a == ";" || a == "||" || a == "|" {
				break
			}
			args = append(args, a)
		}
		return r.runInPod(o, t, c, env, cm.file, data, from, args)
	}
	return false
}

// initWritten finds the config at p (as container c sees it) in what an
// init container's sh -c script writes (a here-document, echo or printf)
// to the same volume, at the path it mounts that volume at.
func (r *reader) initWritten(o *object, t podTemplate, c *deploy.Node, p string) (root *deploy.Node, locate func(int) string, name, where, why string, ok bool) {
	if t.spec == nil || p == "" || strings.Contains(p, "$") {
		return
	}
	if wd := str(c, "workingDir"); !strings.HasPrefix(p, "/") && wd != "" {
		p = path.Join(wd, p)
	}
	vol, rel, found := volumePath(c, path.Clean(p))
	if !found {
		return
	}
	for _, ic := range listOf(get(t.spec, "initContainers")) {
		s, sh := scriptShellOf(ic, "command", "args")
		if s == nil {
			continue
		}
		for _, m := range listOf(get(ic, "volumeMounts")) {
			sub := strings.Trim(str(m, "subPath"), "/")
			if str(m, "name") != vol || (sub != "" && rel != sub && !strings.HasPrefix(rel, sub+"/")) {
				continue
			}
			at := path.Join(str(m, "mountPath"), strings.TrimPrefix(strings.TrimPrefix(rel, sub), "/"))
			root, locate, name, where, why, ok = r.heredocIn(o.file, s.Str, s.Line+1, "init container "+str(ic, "name")+"'s script", sh, str(ic, "workingDir"), at)
			if ok {
				return
			}
		}
	}
	return nil, nil, "", "", "", false
}

// volumePath is the volume a container sees path p on, and p's path
// inside that volume (its mount's subPath joined): the longest mount that
// holds p.
func volumePath(c *deploy.Node, p string) (vol, rel string, ok bool) {
	best := -1
	for _, m := range listOf(get(c, "volumeMounts")) {
		mp := path.Clean(str(m, "mountPath"))
		if mp == "." || (p != mp && !strings.HasPrefix(p, strings.TrimSuffix(mp, "/")+"/")) || len(mp) <= best {
			continue
		}
		best = len(mp)
		vol = str(m, "name")
		rel = strings.TrimPrefix(path.Join(strings.Trim(str(m, "subPath"), "/"), strings.TrimPrefix(p, mp)), "/")
		ok = true
	}
	return
}

// runInPod reads a script a container runs (data, its lines the file's)
// as the shell runs it: the container's environment exported, args its
// arguments, a config path it names looked up in the pod's mounts first;
// its workers are the pod's, counted and imaged as it is.
func (r *reader) runInPod(o *object, t podTemplate, c *deploy.Node, env *envSet, file, data, from string, args []string) bool {
	cv := newShellVars()
	for _, k := range env.order {
		e := env.vars[k]
		cv.set(k, e.Value, e.Origin, "", false)
		cv.exported[k] = true
	}
	call := &scriptCall{env: cv, args: args, from: from,
		mounted: func(p string) (*deploy.Node, func(int) string, string, string, string, bool) {
			cm2, key2, pair2, ok2, why := r.mountedKey(o, t.spec, c, p)
			if why != "" || !ok2 {
				return nil, nil, "", "", why, false
			}
			root, locate, name, where, why := r.configMapWorker(cm2, key2, pair2)
			return root, locate, name, where, why, why == ""
		}}
	before := len(r.set.Workers)
	found := r.script(scriptFile{file: file, data: []byte(data)}, call)
	for _, wk := range r.set.Workers[before:] {
		wk.Count, wk.CountFrom = t.count, t.countFrom
		if img := str(c, "image"); img != "" && wk.Image == "" {
			wk.Image, wk.ImageOrigin = img, origin(o.file, line(c, "image"))
		}
	}
	return found
}

// launchLines counts the lines of a script that start a TensorRT-LLM
// server or its orchestrator.
func launchLines(text string) int {
	n := 0
	for _, ln := range strings.Split(text, "\n") {
		if !strings.Contains(ln, "trtllm") && !strings.Contains(ln, "tensorrt_llm") {
			continue
		}
		if _, ok := parseLaunch(unwrapShell(shellWords(ln))); ok {
			n++
		}
	}
	return n
}

// configMapScript says which script a container runs from a ConfigMap of
// the set (command: [bash, /scripts/start.sh] with /scripts a ConfigMap
// volume) when no worker was found in it.
func (r *reader) configMapScript(o *object, tpls []podTemplate) string {
	for _, t := range tpls {
		if t.spec == nil {
			continue
		}
		for _, c := range listOf(get(t.spec, "containers")) {
			for _, w := range wordsOf(c, "command", "args") {
				for _, f := range strings.Fields(w) {
					if !isScriptName(f) || strings.Contains(f, "$") {
						continue
					}
					p := f
					if wd := str(c, "workingDir"); !strings.HasPrefix(p, "/") && wd != "" {
						p = path.Join(wd, p)
					}
					if !strings.HasPrefix(p, "/") {
						continue
					}
					cm, key, pair, mounted, _ := r.mountedKey(o, t.spec, c, path.Clean(p))
					if !mounted || cm == nil {
						continue
					}
					return fmt.Sprintf("container %s runs %s, ConfigMap %s key %s (%s), and xcvr finds no trtllm-serve or dynamo.trtllm command in it", str(c, "name"), f, cm.name, key, origin(cm.file, pair.KeyLine))
				}
			}
		}
	}
	return ""
}

// stormService reads an AIBrix StormService (orchestration.aibrix.ai): each
// of spec.template.spec.roles is a pod template (its template.spec) named
// for its role (prefill, decode), run spec.replicas role sets of
// roles[].replicas pods each (the counts' product, inferred from the
// fields' names).
func (r *reader) stormService(o *object) {
	src := Source{File: o.file, Line: o.line, Kind: o.kind, Name: o.name}
	n, from := r.replicas(o, []string{"spec", "replicas"}, 1, "replicas default (1)")
	found := false
	for _, role := range listOf(get(o.root, "spec", "template", "spec", "roles")) {
		if role.Kind != deploy.KindMap {
			continue
		}
		name := str(role, "name")
		rn, rfrom := 1, "replicas default (1)"
		if v, l, ok := intAt(role, "replicas"); ok {
			rn, rfrom = v, fmt.Sprintf("replicas (%s)", origin(o.file, l))
		}
		roleObj := &object{label: o.name + " role " + name, file: o.file, line: role.Line, kind: o.kind, name: name, namespace: o.namespace, root: o.root}
		if rr := roleFromName(name); rr != "" {
			roleObj.role, roleObj.roleFrom = rr, fmt.Sprintf("role name %s (%s)", name, origin(o.file, line(role, "name")))
		}
		t := podTemplate{spec: get(role, "template", "spec"), count: n * rn,
			countFrom: fmt.Sprintf("%s role sets × role %s %s, inferred", from, name, rfrom)}
		for _, c := range listOf(get(t.spec, "containers")) {
			if r.container(roleObj, t, c, nil) {
				found = true
			}
		}
	}
	if !found {
		r.set.Unplaced = append(r.set.Unplaced, Unplaced{Source: src, Why: "no container of its roles runs trtllm-serve or dynamo.trtllm"})
	}
}

// countedBy names the object of the set that already counts a pod's owner: its
// ReplicaSet's Deployment, its StatefulSet, its LeaderWorkerSet, a Dynamo
// component of a DynamoGraphDeployment in the set; "" when none is in the set.
func (r *reader) countedBy(ow owner) string {
	if r.controllers[ow.kind+"/"+ow.name] {
		return ow.kind + "/" + ow.name
	}
	if ow.kind == "ReplicaSet" {
		if i := strings.LastIndexByte(ow.name, '-'); i > 0 && r.controllers["Deployment/"+ow.name[:i]] {
			return "Deployment/" + ow.name[:i]
		}
	}
	if ow.kind == "DynamoComponentDeployment" || ow.kind == "DynamoGraphDeployment" {
		for k := range r.controllers {
			if name, ok := strings.CutPrefix(k, "DynamoGraphDeployment/"); ok && (ow.name == name || strings.HasPrefix(ow.name, name+"-")) {
				return k
			}
		}
	}
	return ""
}

func listOf(n *deploy.Node) []*deploy.Node {
	if n == nil || n.Kind != deploy.KindSeq {
		return nil
	}
	return n.Items
}

// launch is what a container's command line says about the TensorRT-LLM
// process it starts.
type launch struct {
	program  string // "trtllm-serve" or "dynamo.trtllm"
	sub      string // trtllm-serve's subcommand
	model    string
	config   string // --extra_llm_api_options / --config / --extra-engine-args
	flag     string
	role     string
	roleArg  string
	backend  string
	env      map[string]string // NAME=VALUE before the command, export lines
	envOrd   []string
	override string // dynamo --override-engine-args
	// dynamic are dynamo.trtllm's --trtllm.<key> <value> flags, in order
	// (dynamic.go).
	dynamic []dynFlag
	// overrideWhy says why override, holding a variable, is not known
	// ("" for one read as written).
	overrideWhy string
	served      string // dynamo --served-model-name
	// refused is why the launcher refuses the command line itself (an
	// option it does not have); "" when it takes it.
	refused string
	// moduleNote says the module was taken from its flags, not its name.
	moduleNote string
	// encode is a dynamo.trtllm --disaggregation-mode encode worker.
	encode bool
	// sidecar is Dynamo's TensorRT-LLM sidecar (python3 -m
	// dynamo.trtllm.sidecar): no engine of its own.
	sidecar bool
	// host and port are trtllm-serve's --host and --port as written ("" when
	// the command line has none): the address an orchestrator's urls name.
	host, port string
}

// encodeWorker says why a Dynamo encode worker is no KV-cache worker:
// dynamo.trtllm's engine.py (ai-dynamo/dynamo, verified) builds TRT-LLM's
// MultimodalEncoder(model, max_batch_size) for DisaggregationMode.ENCODE,
// not an LLM from the engine args: its cache_transceiver_config is not read.
func (r *reader) encodeWorker(src Source, l launch) {
	if l.sidecar {
		r.set.Unplaced = append(r.set.Unplaced, Unplaced{Source: src, Why: sidecarWhy})
		return
	}
	why := "a multimodal encode worker (dynamo.trtllm --disaggregation-mode encode): Dynamo builds TensorRT-LLM's MultimodalEncoder for it, not an LLM, so it has no KV-cache transceiver"
	if l.config != "" {
		why += "; its " + l.flag + " " + l.config
		if _, _, name, _, ok := r.matchPlain(l.config); ok {
			why += " (" + name + ")"
		}
		why += " is not read for one"
	}
	r.set.Unplaced = append(r.set.Unplaced, Unplaced{Source: src, Why: why + "; it sends prefill the image embeddings"})
}

// sidecarWhy says why Dynamo's TensorRT-LLM sidecar is no worker: srt-slurm's
// srtctl starts "python3 -m dynamo.trtllm.sidecar --grpc-endpoint
// 127.0.0.1:PORT" beside "python3 -m tensorrt_llm.commands.serve MODEL --grpc
// ... --extra_llm_api_options CONFIG", and Dynamo's docs call the sidecar "a
// CPU-only Dynamo worker that connects to TensorRT-LLM's native gRPC
// service": the engine is the serve process, read as trtllm-serve.
const sidecarWhy = "Dynamo's TensorRT-LLM sidecar (python3 -m dynamo.trtllm.sidecar): a CPU-only Dynamo worker that connects to a TensorRT-LLM engine's gRPC server; it builds no engine and has no KV-cache transceiver (the engine's own command, tensorrt_llm.commands.serve --grpc, decides that)"

// podEnv is the environment a pod template's Dynamo or Kubernetes wrapper gives
// (spec-level envs of a DynamoGraphDeployment), below the container's own.
type podEnv struct {
	vars  []EnvVar
	notes []string
}

// container reads one container; it reports whether it is a TensorRT-LLM
// worker (or orchestrator).
func (r *reader) container(o *object, t podTemplate, c *deploy.Node, outer *podEnv) bool {
	// The container's environment reaches its command line: Kubernetes
	// expands $(NAME) in command and args, a shell it runs expands $NAME.
	var cenv envSet
	if outer != nil {
		for _, e := range outer.vars {
			cenv.set(e)
		}
	}
	r.containerEnv(o, c, cenv.set, &Worker{})
	vars := map[string]string{}
	for k, e := range cenv.vars {
		vars[k] = e.Value
	}
	words := wordsOfEnv(c, vars, "command", "args")
	if s, _ := scriptShellOf(c, "command", "args"); s != nil && launchLines(s.Str) > 1 {
		// A script that starts several servers (a context and a
		// generation server and their orchestrator in one pod): read as
		// a shell script, each its own worker, its lines the manifest's.
		first := s.Line - 1
		if strings.Contains(strings.TrimRight(s.Str, "\n"), "\n") {
			first = s.Line // a block scalar's text starts on the next line
		}
		from := fmt.Sprintf("%s %s/%s container %s", origin(o.file, c.Line), o.kind, o.name, str(c, "name"))
		return r.runInPod(o, t, c, &cenv, o.file, strings.Repeat("\n", first)+s.Str, from, nil)
	}
	l, ok := parseLaunch(words)
	if !ok {
		return r.configMapRun(o, t, c, words, &cenv)
	}
	cname := str(c, "name")
	src := Source{File: o.file, Line: c.Line, Kind: o.kind, Name: o.name, Container: cname}
	if o.label != "" {
		src.Name = o.label
	}
	if t.part != "" {
		src.Container = cname + " (" + t.part + " template)"
	}
	if l.program == "trtllm-serve" && l.sub == "disaggregated" {
		why := "the disaggregated orchestrator (trtllm-serve disaggregated " + l.config + "): it routes requests; each worker's own --config decides its transceiver"
		if l.config != "" {
			// Its config, in a ConfigMap the pod mounts: its urls say
			// which of the set's servers serve which role.
			if root, locate, name, where, bad := r.findConfig(o, t.spec, c, l); bad == "" && root != nil {
				if d, err := deploy.ReadDisaggNode(name, root); err == nil && len(d.Servers) > 0 {
					r.addRoutes(d, name, "", "", locate)
					why += "; its config is " + where
				}
			}
		}
		r.set.Unplaced = append(r.set.Unplaced, Unplaced{Source: src, Why: why})
		return true
	}
	if l.program == "trtllm-serve" && l.sub == "disaggregated_mpi_worker" {
		r.set.Unplaced = append(r.set.Unplaced, Unplaced{Source: src, Why: mpiWhy(l.config)})
		return true
	}
	if l.encode || l.sidecar {
		r.encodeWorker(src, l)
		return true
	}
	w := &Worker{Name: o.name, Source: src, Count: t.count, CountFrom: t.countFrom, CommandError: l.refused}
	// The command line's values are said at the line that starts the
	// program (the command or args entry, a script's own line), not at the
	// container's first key, which may be its image or env, lines above.
	cmdLine := commandLine(c, programWord(l), c.Line, "command", "args")
	cmdAt := origin(o.file, cmdLine)
	if img := str(c, "image"); img != "" {
		w.Image, w.ImageOrigin = img, origin(o.file, line(c, "image"))
	}
	if cname != "" && cname != o.name && o.kind != "DynamoGraphDeployment" {
		w.Name = o.name + "/" + cname
	}
	if len(o.owners) > 0 {
		// A pod of a controller that is not in the set: name it after the
		// controller so its pods merge into one entry.
		ow := o.owners[0]
		name := ow.name
		if ow.kind == "ReplicaSet" {
			if i := strings.LastIndexByte(name, '-'); i > 0 {
				name = name[:i]
			}
		}
		w.Name = name
		if cname != "" {
			w.Name += "/" + cname
		}
		w.CountFrom = "pods of " + ow.kind + " " + ow.name + " in the set"
	}
	// Environment: the wrapper's, then envFrom, then env (Kubernetes gives env
	// precedence over envFrom).
	var env envSet
	if outer != nil {
		for _, e := range outer.vars {
			env.set(e)
		}
		w.Notes = append(w.Notes, outer.notes...)
	}
	r.containerEnv(o, c, env.set, w)
	for _, k := range l.envOrd {
		env.set(EnvVar{Name: k, Value: l.env[k], Origin: origin(o.file, commandLine(c, k+"=", cmdLine, "command", "args")) + " (command line)"})
	}
	w.Env = env.trtllm()
	if n := env.droppedNote(); n != "" {
		w.Notes = append(w.Notes, n)
	}
	// Role.
	switch {
	case l.role != "":
		w.Role, w.RoleFrom, w.roleBy = l.role, l.roleArg, "flag"
	case o.role != "":
		w.Role, w.RoleFrom, w.roleBy = o.role, o.roleFrom, "flag"
	default:
		if role := roleFromName(o.name + " " + cname); role != "" {
			w.Role, w.RoleFrom, w.roleBy = role, "inferred from the name "+o.name, "name"
		} else {
			w.Role, w.RoleFrom, w.roleUnknown = aggregatedWhy(l.program, "its name "+o.name)
		}
	}
	if l.program == "trtllm-serve" && o.kind != "DynamoGraphDeployment" {
		// Where an orchestrator's url reaches it: its Services, its
		// StatefulSet pods' names, its own name (routes.go).
		w.host = l.host
		w.port, w.portDefault = listenPort(l)
		w.place = &placement{kind: o.kind, name: o.name, namespace: o.namespace, labels: t.labels, ports: containerPorts(c), part: t.part}
	}
	if l.model != "" {
		w.Model, w.ModelOrigin = l.model, cmdAt+" (command line)"
		w.ServedModel = l.served
	}
	w.serveBackend(l, cmdAt)

	// Config file.
	if l.config == "" {
		w.Config = "none (TensorRT-LLM's defaults: no cache_transceiver_config)"
		w.key = "obj\x00" + o.kind + "/" + o.name + "\x00" + cname
		if handled, ok := r.overrideOnly(w, src, l, cmdAt); handled && !ok {
			return true
		}
		r.set.Workers = append(r.set.Workers, w)
		return true
	}
	// A config the container's own script writes (cat > PATH << EOF), else
	// one mounted or given.
	var root *deploy.Node
	var locate func(int) string
	var name, where, why string
	inScript := false
	if s, sh := scriptShellOf(c, "command", "args"); s != nil {
		root, locate, name, where, why, inScript = r.heredocConfig(o.file, s, sh, str(c, "workingDir"), l.config)
	}
	if !inScript && why == "" {
		// One an init container's script writes to a volume both mount
		// (an emptyDir the server reads).
		root, locate, name, where, why, inScript = r.initWritten(o, t, c, l.config)
	}
	if !inScript {
		root, locate, name, where, why = r.findConfig(o, t.spec, c, l)
	}
	if why != "" {
		r.unresolved(src, l.flag+" "+l.config+": "+why)
		return true
	}
	where, ok = r.readConfig(w, src, l, name, root, locate, where, cmdAt)
	if !ok {
		return true
	}
	w.key = "obj\x00" + o.kind + "/" + o.name + "\x00" + cname + "\x00" + where
	if len(o.owners) > 0 {
		w.key = "owned\x00" + w.Name + "\x00" + where
	}
	r.set.Workers = append(r.set.Workers, w)
	return true
}

// envSet is a worker's environment as its layers are laid in: a later
// setting of a name wins, names keep the order they were first set in.
type envSet struct {
	vars    map[string]EnvVar
	order   []string
	dropped int
}

func (e *envSet) set(v EnvVar) {
	if e.vars == nil {
		e.vars = map[string]EnvVar{}
	}
	if _, ok := e.vars[v.Name]; !ok {
		e.order = append(e.order, v.Name)
	}
	e.vars[v.Name] = v
}

// trtllm lists the TRTLLM_ variables, the ones the resolution reads.
//
// A worker carries at most maxOtherEnv variables the resolution does not
// read (beside every one it does): a deployment of thousands of workers
// each exporting thousands of TRTLLM_ variables would otherwise cost their
// product in memory and time. Note says what was left out.
func (e *envSet) trtllm() []EnvVar {
	var out []EnvVar
	others := 0
	e.dropped = 0
	for _, k := range e.order {
		if !strings.HasPrefix(k, "TRTLLM_") {
			continue
		}
		if !readEnv()[k] {
			if others >= maxOtherEnv {
				e.dropped++
				continue
			}
			others++
		}
		out = append(out, e.vars[k])
	}
	return out
}

// maxOtherEnv bounds the TRTLLM_ variables a worker shows that the
// resolution does not read.
const maxOtherEnv = 64

// droppedNote says how many variables trtllm left out; "" when none.
func (e *envSet) droppedNote() string {
	if e.dropped == 0 {
		return ""
	}
	return fmt.Sprintf("%d more TRTLLM_ variables that the transceiver's resolution does not read are not shown (the first %d are)", e.dropped, maxOtherEnv)
}

// readEnv are the variables the resolution reads.
var readEnv = sync.OnceValue(func() map[string]bool {
	m := map[string]bool{}
	for _, s := range resolver.EnvVars() {
		m[s.Name] = true
	}
	return m
})

// containerEnv reads env and envFrom.
func (r *reader) containerEnv(o *object, c *deploy.Node, set func(EnvVar), w *Worker) {
	for _, ef := range listOf(get(c, "envFrom")) {
		prefix := str(ef, "prefix")
		if ref := get(ef, "configMapRef"); ref != nil {
			name := str(ref, "name")
			cm, ok := r.configMap(o.file, o.namespace, name)
			if !ok {
				w.Notes = append(w.Notes, fmt.Sprintf("envFrom ConfigMap %s (%s) is not in the set; its variables are unknown", name, origin(o.file, ef.Line)))
				continue
			}
			for _, k := range cm.keys {
				p := cm.data[k]
				if p.Val.Kind == deploy.KindStr {
					set(EnvVar{Name: prefix + k, Value: p.Val.Str, Origin: fmt.Sprintf("%s (ConfigMap %s)", origin(cm.file, p.KeyLine), name)})
				}
			}
		}
		if ref := get(ef, "secretRef"); ref != nil {
			w.Notes = append(w.Notes, fmt.Sprintf("envFrom Secret %s (%s): its values are not in the set", str(ref, "name"), origin(o.file, ef.Line)))
		}
	}
	r.envList(o, get(c, "env"), set, w)
}

// envList reads a Kubernetes env list (also a Dynamo envs list).
func (r *reader) envList(o *object, list *deploy.Node, set func(EnvVar), w *Worker) {
	for _, e := range listOf(list) {
		name := str(e, "name")
		if name == "" {
			continue
		}
		if p, ok := e.Get("value"); ok {
			v := p.Val.Str
			if p.Val.Kind != deploy.KindStr {
				// Kubernetes wants a string; kubectl refuses a number here.
				v = strings.Trim(p.Val.Repr(), "'")
				w.Notes = append(w.Notes, fmt.Sprintf("env %s at %s is a YAML %s, not a string; the API server refuses it (quote it)", name, origin(o.file, p.KeyLine), p.Val.TypeName()))
			}
			set(EnvVar{Name: name, Value: v, Origin: origin(o.file, p.KeyLine)})
			continue
		}
		if ref := get(e, "valueFrom", "configMapKeyRef"); ref != nil {
			cmName, key := str(ref, "name"), str(ref, "key")
			if cm, ok := r.configMap(o.file, o.namespace, cmName); ok {
				if p, ok := cm.data[key]; ok && p.Val.Kind == deploy.KindStr {
					set(EnvVar{Name: name, Value: p.Val.Str, Origin: fmt.Sprintf("%s (ConfigMap %s, key %s)", origin(cm.file, p.KeyLine), cmName, key)})
					continue
				}
			}
			if strings.HasPrefix(name, "TRTLLM_") {
				w.Notes = append(w.Notes, fmt.Sprintf("%s comes from ConfigMap %s key %s, which is not in the set", name, cmName, key))
			}
			continue
		}
		if strings.HasPrefix(name, "TRTLLM_") && get(e, "valueFrom") != nil {
			w.Notes = append(w.Notes, fmt.Sprintf("%s comes from a Secret or the pod's fields (%s); its value is not in the set", name, origin(o.file, e.Line)))
		}
	}
}

// commandWords joins command and args into the words the container runs; a
// shell's -c script is split into words as the shell would (quotes, no
// expansion).
func commandWords(c *deploy.Node) []string { return wordsOf(c, "command", "args") }

// wordsOf is the command line the keys of c hold, in order (a container's
// command and args; a compose service's entrypoint and command): a list's
// items, or a string split as a shell splits it.
func wordsOf(c *deploy.Node, keys ...string) []string {
	var words []string
	for _, key := range keys {
		n := get(c, key)
		if n == nil {
			continue
		}
		if n.Kind == deploy.KindStr {
			words = append(words, shellWords(n.Str)...)
			continue
		}
		for _, it := range n.Items {
			if it.Kind == deploy.KindStr {
				words = append(words, it.Str)
			} else {
				words = append(words, strings.Trim(it.Repr(), "'"))
			}
		}
	}
	return unwrapShell(words)
}

// unwrapShell replaces a shell running a script (sh -c SCRIPT, bash -lc
// SCRIPT) by the script's words.
func unwrapShell(words []string) []string {
	for i := 0; i+1 < len(words); i++ {
		if b := path.Base(words[i]); (b == "sh" || b == "bash" || b == "dash" || b == "zsh") && strings.HasPrefix(words[i+1], "-") && strings.Contains(words[i+1], "c") {
			var out []string
			out = append(out, words[:i]...)
			for _, s := range words[i+2:] {
				out = append(out, shellWords(s)...)
			}
			return out
		}
	}
	return words
}

// wordsOfEnv is wordsOf with the container's environment laid in as the
// container would: $(NAME) in each command and args string as Kubernetes
// expands it ($$ escapes), then $NAME and ${NAME} in a shell's -c script.
func wordsOfEnv(c *deploy.Node, vars map[string]string, keys ...string) []string {
	if len(vars) == 0 {
		return wordsOf(c, keys...)
	}
	var items []string
	for _, key := range keys {
		n := get(c, key)
		if n == nil {
			continue
		}
		if n.Kind == deploy.KindStr {
			items = append(items, shellWords(k8sExpand(n.Str, vars))...)
			continue
		}
		for _, it := range n.Items {
			s := strings.Trim(it.Repr(), "'")
			if it.Kind == deploy.KindStr {
				s = it.Str
			}
			items = append(items, k8sExpand(s, vars))
		}
	}
	for i := 0; i+1 < len(items); i++ {
		if b := path.Base(items[i]); (b == "sh" || b == "bash" || b == "dash" || b == "zsh") && strings.HasPrefix(items[i+1], "-") && strings.Contains(items[i+1], "c") {
			v := newShellVars()
			for k, val := range vars {
				v.val[k], v.exported[k] = val, true
			}
			out := append([]string{}, items[:i]...)
			for _, s := range items[i+2:] {
				out = append(out, shellWords(v.expand(s))...)
			}
			return out
		}
	}
	return items
}

// k8sExpand replaces $(NAME) by the value of a variable the container
// defines, as Kubernetes does in command and args; $$ is a $; anything
// else stays as written.
func k8sExpand(s string, vars map[string]string) string {
	if !strings.Contains(s, "$(") {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '$' && i+1 < len(s) && s[i+1] == '$' {
			b.WriteByte('$')
			i++
			continue
		}
		if s[i] == '$' && i+1 < len(s) && s[i+1] == '(' {
			if j := strings.IndexByte(s[i:], ')'); j > 0 {
				if v, ok := vars[s[i+2:i+j]]; ok && b.Len()+len(v) <= maxShellExpand {
					b.WriteString(v)
					i += j
					continue
				}
			}
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

// shellWords splits a shell script into words: quotes are removed, ; && || |
// and newlines become their own words; nothing is expanded.
func shellWords(s string) []string {
	var out []string
	var cur strings.Builder
	in := false
	flush := func() {
		if in {
			out = append(out, cur.String())
			cur.Reset()
			in = false
		}
	}
	for i := 0; i < len(s); i++ {
		ch := s[i]
		switch {
		case ch == '\\' && i+1 < len(s):
			if s[i+1] == '\n' {
				i++
				continue
			}
			cur.WriteByte(s[i+1])
			in = true
			i++
		case ch == '\'':
			j := strings.IndexByte(s[i+1:], '\'')
			if j < 0 {
				j = len(s) - i - 1
			}
			cur.WriteString(s[i+1 : i+1+j])
			in = true
			i += j + 1
		case ch == '"':
			i++
			for ; i < len(s) && s[i] != '"'; i++ {
				if s[i] == '\\' && i+1 < len(s) && strings.IndexByte("\"\\$`", s[i+1]) >= 0 {
					i++
				}
				cur.WriteByte(s[i])
			}
			in = true
		case ch == ' ' || ch == '\t':
			flush()
		case ch == '\n' || ch == ';':
			flush()
			out = append(out, ";")
		case ch == '&' || ch == '|':
			flush()
			j := i
			for j < len(s) && s[j] == ch {
				j++
			}
			out = append(out, s[i:j])
			i = j - 1
		case ch == '#' && !in:
			for i < len(s) && s[i] != '\n' {
				i++
			}
			i--
		default:
			cur.WriteByte(ch)
			in = true
		}
	}
	flush()
	return out
}

var reAssign = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*=`) })

// mpiWhy says what trtllm-serve disaggregated_mpi_worker runs when its
// config is not read with it (a container's, whose file is not a script's).
func mpiWhy(config string) string {
	return "trtllm-serve disaggregated_mpi_worker -c " + config + ": its workers are the context_servers and generation_servers of that trtllm-serve disaggregated config, not this command's; audit the config as a file (xcvr audit FILE), or give it with the script that runs it"
}

// takesEngineArgs reports whether a command's words (up to the statement's
// end) pass --extra-engine-args, dynamo.trtllm's flag.
func takesEngineArgs(words []string) bool {
	for _, w := range words {
		if isSep(w) {
			return false
		}
		if w == "--extra-engine-args" || strings.HasPrefix(w, "--extra-engine-args=") {
			return true
		}
	}
	return false
}

// namesOnly are commands whose arguments name a program without running it.
var namesOnly = map[string]bool{"pkill": true, "pgrep": true, "killall": true, "kill": true, "grep": true, "egrep": true,
	"echo": true, "printf": true, "ps": true, "which": true, "type": true, "command": true, "hash": true, "tail": true, "cat": true, "sed": true, "awk": true}

func isSep(w string) bool { return w == ";" || w == "&&" || w == "||" || w == "|" || w == "&" }

// parseLaunch finds trtllm-serve or dynamo.trtllm in the words and reads their
// flags. Variables assigned before the command (FOO=1 cmd) or exported earlier
// in the script are its environment.
func parseLaunch(words []string) (launch, bool) {
	l := launch{env: map[string]string{}}
	start := -1
	names := false
	for i, w := range words {
		if i == 0 || isSep(words[i-1]) {
			names = false
		}
		if namesOnly[path.Base(w)] {
			// pkill -f trtllm-serve, srun ... pkill ..., grep
			// trtllm-serve: the rest of the statement only names it.
			names = true
		}
		if names {
			continue
		}
		b := path.Base(w)
		switch {
		case b == "trtllm-serve":
			l.program, start = "trtllm-serve", i+1
		case (w == "dynamo.trtllm" || w == "tensorrt_llm.commands.serve") && i > 0 && words[i-1] == "-m":
			l.program, start = w, i+1
			if w == "tensorrt_llm.commands.serve" {
				l.program = "trtllm-serve"
			}
		case strings.HasPrefix(w, "dynamo.trtllm.") && i > 0 && words[i-1] == "-m":
			// Dynamo's older dynamo.trtllm.worker and its
			// dynamo.trtllm.unified_main entry point take the same flags;
			// dynamo.trtllm.sidecar is no engine (sidecarWhy).
			l.program, start = "dynamo.trtllm", i+1
			l.sidecar = w == "dynamo.trtllm.sidecar"
		case strings.HasPrefix(w, "$") && i > 0 && words[i-1] == "-m" && takesEngineArgs(words[i+1:]):
			// python3 -m "$WORKER_MODULE" ... --extra-engine-args: Dynamo's
			// launch scripts pick dynamo.trtllm or its unified_main in a
			// sourced helper; --extra-engine-args is dynamo.trtllm's flag.
			l.program, start = "dynamo.trtllm", i+1
			l.moduleNote = "the module is " + w + ", which the script does not set (Dynamo's launch scripts pick dynamo.trtllm or dynamo.trtllm.unified_main); read as dynamo.trtllm for its --extra-engine-args"
		}
		if start >= 0 {
			break
		}
	}
	if start < 0 {
		return l, false
	}
	// Environment before the command.
	stmt := true
	for i := 0; i < start-1; i++ {
		w := words[i]
		if isSep(w) {
			stmt = true
			continue
		}
		if w == "export" {
			continue
		}
		if reAssign().MatchString(w) && (stmt || (i > 0 && words[i-1] == "export")) {
			k, v, _ := strings.Cut(w, "=")
			if _, ok := l.env[k]; !ok {
				l.envOrd = append(l.envOrd, k)
			}
			l.env[k] = v
			continue
		}
		stmt = false
	}
	args := words[start:]
	for i, w := range args {
		if isSep(w) {
			args = args[:i]
			break
		}
	}
	if l.program == "trtllm-serve" && len(args) > 0 {
		switch args[0] {
		case "serve", "disaggregated", "disaggregated_mpi_worker":
			l.sub, args = args[0], args[1:]
		}
	}
	value := func(i int, w string) (string, int) {
		if k, v, ok := strings.Cut(w, "="); ok && strings.HasPrefix(k, "--") {
			return v, i
		}
		if i+1 < len(args) {
			return args[i+1], i + 1
		}
		return "", i
	}
	for i := 0; i < len(args); i++ {
		w := args[i]
		name, _, _ := strings.Cut(w, "=")
		switch name {
		case "--extra_llm_api_options", "--extra-llm-api-options", "--config", "--extra-engine-args", "-c", "--config_file":
			l.flag = name
			if name == "--extra-llm-api-options" && l.program == "trtllm-serve" {
				l.refused = refusedOption(name, "--extra_llm_api_options")
			}
			l.config, i = value(i, w)
		case "--override-engine-args":
			l.override, i = value(i, w)
		case "--served-model-name":
			l.served, i = value(i, w)
		case "--model-path", "--model":
			l.model, i = value(i, w)
		case "--backend":
			l.backend, i = value(i, w)
		case "--host":
			l.host, i = value(i, w)
		case "--port":
			l.port, i = value(i, w)
		case "--disaggregation-mode":
			var v string
			v, i = value(i, w)
			l.roleArg = "--disaggregation-mode " + v
			switch strings.ToLower(v) {
			case "prefill", "context":
				l.role = RoleContext
			case "decode", "generation":
				l.role = RoleGeneration
			case "encode":
				l.encode = l.program == "dynamo.trtllm"
				l.role = RoleAggregated
			default:
				l.role = RoleAggregated
			}
		case "--server_role", "--server-role":
			var v string
			v, i = value(i, w)
			if name == "--server-role" && l.program == "trtllm-serve" {
				l.refused = refusedOption(name, "--server_role")
			}
			l.roleArg = name + " " + v
			switch strings.ToUpper(v) {
			case "CONTEXT":
				l.role = RoleContext
			case "GENERATION":
				l.role = RoleGeneration
			}
		default:
			if l.program == "dynamo.trtllm" && strings.HasPrefix(w, dynamicPrefix) {
				// parse_dynamic_flags: the next word is the value, the
				// whole word (an = in it too) the dotted key.
				if i+1 >= len(args) || strings.HasPrefix(args[i+1], "--") {
					l.refused = dynamoExits("Dynamic flag " + w + " requires a value")
					continue
				}
				l.dynamic = append(l.dynamic, dynFlag{flag: w, value: args[i+1]})
				i++
				continue
			}
			if !strings.HasPrefix(w, "-") && l.model == "" && l.program == "trtllm-serve" && (l.sub == "" || l.sub == "serve") {
				l.model = w
			}
		}
	}
	if len(l.dynamic) > 0 && l.override != "" {
		l.refused = dynamoExits("--override-engine-args and --trtllm.* dynamic flags are mutually exclusive. Use one or the other.")
	}
	return l, true
}

// dynamoExits is dynamo.trtllm's refusal of its command line: it logs the
// message at ERROR and exits 1 before any engine is built.
func dynamoExits(msg string) string {
	return "dynamo.trtllm refuses its command line and exits 1 (ERROR " + msg + ")"
}

// programWord is the word that names a launch's program in its command
// line.
func programWord(l launch) string {
	if l.program == "dynamo.trtllm" {
		return "dynamo.trtllm"
	}
	return "trtllm-serve"
}

// commandLine is the line of a container's command or args (a compose
// service's entrypoint or command: keys) that holds needle: an entry's own
// line, or inside a multi-line script (a block scalar, whose text starts on
// the line after its indicator) the script's line. def when none holds it
// (a value the expansion built, a module named otherwise).
func commandLine(c *deploy.Node, needle string, def int, keys ...string) int {
	at := func(n *deploy.Node) (int, bool) {
		if n == nil || n.Kind != deploy.KindStr {
			return 0, false
		}
		i := strings.Index(n.Str, needle)
		if i < 0 {
			return 0, false
		}
		base := n.Line
		if strings.Contains(strings.TrimRight(n.Str, "\n"), "\n") || strings.HasSuffix(n.Str, "\n") {
			// A block scalar (several lines, or a clipped > or |, the
			// only scalars that end in a newline): its text starts on
			// the line after the indicator. A >- keeps the indicator's.
			base++
		}
		return base + strings.Count(n.Str[:i], "\n"), true
	}
	for _, k := range keys {
		n := get(c, k)
		if l, ok := at(n); ok {
			return l
		}
		for _, it := range listOf(n) {
			if l, ok := at(it); ok {
				return l
			}
		}
	}
	return def
}

// refusedOption is trtllm-serve's refusal of an option spelled with a
// hyphen where it declares an underscore: tensorrt_llm/commands/serve.py
// (verified) declares --server_role and --config/--extra_llm_api_options
// only, on a click command without token_normalize_func, and click reads
// option names as written.
func refusedOption(name, declared string) string {
	return "trtllm-serve refuses its command line (Error: No such option: " + name + "): its option is " + declared + "; tensorrt_llm/commands/serve.py declares only that spelling and click does not read - for _"
}

// findConfig locates the worker YAML a container names: a ConfigMap mounted at
// the path, or a file of the set with that path. The overlay's origins say both
// places, e.g. "deploy.yaml:35 (ConfigMap trtllm-config, prefill.yaml:23)".
func (r *reader) findConfig(o *object, spec, c *deploy.Node, l launch) (root *deploy.Node, locate func(int) string, name, where, why string) {
	fail := func(w string) (*deploy.Node, func(int) string, string, string, string) { return nil, nil, "", "", w }
	p := l.config
	wd := str(c, "workingDir")
	if !strings.HasPrefix(p, "/") && wd != "" {
		p = path.Join(wd, p)
	}
	p = path.Clean(p)
	if cm, key, pair, mounted, why := r.mountedKey(o, spec, c, p); why != "" {
		return fail(why)
	} else if mounted {
		return r.configMapWorker(cm, key, pair)
	}
	if root, locate, name, where, ok := r.matchPlain(l.config); ok {
		return root, locate, name, where, ""
	}
	hint := r.unmountedHint(path.Base(p))
	if wd != "" && !strings.HasPrefix(l.config, "/") {
		return fail(fmt.Sprintf("no volume is mounted at %s (workingDir %s); the file is the image's own, not in the set%s", p, wd, hint))
	}
	return fail(fmt.Sprintf("no volume is mounted at %s; the file is the image's own, not in the set%s", p, hint))
}

// unmountedHint names the set's ConfigMaps that hold a key of the file's
// name, which the pod does not mount where the worker reads it: a
// blueprint that creates trtllm-decode-config with decode.yaml beside a
// DynamoGraphDeployment that mounts nothing (sjm446/ai-on-eks's
// trtllm-disagg) runs the image's own engine_configs/decode.yaml, not the
// ConfigMap's. "" when none does.
func (r *reader) unmountedHint(base string) string {
	seen := map[*configMap]bool{}
	var cms []*configMap
	for _, cm := range r.configMaps {
		if _, ok := cm.data[base]; ok && !seen[cm] {
			seen[cm] = true
			cms = append(cms, cm)
		}
	}
	if len(cms) == 0 {
		return ""
	}
	sort.Slice(cms, func(i, j int) bool {
		if cms[i].file != cms[j].file {
			return cms[i].file < cms[j].file
		}
		return cms[i].line < cms[j].line
	})
	var names []string
	for i, cm := range cms {
		if i == 3 {
			names = append(names, fmt.Sprintf("%d more", len(cms)-3))
			break
		}
		names = append(names, fmt.Sprintf("ConfigMap %s (%s)", cm.name, origin(cm.file, cm.line)))
	}
	return fmt.Sprintf("; %s of the set holds a key %s, but the pod mounts no ConfigMap at that path: the worker reads the image's file, not the ConfigMap's (mount it there to use it)", strings.Join(names, ", "), base)
}

// mountedKey finds the ConfigMap key a container sees at path p (absolute,
// cleaned) through its volumeMounts; mounted is false when no ConfigMap
// volume is mounted there, why says what is wrong when one is.
func (r *reader) mountedKey(o *object, spec, c *deploy.Node, p string) (cm *configMap, key string, pair deploy.Pair, mounted bool, why string) {
	volumes := map[string]*deploy.Node{}
	if spec != nil {
		for _, v := range listOf(get(spec, "volumes")) {
			volumes[str(v, "name")] = v
		}
	}
	for _, m := range listOf(get(c, "volumeMounts")) {
		mp := path.Clean(str(m, "mountPath"))
		sub := str(m, "subPath")
		rel := ""
		switch {
		case sub != "" && p == mp:
			rel = sub
		case sub == "" && strings.HasPrefix(p, mp+"/"):
			rel = p[len(mp)+1:]
		case sub == "" && mp == "/":
			rel = strings.TrimPrefix(p, "/")
		default:
			continue
		}
		vname := str(m, "name")
		v, ok := volumes[vname]
		if !ok {
			return nil, "", deploy.Pair{}, true, (fmt.Sprintf("volume %s (mounted at %s) is not in the pod spec", vname, mp))
		}
		cmName, key := "", rel
		if cmv := get(v, "configMap"); cmv != nil {
			cmName = str(cmv, "name")
			if items := get(cmv, "items"); items != nil && sub == "" {
				key = ""
				for _, it := range items.Items {
					if str(it, "path") == rel {
						key = str(it, "key")
					}
				}
				if key == "" {
					return nil, "", deploy.Pair{}, true, (fmt.Sprintf("ConfigMap %s is mounted at %s with items that do not include %s", cmName, mp, rel))
				}
			}
		} else if pj := get(v, "projected", "sources"); pj != nil {
			for _, s := range pj.Items {
				if cmv := get(s, "configMap"); cmv != nil {
					cmName = str(cmv, "name")
				}
			}
		}
		if cmName == "" {
			return nil, "", deploy.Pair{}, true, (fmt.Sprintf("it is on volume %s (mounted at %s), which is not a ConfigMap; the file is not in the set", vname, mp))
		}
		cm, ok := r.configMap(o.file, o.namespace, cmName)
		if !ok {
			return nil, "", deploy.Pair{}, true, (fmt.Sprintf("it is in ConfigMap %s (mounted at %s), which is not in the set", cmName, mp))
		}
		pair, ok := cm.data[key]
		if !ok {
			return nil, "", deploy.Pair{}, true, (fmt.Sprintf("ConfigMap %s (mounted at %s) has no key %s (it has %s)", cmName, mp, key, strings.Join(cm.keys, ", ")))
		}
		return cm, key, pair, true, ""
	}
	return nil, "", deploy.Pair{}, false, ""
}

func (r *reader) uniqueBase(b string) bool {
	n := 0
	for _, name := range r.plainOrder {
		if path.Base(name) == b {
			n++
		}
	}
	return n == 1
}

// configMapWorker reads a ConfigMap value as a worker YAML. Lines of a literal
// block value (data: {prefill.yaml: |}) map to the manifest's own lines.
func (r *reader) configMapWorker(cm *configMap, key string, pair deploy.Pair) (*deploy.Node, func(int) string, string, string, string) {
	where := fmt.Sprintf("ConfigMap %s key %s (%s)", cm.name, key, origin(cm.file, pair.KeyLine))
	if pair.Val.Kind != deploy.KindStr {
		return nil, nil, "", "", fmt.Sprintf("ConfigMap %s key %s is a YAML %s, not the text of a file", cm.name, key, pair.Val.TypeName())
	}
	doc, err := r.parseValue(key, pair.Val.Str)
	if err != nil {
		return nil, nil, "", "", fmt.Sprintf("%s: %v", where, err)
	}
	r.set.Warnings = append(r.set.Warnings, doc.Warnings...)
	base := pair.KeyLine
	literal := pair.Val.Line == pair.KeyLine || pair.Val.Line == pair.KeyLine+1
	locate := func(l int) string {
		// Called for every key of the worker's YAML: concatenated, not
		// formatted.
		at := base
		if literal {
			at = base + l
		}
		return origin(cm.file, at) + " (ConfigMap " + cm.name + ", " + origin(key, l) + ")"
	}
	return doc.Root, locate, key, where, ""
}

// parseValue parses a ConfigMap value as the file key. A set's workers
// usually share their configuration (a thousand Deployments, each with its own
// ConfigMap holding the same worker.yaml), so one text under one key is parsed
// once: nothing downstream changes a parsed tree (an override builds new nodes),
// and the lines of the result are the text's own.
func (r *reader) parseValue(key, text string) (*deploy.Doc, error) {
	k := parsedKey{key, text}
	if p, ok := r.parsed[k]; ok {
		return p.doc, p.err
	}
	doc, err := deploy.ParseYAML(key, []byte(text))
	if r.parsed == nil {
		r.parsed = map[parsedKey]parsedValue{}
	}
	r.parsed[k] = parsedValue{doc, err}
	return doc, err
}

type parsedKey struct{ key, text string }

type parsedValue struct {
	doc *deploy.Doc
	err error
}

// matchPlain finds the worker YAML of the set that a config path names: the
// same path, the same trailing path, or the same base name when only one file
// of the set has it.
func (r *reader) matchPlain(config string) (root *deploy.Node, locate func(int) string, name, where string, ok bool) {
	want := strings.TrimPrefix(path.Clean(config), "./")
	for _, n := range r.plainOrder {
		pf := r.plain[n]
		if pf.file == want || strings.HasSuffix(path.Clean(pf.file), "/"+want) || path.Base(pf.file) == path.Base(want) && r.uniqueBase(path.Base(want)) {
			pf.used = true
			file := pf.file
			return pf.doc.Root, func(line int) string { return origin(file, line) }, file, file + " (matched by its path " + config + ")", true
		}
	}
	return nil, nil, "", "", false
}

// serveBackend records trtllm-serve's --backend, on the command line at at.
func (w *Worker) serveBackend(l launch, at string) {
	if l.program == "trtllm-serve" && l.backend != "" {
		w.ServeBackend, w.ServeBackendOrigin = l.backend, at
	}
}

// readConfig reads root, the config a worker's launch l names, as
// TensorRT-LLM reads its --config, after laying the launch's
// --override-engine-args over it (the command line at cmdAt): on success w
// has its overlay, config and model (when it has none yet), and where, what
// the config is, is returned with the override said; otherwise the config is
// listed as not placed, with TensorRT-LLM's reason, and ok is false.
func (r *reader) readConfig(w *Worker, src Source, l launch, name string, root *deploy.Node, locate func(int) string, where, cmdAt string) (string, bool) {
	if strings.ContainsAny(l.override, "$`") {
		// $OVERRIDE_JSON, set from a sourced helper's output: not known,
		// and not a malformed JSON either.
		msg := overrideNotRead(l)
		w.Notes = append(w.Notes, msg)
		if l.overrideWhy == "" {
			// A script's launch warned where it read the line.
			r.warnOnce(cmdAt + ": " + msg)
		}
	} else if len(l.dynamic) > 0 {
		dyn, why := dynamicNode(l.dynamic)
		if why != "" {
			w.CommandError = dynamoExits(why)
		} else {
			if root != nil && root.Kind == deploy.KindMap {
				root = deepUpdate(root, dyn)
			} else {
				root = dyn
			}
			inner := locate
			locate = func(line int) string {
				if i := line - overrideLine; i >= 0 && i < len(l.dynamic) {
					return cmdAt + " (" + l.dynamic[i].flag + " " + l.dynamic[i].value + ")"
				}
				return inner(line)
			}
			where += " with its --trtllm.* flags (Dynamo's override_engine_args, deep_update)"
		}
	} else if l.override != "" {
		merged, note := overrideArgs(root, l.override)
		if note != "" {
			w.Notes = append(w.Notes, note)
		} else {
			root = merged
			at := cmdAt + " (--override-engine-args)"
			inner := locate
			locate = func(line int) string {
				if line >= overrideLine {
					return at
				}
				return inner(line)
			}
			where += " with --override-engine-args (deep_update)"
		}
	}
	ov, err := deploy.ReadWorkerNode(name, root, locate)
	if err != nil {
		r.unresolved(src, l.flag+" "+l.config+": "+where+": "+err.Error())
		return where, false
	}
	w.Overlay, w.Config = ov, where
	r.set.Warnings = append(r.set.Warnings, ov.Warnings...)
	if ov.Model != nil && w.Model == "" {
		w.Model, w.ModelOrigin = ov.Model.Raw, ov.Model.Origin.String()
	}
	return where, true
}

// overrideOnly reads a dynamo.trtllm worker that names no --extra-engine-args
// but overrides its engine args on the command line (--override-engine-args,
// or --trtllm.* flags): Dynamo's main.py lays them over its own defaults
// with deep_update whether or not a file is given (ai-dynamo/dynamo
// components/src/dynamo/trtllm, verified: "if config.override_engine_args
// != "": ... deep_update(arg_map, overrides)" follows the extra_engine_args
// branch, not inside it). handled is false when there is no such override;
// ok is false when the worker was listed as unresolved instead.
func (r *reader) overrideOnly(w *Worker, src Source, l launch, cmdAt string) (handled, ok bool) {
	if l.program != "dynamo.trtllm" || (l.override == "" && len(l.dynamic) == 0) {
		return false, false
	}
	empty := &deploy.Node{Kind: deploy.KindMap, Line: 1}
	_, ok = r.readConfig(w, src, l, "the command line", empty, func(int) string { return cmdAt },
		"none (no --extra-engine-args: dynamo.trtllm's own engine args)", cmdAt)
	return true, ok
}

// overrideLine marks the lines of --override-engine-args' values, so their
// origin names the command line instead of the file.
const overrideLine = 1 << 30

// overrideArgs lays Dynamo's --override-engine-args JSON over the engine
// args file as its deep_update does (nested dicts merged, anything else
// replaced); note says why it was not applied.
func overrideArgs(root *deploy.Node, js string) (*deploy.Node, string) {
	doc, err := deploy.ParseYAML("--override-engine-args", []byte(js))
	if err != nil || doc.Root == nil || doc.Root.Kind != deploy.KindMap {
		return nil, "--override-engine-args " + js + " is not a JSON object; dynamo.trtllm exits (\"override_engine_args must be a JSON object\" or a JSONDecodeError)"
	}
	markOverride(doc.Root)
	if root == nil || root.Kind != deploy.KindMap {
		return doc.Root, ""
	}
	return deepUpdate(root, doc.Root), ""
}

func markOverride(n *deploy.Node) {
	n.Line += overrideLine
	for i := range n.Pairs {
		n.Pairs[i].KeyLine += overrideLine
		markOverride(n.Pairs[i].Val)
	}
	for _, it := range n.Items {
		markOverride(it)
	}
}

func deepUpdate(target, source *deploy.Node) *deploy.Node {
	out := &deploy.Node{Kind: deploy.KindMap, Line: target.Line, Col: target.Col, Pairs: append([]deploy.Pair(nil), target.Pairs...)}
	for _, sp := range source.Pairs {
		found := false
		for i, tp := range out.Pairs {
			if tp.KeyString() != sp.KeyString() {
				continue
			}
			found = true
			if sp.Val.Kind == deploy.KindMap && tp.Val.Kind == deploy.KindMap {
				out.Pairs[i].Val = deepUpdate(tp.Val, sp.Val)
			} else {
				out.Pairs[i] = sp
			}
		}
		if !found {
			out.Pairs = append(out.Pairs, sp)
		}
	}
	return out
}

var _ = strconv.Itoa

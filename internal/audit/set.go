// Package audit reads a whole deployment — worker YAMLs, disaggregated YAMLs,
// Kubernetes manifests and kubectl List output, NVIDIA Dynamo
// DynamoGraphDeployments (v1alpha1 and v1beta1), docker compose files,
// upstream's Slurm submit configs, shell scripts and env files — into
// the TensorRT-LLM workers it runs, resolves each one, and says whether the
// context and generation workers can exchange KV cache. It reads only the bytes
// it is given (the CLI reads files through internal/guard) and writes nothing.
package audit

import (
	"crypto/sha256"
	"fmt"
	"path"
	"sort"
	"strconv"
	"strings"
	"sync"

	"xcvr/internal/deploy"
	"xcvr/resolver"
)

// The roles a worker can have.
const (
	RoleContext    = deploy.RoleContext
	RoleGeneration = deploy.RoleGeneration
	RoleAggregated = "aggregated"
)

// Input is one file of the set (or standard input, named "-").
type Input struct {
	Name string
	Data []byte
}

// Source says where a worker was found.
type Source struct {
	File string
	Line int
	// Kind and Name are the object's (Deployment trtllm-ctx, DynamoGraphDeployment
	// service prefill, submit config worker_config.ctx); empty for a plain file.
	Kind, Name string
	// Container is the container's name, for a pod.
	Container string
}

// String renders "deploy.yaml:12 Deployment/trtllm-ctx container trtllm".
func (s Source) String() string {
	var b strings.Builder
	b.WriteString(s.File)
	if s.Line > 0 {
		b.WriteString(":" + strconv.Itoa(s.Line))
	}
	if s.Kind != "" {
		b.WriteString(" " + s.Kind)
		if s.Name != "" {
			b.WriteString("/" + s.Name)
		}
	}
	if s.Container != "" {
		b.WriteString(" container " + s.Container)
	}
	return b.String()
}

// EnvVar is one variable of a worker's environment and where it was set.
type EnvVar struct {
	Name, Value string
	Origin      string
}

// Worker is one distinct TensorRT-LLM worker configuration and how many of it
// run.
type Worker struct {
	Name string
	Role string
	// RoleFrom says how the role is known (a flag, a section, the name).
	RoleFrom string
	Source   Source
	// Count is the replicas, servers or pods of this configuration; 0 when the
	// file does not say (a DaemonSet).
	Count int
	// CountFrom says where Count comes from.
	CountFrom string
	// Overlay is the worker's LLM args; nil when it is given none (defaults).
	Overlay *deploy.Overlay
	// Config names where the worker's YAML was found.
	Config string
	// Env is the worker's environment as the set gives it, TRTLLM_* only.
	Env []EnvVar
	// Model is the model the worker serves as written (an HF id or a path) and
	// where.
	Model       string
	ModelOrigin string
	// ServedModel is Dynamo's --served-model-name, a hint for the model when
	// Model is a path.
	ServedModel string
	// ServeBackend is trtllm-serve's --backend as written (pytorch,
	// _autodeploy, tensorrt) and where; "" when the command line has none.
	// The config's backend key wins over it: trtllm-serve lays the YAML over
	// its command line's arguments (update_llm_args_with_extra_dict).
	ServeBackend, ServeBackendOrigin string
	// Notes are things the reader could not know (a Secret's values) or chose.
	Notes []string
	// CommandError is why the worker's launcher refuses its command line
	// (trtllm-serve --server-role): it never starts, whatever its config.
	CommandError string
	// Image is the container image the worker runs, as written, and where
	// (image.go reads the TensorRT-LLM release from it).
	Image, ImageOrigin string

	// base is Name before groupNames told it apart by its deployment.
	base string

	key string
	// roleBy says how a script's worker got its role: "flag" (its command
	// line), "name" (its config's name), "routes" (an orchestrator's urls),
	// "" (none: aggregated); host and port are its trtllm-serve --host and
	// --port and script the script whose reading started it, for
	// routesRole.
	roleBy, host, port, script string
	// sameAt is the line of a script's background command whose key
	// leaves out its ports, devices and log (sameCommand); lines lists
	// those merged into it.
	// bg says the command runs in the background; open that every
	// command merged so far did, so the next one runs beside them.
	sameAt   string
	lines    []string
	bg, open bool
	// servedBy is the orchestrator file whose urls give the worker its
	// role or reach it (countServed).
	servedBy string
	// portDefault marks a port that is trtllm-serve's default, the command
	// line having no --port (listenPort).
	portDefault bool
	// place is where a Kubernetes or compose worker is reached (nil for a
	// script's, whose host is its --host).
	place *placement
	// roleUnknown marks a trtllm-serve worker nothing places in a role
	// (aggregatedWhy).
	roleUnknown bool
	// top is the script whose reading started a script's worker (the one
	// given to audit, not one it runs); "" for others.
	top string
	// Group names the deployment the worker belongs to when the set holds
	// several (groups.go): "" for the set's shared pool.
	Group string
}

// aggregatedWhy says why a worker with no role of its own is read as
// aggregated. dynamo.trtllm without --disaggregation-mode is aggregated
// (Dynamo's DEFAULT_DISAGGREGATION_MODE is DisaggregationMode.AGGREGATED);
// a trtllm-serve server serves whichever phase the orchestrator sends it,
// so its role is not known: named says what the name it was looked for in
// is (its config's name X, its name X).
func aggregatedWhy(program, named string) (role, why string, unknown bool) {
	if program == "dynamo.trtllm" {
		return RoleAggregated, "no --disaggregation-mode: dynamo.trtllm serves both phases (its default mode, aggregated)", false
	}
	return RoleAggregated, "role not known, read as aggregated: no --server_role, " + named + " says neither context nor generation, and no orchestrator url of the set reaches it", true
}

// unknownRoles notes, on each worker whose role is not known in a set
// that has context or generation workers, that it is checked against
// none of them, and how to place it. Run after routesRole.
func (r *reader) unknownRoles() {
	disagg := false
	for _, w := range r.set.Workers {
		disagg = disagg || w.Role != RoleAggregated
	}
	for _, w := range r.set.Workers {
		if !disagg || !w.roleUnknown || w.Role != RoleAggregated {
			continue
		}
		w.Notes = append(w.Notes, "the set's other workers are context and generation workers, and this one is checked against none of them: if it is one, give audit the orchestrator's config (trtllm-serve disaggregated -c FILE) whose urls list it, or start it with --server_role CONTEXT or GENERATION")
	}
}

// Unplaced is something that looks like part of a TensorRT-LLM deployment but
// could not be resolved: an object whose config file is not in the set, a kind
// audit does not read.
type Unplaced struct {
	Source Source
	Why    string
	// Worker is true for a TensorRT-LLM worker that audit found but could
	// not resolve: the config it names is not in the set or cannot be read.
	// The verdict then speaks for the other workers only, and audit exits
	// 1: a gate does not pass on a worker nobody checked.
	Worker bool
	// Runs counts a worker's line read more than once with the same
	// reason (a loop's iterations, a function's calls): said once, with
	// how often (0 and 1 are once).
	Runs int
}

// unresolved lists a worker found but not resolved (Unplaced.Worker); the
// same line and reason again (a loop's next iteration) is counted, not
// listed again.
func (r *reader) unresolved(src Source, why string) {
	for i := len(r.set.Unplaced) - 1; i >= 0 && i >= len(r.set.Unplaced)-maxUnresolvedLookback; i-- {
		if u := &r.set.Unplaced[i]; u.Worker && u.Why == why && u.Source == src {
			u.Runs = max(u.Runs, 1) + 1
			return
		}
	}
	r.set.Unplaced = append(r.set.Unplaced, Unplaced{Source: src, Why: why, Worker: true})
}

// maxUnresolvedLookback bounds the entries unresolved compares: the
// repeats it joins are a loop's, listed one after another.
const maxUnresolvedLookback = 8

// runsNote says how often an unplaced line ran; "" once.
func (u Unplaced) runsNote() string {
	if u.Runs <= 1 {
		return ""
	}
	return fmt.Sprintf(" (×%d: the same line, run %d times)", u.Runs, u.Runs)
}

// Orchestrator is a trtllm-serve disaggregated file that only lists its servers:
// each worker's own --config decides its transceiver.
type Orchestrator struct {
	Source  Source
	Servers map[string]deploy.Servers
	// Served counts the set's worker configurations whose --port (and
	// --host) is in its urls.
	Served int
	// ServedCount is their servers (replicas).
	ServedCount int
}

// Set is everything read from the inputs.
type Set struct {
	Workers       []*Worker
	Unplaced      []Unplaced
	Orchestrators []Orchestrator
	// Objects counts the documents and List items read.
	Objects  int
	Warnings []string
	// Copies are the deployments read twice, from two files with the same
	// bytes and the same workers: shown once (copies.go).
	Copies []Copy
	// files are the inputs' bytes, to say how two deployments of one
	// name differ (alike.go).
	files map[string][]byte
}

// Read reads every input. A file that is not YAML (nor an env file) is an error
// naming FILE:LINE; everything else is placed or listed as unplaced.
func Read(inputs []Input) (*Set, error) {
	r := &reader{set: &Set{}, configMaps: map[string]*configMap{}, plain: map[string]*plainFile{}, controllers: map[string]bool{}, expandLeft: maxExpandTotal, sums: map[string][32]byte{}}
	r.set.files = map[string][]byte{}
	for _, in := range inputs {
		r.sums[in.Name] = sha256.Sum256(in.Data)
		r.set.files[in.Name] = in.Data
		if isEnvFile(in.Name) {
			ef, err := deploy.ReadEnvFile(in.Name, in.Data)
			if err != nil {
				return nil, err
			}
			r.envFiles = append(r.envFiles, ef)
			r.set.Warnings = append(r.set.Warnings, ef.Warnings...)
			continue
		}
		if isScriptName(in.Name) || deploy.ShellScript(in.Name, in.Data) != nil {
			// A shell script (by its name, or a #! or #SBATCH file PyYAML
			// refuses): its commands, once every file is in.
			r.scripts = append(r.scripts, scriptFile{in.Name, in.Data})
			r.set.Objects++
			continue
		}
		docs, err := deploy.ParseYAMLDocsSkip(in.Name, in.Data, ownedPods(in.Data))
		if err != nil {
			if l := templateLine(in.Data); l > 0 {
				// A chart's template is not YAML until it is rendered: say
				// so and read the rest of the set.
				r.set.Unplaced = append(r.set.Unplaced, Unplaced{Source: Source{File: in.Name, Line: l},
					Why: "a template ({{ ... }}), not YAML until it is rendered: helm template CHART -f VALUES | xcvr audit - (" + firstLine(err.Error()) + ")"})
				continue
			}
			return nil, err
		}
		if len(docs) == 0 || allEmpty(docs) {
			// An empty stream: kubectl that failed (its error on the
			// terminal, nothing on the pipe), a file truncated to nothing.
			r.set.Warnings = append(r.set.Warnings, in.Name+": empty: no YAML document in it")
		}
		for _, d := range docs {
			r.set.Warnings = append(r.set.Warnings, d.Warnings...)
			if d.Skipped {
				// A Pod its controller, also in the input, counts.
				r.set.Objects++
				continue
			}
			if d.Root == nil {
				continue
			}
			r.set.Objects++
			r.classify(in.Name, d)
		}
	}
	for _, o := range r.objects {
		r.workload(o)
	}
	for _, c := range r.composes {
		r.compose(c.file, c.root)
	}
	r.readScripts()
	for _, name := range r.plainOrder {
		p := r.plain[name]
		if p.used {
			continue
		}
		r.plainWorker(p)
	}
	r.routesRole()
	r.groups()
	r.unknownRoles()
	r.applyEnvFiles()
	r.set.Workers = merge(r.set.Workers)
	r.copies()
	r.countServed()
	r.groupNames()
	return r.set, nil
}

func isEnvFile(name string) bool {
	b := path.Base(name)
	return strings.HasSuffix(b, ".env") || b == ".env" || strings.HasPrefix(b, ".env.") || strings.HasSuffix(b, ".envfile")
}

type configMap struct {
	file      string
	line      int
	name      string
	namespace string
	data      map[string]deploy.Pair
	keys      []string
}

type plainFile struct {
	file string
	doc  deploy.DocAt
	used bool
}

type object struct {
	// label, when set, names the object in sources instead of name.
	label     string
	file      string
	line      int
	kind      string
	name      string
	namespace string
	root      *deploy.Node
	owners    []owner
	// role and roleFrom are what a Dynamo service's subComponentType or a
	// component's type says of its role, when the command line does not.
	role, roleFrom string
}

type owner struct{ kind, name string }

type reader struct {
	// sums are each input file's SHA-256, to tell a copy of a file (copies).
	sums map[string][32]byte
	// warned are the warnings warnOnce gave.
	warned     map[string]bool
	set        *Set
	configMaps map[string]*configMap
	plain      map[string]*plainFile
	plainOrder []string
	objects    []*object
	// composes are the docker compose files, read once every file is in
	// (their configs are files of the set).
	composes    []composeFile
	scripts     []scriptFile
	scriptNames map[string]bool
	// disaggRoots are the disaggregated configs of the set, by file.
	disaggRoots map[string]*deploy.Node
	// mpiApplied are the disaggregated configs a disaggregated_mpi_worker
	// command of a script runs (their workers take its environment once).
	mpiApplied map[string]bool
	// expandLeft, scriptWork and scriptWorkNoted bound what the scripts'
	// reading costs (shell.go).
	expandLeft      int64
	scriptWork      int
	scriptWorkNoted bool
	// funcCalls counts the shell function calls followed (shellfunc.go);
	// the Noted flags say a cap was reached, once.
	funcCalls                      int
	funcDepthNoted, funcCallsNoted bool
	// loopIters counts the for-loop iterations run (shellloop.go).
	loopIters                      int
	loopItersNoted, loopTotalNoted bool
	controllers                    map[string]bool
	envFiles                       []*deploy.EnvFile
	// parsed holds the ConfigMap values parsed as worker YAMLs (parseValue).
	parsed map[parsedKey]parsedValue
	// routes are the servers the set's disaggregated configs list in their
	// urls (routes.go).
	routes []route
	// services are the set's Kubernetes Services (routes.go).
	services []service
}

func str(n *deploy.Node, key string) string {
	if p, ok := n.Get(key); ok && p.Val.Kind == deploy.KindStr {
		return p.Val.Str
	}
	return ""
}

func get(n *deploy.Node, keys ...string) *deploy.Node {
	for _, k := range keys {
		p, ok := n.Get(k)
		if !ok {
			return nil
		}
		n = p.Val
	}
	return n
}

func line(n *deploy.Node, key string) int {
	if p, ok := n.Get(key); ok {
		return p.KeyLine
	}
	return n.Line
}

// classify files a document: a Kubernetes object, a Slurm submit config, a
// disaggregated YAML or a worker YAML.
func (r *reader) classify(file string, d deploy.DocAt) {
	root := d.Root
	if root.Kind != deploy.KindMap {
		r.set.Unplaced = append(r.set.Unplaced, Unplaced{Source: Source{File: file, Line: root.Line},
			Why: "a YAML " + root.TypeName() + ", not a mapping: neither a worker config nor a Kubernetes object"})
		return
	}
	kind, api := str(root, "kind"), str(root, "apiVersion")
	if kind == "" || api == "" {
		if typ, at, ok := srtEngine(root); ok {
			r.srtRecipe(file, root, typ, at)
			return
		}
		if base := get(root, "base"); base != nil && base.Kind == deploy.KindMap {
			// An srt-slurm sweep file: base and override_* variants.
			if typ, at, ok := srtEngine(base); ok {
				r.set.Warnings = append(r.set.Warnings, fmt.Sprintf("%s: an srt-slurm sweep file: its base recipe is read, not its override_* variants", origin(file, line(root, "base"))))
				r.srtRecipe(file, base, typ, at)
				return
			}
		}
		if isSweepConfig(root) {
			r.sweepConfig(file, root)
			return
		}
	}
	switch {
	case kind != "" && api != "":
		meta := get(root, "metadata")
		o := &object{file: file, line: line(root, "kind"), kind: kind, root: root}
		if meta != nil {
			o.name, o.namespace = str(meta, "name"), str(meta, "namespace")
			if refs := get(meta, "ownerReferences"); refs != nil {
				for _, it := range refs.Items {
					o.owners = append(o.owners, owner{kind: str(it, "kind"), name: str(it, "name")})
				}
			}
		}
		if kind == "List" {
			// A List read whole (not kubectl's block style): its items are
			// the objects, not the List (as in block style, where only the
			// items are counted).
			r.set.Objects--
			items := get(root, "items")
			if items == nil || len(items.Items) == 0 {
				// kubectl get prints this for a namespace (or kinds) with
				// nothing in them: "items: []". Say so, or a gate passes on
				// nothing.
				r.set.Warnings = append(r.set.Warnings, fmt.Sprintf("%s: a List with no items: kubectl get found no objects (check its -n namespace, its context and the kinds it asked for)", origin(file, line(root, "items"))))
				return
			}
			for _, it := range items.Items {
				r.set.Objects++
				r.classify(file, deploy.DocAt{Root: it, Line: it.Line})
			}
			return
		}
		if kind == "ConfigMap" {
			cm := &configMap{file: file, line: o.line, name: o.name, namespace: o.namespace, data: map[string]deploy.Pair{}}
			if data := get(root, "data"); data != nil {
				for _, p := range data.Pairs {
					k := p.KeyString()
					cm.data[k] = p
					cm.keys = append(cm.keys, k)
				}
			}
			r.configMaps[cmKey(o.namespace, o.name)] = cm
			r.configMaps[file+"\x00"+cmKey(o.namespace, o.name)] = cm
			return
		}
		r.controllers[o.kind+"/"+o.name] = true
		r.objects = append(r.objects, o)
	case get(root, "worker_config") != nil && (get(root, "worker_config", "ctx") != nil || get(root, "worker_config", "gen") != nil):
		r.slurm(file, root)
	case get(root, "context_servers") != nil || get(root, "generation_servers") != nil:
		if r.disaggRoots == nil {
			r.disaggRoots = map[string]*deploy.Node{}
		}
		r.disaggRoots[file] = root
		r.disagg(file, root, false)
	case isCompose(root):
		r.composes = append(r.composes, composeFile{file, root})
	default:
		if _, seen := r.plain[file]; seen {
			// A second worker document in one file: TensorRT-LLM reads one.
			r.set.Unplaced = append(r.set.Unplaced, Unplaced{Source: Source{File: file, Line: d.Line},
				Why: "a second YAML document in a worker config; yaml.safe_load refuses a file with more than one"})
			return
		}
		r.plain[file] = &plainFile{file: file, doc: d}
		r.plainOrder = append(r.plainOrder, file)
	}
}

// allEmpty reports whether every document of a stream is empty (comments,
// "---" alone).
func allEmpty(docs []deploy.DocAt) bool {
	for _, d := range docs {
		if d.Root != nil || d.Skipped {
			return false
		}
	}
	return true
}

func cmKey(ns, name string) string { return ns + "/" + name }

// configMap is the ConfigMap ns/name an object of file refers to: the one
// of its own file when that file defines one (a manifest vendored twice,
// deploy.yaml and kustomize/base/deploy.yaml, each reads its own), else
// the set's last of that name.
func (r *reader) configMap(file, ns, name string) (*configMap, bool) {
	if cm, ok := r.configMaps[file+"\x00"+cmKey(ns, name)]; ok {
		return cm, true
	}
	cm, ok := r.configMaps[cmKey(ns, name)]
	return cm, ok
}

// roleFromName guesses a role from a name's words (ctx, prefill, gen, decode);
// "" when none says.
func roleFromName(s string) string {
	words := strings.FieldsFunc(strings.ToLower(s), func(r rune) bool {
		return !(r >= 'a' && r <= 'z' || r >= '0' && r <= '9')
	})
	for _, w := range words {
		switch w {
		case "ctx", "context", "prefill", "p":
			if w != "p" {
				return RoleContext
			}
		case "gen", "generation", "decode", "decoder":
			return RoleGeneration
		}
	}
	return ""
}

// plainWorker is a worker YAML that no object of the set refers to: one worker.
func (r *reader) plainWorker(p *plainFile) {
	if k := helmValuesKey(p.file, p.doc.Root); k != "" {
		r.set.Unplaced = append(r.set.Unplaced, Unplaced{Source: Source{File: p.file, Line: p.doc.Line},
			Why: "a Helm chart's values (its key " + k + " is no TensorRT-LLM option), not a worker config: render the chart (helm template CHART -f " + path.Base(p.file) + " | xcvr audit -)"})
		return
	}
	if keys, ok := notOptions(p.doc.Root); ok {
		r.set.Unplaced = append(r.set.Unplaced, Unplaced{Source: Source{File: p.file, Line: p.doc.Line},
			Why: fmt.Sprintf("not a worker config: none of its %d top-level keys (%s) is an option of any TensorRT-LLM release xcvr knows; nor a Kubernetes object, a Slurm submit config (worker_config), a disaggregated config (context_servers) or a docker compose file", len(p.doc.Root.Pairs), keys)})
		return
	}
	ov, err := deploy.ReadWorkerNode(p.file, p.doc.Root, nil)
	w := &Worker{Name: path.Base(p.file), Source: Source{File: p.file, Line: p.doc.Line}, Config: p.file, Count: 1, CountFrom: "one file"}
	if err != nil {
		r.unresolved(w.Source, err.Error())
		return
	}
	w.Overlay = ov
	r.set.Warnings = append(r.set.Warnings, ov.Warnings...)
	w.Role, w.RoleFrom = RoleAggregated, "nothing in the file says (a worker YAML alone)"
	if role := roleFromName(path.Base(p.file)); role != "" {
		w.Role, w.RoleFrom = role, "inferred from the file name"
	}
	if ov.Model != nil {
		w.Model, w.ModelOrigin = ov.Model.Raw, ov.Model.Origin.String()
	}
	w.key = "plain\x00" + p.file
	r.set.Workers = append(r.set.Workers, w)
}

// notOptions reports whether a mapping of two keys or more has none that
// any release's TorchLlmArgs accepts (a test harness's or another tool's
// YAML, not a worker's: a worker YAML with a typo has its other keys right);
// keys names the first few.
func notOptions(root *deploy.Node) (keys string, ok bool) {
	if root.Kind != deploy.KindMap || len(root.Pairs) < 2 {
		return "", false
	}
	var names []string
	for _, p := range root.Pairs {
		k := p.KeyString()
		if anyRelease()[k] {
			return "", false
		}
		if len(names) < 4 {
			names = append(names, k)
		}
	}
	if len(root.Pairs) > len(names) {
		names = append(names, "…")
	}
	return strings.Join(names, ", "), true
}

// anyRelease is the set of top-level keys some release xcvr knows accepts.
var anyRelease = sync.OnceValue(func() map[string]bool {
	m := map[string]bool{}
	for _, v := range resolver.KnownVersions() {
		for _, f := range resolver.ArgsFieldsFor(v).Fields {
			m[f] = true
		}
	}
	return m
})

// disagg reads a trtllm-serve disaggregated -c file: two workers (one per
// section), or, for a file that only lists server addresses, an orchestrator.
func (r *reader) disagg(file string, root *deploy.Node, run bool) {
	d, err := deploy.ReadDisaggNode(file, root)
	src := Source{File: file, Line: root.Line, Kind: "disaggregated config"}
	if err != nil {
		r.set.Unplaced = append(r.set.Unplaced, Unplaced{Source: src, Why: err.Error()})
		return
	}
	r.set.Warnings = append(r.set.Warnings, d.Warnings...)
	r.addRoutes(d, path.Base(file), "", file, func(l int) string { return origin(file, l) })
	if d.OrchestratorOnly() && !run {
		r.set.Orchestrators = append(r.set.Orchestrators, Orchestrator{Source: src, Servers: d.Servers})
		return
	}
	for _, role := range deploy.Roles() {
		ov := d.Roles[role]
		sec := map[string]string{RoleContext: "context_servers", RoleGeneration: "generation_servers"}[role]
		w := &Worker{Name: sec, Role: role, RoleFrom: "section " + sec, Source: Source{File: file, Line: line(root, sec), Kind: "disaggregated config", Name: sec},
			Overlay: ov, Config: file + " " + sec, Count: 1, CountFrom: "num_instances default"}
		if s, ok := d.Servers[role]; ok && s.InstancesLine > 0 && s.Instances == 0 {
			// num_instances: 0 starts no server of the role
			// (disagg_utils.extract_ctx_gen_cfgs makes [None] * 0 of
			// them): TensorRT-LLM's gen-only benchmark configs
			// (disagg_config_gen_only.yaml) have no context server. It
			// was a context worker of its own, off, given a fix.
			r.set.Unplaced = append(r.set.Unplaced, Unplaced{Source: w.Source,
				Why: fmt.Sprintf("num_instances: 0 (%s:%d): no %s server is started (extract_ctx_gen_cfgs makes none); the other role's servers run without it", file, s.InstancesLine, role)})
			continue
		}
		if s, ok := d.Servers[role]; ok {
			w.Count = s.Instances
			if s.InstancesLine > 0 {
				w.CountFrom = fmt.Sprintf("num_instances (%s:%d)", file, s.InstancesLine)
			}
			if len(s.URLs) > 0 && len(s.URLs) != s.Instances {
				w.Notes = append(w.Notes, fmt.Sprintf("ValueError: Number of hostnames (%d) should be equal to the number of instances (%d)", len(s.URLs), s.Instances))
			}
		}
		if ov.Model != nil {
			w.Model, w.ModelOrigin = ov.Model.Raw, ov.Model.Origin.String()
		}
		// backend: trt (the TensorRT engine) in the section or above it, as
		// the test configs' disagg_config_ctxtp2_gentp1_trt_backend.yaml.
		for _, n := range []*deploy.Node{get(root, sec), root} {
			if b := str(n, "backend"); b == "trt" || b == "tensorrt" {
				w.Notes = append(w.Notes, fmt.Sprintf("backend '%s' (%s) runs the TensorRT engine (trtllm-serve builds tensorrt_llm._tensorrt_engine.LLM for it), not the PyTorch path xcvr models (pytorch, _autodeploy): its transceiver is the C++ executor's own; the prediction below is the PyTorch path's", b, origin(file, line(n, "backend"))))
				break
			}
		}
		w.key = "disagg\x00" + file + "\x00" + role
		r.set.Workers = append(r.set.Workers, w)
	}
}

// applyEnvFiles lays the env files of the set under every worker's own
// environment: a variable the worker's object sets wins.
func (r *reader) applyEnvFiles() {
	if len(r.envFiles) == 0 {
		return
	}
	for _, w := range r.set.Workers {
		have := map[string]bool{}
		for _, e := range w.Env {
			have[e.Name] = true
		}
		for _, ef := range r.envFiles {
			if strings.HasPrefix(w.key, "compose\x00") && path.Base(ef.File) == ".env" && path.Dir(ef.File) == path.Dir(w.Source.File) {
				// The compose project's .env interpolates the file; it
				// reaches a container only through env_file (then already
				// in its environment).
				continue
			}
			for _, k := range ef.Names {
				if !strings.HasPrefix(k, "TRTLLM_") || have[k] {
					continue
				}
				v := ef.Vars[k]
				w.Env = append(w.Env, EnvVar{Name: k, Value: v.Value, Origin: v.Origin.String()})
				have[k] = true
			}
		}
	}
}

// merge joins workers of one configuration (the pods of one controller) into
// one entry with their count.
func merge(ws []*Worker) []*Worker {
	var out []*Worker
	at := map[string]int{}
	for _, w := range ws {
		k := w.key + "\x00" + envKey(w.Env)
		if strings.HasPrefix(w.key, "obj\x00") {
			// One object's name in two files (a manifest vendored twice):
			// each file's own, not one object's pods counted twice
			// (copies tells copies apart).
			k += "\x00" + w.Source.File
		}
		if i, ok := at[k]; ok && w.key != "" && (w.sameAt == "" || out[i].open) {
			out[i].Count += w.Count
			if w.sameAt != "" {
				out[i].lines = append(out[i].lines, w.sameAt)
				out[i].open = w.bg
			}
			continue
		}
		w.open = w.bg
		at[k] = len(out)
		out = append(out, w)
	}
	for _, w := range out {
		if len(w.lines) > 0 {
			w.CountFrom = fmt.Sprintf("one per command line: %s and %s, the same command but for its ports, devices, nodes and logs", strings.Join(append([]string{w.sameAt}, w.lines[:len(w.lines)-1]...), ", "), w.lines[len(w.lines)-1])
		}
	}
	return out
}

func envKey(env []EnvVar) string {
	parts := make([]string, 0, len(env))
	for _, e := range env {
		parts = append(parts, e.Name+"="+e.Value)
	}
	sort.Strings(parts)
	return strings.Join(parts, "\x00")
}

// warnOnce adds a warning the set does not hold yet (a loop's iterations,
// a function's calls, read the same line again).
func (r *reader) warnOnce(msg string) {
	if r.warned == nil {
		r.warned = map[string]bool{}
	}
	if !r.warned[msg] {
		r.warned[msg] = true
		r.set.Warnings = append(r.set.Warnings, msg)
	}
}

// origin renders a file line.
func origin(file string, line int) string { return file + ":" + strconv.Itoa(line) }

var _ = resolver.OriginFile

// templateLine is the line of the first {{ of a file that holds Go
// template actions (a Helm chart's templates/*.yaml); 0 when none.
func templateLine(data []byte) int {
	i := strings.Index(string(data), "{{")
	if i < 0 || !strings.Contains(string(data[i:]), "}}") {
		return 0
	}
	return 1 + strings.Count(string(data[:i]), "\n")
}

// helmValuesKey is the first top-level key of a Helm values file (values.yaml,
// values-prod.yaml, prod.values.yaml) that no release's TorchLlmArgs
// accepts; "" when the file is not named so or every key is an option.
func helmValuesKey(file string, root *deploy.Node) string {
	b := strings.ToLower(path.Base(file))
	if !(b == "values.yaml" || b == "values.yml" || strings.HasPrefix(b, "values-") || strings.HasSuffix(b, ".values.yaml") || strings.HasSuffix(b, "-values.yaml")) {
		return ""
	}
	if root == nil || root.Kind != deploy.KindMap {
		return ""
	}
	for _, p := range root.Pairs {
		if k := p.KeyString(); !anyRelease()[k] {
			return k
		}
	}
	return ""
}

func firstLine(s string) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i]
	}
	return s
}

package audit

import (
	"fmt"
	"strings"

	"xcvr/internal/deploy"
)

// dynamo reads an NVIDIA Dynamo DynamoGraphDeployment: each service whose main
// container runs dynamo.trtllm (or trtllm-serve) is a worker; its role is
// --disaggregation-mode (prefill: context, decode: generation), its config the
// --extra-engine-args file (a mounted ConfigMap, or a file of the set), its
// environment spec.envs, then the service's envs, then the container's env.
func (r *reader) dynamo(o *object) {
	services := get(o.root, "spec", "services")
	if services == nil || services.Kind != deploy.KindMap {
		r.set.Unplaced = append(r.set.Unplaced, Unplaced{Source: Source{File: o.file, Line: o.line, Kind: o.kind, Name: o.name}, Why: "no spec.services"})
		return
	}
	var global []EnvVar
	gset := func(e EnvVar) { global = append(global, e) }
	scratch := &Worker{}
	r.envList(o, get(o.root, "spec", "envs"), gset, scratch)
	for _, p := range services.Pairs {
		name := p.KeyString()
		svc := p.Val
		src := Source{File: o.file, Line: p.KeyLine, Kind: o.kind, Name: o.name + " service " + name}
		if svc.Kind != deploy.KindMap {
			continue
		}
		ct := str(svc, "componentType")
		eps := get(svc, "extraPodSpec")
		mc := get(eps, "mainContainer")
		if mc == nil {
			if ct == "worker" {
				r.set.Unplaced = append(r.set.Unplaced, Unplaced{Source: src, Why: "a worker service without extraPodSpec.mainContainer: its command is the image's default, not in the set"})
			}
			continue
		}
		n, from := 1, "replicas default (1)"
		if v, l, ok := intAt(svc, "replicas"); ok {
			n, from = v, fmt.Sprintf("replicas (%s)", origin(o.file, l))
		}
		if v, l, ok := intAt(svc, "multinode", "nodeCount"); ok {
			from += fmt.Sprintf(", %d nodes each (multinode.nodeCount, %s)", v, origin(o.file, l))
		}
		env := &podEnv{vars: append([]EnvVar(nil), global...), notes: scratch.Notes}
		sw := &Worker{}
		r.envList(o, get(svc, "envs"), func(e EnvVar) { env.vars = append(env.vars, e) }, sw)
		env.notes = append(env.notes, sw.Notes...)
		if s := str(svc, "envFromSecret"); s != "" {
			env.notes = append(env.notes, fmt.Sprintf("envFromSecret %s (%s): its values are not in the set", s, origin(o.file, line(svc, "envFromSecret"))))
		}
		svcObj := &object{label: o.name + " service " + name, file: o.file, line: p.KeyLine, kind: o.kind, name: name, namespace: o.namespace, root: o.root}
		t := podTemplate{spec: eps, count: n, countFrom: from}
		if !r.container(svcObj, t, mc, env) && ct == "worker" {
			r.set.Unplaced = append(r.set.Unplaced, Unplaced{Source: src, Why: "a worker service whose main container runs neither dynamo.trtllm nor trtllm-serve (" + strings.Join(commandWords(mc), " ") + ")"})
		}
	}
}

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
	if comps := get(o.root, "spec", "components"); comps != nil && comps.Kind == deploy.KindSeq {
		r.dynamoComponents(o, comps)
		return
	}
	services := get(o.root, "spec", "services")
	if services == nil || services.Kind != deploy.KindMap {
		r.set.Unplaced = append(r.set.Unplaced, Unplaced{Source: Source{File: o.file, Line: o.line, Kind: o.kind, Name: o.name}, Why: "neither spec.services (v1alpha1) nor spec.components (v1beta1)"})
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
				r.unresolved(src, "a worker service without extraPodSpec.mainContainer: its command is the image's default, not in the set")
			}
			continue
		}
		n, from := dynamoCount(o, svc)
		env := &podEnv{vars: append([]EnvVar(nil), global...), notes: scratch.Notes}
		sw := &Worker{}
		r.envList(o, get(svc, "envs"), func(e EnvVar) { env.vars = append(env.vars, e) }, sw)
		env.notes = append(env.notes, sw.Notes...)
		if s := str(svc, "envFromSecret"); s != "" {
			env.notes = append(env.notes, fmt.Sprintf("envFromSecret %s (%s): its values are not in the set", s, origin(o.file, line(svc, "envFromSecret"))))
		}
		svcObj := &object{label: o.name + " service " + name, file: o.file, line: p.KeyLine, kind: o.kind, name: name, namespace: o.namespace, root: o.root}
		svcObj.role, svcObj.roleFrom = dynamoRole(o, svc, "subComponentType")
		t := podTemplate{spec: eps, count: n, countFrom: from}
		if !r.container(svcObj, t, mc, env) && ct == "worker" {
			r.set.Unplaced = append(r.set.Unplaced, Unplaced{Source: src, Why: "a worker service whose main container runs neither dynamo.trtllm nor trtllm-serve (" + strings.Join(commandWords(mc), " ") + ")"})
		}
	}
}

// dynamoComponents reads the v1beta1 form of a DynamoGraphDeployment:
// spec.components, a list of {name, type, replicas, multinode, podTemplate},
// each a pod template whose containers are read as a Deployment's are (the
// one that runs dynamo.trtllm or trtllm-serve is the worker), below spec.env.
func (r *reader) dynamoComponents(o *object, comps *deploy.Node) {
	var global []EnvVar
	scratch := &Worker{}
	r.envList(o, get(o.root, "spec", "env"), func(e EnvVar) { global = append(global, e) }, scratch)
	for _, comp := range listOf(comps) {
		if comp.Kind != deploy.KindMap {
			continue
		}
		name, typ := str(comp, "name"), str(comp, "type")
		src := Source{File: o.file, Line: comp.Line, Kind: o.kind, Name: o.name + " component " + name}
		spec := get(comp, "podTemplate", "spec")
		worker := typ == "worker" || typ == "prefill" || typ == "decode"
		if spec == nil {
			if worker {
				r.unresolved(src, "a "+typ+" component without podTemplate.spec: its command is the image's default, not in the set")
			}
			continue
		}
		n, from := dynamoCount(o, comp)
		compObj := &object{label: o.name + " component " + name, file: o.file, line: comp.Line, kind: o.kind, name: name, namespace: o.namespace, root: o.root}
		compObj.role, compObj.roleFrom = dynamoRole(o, comp, "type")
		t := podTemplate{spec: spec, count: n, countFrom: from}
		found := false
		var words []string
		for _, c := range listOf(get(spec, "containers")) {
			env := &podEnv{vars: append([]EnvVar(nil), global...), notes: scratch.Notes}
			if r.container(compObj, t, c, env) {
				found = true
			} else if words == nil {
				words = commandWords(c)
			}
		}
		if !found && worker {
			r.set.Unplaced = append(r.set.Unplaced, Unplaced{Source: src, Why: "a " + typ + " component whose containers run neither dynamo.trtllm nor trtllm-serve (" + strings.Join(words, " ") + ")"})
		}
	}
}

// dynamoCount is a service's or component's count: its replicas, with
// multinode.nodeCount noted (each replica spans that many nodes).
func dynamoCount(o *object, n *deploy.Node) (int, string) {
	count, from := 1, "replicas default (1)"
	if v, l, ok := intAt(n, "replicas"); ok {
		count, from = v, fmt.Sprintf("replicas (%s)", origin(o.file, l))
	}
	if v, l, ok := intAt(n, "multinode", "nodeCount"); ok {
		from += fmt.Sprintf(", %d nodes each (multinode.nodeCount, %s)", v, origin(o.file, l))
	}
	return count, from
}

// dynamoRole is the role a Dynamo service's subComponentType (v1alpha1) or
// a component's type (v1beta1) names, prefill or decode: the role of a
// worker whose command line does not say (--disaggregation-mode wins).
func dynamoRole(o *object, n *deploy.Node, key string) (role, from string) {
	switch str(n, key) {
	case "prefill":
		role = RoleContext
	case "decode":
		role = RoleGeneration
	default:
		return "", ""
	}
	return role, fmt.Sprintf("%s %s (%s)", key, str(n, key), origin(o.file, line(n, key)))
}

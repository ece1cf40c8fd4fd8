package audit

import (
	"fmt"
	"strings"

	"xcvr/internal/deploy"
)

// An srt-slurm recipe (NVIDIA/srt-slurm, the srtctl tool; its recipes/
// directory holds Dynamo + TensorRT-LLM disaggregated benchmarks) names each
// worker role's TensorRT-LLM engine YAML, environment and count. Two forms,
// both read as srtctl reads them (src/srtctl/core/roles.py: expand_roles is
// the v2 form's normalisation onto the v1 fields):
//
//	v1: backend: {type: trtllm, trtllm_config: {prefill, decode, aggregated},
//	    prefill_environment, decode_environment, aggregated_environment},
//	    resources: {prefill_workers, decode_workers, agg_workers}
//	v2: engine: trtllm (or {type: trtllm, ...}), roles: {prefill, decode, agg:
//	    {workers, env, args}}
//
// srtctl dumps each role's engine YAML to /logs/trtllm_config_<mode>.yaml and
// runs python3 -m dynamo.trtllm --disaggregation-mode <mode> --extra-engine-args
// on it (frontend.type dynamo, the default), or trtllm-serve --config
// (frontend.type trtllm_serve), with the role's environment
// (src/srtctl/backends/trtllm.py build_worker_command).

// srtRoles are the recipe's roles: the v2 name, the v1 mode key, the role.
var srtRoles = []struct{ role, mode, xrole string }{
	{"prefill", "prefill", RoleContext},
	{"decode", "decode", RoleGeneration},
	{"agg", "aggregated", RoleAggregated},
}

// srtEngine is a recipe's engine type and where it is said; ok is false for a
// document that is no srt-slurm recipe. A TensorRT-LLM worker YAML's backend
// and model are strings: a recipe's backend and model are mappings, and only a
// recipe has roles or engine.
func srtEngine(root *deploy.Node) (typ string, at int, ok bool) {
	backend, model, roles := get(root, "backend"), get(root, "model"), get(root, "roles")
	isMap := func(n *deploy.Node) bool { return n != nil && n.Kind == deploy.KindMap }
	if e, has := root.Get("engine"); has && (isMap(model) || isMap(roles)) {
		switch {
		case e.Val.Kind == deploy.KindStr:
			return e.Val.Str, e.KeyLine, true
		case isMap(e.Val) && str(e.Val, "type") != "":
			return str(e.Val, "type"), line(e.Val, "type"), true
		}
		if isMap(backend) && str(backend, "type") != "" {
			return str(backend, "type"), line(backend, "type"), true
		}
		return "sglang", e.KeyLine, true
	}
	if !isMap(backend) || !(isMap(model) || isMap(get(root, "resources")) || isMap(roles)) {
		return "", 0, false
	}
	if t := str(backend, "type"); t != "" {
		return t, line(backend, "type"), true
	}
	// srtctl's default engine (roles.py _engine_key).
	return "sglang", line(root, "backend"), true
}

// srtRecipe reads an srt-slurm recipe: one worker per role it declares.
func (r *reader) srtRecipe(file string, root *deploy.Node, typ string, typLine int) {
	src := Source{File: file, Line: root.Line, Kind: "srt-slurm recipe"}
	if n := str(root, "name"); n != "" {
		src.Name = n
	}
	if typ != "trtllm" {
		r.set.Unplaced = append(r.set.Unplaced, Unplaced{Source: src,
			Why: fmt.Sprintf("an srt-slurm recipe for the %s engine (%s): no TensorRT-LLM worker", typ, origin(file, typLine))})
		return
	}
	backend, roles, resources := get(root, "backend"), get(root, "roles"), get(root, "resources")
	engineCfg := get(backend, "trtllm_config")
	launch := "python3 -m dynamo.trtllm --disaggregation-mode {mode} --extra-engine-args /logs/trtllm_config_{mode}.yaml"
	if f := str(get(root, "frontend"), "type"); f == "trtllm_serve" {
		launch = "trtllm-serve <model> --config /logs/trtllm_config_{mode}.yaml"
	}
	model := str(get(root, "model"), "path")
	served := str(backend, "served_model_name")
	if e := get(root, "engine"); e != nil && e.Kind == deploy.KindMap && served == "" {
		served = str(e, "served_model_name")
	}
	found := false
	for _, sr := range srtRoles {
		var args, env *deploy.Node
		var argsAt, envAt string
		count, countFrom, declared := 1, "workers not given (1)", false
		at := 0 // the line the role is declared at
		if spec := get(roles, sr.role); spec != nil && spec.Kind == deploy.KindMap {
			declared, at = true, line(roles, sr.role)
			args, argsAt = get(spec, "args"), "roles."+sr.role+".args"
			env, envAt = get(spec, "env"), "roles."+sr.role+".env"
			if n, l, ok := intAt(spec, "workers"); ok {
				count, countFrom = n, fmt.Sprintf("roles.%s.workers (%s)", sr.role, origin(file, l))
			}
		}
		if a := get(engineCfg, sr.mode); a != nil {
			if !declared {
				at = line(engineCfg, sr.mode)
			}
			declared = true
			if args == nil {
				args, argsAt = a, "backend.trtllm_config."+sr.mode
			}
		}
		if e := get(backend, sr.mode+"_environment"); e != nil {
			declared = true
			if env == nil {
				env, envAt = e, "backend."+sr.mode+"_environment"
			}
		}
		if n, l, ok := intAt(resources, sr.role+"_workers"); ok {
			if !declared {
				at = l
			}
			declared = true
			if countFrom == "workers not given (1)" {
				count, countFrom = n, fmt.Sprintf("resources.%s_workers (%s)", sr.role, origin(file, l))
			}
		}
		if !declared || count == 0 {
			continue
		}
		found = true
		wsrc := src
		wsrc.Name = strings.TrimPrefix(src.Name+" role "+sr.role, " ")
		if at > 0 {
			wsrc.Line = at
		}
		w := &Worker{Name: sr.role, Role: sr.xrole, RoleFrom: "srt-slurm role " + sr.role, Source: wsrc, Count: count, CountFrom: countFrom}
		if sr.xrole != RoleAggregated {
			w.RoleFrom += " (srtctl runs it with --disaggregation-mode " + sr.mode + ")"
		}
		w.Notes = append(w.Notes, "srtctl runs "+strings.ReplaceAll(launch, "{mode}", sr.mode))
		if model != "" {
			w.Model, w.ModelOrigin = strings.TrimPrefix(model, "hf:"), origin(file, line(get(root, "model"), "path"))+" (model.path)"
			w.ServedModel = served
		}
		if c := str(get(root, "model"), "container"); c != "" {
			w.Image, w.ImageOrigin = c, origin(file, line(get(root, "model"), "container"))+" (model.container)"
		}
		var es envSet
		if env != nil && env.Kind == deploy.KindMap {
			for _, p := range env.Pairs {
				v := p.Val.Str
				if p.Val.Kind != deploy.KindStr {
					v = strings.Trim(p.Val.Repr(), "'")
				}
				es.set(EnvVar{Name: p.KeyString(), Value: v, Origin: origin(file, p.KeyLine) + " (" + envAt + ")"})
			}
		}
		w.Env = es.trtllm()
		if n := es.droppedNote(); n != "" {
			w.Notes = append(w.Notes, n)
		}
		w.key = "srt\x00" + file + "\x00" + sr.role
		if args == nil || args.Kind == deploy.KindNull {
			w.Config = "none: the recipe gives role " + sr.role + " no engine args (srtctl writes an empty trtllm_config_" + sr.mode + ".yaml: TensorRT-LLM's defaults, no cache_transceiver_config)"
			r.set.Workers = append(r.set.Workers, w)
			continue
		}
		ov, err := deploy.ReadWorkerNode(file, args, nil)
		if err != nil {
			r.unresolved(wsrc, argsAt+": "+err.Error())
			continue
		}
		r.set.Warnings = append(r.set.Warnings, ov.Warnings...)
		w.Overlay = ov
		w.Config = fmt.Sprintf("%s %s (%s; srtctl writes it to /logs/trtllm_config_%s.yaml)", file, argsAt, origin(file, args.Line), sr.mode)
		if ov.Model != nil {
			w.Model, w.ModelOrigin = ov.Model.Raw, ov.Model.Origin.String()
		}
		r.set.Workers = append(r.set.Workers, w)
	}
	if !found {
		r.set.Unplaced = append(r.set.Unplaced, Unplaced{Source: src, Why: "an srt-slurm recipe for TensorRT-LLM that declares no prefill, decode or agg role (roles:, or resources.*_workers and backend.trtllm_config)"})
	}
}

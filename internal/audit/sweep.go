package audit

import (
	"fmt"
	"strings"

	"xcvr/internal/deploy"
)

// A Dynamo performance-sweep config (ai-dynamo/dynamo
// components/backends/trtllm/performance_sweeps/configs/*/ctxN_genM_*.yaml,
// run by benchmark_disagg.slurm) gives each role its engine YAML, count and
// environment:
//
//	prefill: {num: 1, config: {...LLM args...}, env: {NAME: VALUE}, unset_env: [NAME]}
//	decode:  {num: 2, config: {...}, env: {...}, unset_env: [...]}
//
// Read as its scripts read it (both verified, @15418a78):
// scripts/gen_instance_config.py takes prefill.num and decode.num as the
// worker counts benchmark_disagg.slurm starts; scripts/start_disagg_worker.sh
// runs python3 -c to print `export NAME=VALUE` per env item (the value as
// Python's str() prints it), then `unset NAME` per unset_env item, evals
// that, dumps the role's config to a temporary file and runs
// trtllm-llmapi-launch python3 -m dynamo.trtllm --disaggregation-mode
// <prefill|decode> --extra-engine-args <that file>.

// sweepRoles are the sweep config's roles: the key and the role.
var sweepRoles = []struct{ key, role string }{
	{"prefill", RoleContext},
	{"decode", RoleGeneration},
}

// isSweepConfig says whether a document is a performance-sweep config: a
// prefill or decode section that is a mapping with a config mapping. A
// worker YAML has neither key (no LLM args option is named so).
func isSweepConfig(root *deploy.Node) bool {
	for _, sr := range sweepRoles {
		s := get(root, sr.key)
		if s == nil || s.Kind != deploy.KindMap {
			continue
		}
		if c := get(s, "config"); c != nil && c.Kind == deploy.KindMap {
			return true
		}
	}
	return false
}

// sweepConfig reads a performance-sweep config: one worker per role.
func (r *reader) sweepConfig(file string, root *deploy.Node) {
	for _, sr := range sweepRoles {
		p, ok := root.Get(sr.key)
		if !ok || p.Val.Kind != deploy.KindMap {
			continue
		}
		sec := p.Val
		src := Source{File: file, Line: p.KeyLine, Kind: "Dynamo performance-sweep config", Name: sr.key}
		w := &Worker{Name: sr.key, Role: sr.role, Source: src, Count: 1,
			RoleFrom:  "performance-sweep role " + sr.key + " (start_disagg_worker.sh runs it with --disaggregation-mode " + sr.key + ")",
			CountFrom: sr.key + ".num not given (1)"}
		if n, l, ok := intAt(sec, "num"); ok {
			w.Count, w.CountFrom = n, fmt.Sprintf("%s.num (%s)", sr.key, origin(file, l))
		}
		w.Notes = append(w.Notes, "start_disagg_worker.sh runs python3 -m dynamo.trtllm --disaggregation-mode "+sr.key+" --extra-engine-args on "+sr.key+".config, dumped to a temporary file")
		var es envSet
		if env := get(sec, "env"); env != nil && env.Kind == deploy.KindMap {
			for _, q := range env.Pairs {
				// Python's str(): 1, True, 0.75; a string as is.
				v := q.Val.Str
				if q.Val.Kind != deploy.KindStr {
					v = strings.Trim(q.Val.Repr(), "'")
				}
				if strings.ContainsAny(v, " \t\n\"'`$\\;&|<>()*?[#~") {
					// eval re-reads `export NAME=VALUE` as shell words.
					w.Notes = append(w.Notes, fmt.Sprintf("%s.env.%s (%s): start_disagg_worker.sh evals `export %s=%s`, which the shell re-reads; its value is not known", sr.key, q.KeyString(), origin(file, q.KeyLine), q.KeyString(), v))
					continue
				}
				es.set(EnvVar{Name: q.KeyString(), Value: v, Origin: origin(file, q.KeyLine) + " (" + sr.key + ".env)"})
			}
		}
		if un := get(sec, "unset_env"); un != nil && un.Kind == deploy.KindSeq {
			var names []string
			for _, it := range un.Items {
				if it.Kind != deploy.KindStr {
					continue
				}
				names = append(names, it.Str)
				if _, ok := es.vars[it.Str]; ok {
					delete(es.vars, it.Str)
					es.order = removeString(es.order, it.Str)
				}
			}
			if len(names) > 0 {
				w.Notes = append(w.Notes, fmt.Sprintf("unset_env (%s): start_disagg_worker.sh unsets %s after setting env", origin(file, line(sec, "unset_env")), strings.Join(names, ", ")))
			}
		}
		w.Env = es.trtllm()
		if n := es.droppedNote(); n != "" {
			w.Notes = append(w.Notes, n)
		}
		w.key = "sweep\x00" + file + "\x00" + sr.key
		cfg := get(sec, "config")
		if cfg == nil || cfg.Kind == deploy.KindNull {
			w.Config = "none: " + sr.key + ".config is not given (TensorRT-LLM's defaults, no cache_transceiver_config)"
			r.set.Workers = append(r.set.Workers, w)
			continue
		}
		ov, err := deploy.ReadWorkerNode(file, cfg, nil)
		if err != nil {
			r.unresolved(src, sr.key+".config: "+err.Error())
			continue
		}
		r.set.Warnings = append(r.set.Warnings, ov.Warnings...)
		w.Overlay = ov
		w.Config = fmt.Sprintf("%s %s.config (%s)", file, sr.key, origin(file, line(sec, "config")))
		if ov.Model != nil {
			w.Model, w.ModelOrigin = ov.Model.Raw, ov.Model.Origin.String()
		}
		r.set.Workers = append(r.set.Workers, w)
	}
}

func removeString(s []string, x string) []string {
	out := s[:0]
	for _, v := range s {
		if v != x {
			out = append(out, v)
		}
	}
	return out
}

package audit

import (
	"fmt"
	"strings"

	"xcvr/internal/deploy"
)

// slurm reads upstream's examples/disaggregated/slurm/benchmark submit config:
// worker_config.ctx and worker_config.gen are the two roles' LLM args (submit.py
// writes each to its own --extra_llm_api_options file), hardware.num_ctx_servers
// and num_gen_servers their server counts, and environment.worker_env_var (then
// ctx_worker_env_var or gen_worker_env_var) their environment, as space-separated
// NAME=VALUE words (submit.py splits them with str.split()).
func (r *reader) slurm(file string, root *deploy.Node) {
	env := get(root, "environment")
	model := ""
	if env != nil {
		model = str(env, "model_path")
	}
	for _, side := range []struct{ key, role, count, extraEnv string }{
		{"ctx", RoleContext, "num_ctx_servers", "ctx_worker_env_var"},
		{"gen", RoleGeneration, "num_gen_servers", "gen_worker_env_var"},
	} {
		p, ok := get(root, "worker_config").Get(side.key)
		if !ok {
			continue
		}
		src := Source{File: file, Line: p.KeyLine, Kind: "submit config", Name: "worker_config." + side.key}
		ov, err := deploy.ReadWorkerNode(file, p.Val, nil)
		if err != nil {
			r.unresolved(src, err.Error())
			continue
		}
		r.set.Warnings = append(r.set.Warnings, ov.Warnings...)
		w := &Worker{Name: "worker_config." + side.key, Role: side.role, RoleFrom: "worker_config." + side.key, Source: src,
			Overlay: ov, Config: fmt.Sprintf("%s worker_config.%s (submit.py writes it to %s_config.yaml)", file, side.key, side.key),
			Count: 1, CountFrom: "hardware." + side.count + " not given (1)"}
		if n, l, ok := intAt(root, "hardware", side.count); ok {
			w.Count, w.CountFrom = n, fmt.Sprintf("hardware.%s (%s)", side.count, origin(file, l))
		}
		if env != nil {
			seen := map[string]int{}
			for _, key := range []string{"worker_env_var", side.extraEnv} {
				q, ok := env.Get(key)
				if !ok || q.Val.Kind != deploy.KindStr {
					continue
				}
				for _, word := range strings.Fields(q.Val.Str) {
					k, v, ok := strings.Cut(word, "=")
					if !ok || !strings.HasPrefix(k, "TRTLLM_") {
						continue
					}
					e := EnvVar{Name: k, Value: v, Origin: fmt.Sprintf("%s (environment.%s)", origin(file, q.KeyLine), key)}
					if i, ok := seen[k]; ok {
						w.Env[i] = e
						continue
					}
					seen[k] = len(w.Env)
					w.Env = append(w.Env, e)
				}
			}
		}
		// benchmark.mode gen_only: submit.py (and the older start_worker.sh)
		// sets TRTLLM_DISABLE_KV_CACHE_TRANSFER_OVERLAP=1 for every worker,
		// over worker_env_var.
		if m, ok := get(root, "benchmark").Get("mode"); ok && m.Val.Kind == deploy.KindStr && m.Val.Str == "gen_only" {
			e := EnvVar{Name: "TRTLLM_DISABLE_KV_CACHE_TRANSFER_OVERLAP", Value: "1",
				Origin: fmt.Sprintf("%s (benchmark.mode gen_only: submit.py sets it)", origin(file, m.KeyLine))}
			if i, ok := seenAt(w.Env, e.Name); ok {
				w.Env[i] = e
			} else {
				w.Env = append(w.Env, e)
			}
		}
		if k, ok := get(root, "kvbm").Get("enabled"); ok && k.Val.Kind == deploy.KindBool && k.Val.Bool {
			w.Notes = append(w.Notes, fmt.Sprintf("kvbm.enabled (%s): submit.py adds kv_connector_config (Dynamo's KVBM connector, kvbm.trtllm_integration.connector) and kv_cache_config.enable_block_reuse: true to this config; the connector does not choose the transceiver, and xcvr does not resolve it", origin(file, k.KeyLine)))
		}
		if ov.Model != nil {
			w.Model, w.ModelOrigin = ov.Model.Raw, ov.Model.Origin.String()
		} else if model != "" {
			w.Model, w.ModelOrigin = model, origin(file, line(env, "model_path"))+" (environment.model_path)"
		}
		w.key = "slurm\x00" + file + "\x00" + side.key
		r.set.Workers = append(r.set.Workers, w)
	}
}

func seenAt(env []EnvVar, name string) (int, bool) {
	for i, e := range env {
		if e.Name == name {
			return i, true
		}
	}
	return 0, false
}

package cli

import (
	"errors"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"xcvr/internal/audit"
	"xcvr/internal/deploy"
	"xcvr/internal/guard"
	"xcvr/internal/inputs"
	"xcvr/internal/termsafe"
	"xcvr/internal/yamlpos"
	"xcvr/models"
	"xcvr/resolver"
)

// fs is where d's files are read from (see deployFlags.files).
func (d *deployFlags) fs() guard.FS {
	if d.files == nil {
		return guard.Host{}
	}
	return d.files
}

// deployFlags read a real deployment: the worker YAML, the disaggregated YAML, the
// checkpoint's config.json, an env file or a running process. They sit under the
// plain input flags: a flag the user typed always wins, and its origin says which
// file line it overrides.
type deployFlags struct {
	config      string
	disagg      string
	role        string
	modelDir    string
	modelConfig string
	envFile     string
	pid         int
	// log is the explorer's --log FILE.
	log string
	// workerRef is --worker SET#NAME: one worker of an audited set.
	workerRef string
	aw        *audit.Worker

	// procRoot is /proc; tests point it elsewhere.
	procRoot string
	// activeRole is the role being resolved when --disagg is given.
	activeRole string
	// remote is set for an xcvr serve session: only the files its flags name
	// (inside --serve-dir) are read, never a checkpoint a YAML points at.
	remote bool
	// files is where the flags' files are read from: nil for the host, the
	// directory of xcvr serve --serve-dir for a served session.
	files guard.FS

	loaded   bool
	worker   *deploy.Overlay
	dis      *deploy.Disagg
	envf     *deploy.EnvFile
	proc     *deploy.Process
	model    *deploy.ModelConfig
	modelSrc string
	warned   map[string]bool
}

func (d *deployFlags) register(fs *pflag.FlagSet) {
	fs.StringVar(&d.config, "config", "", "worker YAML given to trtllm-serve --config / --extra_llm_api_options")
	fs.StringVar(&d.disagg, "disagg", "", "trtllm-serve disaggregated -c YAML; resolves both roles unless --role")
	fs.StringVar(&d.role, "role", "", "with --disagg: context or generation")
	fs.StringVar(&d.modelDir, "model-dir", "", "checkpoint directory whose config.json decides the model")
	fs.StringVar(&d.modelConfig, "model-config", "", "a checkpoint's config.json")
	fs.StringVar(&d.envFile, "env-file", "", "worker environment as KEY=VALUE lines (export and quotes allowed)")
	fs.IntVar(&d.pid, "pid", 0, "read a running trtllm-serve's environment, command line and --config from /proc/PID")
	fs.StringVar(&d.workerRef, "worker", "", "one worker of a deployment as xcvr audit names it: FILE[,FILE...]#NAME (its config, environment and model)")
}

func (d *deployFlags) complete(cmd *cobra.Command) {
	_ = cmd.MarkFlagFilename("config", "yaml", "yml")
	_ = cmd.MarkFlagFilename("disagg", "yaml", "yml")
	_ = cmd.MarkFlagFilename("model-config", "json")
	_ = cmd.MarkFlagDirname("model-dir")
	_ = cmd.RegisterFlagCompletionFunc("role", func(*cobra.Command, []string, string) ([]cobra.Completion, cobra.ShellCompDirective) {
		return deploy.Roles(), cobra.ShellCompDirectiveNoFileComp
	})
}

// any reports whether a deployment input was given, which makes check-logs predict.
func (d *deployFlags) any() bool {
	return d.workerRef != "" || d.config != "" || d.disagg != "" || d.modelDir != "" || d.modelConfig != "" || d.envFile != "" || d.pid != 0
}

// replacesEnv reports whether the worker's environment comes from a file or a
// process rather than from xcvr's own.
func (d *deployFlags) replacesEnv() bool { return d.envFile != "" || d.pid != 0 || d.workerRef != "" }

// bothRoles reports whether explain must resolve the two roles side by side.
func (d *deployFlags) bothRoles() bool { return d.disagg != "" && d.role == "" }

func (d *deployFlags) warn(app *appEnv, msg string) {
	if d.warned == nil {
		d.warned = map[string]bool{}
	}
	if d.warned[msg] {
		return
	}
	d.warned[msg] = true
	// A warning is one line: a newline in a value it quotes (a YAML model:
	// value, a --config path from a --pid command line) stays inside it.
	fmt.Fprintln(app.stderr, "xcvr: warning: "+termsafe.Line(msg))
}

// inputErr classifies a reading error: TensorRT-LLM's own refusals (the disagg
// conflict, a non-mapping YAML root) exit 1 like any refused configuration; the
// rest is unreadable input, exit 2.
func inputErr(err error) error {
	var ce *deploy.ConflictError
	var ye *yamlpos.Error
	var nw *deploy.NotWorkerError
	if errors.As(err, &nw) {
		// pydantic's error is several lines, as TensorRT-LLM prints it.
		return &exitError{code: exitRefused, err: termsafe.MultilineError{Err: err}}
	}
	if errors.As(err, &ce) || (errors.As(err, &ye) && strings.HasPrefix(ye.Msg, "ValueError: ")) {
		return &exitError{code: exitRefused, err: err}
	}
	return usageErr(err)
}

// load reads every file once (explain resolves two roles from the same reads).
func (d *deployFlags) load(app *appEnv) error {
	if d.loaded {
		return nil
	}
	d.loaded = true
	if d.config != "" && d.disagg != "" {
		return usageErr(errors.New("--config and --disagg describe different things; give one (a disagg YAML holds each role's worker config)"))
	}
	if d.role != "" && d.role != deploy.RoleContext && d.role != deploy.RoleGeneration {
		return usageErr(fmt.Errorf("--role %q: want context or generation", d.role))
	}
	if d.role != "" && d.disagg == "" {
		return usageErr(errors.New("--role needs --disagg"))
	}
	if d.modelDir != "" && d.modelConfig != "" {
		return usageErr(errors.New("give --model-dir or --model-config, not both"))
	}
	if d.workerRef != "" {
		if d.config != "" || d.disagg != "" || d.pid != 0 {
			return usageErr(errors.New("--worker names the worker's files itself; give it without --config, --disagg or --pid"))
		}
		if err := d.loadWorker(app); err != nil {
			return err
		}
	}
	configFlag := "--config"
	if d.pid != 0 {
		root := d.procRoot
		if root == "" {
			root = "/proc"
		}
		p, err := deploy.ReadProcess(root, d.pid)
		if err != nil {
			return usageErr(err)
		}
		d.proc = p
		if p.Serve == nil {
			d.warn(app, fmt.Sprintf("process %d is not trtllm-serve (%s); only its environment is used", d.pid, strings.Join(p.Cmdline, " ")))
		} else {
			s := p.Serve
			if d.config == "" && s.Config != "" && d.disagg == "" {
				d.config = s.Config
				configFlag = fmt.Sprintf("--pid %d: its trtllm-serve --config", d.pid)
			}
			if d.disagg == "" && s.DisaggConfig != "" && d.config == "" {
				d.warn(app, fmt.Sprintf("process %d runs trtllm-serve %s with %s; pass --disagg %s --role ... to resolve its roles", d.pid, s.Subcommand, s.DisaggConfig, s.DisaggConfig))
			}
		}
	}
	if d.config != "" {
		data, err := guard.ReadFileFS(d.fs(), d.config, guard.YAMLLimits())
		if err != nil {
			return usageErr(guard.FlagError(configFlag, d.config, err))
		}
		ov, err := deploy.ReadWorkerConfig(d.config, data)
		if err != nil {
			return inputErr(err)
		}
		d.worker = ov
		for _, w := range ov.Warnings {
			d.warn(app, w)
		}
	}
	if d.disagg != "" {
		data, err := guard.ReadFileFS(d.fs(), d.disagg, guard.YAMLLimits())
		if err != nil {
			return usageErr(guard.FlagError("--disagg", d.disagg, err))
		}
		dis, err := deploy.ReadDisagg(d.disagg, data)
		if err != nil {
			return inputErr(err)
		}
		d.dis = dis
		for _, w := range dis.Warnings {
			d.warn(app, w)
		}
	}
	if d.envFile != "" {
		data, err := guard.ReadFileFS(d.fs(), d.envFile, guard.EnvLimits())
		if err != nil {
			return usageErr(guard.FlagError("--env-file", d.envFile, err))
		}
		ef, err := deploy.ReadEnvFile(d.envFile, data)
		if err != nil {
			return usageErr(err)
		}
		d.envf = ef
		for _, w := range ef.Warnings {
			d.warn(app, w)
		}
	}
	return d.loadModel(app)
}

// loadModel reads config.json from --model-dir/--model-config, or else from the
// model path of --pid's command line or the YAML's model key when it is a local
// checkpoint directory.
func (d *deployFlags) loadModel(app *appEnv) error {
	path, explicit, flag, given := "", true, "", ""
	switch {
	case d.modelConfig != "":
		path, flag, given = d.modelConfig, "--model-config", d.modelConfig
	case d.modelDir != "":
		path, flag, given = filepath.Join(d.modelDir, "config.json"), "--model-dir", d.modelDir
	case d.remote:
		return nil
	default:
		explicit = false
		for _, cand := range d.modelCandidates() {
			if st, err := os.Stat(filepath.Join(cand, "config.json")); err == nil && st.Mode().IsRegular() {
				path = filepath.Join(cand, "config.json")
				break
			}
		}
	}
	if path == "" {
		return nil
	}
	// Raw: ReadModelConfig applies the text checks itself (see deploy.ReadJSONFile).
	data, err := guard.ReadRawFS(d.fs(), path, guard.JSONLimits())
	if err != nil {
		if explicit {
			return usageErr(guard.FlagError(flag, given, err))
		}
		d.warn(app, err.Error())
		return nil
	}
	mc, err := deploy.ReadModelConfig(path, data)
	if err != nil {
		return usageErr(err)
	}
	d.model, d.modelSrc = mc, path
	for _, n := range mc.Notes {
		d.warn(app, n)
	}
	return nil
}

// modelCandidates are model paths named by the deployment itself.
func (d *deployFlags) modelCandidates() []string {
	var out []string
	if d.proc != nil && d.proc.Serve != nil && d.proc.Serve.Model != "" {
		out = append(out, d.proc.Serve.Model)
	}
	if d.worker != nil && d.worker.Model != nil {
		out = append(out, d.worker.Model.Raw)
	}
	if d.dis != nil {
		for _, ov := range d.dis.Roles {
			if ov.Model != nil {
				out = append(out, ov.Model.Raw)
			}
		}
	}
	return out
}

// overlay is the worker config for the role being resolved.
func (d *deployFlags) overlay() *deploy.Overlay {
	if d.dis != nil {
		role := d.activeRole
		if role == "" {
			role = d.role
		}
		return d.dis.Roles[role]
	}
	return d.worker
}

// apply lays the deployment over the spec built from the plain flags.
func (d *deployFlags) apply(cmd *cobra.Command, app *appEnv, s *inputs.Spec, cat *models.Catalog) error {
	if err := d.load(app); err != nil {
		return err
	}
	fs := cmd.Flags()
	// Environment: the process's, then the env file; --env flags stay on top.
	setEnv := func(k, v string, o resolver.Origin) {
		if cur, ok := s.Env[k]; ok && cur.Origin.Kind == resolver.OriginFlag {
			return
		}
		if s.Env == nil {
			s.Env = map[string]resolver.EnvVar{}
		}
		s.Env[k] = resolver.EnvVar{Value: v, Origin: o}
	}
	if d.proc != nil {
		o := resolver.Origin{Kind: resolver.OriginEnv, Detail: "/proc/" + strconv.Itoa(d.pid) + "/environ"}
		for _, kv := range d.proc.Environ {
			if k, v, ok := strings.Cut(kv, "="); ok && strings.HasPrefix(k, "TRTLLM_") {
				setEnv(k, v, o)
			}
		}
	}
	if d.aw != nil {
		for _, e := range d.aw.Env {
			setEnv(e.Name, e.Value, resolver.Origin{Kind: resolver.OriginFile, Detail: e.Origin})
		}
	}
	if d.envf != nil {
		for _, k := range d.envf.Names {
			if strings.HasPrefix(k, "TRTLLM_") {
				setEnv(k, d.envf.Vars[k].Value, d.envf.Vars[k].Origin)
			}
		}
	}
	ov := d.overlay()
	deploy.Apply(s, ov)
	if d.model != nil && d.model.MLA && ov != nil && ov.KVDtype != nil && ov.KVDtype.Raw == "nvfp4" && (ov.KVManager == nil || ov.KVManager.Raw == "auto") && !fs.Changed("kv-cache-manager") {
		d.warn(app, NVFP4MLANote(ov.KVDtype.Origin.String(), d.modelSrc))
	}

	// Loader: --loader, else the YAML's backend key (already applied by
	// deploy.Apply), else trtllm-serve --backend: trtllm-serve lays the YAML
	// over its command line's arguments (update_llm_args_with_extra_dict:
	// llm_args | llm_args_dict).
	if !fs.Changed("loader") && d.proc != nil && d.proc.Serve != nil && d.proc.Serve.Backend != "" {
		key, inConfig := ov.BackendKey()
		switch b := d.proc.Serve.Backend; {
		case inConfig:
			if key.Input != "'"+b+"'" {
				d.warn(app, "trtllm-serve --backend "+b+": the config's backend key wins, as trtllm-serve lays the YAML over its command line")
			}
		case b == "pytorch" || b == "_autodeploy":
			s.Loader = inputs.Value{Raw: b, Origin: resolver.Origin{Kind: resolver.OriginFlag, Detail: "trtllm-serve --backend (/proc/" + strconv.Itoa(d.pid) + "/cmdline)"}}
		default:
			d.warn(app, "trtllm-serve --backend "+b+" is not the PyTorch path; xcvr models pytorch and _autodeploy")
		}
	}

	// Model: --model, else config.json, else a well-known HF id from the
	// deployment.
	if fs.Changed("model") {
		if d.model != nil {
			s.Model.Origin.Detail += " (overrides " + d.modelSrc + ")"
		}
		return nil
	}
	if d.model != nil {
		key, note := d.model.ModelKey(cat)
		line := d.model.ArchLine
		detail := d.modelSrc
		if line > 0 {
			detail += ":" + strconv.Itoa(line)
		}
		raw := key
		if raw == "" {
			raw = "none"
		}
		s.Model = inputs.Value{Raw: raw, Origin: resolver.Origin{Kind: resolver.OriginFile, Detail: detail}}
		if key == d.model.Arch && d.model.ExecArch != d.model.Arch {
			s.ExecModel = d.model.ExecArch
		}
		if note != "" {
			d.warn(app, note)
		}
		return nil
	}
	var named *deploy.Setting
	if d.proc != nil && d.proc.Serve != nil && d.proc.Serve.Model != "" {
		named = &deploy.Setting{Raw: d.proc.Serve.Model, Origin: resolver.Origin{Kind: resolver.OriginFlag, Detail: "trtllm-serve MODEL (/proc/" + strconv.Itoa(d.pid) + "/cmdline)"}}
	} else if ov != nil && ov.Model != nil {
		named = ov.Model
	} else if d.aw != nil && d.aw.Model != "" {
		named = &deploy.Setting{Raw: d.aw.Model, Origin: resolver.Origin{Kind: resolver.OriginFile, Detail: d.aw.ModelOrigin}}
	}
	if named != nil {
		if e, ok := cat.FindHFID(named.Raw); ok {
			s.Model = inputs.Value{Raw: e.Arch, Origin: named.Origin}
		} else if base, e, how, ok := cat.FindByName(named.Raw); ok {
			// Qwen/Qwen3-32B-FP8: Qwen/Qwen3-32B quantized, the same
			// architecture (as audit reads it); inferred, and said so.
			o := named.Origin
			o.Detail += ", inferred from " + named.Raw + " as " + base + " " + how
			s.Model = inputs.Value{Raw: e.Arch, Origin: o}
			d.warn(app, fmt.Sprintf("model %s (%s): not a Hugging Face id xcvr knows; it names %s %s, whose architecture is %s: using it, inferred (pass --model ARCH or --model-dir DIR)",
				named.Raw, named.Origin, base, how, e.Arch))
		} else if base, e, ok := cat.FindByDirName(named.Raw); ok {
			o := named.Origin
			o.Detail += ", inferred from the directory name " + path.Base(named.Raw)
			s.Model = inputs.Value{Raw: e.Arch, Origin: o}
			d.warn(app, fmt.Sprintf("model %s (%s): a path; its directory is named as %s is, whose architecture is %s: using it, inferred (pass --model ARCH or --model-dir DIR)",
				named.Raw, named.Origin, base, e.Arch))
		} else {
			d.warn(app, fmt.Sprintf("model %s (%s): no readable config.json and not a Hugging Face id xcvr knows offline; pass --model ARCH or --model-dir DIR (using %s)",
				named.Raw, named.Origin, s.Model.Raw))
		}
	}
	return nil
}

// registerExplorer adds the flags only the explorer takes.
func (d *deployFlags) registerExplorer(fs *pflag.FlagSet) {
	fs.StringVar(&d.log, "log", "", "a server log to show as observed next to the prediction (off a terminal: check-logs output)")
}

// loadWorker reads the set --worker names and picks the worker: its LLM args
// become the worker config, its environment the worker's environment.
func (d *deployFlags) loadWorker(app *appEnv) error {
	i := strings.LastIndexByte(d.workerRef, '#')
	if i <= 0 || i == len(d.workerRef)-1 {
		return usageErr(fmt.Errorf("--worker %q: want FILE[,FILE...]#NAME, the worker's name as xcvr audit prints it", d.workerRef))
	}
	files, name := strings.Split(d.workerRef[:i], ","), d.workerRef[i+1:]
	if d.remote {
		return usageErr(errors.New("--worker is not available in a served session"))
	}
	ins, err := readAuditInputs(app, files, "--worker")
	if err != nil {
		return usageErr(err)
	}
	set, err := audit.Read(ins)
	if err != nil {
		return usageErr(err)
	}
	var names []string
	for _, w := range set.Workers {
		if w.Name == name {
			d.aw = w
			break
		}
		names = append(names, w.Name)
	}
	if d.aw == nil {
		return usageErr(fmt.Errorf("--worker: no worker %q in %s (it has: %s)", name, strings.Join(files, ", "), strings.Join(names, ", ")))
	}
	d.worker = d.aw.Overlay
	if d.worker == nil {
		// No config file: TensorRT-LLM's defaults, not xcvr's preset backend.
		d.worker = &deploy.Overlay{File: d.aw.Source.File}
	}
	for _, w := range d.worker.Warnings {
		d.warn(app, w)
	}
	for _, n := range d.aw.Notes {
		d.warn(app, n)
	}
	return nil
}

// NVFP4MLANote is said when kv_cache_config.dtype is 'nvfp4' and config.json
// is an MLA model's: issue 19 reports TensorRT-LLM then forces
// KVCacheManagerV2 before the model preference is consulted, but no upstream
// code doing so was found, so xcvr does not apply it and says so (inferred).
func NVFP4MLANote(dtypeAt, configAt string) string {
	return "kv_cache_config.dtype 'nvfp4' (" + dtypeAt + ") on an MLA model (" + configAt + " has kv_lora_rank and qk_rope_head_dim): " +
		"issue 19 reports that TensorRT-LLM then uses KVCacheManagerV2 before the model preference is consulted; " +
		"xcvr found no upstream code that does so and does not apply it, so the KV-cache manager it predicts may be wrong (inferred; xcvr help limits)"
}

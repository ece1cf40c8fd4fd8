package cli

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"xcvr/internal/guard"
	"xcvr/internal/inputs"
	"xcvr/internal/install"
	"xcvr/internal/termsafe"
	"xcvr/models"
	"xcvr/resolver"
)

// inputFlags are the flags every resolving command shares (explain, the explorer,
// and the comparison commands).
type inputFlags struct {
	trtllm    string
	model     string
	backend   string
	runtime   string
	timeout   string
	loader    string
	pipelined bool
	kvManager string
	env       []string
	cleanEnv  bool
	catalog   string
	// install is --install PATH|auto; installRep is what it (or --pid) found.
	install     string
	installRep  *install.Report
	installDone bool
	// deploy reads real deployments (--config, --disagg, --pid, ...): deploy_flags.go.
	deploy deployFlags
}

func (f *inputFlags) register(fs *pflag.FlagSet) {
	fs.StringVar(&f.trtllm, "trtllm", resolver.DefaultVersionName, "TensorRT-LLM version: a release tag such as 1.3.0rc22, or main@YYYY-MM-DD")
	fs.StringVar(&f.model, "model", inputs.DefaultModel, "HF architectures[0] (e.g. LlamaForCausalLM), a known HF id, or none")
	fs.StringVar(&f.backend, "backend", inputs.DefaultBackend, "cache_transceiver_config.backend: DEFAULT|NIXL|UCX|MPI|MOONCAKE, or none (disaggregation off)")
	fs.StringVar(&f.runtime, "runtime", "unset", "transceiver_runtime: unset|auto|CPP|PYTHON|null")
	fs.StringVar(&f.timeout, "timeout-ms", "", "kv_transfer_timeout_ms: a number of milliseconds or null (default 60000)")
	fs.StringVar(&f.loader, "loader", "pytorch", "model loading path: pytorch|autodeploy|none")
	fs.BoolVar(&f.pipelined, "pipelined", false, "set enable_pipelined_transfer (use --pipelined=false to write it as false)")
	fs.StringVar(&f.kvManager, "kv-cache-manager", "auto", "kv_cache_config.use_kv_cache_manager_v2: auto (leave it unset: the version's default)|v1 (false)|v2 (true)")
	fs.StringArrayVar(&f.env, "env", nil, "set a worker environment variable KEY=VALUE (repeatable; KEY alone unsets it)")
	fs.BoolVar(&f.cleanEnv, "clean-env", false, "ignore the TRTLLM_* variables inherited from xcvr's own environment")
	fs.StringVar(&f.catalog, "catalog", "", "YAML file adding or overriding architectures in the catalog")
	fs.StringVar(&f.install, "install", "", "answer from an installed TensorRT-LLM: a site-packages dir, the tensorrt_llm package, a Python prefix, or auto")
	f.deploy.register(fs)
}

// complete registers shell completion for the input flags.
func (f *inputFlags) complete(cmd *cobra.Command) {
	fixed := func(vals ...string) func(*cobra.Command, []string, string) ([]cobra.Completion, cobra.ShellCompDirective) {
		return func(*cobra.Command, []string, string) ([]cobra.Completion, cobra.ShellCompDirective) {
			return vals, cobra.ShellCompDirectiveNoFileComp
		}
	}
	_ = cmd.RegisterFlagCompletionFunc("backend", fixed(inputs.Backends()...))
	_ = cmd.RegisterFlagCompletionFunc("runtime", fixed(inputs.Runtimes()...))
	_ = cmd.RegisterFlagCompletionFunc("loader", fixed("pytorch", "autodeploy", "none"))
	_ = cmd.RegisterFlagCompletionFunc("kv-cache-manager", fixed(inputs.KVManagers()...))
	_ = cmd.RegisterFlagCompletionFunc("timeout-ms", fixed("60000", "null"))
	_ = cmd.RegisterFlagCompletionFunc("trtllm", versionCompletion)
	_ = cmd.RegisterFlagCompletionFunc("model", func(*cobra.Command, []string, string) ([]cobra.Completion, cobra.ShellCompDirective) {
		var names []string
		for _, e := range models.Builtin().Entries() {
			names = append(names, e.Arch)
		}
		return append(names, "none"), cobra.ShellCompDirectiveNoFileComp
	})
	_ = cmd.RegisterFlagCompletionFunc("env", func(*cobra.Command, []string, string) ([]cobra.Completion, cobra.ShellCompDirective) {
		envNames := []string{}
		for _, e := range resolver.EnvVars() {
			envNames = append(envNames, e.Name+"=")
		}
		return envNames, cobra.ShellCompDirectiveNoFileComp | cobra.ShellCompDirectiveNoSpace
	})
	_ = cmd.MarkFlagFilename("catalog", "yaml", "yml")
	_ = cmd.MarkFlagDirname("install")
	f.deploy.complete(cmd)
}

// versionCompletion completes a version flag. The names are listed when a
// shell asks, not when the command tree is built: building it is part of every
// command's start-up.
func versionCompletion(*cobra.Command, []string, string) ([]cobra.Completion, cobra.ShellCompDirective) {
	return versionNames(), cobra.ShellCompDirectiveNoFileComp
}

func versionNames() []string {
	var names []string
	for _, v := range resolver.KnownVersions() {
		names = append(names, v.Name)
	}
	return names
}

// loadCatalog returns the built-in catalog, merged with --catalog when given.
func (f *inputFlags) loadCatalog() (*models.Catalog, error) {
	cat := models.Builtin()
	if f.catalog == "" {
		return cat, nil
	}
	data, err := guard.ReadFileFS(f.deploy.fs(), f.catalog, guard.YAMLLimits())
	if err != nil {
		return nil, guard.FlagError("--catalog", f.catalog, err)
	}
	extra, err := models.Parse(f.catalog, data, "")
	if err != nil {
		return nil, err
	}
	return cat.Merge(extra), nil
}

// spec turns the flags into an inputs.Spec. Flags the user typed get origin "flag";
// the rest keep the built-in defaults' origins. The environment comes from xcvr's
// own process unless --clean-env, then --env entries on top.
func (f *inputFlags) spec(cmd *cobra.Command, app *appEnv) (inputs.Spec, error) {
	s := inputs.Defaults()
	fs := cmd.Flags()
	// An empty value is never a silent default: '' is not a backend, a runtime,
	// a timeout, a loader or a version, and the shell may have expanded an unset
	// variable into it.
	for _, name := range []string{"trtllm", "backend", "runtime", "timeout-ms", "loader", "model"} {
		if fl := fs.Lookup(name); fl != nil && fs.Changed(name) && fl.Value.String() == "" {
			return s, fmt.Errorf("--%s '': empty value; %s", name, fl.Usage)
		}
	}
	if fs.Changed("pid") && f.deploy.pid <= 0 {
		return s, fmt.Errorf("--pid %d: want a positive process id", f.deploy.pid)
	}
	if fs.Changed("trtllm") {
		f.warnFuture(app, f.trtllm)
	}
	flag := func(name string) resolver.Origin {
		return resolver.Origin{Kind: resolver.OriginFlag, Detail: "--" + name}
	}
	if fs.Changed("trtllm") {
		s.Version = inputs.Value{Raw: f.trtllm, Origin: flag("trtllm")}
	}
	if fs.Changed("model") {
		s.Model = inputs.Value{Raw: f.model, Origin: flag("model")}
	}
	if fs.Changed("backend") {
		s.Backend = inputs.Value{Raw: f.backend, Origin: flag("backend")}
	}
	if fs.Changed("runtime") {
		s.Runtime = inputs.Value{Raw: f.runtime, Origin: flag("runtime")}
	}
	if fs.Changed("timeout-ms") {
		s.TimeoutMS = inputs.Value{Raw: f.timeout, Origin: flag("timeout-ms")}
	}
	if fs.Changed("loader") {
		s.Loader = inputs.Value{Raw: f.loader, Origin: flag("loader")}
	}
	if fs.Changed("pipelined") {
		s.Pipelined = inputs.Value{Raw: strconv.FormatBool(f.pipelined), Origin: flag("pipelined")}
	}
	if fs.Changed("kv-cache-manager") {
		// auto leaves use_kv_cache_manager_v2 unset: the version's default, or
		// what a --config file writes.
		switch k := strings.ToLower(strings.TrimSpace(f.kvManager)); k {
		case "auto":
		case "v1", "v2":
			s.KVManager = inputs.Value{Raw: k, Origin: flag("kv-cache-manager")}
		default:
			return s, fmt.Errorf("--kv-cache-manager %q: want auto, v1 or v2", f.kvManager)
		}
	}
	if !f.cleanEnv && !f.deploy.replacesEnv() {
		s.FromEnviron(app.environ)
	}
	for _, kv := range f.env {
		if err := s.SetEnv(kv, flag("env")); err != nil {
			return s, err
		}
	}
	return s, nil
}

// warnFuture warns about a main@DATE after today: xcvr's facts end with its
// newest known version, and nothing merged later is modelled.
func (f *inputFlags) warnFuture(app *appEnv, raw string) {
	day, ok := strings.CutPrefix(raw, "main@")
	if !ok {
		return
	}
	d, err := resolver.ParseDay(day)
	if err != nil {
		return
	}
	today, _ := resolver.ParseDay(time.Now().UTC().Format("2006-01-02"))
	if d <= today {
		return
	}
	newest := resolver.KnownVersions()[len(resolver.KnownVersions())-1]
	f.deploy.warn(app, fmt.Sprintf("main@%s is in the future; xcvr knows nothing past its newest facts (%s, main@%s): changes merged later are not modelled",
		d, newest.Name, newest.Main))
}

// resolveInputs is spec + catalog + inputs.Build, with every failure a usage error.
func (f *inputFlags) resolveInputs(cmd *cobra.Command, app *appEnv) (resolver.Inputs, inputs.Spec, *models.Catalog, error) {
	cat, err := f.loadCatalog()
	if err != nil {
		return resolver.Inputs{}, inputs.Spec{}, nil, usageErr(err)
	}
	s, err := f.spec(cmd, app)
	if err != nil {
		return resolver.Inputs{}, s, cat, usageErr(err)
	}
	if err := f.deploy.apply(cmd, app, &s, cat); err != nil {
		return resolver.Inputs{}, s, cat, err
	}
	if err := f.applyInstall(cmd, app, &s); err != nil {
		return resolver.Inputs{}, s, cat, err
	}
	in, err := inputs.Build(s, cat)
	if err != nil {
		return in, s, cat, usageErr(err)
	}
	notePlacement(app, in.Version)
	noteNearMisses(app, s)
	return in, s, cat, nil
}

// checkOutput validates -o against the allowed formats.
func checkOutput(o string, allowed ...string) error {
	for _, a := range allowed {
		if o == a {
			return nil
		}
	}
	return usageErr(fmt.Errorf("-o %q: want %s", o, strings.Join(allowed, ", ")))
}

// notePlacement says on stderr when a version is answered with another
// release's rules (a version xcvr does not list, a nightly of main), once per
// sentence.
func notePlacement(app *appEnv, v resolver.Version) {
	if v.Placement == "" || v.Install != nil {
		return
	}
	if app.noted == nil {
		app.noted = map[string]bool{}
	}
	if app.noted[v.Placement] {
		return
	}
	app.noted[v.Placement] = true
	p := v.Placement
	if app.served {
		// --install is refused in a session: say where it works instead.
		if cut, ok := strings.CutSuffix(p, "; pass --install to read yours"); ok {
			p = cut + "; xcvr --install reads yours where TensorRT-LLM is installed (a served session reads no install)"
		}
	}
	fmt.Fprintln(app.stderr, "xcvr: note: "+termsafe.Text(p))
}

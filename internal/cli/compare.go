package cli

import (
	"errors"
	"fmt"
	"io"
	"slices"

	"github.com/spf13/cobra"

	"xcvr/internal/compare"
	"xcvr/internal/deploy"
	"xcvr/internal/inputs"
	"xcvr/internal/report"
	"xcvr/models"
	"xcvr/resolver"
)

// versionPair holds --from and --to, which replace --trtllm for the commands that
// compare two versions.
type versionPair struct {
	from, to string
	// fromInstall and toInstall are --from-install / --to-install PATH|auto.
	fromInstall, toInstall string
}

func (p *versionPair) register(cmd *cobra.Command) {
	cmd.Flags().StringVar(&p.from, "from", "", "TensorRT-LLM version running now (release tag or main@YYYY-MM-DD); required")
	cmd.Flags().StringVar(&p.to, "to", resolver.DefaultVersionName, "TensorRT-LLM version to compare with")
	_ = cmd.RegisterFlagCompletionFunc("from", versionCompletion)
	_ = cmd.RegisterFlagCompletionFunc("to", versionCompletion)
	cmd.Flags().StringVar(&p.fromInstall, "from-install", "", "the FROM side is an installed TensorRT-LLM (PATH or auto), instead of --from")
	cmd.Flags().StringVar(&p.toInstall, "to-install", "", "the TO side is an installed TensorRT-LLM (PATH or auto), instead of --to")
	_ = cmd.MarkFlagDirname("from-install")
	_ = cmd.MarkFlagDirname("to-install")
	// --trtllm names one version; here there are two, so it is hidden and refused.
	_ = cmd.Flags().MarkHidden("trtllm")
}

// parse checks the pair and returns both versions.
func (p *versionPair) parse(cmd *cobra.Command, app *appEnv) (from, to resolver.Version, err error) {
	if cmd.Flags().Changed("trtllm") {
		return from, to, usageErr(errors.New("--trtllm names one version; use --from and --to"))
	}
	if cmd.Flags().Changed("install") {
		// --install is the image running now: the FROM side.
		if p.fromInstall != "" {
			return from, to, usageErr(errors.New("--install is the FROM side here; give it or --from-install, not both"))
		}
		p.fromInstall, _ = cmd.Flags().GetString("install")
		if p.fromInstall == "" {
			return from, to, usageErr(errors.New("--install: want PATH or auto"))
		}
	}
	if p.fromInstall != "" && cmd.Flags().Changed("from") || p.toInstall != "" && cmd.Flags().Changed("to") {
		return from, to, usageErr(errors.New("give --from or --from-install (and --to or --to-install), not both"))
	}
	side := func(flag, arg, version string) (resolver.Version, error) {
		if arg == "" {
			v, err := resolver.ParseVersion(version)
			if err != nil {
				return v, usageErr(fmt.Errorf("--%s: %w", flag, err))
			}
			notePlacement(app, v)
			return v, nil
		}
		rep, err := findInstall(app, "--"+flag+"-install", arg, 0, "")
		if err != nil {
			return resolver.Version{}, err
		}
		return rep.ResolverVersion(nil)
	}
	if p.from == "" && p.fromInstall == "" {
		return from, to, usageErr(errors.New("--from is required: the TensorRT-LLM version running now (or --from-install PATH)"))
	}
	if from, err = side("from", p.fromInstall, p.from); err != nil {
		return from, to, err
	}
	if to, err = side("to", p.toInstall, p.to); err != nil {
		return from, to, err
	}
	return from, to, nil
}

// origins says who chose each version, for the chains' inputs: the version
// step and the JSON name --from and --to, not --trtllm's default.
func (p *versionPair) origins(cmd *cobra.Command) (from, to resolver.Origin) {
	from = resolver.Origin{Kind: resolver.OriginFlag, Detail: "--from"}
	to = resolver.Origin{Kind: resolver.OriginPreset}
	if cmd.Flags().Changed("to") {
		to = resolver.Origin{Kind: resolver.OriginFlag, Detail: "--to"}
	}
	if p.fromInstall != "" {
		from = resolver.Origin{Kind: resolver.OriginFlag, Detail: "--from-install"}
		if cmd.Flags().Changed("install") {
			from.Detail = "--install"
		}
	}
	if p.toInstall != "" {
		to = resolver.Origin{Kind: resolver.OriginFlag, Detail: "--to-install"}
	}
	return from, to
}

func fixedCompletion(vals ...string) func(*cobra.Command, []string, string) ([]cobra.Completion, cobra.ShellCompDirective) {
	return func(*cobra.Command, []string, string) ([]cobra.Completion, cobra.ShellCompDirective) {
		return vals, cobra.ShellCompDirectiveNoFileComp
	}
}

func addOutputFlag(cmd *cobra.Command, output *string) {
	cmd.Flags().StringVarP(output, "output", "o", "text", "output format: text|json|markdown")
	_ = cmd.RegisterFlagCompletionFunc("output", fixedCompletion("text", "json", "markdown"))
}

// textOptions sizes and colours the comparison views like explain's text.
func (a *appEnv) textOptions(color string) (compare.TextOptions, io.Writer) {
	on := a.colorOn(color)
	return compare.TextOptions{Width: a.width(), Color: on}, a.out(on)
}

// DiffJSON is diff's JSON contract: both chains as explain prints them, and what
// changed.
type DiffJSON struct {
	From         report.ExplainJSON `json:"from"`
	To           report.ExplainJSON `json:"to"`
	Changed      bool               `json:"changed"`
	ChangedSteps []string           `json:"changed_steps"`
}

func newDiffCmd(app *appEnv, color *string) *cobra.Command {
	var flags inputFlags
	var pair versionPair
	var output string
	var all bool
	cmd := &cobra.Command{
		Use:   "diff --from V1 [--to V2]",
		Short: "Show the resolution chain under two versions side by side, with what changed marked",
		Long: `diff resolves the same inputs under two TensorRT-LLM versions and aligns the two
chains step by step. A step marked ≠ decides something different; the outcome row
says what the worker ends up with under each version. Exit 0 whether or not
anything changed, 2 on usage errors.`,
		Example: `  xcvr diff --from 1.3.0rc21 --to 1.3.0rc22
  xcvr diff --from 1.3.0rc29 --to 1.4.0rc1 --model Qwen3ForCausalLM --backend UCX
  xcvr diff --from 1.3.0rc25 --to 1.3.0rc26 --model DeepseekV3ForCausalLM --backend UCX -o json`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if err := checkOutput(output, "text", "json", "markdown"); err != nil {
				return err
			}
			if err := oneWorker(&flags, "diff"); err != nil {
				return err
			}
			from, to, err := pair.parse(cmd, app)
			if err != nil {
				return err
			}
			flags.warnFuture(app, pair.from)
			flags.warnFuture(app, pair.to)
			cat, err := flags.loadCatalog()
			if err != nil {
				return usageErr(err)
			}
			// Each side is read for its own version: how a file reads can depend on
			// it (e.g. pydantic's list of runtime literals), and explain reads it so.
			fo, to0 := pair.origins(cmd)
			fin, err := inputsAt(cmd, app, &flags, cat, from, fo)
			if err != nil {
				return err
			}
			tin, err := inputsAt(cmd, app, &flags, cat, to, to0)
			if err != nil {
				return err
			}
			d := compare.DiffTraces(resolver.Resolve(compare.ForVersion(fin, from, cat)), resolver.Resolve(compare.ForVersion(tin, to, cat)))
			switch output {
			case "json":
				steps := d.ChangedSteps
				if steps == nil {
					steps = []string{}
				}
				return writeJSON(app, DiffJSON{From: report.Explain(d.From), To: report.Explain(d.To),
					Changed: d.Changed(), ChangedSteps: steps})
			case "markdown":
				_, err := fmt.Fprint(app.stdout, compare.DiffMarkdown(d.Safe()))
				return err
			}
			opts, w := app.textOptions(*color)
			opts.All = all
			_, err = fmt.Fprint(w, compare.DiffText(d.Safe(), opts))
			return err
		},
	}
	addWidthFlag(cmd, app)
	flags.register(cmd.Flags())
	flags.complete(cmd)
	pair.register(cmd)
	addOutputFlag(cmd, &output)
	cmd.Flags().BoolVar(&all, "all", false, "show the full reason of unchanged steps too")
	return cmd
}

// inputsAt builds the inputs from the input flags and the deployment flags laid
// over them, read for version v (the version-dependent parts of reading a file
// see it), with origin saying which flag chose v.
func inputsAt(cmd *cobra.Command, app *appEnv, flags *inputFlags, cat *models.Catalog, v resolver.Version, origin resolver.Origin) (resolver.Inputs, error) {
	s, err := flags.spec(cmd, app)
	if err != nil {
		return resolver.Inputs{}, usageErr(err)
	}
	s.Version = inputs.Value{Raw: v.Name, Origin: origin}
	if v.Install != nil {
		// The install's version: Build takes it from s.Install.
		s.Install = v.Install
		s.Version.Origin = resolver.Origin{Kind: resolver.OriginInstall, Detail: v.Install.VersionEvidence + " (" + origin.String() + ")"}
	}
	if err := flags.deploy.apply(cmd, app, &s, cat); err != nil {
		return resolver.Inputs{}, err
	}
	in, err := inputs.Build(s, cat)
	if err != nil {
		return in, usageErr(err)
	}
	return in, nil
}

// rolesFor builds the roles upgrade-check checks, from the input flags and the
// deployment flags laid over them: both roles of --disagg (or the one --role
// names), else one role "worker" (--config or the plain flags). Each is read for
// the FROM and for the TO version, as explain reads it under each.
func rolesFor(cmd *cobra.Command, app *appEnv, flags *inputFlags, pair *versionPair, from, to resolver.Version) ([]compare.Role, *models.Catalog, error) {
	cat, err := flags.loadCatalog()
	if err != nil {
		return nil, nil, usageErr(err)
	}
	fo, too := pair.origins(cmd)
	build := func() (resolver.Inputs, *resolver.Inputs, error) {
		fin, err := inputsAt(cmd, app, flags, cat, from, fo)
		if err != nil {
			return fin, nil, err
		}
		tin, err := inputsAt(cmd, app, flags, cat, to, too)
		return fin, &tin, err
	}
	var names []string
	switch {
	case flags.deploy.bothRoles():
		names = deploy.Roles()
	case flags.deploy.disagg != "":
		names = []string{flags.deploy.role}
	}
	if len(names) == 0 {
		in, tin, err := build()
		if err != nil {
			return nil, nil, err
		}
		return []compare.Role{{Name: "worker", Inputs: in, ToInputs: tin}}, cat, nil
	}
	roles := make([]compare.Role, 0, len(names))
	defer func() { flags.deploy.activeRole = "" }()
	for _, role := range names {
		flags.deploy.activeRole = role
		in, tin, err := build()
		if err != nil {
			return nil, nil, err
		}
		paths, note := fixPaths(flags.deploy.dis, role)
		roles = append(roles, compare.Role{Name: role, Inputs: in, ToInputs: tin, YAMLPaths: paths, YAMLNote: note})
	}
	return roles, cat, nil
}

// fixPaths says where a fix for role must be written in the disaggregated YAML.
// A cache_transceiver_config of the role's own section is edited there. One at
// the top level is copied into both sections, and TensorRT-LLM refuses to start
// when a section sets the key to a different value, so a fix nested under the
// section would stop both roles: it must edit the top level, and every section
// that repeats the top-level value, alike.
func fixPaths(dis *deploy.Disagg, role string) ([][]string, string) {
	const key = "cache_transceiver_config"
	if dis == nil || !slices.Contains(dis.TopLevel, key) {
		return [][]string{{report.SectionName(role)}}, ""
	}
	paths := [][]string{nil}
	for _, r := range deploy.Roles() {
		if !slices.Contains(dis.Inherited[r], key) {
			paths = append(paths, []string{report.SectionName(r)})
		}
	}
	return paths, key + " is set at the top level and copied into both sections, so this fix changes both roles"
}

// oneWorker refuses --disagg without --role for the commands that show one
// worker's chain.
func oneWorker(flags *inputFlags, command string) error {
	if flags.deploy.bothRoles() {
		return usageErr(errors.New(command + " shows one worker: with --disagg, give --role context or --role generation" +
			" (upgrade-check checks both roles at once)"))
	}
	return nil
}

func newUpgradeCheckCmd(app *appEnv, color *string) *cobra.Command {
	var flags inputFlags
	var pair versionPair
	var output string
	cmd := &cobra.Command{
		Use:   "upgrade-check --from V1 [--to V2] [--config FILE | --disagg FILE [--role R]]",
		Short: "For each role, say whether an upgrade keeps, changes or breaks its transceiver, with the smallest fix",
		Long: `upgrade-check resolves every role of a deployment under both versions. A role
stays the same, changes (another transceiver after the upgrade) or breaks
(start-up fails after the upgrade but not before). For a role that changes or
breaks it tries fixes smallest first (pin transceiver_runtime, switch the backend
to NIXL, a finite kv_transfer_timeout_ms, unset a TRTLLM_* variable, ...),
re-resolves each under both versions, and prints the smallest one that works as
a YAML snippet. Exit 1 when any role breaks, 0 otherwise, 2 on usage errors.`,
		Example: `  xcvr upgrade-check --from 1.3.0rc29 --to 1.4.0rc1 --model Qwen3ForCausalLM --backend UCX
  xcvr upgrade-check --from 1.3.0rc29 --to 1.4.0rc1 --disagg disagg.yaml --model-dir /models/Qwen3-32B
  xcvr upgrade-check --from 1.3.0rc25 --to 1.3.0rc26 --model DeepseekV3ForCausalLM --backend UCX -o json`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if err := checkOutput(output, "text", "json", "markdown"); err != nil {
				return err
			}
			from, to, err := pair.parse(cmd, app)
			if err != nil {
				return err
			}
			flags.warnFuture(app, pair.from)
			flags.warnFuture(app, pair.to)
			if flags.deploy.disagg != "" {
				if done, err := orchestratorOnly(app, &flags); done || err != nil {
					return err
				}
			}
			roles, cat, err := rolesFor(cmd, app, &flags, &pair, from, to)
			if err != nil {
				return err
			}
			u := compare.UpgradeCheck(roles, from, to, cat)
			switch output {
			case "json":
				err = writeJSON(app, u.JSON())
			case "markdown":
				_, err = fmt.Fprint(app.stdout, compare.UpgradeMarkdown(u.Safe()))
			default:
				opts, w := app.textOptions(*color)
				_, err = fmt.Fprint(w, compare.UpgradeText(u.Safe(), opts))
			}
			if err != nil {
				return err
			}
			if u.Breaks() {
				return refused()
			}
			return nil
		},
	}
	flags.register(cmd.Flags())
	flags.complete(cmd)
	pair.register(cmd)
	addOutputFlag(cmd, &output)
	return cmd
}

func newMatrixCmd(app *appEnv, color *string) *cobra.Command {
	var flags inputFlags
	var output, rows, cols string
	cmd := &cobra.Command{
		Use:   "matrix [--trtllm V] [--rows AXIS --cols AXIS]",
		Short: "Tabulate the outcome for every catalog model × backend (or versions × models/backends)",
		Long: `matrix resolves every combination of two axes, holding every other input at its
flag value: by default all catalog models (rows) × all backends (columns) under
--trtllm. --rows and --cols pick two of model, backend, version and
kv-cache-manager (auto, v1, v2); the others are fixed by --model, --backend,
--trtllm and --kv-cache-manager. Each cell is a glyph and a word (✓ PYTHON,
● CPP, ○ off, ✗ ERROR), followed by the KV-cache manager the worker ends with
(V1 or V2) when it starts.`,
		Example: `  xcvr matrix --trtllm 1.4.0rc1
  xcvr matrix --rows version --cols backend --model Qwen3ForCausalLM
  xcvr matrix --rows version --cols model --backend UCX -o markdown
  xcvr matrix --rows model --cols kv-cache-manager --backend UCX`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if err := checkOutput(output, "text", "json", "markdown"); err != nil {
				return err
			}
			r, err := compare.ParseAxis(rows)
			if err != nil {
				return usageErr(fmt.Errorf("--rows: %w", err))
			}
			c, err := compare.ParseAxis(cols)
			if err != nil {
				return usageErr(fmt.Errorf("--cols: %w", err))
			}
			// A flag for an axis that varies would be silently ignored: refuse it.
			for _, a := range []compare.Axis{r, c} {
				name := map[compare.Axis]string{compare.AxisModel: "model", compare.AxisBackend: "backend", compare.AxisVersion: "trtllm", compare.AxisKVManager: "kv-cache-manager"}[a]
				if cmd.Flags().Changed(name) {
					return usageErr(fmt.Errorf("--%s has no effect when %s is an axis of the matrix", name, a))
				}
			}
			if err := oneWorker(&flags, "matrix"); err != nil {
				return err
			}
			in, _, cat, err := flags.resolveInputs(cmd, app)
			if err != nil {
				return err
			}
			m, err := compare.NewMatrix(in, r, c, cat)
			if err != nil {
				return usageErr(err)
			}
			switch output {
			case "json":
				return writeJSON(app, m.JSON())
			case "markdown":
				_, err := fmt.Fprint(app.stdout, compare.MatrixMarkdown(m.Safe()))
				return err
			}
			opts, w := app.textOptions(*color)
			_, err = fmt.Fprint(w, compare.MatrixText(m.Safe(), opts))
			return err
		},
	}
	addWidthFlag(cmd, app)
	flags.register(cmd.Flags())
	flags.complete(cmd)
	addOutputFlag(cmd, &output)
	cmd.Flags().StringVar(&rows, "rows", string(compare.AxisModel), "row axis: model|backend|version|kv-cache-manager")
	cmd.Flags().StringVar(&cols, "cols", string(compare.AxisBackend), "column axis: model|backend|version|kv-cache-manager")
	axes := []string{"model", "backend", "version", "kv-cache-manager"}
	_ = cmd.RegisterFlagCompletionFunc("rows", fixedCompletion(axes...))
	_ = cmd.RegisterFlagCompletionFunc("cols", fixedCompletion(axes...))
	return cmd
}

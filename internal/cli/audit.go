package cli

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"

	"xcvr/internal/audit"
	"xcvr/internal/guard"
	"xcvr/resolver"
)

// auditLimits bound one input of audit: a kubectl List of ten thousand objects
// is tens of megabytes; each document in it is then read with a worker YAML's
// own limits.
func auditLimits() guard.Limits {
	return guard.Limits{MaxBytes: 256 << 20, MaxLineBytes: guard.MaxLineBytes, MaxLines: 1 << 24, AllowCR: true}
}

// Bounds of a directory given to audit: a recipe folder holds tens of
// files; a repository's root, thousands.
const (
	maxAuditDirFiles = 10000
	maxAuditDirDepth = 8
	maxAuditDirBytes = 1 << 30
)

// maxAuditDirEntries bounds the walk itself (a directory of millions of
// other files); a variable for its test.
var maxAuditDirEntries = 200000

// auditDirFile reports whether audit reads a file found in a directory: its
// deployment files by their names (YAML, shell and Slurm scripts, env files).
func auditDirFile(name string) bool {
	switch strings.ToLower(filepath.Ext(name)) {
	case ".yaml", ".yml", ".sh", ".bash", ".slurm", ".sbatch", ".env", ".envfile":
		return true
	}
	return name == ".env" || strings.HasPrefix(name, ".env.")
}

// expandAuditDirs replaces each directory argument by the deployment files
// under it (auditDirFile), in name order: hidden directories (.git) are not
// entered, symbolic links not followed, and the walk is bounded in depth and
// count.
func expandAuditDirs(args []string) ([]string, error) {
	var out []string
	for _, a := range args {
		st, err := os.Lstat(a)
		if a == "-" || err != nil || !st.IsDir() {
			out = append(out, a)
			continue
		}
		var files []string
		root := filepath.Clean(a)
		seen := 0
		err = filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if seen++; seen > maxAuditDirEntries {
				return fmt.Errorf("%s: more than %d entries under it; give the files (or a smaller directory) to audit", a, maxAuditDirEntries)
			}
			if d.IsDir() {
				if p != root && (strings.HasPrefix(d.Name(), ".") || strings.Count(strings.TrimPrefix(p, root), string(filepath.Separator)) > maxAuditDirDepth) {
					return filepath.SkipDir
				}
				return nil
			}
			if !d.Type().IsRegular() || !auditDirFile(d.Name()) {
				return nil
			}
			if len(files) >= maxAuditDirFiles {
				return fmt.Errorf("%s: more than %d deployment files under it; give the files (or a smaller directory) to audit", a, maxAuditDirFiles)
			}
			files = append(files, p)
			return nil
		})
		if err != nil {
			return nil, err
		}
		if len(files) == 0 {
			return nil, fmt.Errorf("%s: a directory with no deployment files (*.yaml, *.yml, *.sh, *.slurm, *.sbatch, *.env) under it", a)
		}
		out = append(out, files...)
	}
	return out, nil
}

// readAuditInputs reads the PATH arguments ("-" is standard input, once; a
// directory is its deployment files) through the guard. flag names the flag
// that gave them (--worker), "" for audit's own arguments: an error names it.
func readAuditInputs(app *appEnv, args []string, flag string) ([]audit.Input, error) {
	var ins []audit.Input
	stdin := false
	args, err := expandAuditDirs(args)
	if err != nil {
		return nil, err
	}
	total := 0
	for _, a := range args {
		var data []byte
		var err error
		if a == "-" {
			if stdin {
				return nil, errors.New("- (standard input) given twice")
			}
			stdin = true
			app.hintStdin("a deployment")
			data, err = guard.ReadAll("-", app.stdin, auditLimits())
		} else {
			data, err = guard.ReadRaw(a, auditLimits())
		}
		if err != nil {
			return nil, guard.FlagError(flag, a, err)
		}
		if err := guard.Text(a, data, auditLimits()); err != nil {
			return nil, guard.FlagError(flag, a, err)
		}
		if total += len(data); total > maxAuditDirBytes {
			return nil, fmt.Errorf("%s: the inputs pass %d MiB together; give fewer files to audit", a, maxAuditDirBytes>>20)
		}
		ins = append(ins, audit.Input{Name: a, Data: guard.StripBOM(data)})
	}
	return ins, nil
}

func newAuditCmd(app *appEnv, color *string) *cobra.Command {
	var flags inputFlags
	var output, to string
	cmd := &cobra.Command{
		Use:   "audit PATH... | DIR | -",
		Short: "Resolve every TensorRT-LLM worker of a deployment (Kubernetes, Dynamo, Slurm, scripts, YAMLs) and check they can exchange KV cache",
		Long: `audit reads a whole deployment: worker YAMLs, trtllm-serve disaggregated
YAMLs, Kubernetes manifests (multi-document files, kubectl get -o yaml List
output; Deployments, StatefulSets, Jobs, Pods, LeaderWorkerSets, AIBrix
StormServices with their
containers' command, args, env and envFrom, the ConfigMaps mounted where
--extra_llm_api_options or --config points, and a script they run from a
ConfigMap), NVIDIA Dynamo
DynamoGraphDeployments (services, envs, --extra-engine-args and
--disaggregation-mode), upstream's Slurm submit configs (worker_config.ctx/gen,
environment.worker_env_var, hardware.num_ctx_servers/num_gen_servers),
srt-slurm (srtctl) recipes (backend.trtllm_config or roles), shell
scripts (sbatch and launch scripts: each command running trtllm-serve or
dynamo.trtllm, through srun or bash -c too, with the variables, exports,
here-documents and echo/printf > FILE lines the script writes, read as
run without arguments; a Dynamo encode worker, --disaggregation-mode
encode, is a MultimodalEncoder with no KV cache and is listed, not
resolved), docker
compose files (interpolated as compose does, from the .env beside them) and
env files (*.env, laid under every worker's own environment; a compose
project's .env only interpolates its file). A directory stands for the
deployment files under it (*.yaml, *.yml, *.sh, *.slurm, *.sbatch, *.env;
hidden directories and symbolic links are skipped).

It reports every distinct worker configuration with its count, role, source,
inputs with their origins and outcome; then whether every context and
generation worker ends on the same transceiver and backend (they must, to
exchange KV cache), which fail, and the smallest verified fix. What it cannot
place is listed. The input flags (--trtllm, --install, --model, --env, ...)
apply to every worker; the workers' environment is the deployment's, not
xcvr's own. Without --trtllm, a worker whose image names its release
(nvcr.io/nvidia/tensorrt-llm/release:TAG, Dynamo's tensorrtllm-runtime:TAG)
is resolved for that release. A worker's loader is its config's backend key, else its
trtllm-serve --backend (pytorch, _autodeploy), as trtllm-serve lays the YAML
over its command line; --loader overrides both. Exit 1 when a worker fails to start or the roles cannot exchange
KV cache (with --to: also when an upgraded worker would fail), when a worker
found is not resolved (the config it names is not in the set), and when the
input holds no TensorRT-LLM worker (an empty kubectl List, an empty pipe): a
gate never passes on nothing; 0 otherwise; 2 for usage errors and unreadable
input.`,
		Example: `  xcvr audit deploy.yaml
  xcvr audit recipes/qwen3/trtllm/disagg/
  kubectl get deploy,sts,pod,cm,dynamographdeployment -n NS -o yaml | xcvr audit -
  xcvr audit config.yaml --trtllm 1.3.0rc29 --to 1.4.0rc1 -o json`,
		Args: needArgs(0, "the deployment's files (or - for standard input)"),
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := checkOutput(output, "text", "json", "markdown"); err != nil {
				return err
			}
			for _, f := range []string{"config", "disagg", "role", "pid", "worker"} {
				if cmd.Flags().Changed(f) {
					return usageErr(fmt.Errorf("--%s names one worker; audit reads whole deployments: give the files as arguments", f))
				}
			}
			// The workers' environment is the deployment's, not xcvr's.
			flags.cleanEnv = true
			cat, err := flags.loadCatalog()
			if err != nil {
				return usageErr(err)
			}
			s, err := flags.spec(cmd, app)
			if err != nil {
				return usageErr(err)
			}
			if err := flags.deploy.apply(cmd, app, &s, cat); err != nil {
				return err
			}
			if err := flags.applyInstall(cmd, app, &s); err != nil {
				return err
			}
			opt := audit.Options{Base: s, Catalog: cat,
				ModelFromFlags: cmd.Flags().Changed("model") || flags.deploy.modelDir != "" || flags.deploy.modelConfig != ""}
			if to != "" {
				v, err := resolver.ParseVersion(to)
				if err != nil {
					return usageErr(fmt.Errorf("--to: %w", err))
				}
				flags.warnFuture(app, to)
				opt.To = &v
			}
			ins, err := readAuditInputs(app, args, "")
			if err != nil {
				return usageErr(err)
			}
			set, err := audit.Read(ins)
			if err != nil {
				return usageErr(err)
			}
			rep := audit.Resolve(set, opt)
			switch output {
			case "json":
				err = writeJSON(app, rep.JSON())
			case "markdown":
				_, err = fmt.Fprint(app.stdout, rep.Markdown())
			default:
				_, err = fmt.Fprint(app.out(app.colorOn(*color)), rep.Text())
			}
			if err != nil {
				return err
			}
			if rep.Fails() || rep.Empty() || len(rep.Unresolved()) > 0 || (rep.Upgrade != nil && rep.Upgrade.Breaks()) {
				return refused()
			}
			return nil
		},
	}
	flags.register(cmd.Flags())
	flags.complete(cmd)
	addOutputFlag(cmd, &output)
	cmd.Flags().StringVar(&to, "to", "", "also show every worker after an upgrade to this version, with upgrade-check's verdicts and fixes")
	_ = cmd.RegisterFlagCompletionFunc("to", versionCompletion)
	return cmd
}

package cli

import (
	"errors"
	"fmt"
	"os"
	"strings"

	"github.com/spf13/cobra"

	"xcvr/internal/deploy"
	"xcvr/internal/inputs"
	"xcvr/internal/install"
	"xcvr/internal/termsafe"
	"xcvr/models"
	"xcvr/resolver"
)

// findInstall turns --install PATH|auto (and --pid) into a scanned install; nil
// when neither asks for one. With --pid and no --install, the install the process
// loaded is used when it can be found, and left alone otherwise.
func findInstall(app *appEnv, flag, arg string, pid int, procRoot string) (*install.Report, error) {
	if procRoot == "" {
		procRoot = "/proc"
	}
	var pkg, how string
	switch {
	case arg == "" && pid == 0:
		return nil, nil
	case arg == "" || (arg == "auto" && pid != 0):
		p, h, err := install.FromPID(procRoot, pid)
		if err == nil {
			pkg, how = p, h
			break
		}
		if arg == "" {
			return nil, nil
		}
		fallthrough
	case arg == "auto":
		home, _ := os.UserHomeDir()
		p, err := install.Auto(install.AutoEnv{Getenv: app.getenv, Home: home})
		if err != nil {
			return nil, usageErr(fmt.Errorf("%s %w", flag, trimFlag(err)))
		}
		pkg, how = p, "--install auto"
	default:
		p, err := install.Locate(arg)
		if err != nil {
			return nil, usageErr(fmt.Errorf("%s %w", flag, trimFlag(err)))
		}
		pkg = p
	}
	rep, err := install.Scan(pkg, install.DefaultLimits())
	if err != nil {
		return nil, usageErr(fmt.Errorf("%s %s: %w", flag, pkg, err))
	}
	if rep.Era < 0 && flag != "inspect" { // inspect shows it with era null
		return nil, usageErr(fmt.Errorf("%s %s: cannot tell the rules: tensorrt_llm/llmapi/llm_utils.py is missing or unreadable", flag, pkg))
	}
	if how != "" {
		fmt.Fprintln(app.stderr, termsafe.Line("xcvr: using TensorRT-LLM "+rep.Version+" at "+rep.Path+" (found by "+how+")"))
	}
	for _, n := range rep.Notes {
		fmt.Fprintln(app.stderr, termsafe.Line("xcvr: warning: install: "+n))
	}
	if flag != "inspect" {
		// The install wins where it and xcvr's rules for its version differ;
		// say where (the model registrations show in the model step instead).
		// A version xcvr does not list (a nightly, a .post build) is answered
		// with rules xcvr has for another release or day: say which, once,
		// rather than call them xcvr's rules for that version.
		rules := "xcvr's rules for " + rep.Version
		placement := ""
		if v, err := resolver.ParseVersion(rep.Version); err == nil && v.Placement != "" {
			rules, placement = "those rules", strings.TrimSuffix(v.Placement, "; pass --install to read yours")
		}
		for _, d := range rep.Disagreements(models.Builtin()) {
			if strings.HasPrefix(d.What, "model ") {
				continue
			}
			if placement != "" {
				fmt.Fprintln(app.stderr, termsafe.Line("xcvr: note: "+placement))
				placement = ""
			}
			msg := "xcvr: note: the install differs from " + rules + " (the install is used): " +
				d.What + ": xcvr " + d.Xcvr + ", install " + d.Install + " (" + d.Evidence + ")"
			if d.What == "version" {
				msg = "xcvr: note: xcvr has no rules for " + rep.Version + " (" + d.Evidence + "); its era and rules are read from the install"
			}
			fmt.Fprintln(app.stderr, termsafe.Line(msg))
		}
	}
	return rep, nil
}

// trimFlag drops the "--install " the install package puts in front of its errors,
// so the message names the flag the user typed.
func trimFlag(err error) error {
	const p = "--install "
	if s := err.Error(); len(s) > len(p) && s[:len(p)] == p {
		return errors.New(s[len(p):])
	}
	return err
}

// configValues are the config.json values an undetermined hook can be told about.
func configValues(mc *deploy.ModelConfig) install.ConfigValues {
	if mc == nil {
		return nil
	}
	cv := install.ConfigValues{}
	if mc.Architectures != nil {
		cv["architectures"] = fmt.Sprintf("%q", mc.Architectures)
	}
	if mc.ModelType != "" {
		cv["model_type"] = fmt.Sprintf("%q", mc.ModelType)
	}
	return cv
}

// applyInstall puts --install (or the install --pid found) into the spec: the
// version becomes the install's, with origin "install FILE:LINE". --trtllm and
// --install name the version twice and are refused together.
func (f *inputFlags) applyInstall(cmd *cobra.Command, app *appEnv, s *inputs.Spec) error {
	if f.installRep == nil && !f.installDone {
		f.installDone = true
		if f.install != "" && cmd.Flags().Changed("trtllm") {
			return usageErr(errors.New("--trtllm and --install both name the version; give one"))
		}
		rep, err := findInstall(app, "--install", f.install, f.deploy.pid, f.deploy.procRoot)
		if err != nil {
			return err
		}
		f.installRep = rep
	}
	if f.installRep == nil || cmd.Flags().Changed("trtllm") {
		return nil
	}
	s.Install = f.installRep.Facts(configValues(f.deploy.model))
	// The install's own TorchLlmArgs fields decide a worker YAML's top-level keys.
	s.LLMArgsFields = f.installRep.LLMArgsFields
	s.Version = inputs.Value{Raw: f.installRep.Version, Origin: resolver.Origin{Kind: resolver.OriginInstall, Detail: f.installRep.VersionSource}}
	return nil
}

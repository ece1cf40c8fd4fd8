package cli

import (
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"xcvr/internal/inputs"
	"xcvr/internal/suggest"
	"xcvr/internal/termsafe"
	"xcvr/resolver"
)

// nearest and didYouMean are internal/suggest's, shared with the linear mode.
func nearest(word string, candidates []string) []string { return suggest.Nearest(word, candidates) }

func didYouMean(word string, candidates []string) string { return suggest.DidYouMean(word, candidates) }

// unknownCommandArgs is a root command's Args: no positional arguments, and
// an unknown command names the nearest ones (explian -> explain).
func unknownCommandArgs(cmd *cobra.Command, args []string) error {
	if len(args) == 0 {
		return nil
	}
	var names []string
	for _, c := range cmd.Commands() {
		if c.IsAvailableCommand() {
			names = append(names, c.Name())
			names = append(names, c.Aliases...)
		}
	}
	return fmt.Errorf("unknown command %q for %q%s", args[0], cmd.CommandPath(), didYouMean(args[0], names))
}

// flagError is SetFlagErrorFunc's function: a usage error that, for an
// unknown flag, names the nearest flags of the command, or else where its
// flags are listed.
func flagError(cmd *cobra.Command, err error) error {
	return flagErrorWith(cmd, err, "'"+cmd.CommandPath()+" --help' lists its flags")
}

// flagErrorWith is flagError with fallback, the words that say where the
// command's flags are listed, for an unknown flag no flag is near.
func flagErrorWith(cmd *cobra.Command, err error, fallback string) error {
	if e := badFlagValue(err); e != nil {
		return usageErr(e)
	}
	msg := err.Error()
	name, ok := strings.CutPrefix(msg, "unknown flag: --")
	if !ok {
		return usageErr(err)
	}
	var names []string
	cmd.Flags().VisitAll(func(f *pflag.Flag) {
		if !f.Hidden {
			names = append(names, f.Name)
		}
	})
	cmd.InheritedFlags().VisitAll(func(f *pflag.Flag) {
		if !f.Hidden && !slices.Contains(names, f.Name) {
			names = append(names, f.Name)
		}
	})
	for i := range names {
		names[i] = "--" + names[i]
	}
	if hint := didYouMean("--"+name, names); hint != "" {
		return usageErr(errors.New(msg + hint))
	}
	return usageErr(fmt.Errorf("%s; %s", msg, fallback))
}

// badFlagValue rewrites pflag's error for a value its type cannot hold
// ('invalid argument "abc" for "--pid" flag: strconv.ParseInt: parsing "abc":
// invalid syntax') in xcvr's words: the flag, the value and what it takes, as
// the flags xcvr checks itself say it. nil for any other error.
func badFlagValue(err error) error {
	var ive *pflag.InvalidValueError
	if !errors.As(err, &ive) || ive.GetFlag() == nil {
		return nil
	}
	f := ive.GetFlag()
	var want string
	switch f.Value.Type() {
	case "int", "int8", "int16", "int32", "int64", "uint", "uint8", "uint16", "uint32", "uint64":
		want = "a whole number"
		if errors.Is(err, strconv.ErrRange) {
			want += " (this one is out of range)"
		}
	case "duration":
		want = "a duration with its unit, such as 30s, 15m or 1h30m"
	case "bool":
		want = "true or false"
	default:
		return nil
	}
	return fmt.Errorf("--%s %s: want %s", f.Name, strconv.Quote(ive.GetValue()), want)
}

// noteNearMisses says on stderr when a flag's value is close to one xcvr
// knows but is not it: a backend or runtime TensorRT-LLM would refuse (case
// matters there) or a version xcvr has no release of. The value is still
// used as given — TensorRT-LLM's own answer to it is the point — so this is a
// note, not an error.
func noteNearMisses(app *appEnv, s inputs.Spec) {
	byFlag := func(v inputs.Value, flag string) bool {
		return v.Origin.Kind == resolver.OriginFlag && strings.HasPrefix(v.Origin.Detail, flag)
	}
	// The chosen release's own spellings: 1.0 accepts default, ucx, nixl, mpi
	// and nothing else.
	// Before #5234 backend is no field at all (any value is ignored).
	backends, hasBackend := inputs.Backends(), true
	if v, err := resolver.ParseVersion(s.Version.Raw); err == nil && s.Version.Raw != "" {
		rs := resolver.ReleaseRules(v)
		backends = append(resolver.BackendLiterals(rs), "none")
		hasBackend = slices.ContainsFunc(rs.Fields, func(f resolver.FieldSpec) bool { return f.Name == "backend" })
	}
	if b := s.Backend; hasBackend && byFlag(b, "--backend") && b.Raw != "" && !slices.Contains(backends, b.Raw) && b.Raw != "null" {
		if hint := didYouMean(b.Raw, backends); hint != "" {
			app.note("--backend " + resolver.Str(termsafe.Line(b.Raw)).Repr() + " is not a backend TensorRT-LLM accepts" + hint)
		}
	}
	if r := s.Runtime; byFlag(r, "--runtime") && r.Raw != "" && !slices.Contains(inputs.Runtimes(), r.Raw) {
		if hint := didYouMean(r.Raw, inputs.Runtimes()); hint != "" {
			app.note("--runtime " + resolver.Str(termsafe.Line(r.Raw)).Repr() + " is not a transceiver_runtime TensorRT-LLM accepts" + hint)
		}
	}
	// A variable name typed with --env that the resolver does not read but
	// one it reads is near (TRTLLM_USE_UCX_KVCACH): it would be ignored.
	var known []string
	for _, e := range resolver.EnvVars() {
		known = append(known, e.Name)
	}
	for _, k := range s.EnvNames() {
		if e := s.Env[k]; e.Origin.Kind != resolver.OriginFlag || slices.Contains(known, k) {
			continue
		}
		if hint := didYouMean(k, known); hint != "" {
			app.note("--env " + termsafe.Line(k) + " is not a variable TensorRT-LLM's transceiver choice reads" + hint)
		}
	}
	if v := s.Version; byFlag(v, "--trtllm") && !strings.HasPrefix(v.Raw, "main@") {
		// Compared as the resolver reads it: 1.3.0RC22 and v1.3.0rc22 are
		// 1.3.0rc22, and answered as that release.
		canon := v.Raw
		if pv, err := resolver.ParseVersion(v.Raw); err == nil {
			canon = pv.Name
		}
		var names []string
		for _, k := range resolver.KnownVersions() {
			if k.Name == canon {
				return
			}
			names = append(names, k.Name)
		}
		slices.Reverse(names) // the newest first among equally near ones
		if n := suggest.Release(v.Raw, names); n != "" {
			app.note(termsafe.Line(v.Raw) + " is not a release xcvr lists; did you mean " + n + "?")
		}
	}
}

// note says a near-miss note on stderr and keeps it for the explorer, whose
// screen would hide it.
func (app *appEnv) note(text string) {
	fmt.Fprintln(app.stderr, "xcvr: note: "+text)
	app.notes = append(app.notes, text)
}

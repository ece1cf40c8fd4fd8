package report

import (
	"maps"
	"strings"

	"xcvr/internal/termsafe"
	"xcvr/resolver"
)

// Safe returns a copy of t in which every string that can hold input — values,
// origins (file names from a --pid command line), reasons, the exception, the log
// lines, the hint — is escaped for a terminal with termsafe: control characters,
// ESC sequences, C1 and bidi overrides become visible escapes. Text and Markdown
// render Safe(t); JSON renders t itself, whose encoder escapes what it must and
// keeps exact values. Clean strings are kept without copying.
func Safe(t resolver.Trace) resolver.Trace {
	l := termsafe.Line
	rawErrors := t.Inputs.ConfigErrors
	in := &t.Inputs
	in.Version.Name = l(in.Version.Name)
	in.VersionOrigin.Detail = l(in.VersionOrigin.Detail)
	in.Model.Value.Arch = l(in.Model.Value.Arch)
	in.Model.Value.Class = l(in.Model.Value.Class)
	in.Model.Value.Note = l(in.Model.Value.Note)
	in.Model.Origin.Detail = l(in.Model.Origin.Detail)
	in.Backend.Value.S = l(in.Backend.Value.S)
	in.Backend.Origin.Detail = l(in.Backend.Origin.Detail)
	in.Runtime.Value.S = l(in.Runtime.Value.S)
	in.Runtime.Origin.Detail = l(in.Runtime.Origin.Detail)
	in.Timeout.Origin.Detail = l(in.Timeout.Origin.Detail)
	in.Loader.Origin.Detail = l(in.Loader.Origin.Detail)
	in.Pipelined.Origin.Detail = l(in.Pipelined.Origin.Detail)
	if in.Env != nil {
		env := make(resolver.Env, len(in.Env))
		for k, v := range maps.All(in.Env) {
			env[l(k)] = resolver.EnvVar{Value: l(v.Value), Origin: resolver.Origin{Kind: v.Origin.Kind, Detail: l(v.Origin.Detail)}}
		}
		in.Env = env
	}
	if len(in.ConfigErrors) > 0 {
		errs := make([]resolver.FieldError, len(in.ConfigErrors))
		for i, e := range in.ConfigErrors {
			e.Loc, e.Message, e.Input, e.InputType = l(e.Loc), l(e.Message), l(e.Input), l(e.InputType)
			e.Origin.Detail = l(e.Origin.Detail)
			errs[i] = e
		}
		in.ConfigErrors = errs
	}
	steps := make([]resolver.Step, len(t.Steps))
	for i, s := range t.Steps {
		s.Title, s.Reason, s.Detail = l(s.Title), l(s.Reason), l(s.Detail)
		s.Source.File = l(s.Source.File)
		steps[i] = s
	}
	t.Steps = steps
	logs := make([]resolver.LogLine, len(t.Logs))
	for i, x := range t.Logs {
		x.Message = l(x.Message)
		logs[i] = x
	}
	t.Logs = logs
	r := &t.Result
	r.Error = termsafe.Text(safeLocs(r.Error, rawErrors))
	r.Hint = l(r.Hint)
	r.BackendSource = l(r.BackendSource)
	r.EffectiveBackend.S = l(r.EffectiveBackend.S)
	r.ResolvedRuntime.S = l(r.ResolvedRuntime.S)
	return t
}

// ErrorText is t's exception as Text and Markdown show it: escaped, each loc
// of a pydantic error one line (see safeLocs). For outputs that print the
// exception without rendering the rest through Safe.
func ErrorText(t resolver.Trace) string {
	return termsafe.Text(safeLocs(t.Result.Error, t.Inputs.ConfigErrors))
}

// safeLocs escapes, inside a pydantic error text, each loc that holds a line
// break or an invisible character. pydantic prints a loc as it is, one to a
// line, so an unknown key named "a\n```\n# Title" would break out of the
// exception's lines (and of -o markdown's code block); the error keeps its
// own lines, the key becomes one line. JSON keeps the exact text.
func safeLocs(msg string, errs []resolver.FieldError) string {
	for _, e := range errs {
		if safe := termsafe.Line(e.Loc); safe != e.Loc {
			msg = strings.ReplaceAll(msg, "."+e.Loc+"\n", "."+safe+"\n")
		}
	}
	return msg
}

package cli

import (
	"encoding/json"
	"fmt"
	"sort"
	"strings"

	"github.com/spf13/cobra"

	"xcvr/internal/deploy"
	"xcvr/internal/report"
	"xcvr/internal/termsafe"
	"xcvr/resolver"
)

// rolesJSON is explain's JSON for a disaggregated YAML resolved without --role.
type rolesJSON struct {
	Roles      map[string]report.ExplainJSON `json:"roles"`
	Consistent bool                          `json:"consistent"`
	Warnings   []string                      `json:"warnings"`
}

// runExplainRoles resolves the context and the generation role of --disagg side by
// side. Each worker resolves on its own and nothing upstream checks that they
// agree, so xcvr does.
func runExplainRoles(cmd *cobra.Command, app *appEnv, flags *inputFlags, output, color string) error {
	traces := map[string]resolver.Trace{}
	for _, role := range deploy.Roles() {
		flags.deploy.activeRole = role
		in, _, _, err := flags.resolveInputs(cmd, app)
		if err != nil {
			return err
		}
		traces[role] = resolver.Resolve(in)
	}
	flags.deploy.activeRole = ""
	ctx, gen := traces[deploy.RoleContext], traces[deploy.RoleGeneration]
	consistent, warnings := compareRoles(ctx, gen)
	file := flags.deploy.disagg

	switch output {
	case "json":
		out := rolesJSON{Roles: map[string]report.ExplainJSON{}, Consistent: consistent, Warnings: warnings}
		for role, t := range traces {
			out.Roles[role] = explainJSON(t, flags.installRep)
		}
		enc := json.NewEncoder(termsafe.JSONWriter{W: app.stdout})
		enc.SetIndent("", "  ")
		enc.SetEscapeHTML(false)
		if err := enc.Encode(out); err != nil {
			return err
		}
	case "yaml":
		fmt.Fprint(app.stdout, pinRoles(ctx, gen))
	default:
		on := app.colorOn(color)
		w := app.out(on)
		for _, role := range deploy.Roles() {
			t := traces[role]
			if output == "markdown" {
				fmt.Fprintf(w, "## %s role (%s of %s)\n\n%s\n", role, sectionName(role), termsafe.Line(file), report.Markdown(t))
				continue
			}
			fmt.Fprintf(w, "══ %s role (%s of %s) ══\n%s\n", role, sectionName(role), termsafe.Line(file), report.Text(t, report.TextOptions{Width: app.width(), Styles: app.styles(on)}))
		}
		if consistent {
			fmt.Fprintf(w, "Both roles: %s\n", describe(ctx.Result))
		}
		for _, warn := range warnings {
			fmt.Fprintf(w, "Warning: %s\n", termsafe.Line(warn))
		}
	}
	if ctx.Result.Outcome == resolver.OutcomeError || gen.Result.Outcome == resolver.OutcomeError {
		return refused()
	}
	return nil
}

func sectionName(role string) string {
	if role == deploy.RoleContext {
		return "context_servers"
	}
	return "generation_servers"
}

// describe is a role's end: the transceiver and its backend.
func describe(r resolver.Result) string {
	s := report.OutcomeLine(r)
	if r.EffectiveBackend.Valid {
		s += " on " + r.EffectiveBackend.S
	}
	return s
}

// compareRoles reports whether the roles end on the same transceiver and backend,
// and when not, which inputs differ between them.
func compareRoles(ctx, gen resolver.Trace) (bool, []string) {
	a, b := ctx.Result, gen.Result
	warnings := pipelinedPeers(ctx, gen)
	if a.Outcome == b.Outcome && a.Class == b.Class && a.EffectiveBackend == b.EffectiveBackend {
		return true, warnings
	}
	msg := "the roles end on different transceivers or backends, which TensorRT-LLM does not check (both roles must use the same runtime and backend to exchange KV cache): context → " + describe(a) +
		"; generation → " + describe(b)
	ia, ib := report.InputsJSON(ctx.Inputs), report.InputsJSON(gen.Inputs)
	keys := map[string]bool{}
	for k := range ia {
		keys[k] = true
	}
	for k := range ib {
		keys[k] = true
	}
	var names []string
	for k := range keys {
		names = append(names, k)
	}
	sort.Strings(names)
	var diffs []string
	for _, k := range names {
		x, okx := ia[k]
		y, oky := ib[k]
		if okx && oky && fmt.Sprint(x.Value) == fmt.Sprint(y.Value) {
			continue
		}
		diffs = append(diffs, k+" (context: "+inputStr(x, okx)+"; generation: "+inputStr(y, oky)+")")
	}
	if len(diffs) > 0 {
		msg += ". Inputs that differ: " + strings.Join(diffs, ", ")
	} else {
		msg += ". No input differs; the difference comes from the roles' own settings outside xcvr's inputs"
	}
	return false, append(warnings, msg)
}

// pipelinedPeers checks enable_pipelined_transfer's "on both peers"
// requirements (docs 1.3.0rc27: pipeline_parallel_size=1 and
// context_parallel_size=1 on both peers) across the two roles: each worker checks
// only its own file, so a peer's setting is something only xcvr sees. A setting
// the peer's file does not give is reported as one the check depends on.
func pipelinedPeers(ctx, gen resolver.Trace) []string {
	out := []string{}
	roles := []struct {
		name string
		t    resolver.Trace
	}{{deploy.RoleContext, ctx}, {deploy.RoleGeneration, gen}}
	for i, r := range roles {
		if !r.t.Inputs.Pipelined.Value || r.t.Result.Outcome != resolver.OutcomePython {
			continue
		}
		peer := roles[1-i]
		var st resolver.Static
		if peer.t.Inputs.Static != nil {
			st = *peer.t.Inputs.Static
		}
		var depends []string
		for _, q := range []struct {
			key string
			f   resolver.Field[int64]
		}{{"pipeline_parallel_size", st.PP}, {"context_parallel_size", st.CP}} {
			switch {
			case !q.f.Given():
				depends = append(depends, q.key)
			case q.f.Value != 1:
				out = append(out, "enable_pipelined_transfer on the "+r.name+" role needs "+q.key+"=1 on both peers (docs 1.3.0rc27); the "+
					peer.name+" role sets "+fmt.Sprint(q.f.Value)+" ("+q.f.Origin.String()+")")
			}
		}
		if len(depends) > 0 {
			out = append(out, "enable_pipelined_transfer on the "+r.name+" role needs "+strings.Join(depends, " and ")+
				"=1 on both peers (docs 1.3.0rc27); the "+peer.name+" role's file does not set it, so this depends on its default (1)")
		}
	}
	return out
}

func inputStr(in report.InputJSON, ok bool) string {
	if !ok {
		return "unset"
	}
	v := "null"
	if in.Value != nil {
		v = fmt.Sprint(in.Value)
	}
	return v + " from " + in.Origin
}

// pinRoles pins each role in its own section, because TensorRT-LLM copies a
// top-level cache_transceiver_config into both sections and refuses a section
// that differs from it.
func pinRoles(ctx, gen resolver.Trace) string {
	var b strings.Builder
	b.WriteString("# For trtllm-serve disaggregated -c: put these under the sections and remove any\n")
	b.WriteString("# top-level cache_transceiver_config (a differing top-level copy is refused).\n")
	for _, role := range deploy.Roles() {
		t := ctx
		if role == deploy.RoleGeneration {
			t = gen
		}
		b.WriteString(sectionName(role) + ":\n")
		for _, l := range strings.Split(strings.TrimRight(report.PinYAML(t), "\n"), "\n") {
			b.WriteString("  " + l + "\n")
		}
	}
	return b.String()
}

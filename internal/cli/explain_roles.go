package cli

import (
	"encoding/json"
	"fmt"
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
	if done, err := orchestratorOnly(app, flags); done || err != nil {
		return err
	}
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
	consistent, warnings := report.CompareRoles(ctx, gen)
	file := flags.deploy.disagg
	only := ""
	if dis := flags.deploy.dis; dis != nil {
		for _, role := range deploy.Roles() {
			if s, ok := dis.Servers[role]; ok && s.InstancesLine > 0 && s.Instances == 0 {
				// num_instances: 0 starts no server of the role
				// (extract_ctx_gen_cfgs makes [None] * 0): a gen-only
				// config has no context server to disagree with, so the
				// roles are not compared (audit lists it under Not placed).
				consistent, only = true, deploy.RoleContext
				if role == deploy.RoleContext {
					only = deploy.RoleGeneration
				}
				warnings = []string{fmt.Sprintf("%s: num_instances: 0 (%s:%d): no %s server is started (extract_ctx_gen_cfgs makes none); the roles are not compared", report.SectionName(role), dis.File, s.InstancesLine, role)}
			}
		}
	}

	switch output {
	case "json":
		out := rolesJSON{Roles: map[string]report.ExplainJSON{}, Consistent: consistent, Warnings: warnings}
		for role, t := range traces {
			out.Roles[role] = report.ExplainInstall(t, flags.installRep)
		}
		enc := json.NewEncoder(termsafe.JSONWriter{W: app.stdout})
		enc.SetIndent("", "  ")
		enc.SetEscapeHTML(false)
		if err := enc.Encode(out); err != nil {
			return err
		}
	case "yaml":
		fmt.Fprint(app.stdout, report.PinRoles(ctx, gen))
	default:
		on := app.colorOn(color)
		w := app.out(on)
		for _, role := range deploy.Roles() {
			t := traces[role]
			if output == "markdown" {
				fmt.Fprintf(w, "## %s role (%s of %s)\n\n%s\n", role, report.SectionName(role), termsafe.Line(file), report.Markdown(t))
				continue
			}
			fmt.Fprintf(w, "══ %s role (%s of %s) ══\n%s\n", role, report.SectionName(role), termsafe.Line(file), report.Text(t, report.TextOptions{Width: app.width(), Styles: app.styles(on)}))
		}
		switch {
		case only != "":
			fmt.Fprintf(w, "Only the %s role starts servers: %s\n", only, report.RoleEnd(traces[only].Result))
		case consistent:
			fmt.Fprintf(w, "Both roles: %s\n", report.RoleEnd(ctx.Result))
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

// orchestratorOnly answers for a disaggregated file that only lists its
// servers' addresses: the workers were started with their own --config, which
// decides their transceivers, so there is nothing to resolve from this file
// (and reporting both roles DISABLED would be wrong). It reports whether it
// answered.
func orchestratorOnly(app *appEnv, flags *inputFlags) (bool, error) {
	if err := flags.deploy.load(app); err != nil {
		return false, err
	}
	dis := flags.deploy.dis
	if dis == nil || !dis.OrchestratorOnly() {
		return false, nil
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%s only lists the servers trtllm-serve disaggregated routes to; each worker's own --config decides its transceiver, not this file.\n", termsafe.Line(dis.File))
	for _, role := range deploy.Roles() {
		s := dis.Servers[role]
		fmt.Fprintf(&b, "  %s (%s): %s\n", role, report.SectionName(role), termsafe.Line(strings.Join(s.URLs, ", ")))
	}
	b.WriteString("Run xcvr explain --config on a worker's own config, or xcvr audit with every worker's config.\n")
	_, err := fmt.Fprint(app.stdout, b.String())
	return true, err
}

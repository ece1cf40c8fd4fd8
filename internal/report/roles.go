package report

import (
	"fmt"
	"sort"
	"strings"

	"xcvr/resolver"
)

// The two roles of a disaggregated deployment, as internal/deploy names them.
const (
	RoleContext    = "context"
	RoleGeneration = "generation"
)

// SectionName is the disaggregated YAML section a role's workers read:
// context_servers or generation_servers.
func SectionName(role string) string {
	if role == RoleContext {
		return "context_servers"
	}
	return "generation_servers"
}

// RoleEnd is a role's end in a few words: the transceiver and its backend.
func RoleEnd(r resolver.Result) string {
	s := OutcomeLine(r)
	if r.EffectiveBackend.Valid {
		s += " on " + r.EffectiveBackend.S
	}
	return s
}

// CompareRoles reports whether the roles end on the same transceiver and backend,
// and when not, which inputs differ between them.
//
// Each worker resolves on its own and nothing upstream checks that the two
// agree, so xcvr does: explain --disagg and audit share this.
func CompareRoles(ctx, gen resolver.Trace) (bool, []string) {
	a, b := ctx.Result, gen.Result
	warnings := pipelinedPeers(ctx, gen)
	if a.Outcome == b.Outcome && a.Class == b.Class && a.EffectiveBackend == b.EffectiveBackend {
		return true, warnings
	}
	msg := "the roles end on different transceivers or backends, which TensorRT-LLM does not check (both roles must use the same runtime and backend to exchange KV cache): context → " + RoleEnd(a) +
		"; generation → " + RoleEnd(b)
	ia, ib := InputsJSON(ctx.Inputs), InputsJSON(gen.Inputs)
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
	}{{RoleContext, ctx}, {RoleGeneration, gen}}
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

func inputStr(in InputJSON, ok bool) string {
	if !ok {
		return "unset"
	}
	v := "null"
	if in.Value != nil {
		v = fmt.Sprint(in.Value)
	}
	return v + " from " + in.Origin
}

// PinRoles pins each role in its own section, because TensorRT-LLM copies a
// top-level cache_transceiver_config into both sections and refuses a section
// that differs from it.
func PinRoles(ctx, gen resolver.Trace) string {
	var b strings.Builder
	b.WriteString("# For trtllm-serve disaggregated -c: put these under the sections and remove any\n")
	b.WriteString("# top-level cache_transceiver_config (a differing top-level copy is refused).\n")
	for _, role := range []string{RoleContext, RoleGeneration} {
		t := ctx
		if role == RoleGeneration {
			t = gen
		}
		b.WriteString(SectionName(role) + ":\n")
		for _, l := range strings.Split(strings.TrimRight(PinYAML(t), "\n"), "\n") {
			b.WriteString("  " + l + "\n")
		}
	}
	return b.String()
}

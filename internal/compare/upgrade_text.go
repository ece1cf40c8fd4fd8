package compare

import (
	"strconv"
	"strings"

	"xcvr/resolver"
)

// roleWidth fits "generation" plus a gap.
const roleWidth = 12

// UpgradeText renders the check: one block per role with its verdict, the error
// the TO version raises, and the smallest fix as a YAML snippet.
func UpgradeText(u Upgrade, opts TextOptions) string {
	w := opts.width()
	var b strings.Builder
	b.WriteString(opts.style(sgrBold, oneLine("xcvr upgrade-check: "+u.From.Name+" -> "+u.To.Name, w)) + "\n")
	writeWrapped(&b, "  from: ", versionLine(u.From), w)
	writeWrapped(&b, "  to:   ", versionLine(u.To), w)
	if len(u.Changes) > 0 {
		prs := make([]string, 0, len(u.Changes))
		for _, c := range u.Changes {
			if c.PR != 0 {
				prs = append(prs, "#"+strconv.Itoa(c.PR))
			}
		}
		writeWrapped(&b, "  upstream changes in between: ", strings.Join(prs, ", "), w)
	}
	counts := map[UpgradeVerdict]int{}
	// Roles are "context" and "generation", or a deployment's worker names
	// (xcvr audit --to): the column fits the longest, as a table would.
	rw := roleWidth
	for _, f := range u.Findings {
		rw = max(rw, len([]rune(f.Role))+2)
	}
	for _, f := range u.Findings {
		counts[f.Verdict]++
		b.WriteByte('\n')
		head := pad(f.Role, rw) + pad(OutcomeLabel(f.From.Result.Outcome), 9) + " -> " +
			pad(OutcomeLabel(f.To.Result.Outcome), 9) + "  " + verdictWord(f.Verdict)
		sgr := sgrBold
		if f.Verdict == VerdictBreaks {
			sgr = sgrError
		}
		b.WriteString(opts.style(sgr, oneLine(head, w)) + "\n")
		writeWrapped(&b, "  inputs: ", inputsLine(f.From.Inputs), w)
		if kv := kvChange(f.From.Result, f.To.Result); kv != "" {
			writeWrapped(&b, "  ", "KV-cache manager: "+kv, w)
		}
		if e := f.From.Result.Error; e != "" {
			writeWrapped(&b, "  ", u.From.Name+" already fails at "+f.From.Result.FailedStep+": "+e, w)
		}
		if e := f.To.Result.Error; e != "" {
			writeWrapped(&b, "  ", u.To.Name+" fails at "+f.To.Result.FailedStep+": "+e, w)
		}
		writeFix(&b, f, u, w)
	}
	if u.Split {
		b.WriteByte('\n')
		msg := "after the upgrade the roles end on different transceivers or backends (" + rolesEnd(u) +
			"); both roles must use the same runtime and backend to exchange KV cache, which TensorRT-LLM does not check at start-up"
		if u.FixesJoin {
			msg += "; with the fixes above applied they agree again"
		}
		writeWrapped(&b, "warning: ", msg+".", w)
	}
	b.WriteByte('\n')
	summary := strconv.Itoa(counts[VerdictBreaks]) + " break, " + strconv.Itoa(counts[VerdictChanges]) +
		" change, " + strconv.Itoa(counts[VerdictSame]) + " stay the same"
	writeWrapped(&b, "", summary, w)
	return b.String()
}

// kvName is the KV-cache manager a result ends with: "V1", "V2" or "none".
func kvName(r resolver.Result) string {
	if !r.KVManager.Valid {
		return "none"
	}
	return r.KVManager.S
}

// kvChange says how the KV-cache manager moves across the upgrade ("V1 -> V2",
// "V2 (unchanged)"), or "" when neither side chose one.
func kvChange(from, to resolver.Result) string {
	a, b := kvName(from), kvName(to)
	switch {
	case a == "none" && b == "none":
		return ""
	case a == b:
		return a + " (unchanged)"
	}
	return a + " -> " + b
}

func verdictWord(v UpgradeVerdict) string {
	switch v {
	case VerdictBreaks:
		return "✗ BREAKS"
	case VerdictChanges:
		return "≠ changes"
	}
	return "= same"
}

func writeFix(b *strings.Builder, f Finding, u Upgrade, w int) {
	switch {
	case f.Verdict == VerdictSame:
		return
	case f.Fix == nil && f.Verdict == VerdictChanges && f.From.Result.Outcome == resolver.OutcomeError:
		writeWrapped(b, "  ", "the upgrade makes start-up succeed; nothing to fix", w)
		return
	case f.Fix == nil:
		writeWrapped(b, "  ", "no fix of up to "+strconv.Itoa(MaxFixEdits)+" edits found ("+strconv.Itoa(f.Tried)+" tried)", w)
		return
	}
	fx := f.Fix
	n := strconv.Itoa(len(fx.Edits)) + " edit"
	if len(fx.Edits) != 1 {
		n += "s"
	}
	var what string
	switch {
	case f.Verdict == VerdictChanges && u.Split:
		what = "to keep " + OutcomeLabel(f.From.Result.Outcome) + " (needed: the roles would split), " + n
	case f.Verdict == VerdictChanges:
		what = "to keep " + OutcomeLabel(f.From.Result.Outcome) + " (optional), " + n
	case fx.Restores:
		what = "smallest fix, " + n + ", restores " + OutcomeLabel(fx.ToOutcome)
	default:
		what = "smallest fix, " + n + ", starts with " + OutcomeLabel(fx.ToOutcome) + " (the old outcome cannot be kept)"
	}
	writeWrapped(b, "  ", what+":", w)
	for _, l := range strings.Split(strings.TrimRight(fx.YAML, "\n"), "\n") {
		b.WriteString(oneLine("    "+l, w) + "\n")
	}
	if fx.Note != "" {
		writeWrapped(b, "  ", "note: "+fx.Note, w)
	}
	verified := "verified: " + u.To.Name + " gives " + OutcomeLabel(fx.ToOutcome) + "; " + u.From.Name + " gives " + OutcomeLabel(fx.FromOutcome)
	switch {
	case fx.KeepsFrom:
		verified += ", so it can be rolled out before the upgrade"
	case fx.FromOutcome != resolver.OutcomeError:
		// It starts under FROM too, only on another transceiver.
		verified += " (not " + OutcomeLabel(f.From.Result.Outcome) + "), so it can be rolled out before the upgrade"
	default:
		verified += ": apply it together with the upgrade"
	}
	writeWrapped(b, "  ", verified, w)
}

// rolesEnd lists each role's end under TO: "context ✓ PYTHON on NIXL; ...".
func rolesEnd(u Upgrade) string {
	parts := make([]string, 0, len(u.Findings))
	for _, f := range u.Findings {
		r := SplitEnd(f)
		s := f.Role + " " + OutcomeLabel(r.Outcome)
		if r.Outcome != resolver.OutcomeError && r.EffectiveBackend.Valid {
			s += " on " + r.EffectiveBackend.S
		}
		if f.Verdict == VerdictBreaks {
			s += " with its fix"
		}
		parts = append(parts, s)
	}
	return strings.Join(parts, "; ")
}

// UpgradeJSON is the JSON shape of upgrade-check.
type UpgradeJSON struct {
	From     string        `json:"from"`
	To       string        `json:"to"`
	Breaks   bool          `json:"breaks"`
	Findings []FindingJSON `json:"findings"`
	// RolesSplit is true when the roles agree under FROM but end on different
	// transceivers or backends under TO; FixesJoin when the fixes bring them
	// together again.
	RolesSplit bool `json:"roles_split"`
	FixesJoin  bool `json:"fixes_join,omitempty"`
}

// FindingJSON is one role in UpgradeJSON.
type FindingJSON struct {
	Role        string         `json:"role"`
	FromOutcome string         `json:"from_outcome"`
	ToOutcome   string         `json:"to_outcome"`
	Verdict     UpgradeVerdict `json:"verdict"`
	// FromKVCacheManager and ToKVCacheManager are the KV-cache manager ("V1",
	// "V2") under each version, null when none was chosen.
	FromKVCacheManager *string `json:"from_kv_cache_manager"`
	ToKVCacheManager   *string `json:"to_kv_cache_manager"`
	// FromError and ToError are the exceptions raised, verbatim, if any.
	FromError string   `json:"from_error,omitempty"`
	ToError   string   `json:"to_error,omitempty"`
	Fix       *FixJSON `json:"fix"`
}

// FixJSON is a verified fix in FindingJSON.
type FixJSON struct {
	YAML        string   `json:"yaml"`
	Edits       []string `json:"edits"`
	ToOutcome   string   `json:"to_outcome"`
	FromOutcome string   `json:"from_outcome"`
	Restores    bool     `json:"restores"`
	KeepsFrom   bool     `json:"keeps_from"`
	// Note says, e.g., that the fix edits a key both roles inherit.
	Note string `json:"note,omitempty"`
}

// JSON returns the JSON shape of the check.
func (u Upgrade) JSON() UpgradeJSON {
	out := UpgradeJSON{From: u.From.Name, To: u.To.Name, Breaks: u.Breaks(), Findings: []FindingJSON{},
		RolesSplit: u.Split, FixesJoin: u.FixesJoin}
	for _, f := range u.Findings {
		fj := FindingJSON{Role: f.Role, FromOutcome: string(f.From.Result.Outcome), ToOutcome: string(f.To.Result.Outcome),
			Verdict: f.Verdict, FromError: f.From.Result.Error, ToError: f.To.Result.Error,
			FromKVCacheManager: kvPtr(f.From.Result), ToKVCacheManager: kvPtr(f.To.Result)}
		if fx := f.Fix; fx != nil {
			edits := make([]string, len(fx.Edits))
			for i, e := range fx.Edits {
				edits[i] = e.String()
			}
			fj.Fix = &FixJSON{YAML: fx.YAML, Edits: edits, ToOutcome: string(fx.ToOutcome),
				FromOutcome: string(fx.FromOutcome), Restores: fx.Restores, KeepsFrom: fx.KeepsFrom, Note: fx.Note}
		}
		out.Findings = append(out.Findings, fj)
	}
	return out
}

func kvPtr(r resolver.Result) *string {
	if !r.KVManager.Valid {
		return nil
	}
	s := r.KVManager.S
	return &s
}

package logs

import (
	"strings"

	"xcvr/internal/inputs"
	"xcvr/resolver"
)

// OwnVersion is the TensorRT-LLM version a log shows for itself.
type OwnVersion struct {
	Version resolver.Version
	// Line is the line that states or pins it.
	Line int
	// Stated is true for a version line ("TensorRT-LLM version: 1.3.0rc26");
	// false when the version is inferred from lines that date the build.
	Stated bool
	// Why says so, for people.
	Why string
}

// ParseStated reads a version as tensorrt_llm/__init__.py prints it: a release
// ("1.3.0rc26"), a nightly of main, which carries the next release's name and
// the day ("1.3.0rc27.dev2026091700" behaves like main@2026-09-17), or any other
// 1.x version, which resolver.ParseVersion places between the releases xcvr
// lists (inferred; its Placement says so).
func ParseStated(s string) (resolver.Version, error) {
	return resolver.ParseVersion(s)
}

// Own returns the version the log shows: the first version line xcvr knows,
// else — when the lines that date the build leave releases of one era only —
// the newest of those releases (inferred). ok is false when the log shows none.
func (lg *Log) Own() (OwnVersion, bool) {
	for _, s := range lg.Stated {
		if v, err := ParseStated(s.Version); err == nil {
			why := "the log states TensorRT-LLM " + s.Version + " (line " + itoa(s.Line) + ")"
			if v.Placement != "" {
				why += "; " + v.Placement + " (inferred)" // a version xcvr does not list, placed among those it does
			}
			if len(lg.Stated) > 1 {
				why += "; it also states " + otherStated(lg.Stated, s.Version)
			}
			return OwnVersion{Version: v, Line: s.Line, Stated: true, Why: why}, true
		}
	}
	var after, before resolver.Day
	afterLine, beforeLine := 0, 0
	var afterText, beforeText string
	for _, p := range lg.Processes {
		for _, im := range p.Implications {
			if im.After != 0 && im.After > after {
				after, afterLine, afterText = im.After, im.Line, im.Text
			}
			if im.Before != 0 && (before == 0 || im.Before < before) {
				before, beforeLine, beforeText = im.Before, im.Line, im.Text
			}
		}
	}
	if after == 0 && before == 0 {
		return OwnVersion{}, false
	}
	var cands []resolver.Version
	for _, v := range resolver.KnownVersions() {
		if v.Main >= after && (before == 0 || v.Main < before) {
			cands = append(cands, v)
		}
	}
	if len(cands) == 0 || cands[0].Era != cands[len(cands)-1].Era {
		return OwnVersion{}, false
	}
	v := cands[len(cands)-1]
	line, text := afterLine, afterText
	if before != 0 {
		line, text = beforeLine, beforeText
	}
	return OwnVersion{Version: v, Line: line, Why: "inferred: line " + itoa(line) + " (" + text + ") leaves releases of era " +
		itoa(v.Era) + " only; " + v.Name + " is the newest of them"}, true
}

func otherStated(all []StatedVersion, first string) string {
	var o []string
	for _, s := range all {
		if s.Version != first {
			o = append(o, s.Version+" (line "+itoa(s.Line)+")")
		}
	}
	return strings.Join(o, ", ")
}

// versionMismatches lists the version lines that contradict the prediction's version.
func versionMismatches(lg *Log, t resolver.Trace) []Mismatch {
	var ms []Mismatch
	for _, s := range lg.Stated {
		v, err := ParseStated(s.Version)
		if err != nil || v.Main == t.Inputs.Version.Main {
			continue
		}
		src := s.Source
		if src == "" {
			src = lg.Name
		}
		ms = append(ms, Mismatch{Source: src, Line: s.Line, Kind: KindVersion,
			Message: "the log states TensorRT-LLM " + s.Version + " (behaves like main at " + v.Main.String() +
				"), but the prediction is for " + t.Inputs.Version.Name + " (main at " + t.Inputs.Version.Main.String() + ")"})
	}
	return ms
}

// WithVersion sets spec's version to the one lg shows, unless something other
// than xcvr's default (a flag, a file) named one or the log shows none; the
// origin is the log line, so a reader sees where the version came from. A
// version that came from this log before is replaced: a log that restarts for
// another release (truncated, rotated) moves the version with it.
func WithVersion(spec inputs.Spec, lg *Log) inputs.Spec {
	o := spec.Version.Origin
	fromLog := o.Kind == resolver.OriginFile && strings.HasPrefix(o.Detail, lg.Name+":")
	if !fromLog && !o.IsDefault() && o.Kind != resolver.OriginPreset {
		return spec
	}
	ov, ok := lg.Own()
	if !ok {
		return spec
	}
	detail := lg.Name + ":" + itoa(ov.Line)
	if !ov.Stated {
		detail += " (inferred)"
	}
	spec.Version = inputs.Value{Raw: ov.Version.Name, Origin: resolver.Origin{Kind: resolver.OriginFile, Detail: detail}}
	return spec
}

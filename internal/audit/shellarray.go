package audit

import (
	"fmt"
	"regexp"
	"strings"
	"sync"
)

// Bash arrays on a launch command line: Dynamo's launch scripts build the
// worker's optional arguments in one (TRTLLM_OVERRIDE_ARGS=(--override-
// engine-args "$OVERRIDE_JSON") under an if, then "${TRTLLM_OVERRIDE_ARGS[@]}"
// on the dynamo.trtllm line; EXTRA_PREFILL_ARGS+=(--router-mode KV)). An
// array the script sets on one line (NAME=(WORDS), NAME+=(WORDS), declare -a
// NAME=(WORDS), also over several lines) is its words there, expanded as bash expands them when it
// is set; "${NAME[@]}" (or ${NAME[*]}) standing as words of a command is
// replaced by them. One xcvr cannot read (set in a sourced file, from a
// command's output, added to under a condition it does not decide) stays
// as written, with a warning when it may hold an option xcvr reads.

var reArrayAssign = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?s)^\s*(?:(?:declare|local|typeset|readonly)\s+(?:-a\s+)?)?([A-Za-z_][A-Za-z0-9_]*)(\+?)=\((.*)\)\s*;?\s*$`)
})

// reArrayOpen finds a line that opens an array assignment (NAME=( ...).
var reArrayOpen = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^\s*(?:(?:declare|local|typeset|readonly)\s+(?:-a\s+)?)?[A-Za-z_][A-Za-z0-9_]*\+?=\(`)
})

var reArrayRef = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(^|[ \t])("?)\$\{([A-Za-z_][A-Za-z0-9_]*)\[[@*]\]\}("?)([ \t;&|]|$)`)
})

// arrayKey is the variable an array's words are kept under.
func arrayKey(name string) string { return "@" + name }

// readOptions are the launch options xcvr reads: an array that may hold
// one of them and is not read is warned of.
var readOptions = []string{"--override-engine-args", "--extra-engine-args", "--extra_llm_api_options", "--config", "--disaggregation-mode", "--server_role", "--model-path", "--model", "--backend", "--port", "--host"}

// arrayAssign records NAME=(inner) or NAME+=(inner) read at at, under
// blocks of file.
func arrayAssign(v *shellVars, name string, appending bool, inner, at, file string, blocks []block) {
	k := arrayKey(name)
	val := strings.TrimSpace(v.expand(inner))
	if v.arrayMaybe == nil {
		v.arrayMaybe = map[string]string{}
	}
	v.arrayMaybe[name] = strings.TrimSpace(v.arrayMaybe[name] + " " + val)
	if appending {
		switch appendRuns(blocks) {
		case -1:
			return
		case 0:
			v.forget(k)
			return
		}
		if v.val[k] != "" && val != "" {
			val = " " + val
		}
	}
	v.set(k, val, at, condOrigin(file, blocks), appending)
}

// substArrays replaces each "${NAME[@]}" standing as words of text by the
// words of the array NAME when they are known; unread lists the arrays
// that stay as written.
func substArrays(text string, v *shellVars) (out string, unread, used []string) {
	if !strings.Contains(text, "[@]}") && !strings.Contains(text, "[*]}") {
		return text, nil, nil
	}
	var b strings.Builder
	last := 0
	for _, m := range reArrayRef().FindAllStringSubmatchIndex(text, -1) {
		open, name, closeQ := text[m[4]:m[5]], text[m[6]:m[7]], text[m[8]:m[9]]
		if open != closeQ {
			continue
		}
		words, ok := v.val[arrayKey(name)]
		if !ok {
			unread = append(unread, name)
			continue
		}
		used = append(used, name)
		b.WriteString(text[last:m[2]])
		b.WriteString(text[m[2]:m[3]])
		b.WriteString(words)
		last = m[8]
		if open != "" {
			last = m[9]
		}
	}
	b.WriteString(text[last:])
	return b.String(), unread, used
}

// arrayWhy says why the array name is not read; "" when its words, as the
// script may set them, hold no option xcvr reads.
func arrayWhy(v *shellVars, name string, sourced []string) string {
	maybe, set := v.arrayMaybe[name]
	if set {
		reads := false
		for _, w := range shellWords(maybe) {
			opt, _, _ := strings.Cut(w, "=")
			for _, o := range readOptions {
				reads = reads || opt == o
			}
		}
		if !reads && !strings.Contains(maybe, "$(") && !strings.Contains(maybe, "`") {
			return ""
		}
	}
	switch {
	case v.unknown[arrayKey(name)]:
		return "it is added to in a loop xcvr does not run, so its words are not known (" + maybe + ")"
	case set:
		return "its words come from a command's output, which xcvr does not run (" + maybe + ")"
	case len(sourced) > 0:
		return "the script does not set it: it sources " + strings.Join(sourced, ", ") + " (not read)"
	}
	return "the script does not set it"
}

// overrideWhy says why a --override-engine-args value holding variables
// (js, as expanded) is not known: what sets each of them.
func overrideWhy(v *shellVars, js string, sourced []string) string {
	var why []string
	for _, n := range varRefs(js) {
		if s, ok := v.subst[n]; ok {
			why = append(why, fmt.Sprintf("$%s is set at %s from a command's output (%s), which xcvr does not run", n, s.at, s.text))
		} else if len(sourced) > 0 {
			why = append(why, fmt.Sprintf("the script does not set $%s (it sources %s, not read)", n, strings.Join(sourced, ", ")))
		} else {
			why = append(why, unsetWhy("$"+n))
		}
	}
	if len(why) == 0 {
		why = append(why, "it holds a command's output, which xcvr does not run")
	}
	if len(sourced) > 0 && !strings.Contains(why[0], "it sources") {
		why = append(why, "the script sources "+strings.Join(sourced, ", ")+" (not read)")
	}
	return strings.Join(why, "; ")
}

// arrayOrigin says which of the arrays used (substituted into a command
// line) put --override-engine-args there, and where it was set; "".
func arrayOrigin(v *shellVars, used []string) string {
	for _, name := range used {
		if !strings.Contains(v.val[arrayKey(name)], "--override-engine-args") {
			continue
		}
		m := v.meta[arrayKey(name)]
		s := fmt.Sprintf("it comes from the array %s set at %s", name, m.origin)
		if m.cond != "" {
			s += ", under the condition at " + m.cond + " (taken as run)"
		}
		return s
	}
	return ""
}

// overrideNotRead says that launch l's --override-engine-args, holding a
// variable, is not read, and why.
func overrideNotRead(l launch) string {
	why := l.overrideWhy
	if why == "" {
		why = "the set does not give its value"
	}
	return fmt.Sprintf("--override-engine-args %s is not read: %s; the engine args are %s %s alone, which that JSON may change", l.override, why, l.flag, l.config)
}

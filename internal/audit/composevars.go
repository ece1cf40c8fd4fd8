package audit

import (
	"path"
	"sort"
	"strings"

	"xcvr/internal/deploy"
)

// docker compose interpolates ${VAR} in every string value of the file
// (the compose spec's "Interpolation": $VAR, ${VAR}, ${VAR:-default},
// ${VAR-default}, ${VAR:?err}, ${VAR?err}, ${VAR:+alt}, ${VAR+alt}, $$ for
// a $), from the shell's environment and the project's .env file, the one
// beside the compose file. xcvr has the .env when it is given: its variables
// are taken; a variable it does not set is unset for the default forms
// (the shell's own environment is not known) and stays as written
// otherwise. The .env is only interpolation's: a service's containers get
// a variable through environment or env_file, not from it.

// composeVars are the project's variables, from its .env.
type composeVars struct {
	file string
	vals map[string]string
	// origin is where each was set (".env:3").
	origin map[string]string
}

// projectEnv finds the .env beside a compose file among the set's env
// files; nil when none was given.
func (r *reader) projectEnv(file string) *composeVars {
	for _, ef := range r.envFiles {
		if path.Base(ef.File) == ".env" && path.Dir(ef.File) == path.Dir(file) {
			cv := &composeVars{file: ef.File, vals: map[string]string{}, origin: map[string]string{}}
			for _, k := range ef.Names {
				cv.vals[k], cv.origin[k] = ef.Vars[k].Value, ef.Vars[k].Origin.String()
			}
			return cv
		}
	}
	return nil
}

// interpolate is s as compose interpolates it; used names the variables
// the project's .env gave. A result past maxShellExpand leaves s as written.
func (cv *composeVars) interpolate(s string, used map[string]bool) string {
	if !strings.Contains(s, "$") {
		return s
	}
	out, ok := cv.interp(s, used, 0)
	if !ok || len(out) > maxShellExpand {
		return s
	}
	return out
}

func (cv *composeVars) lookup(name string) (string, bool) {
	if cv == nil {
		return "", false
	}
	v, ok := cv.vals[name]
	return v, ok
}

func (cv *composeVars) interp(s string, used map[string]bool, depth int) (string, bool) {
	if depth > 8 {
		return s, false
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		if b.Len() > maxShellExpand {
			return s, false
		}
		if c != '$' || i+1 >= len(s) {
			b.WriteByte(c)
			continue
		}
		switch d := s[i+1]; {
		case d == '$':
			b.WriteByte('$')
			i++
		case d == '{':
			end := matchBrace(s, i+1)
			if end < 0 {
				b.WriteString(s[i:])
				return b.String(), true
			}
			inner := s[i+2 : end]
			name, op, word := inner, "", ""
			if k := strings.IndexAny(inner, ":-?+"); k > 0 {
				name, op = inner[:k], inner[k:k+1]
				rest := inner[k+1:]
				if op == ":" {
					if rest == "" || !strings.ContainsRune("-?+", rune(rest[0])) {
						b.WriteString(s[i : end+1])
						i = end
						continue
					}
					op, rest = ":"+rest[:1], rest[1:]
				}
				word = rest
			}
			if !isShellName(name) {
				b.WriteString(s[i : end+1])
				i = end
				continue
			}
			val, set := cv.lookup(name)
			if set {
				used[name] = true
			}
			var repl string
			keep := false
			switch op {
			case "":
				repl, keep = val, !set
			case ":-", "-":
				if set && (op == "-" || val != "") {
					repl = val
				} else {
					var ok bool
					if repl, ok = cv.interp(word, used, depth+1); !ok {
						return s, false
					}
				}
			case ":?", "?":
				repl, keep = val, !set || (op == ":?" && val == "")
			case ":+", "+":
				if set && (op == "+" || val != "") {
					var ok bool
					if repl, ok = cv.interp(word, used, depth+1); !ok {
						return s, false
					}
				}
			}
			if keep {
				b.WriteString(s[i : end+1])
			} else {
				b.WriteString(repl)
			}
			i = end
		case d == '_' || d >= 'A' && d <= 'Z' || d >= 'a' && d <= 'z':
			j := i + 1
			for j < len(s) && (s[j] == '_' || s[j] >= 'A' && s[j] <= 'Z' || s[j] >= 'a' && s[j] <= 'z' || s[j] >= '0' && s[j] <= '9') {
				j++
			}
			if val, set := cv.lookup(s[i+1 : j]); set {
				used[s[i+1:j]] = true
				b.WriteString(val)
			} else {
				b.WriteString(s[i:j])
			}
			i = j - 1
		default:
			b.WriteByte(c)
		}
	}
	return b.String(), true
}

// interpolateNode is a copy of n with every string value interpolated
// (keys are not); nodes without a $ are shared, not copied.
func (cv *composeVars) interpolateNode(n *deploy.Node, used map[string]bool) *deploy.Node {
	if n == nil {
		return nil
	}
	switch n.Kind {
	case deploy.KindStr:
		if !strings.Contains(n.Str, "$") {
			return n
		}
		c := *n
		c.Str = cv.interpolate(n.Str, used)
		return &c
	case deploy.KindMap:
		c := *n
		c.Pairs = make([]deploy.Pair, len(n.Pairs))
		for i, p := range n.Pairs {
			p.Val = cv.interpolateNode(p.Val, used)
			c.Pairs[i] = p
		}
		return &c
	case deploy.KindSeq:
		c := *n
		c.Items = make([]*deploy.Node, len(n.Items))
		for i, it := range n.Items {
			c.Items[i] = cv.interpolateNode(it, used)
		}
		return &c
	}
	return n
}

// usedFrom says which of the .env's variables a value took ("" when none).
func (cv *composeVars) usedFrom(used map[string]bool) string {
	if cv == nil || len(used) == 0 {
		return ""
	}
	var parts []string
	for _, k := range sortedKeys(used) {
		parts = append(parts, k+" from "+cv.origin[k])
	}
	return strings.Join(parts, ", ")
}

func sortedKeys(m map[string]bool) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

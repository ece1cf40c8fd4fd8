package deploy

import (
	"fmt"
	"strconv"
	"strings"

	"xcvr/internal/yamlpos"
	"xcvr/resolver"
)

// EnvFile is a parsed environment file: the variables in the order first written
// (a later line for the same name replaces the value, as the shell would).
type EnvFile struct {
	File  string
	Names []string
	Vars  map[string]resolver.EnvVar
	// Warnings note lines the shell would treat differently from a plain value,
	// e.g. an unexpanded $VAR.
	Warnings []string
}

// ReadEnvFile parses KEY=VALUE lines as shells and env files write them: blank lines
// and # comments are skipped; "export " and "declare -x " prefixes are allowed;
// values may be 'single quoted' (literal), "double quoted" (\" \\ \$ \` escapes) or
// bare (a trailing " # comment" is dropped). Each variable's origin is FILE:LINE.
// Malformed lines are errors naming FILE:LINE:COL.
func ReadEnvFile(name string, data []byte) (*EnvFile, error) {
	if err := CheckText(name, data); err != nil {
		return nil, err
	}
	ef := &EnvFile{File: name, Vars: map[string]resolver.EnvVar{}}
	text := strings.TrimPrefix(string(data), "\ufeff")
	lines := strings.Split(text, "\n")
	for i := 0; i < len(lines); i++ {
		lineNo := i + 1
		line := strings.TrimSuffix(lines[i], "\r")
		s := strings.TrimLeft(line, " \t")
		indent := len(line) - len(s)
		if s == "" || strings.HasPrefix(s, "#") {
			continue
		}
		for _, pre := range []string{"export ", "export\t", "declare -x ", "typeset -x "} {
			if strings.HasPrefix(s, pre) {
				s = strings.TrimLeft(s[len(pre):], " \t")
				indent = len(line) - len(s)
				break
			}
		}
		eq := strings.IndexByte(s, '=')
		if eq <= 0 {
			return nil, &yamlpos.Error{File: name, Line: lineNo, Col: indent + 1, Msg: "want KEY=VALUE (optionally after export)"}
		}
		key := s[:eq]
		if !validEnvName(key) {
			return nil, &yamlpos.Error{File: name, Line: lineNo, Col: indent + 1, Msg: fmt.Sprintf("%s is not a valid variable name", strconv.Quote(key))}
		}
		rest := s[eq+1:]
		valCol := indent + eq + 2
		val, consumed, err := envValue(rest, lines[i+1:])
		if err != nil {
			return nil, &yamlpos.Error{File: name, Line: lineNo, Col: valCol, Msg: err.Error()}
		}
		if strings.Contains(rest, "$") && !strings.HasPrefix(rest, "'") {
			ef.Warnings = append(ef.Warnings, fmt.Sprintf("%s:%d: %s contains $; xcvr does not expand variables, the value is taken as written", name, lineNo, key))
		}
		if _, seen := ef.Vars[key]; !seen {
			ef.Names = append(ef.Names, key)
		}
		ef.Vars[key] = resolver.EnvVar{Value: val, Origin: resolver.Origin{Kind: resolver.OriginFile, Detail: name + ":" + strconv.Itoa(lineNo)}}
		i += consumed
	}
	return ef, nil
}

func validEnvName(k string) bool {
	for i, c := range k {
		ok := c == '_' || (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (i > 0 && c >= '0' && c <= '9')
		if !ok {
			return false
		}
	}
	return k != ""
}

// maxQuoted bounds a quoted value that spans lines, so an unterminated quote in a
// large file fails fast instead of re-copying the rest of the file line by line.
const maxQuoted = 64 << 10

// envValue reads one value; quoted values may continue on following lines, and
// consumed says how many extra lines were used.
func envValue(rest string, next []string) (string, int, error) {
	if rest == "" {
		return "", 0, nil
	}
	var b strings.Builder
	consumed := 0
	s := rest
	i := 0
	for {
		if i >= len(s) {
			return b.String(), consumed, nil
		}
		c := s[i]
		switch {
		case c == '\'':
			j := strings.IndexByte(s[i+1:], '\'')
			for j < 0 {
				if consumed >= len(next) || consumed >= 1000 || len(s) > maxQuoted {
					return "", 0, fmt.Errorf("unterminated single quote")
				}
				s += "\n" + strings.TrimSuffix(next[consumed], "\r")
				consumed++
				j = strings.IndexByte(s[i+1:], '\'')
			}
			b.WriteString(s[i+1 : i+1+j])
			i += j + 2
		case c == '"':
			i++
			for {
				if i >= len(s) {
					if consumed >= len(next) || consumed >= 1000 || len(s) > maxQuoted {
						return "", 0, fmt.Errorf("unterminated double quote")
					}
					s += "\n" + strings.TrimSuffix(next[consumed], "\r")
					consumed++
					b.WriteByte('\n')
					i++
					continue
				}
				d := s[i]
				if d == '"' {
					i++
					break
				}
				if d == '\\' && i+1 < len(s) && strings.IndexByte("\"\\$`", s[i+1]) >= 0 {
					b.WriteByte(s[i+1])
					i += 2
					continue
				}
				b.WriteByte(d)
				i++
			}
		case c == ' ' || c == '\t':
			// Unquoted whitespace ends the value; only a comment may follow.
			t := strings.TrimLeft(s[i:], " \t")
			if t == "" || strings.HasPrefix(t, "#") {
				return b.String(), consumed, nil
			}
			return "", 0, fmt.Errorf("unquoted space in value; quote it (%s)", strconv.Quote(strings.TrimSpace(rest)))
		case c == '\\' && i+1 < len(s):
			b.WriteByte(s[i+1])
			i += 2
		default:
			b.WriteByte(c)
			i++
		}
	}
}

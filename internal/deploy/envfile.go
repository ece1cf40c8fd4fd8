package deploy

import (
	"bytes"
	"fmt"
	"strconv"
	"strings"

	"xcvr/internal/guard"
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
// and # comments are skipped; "export " and "declare -x " prefixes are allowed (and
// "declare -x NAME" without a value, which sets nothing); values may be 'single
// quoted' (literal), "double quoted" (\" \\ \$ \` escapes), $'ANSI-C quoted' or
// bare (a trailing " # comment" is dropped). Each variable's origin is FILE:LINE.
// Malformed lines are errors naming FILE:LINE:COL.
func ReadEnvFile(name string, data []byte) (*EnvFile, error) {
	data, err := guard.Check(name, data, guard.EnvLimits())
	if err != nil {
		return nil, err
	}
	ef := &EnvFile{File: name, Vars: map[string]resolver.EnvVar{}}
	text := string(data)
	lines := strings.Split(text, "\n")
	for i := 0; i < len(lines); i++ {
		lineNo := i + 1
		line := strings.TrimSuffix(lines[i], "\r")
		s := strings.TrimLeft(line, " \t")
		indent := len(line) - len(s)
		if s == "" || strings.HasPrefix(s, "#") {
			continue
		}
		prefixed := false
		for _, pre := range []string{"export ", "export\t", "declare -x ", "typeset -x "} {
			if strings.HasPrefix(s, pre) {
				s = strings.TrimLeft(s[len(pre):], " \t")
				indent = len(line) - len(s)
				prefixed = true
				break
			}
		}
		eq := strings.IndexByte(s, '=')
		if eq < 0 && prefixed && validEnvName(strings.TrimRight(s, " \t")) {
			// "declare -x OLDPWD": export -p lists a variable that is exported
			// but has no value; it is not in the process's environment.
			continue
		}
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
		if expands(rest) {
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
	// s grows by appending continuation lines (amortised linear, unlike string
	// concatenation, which re-copied the value once per line).
	s := []byte(rest)
	more := func() bool {
		if consumed >= len(next) || consumed >= 1000 || len(s) > maxQuoted {
			return false
		}
		s = append(s, '\n')
		s = append(s, strings.TrimSuffix(next[consumed], "\r")...)
		consumed++
		return true
	}
	i := 0
	for {
		if i >= len(s) {
			return b.String(), consumed, nil
		}
		c := s[i]
		switch {
		case c == '\'':
			// Search only what was appended since the last search.
			end, from := -1, i+1
			for {
				if k := bytes.IndexByte(s[from:], '\''); k >= 0 {
					end = from + k
					break
				}
				from = len(s)
				if !more() {
					return "", 0, fmt.Errorf("unterminated single quote")
				}
			}
			b.Write(s[i+1 : end])
			i = end + 1
		case c == '"':
			i++
			for {
				if i >= len(s) {
					if !more() {
						return "", 0, fmt.Errorf("unterminated double quote")
					}
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
			t := strings.TrimLeft(string(s[i:]), " \t")
			if t == "" || strings.HasPrefix(t, "#") {
				return b.String(), consumed, nil
			}
			return "", 0, fmt.Errorf("unquoted space in value; quote it (%s)", strconv.Quote(strings.TrimSpace(rest)))
		case c == '\\' && i+1 < len(s):
			b.WriteByte(s[i+1])
			i += 2
		case c == '$' && i+1 < len(s) && s[i+1] == '\'':
			// $'...': bash's ANSI-C quoting, which declare -x / export -p write
			// for values with control characters.
			v, n, err := ansiC(string(s[i+2:]))
			if err != nil {
				return "", 0, err
			}
			b.WriteString(v)
			i += 2 + n
		default:
			b.WriteByte(c)
			i++
		}
	}
}

// ansiC decodes the body of a $'...' string up to its closing quote and returns
// the value and the bytes used (including the quote). Escapes as bash documents
// them; an unknown escape keeps its backslash, as bash does.
func ansiC(s string) (string, int, error) {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c == '\'' {
			return cutNUL(b.String()), i + 1, nil
		}
		if c != '\\' || i+1 >= len(s) {
			b.WriteByte(c)
			continue
		}
		i++
		switch e := s[i]; e {
		case 'a':
			b.WriteByte('\a')
		case 'b':
			b.WriteByte('\b')
		case 'e', 'E':
			b.WriteByte(0x1b)
		case 'f':
			b.WriteByte('\f')
		case 'n':
			b.WriteByte('\n')
		case 'r':
			b.WriteByte('\r')
		case 't':
			b.WriteByte('\t')
		case 'v':
			b.WriteByte('\v')
		case '\\', '\'', '"', '?':
			b.WriteByte(e)
		case 'x':
			j := i + 1
			for j < len(s) && j < i+3 && isHex(s[j]) {
				j++
			}
			if j == i+1 {
				b.WriteString("\\x")
				continue
			}
			n, _ := strconv.ParseUint(s[i+1:j], 16, 8)
			b.WriteByte(byte(n))
			i = j - 1
		case '0', '1', '2', '3', '4', '5', '6', '7':
			j := i
			for j < len(s) && j < i+3 && s[j] >= '0' && s[j] <= '7' {
				j++
			}
			n, _ := strconv.ParseUint(s[i:j], 8, 16)
			b.WriteByte(byte(n))
			i = j - 1
		default:
			b.WriteByte('\\')
			b.WriteByte(e)
		}
	}
	return "", 0, fmt.Errorf("unterminated $'...' quote")
}

// cutNUL ends a decoded $'...' string at its first NUL byte: bash keeps C strings,
// so $'ab\x00cd' is "ab" (and $'ab\x00cd'ef is "abef", the next word part kept).
func cutNUL(s string) string {
	if i := strings.IndexByte(s, 0); i >= 0 {
		return s[:i]
	}
	return s
}

func isHex(c byte) bool {
	return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F')
}

// expands reports whether a shell would expand a variable or command in the raw
// value: an unescaped $ followed by a name, { or (, outside single quotes (and
// not the $'...' quoting, which expands nothing).
func expands(raw string) bool {
	single, double := false, false
	for i := 0; i < len(raw); i++ {
		c := raw[i]
		switch {
		case single:
			single = c != '\''
		case c == '\\':
			i++
		case c == '\'' && !double:
			single = true
		case c == '"':
			double = !double
		case c == '$' && i+1 < len(raw):
			n := raw[i+1]
			if n == '\'' && !double {
				if _, used, err := ansiC(raw[i+2:]); err == nil {
					i += 1 + used
					continue
				}
			}
			if n == '{' || n == '(' || n == '_' || (n >= 'A' && n <= 'Z') || (n >= 'a' && n <= 'z') || (n >= '0' && n <= '9') {
				return true
			}
		}
	}
	return false
}

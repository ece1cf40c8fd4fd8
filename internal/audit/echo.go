package audit

import (
	"path"
	"strings"
)

// A script may write a worker's config with echo or printf instead of a
// here-document: upstream's own disaggregated docs do (examples/disaggregated
// README, docs/source/features/disagg-serving.md):
//
//	echo -e "disable_overlap_scheduler: True\ncache_transceiver_config:\n  backend: UCX" > ctx.yml
//
// These are read as bash runs them (bash's builtin echo and printf).

// echoWrite is what one echo or printf statement writes to a file.
type echoWrite struct {
	target string
	text   string
	// appending is >> (the text is added to the file's end).
	appending bool
	// how names the statement as the script spells it ("echo -e").
	how string
	// dashDiffers: dash's echo would write another text (an option word
	// it prints, a backslash it expands).
	dashDiffers bool
}

// maxEchoFile bounds a file built by echo >> lines: past it the file is
// not read (a script of a million appends stays linear).
const maxEchoFile = 1 << 20

// echoWrites finds the statements of a command's words that write a file with
// echo or printf (> PATH, >PATH, >> PATH, 1> PATH). A statement whose text
// xcvr cannot reproduce exactly (printf's %5s, echo's \0NNN) writes nothing
// it reports: its file stays unknown rather than wrong.
func echoWrites(words []string) []echoWrite {
	var out []echoWrite
	start := 0
	for i := 0; i <= len(words); i++ {
		if i < len(words) && !isSep(words[i]) {
			continue
		}
		st := words[start:i]
		if i < len(words) && words[i] == "|" {
			// echo ... | tee [-a] FILE: tee writes what echo prints.
			if w, ok := echoTee(st, words[i+1:]); ok {
				out = append(out, w)
			}
		} else if w, ok := echoStatement(st); ok {
			out = append(out, w)
		}
		start = i + 1
	}
	return out
}

// echoTee reads echo or printf piped into tee: the text goes to tee's first
// file (tee -a adds to it).
func echoTee(st, rest []string) (echoWrite, bool) {
	if len(rest) < 2 || path.Base(rest[0]) != "tee" {
		return echoWrite{}, false
	}
	appending := false
	j := 1
	for ; j < len(rest) && strings.HasPrefix(rest[j], "-") && len(rest[j]) > 1; j++ {
		if rest[j] == "-a" || rest[j] == "--append" {
			appending = true
		}
	}
	if j >= len(rest) || isSep(rest[j]) {
		return echoWrite{}, false
	}
	w, ok := echoStatement(append(append([]string(nil), st...), ">", rest[j]))
	w.appending = appending
	return w, ok
}

// echoStatement reads one statement: echo or printf, its arguments, and its
// standard output's redirection to a file.
func echoStatement(st []string) (echoWrite, bool) {
	// NAME=VALUE words before the command are its environment.
	for len(st) > 0 && reAssign().MatchString(st[0]) {
		st = st[1:]
	}
	if len(st) == 0 || (st[0] != "echo" && st[0] != "printf") {
		return echoWrite{}, false
	}
	var w echoWrite
	var args []string
	for i := 1; i < len(st); i++ {
		a := st[i]
		fd := strings.TrimLeft(a, "0123456789")
		if strings.HasPrefix(fd, ">&") || strings.HasPrefix(fd, "<") {
			if fd == "<" {
				i++
			}
			continue // a descriptor duplicated (>&2, 2>&1), an input
		}
		if !strings.HasPrefix(fd, ">") {
			args = append(args, a)
			continue
		}
		n := a[:len(a)-len(fd)]
		op := ">"
		if strings.HasPrefix(fd, ">>") {
			op = ">>"
		}
		target := strings.TrimPrefix(fd, op)
		if target == "" && i+1 < len(st) {
			i++
			target = st[i]
		}
		if n != "" && n != "1" {
			continue // another descriptor (2>/dev/null)
		}
		if target == "" {
			return echoWrite{}, false
		}
		w.target, w.appending = target, op == ">>"
	}
	if w.target == "" {
		return echoWrite{}, false
	}
	var ok bool
	if st[0] == "echo" {
		w.text, w.how, ok = echoText(args)
		// dash takes -n only: -e and -E are words it prints.
		w.dashDiffers = strings.ContainsAny(strings.TrimPrefix(w.how, "echo"), "eE") || strings.Contains(strings.Join(args, " "), "\\")
	} else {
		w.text, ok = printfText(args)
		w.how = "printf"
	}
	return w, ok
}

// echoText is what bash's builtin echo prints: leading -n, -e and -E words
// (any mix of those letters) are options; -e interprets backslash escapes.
func echoText(args []string) (text, how string, ok bool) {
	newline, escapes := true, false
	how = "echo"
	for len(args) > 0 && len(args[0]) > 1 && args[0][0] == '-' && strings.Trim(args[0][1:], "neE") == "" {
		for _, c := range args[0][1:] {
			switch c {
			case 'n':
				newline = false
			case 'e':
				escapes = true
			case 'E':
				escapes = false
			}
		}
		how += " " + args[0]
		args = args[1:]
	}
	text = strings.Join(args, " ")
	if escapes {
		var stop bool
		if text, stop, ok = unescape(text, false); !ok {
			return "", how, false
		}
		if stop {
			return text, how, true
		}
	}
	if newline {
		text += "\n"
	}
	return text, how, true
}

// printfText is what bash's printf prints for a format of escapes, %s, %d
// given a plain integer, and %%: the format is reused while arguments remain.
// Anything else (a width, %q, %b, -v) is not reproduced: ok is false.
func printfText(args []string) (string, bool) {
	if len(args) == 0 || strings.HasPrefix(args[0], "-") {
		return "", false
	}
	format, rest := args[0], args[1:]
	var b strings.Builder
	for {
		used := 0
		for i := 0; i < len(format); i++ {
			c := format[i]
			if c == '\\' {
				j := i + 1
				for j < len(format) && j < i+2 {
					j++
				}
				s, stop, ok := unescape(format[i:j], true)
				if !ok || stop {
					return "", false
				}
				b.WriteString(s)
				i = j - 1
				continue
			}
			if c != '%' {
				b.WriteByte(c)
				continue
			}
			if i+1 >= len(format) {
				return "", false
			}
			i++
			switch format[i] {
			case '%':
				b.WriteByte('%')
			case 's', 'd':
				a := ""
				if used < len(rest) {
					a = rest[used]
				}
				used++
				if format[i] == 'd' {
					if a == "" {
						a = "0"
					}
					if strings.Trim(a, "0123456789") != "" {
						return "", false
					}
				}
				b.WriteString(a)
			default:
				return "", false
			}
			if b.Len() > maxEchoFile {
				return "", false
			}
		}
		if used == 0 || used >= len(rest) {
			break
		}
		rest = rest[used:]
	}
	return b.String(), true
}

// unescape interprets the backslash escapes echo -e and printf's format
// share (\n \t \\ \r \a \b \f \v \e \"); \c stops the output for echo
// (stop is true). Octal and hex escapes are not reproduced: ok is false.
func unescape(s string, printf bool) (out string, stop, ok bool) {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] != '\\' || i+1 >= len(s) {
			b.WriteByte(s[i])
			continue
		}
		i++
		switch s[i] {
		case 'n':
			b.WriteByte('\n')
		case 't':
			b.WriteByte('\t')
		case '\\':
			b.WriteByte('\\')
		case 'r':
			b.WriteByte('\r')
		case 'a':
			b.WriteByte('\a')
		case 'b':
			b.WriteByte('\b')
		case 'f':
			b.WriteByte('\f')
		case 'v':
			b.WriteByte('\v')
		case 'e', 'E':
			b.WriteByte(0x1b)
		case '"':
			if !printf {
				b.WriteString(`\"`)
			} else {
				b.WriteByte('"')
			}
		case 'c':
			if printf {
				return "", false, false
			}
			return b.String(), true, true
		case '0', '1', '2', '3', '4', '5', '6', '7', 'x', 'u', 'U':
			return "", false, false
		default:
			b.WriteByte('\\')
			b.WriteByte(s[i])
		}
	}
	return b.String(), false, true
}

package install

import (
	"strings"

	"xcvr/resolver"
)

// configValidators reads the validators in CacheTransceiverConfig's body: each
// method decorated with @model_validator or @field_validator, with the message
// of every `raise …Error("…")` in it (f-string fields as {expr}) and the plain
// condition it is under (raiseCondition). Whether xcvr checks them is the
// resolver's call (resolver.ValidatorModelled).
func configValidators(m *pyModule, body []logical) []resolver.InstallValidator {
	var out []resolver.InstallValidator
	for i := 0; i < len(body); i++ {
		l := body[i]
		if len(l.toks) < 2 || l.toks[0].text != "@" || (l.toks[1].text != "model_validator" && l.toks[1].text != "field_validator") {
			continue
		}
		deco := l.toks[1].text
		var args []string
		for _, tk := range l.toks[2:] {
			if tk.kind == tkString {
				args = append(args, tk.str.value())
			}
		}
		// Further decorators (@classmethod), then the def.
		j := i + 1
		for j < len(body) && body[j].first() == "@" {
			j++
		}
		if j >= len(body) || body[j].first() != "def" || len(body[j].toks) < 2 {
			continue
		}
		def := body[j]
		v := resolver.InstallValidator{Name: def.toks[1].text, Decorator: deco, Args: args, Evidence: at(m, def.line)}
		for k := j + 1; k < len(body) && body[k].indent > def.indent; k++ {
			toks := body[k].toks
			for t := 0; t < len(toks); t++ {
				if toks[t].text != "raise" {
					continue
				}
				var msg strings.Builder
				for _, tk := range toks[t+1:] {
					if tk.kind == tkString {
						msg.WriteString(tk.str.value())
					}
				}
				v.Raises = append(v.Raises, msg.String())
				v.When = append(v.When, raiseCondition(body[j+1:k+1], toks[:t]))
			}
		}
		out = append(out, v)
		i = j
	}
	return out
}

// raiseCondition is the condition a raise is under, as written: the tests of
// the `if` statements it is nested in, innermost last, joined with "and" (a
// test holding "or" in parentheses), with a one-line `if …: raise` test too.
// lines run from the method's first body line to the raise's line; head is
// the raise's line before the raise. "" when a branch is not a plain if (an
// elif, else, loop, with or try: the condition would need the branches before
// it); "True" for a raise under no test.
func raiseCondition(lines []logical, head []token) string {
	var conds []string
	test := func(toks []token) (string, bool) {
		if len(toks) < 3 || toks[0].text != "if" || toks[len(toks)-1].text != ":" {
			return "", false
		}
		c := render(toks[1 : len(toks)-1])
		if strings.Contains(c, " or ") {
			c = "(" + c + ")"
		}
		return c, true
	}
	if len(head) > 0 {
		c, ok := test(head)
		if !ok {
			return ""
		}
		conds = append(conds, c)
	}
	limit := lines[len(lines)-1].indent
	for i := len(lines) - 2; i >= 0; i-- {
		l := lines[i]
		if l.indent >= limit {
			continue
		}
		limit = l.indent
		c, ok := test(l.toks)
		if !ok {
			return ""
		}
		conds = append(conds, c)
	}
	if len(conds) == 0 {
		return "True" // the method raises whenever it reaches the line
	}
	for i, j := 0, len(conds)-1; i < j; i, j = i+1, j-1 {
		conds[i], conds[j] = conds[j], conds[i]
	}
	return strings.Join(conds, " and ")
}

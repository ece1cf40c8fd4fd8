package install

import (
	"strings"

	"xcvr/resolver"
)

// configValidators reads the validators in CacheTransceiverConfig's body: each
// method decorated with @model_validator or @field_validator, with the message
// of every `raise …Error("…")` in it (f-string fields as {expr}). Whether xcvr
// checks them is the resolver's call (resolver.ValidatorModelled).
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
			}
		}
		out = append(out, v)
		i = j
	}
	return out
}

package install

import "strings"

// llmArgsFields reads the top-level keys a worker YAML may hold in this
// install: the fields declared in the bodies of BaseLlmArgs and TorchLlmArgs
// (annotated names at the class body's indent; private _names, ClassVar and
// model_config are not fields), an alias= written on a field instead of its
// name, and the removed arguments TORCH_LLMARGS_REMOVED_ARGS still accepts.
// Left nil when either class is missing, so xcvr's own list is used.
func (s *scanner) llmArgsFields() {
	m := s.module(relLLMArgs)
	if m == nil {
		return
	}
	var fields []string
	found := 0
	for _, cls := range []string{"BaseLlmArgs", "TorchLlmArgs"} {
		for i := range m.lines {
			l := &m.lines[i]
			if l.first() != "class" || len(l.toks) < 2 || l.toks[1].text != cls {
				continue
			}
			found++
			bodyIndent := -1
			for j := i + 1; j < len(m.lines) && m.lines[j].indent > l.indent; j++ {
				b := &m.lines[j]
				if bodyIndent < 0 {
					bodyIndent = b.indent
				}
				if b.indent != bodyIndent || len(b.toks) < 3 || b.toks[0].kind != tkName || b.toks[1].text != ":" {
					continue
				}
				name := b.toks[0].text
				if strings.HasPrefix(name, "_") || name == "model_config" || b.toks[2].text == "ClassVar" {
					continue
				}
				for k := 2; k+2 < len(b.toks); k++ {
					if b.toks[k].text == "alias" && b.toks[k+1].text == "=" && b.toks[k+2].kind == tkString {
						name = b.toks[k+2].str.value()
					}
				}
				fields = append(fields, name)
			}
			break
		}
	}
	if found < 2 {
		return
	}
	for _, l := range m.lines {
		if l.first() != "_TORCH_LLMARGS_REMOVED_ARG_CHECKS" {
			continue
		}
		for k := 0; k+1 < len(l.toks); k++ {
			if l.toks[k].kind == tkString && l.toks[k+1].text == ":" {
				fields = append(fields, l.toks[k].str.value())
			}
		}
	}
	s.rep.LLMArgsFields = fields
}

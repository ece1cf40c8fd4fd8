package models

import (
	"path"
	"strings"
)

// Names that are not listed ids as written: a quantized checkpoint, a listed
// model under another organisation, a checkpoint directory. Operators' files
// carry these more often than the ids themselves.

// quantSuffixes are what a quantized checkpoint's Hugging Face id adds to
// its base model's name (Qwen/Qwen3-32B-FP8, nvidia/DeepSeek-R1-FP4,
// nvidia/Llama-3.3-70B-Instruct-NVFP4); longest first.
var quantSuffixes = []string{"-fp8-dynamic", "-gptq-int4", "-gptq-int8", "-nvfp4", "-mxfp4", "-fp8", "-fp4", "-awq", "-int4", "-int8", "-w4a16", "-w8a8"}

// FindByName finds the catalog entry of a model name xcvr does not list
// as is: an id whose name is a listed id's under another organisation
// (or none: Dynamo's --served-model-name gpt-oss-120b), or a listed id's with
// a quantization suffix (Qwen/Qwen3-32B-FP8 is Qwen/Qwen3-32B quantized: a
// quantized checkpoint's config.json keeps its base's architectures). A
// name matches by itself only when one entry has it. how says which
// ("quantized", "by its name"); ok is false when none or several match,
// and for a path, whose directory name is not evidence.
func (c *Catalog) FindByName(id string) (base string, e Entry, how string, ok bool) {
	if id == "" || strings.Count(id, "/") > 1 || strings.HasPrefix(id, "/") || strings.HasPrefix(id, ".") || strings.Contains(id, "$") {
		return "", Entry{}, "", false
	}
	org, name := "", id
	if i := strings.IndexByte(id, '/'); i >= 0 {
		org, name = id[:i], id[i+1:]
	}
	type stem struct{ name, how string }
	stems := []stem{{name, "by its name"}}
	// A checkpoint's revision (nvidia/DeepSeek-R1-0528-FP4-v2) is its base's.
	if i := strings.LastIndex(name, "-v"); i > 0 && i+2 < len(name) && strings.Trim(name[i+2:], "0123456789") == "" {
		stems = append(stems, stem{name[:i], "(revision " + name[i+1:] + ")"})
	}
	for _, st := range append([]stem(nil), stems...) {
		lower := strings.ToLower(st.name)
		for _, suf := range quantSuffixes {
			if strings.HasSuffix(lower, suf) && len(st.name) > len(suf) {
				stems = append(stems, stem{st.name[:len(st.name)-len(suf)], "quantized"})
				break
			}
		}
	}
	for i, st := range stems {
		stem, how := st.name, st.how
		if org != "" {
			if ent, found := c.FindHFID(org + "/" + stem); found && i > 0 {
				return org + "/" + stem, ent, how, true
			}
		}
		var hits []string
		var hit Entry
		for _, ent := range c.entries {
			for _, h := range ent.HFIDs {
				if strings.EqualFold(path.Base(h), stem) && (len(hits) == 0 || hit.Arch != ent.Arch) {
					hits, hit = append(hits, h), ent
				}
			}
		}
		if len(hits) == 1 {
			return hits[0], hit, how, true
		}
		if len(hits) > 1 {
			return "", Entry{}, "", false
		}
	}
	return "", Entry{}, "", false
}

// FindByDirName finds the listed model a checkpoint path's last directory is
// named as, exactly (Qwen/Qwen3-8B for /models/Qwen3-8B), when one entry has
// that name; a directory renamed (lower-cased, suffixed) is not guessed at.
func (c *Catalog) FindByDirName(p string) (base string, e Entry, ok bool) {
	name := path.Base(strings.TrimRight(p, "/"))
	if !strings.HasPrefix(p, "/") && !strings.HasPrefix(p, ".") || name == "" || strings.Contains(name, "$") {
		return "", Entry{}, false
	}
	var hits []string
	var hit Entry
	for _, ent := range c.entries {
		for _, h := range ent.HFIDs {
			if path.Base(h) == name && (len(hits) == 0 || hit.Arch != ent.Arch) {
				hits, hit = append(hits, h), ent
			}
		}
	}
	if len(hits) != 1 {
		return "", Entry{}, false
	}
	return hits[0], hit, true
}

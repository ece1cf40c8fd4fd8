package audit

import (
	"path"
	"strings"

	"xcvr/models"
)

// quantSuffixes are what a quantized checkpoint's Hugging Face id adds to
// its base model's name (Qwen/Qwen3-32B-FP8, nvidia/DeepSeek-R1-FP4,
// nvidia/Llama-3.3-70B-Instruct-NVFP4); longest first.
var quantSuffixes = []string{"-fp8-dynamic", "-gptq-int4", "-gptq-int8", "-nvfp4", "-mxfp4", "-fp8", "-fp4", "-awq", "-int4", "-int8", "-w4a16", "-w8a8"}

// quantizedBase finds the catalog entry of a model id xcvr does not know
// whose name is a known id's with a quantization suffix: the same
// architecture, quantized (a quantized checkpoint's config.json keeps its
// base's architectures). The base is matched by its name without the
// organisation when only one entry has it (nvidia/DeepSeek-R1-FP4 is
// deepseek-ai/DeepSeek-R1 quantized). ok is false when none or several
// match.
func quantizedBase(cat *models.Catalog, id string) (base string, e models.Entry, ok bool) {
	if strings.Count(id, "/") != 1 || strings.HasPrefix(id, "/") || strings.HasPrefix(id, ".") || strings.Contains(id, "$") {
		// Not a Hugging Face id (ORG/NAME): a path is a directory's name.
		return "", models.Entry{}, false
	}
	name := path.Base(id)
	lower := strings.ToLower(name)
	for _, suf := range quantSuffixes {
		if !strings.HasSuffix(lower, suf) || len(name) == len(suf) {
			continue
		}
		stem := name[:len(name)-len(suf)]
		if ent, found := cat.FindHFID(path.Dir(id) + "/" + stem); found {
			return path.Dir(id) + "/" + stem, ent, true
		}
		var hits []string
		var hit models.Entry
		for _, ent := range cat.Entries() {
			for _, h := range ent.HFIDs {
				if strings.EqualFold(path.Base(h), stem) {
					if len(hits) == 0 || hit.Arch != ent.Arch {
						hits = append(hits, h)
					}
					hit = ent
				}
			}
		}
		if len(hits) == 1 {
			return hits[0], hit, true
		}
		return "", models.Entry{}, false
	}
	return "", models.Entry{}, false
}

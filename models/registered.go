package models

// Architectures TensorRT-LLM registers that the catalog does not list (they have
// no transceiver or KV-cache rule xcvr knows): the keys of MODEL_ARCH_TO_MODULE in
// NVIDIA/TensorRT-LLM tensorrt_llm/_torch/models/_arch_index.py at 065ff9e9 (a
// main of late 2026), verified. The index names the module, not the class; the
// class is the architecture's own name where MODEL_CLASS_TO_MODULE lists it for
// the same module, and unknown otherwise (then xcvr names the class after the
// architecture, inferred). Which release first registers each one is not
// known, so a Lookup that finds a name only here is inferred. Left out:
// KimiK3ForConditionalGeneration, whose hooks delegate to KimiLinearForCausalLM
// (a rule the catalog does not hold for it).
const registeredIndex = "tensorrt_llm/_torch/models/_arch_index.py@065ff9e9"

// registeredElsewhere maps each such architecture to its class ("" when the
// index does not tell it).
var registeredElsewhere = map[string]string{
	"AfmoeForCausalLM":                        "AfmoeForCausalLM",
	"BartForConditionalGeneration":            "BartForConditionalGeneration",
	"BertForSequenceClassification":           "BertForSequenceClassification",
	"CLIPVisionModel":                         "CLIPVisionModel",
	"Cohere2ForCausalLM":                      "Cohere2ForCausalLM",
	"Cosmos3ForConditionalGeneration":         "",
	"DeciLMForCausalLM":                       "",
	"EAGLE3LlamaForCausalLM":                  "",
	"Eagle3DeepSeekV3ForCausalLM":             "",
	"Exaone4ForCausalLM":                      "Exaone4ForCausalLM",
	"Exaone4_5_ForConditionalGeneration":      "Exaone4_5_ForConditionalGeneration",
	"ExaoneMoEForCausalLM":                    "",
	"Gemma4AssistantForCausalLM":              "",
	"Glm4MoeForCausalLM":                      "Glm4MoeForCausalLM",
	"HCXVisionForCausalLM":                    "HCXVisionForCausalLM",
	"HCXVisionModel":                          "",
	"HunYuanDenseV1ForCausalLM":               "HunYuanDenseV1ForCausalLM",
	"HunYuanMoEV1ForCausalLM":                 "HunYuanMoEV1ForCausalLM",
	"LagunaForCausalLM":                       "LagunaForCausalLM",
	"LlavaLlamaModel":                         "",
	"LlavaNextForConditionalGeneration":       "",
	"MBartForConditionalGeneration":           "MBartForConditionalGeneration",
	"MTPDraftModelForCausalLM":                "",
	"MiniCPMV4_6ForConditionalGeneration":     "",
	"MiniMaxM3SparseForConditionalGeneration": "",
	"Mistral3ForConditionalGeneration":        "",
	"MistralLarge3EagleForCausalLM":           "",
	"MixtralForCausalLM":                      "MixtralForCausalLM",
	"MllamaForConditionalGeneration":          "MllamaForConditionalGeneration",
	"NemotronForCausalLM":                     "NemotronForCausalLM",
	"NemotronH_Nano_Omni_Reasoning_V3":        "",
	"Phi3ForCausalLM":                         "Phi3ForCausalLM",
	"Phi4MMForCausalLM":                       "Phi4MMForCausalLM",
	"PixtralForConditionalGeneration":         "",
	"PixtralVisionModel":                      "",
	"Qwen2ForCausalLM":                        "Qwen2ForCausalLM",
	"Qwen2ForProcessRewardModel":              "Qwen2ForProcessRewardModel",
	"Qwen2ForRewardModel":                     "Qwen2ForRewardModel",
	"Qwen2MoeForCausalLM":                     "Qwen2MoeForCausalLM",
	"Qwen2VLForConditionalGeneration":         "",
	"Qwen2_5_VLForConditionalGeneration":      "",
	"Qwen3ForTextEmbedding":                   "",
	"Qwen3VLForConditionalGeneration":         "",
	"Qwen3VLMoeForConditionalGeneration":      "",
	"QwenImageBenchForConditionalGeneration":  "",
	"SeedOssForCausalLM":                      "SeedOssForCausalLM",
	"SiglipVisionModel":                       "SiglipVisionModel",
	"Starcoder2ForCausalLM":                   "Starcoder2ForCausalLM",
	"Step3p5ForCausalLM":                      "",
	"Step3p7ForConditionalGeneration":         "",
	"T5ForConditionalGeneration":              "T5ForConditionalGeneration",
	"WhisperForConditionalGeneration":         "WhisperForConditionalGeneration",
}

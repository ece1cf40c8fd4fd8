package models_test

import (
	"fmt"
	"testing"

	"xcvr/models"
)

// A model name xcvr does not list as is names a listed one: quantized,
// under another organisation, or without one.
func TestFindByName(t *testing.T) {
	cat := models.Builtin()
	for id, want := range map[string]string{
		"Qwen/Qwen3-32B-FP8":             "Qwen/Qwen3-32B quantized Qwen3ForCausalLM",
		"nvidia/DeepSeek-R1-NVFP4":       "deepseek-ai/DeepSeek-R1 quantized DeepseekV3ForCausalLM",
		"gpt-oss-120b":                   "openai/gpt-oss-120b by its name GptOssForCausalLM",
		"nvidia/DeepSeek-R1-0528-FP4-v2": "nvidia/DeepSeek-R1-0528-FP4 (revision v2) DeepseekV3ForCausalLM",
		"acme/Thing-v":                   "",
		"acme/Qwen3-32B":                 "Qwen/Qwen3-32B by its name Qwen3ForCausalLM",
		"acme/Unknown-70B-FP8":           "",
		"-FP8":                           "",
		"/model":                         "",
		"/model-cache/deepseek-r1-fp4":   "", // a path
		"./Qwen3-32B":                    "",
		"gpt_oss":                        "",
		"Qwen/Qwen3-32B-FP8-extra":       "",
		"${MODEL}":                       "",
	} {
		base, e, how, ok := cat.FindByName(id)
		got := ""
		if ok {
			got = base + " " + how + " " + e.Arch
		}
		if got != want {
			t.Errorf("FindByName(%q) = %q, want %q", id, got, want)
		}
	}
}

// A checkpoint directory named exactly as a listed id's name is that model;
// a renamed one is not guessed at.
func TestFindByDirName(t *testing.T) {
	for path, want := range map[string]string{"/models/Qwen3-8B": "Qwen/Qwen3-8B", "/models/qwen3-8b": "", "Qwen3-8B": "", "/m/gpt-oss-120b": "openai/gpt-oss-120b", "/m/": ""} {
		base, _, ok := models.Builtin().FindByDirName(path)
		if base != want || ok != (want != "") {
			t.Errorf("FindByDirName(%q) = %q %v", path, base, ok)
		}
	}
}

// A quantized checkpoint's id names its base model, whose architecture its
// config.json keeps.
func ExampleCatalog_FindByName() {
	base, e, how, ok := models.Builtin().FindByName("Qwen/Qwen3-32B-FP8")
	fmt.Println(base, how, e.Arch, ok)
	// Output: Qwen/Qwen3-32B quantized Qwen3ForCausalLM true
}

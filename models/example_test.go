package models_test

import (
	"fmt"

	"xcvr/models"
	"xcvr/resolver"
)

// What the built-in catalog says GPT-OSS's get_preferred_transceiver_runtime()
// returns before and after PR #16479 opted it into the Python transceiver.
func ExampleCatalog_Lookup() {
	cat := models.Builtin()
	for _, name := range []string{"1.3.0rc20", "1.3.0rc27"} {
		v, err := resolver.ParseVersion(name)
		if err != nil {
			panic(err)
		}
		info := cat.Lookup("GptOssForCausalLM", v)
		fmt.Printf("%s: %s prefers %s (PR #%d)\n", name, info.Class, info.Preference.Repr(), info.PreferencePR)
	}
	// Output:
	// 1.3.0rc20: GptOssForCausalLM prefers None (PR #0)
	// 1.3.0rc27: GptOssForCausalLM prefers 'PYTHON' (PR #16479)
}

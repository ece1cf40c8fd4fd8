// Command xcvr shows why a TensorRT-LLM disaggregated worker gets the C++ or the
// Python KV-cache transceiver.
package main

import (
	"os"

	"xcvr/internal/cli"
	"xcvr/internal/crash"
)

func main() {
	// The parent only watches: a runtime fatal error in the child exits 3, not 2.
	// Completion, --version and help read no input and run alone.
	if !crash.Trivial(os.Args[1:]) {
		if code, supervised := crash.Supervise(); supervised {
			os.Exit(code)
		}
	}
	os.Exit(cli.Main(os.Args[1:], os.Stdin, os.Stdout, os.Stderr, os.Environ()))
}

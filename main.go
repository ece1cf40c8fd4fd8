// Command xcvr shows why a TensorRT-LLM disaggregated worker gets the C++ or the
// Python KV-cache transceiver.
package main

import (
	"os"

	_ "boot/start" // the supervisor, started before the rest is initialised

	"xcvr/internal/cli"
	"xcvr/internal/crash"
)

func main() {
	// The parent only watches: a runtime fatal error in the child exits 3, not 2.
	// A child that simply exited was answered before main (boot/start);
	// completion, --version and help run alone.
	if code, supervised := crash.Supervise(); supervised {
		os.Exit(code)
	}
	os.Exit(cli.Main(os.Args[1:], os.Stdin, os.Stdout, os.Stderr, os.Environ()))
}

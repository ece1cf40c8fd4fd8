// Command xcvr shows why a TensorRT-LLM disaggregated worker gets the C++ or the
// Python KV-cache transceiver.
package main

import (
	"os"

	"xcvr/internal/cli"
)

func main() {
	os.Exit(cli.Main(os.Args[1:], os.Stdin, os.Stdout, os.Stderr, os.Environ()))
}

// Command cataloggen writes models/builtin_gen.go: the embedded catalog
// (assets/models.yaml) as Go data, so that no xcvr process parses YAML to start.
// Parsing it took most of an explain's start-up (about 4 ms of 9 in-process).
// Run it through `go generate ./models`; a test in this package fails when the
// generated file is not what assets/models.yaml says, so CI catches a stale one.
//
// It builds with the tag xcvr_nogen (set by the go:generate line), under which
// package models parses the YAML instead of using the generated file: a
// generated file that no longer compiles (after a field of models.Entry was
// renamed) can still be regenerated.
package main

import (
	"fmt"
	"os"

	"xcvr/assets"
	"xcvr/models"
)

func main() {
	out := "builtin_gen.go"
	if len(os.Args) > 1 {
		out = os.Args[1]
	}
	src, err := Generate(assets.ModelsYAML)
	if err != nil {
		fmt.Fprintln(os.Stderr, "cataloggen:", err)
		os.Exit(1)
	}
	if err := os.WriteFile(out, src, 0o644); err != nil {
		fmt.Fprintln(os.Stderr, "cataloggen:", err)
		os.Exit(1)
	}
}

// Generate parses the catalog YAML as models.Parse does and returns the Go
// source of models/builtin_gen.go.
func Generate(yamlSrc []byte) ([]byte, error) {
	c, err := models.Parse("assets/models.yaml", yamlSrc, "built-in")
	if err != nil {
		return nil, err
	}
	return render(c.Entries())
}

//go:build !xcvr_man

package cli

import "github.com/spf13/cobra"

// newManCmd is nil in the binary operators run: the man pages are written at
// release time by a build with the tag xcvr_man (.ci/release-extras). Leaving the
// generator out keeps cobra/doc, go-md2man and blackfriday out of every
// command's start-up (blackfriday's init alone was the largest of xcvr's ~100
// package inits) and out of the binary.
func newManCmd(*appEnv, *cobra.Command) *cobra.Command { return nil }

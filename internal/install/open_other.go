//go:build !unix

package install

import "os"

// openNonBlocking opens a file that was checked to be regular.
func openNonBlocking(p string) (*os.File, error) { return os.Open(p) }

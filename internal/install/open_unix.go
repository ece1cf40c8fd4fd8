//go:build unix

package install

import (
	"os"
	"syscall"
)

// openNonBlocking opens a file that was checked to be regular. O_NONBLOCK keeps
// a FIFO swapped in after the check from blocking the open; O_NOFOLLOW refuses a
// symlink swapped in.
func openNonBlocking(p string) (*os.File, error) {
	return os.OpenFile(p, os.O_RDONLY|syscall.O_NONBLOCK|syscall.O_NOFOLLOW, 0)
}

package boot

import "syscall"

// The termios requests x/term uses on Linux.
const (
	ioctlGet = syscall.TCGETS
	ioctlSet = syscall.TCSETS
)

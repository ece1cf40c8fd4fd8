package boot

import "syscall"

// The termios requests x/term uses on macOS.
const (
	ioctlGet = syscall.TIOCGETA
	ioctlSet = syscall.TIOCSETA
)

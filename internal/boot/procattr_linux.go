package boot

import "syscall"

// childAttr asks the kernel to send the child SIGTERM when the supervisor
// dies. A supervisor killed outright (SIGKILL from a user, the OOM killer, a
// test's cleanup) cannot pass a signal on, and its child, orphaned, went on
// running: an `xcvr serve` kept its port and its sessions with nobody to stop
// it. SIGTERM, not SIGKILL: the child's handler restores the terminal and
// closes the server's sessions as it does for a kill from a supervisor.
func childAttr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Pdeathsig: syscall.SIGTERM}
}

//go:build !linux

package boot

import "syscall"

// childAttr: only Linux has a parent-death signal; elsewhere an orphaned
// child runs on until it ends or is killed.
func childAttr() *syscall.SysProcAttr { return nil }

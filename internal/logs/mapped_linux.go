package logs

import "syscall"

// mapPopulate maps a window's pages in at once: one system call instead of a
// page fault every few pages.
const mapPopulate = syscall.MAP_POPULATE

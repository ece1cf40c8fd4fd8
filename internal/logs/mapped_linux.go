package logs

import "syscall"

// mapPopulate maps a window's pages in at once: one system call instead of a
// page fault every few pages.
const mapPopulate = syscall.MAP_POPULATE

// dropPages takes a scanned window's pages out of the resident set, keeping
// the mapping: a shared file mapping reads them again from the page cache
// when they are next touched (the rest of a window whose events reached
// eventBudget, rescanned on the replaying goroutine).
func dropPages(m []byte) { syscall.Madvise(m, syscall.MADV_DONTNEED) }

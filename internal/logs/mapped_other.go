//go:build unix && !linux

package logs

const mapPopulate = 0

// dropPages does nothing here: the system may keep the pages mapped in until
// the window is unmapped.
func dropPages([]byte) {}

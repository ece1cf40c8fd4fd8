//go:build unix && !linux

package logs

// mappedRSS cannot be read here (dropPages does nothing).
func mappedRSS([]byte) (int, bool) { return 0, false }

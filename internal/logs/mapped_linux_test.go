package logs

import (
	"bufio"
	"fmt"
	"os"
	"strings"
	"unsafe"
)

// mappedRSS returns the resident kilobytes of the mapping that starts at m
// (its Rss in /proc/self/smaps); ok is false when that cannot be read.
func mappedRSS(m []byte) (kb int, ok bool) {
	f, err := os.Open("/proc/self/smaps")
	if err != nil {
		return 0, false
	}
	defer f.Close()
	start := fmt.Sprintf("%x-", uintptr(unsafe.Pointer(unsafe.SliceData(m))))
	sc := bufio.NewScanner(f)
	in := false
	for sc.Scan() {
		line := sc.Text()
		if strings.HasPrefix(line, start) {
			in = true
			continue
		}
		if in && strings.HasPrefix(line, "Rss:") {
			_, err := fmt.Sscanf(line, "Rss: %d kB", &kb)
			return kb, err == nil
		}
	}
	return 0, false
}

// Command floor is the least a line-reading log checker can do on one large
// file, for .ci/bench-logs to run beside xcvr check-logs, grep and ripgrep:
// it maps the file in 8 MiB windows on two workers (as check-logs does,
// internal/logs/mapped.go), finds every newline with bytes.IndexByte and looks
// at each line's first byte, nothing more: no prefix, no process, no message.
// Its wall time is where any reader that looks at every line starts, before
// xcvr's start-up (two processes, the supervisor's and the child's) and the
// per-line work check-logs does. It is a measurement tool, never shipped:
// directories starting with "." are outside ./..., so go build and go test
// of the module do not see it.
package main

import (
	"bytes"
	"fmt"
	"os"
	"sync"
	"syscall"
)

func main() {
	if len(os.Args) != 2 {
		fmt.Fprintln(os.Stderr, "usage: floor FILE")
		os.Exit(2)
	}
	f, err := os.Open(os.Args[1])
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	st, err := f.Stat()
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	size := st.Size()
	const window = 8 << 20
	var (
		wg            sync.WaitGroup
		mu            sync.Mutex
		next          int64
		lines, sevens int
		failed        error
	)
	for range 2 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			n, s := 0, 0
			for {
				mu.Lock()
				off := next
				next += window
				mu.Unlock()
				if off >= size {
					break
				}
				m, err := syscall.Mmap(int(f.Fd()), off, int(min(window, size-off)), syscall.PROT_READ, syscall.MAP_SHARED|syscall.MAP_POPULATE)
				if err != nil {
					mu.Lock()
					failed = err
					mu.Unlock()
					return
				}
				for rest := m; len(rest) > 0; n++ {
					if rest[0] == '7' {
						s++
					}
					i := bytes.IndexByte(rest, '\n')
					if i < 0 {
						break
					}
					rest = rest[i+1:]
				}
				syscall.Munmap(m)
			}
			mu.Lock()
			lines, sevens = lines+n, sevens+s
			mu.Unlock()
		}()
	}
	wg.Wait()
	if failed != nil {
		fmt.Fprintln(os.Stderr, failed)
		os.Exit(2)
	}
	// Windows cut lines, so a line may be counted twice: the count only keeps
	// the work from being optimised away.
	fmt.Println(lines, sevens)
}

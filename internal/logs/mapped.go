//go:build unix

package logs

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"sync"
	"syscall"
)

// A large log file is mapped instead of read: read() copies every byte from
// the page cache into xcvr's buffers, which was two thirds of the time of a
// 200 MB log. The file is mapped a window at a time, each unmapped once its
// lines are replayed; the events keep copies, never bytes of a mapping. The
// pages mapped in count in the resident set, so they are bounded as the
// buffers of the read path are: a worker drops a window's pages as soon as
// it has scanned it, and a window is mapped only when fewer than
// residentWindows hold pages. The replay does not wait for the scans to be
// bounded: on a log of tracebacks, whose every line is passed on, it is the
// slowest stage (it scans the rest of each window past eventBudget), and the
// windows queued behind it used to stay mapped in, five windows of 8 MiB:
// 82 MiB resident for 130 MB of tracebacks, 86 MiB for 400 MB. The replay
// now reads the rest of a window again from the page cache (no more CPU:
// fault-around maps 16 pages a fault). The events of the windows queued
// are bounded by eventBudget each, and the heap they make by a soft memory
// limit while the parse runs (parseHeap). That log now takes 43-47 MiB, 43-46
// for 400 MB, 47-55 for 200 MB with a traceback every 300 lines (80-84
// before); the 200 MB benchmark log 35 MiB instead of 51, in the same wall
// time (2026-12-06; the output byte for byte the same).
//
// A mapped file that shrinks while it is read (truncated, rotated with
// copytruncate) faults on the pages past its new end; the workers turn that
// fault into an error (debug.SetPanicOnFault), so the log is reported as
// unreadable, not a crash.

// mapChunk is the size of one mapped window (a variable through chunkSize,
// which tests make tiny). 8 MiB: each window costs its mapping, its
// handoffs and its chunk's first lines; on the 200 MB benchmark log, 4 MiB
// windows took 101–108 ms of CPU and 62–64 ms of wall time, 8 MiB 96–103
// and 56 ms, 16 MiB 94–95 and 53–54 ms (perf stat, 2026-12-05). The
// resident set was then about five windows and the heap (31, 51 and 76
// MiB), against the 64 MiB goal: 8 MiB.
func mapChunk() int { return 8 * chunkSize }

// testAfterMap, when set by a test, runs after each window is mapped.
var testAfterMap func()

// testAfterDrop, when set by a test, runs after a worker dropped the pages
// of the window mapped at m, before it gives back its token.
var testAfterDrop func(m []byte)

// testMappedParse, when set by a test, runs as a mapped parse starts (after
// it is admitted); the function it returns runs as the parse ends.
var testMappedParse func() (end func())

// mappedParses admits one parse through mappings at a time, process-wide.
// check-logs reads a directory's logs on as many workers as there are
// cores, and each large log's parse holds its own windows (residentWindows),
// its rescanned window and its share of the heap (parseHeap): about 35-55
// MiB on this project's 2-core machine, so two large logs read at once
// held twice that, and a node with 64 cores reading a job's 64 large logs
// 64 times. One at a time, each scanned by at most maxScanWorkers, the
// resident set is one parse's on any node. Nobody waits for it: the
// scanner reads about 2.8 GB/s a core (BenchmarkScan), faster than a disk
// hands a log over, while small logs (most files of a job directory, read
// whole, not mapped) go on being read in parallel meanwhile.
var mappedParses = make(chan struct{}, 1)

// errShrank is the error for a mapped file that faulted.
var errShrank = errors.New("refused: the file shrank while it was being read (truncated or rotated); read it again")

// parseMapped parses the regular file f of size bytes through mappings; ok
// is false when the file cannot be mapped (the caller reads it instead).
func parseMapped(name string, f *os.File, size int64) (lg *Log, err error, ok bool) {
	// Lines that end with '\r' alone (crlines.go) are read, translated,
	// through the read path: such logs are few, and a mapping is read-only.
	head := make([]byte, len(bom)+crWindow)
	k, _ := f.ReadAt(head, 0)
	if cr, _ := crLines(bytes.TrimPrefix(head[:k], bom), int64(k) >= size || k < len(head)); cr {
		lg, err := parse(name, io.NewSectionReader(f, 0, size), size)
		return lg, err, true
	}
	// One mapped parse at a time in the whole process (see mappedParses).
	mappedParses <- struct{}{}
	defer func() { <-mappedParses }()
	if testMappedParse != nil {
		defer testMappedParse()()
	}
	page := int64(os.Getpagesize())
	fd := int(f.Fd())
	mapAt := func(start, end int64) (m, data []byte, err error) {
		a := start &^ (page - 1)
		m, err = syscall.Mmap(fd, a, int(end-a), syscall.PROT_READ, syscall.MAP_SHARED|mapPopulate)
		if err != nil {
			return nil, nil, err
		}
		return m, m[start-a:], nil
	}
	// The first window decides whether the file maps at all, and holds the
	// start: the byte-order mark and the NUL check of the read path.
	first := min(size, int64(max(mapChunk(), binaryWindow)))
	m0, d0, err := mapAt(0, first)
	if err != nil {
		return nil, nil, false
	}
	defer lowerMemoryLimit()()
	type job struct {
		m    []byte // the mapping to unmap after replay
		data []byte
		res  chunkResult
		err  error
		done chan struct{}
	}
	workers := scanWorkers()
	inFlight := workers + 1
	jobs := make(chan *job, inFlight)
	order := make(chan *job, inFlight)
	// resident holds a token for each window whose pages may be mapped in:
	// taken before the window is mapped (the first one already is), given
	// back once its scan is done and its pages dropped (see residentWindows).
	resident := make(chan struct{}, residentWindows(workers))
	resident <- struct{}{}
	var wg sync.WaitGroup
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			debug.SetPanicOnFault(true)
			sc := newScanner()
			for j := range jobs {
				j.err = scanGuarded(sc, j.data, &j.res)
				dropPages(j.m)
				if testAfterDrop != nil {
					testAfterDrop(j.m)
				}
				<-resident
				close(j.done)
			}
		}()
	}
	prodErr := make(chan error, 1)
	go func() {
		defer close(jobs)
		defer close(order)
		debug.SetPanicOnFault(true)
		prodErr <- produceMapped(size, m0, d0, mapAt, func() { resident <- struct{}{} }, func(m, data []byte) {
			j := &job{m: m, data: data, done: make(chan struct{})}
			order <- j
			jobs <- j
		})
	}()
	st := newState(name)
	var scanErr error
	var rescan *scanner
	for j := range order {
		<-j.done
		if j.err != nil && scanErr == nil {
			scanErr = j.err
		}
		if scanErr == nil && st.midLine() {
			// The window starts inside a failure's root cause or a line
			// cut in pieces, which its worker could not know: scan it
			// again, passing its lines on, joining the pieces.
			if rescan == nil {
				rescan = newScanner()
			}
			j.res = chunkResult{events: j.res.events[:0]}
			scanErr = rescanGuarded(rescan, j.data, &j.res, st.pendingCause != nil, st.carry())
		}
		if scanErr == nil {
			if j.res.consumed < len(j.data) && rescan == nil {
				rescan = newScanner()
			}
			scanErr = st.replayChunk(j.data, &j.res, func(data []byte, res *chunkResult, causeOpen bool, split *splitLines) error {
				return rescanGuarded(rescan, data, res, causeOpen, split)
			})
		}
		if j.m != nil {
			syscall.Munmap(j.m)
		}
	}
	wg.Wait()
	if err := <-prodErr; err != nil {
		return st.lg, err, true
	}
	if scanErr != nil {
		return st.lg, scanErr, true
	}
	return st.finish(), nil, true
}

// scanGuarded is sc.scan, with a fault on the mapping (the file shrank)
// returned as errShrank.
func scanGuarded(sc *scanner, data []byte, res *chunkResult) error {
	return faultAsShrank(func() { sc.scan(data, res) })
}

// rescanGuarded is scanGuarded of a window, or the rest of one, on the
// goroutine that replays the windows: a window that starts inside a
// failure's root cause (causeOpen) or a line cut in pieces (split), or the
// rest of one whose events reached eventBudget.
func rescanGuarded(sc *scanner, data []byte, res *chunkResult, causeOpen bool, split *splitLines) error {
	defer debug.SetPanicOnFault(debug.SetPanicOnFault(true))
	return faultAsShrank(func() { sc.scanFrom(data, res, causeOpen, split) })
}

// faultAsShrank runs scan and returns a memory fault it meets as errShrank;
// any other panic goes on.
func faultAsShrank(scan func()) (err error) {
	defer func() {
		if r := recover(); r != nil {
			if re, ok := r.(runtime.Error); ok && isFault(re) {
				err = errShrank
				return
			}
			panic(r)
		}
	}()
	scan()
	return nil
}

// isFault reports whether a runtime error is a memory fault (SetPanicOnFault
// gives such errors an Addr method).
func isFault(e runtime.Error) bool {
	_, ok := e.(interface{ Addr() uintptr })
	return ok
}

// produceMapped cuts the file into runs of whole lines of about mapChunk
// bytes, each in a mapping of its own, and hands them to emit in order, as
// readChunks does for the read path: the same byte-order mark, NUL check and
// cut of lines longer than maxLineBytes. m0 maps the file's start (d0 its
// bytes from offset 0).
func produceMapped(size int64, m0, d0 []byte, mapAt func(start, end int64) (m, data []byte, err error),
	acquire func(), emit func(m, data []byte)) (err error) {
	m := m0 // the mapping not yet handed on
	defer func() {
		if m != nil {
			syscall.Munmap(m)
		}
		if r := recover(); r != nil {
			if re, ok := r.(runtime.Error); ok && isFault(re) {
				err = errShrank
				return
			}
			panic(r)
		}
	}()
	if bytes.IndexByte(d0[:min(len(d0), binaryWindow)], 0) >= 0 {
		return binaryErr(d0)
	}
	pos := int64(0)
	if bytes.HasPrefix(d0, bom) {
		pos = int64(len(bom))
	}
	data, mEnd := d0[pos:], int64(len(d0)) // m maps [pos, mEnd) as data
	remap := func(end int64) error {
		if m != nil {
			syscall.Munmap(m)
			m = nil
		}
		var err error
		if m, data, err = mapAt(pos, end); err != nil {
			m = nil
			return fmt.Errorf("map: %w", err)
		}
		mEnd = end
		if testAfterMap != nil {
			testAfterMap()
		}
		return nil
	}
	for pos < size {
		if m == nil {
			acquire()
			if err := remap(min(size, pos+int64(mapChunk()))); err != nil {
				return err
			}
		}
		i := bytes.LastIndexByte(data, '\n')
		if i < 0 && mEnd < size && len(data) <= maxLineBytes {
			// A line longer than the window: look as far as its cut.
			if err := remap(min(size, pos+maxLineBytes+1)); err != nil {
				return err
			}
			i = bytes.LastIndexByte(data, '\n')
		}
		var chunk []byte
		next := mEnd
		switch {
		case mEnd == size:
			chunk = data // the last run: its last line may lack a newline
		case i >= 0:
			chunk, next = data[:i+1], pos+int64(i)+1
		default:
			// A line with no end in sight: keep its start as a line of its
			// own and skip the rest of it, up to its newline.
			chunk = data[:maxLineBytes]
			if next, err = skipLine(pos+maxLineBytes, size, mapAt); err != nil {
				return err
			}
		}
		// The mapping goes with its chunk (unmapped after the replay); what
		// it holds past the chunk is mapped again with the next window.
		emit(m, chunk)
		m, data, pos = nil, nil, next
	}
	return nil
}

// skipLine returns the offset after the next newline at or after from (size
// when there is none), looking through windows it maps and unmaps.
func skipLine(from, size int64, mapAt func(start, end int64) (m, data []byte, err error)) (int64, error) {
	for from < size {
		end := min(size, from+int64(mapChunk()))
		m, data, err := mapAt(from, end)
		if err != nil {
			return 0, fmt.Errorf("map: %w", err)
		}
		i := bytes.IndexByte(data, '\n')
		syscall.Munmap(m)
		if i >= 0 {
			return from + int64(i) + 1, nil
		}
		from = end
	}
	return size, nil
}

// residentWindows is how many windows may have their pages mapped in at
// once (besides the one whose rest the replay may be reading again): one
// for each worker and one more, mapped ahead for the next free worker.
// Mapping a window in takes a fraction of the time of scanning it, so one
// ahead keeps the workers busy: on the 200 MB log the workers waited 12-21
// ms a run for windows, against 27-32 before (five windows in flight, none
// dropped); workers+2 cost 8 MiB more and was no faster within this
// machine's noise.
func residentWindows(workers int) int { return workers + 1 }

// parseHeap is how much the Go runtime's memory may grow while a file is
// parsed through mappings before the collector runs, whatever GOGC says (a
// soft limit, see lowerMemoryLimit). check-logs runs with GOGC=400 (for a
// directory's list of logs, live all along), so the heap may grow to five
// times what is live and to 16 MiB at least. On a log that passes on many
// lines (tracebacks), whose windows' events are live until replayed (1-7
// MB), that was 25-35 MiB resident beside the windows' pages and xcvr's own
// code (RssAnon); with 16 MiB more than at the start (about 21 in all),
// about 17 MiB, at 1-2% more CPU (64 collections instead of 27 on 400 MB of
// tracebacks). 20 MiB: 1-4 MiB more resident.
const parseHeap = 16 << 20

// memLimit holds the soft memory limit while parses through mappings run:
// the limit before the first (saved), the runtime's memory then (base), and
// how many run (each gets parseHeap more).
var memLimit struct {
	sync.Mutex
	users       int64
	saved, base int64
}

// lowerMemoryLimit lowers the Go runtime's soft memory limit, while a parse
// runs, to the memory it uses now and parseHeap more for each parse running
// (never above the limit set before, a GOMEMLIMIT the user set included),
// and returns the function that gives it back. The limit only makes the
// collector run sooner: a program whose live heap is larger (the explorer)
// is not held to it beyond that parse's share.
func lowerMemoryLimit() (restore func()) {
	memLimit.Lock()
	defer memLimit.Unlock()
	if memLimit.users == 0 {
		memLimit.saved = debug.SetMemoryLimit(-1)
		memLimit.base = runtimeMemory()
	}
	memLimit.users++
	debug.SetMemoryLimit(min(memLimit.saved, memLimit.base+memLimit.users*parseHeap))
	return func() {
		memLimit.Lock()
		defer memLimit.Unlock()
		memLimit.users--
		if memLimit.users == 0 {
			debug.SetMemoryLimit(memLimit.saved)
			return
		}
		debug.SetMemoryLimit(min(memLimit.saved, memLimit.base+memLimit.users*parseHeap))
	}
}

// runtimeMemory is the memory the soft limit counts: all the runtime
// mapped, less what it gave back to the system.
func runtimeMemory() int64 {
	s := []metrics.Sample{{Name: "/memory/classes/total:bytes"}, {Name: "/memory/classes/heap/released:bytes"}}
	metrics.Read(s)
	return int64(s[0].Value.Uint64()) - int64(s[1].Value.Uint64())
}

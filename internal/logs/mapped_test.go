//go:build unix

package logs

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// The mapped path cuts lines as the read path does: a line longer than
// maxLineBytes is kept to its first maxLineBytes bytes and counted once,
// whether its newline is in the window, past it, or missing at the end; a
// byte-order mark is dropped and a NUL near the start refused.
func TestParseMappedCutsAsRead(t *testing.T) {
	long := strings.Repeat("x", maxLineBytes+100)
	longer := strings.Repeat("y", 3*maxLineBytes)
	tagged := "[TRT-LLM] [RANK 1] [I] Using KvCacheTransceiverV2"
	cases := map[string]string{
		"long":         "[TRT-LLM] [RANK 0] [I] " + long + "\n" + tagged + "\n",
		"longer":       tagged + "\n" + longer + "\n" + "[TRT-LLM] [RANK 2] [E] Failed to initialize executor on rank 2: boom\n",
		"long at end":  tagged + "\n" + longer,
		"exactly":      strings.Repeat("z", maxLineBytes) + "\n" + tagged + "\n" + strings.Repeat("w", maxLineBytes+1),
		"bom and crlf": "\xef\xbb\xbf" + tagged + "\r\n" + strings.Repeat(tagged+"\r\n", 2000),
		"no newline":   strings.Repeat("0: [TRT-LLM] [RANK 0] [I] iter = 1\n", 3000) + tagged,
	}
	old := chunkSize
	defer func() { chunkSize = old }()
	for name, data := range cases {
		for _, size := range []int{7, 1000, 1 << 20} {
			chunkSize = old
			want, err := Parse("f.log", strings.NewReader(data))
			if err != nil {
				t.Fatal(err)
			}
			chunkSize = size
			if g, w := parseMappedSummary(t, []byte(data)), summary(t, want); g != w {
				t.Errorf("%s, windows of %d: mapped\n got %s\nwant %s", name, mapChunk(), g, w)
			}
		}
	}
	path := filepath.Join(t.TempDir(), "bin.log")
	os.WriteFile(path, append([]byte(tagged+"\n\x00"), bytes.Repeat([]byte("a\n"), 1<<16)...), 0o644)
	f, _ := os.Open(path)
	defer f.Close()
	st, _ := f.Stat()
	if _, err := ParseFile("bin.log", f, st.Size()); !errors.Is(err, ErrBinary) {
		t.Errorf("NUL near the start: %v, want ErrBinary", err)
	}
}

// A log truncated while it is mapped (logrotate's copytruncate) faults on
// the pages past its new end: the parse reports it, it does not crash.
func TestParseMappedFileShrinks(t *testing.T) {
	path := filepath.Join(t.TempDir(), "rotated.log")
	data := bytes.Repeat([]byte("0: [TRT-LLM] [RANK 0] [I] iter = 1, host_step_time = 21.3ms\n"), 1<<16) // 4 MB
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	old := chunkSize
	defer func() { chunkSize, testAfterMap = old, nil }()
	chunkSize = 64 << 10
	maps := 0
	testAfterMap = func() {
		if maps++; maps == 3 {
			if err := os.Truncate(path, 1<<20); err != nil {
				t.Error(err)
			}
		}
	}
	_, err, ok := parseMapped("rotated.log", f, int64(len(data)))
	if !ok || !errors.Is(err, errShrank) {
		t.Fatalf("a file that shrank while mapped: %v (mapped %v), want errShrank", err, ok)
	}
}

// On a log of tracebacks, whose every line is passed on (events past
// eventBudget, the rest of each window scanned again on the replaying
// goroutine, which is then the slowest), the windows whose pages are mapped
// in stay within residentWindows however far the replay lags: a worker drops
// a window's pages once it is scanned and only then may another be mapped
// (the replay reads the rest again from the page cache). The workers are
// slowed after each scan so that the mapping would run ahead if nothing
// held it. The result is the read path's.
func TestParseMappedBoundsResidentWindows(t *testing.T) {
	var b bytes.Buffer
	if err := writeTracebackLog(&b, 2<<20, 8); err != nil {
		t.Fatal(err)
	}
	data := b.Bytes()
	oldChunk, oldBudget := chunkSize, eventBudget
	// More cores than maxScanWorkers: the bound is the cap's, not the
	// node's (a 64-core node held 65 windows).
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(16))
	defer func() { chunkSize, eventBudget, testAfterMap, testAfterDrop = oldChunk, oldBudget, nil, nil }()
	chunkSize = 16 << 10 // windows of 128 KiB
	want, err := Parse("f.log", bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	eventBudget = 8 << 10
	var mapped, dropped, most atomic.Int64
	// The first window is mapped before testAfterMap can run.
	mapped.Store(1)
	var notDropped atomic.Value // a message, once
	testAfterMap = func() {
		n := mapped.Add(1) - dropped.Load()
		for m := most.Load(); n > m && !most.CompareAndSwap(m, n); m = most.Load() {
		}
	}
	testAfterDrop = func(m []byte) {
		if kb, ok := mappedRSS(m); ok && kb != 0 {
			notDropped.CompareAndSwap(nil, fmt.Sprintf("a scanned window still holds %d kB mapped in", kb))
		}
		dropped.Add(1)
		time.Sleep(time.Millisecond)
	}
	if g, w := parseMappedSummary(t, data), summary(t, want); g != w {
		t.Errorf("mapped\n got %s\nwant %s", g, w)
	}
	if bound := int64(residentWindows(maxScanWorkers)); most.Load() > bound {
		t.Errorf("%d windows were mapped in at once, want at most %d", most.Load(), bound)
	}
	if msg := notDropped.Load(); msg != nil {
		t.Error(msg)
	}
	if mapped.Load() < 8 {
		t.Errorf("only %d windows: the test checks little", mapped.Load())
	}
}

// While a file is parsed through mappings, the Go runtime's soft memory
// limit is what it used at the start and parseHeap more for each parse
// running, never above the limit set before, which it gets back after.
func TestParseMappedLowersMemoryLimit(t *testing.T) {
	const high = 1 << 40
	defer debug.SetMemoryLimit(debug.SetMemoryLimit(high))
	limit := func() int64 { return debug.SetMemoryLimit(-1) }
	r1 := lowerMemoryLimit()
	l1 := limit()
	if l1 < parseHeap || l1 > runtimeMemory()+parseHeap+16<<20 { // slack: the scavenger may give memory back meanwhile
		t.Errorf("one parse: limit %d MiB, the runtime uses %d MiB", l1>>20, runtimeMemory()>>20)
	}
	r2 := lowerMemoryLimit()
	if l := limit(); l != l1+parseHeap {
		t.Errorf("two parses: limit %d, want %d", l, l1+parseHeap)
	}
	r2()
	if l := limit(); l != l1 {
		t.Errorf("one parse again: limit %d, want %d", l, l1)
	}
	r1()
	if l := limit(); l != high {
		t.Errorf("after: limit %d, want %d", l, int64(high))
	}
	debug.SetMemoryLimit(8 << 20) // lower than any share: kept
	r := lowerMemoryLimit()
	if l := limit(); l != 8<<20 {
		t.Errorf("under a lower limit: %d, want %d", l, 8<<20)
	}
	r()
	debug.SetMemoryLimit(high)

	var b bytes.Buffer
	if err := writeTracebackLog(&b, 1<<20, 8); err != nil {
		t.Fatal(err)
	}
	old := chunkSize
	defer func() { chunkSize, testAfterMap = old, nil }()
	chunkSize = 16 << 10
	var during atomic.Int64
	testAfterMap = func() { during.Store(limit()) }
	parseMappedSummary(t, b.Bytes())
	if during.Load() == 0 || during.Load() >= high {
		t.Errorf("during a parse: limit %d, want it lowered", during.Load())
	}
	if l := limit(); l != high {
		t.Errorf("after a parse: limit %d, want %d", l, int64(high))
	}
}

// TestMappedParsesOneAtATime: however many large logs are read at once
// (check-logs reads a directory's on every core), one is parsed through
// mappings at a time, so their windows and heap are one parse's; each gives
// the log's own answer.
func TestMappedParsesOneAtATime(t *testing.T) {
	var b bytes.Buffer
	if err := writeJobLog(&b, 1<<20, 4); err != nil {
		t.Fatal(err)
	}
	data := b.Bytes()
	want, err := Parse("f.log", bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	oldChunk := chunkSize
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(8))
	defer func() { chunkSize, testMappedParse = oldChunk, nil }()
	chunkSize = 16 << 10 // windows of 128 KiB: each parse takes a while
	var running, most, parses atomic.Int64
	testMappedParse = func() func() {
		parses.Add(1)
		n := running.Add(1)
		for m := most.Load(); n > m && !most.CompareAndSwap(m, n); m = most.Load() {
		}
		time.Sleep(5 * time.Millisecond) // a parse that overlapped another would be seen
		return func() { running.Add(-1) }
	}
	const logs = 4
	got := make([]string, logs)
	var wg sync.WaitGroup
	for i := range logs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			got[i] = parseMappedSummary(t, data)
		}()
	}
	wg.Wait()
	for i, g := range got {
		if w := summary(t, want); g != w {
			t.Errorf("log %d\n got %s\nwant %s", i, g, w)
		}
	}
	if parses.Load() != logs {
		t.Fatalf("%d mapped parses, want %d", parses.Load(), logs)
	}
	if most.Load() != 1 {
		t.Errorf("%d mapped parses ran at once, want 1", most.Load())
	}
}

package logs

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"testing"
)

// writeJobLog writes about size bytes of an srun-labelled log of ranks ranks,
// interleaved as a real trtllm-serve start-up with debug chatter looks: mostly
// lines that cannot matter (requests, iteration stats, NCCL), with each rank's
// transceiver lines near the start. Every line carries the launcher's prefix,
// a timestamp and a tag, the most a reader has to look at per line; an
// iteration line ends with its states dict, quotes and all, as py_executor
// prints it.
func writeJobLog(w io.Writer, size int64, ranks int) error {
	bw := bufio.NewWriterSize(w, 1<<20)
	var written int64
	put := func(rank int, s string) {
		n, _ := fmt.Fprintf(bw, "%d: [09/12/2026-14:02:%02d] %s\n", rank, written%60, s)
		written += int64(n)
	}
	for r := 0; r < ranks; r++ {
		put(r, "[TensorRT-LLM] TensorRT-LLM version: 1.3.0rc26")
	}
	for r := 0; r < ranks; r++ {
		put(r, "[TRT-LLM] [RANK "+strconv.Itoa(r)+"] [I] Using LLM with PyTorch backend")
		put(r, "[TRT-LLM] [RANK "+strconv.Itoa(r)+"] [I] Resolved transceiver_runtime='auto' to 'PYTHON' for GptOssForCausalLM.")
	}
	for r := 0; r < ranks; r++ {
		put(r, "[TRT-LLM] [RANK "+strconv.Itoa(r)+"] [I] Using KvCacheTransceiverV2")
	}
	noise := []string{
		"[TRT-LLM] [RANK %d] [I] iter = %d, global_rank = 0, rank = 0, currank_total_requests = 0/0, host_step_time = 21.3ms, prev_device_step_time = 20.9ms, timestamp = 2026-09-12 14:02:03, num_scheduled_requests: 8, states = {'num_ctx_requests': 0, 'num_ctx_tokens': 0, 'num_generation_tokens': 8}",
		"[TRT-LLM] [RANK %d] [V] [executor] request %d: context chunk 3/4 scheduled, 2048 tokens, kv blocks 96",
		"INFO:     10.0.%d.%d:51234 - \"POST /v1/completions HTTP/1.1\" 200 OK",
		"[TensorRT-LLM][RANK %d][DEBUG] NCCL comm %d: allreduce of 16777216 bytes on stream 0x7f3a2c000b70",
		"[TRT-LLM] [RANK %d] [W] request %d exceeded the soft deadline by 12ms; scheduling it first",
	}
	for i := 0; written < size; i++ {
		r := i % ranks
		put(r, fmt.Sprintf(noise[i%len(noise)], r, i))
	}
	return bw.Flush()
}

// writeTracebackLog writes about size bytes of a log that is nearly all
// Python tracebacks (an executor loop failing over and over, ranks ranks in
// turn), whose every line the scanner passes on: the heaviest case for the
// events and for the replay (check-logs' memory on it is in xcvr help logs).
func writeTracebackLog(w io.Writer, size int64, ranks int) error {
	bw := bufio.NewWriterSize(w, 1<<20)
	n, _ := fmt.Fprintf(bw, "[TensorRT-LLM] TensorRT-LLM version: 1.3.0rc15\n")
	written := int64(n)
	for i := 0; written < size; i++ {
		n, _ := fmt.Fprintf(bw, "[TRT-LLM] [RANK %d] [E] Error in event loop: boom %d\nTraceback (most recent call last):\n", i%ranks, i)
		written += int64(n)
		for k := range 12 {
			n, _ := fmt.Fprintf(bw, "  File \"/usr/local/lib/python3.12/dist-packages/tensorrt_llm/_torch/pyexecutor/py_executor.py\", line %d, in _executor_loop\n    self._some_call_%d(arg)\n", 1000+k, k)
			written += int64(n)
		}
		n, _ = fmt.Fprintf(bw, "RuntimeError: [TensorRT-LLM][ERROR] Assertion failed: something %d\n", i)
		written += int64(n)
	}
	return bw.Flush()
}

// BenchmarkCheckLogs parses a generated 200 MB, 8-rank log (written to a temp
// directory at bench time, never committed); MB/s is printed.
func BenchmarkCheckLogs(b *testing.B) {
	path := filepath.Join(b.TempDir(), "job.log")
	f, err := os.Create(path)
	if err != nil {
		b.Fatal(err)
	}
	if err := writeJobLog(f, 200<<20, 8); err != nil {
		b.Fatal(err)
	}
	st, _ := f.Stat()
	f.Close()
	b.SetBytes(st.Size())
	b.ResetTimer()
	for b.Loop() {
		f, err := os.Open(path)
		if err != nil {
			b.Fatal(err)
		}
		lg, err := Parse("job.log", f)
		f.Close()
		if err != nil || len(lg.Processes) != 8 {
			b.Fatalf("%v, %d processes", err, len(lg.Processes))
		}
	}
}

// BenchmarkCheckLogsFile is BenchmarkCheckLogs through ParseFile, the path
// check-logs takes for a file: mapped a window at a time.
func BenchmarkCheckLogsFile(b *testing.B) {
	path := filepath.Join(b.TempDir(), "job.log")
	f, err := os.Create(path)
	if err != nil {
		b.Fatal(err)
	}
	if err := writeJobLog(f, 200<<20, 8); err != nil {
		b.Fatal(err)
	}
	st, _ := f.Stat()
	f.Close()
	b.SetBytes(st.Size())
	b.ResetTimer()
	for b.Loop() {
		f, err := os.Open(path)
		if err != nil {
			b.Fatal(err)
		}
		lg, err := ParseFile("job.log", f, st.Size())
		f.Close()
		if err != nil || len(lg.Processes) != 8 {
			b.Fatalf("%v, %d processes", err, len(lg.Processes))
		}
	}
}

// TestWriteBenchLog writes the benchmark's log to $XCVR_BENCH_LOG, for measuring
// xcvr check-logs against grep by hand (README), and 130 MiB of tracebacks
// (writeTracebackLog) to $XCVR_TRACEBACK_LOG, for measuring its memory; it
// does nothing otherwise.
func TestWriteBenchLog(t *testing.T) {
	logs := []struct {
		env   string
		write func(io.Writer) error
	}{
		{"XCVR_BENCH_LOG", func(w io.Writer) error { return writeJobLog(w, 200<<20, 8) }},
		{"XCVR_TRACEBACK_LOG", func(w io.Writer) error { return writeTracebackLog(w, 130<<20, 8) }},
	}
	wrote := false
	for _, l := range logs {
		path := os.Getenv(l.env)
		if path == "" {
			continue
		}
		f, err := os.Create(path)
		if err != nil {
			t.Fatal(err)
		}
		if err := l.write(f); err != nil {
			t.Fatal(err)
		}
		if err := f.Close(); err != nil {
			t.Fatal(err)
		}
		wrote = true
	}
	if !wrote {
		t.Skip("set XCVR_BENCH_LOG=FILE to write the 200 MB benchmark log, XCVR_TRACEBACK_LOG=FILE for 130 MiB of tracebacks")
	}
}

// TestSkippedLinesDoNotAllocate: the scanner's allocations do not grow with the
// number of lines it skips (only lines passed on cost a string).
func TestSkippedLinesDoNotAllocate(t *testing.T) {
	var b bytes.Buffer
	if err := writeJobLog(&b, 4<<20, 8); err != nil {
		t.Fatal(err)
	}
	data := b.Bytes()
	cut := func(n int) []byte { // the last n lines: noise only
		end := len(data)
		i := end
		for ; n > 0 && i > 0; n-- {
			i = bytes.LastIndexByte(data[:i-1], '\n') + 1
		}
		return data[i:end]
	}
	sc := newScanner()
	var res chunkResult
	allocs := func(chunk []byte) float64 {
		return testing.AllocsPerRun(5, func() {
			res.events = res.events[:0]
			sc.scan(chunk, &res)
		})
	}
	small, large := allocs(cut(100)), allocs(cut(20000))
	if large > small {
		t.Errorf("scanning 20,000 skipped lines allocates %.0f times, 100 lines %.0f: allocation per skipped line", large, small)
	}
}

// BenchmarkScan is the scanner alone on one core, over 64 MB of the
// benchmark log in mapping-sized windows (the per-line cost of a large log).
func BenchmarkScan(b *testing.B) {
	buf := bytes.NewBuffer(make([]byte, 0, 65<<20))
	if err := writeJobLog(buf, 64<<20, 8); err != nil {
		b.Fatal(err)
	}
	data := buf.Bytes()
	b.ResetTimer()
	b.SetBytes(int64(len(data)))
	sc := newScanner()
	var res chunkResult
	for b.Loop() {
		for rest := data; len(rest) > 0; {
			n := min(len(rest), mapChunk())
			if i := bytes.LastIndexByte(rest[:n], '\n'); i >= 0 && n < len(rest) {
				n = i + 1
			}
			res = chunkResult{events: res.events[:0]}
			sc.scan(rest[:n], &res)
			rest = rest[n:]
		}
	}
}

// BenchmarkSmallLog is the work check-logs does for each log of a job
// directory of one-line per-rank logs, besides the system calls: parse,
// judge, render.
func BenchmarkSmallLog(b *testing.B) {
	data := []byte("[TRT-LLM] [RANK 7] [I] Using KvCacheTransceiverV2\n")
	var out bytes.Buffer
	for b.Loop() {
		lg, err := parseSmall("d000/rank-7.log", data)
		if err != nil {
			b.Fatal(err)
		}
		v := Judge(lg, nil, true)
		out.Reset()
		WriteText(&out, v, Prediction{}, true)
	}
}

// BenchmarkScanUnshaped is BenchmarkScan on a log whose line prefixes never
// repeat (each line's 1.3-style module tag named anew, letters and all, for
// one process): the worst case of the shape memo (shapes.go), which then
// only costs.
func BenchmarkScanUnshaped(b *testing.B) {
	var buf bytes.Buffer
	rng := uint64(1)
	for buf.Len() < 16<<20 {
		rng = rng*6364136223846793005 + 1442695040888963407
		fmt.Fprintf(&buf, "1: [09/12/2026-14:02:%02d] [TRT-LLM] [I] [m%s] [RANK 1] request %d: context chunk 3/4 scheduled\n",
			rng%60, strconv.FormatUint(rng>>40, 36), rng%1000)
	}
	data := buf.Bytes()
	b.SetBytes(int64(len(data)))
	sc := newScanner()
	var res chunkResult
	for b.Loop() {
		res.events = res.events[:0]
		sc.scan(data, &res)
	}
}

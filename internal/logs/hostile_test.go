package logs

import (
	"fmt"
	"strings"
	"testing"
)

// hostileRecord is a Dynamo JSONL record whose message is k "\n" escapes
// (k lines, each empty but for a letter).
func hostileRecord(k int) string {
	return `{"time":"2026-01-01T00:00:00Z","level":"ERROR","target":"x","message":"` + strings.Repeat(`a\n`, k) + `"}`
}

// TestDynamoPiecesLinear: a Dynamo record behind a long prefix whose message
// holds many lines is read in work linear in the line: each of its lines is
// read behind the prefix again, so without pieceWork's bound a line of 4n
// bytes cost 16 times one of n (a 64 KiB line, 0.5 GB copied; 20 lines of a
// stern pod name of 8 KiB before 4,000 escapes: 631 MB allocated against 44
// MB for a quarter of them). The work is counted: the bytes the scanner read
// for the lines it passed on (the prefix and the piece, each), per byte of
// the line, at two sizes.
func TestDynamoPiecesLinear(t *testing.T) {
	prefixes := map[string]func(k int) string{
		"blanks and srun's label": func(k int) string { return strings.Repeat(" ", 3*k) + "0: " },
		"kubectl's pod":           func(k int) string { return "[pod/a-" + strings.Repeat("a", 3*k) + "/main] " },
		"stern's pod":             func(k int) string { return "a-" + strings.Repeat("a", 3*k) + " main " },
	}
	for name, pfx := range prefixes {
		perByte := func(k int) float64 {
			line := pfx(k) + hostileRecord(k)
			sc := newScanner()
			var res chunkResult
			sc.scan([]byte(line+"\n"), &res)
			if len(res.events) == 0 {
				t.Fatalf("%s: nothing passed on", name)
			}
			w := 0
			for _, ev := range res.events {
				w += len(pfx(k)) + len(ev.msg)
			}
			return float64(w) / float64(len(line))
		}
		if w1, w2 := perByte(200), perByte(800); w2 > 2*w1+1 {
			t.Errorf("%s: %.0f bytes read per byte of a line, %.0f for one 4 times as long", name, w1, w2)
		}
	}
	// A record of a traceback's lines behind a prefix is still read whole.
	var tb strings.Builder
	tb.WriteString("Traceback (most recent call last):")
	for i := range 200 {
		fmt.Fprintf(&tb, `\n  File \"/x/m%d.py\", line %d, in f`, i, i)
	}
	tb.WriteString(`\nRuntimeError: boom`)
	line := "[pod/decode-0/main] " + `{"time":"2026-01-01T00:00:00Z","level":"ERROR","target":"x","message":"` + tb.String() + `"}`
	sc := newScanner()
	var res chunkResult
	sc.scan([]byte(line+"\n"), &res)
	if len(res.events) != 202 || !strings.HasPrefix(res.events[201].msg, "RuntimeError: boom") {
		t.Errorf("%d events, the last %q", len(res.events), res.events[len(res.events)-1].msg)
	}
}

// TestDynamoEmptyLevel: a Dynamo JSONL record whose level is empty
// ("level":"") is read, its level five blanks as tracing right-aligns one,
// alone or behind a collector's prefix, with several lines or one: the
// padding took five blanks from a string of four and panicked (found by
// FuzzParse).
func TestDynamoEmptyLevel(t *testing.T) {
	const rec = `{"time":"2026-01-10T12:00:05Z","level":"","target":"main.worker","message":"Failed to start\nTraceback (most recent call last):\n  File \"/x/tensorrt_llm/executor/worker.py\", line 1, in f\nValueError: boom"}`
	for _, in := range []string{
		`{"time":"","level":"","target":"","message":"",0`,
		`{"time":"","level":"","target":"","message":""}`,
		rec,
		"[pod/prefill-0/main] " + rec,
		"prefill-0 main " + rec,
	} {
		checkSame(t, []byte(in+"\n"), 1)
	}
	lg, err := Parse("f.log", strings.NewReader("[pod/prefill-0/main] "+rec+"\n"))
	if err != nil || len(lg.Processes) != 1 || lg.Processes[0].Outcome() != "ERROR" {
		t.Fatalf("%v %s %+v", err, sources(lg), lg.Processes)
	}
}

// TestDynamoRecordTextIsNotTagged: the lines of a Dynamo JSONL record's
// message after its first are its own text (a traceback, or what a request
// sent, logged in a warning): TensorRT-LLM's tag or PyTorch's "[rankN]: "
// there is not read, so a request's text cannot make a serving worker's
// start-up fail or make a process of its own. The record's first line's tag
// is read as before.
func TestDynamoRecordTextIsNotTagged(t *testing.T) {
	const up = `{"time":"2026-01-10T12:00:05Z","level":"INFO","target":"logger.log","message":"[TRT-LLM] [I] Using KvCacheTransceiverV2"}` + "\n" +
		`{"time":"2026-01-10T12:00:09Z","level":"INFO","target":"llm_worker.init_llm_worker","message":"Set runtime config max_num_seqs: 256"}` + "\n"
	for _, injected := range []string{
		`[TRT-LLM] [E] Failed to initialize executor on rank 0: injected`,
		`[TRT-LLM] [RANK 3] [E] Failed to initialize executor on rank 3: injected`,
		`[TensorRT-LLM][RANK 1][ERROR] injected`,
		`[rank2]: RuntimeError: injected`,
		`ERROR [TRT-LLM] Failed to initialize executor on rank 0: injected`,
	} {
		warn := `{"time":"2026-01-10T12:00:19Z","level":"WARN","target":"handler_base.generate","message":"Rejected request 7: prompt 'hi\n` + injected + `\nbye' too long"}`
		for _, prefix := range []string{"", "[pod/decode-0/main] ", "decode-0 main "} {
			var b strings.Builder
			for _, l := range strings.SplitAfter(up+warn+"\n", "\n") {
				if l != "" {
					b.WriteString(prefix + l)
				}
			}
			in := b.String()
			checkSame(t, []byte(in), 1)
			lg, err := Parse("f.log", strings.NewReader(in))
			if err != nil || len(lg.Processes) != 1 || lg.Processes[0].Outcome() != "PYTHON" || lg.Processes[0].Error != "" {
				t.Errorf("%q behind %q: %s %q %q", injected, prefix, sources(lg), lg.Processes[0].Outcome(), lg.Processes[0].Error)
			}
		}
	}
	// The first line's tag is read: a record of TensorRT-LLM's failure.
	lg, _ := Parse("f.log", strings.NewReader(`[pod/decode-0/main] {"time":"2026-01-10T12:00:05Z","level":"ERROR","target":"logger.log","message":"[TRT-LLM] [RANK 1] [E] Failed to initialize executor on rank 1: boom\nTraceback (most recent call last):\nValueError: boom"}`+"\n"))
	if len(lg.Processes) != 1 || lg.Processes[0].Outcome() != "ERROR" || lg.Processes[0].Source != "pod/decode-0/main rank 1" {
		t.Errorf("first line's tag: %s %+v", sources(lg), lg.Processes)
	}
}

// TestNoteNamesCut: a note that repeats a name from the log (the NIXL
// agent's address, a library the loader or PyTorch's ABI could not find)
// holds at most maxNameBytes of it, cut with the mark as a message is: the
// line's own text was already cut to maxMessageBytes, the note held all 50
// KB of a hostile address or library name.
func TestNoteNamesCut(t *testing.T) {
	long := strings.Repeat("9", 50000)
	const tb = "Traceback (most recent call last):\n  File \"/usr/local/lib/python3.12/dist-packages/tensorrt_llm/__init__.py\", line 70, in <module>\n"
	for name, in := range map[string]string{
		"address":   "[TensorRT-LLM][INFO] NixlTransferAgent::NixlTransferAgent mAddress: 169.254." + long + ":1\n",
		"missing":   tb + "ImportError: lib" + long + ".so.1: cannot open shared object file: No such file or directory\n",
		"torch abi": tb + "ImportError: /x/lib" + long + ".so: undefined symbol: _ZN3c104cuda9SetDeviceEi\n",
	} {
		lg, _ := Parse("f.log", strings.NewReader(in))
		if len(lg.Processes) != 1 || len(lg.Processes[0].Implications) == 0 {
			t.Fatalf("%s: %s %+v", name, sources(lg), lg.Processes)
		}
		for _, im := range lg.Processes[0].Implications {
			if len(im.Text) > maxNameBytes+cutMarkRoom+600 || !strings.Contains(im.Text, "more bytes cut by xcvr") {
				t.Errorf("%s: a note of %d bytes: %.120q", name, len(im.Text), im.Text)
			}
		}
	}
}

// TestTagAfterCarriageReturn: a tagged line printed after a progress bar
// that tqdm redrew or cleared with carriage returns, without a newline
// ("Loading weights: 50%|#####     | 1/2\r          \r[TRT-LLM] [RANK 1] [E]
// …", or a line that starts "\r[TRT-LLM]"), reads as the line a terminal
// shows: rank 1's start-up failure was lost and the log exited 0 beside a
// healthy rank 0. Equal to the reference parser, late in a chunk.
func TestTagAfterCarriageReturn(t *testing.T) {
	const fail = "[TRT-LLM] [RANK 1] [E] Failed to initialize executor on rank 1: CUDA out of memory"
	for _, before := range []string{"\r", "\r\r", "Loading weights: 50%|#####     | 1/2\r", "Loading weights: 50%|#####     | 1/2\r                                        \r"} {
		in := "[TRT-LLM] [RANK 0] [I] Using KvCacheTransceiverV2\n[TRT-LLM] [RANK 1] [I] Starting TensorRT-LLM init.\n" + before + fail + "\n"
		lg, _ := Parse("f.log", strings.NewReader(in))
		if len(lg.Processes) != 2 || lg.Processes[1].Outcome() != "ERROR" || !strings.Contains(lg.Processes[1].Error, "CUDA out of memory") {
			t.Errorf("%q: %s", before, sources(lg))
		}
		checkSame(t, []byte(in), 1)
		checkSame(t, []byte(strings.Repeat("[TRT-LLM] [RANK 0] [I] iter = 1\n", 3000)+in), 2)
	}
}

// TestTwoTransceiversNotedOnce: two servers' lines interleaved under one key
// change the transceiver's kind at every other line; the note that two
// processes share the key is said once, so the notes that come after it (the
// NIXL agent's address, Ray's deduplication) still have room: 40 changes
// made 32 notes and dropped the rest.
func TestTwoTransceiversNotedOnce(t *testing.T) {
	var b strings.Builder
	for range 40 {
		b.WriteString("[TensorRT-LLM][INFO] UCX Connection Manager created\n[TRT-LLM] [I] Using KvCacheTransceiverV2\n")
	}
	b.WriteString("[TensorRT-LLM][INFO] NixlTransferAgent::NixlTransferAgent mAddress: 169.254.1.1:5\n")
	lg, _ := Parse("f.log", strings.NewReader(b.String()))
	if len(lg.Processes) != 1 {
		t.Fatalf("%s", sources(lg))
	}
	two, nixl := 0, 0
	for _, im := range lg.Processes[0].Implications {
		if strings.Contains(im.Text, "two processes' lines share this log's key") {
			two++
		}
		if strings.Contains(im.Text, "link-local address") {
			nixl++
		}
	}
	if two != 1 || nixl != 1 || lg.Processes[0].ImplicationsDropped != 0 {
		t.Errorf("%d notes of two transceivers, %d of the address, %d dropped", two, nixl, lg.Processes[0].ImplicationsDropped)
	}
	checkSame(t, []byte(b.String()), 1)
}

// TestCRIPiecesBounded: a line of a kubelet's log file cut in pieces is
// joined in at most maxLineBytes, however many pieces it has (a hostile or
// broken file: a stream's P pieces without end), the pieces past it read
// and dropped; the joined line is one event, and a file that ends inside
// it reads it at its end, as the reference parser does.
func TestCRIPiecesBounded(t *testing.T) {
	piece := "2026-01-10T12:00:06.1Z stdout P " + strings.Repeat("x", 16<<10) + "\n"
	data := "2026-01-10T12:00:06Z stdout P [TRT-LLM] [E] Failed to initialize executor on rank 0: \n" + strings.Repeat(piece, 200)
	sc := newScanner()
	var res chunkResult
	sc.scan([]byte(data), &res)
	if !res.split.open[0] || len(res.split.buf[0]) != maxLineBytes || len(res.events) != 0 || res.lines != 201 {
		t.Errorf("open %v, %d bytes joined, %d events, %d lines", res.split.open[0], len(res.split.buf[0]), len(res.events), res.lines)
	}
	res = chunkResult{}
	sc.scan([]byte(data+"2026-01-10T12:00:07Z stdout F end\n"), &res)
	if res.split.pending() || len(res.events) != 1 || res.events[0].n != 202 || len(res.events[0].msg) > maxLineBytes {
		t.Errorf("pending %v, %d events", res.split.pending(), len(res.events))
	}
	for s := uint64(0); s < 4; s++ {
		checkSame(t, []byte("2026-01-10T12:00:06Z stdout P [TRT-LLM] [E] Failed to initialize executor on rank 0: \n"+strings.Repeat(piece, 6)), s)
	}
	lg, _ := Parse("f.log", strings.NewReader(data))
	if len(lg.Processes) != 1 || lg.Processes[0].Outcome() != "ERROR" || lg.Lines != 201 {
		t.Errorf("%s: %d lines", sources(lg), lg.Lines)
	}
}

package logs

import (
	"bytes"
	"math/rand/v2"
	"strconv"
	"testing"
)

// TestShapesReadAsPrefix: a line the memo finds a shape for reads as
// readPrefix reads it (key, tag, level, message), over generated lines in
// the shapes of real logs with their digits varied: task labels, ranks,
// pids and pod numbers of different lengths, timestamps of each layout,
// tags with and without rank and module, messages that start with bytes a
// tag could take. Shapes are learnt at every line (no wait), so most lines
// are checked against a shape learnt from another line.
func TestShapesReadAsPrefix(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 7))
	// A style fixes which piece each part of a line takes, as a log's
	// launcher and logger do; a run of lines shares a few styles, and only
	// their digits and messages vary.
	var styles [3]uint64
	var style *rand.Rand
	pick := func(xs ...string) string { return xs[style.IntN(len(xs))] }
	// Digits: mostly one, sometimes more (a shape learnt from a line
	// with one must not read a line with two).
	num := func() string { return strconv.Itoa([]int{0, 3, 7, 1, 5, 9, 12, 99, 4711, 65535}[rng.IntN(10)]) }
	d2 := func() string { return strconv.Itoa(10 + rng.IntN(90)) }
	memo, ref := newScanner(), newScanner()
	found, plain := 0, 0
	var stats [4]int
	n := 60000
	if testing.Short() {
		n = 5000
	}
	for i := 0; i < n; i++ {
		if i%300 == 0 {
			for k := range styles {
				styles[k] = rng.Uint64()
			}
		}
		style = rand.New(rand.NewPCG(styles[rng.IntN(len(styles))], 1))
		var b bytes.Buffer
		r := num()
		b.WriteString(pick("", "", r+": ", " "+r+": ", "["+r+","+num()+"]<stdout>:", "[pod/ctx-"+r+"/main] ", "ctx-"+r+"  | ",
			"(RayWorkerWrapper pid="+num()+", ip=10.0.0."+r+") ", "(EngineCore_DP"+r+" pid="+num()+") (RayWorkerWrapper pid="+num()+", ip=10.0.0."+r+") ",
			"(ServeReplica:default:M pid="+num()+") (pid="+r+")", "(W[rank="+r+"] pid="+num()+") ", "(raylet, ip=10.0.0."+r+") ", "(autoscaler +"+r+"m"+d2()+"s) ", "Dec 04 21:"+d2()+":"+d2()+" gpu-"+r+" trtllm-serve["+num()+"]: ",
			"trtllm-ctx-"+r+" main ", "dynamo trtllm-ctx-"+r+" main ", "> ", "2026-09-15T03:52:"+d2()+"."+num()+"Z stdout F "))
		b.WriteString(pick("", "", "", "[default"+r+"]:", "[gpu"+num()+"x"+r+"]:"))
		b.WriteString(pick("", "[09/15/2026-03:"+d2()+":"+d2()+"] ", "2026-09-15T03:52:"+d2()+"Z ", "2026-09-15 03:52:"+d2()+",9"+r+" "))
		b.WriteString(pick("", r+": ", "[rank"+r+"]: "))
		lv := pick("I", "W", "E", "V", "F")
		b.WriteString(pick("[TRT-LLM] [RANK "+r+"] ["+lv+"] ", "[TRT-LLM] ["+lv+"] ", "[TRT-LLM] ["+lv+"] [executor] ",
			"[TRT-LLM] ["+lv+"] [_torch  ] [RANK "+r+"] ", "[TRT-LLM] [MPI_Rank "+r+"] ["+lv+"] ", "[TRT-LLM] [RANK "+r+"]  ["+lv+"]\t",
			"[TensorRT-LLM]["+pick("INFO", "WARNING", "ERROR", "DEBUG")+"] ", "[TensorRT-LLM][RANK "+r+"][INFO] ", "[TensorRT-LLM][ERROR]",
			"[_torch][RANK "+r+"] ", "[executor] [RANK "+r+"]", "[TRT-LLM] ", "[TensorRT-LLM][I] ", "", "", "", ""))
		msgs := []string{"iter = " + num() + ", global_rank = 0", "Using KvCacheTransceiverV2", "[x] y", " two blanks", "\tx", "[RANK 3] z", "9 lives", "request " + num(), "",
			"INFO:     10.0.0." + num() + ":51234 - \"POST /v1/completions HTTP/1.1\" 200 OK", "x [TRT-LLM] [I] y", "INFO:TRT-LLM:[TRT-LLM] [W] z",
			"stdout F x", "sx", "> q", "TensorRT-LLM version: 1.3.0",
			// stern's bare lines (sternBare), and words that start as they do.
			"Traceback (most recent call last):", "Tomorrow", "ValueError: x", "Valid", "E0421 x", "Ex", "[TensorRT-LLM] TensorRT-LLM version: 1.3.0", "x: [TensorRT-LLM] TensorRT-LLM version: 1.2.0"}
		b.WriteString(msgs[rng.IntN(len(msgs))])
		line := b.Bytes()
		if rng.IntN(20) == 0 {
			// A digit turned into a byte whose high nibble is a digit's
			// (':' to '?') or just below ('/'): not a digit to any reader.
			if k := bytes.IndexAny(line, "0123456789"); k >= 0 {
				line[k] = ":;<=>?/"[rng.IntN(7)]
			}
		}

		tagged, py, level, msg, kind := ref.readPrefix(line)
		want := string(ref.key)
		if sh := memo.shapes.find(line); sh != nil {
			found++
			key := string(sh.keyOf(nil, line))
			if (sh.kind == shapeTag) != tagged || key != want || sh.py != py || sh.level != level || string(line[sh.n:]) != string(msg) {
				t.Fatalf("%q: the shape reads tagged %v key %q py %v level %q msg %q; readPrefix: tagged %v key %q py %v level %q msg %q",
					line, sh.kind == shapeTag, key, sh.py, sh.level, line[sh.n:], tagged, want, py, level, msg)
			}
			plain += map[bool]int{true: 1}[!tagged]
			continue
		}
		memo.readPrefix(line)
		switch pn := len(line) - len(msg); {
		case kind == shapeNone:
			stats[0]++
		case pn > maxShape:
			stats[1]++
		case len(msg) == 0 || msgMayExtend(msg[0]):
			stats[2]++
		default:
			stats[3]++
		}
		if kind != shapeNone {
			memo.shapes.wait = 0
			memo.learnShape(line, len(line)-len(msg), kind, py, level)
		}
	}
	t.Logf("%d of %d lines read through a shape (%d of them untagged); not found: %v (no shape, too long, message may extend, other)", found, n, plain, stats)
	if found < n/10 || plain < n/100 {
		t.Fatalf("only %d of %d lines found a shape: the test checks too little", found, n)
	}
}

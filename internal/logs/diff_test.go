package logs

import (
	"bytes"
	"encoding/json"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// summary is everything a parse found, for comparing two parsers.
func summary(t *testing.T, lg *Log) string {
	t.Helper()
	b, err := json.Marshal(struct {
		R      ReportJSON
		Lines  int
		Stated []StatedVersion
		Drops  []int
	}{JSON(lg, nil, nil), lg.Lines, lg.Stated, drops(lg)})
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func drops(lg *Log) []int {
	var d []int
	for _, p := range lg.Processes {
		d = append(d, p.LinesDropped, p.ImplicationsDropped)
	}
	return d
}

// checkSame parses data with the reference parser, with Parse cut into tiny
// chunks (so that every chunk boundary case is met), and with a Parser fed in
// random pieces; all three must find the same.
func checkSame(t *testing.T, data []byte, seed uint64) {
	t.Helper()
	refData := bytes.TrimPrefix(data, bom)
	want, err := parseReference("f.log", bytes.NewReader(refData))
	if err != nil {
		t.Fatal(err)
	}
	wantS := summary(t, want)

	old := chunkSize
	defer func() { chunkSize = old }()
	rng := rand.New(rand.NewPCG(seed, 7))
	chunkSize = 1 + rng.IntN(200)
	got, err := Parse("f.log", bytes.NewReader(data))
	if err == ErrBinary {
		return
	}
	if err != nil {
		t.Fatal(err)
	}
	if g := summary(t, got); g != wantS {
		t.Fatalf("Parse (chunks of %d bytes) differs from the reference:\n got %s\nwant %s", chunkSize, g, wantS)
	}

	p := NewParser("f.log")
	for rest := data; len(rest) > 0; {
		k := min(len(rest), 1+rng.IntN(300))
		if _, err := p.Write(rest[:k]); err != nil {
			t.Fatal(err)
		}
		rest = rest[k:]
	}
	lg, err := p.Close()
	if err != nil {
		t.Fatal(err)
	}
	if g := summary(t, lg); g != wantS {
		t.Fatalf("Parser (random pieces) differs from the reference:\n got %s\nwant %s", g, wantS)
	}
}

// TestParseMatchesReference: the fast parser finds exactly what the old
// regexp-based one found, on every test log, whole and interleaved.
func TestParseMatchesReference(t *testing.T) {
	files, _ := filepath.Glob(filepath.Join("testdata", "*.log"))
	var all []byte
	for i, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for s := uint64(0); s < 20; s++ {
			checkSame(t, data, s+uint64(i)*100)
		}
		all = append(all, data...)
	}
	for s := uint64(0); s < 50; s++ {
		checkSame(t, all, s)
	}
	// A pydantic error cut by a chunk boundary, colours, CRLF, a BOM.
	checkSame(t, []byte("\xef\xbb\xbf\x1b]0;title\x07[TRT-LLM] [I] x\r\n"+
		"pydantic_core._pydantic_core.ValidationError: 1 validation error for TorchLlmArgs\r\n"+
		"cache_transceiver_config.backend\n  Input should be 'UCX'\n[TRT-LLM] [I] Using KvCacheTransceiverV2"), 3)
}

// FuzzParseMatchesReference is the same property on any input.
func FuzzParseMatchesReference(f *testing.F) {
	files, _ := filepath.Glob(filepath.Join("testdata", "*.log"))
	for _, p := range files {
		if data, err := os.ReadFile(p); err == nil {
			f.Add(data, uint64(len(data)))
		}
	}
	f.Add([]byte(" 0: 2026-09-15T03:52:12.905+05:30\t[09/15/2026-03:52:10]  3: [TensorRT-LLM][RANK 2][INFO] Resolved transceiver_runtime='auto' to None for X.\n[TensorRT-LLM] TensorRT LLM version: 1.4.0rc1 (backend: cuda)\n"), uint64(5))
	f.Fuzz(func(t *testing.T, data []byte, seed uint64) {
		if len(data) > 1<<16 || strings.Count(string(data), "\n") > 2000 {
			return
		}
		checkSame(t, data, seed)
	})
}

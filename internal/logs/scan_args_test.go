package logs

import (
	"bytes"
	"strings"
	"testing"
)

// TestHasArgsName: the search by the name's 'v' finds what bytes.Contains
// finds, wherever the name lies and whatever 'v's surround it.
func TestHasArgsName(t *testing.T) {
	cases := []string{
		"", "v", argsName, argsName[:len(argsName)-1], argsName[1:],
		"'" + argsName + "': {'backend': 'UCX'}",
		"prev_device_step_time = 1, cache_transceiver_config=CacheTransceiverConfig(backend='NIXL')",
		"vvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvv" + argsName,
		strings.Repeat("cache_transceiver_confi", 3) + "v" + argsName + "v",
		"cache_transceiver_conf" + "ig", "xcache_transceiver_configx", "cache_transceivercconfig",
		"iter = 4, global_rank = 0, prev_device_step_time = 20.9ms, states = {'num_ctx_requests': 0}",
	}
	for _, c := range cases {
		for cut := 0; cut <= len(c); cut++ { // every prefix: the name cut at each byte
			m := []byte(c[:cut])
			if got, want := hasArgsName(m), bytes.Contains(m, []byte(argsName)); got != want {
				t.Errorf("hasArgsName(%q) = %v, bytes.Contains says %v", m, got, want)
			}
		}
	}
}

// FuzzHasArgsName checks hasArgsName against bytes.Contains on any input.
func FuzzHasArgsName(f *testing.F) {
	f.Add([]byte("x'" + argsName + "'"))
	f.Fuzz(func(t *testing.T, b []byte) {
		if got, want := hasArgsName(b), bytes.Contains(b, []byte(argsName)); got != want {
			t.Fatalf("hasArgsName(%q) = %v, want %v", b, got, want)
		}
	})
}

// TestIterLineIsNoArgsDump: an iteration line is never read as an argument
// dump, whatever its text; the same text without the iteration line's head
// is one. (Both the scanner and classify skip the search in it: the
// differential tests keep them together.)
func TestIterLineIsNoArgsDump(t *testing.T) {
	dump := "'cache_transceiver_config': {'backend': 'UCX'}"
	for _, c := range []struct {
		msg  string
		iter bool
	}{
		{"iter = 4084, global_rank = 0, rank = 0, states = {" + dump + "}", true},
		{"iter = 0, global_rank = 3, " + dump, true},
		{"iter = , global_rank = 0, " + dump, false},
		{"iter = 12 global_rank = 0, " + dump, false},
		{"iter = 12, rank = 0, " + dump, false},
		{"iteration 12, global_rank = 0, " + dump, false},
		{"x iter = 12, global_rank = 0, " + dump, false},
		{"llm_args: {" + dump + "}", false},
	} {
		if got := iterHead(c.msg); got != c.iter {
			t.Errorf("iterHead(%q) = %v, want %v", c.msg, got, c.iter)
		}
		if got := iterHead([]byte(c.msg)); got != c.iter {
			t.Errorf("iterHead([]byte(%q)) = %v, want %v", c.msg, got, c.iter)
		}
		k, _ := classify("INFO", c.msg)
		if want := map[bool]lineKind{true: lineNone, false: lineArgs}[c.iter]; k != want {
			t.Errorf("classify(%q) = %v, want %v", c.msg, k, want)
		}
		if got := mayObserve([]byte(c.msg)); got == c.iter {
			t.Errorf("mayObserve(%q) = %v", c.msg, got)
		}
	}
}

package cli

import (
	"bytes"
	"os"
	"strings"
	"testing"
)

// "check-logs -" and "audit -" typed at a prompt, nothing piped in, waited in
// silence, as if hung. On a terminal (a real PTY here) they now say on stderr,
// before they wait, that they read standard input and how to end it; the
// input then ends as a terminal ends it (Ctrl-D at the start of a line). On a
// pipe they say nothing.
func TestStdinHintOnTerminal(t *testing.T) {
	cases := []struct {
		args []string
		hint string
		out  string
	}{
		{[]string{"check-logs", "-"}, "xcvr: reading a log from standard input (Ctrl-D on a new line ends it)\n",
			"stdin: 1 line, 0 process(es)"},
		{[]string{"audit", "-", "--trtllm", "1.3.0rc29"}, "xcvr: reading a deployment from standard input (Ctrl-D on a new line ends it)\n",
			"Not placed (1):\n  -:1: a YAML str, not a mapping"},
	}
	for _, c := range cases {
		t.Run(c.args[0]+" on a terminal", func(t *testing.T) {
			m, s := openPTY(t)
			var out bytes.Buffer
			var errb syncBuffer
			done := make(chan int, 1)
			go func() { done <- Main(c.args, s, &out, &errb, nil) }()
			// The hint is there while xcvr waits, before any input.
			waitFor(t, "the hint", func() bool { return errb.String() != "" })
			if got := errb.String(); got != c.hint {
				t.Fatalf("stderr %q, want %q", got, c.hint)
			}
			if _, err := m.Write([]byte("hello\n\x04")); err != nil {
				t.Fatal(err)
			}
			var code int
			waitFor(t, "the end of the input (Ctrl-D)", func() bool {
				select {
				case code = <-done:
					return true
				default:
					return false
				}
			})
			if code != 1 || !strings.Contains(out.String(), c.out) || errb.String() != c.hint {
				t.Errorf("exit %d, stderr %q, stdout:\n%s", code, errb.String(), out.String())
			}
		})
		t.Run(c.args[0]+" on a pipe", func(t *testing.T) {
			r, w, err := os.Pipe()
			if err != nil {
				t.Fatal(err)
			}
			defer r.Close()
			if _, err := w.WriteString("hello\n"); err != nil {
				t.Fatal(err)
			}
			w.Close()
			var out, errb bytes.Buffer
			code := Main(c.args, r, &out, &errb, nil)
			if code != 1 || errb.String() != "" || !strings.Contains(out.String(), c.out) {
				t.Errorf("exit %d, stderr %q, stdout:\n%s", code, errb.String(), out.String())
			}
		})
	}
}

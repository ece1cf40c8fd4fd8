package accessible

import (
	"context"
	"errors"
	"io"
	"strings"
	"testing"
	"time"

	"xcvr/internal/tour"
)

func runTour(t *testing.T, o TourOptions, input string) string {
	t.Helper()
	stops, err := tour.Builtin()
	if err != nil {
		t.Fatal(err)
	}
	var out strings.Builder
	o.Stops, o.In, o.Out, o.Step = stops, strings.NewReader(input), &out, true
	if err := Tour(context.Background(), o); err != nil {
		t.Fatalf("Tour: %v", err)
	}
	return out.String()
}

// On a raw terminal (a served session with -t) the tour reads \r-ended lines,
// ends every line with \r\n, echoes what is typed, and ctrl+c, ctrl+d and q
// end it as a reader expects.
func TestTourOnARawTerminal(t *testing.T) {
	for _, tc := range []struct {
		name, input string
		last, not   string
		tail        string
	}{
		{"Enter is \\r", "\r\r", "Tour 3/9", "Tour 4/9", "Input ended; 6 stops not shown."},
		{"q then Enter", "\rq\r", "Tour 2/9", "Tour 3/9", "Bye."},
		{"ctrl+c", "\r\x03", "Tour 2/9", "Tour 3/9", "Bye."},
		{"ctrl+d", "\r\x04", "Tour 2/9", "Tour 3/9", "Input ended; 7 stops not shown."},
		{"ctrl+d after a typed letter is no end", "x\x04\r\x04", "Tour 2/9", "Tour 3/9", "Input ended; 7 stops not shown."},
		{"an arrow key is not q", "\x1b[A\r\x1bOBq\r", "Tour 2/9", "Tour 3/9", "Bye."},
		{"to the end", strings.Repeat("\r", 8), "Tour 9/9", "Input ended", "That was the last stop."},
	} {
		out := runTour(t, TourOptions{CRLF: true, Echo: true}, tc.input)
		if !strings.Contains(out, tc.last) || strings.Contains(out, tc.not) || !strings.HasSuffix(out, tc.tail+"\r\n") {
			t.Errorf("%s: want up to %s, ending %q:\n%q", tc.name, tc.last, tc.tail, out[max(0, len(out)-300):])
		}
		if strings.Contains(strings.ReplaceAll(out, "\r\n", ""), "\n") {
			t.Errorf("%s: a bare \\n on a raw terminal", tc.name)
		}
		if strings.ContainsRune(out, 0x1b) || strings.Contains(out, "[A") {
			t.Errorf("%s: an escape sequence in the output", tc.name)
		}
	}
	if out := runTour(t, TourOptions{CRLF: true, Echo: true}, "\rq\r"); !strings.Contains(out, "or type q and Enter to leave: q\r\nBye.") {
		t.Errorf("q is not echoed:\n%q", out)
	}
}

// The served tour gives its commands as the session's own command lines,
// never as an xcvr the user may not have.
func TestTourCommandsAsTheSessionGivesThem(t *testing.T) {
	served := func(a []string) []string { return append([]string{"ssh", "HOST", "--", "--accessible"}, a[2:]...) }
	out := runTour(t, TourOptions{Command: served}, "q\n")
	for _, want := range []string{"This stop is: ssh HOST -- --accessible --clean-env --trtllm ", "Try: ssh HOST -- --accessible --clean-env "} {
		if !strings.Contains(out, want) {
			t.Errorf("lacks %q:\n%s", want, out)
		}
	}
	if strings.Contains(out, "xcvr explain") {
		t.Errorf("a served stop names xcvr explain:\n%s", out)
	}
}

// A line longer than MaxLine is cut, never held; a flood of lines beyond the
// burst waits its turn at LinesPerSecond.
func TestLineReaderBoundsLengthAndRate(t *testing.T) {
	huge := strings.Repeat("y", 10*MaxLine)
	r := newLineReader(context.Background(), strings.NewReader(huge+"\rnext\n"))
	if l, err := r.next(); err != nil || len(l) != MaxLine {
		t.Errorf("an overlong line: %d bytes, %v", len(l), err)
	}
	if l, err := r.next(); err != nil || l != "next" {
		t.Errorf("the line after it: %q, %v", l, err)
	}

	now := time.Unix(0, 0)
	var slept time.Duration
	const n = 1000
	r = newLineReader(context.Background(), strings.NewReader(strings.Repeat("\n", n)))
	r.now = func() time.Time { return now }
	r.sleep = func(_ context.Context, d time.Duration) error { slept += d; now = now.Add(d); return nil }
	for i := 0; i < n; i++ {
		if _, err := r.next(); err != nil {
			t.Fatal(err)
		}
	}
	want := time.Duration(n-LineBurst) * time.Second / LinesPerSecond
	if slept < want-time.Second || slept > want+time.Second {
		t.Errorf("%d lines at once waited %v in all, want about %v", n, slept, want)
	}
	if _, err := r.next(); !errors.Is(err, io.EOF) {
		t.Errorf("after the lines: %v", err)
	}

	// A paced reader whose session ends stops waiting.
	ctx, cancel := context.WithCancel(context.Background())
	r = newLineReader(ctx, strings.NewReader(strings.Repeat("\n", n)))
	r.tokens = 0
	cancel()
	if _, err := r.next(); !errors.Is(err, context.Canceled) {
		t.Errorf("a cancelled session's paced read: %v", err)
	}
}

// ctrl+c quits and ctrl+d ends the linear mode on a raw terminal too.
func TestLinearModeCtrlCAndCtrlD(t *testing.T) {
	for in, want := range map[string]string{"1.3.0rc22\x03": "^C\r\nBye.\r\n", "\x04": "\r\nBye.\r\n"} {
		if out := run(t, Options{CRLF: true, Echo: true}, in); !strings.HasSuffix(out, want) || strings.Contains(out, "1.3.0rc22 (era") {
			t.Errorf("%q: ends %q", in, out[max(0, len(out)-60):])
		}
	}
}

// An answer near a choice but not one gets the suggestion the command line
// gives; a version xcvr does not list also says which rules answer it, without
// the command line's --install advice.
func TestLinearModeSuggests(t *testing.T) {
	out := run(t, Options{}, "1.4.0rc5\nGptOssForCausalLm\nUCXX\npython\n\nq\n")
	for _, want := range []string{
		"Note: xcvr's rules end at 1.4.0rc4; 1.4.0rc5 is answered with them.\n",
		"Note: '1.4.0rc5' is not a release xcvr lists; did you mean 1.4.0rc4?\n",
		"Note: 'GptOssForCausalLm' is not an architecture xcvr's catalog lists; did you mean GptOssForCausalLM?\n",
		"Note: 'UCXX' is not a backend TensorRT-LLM accepts; did you mean UCX?\n",
		"Note: 'python' is not a transceiver_runtime TensorRT-LLM accepts; did you mean PYTHON?\n",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("lacks %q:\n%s", want, out)
		}
	}
	if strings.Contains(out, "--install") {
		t.Error("the linear mode gives the command line's --install advice")
	}
	// Exact choices and far-off names get no note.
	if out := run(t, Options{}, "1.3.0rc22\nLlamaForCausalLM\nUCX\nCPP\n\nq\n"); strings.Contains(out, "Note:") {
		t.Errorf("a note for exact choices:\n%s", out)
	}
	if out := run(t, Options{}, "\nSomethingElseEntirely\nq\n"); strings.Contains(out, "did you mean") {
		t.Errorf("a suggestion for a far-off name:\n%s", out)
	}
	// Nor for a release of a line the list has not reached (1.3.0 used to get
	// "did you mean 1.2.0?").
	if out := run(t, Options{}, "1.3.0\nq\n"); strings.Contains(out, "did you mean") || !strings.Contains(out, "answered with the rules of 1.3.0rc29") {
		t.Errorf("1.3.0:\n%s", out)
	}
}

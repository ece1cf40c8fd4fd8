package cli

import (
	"bytes"
	"strings"
	"testing"

	"xcvr/internal/tour"
	"xcvr/resolver"
)

// Every built-in stop's command shows that stop (the outcome the story
// claims), and its try command runs and changes something: the linear tour's
// instructions work where the explorer's keys do not exist.
func TestTourCommandsWork(t *testing.T) {
	stops, err := tour.Builtin()
	if err != nil {
		t.Fatal(err)
	}
	words := map[resolver.Outcome]string{
		resolver.OutcomePython: "Outcome: Python transceiver", resolver.OutcomeCPP: "Outcome: C++ transceiver",
		resolver.OutcomeDisabled: "Outcome: Disaggregation off", resolver.OutcomeError: "Outcome: Start-up fails",
	}
	for _, s := range stops {
		out, errOut, code := run(t, nil, s.Command()[1:]...)
		if code > 1 || !strings.Contains(out, words[s.Expect]) {
			t.Errorf("%s: %v exits %d without %q:\n%s%s", s.ID, s.Command(), code, words[s.Expect], out, errOut)
		}
		try := s.TryCommand()
		if try == nil {
			t.Errorf("%s: no try_flags: the linear tour has no edit to offer", s.ID)
			continue
		}
		tout, terr, tcode := run(t, nil, try[1:]...)
		if tcode > 1 || terr != "" || tout == out {
			t.Errorf("%s: try %v exits %d, stderr %q, same output: %v", s.ID, try, tcode, terr, tout == out)
		}
	}
}

// tour --accessible shows one stop at a time and waits for Enter; q leaves,
// and the end of input stops it, saying how many stops were not shown.
func TestTourAccessibleAdvancesOnEnter(t *testing.T) {
	for _, tc := range []struct {
		input     string
		last, not string
		tail      string
	}{
		{"\n", "Tour 2/9", "Tour 3/9", "Input ended; 7 stops not shown."},
		{"\nq\n", "Tour 2/9", "Tour 3/9", "Bye."},
		{strings.Repeat("\n", 8), "Tour 9/9", "Input ended", "That was the last stop."},
	} {
		var out, errb bytes.Buffer
		code := Main([]string{"tour", "--accessible"}, strings.NewReader(tc.input), &out, &errb, nil)
		s := out.String()
		if code != 0 || !strings.Contains(s, tc.last) || strings.Contains(s, tc.not) || !strings.HasSuffix(strings.TrimSpace(s), tc.tail) {
			t.Errorf("input %q: exit %d, want up to %s and %q at the end:\n%s", tc.input, code, tc.last, tc.tail, s[max(0, len(s)-400):])
		}
		if strings.Contains(s, "\x1b") || strings.Contains(s, "Try: tab") || strings.Contains(s, "Try: press") {
			t.Errorf("input %q: ANSI or an explorer key given as the thing to try", tc.input)
		}
		n, stops := strings.Count(s, "Press Enter for stop"), strings.Count(s, "\nTour ")+1
		if strings.Contains(s, "last stop") {
			stops-- // no prompt after the last
		}
		if n != stops {
			t.Errorf("input %q: %d prompts, want %d", tc.input, n, stops)
		}
	}
}

package cli

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
)

// TestWrapReport: at a terminal of 80 columns each line of the report breaks
// at a blank, its rest indented under its text, and no word is cut: one
// longer than a line (a path) is on a line of its own, whole, for the
// terminal to fold and its copy to join; the words are those of the report,
// in order.
func TestWrapReport(t *testing.T) {
	in := "real/trtllm-pr18373-ucx-tls-condensed.log: 7 lines, 2 process(es), 2 with transceiver lines\n" +
		"\n" +
		"rank 1: ERROR · Failed to initialize executor on rank 1: Assertion failed: status == NIXL_SUCCESS (.../nixl_utils/transferAgent.cpp:505)\n" +
		"      4 ERROR   registerMem: registration failed for the specified or all potential backends\n" +
		"  cause: Assertion failed: status == NIXL_SUCCESS (.../nixl_utils/transferAgent.cpp:505)\n" +
		"  → line 6: a NIXL call failed in the KV-cache transfer agent (transferAgent.cpp); NIXL's own error lines just before it say which and why\n" +
		"  ! 2× KV transfer timed out, first at line 16: /a/very/long/path/" + strings.Repeat("x", 120) + "\n" +
		"Start-up failed: rank 1.\n"
	got := string(wrapReport([]byte(in), 80))
	want := "real/trtllm-pr18373-ucx-tls-condensed.log: 7 lines, 2 process(es), 2 with\n" +
		"  transceiver lines\n" +
		"\n" +
		"rank 1: ERROR · Failed to initialize executor on rank 1: Assertion failed:\n" +
		"  status == NIXL_SUCCESS (.../nixl_utils/transferAgent.cpp:505)\n" +
		"      4 ERROR   registerMem: registration failed for the specified or all\n" +
		"                potential backends\n" +
		"  cause: Assertion failed: status == NIXL_SUCCESS\n" +
		"         (.../nixl_utils/transferAgent.cpp:505)\n" +
		"  → line 6: a NIXL call failed in the KV-cache transfer agent\n" +
		"    (transferAgent.cpp); NIXL's own error lines just before it say which and why\n" +
		"  ! 2× KV transfer timed out, first at line 16:\n" +
		"    /a/very/long/path/" + strings.Repeat("x", 120) + "\n" +
		"Start-up failed: rank 1.\n"
	if !strings.HasPrefix(got, want) {
		t.Errorf("wrapped:\n%s\nwant it to start:\n%s", got, want)
	}
	for _, l := range strings.Split(strings.TrimSuffix(got, "\n"), "\n") {
		if ansi.StringWidth(l) > 80 && len(strings.Fields(l)) > 1 {
			t.Errorf("line of %d cells: %q", ansi.StringWidth(l), l)
		}
	}
	if strings.Join(strings.Fields(got), "") != strings.Join(strings.Fields(in), "") {
		t.Errorf("words changed:\n%s", got)
	}
	if !strings.HasSuffix(got, "\nStart-up failed: rank 1.\n") {
		t.Errorf("a short line is not kept as it is:\n%s", got)
	}
}

// TestWrapLines: -f's text is wrapped a line at a time once its newline is
// written (its summary line is written in pieces, which must not each start
// a line), at the width the terminal has at that write (a window resized
// while following), and written whole at width 0.
func TestWrapLines(t *testing.T) {
	long := "══ 1 logs, 2 process(es), 2 with transceiver lines; 1 disagreement(s); 1 process(es) failed at start-up; exit 1"
	var out strings.Builder
	width := 60
	w := &wrapLines{w: &out, width: func() int { return width }}
	for _, step := range []struct {
		write, want string
	}{
		{"\n══ 1 logs, 2 process(es), 2 with transceiver lines", "\n"},
		{"; 1 disagreement(s)", "\n"},
		{"; 1 process(es) failed at start-up; exit 1\n", "\n══ 1 logs, 2 process(es), 2 with transceiver lines; 1\n  disagreement(s); 1 process(es) failed at start-up; exit 1\n"},
	} {
		if n, err := w.Write([]byte(step.write)); n != len(step.write) || err != nil {
			t.Fatalf("Write(%q) = %d, %v", step.write, n, err)
		}
		if out.String() != step.want {
			t.Errorf("after %q:\n%q\nwant\n%q", step.write, out.String(), step.want)
		}
	}
	for _, tc := range []struct {
		width int
		want  string
	}{
		{80, "══ 1 logs, 2 process(es), 2 with transceiver lines; 1 disagreement(s); 1\n  process(es) failed at start-up; exit 1\n"},
		{0, long + "\n"},
	} {
		out.Reset()
		width = tc.width
		w.Write([]byte(long + "\n"))
		if out.String() != tc.want {
			t.Errorf("at width %d:\n%q\nwant\n%q", tc.width, out.String(), tc.want)
		}
	}
}

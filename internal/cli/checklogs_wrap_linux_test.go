package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
)

// TestCheckLogsWrapsOnTerminal: on an 80-column terminal check-logs' report
// is word-wrapped (the terminal cut "potent" / "ial backends"); on a pipe each
// line stays whole.
func TestCheckLogsWrapsOnTerminal(t *testing.T) {
	log := filepath.Join("..", "logs", "testdata", "real", "trtllm-pr18373-ucx-tls-condensed.log")
	screen, _, code := runOnTTY(t, []string{"TERM=xterm-256color"}, "check-logs", log)
	if code != 1 {
		t.Errorf("exit %d", code)
	}
	screen = strings.ReplaceAll(screen, "\r\n", "\n")
	for _, l := range strings.Split(screen, "\n") {
		if ansi.StringWidth(l) > 80 {
			t.Errorf("a line of %d cells on an 80-column terminal: %q", ansi.StringWidth(l), l)
		}
	}
	if !strings.Contains(screen, "      4 ERROR   registerMem: registration failed for the specified or all\n                potential backends\n") {
		t.Errorf("not wrapped under the message:\n%s", screen)
	}
	out, _, _ := run(t, nil, "check-logs", log)
	if !strings.Contains(out, "      4 ERROR   registerMem: registration failed for the specified or all potential backends\n") {
		t.Errorf("wrapped on a pipe:\n%s", out)
	}
}

// runFollowOnTTY runs check-logs -f with stdout on an 80-column terminal (a
// PTY) until its end, as Ctrl-C ends it (runToEnd), and returns the screen.
func runFollowOnTTY(t *testing.T, args ...string) (screen string, code int) {
	t.Helper()
	s, got := capturePTY(t)
	var errb bytes.Buffer
	ctx, cancel := context.WithCancel(context.Background())
	cancel() // one poll of each log, then the end
	app := &appEnv{stdin: strings.NewReader(""), stdout: s, stderr: &errb, ctx: ctx}
	code = execute(newRootFor(app, args), app, args)
	s.Close()
	return strings.ReplaceAll(<-got, "\r\n", "\n"), code
}

// TestFollowWrapsOnTerminal: check-logs -f's text is word-wrapped on an
// 80-column terminal as the batch report is (the terminal cut "transc" /
// "eiver" mid-word at its edge), each line's rest under its text; on a pipe
// each line stays whole, for grep, and -o json is one object per line on a
// terminal too.
func TestFollowWrapsOnTerminal(t *testing.T) {
	log := filepath.Join("..", "logs", "testdata", "real", "dynamo-pr2278-transceiver-disabled.log")
	args := []string{"check-logs", "--clean-env", "-f", log}
	screen, code := runFollowOnTTY(t, args...)
	if code != 0 {
		t.Errorf("exit %d:\n%s", code, screen)
	}
	for _, l := range strings.Split(screen, "\n") {
		if ansi.StringWidth(l) > 80 {
			t.Errorf("a line of %d cells on an 80-column terminal: %q", ansi.StringWidth(l), l)
		}
	}
	const finding = "    ! 1× disaggregated request without a transceiver, first at line 1:\n" +
		"      AssertionError: kv_cache_transceiver is disabled, please set\n" +
		"      'cache_transceiver_config: backend:<backend_type>` in config file for\n" +
		"      disaggregated serving\n"
	if !strings.Contains(screen, finding) {
		t.Errorf("the finding is not wrapped under its words:\n%s", screen)
	}
	// The end (Ctrl-C, which the terminal echoes as "^C" where the next
	// line starts) starts at the first column.
	if !strings.Contains(screen, "\n\r"+log+": No process failed") {
		t.Errorf("the end does not return to the first column first:\n%q", screen)
	}
	out, _, _ := runToEnd(t, args...)
	if strings.Contains(out, "\r") {
		t.Errorf("a carriage return on a pipe:\n%q", out)
	}
	whole := strings.Join(strings.Fields(finding), " ") + "\n"
	if !strings.Contains(out, whole) {
		t.Errorf("wrapped on a pipe, want %q whole:\n%s", whole, out)
	}
	if strings.Join(strings.Fields(screen), " ") != strings.Join(strings.Fields(out), " ") {
		t.Errorf("the terminal's words are not the pipe's:\n%s\n--- pipe:\n%s", screen, out)
	}
	screen, _ = runFollowOnTTY(t, "check-logs", "--clean-env", "-f", "-o", "json", log)
	lines := strings.Split(strings.TrimSuffix(screen, "\n"), "\n")
	long := false
	for _, l := range lines {
		var v map[string]any
		if err := json.Unmarshal([]byte(l), &v); err != nil {
			t.Errorf("-o json on a terminal: a line is no JSON object (%v): %q", err, l)
		}
		long = long || ansi.StringWidth(l) > 80
	}
	if !long {
		t.Errorf("-o json: no line past 80 columns, so none shows it is not wrapped:\n%s", screen)
	}
}

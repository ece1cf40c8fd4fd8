package cli

import (
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

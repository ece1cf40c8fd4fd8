package ui

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
)

// TestStartNoticeShownUntilAKey checks the command line's notes (a --trtllm or
// --backend near a known one), printed on stderr before the explorer took the
// screen, are in its status area on the first frame, escaped, and go with the
// first key, as x's notice does.
func TestStartNoticeShownUntilAKey(t *testing.T) {
	note := "note: --backend 'UCXX' is not a backend TensorRT-LLM accepts; did you mean UCX?\x1b[2J"
	m := New(Options{Spec: testSpec(), Width: 80, Height: 24, Notice: note})
	screen := m.View().Content
	flat := strings.Join(strings.Fields(ansi.Strip(screen)), " ")
	if !strings.Contains(flat, "note: --backend 'UCXX' is not a backend TensorRT-LLM accepts; did you mean UCX?") {
		t.Fatalf("the first frame lacks the note:\n%s", screen)
	}
	if strings.Contains(screen, "\x1b[2J") {
		t.Errorf("the note's control sequence reached the screen")
	}
	m = keys(t, m, "down")
	if strings.Contains(strings.Join(strings.Fields(ansi.Strip(m.View().Content)), " "), "did you mean UCX?") {
		t.Errorf("the note stays after a key")
	}
}

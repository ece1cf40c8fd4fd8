package cli

import (
	"bytes"
	"io"
	"strings"
	"testing"

	"xcvr/internal/help"
)

// TestHelpTopics: every reference page prints with `xcvr help NAME`, exit 0,
// exactly as written; no page is shadowed by a command of the same name (cobra
// would print the command's help instead); an unknown topic is a usage error.
func TestHelpTopics(t *testing.T) {
	root := newRoot(&appEnv{})
	commands := map[string]bool{}
	for _, c := range root.Commands() {
		if c.Runnable() || c.HasSubCommands() {
			commands[c.Name()] = true
		}
	}
	for _, tp := range help.Topics() {
		if commands[tp.Name] {
			t.Errorf("topic %q has a command's name", tp.Name)
			continue
		}
		var out, errb bytes.Buffer
		code := Main([]string{"help", tp.Name}, strings.NewReader(""), &out, &errb, nil)
		if code != 0 || strings.TrimSpace(out.String()) != strings.TrimSpace(tp.Body) {
			t.Errorf("help %s: exit %d, stdout starts %.80q, stderr %q", tp.Name, code, out.String(), errb.String())
		}
	}
	var out bytes.Buffer
	if code := Main([]string{"help"}, strings.NewReader(""), &out, io.Discard, nil); code != 0 ||
		!strings.Contains(out.String(), "Additional help topics:") || !strings.Contains(out.String(), "xcvr security") {
		t.Errorf("help: exit %d, the topics are not listed:\n%s", code, out.String())
	}
	if code := Main([]string{"help", "no-such-topic"}, strings.NewReader(""), io.Discard, io.Discard, nil); code != exitUsage {
		t.Errorf("help no-such-topic: exit %d, want %d", code, exitUsage)
	}
}

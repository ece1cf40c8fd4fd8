package crash

import (
	"testing"

	"boot"
)

func TestTrivial(t *testing.T) {
	for _, c := range []struct {
		args []string
		want bool
	}{
		{nil, false},
		{[]string{"explain"}, false},
		{[]string{"check-logs", "x.log"}, false},
		{[]string{"__complete", "explain", "--model", ""}, true},
		{[]string{"completion", "bash"}, true},
		{[]string{"--version"}, true},
		{[]string{"--version", "explain"}, false},
		{[]string{"help", "explain"}, true},
		// A flag value that looks like a command is not the command.
		{[]string{"--config", "help"}, false},
	} {
		if got := boot.Trivial(c.args); got != c.want {
			t.Errorf("Trivial(%q) = %v, want %v", c.args, got, c.want)
		}
	}
}

package cli

import (
	"strings"
	"testing"
)

func TestVersionFlag(t *testing.T) {
	out, _, code := run(t, nil, "--version")
	lines := strings.Split(out, "\n")
	// A test binary carries no stamp and no VCS record: the fallbacks show.
	if code != 0 || len(lines) != 4 || !strings.HasPrefix(lines[0], "xcvr ") || !strings.HasPrefix(lines[1], "commit ") ||
		!strings.HasPrefix(lines[2], "catalog: ") || lines[3] != "" {
		t.Fatalf("--version (exit %d):\n%s", code, out)
	}
}

package cli

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"xcvr/models"
)

// Piped matrix and diff honour COLUMNS and --width (flag first), every line
// fits, and a cut row label is marked.
func TestPipedTablesHonourWidth(t *testing.T) {
	arches := map[string]bool{}
	for _, e := range models.Builtin().Entries() {
		arches[e.Arch] = true
	}
	for _, tc := range []struct {
		env  []string
		args []string
		want int
	}{
		{nil, []string{"matrix"}, 80},
		{[]string{"COLUMNS=160"}, []string{"matrix"}, 160},
		{[]string{"COLUMNS=160"}, []string{"matrix", "--width", "60"}, 60},
		{nil, []string{"matrix", "--width", "200"}, 200},
		{[]string{"COLUMNS=junk"}, []string{"matrix"}, 80},
		{[]string{"COLUMNS=150"}, []string{"diff", "--from", "1.3.0rc21", "--to", "1.3.0rc22"}, 150},
		{nil, []string{"diff", "--from", "1.3.0rc21", "--to", "1.3.0rc22", "--width", "120"}, 120},
	} {
		out, errOut, code := run(t, tc.env, tc.args...)
		if code != 0 {
			t.Fatalf("%v %v: exit %d: %s", tc.env, tc.args, code, errOut)
		}
		widest := 0
		for _, l := range strings.Split(out, "\n") {
			widest = max(widest, ansi.StringWidth(l))
		}
		if widest > tc.want || (tc.want > 80 && widest <= 80) {
			t.Errorf("%v %v: widest line %d, want at most %d (and past 80 when given more)", tc.env, tc.args, widest, tc.want)
		}
		if tc.args[0] != "matrix" {
			continue
		}
		for _, l := range strings.Split(out, "\n") {
			if !strings.Contains(l, "✓ ") && !strings.Contains(l, "✗ ") {
				continue
			}
			label := strings.Fields(l)[0]
			if strings.ContainsAny(label, "✓✗○●") {
				continue // the legend
			}
			if !arches[label] && !strings.Contains(label, "…") {
				t.Errorf("%v: row label %q is cut without a mark", tc.args, label)
			}
		}
	}
}

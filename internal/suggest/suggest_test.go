package suggest

import (
	"strings"
	"testing"
)

func TestNearest(t *testing.T) {
	for _, tc := range []struct {
		word  string
		cands []string
		want  string
	}{
		{"explian", []string{"explain", "matrix", "tour"}, "explain"},
		{"ucxx", []string{"DEFAULT", "NIXL", "UCX", "MPI"}, "UCX"},
		{"UCX", []string{"UCX"}, ""}, // the same name is no suggestion
		{"zzzzzz", []string{"explain"}, ""},
		{strings.Repeat("x", MaxWord+1), []string{strings.Repeat("x", MaxWord)}, ""},
	} {
		if got := strings.Join(Nearest(tc.word, tc.cands), ","); got != tc.want {
			t.Errorf("Nearest(%q) = %q, want %q", tc.word, got, tc.want)
		}
	}
	if got := DidYouMean("tuor", []string{"tour", "four", "tsor"}); got != "; did you mean tsor or tour?" { // closest first; four is 3 away
		t.Errorf("DidYouMean: %q", got)
	}
}

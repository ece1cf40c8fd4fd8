package suggest

import (
	"strings"
	"testing"
)

func TestNearest(t *testing.T) {
	for _, tc := range []struct {
		word string
		cand []string
		want string
	}{
		{"explian", []string{"explain", "matrix"}, "; did you mean explain?"},
		{"UCXX", []string{"DEFAULT", "UCX", "NIXL", "MPI"}, "; did you mean UCX?"},
		{"1.4.0rc5", []string{"1.4.0rc4", "1.4.0rc3", "1.3.0rc29"}, "; did you mean 1.4.0rc4 or 1.4.0rc3?"},
		{"UCX", []string{"UCX"}, ""},
		{"zzzzzz", []string{"UCX"}, ""},
	} {
		if got := DidYouMean(tc.word, tc.cand); got != tc.want {
			t.Errorf("%q: %q, want %q", tc.word, got, tc.want)
		}
	}
	// A hostile word costs nothing: no suggestion is computed past MaxWord.
	if n := Nearest(strings.Repeat("x", 1<<16), []string{"explain"}); n != nil {
		t.Errorf("suggested %v for a huge word", n)
	}
}

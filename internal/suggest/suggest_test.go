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

func TestRelease(t *testing.T) {
	names := []string{"1.4.0rc4", "1.4.0rc1", "1.3.0rc29", "1.3.0rc22", "1.3.0rc12.post1", "1.3.0rc6", "1.2.0", "1.1.0rc5"}
	for word, want := range map[string]string{
		"1.4.0rc5":        "1.4.0rc4",
		"1.3.0rc222":      "1.3.0rc22",
		"1.1.0rc6":        "1.1.0rc5", // not 1.3.0rc6, one letter away in another line
		"1.4.0":           "",         // not 1.2.0
		"1.3.0":           "",
		"1.3.0rc22.post1": "", // 1.3.0rc22's build, not 1.3.0rc12.post1
		"1.3.0rc22.dev1":  "",
		"13.0rc22":        "",
	} {
		if got := Release(word, names); got != want {
			t.Errorf("Release(%q) = %q, want %q", word, got, want)
		}
	}
}

// Package suggest finds the names nearest a mistyped one ("did you mean"):
// Levenshtein distance, ignoring case, bounded in the word's length.
package suggest

import (
	"slices"
	"sort"
	"strings"

	"xcvr/internal/termsafe"
)

// MaxWord bounds the word a suggestion is computed for: the distance
// costs the product of the two lengths, and a name on the command line can be
// anything.
const MaxWord = 64

// Nearest returns up to three candidates within edit distance 2 of word,
// ignoring case, closest first (candidates' order breaks ties). A candidate
// equal to word is no suggestion.
func Nearest(word string, candidates []string) []string {
	if word == "" || len(word) > MaxWord {
		return nil
	}
	type hit struct {
		s    string
		d, i int
	}
	var hits []hit
	lw := strings.ToLower(word)
	for i, c := range candidates {
		if c == word || len(c) > MaxWord {
			continue
		}
		if d := Distance(lw, strings.ToLower(c)); d <= 2 {
			hits = append(hits, hit{c, d, i})
		}
	}
	sort.SliceStable(hits, func(a, b int) bool { return hits[a].d < hits[b].d })
	var out []string
	for _, h := range hits {
		if len(out) < 3 {
			out = append(out, h.s)
		}
	}
	return out
}

// Distance is the Levenshtein distance of a and b, by bytes (names are
// ASCII); the caller bounds the lengths (the cost is their product).
func Distance(a, b string) int {
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}

// DidYouMean is "; did you mean X?" (or "X or Y", "X, Y or Z") for the
// nearest candidates, "" when none is near.
func DidYouMean(word string, candidates []string) string {
	n := Nearest(word, candidates)
	if len(n) == 0 {
		return ""
	}
	s := n[len(n)-1]
	if len(n) > 1 {
		s = strings.Join(n[:len(n)-1], ", ") + " or " + s
	}
	return "; did you mean " + termsafe.Line(s) + "?"
}

// Release returns the listed release a version typed as word was most likely
// meant to be, or "": the nearest of names (in their order among equally near
// ones) within word's own release line (1.3 for 1.3.0rc22). A release line is
// never a typo away from another: 1.4.0 is a release newer than the list, not
// a slip for 1.2.0, and xcvr already answers it with the rules of the release
// before it. Nor is a .post or .dev build of a listed release (1.3.0rc22.post1
// is answered as 1.3.0rc22, not meant as 1.3.0rc12.post1).
func Release(word string, names []string) string {
	line := releaseLine(word)
	if line == "" {
		return ""
	}
	for _, sep := range []string{".post", ".dev"} {
		if base, _, ok := strings.Cut(word, sep); ok && slices.Contains(names, base) {
			return ""
		}
	}
	var same []string
	for _, n := range names {
		if releaseLine(n) == line {
			same = append(same, n)
		}
	}
	if n := Nearest(word, same); len(n) > 0 {
		return n[0]
	}
	return ""
}

// releaseLine is "MAJOR.MINOR" of a version, or "" when it has no second dot.
func releaseLine(v string) string {
	major, rest, ok := strings.Cut(v, ".")
	if !ok {
		return ""
	}
	minor, _, ok := strings.Cut(rest, ".")
	if !ok {
		return ""
	}
	return major + "." + minor
}

package deploy

import (
	"strings"
	"testing"
)

// TestLazyIndexIsKeyIndex: a mapping's lazy index finds what a keyIndex of
// the same keys finds, below and above lazyScan keys, for keys Python's dict
// takes as one (1, 1.0, True) and keys without a hash (NaN).
func TestLazyIndexIsKeyIndex(t *testing.T) {
	keys := []string{"a", "b", "1", "1.0", "true", "0x1", "null", "~", ".nan", "2.5", "c", "'1'", "2001-02-03", "no", "0", "false", "d", "e", "f", "g"}
	node := func(s string) *Node {
		if strings.HasPrefix(s, "'") {
			return &Node{Kind: KindStr, Str: strings.Trim(s, "'")}
		}
		return resolvePlain(s)
	}
	for n := 1; n <= len(keys); n++ {
		var ps []Pair
		ix := keyIndex{}
		var lz lazyIndex
		for _, k := range keys[:n] {
			key := node(k)
			want, got := ix.find(ps, key), lz.find(ps, key)
			if want != got {
				t.Fatalf("%d keys, %q: keyIndex %d, lazyIndex %d", n, k, want, got)
			}
			if want < 0 {
				ix.add(key, len(ps))
				lz.add(key, len(ps))
				ps = append(ps, Pair{Key: key})
			}
		}
		for _, k := range keys {
			if want, got := ix.find(ps, node(k)), lz.find(ps, node(k)); want != got {
				t.Fatalf("%d keys, then %q: keyIndex %d, lazyIndex %d", n, k, want, got)
			}
		}
	}
}

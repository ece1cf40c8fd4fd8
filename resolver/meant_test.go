package resolver

import "testing"

// TestNearestName: the field an unknown key is a slip away from, for the
// fix's "rename … to …": 2 edits, or one in six of a long key's bytes; no
// answer when two fields are equally near (a guess either way) or none is.
func TestNearestName(t *testing.T) {
	kv := []string{"enable_block_reuse", "free_gpu_memory_fraction", "max_tokens", "max_attention_window", "host_cache_size"}
	for _, c := range []struct{ key, want string }{
		{"free_gpu_mem_fraction", "free_gpu_memory_fraction"}, // 3 edits in 21 bytes
		{"enable_block_resuse", "enable_block_reuse"},
		{"max_token", "max_tokens"},
		{"max_tokenz_in", ""},      // 3 edits in 13 bytes: too far
		{"free_gpu", ""},           // a prefix is not a slip
		{"enable_block_reuse", ""}, // a field is no unknown key
		{"", ""},
	} {
		if got := nearestName(c.key, kv); got != c.want {
			t.Errorf("nearestName(%q) = %q, want %q", c.key, got, c.want)
		}
	}
	if got := nearestName("abd", []string{"abc", "abe"}); got != "" {
		t.Errorf("a tie named %q", got)
	}
	long := make([]byte, 65)
	for i := range long {
		long[i] = 'a'
	}
	if got := nearestName(string(long), []string{string(long[:64])}); got != "" {
		t.Errorf("a 65-byte key was compared: %q", got)
	}
}

package resolver

import "testing"

// TestNestedWindows pins which releases xcvr checks nested keys for, and how
// the error reaches the operator: only where the stored llm_args.py copies on
// both sides of the release's day are held.
func TestNestedWindows(t *testing.T) {
	for _, c := range []struct {
		version      string
		kv, kvDirect bool
		cuda         bool
	}{
		{"1.0.0rc3", false, false, false}, // before #5234: 0.21's field_mapping era, not modelled
		{"1.0.0rc4", true, false, true},
		{"1.1.0rc5", true, false, true},
		{"1.2.0rc1", true, false, true},
		{"1.2.0rc2", false, false, true}, // after the upper-case copy's first day: the kv path is not known
		{"1.2.0rc5", false, false, true},
		{"1.2.0rc6", true, true, true}, // after MOONCAKE: KvCacheConfig(**d) first
		{"1.2.0", true, true, true},
		{"1.3.0rc7", true, true, true},
		{"1.3.0rc8", true, true, true},
		{"1.3.0rc9", true, true, false}, // after era 0's copy CudaGraphConfig is not held
		{"1.3.0rc25", true, true, false},
		{"1.3.0rc26", false, false, false}, // after #15727: newer than main@0004396 may be
		{"1.4.0rc4", false, false, false},
	} {
		v, err := ParseVersion(c.version)
		if err != nil {
			t.Fatal(err)
		}
		kv, ok := NestedFieldsFor(v, NestedKVCache)
		if ok != c.kv || kv.Direct != c.kvDirect {
			t.Errorf("%s kv_cache_config: held %v direct %v, want %v %v", c.version, ok, kv.Direct, c.kv, c.kvDirect)
		}
		if _, ok := NestedFieldsFor(v, NestedCUDAGraph); ok != c.cuda {
			t.Errorf("%s cuda_graph_config: held %v, want %v", c.version, ok, c.cuda)
		}
	}
}

// TestNestedErrorsLeaveTheKVManagerKey: use_kv_cache_manager_v2 is checked
// through Inputs.KVManager (its value too); reporting it here as well would
// count it twice.
func TestNestedErrorsLeaveTheKVManagerKey(t *testing.T) {
	v, _ := ParseVersion("1.1.0rc5")
	got := NestedErrors(v, []NestedKey{
		{Root: NestedKVCache, VersionedKey: VersionedKey{Key: "use_kv_cache_manager_v2", Input: "True", InputType: "bool"}},
		{Root: NestedKVCache, VersionedKey: VersionedKey{Key: "", Input: "1", InputType: "int"}},
		{Root: NestedCUDAGraph, VersionedKey: VersionedKey{Key: "enable_padding", Input: "True", InputType: "bool"}},
	})
	if len(got) != 1 || !got[0].EmptyKey || got[0].Root != NestedKVCache || got[0].Model != "" {
		t.Fatalf("got %+v, want only the empty key under kv_cache_config", got)
	}
	v, _ = ParseVersion("1.3.0rc20")
	got = NestedErrors(v, []NestedKey{{Root: NestedKVCache, VersionedKey: VersionedKey{Key: "free_gpu_memroy_fraction"}}})
	if len(got) != 1 || got[0].Model != "KvCacheConfig" {
		t.Fatalf("got %+v, want KvCacheConfig's own error", got)
	}
}

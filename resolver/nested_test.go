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
		moe          int // MoeConfig's field count, 0: not held; always built first where held
		sched        int // SchedulerConfig's field count, 0: not held
		adp          int // AttentionDpConfig's, built first where held
	}{
		{"1.0.0rc3", false, false, false, 0, 0, 0}, // before #5234: 0.21's field_mapping era, not modelled
		{"1.0.0rc4", true, false, true, 5, 3, 0},
		{"1.1.0rc5", true, false, true, 5, 3, 0},
		{"1.2.0rc1", true, false, true, 5, 3, 0},
		{"1.2.0rc2", false, false, true, 5, 4, 3}, // after the upper-case copy's first day: the kv path is not known
		{"1.2.0rc5", false, false, true, 5, 4, 3},
		{"1.2.0rc6", true, true, true, 5, 4, 3}, // after MOONCAKE: KvCacheConfig(**d) first
		{"1.2.0", true, true, true, 5, 4, 3},
		{"1.3.0rc7", true, true, true, 5, 4, 3},
		{"1.3.0rc8", true, true, true, 5, 6, 12},  // era 0's copy, main@0004396 and 1.3.0rc27's reference joined
		{"1.3.0rc9", true, true, false, 5, 6, 12}, // after era 0's copy CudaGraphConfig is not held
		{"1.3.0rc25", true, true, false, 5, 6, 12},
		// After #15727 main@0004396 may be older than the release: only the
		// models whose whole signature the API references give are held.
		{"1.3.0rc26", false, false, false, 5, 6, 12},
		{"1.3.0rc27", false, false, false, 5, 6, 12},
		{"1.3.0rc29", false, false, false, 7, 6, 16}, // between 1.3.0rc27's and 1.4.0rc4's references
		{"1.4.0rc1", false, false, false, 7, 6, 16},
		{"1.4.0rc4", false, false, false, 7, 10, 16},
		{"1.4.0rc5.dev2026120100", false, false, false, 0, 0, 0}, // after the last reference xcvr holds
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
		adp, ok := NestedFieldsFor(v, NestedAttentionDP)
		if ok != (c.adp > 0) || len(adp.Fields) != c.adp || ok && !adp.Direct {
			t.Errorf("%s attention_dp_config: held %v, %d fields, direct %v; want %d fields, built first", c.version, ok, len(adp.Fields), adp.Direct, c.adp)
		}
		if moe, ok := NestedFieldsFor(v, NestedMoE); ok != (c.moe > 0) || len(moe.Fields) != c.moe || ok && (!moe.Direct || moe.Model != "MoeConfig") {
			t.Errorf("%s moe_config: held %v, %d fields, direct %v; want %d fields, built first", c.version, ok, len(moe.Fields), moe.Direct, c.moe)
		}
		sc, ok := NestedFieldsFor(v, NestedScheduler)
		if ok != (c.sched > 0) || len(sc.Fields) != c.sched || sc.Direct {
			t.Errorf("%s scheduler_config: held %v, %d fields, direct %v; want %d fields, through TorchLlmArgs", c.version, ok, len(sc.Fields), sc.Direct, c.sched)
		}
	}
}

// TestNestedNewerFields: a key only a later release's model declares is
// refused where xcvr holds the older list: moe_config.tactic and
// megamoe_fuse_shared_expert (1.4.0rc4's MoeConfig) on 1.3, and
// scheduler_config.use_python_scheduler (main@0004396, 1.3.0rc27) on 1.2;
// a key of the joined copies is not (disable_finalize_fusion on 1.0, whose
// own copy lacks it but the upper-case one has it: the day it reached a 1.0
// build is not established).
func TestNestedNewerFields(t *testing.T) {
	for _, c := range []struct {
		version, root, key string
		refused            bool
	}{
		{"1.3.0rc20", NestedMoE, "tactic", true},
		{"1.3.0rc20", NestedMoE, "megamoe_fuse_shared_expert", true},
		{"1.3.0rc20", NestedMoE, "use_low_precision_moe_combine", false},
		{"1.0.0rc6", NestedMoE, "disable_finalize_fusion", false},
		{"1.0.0rc6", NestedMoE, "load_balancer", false},
		{"1.4.0rc4", NestedMoE, "tactic", false},
		{"1.2.0", NestedScheduler, "use_python_scheduler", true},
		{"1.2.0", NestedScheduler, "waiting_queue_policy", false},
		{"1.1.0rc5", NestedScheduler, "waiting_queue_policy", true},
		{"1.3.0rc20", NestedScheduler, "use_python_scheduler", false},
		{"1.3.0rc20", NestedScheduler, "gen_preemption", true},
		{"1.3.0rc20", NestedScheduler, "sjf_config", true},
		{"1.2.0", NestedAttentionDP, "enable_kv_cache_aware_routing", true},
		{"1.2.0", NestedAttentionDP, "batching_wait_iters", false},
		{"1.3.0rc20", NestedAttentionDP, "enable_kv_cache_aware_routing", false},
		{"1.1.0rc5", NestedAttentionDP, "enable_kv_cache_aware_routing", false}, // before the upper-case copy: not held
		// After #15727, by the API references: 1.3.0rc27's lists on 1.3.0rc26
		// and rc27, joined with 1.4.0rc4's after rc27 (SchedulerConfig's
		// with 1.4.0rc1's until then).
		{"1.3.0rc26", NestedMoE, "tactic", true},
		{"1.3.0rc27", NestedMoE, "backnd", true},
		{"1.3.0rc27", NestedMoE, "use_low_precision_moe_combine", false},
		{"1.3.0rc29", NestedMoE, "tactic", false},
		{"1.3.0rc29", NestedMoE, "backnd", true},
		{"1.3.0rc27", NestedAttentionDP, "kv_cache_routing_new_conv_placement", false},
		{"1.3.0rc27", NestedAttentionDP, "enable_packed_sync", true},
		{"1.4.0rc4", NestedAttentionDP, "enable_packed_sync", false},
		{"1.3.0rc29", NestedScheduler, "use_python_scheduler", false},
		{"1.4.0rc1", NestedScheduler, "gen_preemption", true},
		{"1.4.0rc4", NestedScheduler, "gen_preemption", false},
		{"1.4.0rc4", NestedScheduler, "sjf_config", true},
		{"1.4.0rc5.dev2026120100", NestedScheduler, "sjf_config", false}, // after the last reference: not held
	} {
		v, _ := ParseVersion(c.version)
		got := NestedErrors(v, []NestedKey{{Root: c.root, VersionedKey: VersionedKey{Key: c.key, Input: "1", InputType: "int"}}})
		if (len(got) == 1) != c.refused {
			t.Errorf("%s %s.%s: refused %v, want %v", c.version, c.root, c.key, len(got) == 1, c.refused)
		}
		direct := map[string]string{NestedMoE: "MoeConfig", NestedAttentionDP: "AttentionDpConfig"}[c.root]
		if len(got) == 1 && got[0].Model != direct {
			t.Errorf("%s %s.%s: titled %q", c.version, c.root, c.key, got[0].Model)
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

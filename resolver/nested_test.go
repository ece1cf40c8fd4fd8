package resolver

import (
	"slices"
	"testing"
)

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
		{"1.2.0rc6", true, true, true, 5, 4, 3}, // from 1.2.0rc6 (.post3's field_mapping, verified): KvCacheConfig(**d) first
		{"1.2.0", true, true, true, 5, 4, 3},
		{"1.3.0rc7", true, true, true, 5, 4, 3},
		{"1.3.0rc8", true, true, true, 5, 6, 12},  // era 0's copy, main@0004396 and 1.3.0rc27's reference joined
		{"1.3.0rc9", true, true, false, 5, 6, 12}, // after era 0's copy CudaGraphConfig is not held
		{"1.3.0rc25", true, true, false, 5, 6, 12},
		{"1.3.0rc26.dev2026090300", true, true, false, 5, 6, 12}, // main before rc26 (cut 09-04): main@0004396's list, no union held yet
		// From 1.3.0rc26 by the API references read whole: KvCacheConfig
		// up to 1.3.0rc29 (1.4's signatures were not), the CUDA graph
		// union up to 1.4.0rc1 (its EncodeCudaGraphConfig page).
		{"1.3.0rc26", true, true, true, 5, 6, 12},
		{"1.3.0rc27", true, true, true, 5, 6, 12},
		{"1.3.0rc28", true, true, true, 7, 6, 16},
		{"1.3.0rc29", true, true, true, 7, 6, 16}, // between 1.3.0rc27's and 1.4.0rc4's references
		{"1.4.0rc1", false, false, true, 7, 6, 16},
		{"1.4.0rc2", false, false, false, 7, 10, 16},
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

// TestNestedKVAfterRc25: KvCacheConfig from 1.3.0rc26 to rc29 by their API
// references (1.3.0rc26's has no kv_events_config, rc27's and rc29's do, none
// has main@0004396's kv_pool_rebalance_* knobs), built first, so titled
// KvCacheConfig; a main day between the releases accepts the knobs too; 1.4's
// signatures were not read whole, so nothing is refused there.
func TestNestedKVAfterRc25(t *testing.T) {
	// The windows key on the releases' days as releases.go places them.
	for name, d := range map[string]Day{"1.3.0rc26": dayRef13rc26, "1.3.0rc27": dayRef13rc27, "1.3.0rc28": dayRef13rc28,
		"1.3.0rc29": dayRef13rc29, "1.4.0rc1": dayRef14rc1, "1.4.0rc4": dayRef14rc4} {
		if v := Must(ParseVersion(name)); v.Main != d {
			t.Errorf("%s is placed at %s, the nested windows at %s", name, v.Main, d)
		}
	}
	// 1.3.0rc26's list lies within main@0004396's, so main days before it
	// keep the joined copies' list.
	for _, f := range kvFields13rc27 {
		if !slices.Contains(kvFieldsE2, f) {
			t.Errorf("%s: in 1.3.0rc27's KvCacheConfig, not main@0004396's", f)
		}
	}
	for _, c := range []struct {
		version, key string
		refused      bool
	}{
		{"1.3.0rc26", "free_gpu_mem_fraction", true},
		{"1.3.0rc26", "enable_block_resuse", true},
		{"1.3.0rc26", "kv_events_config", true},
		{"1.3.0rc26", "block_reuse_config", false},
		{"1.3.0rc26", "onboard_blocks", true}, // gone by main@0004396 and the references
		{"1.3.0rc27", "kv_events_config", false},
		{"1.3.0rc27", "free_gpu_memory_fraction", false},
		{"1.3.0rc27", "kv_pool_rebalance_cooldown_secs", true},
		{"1.3.0rc28", "enable_block_resuse", true},
		{"1.3.0rc29", "kv_pool_rebalance_cooldown_secs", true},
		{"1.3.0rc29", "enable_block_resuse", true},
		{"1.3.0rc29.dev2026092000", "kv_pool_rebalance_cooldown_secs", false}, // main: main@0004396's knobs joined
		{"1.3.0rc29.dev2026092000", "enable_block_resuse", true},
		{"1.3.0rc26.dev2026090300", "onboard_blocks", false}, // main before rc26 (cut 09-04): the joined copies' list
		{"1.4.0rc1", "enable_block_resuse", false},
		{"1.4.0rc4", "free_gpu_mem_fraction", false},
	} {
		v, err := ParseVersion(c.version)
		if err != nil {
			t.Fatal(err)
		}
		got := NestedErrors(v, []NestedKey{{Root: NestedKVCache, VersionedKey: VersionedKey{Key: c.key, Input: "0.85", InputType: "float"}}})
		if (len(got) == 1) != c.refused {
			t.Errorf("%s kv_cache_config.%s: refused %v, want %v", c.version, c.key, len(got) == 1, c.refused)
		}
		if len(got) == 1 && (got[0].Model != "KvCacheConfig" || got[0].Tag != "") {
			t.Errorf("%s kv_cache_config.%s: titled %q, tag %q; want KvCacheConfig's own error", c.version, c.key, got[0].Model, got[0].Tag)
		}
	}
}

// TestNestedCudaUnion: from 1.3.0rc26 cuda_graph_config is validated by the
// member its mode selects (infer_cuda_graph_config_mode fills a missing mode:
// encode when num_tokens, max_num_token, seq_lens or max_seq_len holds a value
// not in (None, 0)), and the error names the member; where the member is not
// certain (a mode that is no member's tag, 1.4.0rc1's extra_model_inputs
// without a mode) nothing is refused.
func TestNestedCudaUnion(t *testing.T) {
	type kv = [3]string // key, repr, Python type
	for _, c := range []struct {
		name, version string
		keys          []kv
		want          []string // loc() of each error, in order
	}{
		{"typo, no mode", "1.3.0rc27", []kv{{"enable_paddding", "True", "bool"}, {"max_batch_size", "512", "int"}},
			[]string{"cuda_graph_config.decode.enable_paddding"}},
		{"valid decode", "1.3.0rc26", []kv{{"enable_padding", "True", "bool"}, {"batch_sizes", "[1, 2, 4]", "list"}}, nil},
		{"explicit decode", "1.3.0rc29", []kv{{"mode", "'decode'", "str"}, {"max_batch_sise", "8", "int"}},
			[]string{"cuda_graph_config.decode.max_batch_sise"}},
		{"explicit encode", "1.3.0rc27", []kv{{"mode", "'encode'", "str"}, {"seq_lens", "[64]", "list"}, {"foo", "1", "int"}},
			[]string{"cuda_graph_config.encode.foo"}},
		{"inferred encode", "1.3.0rc27", []kv{{"num_tokens", "[128]", "list"}, {"enable_paddding", "True", "bool"}},
			[]string{"cuda_graph_config.encode.enable_paddding"}},
		{"zero encoder key stays decode", "1.3.0rc27", []kv{{"max_seq_len", "0", "int"}, {"foo", "1", "int"}},
			[]string{"cuda_graph_config.decode.max_seq_len", "cuda_graph_config.decode.foo"}},
		{"False and None are in (None, 0)", "1.3.0rc27", []kv{{"max_num_token", "False", "bool"}, {"seq_lens", "None", "NoneType"}},
			[]string{"cuda_graph_config.decode.max_num_token", "cuda_graph_config.decode.seq_lens"}},
		{"0.0 and -0.0 stay decode", "1.3.0rc27", []kv{{"max_seq_len", "0.0", "float"}, {"max_num_token", "-0.0", "float"}},
			[]string{"cuda_graph_config.decode.max_seq_len", "cuda_graph_config.decode.max_num_token"}},
		{"-0.0 too; '0' is not", "1.3.0rc27", []kv{{"max_seq_len", "-0.0", "float"}, {"max_num_token", "'0'", "str"}, {"zz", "1", "int"}},
			[]string{"cuda_graph_config.encode.zz"}},
		{"empty key", "1.3.0rc27", []kv{{"", "None", "NoneType"}}, []string{"cuda_graph_config.decode.''"}},
		{"mode no member's", "1.3.0rc27", []kv{{"mode", "'Decode'", "str"}, {"foo", "1", "int"}}, nil},
		{"mode not a string", "1.3.0rc27", []kv{{"mode", "None", "NoneType"}, {"foo", "1", "int"}}, nil},
		{"last mode counts", "1.3.0rc27", []kv{{"mode", "'Decode'", "str"}, {"mode", "'decode'", "str"}, {"foo", "1", "int"}},
			[]string{"cuda_graph_config.decode.foo"}},
		{"extra_model_inputs without mode, 1.4.0rc1", "1.4.0rc1", []kv{{"extra_model_inputs", "[]", "list"}, {"foo", "1", "int"}}, nil},
		{"extra_model_inputs with mode, 1.4.0rc1", "1.4.0rc1", []kv{{"mode", "'encode'", "str"}, {"extra_model_inputs", "[]", "list"}, {"foo", "1", "int"}},
			[]string{"cuda_graph_config.encode.foo"}},
		{"extra_model_inputs, 1.3.0rc27's encode has none", "1.3.0rc27", []kv{{"mode", "'encode'", "str"}, {"extra_model_inputs", "[]", "list"}},
			[]string{"cuda_graph_config.encode.extra_model_inputs"}},
		{"typo on 1.4.0rc1", "1.4.0rc1", []kv{{"enable_paddding", "True", "bool"}}, []string{"cuda_graph_config.decode.enable_paddding"}},
		{"not held on 1.4.0rc2", "1.4.0rc2", []kv{{"enable_paddding", "True", "bool"}}, nil},
		{"plain model on 1.1", "1.1.0rc5", []kv{{"mode", "'decode'", "str"}}, []string{"cuda_graph_config.mode"}},
	} {
		v, err := ParseVersion(c.version)
		if err != nil {
			t.Fatal(err)
		}
		var keys []NestedKey
		for _, k := range c.keys {
			keys = append(keys, NestedKey{Root: NestedCUDAGraph, VersionedKey: VersionedKey{Key: k[0], Input: k[1], InputType: k[2]}})
		}
		var got []string
		for _, e := range NestedErrors(v, keys) {
			if e.Model != "" {
				t.Errorf("%s: titled %q; cuda_graph_config is validated in TorchLlmArgs", c.name, e.Model)
			}
			got = append(got, e.loc())
		}
		if !slices.Equal(got, c.want) {
			t.Errorf("%s (%s): got %q, want %q", c.name, c.version, got, c.want)
		}
	}
}

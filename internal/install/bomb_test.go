package install

import (
	"fmt"
	"runtime"
	"strings"
	"testing"
)

// chainBomb is modules of about size bytes each, one inheritance chain running
// through all of them from Root0 (whose hook returns 'PYTHON'), every class
// registered; reverse writes each class before its base.
func chainBomb(modules, size int, reverse bool) (map[string]string, int) {
	files := base()
	files["tensorrt_llm/_torch/models/modeling_root.py"] = "class Root0(DecoderModelForCausalLM):\n    @classmethod\n    def get_preferred_transceiver_runtime(cls, pretrained_config=None):\n        return \"PYTHON\"\n"
	prev := "Root0"
	n := 0
	for m := 0; m < modules; m++ {
		var parts []string
		total := 0
		for total < size-200 {
			name := fmt.Sprintf("C%d", n)
			n++
			p := fmt.Sprintf("@register_auto_model(%q)\nclass %s(%s):\n    pass\n", name, name, prev)
			parts = append(parts, p)
			total += len(p)
			prev = name
		}
		if reverse {
			for i, j := 0, len(parts)-1; i < j; i, j = i+1, j-1 {
				parts[i], parts[j] = parts[j], parts[i]
			}
		}
		files[fmt.Sprintf("tensorrt_llm/_torch/models/modeling_m%02d.py", modules-1-m)] = strings.Join(parts, "")
	}
	return files, n
}

// A class more than maxInheritance bases above its hook was reported "None,
// verified (install)" when the base returned 'PYTHON': the depth limit ended
// the search as if there were no hook. A limit is undetermined now; within
// it the hook is found.
func TestInheritanceDepthLimitIsUndetermined(t *testing.T) {
	files, _ := chainBomb(1, 16<<10, false)
	rep, err := Scan(writeTree(t, files), DefaultLimits())
	if err != nil {
		t.Fatal(err)
	}
	for name, want := range map[string]string{
		"C0":  "literal PYTHON",
		"C62": "literal PYTHON", // 63 levels: Root0 is the 64th class up
		"C63": "literal PYTHON",
		"C64": "undetermined the inheritance chain is deeper than 64 classes",
		"C99": "undetermined the inheritance chain is deeper than 64 classes",
	} {
		m, ok := rep.model(name)
		if !ok {
			t.Fatalf("%s not registered", name)
		}
		got := m.Preference.Kind + " " + m.Preference.Value + m.Preference.Why
		if m.Preference.Kind == "literal" {
			got = "literal " + m.Preference.Value
		}
		if !strings.HasPrefix(got, want) {
			t.Errorf("%s: %q, want %q", name, got, want)
		}
	}
}

// The hook resolver's work is bounded: each class is looked up once per hook
// (a chain of N registered classes costs a few steps per class, not up to 64),
// whichever order the file writes them in, and a spent budget is undetermined.
func TestHookResolverWorkIsBounded(t *testing.T) {
	for _, reverse := range []bool{false, true} {
		files, n := chainBomb(2, 256<<10, reverse)
		pkg := writeTree(t, files)
		var before, after runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&before)
		rep, err := Scan(pkg, DefaultLimits())
		if err != nil {
			t.Fatal(err)
		}
		runtime.ReadMemStats(&after)
		if len(rep.Models) != n {
			t.Fatalf("%d models, want %d", len(rep.Models), n)
		}
		src := 512 << 10
		alloc := after.TotalAlloc - before.TotalAlloc
		t.Logf("reverse=%v: %d classes, %d MiB allocated", reverse, n, alloc>>20)
		// Before: 64 lookups with a map each per class and hook (over 200
		// bytes allocated per source byte, 119 MiB here); the scan keeps every class, so a
		// linear cost is left.
		if alloc > 160*uint64(src) {
			t.Errorf("reverse=%v: %d bytes allocated for %d bytes of source", reverse, alloc, src)
		}
		for _, m := range rep.Models {
			if m.Preference.Kind == "none" {
				t.Fatalf("reverse=%v: %s: %+v; every class inherits 'PYTHON' or is cut by a limit", reverse, m.Arch, m.Preference)
			}
		}
	}

	// Steps, counted: a chain of 5000 registered classes.
	var classes []*classDef
	byName := map[string][]*classDef{}
	m := &pyModule{rel: "tensorrt_llm/_torch/models/x.py"}
	root := &classDef{name: "Root", file: m, methods: map[string]*funcDef{hookRuntime: {name: hookRuntime, body: []logical{{toks: []token{{kind: tkName, text: "return"}, {kind: tkName, text: "None"}}}}}}}
	byName["Root"] = []*classDef{root}
	prev := "Root"
	for i := 0; i < 5000; i++ {
		c := &classDef{name: fmt.Sprintf("C%d", i), file: m, bases: []string{prev}}
		byName[c.name] = []*classDef{c}
		classes = append(classes, c)
		prev = c.name
	}
	for _, order := range []string{"base first", "derived first"} {
		h := newHookResolver(byName, 1<<30)
		start := h.work
		for i := range classes {
			c := classes[i]
			if order == "derived first" {
				c = classes[len(classes)-1-i]
			}
			h.pref(c, hookRuntime)
		}
		steps := start - h.work
		t.Logf("%s: %d steps for %d classes", order, steps, len(classes))
		if steps > 70*len(classes) {
			t.Errorf("%s: %d steps for %d classes", order, steps, len(classes))
		}
		if order == "base first" && steps > 4*len(classes) {
			t.Errorf("%s: %d steps for %d classes: the lookups are not remembered", order, steps, len(classes))
		}
		// A budget too small for the tree: undetermined, never "none".
		h = newHookResolver(byName, 0)
		h.work = 100
		if p := h.pref(classes[len(classes)-1], hookRuntime); p.Kind != "undetermined" {
			t.Errorf("spent budget: %+v", p)
		}
	}
}

// 23 modules of 4 MiB of one-line classes took 120 s and 5.4 GB: every class
// outlined and kept. Past maxModelClasses the scan stops reading and refuses
// the tree (its registrations cannot all be read: a partial list would call
// the rest unknown), in bounded memory.
func TestTooManyClassesIsRefused(t *testing.T) {
	files, n := chainBomb(8, 1<<20, false)
	pkg := writeTree(t, files)
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	rep, err := Scan(pkg, DefaultLimits())
	runtime.ReadMemStats(&after)
	if err == nil || !strings.Contains(err.Error(), "refused: more than 50000 classes under _torch/models") {
		t.Fatalf("%d classes: %v (report with %d models)", n, err, len(rep.Models))
	}
	alloc := after.TotalAlloc - before.TotalAlloc
	t.Logf("%d classes in 8 MiB: %d MiB allocated", n, alloc>>20)
	if alloc > 1<<30 { // the modules in flight when the count passes the limit are parsed whole
		t.Errorf("%d MiB allocated before refusing", alloc>>20)
	}
}

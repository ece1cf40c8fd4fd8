package install

import (
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"
	"testing"
)

// notesContain reports whether some note mentions every piece.
func notesContain(notes []string, pieces ...string) bool {
	for _, n := range notes {
		ok := true
		for _, p := range pieces {
			ok = ok && strings.Contains(n, p)
		}
		if ok {
			return true
		}
	}
	return false
}

func TestHostileTrees(t *testing.T) {
	const models = "tensorrt_llm/_torch/models/"
	good := "@register_auto_model(\"Good\")\nclass Good(DecoderModelForCausalLM):\n    pass\n"
	cases := []struct {
		name  string
		setup func(t *testing.T, site string)
		lim   Limits
		note  []string
	}{
		{"huge file", func(t *testing.T, site string) {
			write(t, site, models+"modeling_huge.py", strings.Repeat("x = 1\n", 200_000))
		}, Limits{MaxFileBytes: 64 << 10, MaxTotalBytes: 1 << 20, MaxFiles: 100, MaxDepth: 8}, []string{"modeling_huge.py", "limit per file"}},
		{"total budget", func(t *testing.T, site string) {
			for _, n := range []string{"a", "b", "c", "d"} {
				write(t, site, models+"modeling_"+n+".py", strings.Repeat("# pad\n", 8000))
			}
		}, Limits{MaxFileBytes: 1 << 20, MaxTotalBytes: 100 << 10, MaxFiles: 100, MaxDepth: 8}, []string{"total is spent"}},
		{"binary", func(t *testing.T, site string) {
			write(t, site, models+"modeling_bin.py", "\x7fELF\x00\x00\x01")
		}, DefaultLimits(), []string{"modeling_bin.py", "binary"}},
		{"deep directories", func(t *testing.T, site string) {
			deep := models + strings.Repeat("d/", 12) + "modeling_deep.py"
			write(t, site, deep, good)
		}, DefaultLimits(), []string{"deeper than 8"}},
		{"too many files", func(t *testing.T, site string) {
			for i := 0; i < 30; i++ {
				write(t, site, models+"modeling_"+strings.Repeat("z", i+1)+".py", "")
			}
		}, Limits{MaxFileBytes: 1 << 20, MaxTotalBytes: 1 << 20, MaxFiles: 10, MaxDepth: 8}, []string{"more than 10 files"}},
		{"symlink loop", func(t *testing.T, site string) {
			dir := filepath.Join(site, models, "loop")
			must(t, os.MkdirAll(dir, 0o755))
			must(t, os.Symlink("..", filepath.Join(dir, "up")))
			must(t, os.Symlink("self.py", filepath.Join(dir, "self.py")))
		}, DefaultLimits(), []string{"self.py", "not read"}},
		{"symlink out of the tree", func(t *testing.T, site string) {
			outside := filepath.Join(filepath.Dir(site), "outside.py")
			must(t, os.WriteFile(outside, []byte(good), 0o644))
			must(t, os.Symlink(outside, filepath.Join(site, models, "modeling_out.py")))
			must(t, os.Symlink("/dev/zero", filepath.Join(site, models, "modeling_dev.py")))
		}, DefaultLimits(), []string{"modeling_out.py", "outside the package"}},
		{"fifo", func(t *testing.T, site string) {
			if err := syscall.Mkfifo(filepath.Join(site, models, "modeling_fifo.py"), 0o644); err != nil {
				t.Skip("mkfifo:", err)
			}
		}, DefaultLimits(), []string{"modeling_fifo.py", "not a regular file"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			files := base()
			files[models+"modeling_good.py"] = good
			pkg := writeTree(t, files)
			site := filepath.Dir(pkg)
			c.setup(t, site)
			rep, err := Scan(pkg, c.lim)
			if err != nil {
				t.Fatal(err)
			}
			if !notesContain(rep.Notes, c.note...) {
				t.Errorf("no note with %q; notes: %q", c.note, rep.Notes)
			}
			if c.name != "total budget" && c.name != "too many files" {
				if _, ok := rep.model("Good"); !ok {
					t.Errorf("the good module was not read next to the hostile one; notes %q", rep.Notes)
				}
			}
		})
	}
}

func write(t *testing.T, site, rel, body string) {
	t.Helper()
	p := filepath.Join(site, filepath.FromSlash(rel))
	must(t, os.MkdirAll(filepath.Dir(p), 0o755))
	must(t, os.WriteFile(p, []byte(body), 0o644))
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

func TestLocate(t *testing.T) {
	files := base()
	pkg := writeTree(t, files)
	site := filepath.Dir(pkg)
	for _, p := range []string{pkg, site} {
		got, err := Locate(p)
		if err != nil || got != pkg {
			t.Errorf("Locate(%s) = %q, %v", p, got, err)
		}
	}
	prefix := t.TempDir()
	sp := filepath.Join(prefix, "lib", "python3.12", "site-packages")
	must(t, os.MkdirAll(sp, 0o755))
	must(t, os.Symlink(pkg, filepath.Join(sp, "tensorrt_llm")))
	if got, err := Locate(prefix); err != nil || got != filepath.Join(sp, "tensorrt_llm") {
		t.Errorf("prefix: %q, %v", got, err)
	}
	dp := filepath.Join(prefix, "local", "lib", "python3.12", "dist-packages")
	must(t, os.MkdirAll(dp, 0o755))
	must(t, os.Symlink(pkg, filepath.Join(dp, "tensorrt_llm")))
	if _, err := Locate(prefix); err == nil || !strings.Contains(err.Error(), "several installs") || !strings.Contains(err.Error(), dp) {
		t.Errorf("two installs: %v", err)
	}
	if _, err := Locate(t.TempDir()); err == nil || !strings.Contains(err.Error(), "no tensorrt_llm package") {
		t.Errorf("empty dir: %v", err)
	}
	if _, err := Locate(filepath.Join(pkg, "version.py")); err == nil || !strings.Contains(err.Error(), "not a directory") {
		t.Errorf("a file: %v", err)
	}
}

func TestAuto(t *testing.T) {
	pkg := writeTree(t, base())
	venv := t.TempDir()
	sp := filepath.Join(venv, "lib", "python3.11", "site-packages")
	must(t, os.MkdirAll(sp, 0o755))
	must(t, os.Symlink(pkg, filepath.Join(sp, "tensorrt_llm")))
	env := func(m map[string]string) func(string) string { return func(k string) string { return m[k] } }
	root := t.TempDir() // no system installs under this root
	got, err := Auto(AutoEnv{Getenv: env(map[string]string{"VIRTUAL_ENV": venv}), Root: root})
	if err != nil || got != filepath.Join(sp, "tensorrt_llm") {
		t.Fatalf("venv: %q, %v", got, err)
	}
	sys := filepath.Join(root, "usr", "lib", "python3", "dist-packages")
	must(t, os.MkdirAll(sys, 0o755))
	must(t, os.Symlink(pkg, filepath.Join(sys, "tensorrt_llm")))
	_, err = Auto(AutoEnv{Getenv: env(map[string]string{"VIRTUAL_ENV": venv}), Root: root})
	if err == nil || !strings.Contains(err.Error(), "2 installs found") {
		t.Fatalf("two: %v", err)
	}
	_, err = Auto(AutoEnv{Getenv: env(nil), Root: t.TempDir()})
	if err == nil || !strings.Contains(err.Error(), "no tensorrt_llm found") {
		t.Fatalf("none: %v", err)
	}
}

func TestFromPID(t *testing.T) {
	pkg := writeTree(t, base())
	proc := t.TempDir()
	dir := filepath.Join(proc, "42")
	must(t, os.MkdirAll(dir, 0o755))
	maps := "7f00-7f01 r--p 00000000 08:01 1 /usr/lib/libc.so.6\n" +
		"7f02-7f03 r-xp 00000000 08:01 2 " + pkg + "/bindings.cpython-312-x86_64-linux-gnu.so\n"
	must(t, os.WriteFile(filepath.Join(dir, "maps"), []byte(maps), 0o644))
	got, how, err := FromPID(proc, 42)
	if err != nil || got != pkg || !strings.Contains(how, "maps") {
		t.Fatalf("maps: %q %q %v", got, how, err)
	}
	// No mapping: the interpreter's prefix.
	prefix := t.TempDir()
	sp := filepath.Join(prefix, "lib", "python3.12", "site-packages")
	must(t, os.MkdirAll(sp, 0o755))
	must(t, os.Symlink(pkg, filepath.Join(sp, "tensorrt_llm")))
	must(t, os.WriteFile(filepath.Join(dir, "maps"), []byte("7f00-7f01 r--p 0 0 0 /usr/lib/libc.so.6\n"), 0o644))
	must(t, os.Symlink(filepath.Join(prefix, "bin", "python3.12"), filepath.Join(dir, "exe")))
	got, how, err = FromPID(proc, 42)
	if err != nil || got != filepath.Join(sp, "tensorrt_llm") || !strings.Contains(how, "exe") {
		t.Fatalf("exe: %q %q %v", got, how, err)
	}
	if _, _, err := FromPID(proc, 7); err == nil {
		t.Fatal("a missing process found an install")
	}
}

func TestLocateEditable(t *testing.T) {
	checkout := t.TempDir()
	pkg := filepath.Join(checkout, "tensorrt_llm")
	must(t, os.MkdirAll(pkg, 0o755))
	must(t, os.WriteFile(filepath.Join(pkg, "version.py"), []byte(`__version__ = "1.5.0rc1"`+"\n"), 0o644))
	finder := t.TempDir()
	must(t, os.WriteFile(filepath.Join(finder, "__editable___tensorrt_llm_1_5_0rc1_finder.py"),
		[]byte("MAPPING: dict[str, str] = {'tensorrt_llm': '"+pkg+"'}\nNAMESPACES = {}\n"), 0o644))
	if got, err := Locate(finder); err != nil || got != pkg {
		t.Errorf("finder: %q, %v", got, err)
	}
	pth := t.TempDir()
	must(t, os.WriteFile(filepath.Join(pth, "tensorrt_llm.egg-link"), []byte(checkout+"\n.\n"), 0o644))
	if got, err := Locate(pth); err != nil || got != pkg {
		t.Errorf("egg-link: %q, %v", got, err)
	}
}

func TestPathologicalSourceIsLinear(t *testing.T) {
	// A million adjacent literals, a bracket never closed and a very long
	// line: each must cost one pass, not one pass per token.
	for name, src := range map[string]string{
		"adjacent literals": "x = (" + strings.Repeat(`"a" f"{b}" `, 300_000) + ")\n",
		"open bracket":      "x = (" + strings.Repeat("a, ", 500_000),
		"long line":         "x = " + strings.Repeat("a.", 1_000_000) + "b\n",
		"deep brackets":     "x = " + strings.Repeat("(", 500_000) + strings.Repeat(")", 500_000) + "\n",
	} {
		// Bytes allocated, not wall-clock time, which a loaded CI host makes
		// flaky: the quadratic growth this guards against (each literal copying
		// all before it) allocated gigabytes here; one pass allocates a small
		// multiple of the source.
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		m := parseModule("tensorrt_llm/x.py", []byte(src))
		_ = parseModelModule("tensorrt_llm/_torch/models/x.py", []byte(src))
		runtime.ReadMemStats(&after)
		if got := after.TotalAlloc - before.TotalAlloc; got > 64*uint64(len(src)) {
			t.Errorf("%s: %d bytes of source allocated %d bytes", name, len(src), got)
		}
		if len(m.lines) > 2 {
			t.Errorf("%s: %d logical lines", name, len(m.lines))
		}
	}
}

package guard

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

func TestOpenRefusesNonRegularWithoutBlocking(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skip("no mkfifo:", err)
	}
	done := make(chan error, 1)
	go func() {
		_, err := ReadFile(fifo, YAMLLimits())
		done <- err
	}()
	select {
	case err := <-done:
		if !errors.Is(err, ErrNotRegular) || !strings.Contains(err.Error(), "FIFO") {
			t.Fatalf("fifo: %v", err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("ReadFile blocked on a FIFO with no writer")
	}
	for _, p := range []string{"/dev/zero", dir} {
		if _, err := os.Stat(p); err != nil {
			continue
		}
		if _, err := ReadFile(p, YAMLLimits()); !errors.Is(err, ErrNotRegular) {
			t.Errorf("%s: %v", p, err)
		}
		if _, err := Open(p, Limits{}); !errors.Is(err, ErrNotRegular) {
			t.Errorf("Open %s: %v", p, err)
		}
	}
}

func TestReadFileBOMAndSize(t *testing.T) {
	dir := t.TempDir()
	write := func(name, s string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(s), 0o600); err != nil {
			t.Fatal(err)
		}
		return p
	}
	data, err := ReadFile(write("bom.yaml", "\ufeffa: 1\n"), YAMLLimits())
	if err != nil || string(data) != "a: 1\n" {
		t.Fatalf("BOM not dropped: %q %v", data, err)
	}
	data, err = ReadFile(write("bomonly.yaml", "\ufeff"), YAMLLimits())
	if err != nil || len(data) != 0 {
		t.Fatalf("BOM-only file: %q %v", data, err)
	}
	_, err = ReadFile(write("big.yaml", strings.Repeat("a: 1\n", 100)), Limits{MaxBytes: 64})
	if err == nil || !strings.Contains(err.Error(), "over the 64 bytes limit") {
		t.Fatalf("size: %v", err)
	}
}

func TestTextLimits(t *testing.T) {
	lim := Limits{MaxLineBytes: 10, MaxLines: 3}
	for _, c := range []struct{ in, want string }{
		{"short\nlines\n", ""},
		{"a\n# a comment line that is long\n", "f:2:11: refused: a line longer than 10 bytes"},
		{"a\nb\nc\nd\n", "f:4:1: refused: more than 3 lines"},
		{"a: \"x\ny\nz\nw\"\n", "f:4:1: refused: more than 3 lines"},
		{"a\x00", "f:1:2: refused: binary data (NUL byte)"},
		{"a\x1b]0;x\x07", "f:1:2: refused: control character 0x1b"},
		{"a\xff", "f:1:2: refused: invalid UTF-8"},
	} {
		err := Text("f", []byte(c.in), lim)
		got := ""
		if err != nil {
			got = err.Error()
		}
		if (c.want == "") != (got == "") || !strings.HasPrefix(got, c.want) {
			t.Errorf("Text(%q) = %q, want %q…", c.in, got, c.want)
		}
	}
}

func TestYAMLDepth(t *testing.T) {
	lim := YAMLLimits()
	deep := func(n int, f func(i int) string) string {
		var b strings.Builder
		for i := 0; i < n; i++ {
			b.WriteString(f(i))
		}
		return b.String()
	}
	for _, c := range []struct {
		name, in string
		refused  bool
	}{
		{"block sequences on one line", strings.Repeat("- ", 30000) + "x\n", true},
		{"65 compact sequences", strings.Repeat("- ", 65) + "x\n", true},
		{"60 compact sequences", strings.Repeat("- ", 60) + "x\n", false},
		{"indented mappings", deep(70, func(i int) string { return strings.Repeat(" ", i) + "k:\n" }), true},
		{"indented sequences", deep(70, func(i int) string { return strings.Repeat(" ", i) + "-\n" }), true},
		{"flow", strings.Repeat("[", 70) + strings.Repeat("]", 70) + "\n", true},
		{"flow under block", deep(40, func(i int) string { return strings.Repeat(" ", i) + "k:\n" }) + strings.Repeat(" ", 40) + strings.Repeat("[", 30) + "\n", true},
		{"staircase block scalar", "k: |\n" + deep(100, func(i int) string { return strings.Repeat(" ", i+1) + "text\n" }), false},
		{"staircase plain continuation", "k: a\n" + deep(100, func(i int) string { return strings.Repeat(" ", i+1) + "word\n" }), false},
		{"quoted brackets", "k: \"" + strings.Repeat("[", 100) + "\"\n", false},
		{"comment brackets", "# " + strings.Repeat("[", 100) + "\n", false},
		{"real config", "cache_transceiver_config:\n  backend: NIXL\n  agent_bounce_params:\n    - {a: [1, 2]}\n    - - x\n      - y\n", false},
	} {
		err := YAML("f.yaml", []byte(c.in), lim)
		if (err != nil) != c.refused {
			t.Errorf("%s: err %v, refused want %v", c.name, err, c.refused)
		}
		if err != nil && !strings.Contains(err.Error(), "nested deeper than 64 levels") {
			t.Errorf("%s: %v", c.name, err)
		}
	}
}

// The pre-scan must stay cheap on exactly the input it exists to stop.
func TestYAMLScanAllocs(t *testing.T) {
	data := []byte(strings.Repeat("- ", 30000) + "x\n")
	n := testing.AllocsPerRun(10, func() { _ = YAML("f.yaml", data, YAMLLimits()) })
	if n > 10 {
		t.Fatalf("%v allocations to refuse a 60 KB '- - -' file", n)
	}
	clean := []byte(strings.Repeat("key: value  # comment\n", 1000))
	if n := testing.AllocsPerRun(10, func() { _ = Text("f", clean, YAMLLimits()) }); n != 0 {
		t.Fatalf("Text allocates %v times on clean input", n)
	}
}

func TestYAMLMaxKeys(t *testing.T) {
	var b strings.Builder
	b.WriteString("cache_transceiver_config:\n")
	for i := 0; i < MaxKeys; i++ {
		b.WriteString("  k" + strings.Repeat("x", i%7) + ": 1\n")
	}
	if err := YAML("f.yaml", []byte(b.String()), YAMLLimits()); err != nil {
		t.Fatalf("%d keys refused: %v", MaxKeys, err)
	}
	b.WriteString("  # a comment is no key\n\n  one_more: 1\n")
	err := YAML("f.yaml", []byte(b.String()), YAMLLimits())
	if err == nil || err.Error() != "f.yaml:5004:3: refused: more than 5000 entries in one block mapping or list; this is not a configuration file" {
		t.Fatalf("%v", err)
	}
	// Ten mappings of 1,500 keys cost the parser less than one of 5,000 and pass;
	// three of 4,000 cost more and are refused.
	for _, c := range []struct{ mappings, keys int }{{10, 1500}, {3, 4000}} {
		b.Reset()
		for m := 0; m < c.mappings; m++ {
			b.WriteString("m" + strings.Repeat("x", m) + ":\n")
			for i := 0; i < c.keys; i++ {
				b.WriteString("  k: 1\n")
			}
		}
		err := YAML("f.yaml", []byte(b.String()), YAMLLimits())
		if (err != nil) != (c.mappings == 3) || err != nil && !strings.Contains(err.Error(), "too many keys in block mappings in all") {
			t.Errorf("%d mappings of %d keys: %v", c.mappings, c.keys, err)
		}
	}
	// Entries of nested mappings count for their own mapping only.
	b.Reset()
	for i := 0; i < 3000; i++ {
		b.WriteString("- a: 1\n  b: 2\n")
	}
	if err := YAML("f.yaml", []byte(b.String()), YAMLLimits()); err != nil {
		t.Fatalf("3000 items of two keys: %v", err)
	}
}

type endless struct{ n int64 }

func (e *endless) Read(p []byte) (int, error) {
	for i := range p {
		p[i] = 'a'
	}
	e.n += int64(len(p))
	return len(p), nil
}

// A pipe or /proc file that never ends is read only up to the limit (plus the
// one byte that proves it is over).
func TestReadAllStopsAtTheLimit(t *testing.T) {
	r := &endless{}
	_, err := ReadAll("stdin", r, Limits{MaxBytes: 1 << 20})
	if err == nil || !strings.Contains(err.Error(), "refused: over the 1 MiB limit") {
		t.Fatalf("%v", err)
	}
	if r.n > 1<<20+512 {
		t.Fatalf("read %d bytes for a 1 MiB limit", r.n)
	}
}

// FuzzYAML: the pre-scan never panics, and whatever it accepts the YAML parser
// never sees nested deeper than it allows.
func FuzzYAML(f *testing.F) {
	for _, s := range []string{"- - - x\n", "a:\n  b:\n    - [1, {c: d}]\n", "k: |\n   x\n  y\n", "\"a\\\"[[[\": '['\n", "? - a\n: b\n"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		lim := YAMLLimits()
		lim.MaxDepth = 8
		err := YAML("f.yaml", data, lim)
		if err != nil && !strings.HasPrefix(err.Error(), "f.yaml:") {
			t.Fatalf("error without FILE:LINE: %v", err)
		}
		_ = Text("f.yaml", data, lim)
	})
}

// OpenEntry trusts a listing's type only to skip the stat before the open:
// a FIFO or device listed as such is refused unopened, an entry listed as
// regular that is a symbolic link now is not followed, and the descriptor is
// checked as Open checks it (/proc/self/mounts, which stat calls regular, is
// refused), with its size returned.
func TestOpenEntry(t *testing.T) {
	dir := t.TempDir()
	plain := filepath.Join(dir, "rank0.log")
	if err := os.WriteFile(plain, []byte("hello\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	f, st, err := OpenEntry(plain, 0, Limits{})
	if err != nil || st.Size() != 6 {
		t.Fatalf("regular: %v %v", st, err)
	}
	f.Close()
	if _, _, err := OpenEntry(plain, 0, Limits{MaxBytes: 3}); err == nil {
		t.Error("over MaxBytes: opened")
	}
	fifo := filepath.Join(dir, "fifo.log")
	if err := syscall.Mkfifo(fifo, 0o600); err == nil {
		done := make(chan error, 2)
		go func() {
			_, _, err := OpenEntry(fifo, os.ModeNamedPipe, Limits{})
			done <- err
			_, _, err = OpenEntry(fifo, 0, Limits{}) // listed regular, a FIFO now
			done <- err
		}()
		for i := 0; i < 2; i++ {
			select {
			case err := <-done:
				if !errors.Is(err, ErrNotRegular) {
					t.Errorf("fifo %d: %v", i, err)
				}
			case <-time.After(5 * time.Second):
				t.Fatal("OpenEntry blocked on a FIFO")
			}
		}
	}
	link := filepath.Join(dir, "link.log")
	if err := os.Symlink(plain, link); err != nil {
		t.Fatal(err)
	}
	if f, _, err := OpenEntry(link, 0, Limits{}); err == nil {
		f.Close()
		t.Error("a symbolic link listed as a regular file was followed")
	}
	if f, _, err := OpenEntry(link, os.ModeSymlink, Limits{}); err != nil {
		t.Errorf("a listed link to a regular file: %v", err)
	} else {
		f.Close()
	}
	if _, err := os.Stat("/proc/self/mounts"); err == nil {
		if f, _, err := OpenEntry("/proc/self/mounts", 0, Limits{}); !errors.Is(err, ErrNotRegular) {
			if f != nil {
				f.Close()
			}
			t.Errorf("/proc/self/mounts: %v", err)
		}
	}
}

package install

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"xcvr/internal/guard"
	"xcvr/internal/termsafe"
)

// Limits bound what a scan reads. An install is read on a production node, maybe
// inside a container image someone else built: a planted FIFO, a device node, a
// multi-gigabyte file named like a module or a symlink loop must cost a note,
// never a hang or unbounded memory.
type Limits struct {
	// MaxFileBytes is the largest file read; larger ones are skipped with a note.
	// The biggest upstream module (modeling_deepseekv3.py) is under 1 MiB.
	MaxFileBytes int64
	// MaxTotalBytes bounds all reads of one scan.
	MaxTotalBytes int64
	// MaxFiles bounds the files looked at under _torch/models/.
	MaxFiles int
	// MaxDepth bounds directory nesting under _torch/models/.
	MaxDepth int
}

// DefaultLimits are generous for a real install (about 200 model files, 20 MB).
func DefaultLimits() Limits {
	return Limits{MaxFileBytes: 4 << 20, MaxTotalBytes: 96 << 20, MaxFiles: 4000, MaxDepth: 8}
}

// tree reads files below one tensorrt_llm package directory.
type tree struct {
	root  string // the real (symlink-free) path of the package directory
	site  string // its parent, the site-packages directory
	lim   Limits
	total int64
	files int
	notes []string
	// walked maps a file walkPy listed (relative to the package) to its real
	// path: a regular file, not a link, in a directory resolved inside.
	walked map[string]string
}

func newTree(pkg string, lim Limits) (*tree, error) {
	real, err := filepath.EvalSymlinks(pkg)
	if err != nil {
		return nil, err
	}
	real, err = filepath.Abs(real)
	if err != nil {
		return nil, err
	}
	return &tree{root: real, site: filepath.Dir(real), lim: lim}, nil
}

// note records something skipped; notes are shown to the user as they are.
func (t *tree) note(format string, args ...any) {
	if len(t.notes) < 50 {
		t.notes = append(t.notes, fmt.Sprintf(format, args...))
	}
}

// errSkip marks a file that exists but was not read (a note says why).
var errSkip = errors.New("skipped")

// rel names a path for evidence: relative to site-packages, so it starts with
// tensorrt_llm/.
func (t *tree) rel(p string) string {
	if r, err := filepath.Rel(t.site, p); err == nil {
		return filepath.ToSlash(r)
	}
	return filepath.ToSlash(p)
}

// read reads a file named relative to the package directory. A missing file is
// fs.ErrNotExist; one refused by the limits is errSkip with a note.
func (t *tree) read(rel string) ([]byte, error) { return t.readBuf(rel, nil) }

// readBuf is read into buf when it is large enough (the model scan reuses a
// few buffers instead of allocating 20 MB per scan). A file walkPy listed is
// opened by the real path the walk found, not resolved again.
func (t *tree) readBuf(rel string, buf []byte) ([]byte, error) {
	p := filepath.Join(t.root, filepath.FromSlash(rel))
	if real, ok := t.walked[rel]; ok {
		return t.readReal(t.rel(p), real, buf)
	}
	return t.readInBuf(p, "", buf)
}

func (t *tree) readPath(p string) ([]byte, error) { return t.readIn(p, "") }

// readIn reads p, which must resolve inside the package or, when dir is not
// empty, inside dir (a dist-info directory next to the package).
func (t *tree) readIn(p, dir string) ([]byte, error) { return t.readInBuf(p, dir, nil) }

func (t *tree) readInBuf(p, dir string, buf []byte) ([]byte, error) {
	name := t.rel(p)
	real, err := filepath.EvalSymlinks(p)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return nil, fs.ErrNotExist
		}
		t.note("%s: not read: %v", name, err)
		return nil, errSkip
	}
	if !t.inside(real) && (dir == "" || !within(real, dir)) {
		t.note("%s: not read: it resolves outside the package (%s)", name, real)
		return nil, errSkip
	}
	return t.readReal(name, real, buf)
}

// readReal reads the file at real, a symlink-free path already checked to be
// inside the tree; name is how notes call it.
func (t *tree) readReal(name, real string, buf []byte) ([]byte, error) {
	st, err := os.Lstat(real)
	if err != nil {
		return nil, fs.ErrNotExist
	}
	if !st.Mode().IsRegular() {
		t.note("%s: not read: not a regular file (%s)", name, st.Mode().Type())
		return nil, errSkip
	}
	if st.Size() > t.lim.MaxFileBytes {
		t.note("%s: not read: %d bytes is over the %d-byte limit per file", name, st.Size(), t.lim.MaxFileBytes)
		return nil, errSkip
	}
	if t.total+st.Size() > t.lim.MaxTotalBytes {
		t.note("%s: not read: the scan's %d-byte total is spent", name, t.lim.MaxTotalBytes)
		return nil, errSkip
	}
	// The project's one gate for files: regular only, stat before a
	// non-blocking open, checked again after it.
	f, err := guard.Open(real, guard.Limits{MaxBytes: t.lim.MaxFileBytes})
	if err != nil {
		t.note("%s: not read: %v", name, err)
		return nil, errSkip
	}
	defer f.Close()
	// The path may have been swapped (for a link out of the tree) between the
	// Lstat above and the open: it must still be the file that was checked.
	if st2, err := f.Stat(); err != nil || !st2.Mode().IsRegular() || !os.SameFile(st, st2) {
		t.note("%s: not read: it changed while being opened", name)
		return nil, errSkip
	}
	data, err := readAllSized(f, st.Size(), t.lim.MaxFileBytes+1, buf)
	if err != nil {
		t.note("%s: not read: %v", name, err)
		return nil, errSkip
	}
	if int64(len(data)) > t.lim.MaxFileBytes {
		t.note("%s: not read: it grew over the %d-byte limit per file", name, t.lim.MaxFileBytes)
		return nil, errSkip
	}
	t.total += int64(len(data))
	if bytes.IndexByte(data, 0) >= 0 {
		t.note("%s: not read: binary data (NUL byte) in a .py file", name)
		return nil, errSkip
	}
	return data, nil
}

func within(real, dir string) bool {
	d, err := filepath.EvalSymlinks(dir)
	if err != nil {
		return false
	}
	return strings.HasPrefix(real, d+string(filepath.Separator))
}

func (t *tree) inside(real string) bool {
	return real == t.root || strings.HasPrefix(real, t.root+string(filepath.Separator))
}

// walkPy lists the .py files under a directory of the package (relative to the
// package), depth-first in name order, within MaxDepth and MaxFiles; symlinked
// directories are followed only inside the package and only once.
func (t *tree) walkPy(relDir string) []string {
	var out []string
	seen := map[string]bool{}
	var walk func(dir string, depth int)
	walk = func(dir string, depth int) {
		real, err := filepath.EvalSymlinks(dir)
		if err != nil || !t.inside(real) || seen[real] {
			if err == nil && !t.inside(real) {
				t.note("%s: not followed: it resolves outside the package", t.rel(dir))
			} else if err != nil && !errors.Is(err, fs.ErrNotExist) {
				t.note("%s: not followed: %v", t.rel(dir), err)
			}
			return
		}
		seen[real] = true
		if depth > t.lim.MaxDepth {
			t.note("%s: not read: deeper than %d directories", t.rel(dir), t.lim.MaxDepth)
			return
		}
		ents, err := os.ReadDir(real)
		if err != nil {
			t.note("%s: not read: %v", t.rel(dir), err)
			return
		}
		sort.Slice(ents, func(i, j int) bool { return ents[i].Name() < ents[j].Name() })
		for _, e := range ents {
			p := filepath.Join(dir, e.Name())
			if !safe(e.Name()) {
				t.note("%s: skipped: its name holds control characters", termsafe.Line(t.rel(p)))
				continue
			}
			isDir := e.IsDir()
			if e.Type()&fs.ModeSymlink != 0 {
				if st, err := os.Stat(p); err == nil && st.IsDir() {
					isDir = true
				}
			}
			switch {
			case isDir:
				if e.Name() == "__pycache__" {
					continue
				}
				walk(p, depth+1)
			case strings.HasSuffix(e.Name(), ".py"):
				if t.files >= t.lim.MaxFiles {
					t.note("%s: not read: more than %d files", t.rel(p), t.lim.MaxFiles)
					return
				}
				t.files++
				if r, err := filepath.Rel(t.root, p); err == nil {
					r = filepath.ToSlash(r)
					out = append(out, r)
					if e.Type().IsRegular() {
						if t.walked == nil {
							t.walked = map[string]string{}
						}
						t.walked[r] = filepath.Join(real, e.Name())
					}
				}
			}
		}
	}
	walk(filepath.Join(t.root, filepath.FromSlash(relDir)), 0)
	return out
}

// readAllSized reads r to the end, at most limit bytes, into buf when it holds
// the size stat reported, else into a new buffer of that size (one allocation
// for a file that did not change).
func readAllSized(r io.Reader, size, limit int64, buf []byte) ([]byte, error) {
	data := buf[:0]
	if int64(cap(buf)) < min(size, limit)+1 {
		data = make([]byte, 0, min(size, limit)+1)
	}
	for int64(len(data)) < limit {
		if len(data) == cap(data) {
			data = append(data, 0)[:len(data)]
		}
		n, err := r.Read(data[len(data):min(int64(cap(data)), limit)])
		data = data[:len(data)+n]
		if err == io.EOF {
			return data, nil
		}
		if err != nil {
			return nil, err
		}
	}
	return data, nil
}

package guard

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
)

// FS is where a reader's named files come from: the host's file system (Host)
// or one offered directory (Dir). Every open goes through the checks of Open.
type FS interface {
	// Open opens path for reading as Open does.
	Open(path string, lim Limits) (*os.File, error)
	// Stat is os.Stat, inside the FS.
	Stat(path string) (fs.FileInfo, error)
}

// Host is the host's file system: paths as given, opened through Open.
type Host struct{}

// Open is guard.Open.
func (Host) Open(path string, lim Limits) (*os.File, error) { return Open(path, lim) }

// Stat is os.Stat.
func (Host) Stat(path string) (fs.FileInfo, error) { return os.Stat(path) }

// Dir is one directory whose files are offered by name (xcvr serve
// --serve-dir). Every file is opened relative to the directory's descriptor
// (os.Root: no "..", no absolute path, no symbolic link leads out of it), never
// by a path a second time: Open checks the name without opening it, opens it
// non-blocking (O_NONBLOCK|O_NOFOLLOW), checks the descriptor it got (a regular
// file, the very file it checked, within the size limit) and hands back that
// descriptor, so a FIFO cannot block and a file swapped afterwards is not read.
//
// Paths given to Dir are DIR/NAME, as Path joins them, so that messages keep
// naming the file as the operator sees it.
type Dir struct {
	root *os.Root
	path string
}

// OpenDir opens the directory at path.
func OpenDir(path string) (*Dir, error) {
	root, err := os.OpenRoot(path)
	if err != nil {
		return nil, err
	}
	return &Dir{root: root, path: path}, nil
}

// Close closes the directory.
func (d *Dir) Close() error { return d.root.Close() }

// Path is the path of name inside the directory, as Open and Stat take it.
func (d *Dir) Path(name string) string { return filepath.Join(d.path, name) }

// ErrOutside is wrapped by the error for a path that is not a name inside a Dir.
var ErrOutside = errors.New("not a file inside the offered directory")

// name turns DIR/NAME back into NAME.
func (d *Dir) name(path string) (string, error) {
	rel, ok := strings.CutPrefix(path, d.path+string(filepath.Separator))
	if !ok || !filepath.IsLocal(rel) {
		return "", fmt.Errorf("%s: refused: %w", path, ErrOutside)
	}
	return rel, nil
}

// Stat is os.Stat of DIR/NAME inside the directory.
func (d *Dir) Stat(path string) (fs.FileInfo, error) {
	name, err := d.name(path)
	if err != nil {
		return nil, err
	}
	return d.root.Stat(name)
}

// Open opens DIR/NAME for reading; see Dir.
func (d *Dir) Open(path string, lim Limits) (*os.File, error) {
	name, err := d.name(path)
	if err != nil {
		return nil, err
	}
	// Lstat opens nothing, so a FIFO is refused before any open, and a
	// symbolic link is refused at all (os.Root would follow one that stays
	// inside; O_NOFOLLOW alone does not stop it).
	lst, err := d.root.Lstat(name)
	if err != nil {
		return nil, pathErr(path, err)
	}
	if lst.Mode()&fs.ModeSymlink != 0 {
		return nil, fmt.Errorf("%s: refused: a symbolic link; an offered directory's files are read only as themselves", path)
	}
	if err := regular(path, lst); err != nil {
		return nil, err
	}
	f, err := d.root.OpenFile(name, os.O_RDONLY|syscall.O_NONBLOCK|syscall.O_NOFOLLOW, 0)
	if err != nil {
		return nil, pathErr(path, err)
	}
	if err := opened(path, f, lim); err != nil {
		f.Close()
		return nil, err
	}
	if st, _ := f.Stat(); !os.SameFile(lst, st) {
		f.Close()
		return nil, fmt.Errorf("%s: refused: replaced while it was being opened", path)
	}
	return f, nil
}

// pathErr names the offered path, not os.Root's internal one.
func pathErr(path string, err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return &fs.PathError{Op: "open", Path: path, Err: pe.Err}
	}
	return err
}

// ReadFileFS is ReadFile through fsys.
func ReadFileFS(fsys FS, path string, lim Limits) ([]byte, error) {
	data, err := ReadRawFS(fsys, path, lim)
	if err != nil {
		return nil, err
	}
	return Check(path, data, lim)
}

// ReadRawFS is ReadRaw through fsys.
func ReadRawFS(fsys FS, path string, lim Limits) ([]byte, error) {
	f, err := fsys.Open(path, lim)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return ReadAll(path, f, lim)
}

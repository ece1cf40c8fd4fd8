//go:build linux

package guard

import (
	"io"
	"io/fs"
	"os"
	"sync"
	"syscall"

	"golang.org/x/sys/unix"
)

// Listing is a directory whose entries a listing (os.ReadDir, a walk) named
// regular files: Open opens each relative to the directory's descriptor, so
// the kernel looks up one name instead of the whole path again, and hands
// back the checked descriptor as an Entry, without the *os.File (and its
// poller registration) a one-line log cannot afford: a directory of 50,000
// logs spent more time opening them than reading them.
type Listing struct{ fd int }

// OpenListing opens the directory at path (O_PATH: it is only looked up in,
// never read, so it needs no read permission).
func OpenListing(path string) (*Listing, error) {
	fd, err := retry(func() (int, error) {
		return syscall.Open(path, unix.O_PATH|syscall.O_DIRECTORY|syscall.O_CLOEXEC, 0)
	})
	if err != nil {
		return nil, &fs.PathError{Op: "open", Path: path, Err: err}
	}
	return &Listing{fd: fd}, nil
}

// Close closes the directory.
func (l *Listing) Close() error { return syscall.Close(l.fd) }

// Open opens the entry name of the directory, which path names in messages,
// with OpenEntry's checks for an entry listed as a regular file: opened
// non-blocking and without following a symbolic link (an entry swapped for
// a link or a FIFO since the listing is refused, never waited on), and the
// descriptor checked as Open checks it: a regular file, within lim.MaxBytes,
// that the kernel cannot poll (streamLike).
func (l *Listing) Open(name, path string, lim Limits) (*Entry, error) {
	if err := entryName(name, path); err != nil {
		return nil, err
	}
	fd, err := retry(func() (int, error) {
		return syscall.Openat(l.fd, name, syscall.O_RDONLY|syscall.O_NONBLOCK|syscall.O_NOFOLLOW|syscall.O_CLOEXEC, 0)
	})
	if err != nil {
		return nil, &fs.PathError{Op: "open", Path: path, Err: err}
	}
	var st syscall.Stat_t
	if err := syscall.Fstat(fd, &st); err != nil {
		syscall.Close(fd)
		return nil, &fs.PathError{Op: "stat", Path: path, Err: err}
	}
	switch {
	case st.Mode&syscall.S_IFMT != syscall.S_IFREG:
		// Not a file any more: the error Open gives, naming what it is.
		f := os.NewFile(uintptr(fd), path)
		defer f.Close()
		_, err := openedInfo(path, f, lim)
		return nil, err
	case lim.MaxBytes > 0 && st.Size > lim.MaxBytes:
		syscall.Close(fd)
		return nil, tooBig(path, st.Size, lim.MaxBytes)
	case pollable(fd):
		syscall.Close(fd)
		return nil, streamErr(path)
	}
	return &Entry{fd: fd, size: st.Size, path: path}, nil
}

// Entry is a regular file Listing.Open opened and checked.
type Entry struct {
	fd   int
	size int64
	path string
}

// Size is the file's size when it was opened.
func (e *Entry) Size() int64 { return e.size }

// Read is read(2), with *os.File's errors: io.EOF at the end, others naming
// the file.
func (e *Entry) Read(p []byte) (int, error) {
	if len(p) == 0 {
		return 0, nil
	}
	n, err := retry(func() (int, error) { return syscall.Read(e.fd, p[:min(len(p), 1<<30)]) })
	switch {
	case err != nil:
		return 0, &fs.PathError{Op: "read", Path: e.path, Err: err}
	case n == 0:
		return 0, io.EOF
	}
	return n, nil
}

// Close closes the file.
func (e *Entry) Close() error { return syscall.Close(e.fd) }

// File hands the descriptor over to an *os.File (for a reader that maps the
// file); closing the *os.File closes it, and the Entry is not used again.
func (e *Entry) File() *os.File { return os.NewFile(uintptr(e.fd), e.path) }

// epoll is a private epoll instance pollable adds descriptors to, to ask the
// kernel whether it can poll them; nothing ever waits on it.
var epoll struct {
	once sync.Once
	fd   int
	err  error
}

// pollable is streamLike for a bare descriptor, asked of the kernel the way
// Go's poller asks it (see streamLike): epoll_ctl(EPOLL_CTL_ADD) fails with
// EPERM exactly when the file cannot be polled (fs/eventpoll.c checks
// file_can_poll right after looking the descriptors up, before anything else
// can fail). Any other answer, a success or an error, counts as pollable:
// the file is refused rather than trusted.
func pollable(fd int) bool {
	epoll.once.Do(func() { epoll.fd, epoll.err = syscall.EpollCreate1(syscall.EPOLL_CLOEXEC) })
	if epoll.err != nil {
		return true
	}
	ev := syscall.EpollEvent{Events: syscall.EPOLLIN}
	err := syscall.EpollCtl(epoll.fd, syscall.EPOLL_CTL_ADD, fd, &ev)
	if err == nil {
		syscall.EpollCtl(epoll.fd, syscall.EPOLL_CTL_DEL, fd, nil)
	}
	return err != syscall.EPERM
}

// retry repeats a system call interrupted by a signal, as package os does.
func retry(call func() (int, error)) (int, error) {
	for {
		n, err := call()
		if err != syscall.EINTR {
			return n, err
		}
	}
}

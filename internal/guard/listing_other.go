//go:build !linux

package guard

import "os"

// Listing is a directory whose entries a listing named regular files; here
// it opens them by path, through OpenEntry (the descriptor-relative opening
// is Linux's).
type Listing struct{}

// OpenListing opens the directory at path.
func OpenListing(path string) (*Listing, error) { return &Listing{}, nil }

// Close closes the directory.
func (l *Listing) Close() error { return nil }

// Open opens the entry name of the directory, which path names, through
// OpenEntry for an entry listed as a regular file.
func (l *Listing) Open(name, path string, lim Limits) (*Entry, error) {
	if err := entryName(name, path); err != nil {
		return nil, err
	}
	f, st, err := OpenEntry(path, 0, lim)
	if err != nil {
		return nil, err
	}
	return &Entry{f: f, size: st.Size()}, nil
}

// Entry is a regular file Listing.Open opened and checked.
type Entry struct {
	f    *os.File
	size int64
}

// Size is the file's size when it was opened.
func (e *Entry) Size() int64 { return e.size }

// Read reads the file.
func (e *Entry) Read(p []byte) (int, error) { return e.f.Read(p) }

// Close closes the file.
func (e *Entry) Close() error { return e.f.Close() }

// File is the opened file; closing it closes the Entry.
func (e *Entry) File() *os.File { return e.f }

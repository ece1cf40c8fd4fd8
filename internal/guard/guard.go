// Package guard is the one gate every file xcvr reads passes through: worker and
// disaggregated YAMLs, config.json, env files, catalogs, logs, the files named on a
// --pid command line, and the install scanner's files. Those files are often
// written by someone else (copied off a shared cluster, taken from /proc of a
// process xcvr did not start), so each is checked before a parser sees it:
//
//   - only regular files are opened, and they are opened non-blocking, so a FIFO,
//     a device or a socket is refused instead of hanging or streaming forever;
//   - size, line length (comment lines too) and line count (lines inside multi-line
//     scalars too) are bounded by Limits;
//   - binary data (NUL, other control bytes, invalid UTF-8) is refused, naming
//     FILE:LINE:COL of the first bad byte;
//   - a UTF-8 byte-order mark is dropped, as PyYAML and Python's utf-8-sig do, so a
//     BOM-only file is an empty file;
//   - YAML is additionally scanned for nesting depth (flow "[[[", block "- - -" and
//     indentation) before the parser, which recurses and allocates per level, runs.
//
// Use ReadFile for whole files, Open for logs that are streamed, and Text/YAML on
// bytes that came from elsewhere (stdin, tests).
package guard

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"time"
	"unicode/utf8"

	"xcvr/internal/yamlpos"
)

// Limits bounds what a reader accepts. A zero field means "no limit" for that
// check; use the constructors for the limits xcvr's readers use.
type Limits struct {
	// MaxBytes is the largest file accepted.
	MaxBytes int64
	// MaxLineBytes is the longest line, counted in bytes, comment lines included.
	MaxLineBytes int
	// MaxLines is the most lines, counting every newline (so lines of a quoted or
	// block scalar count too).
	MaxLines int
	// MaxDepth is the deepest nesting of YAML collections (YAML only).
	MaxDepth int
	// MaxEntries bounds flow-collection entries plus lines in YAML, which go-yaml
	// turns into tokens and nodes before any check of ours can run (YAML only).
	MaxEntries int
	// MaxKeys bounds the entries of one block mapping or sequence (YAML only):
	// go-yaml's parser re-appends a mapping's entries once per key, so its time
	// and allocation grow with the square of the keys of one mapping.
	MaxKeys int
	// AllowCR accepts carriage returns (CRLF files) in text.
	AllowCR bool
}

// Defaults for the readers. Real worker YAMLs, config.json files and env files are
// a few kilobytes and nest a handful of levels: the limits only need to stop
// hostile or mistaken input (a checkpoint shard passed as --config, an alias bomb, a
// FIFO) quickly and in bounded memory. The YAML size is lower than the others
// because go-yaml needs about twenty bytes per byte of a file of short lines.
const (
	MaxFileBytes = 16 << 20
	MaxYAMLBytes = 4 << 20
	MaxDepth     = 64
	MaxLines     = 50_000
	MaxLineBytes = 64 << 10
	// MaxKeys is the most entries of one YAML block mapping: 5,000 keys cost
	// go-yaml about 120 MiB of allocation and under a second; real
	// cache_transceiver_config blocks have ten.
	MaxKeys = 5_000
)

// YAMLLimits are the limits for --config, --disagg and --catalog.
func YAMLLimits() Limits {
	return Limits{MaxBytes: MaxYAMLBytes, MaxLineBytes: MaxLineBytes, MaxLines: MaxLines,
		MaxDepth: MaxDepth, MaxEntries: MaxLines, MaxKeys: MaxKeys, AllowCR: true}
}

// JSONLimits are the limits for a checkpoint's config.json (real ones are a few
// kilobytes; some tokenizer configs are megabytes, but xcvr reads only config.json).
func JSONLimits() Limits {
	return Limits{MaxBytes: MaxFileBytes, MaxLineBytes: MaxFileBytes, MaxLines: 1 << 20, MaxDepth: MaxDepth, AllowCR: true}
}

// EnvLimits are the limits for --env-file: an `export -p` of a login shell is tens
// of kilobytes; no environment holds 50,000 variables or a 64 KiB line.
func EnvLimits() Limits {
	return Limits{MaxBytes: 4 << 20, MaxLineBytes: MaxLineBytes, MaxLines: MaxLines, AllowCR: true}
}

// ProcLimits are the limits for /proc/PID/cmdline and environ (NUL-separated, so
// no text checks; Linux caps each at a few MiB anyway).
func ProcLimits() Limits { return Limits{MaxBytes: MaxFileBytes} }

// BOM is the UTF-8 byte-order mark.
const BOM = "\ufeff"

// StripBOM drops one leading UTF-8 byte-order mark.
func StripBOM(data []byte) []byte { return bytes.TrimPrefix(data, []byte(BOM)) }

// ErrNotRegular is wrapped by the error for a FIFO, device, socket or directory.
var ErrNotRegular = errors.New("not a regular file")

// Open opens path for reading only if it is a regular file: it stats first (a FIFO
// is refused before any open that could block), opens with O_NONBLOCK (so a file
// swapped for a FIFO in between cannot block either) and checks the opened file
// again. lim.MaxBytes, when set, refuses a file already known to be larger. Use it
// for inputs read as a stream (logs); the caller bounds what it reads.
func Open(path string, lim Limits) (*os.File, error) {
	st, err := os.Stat(path)
	if err != nil {
		return nil, err
	}
	if err := regular(path, st); err != nil {
		return nil, err
	}
	f, err := os.OpenFile(path, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return nil, err
	}
	if err := opened(path, f, lim); err != nil {
		f.Close()
		return nil, err
	}
	return f, nil
}

// OpenEntry is Open for a file that a directory listing (fs.DirEntry.Type)
// named a regular file, as a walk of a log directory does: the listing stands
// for Open's stat before the open (a FIFO or device listed as such is refused
// unopened), the open does not follow a symbolic link (so an entry swapped for
// one since the listing is refused, not followed to a FIFO), and the opened
// descriptor is checked exactly as Open checks it. Any other listed type goes
// through Open. It returns the opened descriptor's FileInfo too, so that a
// reader knows the size without another stat.
func OpenEntry(path string, typ fs.FileMode, lim Limits) (*os.File, fs.FileInfo, error) {
	flags := os.O_RDONLY | syscall.O_NONBLOCK
	if typ.Type() == 0 {
		flags |= syscall.O_NOFOLLOW
	} else {
		st, err := os.Stat(path)
		if err != nil {
			return nil, nil, err
		}
		if err := regular(path, st); err != nil {
			return nil, nil, err
		}
	}
	f, err := os.OpenFile(path, flags, 0)
	if err != nil {
		return nil, nil, err
	}
	st, err := openedInfo(path, f, lim)
	if err != nil {
		f.Close()
		return nil, nil, err
	}
	return f, st, nil
}

// opened checks the descriptor Open or Dir.Open got: a regular file within
// lim.MaxBytes, and one that reads like a file (see streamLike).
func opened(path string, f *os.File, lim Limits) error {
	_, err := openedInfo(path, f, lim)
	return err
}

// openedInfo is opened, returning the descriptor's FileInfo.
func openedInfo(path string, f *os.File, lim Limits) (fs.FileInfo, error) {
	st, err := f.Stat()
	if err == nil {
		err = regular(path, st)
	}
	if err == nil && lim.MaxBytes > 0 && st.Size() > lim.MaxBytes {
		err = tooBig(path, st.Size(), lim.MaxBytes)
	}
	if err == nil && streamLike(f) {
		err = streamErr(path)
	}
	return st, err
}

// streamErr is the error for a file stat calls regular that the kernel polls.
func streamErr(path string) error {
	return notRegular(path + ": refused: a stream that stat calls a regular file (procfs or sysfs, as /proc/kmsg): its size says nothing and a read of it can wait forever")
}

// entryName refuses a name that is not one entry of a directory (Listing).
func entryName(name, path string) error {
	if name == "" || name == "." || name == ".." || strings.ContainsRune(name, filepath.Separator) {
		return fmt.Errorf("%s: refused: %q is not a name in a directory listing", path, name)
	}
	return nil
}

// streamLike reports whether a file opened non-blocking can be polled: the
// kernel waits for data on it, as on a pipe. A file on a disk (ext4, xfs,
// NFS, tmpfs, overlayfs) and /proc/PID/cmdline and environ cannot be polled;
// /proc/kmsg, /proc/PID/mounts, sysfs attributes and tracefs pipes can, and
// stat calls them regular files of size 0. Go registers a non-blocking
// descriptor with its poller exactly when the kernel can poll it, and only
// then accepts a deadline: that is the test, without reading a byte (a read
// of /proc/kmsg would take the kernel's messages from whoever reads them).
func streamLike(f *os.File) bool {
	return f.SetReadDeadline(time.Time{}) == nil
}

// notRegular is an error that wraps ErrNotRegular without repeating its words.
type notRegular string

func (e notRegular) Error() string { return string(e) }
func (e notRegular) Unwrap() error { return ErrNotRegular }

func regular(path string, st fs.FileInfo) error {
	m := st.Mode()
	if m.IsRegular() {
		return nil
	}
	what := "a special file"
	switch {
	case m.IsDir():
		what = "a directory"
	case m&fs.ModeNamedPipe != 0:
		what = "a FIFO (named pipe)"
	case m&fs.ModeSocket != 0:
		what = "a socket"
	case m&fs.ModeDevice != 0:
		what = "a device"
	}
	return fmt.Errorf("%s: refused: %s, %w; xcvr opens only regular files, so it never waits on a writer that does not come", path, what, ErrNotRegular)
}

// ReadRaw reads a whole regular file through Open, never holding more than
// lim.MaxBytes+1 bytes, with no text checks (for /proc's NUL-separated files).
func ReadRaw(path string, lim Limits) ([]byte, error) {
	f, err := Open(path, lim)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return ReadAll(path, f, lim)
}

// ReadAll reads r to the end but never holds more than lim.MaxBytes+1 bytes, so a
// pipe or a /proc file cannot make xcvr allocate without bound.
func ReadAll(name string, r io.Reader, lim Limits) ([]byte, error) {
	if lim.MaxBytes <= 0 {
		return io.ReadAll(r)
	}
	data, err := io.ReadAll(io.LimitReader(r, lim.MaxBytes+1))
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	if int64(len(data)) > lim.MaxBytes {
		return nil, tooBig(name, int64(len(data)), lim.MaxBytes)
	}
	return data, nil
}

// ReadFile is the whole-file reader: Open, a bounded read, Text, and the BOM
// dropped. When lim.MaxDepth is set the data is also checked as YAML (see YAML).
// The bytes returned are what the parser should see.
func ReadFile(path string, lim Limits) ([]byte, error) {
	data, err := ReadRaw(path, lim)
	if err != nil {
		return nil, err
	}
	return Check(path, data, lim)
}

// Check applies ReadFile's checks to data already in memory and returns it without
// its BOM.
func Check(name string, data []byte, lim Limits) ([]byte, error) {
	if err := Text(name, data, lim); err != nil {
		return nil, err
	}
	data = StripBOM(data)
	if lim.MaxDepth > 0 || lim.MaxEntries > 0 {
		if err := YAML(name, data, lim); err != nil {
			return nil, err
		}
	}
	return data, nil
}

func tooBig(name string, n, limit int64) error {
	what := "larger than the " + size(limit) + " limit"
	if n <= limit+1 {
		// Only what was read is known (a pipe, or a file that grew).
		what = "over the " + size(limit) + " limit"
	} else {
		what = size(n) + " is over the " + size(limit) + " limit"
	}
	return &yamlpos.Error{File: name, Msg: "refused: " + what + "; this is not a configuration file"}
}

func size(n int64) string {
	if n < 1<<10 {
		return fmt.Sprintf("%d bytes", n)
	}
	if n >= 1<<20 && n%(1<<20) == 0 {
		return fmt.Sprintf("%d MiB", n>>20)
	}
	if n >= 1<<20 {
		return fmt.Sprintf("%.2f MiB", float64(n)/(1<<20))
	}
	return fmt.Sprintf("%d KiB", (n+1023)>>10)
}

// Text refuses data that cannot be a text file within lim: too large, a NUL or
// other control byte (tab, newline and, with AllowCR, carriage return are text),
// invalid UTF-8, a line longer than lim.MaxLineBytes or more than lim.MaxLines
// lines. The error names FILE:LINE:COL of the first offending byte. A leading BOM
// is allowed. It runs in one pass and does not allocate on success.
func Text(name string, data []byte, lim Limits) error {
	if lim.MaxBytes > 0 && int64(len(data)) > lim.MaxBytes {
		return tooBig(name, int64(len(data)), lim.MaxBytes)
	}
	data = StripBOM(data)
	line, col, lineStart := 1, 1, 0
	for i := 0; i < len(data); {
		c := data[i]
		if c < utf8.RuneSelf {
			switch {
			case c == '\n':
				if lim.MaxLines > 0 && line >= lim.MaxLines && i+1 < len(data) {
					return &yamlpos.Error{File: name, Line: line + 1, Col: 1, Msg: fmt.Sprintf("refused: more than %d lines; this is not a configuration file", lim.MaxLines)}
				}
				line++
				col = 1
				i++
				lineStart = i
				continue
			case c == 0:
				return &yamlpos.Error{File: name, Line: line, Col: col, Msg: "refused: binary data (NUL byte); this is not a text file"}
			case c == '\r' && lim.AllowCR:
			case c < 0x20 && c != '\t', c == 0x7f:
				return &yamlpos.Error{File: name, Line: line, Col: col, Msg: fmt.Sprintf("refused: control character 0x%02x; this is not a text file", c)}
			}
			i++
		} else {
			r, n := utf8.DecodeRune(data[i:])
			if r == utf8.RuneError && n <= 1 {
				return &yamlpos.Error{File: name, Line: line, Col: col, Msg: "refused: invalid UTF-8; this is not a text file"}
			}
			i += n
		}
		col++
		if lim.MaxLineBytes > 0 && i-lineStart > lim.MaxLineBytes {
			return &yamlpos.Error{File: name, Line: line, Col: col - 1, Msg: fmt.Sprintf("refused: a line longer than %s; this is not a configuration file", size(int64(lim.MaxLineBytes)))}
		}
	}
	return nil
}

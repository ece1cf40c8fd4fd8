package logs

import (
	"bytes"
	"compress/gzip"
	"errors"
	"fmt"
	"io"
	"os"

	"xcvr/internal/guard"
)

// Follower follows a growing log the way tail -F does: it reads what was
// appended since the last Poll, starts over when the file is truncated, and
// moves to the new file when the path is replaced (log rotation). It never
// sleeps: the caller decides when to poll, so tests drive it step by step.
type Follower struct {
	// Path is the followed file; Name is the log's name in reports.
	Path, Name string
	// FS, when set, is where Path is stat'ed and opened (xcvr serve
	// --serve-dir's directory); nil is the host's file system.
	FS      guard.FS
	f       *os.File
	fi      os.FileInfo
	off     int64
	p       *Parser
	buf     []byte
	missing bool
	prev    *Log
	// seam is the last bytes read (up to seamSize, seamN of them): a file
	// truncated and written again past the old end between two polls is
	// told from one that grew by these bytes no longer being where they were.
	seam  [seamSize]byte
	seamN int
	// gz: the file is gzip data, read whole through compress/gzip when
	// opened (a rotated, compressed log does not grow) and again whenever
	// its size changes.
	gz bool
}

// seamSize is how many of the last bytes read are kept to notice a rewrite.
const seamSize = 64

// Previous returns, once, what the file showed before it was truncated or
// replaced (nil otherwise), so that its last verdicts can be reported.
func (fw *Follower) Previous() *Log {
	p := fw.prev
	fw.prev = nil
	return p
}

// FollowNote says what a Poll noticed besides new lines.
type FollowNote string

// What Poll can notice.
const (
	NoteNone      FollowNote = ""
	NoteOpened    FollowNote = "opened"
	NoteWaiting   FollowNote = "waiting for the file to appear"
	NoteTruncated FollowNote = "truncated: reading it again from the start"
	NoteRotated   FollowNote = "replaced (rotated): following the new file from its start"
)

// NewFollower follows path; nothing is read before the first Poll.
func NewFollower(path, name string) *Follower {
	return &Follower{Path: path, Name: name}
}

// UseBuffer makes the follower read through b, which followers polled one at a
// time may share: following many files then costs one buffer, not one each.
func (fw *Follower) UseBuffer(b []byte) { fw.buf = b }

// Poll reads everything appended since the last call. grew reports whether
// lines were read; note what else happened. A file that is not regular is an
// error; one that does not exist (yet, or between rotations) is waited for.
func (fw *Follower) Poll() (grew bool, note FollowNote, err error) {
	st, serr := fw.fs().Stat(fw.Path)
	if fw.f == nil {
		if serr != nil {
			if errors.Is(serr, os.ErrNotExist) {
				if !fw.missing {
					fw.missing = true
					return false, NoteWaiting, nil
				}
				return false, NoteNone, nil
			}
			return false, NoteNone, serr
		}
		if err := fw.open(); err != nil {
			return false, NoteNone, err
		}
		note = NoteOpened
	} else if serr == nil && !os.SameFile(fw.fi, st) {
		// Rotated: the old file's last lines first, then the new file.
		if _, err := fw.drain(); err != nil {
			return false, NoteNone, err
		}
		fw.prev = endLog(fw.p)
		fw.f.Close()
		fw.f = nil
		if err := fw.open(); err != nil {
			return false, NoteNone, err
		}
		note = NoteRotated
	}
	if cur, err := fw.f.Stat(); err == nil && (cur.Size() < fw.off || fw.rewritten(cur.Size()) || fw.gz && cur.Size() != fw.off) {
		fw.off, fw.seamN = 0, 0
		if _, err := fw.f.Seek(0, io.SeekStart); err != nil {
			return false, NoteNone, err
		}
		fw.prev = endLog(fw.p)
		fw.p = NewParser(fw.Name)
		fw.gz = false
		note = NoteTruncated
	}
	grew, err = fw.drain()
	return grew, note, err
}

func (fw *Follower) fs() guard.FS {
	if fw.FS == nil {
		return guard.Host{}
	}
	return fw.FS
}

func (fw *Follower) open() error {
	// The guard every reader uses: a regular file only, opened without blocking.
	f, err := fw.fs().Open(fw.Path, guard.Limits{})
	if err != nil {
		return err
	}
	st, err := f.Stat()
	if err != nil {
		f.Close()
		return err
	}
	fw.f, fw.fi, fw.off, fw.missing, fw.seamN, fw.gz = f, st, 0, false, 0, false
	fw.p = NewParser(fw.Name)
	return nil
}

// rewritten reports whether a file at least as long as what was read no
// longer holds, just before the offset, the bytes read there: it was truncated
// and written again (a restarted server's log) between two polls, and grew
// past the old end, which its size alone does not show.
func (fw *Follower) rewritten(size int64) bool {
	if fw.seamN == 0 || size <= fw.off {
		return false
	}
	var b [seamSize]byte
	n, err := fw.f.ReadAt(b[:fw.seamN], fw.off-int64(fw.seamN))
	return err == nil && n == fw.seamN && string(b[:n]) != string(fw.seam[:fw.seamN])
}

// keepSeam records the last bytes read.
func (fw *Follower) keepSeam(p []byte) {
	if len(p) >= seamSize {
		fw.seamN = copy(fw.seam[:], p[len(p)-seamSize:])
		return
	}
	keep := min(fw.seamN, seamSize-len(p))
	copy(fw.seam[:], fw.seam[fw.seamN-keep:fw.seamN])
	fw.seamN = keep + copy(fw.seam[keep:], p)
}

// drain reads the open file to its current end.
func (fw *Follower) drain() (bool, error) {
	if len(fw.buf) == 0 {
		fw.buf = make([]byte, 256<<10)
	}
	before := fw.p.Lines()
	for {
		n, err := fw.f.Read(fw.buf)
		if n > 0 && fw.off == 0 && isGzip(fw.buf[:n]) {
			return fw.drainGzip(fw.buf[:n])
		}
		if fw.gz {
			return false, nil // read whole when opened; a change reads it again (Poll)
		}
		if n > 0 {
			fw.off += int64(n)
			fw.keepSeam(fw.buf[:n])
			if _, werr := fw.p.Write(fw.buf[:n]); werr != nil {
				return false, fmt.Errorf("%s: %w", fw.Path, werr)
			}
		}
		if err == io.EOF || n == 0 {
			return fw.p.Lines() != before, nil
		}
		if err != nil {
			return false, err
		}
	}
}

// drainGzip reads the whole gzip file whose first bytes are first (read
// from the file's start) and parses its text.
func (fw *Follower) drainGzip(first []byte) (bool, error) {
	in := &countReader{r: io.MultiReader(bytes.NewReader(bytes.Clone(first)), fw.f)}
	zr, err := gzip.NewReader(in)
	if err != nil {
		return false, fmt.Errorf("%s: %w", fw.Path, gzipErr(err))
	}
	text := &bombGuard{zr: zr, in: in}
	before := fw.p.Lines()
	for {
		n, err := text.Read(fw.buf)
		if n > 0 {
			if _, werr := fw.p.Write(fw.buf[:n]); werr != nil {
				return false, fmt.Errorf("%s: %w", fw.Path, werr)
			}
		}
		if err == io.EOF {
			break
		}
		if err != nil {
			return false, fmt.Errorf("%s: %w", fw.Path, gzipErr(err))
		}
	}
	fw.off, fw.gz = in.n, true
	return fw.p.Lines() != before, nil
}

// Log is what the whole lines read so far show. A last line without its
// newline is left for later: while the file is followed, its writer may not
// have written the rest of it yet (a block-buffered process's output breaks
// lines anywhere).
func (fw *Follower) Log() *Log {
	if fw.p == nil {
		return &Log{Name: fw.Name}
	}
	return fw.p.Snapshot()
}

// End is what the file shows at the end of following (Ctrl-C), or when it is
// read once: Log, and a last line without its newline read too, as a batch
// run reads it (a pasted excerpt often ends so). Nothing is read after it.
func (fw *Follower) End() *Log {
	if fw.p == nil {
		return &Log{Name: fw.Name}
	}
	return endLog(fw.p)
}

// endLog ends p's log, its partial last line read (Parser.Close).
func endLog(p *Parser) *Log {
	if lg, err := p.Close(); err == nil {
		return lg
	}
	return p.Snapshot()
}

// Close closes the file.
func (fw *Follower) Close() error {
	if fw.f == nil {
		return nil
	}
	return fw.f.Close()
}

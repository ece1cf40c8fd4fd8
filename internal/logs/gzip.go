package logs

import (
	"compress/gzip"
	"errors"
	"fmt"
	"io"
)

// Rotated logs are often compressed: the kubelet gzips a container's older
// log files (0.log.20250101-120000.gz), logrotate's compress option does the
// same, and logs are attached to bug reports as .gz. A log that starts with
// gzip's magic bytes is read through compress/gzip (several members, as
// gzip -c a b > c writes, are one stream), whatever its name; one gzip layer
// only. Other compressions (zstd, xz, bzip2) are named in the refusal.

// ErrGzipFollow is returned when gzip data is written to a Parser, which
// reads text as it arrives (a file is decompressed by Parse, ParseFile and
// the Follower).
var ErrGzipFollow = errors.New("refused: gzip-compressed data in a stream; give the .gz file itself, or decompress it first (zcat FILE)")

// maxGzipRatio bounds how many times larger than its compressed bytes a
// gzip log may grow, once past minGzipBomb: real logs compress 5 to 50
// times; deflate can reach about 1,000 (a bomb of repeated lines).
const maxGzipRatio = 256

// minGzipBomb is a variable so that a test need not write 256 MB.
var minGzipBomb int64 = 256 << 20

// isGzip reports whether b starts as gzip data does (RFC 1952: ID1 ID2 CM=8).
func isGzip(b []byte) bool { return len(b) >= 3 && b[0] == 0x1f && b[1] == 0x8b && b[2] == 8 }

// compressedAs names the compression b starts with that xcvr does not read
// ("" for none of them).
func compressedAs(b []byte) string {
	switch {
	case len(b) >= 4 && b[0] == 0x28 && b[1] == 0xb5 && b[2] == 0x2f && b[3] == 0xfd:
		return "zstd"
	case len(b) >= 6 && string(b[:6]) == "\xfd7zXZ\x00":
		return "xz"
	case len(b) >= 10 && string(b[:3]) == "BZh" && b[3] >= '1' && b[3] <= '9' && string(b[4:10]) == "1AY&SY":
		return "bzip2"
	}
	return ""
}

// binaryErr is the refusal of input that starts with b and holds a NUL
// byte: a compression xcvr does not read is named, with the command that
// reads it.
func binaryErr(b []byte) error {
	if c := compressedAs(b); c != "" {
		return compressedErr(c)
	}
	switch {
	case len(b) >= 4 && string(b[:2]) == "PK" && (string(b[2:4]) == "\x03\x04" || string(b[2:4]) == "\x05\x06"):
		return archiveErr("a zip archive, not a log; extract it (unzip FILE -d DIR) and give check-logs the directory")
	case len(b) >= 262 && string(b[257:262]) == "ustar":
		return archiveErr("a tar archive, not a log; extract it (tar xf FILE -C DIR) and give check-logs the directory")
	}
	return ErrBinary
}

// archiveErr is the refusal of an archive of logs (a job's logs.tar.gz, a
// CI run's zip): its members are read once extracted. It is an ErrBinary.
type archiveErr string

func (a archiveErr) Error() string { return "refused: " + string(a) }

// Is makes errors.Is(err, ErrBinary) hold.
func (a archiveErr) Is(target error) bool { return target == ErrBinary }

// compressedErr is the refusal of data compressed with a compression xcvr
// does not read; it is an ErrBinary too.
type compressedErr string

func (c compressedErr) Error() string {
	return fmt.Sprintf("refused: %s-compressed data; decompress it first (%s -dc FILE | xcvr check-logs -)", string(c), string(c))
}

// Is makes errors.Is(err, ErrBinary) hold.
func (c compressedErr) Is(target error) bool { return target == ErrBinary }

// parseGzip parses the gzip stream r (its first bytes already read are part
// of it) as Parse parses text.
func parseGzip(name string, r io.Reader) (*Log, error) {
	in := &countReader{r: r}
	zr, err := gzip.NewReader(in)
	if err != nil {
		return &Log{Name: name}, gzipErr(err)
	}
	lg, err := parseText(name, &bombGuard{zr: zr, in: in}, -1, false)
	if err != nil {
		err = gzipErr(err)
	}
	return lg, err
}

// errGzipCut is the error of gzip data that stops inside a member.
var errGzipCut = errors.New("gzip data cut short (unexpected end of file)")

// gzipErr says that a read error came from the gzip stream.
func gzipErr(err error) error {
	switch {
	case errors.Is(err, io.ErrUnexpectedEOF), errors.Is(err, io.EOF):
		return errGzipCut
	case errors.Is(err, gzip.ErrChecksum), errors.Is(err, gzip.ErrHeader):
		return fmt.Errorf("%w: the gzip data is damaged", err)
	}
	return err
}

// countReader counts the bytes read through it.
type countReader struct {
	r io.Reader
	n int64
}

func (c *countReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n += int64(n)
	return n, err
}

// bombGuard reads zr, refusing more than maxGzipRatio times the compressed
// bytes read (past minGzipBomb): the time a log takes stays linear in the
// file given, not in what it claims to expand to.
type bombGuard struct {
	zr  io.Reader
	in  *countReader
	out int64
}

func (b *bombGuard) Read(p []byte) (int, error) {
	n, err := b.zr.Read(p)
	if err == io.ErrUnexpectedEOF {
		// Not the end of the log (the readers take that for a short last
		// read): the compressed data stops inside a member.
		err = errGzipCut
	}
	b.out += int64(n)
	if b.out > minGzipBomb && b.out > maxGzipRatio*b.in.n {
		return n, fmt.Errorf("refused: the gzip data expands more than %d times (%d MB from %d KB): not a log", maxGzipRatio, b.out>>20, (b.in.n+1023)>>10)
	}
	return n, err
}

package logs

import (
	"archive/tar"
	"archive/zip"
	"bytes"
	"compress/gzip"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func gzipped(t *testing.T, parts ...[]byte) []byte {
	t.Helper()
	var b bytes.Buffer
	for _, p := range parts { // one member each: gzip -c a b > c
		zw := gzip.NewWriter(&b)
		if _, err := zw.Write(p); err != nil {
			t.Fatal(err)
		}
		if err := zw.Close(); err != nil {
			t.Fatal(err)
		}
	}
	return b.Bytes()
}

// parseBoth parses data as a file (ParseFile: mapped past a small log) and
// as a stream (Parse), and says if the two differ.
func parseBoth(t *testing.T, data []byte) (string, error) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "x.log.gz")
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	lgFile, errFile := ParseFile("x", f, int64(len(data)))
	lgStream, errStream := Parse("x", bytes.NewReader(data))
	if (errFile == nil) != (errStream == nil) || errFile != nil && errFile.Error() != errStream.Error() {
		t.Fatalf("ParseFile: %v; Parse: %v", errFile, errStream)
	}
	if errFile != nil {
		return "", errFile
	}
	if a, b := summary(t, lgFile), summary(t, lgStream); a != b {
		t.Fatalf("ParseFile and Parse differ on gzip data:\n%s\n%s", a, b)
	}
	return summary(t, lgFile), nil
}

// TestGzipLog: a gzipped log (a rotated kubelet or logrotate file, an
// attachment) reads as its text does, small or large, one gzip member or
// several.
func TestGzipLog(t *testing.T) {
	small, err := os.ReadFile("testdata/gen-1.3-dead-rank.log")
	if err != nil {
		t.Fatal(err)
	}
	var large bytes.Buffer
	if err := writeJobLog(&large, 3<<20, 4); err != nil {
		t.Fatal(err)
	}
	for name, text := range map[string][]byte{"small": small, "large": large.Bytes()} {
		want := summary(t, mustParse(t, text))
		got, err := parseBoth(t, gzipped(t, text))
		if err != nil || got != want {
			t.Errorf("%s: gzipped reads\n%s (%v)\nwant\n%s", name, got, err, want)
		}
		half := bytes.LastIndexByte(text[:len(text)/2], '\n') + 1
		got, err = parseBoth(t, gzipped(t, text[:half], text[half:]))
		if err != nil || got != want {
			t.Errorf("%s in two gzip members reads\n%s (%v)\nwant\n%s", name, got, err, want)
		}
	}
}

func mustParse(t *testing.T, text []byte) *Log {
	t.Helper()
	lg, err := Parse("x", bytes.NewReader(text))
	if err != nil {
		t.Fatal(err)
	}
	return lg
}

// TestGzipRefusals: damaged gzip data, a bomb and compressions xcvr does not
// read each get an error that says so; a followed gzip file is refused.
func TestGzipRefusals(t *testing.T) {
	var text bytes.Buffer
	if err := writeJobLog(&text, 1<<20, 2); err != nil {
		t.Fatal(err)
	}
	z := gzipped(t, text.Bytes())
	bad := bytes.Clone(z)
	bad[len(bad)-6] ^= 0xff // the CRC-32
	old := minGzipBomb
	minGzipBomb = 1 << 20
	defer func() { minGzipBomb = old }()
	bomb := gzipped(t, bytes.Repeat([]byte("[TRT-LLM] [I] a\n"), 1<<18)) // 4 MiB in a few KiB
	for _, c := range []struct {
		name string
		data []byte
		want string
	}{
		{"cut short", z[:len(z)/2], "gzip data cut short"},
		{"damaged", bad, "the gzip data is damaged"},
		{"bomb", bomb, "expands more than 256 times"},
		{"zstd", append([]byte{0x28, 0xb5, 0x2f, 0xfd, 0x24, 0x10, 0}, text.Bytes()...), "zstd-compressed data; decompress it first (zstd -dc FILE | xcvr check-logs -)"},
		{"xz", append([]byte("\xfd7zXZ\x00\x00"), text.Bytes()...), "xz-compressed"},
		{"bzip2", append([]byte("BZh91AY&SY\x00"), text.Bytes()...), "bzip2-compressed"},
	} {
		_, err := parseBoth(t, c.data)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want %q", c.name, err, c.want)
		}
		if c.name == "zstd" && !errors.Is(err, ErrBinary) {
			t.Errorf("a compression xcvr does not read is not ErrBinary: %v", err)
		}
	}
	// An archive of logs says how to read its members.
	var tb, zb bytes.Buffer
	tw := tar.NewWriter(&tb)
	tw.WriteHeader(&tar.Header{Name: "job/gen-0.log", Mode: 0o644, Size: int64(text.Len())})
	tw.Write(text.Bytes())
	tw.Close()
	zw := zip.NewWriter(&zb)
	f, _ := zw.Create("job/gen-0.log")
	f.Write(text.Bytes())
	zw.Close()
	for name, c := range map[string]struct {
		data []byte
		want string
	}{
		"tar":    {tb.Bytes(), "a tar archive, not a log; extract it (tar xf FILE -C DIR)"},
		"tar.gz": {gzipped(t, tb.Bytes()), "a tar archive, not a log"},
		"zip":    {zb.Bytes(), "a zip archive, not a log; extract it (unzip FILE -d DIR)"},
	} {
		_, err := parseBoth(t, c.data)
		if err == nil || !strings.Contains(err.Error(), c.want) || !errors.Is(err, ErrBinary) {
			t.Errorf("%s: %v, want %q", name, err, c.want)
		}
	}
	// Text that merely starts as bzip2's magic does is not called bzip2.
	if _, err := Parse("x", strings.NewReader("BZh9 is a word\n\x00")); err != ErrBinary {
		t.Errorf("NUL after text starting BZh9: %v, want ErrBinary", err)
	}
	// gzip bytes written to a Parser (text as it arrives) are refused.
	if _, err := NewParser("x").Write(z); !errors.Is(err, ErrGzipFollow) {
		t.Errorf("gzip written to a Parser: %v, want ErrGzipFollow", err)
	}
}

// TestFollowGzip: a followed gzip file (the explorer's --log, check-logs -f)
// is read whole, decompressed, and again when it is replaced.
func TestFollowGzip(t *testing.T) {
	text, err := os.ReadFile("testdata/gen-1.3-dead-rank.log")
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "gen.log.gz")
	if err := os.WriteFile(path, gzipped(t, text), 0o644); err != nil {
		t.Fatal(err)
	}
	fw := NewFollower(path, "x")
	defer fw.Close()
	lg := poll(t, fw, NoteOpened)
	if got, want := summary(t, lg), summary(t, mustParse(t, text)); got != want {
		t.Fatalf("followed gzip reads\n%s\nwant\n%s", got, want)
	}
	poll(t, fw, NoteNone)
	// Written again in place (a new compressed file of the same name).
	other := []byte("[TRT-LLM] [RANK 7] [I] Using KvCacheTransceiverV2\n")
	if err := os.WriteFile(path, gzipped(t, other), 0o644); err != nil {
		t.Fatal(err)
	}
	lg = poll(t, fw, NoteTruncated)
	if len(lg.Processes) != 1 || lg.Processes[0].Source != "rank 7" {
		t.Fatalf("after the gzip file was rewritten: %+v", lg.Processes)
	}
}

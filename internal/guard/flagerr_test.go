package guard

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"syscall"
	"testing"

	"xcvr/internal/termsafe"
	"xcvr/internal/yamlpos"
)

// Every file flag names itself, in one shape, and the error under it still
// answers errors.Is and errors.As.
func TestFlagError(t *testing.T) {
	dir := t.TempDir()
	_, missing := ReadFile(filepath.Join(dir, "nx"), YAMLLimits())
	_, isDir := ReadFile(dir, YAMLLimits())
	bad := filepath.Join(dir, "bad.yaml")
	if err := os.WriteFile(bad, []byte("a: 1\nb: \x01\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, binary := ReadFile(bad, YAMLLimits())
	cases := []struct {
		flag, path string
		err        error
		want       string
	}{
		{"--config", dir + "/nx", missing, "--config " + dir + "/nx: no such file or directory"},
		{"--config", dir, isDir, "--config " + dir + ": refused: a directory, not a regular file; xcvr opens only regular files, so it never waits on a writer that does not come"},
		{"--env-file", bad, binary, "--env-file " + bad + ":2:4: refused: control character 0x01; this is not a text file"},
		{"--model-dir", "/m", &fs.PathError{Op: "stat", Path: "/m/config.json", Err: syscall.EACCES}, "--model-dir /m: /m/config.json: permission denied"},
		{"--host-key", "/k/key", &fs.PathError{Op: "mkdir", Path: "/k", Err: syscall.EACCES}, "--host-key /k/key: mkdir /k: permission denied"},
		{"--log", "x.log", fmt.Errorf("x.log: %w", &fs.PathError{Op: "read", Path: "x.log", Err: syscall.EISDIR}), "--log x.log: is a directory"},
		{"--tour", "t.yaml", errors.New("something else"), "--tour t.yaml: something else"},
		{"", "/nx", &fs.PathError{Op: "stat", Path: "/nx", Err: syscall.ENOENT}, "/nx: no such file or directory"},
	}
	for _, c := range cases {
		got := FlagError(c.flag, c.path, c.err)
		if got.Error() != c.want {
			t.Errorf("%s %s: %q, want %q", c.flag, c.path, got, c.want)
		}
		if !errors.Is(got, c.err) {
			t.Errorf("%s: the error under it is lost", c.want)
		}
	}
	if !errors.Is(FlagError("--config", dir+"/nx", missing), fs.ErrNotExist) || !errors.Is(FlagError("--config", dir, isDir), ErrNotRegular) {
		t.Error("errors.Is through FlagError")
	}
	var ye *yamlpos.Error
	if !errors.As(FlagError("--env-file", bad, binary), &ye) {
		t.Error("errors.As(yamlpos.Error) through FlagError")
	}
	// A path with a newline in an error whose newlines are kept.
	ml := FlagError("--install", "a\nb", termsafe.MultilineError{Err: errors.New("several:\n  x")})
	if got := termsafe.Message(ml); got != `--install a\nb: several:`+"\n  x" {
		t.Errorf("multiline: %q", got)
	}
	if FlagError("--config", "x", nil) != nil {
		t.Error("nil")
	}
}

package cli

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A file given to a flag that cannot be read is said with the flag, in one
// shape: `explain --config /nx` said "stat /nx: no such file or directory",
// which names neither the flag nor what to fix. Every flag of the cli
// package that takes a file is here.
func TestFileFlagsNameThemselves(t *testing.T) {
	dir := t.TempDir()
	nx := filepath.Join(dir, "nx")
	bad := filepath.Join(dir, "bad.yaml")
	if err := os.WriteFile(bad, []byte("backend: UCX\nmodel: a\x1bb\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	keys := filepath.Join(dir, "keys")
	if err := os.WriteFile(keys, []byte("ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIGLbbOOwQ3Mr1QbzLCwo1aSqiHtcbYtu6yrYrW8aFnMM qa\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	const enoent = ": no such file or directory"
	cases := []struct {
		args []string
		want string
	}{
		{[]string{"explain", "--config", nx}, "--config " + nx + enoent},
		{[]string{"explain", "--config", dir}, "--config " + dir + ": refused: a directory, not a regular file"},
		{[]string{"explain", "--config", bad}, "--config " + bad + ":2:9: refused: control character 0x1b; this is not a text file"},
		{[]string{"explain", "--disagg", nx}, "--disagg " + nx + enoent},
		{[]string{"explain", "--env-file", nx}, "--env-file " + nx + enoent},
		{[]string{"explain", "--model-config", nx}, "--model-config " + nx + enoent},
		{[]string{"explain", "--model-dir", nx}, "--model-dir " + nx + ": " + nx + "/config.json" + enoent},
		{[]string{"explain", "--catalog", nx}, "--catalog " + nx + enoent},
		{[]string{"models", "--catalog", nx}, "--catalog " + nx + enoent},
		{[]string{"inspect", "auto", "--catalog", nx}, "--catalog " + nx + enoent},
		{[]string{"explain", "--worker", nx + "#decode"}, "--worker " + nx + enoent},
		{[]string{"explain", "--install", nx}, "--install " + nx + enoent},
		{[]string{"upgrade-check", "--from", "1.3.0rc29", "--to-install", nx}, "--to-install " + nx + enoent},
		{[]string{"upgrade-check", "--from-install", nx}, "--from-install " + nx + enoent},
		{[]string{"tour", "--tour", nx}, "--tour " + nx + enoent},
		{[]string{"--log", nx}, "--log " + nx + enoent},                 // off a terminal: check-logs
		{[]string{"--accessible", "--log", nx}, "--log " + nx + enoent}, // the linear mode reads it itself
		{[]string{"check-logs", "x.log", "--config", nx}, "--config " + nx + enoent},
		{[]string{"audit", "-", "--catalog", nx}, "--catalog " + nx + enoent},
		{[]string{"serve", "--authorized-keys", nx}, "--authorized-keys " + nx + enoent},
		{[]string{"serve", "--authorized-keys", keys, "--serve-dir", nx}, "--serve-dir " + nx + enoent},
		{[]string{"serve", "--authorized-keys", keys, "--host-key", "/proc/nx/key"}, "--host-key /proc/nx/key: mkdir /proc/nx" + enoent},
		// An argument (not a flag) is the file alone, without os's "stat".
		{[]string{"audit", nx}, nx + enoent},
	}
	for _, c := range cases {
		t.Run(strings.Join(c.args, " "), func(t *testing.T) {
			out, errOut, code := run(t, nil, c.args...)
			if code != 2 || out != "" || !strings.HasPrefix(errOut, "xcvr: "+c.want) {
				t.Errorf("exit %d, stdout %q\nstderr %q\nwant   %q", code, out, errOut, "xcvr: "+c.want)
			}
		})
	}
}

// The --config that --pid took from trtllm-serve's command line is named so.
func TestPidConfigNamesPid(t *testing.T) {
	root := t.TempDir()
	dir := filepath.Join(root, "4242")
	if err := os.MkdirAll(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(dir, "cmdline"), []byte("trtllm-serve\x00m\x00--config\x00/nonexistent/gen.yaml\x00"), 0o600)
	os.WriteFile(filepath.Join(dir, "environ"), []byte("PATH=/bin\x00"), 0o600)
	app := &appEnv{stderr: &bytes.Buffer{}, stdout: &bytes.Buffer{}}
	d := deployFlags{pid: 4242, procRoot: root}
	err := d.load(app)
	if want := "--pid 4242: its trtllm-serve --config /nonexistent/gen.yaml: no such file or directory"; err == nil || err.Error() != want {
		t.Errorf("%v\nwant %s", err, want)
	}
}

package buildinfo

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"
)

// repoRoot is the module's root, seen from this package's directory.
const repoRoot = "../.."

// TestVCSFallback builds xcvr as go build and go install do, without -ldflags,
// and checks --version reports what the toolchain recorded from git.
func TestVCSFallback(t *testing.T) {
	if testing.Short() {
		t.Skip("builds xcvr")
	}
	root, err := filepath.Abs(repoRoot)
	if err != nil {
		t.Fatal(err)
	}
	git := func(dir string, args ...string) string {
		cmd := exec.Command("git", args...)
		cmd.Dir = dir
		out, err := cmd.Output()
		if err != nil {
			t.Skipf("git %s: %v (needs git and a checkout)", strings.Join(args, " "), err)
		}
		return strings.TrimSpace(string(out))
	}
	tmp := t.TempDir()
	src := root
	if st, err := os.Stat(filepath.Join(root, ".git")); err == nil && !st.IsDir() {
		// A git worktree: its .git is a file, and Go stamps only where .git is a
		// directory (cmd/go/internal/vcs: rootName{".git", isDir: true}). Build a
		// clone of HEAD with the worktree's files copied over it instead, so the
		// code and its modified state are the worktree's.
		src = filepath.Join(tmp, "clone")
		git(root, "clone", "--quiet", "--no-checkout", root, src)
		git(src, "checkout", "--quiet", git(root, "rev-parse", "HEAD"))
		for _, f := range strings.Split(git(root, "ls-files", "--cached", "--others", "--exclude-standard"), "\n") {
			copyFile(t, filepath.Join(root, f), filepath.Join(src, f))
		}
	}
	head := git(src, "rev-parse", "HEAD")
	dirty := git(src, "status", "--porcelain") != ""
	ct := git(src, "-c", "log.showsignature=false", "log", "-1", "--format=%ct")

	bin := filepath.Join(tmp, "xcvr")
	// -buildvcs=true overrides a GOFLAGS=-buildvcs=false (this machine's go env has
	// one): the point is what a plain build in a checkout records. -trimpath lets a
	// clone reuse the build cache.
	cmd := exec.Command("go", "build", "-buildvcs=true", "-trimpath", "-o", bin, ".")
	cmd.Dir = src
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	out, err := exec.Command(bin, "--version").Output()
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(string(out), "\n")
	var sec int64
	fmt.Sscan(ct, &sec)
	want := "commit " + head[:12]
	if dirty {
		want += " (modified)"
	}
	want += ", committed " + timeUTC(sec) + ", " + runtime.Version() + " " + runtime.GOOS + "/" + runtime.GOARCH
	if len(lines) < 2 || lines[1] != want {
		t.Fatalf("--version:\n%s\nwant line 2: %s", out, want)
	}
	// Go stamps the main module's version from the checkout: the tag at HEAD, or a
	// pseudo-version naming the commit (+dirty with changes).
	if !strings.HasPrefix(lines[0], "xcvr ") || lines[0] == "xcvr devel" ||
		(!strings.Contains(lines[0], head[:12]) && git(src, "tag", "--points-at", "HEAD") == "") {
		t.Errorf("line 1 %q: want the module version the toolchain derived from git", lines[0])
	}
	if strings.HasSuffix(lines[0], "+dirty") != dirty {
		t.Errorf("line 1 %q: +dirty should say whether the tree had changes (%v)", lines[0], dirty)
	}
}

func copyFile(t *testing.T, from, to string) {
	t.Helper()
	b, err := os.ReadFile(from)
	if os.IsNotExist(err) { // deleted in the worktree, not yet in a commit
		_ = os.Remove(to)
		return
	}
	if err != nil {
		t.Fatal(err)
	}
	st, err := os.Stat(from)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Dir(to), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(to, b, st.Mode().Perm()); err != nil {
		t.Fatal(err)
	}
}

func timeUTC(sec int64) string { return time.Unix(sec, 0).UTC().Format(time.RFC3339) }

package install

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"

	"xcvr/internal/guard"
	"xcvr/internal/termsafe"
)

func openDir(dir string) (*os.File, error) { return os.Open(dir) }

// isPkg reports whether dir is a tensorrt_llm package directory.
func isPkg(dir string) bool {
	st, err := os.Stat(dir)
	if err != nil || !st.IsDir() {
		return false
	}
	for _, f := range []string{"__init__.py", "version.py"} {
		if st, err := os.Stat(filepath.Join(dir, f)); err == nil && st.Mode().IsRegular() {
			return true
		}
	}
	return false
}

// sitePatterns are where a prefix (venv, conda env, /usr, /usr/local) keeps
// packages.
var sitePatterns = []string{
	"lib/python3*/site-packages",
	"lib/python3*/dist-packages",
	"lib/python3/dist-packages",
	"lib64/python3*/site-packages",
	"local/lib/python3*/dist-packages",
	"local/lib/python3*/site-packages",
}

// Locate finds the tensorrt_llm package for PATH: the package directory itself, a
// site-packages/dist-packages directory holding it, or a prefix whose
// lib/python3*/site-packages or dist-packages holds it. Several candidates under
// one prefix are an error that lists them.
func Locate(path string) (string, error) {
	st, err := os.Stat(path)
	if err != nil {
		// "--install /nx: no such file or directory", as every file flag
		// says it (guard.FlagError), not os's "stat /nx: ...".
		return "", guard.FlagError("--install", path, err)
	}
	if !st.IsDir() {
		return "", fmt.Errorf("--install %s: not a directory (want a site-packages directory, the tensorrt_llm package or a Python prefix)", path)
	}
	if filepath.Base(filepath.Clean(path)) == "tensorrt_llm" && isPkg(path) {
		return filepath.Clean(path), nil
	}
	if p := filepath.Join(path, "tensorrt_llm"); isPkg(p) {
		return p, nil
	}
	if p, ok := editable(path); ok {
		return p, nil
	}
	var found []string
	for _, pat := range sitePatterns {
		ms, _ := filepath.Glob(filepath.Join(path, pat, "tensorrt_llm"))
		for _, m := range ms {
			if isPkg(m) && !contains(found, m) {
				found = append(found, m)
			}
		}
	}
	switch len(found) {
	case 0:
		return "", fmt.Errorf("--install %s: no tensorrt_llm package here, nor under %s/{%s}", path, path, strings.Join(sitePatterns, ","))
	case 1:
		return found[0], nil
	}
	return "", termsafe.MultilineError{Err: fmt.Errorf("--install %s: several installs under this prefix; pass one:\n  %s", termsafe.Line(path), joinLines(found))}
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// AutoEnv is what --install auto looks at; tests fill it in.
type AutoEnv struct {
	Getenv func(string) string
	// Root prefixes the system paths (normally "").
	Root string
	Home string
}

// Auto searches the usual places: $VIRTUAL_ENV, $CONDA_PREFIX,
// /usr/local/lib/python3*/dist-packages, /usr/lib/python3/dist-packages and the
// user's site-packages. It returns the one install found and where it looked;
// none or several is an error (several are listed).
func Auto(env AutoEnv) (string, error) {
	var found, looked []string
	add := func(p string) {
		if isPkg(p) && !contains(found, p) {
			found = append(found, p)
		}
	}
	for _, v := range []string{"VIRTUAL_ENV", "CONDA_PREFIX"} {
		if pre := env.Getenv(v); pre != "" {
			looked = append(looked, "$"+v)
			for _, pat := range sitePatterns[:4] {
				ms, _ := filepath.Glob(filepath.Join(pre, pat, "tensorrt_llm"))
				for _, m := range ms {
					add(m)
				}
			}
		}
	}
	for _, pat := range []string{"/usr/local/lib/python3*/dist-packages", "/usr/local/lib/python3*/site-packages", "/usr/lib/python3/dist-packages", "/usr/lib/python3*/site-packages"} {
		looked = append(looked, pat)
		ms, _ := filepath.Glob(filepath.Join(env.Root+pat, "tensorrt_llm"))
		sort.Strings(ms)
		for _, m := range ms {
			add(m)
		}
	}
	if env.Home != "" {
		looked = append(looked, "~/.local/lib/python3*/site-packages")
		ms, _ := filepath.Glob(filepath.Join(env.Home, ".local/lib/python3*/site-packages/tensorrt_llm"))
		for _, m := range ms {
			add(m)
		}
	}
	switch len(found) {
	case 0:
		return "", fmt.Errorf("--install auto: no tensorrt_llm found (looked in %s); pass --install PATH", strings.Join(looked, ", "))
	case 1:
		return found[0], nil
	}
	return "", termsafe.MultilineError{Err: fmt.Errorf("--install auto: %d installs found; pass --install with one of them:\n  %s", len(found), joinLines(found))}
}

// joinLines lists paths one to an indented line, each escaped to stay one line.
func joinLines(paths []string) string {
	safe := make([]string, len(paths))
	for i, p := range paths {
		safe[i] = termsafe.Line(p)
	}
	return strings.Join(safe, "\n  ")
}

// maxMapsBytes bounds /proc/PID/maps (a big process has tens of thousands of
// mappings, about 100 bytes each).
const maxMapsBytes = 16 << 20

// FromPID finds the install a running process loaded: a mapping under a
// .../tensorrt_llm/ directory in /proc/PID/maps (its bindings and extension
// modules), else the interpreter's prefix from /proc/PID/exe. Paths are tried as
// they are and inside /proc/PID/root (the process's own mount namespace, for a
// container seen from the host). how says which of the two decided.
func FromPID(procRoot string, pid int) (pkg, how string, err error) {
	dir := filepath.Join(procRoot, strconv.Itoa(pid))
	inRoot := func(p string) []string {
		return []string{p, filepath.Join(dir, "root", p)}
	}
	if f, err := os.Open(filepath.Join(dir, "maps")); err == nil {
		sc := bufio.NewScanner(io.LimitReader(f, maxMapsBytes))
		sc.Buffer(make([]byte, 0, 4096), 1<<16)
		for sc.Scan() {
			line := sc.Text()
			i := strings.Index(line, "/tensorrt_llm/")
			if i < 0 {
				continue
			}
			start := strings.IndexByte(line, '/')
			if start < 0 || start > i {
				continue
			}
			p := line[start : i+len("/tensorrt_llm")]
			for _, c := range inRoot(p) {
				if isPkg(c) {
					f.Close()
					return c, "/proc/" + strconv.Itoa(pid) + "/maps", nil
				}
			}
		}
		f.Close()
	}
	exe, err := os.Readlink(filepath.Join(dir, "exe"))
	if err != nil {
		return "", "", fmt.Errorf("--pid %d: cannot read /proc/%d/maps or exe: %w", pid, pid, err)
	}
	exe = strings.TrimSuffix(exe, " (deleted)")
	prefix := filepath.Dir(filepath.Dir(exe))
	var errs []string
	for _, c := range inRoot(prefix) {
		p, err := Locate(c)
		if err == nil {
			return p, "/proc/" + strconv.Itoa(pid) + "/exe (" + exe + ")", nil
		}
		errs = append(errs, err.Error())
	}
	return "", "", errors.New("--pid " + strconv.Itoa(pid) + ": no tensorrt_llm in the process's mappings, nor under its interpreter's prefix " + prefix)
}

// editable finds the source tree of an editable install (pip install -e, the
// usual shape of a local build) in a site-packages directory: setuptools' finder
// module maps 'tensorrt_llm' to the checkout, an older .pth or .egg-link names
// the directory that holds it.
func editable(site string) (string, bool) {
	names, err := readDirLimited(site, 4096)
	if err != nil {
		return "", false
	}
	for _, n := range names {
		p := filepath.Join(site, n)
		switch {
		case strings.HasPrefix(n, "__editable__") && strings.Contains(n, "tensorrt_llm") && strings.HasSuffix(n, "_finder.py"):
			data, err := readSmall(p)
			if err != nil {
				continue
			}
			for _, l := range lex(data) {
				t := l.toks
				for i := 0; i+2 < len(t); i++ {
					if t[i].kind == tkString && t[i].str.value() == "tensorrt_llm" && t[i+1].text == ":" && t[i+2].kind == tkString {
						if dir := t[i+2].str.value(); isPkg(dir) {
							return dir, true
						}
					}
				}
			}
		case (strings.HasSuffix(n, ".pth") && strings.Contains(strings.ToLower(n), "tensorrt")) || n == "tensorrt_llm.egg-link" || n == "tensorrt-llm.egg-link":
			data, err := readSmall(p)
			if err != nil {
				continue
			}
			for _, line := range strings.Split(string(data), "\n") {
				line = strings.TrimSpace(line)
				if line == "" || strings.HasPrefix(line, "#") || strings.HasPrefix(line, "import ") {
					continue
				}
				if dir := filepath.Join(line, "tensorrt_llm"); isPkg(dir) {
					return dir, true
				}
			}
		}
	}
	return "", false
}

// readSmall reads a small regular file (a .pth or finder module), at most 1 MiB,
// through the project's file guard.
func readSmall(p string) ([]byte, error) {
	return guard.ReadRaw(p, guard.Limits{MaxBytes: 1 << 20})
}

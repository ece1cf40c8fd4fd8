package buildinfo

import (
	"bytes"
	"debug/elf"
	"debug/macho"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"strings"
	"testing"
	"text/template"

	"github.com/goccy/go-yaml"
)

// The tests below hold .ci/goreleaser.yaml to what the README and the issue
// promise. TestReleaseBuilds does what the release would, short of publishing:
// .ci/run turns it on with XCVR_RELEASE_BUILDS=1, as it cross-compiles three
// toolchains' worth of packages.

type releaseConfig struct {
	Version int    `yaml:"version"`
	Dist    string `yaml:"dist"`
	Before  struct {
		Hooks []string `yaml:"hooks"`
	} `yaml:"before"`
	Builds []struct {
		Main    string   `yaml:"main"`
		Binary  string   `yaml:"binary"`
		Env     []string `yaml:"env"`
		Goos    []string `yaml:"goos"`
		Goarch  []string `yaml:"goarch"`
		Ignore  []struct{ Goos, Goarch string }
		Flags   []string `yaml:"flags"`
		Ldflags []string `yaml:"ldflags"`
	} `yaml:"builds"`
	Archives []struct {
		Formats      []string `yaml:"formats"`
		NameTemplate string   `yaml:"name_template"`
		Files        []any    `yaml:"files"`
	} `yaml:"archives"`
}

func loadRelease(t *testing.T) releaseConfig {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(repoRoot, ".ci", "goreleaser.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	var c releaseConfig
	if err := yaml.Unmarshal(b, &c); err != nil {
		t.Fatalf(".ci/goreleaser.yaml: %v", err)
	}
	if len(c.Builds) != 1 || len(c.Archives) != 1 || len(c.Before.Hooks) != 1 {
		t.Fatalf(".ci/goreleaser.yaml: want one build, one archive and one before hook; got %d, %d, %d (update this test)",
			len(c.Builds), len(c.Archives), len(c.Before.Hooks))
	}
	return c
}

// targets expands goos × goarch less ignore, as goreleaser does.
func (c releaseConfig) targets() []string {
	b := c.Builds[0]
	var out []string
	for _, os := range b.Goos {
		for _, arch := range b.Goarch {
			if !slices.ContainsFunc(b.Ignore, func(i struct{ Goos, Goarch string }) bool { return i.Goos == os && i.Goarch == arch }) {
				out = append(out, os+"/"+arch)
			}
		}
	}
	slices.Sort(out)
	return out
}

// stampValues stand in for goreleaser's template fields in the tests' builds.
var stampValues = map[string]string{
	"Version":    "9.9.9-test",
	"FullCommit": "0123456789abcdef0123456789abcdef01234567",
	"Date":       "2026-12-01T02:03:04Z",
}

var templateField = regexp.MustCompile(`\{\{\s*\.(\w+)\s*\}\}`)

// render fills the {{ .Field }} references in s; any other template is an error,
// so a config that starts using one makes this test say so.
func render(t *testing.T, s string) string {
	t.Helper()
	out := templateField.ReplaceAllStringFunc(s, func(m string) string {
		v, ok := stampValues[templateField.FindStringSubmatch(m)[1]]
		if !ok {
			t.Fatalf("%q: template field not known to this test", m)
		}
		return v
	})
	if strings.Contains(out, "{{") {
		t.Fatalf("%q: template this test cannot render", s)
	}
	return out
}

// ldflags is the build's ldflags as goreleaser passes them (joined by spaces),
// rendered.
func (c releaseConfig) ldflags(t *testing.T) string {
	s := strings.Join(c.Builds[0].Ldflags, " ")
	if strings.ContainsAny(s, `'"`) {
		t.Fatalf("ldflags %q: quoting is not handled by this test", s)
	}
	return render(t, s)
}

func modulePath(t *testing.T) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(repoRoot, "go.mod"))
	if err != nil {
		t.Fatal(err)
	}
	for _, line := range strings.Split(string(b), "\n") {
		if p, ok := strings.CutPrefix(line, "module "); ok {
			return strings.TrimSpace(p)
		}
	}
	t.Fatal("go.mod has no module line")
	return ""
}

// linkerVars lists this package's package-level string variables without an
// initial value: the ones -X can set.
func linkerVars(t *testing.T) []string {
	t.Helper()
	f, err := parser.ParseFile(token.NewFileSet(), "buildinfo.go", nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, d := range f.Decls {
		g, ok := d.(*ast.GenDecl)
		if !ok || g.Tok != token.VAR {
			continue
		}
		for _, s := range g.Specs {
			vs := s.(*ast.ValueSpec)
			if id, ok := vs.Type.(*ast.Ident); ok && id.Name == "string" && len(vs.Values) == 0 {
				for _, n := range vs.Names {
					names = append(names, n.Name)
				}
			}
		}
	}
	slices.Sort(names)
	return names
}

func TestReleaseConfig(t *testing.T) {
	c := loadRelease(t)
	b := c.Builds[0]
	if c.Version != 2 {
		t.Errorf("version: %d, want 2 (goreleaser v2 reads nothing else)", c.Version)
	}
	if want := []string{"darwin/arm64", "linux/amd64", "linux/arm64"}; !slices.Equal(c.targets(), want) {
		t.Errorf("targets %v, want %v (linux/arm64 is the GB200/GB300 Grace nodes)", c.targets(), want)
	}
	if !slices.Contains(b.Env, "CGO_ENABLED=0") {
		t.Errorf("env %v: the binaries must be static (CGO_ENABLED=0)", b.Env)
	}
	if b.Main != "." || b.Binary != "xcvr" {
		t.Errorf("main %q, binary %q: want . and xcvr", b.Main, b.Binary)
	}

	// -s -w, and one -X per linker variable of this package, under the module's path.
	fields := strings.Fields(c.ldflags(t))
	set := map[string]string{}
	for i, f := range fields {
		if f == "-X" && i+1 < len(fields) {
			k, v, _ := strings.Cut(fields[i+1], "=")
			set[k] = v
		}
	}
	if !slices.Contains(fields, "-s") || !slices.Contains(fields, "-w") {
		t.Errorf("ldflags %v: want -s -w (the README's sizes are of stripped binaries)", fields)
	}
	pkg := modulePath(t) + "/internal/buildinfo"
	vars := linkerVars(t)
	if len(vars) != 3 {
		t.Fatalf("linker variables %v: want version, commit and date", vars)
	}
	for _, v := range vars {
		if set[pkg+"."+v] == "" {
			t.Errorf("ldflags set no %s.%s (have %v)", pkg, v, set)
		}
		delete(set, pkg+"."+v)
	}
	if len(set) != 0 {
		t.Errorf("ldflags set variables that do not exist (a silent no-op for the linker): %v", set)
	}

	// The hook writes where the archives read.
	hook := strings.Fields(render(t, c.Before.Hooks[0]))
	if len(hook) != 6 || hook[0] != "bash" || hook[1] != ".ci/release-extras" {
		t.Fatalf("before hook %q: want bash .ci/release-extras OUTDIR VERSION COMMIT DATE", c.Before.Hooks[0])
	}
	if _, err := os.Stat(filepath.Join(repoRoot, hook[1])); err != nil {
		t.Fatal(err)
	}
	if out := hook[2]; strings.HasPrefix(out, c.Dist+"/") || out == c.Dist {
		t.Errorf("hook output %s lies inside goreleaser's dist %s, which --clean empties", out, c.Dist)
	}
	srcs := archiveSources(t, c)
	for _, src := range srcs {
		if !strings.HasPrefix(src, hook[2]+"/") && src != "README.md" {
			t.Errorf("archive file %s is neither README.md nor under the hook's %s", src, hook[2])
		}
	}
	for _, want := range []string{"README.md", hook[2] + "/man/*.1", hook[2] + "/completions/*"} {
		if !slices.Contains(srcs, want) {
			t.Errorf("archives carry %v, want %s among them", srcs, want)
		}
	}

	// The archive names are what `uname -s | tr A-Z a-z` and `uname -m` print on the
	// installing machine: the README's one-line install depends on it.
	tmpl, err := template.New("name").Parse(c.Archives[0].NameTemplate)
	if err != nil {
		t.Fatalf("archive name_template: %v", err)
	}
	want := map[string]string{"linux/amd64": "xcvr_9.9.9_linux_x86_64", "linux/arm64": "xcvr_9.9.9_linux_aarch64", "darwin/arm64": "xcvr_9.9.9_darwin_arm64"}
	for _, target := range c.targets() {
		os, arch, _ := strings.Cut(target, "/")
		var name bytes.Buffer
		if err := tmpl.Execute(&name, map[string]string{"ProjectName": "xcvr", "Version": "9.9.9", "Os": os, "Arch": arch}); err != nil {
			t.Fatal(err)
		}
		if name.String() != want[target] {
			t.Errorf("%s archive: %q, want %q", target, name.String(), want[target])
		}
	}
	if !slices.Equal(c.Archives[0].Formats, []string{"tar.gz"}) {
		t.Errorf("archive formats %v: the README's install pipes into tar -xz", c.Archives[0].Formats)
	}
}

// archiveSources lists the archive's files entries: plain globs and src of maps.
func archiveSources(t *testing.T, c releaseConfig) []string {
	t.Helper()
	var out []string
	for _, f := range c.Archives[0].Files {
		switch f := f.(type) {
		case string:
			out = append(out, f)
		case map[string]any:
			src, _ := f["src"].(string)
			out = append(out, src)
		default:
			t.Fatalf("archive files entry %v (%T)", f, f)
		}
	}
	return out
}

func TestReleaseBuilds(t *testing.T) {
	if os.Getenv("XCVR_RELEASE_BUILDS") != "1" {
		t.Skip("cross-compiles every release target; .ci/run sets XCVR_RELEASE_BUILDS=1")
	}
	c := loadRelease(t)
	b := c.Builds[0]
	root, err := filepath.Abs(repoRoot)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	ldflags := c.ldflags(t)
	for _, target := range c.targets() {
		goos, goarch, _ := strings.Cut(target, "/")
		t.Run(goos+"_"+goarch, func(t *testing.T) {
			bin := filepath.Join(dir, "xcvr_"+goos+"_"+goarch)
			args := append([]string{"build"}, b.Flags...)
			args = append(args, "-ldflags", ldflags, "-o", bin, b.Main)
			cmd := exec.Command("go", args...)
			cmd.Dir = root
			cmd.Env = append(append(os.Environ(), b.Env...), "GOOS="+goos, "GOARCH="+goarch)
			if out, err := cmd.CombinedOutput(); err != nil {
				t.Fatalf("go %s: %v\n%s", strings.Join(args, " "), err, out)
			}
			data, err := os.ReadFile(bin)
			if err != nil {
				t.Fatal(err)
			}
			for _, v := range stampValues {
				if !bytes.Contains(data, []byte(v)) {
					t.Errorf("the binary does not carry the stamped %q", v)
				}
			}
			checkBinary(t, bin, goos, goarch)
			t.Logf("%s: %d bytes (%.1f MiB)", target, len(data), float64(len(data))/(1<<20))

			if goos == runtime.GOOS && goarch == runtime.GOARCH {
				out, err := exec.Command(bin, "--version").Output()
				if err != nil {
					t.Fatalf("%s --version: %v", bin, err)
				}
				want := fmt.Sprintf("xcvr %s\ncommit %s, built %s, %s %s\ncatalog: ", stampValues["Version"],
					stampValues["FullCommit"][:12], stampValues["Date"], runtime.Version(), target)
				if !strings.HasPrefix(string(out), want) {
					t.Errorf("--version:\n%s\nwant it to start with\n%s", out, want)
				}
			}
		})
	}

	t.Run("before hook", func(t *testing.T) {
		hook := strings.Fields(render(t, c.Before.Hooks[0]))
		out := filepath.Join(dir, "extra")
		configured := hook[2]
		hook[2] = out
		cmd := exec.Command(hook[0], hook[1:]...)
		cmd.Dir = root
		if o, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("%s: %v\n%s", strings.Join(hook, " "), err, o)
		}
		for _, src := range archiveSources(t, c) {
			if src == "README.md" {
				continue
			}
			got, _ := filepath.Glob(filepath.Join(out, strings.TrimPrefix(src, configured+"/")))
			if len(got) == 0 {
				t.Errorf("archive source %s matches nothing the hook wrote", src)
			}
			for _, f := range got {
				if st, err := os.Stat(f); err != nil || st.Size() == 0 {
					t.Errorf("%s is empty or missing (%v)", f, err)
				}
			}
		}
		page, err := os.ReadFile(filepath.Join(out, "man", "xcvr.1"))
		if err != nil {
			t.Fatal(err)
		}
		if th := `.TH "XCVR" "1" "Dec 2026" "xcvr 9.9.9-test" "xcvr manual"`; !bytes.Contains(page, []byte(th)) {
			t.Errorf("xcvr.1 lacks the header %s (dated by the stamped build date, naming the version):\n%.300s", th, page)
		}
	})
}

// checkBinary checks the executable format, and for Linux that it is static (no
// interpreter, no dynamic section) and stripped (no symbol table). Go's darwin
// binaries always link libSystem dynamically; CGO_ENABLED=0 still spares them a C
// toolchain and any other library.
func checkBinary(t *testing.T, path, goos, goarch string) {
	t.Helper()
	switch goos {
	case "linux":
		f, err := elf.Open(path)
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		want := map[string]elf.Machine{"amd64": elf.EM_X86_64, "arm64": elf.EM_AARCH64}[goarch]
		if f.Machine != want {
			t.Errorf("ELF machine %v, want %v", f.Machine, want)
		}
		for _, p := range f.Progs {
			if p.Type == elf.PT_INTERP || p.Type == elf.PT_DYNAMIC {
				t.Errorf("program header %v: not a static binary", p.Type)
			}
		}
		if f.Section(".symtab") != nil {
			t.Error("has a .symtab: not stripped (-s)")
		}
	case "darwin":
		f, err := macho.Open(path)
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		if want := map[string]macho.Cpu{"amd64": macho.CpuAmd64, "arm64": macho.CpuArm64}[goarch]; f.Cpu != want {
			t.Errorf("Mach-O CPU %v, want %v", f.Cpu, want)
		}
	default:
		t.Fatalf("no check for %s", goos)
	}
}

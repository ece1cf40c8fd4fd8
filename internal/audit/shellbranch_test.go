package audit

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"xcvr/internal/inputs"
	"xcvr/models"
	"xcvr/resolver"
)

// branchStub stands in for trtllm-serve when bash runs a case: it prints
// the config it is given, that config's backend and $TRTLLM_X.
const branchStub = `#!/bin/bash
cfg=
while [ $# -gt 0 ]; do
  case $1 in --config|--extra_llm_api_options) cfg=$2; shift;; esac
  shift
done
b=$(sed -n 's/^ *backend: *//p' "$cfg" | tr -d '"')
echo "$(basename "$cfg") $b ${TRTLLM_X:-}"
`

// branchFiles are the configs of the set each case may launch.
var branchFiles = map[string]string{
	"a.yaml": "cache_transceiver_config:\n  backend: UCX\n",
	"b.yaml": "cache_transceiver_config:\n  backend: NIXL\n",
	"c.yaml": "cache_transceiver_config:\n  backend: MPI\n",
}

// bashLaunches runs script with bash in a directory holding branchFiles and
// the stub: one line per trtllm-serve it runs, sorted.
func bashLaunches(t *testing.T, sh, script string) []string {
	t.Helper()
	dir, bin := t.TempDir(), t.TempDir()
	if err := os.WriteFile(filepath.Join(bin, "trtllm-serve"), []byte(branchStub), 0o755); err != nil {
		t.Fatal(err)
	}
	for name, data := range branchFiles {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(dir, "run.sh"), []byte(script), 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(sh, "--norc", "--noprofile", "run.sh")
	cmd.Dir = dir
	cmd.Env = []string{"PATH=" + bin + ":/usr/bin:/bin"}
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("bash: %v\n%s", err, script)
	}
	var lines []string
	for _, l := range strings.Split(string(out), "\n") {
		if l = strings.TrimSpace(l); l != "" {
			lines = append(lines, l)
		}
	}
	slices.Sort(lines)
	return lines
}

// xcvrLaunches reads script as audit does: one line per worker its
// commands run (a worker counted N is N lines), in the stub's form,
// sorted; and the workers' notes.
func xcvrLaunches(t *testing.T, script string) ([]string, []string) {
	t.Helper()
	in := []Input{{Name: "run.sh", Data: []byte(script)}}
	for _, name := range []string{"a.yaml", "b.yaml", "c.yaml"} {
		in = append(in, Input{Name: name, Data: []byte(branchFiles[name])})
	}
	set, err := Read(in)
	if err != nil {
		t.Fatal(err)
	}
	s := inputs.Defaults()
	s.Version = inputs.Value{Raw: "1.2.0", Origin: resolver.Origin{Kind: resolver.OriginFlag, Detail: "--trtllm"}}
	r := Resolve(set, Options{Base: s, Catalog: models.Builtin()})
	var lines, notes []string
	for _, e := range r.Entries {
		if e.Worker.Source.File != "run.sh" {
			continue // a config no command reads, read on its own
		}
		name, _, _ := strings.Cut(e.Worker.Name, " (")
		x := ""
		for _, v := range e.Worker.Env {
			if v.Name == "TRTLLM_X" {
				x = v.Value
			}
		}
		for range e.Worker.Count {
			lines = append(lines, strings.TrimSpace(name+" "+fmt.Sprint(e.Trace.Result.EffectiveBackend)+" "+x))
		}
		notes = append(notes, e.Worker.Notes...)
	}
	for _, u := range set.Unplaced {
		lines = append(lines, "unplaced: "+u.Why)
	}
	slices.Sort(lines)
	return lines, notes
}

// An if, elif or else whose tests xcvr decides (testCond, as for appends)
// is read as bash runs it: only the branch that runs starts workers, writes
// configs, exports, assigns and defines functions. bash runs each script
// with a stub trtllm-serve; the workers audit reads must be the ones bash
// starts.
func TestBranchesMatchBash(t *testing.T) {
	sh, err := exec.LookPath("bash")
	if err != nil {
		t.Skip("no bash")
	}
	const m = "M=TinyLlama/TinyLlama-1.1B-Chat-v1.0\n"
	for _, body := range []string{
		// if / elif / else, each branch its own worker.
		"B=ray\nif [[ \"$B\" == \"mpi\" ]]; then\n  trtllm-serve $M --config a.yaml\nelif [[ $B == ray ]]; then\n  trtllm-serve $M --config b.yaml\nelse\n  trtllm-serve $M --config c.yaml\nfi\n",
		"B=other\nif [ \"$B\" = mpi ]; then\n  trtllm-serve $M --config a.yaml\nelif test \"$B\" = ray; then\n  trtllm-serve $M --config b.yaml\nelse\n  trtllm-serve $M --config c.yaml\nfi\n",
		// A config a branch writes, read after the if.
		"N=2\nif [ $N -gt 1 ]; then\n  cat > w.yaml <<EOF\ncache_transceiver_config:\n  backend: NIXL\nEOF\nelse\n  cat > w.yaml <<EOF\ncache_transceiver_config:\n  backend: UCX\nEOF\nfi\ntrtllm-serve $M --config w.yaml\n",
		// echo writes and exports under a negated -z.
		"MODE=\nif ! [[ -z \"$MODE\" ]]; then\n  export TRTLLM_X=set\n  echo -e \"cache_transceiver_config:\\n  backend: UCX\" > e.yaml\nelse\n  export TRTLLM_X=unset\n  echo -e \"cache_transceiver_config:\\n  backend: NIXL\" > e.yaml\nfi\ntrtllm-serve $M --config e.yaml\n",
		// An assignment in a branch: the other branch's does not win.
		"B=ray\nif [[ $B == ray ]]; then\n  CFG=b.yaml\nelse\n  CFG=a.yaml\nfi\ntrtllm-serve $M --config $CFG\n",
		// Functions defined in a branch; calls in branches.
		"T=gen\nif test \"$T\" = ctx; then\n  launch() { trtllm-serve $M --config a.yaml; }\nelse\n  launch() {\n    trtllm-serve $M --config b.yaml\n  }\nfi\nif [[ $T == ctx ]]; then\n  launch\nfi\nif [ \"$T\" != ctx ]; then launch; fi\n",
		// A function whose if tests its argument, at each call.
		"run() {\n  if [[ $1 == ctx ]]; then\n    trtllm-serve $M --config a.yaml\n  else\n    trtllm-serve $M --config b.yaml\n  fi\n}\nrun ctx\nrun gen\n",
		// In a for loop xcvr runs, at each iteration.
		"for r in ctx gen; do\n  if [[ $r == ctx ]]; then trtllm-serve $M --config a.yaml; else trtllm-serve $M --config c.yaml; fi\ndone\n",
		// One-line ifs; nesting; integer comparisons.
		"B=mpi\nif [[ $B == mpi ]]; then trtllm-serve $M --config a.yaml; else trtllm-serve $M --config b.yaml; fi\n",
		"TP=4\nif [[ $TP -ge 2 ]]; then\n  if [ $TP -eq 2 ]; then\n    trtllm-serve $M --config a.yaml\n  elif [ $TP -lt 8 ]; then\n    export TRTLLM_X=$TP\n    trtllm-serve $M --config b.yaml\n  fi\nelse\n  trtllm-serve $M --config c.yaml\nfi\n",
		"A=x\nB=x\nif [ \"$A\" != \"$B\" ]; then\n  trtllm-serve $M --config a.yaml\nelif [[ -n $A ]]; then\n  if [[ $A == y ]]; then :; else\n    trtllm-serve $M --config c.yaml\n  fi\nfi\n",
	} {
		script := "#!/bin/bash\n" + m + body
		want := bashLaunches(t, sh, script)
		got, notes := xcvrLaunches(t, script)
		if !slices.Equal(got, want) {
			t.Errorf("%s\nxcvr reads %q\nbash runs  %q", body, got, want)
		}
		for _, n := range notes {
			if strings.Contains(n, "whether it runs is the script's condition") {
				t.Errorf("%s\nnote %q: the condition was decided", body, n)
			}
		}
	}
}

// A test xcvr does not decide (a command's status), one inside a loop it
// reads once (its values may change from one iteration to the next), or
// one on a value an undecided if or case set (the last branch read, not
// the one bash ran), keeps every branch, with the note that says so.
func TestUndecidedBranchesRead(t *testing.T) {
	for _, c := range []struct {
		body string
		want []string
	}{
		{"if grep -q ray /etc/hostname; then\n  trtllm-serve m --config a.yaml\nelse\n  trtllm-serve m --config b.yaml\nfi\n", []string{"a.yaml UCX", "b.yaml NIXL"}},
		{"B=ray\nif [[ $B == ray && -n $B ]]; then\n  trtllm-serve m --config a.yaml\nelse\n  trtllm-serve m --config b.yaml\nfi\n", []string{"a.yaml UCX", "b.yaml NIXL"}},
		{"B=ray\nwhile read -r x; do\n  if [[ $B == mpi ]]; then\n    trtllm-serve m --config a.yaml\n  fi\n  B=mpi\ndone < list\n", []string{"a.yaml UCX"}},
		// A value an undecided if set is a guess (the last branch read):
		// bash runs the then branch here, M=a, and starts a.yaml.
		{"if true; then\n  M=a\nelse\n  M=b\nfi\nif [[ $M == a ]]; then\n  trtllm-serve m --config a.yaml\nfi\n", []string{"a.yaml UCX"}},
		{"case $1 in\n  x) M=a;;\n  *) M=b;;\nesac\nif [ \"${M}\" = a ]; then\n  trtllm-serve m --config a.yaml\nfi\n", []string{"a.yaml UCX"}},
	} {
		got, notes := xcvrLaunches(t, "#!/bin/bash\n"+c.body)
		if !slices.Equal(got, c.want) {
			t.Errorf("%s\nxcvr reads %q, want %q", c.body, got, c.want)
		}
		if !strings.Contains(strings.Join(notes, "\n"), "whether it runs is the script's condition") {
			t.Errorf("%s\nnotes %q", c.body, notes)
		}
	}
}

package audit

import (
	"fmt"
	"os"
	"os/exec"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"xcvr/internal/inputs"
	"xcvr/models"
)

// funcScript calls its functions the ways launchers do: per role with
// positional arguments, ${N:-default}, "$@" handed on, "$*", shift, local
// variables that hide a global one, NAME=VALUE before a call, $(f ...),
// a function calling a function, and a one-line function.
const funcScript = `#!/bin/bash
MODEL=Qwen/Qwen3-8B
cfg=/cfg/global.yaml
launch_worker() {
  local role=$1 port=$2
  local cfg="${3:-/cfg/default.yaml}"
  trtllm-serve "$MODEL" --port "$port" --server_role "$role" --config "$cfg" &
}
launch_shifted() {
  local role=$1
  shift
  launch_worker "$role" "$@"
}
one() { trtllm-serve "$*" --server_role GENERATION --config /cfg/one.yaml & }
launch_worker CONTEXT 8001 /cfg/ctx.yaml
pid=$(launch_worker GENERATION 8002)
launch_shifted GENERATION 8003 /cfg/gen.yaml > /dev/null
MODEL=other/model launch_worker CONTEXT 8004 /cfg/ctx-other.yaml
one Qwen/Qwen3-4B "second word"
trtllm-serve "$MODEL" --server_role CONTEXT --config "$cfg" &
`

// What bash runs: each trtllm-serve's model, config and role, against the
// workers xcvr reads from the script. A stand-in trtllm-serve prints its
// arguments (to stderr: $(...) keeps stdout).
func TestShellFunctionCallsMatchBash(t *testing.T) {
	sh, err := exec.LookPath("bash")
	if err != nil {
		t.Skip("no bash")
	}
	stub := "trtllm-serve() { local IFS=$'\\x1f'; printf '%s\\n' \"$*\" >&2; }\n"
	cmd := exec.Command(sh, "--norc", "--noprofile", "-c", stub+strings.TrimPrefix(funcScript, "#!/bin/bash\n")+"wait\n")
	var stderr strings.Builder
	cmd.Stderr = &stderr
	if err := cmd.Run(); err != nil {
		t.Fatal(err, stderr.String())
	}
	var want []string
	for _, ln := range strings.Split(strings.TrimSpace(stderr.String()), "\n") {
		args := strings.Split(ln, "\x1f")
		cfg, role := "", ""
		for i := 0; i+1 < len(args); i++ {
			switch args[i] {
			case "--config":
				cfg = args[i+1]
			case "--server_role":
				role = strings.ToLower(args[i+1])
			}
		}
		want = append(want, args[0]+" "+cfg+" "+role)
	}
	slices.Sort(want)

	ins := []Input{{Name: "launch.sh", Data: []byte(funcScript)}}
	for _, f := range []string{"global.yaml", "default.yaml", "ctx.yaml", "gen.yaml", "ctx-other.yaml", "one.yaml"} {
		ins = append(ins, Input{Name: f, Data: []byte("cache_transceiver_config:\n  backend: UCX\n")})
	}
	set, err := Read(ins)
	if err != nil {
		t.Fatal(err)
	}
	matched := regexp.MustCompile(`matched by its path (\S+)\)`)
	var got []string
	for _, w := range set.Workers {
		m := matched.FindStringSubmatch(w.Config)
		if m == nil {
			t.Fatalf("config %q", w.Config)
		}
		got = append(got, w.Model+" "+m[1]+" "+string(w.Role))
	}
	slices.Sort(got)
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("xcvr:\n%s\nbash:\n%s\nunplaced %+v", strings.Join(got, "\n"), strings.Join(want, "\n"), set.Unplaced)
	}
}

// The worker names its call and the body line; the environment is the
// script's at the call, and NAME=VALUE before a call is the call's own.
func TestShellFunctionCallOrigin(t *testing.T) {
	script := `#!/bin/bash
start() {
  CUDA_VISIBLE_DEVICES=$2 trtllm-serve m --server_role $1 --config $1.yaml &
}
export TRTLLM_USE_UCX_KVCACHE=1
start CONTEXT 0
TRTLLM_USE_UCX_KVCACHE=0 start GENERATION 1
`
	set, err := Read([]Input{{Name: "run.sh", Data: []byte(script)},
		{Name: "CONTEXT.yaml", Data: []byte("{}\n")}, {Name: "GENERATION.yaml", Data: []byte("{}\n")}})
	if err != nil {
		t.Fatal(err)
	}
	if len(set.Workers) != 2 {
		t.Fatalf("workers %+v unplaced %+v", set.Workers, set.Unplaced)
	}
	c, g := set.Workers[0], set.Workers[1]
	if s := c.Source.String(); s != "run.sh:6 trtllm-serve command in the function start (line 3)" {
		t.Errorf("source %s", s)
	}
	if s := g.Source.String(); s != "run.sh:7 trtllm-serve command in the function start (line 3)" {
		t.Errorf("source %s", s)
	}
	env := func(w *Worker) string {
		var s []string
		for _, e := range w.Env {
			s = append(s, e.Name+"="+e.Value+"@"+e.Origin)
		}
		return strings.Join(s, " ")
	}
	if e := env(c); e != "TRTLLM_USE_UCX_KVCACHE=1@run.sh:5" {
		t.Errorf("context env %s", e)
	}
	if e := env(g); e != "TRTLLM_USE_UCX_KVCACHE=0@run.sh:7 (command line)" {
		t.Errorf("generation env %s", e)
	}
}

// Hostile calls stay bounded: a function that calls itself, and functions
// each calling the next twice (2^40 calls if followed to the end).
func TestShellFunctionBounds(t *testing.T) {
	self := "#!/bin/bash\nf() {\n  f \"$@\" x\n  trtllm-serve m --config c.yaml &\n}\nf\n"
	set, err := Read([]Input{{Name: "self.sh", Data: []byte(self)}})
	if err != nil {
		t.Fatal(err)
	}
	if w := strings.Join(set.Warnings, "\n"); !strings.Contains(w, "function calls deep; xcvr follows 8, so this call and deeper ones were not followed") {
		t.Errorf("warnings %q", w)
	}
	var b strings.Builder
	b.WriteString("#!/bin/bash\nf0() {\n  trtllm-serve m --port $1 --config c.yaml &\n}\n")
	for i := 1; i <= 40; i++ {
		b.WriteString("f" + strconv.Itoa(i) + "() {\n  f" + strconv.Itoa(i-1) + " \"$1\"1\n  f" + strconv.Itoa(i-1) + " \"$1\"2\n}\n")
	}
	b.WriteString("f40 0\n")
	set, err = Read([]Input{{Name: "fan.sh", Data: []byte(b.String())}})
	if err != nil {
		t.Fatal(err)
	}
	if w := strings.Join(set.Warnings, "\n"); !strings.Contains(w, "function calls deep") {
		t.Errorf("warnings %q", w)
	}
	// Bodies read again at each call count in the set's script work: a
	// 100 KiB body called 64×64 times is cut at 256 MiB, with a warning.
	b.Reset()
	b.WriteString("#!/bin/bash\nf() {\n  : " + strings.Repeat("x", 100<<10) + "\n  trtllm-serve m --config c.yaml &\n}\n")
	b.WriteString("g() {\n" + strings.Repeat("  f\n", 64) + "}\n" + strings.Repeat("g\n", 64))
	set, err = Read([]Input{{Name: "work.sh", Data: []byte(b.String())}})
	if err != nil {
		t.Fatal(err)
	}
	if w := strings.Join(set.Warnings, "\n"); !strings.Contains(w, "the scripts' function calls read more than 256 MiB of their bodies; this call of f and the later ones were not followed") {
		t.Errorf("warnings %q", w)
	}
	if len(set.Unplaced) != 1 {
		t.Errorf("unplaced %d, want the one command counted once", len(set.Unplaced))
	}
}

// Real scripts whose workers run inside functions: where they say they
// run, and a function reached again from other branches counted once.
func TestFunctionCallsInRealScripts(t *testing.T) {
	r := audit(t, "1.3.0rc25", "real/user-engine-bench/run_bench.sh")
	w := entry(t, r, "extra.yml").Worker
	if s := w.Source.String(); s != "real/user-engine-bench/run_bench.sh:96 trtllm-serve command in the function start_server (line 33)" {
		t.Errorf("source %s", s)
	}
	notes := strings.Join(w.Notes, "\n")
	for _, line := range []string{"115", "120", "127"} {
		if !strings.Contains(notes, "the call of bench_one at real/user-engine-bench/run_bench.sh:"+line+" runs the same command again, with the same arguments and environment (another branch, or a second call): counted once") {
			t.Errorf("no note for the call at line %s: %q", line, notes)
		}
	}
	if w.Config != "here-document /tmp/trtllm-extra-$4.yml (real/user-engine-bench/run_bench.sh:28, in the function start_server called at line 96), bind-mounted from /tmp/trtllm-extra-$4.yml at /tmp/extra.yml (real/user-engine-bench/run_bench.sh:33)" {
		t.Errorf("config %q", w.Config)
	}
	// The user's launcher, given configs at its paths' names: one worker
	// per role, from the call inside start_context / start_generation.
	data, err := os.ReadFile("testdata/real/user-launch-trtllm/launch_trtllm.sh")
	if err != nil {
		t.Fatal(err)
	}
	ucx := []byte("cache_transceiver_config:\n  backend: UCX\n")
	set, err := Read([]Input{{Name: "launch_trtllm.sh", Data: data},
		{Name: "ctx_extra_llm_api_options.yaml", Data: ucx}, {Name: "gen_extra_llm_api_options.yaml", Data: ucx}})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, w := range set.Workers {
		got = append(got, string(w.Role)+" "+w.Source.String()+" "+w.Model)
	}
	want := []string{
		"context launch_trtllm.sh:187 trtllm-serve command in the function launch_worker (line 112), called in start_context, itself called at line 214 Qwen/Qwen3-4B",
		"generation launch_trtllm.sh:196 trtllm-serve command in the function launch_worker (line 112), called in start_generation, itself called at line 215 Qwen/Qwen3-4B",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("workers:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// A call inside a for loop over words is read once, and says so, whether
// the loop spans lines or one.
func TestShellFunctionCallInLoop(t *testing.T) {
	script := `#!/bin/bash
launch_worker() {
  trtllm-serve m --server_role $1 --config /cfg/$1.yaml &
}
for r in CONTEXT GENERATION; do
  launch_worker $r
done
for role in CONTEXT GENERATION; do launch_worker "$role"; done
`
	set, err := Read([]Input{{Name: "loop.sh", Data: []byte(script)}})
	if err != nil {
		t.Fatal(err)
	}
	if len(set.Unplaced) != 2 {
		t.Fatalf("unplaced %+v", set.Unplaced)
	}
	for i, want := range []string{
		"the for loop at loop.sh:5 calls launch_worker once for each of CONTEXT GENERATION; xcvr does not run loops: it read the call once, with $r as written",
		"the for loop at loop.sh:8 calls launch_worker once for each of CONTEXT GENERATION; xcvr does not run loops: it read the call once, with $role as written",
	} {
		if !strings.HasSuffix(set.Unplaced[i].Why, want) {
			t.Errorf("unplaced %d: %s", i, set.Unplaced[i].Why)
		}
	}
}

// Positional parameters inside a call, against bash with the same
// arguments (set --): present, empty, past the last, defaults, $#, "$@"
// and "$*".
func TestCallArgumentsExpandAsBash(t *testing.T) {
	sh, err := exec.LookPath("bash")
	if err != nil {
		t.Skip("no bash")
	}
	args := []string{"ctx", "", "a b", "it's", `q"$x\y`}
	v := newShellVars()
	v.args, v.argsExact = args, true
	for _, l := range []string{
		`$1 "$2" "$3" $4x`,
		`${1:-d} "${2:-empty}" "${2-unset}" ${6:-past} "${9}"`,
		`$# "$@" end`,
		`"$*" $@`,
		`pre"$@"post`,
		`${10:-ten} $5 "$5" "${5}"`,
		`"$@"`,
	} {
		var quoted []string
		for _, a := range args {
			quoted = append(quoted, shellQuote(a))
		}
		out, err := exec.Command(sh, "--norc", "--noprofile", "-c", "set -- "+strings.Join(quoted, " ")+"\nprintf '%s\\n' "+l).Output()
		if err != nil {
			t.Fatal(err)
		}
		want := strings.Split(strings.TrimSuffix(string(out), "\n"), "\n")
		if got := shellWords(v.expand(l)); strings.Join(got, "|") != strings.Join(want, "|") {
			t.Errorf("%s: xcvr %q, bash %q", l, got, want)
		}
	}
}

// A here-document a function writes takes the call's arguments as text.
func TestFunctionHeredocArguments(t *testing.T) {
	script := `#!/bin/bash
write_cfg() {
  cat > $1 <<EOF
cache_transceiver_config:
  backend: $2
  max_tokens_in_buffer: ${3:-4096}
EOF
}
write_cfg /cfg/ctx.yaml UCX
write_cfg /cfg/gen.yaml NIXL 8192
trtllm-serve m --server_role CONTEXT --config /cfg/ctx.yaml &
trtllm-serve m --server_role GENERATION --config /cfg/gen.yaml &
`
	set, err := Read([]Input{{Name: "w.sh", Data: []byte(script)}})
	if err != nil {
		t.Fatal(err)
	}
	if len(set.Workers) != 2 {
		t.Fatalf("workers %+v unplaced %+v", set.Workers, set.Unplaced)
	}
	for i, want := range []string{"here-document /cfg/ctx.yaml (w.sh:3, in the function write_cfg called at line 9)", "here-document /cfg/gen.yaml (w.sh:3, in the function write_cfg called at line 10)"} {
		if c := set.Workers[i].Config; c != want {
			t.Errorf("config %q, want %q", c, want)
		}
	}
	r := Resolve(set, Options{Base: inputs.Defaults(), Catalog: models.Builtin()})
	var got []string
	for _, e := range r.Entries {
		got = append(got, fmt.Sprintf("%s %v %s", e.Worker.Name, e.Trace.Inputs.Backend.Value, e.Trace.Inputs.Backend.Origin.Detail))
	}
	want := "ctx.yaml UCX w.sh:5 (here-document /cfg/ctx.yaml, ctx.yaml:2)\ngen.yaml NIXL w.sh:5 (here-document /cfg/gen.yaml, gen.yaml:2)"
	if strings.Join(got, "\n") != want {
		t.Errorf("backends:\n%s\nwant:\n%s", strings.Join(got, "\n"), want)
	}
}

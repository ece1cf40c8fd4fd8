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

// A call inside a for loop over known words is read once per word, in
// the multi-line and the one-line form; the same command reached again
// with the same words and environment is counted once, with a note; a
// loop over words xcvr does not know (the caller's $ROLES, a glob) is read
// once, with $r as written, and says so.
func TestShellFunctionCallInLoop(t *testing.T) {
	script := `#!/bin/bash
launch_worker() {
  trtllm-serve m --server_role $1 --config /cfg/$1.yaml &
}
for r in CONTEXT GENERATION; do
  launch_worker $r
done
for role in CONTEXT GENERATION; do launch_worker "$role"; done
for r in $ROLES; do launch_worker $r; done
for f in /cfg/*.yaml; do trtllm-serve m --config $f & done
`
	set, err := Read([]Input{{Name: "loop.sh", Data: []byte(script)},
		{Name: "CONTEXT.yaml", Data: []byte("{}\n")}, {Name: "GENERATION.yaml", Data: []byte("{}\n")}})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, w := range set.Workers {
		got = append(got, fmt.Sprintf("%s %s %s", w.Role, w.Name, w.Source))
	}
	want := "context CONTEXT.yaml loop.sh:6 trtllm-serve command in the function launch_worker (line 3)\n" +
		"generation GENERATION.yaml loop.sh:6 trtllm-serve command in the function launch_worker (line 3)"
	if strings.Join(got, "\n") != want {
		t.Fatalf("workers:\n%s\nwant:\n%s\nunplaced %+v", strings.Join(got, "\n"), want, set.Unplaced)
	}
	notes := strings.Join(set.Workers[0].Notes, "\n")
	for _, n := range []string{
		"it is inside the for loop at loop.sh:5, which xcvr ran once for each of CONTEXT GENERATION",
		"the call of launch_worker at loop.sh:8 runs the same command again, with the same arguments and environment (another branch, or a second call): counted once",
	} {
		if !strings.Contains(notes, n) {
			t.Errorf("no note %q in %q", n, notes)
		}
	}
	if len(set.Unplaced) != 2 {
		t.Fatalf("unplaced %+v", set.Unplaced)
	}
	if u := set.Unplaced[0].Why; !strings.HasSuffix(u, "the for loop at loop.sh:9 calls launch_worker once for each of $ROLES; xcvr runs a loop only over words it knows: it read the call once, with $r as written") {
		t.Errorf("unplaced 0: %s", u)
	}
	if u := set.Unplaced[1]; u.Source.Line != 10 || !strings.HasPrefix(u.Why, "--config $f: the path is not known") {
		t.Errorf("unplaced 1: %+v", u)
	}
}

// loopScript starts its servers in loops the ways launch scripts do:
// one per GPU (CUDA_VISIBLE_DEVICES=$i), one per port ($((8001+i))), one
// per role (${role}.yaml, ${role^^}), $(seq 0 $((N-1))), {1..2}, $(seq N),
// a variable's words, nested loops calling a function, a loop over
// nothing, and one whose do is on its own line and that writes each
// role's config with a here-document.
const loopScript = `#!/bin/bash
MODEL=Qwen/Qwen3-8B
NUM_CTX=2
ROLES="context generation"
NONE=
launch_worker() {
  trtllm-serve "$MODEL" --server_role "$1" --config "/cfg/$2.yaml" &
}
for i in 0 1; do CUDA_VISIBLE_DEVICES=$i trtllm-serve $MODEL --extra_llm_api_options /cfg/ctx.yaml --server_role CONTEXT & done
for i in 0 1; do trtllm-serve other/model --port $((8001+i)) --config /cfg/ctx.yaml & done
for role in context generation; do trtllm-serve $MODEL --extra_llm_api_options /cfg/${role}.yaml --server_role ${role^^} & done
for i in $(seq 0 $((NUM_CTX-1))); do
  trtllm-serve $MODEL --config /cfg/ctx$i.yaml --server_role CONTEXT &
done
for r in $ROLES; do
  for g in {1..2}; do
    launch_worker $r gen$g
  done
done
for n in $(seq 3); do trtllm-serve m$n --config "/cfg/gen.yaml" & done
for x in $NONE; do trtllm-serve none --config /cfg/ctx.yaml & done
for role in context generation
do
  cat > /cfg/w-$role.yaml <<EOF
cache_transceiver_config:
  backend: UCX
EOF
  trtllm-serve $MODEL --config /cfg/w-$role.yaml --server_role $role &
done
`

// What bash runs, against the workers xcvr reads from loopScript: a
// stand-in trtllm-serve prints its arguments; each server is a worker.
func TestShellLoopsMatchBash(t *testing.T) {
	sh, err := exec.LookPath("bash")
	if err != nil {
		t.Skip("no bash")
	}
	// The stand-in marks its lines: bash's own complaint that it cannot
	// write /cfg/w-context.yaml (here) is not a server.
	stub := "trtllm-serve() { local IFS=$'\\x1f'; printf 'SERVE\\x1f%s\\n' \"$*\" >&2; }\n"
	cmd := exec.Command(sh, "--norc", "--noprofile", "-c", stub+strings.TrimPrefix(loopScript, "#!/bin/bash\n")+"wait\n")
	var stderr strings.Builder
	cmd.Stderr = &stderr
	if err := cmd.Run(); err != nil {
		t.Fatal(err, stderr.String())
	}
	var want []string
	for _, ln := range strings.Split(strings.TrimSpace(stderr.String()), "\n") {
		line, ok := strings.CutPrefix(ln, "SERVE\x1f")
		if !ok {
			continue
		}
		args := strings.Split(line, "\x1f")
		cfg, role := "", "none"
		for i := 0; i+1 < len(args); i++ {
			switch args[i] {
			case "--config", "--extra_llm_api_options":
				cfg = args[i+1]
			case "--server_role":
				role = strings.ToLower(args[i+1])
			}
		}
		want = append(want, args[0]+" "+cfg+" "+role)
	}
	slices.Sort(want)

	ins := []Input{{Name: "launch.sh", Data: []byte(loopScript)}}
	for _, f := range []string{"ctx.yaml", "context.yaml", "generation.yaml", "ctx0.yaml", "ctx1.yaml", "gen1.yaml", "gen2.yaml", "gen.yaml"} {
		ins = append(ins, Input{Name: f, Data: []byte("cache_transceiver_config:\n  backend: UCX\n")})
	}
	set, err := Read(ins)
	if err != nil {
		t.Fatal(err)
	}
	matched := regexp.MustCompile(`^(?:here-document (\S+) \(launch.sh:[0-9]+\)|.*matched by its path (\S+)\))$`)
	var got []string
	for _, w := range set.Workers {
		m := matched.FindStringSubmatch(w.Config)
		if m == nil {
			t.Fatalf("config %q", w.Config)
		}
		m[1] += m[2]
		role := "none" // bash knows only --server_role; xcvr also reads the config's name
		if strings.HasPrefix(w.RoleFrom, "--server_role ") {
			role = string(w.Role)
		}
		for range w.Count {
			got = append(got, w.Model+" "+m[1]+" "+role)
		}
	}
	slices.Sort(got)
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("xcvr:\n%s\nbash:\n%s\nunplaced %+v", strings.Join(got, "\n"), strings.Join(want, "\n"), set.Unplaced)
	}
	if len(set.Unplaced) != 0 || len(set.Warnings) != 0 {
		t.Errorf("unplaced %+v warnings %q", set.Unplaced, set.Warnings)
	}
}

// A loop's iterations that differ only in what the transceiver does not
// read (CUDA_VISIBLE_DEVICES, --port) are one worker, counted; a config
// the loop writes anew each iteration is each iteration's own.
func TestShellLoopCountsAndConfigs(t *testing.T) {
	script := `#!/bin/bash
for i in 0 1 2; do
  CUDA_VISIBLE_DEVICES=$i trtllm-serve m --port $((8001+i)) --server_role CONTEXT --config /cfg/ctx.yaml &
done
for b in UCX NIXL; do
  cat > /cfg/gen.yaml <<EOF
cache_transceiver_config:
  backend: $b
EOF
  trtllm-serve m --server_role GENERATION --config /cfg/gen.yaml &
done
`
	set, err := Read([]Input{{Name: "l.sh", Data: []byte(script)}, {Name: "ctx.yaml", Data: []byte("{}\n")}})
	if err != nil {
		t.Fatal(err)
	}
	r := Resolve(set, Options{Base: inputs.Defaults(), Catalog: models.Builtin()})
	var got []string
	for _, e := range r.Entries {
		got = append(got, fmt.Sprintf("%s %d %s %v", e.Worker.Name, e.Worker.Count, e.Worker.CountFrom, e.Trace.Inputs.Backend.Value))
	}
	want := "ctx.yaml 3 one per iteration of the for loop at l.sh:2 None\n" +
		"gen.yaml 1 one per iteration of the for loop at l.sh:5 UCX\n" +
		"gen.yaml (l.sh:10, b=NIXL) 1 one per iteration of the for loop at l.sh:5 NIXL"
	if strings.Join(got, "\n") != want {
		t.Errorf("entries:\n%s\nwant:\n%s", strings.Join(got, "\n"), want)
	}
}

// Hostile loops stay bounded: a loop of 5000 words runs 1024 times, and
// nested loops stop at the set's 65536 iterations, each with one warning.
func TestShellLoopBounds(t *testing.T) {
	set, err := Read([]Input{{Name: "big.sh", Data: []byte("#!/bin/bash\nfor i in {1..5000}; do trtllm-serve m --port $i --config c$i.yaml & done\n")}})
	if err != nil {
		t.Fatal(err)
	}
	if w := strings.Join(set.Warnings, "\n"); w != "big.sh:2: the for loop runs 5000 times; xcvr runs a loop 1024 times at most, so the iterations after that were not read" {
		t.Errorf("warnings %q", w)
	}
	if len(set.Unplaced) != 1024 {
		t.Errorf("unplaced %d, want 1024", len(set.Unplaced))
	}
	nested := "#!/bin/bash\nfor a in {1..1000}; do\n  for b in {1..1000}; do\n    X=$a$b\n  done\ndone\ntrtllm-serve m --config c.yaml &\n"
	set, err = Read([]Input{{Name: "nested.sh", Data: []byte(nested)}})
	if err != nil {
		t.Fatal(err)
	}
	if w := strings.Join(set.Warnings, "\n"); w != "nested.sh:3: the scripts' for loops run more than 65536 iterations in all; this iteration and the later ones were not read" {
		t.Errorf("warnings %q", w)
	}
	if len(set.Unplaced) != 1 {
		t.Errorf("unplaced %+v", set.Unplaced)
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

// $((...)) and ${NAME^^} / ${NAME,,} expand as bash's when every name
// in them is set; one the script does not set stays as written.
func TestArithmeticExpandsAsBash(t *testing.T) {
	sh, err := exec.LookPath("bash")
	if err != nil {
		t.Skip("no bash")
	}
	vars := map[string]string{"N": "2", "B": "8000", "i": "1", "R": "Ctx"}
	v := newShellVars()
	prelude := ""
	for k, val := range vars {
		v.set(k, val, "x.sh:1", "", false)
		prelude += k + "=" + val + "\n"
	}
	for _, l := range []string{
		`$((N-1)) $((8001+i)) $(( B + N * 3 )) $((B/3)) $((B%7-1)) $((-N+5)) $((N*-3))`,
		`$(($B+$i)) "$((${N}-1))" p$((i+1))`,
		`${R^^} ${R,,} "${R^^}"`,
	} {
		out, err := exec.Command(sh, "--norc", "--noprofile", "-c", prelude+"printf '%s\\n' "+l).Output()
		if err != nil {
			t.Fatal(err)
		}
		want := strings.Split(strings.TrimSuffix(string(out), "\n"), "\n")
		if got := shellWords(v.expand(l)); strings.Join(got, "|") != strings.Join(want, "|") {
			t.Errorf("%s: xcvr %q, bash %q", l, got, want)
		}
	}
	if got := v.expand("$((UNSET+1)) $((N/0))"); got != "$((UNSET+1)) $((N/0))" {
		t.Errorf("unknown arithmetic expanded: %q", got)
	}
	for list, want := range map[string]string{
		"$(seq 0 $((N - 1)))": "0 1", "$(seq 3)": "1 2 3", "$(seq 0)": "", "{3..1}": "3 2 1", "$(seq $N $B)": "",
	} {
		words, _, ok := loopWords(list, v)
		if list == "$(seq $N $B)" {
			if !ok || len(words) != maxLoopIters {
				t.Errorf("%s: %d words, want %d", list, len(words), maxLoopIters)
			}
			continue
		}
		out, err := exec.Command(sh, "--norc", "--noprofile", "-c", prelude+"for x in "+list+"; do printf '%s ' $x; done").Output()
		if err != nil {
			t.Fatal(err)
		}
		if bash := strings.TrimSpace(string(out)); !ok || strings.Join(words, " ") != want || bash != want {
			t.Errorf("%s: xcvr %q (%v), bash %q, want %q", list, words, ok, bash, want)
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

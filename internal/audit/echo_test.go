package audit

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// What echo and printf write, against bash itself: each statement is run by
// bash in a scratch directory and the file it writes compared with the text
// xcvr reads. Statements xcvr declines (ok false) are not compared.
func TestEchoWritesMatchBash(t *testing.T) {
	sh, err := exec.LookPath("bash")
	if err != nil {
		t.Skip("no bash")
	}
	for _, stmt := range []string{
		`echo -e "disable_overlap_scheduler: True\ncache_transceiver_config:\n  backend: UCX\n  max_tokens_in_buffer: 2048" > c.yml`,
		`echo "cache_transceiver_config:" > c.yml`,
		`echo -n "a: 1" > c.yml`,
		`echo -ne "a:\t1\n" >c.yml`,
		`echo -e 'x: "q\"s"\nb: 2' > c.yml`,
		`echo -E "a\nb" > c.yml`,
		`echo "a\nb" > c.yml`,
		`echo -e "a: 1\cb: 2" > c.yml`,
		`echo -en "a: 1\n" 1> c.yml`,
		`echo a: 1 2>/dev/null > c.yml`,
		`printf "cache_transceiver_config:\n  backend: %s\n" NIXL > c.yml`,
		`printf '%s\n' "a: 1" "b: 2" > c.yml`,
		`printf "n: %d%%\n" 5 > c.yml`,
		`printf 'x: 1' > c.yml`,
		`echo -e "a: 1
b: 2" | tee c.yml > /dev/null`,
		`printf '%s
' "a: 1" | tee c.yml`,
	} {
		dir := t.TempDir()
		cmd := exec.Command(sh, "--norc", "--noprofile", "-c", stmt)
		cmd.Dir = dir
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("%s: %v %s", stmt, err, out)
		}
		want, err := os.ReadFile(filepath.Join(dir, "c.yml"))
		if err != nil {
			t.Fatal(err)
		}
		ws := echoWrites(shellWords(stmt))
		if len(ws) != 1 {
			t.Errorf("%s: %d writes", stmt, len(ws))
			continue
		}
		if ws[0].target != "c.yml" || ws[0].text != string(want) {
			t.Errorf("%s:\nxcvr %q (%s)\nbash %q", stmt, ws[0].text, ws[0].target, want)
		}
	}
	// Declined: what xcvr would not reproduce exactly; not a file.
	for _, stmt := range []string{
		`printf "%5s\n" a > c.yml`,
		`printf -v X "a" > c.yml`,
		`echo -e "\x41" > c.yml`,
		`echo a`,
		`echo a > `,
	} {
		if ws := echoWrites(shellWords(stmt)); len(ws) != 0 {
			t.Errorf("%s: read as %+v", stmt, ws)
		}
	}
}

// A script that builds its config with echo > and echo >> lines: the file
// is what bash writes, each key's origin is the line that wrote it, and a
// worker started before a later append reads the file as it was.
func TestEchoBuiltConfig(t *testing.T) {
	script := `#!/bin/bash
B=NIXL
echo "cache_transceiver_config:" > /tmp/ctx.yaml
echo "  backend: $B" >> /tmp/ctx.yaml
trtllm-serve m --config /tmp/ctx.yaml --server_role CONTEXT &
echo "  transceiver_runtime: CPP" >> /tmp/ctx.yaml
trtllm-serve m --config /tmp/ctx.yaml --server_role GENERATION &
`
	set, err := Read([]Input{{Name: "run.sh", Data: []byte(script)}})
	if err != nil {
		t.Fatal(err)
	}
	if len(set.Workers) != 2 || len(set.Unplaced) != 0 {
		t.Fatalf("workers %+v unplaced %+v", set.Workers, set.Unplaced)
	}
	c, g := set.Workers[0], set.Workers[1]
	if c.Config != "echo > /tmp/ctx.yaml (run.sh:3), added to by echo >> (run.sh:4)" {
		t.Errorf("config %q", c.Config)
	}
	if g.Config != "echo > /tmp/ctx.yaml (run.sh:3), added to by echo >> (run.sh:4), echo >> (run.sh:6)" {
		t.Errorf("config %q", g.Config)
	}
	if o := c.Overlay.Backend.Origin.String(); o != "run.sh:4 (echo > /tmp/ctx.yaml, ctx.yaml:2)" {
		t.Errorf("backend origin %q", o)
	}
	if c.Overlay.Runtime != nil {
		t.Errorf("context reads the later append: %+v", c.Overlay.Runtime)
	}
	if g.Overlay.Runtime == nil || g.Overlay.Runtime.Origin.String() != "run.sh:6 (echo > /tmp/ctx.yaml, ctx.yaml:3)" {
		t.Errorf("generation runtime %+v", g.Overlay.Runtime)
	}
	// cat << EOF >> F adds to F (InferenceMAX's dsr1_fp4_b200_trt_slurm.sh
	// adds attention_dp_config under an if): the file is both bodies, each
	// key's origin its own line, the condition said.
	script = "#!/bin/bash\nF=cfg.yml\ncat > $F << EOF\ncache_transceiver_config:\n  backend: UCX\nEOF\n" +
		"if [[ \"$X\" == \"true\" ]]; then\n    cat << EOF >> $F\ndisable_overlap_scheduler: true\nEOF\nfi\n" +
		"trtllm-serve m --extra_llm_api_options=$F --server_role CONTEXT\n"
	set, err = Read([]Input{{Name: "h.sh", Data: []byte(script)}})
	if err != nil {
		t.Fatal(err)
	}
	if len(set.Workers) != 1 {
		t.Fatalf("workers %+v unplaced %+v", set.Workers, set.Unplaced)
	}
	w := set.Workers[0]
	if w.Overlay.Backend == nil || w.Overlay.Backend.Origin.String() != "h.sh:5 (here-document cfg.yml, cfg.yml:2)" {
		t.Errorf("backend %+v", w.Overlay.Backend)
	}
	found := false
	for _, k := range w.Overlay.TopKeys {
		if k.Key == "disable_overlap_scheduler" {
			found = true
			if o := k.Origin.String(); o != "h.sh:9 (here-document cfg.yml, cfg.yml:3)" {
				t.Errorf("disable_overlap_scheduler at %q", o)
			}
		}
	}
	if !found {
		t.Errorf("top keys %+v", w.Overlay.TopKeys)
	}
	if !strings.Contains(strings.Join(w.Notes, "\n"), "the here-document at h.sh:8 that adds to cfg.yml is inside the if at h.sh:7: whether it runs is the script's condition; taken as added") {
		t.Errorf("notes %q", w.Notes)
	}
	// A file built past maxEchoFile is said not to be read.
	var b strings.Builder
	b.WriteString("#!/bin/sh\necho 'a:' > big.yaml\n")
	line := "echo '  k: " + strings.Repeat("v", 1000) + "' >> big.yaml\n"
	for i := 0; i <= maxEchoFile/1000; i++ {
		b.WriteString(line)
	}
	b.WriteString("trtllm-serve m --config big.yaml\n")
	set, err = Read([]Input{{Name: "big.sh", Data: []byte(b.String())}})
	if err != nil {
		t.Fatal(err)
	}
	if len(set.Unplaced) != 1 || !strings.Contains(set.Unplaced[0].Why, "written by echo at big.sh:2, more than 1048576 bytes of it: not read") {
		t.Errorf("unplaced %+v", set.Unplaced)
	}
}

// A container's sh -c script that writes its config with echo -e: the
// worker reads it, its lines the manifest's.
func TestContainerScriptEcho(t *testing.T) {
	pod := `apiVersion: v1
kind: Pod
metadata:
  name: ctx
spec:
  containers:
  - name: w
    command: ["/bin/bash", "-c"]
    args:
    - |
      echo -e "cache_transceiver_config:\n  backend: UCX" > /tmp/ctx.yml
      trtllm-serve m --config /tmp/ctx.yml --server_role CONTEXT
`
	set, err := Read([]Input{{Name: "pod.yaml", Data: []byte(pod)}})
	if err != nil {
		t.Fatal(err)
	}
	if len(set.Workers) != 1 {
		t.Fatalf("workers %+v unplaced %+v", set.Workers, set.Unplaced)
	}
	w := set.Workers[0]
	if w.Config != "echo -e > /tmp/ctx.yml in the container's script (pod.yaml:11)" {
		t.Errorf("config %q", w.Config)
	}
	if o := w.Overlay.Backend.Origin.String(); o != "pod.yaml:11 (echo -e > /tmp/ctx.yml, ctx.yml:2)" {
		t.Errorf("origin %q", o)
	}
}

// Under #!/bin/sh (dash) echo -e is not bash's: the file is not guessed.
func TestEchoUnderSh(t *testing.T) {
	for _, c := range []struct {
		script string
		read   bool
	}{
		{"#!/bin/sh\necho -e \"cache_transceiver_config:\\n  backend: UCX\" > c.yml\ntrtllm-serve m --config c.yml\n", false},
		{"#!/usr/bin/env sh\necho \"a:\\tb\" > c.yml\ntrtllm-serve m --config c.yml\n", false},
		{"#!/bin/sh\necho \"cache_transceiver_config: {backend: UCX}\" > c.yml\ntrtllm-serve m --config c.yml\n", true},
		{"#!/bin/bash\necho -e \"cache_transceiver_config:\\n  backend: UCX\" > c.yml\ntrtllm-serve m --config c.yml\n", true},
	} {
		set, err := Read([]Input{{Name: "s.sh", Data: []byte(c.script)}})
		if err != nil {
			t.Fatal(err)
		}
		if (len(set.Workers) == 1) != c.read {
			t.Errorf("%q: workers %+v unplaced %+v", c.script, set.Workers, set.Unplaced)
		}
		if !c.read && !strings.Contains(strings.Join(set.Warnings, "\n"), "under #!/bin/sh writes c.yml as dash's echo does") {
			t.Errorf("%q: warnings %q", c.script, set.Warnings)
		}
	}
}

// dash's echo, this machine's /bin/sh where it is dash, agrees with xcvr's
// reading for what TestEchoUnderSh reads (no -e, no backslash; -n).
func TestEchoDashAgrees(t *testing.T) {
	dash, err := exec.LookPath("dash")
	if err != nil {
		t.Skip("no dash")
	}
	for _, stmt := range []string{`echo "backend: UCX" > c.yml`, `echo -n "a: 1" > c.yml`, `echo a: 1 > c.yml`} {
		ws := echoWrites(shellWords(stmt))
		if len(ws) != 1 || ws[0].dashDiffers {
			t.Fatalf("%s: %+v", stmt, ws)
		}
		dir := t.TempDir()
		cmd := exec.Command(dash, "-c", stmt)
		cmd.Dir = dir
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("%s: %v %s", stmt, err, out)
		}
		got, _ := os.ReadFile(filepath.Join(dir, "c.yml"))
		if string(got) != ws[0].text {
			t.Errorf("%s: dash %q, xcvr %q", stmt, got, ws[0].text)
		}
	}
	for _, stmt := range []string{`echo -e "a\nb" > c.yml`, `echo "a\tb" > c.yml`} {
		if ws := echoWrites(shellWords(stmt)); len(ws) != 1 || !ws[0].dashDiffers {
			t.Errorf("%s: %+v", stmt, ws)
		}
	}
}

// A container's sh -c script is dash's in Debian and Ubuntu images: its
// echo -e config is refused with the reason, not read as bash writes it.
func TestContainerShEcho(t *testing.T) {
	pod := "apiVersion: v1\nkind: Pod\nmetadata:\n  name: ctx\nspec:\n  containers:\n  - name: w\n    command: [\"sh\", \"-c\"]\n    args:\n    - |\n      echo -e \"cache_transceiver_config:\\n  backend: UCX\" > /tmp/ctx.yml\n      trtllm-serve m --config /tmp/ctx.yml --server_role CONTEXT\n"
	set, err := Read([]Input{{Name: "pod.yaml", Data: []byte(pod)}})
	if err != nil {
		t.Fatal(err)
	}
	if len(set.Workers) != 0 || len(set.Unplaced) != 1 || !strings.Contains(set.Unplaced[0].Why, "echo -e in the container's script, run by sh: dash's echo") {
		t.Errorf("workers %+v unplaced %+v", set.Workers, set.Unplaced)
	}
}

// printf reusing its format over many arguments stays bounded.
func TestPrintfBounded(t *testing.T) {
	words := []string{"printf", strings.Repeat("x", 4096) + "%s"}
	for i := 0; i < 1000; i++ {
		words = append(words, "a")
	}
	words = append(words, ">", "c.yml")
	if ws := echoWrites(words); len(ws) != 0 {
		t.Errorf("a %d-byte file read", len(ws[0].text))
	}
}

// An addition to a file the script did not write does not stand for the
// whole file: the file of the set is read as given, and the script's
// addition is said not to be in it.
func TestAppendToUnwrittenFile(t *testing.T) {
	script := "#!/bin/bash\necho \"print_iter_log: true\" >> ctx.yaml\ntrtllm-serve m --config ctx.yaml --server_role CONTEXT\n"
	set, err := Read([]Input{{Name: "run.sh", Data: []byte(script)}, {Name: "ctx.yaml", Data: []byte("cache_transceiver_config:\n  backend: UCX\n")}})
	if err != nil {
		t.Fatal(err)
	}
	if len(set.Workers) != 1 || set.Workers[0].Overlay.Backend == nil {
		t.Fatalf("workers %+v unplaced %+v", set.Workers, set.Unplaced)
	}
	if w := strings.Join(set.Warnings, "\n"); !strings.Contains(w, "run.sh:2: echo >> ctx.yaml adds to a file the script did not write") {
		t.Errorf("warnings %q", w)
	}
}

// A variable set from an argument ($2) inside a condition or an argument
// loop keeps its earlier value when the script runs without arguments, as
// bash does; without an earlier value it stays unset ("$1" as written).
func TestArgumentAssignmentsMatchBash(t *testing.T) {
	sh, err := exec.LookPath("bash")
	if err != nil {
		t.Skip("no bash")
	}
	for _, body := range []string{
		"MODEL=\"${MODEL:-Qwen/Qwen3-8B}\"\nwhile [[ $# -gt 0 ]]; do\n  case $1 in\n    --model)\n      MODEL=$2\n      shift 2\n      ;;\n  esac\ndone\n",
		"MODEL=Qwen/Qwen3-8B\nif [ -n \"$1\" ]; then\n  MODEL=\"$1\"\nfi\n",
		"MODEL=Qwen/Qwen3-8B\nif true; then\n  MODEL=Qwen/Qwen3-32B\nfi\n",
	} {
		cmd := exec.Command(sh, "--norc", "--noprofile", "-c", body+"printf %s \"$MODEL\"")
		cmd.Env = []string{"PATH=/usr/bin:/bin"}
		out, err := cmd.Output()
		if err != nil {
			t.Fatalf("%s: %v", body, err)
		}
		script := "#!/bin/bash\n" + body + "trtllm-serve \"$MODEL\" --extra_llm_api_options c.yaml\n"
		set, err := Read([]Input{{Name: "run.sh", Data: []byte(script)}, {Name: "c.yaml", Data: []byte("cache_transceiver_config:\n  backend: UCX\n")}})
		if err != nil {
			t.Fatal(err)
		}
		if len(set.Workers) != 1 || set.Workers[0].Model != string(out) {
			t.Errorf("%q: %d workers (first model %q), bash says %q", body, len(set.Workers), set.Workers[0].Model, out)
		}
	}
}

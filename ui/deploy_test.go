package ui

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"xcvr/internal/inputs"
	"xcvr/internal/logs"
	"xcvr/models"
	"xcvr/resolver"
)

func deploySpec(backend string) inputs.Spec {
	s := testSpec()
	flag := resolver.Origin{Kind: resolver.OriginFlag}
	s.Version = inputs.Value{Raw: "main@2026-09-10", Origin: flag}
	s.Backend = inputs.Value{Raw: backend, Origin: flag}
	return s
}

func deployLog(t *testing.T) *logs.Log {
	t.Helper()
	f, err := os.Open("../internal/logs/testdata/ctx-era2-srun.log")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	lg, err := logs.Parse("ctx-era2-srun.log", f)
	if err != nil {
		t.Fatal(err)
	}
	return lg
}

func genRole(t *testing.T) Role {
	t.Helper()
	s := deploySpec("NIXL")
	s.Runtime = inputs.Value{Raw: "CPP", Origin: resolver.Origin{Kind: resolver.OriginFile, Detail: "disagg.yaml:17"}}
	in, err := inputs.Build(s, models.Builtin())
	if err != nil {
		t.Fatal(err)
	}
	return Role{Name: "generation", Source: "disagg.yaml", Trace: resolver.Resolve(in)}
}

// The log is shown as observed next to the prediction, and the first
// disagreement follows the operator's edits.
func TestObservedLogFollowsEdits(t *testing.T) {
	s := deploySpec("NIXL")
	s.Version = inputs.Value{Raw: "1.3.0rc26", Origin: resolver.Origin{Kind: resolver.OriginFile, Detail: "ctx-era2-srun.log:2"}}
	m := New(Options{Spec: s, Width: 120, Height: 32, Log: deployLog(t)})
	plain := ansi.Strip(m.frame())
	if !strings.Contains(plain, "observed ctx-era2-srun.log: srun task 0 +3: PYTHON on NIXL") || !strings.Contains(plain, "✓ agrees") {
		t.Fatalf("agreeing frame:\n%s", plain)
	}
	if strings.Contains(plain, "first disagreement") {
		t.Errorf("a disagreement is marked while everything agrees")
	}
	m = keys(t, m, "down", "down", "right") // backend DEFAULT -> next value
	plain = ansi.Strip(m.frame())
	if !strings.Contains(plain, "▶ first disagreement srun task 1 line 27") || !strings.Contains(plain, " disagreements") {
		t.Fatalf("after changing the backend (%s):\n%s", m.spec.Backend.Raw, plain)
	}
}

func TestOtherRoleShown(t *testing.T) {
	m := New(Options{Spec: deploySpec("NIXL"), Width: 100, Height: 30, Roles: []Role{genRole(t)}})
	plain := ansi.Strip(m.frame())
	if !strings.Contains(plain, "generation role: C++ transceiver (BindKvCacheTransceiver)") || !strings.Contains(plain, "✗ differs from context") {
		t.Fatalf("frame:\n%s", plain)
	}
}

func TestDeployLinesFit(t *testing.T) {
	lg := deployLog(t)
	role := genRole(t)
	for w := minWidth; w <= 140; w += 9 {
		for _, h := range []int{minHeight, 24, 40} {
			for _, backend := range []string{"NIXL", "UCX"} {
				m := New(Options{Spec: deploySpec(backend), Width: w, Height: h, Log: lg, Roles: []Role{role}})
				checkFits(t, m.frame(), w, h)
			}
		}
	}
}

// At every width the explorer draws, the role and log lines keep their verdict:
// the outcome and the file name are cut before it, never the verdict itself (at
// 80 columns it used to vanish).
func TestDeployVerdictSurvivesNarrowWidths(t *testing.T) {
	lg := deployLog(t)
	for w := minWidth; w <= 140; w++ {
		m := New(Options{Spec: deploySpec("UCX"), Width: w, Height: 24, Log: lg, Roles: []Role{genRole(t)}})
		plain := ansi.Strip(m.frame())
		if !strings.Contains(plain, "✗ differs from context") {
			t.Errorf("%d columns: the role line lost its verdict:\n%s", w, plain)
		}
		if !strings.Contains(plain, " disagreements") {
			t.Errorf("%d columns: the observed line lost its verdict:\n%s", w, plain)
		}
	}
}

// The explorer's --log follows the file: a background tea.Cmd polls it (no I/O
// in Update) and the observed column changes when new lines arrive.
func TestObservedLogFollowedLive(t *testing.T) {
	path := filepath.Join(t.TempDir(), "gen.log")
	if err := os.WriteFile(path, []byte("[TRT-LLM] [RANK 0] [I] Using LLM with PyTorch backend\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	fw := logs.NewFollower(path, "gen.log")
	defer fw.Close()
	if _, _, err := fw.Poll(); err != nil {
		t.Fatal(err)
	}
	m := New(Options{Spec: deploySpec("NIXL"), Width: 120, Height: 32, Log: fw.Log(), LogFollow: fw})
	if plain := ansi.Strip(m.frame()); !strings.Contains(plain, "observed gen.log: rank 0: outcome not shown") {
		t.Fatalf("before:\n%s", plain)
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND, 0)
	if err != nil {
		t.Fatal(err)
	}
	f.WriteString("[TRT-LLM] [RANK 0] [I] Using UCX kv-cache transceiver. If your devices are not in the same domain, please consider setting UCX_CUDA_IPC_ENABLE_MNNVL=n, UCX_RNDV_SCHEME=put_zcopy and/or unset UCX_NET_DEVICES upon server hangs or lower-than-expected performance.\n")
	f.Close()
	cmd := m.followLog()
	if cmd == nil {
		t.Fatal("no poll command while following")
	}
	next, again := m.Update(cmd())
	if again == nil {
		t.Error("the next poll was not scheduled")
	}
	nm := next.(Model)
	plain := ansi.Strip(nm.frame())
	// The first disagreement is whole under the outcome; the other one is
	// counted there and whole in the outcome view.
	if !strings.Contains(plain, "observed gen.log: rank 0: outcome not shown on UCX") || !strings.Contains(plain, "lower-than-expected performance.\", which the prediction does not print") ||
		!strings.Contains(plain, "… and 1 more · o shows them whole") {
		t.Fatalf("after the UCX line:\n%s", plain)
	}
	om := keys(t, nm, "o")
	if o := ansi.Strip(om.frame()); !strings.Contains(o, "effective backend: predicted NIXL, the log shows UCX") || !strings.Contains(o, "Observed gen.log") {
		t.Fatalf("the outcome view lacks the observed log:\n%s", o)
	}
	// Without a follower there is nothing to poll.
	if New(Options{Spec: deploySpec("NIXL"), Log: fw.Log()}).followLog() != nil {
		t.Error("a poll command without a follower")
	}
}

// pollOnce runs the follower's poll command and returns the model after it.
func pollOnce(t *testing.T, m Model) Model {
	t.Helper()
	cmd := m.followLog()
	if cmd == nil {
		t.Fatal("no poll command while following")
	}
	next, _ := m.Update(cmd())
	return next.(Model)
}

// TestFollowedLogIsPendingNotWrong: two lines into start-up, the followed log
// is pending (check-logs -f's rule), not "✗ disagreements" about predicted
// lines not written yet; once the outcome is there, the verdict is final.
func TestFollowedLogIsPendingNotWrong(t *testing.T) {
	path := filepath.Join(t.TempDir(), "ctx.log")
	writeFile := func(s string, flag int) {
		f, err := os.OpenFile(path, flag|os.O_WRONLY|os.O_CREATE, 0o644)
		if err != nil {
			t.Fatal(err)
		}
		f.WriteString(s)
		f.Close()
	}
	writeFile("[TensorRT-LLM] TensorRT-LLM version: 1.3.0rc26\n[TRT-LLM] [I] [_common ] Starting TensorRT LLM init.\n", os.O_TRUNC)
	fw := logs.NewFollower(path, "ctx.log")
	defer fw.Close()
	fw.Poll()
	spec := logs.WithVersion(deploySpec("NIXL"), fw.Log()) // --trtllm given: the flag wins
	spec.Version = inputs.Value{Raw: "1.3.0rc26", Origin: resolver.Origin{Kind: resolver.OriginFile, Detail: "ctx.log:1"}}
	spec.Model = inputs.Value{Raw: "GptOssForCausalLM", Origin: resolver.Origin{Kind: resolver.OriginFlag}}
	m := New(Options{Spec: spec, Width: 120, Height: 40, Log: fw.Log(), LogFollow: fw})
	writeFile("[TRT-LLM] [I] [_torch  ] [RANK 0] Resolved transceiver_runtime='auto' to 'PYTHON' for GptOssForCausalLM.\n", os.O_APPEND)
	m = pollOnce(t, m)
	plain := ansi.Strip(m.frame())
	if !strings.Contains(plain, "… pending") || strings.Contains(plain, "disagreement") {
		t.Fatalf("two lines into start-up:\n%s", plain)
	}
	writeFile("[TRT-LLM] [I] [_torch  ] [RANK 0] Resolved use_kv_cache_manager_v2='auto' to True for GptOssForCausalLM\n", os.O_APPEND)
	writeFile("[TRT-LLM] [I] [_torch  ] [RANK 0] Using KvCacheTransceiverV2\n", os.O_APPEND)
	m = pollOnce(t, m)
	if plain := ansi.Strip(m.frame()); !strings.Contains(plain, "✓ agrees") {
		t.Fatalf("after the transceiver line:\n%s", plain)
	}

	// The log restarts for another release: the version row follows it, so
	// the new lines are not judged against the old release.
	writeFile("[TensorRT-LLM] TensorRT-LLM version: 1.3.0rc20\n", os.O_TRUNC)
	m = pollOnce(t, m)
	if m.spec.Version.Raw != "1.3.0rc20" || m.spec.Version.Origin.Detail != "ctx.log:1" {
		t.Fatalf("after the restart the version is %q from %q", m.spec.Version.Raw, m.spec.Version.Origin)
	}
	writeFile("[TRT-LLM] [RANK 0] [I] Using UCX kv-cache transceiver. If your devices are not in the same domain\n", os.O_APPEND)
	m = pollOnce(t, m)
	if plain := ansi.Strip(m.frame()); !strings.Contains(plain, "1.3.0rc20") {
		t.Fatalf("the restarted log:\n%s", plain)
	}
}

package ui

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"
)

// TestTmuxSmoke runs the real binary in a real terminal (tmux) at two sizes: the
// screen must show the outcome, react to a key, and leave the alternate screen with
// exit status 0 on q. It is the one test that sees what a user sees, escape
// sequences and terminal modes included.
func TestTmuxSmoke(t *testing.T) {
	if testing.Short() {
		t.Skip("smoke test builds the binary; skipped with -short")
	}
	if _, err := exec.LookPath("tmux"); err != nil {
		t.Skip("tmux is not installed; skipping the real-terminal smoke test")
	}
	dir := t.TempDir()
	bin := filepath.Join(dir, "xcvr")
	build := exec.Command("go", "build", "-o", bin, ".")
	build.Dir = ".."
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	// A private server (own socket, no user config) so a developer's tmux is never
	// touched, and an environment without TRTLLM_* so the screen is the default one.
	sock := filepath.Join(dir, "s")
	var env []string
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "TRTLLM_") && !strings.HasPrefix(kv, "TMUX") && !strings.HasPrefix(kv, "NO_COLOR=") {
			env = append(env, kv)
		}
	}
	tmux := func(args ...string) (string, error) {
		cmd := exec.Command("tmux", append([]string{"-S", sock, "-f", "/dev/null"}, args...)...)
		cmd.Env = env
		out, err := cmd.CombinedOutput()
		return string(out), err
	}
	t.Cleanup(func() { _, _ = tmux("kill-server") })
	// A session that outlives the others: without it the server exits when a
	// subtest kills the last session, and the next new-session can race its exit.
	if out, err := tmux("new-session", "-d", "-s", "keep", "sleep", "600"); err != nil {
		t.Fatalf("tmux new-session: %v\n%s", err, out)
	}

	// restored checks the terminal modes a crash could leave behind: alternate
	// screen, hidden cursor, mouse reporting.
	restored := func(t *testing.T, name string) {
		t.Helper()
		s, _ := tmux("display-message", "-p", "-t", name, "#{alternate_on} #{cursor_flag} #{mouse_any_flag}")
		if got := strings.TrimSpace(s); got != "0 1 0" {
			t.Errorf("after exit: alternate_on cursor_flag mouse_any_flag = %q, want \"0 1 0\"", got)
		}
	}

	for _, sz := range [][2]int{{64, 20}, {80, 24}, {120, 40}, {200, 60}} {
		name := "x" + strconv.Itoa(sz[0])
		t.Run(strconv.Itoa(sz[0])+"x"+strconv.Itoa(sz[1]), func(t *testing.T) {
			script := bin + `; echo "XCVR_EXIT=$?"; sleep 60`
			if out, err := tmux("new-session", "-d", "-s", name, "-x", strconv.Itoa(sz[0]), "-y", strconv.Itoa(sz[1]),
				"sh", "-c", script); err != nil {
				t.Fatalf("tmux new-session: %v\n%s", err, out)
			}
			defer tmux("kill-session", "-t", name)
			screen := func() string { s, _ := tmux("capture-pane", "-p", "-t", name); return s }
			alt := func() string {
				s, _ := tmux("display-message", "-p", "-t", name, "#{alternate_on}")
				return strings.TrimSpace(s)
			}
			waitFor := func(what string, ok func(string) bool) string {
				t.Helper()
				deadline := time.Now().Add(10 * time.Second)
				for {
					s := screen()
					if ok(s) {
						return s
					}
					if time.Now().After(deadline) {
						t.Fatalf("timed out waiting for %s; screen:\n%s", what, s)
					}
					time.Sleep(25 * time.Millisecond)
				}
			}
			s := waitFor("the outcome", func(s string) bool {
				return strings.Contains(s, "Python transceiver (KvCacheTransceiverV2)") && strings.Contains(s, "Chain")
			})
			for i, l := range strings.Split(strings.TrimRight(s, "\n"), "\n") {
				if w := len([]rune(l)); w > sz[0] {
					t.Errorf("line %d is %d runes wide at %d columns: %q", i, w, sz[0], l)
				}
			}
			if a := alt(); a != "1" {
				t.Errorf("alternate_on = %q while running, want 1", a)
			}
			// backend DEFAULT -> none: the outcome line changes on screen.
			if out, err := tmux("send-keys", "-t", name, "j", "j", "h"); err != nil {
				t.Fatalf("send-keys: %v %s", err, out)
			}
			waitFor("disaggregation off", func(s string) bool { return strings.Contains(s, "Disaggregation off") })
			// none -> DEFAULT -> NIXL -> UCX: start-up fails in 1.4, and the ✗ step is
			// selected and on screen at this size, although the edit was made
			// in the inputs.
			if out, err := tmux("send-keys", "-t", name, "l", "l", "l"); err != nil {
				t.Fatalf("send-keys: %v %s", err, out)
			}
			failing := regexp.MustCompile(`›[ *]?\s?17 ✗ error`)
			waitFor("the failing step, selected", func(s string) bool {
				return strings.Contains(s, "Start-up fails") && failing.MatchString(s)
			})
			if out, err := tmux("send-keys", "-t", name, "q"); err != nil {
				t.Fatalf("send-keys q: %v %s", err, out)
			}
			waitFor("exit status 0", func(s string) bool { return strings.Contains(s, "XCVR_EXIT=0") })
			if a := alt(); a != "0" {
				t.Errorf("alternate_on = %q after q, want 0 (the alternate screen was not left)", a)
			}
			restored(t, name)
		})
	}

	// The tour at the small sizes: the band leaves the explorer its minimum
	// height, and ] scrolls the story instead of cutting it.
	for _, sz := range [][2]int{{64, 20}, {80, 24}} {
		name := "xtour" + strconv.Itoa(sz[0])
		t.Run("tour-"+strconv.Itoa(sz[0])+"x"+strconv.Itoa(sz[1]), func(t *testing.T) {
			script := bin + ` tour; echo "XCVR_EXIT=$?"; sleep 60`
			if out, err := tmux("new-session", "-d", "-s", name, "-x", strconv.Itoa(sz[0]), "-y", strconv.Itoa(sz[1]),
				"sh", "-c", script); err != nil {
				t.Fatalf("tmux new-session: %v\n%s", err, out)
			}
			defer tmux("kill-session", "-t", name)
			waitFor := func(what string, ok func(string) bool) string {
				t.Helper()
				deadline := time.Now().Add(10 * time.Second)
				for {
					s, _ := tmux("capture-pane", "-p", "-t", name)
					if ok(s) {
						return s
					}
					if time.Now().After(deadline) {
						t.Fatalf("timed out waiting for %s; screen:\n%s", what, s)
					}
					time.Sleep(25 * time.Millisecond)
				}
			}
			s := waitFor("the first stop", func(s string) bool { return strings.Contains(s, "Tour 1/") && strings.Contains(s, "Chain") })
			if strings.Contains(s, "terminal too small") {
				t.Fatalf("the band leaves the explorer too little room:\n%s", s)
			}
			tmux("send-keys", "-t", name, "]")
			waitFor("the story scrolled", func(s string) bool { return strings.Contains(s, "story ↑1") })
			tmux("send-keys", "-t", name, "q")
			waitFor("exit status 0", func(s string) bool { return strings.Contains(s, "XCVR_EXIT=0") })
		})
	}

	// --log in a real terminal at 80x24, on a file that grows: pending two
	// lines into start-up, agreeing once the outcome is written, the version
	// row following a restart for another release; then a log whose rank 1
	// died: its cause and rank 0's KV-transfer timeouts are on the main
	// screen and, whole, in o, which scrolls.
	t.Run("log", func(t *testing.T) {
		const name = "xlog"
		path := filepath.Join(dir, "gen.log")
		write := func(text string, flag int) {
			t.Helper()
			f, err := os.OpenFile(path, flag|os.O_WRONLY|os.O_CREATE, 0o644)
			if err != nil {
				t.Fatal(err)
			}
			if _, err := f.WriteString(text); err != nil {
				t.Fatal(err)
			}
			f.Close()
		}
		write("[TensorRT-LLM] TensorRT-LLM version: 1.3.0rc26\n[TRT-LLM] [I] [_torch  ] [RANK 0] Resolved transceiver_runtime='auto' to 'PYTHON' for GptOssForCausalLM.\n", os.O_TRUNC)
		script := "cd " + dir + " && " + bin + ` --model GptOssForCausalLM --log gen.log; echo "XCVR_EXIT=$?"; sleep 60`
		if out, err := tmux("new-session", "-d", "-s", name, "-x", "80", "-y", "24", "sh", "-c", script); err != nil {
			t.Fatalf("tmux new-session: %v\n%s", err, out)
		}
		defer tmux("kill-session", "-t", name)
		poll := func(what string, ok func(string) bool) string {
			t.Helper()
			deadline := time.Now().Add(10 * time.Second)
			for {
				s, _ := tmux("capture-pane", "-p", "-t", name)
				if ok(s) {
					return s
				}
				if time.Now().After(deadline) {
					t.Fatalf("timed out waiting for %s; screen:\n%s", what, s)
				}
				time.Sleep(25 * time.Millisecond)
			}
		}
		has := func(want ...string) func(string) bool {
			return func(s string) bool {
				for _, w := range want {
					if !strings.Contains(s, w) {
						return false
					}
				}
				return true
			}
		}
		s := poll("pending", has("observed gen.log", "… pending"))
		if strings.Contains(s, "disagreement") {
			t.Errorf("two lines into start-up the log disagrees:\n%s", s)
		}
		write("[TRT-LLM] [I] [_torch  ] [RANK 0] Resolved use_kv_cache_manager_v2='auto' to True for GptOssForCausalLM\n[TRT-LLM] [I] [_torch  ] [RANK 0] Using KvCacheTransceiverV2\n", os.O_APPEND)
		poll("agreement", has("✓ agrees"))
		write("[TensorRT-LLM] TensorRT-LLM version: 1.3.0rc20\n", os.O_TRUNC)
		poll("the version of the restarted log", has("1.3.0rc20", "gen.log:1"))
		dead, err := os.ReadFile("../internal/logs/testdata/gen-1.3-dead-rank.log")
		if err != nil {
			t.Fatal(err)
		}
		write(string(dead), os.O_TRUNC)
		poll("the dead rank and the findings", has("✗ rank 1 failed: Failed to initialize executor on rank 1 — cause:", "! rank 0: 2× KV transfer timed out", "✗ start-up failed"))
		tmux("send-keys", "-t", name, "o")
		var seen strings.Builder
		seen.WriteString(poll("the outcome view", has("Observed gen.log")))
		for i := 0; i < 6; i++ {
			tmux("send-keys", "-t", name, "PgDn")
			time.Sleep(100 * time.Millisecond)
			s, _ := tmux("capture-pane", "-p", "-t", name)
			seen.WriteString(s)
		}
		all := strings.Join(strings.Fields(seen.String()), " ")
		for _, want := range []string{"rank 1: ERROR", "— ✗ start-up failed", "cause: Assertion failed: status == NIXL_SUCCESS",
			"! 2× KV transfer timed out, first at line 16: Terminating generation request 2048 due to KV cache transfer timeout"} {
			if !strings.Contains(all, want) {
				t.Errorf("scrolling o never shows %q:\n%s", want, seen.String())
			}
		}
		tmux("send-keys", "-t", name, "q")
		poll("exit status 0", has("XCVR_EXIT=0"))
	})

	// ctrl+z in an interactive shell: the terminal is given back (no alternate
	// screen, cursor shown, no mouse reporting) while the job is stopped, and fg
	// takes it again and redraws; q then exits 0.
	t.Run("suspend", func(t *testing.T) {
		const name = "xsuspend"
		if out, err := tmux("new-session", "-d", "-s", name, "-x", "80", "-y", "24", "bash", "--norc", "--noprofile", "-i"); err != nil {
			t.Fatalf("tmux new-session: %v\n%s", err, out)
		}
		defer tmux("kill-session", "-t", name)
		poll := func(what string, ok func(string) bool) string {
			t.Helper()
			deadline := time.Now().Add(10 * time.Second)
			for {
				s, _ := tmux("capture-pane", "-p", "-t", name)
				if ok(s) {
					return s
				}
				if time.Now().After(deadline) {
					t.Fatalf("timed out waiting for %s; screen:\n%s", what, s)
				}
				time.Sleep(25 * time.Millisecond)
			}
		}
		flags := func() string {
			s, _ := tmux("display-message", "-p", "-t", name, "#{alternate_on} #{cursor_flag} #{mouse_any_flag}")
			return strings.TrimSpace(s)
		}
		_, _ = tmux("send-keys", "-t", name, bin, "Enter")
		poll("the explorer", func(s string) bool { return strings.Contains(s, "Python transceiver") })
		_, _ = tmux("send-keys", "-t", name, "C-z")
		poll("the stopped job", func(s string) bool { return strings.Contains(s, "Stopped") })
		if got := flags(); got != "0 1 0" {
			t.Errorf("suspended: alternate_on cursor_flag mouse_any_flag = %q, want \"0 1 0\"", got)
		}
		_, _ = tmux("send-keys", "-t", name, "fg", "Enter")
		poll("the explorer again", func(s string) bool { return strings.Contains(s, "Python transceiver") && strings.Contains(s, "Chain") })
		if got := flags(); !strings.HasPrefix(got, "1 ") {
			t.Errorf("after fg: %q, want the alternate screen back", got)
		}
		_, _ = tmux("send-keys", "-t", name, "q")
		// Keys typed while the explorer is still leaving are its, not the
		// shell's (under load 200 ms was not always enough): wait for the
		// alternate screen to close, then for the shell's prompt.
		deadline := time.Now().Add(10 * time.Second)
		for strings.HasPrefix(flags(), "1 ") && time.Now().Before(deadline) {
			time.Sleep(25 * time.Millisecond)
		}
		time.Sleep(200 * time.Millisecond)
		_, _ = tmux("send-keys", "-t", name, "echo XCVR_EXIT=$?", "Enter")
		poll("exit status 0", func(s string) bool { return strings.Contains(s, "XCVR_EXIT=0") })
	})

	// NO_COLOR=yes (not a value strconv.ParseBool accepts, but no-color.org says any
	// non-empty value counts): the screen has attributes but no colour at all.
	t.Run("NO_COLOR", func(t *testing.T) {
		const name = "xnocolor"
		script := "NO_COLOR=yes " + bin + `; echo "XCVR_EXIT=$?"; sleep 60`
		if out, err := tmux("new-session", "-d", "-s", name, "-x", "100", "-y", "30", "sh", "-c", script); err != nil {
			t.Fatalf("tmux new-session: %v\n%s", err, out)
		}
		defer tmux("kill-session", "-t", name)
		var s string
		deadline := time.Now().Add(10 * time.Second)
		for {
			s, _ = tmux("capture-pane", "-e", "-p", "-t", name)
			if strings.Contains(s, "Python transceiver") {
				break
			}
			if time.Now().After(deadline) {
				t.Fatalf("timed out waiting for the explorer; screen:\n%s", s)
			}
			time.Sleep(25 * time.Millisecond)
		}
		if c := colourSGR(s); c != "" {
			t.Errorf("NO_COLOR=yes: the screen sets a colour with %q", c)
		}
		_, _ = tmux("send-keys", "-t", name, "q")
	})

	// --accessible: the linear mode in a real terminal. It never enters the
	// alternate screen, sets no colour and draws no boxes; the terminal's own line
	// discipline echoes what is typed, and a change prints the explain text.
	t.Run("accessible", func(t *testing.T) {
		const name = "xaccessible"
		script := bin + ` --accessible --trtllm 1.3.0rc22; echo "XCVR_EXIT=$?"; sleep 60`
		if out, err := tmux("new-session", "-d", "-s", name, "-x", "100", "-y", "30", "sh", "-c", script); err != nil {
			t.Fatalf("tmux new-session: %v\n%s", err, out)
		}
		defer tmux("kill-session", "-t", name)
		poll := func(what string, ok func(string) bool) string {
			t.Helper()
			deadline := time.Now().Add(10 * time.Second)
			for {
				s, _ := tmux("capture-pane", "-e", "-p", "-S", "-200", "-t", name)
				if ok(s) {
					return s
				}
				if time.Now().After(deadline) {
					t.Fatalf("timed out waiting for %s; screen:\n%s", what, s)
				}
				time.Sleep(25 * time.Millisecond)
			}
		}
		poll("the first prompt", func(s string) bool { return strings.Contains(s, "TensorRT-LLM version [1.3.0rc22]:") })
		if a, _ := tmux("display-message", "-p", "-t", name, "#{alternate_on}"); strings.TrimSpace(a) != "0" {
			t.Errorf("alternate_on = %q in linear mode, want 0", strings.TrimSpace(a))
		}
		// Each key waits for its prompt: typed ahead, the terminal would echo it
		// wherever the output was, and the prompt line would not show it.
		tmux("send-keys", "-t", name, "Enter") // keep the version
		poll("the model prompt", func(s string) bool { return strings.Contains(s, "Model architecture [") })
		tmux("send-keys", "-t", name, "Enter") // keep the model
		poll("the backend prompt", func(s string) bool { return strings.Contains(s, "Backend [DEFAULT]:") })
		tmux("send-keys", "-t", name, "-l", "UCX")
		tmux("send-keys", "-t", name, "Enter")
		poll("the new outcome", func(s string) bool {
			return strings.Contains(s, "Outcome: C++ transceiver (BindKvCacheTransceiver) on backend UCX")
		})
		tmux("send-keys", "-t", name, "-l", "q")
		tmux("send-keys", "-t", name, "Enter")
		s := poll("the exit status", func(s string) bool { return strings.Contains(s, "XCVR_EXIT=") })
		if !strings.Contains(s, "XCVR_EXIT=0") {
			t.Errorf("exit status not 0:\n%s", s)
		}
		if !strings.Contains(s, "Backend [DEFAULT]: UCX") {
			t.Errorf("the typed answer was not echoed on the prompt line:\n%s", s)
		}
		if c := colourSGR(s); c != "" {
			t.Errorf("linear mode sets a colour with %q", c)
		}
		for _, box := range "─│┌┐└┘├┤" {
			if strings.ContainsRune(s, box) {
				t.Errorf("linear mode draws %q", box)
			}
		}
		restored(t, name)
	})

	// A crash inside Update: the terminal is restored, the error and a hint are
	// printed, and the exit status is not 0. XCVR_TEST_PANIC names the key that
	// crashes.
	t.Run("panic", func(t *testing.T) {
		const name = "xpanic"
		script := "XCVR_TEST_PANIC=x " + bin + ` 2>&1; echo "XCVR_EXIT=$?"; sleep 60`
		if out, err := tmux("new-session", "-d", "-s", name, "-x", "100", "-y", "30", "sh", "-c", script); err != nil {
			t.Fatalf("tmux new-session: %v\n%s", err, out)
		}
		defer tmux("kill-session", "-t", name)
		poll := func(what string, ok func(string) bool) string {
			t.Helper()
			deadline := time.Now().Add(10 * time.Second)
			for {
				s, _ := tmux("capture-pane", "-p", "-S", "-100", "-t", name)
				if ok(s) {
					return s
				}
				if time.Now().After(deadline) {
					t.Fatalf("timed out waiting for %s; screen:\n%s", what, s)
				}
				time.Sleep(25 * time.Millisecond)
			}
		}
		poll("the explorer", func(s string) bool { return strings.Contains(s, "Python transceiver") })
		if out, err := tmux("send-keys", "-t", name, "x"); err != nil {
			t.Fatalf("send-keys: %v %s", err, out)
		}
		s := poll("the exit status", func(s string) bool { return strings.Contains(s, "XCVR_EXIT=") })
		if !strings.Contains(s, "XCVR_EXIT=3") {
			t.Errorf("after a crash the exit status should be 3:\n%s", s)
		}
		for _, want := range []string{"xcvr: the explorer crashed", "hint: 'xcvr explain'"} {
			if !strings.Contains(s, want) {
				t.Errorf("after a crash the screen lacks %q:\n%s", want, s)
			}
		}
		restored(t, name)
	})
}

// colourSGR returns the first SGR sequence in s that sets a foreground or
// background colour (30–38, 40–48, 90–97, 100–107), or "". Resets to the default
// colour (39, 49) and attributes such as bold are allowed.
func colourSGR(s string) string {
	for {
		i := strings.Index(s, "\x1b[")
		if i < 0 {
			return ""
		}
		s = s[i+2:]
		j := strings.IndexFunc(s, func(r rune) bool { return (r < '0' || r > '9') && r != ';' })
		if j < 0 {
			return ""
		}
		if s[j] != 'm' {
			continue
		}
		for _, p := range strings.Split(s[:j], ";") {
			n, err := strconv.Atoi(p)
			if err != nil {
				continue
			}
			if (n >= 30 && n <= 38) || (n >= 40 && n <= 48) || (n >= 90 && n <= 97) || (n >= 100 && n <= 107) {
				return "ESC[" + s[:j+1]
			}
		}
	}
}

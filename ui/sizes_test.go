package ui

import (
	"math/rand/v2"
	"os"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/colorprofile"
	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/exp/teatest/v2"

	"xcvr/internal/inputs"
	"xcvr/internal/logs"
	"xcvr/resolver"
)

// The flows as a real program (teatest) at 64x20, 80x24, 120x40 and
// 200x60: the C++ outcome names its deciding step and n goes there first; an
// edit that fails opens on its ✗ step; / filters the chain; the version
// picker finds a release by typing.
func TestFlowsAtEverySize(t *testing.T) {
	for _, sz := range operatorSizes {
		t.Run(strconv.Itoa(sz[0])+"x"+strconv.Itoa(sz[1]), func(t *testing.T) {
			m := New(Options{Spec: cppFallbackSpec()})
			tm := teatest.NewTestModel(t, m, teatest.WithInitialTermSize(sz[0], sz[1]),
				teatest.WithProgramOptions(tea.WithColorProfile(colorprofile.Ascii)))
			wait := func(what string, ok func(string) bool) {
				t.Helper()
				// The renderer writes only the cells that changed, so a phrase
				// can reach the output in pieces; a cleared screen is drawn
				// whole, so each check asks for one after its keys.
				tm.Send(tea.ClearScreen())
				teatest.WaitFor(t, tm.Output(), func(b []byte) bool { return ok(string(b)) },
					teatest.WithDuration(5*time.Second), teatest.WithCheckInterval(10*time.Millisecond))
			}
			has := func(s ...string) func(string) bool {
				return func(b string) bool {
					for _, x := range s {
						if !strings.Contains(b, x) {
							return false
						}
					}
					return true
				}
			}
			wait("the C++ outcome and its deciding step", has("C++ transceiver", "decided at step 10"))
			tm.Send(press("n"))
			wait("n on the fallback", has("10 ↩ fallback", "decided the outcome"))
			// / on the chain: only the matching steps.
			tm.Send(press("/"))
			for _, k := range typed("pipelined") {
				tm.Send(press(k))
			}
			tm.Send(press("enter"))
			wait("the filter", has("/pipelined 2 of 21"))
			tm.Send(press("esc"))
			// The backend typed as UCX with runtime PYTHON fails; the ✗ step is
			// selected and on screen.
			tm.Send(press("tab"))
			for _, k := range append(append([]string{"down", "down", "down", "e", "ctrl+u"}, typed("PYTHON")...), "enter") {
				tm.Send(press(k))
			}
			wait("the failure, opened", has("Start-up fails", "✗ error"))
			// The version picker: enter on the version row, type, enter.
			for _, k := range append(append([]string{"up", "up", "up", "enter"}, typed("1.3.0rc26")...), "enter") {
				tm.Send(press(k))
			}
			wait("the picked version", has("1.3.0rc26 era 2"))
			tm.Send(press("q"))
			fm := tm.FinalModel(t, teatest.WithFinalTimeout(5*time.Second)).(Model)
			if fm.spec.Version.Raw != "1.3.0rc26" || fm.spec.Runtime.Raw != "PYTHON" {
				t.Errorf("final inputs: version %q runtime %q", fm.spec.Version.Raw, fm.spec.Runtime.Raw)
			}
			if fm.trace.Result.Outcome == resolver.OutcomeError && fm.selectedID() != fm.trace.Result.FailedStep {
				t.Errorf("a failure, but %q is selected", fm.selectedID())
			}
		})
	}
}

// Layouts give the chain room at every width: at 100 columns (stacked) a
// step's reason gets most of the width and a compare cell more than 20
// cells; at 200 columns the inputs pane shows whole origins.
func TestLayoutGivesTheChainRoom(t *testing.T) {
	m := newAt(100, 30)
	l := m.layout()
	if l.twoCol || l.chain.w != 100 {
		t.Errorf("100 columns: chain %d wide, two columns %v", l.chain.w, l.twoCol)
	}
	m = keys(t, newAt(100, 30), "v")
	f := plainFrame(m)
	for _, line := range strings.Split(f, "\n") {
		if strings.Contains(line, "validate ") && strings.Contains(line, "│") {
			left := strings.Split(line, "│")[0]
			if i := strings.Index(left, "✓"); i < 0 || len([]rune(left[i:])) < 30 {
				t.Errorf("100 columns compare: the left cell is %q", left)
			}
		}
	}
	long := "explorer (overrides internal/deploy/testdata/some/long/path/gen-invalid.yaml:10)"
	s := testSpec()
	s.TimeoutMS = inputs.Value{Raw: "5000", Origin: resolver.Origin{Kind: explorerOrigin.Kind, Detail: strings.TrimPrefix(long, "explorer ")}}
	m = New(Options{Spec: s, Width: 200, Height: 60})
	l = m.layout()
	if !l.twoCol || l.inputs.w < 2+11+4+len(long) {
		t.Errorf("200 columns: inputs pane %d wide for a %d-cell origin", l.inputs.w, len(long))
	}
	if f := plainFrame(m); !strings.Contains(f, long) {
		t.Errorf("200 columns: the origin is cut:\n%s", f)
	}
	if l.chain.w < 100 {
		t.Errorf("200 columns: the chain keeps only %d", l.chain.w)
	}
	// 120 columns: two columns, the chain at least 60.
	m120 := newAt(120, 40)
	if l := m120.layout(); !l.twoCol || l.chain.w < 60 {
		t.Errorf("120 columns: chain %d", l.chain.w)
	}
}

// Stacked on a tall terminal (60x100), the inputs take the rows they draw and
// the chain the rest, whether the inputs or the chain has the focus: the
// inputs' 3/5 share left 32 rows blank below them while the chain cut steps 8
// to 21 to one line each with "…".
func TestTallTerminalGivesSpareRowsToTheChain(t *testing.T) {
	for _, focus := range [][]string{nil, {"tab"}} {
		m := keys(t, newAt(60, 100), focus...)
		f := plainFrame(m)
		checkFits(t, f, 60, 100)
		lines := strings.Split(f, "\n")
		chain := slices.IndexFunc(lines, func(l string) bool { return strings.Contains(l, " Chain ") })
		if chain < 0 || strings.TrimSpace(lines[chain-1]) == "" || !strings.Contains(lines[chain-1], "DISAGG_ROLE") {
			t.Errorf("focus %v: the chain does not start right after the inputs' last row:\n%s", focus, f)
		}
		if flat := strings.Join(strings.Fields(f), " "); !strings.Contains(flat, "Cache manager vs transceiver: no Mamba cache manager") {
			t.Errorf("focus %v: step 20's reason is cut:\n%s", focus, f)
		}
	}
}

// rolesWithLog is both roles of a --disagg file with a --log: the most lines
// above the panes (the other role's outcome, the log's findings).
func rolesWithLog(t *testing.T, w, h int) Model {
	t.Helper()
	f, err := os.Open("../internal/logs/testdata/gen-1.3-dead-rank.log")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	lg, err := logs.Parse("gen-1.3-dead-rank.log", f)
	if err != nil {
		t.Fatal(err)
	}
	ctx, gen := rolesSpecs()
	return New(Options{Spec: logs.WithVersion(ctx, lg), RoleName: "context", Width: w, Height: h, Log: lg,
		Roles: []Role{{Name: "generation", Source: "disagg.yaml", Spec: gen}}})
}

// The full help on a small terminal with both roles and a log: the other
// role's outcome and the log's lines left the panes a negative height, and ?
// crashed the explorer ("makeslice: cap out of range" at 64x18). They give up
// their lines first, then the help its last ones; the frame fits.
func TestHelpFitsWithRolesAndLog(t *testing.T) {
	for _, sz := range [][2]int{{60, 16}, {61, 17}, {64, 18}, {64, 20}, {80, 24}} {
		m := keys(t, rolesWithLog(t, sz[0], sz[1]), "?")
		f := m.frame()
		checkFits(t, f, sz[0], sz[1])
		if p := ansi.Strip(f); !strings.Contains(p, "↑/k up") || !strings.Contains(p, "▶ context role") {
			t.Errorf("%dx%d: no help or no outcome:\n%s", sz[0], sz[1], p)
		}
	}
}

// A random walk over the keys, the sizes and the three starts (the default,
// both roles, both roles with a log) never crashes the explorer, and every
// frame is the terminal's size. It found the two crashes above.
func TestRandomKeysNeverCrash(t *testing.T) {
	ks := []string{"up", "down", "left", "right", "enter", "tab", "esc", "space", "backspace", "home",
		"j", "k", "h", "l", "e", "/", "n", "N", "o", "c", "y", "x", "r", "R", "v", "<", ">", "m", "p", "?", "a", "1", ".", "U"}
	sizes := [][2]int{{80, 24}, {60, 16}, {120, 40}, {30, 8}, {64, 18}, {61, 17}, {60, 100}, {150, 20}}
	for seed := range uint64(24) {
		r := rand.New(rand.NewPCG(seed, 1))
		var m Model
		switch seed % 3 {
		case 0:
			m = newAt(80, 24)
		case 1:
			m = newRoles(80, 24)
		default:
			m = rolesWithLog(t, 80, 24)
		}
		w, h := 80, 24
		var walk []string
		func() {
			defer func() {
				if p := recover(); p != nil {
					t.Fatalf("seed %d: panic %v after %v", seed, p, walk)
				}
			}()
			for i := range 300 {
				if i%37 == 0 {
					s := sizes[r.IntN(len(sizes))]
					w, h = s[0], s[1]
					walk = append(walk, strconv.Itoa(w)+"x"+strconv.Itoa(h))
					nm, _ := m.Update(tea.WindowSizeMsg{Width: w, Height: h})
					m = nm.(Model)
				}
				k := ks[r.IntN(len(ks))]
				walk = append(walk, k)
				m = keys(t, m, k)
				if i%10 == 0 {
					checkFits(t, m.frame(), w, h)
				}
			}
		}()
	}
}

// Item 4: a row for every variable the resolver reads, each togglable.
func TestARowForEveryEnvVar(t *testing.T) {
	m := newAt(200, 60)
	f := plainFrame(m)
	for _, e := range resolver.EnvVars() {
		if !strings.Contains(f, "[ ] "+strings.TrimPrefix(e.Name, "TRTLLM_")+" unset") {
			t.Errorf("no row for %s:\n%s", e.Name, f)
		}
	}
	for i, r := range m.rows {
		if r.kind == rowEnv && r.env.Name == "TRTLLM_USE_PY_MAMBA" {
			m.row = i
		}
	}
	m = keys(t, m, "enter")
	if v, ok := m.spec.Env["TRTLLM_USE_PY_MAMBA"]; !ok || v.Value != "1" {
		t.Errorf("enter on the USE_PY_MAMBA row: %+v", m.spec.Env)
	}
}

package compare

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"xcvr/internal/deploy"
	"xcvr/internal/inputs"
	"xcvr/resolver"
)

// Every text view fits the width it is given (the CLI gives 80 off a terminal and
// 60..120 on one; the views lay out for at least 40), over random workers and
// version pairs, with and without colour; colour only adds escape sequences.
func TestTextViewsFitEveryWidth(t *testing.T) {
	r := rand.New(rand.NewPCG(80, 24))
	n := 150
	if testing.Short() {
		n = 30
	}
	fits := func(name, plain, colored string, w int) {
		t.Helper()
		if strings.Contains(plain, "\x1b") {
			t.Fatalf("%s at %d: escape sequences without colour", name, w)
		}
		if ansi.Strip(colored) != plain {
			t.Fatalf("%s at %d: colour changes the text", name, w)
		}
		for i, l := range strings.Split(colored, "\n") {
			if sw := ansi.StringWidth(l); sw > max(w, 40) {
				t.Errorf("%s at %d: line %d is %d cells: %q", name, w, i+1, sw, ansi.Strip(l))
			}
		}
	}
	for i := range n {
		wk := randomWorker(r)
		from, to := randomVersion(r), randomVersion(r)
		s := inputs.Defaults()
		s.Version = inputs.Value{Raw: from.Name, Origin: resolver.Origin{Kind: resolver.OriginFlag}}
		s.Model = inputs.Value{Raw: wk.model, Origin: resolver.Origin{Kind: resolver.OriginFlag}}
		for k, v := range wk.env {
			s.Env[k] = resolver.EnvVar{Value: v, Origin: resolver.Origin{Kind: resolver.OriginEnv}}
		}
		ov, err := deploy.ReadWorkerConfig("worker.yaml", wk.yaml(t))
		if err != nil {
			t.Fatal(err)
		}
		deploy.Apply(&s, ov)
		in, err := inputs.Build(s, cat)
		if err != nil {
			t.Fatal(err)
		}
		roles := []Role{{Name: "context", Inputs: in, YAMLPaths: [][]string{{"context_servers"}}},
			{Name: "generation", Inputs: in, YAMLPaths: [][]string{nil, {"generation_servers"}}, YAMLNote: "a note long enough to wrap over more than one line of the narrowest layout"}}
		d := DiffVersions(in, from, to, cat)
		u := UpgradeCheck(roles, from, to, cat)
		for _, w := range []int{30, 40, 60, 80, 100, 120} {
			name := fmt.Sprintf("case %d (%s -> %s, %s)", i, from.Name, to.Name, wk.model)
			for _, all := range []bool{false, true} {
				fits(name+" diff", DiffText(d, TextOptions{Width: w, All: all}), DiffText(d, TextOptions{Width: w, All: all, Color: true}), w)
			}
			fits(name+" upgrade-check", UpgradeText(u, TextOptions{Width: w}), UpgradeText(u, TextOptions{Width: w, Color: true}), w)
		}
	}
	base := mustInputs(t, "1.3.0rc26", "KimiLinearForCausalLM", "UCX", setEnv(resolver.EnvUseUCX+"=1"))
	for _, rows := range Axes() {
		for _, cols := range Axes() {
			if rows == cols {
				continue
			}
			m, err := NewMatrix(base, rows, cols, cat)
			if err != nil {
				t.Fatal(err)
			}
			for _, w := range []int{30, 40, 60, 80, 100, 120} {
				fits(fmt.Sprintf("matrix %s × %s", rows, cols), MatrixText(m, TextOptions{Width: w}), MatrixText(m, TextOptions{Width: w, Color: true}), w)
			}
		}
	}
}

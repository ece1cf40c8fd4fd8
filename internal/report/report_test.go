package report

import (
	"strconv"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"xcvr/models"
	"xcvr/resolver"
)

func trace(t *testing.T, version, backend string, env resolver.Env) resolver.Trace {
	t.Helper()
	v, err := resolver.ParseVersion(version)
	if err != nil {
		t.Fatal(err)
	}
	in := resolver.Inputs{Version: v, Env: env,
		Model:  resolver.Field[resolver.ModelInfo]{Value: resolver.ModelInfo{Arch: "GptOssForCausalLM", Known: true, Class: "GptOssForCausalLM", Preference: resolver.Str("PYTHON")}},
		Loader: resolver.Field[resolver.Loader]{Value: resolver.LoaderPyTorch}}
	if backend != "" {
		in.Backend = resolver.Field[resolver.PyStr]{Value: resolver.Str(backend), Origin: resolver.Origin{Kind: resolver.OriginFlag, Detail: "--backend"}}
	}
	return resolver.Resolve(in)
}

// Every wrapped line fits the width; only the outcome line and the log lines, which
// operators copy and grep, may run longer.
func TestTextFitsWidth(t *testing.T) {
	for _, w := range []int{60, 80, 100} {
		for _, tr := range []resolver.Trace{
			trace(t, "1.3.0rc22", "UCX", nil),
			trace(t, "1.4.0rc4", "DEFAULT", resolver.Env{"TRTLLM_USE_UCX_KVCACHE": {Value: "1"}}),
			trace(t, "1.3.0rc20", "", nil),
		} {
			for _, st := range []Styles{PlainStyles(), ColorStyles()} {
				out := Text(tr, TextOptions{Width: w, Styles: st})
				for _, line := range strings.Split(out, "\n") {
					plain := ansi.Strip(line)
					if strings.HasPrefix(plain, "Outcome: ") || strings.HasPrefix(plain, "  [TRT-LLM]") {
						continue
					}
					if ansi.StringWidth(line) > w {
						t.Errorf("width %d: line of %d cells: %q", w, ansi.StringWidth(line), plain)
					}
				}
				if st.On != strings.Contains(out, "\x1b[") {
					t.Errorf("styles.On=%v but escapes present=%v", st.On, !st.On)
				}
			}
		}
	}
}

func TestOutcomeLine(t *testing.T) {
	cases := map[resolver.Outcome]string{
		resolver.OutcomePython:   "Python transceiver (KvCacheTransceiverV2)",
		resolver.OutcomeCPP:      "C++ transceiver (BindKvCacheTransceiver)",
		resolver.OutcomeDisabled: "Disaggregation off (no transceiver)",
	}
	for o, want := range cases {
		if got := OutcomeLine(resolver.Result{Outcome: o}); got != want {
			t.Errorf("%s: %q", o, got)
		}
	}
	got := OutcomeLine(resolver.Result{Outcome: resolver.OutcomeError, Error: "pydantic_core._pydantic_core.ValidationError: 1 validation error for TorchLlmArgs\nx\n  y"})
	if got != "Start-up fails: pydantic_core._pydantic_core.ValidationError: 1 validation error for TorchLlmArgs" {
		t.Errorf("error outcome: %q", got)
	}
}

func TestMarkdownEscapesCells(t *testing.T) {
	tr := trace(t, "1.4.0rc4", "NIXL", nil)
	tr.Steps[0].Reason = "a | b\nc"
	md := Markdown(tr)
	if !strings.Contains(md, `a \| b\nc`) {
		t.Errorf("cell not escaped:\n%s", md)
	}
	if strings.Count(md, "\n| ") != len(tr.Steps)+1 {
		t.Errorf("table rows: %d", strings.Count(md, "\n| "))
	}
}

func TestExplainJSONNulls(t *testing.T) {
	j := Explain(trace(t, "1.4.0rc4", "", nil))
	if j.Outcome != "DISABLED" || j.EffectiveBackend != nil || j.TransceiverClass != nil || j.Error != nil || j.BackendSource != nil {
		t.Errorf("disabled JSON: %+v", j)
	}
	if j.ResolvedRuntime == nil || *j.ResolvedRuntime != "PYTHON" {
		t.Errorf("the field still holds the 1.4 default: %v", j.ResolvedRuntime)
	}
	if j.Inputs["backend"].Value != nil || j.Inputs["transceiver_runtime"].Value != "PYTHON" || j.Inputs["kv_transfer_timeout_ms"].Value != resolver.DefaultTimeoutMS {
		t.Errorf("inputs: %+v", j.Inputs)
	}
}

// TestWrapKeepsHyphenatedWords: text is broken only at spaces, so a FILE:LINE such
// as gen-invalid.yaml:10 or a day such as 2026-08-28 stays on one line, where an
// operator can copy or grep it; a word longer than the line is still cut.
func TestWrapKeepsHyphenatedWords(t *testing.T) {
	for w := 20; w <= 80; w++ {
		s := "kv_transfer_timeout_ms: Input should be a valid integer (/etc/trtllm/gen-invalid.yaml:10) and 1 more: backend (/etc/trtllm/ctx-nixl-prod.yaml:8) since 2026-08-28"
		out := wrap(s, w, "   ")
		for _, tok := range []string{"(/etc/trtllm/gen-invalid.yaml:10)", "(/etc/trtllm/ctx-nixl-prod.yaml:8)", "2026-08-28"} {
			if len(tok) <= w-3 && !strings.Contains(out, tok) {
				t.Errorf("width %d split %q:\n%s", w, tok, out)
			}
		}
		for _, line := range strings.Split(out, "\n") {
			if ansi.StringWidth(line) > max(w, 23) {
				t.Errorf("width %d: line %q too long", w, line)
			}
		}
		if w-3 >= len("(/etc/trtllm/ctx-nixl-prod.yaml:8)") && strings.Join(strings.Fields(out), " ") != s {
			t.Errorf("width %d lost words:\n%s", w, out)
		}
	}
	long := strings.Repeat("x", 50)
	if out := wrap(long, 30, ""); strings.Count(out, "\n") != 1 || strings.ReplaceAll(out, "\n", "") != long {
		t.Errorf("long word: %q", out)
	}
}

// TestMarkdownTableEnds: every line after the step table's last row is separated
// from it by a blank line; GitHub-flavoured Markdown otherwise reads the next
// paragraph ("**Fix:** …") as one more table row.
func TestMarkdownTableEnds(t *testing.T) {
	for _, tr := range []resolver.Trace{
		trace(t, "1.4.0rc4", "UCX", nil), // ERROR, with a fix
		trace(t, "1.4.0rc4", "NIXL", nil),
	} {
		md := Markdown(tr)
		lines := strings.Split(md, "\n")
		last := "| " + strconv.Itoa(len(tr.Steps)) + " |"
		for i := 1; i < len(lines); i++ {
			if strings.HasPrefix(lines[i-1], last) && lines[i] != "" {
				t.Errorf("line after the table: %q\n%s", lines[i], md)
			}
		}
		if tr.Result.Outcome == resolver.OutcomeError && !strings.Contains(md, "|\n\n**Fix:** ") {
			t.Errorf("fix not after a blank line:\n%s", md)
		}
	}
}

// An exception text that holds a fence of its own stays inside the code block:
// the block's fence is longer than any run of backticks in it.
func TestMarkdownExceptionCannotCloseItsBlock(t *testing.T) {
	tr := trace(t, "1.4.0rc4", "NIXL", nil)
	tr.Result.Outcome = resolver.OutcomeError
	tr.Result.Error = "ValueError: x\n```\n# Not a heading\n````"
	md := Markdown(tr)
	if !strings.Contains(md, "`````text\nValueError: x\n```\n# Not a heading\n````\n`````\n") {
		t.Errorf("exception block:\n%s", md)
	}
}

// The listings' lines end where their text does: a release line's header row
// of `xcvr versions` and a model with no KV preference in `xcvr models` ended
// in the spaces tabwriter pads an empty last cell with.
func TestListingsHaveNoTrailingSpaces(t *testing.T) {
	var b strings.Builder
	if err := WriteVersions(&b, VersionRows()); err != nil {
		t.Fatal(err)
	}
	for _, v := range []string{"1.4.0rc4", "1.3.0rc22", "1.0.0rc4"} {
		ver, err := resolver.ParseVersion(v)
		if err != nil {
			t.Fatal(err)
		}
		if err := WriteModels(&b, ver, ModelRows(models.Builtin(), ver)); err != nil {
			t.Fatal(err)
		}
	}
	for i, l := range strings.Split(b.String(), "\n") {
		if strings.HasSuffix(l, " ") {
			t.Errorf("line %d ends in spaces: %q", i+1, l)
		}
	}
	if !strings.Contains(b.String(), "\n— 1.0 —\n") {
		t.Errorf("no release line header:\n%s", b.String())
	}
}

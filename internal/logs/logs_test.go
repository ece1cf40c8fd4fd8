package logs

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"xcvr/internal/inputs"
	"xcvr/models"
	"xcvr/resolver"
)

func parseFile(t *testing.T, name string) *Log {
	t.Helper()
	f, err := os.Open(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	lg, err := Parse(name, f)
	if err != nil {
		t.Fatal(err)
	}
	return lg
}

// findingKinds is p's findings' kinds, in order, joined by commas.
func findingKinds(p *Process) string {
	var kinds []string
	for _, f := range p.Findings {
		kinds = append(kinds, f.Kind)
	}
	return strings.Join(kinds, ",")
}

// processFinding is p's finding of kind (a process keeps one per kind, counted),
// the zero Finding when it has none.
func processFinding(p *Process, kind string) Finding {
	for _, f := range p.Findings {
		if f.Kind == kind {
			return f
		}
	}
	return Finding{}
}

// processFindings is each process's "source=outcome kinds", joined by ';'.
func processFindings(lg *Log) string {
	var got []string
	for _, p := range lg.Processes {
		got = append(got, fmt.Sprintf("%s=%s %s", p.Source, p.Outcome(), findingKinds(p)))
	}
	return strings.Join(got, ";")
}

func predict(t *testing.T, version, model, backend string, env ...string) resolver.Trace {
	t.Helper()
	s := inputs.Defaults()
	flag := resolver.Origin{Kind: resolver.OriginFlag}
	s.Version = inputs.Value{Raw: version, Origin: flag}
	s.Model = inputs.Value{Raw: model, Origin: flag}
	s.Backend = inputs.Value{Raw: backend, Origin: flag}
	for _, kv := range env {
		if err := s.SetEnv(kv, flag); err != nil {
			t.Fatal(err)
		}
	}
	in, err := inputs.Build(s, models.Builtin())
	if err != nil {
		t.Fatal(err)
	}
	return resolver.Resolve(in)
}

func sources(lg *Log) string {
	var s []string
	for _, p := range lg.Processes {
		s = append(s, p.Source)
	}
	return strings.Join(s, ",")
}

func TestSrunEra2Python(t *testing.T) {
	lg := parseFile(t, "ctx-era2-srun.log")
	if got := sources(lg); got != "srun task 0,srun task 1,srun task 2,srun task 3" {
		t.Fatalf("sources %s", got)
	}
	for _, p := range lg.Processes {
		if !p.ResolvedSeen || !p.Resolved.Is("PYTHON") || p.ResolvedFor != "GptOssForCausalLM" || p.Class != resolver.ClassPython || p.ClassInferred || p.Backend != "NIXL" {
			t.Errorf("%s: %+v", p.Source, p)
		}
	}
	if ms := Compare(lg, predict(t, "1.3.0rc26", "GptOssForCausalLM", "NIXL")); len(ms) != 0 {
		t.Errorf("mismatches against the matching prediction: %+v", ms)
	}
	// Era 0 has no 'auto' and builds the C++ transceiver: the version line is
	// the first disagreement, then the resolution line, the version and the outcome.
	ms := Compare(lg, predict(t, "1.3.0rc20", "GptOssForCausalLM", "NIXL"))
	if len(ms) < 2 || ms[0].Kind != KindVersion || ms[0].Line != 2 || ms[1].Kind != KindExtra || ms[1].Line != 14 || ms[1].Source != "srun task 2" {
		t.Fatalf("era-0 prediction: first mismatches %+v", ms)
	}
	kinds := map[string]bool{}
	for _, m := range ms {
		if m.Source == "srun task 0" {
			kinds[m.Kind] = true
		}
	}
	for _, k := range []string{KindExtra, KindRuntime, KindVersion, KindOutcome} {
		if !kinds[k] {
			t.Errorf("no %s mismatch for task 0 in %+v", k, ms)
		}
	}
}

func TestMpirunEra1Fallback(t *testing.T) {
	lg := parseFile(t, "gen-era1-mpirun.log")
	if got := sources(lg); got != "mpirun [1,0],mpirun [1,1]" {
		t.Fatalf("sources %s", got)
	}
	p := lg.Processes[0]
	if p.Class != resolver.ClassCPP || !p.ClassInferred || p.Backend != "UCX" || p.Resolved.Valid || !p.ResolvedSeen {
		t.Fatalf("rank 0: %+v", p)
	}
	var texts []string
	for _, im := range p.Implications {
		texts = append(texts, im.Text)
	}
	if !strings.Contains(strings.Join(texts, "\n"), "before 2026-08-28") {
		t.Errorf("implications %q lack the build-date inference", texts)
	}
	if ms := Compare(lg, predict(t, "main@2026-08-05", "GptOssForCausalLM", "UCX")); len(ms) != 0 {
		t.Errorf("era-1 prediction mismatches: %+v", ms)
	}
	// Era 2 predicts PYTHON kept and an error: the first disagreement is the
	// fallback line, and the version contradicts the log's era.
	ms := Compare(lg, predict(t, "main@2026-09-10", "GptOssForCausalLM", "UCX"))
	if len(ms) == 0 || ms[0].Line != 4 { // line 3 is the KV-cache manager line, which agrees
		t.Fatalf("era-2 prediction: %+v", ms)
	}
	kinds := map[string]bool{}
	for _, m := range ms {
		kinds[m.Kind] = true
	}
	for _, k := range []string{KindExtra, KindRuntime, KindOutcome, KindVersion} {
		if !kinds[k] {
			t.Errorf("no %s mismatch in %+v", k, ms)
		}
	}
}

func TestPlainInterleavedError(t *testing.T) {
	lg := parseFile(t, "gen-era2-error.log")
	if got := sources(lg); got != "rank 0,rank 1" {
		t.Fatalf("sources %s", got)
	}
	want := "ValueError: Python transceiver currently only supports NIXL backend, got UCX. Please use transceiver_runtime='CPP' for MPI, UCX, or MOONCAKE backends."
	for _, p := range lg.Processes {
		if p.Error != want || p.Backend != "UCX" || p.Outcome() != resolver.OutcomeError {
			t.Errorf("%s: error %q backend %q", p.Source, p.Error, p.Backend)
		}
	}
	if !lg.Failed() {
		t.Error("Failed() = false")
	}
	if ms := Compare(lg, predict(t, "main@2026-09-10", "GptOssForCausalLM", "UCX")); len(ms) != 0 {
		t.Errorf("mismatches: %+v", ms)
	}
}

func TestValidationErrorBlock(t *testing.T) {
	lg := parseFile(t, "validation-error.log")
	if len(lg.Processes) != 1 || lg.Processes[0].Source != "process" {
		t.Fatalf("processes %s", sources(lg))
	}
	p := lg.Processes[0]
	want := "pydantic_core._pydantic_core.ValidationError: 2 validation errors for TorchLlmArgs\n" +
		"cache_transceiver_config.backend\n" +
		"  Input should be 'DEFAULT', 'UCX', 'NIXL', 'MOONCAKE' or 'MPI' [type=literal_error, input_value='nixl', input_type=str]\n" +
		"cache_transceiver_config.chunk_size_blocks\n" +
		"  Extra inputs are not permitted [type=extra_forbidden, input_value=32, input_type=int]"
	if p.Error != want {
		t.Fatalf("error\n%s\nwant\n%s", p.Error, want)
	}
}

func TestEnvWarningImplication(t *testing.T) {
	lg := parseFile(t, "env-ucx-srun.log")
	p := lg.Processes[1]
	if p.Source != "srun task 1" || p.EnvVar != "TRTLLM_USE_UCX_KVCACHE" || p.Backend != "UCX" || p.Class != resolver.ClassCPP {
		t.Fatalf("%+v", p)
	}
	ok := false
	for _, im := range p.Implications {
		ok = ok || strings.HasPrefix(im.Text, "TRTLLM_USE_UCX_KVCACHE=1 was set")
	}
	if !ok {
		t.Errorf("implications %+v", p.Implications)
	}
	if ms := Compare(lg, predict(t, "main@2026-09-10", "Qwen3ForCausalLM", "DEFAULT", "TRTLLM_USE_UCX_KVCACHE=1")); len(ms) != 0 {
		t.Errorf("mismatches: %+v", ms)
	}
	// Without the env var the prediction is PYTHON on NIXL.
	ms := Compare(lg, predict(t, "main@2026-09-10", "Qwen3ForCausalLM", "DEFAULT"))
	if len(ms) == 0 {
		t.Fatal("no mismatch without the env var")
	}
}

func TestWarningLevelHidesInfo(t *testing.T) {
	lg := parseFile(t, "warning-level.log")
	p := lg.Processes[0]
	if p.InfoSeen || p.Backend != "MPI" || p.EnvVar != "TRTLLM_USE_MPI_KVCACHE" {
		t.Fatalf("%+v", p)
	}
	// INFO lines of the prediction are not demanded from a WARNING-level log.
	if ms := Compare(lg, predict(t, "main@2026-10-01", "Qwen3ForCausalLM", "DEFAULT", "TRTLLM_USE_MPI_KVCACHE=1")); len(ms) != 0 {
		t.Errorf("mismatches: %+v", ms)
	}
}

func TestHostileInput(t *testing.T) {
	long := strings.Repeat("x", 5<<20) + "\n[TRT-LLM] [I] Using KvCacheTransceiverV2\n"
	lg, err := Parse("long.log", strings.NewReader(long))
	if err != nil {
		t.Fatal(err)
	}
	if len(lg.Processes) != 1 || lg.Processes[0].Class != resolver.ClassPython {
		t.Fatalf("%+v", lg.Processes)
	}
	var many strings.Builder
	for i := 0; i < 10000; i++ {
		many.WriteString("[TRT-LLM] [RANK 0] [I] Using KvCacheTransceiverV2\n")
	}
	lg, _ = Parse("many.log", strings.NewReader(many.String()))
	if p := lg.Processes[0]; len(p.Lines) != 1 || p.LinesDropped != 9999 {
		t.Errorf("10,000 repeats of one line: kept %d, dropped %d; want the first kept and the repeats counted", len(p.Lines), p.LinesDropped)
	}
	// Distinct findings are capped per process, with a count of the rest.
	many.Reset()
	for i := 0; i < 1000; i++ {
		fmt.Fprintf(&many, "[TRT-LLM] [RANK 0] [I] Model prefers the Python transceiver, but backend B%d does not support it; falling back to the C++ transceiver.\n", i)
	}
	lg, _ = Parse("distinct.log", strings.NewReader(many.String()))
	p := lg.Processes[0]
	if len(p.Lines) != maxLinesPerProcess || p.LinesDropped != 1000-maxLinesPerProcess ||
		len(p.Implications) != maxImplications || p.ImplicationsDropped != 1001-maxImplications {
		t.Errorf("1,000 distinct findings: kept %d lines (dropped %d), %d implications (dropped %d)",
			len(p.Lines), p.LinesDropped, len(p.Implications), p.ImplicationsDropped)
	}
}

// TestUnrankedLinesAreTheirOwnProcess: TensorRT-LLM's logger prints [MPI_Rank n]
// whenever its MPI world has more than one process, so a line without a rank is
// from another process (here a TP=1 context server sharing the log with a TP=2
// generation server), even when it follows a ranked line.
func TestUnrankedLinesAreTheirOwnProcess(t *testing.T) {
	lg := parseFile(t, "one-node-ctx-tp1-gen-tp2.log")
	if got := sources(lg); got != "process without rank,rank 0,rank 1" {
		t.Fatalf("sources %s", got)
	}
	want := map[string]string{
		"process without rank": "PYTHON NIXL lines 12 15 16",
		"rank 0":               "CPP UCX lines 8 9 17 18",
		"rank 1":               "CPP UCX lines 10 11 13 14",
	}
	for _, p := range lg.Processes {
		got := string(p.Outcome()) + " " + p.Backend + " lines"
		for _, l := range p.Lines {
			got += " " + strconv.Itoa(l.N)
		}
		if got != want[p.Source] {
			t.Errorf("%s: %s, want %s", p.Source, got, want[p.Source])
		}
	}
}

// TestValidationErrorDetailCompared: two ValidationErrors with the same title
// ("2 validation errors for TorchLlmArgs") agree only when the fields and
// messages under it agree, in pydantic's order.
func TestValidationErrorDetailCompared(t *testing.T) {
	lg := parseFile(t, "validation-error.log")
	pred := func(runtime string) resolver.Trace {
		s := inputs.Defaults()
		flag := resolver.Origin{Kind: resolver.OriginFlag}
		s.Version = inputs.Value{Raw: "1.3.0rc26", Origin: flag}
		s.Backend = inputs.Value{Raw: "nixl", Origin: flag}
		if runtime != "" {
			s.Backend = inputs.Value{Raw: "NIXL", Origin: flag}
			s.Runtime = inputs.Value{Raw: runtime, Origin: flag}
		}
		s.ConfigErrors = []resolver.FieldError{{Loc: "chunk_size_blocks", Type: "extra_forbidden",
			Message: "Extra inputs are not permitted", Input: "32", InputType: "int", Origin: flag}}
		in, err := inputs.Build(s, models.Builtin())
		if err != nil {
			t.Fatal(err)
		}
		return resolver.Resolve(in)
	}
	if ms := Compare(lg, pred("")); len(ms) != 0 {
		t.Errorf("same errors in the same order: mismatches %+v", ms)
	}
	ms := Compare(lg, pred("python"))
	if len(ms) != 1 || ms[0].Kind != KindError || ms[0].Line != 5 ||
		ms[0].Message != `error detail: predicted "cache_transceiver_config.transceiver_runtime", the log has "cache_transceiver_config.backend"` {
		t.Errorf("different fields under the same title: mismatches %+v", ms)
	}
}

// TestOwnVersion: the version a log states is the one it is checked against;
// without a version line, lines that date the build pin it when they leave
// releases of one era only.
func TestOwnVersion(t *testing.T) {
	ov, ok := parseFile(t, "ctx-era2-srun.log").Own()
	if !ok || !ov.Stated || ov.Version.Name != "1.3.0rc26" || ov.Line != 2 {
		t.Errorf("stated: %+v %v", ov, ok)
	}
	ov, ok = parseFile(t, "gen-era1-mpirun.log").Own()
	if !ok || ov.Stated || ov.Version.Era != 1 || ov.Version.Name != "1.3.0rc25" || !strings.Contains(ov.Why, "inferred") {
		t.Errorf("pinned by the era-1 fallback line: %+v %v", ov, ok)
	}
	// 'auto' resolved (2026-07-16 or later) leaves eras 1 to 3: nothing pinned.
	if ov, ok := parseFile(t, "gen-era2-error.log").Own(); ok {
		t.Errorf("an open-ended bound pinned %+v", ov)
	}
	lg, _ := Parse("n.log", strings.NewReader("[TensorRT-LLM] TensorRT LLM version: 1.3.0rc27.dev2026091700 (backend: cuda)\n"+
		"[TensorRT-LLM] TensorRT-LLM version: 1.4.0rc1\n"))
	ov, ok = lg.Own()
	if !ok || ov.Version.Name != "main@2026-09-17" || !strings.Contains(ov.Why, "also states 1.4.0rc1 (line 2)") {
		t.Errorf("nightly: %+v %v", ov, ok)
	}
}

// A UTF-8 BOM is skipped, as Python's utf-8-sig and PyYAML skip it; a BOM-only
// log is an empty log.
func TestBOMSkipped(t *testing.T) {
	lg, err := Parse("bom.log", strings.NewReader("\ufeff[TRT-LLM] [I] Using KvCacheTransceiverV2\n"))
	if err != nil || len(lg.Processes) != 1 || lg.Processes[0].Outcome() != resolver.OutcomePython {
		t.Fatalf("%v %+v", err, lg)
	}
	lg, err = Parse("bom-only.log", strings.NewReader("\ufeff"))
	if err != nil || lg.Lines != 0 || len(lg.Processes) != 0 {
		t.Fatalf("BOM only: %v, %d lines", err, lg.Lines)
	}
	p := NewParser("bom.log")
	for _, b := range []byte("\ufeff[TRT-LLM] [I] cache_transceiver is disabled\n") {
		p.Write([]byte{b})
	}
	if lg, _ := p.Close(); len(lg.Processes) != 1 || !lg.Processes[0].Disabled {
		t.Fatalf("a BOM written byte by byte: %+v", lg.Processes)
	}
}

// appendPadded is fmt's %5d and %-7s, which the report's line list used.
func TestAppendPaddedIsFmt(t *testing.T) {
	for _, n := range []int{0, 1, 42, 99999, 100000, 1234567} {
		if got, want := string(appendPadded(nil, strconv.Itoa(n), 5, false)), fmt.Sprintf("%5d", n); got != want {
			t.Errorf("%d: %q, fmt %q", n, got, want)
		}
	}
	for _, s := range []string{"", "-", "INFO", "WARNING", "VERBOSE", "raised", "ÉRREUR", "日本"} {
		if got, want := string(appendPadded(nil, s, 7, true)), fmt.Sprintf("%-7s", s); got != want {
			t.Errorf("%q: %q, fmt %q", s, got, want)
		}
	}
}

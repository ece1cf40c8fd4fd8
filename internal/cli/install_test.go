package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"testing"
)

// fixture is one of the install package's fixture trees (site-packages).
func fixture(name string) string {
	return filepath.Join("..", "install", "testdata", name, "site-packages")
}

func TestInspectJSONShape(t *testing.T) {
	out, errOut, code := run(t, nil, "inspect", fixture("v14"), "-o", "json")
	if code != 0 || errOut != "" {
		t.Fatalf("exit %d, stderr %q", code, errOut)
	}
	var top map[string]json.RawMessage
	if err := json.Unmarshal([]byte(out), &top); err != nil {
		t.Fatal(err)
	}
	keys := func(m map[string]json.RawMessage) []string {
		var k []string
		for x := range m {
			k = append(k, x)
		}
		sort.Strings(k)
		return k
	}
	if got, want := keys(top), []string{"disagreements", "era", "features", "models", "path", "strings", "version", "version_source"}; !reflect.DeepEqual(got, want) {
		t.Fatalf("keys %v, want %v", got, want)
	}
	elemKeys := map[string][]string{
		"features":      {"evidence", "id", "present"},
		"models":        {"arch", "class", "evidence", "kv_cache_manager", "preference"},
		"strings":       {"evidence", "id", "text"},
		"disagreements": {"evidence", "install", "what", "xcvr"},
	}
	for field, want := range elemKeys {
		var items []map[string]json.RawMessage
		if err := json.Unmarshal(top[field], &items); err != nil || len(items) == 0 {
			t.Fatalf("%s: %v (%d items)", field, err, len(items))
		}
		for _, it := range items {
			if got := keys(it); !reflect.DeepEqual(got, want) {
				t.Fatalf("%s item keys %v, want %v", field, got, want)
			}
		}
	}
	var j struct {
		Version       string `json:"version"`
		VersionSource string `json:"version_source"`
		Era           int    `json:"era"`
		Models        []struct {
			Arch       string  `json:"arch"`
			Preference *string `json:"preference"`
		} `json:"models"`
	}
	if err := json.Unmarshal([]byte(out), &j); err != nil {
		t.Fatal(err)
	}
	if j.Version != "1.4.0rc1" || j.VersionSource != "install tensorrt_llm/version.py:2" || j.Era != 3 {
		t.Errorf("%+v", j)
	}
	prefs := map[string]string{}
	for _, m := range j.Models {
		p := "null"
		if m.Preference != nil {
			p = *m.Preference
		}
		prefs[m.Arch] = p
	}
	for arch, want := range map[string]string{"GptOssForCausalLM": "PYTHON", "MistralForCausalLM": "null", "Qwen4ExpForCausalLM": "undetermined", "Glm5NextForConditionalGeneration": "PYTHON"} {
		if prefs[arch] != want {
			t.Errorf("%s preference %s, want %s", arch, prefs[arch], want)
		}
	}
}

func TestInspectUnusablePath(t *testing.T) {
	for _, args := range [][]string{
		{"inspect", filepath.Join(t.TempDir(), "missing")},
		{"inspect", t.TempDir()},
		{"explain", "--install", t.TempDir()},
		{"explain", "--install", fixture("era2"), "--trtllm", "1.3.0rc22"},
		{"diff", "--from-install", t.TempDir()},
		{"diff", "--from", "1.3.0rc22", "--install", fixture("era2")},
		{"diff", "--install", fixture("era2"), "--from-install", fixture("era1")},
	} {
		out, errOut, code := run(t, nil, args...)
		if code != 2 || out != "" || !strings.HasPrefix(errOut, "xcvr: ") {
			t.Errorf("%v: exit %d, stdout %q, stderr %q", args, code, out, errOut)
		}
	}
}

func TestExplainFromInstall(t *testing.T) {
	// The era-2 tree: GPT-OSS's PYTHON preference is adopted on UCX and start-up
	// fails with the install's own text; the chain names the install.
	out, errOut, code := run(t, nil, "explain", "--install", fixture("era2"), "--backend", "UCX", "-o", "json")
	if code != 1 || errOut != "" {
		t.Fatalf("exit %d, stderr %q", code, errOut)
	}
	var j struct {
		Trtllm string `json:"trtllm"`
		Inputs map[string]struct {
			Origin string `json:"origin"`
		} `json:"inputs"`
		Error string `json:"error"`
		Steps []struct {
			ID, Source, Confidence string
		} `json:"steps"`
	}
	if err := json.Unmarshal([]byte(out), &j); err != nil {
		t.Fatal(err)
	}
	if j.Trtllm != "1.3.0rc27" || j.Inputs["trtllm"].Origin != "install tensorrt_llm/version.py:2" {
		t.Errorf("version %q origin %q", j.Trtllm, j.Inputs["trtllm"].Origin)
	}
	if j.Error != "ValueError: Python transceiver currently only supports NIXL backend, got UCX. Please use transceiver_runtime='CPP' for MPI, UCX, or MOONCAKE backends." {
		t.Errorf("error %q", j.Error)
	}
	bySrc := map[string]string{}
	for _, s := range j.Steps {
		if s.Confidence == "verified (install)" {
			bySrc[s.ID] = s.Source
		}
	}
	for id, src := range map[string]string{
		"version":     "install tensorrt_llm/version.py:2",
		"preference":  "install tensorrt_llm/_torch/models/modeling_gpt_oss.py:20",
		"python-nixl": "install tensorrt_llm/_torch/pyexecutor/config_utils.py:39",
	} {
		if bySrc[id] != src {
			t.Errorf("step %s source %q, want %q", id, bySrc[id], src)
		}
	}
}

func TestUnregisteredArchIsUnknownModel(t *testing.T) {
	// xcvr's catalog knows Gemma3ForCausalLM; the era-1 fixture does not register
	// it, so TensorRT-LLM logs 'unknown model', and then cannot build the model
	// (the install's not registering it is verified).
	out, _, code := run(t, nil, "explain", "--install", fixture("era1"), "--backend", "NIXL", "--model", "Gemma3ForCausalLM", "-o", "json")
	if code != 1 || !strings.Contains(out, "Resolved transceiver_runtime='auto' to None for unknown model.") ||
		!strings.Contains(out, "not registered in the install: unknown model (xcvr's catalog knows it as Gemma3ForCausalLM)") ||
		!strings.Contains(out, `"error": "ValueError: Unknown architecture for AutoModelForCausalLM: Gemma3ForCausalLM"`) ||
		!strings.Contains(out, `"reason": "architectures[0] is not registered in the install: from_config finds no class; the LLM API re-raises it as RuntimeError: Executor worker returned error"`) {
		t.Fatalf("exit %d\n%s", code, out)
	}
}

func TestUndeterminedHookNamesTheConfigValue(t *testing.T) {
	dir := t.TempDir()
	cfg := filepath.Join(dir, "config.json")
	if err := os.WriteFile(cfg, []byte(`{"architectures": ["Qwen4ExpForCausalLM"], "model_type": "qwen4_exp"}`), 0o644); err != nil {
		t.Fatal(err)
	}
	out, _, _ := run(t, nil, "explain", "--install", fixture("v14"), "--backend", "NIXL", "--runtime", "auto", "--model-config", cfg, "-o", "json")
	var j struct {
		Steps []struct{ ID, Reason, Confidence string } `json:"steps"`
	}
	if err := json.Unmarshal([]byte(out), &j); err != nil {
		t.Fatal(err)
	}
	reasons := map[string]string{}
	for _, s := range j.Steps {
		reasons[s.ID] = s.Reason + " [" + s.Confidence + "]"
	}
	if m := reasons["model"]; !strings.Contains(m, "pretrained_config.model_type") || !strings.Contains(m, `config.json has \"qwen4_exp\"`) && !strings.Contains(m, `config.json has "qwen4_exp"`) {
		t.Errorf("the model step does not say which config value decides: %s", m)
	}
	if p := reasons["preference"]; !strings.HasPrefix(p, "the installed hook's result is undetermined; xcvr's catalog: ") || !strings.HasSuffix(p, "[inferred]") {
		t.Errorf("preference step: %s", p)
	}
}

func TestDiffAndUpgradeFromInstalls(t *testing.T) {
	out, errOut, code := run(t, nil, "diff", "--from-install", fixture("era1"), "--to-install", fixture("v14"), "--backend", "UCX", "-o", "json")
	if code != 0 || errOut != "" {
		t.Fatalf("exit %d stderr %q", code, errOut)
	}
	var d struct {
		From, To struct {
			Trtllm  string `json:"trtllm"`
			Outcome string `json:"outcome"`
		}
		Changed bool `json:"changed"`
	}
	if err := json.Unmarshal([]byte(out), &d); err != nil {
		t.Fatal(err)
	}
	if d.From.Trtllm != "1.3.0rc22" || d.To.Trtllm != "1.4.0rc1" || d.From.Outcome != "CPP" || d.To.Outcome != "ERROR" || !d.Changed {
		t.Fatalf("%+v", d)
	}
	_, _, code = run(t, nil, "upgrade-check", "--from-install", fixture("era1"), "--to-install", fixture("v14"), "--backend", "UCX")
	if code != 1 {
		t.Fatalf("upgrade-check exit %d, want 1 (the role breaks)", code)
	}
	// --install is the FROM side; --to a release.
	out, errOut, code = run(t, nil, "diff", "--install", fixture("era1"), "--to", "1.3.0rc27", "--backend", "UCX", "-o", "json")
	if err := json.Unmarshal([]byte(out), &d); err != nil || code != 0 || d.From.Trtllm != "1.3.0rc22" || d.To.Trtllm != "1.3.0rc27" {
		t.Fatalf("exit %d stderr %q %+v", code, errOut, d)
	}
}

func TestInspectTextIsEscaped(t *testing.T) {
	// A hostile install: a control sequence in a registered name and a text.
	site := t.TempDir()
	pkg := filepath.Join(site, "tensorrt_llm")
	files := map[string]string{
		"version.py":          "__version__ = \"1.3.0rc27\\x1b]0;owned\\x07\"\n",
		"llmapi/llm_utils.py": "def _resolve_transceiver_runtime_auto(a):\n    pass\n",
		"_torch/models/modeling_x.py": "@register_auto_model(\"Evil\\x1b[2J\")\nclass Evil(B):\n    @classmethod\n" +
			"    def get_preferred_transceiver_runtime(cls, p=None):\n        return \"\\x9bPYTHON\"\n",
	}
	for rel, body := range files {
		p := filepath.Join(pkg, rel)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	// A version with a control sequence is refused (exit 2), escaped.
	out, errOut, code := run(t, nil, "inspect", site)
	if code != 2 || out != "" || strings.ContainsAny(errOut, "\x1b\x07") || !strings.Contains(errOut, `\x1b]0;owned`) {
		t.Fatalf("exit %d, stdout %q, stderr %q", code, out, errOut)
	}
	if err := os.WriteFile(filepath.Join(pkg, "version.py"), []byte("__version__ = \"1.3.0rc27\"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	// The registration with an escape sequence is left out, with an escaped
	// warning; nothing raw reaches either stream.
	for _, args := range [][]string{{"inspect", site}, {"explain", "--install", site}} {
		out, errOut, _ = run(t, nil, args...)
		if strings.ContainsAny(out+errOut, "\x1b\x07") || strings.Contains(out+errOut, "\u009b") {
			t.Fatalf("%v: raw control in output:\n%q\n%q", args, out, errOut)
		}
		if !strings.Contains(errOut, `architecture "Evil\x1b[2J" skipped`) {
			t.Errorf("%v: no escaped warning: %q", args, errOut)
		}
	}
}

func TestInstallDifferencesAreReported(t *testing.T) {
	// The era-2 tree relabelled 1.3.0rc22, which xcvr models as era 1: the
	// install is used and stderr says where the two differ.
	site := relabelled(t)
	out, errOut, code := run(t, nil, "explain", "--install", site, "--backend", "UCX", "-o", "json")
	if code != 1 || !strings.Contains(out, `"era": 2`) {
		t.Fatalf("exit %d: the install's era 2 was not used:\n%s", code, out)
	}
	for _, want := range []string{
		"the install differs from xcvr's rules for 1.3.0rc22 (the install is used): era: xcvr 1, install 2 (tensorrt_llm/llmapi/llm_utils.py:6)",
		"enable_pipelined_transfer: xcvr absent, install present (tensorrt_llm/llmapi/llm_args.py:51)",
	} {
		if !strings.Contains(errOut, want) {
			t.Errorf("stderr lacks %q:\n%s", want, errOut)
		}
	}
}

func TestCheckLogsPredictsFromInstall(t *testing.T) {
	log := filepath.Join(t.TempDir(), "server.log")
	if err := os.WriteFile(log, []byte("[TRT-LLM] [I] Using KvCacheTransceiverV2\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	out, errOut, code := run(t, nil, "check-logs", "--install", fixture("v14"), log)
	if code != 0 || !strings.Contains(out, "Predicted for TensorRT-LLM 1.4.0rc1") {
		t.Fatalf("exit %d stderr %q\n%s", code, errOut, out)
	}
}

func TestPIDFindsTheLoadedInstall(t *testing.T) {
	pkg, err := filepath.Abs(filepath.Join(fixture("era2"), "tensorrt_llm"))
	if err != nil {
		t.Fatal(err)
	}
	proc := t.TempDir()
	if err := os.MkdirAll(filepath.Join(proc, "42"), 0o755); err != nil {
		t.Fatal(err)
	}
	maps := "7f02-7f03 r-xp 00000000 08:01 2 " + pkg + "/bindings.cpython-312-x86_64-linux-gnu.so\n"
	if err := os.WriteFile(filepath.Join(proc, "42", "maps"), []byte(maps), 0o644); err != nil {
		t.Fatal(err)
	}
	var errb strings.Builder
	app := &appEnv{stderr: &errb}
	rep, err := findInstall(app, "--install", "", 42, proc)
	if err != nil || rep == nil || rep.Version != "1.3.0rc27" {
		t.Fatalf("%+v, %v", rep, err)
	}
	if !strings.Contains(errb.String(), "found by /proc/42/maps") {
		t.Errorf("stderr %q", errb.String())
	}
	// A process with no install found: --pid alone carries on without one.
	if rep, err := findInstall(app, "--install", "", 7, proc); rep != nil || err != nil {
		t.Errorf("%+v, %v", rep, err)
	}
	// --install auto with --pid: the process's install first.
	if rep, err := findInstall(app, "--install", "auto", 42, proc); err != nil || rep == nil || rep.Path != pkg {
		t.Errorf("auto: %+v, %v", rep, err)
	}
}

// copyFixture copies a fixture tree to a temp site-packages, passing each file
// (relative to tensorrt_llm/) through edit, and returns the site-packages.
func copyFixture(t *testing.T, name string, edit func(rel, data string) string) string {
	t.Helper()
	site := t.TempDir()
	src := filepath.Join(fixture(name), "tensorrt_llm")
	err := filepath.Walk(src, func(p string, fi os.FileInfo, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		dst := filepath.Join(site, "tensorrt_llm", rel)
		if fi.IsDir() {
			return os.MkdirAll(dst, 0o755)
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(dst, []byte(edit(filepath.ToSlash(rel), string(data))), 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
	return site
}

// relabelled is the era-2 tree calling itself 1.3.0rc22, which xcvr models as era 1.
func relabelled(t *testing.T) string {
	return copyFixture(t, "era2", func(rel, data string) string {
		if rel == "version.py" {
			return strings.Replace(data, "1.3.0rc27", "1.3.0rc22", 1)
		}
		return data
	})
}

func TestExplainJSONDisagreements(t *testing.T) {
	type dis struct{ What, Xcvr, Install, Evidence string }
	explain := func(args ...string) (map[string]json.RawMessage, []dis) {
		t.Helper()
		out, errOut, _ := run(t, nil, append([]string{"explain", "-o", "json"}, args...)...)
		var top map[string]json.RawMessage
		if err := json.Unmarshal([]byte(out), &top); err != nil {
			t.Fatalf("%v: %v\n%s%s", args, err, out, errOut)
		}
		var ds []dis
		if raw, ok := top["disagreements"]; ok {
			if err := json.Unmarshal(raw, &ds); err != nil || ds == nil {
				t.Fatalf("%v: disagreements %s (%v)", args, raw, err)
			}
		}
		return top, ds
	}
	// Without --install: no such key.
	if top, _ := explain("--backend", "NIXL"); top["disagreements"] != nil {
		t.Errorf("disagreements without an install: %s", top["disagreements"])
	}
	// An install that agrees with xcvr for the deployed model: [].
	if top, ds := explain("--install", fixture("era2"), "--backend", "NIXL"); string(top["disagreements"]) != "[]" || len(ds) != 0 {
		t.Errorf("era2: %s", top["disagreements"])
	}
	// The model's own registration is named; other models' are not.
	_, ds := explain("--install", fixture("era2"), "--backend", "NIXL", "--model", "Gemma3ForCausalLM")
	if len(ds) != 1 || ds[0] != (dis{"model Gemma3ForCausalLM", "registered", "not registered (unknown model)", "tensorrt_llm/_torch/models/"}) {
		t.Errorf("gemma: %+v", ds)
	}
	// A relabelled tree: the era, and what follows from it, with evidence.
	_, ds = explain("--install", relabelled(t), "--backend", "UCX")
	found := false
	for _, d := range ds {
		found = found || d == (dis{"era", "1", "2", "tensorrt_llm/llmapi/llm_utils.py:6"})
	}
	if !found {
		t.Errorf("relabelled: %+v", ds)
	}
}

func TestInstallFieldSetDecidesValidation(t *testing.T) {
	// The era-2 tree with a field xcvr does not model (kv_transfer_retries) and
	// without one it does (max_tokens_in_buffer): the install decides.
	const old = `    max_tokens_in_buffer: Optional[int] = Field(
        default=None,
        description="The max number of tokens the transfer buffer can fit.")
`
	const repl = `    kv_transfer_retries: NonNegativeInt = Field(
        default=3,
        description="Retries.")
`
	site := copyFixture(t, "era2", func(rel, data string) string {
		if rel == "llmapi/llm_args.py" {
			if !strings.Contains(data, old) {
				t.Fatal("the fixture's max_tokens_in_buffer changed")
			}
			return strings.Replace(data, old, repl, 1)
		}
		return data
	})
	dir := t.TempDir()
	cfg := filepath.Join(dir, "worker.yaml")
	write := func(body string) {
		if err := os.WriteFile(cfg, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	type result struct {
		Error *string `json:"error"`
		Steps []struct {
			ID, Reason, Source, Confidence string
		} `json:"steps"`
		Disagreements []struct{ What, Xcvr, Install, Evidence string } `json:"disagreements"`
	}
	explain := func(args ...string) (result, int) {
		t.Helper()
		out, errOut, code := run(t, nil, append([]string{"explain", "-o", "json", "--config", cfg}, args...)...)
		var r result
		if err := json.Unmarshal([]byte(out), &r); err != nil {
			t.Fatalf("%v\n%s%s", err, out, errOut)
		}
		return r, code
	}
	validate := func(r result) string {
		for _, s := range r.Steps {
			if s.ID == "validate" {
				return s.Source + " [" + s.Confidence + "] " + s.Reason
			}
		}
		return ""
	}
	write("cache_transceiver_config:\n  backend: NIXL\n  kv_transfer_retries: 5\n")
	r, code := explain("--install", site)
	if code != 0 || !strings.HasPrefix(validate(r), "install tensorrt_llm/llmapi/llm_args.py:16 [verified (install)]") {
		t.Fatalf("exit %d, validate %s, error %v", code, validate(r), r.Error)
	}
	// xcvr's own model of 1.3.0rc27 refuses the key.
	if r, code := explain("--trtllm", "1.3.0rc27"); code != 1 || r.Error == nil || !strings.Contains(*r.Error, "kv_transfer_retries\n  Extra inputs are not permitted") {
		t.Fatalf("built-in: exit %d %v", code, r.Error)
	}
	write("cache_transceiver_config:\n  backend: NIXL\n  max_tokens_in_buffer: 4096\n  kv_transfer_retries: -1\n")
	r, code = explain("--install", site)
	want := "pydantic_core._pydantic_core.ValidationError: 2 validation errors for TorchLlmArgs\n" +
		"cache_transceiver_config.kv_transfer_retries\n  Input should be greater than or equal to 0 [type=greater_than_equal, input_value=-1, input_type=int]\n" +
		"cache_transceiver_config.max_tokens_in_buffer\n  Extra inputs are not permitted [type=extra_forbidden, input_value=4096, input_type=int]"
	if code != 1 || r.Error == nil || *r.Error != want {
		t.Fatalf("exit %d, error %v", code, r.Error)
	}
	if v := validate(r); !strings.HasPrefix(v, "install tensorrt_llm/llmapi/llm_args.py:16 [verified (install)]") || !strings.Contains(v, "worker.yaml:4") {
		t.Errorf("validate %s", v)
	}
	got := map[string]string{}
	for _, d := range r.Disagreements {
		got[d.What] = d.Xcvr + " / " + d.Install + " @ " + d.Evidence
	}
	for what, want := range map[string]string{
		"field kv_transfer_retries":  "not a field in 1.3.0rc27 / int >= 0 @ tensorrt_llm/llmapi/llm_args.py:35",
		"field max_tokens_in_buffer": "int | None / not a field (an extra input) @ tensorrt_llm/llmapi/llm_args.py:16",
	} {
		if got[what] != want {
			t.Errorf("%s: %q, want %q", what, got[what], want)
		}
	}
}

func TestModelsFromInstall(t *testing.T) {
	// The era-2 tree plus an architecture xcvr's catalog has never heard of.
	site := copyFixture(t, "era2", func(rel, data string) string { return data })
	newArch := "from .modeling_utils import DecoderModelForCausalLM, register_auto_model\n\n\n" +
		"@register_auto_model(\"Zeta9ForCausalLM\")\nclass Zeta9ForCausalLM(DecoderModelForCausalLM):\n\n" +
		"    @classmethod\n    def get_preferred_transceiver_runtime(cls, pretrained_config=None):\n        return \"CPP\"\n"
	if err := os.WriteFile(filepath.Join(site, "tensorrt_llm", "_torch", "models", "modeling_zeta9.py"), []byte(newArch), 0o644); err != nil {
		t.Fatal(err)
	}
	out, errOut, code := run(t, nil, "models", "--install", site, "-o", "json")
	if code != 0 || errOut != "" {
		t.Fatalf("exit %d stderr %q", code, errOut)
	}
	var j struct {
		Trtllm  string `json:"trtllm"`
		Install string `json:"install"`
		Models  []struct {
			Arch, Confidence, Evidence, Note, Origin string
			Registered                               bool
			Preference                               *string
		} `json:"models"`
	}
	if err := json.Unmarshal([]byte(out), &j); err != nil {
		t.Fatal(err)
	}
	if j.Trtllm != "1.3.0rc27" || !strings.HasSuffix(j.Install, "tensorrt_llm") {
		t.Fatalf("%q %q", j.Trtllm, j.Install)
	}
	type row struct{ pref, conf, origin string }
	got := map[string]row{}
	seenUnregistered := false
	for i, m := range j.Models {
		p := "null"
		if m.Preference != nil {
			p = *m.Preference
		}
		if !m.Registered {
			p = "unregistered: " + m.Note
			seenUnregistered = true
		} else if seenUnregistered {
			t.Errorf("registered %s listed after the catalog-only rows (row %d)", m.Arch, i)
		}
		got[m.Arch] = row{p, m.Confidence, m.Origin}
	}
	for arch, want := range map[string]row{
		"GptOssForCausalLM":  {"PYTHON", "verified (install)", "install"},
		"MistralForCausalLM": {"null", "verified (install)", "install"},
		"Zeta9ForCausalLM":   {"CPP", "verified (install)", "install"},
		// The catalog knows it; this install does not register it.
		"Gemma3ForCausalLM": {"unregistered: unknown to this install: TensorRT-LLM treats it as an unknown model", "", "built-in"},
	} {
		if got[arch] != want {
			t.Errorf("%s: %+v, want %+v", arch, got[arch], want)
		}
	}
	out, _, code = run(t, nil, "models", "--install", site)
	if code != 0 || !strings.Contains(out, "PREFERS (install)") || !strings.Contains(out, "Gemma3ForCausalLM") || !strings.Contains(out, "unknown to this install") {
		t.Errorf("text:\n%s", out)
	}
	if _, _, code := run(t, nil, "models", "--install", site, "--trtllm", "1.3.0rc27"); code != 2 {
		t.Errorf("--trtllm with --install: exit %d", code)
	}
}

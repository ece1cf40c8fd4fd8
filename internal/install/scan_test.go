package install

import (
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"xcvr/models"
	"xcvr/resolver"
)

// writeTree writes files (paths relative to site-packages) under a temp dir and
// returns the tensorrt_llm package directory.
func writeTree(t testing.TB, files map[string]string) string {
	t.Helper()
	site := filepath.Join(t.TempDir(), "site-packages")
	for rel, body := range files {
		p := filepath.Join(site, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return filepath.Join(site, "tensorrt_llm")
}

// base is the minimum of a tree: a version and an era-2 llm_utils.
func base() map[string]string {
	return map[string]string{
		"tensorrt_llm/__init__.py": "",
		"tensorrt_llm/version.py":  `__version__ = "1.3.0rc27"` + "\n",
		"tensorrt_llm/llmapi/llm_utils.py": `
def _transceiver_python_fallback_reason(llm_args):
    return None


def _resolve_transceiver_runtime_auto(llm_args, model_cls=None, pretrained_config=None):
    resolved = "PYTHON"
`,
		"tensorrt_llm/_torch/models/modeling_utils.py": `
def register_auto_model(name: str):
    def decorator(cls):
        return cls
    return decorator


class DecoderModelForCausalLM(nn.Module, Generic[TModel, TConfig]):

    @classmethod
    def get_preferred_transceiver_runtime(
            cls,
            pretrained_config: Any = None
    ) -> Optional[Literal["CPP", "PYTHON"]]:
        """Return None to defer to the default.

        return "PYTHON"  (inside the docstring: not code)
        """
        return None
`,
	}
}

func scanFiles(t testing.TB, extra map[string]string) *Report {
	t.Helper()
	files := base()
	for k, v := range extra {
		files[k] = v
	}
	rep, err := Scan(writeTree(t, files), DefaultLimits())
	if err != nil {
		t.Fatal(err)
	}
	return rep
}

func TestHookCases(t *testing.T) {
	const m = "tensorrt_llm/_torch/models/"
	cases := []struct {
		name  string
		files map[string]string
		arch  string
		kind  string // literal, none, undetermined, absent (not registered)
		value string
		why   string // a piece of Pref.Why or of the describe text
	}{
		{"literal return", map[string]string{m + "modeling_a.py": `
@register_auto_model("A")
class A(DecoderModelForCausalLM):
    @classmethod
    def get_preferred_transceiver_runtime(cls, pretrained_config=None):
        return "PYTHON"
`}, "A", "literal", "PYTHON", ""},
		{"CPP opt-out, single quotes", map[string]string{m + "modeling_a.py": `
@register_auto_model('A')
class A(DecoderModelForCausalLM):
    @classmethod
    def get_preferred_transceiver_runtime(cls, pretrained_config=None):
        return 'CPP'
`}, "A", "literal", "CPP", ""},
		{"return None", map[string]string{m + "modeling_a.py": `
@register_auto_model("A")
class A(DecoderModelForCausalLM):
    @classmethod
    def get_preferred_transceiver_runtime(cls, pretrained_config=None):
        return None
`}, "A", "none", "", ""},
		{"bare return", map[string]string{m + "modeling_a.py": `
@register_auto_model("A")
class A(DecoderModelForCausalLM):
    @classmethod
    def get_preferred_transceiver_runtime(cls, pretrained_config=None):
        return
`}, "A", "none", "", ""},
		{"no return (pass)", map[string]string{m + "modeling_a.py": `
@register_auto_model("A")
class A(DecoderModelForCausalLM):
    @classmethod
    def get_preferred_transceiver_runtime(cls, pretrained_config=None):
        pass
`}, "A", "none", "", "has no return"},
		{"base default, inherited", map[string]string{m + "modeling_a.py": `
@register_auto_model("A")
class A(DecoderModelForCausalLM[AModel, AConfig]):
    pass
`}, "A", "none", "", "inherited from DecoderModelForCausalLM"},
		{"no hook anywhere in the package", map[string]string{m + "modeling_a.py": `
@register_auto_model("A")
class A(PreTrainedModel):
    pass
`}, "A", "none", "", "define no get_preferred_transceiver_runtime"},
		{"inheritance across files", map[string]string{
			m + "modeling_p.py": `
class Parent(DecoderModelForCausalLM):
    @classmethod
    def get_preferred_transceiver_runtime(cls, pretrained_config=None):
        return "PYTHON"
`,
			m + "modeling_c.py": `
from .modeling_p import Parent


@register_auto_model("Child")
class Child(Parent):
    """Inherits the hook."""
`}, "Child", "literal", "PYTHON", "inherited from Parent"},
		{"delegation across files", map[string]string{
			m + "modeling_text.py": `
class TextLM(DecoderModelForCausalLM):
    @classmethod
    def get_preferred_transceiver_runtime(cls, pretrained_config=None) -> str:
        """Python NIXL for the hybrid cache."""
        return "PYTHON"
`,
			m + "modeling_vl.py": `
@register_auto_model("VL")
class VL(PreTrainedModel):
    @classmethod
    def get_preferred_transceiver_runtime(cls, pretrained_config=None) -> str:
        return TextLM.get_preferred_transceiver_runtime(pretrained_config)
`}, "VL", "literal", "PYTHON", "delegates to TextLM"},
		{"delegation over several lines", map[string]string{m + "modeling_a.py": `
class T(DecoderModelForCausalLM):
    @classmethod
    def get_preferred_transceiver_runtime(cls, pretrained_config=None):
        return "CPP"


@register_auto_model("A")
class A(PreTrainedModel):
    @classmethod
    def get_preferred_transceiver_runtime(cls,
                                          pretrained_config=None) -> str:
        # Same as the text model.
        return T.get_preferred_transceiver_runtime(
            pretrained_config)
`}, "A", "literal", "CPP", "delegates to T"},
		{"super()", map[string]string{m + "modeling_a.py": `
class P(DecoderModelForCausalLM):
    @classmethod
    def get_preferred_transceiver_runtime(cls, pretrained_config=None):
        return "PYTHON"


@register_auto_model("A")
class A(P):
    @classmethod
    def get_preferred_transceiver_runtime(cls, pretrained_config=None):
        return super().get_preferred_transceiver_runtime(pretrained_config)
`}, "A", "literal", "PYTHON", "super() -> P"},
		{"delegation to a class outside the package", map[string]string{m + "modeling_a.py": `
@register_auto_model("A")
class A(PreTrainedModel):
    @classmethod
    def get_preferred_transceiver_runtime(cls, pretrained_config=None):
        return external.Model.get_preferred_transceiver_runtime(pretrained_config)
`}, "A", "undetermined", "", "not in the package"},
		{"delegation loop", map[string]string{m + "modeling_a.py": `
@register_auto_model("A")
class A(PreTrainedModel):
    @classmethod
    def get_preferred_transceiver_runtime(cls, pretrained_config=None):
        return B.get_preferred_transceiver_runtime(pretrained_config)


class B(PreTrainedModel):
    @classmethod
    def get_preferred_transceiver_runtime(cls, pretrained_config=None):
        return A.get_preferred_transceiver_runtime(pretrained_config)
`}, "A", "undetermined", "", "loops"},
		{"calls itself through cls", map[string]string{m + "modeling_a.py": `
@register_auto_model("A")
class A(PreTrainedModel):
    @classmethod
    def get_preferred_transceiver_runtime(cls, pretrained_config=None):
        return cls.get_preferred_transceiver_runtime(pretrained_config)
`}, "A", "undetermined", "", "calls itself"},
		{"depends on pretrained_config", map[string]string{m + "modeling_a.py": `
@register_auto_model("A")
class A(PreTrainedModel):
    @classmethod
    def get_preferred_transceiver_runtime(
            cls,
            pretrained_config: Any = None
    ) -> Optional[Literal["CPP", "PYTHON"]]:
        archs = getattr(pretrained_config, "architectures", None) or []
        if archs and archs[0] == "GlmMoeDsaForCausalLM":
            return "PYTHON"
        return None
`}, "A", "undetermined", "", "pretrained_config.architectures"},
		{"attribute test on pretrained_config", map[string]string{m + "modeling_a.py": `
@register_auto_model("A")
class A(PreTrainedModel):
    @classmethod
    def get_preferred_transceiver_runtime(cls, pretrained_config=None):
        if pretrained_config is not None and pretrained_config.model_type == "glm_moe_dsa":
            return "PYTHON"
`}, "A", "undetermined", "", "pretrained_config.model_type"},
		{"non-literal return", map[string]string{m + "modeling_a.py": `
@register_auto_model("A")
class A(PreTrainedModel):
    @classmethod
    def get_preferred_transceiver_runtime(cls, pretrained_config=None):
        return _PREFS.get(pretrained_config.model_type)
`}, "A", "undetermined", "", "returns _PREFS.get"},
		{"same literal on every path", map[string]string{m + "modeling_a.py": `
@register_auto_model("A")
class A(PreTrainedModel):
    @classmethod
    def get_preferred_transceiver_runtime(cls, pretrained_config=None):
        if pretrained_config is None:
            return "PYTHON"
        return "PYTHON"
`}, "A", "literal", "PYTHON", ""},
		{"a raise makes it undetermined", map[string]string{m + "modeling_a.py": `
@register_auto_model("A")
class A(PreTrainedModel):
    @classmethod
    def get_preferred_transceiver_runtime(cls, pretrained_config=None):
        if pretrained_config is None:
            raise ValueError("need a config")
        return "PYTHON"
`}, "A", "undetermined", "", ""},
		{"one-line def", map[string]string{m + "modeling_a.py": `
@register_auto_model("A")
class A(PreTrainedModel):
    @classmethod
    def get_preferred_transceiver_runtime(cls, pretrained_config=None): return "PYTHON"
`}, "A", "literal", "PYTHON", ""},
		{"stacked decorators, every name registered", map[string]string{m + "modeling_a.py": `
@support_pp
@register_vision_encoder(Encoder, vlm_base_model=Base)
@register_auto_model("A1")
@register_auto_model("A2")
class A(DecoderModelForCausalLM):
    @staticmethod
    def helper():
        return "CPP"

    @classmethod
    @some_cache
    def get_preferred_transceiver_runtime(cls, pretrained_config=None):
        return "PYTHON"
`}, "A2", "literal", "PYTHON", ""},
		{"hook bound by assignment", map[string]string{m + "modeling_a.py": `
class T(DecoderModelForCausalLM):
    @classmethod
    def get_preferred_transceiver_runtime(cls, pretrained_config=None):
        return "PYTHON"


@register_auto_model("A")
class A(PreTrainedModel):
    get_preferred_transceiver_runtime = T.get_preferred_transceiver_runtime
`}, "A", "literal", "PYTHON", "delegates to T"},
		{"hook bound to a lambda", map[string]string{m + "modeling_a.py": `
@register_auto_model("A")
class A(PreTrainedModel):
    get_preferred_transceiver_runtime = classmethod(lambda cls, pretrained_config=None: "CPP")
`}, "A", "undetermined", "", "returns classmethod"},
		{"registered by a call statement", map[string]string{m + "modeling_a.py": `
class A(DecoderModelForCausalLM):
    @classmethod
    def get_preferred_transceiver_runtime(cls, pretrained_config=None):
        return "CPP"


register_auto_model("ACall")(A)
`}, "ACall", "literal", "CPP", ""},
		{"a nested class's hook is not the outer class's", map[string]string{m + "modeling_a.py": `
@register_auto_model("A")
class A(PreTrainedModel):
    class Inner:
        @classmethod
        def get_preferred_transceiver_runtime(cls, pretrained_config=None):
            return "CPP"

    def forward(self):
        return "CPP"
`}, "A", "none", "", ""},
		{"tabs, CRLF and a continuation line", map[string]string{m + "modeling_a.py": "@register_auto_model(\"A\")\r\nclass A(DecoderModelForCausalLM):\r\n\t@classmethod\r\n\tdef get_preferred_transceiver_runtime(cls, \\\r\n\t\t\tpretrained_config=None):\r\n\t\treturn \"PYTHON\"\r\n"}, "A", "literal", "PYTHON", ""},
		{"only in _arch_index", map[string]string{m + "_arch_index.py": `
MODEL_ARCH_TO_MODULE = {
    "GhostForCausalLM": "modeling_ghost",
}
`}, "GhostForCausalLM", "undetermined", "", "no @register_auto_model"},
		{"an unregistered class is no model", map[string]string{m + "modeling_a.py": `
class A(DecoderModelForCausalLM):
    @classmethod
    def get_preferred_transceiver_runtime(cls, pretrained_config=None):
        return "PYTHON"
`}, "A", "absent", "", ""},
		{"in a subpackage", map[string]string{m + "sub/modeling_a.py": `
@register_auto_model("A")
class A(DecoderModelForCausalLM):
    @classmethod
    def get_preferred_transceiver_runtime(cls, pretrained_config=None):
        return "PYTHON"
`}, "A", "literal", "PYTHON", ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			rep := scanFiles(t, c.files)
			mdl, ok := rep.model(c.arch)
			if c.kind == "absent" {
				if ok {
					t.Fatalf("%s registered: %+v", c.arch, mdl)
				}
				return
			}
			if !ok {
				t.Fatalf("%s not found; models: %+v", c.arch, rep.Models)
			}
			p := mdl.Preference
			if p.Kind != c.kind || p.Value != c.value {
				t.Fatalf("preference = %s %q (%s), want %s %q", p.Kind, p.Value, p.describe(nil), c.kind, c.value)
			}
			if !strings.Contains(p.describe(nil), c.why) {
				t.Errorf("explanation %q lacks %q", p.describe(nil), c.why)
			}
			if c.kind != "undetermined" && !strings.HasPrefix(p.Evidence, "tensorrt_llm/_torch/models/") && p.Kind != "none" {
				t.Errorf("evidence %q is not a FILE:LINE in the models directory", p.Evidence)
			}
		})
	}
}

func TestRegistrationEvidenceAndClass(t *testing.T) {
	rep := scanFiles(t, map[string]string{"tensorrt_llm/_torch/models/modeling_a.py": `# line 1
@register_auto_model("X1")
@register_auto_model("X2")
class Shared(DecoderModelForCausalLM):
    pass
`})
	for arch, line := range map[string]string{"X1": ":2", "X2": ":3"} {
		m, ok := rep.model(arch)
		if !ok || m.Class != "Shared" || m.Evidence != "tensorrt_llm/_torch/models/modeling_a.py"+line {
			t.Errorf("%s: %+v", arch, m)
		}
	}
}

func TestVersionSources(t *testing.T) {
	t.Run("version.py", func(t *testing.T) {
		rep := scanFiles(t, nil)
		if rep.Version != "1.3.0rc27" || rep.VersionSource != "tensorrt_llm/version.py:1" {
			t.Fatalf("%q from %q", rep.Version, rep.VersionSource)
		}
	})
	t.Run("METADATA", func(t *testing.T) {
		files := base()
		delete(files, "tensorrt_llm/version.py")
		files["tensorrt_llm-1.5.0rc1.dev2026112500.dist-info/METADATA"] = "Metadata-Version: 2.1\nName: tensorrt_llm\nVersion: 1.5.0rc1.dev2026112500\n\nVersion: 9.9.9 (in the body, not a header)\n"
		rep, err := Scan(writeTree(t, files), DefaultLimits())
		if err != nil {
			t.Fatal(err)
		}
		if rep.Version != "1.5.0rc1.dev2026112500" || rep.VersionSource != "tensorrt_llm-1.5.0rc1.dev2026112500.dist-info/METADATA:3" {
			t.Fatalf("%q from %q", rep.Version, rep.VersionSource)
		}
		v, err := rep.ResolverVersion(nil)
		if err != nil {
			t.Fatal(err)
		}
		if v.Main.String() != "2026-11-25" || v.Era != 2 || v.Confidence != resolver.Inferred || !strings.Contains(v.Summary(), "not a release xcvr knows") {
			t.Fatalf("nightly placed as %+v / %s", v, v.Summary())
		}
	})
	t.Run("none", func(t *testing.T) {
		files := base()
		delete(files, "tensorrt_llm/version.py")
		if _, err := Scan(writeTree(t, files), DefaultLimits()); err != ErrNoVersion {
			t.Fatalf("err = %v", err)
		}
	})
}

func TestFixtureEras(t *testing.T) {
	cases := []struct {
		dir     string
		era     int
		version string
		def     string
		present []string
		absent  []string
	}{
		{"era1", 1, "1.3.0rc22", "auto",
			[]string{resolver.FeatureAutoResolver, resolver.FeatureAutoReroutes},
			[]string{resolver.FeatureFallbackReason, resolver.FeaturePipelined, resolver.FeatureCreateInDisagg, resolver.FeatureDefaultPython}},
		{"era2", 2, "1.3.0rc27", "auto",
			[]string{resolver.FeatureAutoResolver, resolver.FeatureFallbackReason, resolver.FeaturePipelined, resolver.FeatureCreateInDisagg, resolver.FeatureV2TimeoutError, resolver.FeatureResolveInConfigU},
			[]string{resolver.FeatureAutoReroutes, resolver.FeatureDefaultPython}},
		{"v14", 3, "1.4.0rc1", "PYTHON",
			[]string{resolver.FeatureDefaultPython, "field:agent_bounce_buffer_enable", "field:agent_bounce_params"},
			[]string{resolver.FeatureAutoReroutes}},
	}
	for _, c := range cases {
		t.Run(c.dir, func(t *testing.T) {
			rep, err := Scan("testdata/"+c.dir+"/site-packages/tensorrt_llm", DefaultLimits())
			if err != nil {
				t.Fatal(err)
			}
			if rep.Era != c.era || rep.Version != c.version || rep.RuntimeDefault != c.def {
				t.Fatalf("era %d version %q default %q", rep.Era, rep.Version, rep.RuntimeDefault)
			}
			got := map[string]Feature{}
			for _, f := range rep.Features {
				got[f.ID] = f
			}
			for _, id := range c.present {
				if f, ok := got[id]; !ok || !f.Present || !strings.Contains(f.Evidence, ".py:") {
					t.Errorf("%s: %+v, want present with FILE:LINE", id, f)
				}
			}
			for _, id := range c.absent {
				if f := got[id]; f.Present {
					t.Errorf("%s present (%s)", id, f.Evidence)
				}
			}
			if len(rep.Notes) != 0 {
				t.Errorf("notes on a clean fixture: %v", rep.Notes)
			}
		})
	}
}

func TestTexts(t *testing.T) {
	rep, err := Scan("testdata/era2/site-packages/tensorrt_llm", DefaultLimits())
	if err != nil {
		t.Fatal(err)
	}
	byID := map[string]Text{}
	for _, x := range rep.Texts {
		byID[x.ID] = x
	}
	// Implicit concatenation of f-strings over several lines, one plain field.
	p := byID[resolver.TextPythonNIXLEarly]
	if p.Text != "Python transceiver currently only supports NIXL backend, got {effective_backend}. Please use transceiver_runtime='CPP' for MPI, UCX, or MOONCAKE backends." || !p.Plain ||
		p.Evidence != "tensorrt_llm/_torch/pyexecutor/config_utils.py:39" {
		t.Errorf("python-nixl-config: %+v", p)
	}
	want := []resolver.TextPart{{Lit: "Python transceiver currently only supports NIXL backend, got "}, {Field: true}, {Lit: ". Please use transceiver_runtime='CPP' for MPI, UCX, or MOONCAKE backends."}}
	if !reflect.DeepEqual(p.Parts, want) {
		t.Errorf("parts %+v", p.Parts)
	}
	if r := byID[resolver.TextResolvedAuto]; !r.Plain || r.Text != "Resolved transceiver_runtime='auto' to {resolved!r} for {name}." {
		t.Errorf("resolved-auto: %+v", r)
	}
	// The era-1 form has a conditional expression in a field: not plain.
	rep1, _ := Scan("testdata/era1/site-packages/tensorrt_llm", DefaultLimits())
	for _, x := range rep1.Texts {
		if x.ID == resolver.TextResolvedAuto && x.Plain {
			t.Errorf("era-1 resolved-auto counted as plain: %q", x.Text)
		}
	}
	if _, ok := rep1.Facts(nil).Texts[resolver.TextResolvedAuto]; ok {
		t.Error("a non-plain text reached the resolver")
	}
}

func TestLexStrings(t *testing.T) {
	cases := []struct {
		src, value string
		plain      bool
	}{
		{`x = "a" 'b' """c"""`, "abc", true},
		{`x = f"{a}-{b.c!r}"`, "{a}-{b.c!r}", true},
		{`x = f"{a:>10}"`, "{a}", false},
		{`x = f"{a + b}"`, "{a + b}", false},
		{`x = f"{{literal}} {x}"`, "{literal} {x}", true},
		{`x = "tab\tnl\n\x41\u00e9\\"`, "tab\tnl\nAé\\", true},
		{`x = r"\d+"`, `\d+`, true},
		{`x = rb'\x00'`, `\x00`, true},
		{`x = f"{d['k']}"`, "{d['k']}", false},
		{"x = \"unterminated\n", "unterminated", true},
	}
	for _, c := range cases {
		ls := lex([]byte(c.src))
		if len(ls) == 0 || len(ls[0].toks) < 3 || ls[0].toks[2].kind != tkString {
			t.Errorf("%s: no string token", c.src)
			continue
		}
		s := ls[0].toks[2].str
		if s.value() != c.value || s.plain() != c.plain {
			t.Errorf("%s: %q plain=%v, want %q plain=%v", c.src, s.value(), s.plain(), c.value, c.plain)
		}
	}
}

func TestLogicalLines(t *testing.T) {
	src := "def f(a,\n      b):  # comment (\n    '''doc\n    \"\"\" still doc\n    '''\n    return a\n\nx = [1,\n# inside\n 2]\n"
	ls := lex([]byte(src))
	var got []string
	for _, l := range ls {
		got = append(got, l.first()+"@"+strconv.Itoa(l.line)+"/"+strconv.Itoa(l.indent))
	}
	want := []string{"def@1/0", "@3/4", "return@6/4", "x@8/0"}
	if strings.Join(got, " ") != strings.Join(want, " ") {
		t.Fatalf("got %v, want %v", got, want)
	}
}

func TestEraZeroAndUnknown(t *testing.T) {
	files := base()
	files["tensorrt_llm/llmapi/llm_utils.py"] = "def other():\n    pass\n"
	files["tensorrt_llm/llmapi/llm_args.py"] = `
class CacheTransceiverConfig(StrictBaseModel, PybindMirror):
    backend: Optional[Literal["DEFAULT", "UCX", "NIXL", "MPI"]] = Field(default=None)
    transceiver_runtime: Optional[Literal["CPP", "PYTHON"]] = Field(
        default=None,
        description="'CPP' for C++ transceiver (default when not set).")
`
	rep, err := Scan(writeTree(t, files), DefaultLimits())
	if err != nil {
		t.Fatal(err)
	}
	if rep.Era != 0 || rep.RuntimeDefault != "None" || rep.EraEvidence != "tensorrt_llm/llmapi/llm_utils.py" {
		t.Fatalf("era %d from %q, default %q", rep.Era, rep.EraEvidence, rep.RuntimeDefault)
	}
	// Without llm_utils.py the rules cannot be told: era -1, and the resolver
	// version is refused rather than guessed.
	delete(files, "tensorrt_llm/llmapi/llm_utils.py")
	rep, err = Scan(writeTree(t, files), DefaultLimits())
	if err != nil {
		t.Fatal(err)
	}
	if _, err := rep.ResolverVersion(nil); rep.Era != -1 || err == nil {
		t.Fatalf("era %d, err %v", rep.Era, err)
	}
}

func TestBackendOrder(t *testing.T) {
	args := func(order string) map[string]string {
		return map[string]string{"tensorrt_llm/llmapi/llm_args.py": "_CACHE_TRANSCEIVER_BACKEND_ENV_VARS: tuple = (" + order + ")\n"}
	}
	same := `("TRTLLM_USE_NIXL_KVCACHE", "NIXL"), ("TRTLLM_USE_UCX_KVCACHE", "UCX"),
    ("TRTLLM_USE_MOONCAKE_KVCACHE", "MOONCAKE"), ("TRTLLM_USE_MPI_KVCACHE", "MPI"),`
	rep := scanFiles(t, args(same))
	if rep.BackendOrder != builtinBackendOrder {
		t.Fatalf("order %q", rep.BackendOrder)
	}
	if f, ok := rep.Facts(nil).Features["backend_env_priority"]; !ok || f.Evidence != "tensorrt_llm/llmapi/llm_args.py:1" {
		t.Errorf("fact %+v", f)
	}
	swapped := `("TRTLLM_USE_UCX_KVCACHE", "UCX"), ("TRTLLM_USE_NIXL_KVCACHE", "NIXL")`
	rep = scanFiles(t, args(swapped))
	facts := rep.Facts(nil)
	if f, ok := facts.Features["backend_env_priority"]; !ok || f.Evidence != "tensorrt_llm/llmapi/llm_args.py:1" {
		t.Errorf("fact %+v", f)
	}
	want := []resolver.BackendSelector{{Env: "TRTLLM_USE_UCX_KVCACHE", Backend: "UCX"}, {Env: "TRTLLM_USE_NIXL_KVCACHE", Backend: "NIXL"}}
	if !reflect.DeepEqual(facts.BackendOrder, want) {
		t.Errorf("order %+v", facts.BackendOrder)
	}
	found := false
	for _, d := range rep.Disagreements(nil) {
		found = found || (d.What == "DEFAULT backend selectors" && d.Install == "TRTLLM_USE_UCX_KVCACHE=UCX > TRTLLM_USE_NIXL_KVCACHE=NIXL")
	}
	if !found {
		t.Errorf("no disagreement: %+v", rep.Disagreements(nil))
	}
}

func TestBackendOrderDecides(t *testing.T) {
	// The era-2 fixture with UCX listed before NIXL in its selector table: a
	// DEFAULT backend with both selectors set becomes UCX, as the install would.
	files := readFixture(t, "era2")
	const rel = "tensorrt_llm/llmapi/llm_args.py"
	a := files[rel]
	nixl := "    (\"TRTLLM_USE_NIXL_KVCACHE\", \"NIXL\"),\n"
	ucx := "    (\"TRTLLM_USE_UCX_KVCACHE\", \"UCX\"),\n"
	if !strings.Contains(a, nixl+ucx) {
		t.Fatalf("the fixture's table changed:\n%s", a)
	}
	files[rel] = strings.Replace(a, nixl+ucx, ucx+nixl, 1)
	rep, err := Scan(writeTree(t, files), DefaultLimits())
	if err != nil {
		t.Fatal(err)
	}
	v, err := rep.ResolverVersion(nil)
	if err != nil {
		t.Fatal(err)
	}
	flag := resolver.Origin{Kind: resolver.OriginFlag, Detail: "--backend"}
	env := resolver.Env{"TRTLLM_USE_NIXL_KVCACHE": {Value: "1"}, "TRTLLM_USE_UCX_KVCACHE": {Value: "1"}}
	tr := resolver.Resolve(resolver.Inputs{Version: v, Env: env,
		Backend: resolver.Field[resolver.PyStr]{Value: resolver.Str("DEFAULT"), Origin: flag},
		Runtime: resolver.Field[resolver.PyStr]{Value: resolver.Str("CPP"), Origin: flag}})
	s, _ := tr.Step(resolver.StepBackend)
	if tr.Result.EffectiveBackend.S != "UCX" || s.Source.String() != "install "+rel+":8" || s.Confidence != resolver.VerifiedInstall {
		t.Fatalf("backend %s, step %q from %q (%s)", tr.Result.EffectiveBackend.S, s.Reason, s.Source, s.Confidence)
	}
}

// readFixture reads a committed fixture tree (testdata/NAME/site-packages) as
// files relative to site-packages, for a test to edit and write with writeTree.
func readFixture(t testing.TB, name string) map[string]string {
	t.Helper()
	site := filepath.Join("testdata", name, "site-packages")
	files := map[string]string{}
	err := filepath.WalkDir(site, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(site, p)
		files[filepath.ToSlash(rel)] = string(data)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return files
}

func TestGuardTextsFromTheInstall(t *testing.T) {
	// The era-2 fixture writes the Kimi K3, Mamba and fabric-memory messages as
	// xcvr does (a plain f-string, an f-string with a call in a field, a
	// literal): they are read, and agree.
	rep, err := Scan("testdata/era2/site-packages/tensorrt_llm", DefaultLimits())
	if err != nil {
		t.Fatal(err)
	}
	byID := map[string]Text{}
	for _, x := range rep.Texts {
		byID[x.ID] = x
	}
	for id, want := range map[string]struct {
		ev    string
		plain bool
	}{
		resolver.TextKimiK3:       {"tensorrt_llm/_torch/pyexecutor/_util.py:17", true},
		resolver.TextPyMambaReuse: {"tensorrt_llm/_torch/pyexecutor/_util.py:27", true},
		resolver.TextFabricMemory: {"tensorrt_llm/_torch/pyexecutor/_util.py:44", true},
		resolver.TextMambaMixed:   {"tensorrt_llm/_torch/disaggregation/kv_cache_transceiver.py:94", false},
		resolver.TextMambaCpp:     {"tensorrt_llm/_torch/disaggregation/kv_cache_transceiver.py:98", true},
	} {
		if x := byID[id]; x.Evidence != want.ev || x.Plain != want.plain {
			t.Errorf("%s: %+v", id, x)
		}
	}
	for _, d := range rep.Disagreements(nil) {
		if strings.HasPrefix(d.What, "text ") {
			t.Errorf("the fixture's wording disagrees: %+v", d)
		}
	}

	// An install that words them differently: the resolution prints its words.
	files := readFixture(t, "era2")
	const util = "tensorrt_llm/_torch/pyexecutor/_util.py"
	u := files[util]
	for old, repl := range map[string]string{
		`f"recurrent state (got backend={backend!r}, "`:                             `f"recurrent state [backend={backend!r}, "`,
		`f"transceiver_runtime={runtime!r}).")`:                                     `f"runtime={runtime}].")`,
		`f"defaulting {_FABRIC_MEMORY_ENV}=1 (set it to 0 explicitly to disable)")`: `f"setting {_FABRIC_MEMORY_ENV}=1; export it as 0 to opt out")`,
	} {
		if !strings.Contains(u, old) {
			t.Fatalf("fixture changed: %q not in %s", old, util)
		}
		u = strings.Replace(u, old, repl, 1)
	}
	files[util] = u
	rep, err = Scan(writeTree(t, files), DefaultLimits())
	if err != nil {
		t.Fatal(err)
	}
	v, err := rep.ResolverVersion(nil)
	if err != nil {
		t.Fatal(err)
	}
	flag := resolver.Origin{Kind: resolver.OriginFlag, Detail: "--x"}
	kimi := resolver.ModelInfo{Arch: "KimiLinearForCausalLM", Known: true, Class: "KimiLinearForCausalLM", Preference: resolver.Str("PYTHON"),
		RequiresPython: true, Cache: resolver.CacheKimiLinear}
	in := resolver.Inputs{Version: v, Env: resolver.Env{}, Model: resolver.Field[resolver.ModelInfo]{Value: kimi},
		Loader:  resolver.Field[resolver.Loader]{Value: resolver.LoaderPyTorch},
		Backend: resolver.Field[resolver.PyStr]{Value: resolver.Str("UCX"), Origin: flag},
		Runtime: resolver.Field[resolver.PyStr]{Value: resolver.Str("PYTHON"), Origin: flag}}
	tr := resolver.Resolve(in)
	wantErr := "ValueError: Kimi K3 disaggregated serving requires the Python transceiver: set cache_transceiver_config backend='NIXL' with transceiver_runtime='PYTHON' (or leave transceiver_runtime='auto' with the NIXL backend). The C++ transceiver cannot transfer KDA recurrent state [backend='UCX', runtime=PYTHON]."
	s, _ := tr.Step(tr.Result.FailedStep)
	if tr.Result.Error != wantErr || s.Source.String() != "install "+util+":17" || s.Confidence != resolver.VerifiedInstall {
		t.Fatalf("error %q at %s from %q (%s)", tr.Result.Error, tr.Result.FailedStep, s.Source, s.Confidence)
	}
	// The fabric-memory line: a plain Mistral on NIXL with 'PYTHON'.
	in.Model.Value = resolver.ModelInfo{Arch: "MistralForCausalLM", Known: true, Class: "MistralForCausalLM"}
	in.Backend.Value = resolver.Str("NIXL")
	tr = resolver.Resolve(in)
	found := false
	for _, l := range tr.Logs {
		found = found || l.Message == "Python cache transceiver with C++ KV cache manager detected; setting TRTLLM_KVCACHE_POOL_USE_FABRIC_MEMORY=1; export it as 0 to opt out"
	}
	if !found || tr.Result.EnvSet != "TRTLLM_KVCACHE_POOL_USE_FABRIC_MEMORY=1" {
		t.Errorf("logs %+v", tr.Logs)
	}
}

func TestFieldSpec(t *testing.T) {
	cases := []struct{ decl, want string }{
		{`backend: Optional[Literal["DEFAULT", "UCX", "NIXL"]] = Field(default=None)`, "'DEFAULT' | 'UCX' | 'NIXL' | None"},
		{`transceiver_runtime: Literal["CPP", "PYTHON", "auto"] | None = Field(default="PYTHON")`, "'CPP' | 'PYTHON' | 'auto' | None"},
		{`max_tokens_in_buffer: Optional[int] = Field(default=None)`, "int | None"},
		{`kv_transfer_timeout_ms: Optional[PositiveInt] = Field(default=60000)`, "int > 0 | None"},
		{`kv_transfer_poll_interval_ms: Annotated[int, Gt(gt=0)] | None = 5000`, "int > 0 | None"},
		{`kv_cache_bounce_size_mb: NonNegativeInt = Field(default=0)`, "int >= 0"},
		{`kv_cache_bounce_size_mb: int = Field(default=0, ge=0, description="x")`, "int >= 0"},
		{`kv_transfer_retries: int = Field(default=3, gt=2)`, "int > 2"},
		{`enable_pipelined_transfer: bool = False`, "bool"},
		{`agent_bounce_params: Dict[str, str] | None = None`, "dict | None"},
		{`label: str = "x"`, "str"},
		// What xcvr does not model is left unread rather than guessed.
		{`timeout: Union[int, str] = 5`, "(annotation not read)"},
		{`layout: LayoutEnum = LayoutEnum.A`, "(annotation not read)"},
		{`mixed: Literal["A"] | int = "A"`, "(annotation not read)"},
		{`flag: bool = Field(default=False, gt=0)`, "bool"}, // a bound only means something for ints
	}
	for _, c := range cases {
		l := lex([]byte(c.decl + "\n"))
		if len(l) != 1 {
			t.Fatalf("%s: %d lines", c.decl, len(l))
		}
		f := fieldSpec(l[0].toks[0].text, l[0].toks)
		if got := f.Describe(); got != c.want {
			t.Errorf("%s:\n got %s\nwant %s", c.decl, got, c.want)
		}
	}
}

// The validators of the install's CacheTransceiverConfig are read: those whose
// every raise is a message xcvr models are checked; the validate step names
// the others as not checked instead of saying every value is accepted.
func TestConfigValidators(t *testing.T) {
	files := readFixture(t, "v14")
	const rel = "tensorrt_llm/llmapi/llm_args.py"
	anchor := "    max_tokens_in_buffer: Optional[int] = Field("
	if !strings.Contains(files[rel], anchor) {
		t.Fatalf("the fixture changed:\n%s", files[rel])
	}
	coerce := `    @field_validator('agent_bounce_params', mode='before')
    @classmethod
    def coerce_agent_bounce_params_to_str(cls, v):
        if v is None:
            return v
        if not isinstance(v, dict):
            raise ValueError(
                f"agent_bounce_params must be a dict of str to str, got "
                f"{type(v).__name__}")
        return {str(k): str(val) for k, val in v.items()}

`
	exclusive := `    @model_validator(mode='after')
    def validate_bounce_exclusive(self) -> 'CacheTransceiverConfig':
        if self.agent_buffer_size_mb > 0 and self.kv_cache_bounce_size_mb > 0:
            raise ValueError(
                "agent_buffer_size_mb and kv_cache_bounce_size_mb are mutually "
                "exclusive bounce implementations; enable only one.")
        return self

`
	resolve := func(body string) (*Report, resolver.Step) {
		t.Helper()
		f := map[string]string{}
		for k, v := range files {
			f[k] = v
		}
		f[rel] = strings.Replace(files[rel], anchor, body+anchor, 1)
		rep, err := Scan(writeTree(t, f), DefaultLimits())
		if err != nil {
			t.Fatal(err)
		}
		v, err := rep.ResolverVersion(nil)
		if err != nil {
			t.Fatal(err)
		}
		flag := resolver.Origin{Kind: resolver.OriginFlag, Detail: "--backend"}
		tr := resolver.Resolve(resolver.Inputs{Version: v, Env: resolver.Env{},
			Backend: resolver.Field[resolver.PyStr]{Value: resolver.Str("NIXL"), Origin: flag}})
		s, _ := tr.Step(resolver.StepValidate)
		return rep, s
	}
	rep, s := resolve(coerce + exclusive)
	if len(rep.Validators) != 2 || rep.Validators[0].Name != "coerce_agent_bounce_params_to_str" ||
		rep.Validators[0].Raises[0] != resolver.TextBounceParamsType || !strings.HasPrefix(rep.Validators[1].Raises[0], "agent_buffer_size_mb and kv_cache_bounce_size_mb are mutually") {
		t.Fatalf("validators %+v", rep.Validators)
	}
	if !strings.Contains(s.Reason, "the install's validators validate_bounce_exclusive (tensorrt_llm/llmapi/llm_args.py:") ||
		!strings.Contains(s.Reason, "were not checked") || strings.Contains(s.Reason, "coerce_agent") || s.Confidence != resolver.Inferred {
		t.Errorf("validate step %q (%s)", s.Reason, s.Confidence)
	}
	_, s = resolve(coerce)
	if !strings.HasSuffix(s.Reason, "and its validators are the ones xcvr checks") {
		t.Errorf("only modelled validators: %q", s.Reason)
	}
}

// After #17899 the Mamba managers live under _torch/pyexecutor/kv_cache/ (a
// module, or a package of legacy.py and common.py): the TRTLLM_USE_PY_MAMBA
// refusal is read there too, and from _util.py first when both hold it.
func TestMambaManagerUnderKVCache(t *testing.T) {
	rep, err := Scan("testdata/v14/site-packages/tensorrt_llm", DefaultLimits())
	if err != nil {
		t.Fatal(err)
	}
	text := func(rep *Report) Text {
		for _, x := range rep.Texts {
			if x.ID == resolver.TextPyMambaReuse {
				return x
			}
		}
		return Text{}
	}
	const legacy = "tensorrt_llm/_torch/pyexecutor/kv_cache/mamba_cache_manager/legacy.py:8"
	if x := text(rep); x.Evidence != legacy || !x.Plain {
		t.Errorf("v14 (package layout): %+v", x)
	}
	for _, d := range rep.Disagreements(nil) {
		if d.What == "text "+resolver.TextPyMambaReuse {
			t.Errorf("the fixture words the refusal as xcvr does, yet: %+v", d)
		}
	}

	// The module layout, worded differently: the install's words are the rule.
	files := readFixture(t, "v14")
	body := files["tensorrt_llm/_torch/pyexecutor/kv_cache/mamba_cache_manager/legacy.py"]
	delete(files, "tensorrt_llm/_torch/pyexecutor/kv_cache/mamba_cache_manager/legacy.py")
	files["tensorrt_llm/_torch/pyexecutor/kv_cache/mamba_cache_manager.py"] = strings.Replace(body, "does not support block reuse", "cannot reuse blocks", 1)
	rep, err = Scan(writeTree(t, files), DefaultLimits())
	if err != nil {
		t.Fatal(err)
	}
	x := text(rep)
	if x.Evidence != "tensorrt_llm/_torch/pyexecutor/kv_cache/mamba_cache_manager.py:8" || !strings.Contains(x.Text, "cannot reuse blocks") {
		t.Errorf("module layout: %+v", x)
	}
	found := false
	for _, d := range rep.Disagreements(nil) {
		found = found || d.What == "text "+resolver.TextPyMambaReuse && strings.Contains(d.Evidence, "kv_cache/mamba_cache_manager.py:8")
	}
	if !found {
		t.Errorf("the reworded refusal is not reported as a difference: %+v", rep.Disagreements(nil))
	}

	// Neither place: the text is not read (xcvr's model stands).
	delete(files, "tensorrt_llm/_torch/pyexecutor/kv_cache/mamba_cache_manager.py")
	rep, err = Scan(writeTree(t, files), DefaultLimits())
	if err != nil {
		t.Fatal(err)
	}
	if x := text(rep); x.Evidence != "" {
		t.Errorf("without the manager: %+v", x)
	}
}

// The install's own wording: an architecture only the lazy index lists is
// "listed", with the class MODEL_CLASS_TO_MODULE gives; a hook that passes
// pretrained_config on depends on it whole; an inherited hook's evidence is the
// def line of the class it comes from.
func TestInstallWording(t *testing.T) {
	const m = "tensorrt_llm/_torch/models/"
	files := map[string]string{
		"tensorrt_llm/version.py": `__version__ = "1.3.0rc20"` + "\n",
		m + "_arch_index.py": `
MODEL_ARCH_TO_MODULE = {
    "Qwen3_5ForConditionalGeneration": "modeling_qwen3_5",
    "GhostForCausalLM": "modeling_ghost",
}

MODEL_CLASS_TO_MODULE = {
    "Qwen3_5ForConditionalGeneration": "modeling_qwen3_5",
    "GhostForCausalLM": "modeling_other",
}
`,
		m + "modeling_p.py": `
class Parent(DecoderModelForCausalLM):
    @classmethod
    def get_preferred_transceiver_runtime(cls, pretrained_config=None):
        """Docstring."""
        return "PYTHON"


@register_auto_model("Child")
class Child(Parent):
    pass


@register_auto_model("Passer")
class Passer(DecoderModelForCausalLM):
    @classmethod
    def get_preferred_transceiver_runtime(cls, pretrained_config=None):
        return _pick(pretrained_config)
`,
	}
	rep := scanFiles(t, files)
	byArch := map[string]Model{}
	for _, x := range rep.Models {
		byArch[x.Arch] = x
	}

	q := byArch["Qwen3_5ForConditionalGeneration"]
	if q.Class != "Qwen3_5ForConditionalGeneration" || q.IndexModule != "modeling_qwen3_5" ||
		!strings.HasPrefix(q.EvidenceLine(), "listed at tensorrt_llm/_torch/models/_arch_index.py:3 (module modeling_qwen3_5); ") {
		t.Errorf("index-only with a class: %+v\n%s", q, q.EvidenceLine())
	}
	if g := byArch["GhostForCausalLM"]; g.Class != "" || strings.Contains(g.EvidenceLine(), "registered at") {
		t.Errorf("index-only, class in another module: %+v\n%s", g, g.EvidenceLine())
	}
	found := false
	for _, d := range rep.Disagreements(models.Builtin()) {
		if d.What == "model Qwen3_5ForConditionalGeneration" {
			found = true
			if !strings.Contains(d.Install, "modeling_qwen3_5") || !strings.Contains(d.Install, "class Qwen3_5ForConditionalGeneration") || strings.Contains(d.Install, "registered as ") {
				t.Errorf("difference: %+v", d)
			}
		}
	}
	if !found {
		t.Errorf("no difference for the index-only architecture xcvr registers only from 2026-07-07")
	}

	c := byArch["Child"]
	if c.Preference.Kind != "literal" || c.Preference.Evidence != m+"modeling_p.py:4" || c.Preference.Why != "inherited from Parent" {
		t.Errorf("inherited hook: %+v", c.Preference)
	}
	if line := c.EvidenceLine(); !strings.Contains(line, "hook at "+m+"modeling_p.py:4; inherited from Parent") {
		t.Errorf("inherited hook's evidence line: %s", line)
	}

	p := byArch["Passer"].Preference
	if d := p.describe(nil); !strings.Contains(d, "depends on pretrained_config (passed on whole)") || strings.Contains(d, "pretrained_config.pretrained_config") {
		t.Errorf("passed-on argument: %s", d)
	}
	if d := p.describe(ConfigValues{"model_type": "'x'"}); strings.Contains(d, "not in config.json") {
		t.Errorf("passed-on argument with a config: %s", d)
	}
}

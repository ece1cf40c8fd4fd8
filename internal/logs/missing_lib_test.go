package logs

import (
	"strings"
	"testing"
)

// TestMissingSharedLibrary: an import of tensorrt_llm that fails because the
// dynamic loader cannot find a library ("ImportError: LIB: cannot open shared
// object file: No such file or directory", under a traceback through
// tensorrt_llm/__init__.py) is a start-up failure, and what the library is
// says why: the NVIDIA driver's (no GPUs in the container), CUDA N's (the
// wheel's CUDA is not installed), TensorRT's, or another.
func TestMissingSharedLibrary(t *testing.T) {
	const tb = "Traceback (most recent call last):\n  File \"/usr/local/lib/python3.12/dist-packages/tensorrt_llm/__init__.py\", line 70, in <module>\n    import tensorrt_llm._torch.models as torch_models\n"
	for exc, want := range map[string]string{
		"ImportError: libcuda.so.1: cannot open shared object file: No such file or directory":      "NVIDIA driver's library: the process runs without the GPUs' driver",
		"ImportError: libnvidia-ml.so.1: cannot open shared object file: No such file or directory": "NVIDIA driver's library",
		"ImportError: libcublasLt.so.13: cannot open shared object file: No such file or directory": "a CUDA 13 library",
		"ImportError: libcudart.so.12: cannot open shared object file: No such file or directory":   "this TensorRT-LLM build needs CUDA 12",
		"ImportError: libnvinfer.so.10: cannot open shared object file: No such file or directory":  "TensorRT's library",
		"OSError: /opt/x/libnixl.so: cannot open shared object file: No such file or directory":     "a shared library the process loads (libnixl.so) is not found",
		"ImportError: libcuda.so.1: cannot open shared object file: Permission denied":              "",
		"ModuleNotFoundError: No module named 'xgrammar'":                                           "",
	} {
		lg, _ := Parse("f.log", strings.NewReader(tb+exc+"\n"))
		if len(lg.Processes) != 1 || lg.Processes[0].Outcome() != "ERROR" {
			t.Fatalf("%q: %s %+v", exc, sources(lg), lg.Processes)
		}
		var impl []string
		for _, im := range lg.Processes[0].Implications {
			impl = append(impl, im.Text)
		}
		got := strings.Join(impl, "\n")
		if want == "" && got != "" || want != "" && !strings.Contains(got, want) {
			t.Errorf("%q: implications %q, want %q", exc, impl, want)
		}
	}
}

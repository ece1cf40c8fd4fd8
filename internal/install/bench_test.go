package install

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// benchTree writes a models directory of realistic size: 200 modules of about
// 100 KB (20 MB), each with registered classes, decorated methods, docstrings,
// f-strings and hooks of every shape, generated here (not committed).
func benchTree(b *testing.B) string {
	b.Helper()
	files := base()
	for i := 0; i < 200; i++ {
		var s strings.Builder
		s.WriteString("# SPDX-License-Identifier: Apache-2.0\nfrom typing import Any, Dict, Literal, Optional\n\nimport torch\nfrom torch import nn\n\nfrom .modeling_utils import DecoderModelForCausalLM, register_auto_model\n\n")
		for j := 0; s.Len() < 100_000; j++ {
			fmt.Fprintf(&s, `

class Layer%[1]d_%[2]d(nn.Module):
    """A decoder layer.

    Args:
        config: the model config ("PYTHON" in a docstring is not a return).
    """

    def __init__(self, config, layer_idx: int, *, dtype: Optional[torch.dtype] = None):
        super().__init__()
        self.hidden_size = config.hidden_size
        self.weights = {"q": torch.empty(config.hidden_size, dtype=dtype), 'k': None}
        if layer_idx < 0:
            raise ValueError(f"layer_idx must be >= 0, got {layer_idx!r} for {self.__class__.__name__}")

    def forward(self, hidden_states: torch.Tensor, attn_metadata, **kwargs) -> torch.Tensor:
        residual = hidden_states  # keep for the skip connection
        hidden_states = self.norm(hidden_states)
        out = self.attn(hidden_states, attn_metadata, position_ids=kwargs.get("position_ids"),
                        all_reduce_params=None)
        return out + residual
`, i, j)
		}
		fmt.Fprintf(&s, `

@register_auto_model("Bench%[1]dForCausalLM")
class Bench%[1]dForCausalLM(DecoderModelForCausalLM[Bench%[1]dModel, Bench%[1]dConfig]):

    @classmethod
    def get_preferred_transceiver_runtime(
        cls,
        pretrained_config: Any = None,
    ) -> Optional[Literal["CPP", "PYTHON"]]:
        """Prefer the Python transceiver."""
        return "PYTHON"
`, i)
		files[fmt.Sprintf("tensorrt_llm/_torch/models/modeling_bench%03d.py", i)] = s.String()
	}
	return writeTree(b, files)
}

// BenchmarkScanModels scans 200 files / ~20 MB of model modules; README records
// the time (budget 200 ms on the project's 2-core machine).
func BenchmarkScanModels(b *testing.B) {
	pkg := benchTree(b)
	var size int64
	filepath.Walk(filepath.Dir(pkg), func(_ string, fi os.FileInfo, _ error) error {
		if fi != nil && fi.Mode().IsRegular() {
			size += fi.Size()
		}
		return nil
	})
	b.SetBytes(size)
	b.ReportAllocs()
	// CPU time next to wall time: on a shared machine the wall clock measures the
	// neighbours too.
	var before, after syscall.Rusage
	_ = syscall.Getrusage(syscall.RUSAGE_SELF, &before)
	b.ResetTimer()
	defer func() {
		_ = syscall.Getrusage(syscall.RUSAGE_SELF, &after)
		cpu := time.Duration(after.Utime.Nano() + after.Stime.Nano() - before.Utime.Nano() - before.Stime.Nano())
		b.ReportMetric(float64(cpu.Milliseconds())/float64(b.N), "cpu-ms/op")
	}()
	for i := 0; i < b.N; i++ {
		rep, err := Scan(pkg, DefaultLimits())
		if err != nil {
			b.Fatal(err)
		}
		if len(rep.Models) != 200 {
			b.Fatalf("%d models", len(rep.Models))
		}
	}
}

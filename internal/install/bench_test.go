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

// The benchmark tree is shaped like upstream's tensorrt_llm/_torch/models: model
// modules of 44-176 KB made of module-level helpers with long docstrings and
// commented-out code, attention / MLP / decoder-layer / model classes whose
// methods have multi-line signatures, calls with many keyword arguments spread
// over continuation lines, and load_weights bodies nested six deep with
// f-strings that quote inside their fields; about one class per 4-5 KB and one
// def per 1-1.5 KB, as in modeling_qwen3.py and modeling_deepseekv3.py. One
// file in five is a checkpoint weight mapper under checkpoints/hf/ with no
// registration. Each model module registers one architecture (two with stacked
// decorators, or one more by a module-level call) and its hook takes one of the
// shapes upstream writes; benchWant says what the scan must find for each.

// benchUnit is one group of classes of a model module; NAME is replaced.
const benchUnit = `

# Move out of this module once the other models use it too.
def compute_scaling_NAME(
    config: PretrainedConfig, ) -> tuple[float, float, float, float]:
    """
    Computes the scaling factors of the rotary embedding for NAME. Please refer
    to the [original paper](https://example.invalid/papers/2309.00071)
    Args:
        config ([` + "`" + `~transformers.PretrainedConfig` + "`" + `]):
            The model configuration. class NAMEFake(Base): in a docstring is
            not a class, and return "PYTHON" here is not a return.
    Returns:
        factor: float, the scaling factor for the RoPE embeddings
        low: float, the lower bound of the dimension range
        high: float, the upper bound of the dimension range
    """

    # The config does not contain rope_scaling, which means the model is not using yarn
    rope_scaling = getattr(config, "rope_scaling", None)
    if rope_scaling is None:
        return 1.0, 0, 0, 1.0

    base = config.rope_theta
    partial_rotary_factor = config.partial_rotary_factor if hasattr(
        config, "partial_rotary_factor") else 1.0
    head_dim = getattr(config, "head_dim",
                       config.hidden_size // config.num_attention_heads)
    dim = int(head_dim * partial_rotary_factor)
    factor = getattr(rope_scaling, "factor", 1.0)
    mscale = rope_scaling.get("mscale")

    if "original_max_position_embeddings" in rope_scaling:
        original = rope_scaling[
            "original_max_position_embeddings"]
        factor = config.max_position_embeddings / original
    else:
        original = config.max_position_embeddings

    def get_mscale(scale, mscale=1):
        if scale <= 1:
            return 1.0
        return 0.1 * mscale * math.log(scale) + 1.0

    # # def linear_ramp_factor(min, max, dim):
    # #     if min == max:
    # #         max += 0.001  # Prevent singularity
    # #     linear_func = (torch.arange(dim, dtype=torch.float32) - min) / (max - min)
    # #     return torch.clamp(linear_func, 0, 1)
    low = math.floor(dim * math.log(original / (32 * 2 * math.pi)) /
                     (2 * math.log(base)))
    high = math.ceil(dim * math.log(original / (1 * 2 * math.pi)) /
                     (2 * math.log(base)))
    return factor, max(low, 0), min(high, dim - 1), get_mscale(factor, mscale or 1)


class NAMEAttention(Attention):

    def __init__(
        self,
        model_config: ModelConfig[PretrainedConfig],
        layer_idx: Optional[int] = None,
        *,
        aux_stream: Optional[torch.cuda.Stream] = None,
    ):
        config = model_config.pretrained_config
        pos_embd_params = PositionalEmbeddingParams(
            type=PositionEmbeddingType.rope_gpt_neox,
            rope=RopeParams.from_config(config),
            is_neox=getattr(config, "is_neox", True),
        )
        super().__init__(
            hidden_size=config.hidden_size,
            num_attention_heads=config.num_attention_heads,
            num_key_value_heads=config.num_key_value_heads,
            max_position_embeddings=config.max_position_embeddings,
            bias=getattr(config, "attention_bias", False),
            pos_embd_params=pos_embd_params,
            layer_idx=layer_idx,
            dtype=config.torch_dtype,
            dense_bias=getattr(config, 'attention_bias', False),
            config=model_config,
        )
        self.aux_stream = aux_stream
        self.ln_events = [torch.cuda.Event(), torch.cuda.Event()]

    def apply_qk_norm(self, q, k):

        def q_l2norm():
            return self.qk_norm(q.reshape(-1, self.head_dim)).reshape(
                -1, self.q_size)

        def k_l2norm():
            return self.qk_norm(k.reshape(-1, self.head_dim)).reshape(
                -1, self.kv_size)

        q, k = maybe_execute_in_parallel(
            q_l2norm,
            k_l2norm,
            self.ln_events[0],
            self.ln_events[1],
            self.aux_stream,
        )
        return q, k

    def forward(
        self,
        position_ids: Optional[torch.IntTensor],
        hidden_states: torch.Tensor,
        attn_metadata: AttentionMetadata,
        attention_mask: AttentionMask = PredefinedAttentionMask.CAUSAL,
        all_reduce_params: Optional[AllReduceParams] = None,
        lora_params: Optional[dict] = None,
        **kwargs,
    ) -> torch.Tensor:
        qkv = self.qkv_proj(hidden_states)
        q, k, v = qkv.split([self.q_size, self.kv_size, self.kv_size], dim=-1)
        q, k = self.apply_qk_norm(q, k)
        # Skip the rotary embedding: the attention backend fuses it.
        attn_output = self.attn.forward(q, k, v, attn_metadata,
                                        attention_mask=attention_mask,
                                        **kwargs)
        if lora_params is not None and lora_params.get("enabled", False):
            raise ValueError(f"LoRA is not supported by {self.__class__.__name__!r} (layer {self.layer_idx})")
        return self.o_proj(attn_output, all_reduce_params=all_reduce_params)


class NAMEDecoderLayer(DecoderLayer):

    def __init__(self, model_config: ModelConfig[PretrainedConfig],
                 layer_idx: int, aux_stream: torch.cuda.Stream):
        super().__init__()
        config = model_config.pretrained_config
        self.layer_idx = layer_idx
        self.self_attn = NAMEAttention(model_config,
                                       layer_idx=layer_idx,
                                       aux_stream=aux_stream)
        self.mlp = GatedMLP(
            hidden_size=config.hidden_size,
            intermediate_size=config.intermediate_size,
            bias=config.mlp_bias if hasattr(config, "mlp_bias") else False,
            dtype=config.torch_dtype,
            config=model_config,
        )
        self.input_layernorm = RMSNorm(hidden_size=config.hidden_size,
                                       eps=config.rms_norm_eps,
                                       dtype=config.torch_dtype)
        self.post_attention_layernorm = RMSNorm(hidden_size=config.hidden_size,
                                                eps=config.rms_norm_eps,
                                                dtype=config.torch_dtype)

    def forward(
        self,
        position_ids: torch.IntTensor,
        hidden_states: torch.Tensor,
        attn_metadata: AttentionMetadata,
        residual: Optional[torch.Tensor],
        spec_metadata: Optional[SpecMetadata] = None,
        **kwargs,
    ) -> torch.Tensor:
        if residual is None:
            residual = hidden_states
            hidden_states = self.input_layernorm(hidden_states)
        else:
            hidden_states, residual = self.input_layernorm(
                hidden_states, residual)

        # Self Attention
        hidden_states = self.self_attn(
            position_ids=position_ids,
            hidden_states=hidden_states,
            attn_metadata=attn_metadata,
            **kwargs,
        )

        # Fully Connected
        hidden_states, residual = self.post_attention_layernorm(
            hidden_states, residual)
        hidden_states = self.mlp(hidden_states)

        if spec_metadata is not None:
            spec_metadata.maybe_capture_hidden_states(self.layer_idx,
                                                      hidden_states, residual)
        return hidden_states, residual


class NAMEModel(DecoderModel):

    def __init__(self, model_config: ModelConfig[PretrainedConfig]):
        super().__init__(model_config)
        config = self.model_config
        self.aux_stream = torch.cuda.Stream()
        self.embed_tokens = Embedding(
            config.pretrained_config.vocab_size,
            config.pretrained_config.hidden_size,
            dtype=config.pretrained_config.torch_dtype,
            mapping=config.mapping,
            tensor_parallel_mode=TensorParallelMode.COLUMN,
            gather_output=True,
        )
        self.layers = nn.ModuleList([
            NAMEDecoderLayer(
                model_config,
                layer_idx,
                self.aux_stream,
            ) for layer_idx in range(config.pretrained_config.num_hidden_layers)
        ])
        self.norm = RMSNorm(
            hidden_size=config.pretrained_config.hidden_size,
            eps=config.pretrained_config.rms_norm_eps,
            dtype=config.pretrained_config.torch_dtype,
        )

    def forward(
        self,
        attn_metadata: AttentionMetadata,
        input_ids: Optional[torch.IntTensor] = None,
        position_ids: Optional[torch.IntTensor] = None,
        inputs_embeds: Optional[torch.FloatTensor] = None,
        spec_metadata: Optional[SpecMetadata] = None,
        **kwargs,
    ) -> torch.Tensor:
        if (input_ids is None) ^ (inputs_embeds is not None):
            raise ValueError(
                "You cannot specify both input_ids and inputs_embeds at the same time, and must specify either one"
            )

        if inputs_embeds is None:
            inputs_embeds = self.embed_tokens(input_ids)

        hidden_states = inputs_embeds
        residual = None
        for decoder_layer in self.layers:
            hidden_states, residual = decoder_layer(
                position_ids=position_ids,
                hidden_states=hidden_states,
                attn_metadata=attn_metadata,
                residual=residual,
                spec_metadata=spec_metadata,
            )

        hidden_states, _ = self.norm(hidden_states, residual)
        return hidden_states


class NAMEWeightLoader:
    """Loads NAME checkpoints; params_map renames fused projections."""

    params_map = {
        'qkv_proj': ['q_proj', 'k_proj', 'v_proj'],
        'gate_up_proj': ['gate_proj', 'up_proj'],
    }

    def load_weights(self, weights: Dict, weight_mapper=None, skip_modules: List[str] = []):
        def filter_weights(prefix, weights: Dict):
            result = {}
            for k, v in weights.items():
                if k.startswith(prefix):
                    new_k = k[len(prefix) + 1:]
                    result[new_k] = v
            return result

        def rename_moe_weight(weights: Dict, rename_rules: Dict):
            result = {}
            for key, value in weights.items():
                new_key = key
                for old, new in rename_rules.items():
                    new_key = new_key.replace(old, new)
                result[new_key] = value
            return result

        is_lite = self.config.q_lora_rank is None
        num_kv_heads = self.config.num_key_value_heads // self.model_config.mapping.tp_size
        for name, module in tqdm(list(self.named_modules()),
                                 desc="Loading weights"):
            if len(module._parameters) > 0:
                # skip load weights if module is in skip_modules
                if any(skip_module in name for skip_module in skip_modules):
                    continue
                names = name.split('.')
                if names[-1] == "kv_b_proj":
                    kv_b_proj = weights[f"{'.'.join(names[:-1])}.kv_b_proj.weight"][:]
                    if f"{'.'.join(names[:-1])}.kv_b_proj.weight_scale_inv" in weights:
                        kv_b_proj_scale = weights[
                            f"{'.'.join(names[:-1])}.kv_b_proj.weight_scale_inv"][:]
                        module.weight_scale.data.copy_(kv_b_proj_scale.view(
                            num_kv_heads, -1, kv_b_proj_scale.shape[-1]))
                    module.weight.data.copy_(
                        kv_b_proj.view(num_kv_heads, -1, kv_b_proj.shape[-1]))
                elif names[-1] == "kv_a_proj_with_mqa":
                    fused_a = weights[
                        f"{'.'.join(names[:-1])}.kv_a_proj_with_mqa.weight"][:]
                    if not is_lite:
                        q_a_proj = weights[
                            f"{'.'.join(names[:-1])}.q_a_proj.weight"][:]
                        fused_a = torch.cat([q_a_proj, fused_a], dim=0)

                    if f"{'.'.join(names[:-1])}.kv_a_proj_with_mqa.weight_scale_inv" in weights:
                        fused_a_scale = weights[
                            f"{'.'.join(names[:-1])}.kv_a_proj_with_mqa.weight_scale_inv"]
                        if not is_lite:
                            q_a_proj_scale = weights[
                                f"{'.'.join(names[:-1])}.q_a_proj.weight_scale_inv"][:]
                            fused_a_scale = torch.cat(
                                [q_a_proj_scale, fused_a_scale], dim=0)

                        module.weight_scale.data.copy_(fused_a_scale)

                    module.weight.data.copy_(fused_a)
                elif names[-1] in self.params_map:
                    module_weights = []
                    for new_name in self.params_map[names[-1]]:
                        module_weights.append(
                            filter_weights('.'.join(names[:-1] + [new_name]),
                                           weights))
                    module.load_weights(weights=module_weights)
                elif names[-1] == "experts":
                    module_weights = filter_weights(name, weights)
                    module_weights = rename_moe_weight(module_weights, {
                        "down_proj": "w2",
                        "up_proj": "w3",
                        "gate_proj": "w1",
                    })
                    module.load_weights(weights=[module_weights])
                elif names[-1] == "self_attn":
                    continue
                else:
                    module_weights = filter_weights(name, weights)
                    if hasattr(module, 'load_weights'):
                        module.load_weights(weights=[module_weights])
                    else:
                        for n, p in module.named_parameters():
                            p.data.copy_(module_weights[n][:])

                if self.model_config.quant_config.layer_quant_mode.has_fp8_block_scales(
                ) and get_sm_version() == 100 and hasattr(
                        module, "weight_scale"):
                    weight, weight_scale = resmooth_to_fp8_e8m0(
                        module.weight, module.weight_scale)
                    module.weight = nn.Parameter(weight, requires_grad=False)
                    module.weight_scale = nn.Parameter(weight_scale,
                                                       requires_grad=False)
`

// benchHeader opens every module.
const benchHeader = `# SPDX-FileCopyrightText: Copyright (c) 2025 NVIDIA CORPORATION & AFFILIATES. All rights reserved.
# SPDX-License-Identifier: Apache-2.0
import math
from typing import Any, Dict, List, Literal, Optional, Tuple

import torch
from torch import nn
from tqdm import tqdm
from transformers import PretrainedConfig

from ..attention_backend import AttentionMetadata
from ..attention_backend.interface import (PositionalEmbeddingParams,
                                           PredefinedAttentionMask, RopeParams)
from ..model_config import ModelConfig
from ..modules.attention import Attention
from ..modules.decoder_layer import DecoderLayer
from ..modules.embedding import Embedding
from ..modules.gated_mlp import GatedMLP
from ..modules.rms_norm import RMSNorm
from ..speculative import SpecMetadata
from .modeling_utils import (DecoderModel, DecoderModelForCausalLM,
                             register_auto_model)
`

// benchHooks are the registered class's shapes, by file index modulo 8: what
// the class looks like and what its preference must come out as.
var benchHooks = [8]struct {
	src, kind, value string
	regs             int // architectures the class registers
}{
	{`
@register_auto_model("NAMEForCausalLM")
class NAMEForCausalLM(DecoderModelForCausalLM[NAMEModel, PretrainedConfig]):

    def __init__(
        self,
        model_config: ModelConfig[PretrainedConfig],
    ):
        super().__init__(NAMEModel(model_config),
                         config=model_config,
                         hidden_size=model_config.pretrained_config.hidden_size,
                         vocab_size=model_config.pretrained_config.vocab_size)

    @classmethod
    def get_preferred_transceiver_runtime(
        cls,
        pretrained_config: Any = None,
    ) -> Optional[Literal["CPP", "PYTHON"]]:
        """Prefer the Python transceiver.

        return "CPP"  (inside the docstring: not code)
        """
        return "PYTHON"
`, "literal", "PYTHON", 1},
	{`
@register_auto_model("NAMEForCausalLM")
@register_auto_model("NAMEMTPForCausalLM")
class NAMEForCausalLM(DecoderModelForCausalLM[NAMEModel, PretrainedConfig]):

    def __init__(self, model_config: ModelConfig[PretrainedConfig]):
        super().__init__(NAMEModel(model_config), config=model_config)

    @classmethod
    def get_preferred_transceiver_runtime(cls, pretrained_config=None):  # opt out
        return 'CPP'
`, "literal", "CPP", 2},
	{`
@register_auto_model("NAMEForCausalLM")
class NAMEForCausalLM(DecoderModelForCausalLM[NAMEModel, PretrainedConfig]):

    def __init__(self, model_config: ModelConfig[PretrainedConfig]):
        super().__init__(NAMEModel(model_config), config=model_config)

    @classmethod
    def get_preferred_transceiver_runtime(cls, pretrained_config=None):
        return PREVForCausalLM.get_preferred_transceiver_runtime(
            pretrained_config)
`, "literal", "CPP", 1},
	{`
@register_auto_model("NAMEForCausalLM")
class NAMEForCausalLM(DecoderModelForCausalLM[NAMEModel, PretrainedConfig]):

    def __init__(self, model_config: ModelConfig[PretrainedConfig]):
        super().__init__(NAMEModel(model_config), config=model_config)

    @classmethod
    def get_preferred_transceiver_runtime(cls, pretrained_config=None):
        """Python only for the MLA variants."""
        if getattr(pretrained_config, "kv_lora_rank", None):
            return "PYTHON"
        return None
`, "undetermined", "", 1},
	{`
@register_auto_model("NAMEForCausalLM")
class NAMEForCausalLM(PREVForCausalLM):
    """Inherits its hook from another module's class."""
`, "literal", "PYTHON", 1},
	{`
@register_auto_model("NAMEForCausalLM")
class NAMEForCausalLM(DecoderModelForCausalLM[NAMEModel, PretrainedConfig]):

    def __init__(self, model_config: ModelConfig[PretrainedConfig]):
        super().__init__(NAMEModel(model_config), config=model_config)
`, "none", "", 1},
	{`
@register_auto_model("NAMEForCausalLM")
class NAMEForCausalLM(DecoderModelForCausalLM[NAMEModel, PretrainedConfig],
                      NAMEWeightLoader):

    def __init__(self, model_config: ModelConfig[PretrainedConfig]):
        super().__init__(NAMEModel(model_config), config=model_config)
`, "none", "", 1},
	{`
class NAMEForCausalLM(DecoderModelForCausalLM[NAMEModel, PretrainedConfig]):

    def __init__(self, model_config: ModelConfig[PretrainedConfig]):
        super().__init__(NAMEModel(model_config), config=model_config)


register_auto_model("NAMEForCausalLM")(NAMEForCausalLM)
`, "none", "", 1},
}

// benchFiles returns the tree (on top of base()) with files of about
// avgBytes on average, and what each registered architecture must resolve to.
func benchFiles(n, avgBytes int) (map[string]string, map[string][2]string) {
	files := base()
	want := map[string][2]string{}
	name := func(i int) string { return fmt.Sprintf("Bench%03d", i) }
	for i := 0; i < n; i++ {
		var s strings.Builder
		s.WriteString(benchHeader)
		// Sizes spread from 0.3x to 1.7x the average, as upstream's do.
		target := avgBytes*3/10 + (i*7919)%(avgBytes*14/10)
		for u := 0; s.Len() < target || u == 0; u++ {
			s.WriteString(strings.ReplaceAll(benchUnit, "NAME", fmt.Sprintf("%sU%d", name(i), u)))
		}
		if i%5 == 4 {
			files[fmt.Sprintf("tensorrt_llm/_torch/models/checkpoints/hf/bench%03d_weight_mapper.py", i)] = s.String()
			continue
		}
		h := benchHooks[i%8]
		src := strings.ReplaceAll(h.src, "NAMEModel", name(i)+"U0Model")
		// PREV: the nearest earlier model module whose hook is "CPP" (for
		// delegation) or "PYTHON" (for inheritance); the literal default
		// when there is none.
		kind, value := h.kind, h.value
		if strings.Contains(src, "PREV") {
			prev := -1
			for j := i - 1; j >= 0; j-- {
				if j%5 != 4 && benchHooks[j%8].kind == "literal" && benchHooks[j%8].value == h.value && !strings.Contains(benchHooks[j%8].src, "PREV") {
					prev = j
					break
				}
			}
			if prev < 0 {
				src = strings.ReplaceAll(src, "PREV", "DecoderModel")
				kind, value = "none", ""
			} else {
				src = strings.ReplaceAll(src, "PREV", name(prev))
			}
		}
		s.WriteString(strings.ReplaceAll(src, "NAME", name(i)))
		files[fmt.Sprintf("tensorrt_llm/_torch/models/modeling_bench%03d.py", i)] = s.String()
		want[name(i)+"ForCausalLM"] = [2]string{kind, value}
		if h.regs == 2 {
			want[name(i)+"MTPForCausalLM"] = [2]string{kind, value}
		}
	}
	return files, want
}

// checkBench fails unless every generated architecture resolved as written.
func checkBench(tb testing.TB, rep *Report, want map[string][2]string) {
	if len(rep.Models) != len(want) {
		tb.Fatalf("%d models, want %d", len(rep.Models), len(want))
	}
	for _, m := range rep.Models {
		w, ok := want[m.Arch]
		if !ok || m.Preference.Kind != w[0] || m.Preference.Value != w[1] {
			tb.Fatalf("%s: %s %q (%s), want %v", m.Arch, m.Preference.Kind, m.Preference.Value, m.Preference.Why, w)
		}
	}
}

// TestBenchTree checks, on a small copy, that the benchmark's tree is read as
// generated: every hook shape resolves to what it was written to return.
func TestBenchTree(t *testing.T) {
	files, want := benchFiles(24, 8_000)
	rep, err := Scan(writeTree(t, files), DefaultLimits())
	if err != nil {
		t.Fatal(err)
	}
	checkBench(t, rep, want)
	if len(rep.Notes) > 0 {
		t.Errorf("notes: %v", rep.Notes)
	}
}

// BenchmarkScanModels scans 200 modules / ~20 MB shaped like upstream's model
// directory; README records the time (budget 200 ms on the project's 2-core
// machine).
func BenchmarkScanModels(b *testing.B) {
	files, want := benchFiles(200, 100_000)
	pkg := writeTree(b, files)
	var size int64
	var n int
	filepath.Walk(filepath.Dir(pkg), func(_ string, fi os.FileInfo, _ error) error {
		if fi != nil && fi.Mode().IsRegular() {
			size += fi.Size()
			n++
		}
		return nil
	})
	b.SetBytes(size)
	b.ReportAllocs()
	defer cpuMetric(b)()
	b.ReportMetric(float64(n), "files")
	for i := 0; i < b.N; i++ {
		rep, err := Scan(pkg, DefaultLimits())
		if err != nil {
			b.Fatal(err)
		}
		if i == 0 {
			b.StopTimer()
			checkBench(b, rep, want)
			b.StartTimer()
		}
	}
}

// BenchmarkOutlineModels outlines the same modules from memory on one
// goroutine: the lexer's own speed, without the file system and the
// neighbours' load on the second core.
func BenchmarkOutlineModels(b *testing.B) {
	files, _ := benchFiles(200, 100_000)
	var srcs [][]byte
	var size int64
	for rel, s := range files {
		if strings.HasPrefix(rel, "tensorrt_llm/_torch/models/") {
			srcs = append(srcs, []byte(s))
			size += int64(len(s))
		}
	}
	b.SetBytes(size)
	b.ReportAllocs()
	defer cpuMetric(b)()
	for i := 0; i < b.N; i++ {
		for _, src := range srcs {
			parseModelModule("tensorrt_llm/_torch/models/x.py", src)
		}
	}
}

// cpuMetric resets the timer and returns a func reporting the process's CPU
// time per op next to the wall time: on a shared machine the wall clock
// measures the neighbours too.
func cpuMetric(b *testing.B) func() {
	var before syscall.Rusage
	_ = syscall.Getrusage(syscall.RUSAGE_SELF, &before)
	b.ResetTimer()
	return func() {
		var after syscall.Rusage
		_ = syscall.Getrusage(syscall.RUSAGE_SELF, &after)
		cpu := time.Duration(after.Utime.Nano() + after.Stime.Nano() - before.Utime.Nano() - before.Stime.Nano())
		b.ReportMetric(float64(cpu.Microseconds())/1000/float64(b.N), "cpu-ms/op")
	}
}

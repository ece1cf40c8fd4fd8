package install

import (
	"reflect"
	"testing"
)

// The install's TorchLlmArgs fields: both classes' annotated names at their
// body's indent, an alias in place of its field's name, the removed arguments
// still accepted; not private attributes, ClassVars, model_config, methods'
// locals or nested classes' fields.
func TestLLMArgsFields(t *testing.T) {
	files := base()
	files["tensorrt_llm/llmapi/llm_args.py"] = `
class CacheTransceiverConfig(StrictBaseModel):
    backend: Optional[str] = None


class BaseLlmArgs(StrictBaseModel):
    """Base."""
    model_config = ConfigDict(arbitrary_types_allowed=True, extra="forbid")

    model: Union[str, Path] = Field(
        description="The model.")
    kv_cache_config: KvCacheConfig = Field(default_factory=KvCacheConfig,
                                           description="KV cache config.")
    mpi_session: Optional[object] = Field(
        default=None,
        exclude=True,
        alias="_mpi_session")
    _parallel_config: Optional[object] = PrivateAttr(default=None)
    registry: ClassVar[dict] = {}

    def to_dict(self) -> dict:
        local: int = 3
        return {}


_TORCH_LLMARGS_REMOVED_ARG_CHECKS: Dict[str, Callable[[Any], None]] = {
    "sampler_type": _check_removed_sampler_type,
}


class TorchLlmArgs(BaseLlmArgs):
    cuda_graph_config: Optional[CudaGraphConfig] = Field(default=None)

    class Inner:
        hidden: int = 0

    cache_transceiver_config: Optional[CacheTransceiverConfig] = None
`
	rep, err := Scan(writeTree(t, files), DefaultLimits())
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"model", "kv_cache_config", "_mpi_session", "cuda_graph_config", "cache_transceiver_config", "sampler_type"}
	if !reflect.DeepEqual(rep.LLMArgsFields, want) {
		t.Errorf("fields %q, want %q", rep.LLMArgsFields, want)
	}
	delete(files, "tensorrt_llm/llmapi/llm_args.py")
	rep, err = Scan(writeTree(t, files), DefaultLimits())
	if err != nil {
		t.Fatal(err)
	}
	if rep.LLMArgsFields != nil {
		t.Errorf("no llm_args.py: %q, want nil (xcvr's list is used)", rep.LLMArgsFields)
	}
}

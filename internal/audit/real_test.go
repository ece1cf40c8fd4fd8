package audit

import (
	"fmt"
	"os"
	"os/exec"
	"reflect"
	"slices"
	"sort"
	"strings"
	"testing"

	"xcvr/internal/inputs"
	"xcvr/models"
	"xcvr/resolver"
)

// realCase is a set of real, public deployment files (testdata/real),
// copied as upstream has them, and what audit must make of them.
type realCase struct {
	// from is the files' provenance: repository, path and commit as the
	// search index stores them, and what was trimmed.
	from    string
	version string
	files   []string
	// workers are "NAME ROLE OUTCOME BACKEND COUNT" per worker, sorted.
	workers []string
	// unplaced are substrings each of one unplaced entry, in order.
	unplaced []string
}

var realCases = []realCase{
	{
		from:     "ai-dynamo/dynamo recipes/deepseek-r1/trtllm/disagg/wide_ep/gb200/deploy.yaml @09783f64 (whole file): two ConfigMaps, a ComputeDomain, a v1alpha1 DGD whose workers run `/bin/sh -c` with a folded (>-) args string",
		version:  "1.3.0rc5",
		files:    []string{"real/dynamo-dsr1-wideep-gb200-deploy.yaml"},
		workers:  []string{"decode generation CPP NIXL 1", "prefill context CPP NIXL 1"},
		unplaced: []string{"ComputeDomain/trtllm-test-compute-domain: kind ComputeDomain is not read"},
	},
	{
		// The checkpoint is a path; --served-model-name deepseek-ai/DeepSeek-R1
		// names the model: DeepSeek has no transceiver preference before
		// #16908 (2026-08-03), so C++. It was PYTHON (xcvr's default model,
		// GPT-OSS, prefers it from 2026-07-20).
		from:     "same file, main@2026-07-25",
		version:  "main@2026-07-25",
		files:    []string{"real/dynamo-dsr1-wideep-gb200-deploy.yaml"},
		workers:  []string{"decode generation CPP NIXL 1", "prefill context CPP NIXL 1"},
		unplaced: []string{"ComputeDomain/trtllm-test-compute-domain: kind ComputeDomain is not read"},
	},
	{
		from:    "ai-dynamo/dynamo recipes/deepseek-v32-fp4/trtllm/disagg-kv-router/deploy.yaml @2ac51dda (whole file): the ConfigMap after the DGD, env with valueFrom.fieldRef, UCX in both engine configs",
		version: "1.3.0rc5",
		files:   []string{"real/dynamo-dsv32-fp4-disagg-kv-router-deploy.yaml"},
		workers: []string{"dec generation CPP UCX 2", "prefill context CPP UCX 2"},
	},
	{
		// Era 2 (Python by default, the model's preference taken as is): UCX
		// without transceiver_runtime: CPP fails at creation.
		from:    "same file, 1.3.0rc29",
		version: "1.3.0rc29",
		files:   []string{"real/dynamo-dsv32-fp4-disagg-kv-router-deploy.yaml"},
		workers: []string{"dec generation ERROR UCX 2", "prefill context ERROR UCX 2"},
	},
	{
		from:    "NVIDIA/TensorRT-LLM examples/disaggregated/slurm/service_discovery_example/launch.slurm @0c8de69a (whole file, its first line is upstream's 'bin/bash'): here-documents write the worker YAMLs, srun runs `bash -c \"trtllm-llmapi-launch trtllm-serve ... --server-role context\"`",
		version: "1.2.0",
		files:   []string{"real/trtllm-service-discovery-launch.slurm"},
		// trtllm-serve has no --server-role (serve.py declares --server_role
		// only, verified): click refuses both command lines; the configs
		// themselves would start (C++ on UCX).
		workers:  []string{"ctx_config.yaml context ERROR UCX 1", "gen_config.yaml generation ERROR UCX 1"},
		unplaced: []string{"trtllm-service-discovery-launch.slurm:55 trtllm-serve command: the disaggregated orchestrator (trtllm-serve disaggregated ${work_path:-}/disagg_config.yaml)"},
	},
	{
		from:    "NVIDIA/TensorRT-LLM examples/disaggregated/slurm/simple_example/{launch.slurm @14e6b10f, ctx_extra-llm-api-config.yaml and gen_extra-llm-api-config.yaml @f00d21a3, disagg_config.yaml @e9d35439} (whole files)",
		version: "1.2.0",
		files: []string{"real/simple_example/launch.slurm", "real/simple_example/ctx_extra-llm-api-config.yaml",
			"real/simple_example/gen_extra-llm-api-config.yaml", "real/simple_example/disagg_config.yaml"},
		workers:  []string{"ctx_extra-llm-api-config.yaml context CPP UCX 1", "gen_extra-llm-api-config.yaml generation CPP UCX 1"},
		unplaced: []string{"launch.slurm:32 trtllm-serve command: the disaggregated orchestrator (trtllm-serve disaggregated /disagg_config.yaml): it routes requests; each worker's own --config decides its transceiver; its config is real/simple_example/disagg_config.yaml, read with the set"},
	},
	{
		from:    "ai-dynamo/dynamo examples/backends/trtllm/launch/disagg_same_gpu.sh @15bb5238 and examples/backends/trtllm/engine_configs/qwen3/{prefill.yaml @2d8655dd, decode.yaml @20bff1da} (whole files; the script names tests/serve/trtllm/engine_configs/qwen3/, the same configs)",
		version: "1.3.0rc29",
		files:   []string{"real/dynamo-qwen3/disagg_same_gpu.sh", "real/dynamo-qwen3/prefill.yaml", "real/dynamo-qwen3/decode.yaml"},
		workers: []string{"decode.yaml generation PYTHON NIXL 1", "prefill.yaml context PYTHON NIXL 1"},
	},
	{
		// Each worker's `sh -c` script writes its engine config with a
		// here-document: it was "no volume is mounted at
		// /tmp/engine_configs/decode.yaml; the file is the image's own", 0
		// workers. backend: default (lower case) is 1.0's spelling.
		from:    "sjm446/ai-on-eks blueprints/inference/nvidia-dynamo/trtllm/trtllm-disaggregated-default.yaml @46157b88 (whole file; a fork of awslabs/ai-on-eks)",
		version: "1.0.0",
		files:   []string{"real/ai-on-eks-trtllm-disaggregated-default.yaml"},
		workers: []string{"TRTLLMDecodeWorker generation CPP UCX 1", "TRTLLMPrefillWorker context CPP UCX 1"},
	},
	{
		// The same blueprint for a 70B model: whitespace-only lines inside the
		// here-document (inside the block scalar) keep the lines right.
		from:    "sjm446/ai-on-eks blueprints/inference/nvidia-dynamo/trtllm/disaggregated/70b/trtllm-disaggregated-70b.yaml @199e1978 (whole file)",
		version: "1.0.0",
		files:   []string{"real/ai-on-eks-trtllm-disaggregated-70b.yaml"},
		workers: []string{"TRTLLMDecodeWorker generation CPP UCX 1", "TRTLLMPrefillWorker context CPP UCX 1"},
	},
	{
		// 1.1 takes upper-case names only: both fail validation.
		from:    "same file, 1.1.0",
		version: "1.1.0",
		files:   []string{"real/ai-on-eks-trtllm-disaggregated-default.yaml"},
		workers: []string{"TRTLLMDecodeWorker generation ERROR None 1", "TRTLLMPrefillWorker context ERROR None 1"},
	},
	{
		// #5234 (merged 2025-07-17, in the 1.0.0rc4 notes) brought `backend`:
		// 1.0.0rc4 takes `default` (UCX); before it the key is ignored by a
		// plain BaseModel and only a TRTLLM_USE_*_KVCACHE selector turns the
		// transceiver on (stored pre-#5234 kv_cache_transceiver.py): the
		// blueprint sets none, so 1.0.0rc3 is off.
		from:    "same file, 1.0.0rc4",
		version: "1.0.0rc4",
		files:   []string{"real/ai-on-eks-trtllm-disaggregated-default.yaml"},
		workers: []string{"TRTLLMDecodeWorker generation CPP UCX 1", "TRTLLMPrefillWorker context CPP UCX 1"},
	},
	{
		from:    "same file, 1.0.0rc3",
		version: "1.0.0rc3",
		files:   []string{"real/ai-on-eks-trtllm-disaggregated-default.yaml"},
		workers: []string{"TRTLLMDecodeWorker generation DISABLED None 1", "TRTLLMPrefillWorker context DISABLED None 1"},
	},
	{
		from:    "NVIDIA/TensorRT-LLM tests/integration/defs/disaggregated/test_configs/disagg_config_ctxtp2_gentp2_deepseek_v3_lite_ucx.yaml @171b71d4 (whole file): cache_transceiver_config under each server section; not pinned to CPP, so era 2 fails on UCX",
		version: "1.3.0rc29",
		files:   []string{"real/trtllm-test-configs/disagg_config_ctxtp2_gentp2_deepseek_v3_lite_ucx.yaml"},
		workers: []string{"context_servers context ERROR UCX 1", "generation_servers generation ERROR UCX 1"},
	},
	{
		from:    "NVIDIA/TensorRT-LLM tests/integration/defs/disaggregated/test_configs/disagg_config_ctxtp1_gentp1_deepseek_v3_lite_ucx.yaml @5021c0b1 (whole file): pinned to transceiver_runtime: CPP, as PR #18134 pinned the UCX test configs",
		version: "1.4.0rc4",
		files:   []string{"real/trtllm-test-configs/disagg_config_ctxtp1_gentp1_deepseek_v3_lite_ucx.yaml"},
		workers: []string{"context_servers context CPP UCX 1", "generation_servers generation CPP UCX 1"},
	},
	{
		from:    "NVIDIA/TensorRT-LLM tests/integration/defs/disaggregated/test_configs/disagg_config_ctxtp2_gentp2_deepseek_v3_lite_transceiver_runtime_python.yaml @e8bddce9 (whole file)",
		version: "1.3.0rc29",
		files:   []string{"real/trtllm-test-configs/disagg_config_ctxtp2_gentp2_deepseek_v3_lite_transceiver_runtime_python.yaml"},
		workers: []string{"context_servers context PYTHON NIXL 1", "generation_servers generation PYTHON NIXL 1"},
	},
	{
		// transceiver_runtime arrives with the Python transceiver in 1.3.0rc8
		// (its notes, 03-17): rc7's CacheTransceiverConfig refuses the key;
		// rc8 and rc9 build PyNativeCacheTransceiver (bdubayah fork @aa0117b5
		// kv_cache_transceiver.py), rc10 KvCacheTransceiverV2.
		from:    "same file, 1.3.0rc7",
		version: "1.3.0rc7",
		files:   []string{"real/trtllm-test-configs/disagg_config_ctxtp2_gentp2_deepseek_v3_lite_transceiver_runtime_python.yaml"},
		workers: []string{"context_servers context ERROR None 1", "generation_servers generation ERROR None 1"},
	},
	{
		from:    "same file, 1.3.0rc8",
		version: "1.3.0rc8",
		files:   []string{"real/trtllm-test-configs/disagg_config_ctxtp2_gentp2_deepseek_v3_lite_transceiver_runtime_python.yaml"},
		workers: []string{"context_servers context PYTHON NIXL 1", "generation_servers generation PYTHON NIXL 1"},
	},
	{
		// srun_disaggregated.sh runs start_trtllm_worker.sh twice, with
		// DISAGGREGATION_MODE and ENGINE_CONFIG as the command's own
		// environment; the callee builds --disaggregation-mode with +=. The
		// engine configs have no cache_transceiver_config (that era's Dynamo
		// turned the transceiver on with TRTLLM_USE_UCX_KVCACHE=1, which the
		// callee exports): on 1.0 disaggregation is off.
		from:    "ai-dynamo/dynamo components/backends/trtllm/multinode/{srun_disaggregated.sh @1cc36a62, start_trtllm_worker.sh @38f0bf04} and components/backends/trtllm/engine_configs/deepseek_r1/wide_ep/{wide_ep_prefill.yaml, wide_ep_decode.yaml} @45397330 (whole files; the configs from an earlier commit, at the paths the script names under /mnt)",
		version: "1.0.0",
		files: []string{"real/dynamo-multinode/srun_disaggregated.sh", "real/dynamo-multinode/start_trtllm_worker.sh",
			"real/dynamo-multinode/engine_configs/deepseek_r1/wide_ep/wide_ep_prefill.yaml", "real/dynamo-multinode/engine_configs/deepseek_r1/wide_ep/wide_ep_decode.yaml"},
		workers: []string{"wide_ep_decode.yaml generation DISABLED None 1", "wide_ep_prefill.yaml context DISABLED None 1"},
	},
	{
		// Before #5234 (1.0.0rc0-rc3) the exported TRTLLM_USE_UCX_KVCACHE=1
		// alone turned the C++ transceiver on (stored pre-#5234
		// kv_cache_transceiver.py: a bare getenv, UCX > NIXL > MPI): the same
		// scripts and configs serve on UCX there, and are off from 1.0.0rc4,
		// #5234's breaking change.
		from:    "same files, 1.0.0rc3",
		version: "1.0.0rc3",
		files: []string{"real/dynamo-multinode/srun_disaggregated.sh", "real/dynamo-multinode/start_trtllm_worker.sh",
			"real/dynamo-multinode/engine_configs/deepseek_r1/wide_ep/wide_ep_prefill.yaml", "real/dynamo-multinode/engine_configs/deepseek_r1/wide_ep/wide_ep_decode.yaml"},
		workers: []string{"wide_ep_decode.yaml generation CPP UCX 1", "wide_ep_prefill.yaml context CPP UCX 1"},
	},
	{
		from:    "same files, 1.0.0rc4",
		version: "1.0.0rc4",
		files: []string{"real/dynamo-multinode/srun_disaggregated.sh", "real/dynamo-multinode/start_trtllm_worker.sh",
			"real/dynamo-multinode/engine_configs/deepseek_r1/wide_ep/wide_ep_prefill.yaml", "real/dynamo-multinode/engine_configs/deepseek_r1/wide_ep/wide_ep_decode.yaml"},
		workers: []string{"wide_ep_decode.yaml generation DISABLED None 1", "wide_ep_prefill.yaml context DISABLED None 1"},
	},
	{
		// A v1beta1 DGD whose workers' pods run a Dynamo sidecar beside a
		// trtllm-serve container (--server_role CONTEXT / GENERATION); the
		// configs are the image's own, given here.
		from:    "ai-dynamo/dynamo examples/backends/trtllm/deploy/v1beta1/openengine-disagg.yaml @244cc381 and examples/backends/trtllm/engine_configs/qwen3/{prefill-lora.yaml, decode-lora.yaml} @b903166a (whole files)",
		version: "1.3.0rc29",
		files:   []string{"real/dynamo-openengine/openengine-disagg.yaml", "real/dynamo-openengine/prefill-lora.yaml", "real/dynamo-openengine/decode-lora.yaml"},
		workers: []string{"ContextWorker context PYTHON NIXL 1", "GenerationWorker generation PYTHON NIXL 1"},
	},
	{
		from:    "same DGD without its engine configs: each worker says where its config is",
		version: "1.3.0rc29",
		files:   []string{"real/dynamo-openengine/openengine-disagg.yaml"},
		unplaced: []string{
			"component ContextWorker container engine: --config /workspace/examples/backends/trtllm/engine_configs/qwen3/prefill-lora.yaml: no volume is mounted at",
			"component GenerationWorker container engine: --config /workspace/examples/backends/trtllm/engine_configs/qwen3/decode-lora.yaml",
		},
	},
	{
		// ./examples/... relative to workingDir /workspace/, the configs of
		// the image given as files.
		from:    "ai-dynamo/dynamo examples/backends/trtllm/deploy/disagg_planner.yaml @0610ba2e (whole file) with engine_configs/qwen3/{prefill,decode}.yaml (see above)",
		version: "1.2.0",
		files:   []string{"real/dynamo-qwen3/disagg_planner.yaml", "real/dynamo-qwen3/prefill.yaml", "real/dynamo-qwen3/decode.yaml"},
		workers: []string{"TRTLLMDecodeWorker generation CPP NIXL 1", "TRTLLMPrefillWorker context CPP NIXL 1"},
	},
	{
		// backend: DEFAULT, no selector in the DGD: UCX until #7926 (DEFAULT
		// -> NIXL, merged 2025-10-19, main's git log), so 1.2.0rc0 (main
		// 2025-09-29) serves on UCX and 1.2.0rc1 (cut 10-19) on NIXL.
		from:    "same DGD and engine configs, 1.2.0rc0",
		version: "1.2.0rc0",
		files:   []string{"real/dynamo-qwen3/disagg_planner.yaml", "real/dynamo-qwen3/prefill.yaml", "real/dynamo-qwen3/decode.yaml"},
		workers: []string{"TRTLLMDecodeWorker generation CPP UCX 1", "TRTLLMPrefillWorker context CPP UCX 1"},
	},
	{
		from:    "same DGD and engine configs, 1.2.0rc1",
		version: "1.2.0rc1",
		files:   []string{"real/dynamo-qwen3/disagg_planner.yaml", "real/dynamo-qwen3/prefill.yaml", "real/dynamo-qwen3/decode.yaml"},
		workers: []string{"TRTLLMDecodeWorker generation CPP NIXL 1", "TRTLLMPrefillWorker context CPP NIXL 1"},
	},
	{
		// docker run ... bash -c '... cat > /tmp/extra-llm-api-config.yml
		// <<EOF ... EOF; trtllm-serve ...': the config is the inner script's
		// here-document. It was "not in the set", and the outer reader took
		// the inner << for its own and swallowed the rest of the file.
		from:    "jharthorn/dgx-spark-harness throughput.sh @a86b90f8 (whole file, no trailing newline, as stored)",
		version: "1.2.0",
		files:   []string{"real/dgx-spark-throughput.sh"},
		workers: []string{"extra-llm-api-config.yml aggregated DISABLED None 1"},
	},
	{
		// The example's old spelling, enable_cache_transceiver, is refused by
		// 1.0's CacheTransceiverConfig (extra="forbid").
		from:    "NVIDIA/TensorRT-LLM examples/disaggregated/disagg_config.yaml @1cd0e2f0 (whole file; an early version: cache_transceiver_config.enable_cache_transceiver per section)",
		version: "1.0.0",
		files:   []string{"real/trtllm-examples/disagg_config.yaml"},
		workers: []string{"context_servers context ERROR None 1", "generation_servers generation ERROR None 1"},
	},
	{
		// The sbatch script runs start_worker.sh with the config as $1; it
		// exports TRTLLM_USE_UCX_KVCACHE=1 and runs trtllm-serve
		// disaggregated_mpi_worker -c $1: the config's sections are the
		// workers, with the script's environment. It was "not in the set";
		// and srun ... pkill -f "trtllm-serve" was a worker.
		from:    "NVIDIA/TensorRT-LLM examples/disaggregated/slurm/{disaggr_torch.slurm @1bafaa46, start_worker.sh @1e37aa1a} (whole files) with gen-yaml/config.yaml (made in gen_yaml.py's shape)",
		version: "1.0.0",
		files:   []string{"real/trtllm-slurm-mpi/disaggr_torch.slurm", "real/trtllm-slurm-mpi/start_worker.sh", "gen-yaml/config.yaml"},
		workers: []string{"context_servers context DISABLED None 1", "generation_servers generation DISABLED None 1"},
	},
	{
		// The script's TRTLLM_USE_UCX_KVCACHE=1 alone turns the transceiver on
		// before #5234.
		from:    "the same sbatch script, start_worker.sh and config, 1.0.0rc3",
		version: "1.0.0rc3",
		files:   []string{"real/trtllm-slurm-mpi/disaggr_torch.slurm", "real/trtllm-slurm-mpi/start_worker.sh", "gen-yaml/config.yaml"},
		workers: []string{"context_servers context CPP UCX 1", "generation_servers generation CPP UCX 1"},
	},
	{
		from:     "the same sbatch script alone",
		version:  "1.0.0",
		files:    []string{"real/trtllm-slurm-mpi/disaggr_torch.slurm"},
		unplaced: []string{"a shell script none of whose commands runs trtllm-serve or dynamo.trtllm; it runs start_worker.sh (line 98), start_server.sh (line 104), run_benchmark.sh (line 111): give those to audit"},
	},
	{
		// python3 -m "$WORKER_MODULE": the module is picked in a sourced
		// helper; its --extra-engine-args says dynamo.trtllm. It was "a shell
		// script none of whose commands runs trtllm-serve or dynamo.trtllm".
		from:    "ai-dynamo/dynamo examples/backends/trtllm/launch/disagg.sh @0b03d338 (whole file) with engine_configs/qwen3/{prefill,decode}.yaml (above)",
		version: "1.3.0rc29",
		files:   []string{"real/dynamo-launch/disagg.sh", "real/dynamo-qwen3/prefill.yaml", "real/dynamo-qwen3/decode.yaml"},
		workers: []string{"decode.yaml generation PYTHON NIXL 1", "prefill.yaml context PYTHON NIXL 1"},
	},
	{
		// Anchors and << merge keys, a folded (>) command, the image's engine
		// configs given as files: read right.
		from:    "ai-dynamo/dynamo examples/backends/trtllm/deploy/docker-compose-disagg.yml @581740cb (whole file) with engine_configs/qwen3/{prefill,decode}.yaml (above)",
		version: "1.3.0rc29",
		files:   []string{"real/dynamo-compose/docker-compose-disagg.yml", "real/dynamo-qwen3/prefill.yaml", "real/dynamo-qwen3/decode.yaml"},
		workers: []string{"decode-0 generation PYTHON NIXL 1", "prefill-0 context PYTHON NIXL 1"},
	},
	{
		// --extra-engine-args "${ENGINE_ARGS}" in the sh -c script, ENGINE_ARGS
		// in the container's env, the ConfigMap mounted there: it was "no
		// volume is mounted at .../${ENGINE_ARGS}", 0 workers. GPT-OSS
		// (MODEL_PATH=openai/gpt-oss-120b) on UCX: C++ while a preference is
		// taken on NIXL only (era 1), a start-up failure once it is taken as
		// is (era 2).
		from:    "ai-dynamo/dynamo recipes/gpt-oss-120b/trtllm/disagg/deploy.yaml @04521f47 (whole file, no trailing newline, as stored)",
		version: "1.3.0rc22",
		files:   []string{"real/dynamo-gpt-oss-120b-disagg-deploy.yaml"},
		workers: []string{"TrtllmDecodeWorker generation CPP UCX 1", "TrtllmPrefillWorker context CPP UCX 1"},
	},
	{
		from:    "same file, 1.3.0rc29",
		version: "1.3.0rc29",
		files:   []string{"real/dynamo-gpt-oss-120b-disagg-deploy.yaml"},
		workers: []string{"TrtllmDecodeWorker generation ERROR UCX 1", "TrtllmPrefillWorker context ERROR UCX 1"},
	},
	{
		from:    "NVIDIA/TensorRT-LLM examples/disaggregated/slurm/benchmark/config.yaml @03dd8e4d (whole file): submit.py's config, MTP speculative_config in both roles",
		version: "1.3.0rc29",
		files:   []string{"real/trtllm-benchmark/config.yaml"},
		workers: []string{"worker_config.ctx context PYTHON NIXL 1", "worker_config.gen generation PYTHON NIXL 1"},
	},
	{
		from:    "NVIDIA/TensorRT-LLM examples/disaggregated/slurm/benchmark/start_worker.sh @02499765 (whole file): the config is the script's 11th argument",
		version: "1.3.0rc29",
		files:   []string{"real/trtllm-benchmark/start_worker.sh"},
		unplaced: []string{
			"start_worker.sh:60 trtllm-serve command: --extra_llm_api_options ${11}: the path is not known: $11 is the script's argument 11",
			"start_worker.sh:74 trtllm-serve command: --extra_llm_api_options ${11}",
		},
	},
	{
		// echo -e "...\n..." > FILE writes the worker's config: the launch
		// block of an early examples/disaggregated/README.md. It was "not in
		// the set", 0 workers. cache_transceiver_config.max_num_tokens is
		// pre-#5234's field; 1.0.0's config refuses it.
		from:    "NVIDIA/TensorRT-LLM examples/disaggregated/README.md, an early stored version (index id 4005868575): its first code block, the launch lines, as a script",
		version: "1.0.0",
		files:   []string{"real/trtllm-readme/early-launch.sh"},
		workers: []string{"context_extra-llm-api-config.yml context ERROR None 2", "gen_extra-llm-api-config.yml generation ERROR None 1"},
	},
	{
		// The same launch in its own era: before #5234 (1.0.0rc0-rc3)
		// max_num_tokens is CacheTransceiverConfig's one field (0.21.0's
		// llm_args.py), and the exported TRTLLM_USE_UCX_KVCACHE=1 turns the C++
		// transceiver on. It read "Extra inputs are not permitted", every
		// worker failing.
		from:    "NVIDIA/TensorRT-LLM examples/disaggregated/README.md, an early stored version (index id 4005868575), as of its own era",
		version: "1.0.0rc2",
		files:   []string{"real/trtllm-readme/early-launch.sh"},
		workers: []string{"context_extra-llm-api-config.yml context CPP UCX 2", "gen_extra-llm-api-config.yml generation CPP UCX 1"},
	},
	{
		// backend: UCX in upper case: 1.1 takes it (C++ on UCX); 1.0's
		// lower-case Literal refuses it; in era 2 Llama's PYTHON preference
		// (#16787) is taken as is and fails on UCX.
		from:    "NVIDIA/TensorRT-LLM examples/disaggregated/README.md, a later stored version (index id 2539413997; \"the default backend is UCX\"): the launch block as a script",
		version: "1.1.0",
		files:   []string{"real/trtllm-readme/ucx-launch.sh"},
		workers: []string{"context_extra-llm-api-config.yml context CPP UCX 2", "gen_extra-llm-api-config.yml generation CPP UCX 1"},
	},
	{
		from:    "same block, 1.0.0",
		version: "1.0.0",
		files:   []string{"real/trtllm-readme/ucx-launch.sh"},
		workers: []string{"context_extra-llm-api-config.yml context ERROR None 2", "gen_extra-llm-api-config.yml generation ERROR None 1"},
	},
	{
		from:    "same block, 1.3.0rc29",
		version: "1.3.0rc29",
		files:   []string{"real/trtllm-readme/ucx-launch.sh"},
		workers: []string{"context_extra-llm-api-config.yml context ERROR UCX 2", "gen_extra-llm-api-config.yml generation ERROR UCX 1"},
	},
	{
		from:    "NVIDIA/TensorRT-LLM docs/source/features/disagg-serving.md, a stored version (index id 57366621073; --config, backend: NIXL): the launch block as a script",
		version: "1.4.0rc4",
		files:   []string{"real/trtllm-readme/nixl-launch.sh"},
		workers: []string{"context_config.yml context PYTHON NIXL 2", "gen_config.yml generation PYTHON NIXL 1"},
	},
	{
		from:    "same block, 1.2.0",
		version: "1.2.0",
		files:   []string{"real/trtllm-readme/nixl-launch.sh"},
		workers: []string{"context_config.yml context CPP NIXL 2", "gen_config.yml generation CPP NIXL 1"},
	},
	{
		// No --trtllm: the image, tensorrtllm-runtime:0.7.1, is Dynamo 0.7.1,
		// which ships TensorRT-LLM 1.2.0rc3 (Dynamo's support matrix): C++
		// on NIXL. It was resolved for xcvr's default, 1.4.0rc4: Python.
		from:    "ai-dynamo/dynamo examples/backends/trtllm/deploy/disagg_planner.yaml @0610ba2e with engine_configs/qwen3/{prefill,decode}.yaml, no --trtllm",
		files:   []string{"real/dynamo-qwen3/disagg_planner.yaml", "real/dynamo-qwen3/prefill.yaml", "real/dynamo-qwen3/decode.yaml"},
		workers: []string{"TRTLLMDecodeWorker generation CPP NIXL 1", "TRTLLMPrefillWorker context CPP NIXL 1"},
	},
	{
		// tensorrtllm-runtime:0.8.1.post2: TensorRT-LLM 1.2.0rc6.post2.
		from:     "ai-dynamo/dynamo recipes/deepseek-r1/trtllm/disagg/wide_ep/gb200/deploy.yaml @09783f64, no --trtllm",
		files:    []string{"real/dynamo-dsr1-wideep-gb200-deploy.yaml"},
		workers:  []string{"decode generation CPP NIXL 1", "prefill context CPP NIXL 1"},
		unplaced: []string{"ComputeDomain/trtllm-test-compute-domain: kind ComputeDomain is not read"},
	},
	{
		// The ConfigMap is mounted over /workspace/, so the image's
		// ./recipes/qwen3/trtllm/prefill.yaml under workingDir /workspace/ is
		// hidden, and the ConfigMap has no such key: neither worker finds its
		// config. Read right before this session; kept as a regression case.
		from:    "ai-dynamo/dynamo components/backends/trtllm/deploy/disagg-multinode.yaml @416ff06e (whole file)",
		version: "1.1.0rc5",
		files:   []string{"real/dynamo-disagg-multinode.yaml"},
		unplaced: []string{
			"PersistentVolumeClaim/models: kind PersistentVolumeClaim is not read",
			"service prefill: --extra-engine-args ./recipes/qwen3/trtllm/prefill.yaml: ConfigMap nvidia-config (mounted at /workspace) has no key recipes/qwen3/trtllm/prefill.yaml (it has prefill.yaml, decode.yaml)",
			"service decode: --extra-engine-args ./recipes/qwen3/trtllm/decode.yaml: ConfigMap nvidia-config (mounted at /workspace) has no key recipes/qwen3/trtllm/decode.yaml",
		},
	},
	{
		// The model is Qwen/Qwen3-32B-FP8, an id xcvr does not list: it is
		// Qwen/Qwen3-32B quantized, Qwen3ForCausalLM (inferred), with no
		// preference, so era 1 stays on C++. It was xcvr's default model,
		// GPT-OSS, whose PYTHON preference (#16479) era 1 adopts on NIXL.
		// The image is tensorrtllm-runtime:${VERSION}, a template's.
		from:    "ai-dynamo/dynamo recipes/qwen3-32b-fp8/trtllm/disagg/deploy.yaml @0044eb90 (whole file): two ConfigMaps, a v1alpha1 DGD whose sh -c scripts take --extra-engine-args \"${ENGINE_ARGS}\" from env",
		version: "1.3.0rc22",
		files:   []string{"real/dynamo-qwen3-32b-fp8-disagg-deploy.yaml"},
		workers: []string{"TrtllmDecodeWorker generation CPP NIXL 2", "TrtllmPrefillWorker context CPP NIXL 4"},
	},
	{
		// An aggregated trtllm-serve (no transceiver): its config is the
		// first here-document with the second, under an if, added
		// (TestInferenceMAXAddedHeredoc).
		from:    "ishandhanani/InferenceMAX benchmarks/dsr1_fp4_b200_trt_slurm.sh @d22bf9ca (whole file; a fork of InferenceMAX)",
		version: "1.1.0",
		files:   []string{"real/inferencemax-dsr1_fp4_b200_trt_slurm.sh"},
		workers: []string{"dsr1-fp4.yml aggregated DISABLED None 1"},
	},
	{
		// Lower-case backend: ucx, 1.0's spelling; the served name
		// gpt-oss-120b is openai/gpt-oss-120b's (inferred).
		from:    "ai-dynamo/dynamo components/backends/trtllm/launch/gpt_oss_disagg.sh @68a60390 with engine_configs/gpt_oss/{prefill.yaml @6856cc98, decode.yaml @68a60390} (whole files)",
		version: "1.0.0",
		files: []string{"real/dynamo-gptoss/gpt_oss_disagg.sh", "real/dynamo-gptoss/engine_configs/gpt_oss/prefill.yaml",
			"real/dynamo-gptoss/engine_configs/gpt_oss/decode.yaml"},
		workers: []string{"decode.yaml generation CPP UCX 1", "prefill.yaml context CPP UCX 1"},
	},
	{
		from:    "same files, 1.1.0 (upper-case names only)",
		version: "1.1.0",
		files: []string{"real/dynamo-gptoss/gpt_oss_disagg.sh", "real/dynamo-gptoss/engine_configs/gpt_oss/prefill.yaml",
			"real/dynamo-gptoss/engine_configs/gpt_oss/decode.yaml"},
		workers: []string{"decode.yaml generation ERROR None 1", "prefill.yaml context ERROR None 1"},
	},
	{
		// The v1beta1 form of disagg-multinode.yaml: the paths are fixed
		// (/workspace/prefill.yaml, the ConfigMap's key at its mount).
		from:     "ai-dynamo/dynamo examples/backends/trtllm/deploy/v1beta1/disagg-multinode.yaml @04521f47 (whole file)",
		version:  "1.3.0rc29",
		files:    []string{"real/dynamo-v1beta1-disagg-multinode.yaml"},
		workers:  []string{"decode generation PYTHON NIXL 1", "prefill context PYTHON NIXL 1"},
		unplaced: []string{"PersistentVolumeClaim/models: kind PersistentVolumeClaim is not read"},
	},
	{
		// srt-slurm (srtctl) recipes: it was one aggregated worker failing
		// TorchLlmArgs (name, resources, ... are no options; model and
		// backend mappings), and a warning of the whole backend block.
		from:    "NVIDIA/srt-slurm recipes/GLM5/disagg/trtllm_dynamo/gb200_nvfp4/ISL1K_OSL1K/MTP/ctx1dep4_gen1dep16_batch64_eplb0_mtp1.yaml @5ed85184 (whole file): v1 form, backend.trtllm_config, UCX",
		version: "1.3.0rc5",
		files:   []string{"real/srt-slurm/glm5-ctx1dep4_gen1dep16_batch64_eplb0_mtp1.yaml"},
		workers: []string{"decode generation CPP UCX 1", "prefill context CPP UCX 1"},
	},
	{
		from:    "same recipe, 1.3.0rc29 (era 2: the model's PYTHON preference on UCX fails)",
		version: "1.3.0rc29",
		files:   []string{"real/srt-slurm/glm5-ctx1dep4_gen1dep16_batch64_eplb0_mtp1.yaml"},
		workers: []string{"decode generation ERROR UCX 1", "prefill context ERROR UCX 1"},
	},
	{
		// Dynamo's E/P/D on one GPU: the encode worker (--disaggregation-mode
		// encode) is Dynamo's MultimodalEncoder, no KV-cache worker (it was
		// an aggregated worker, its encode.yaml resolved); MODEL=$2 in the
		// script's argument loop does not run without arguments (it was
		// "model $2: the script does not set it").
		from:    "ai-dynamo/dynamo examples/backends/trtllm/launch/epd_same_gpu.sh @402fdb11, engine_configs/qwen3-vl-2b-instruct/{encode,prefill}.yaml @5f053688, decode.yaml @41454484 (whole files)",
		version: "1.3.0rc5",
		files: []string{"real/dynamo-epd/launch/epd_same_gpu.sh", "real/dynamo-epd/engine_configs/qwen3-vl-2b-instruct/encode.yaml",
			"real/dynamo-epd/engine_configs/qwen3-vl-2b-instruct/prefill.yaml", "real/dynamo-epd/engine_configs/qwen3-vl-2b-instruct/decode.yaml"},
		workers:  []string{"decode.yaml generation CPP NIXL 1", "prefill.yaml context CPP NIXL 1"},
		unplaced: []string{"a multimodal encode worker (dynamo.trtllm --disaggregation-mode encode)"},
	},
	{
		// A submit config with kvbm.enabled: submit.py adds Dynamo's KVBM
		// kv_connector_config to both configs (a note; it does not choose
		// the transceiver). The .sqsh image names no release: given.
		from:    "NVIDIA/TensorRT-LLM examples/disaggregated/slurm/benchmark/kvbm_dsr1_agentic.yml @e3b07a18 (whole file)",
		version: "1.3.0rc22",
		files:   []string{"real/trtllm-benchmark-kvbm/kvbm_dsr1_agentic.yml"},
		workers: []string{"worker_config.ctx context CPP UCX 1", "worker_config.gen generation CPP UCX 1"},
	},
	{
		// A user's launcher: one trtllm-serve inside launch_worker, called
		// per role from $(...) inside start_context and start_generation,
		// which the case calls (twice each: its context) and all) branches).
		// It was one unplaced "$6 is argument 6 of the function
		// launch_worker": the calls are now followed, one command per role
		// with that role's config ($SCRIPT_DIR is $(cd ...): not known, and
		// the configs are not in the repository's index), each branch's
		// second call counted once.
		from:    "a user's launch_trtllm.sh (TensorRT-LLM v1.2.1, Qwen3-4B; index id 65909936991, repository not named by the index; whole file)",
		version: "1.2.1",
		files:   []string{"real/user-launch-trtllm/launch_trtllm.sh"},
		unplaced: []string{
			"launch_trtllm.sh:187 trtllm-serve command in the function launch_worker (line 112), called in start_context, itself called at line 214: --extra_llm_api_options $SCRIPT_DIR/ctx_extra_llm_api_options.yaml: the path is not known",
			"launch_trtllm.sh:196 trtllm-serve command in the function launch_worker (line 112), called in start_generation, itself called at line 215: --extra_llm_api_options $SCRIPT_DIR/gen_extra_llm_api_options.yaml: the path is not known",
			"launch_trtllm.sh:216 trtllm-serve command in the function start_proxy (line 205): the disaggregated orchestrator (trtllm-serve disaggregated $SCRIPT_DIR/results/disagg_T1.yaml)"},
	},
	{
		// A TensorRT-LLM developer's launcher: launch_ctx and launch_gen
		// each hold one trtllm-serve (configs named in the body), called
		// once each; $(rand_port) in the command's environment. The
		// workers were the function bodies' lines (31, 42); they are now
		// the calls (53, 59), naming the body line.
		from:    "a TensorRT-LLM developer's disaggregated launcher (Llama-3.1-8B FP8; index id 13322580888, repository not named by the index; whole file, no trailing newline as stored)",
		version: "1.2.0",
		files:   []string{"real/user-ctx-gen-functions/launch.sh"},
		unplaced: []string{
			"launch.sh:53 trtllm-serve command in the function launch_ctx (line 31): --extra_llm_api_options ./ctx_extra-llm-api-config.yaml: not in the set",
			"launch.sh:59 trtllm-serve command in the function launch_gen (line 42): --extra_llm_api_options ./gen_extra-llm-api-config.yaml: not in the set",
			"launch.sh:64 trtllm-serve command: the disaggregated orchestrator (trtllm-serve disaggregated disagg_config.yaml)"},
	},
	{
		// A benchmark harness: start_server writes the config with a
		// here-document and runs trtllm-serve in docker (the release
		// image's tag names the version), called at the top and again from
		// bench_one in each case arm: one worker (TestFunctionCallsInRealScripts
		// checks where it says it runs).
		from:    "a user's vLLM vs TensorRT-LLM benchmark harness run_bench.sh (index id 69289142514, repository not named by the index; whole file)",
		files:   []string{"real/user-engine-bench/run_bench.sh"},
		workers: []string{"extra.yml aggregated DISABLED None 1"},
	},
	{
		// Upstream's newer sbatch script holds no worker command: it evals
		// the lines of start_server_cmds.sh that submit.py wrote. It listed
		// start_server_cmds.sh three times (once for its NAME=PATH
		// assignment) and did not say that it evals.
		from:     "NVIDIA/TensorRT-LLM examples/disaggregated/slurm/benchmark/disaggr_torch.slurm @051087cd (whole file)",
		version:  "1.3.0rc5",
		files:    []string{"real/trtllm-benchmark-eval/disaggr_torch.slurm"},
		unplaced: []string{"it runs start_server_cmds.sh (line 133), wait_server.sh (line 152), client_cmds.sh (line 170): give those to audit; it evals commands it does not hold (eval at line 147)"},
	},
	{
		// frontend.type trtllm_serve: srtctl starts each role with
		// trtllm-serve; the custom .sqsh image names no release, so the
		// version is given (the 1.4-era field list has use_cute_dsl_bf16_*).
		from:    "NVIDIA/srt-slurm recipes/trtllm/gr100-fp4/offline-disagg/ctx1_gen2_dep2_dep8_mtp0_trtllm_serve.yaml @05704796 (whole file)",
		version: "1.3.0rc29",
		files:   []string{"real/srt-slurm/dsr1-gr100-ctx1_gen2_dep2_dep8_mtp0_trtllm_serve.yaml"},
		workers: []string{"decode generation ERROR UCX 2", "prefill context ERROR UCX 1"},
	},
	{
		// hf:nvidia/DeepSeek-R1-0528-FP4-v2 is nvidia/DeepSeek-R1-0528-FP4's
		// revision: DeepSeek, no preference before #16908 (08-03), so era 1
		// (1.3.0rc22) stays on C++ over UCX; 4 decode workers.
		from:    "NVIDIA/srt-slurm-recipes recipes/multi-node/DeepSeek-R1/B300/1k1k/trtllm/fp4/stp/ctx1_gen4_tep8_batch1_eplb0_mtp0.yaml @412a3fc1 (whole file)",
		version: "1.3.0rc22",
		files:   []string{"real/srt-slurm/dsr1-b300-ctx1_gen4_tep8_batch1_eplb0_mtp0.yaml"},
		workers: []string{"decode generation CPP UCX 4", "prefill context CPP UCX 1"},
	},
	{
		// An AIBrix StormService: its roles are pod templates whose bash -c
		// scripts write the configs with here-documents (transceiver_runtime:
		// PYTHON). It was "kind StormService is not read", 0 workers. No
		// --trtllm: the image's tag (a TensorRT-LLM mirror), 1.3.0rc8, whose
		// Python transceiver is PyNativeCacheTransceiver; /models/Qwen3-8B is
		// Qwen/Qwen3-8B's directory (inferred).
		from:    "vllm-project/aibrix samples/quickstart/tensorrt/tensor-rt-pd.yaml @0823fb56 (whole file)",
		files:   []string{"real/aibrix-tensor-rt-pd.yaml"},
		workers: []string{"decode generation PYTHON NIXL 1", "prefill context PYTHON NIXL 1"},
	},
	{
		// transceiver_runtime is no field before 1.3.0rc8.
		from:    "same file, 1.3.0rc7",
		version: "1.3.0rc7",
		files:   []string{"real/aibrix-tensor-rt-pd.yaml"},
		workers: []string{"decode generation ERROR None 1", "prefill context ERROR None 1"},
	},
	{
		// A Dynamo performance-sweep config: prefill and decode each a
		// section with num, config, env and unset_env, read as
		// gen_instance_config.py (num) and start_disagg_worker.sh (env,
		// unset_env, dynamo.trtllm --disaggregation-mode on config) read it
		// @15418a78. It was "not a worker config: none of its 2 top-level
		// keys (prefill, decode) is an option", 0 workers.
		from:    "ai-dynamo/dynamo components/backends/trtllm/performance_sweeps/configs/b200/1k1k/stp/ctx1_gen2_dep8_batch128_eplb0_mtp0.yaml @845ccb34 (whole file)",
		version: "1.2.0",
		files:   []string{"real/dynamo-perf-sweep/ctx1_gen2_dep8_batch128_eplb0_mtp0.yaml"},
		workers: []string{"decode generation CPP UCX 2", "prefill context CPP UCX 1"},
	},
	{
		// The sweep's older sbatch script: its configs are written at run
		// time by gen_yaml.py under a path from its arguments; workers run
		// start_disagg_worker.sh inside C-style for loops, with an empty
		// unquoted ${nsys_on} argument that bash drops.
		from:    "ai-dynamo/dynamo components/backends/trtllm/performance_sweeps/benchmark_disagg.slurm @0b6abc82 and scripts/start_disagg_worker.sh @04a60176 (whole files)",
		version: "1.1.0",
		files:   []string{"real/dynamo-perf-sweep/benchmark_disagg.slurm", "real/dynamo-perf-sweep/scripts/start_disagg_worker.sh"},
		unplaced: []string{
			"start_disagg_worker.sh:57 dynamo.trtllm command, run from benchmark_disagg.slurm:172: --extra-engine-args ${PWD}/${16}-bm-${20}-${21}/ctx$1_gen$6_dep$7_batch$8_eplb${12}_mtp${13}/decode_config.yaml: the path is not known: $16 is the script's argument 16",
			"start_disagg_worker.sh:57 dynamo.trtllm command, run from benchmark_disagg.slurm:198: --extra-engine-args ${PWD}/${16}-bm-${20}-${21}/ctx$1_gen$6_dep$7_batch$8_eplb${12}_mtp${13}/prefill_config.yaml",
		},
	},
	{
		// Three decode command lines that differ only in
		// CUDA_VISIBLE_DEVICES, none of the configs writing
		// cache_transceiver_config: Dynamo (main.py and engine.py of that
		// era, read) passes the engine args to LLM as they are, so no
		// transceiver.
		from:    "ai-dynamo/dynamo components/backends/trtllm/launch/orangina_disagg.sh and engine_configs/orangina/{prefill,decode}.yaml @0aa82cbe (whole files, no trailing newlines, as stored)",
		version: "1.0.0",
		files: []string{"real/dynamo-orangina/orangina_disagg.sh", "real/dynamo-orangina/engine_configs/orangina/prefill.yaml",
			"real/dynamo-orangina/engine_configs/orangina/decode.yaml"},
		// The three decode workers, the same but for their devices, are
		// one configuration run three times.
		workers: []string{"decode.yaml generation DISABLED None 3", "prefill.yaml context DISABLED None 1"},
	},
	{
		// Bash arrays on the command line ("${EXTRA_PREFILL_ARGS[@]}");
		// backend: default, 1.0's spelling.
		from:    "ai-dynamo/dynamo components/backends/trtllm/launch/disagg_router.sh @38f0bf04 (whole file, no trailing newline) with engine_configs/{prefill.yaml @f10aab3b, decode.yaml @d537378a} as yuekaizhang/dynamo (a fork) stores them",
		version: "1.0.0",
		files: []string{"real/dynamo-disagg-router/disagg_router.sh", "real/dynamo-disagg-router/engine_configs/prefill.yaml",
			"real/dynamo-disagg-router/engine_configs/decode.yaml"},
		workers: []string{"decode.yaml generation CPP UCX 1", "prefill.yaml context CPP UCX 1"},
	},
	{
		// The same configs under a v1alpha1 DGD whose sh -c runs
		// --extra-engine-args engine_configs/prefill.yaml relative to
		// workingDir; its image's tag names no release.
		from:    "ai-dynamo/dynamo components/backends/trtllm/deploy/disagg_router.yaml @286069fa (whole file, no trailing newline) with the engine configs above",
		version: "1.0.0",
		files: []string{"real/dynamo-disagg-router/disagg_router.yaml", "real/dynamo-disagg-router/engine_configs/prefill.yaml",
			"real/dynamo-disagg-router/engine_configs/decode.yaml"},
		workers: []string{"TRTLLMDecodeWorker generation CPP UCX 1", "TRTLLMPrefillWorker context CPP UCX 2"},
	},
	{
		// Beam search (max_beam_width: 4) on the Python transceiver: not a
		// start-up failure (a context request with beam width > 1 is
		// rejected per request).
		from:    "NVIDIA/TensorRT-LLM examples/disaggregated/simpler_example/run.sh @d49eb94a, {ctx,gen}_config.yaml @583865cc (whole files, as the index stores them)",
		version: "1.3.0rc8",
		files: []string{"real/trtllm-simpler-example/run.sh", "real/trtllm-simpler-example/ctx_config.yaml",
			"real/trtllm-simpler-example/gen_config.yaml"},
		workers:  []string{"ctx_config.yaml context PYTHON NIXL 1", "gen_config.yaml generation PYTHON NIXL 1"},
		unplaced: []string{"run.sh:23 trtllm-serve command: the disaggregated orchestrator (trtllm-serve disaggregated ./disagg_config.yaml)"},
	},
	{
		from:    "NVIDIA/TensorRT-LLM examples/wide_ep/slurm_scripts/kimi-k2-thinking.yaml @33ccc514 (whole file): a submit config, Python transceiver on NIXL in both roles",
		version: "1.3.0rc10",
		files:   []string{"real/trtllm-wide-ep/kimi-k2-thinking.yaml"},
		workers: []string{"worker_config.ctx context PYTHON NIXL 4", "worker_config.gen generation PYTHON NIXL 1"},
	},
	{
		// No --trtllm: the image tensorrtllm-runtime:1.3.1 is Dynamo 1.3.1,
		// which ships TensorRT-LLM 1.3.0rc19 (releases.data.ts): C++ on
		// NIXL. It was xcvr's default, 1.4.0rc4 (Python), the tag unknown.
		from:    "ai-dynamo/dynamo recipes/qwen3-235b-a22b-fp8/trtllm/disagg/hopper/deploy.yaml @04521f47 (whole file): prefill and decode ConfigMaps, a v1alpha1 DGD whose sh -c scripts take --extra-engine-args \"${ENGINE_ARGS}\" from env",
		version: "",
		files:   []string{"real/dynamo-qwen3-235b-disagg-hopper-deploy.yaml"},
		workers: []string{"decode generation CPP NIXL 1", "prefill context CPP NIXL 6"},
	},
	{
		// Aggregated (no --disaggregation-mode), no cache_transceiver_config:
		// off, whatever the release; tensorrtllm-runtime:1.1.1 is 1.3.0rc11.
		from:    "ai-dynamo/dynamo recipes/deepseek-r1/trtllm/agg/b200/deploy.yaml @a843b4d5 (whole file)",
		version: "",
		files:   []string{"real/dynamo-dsr1-agg-b200-deploy.yaml"},
		workers: []string{"TrtllmWorker aggregated DISABLED None 1"},
	},
	{
		// A generated sbatch: functions write the configs with quoted
		// here-documents, six context servers start through start_bg srun
		// ... bash -c "... trtllm-llmapi-launch trtllm-serve serve --port
		// P ...", differing in srun's --nodelist and --output, nsys'
		// --output, CUDA_VISIBLE_DEVICES and the port: one configuration
		// counted 6 (it was six rows of 1). The image is an enroot squashfs
		// named for Dynamo's tensorrtllm-runtime 1.1.0-dev.3 (TensorRT-LLM
		// 1.3.0rc11): UCX, C++.
		from:     "an srt-slurm user's generated sbatch (GLM-5 NVFP4 ctx6dep2_gen1dep32, nsys; index id 54621639231, repository not named by the index; whole file)",
		version:  "1.3.0rc11",
		files:    []string{"real/srt-slurm-sbatch/glm5_ctx6dep2_gen1dep32_nsys.sbatch"},
		workers:  []string{"trtllm_decode.yaml generation CPP UCX 1", "trtllm_prefill.yaml context CPP UCX 6"},
		unplaced: []string{"glm5_ctx6dep2_gen1dep32_nsys.sbatch:379 trtllm-serve command in the function start_bg (line 82): the disaggregated orchestrator (trtllm-serve disaggregated /logs/trtllm_disagg.yaml)"},
	},
	{
		// 1.4.0rc4: Python by default, UCX not pinned to CPP: every server fails.
		from:     "same sbatch, 1.4.0rc4",
		version:  "1.4.0rc4",
		files:    []string{"real/srt-slurm-sbatch/glm5_ctx6dep2_gen1dep32_nsys.sbatch"},
		workers:  []string{"trtllm_decode.yaml generation ERROR UCX 1", "trtllm_prefill.yaml context ERROR UCX 6"},
		unplaced: []string{"the disaggregated orchestrator"},
	},
	{
		// A debugging experiment: a custom model (--custom_module_dirs) whose
		// path xcvr cannot read, so the default model with a note; both
		// configs pin the Python transceiver on NIXL with the V1 KV-cache
		// manager; the orchestrator's urls match the servers' --host/--port.
		from:     "NVIDIA/TensorRT-LLM examples/disaggregated/debug_experiment/{run_bad.sh, ctx_config_bad.yaml, gen_config_bad.yaml, disagg_config.yaml} @d49eb94a (whole files)",
		version:  "1.3.0rc29",
		files:    []string{"real/trtllm-debug-experiment/run_bad.sh", "real/trtllm-debug-experiment/ctx_config_bad.yaml", "real/trtllm-debug-experiment/gen_config_bad.yaml", "real/trtllm-debug-experiment/disagg_config.yaml"},
		workers:  []string{"ctx_config_bad.yaml context PYTHON NIXL 1", "gen_config_bad.yaml generation PYTHON NIXL 1"},
		unplaced: []string{"run_bad.sh:34 trtllm-serve command: the disaggregated orchestrator (trtllm-serve disaggregated $SCRIPT_DIR/disagg_config.yaml)"},
	},
	{
		// A ConfigMap mounted over the image's engine_configs directory,
		// multinode.nodeCount 2; the image (ai-dynamo/trtllm-runtime, not
		// Dynamo's tensorrtllm-runtime) says no release.
		from:     "baladithyab/ai-on-eks (a fork of awslabs/ai-on-eks) blueprints/inference/nvidia-dynamo/04-experimental/multi-node/trtllm-disaggregated-multinode.yaml @1ec2edbd (whole file)",
		version:  "1.2.0rc3",
		files:    []string{"real/eks-trtllm-disaggregated-multinode.yaml"},
		workers:  []string{"decode generation CPP NIXL 1", "prefill context CPP NIXL 1"},
		unplaced: []string{"PersistentVolumeClaim/trtllm-multinode-models: kind PersistentVolumeClaim is not read"},
	},
	{
		// An earlier submit.py config (worker_config.eplb_num_slots beside
		// ctx and gen): DEFAULT is UCX before 1.2.0rc1.
		from:    "NVIDIA/TensorRT-LLM examples/disaggregated/slurm/benchmark/config.yaml @180891e1 (whole file)",
		version: "1.1.0",
		files:   []string{"real/trtllm-submit-eplb/config.yaml"},
		workers: []string{"worker_config.ctx context CPP UCX 1", "worker_config.gen generation CPP UCX 1"},
	},
	{
		// 1.0 takes lower-case backend names only, and has no
		// enable_lm_head_tp_in_adp: both fail validation.
		from:    "same config, 1.0.0",
		version: "1.0.0",
		files:   []string{"real/trtllm-submit-eplb/config.yaml"},
		workers: []string{"worker_config.ctx context ERROR None 1", "worker_config.gen generation ERROR None 1"},
	},
	{
		// Each config path is a function's output
		// (CTX_RUN_CONFIG="$(resolve_config ...)", a sed of configs/*.yaml):
		// not known. It said "the script does not set its variables (they
		// are its caller's environment)", and listed the context line three
		// times (its loop's iterations); now where the variable is set, and
		// once, with how often it ran.
		from:    "a TensorRT-LLM developer's NVBug 6266370 reproduction launcher (3 ctx TP1 + 2 gen TP2, gpt-oss-120b; index id 56664773273, repository not named by the index; whole file)",
		version: "1.3.0rc29",
		files:   []string{"real/trtllm-nvbug-repro/launch_disagg.sh"},
		unplaced: []string{
			"launch_disagg.sh:134 trtllm-serve command: --extra_llm_api_options ${CTX_RUN_CONFIG}: the path is not known: $CTX_RUN_CONFIG is set at real/trtllm-nvbug-repro/launch_disagg.sh:119 from a command's output ($(resolve_config ctx_tp1)), which xcvr does not run",
			"launch_disagg.sh:148 trtllm-serve command: --extra_llm_api_options ${GEN_RUN_CONFIG}: the path is not known: $GEN_RUN_CONFIG is set at real/trtllm-nvbug-repro/launch_disagg.sh:120 from a command's output ($(resolve_config gen_tp2))",
			"the disaggregated orchestrator (trtllm-serve disaggregated ${ROUND_ROOT}/configs/proxy_3ctx2gen.yaml)",
		},
	},
	{
		// trtllm-serve with --server_role and OpenEngine's gRPC options,
		// each beside a Dynamo sidecar; the configs are
		// $DYNAMO_HOME/examples/backends/trtllm/engine_configs/qwen3/.
		from:    "ai-dynamo/dynamo examples/backends/trtllm/launch/openengine_disagg.sh @244cc381 (whole file) with engine_configs/qwen3/{prefill-lora,decode-lora}.yaml (above)",
		version: "1.3.0rc29",
		files:   []string{"real/dynamo-openengine/openengine_disagg.sh", "real/dynamo-openengine/prefill-lora.yaml", "real/dynamo-openengine/decode-lora.yaml"},
		workers: []string{"decode-lora.yaml generation PYTHON NIXL 1", "prefill-lora.yaml context PYTHON NIXL 1"},
	},
	{
		// One GPU, --override-engine-args from a bash array built under an
		// if (a profiler's branch or a token cap), the decode worker with
		// --connector kvbm: the override caps kv_cache_config only.
		from:    "ai-dynamo/dynamo examples/backends/trtllm/launch/disagg_same_gpu_decode_kvbm.sh @8c572972 (whole file) with engine_configs/qwen3/{prefill,decode}.yaml (above)",
		version: "1.3.0rc19",
		files:   []string{"real/dynamo-qwen3/disagg_same_gpu_decode_kvbm.sh", "real/dynamo-qwen3/prefill.yaml", "real/dynamo-qwen3/decode.yaml"},
		workers: []string{"decode.yaml generation CPP NIXL 1", "prefill.yaml context CPP NIXL 1"},
	},
	{
		// v1beta1: the engine configs are the image's own
		// (./examples/backends/trtllm/engine_configs/qwen3/, relative to
		// workingDir /workspace/), given here; tensorrtllm-runtime:1.3.1 is
		// 1.3.0rc19: DEFAULT is NIXL, C++ (no runtime default yet).
		from:    "ai-dynamo/dynamo examples/backends/trtllm/deploy/v1beta1/disagg.yaml @04521f47 (whole file) with engine_configs/qwen3/{prefill,decode}.yaml (above)",
		version: "",
		files:   []string{"real/dynamo-v1beta1-disagg.yaml", "real/dynamo-qwen3/prefill.yaml", "real/dynamo-qwen3/decode.yaml"},
		workers: []string{"decode generation CPP NIXL 1", "prefill context CPP NIXL 1"},
	},
	{
		// Alone: two workers found, neither resolved (audit exits 1:
		// TestAuditUnresolvedWorkers).
		from:    "same DGD without its engine configs",
		version: "1.3.0rc19",
		files:   []string{"real/dynamo-v1beta1-disagg.yaml"},
		unplaced: []string{
			"dynamo-v1beta1-disagg.yaml:24 DynamoGraphDeployment/trtllm-disagg component decode container main: --extra-engine-args ./examples/backends/trtllm/engine_configs/qwen3/decode.yaml: no volume is mounted at /workspace/examples/backends/trtllm/engine_configs/qwen3/decode.yaml (workingDir /workspace/); the file is the image's own, not in the set",
			"dynamo-v1beta1-disagg.yaml:52 DynamoGraphDeployment/trtllm-disagg component prefill container main: --extra-engine-args ./examples/backends/trtllm/engine_configs/qwen3/prefill.yaml",
		},
	},
	{
		// The ConfigMap is mounted over /workspace/ and the path is relative
		// to workingDir /workspace/examples/backends/trtllm: dynamo.trtllm
		// looks for /workspace/examples/backends/trtllm/examples/backends/
		// trtllm/engine_configs/qwen3/agg.yaml, which the mount (holding
		// agg.yaml only) does not have. Upstream's example does not start.
		from:     "ai-dynamo/dynamo examples/backends/trtllm/deploy/agg-with-config.yaml @04521f47 (whole file)",
		version:  "1.3.0rc19",
		files:    []string{"real/dynamo-agg-with-config.yaml"},
		unplaced: []string{"service TRTLLMWorker: --extra-engine-args ./examples/backends/trtllm/engine_configs/qwen3/agg.yaml: ConfigMap nvidia-config (mounted at /workspace) has no key examples/backends/trtllm/examples/backends/trtllm/engine_configs/qwen3/agg.yaml (it has agg.yaml)"},
	},
	{
		// The blueprint's ConfigMaps hold decode.yaml and prefill.yaml, but
		// the DGD mounts none: dynamo.trtllm reads the image's own
		// engine_configs/*.yaml (workingDir /workspace/components/backends/
		// trtllm). Each worker says which ConfigMap it does not read.
		from:    "sjm446/ai-on-eks (a fork of awslabs/ai-on-eks) blueprints/inference/nvidia-dynamo/trtllm-disagg/{trtllm-disagg.yaml @1a7867a0, configmaps/trtllm-{decode,prefill}-config.yaml @60d561f5} (whole files)",
		version: "1.0.0",
		files:   []string{"real/eks-trtllm-disagg/trtllm-disagg.yaml", "real/eks-trtllm-disagg/configmaps/trtllm-decode-config.yaml", "real/eks-trtllm-disagg/configmaps/trtllm-prefill-config.yaml"},
		unplaced: []string{
			"service TRTLLMDecodeWorker: --extra-engine-args engine_configs/decode.yaml: no volume is mounted at /workspace/components/backends/trtllm/engine_configs/decode.yaml (workingDir /workspace/components/backends/trtllm); the file is the image's own, not in the set; ConfigMap trtllm-decode-config (real/eks-trtllm-disagg/configmaps/trtllm-decode-config.yaml:7) of the set holds a key decode.yaml, but the pod mounts no ConfigMap at that path: the worker reads the image's file, not the ConfigMap's (mount it there to use it)",
			"service TRTLLMPrefillWorker: --extra-engine-args engine_configs/prefill.yaml: no volume is mounted at /workspace/components/backends/trtllm/engine_configs/prefill.yaml (workingDir /workspace/components/backends/trtllm); the file is the image's own, not in the set; ConfigMap trtllm-prefill-config (real/eks-trtllm-disagg/configmaps/trtllm-prefill-config.yaml:7)",
		},
	},
	{
		// Service discovery (disagg_cluster, no urls): each section still
		// names its worker's cache_transceiver_config; the top-level
		// free_gpu_memory_fraction is get_llm_args' own parameter.
		from:    "NVIDIA/TensorRT-LLM examples/disaggregated/disagg_config_sd.yaml @b334655d (whole file)",
		version: "1.2.0",
		files:   []string{"real/trtllm-disagg-sd/disagg_config_sd.yaml"},
		workers: []string{"context_servers context CPP NIXL 1", "generation_servers generation CPP NIXL 1"},
	},
	{
		from:    "same file, 1.3.0rc29",
		version: "1.3.0rc29",
		files:   []string{"real/trtllm-disagg-sd/disagg_config_sd.yaml"},
		workers: []string{"context_servers context PYTHON NIXL 1", "generation_servers generation PYTHON NIXL 1"},
	},
	{
		// Two-model Eagle3 (eagle3_one_model: false) in both roles,
		// backend: default, 1.0's spelling.
		from:    "ai-dynamo/dynamo components/backends/trtllm/engine_configs/llama4/eagle/{eagle_prefill,eagle_decode}.yaml @59d46422 (whole files but their licence headers)",
		version: "1.0.0",
		files:   []string{"real/dynamo-llama4-eagle/eagle_prefill.yaml", "real/dynamo-llama4-eagle/eagle_decode.yaml"},
		workers: []string{"eagle_decode.yaml generation CPP UCX 1", "eagle_prefill.yaml context CPP UCX 1"},
	},
	{
		from:    "same files, 1.2.0 (upper-case names only)",
		version: "1.2.0",
		files:   []string{"real/dynamo-llama4-eagle/eagle_prefill.yaml", "real/dynamo-llama4-eagle/eagle_decode.yaml"},
		workers: []string{"eagle_decode.yaml generation ERROR None 1", "eagle_prefill.yaml context ERROR None 1"},
	},
	{
		// Here-documents write ctx.yml, gen.yml and the orchestrator's
		// config; backend: ucx is 1.0's spelling.
		from:     "a TensorRT-LLM developer's NVBug 5387694 script (index id 26142035176, repository not named by the index; whole file)",
		version:  "1.0.0",
		files:    []string{"real/user-nvbug5387694/launch.sh"},
		workers:  []string{"ctx.yml context CPP UCX 1", "gen.yml generation CPP UCX 1"},
		unplaced: []string{"launch.sh:77 trtllm-serve command: the disaggregated orchestrator (trtllm-serve disaggregated disagg-config.yml)"},
	},
	{
		// 1.2 refuses ucx; the fix respells it (TestFixRespellsBackend).
		from:     "same script, 1.2.0",
		version:  "1.2.0",
		files:    []string{"real/user-nvbug5387694/launch.sh"},
		workers:  []string{"ctx.yml context ERROR None 1", "gen.yml generation ERROR None 1"},
		unplaced: []string{"launch.sh:77 trtllm-serve command: the disaggregated orchestrator (trtllm-serve disaggregated disagg-config.yml)"},
	},
	{
		// gen_yaml.py's real output: per-section free_gpu_memory_fraction,
		// moe_config, stream_interval, MTP in both roles, backend: default.
		from:    "NVIDIA/TensorRT-LLM examples/disaggregated/slurm/benchmark/gen_yaml.py @21b13bd0, its output (see the file's header)",
		version: "1.0.0",
		files:   []string{"real/trtllm-genyaml-bench/config.yaml"},
		workers: []string{"context_servers context CPP UCX 1", "generation_servers generation CPP UCX 1"},
	},
	{
		from:    "same output, 1.1.0",
		version: "1.1.0",
		files:   []string{"real/trtllm-genyaml-bench/config.yaml"},
		workers: []string{"context_servers context ERROR None 1", "generation_servers generation ERROR None 1"},
	},
	{
		// No extra config, no TRTLLM_USE_*_KVCACHE: every server is off,
		// as the blog's block is written (its era's README exported
		// TRTLLM_USE_UCX_KVCACHE=1; the blog leaves it out).
		from:     "NVIDIA/TensorRT-LLM docs/source/blogs/tech_blog/blog5_Disaggregated_Serving_in_TensorRT-LLM.md, a stored version (index id 1122254015): its launch and disagg_config.yaml blocks",
		version:  "1.0.0",
		files:    []string{"real/trtllm-blog5/launch.sh", "real/trtllm-blog5/disagg_config.yaml"},
		workers:  []string{"trtllm-serve (launch.sh:8) generation DISABLED None 2", "trtllm-serve context DISABLED None 2"},
		unplaced: []string{"launch.sh:12 trtllm-serve command: the disaggregated orchestrator (trtllm-serve disaggregated disagg_config.yaml)"},
	},
	{
		// Dynamo 0.4's DGD: --disaggregation-strategy decode_first, a
		// `| tee` after the worker, engine configs inside the image (given
		// here as the same era's engine_configs).
		from:    "ai-dynamo/dynamo components/backends/trtllm/deploy/disagg.yaml @286069fa (whole file) with engine_configs/{prefill,decode}.yaml (above)",
		version: "1.0.0",
		files:   []string{"real/dynamo-disagg-decode-first/disagg.yaml", "real/dynamo-disagg-router/engine_configs/prefill.yaml", "real/dynamo-disagg-router/engine_configs/decode.yaml"},
		workers: []string{"TRTLLMDecodeWorker generation CPP UCX 1", "TRTLLMPrefillWorker context CPP UCX 1"},
	},
	{
		// One block per node, both naming extra-llm-api-config.yml, which
		// is not public: both found, neither resolved.
		from:    "a TensorRT-LLM developer's two-node notes (index id 17777296703, repository not named by the index; whole file)",
		version: "1.0.0",
		files:   []string{"real/user-smc-multinode/run.sh"},
		unplaced: []string{"run.sh:10 trtllm-serve command: --extra_llm_api_options extra-llm-api-config.yml: not in the set",
			"run.sh:13 trtllm-serve command: the disaggregated orchestrator (trtllm-serve disaggregated disagg_config_multinode.yml)",
			"run.sh:32 trtllm-serve command: --extra_llm_api_options extra-llm-api-config.yml: not in the set"},
	},
	{
		// A gen-only benchmark config: context_servers num_instances: 0
		// starts no context server (TestDisaggZeroInstances).
		from:     "NVIDIA/TensorRT-LLM tests/integration/defs/disaggregated/test_configs/disagg_config_gen_only.yaml @069b06f7 (whole file)",
		version:  "1.2.0",
		files:    []string{"real/trtllm-test-configs/disagg_config_gen_only.yaml"},
		workers:  []string{"generation_servers generation CPP NIXL 2"},
		unplaced: []string{"context_servers: num_instances: 0"},
	},
	{
		// conditional_disagg_config is the orchestrator's: not a worker key.
		from:    "NVIDIA/TensorRT-LLM tests/integration/defs/disaggregated/test_configs/disagg_config_conditional.yaml @000a01de (whole file)",
		version: "1.0.0",
		files:   []string{"real/trtllm-test-configs/disagg_config_conditional.yaml"},
		workers: []string{"context_servers context CPP UCX 1", "generation_servers generation CPP UCX 1"},
	},
	{
		// backend: MPI in both sections (MPI is deprecated, still taken).
		from:    "NVIDIA/TensorRT-LLM tests/integration/defs/disaggregated/test_configs/disagg_config_ctxtp2_gentp2_deepseek_v3_lite_mpi.yaml @171b71d4 (whole file)",
		version: "1.2.0",
		files:   []string{"real/trtllm-test-configs/disagg_config_ctxtp2_gentp2_deepseek_v3_lite_mpi.yaml"},
		workers: []string{"context_servers context CPP MPI 1", "generation_servers generation CPP MPI 1"},
	},
	{
		// cuda_graph_config.padding_enabled (renamed enable_padding) is an
		// extra input from 1.0.0rc4: the decode config cannot start.
		from:    "ai-dynamo/dynamo components/backends/trtllm/engine_configs/llama4/eagle_one_model/eagle_decode.yaml @3cfea14e (whole file but its licence header)",
		version: "1.0.0",
		files:   []string{"real/dynamo-llama4-eagle/eagle_one_model_decode.yaml"},
		workers: []string{"eagle_one_model_decode.yaml generation ERROR None 1"},
	},
}

func TestRealDeployments(t *testing.T) {
	for _, c := range realCases {
		t.Run(strings.Join(c.files, "+")+"@"+c.version, func(t *testing.T) {
			var r *Report
			if c.version == "" {
				// No --trtllm: the workers' images say, else xcvr's default.
				r = Resolve(readSet(t, c.files...), Options{Base: inputs.Defaults(), Catalog: models.Builtin()})
			} else {
				r = audit(t, c.version, c.files...)
			}
			var got []string
			for _, e := range r.Entries {
				outcome := string(e.Trace.Result.Outcome)
				if e.Err != "" {
					outcome = "ERROR"
				}
				got = append(got, fmt.Sprintf("%s %s %s %s %d", e.Worker.Name, e.Worker.Role, outcome, e.Trace.Result.EffectiveBackend, e.Worker.Count))
			}
			sort.Strings(got)
			if strings.Join(got, "\n") != strings.Join(c.workers, "\n") {
				t.Errorf("%s\nworkers:\n%s\nwant:\n%s", c.from, strings.Join(got, "\n"), strings.Join(c.workers, "\n"))
			}
			if len(r.Set.Unplaced) != len(c.unplaced) {
				t.Fatalf("%s\nunplaced %+v, want %q", c.from, r.Set.Unplaced, c.unplaced)
			}
			for i, u := range r.Set.Unplaced {
				if s := u.Source.String() + ": " + u.Why; !strings.Contains(s, c.unplaced[i]) {
					t.Errorf("unplaced %d: %s\nwant it to hold %q", i, s, c.unplaced[i])
				}
			}
		})
	}
}

// The script's lines are the origins: the here-document's key, the
// variable a command inherits.
func TestShellScriptOrigins(t *testing.T) {
	r := audit(t, "1.2.0", "real/trtllm-service-discovery-launch.slurm")
	ctx := entry(t, r, "ctx_config.yaml")
	if o := ctx.Trace.Inputs.Backend.Origin.Detail; o != "real/trtllm-service-discovery-launch.slurm:44 (here-document ${work_path:-}/ctx_config.yaml, ctx_config.yaml:3)" {
		t.Errorf("backend origin %q", o)
	}
	if ctx.Worker.RoleFrom != "--server-role context" || ctx.Worker.Model != "TinyLlama/TinyLlama-1.1B-Chat-v1.0" {
		t.Errorf("role from %q, model %q", ctx.Worker.RoleFrom, ctx.Worker.Model)
	}
	if !strings.HasPrefix(ctx.Err, "trtllm-serve refuses its command line (Error: No such option: --server-role): its option is --server_role") {
		t.Errorf("err %q", ctx.Err)
	}
	if !strings.Contains(r.Text(), "\nDeployment: ✗ no context or generation worker starts; nothing exchanges KV cache.\n") {
		t.Errorf("no Deployment line:\n%s", r.Text())
	}
	// The command line is the whole fix: the configs start and agree.
	if !r.commandOnly() || len(r.Fix) != 0 || !strings.Contains(r.Text(), "Fix: the command line of every failing worker, as its error says; the config files need no change.") {
		t.Errorf("fix %+v", r.Fix)
	}
}

// What a script exports reaches the workers it starts after; a command's own
// NAME=VALUE words win; a variable set under a condition is taken and said so.
func TestShellScriptEnvironment(t *testing.T) {
	script := `#!/bin/bash
export TRTLLM_USE_UCX_KVCACHE=1
CFG_DIR=/cfg
NOT_EXPORTED=1
if [ -n "$X" ]; then
  export TRTLLM_USE_NIXL_KVCACHE=0
fi
cat > $CFG_DIR/prefill.yaml <<'EOF'
cache_transceiver_config:
  backend: DEFAULT
EOF
TRTLLM_USE_UCX_KVCACHE=0 python3 -m dynamo.trtllm --model-path m --extra-engine-args "$CFG_DIR/prefill.yaml" --disaggregation-mode prefill &
unset TRTLLM_USE_UCX_KVCACHE
trtllm-serve m --config "${CFG_DIR}/prefill.yaml" --server_role GENERATION
`
	set, err := Read([]Input{{Name: "run.sh", Data: []byte(script)}})
	if err != nil {
		t.Fatal(err)
	}
	if len(set.Workers) != 2 {
		t.Fatalf("workers %+v unplaced %+v", set.Workers, set.Unplaced)
	}
	p, g := set.Workers[0], set.Workers[1]
	env := func(w *Worker) string {
		var s []string
		for _, e := range w.Env {
			s = append(s, e.Name+"="+e.Value+"@"+e.Origin)
		}
		return strings.Join(s, " ")
	}
	if got := env(p); got != "TRTLLM_USE_UCX_KVCACHE=0@run.sh:12 (command line) TRTLLM_USE_NIXL_KVCACHE=0@run.sh:6" {
		t.Errorf("prefill env %s", got)
	}
	if got := env(g); got != "TRTLLM_USE_NIXL_KVCACHE=0@run.sh:6" {
		t.Errorf("generation env %s", got)
	}
	if p.Role != RoleContext || g.Role != RoleGeneration || p.Config != "here-document /cfg/prefill.yaml (run.sh:8)" {
		t.Errorf("roles %s %s, config %q", p.Role, g.Role, p.Config)
	}
	if !strings.Contains(strings.Join(p.Notes, "\n"), "TRTLLM_USE_NIXL_KVCACHE=0 is set under the condition at run.sh:5") {
		t.Errorf("notes %q", p.Notes)
	}
}

// Hostile scripts: an unterminated quote or here-document, a variable
// doubled until it would not fit in memory, nothing that looks like a
// command. Read never panics and expansion stays bounded.
func TestShellScriptHostile(t *testing.T) {
	var bomb strings.Builder
	bomb.WriteString("#!/bin/sh\nA=xxxxxxxxxxxxxxxx\n")
	for i := 0; i < 64; i++ {
		bomb.WriteString("A=$A$A\n")
	}
	bomb.WriteString("trtllm-serve m --config $A/c.yaml\n")
	for _, s := range []string{
		bomb.String(),
		"#!/bin/sh\ntrtllm-serve m --config \"unterminated\n",
		"#!/bin/sh\ncat > x.yaml <<EOF\nno end\n",
		"#!/bin/sh\n${\n$\n\\",
		"#!/bin/sh\nfi\ndone\n}\ntrtllm-serve",
		"#!/bin/sh\ncat <<EOF > c.yaml\n: [\nEOF\ntrtllm-serve m --config c.yaml\n",
	} {
		set, err := Read([]Input{{Name: "x.sh", Data: []byte(s)}})
		if err != nil {
			t.Fatal(err)
		}
		for _, u := range set.Unplaced {
			if len(u.Why) > 4096 {
				t.Errorf("unplaced reason of %d bytes", len(u.Why))
			}
		}
	}
	// The bad here-document is named with the script's line.
	set, _ := Read([]Input{{Name: "x.sh", Data: []byte("#!/bin/sh\ncat <<EOF > c.yaml\n: [\nEOF\ntrtllm-serve m --config c.yaml\n")}})
	if len(set.Unplaced) != 1 || !strings.Contains(set.Unplaced[0].Why, "here-document c.yaml (x.sh:2), body from line 3: ") {
		t.Errorf("unplaced %+v", set.Unplaced)
	}
}

func TestShellNames(t *testing.T) {
	for s, want := range map[string]bool{"A": true, "_x1": true, "TRACE_ARGS=": false, "1A": false, "": false, "A-B": false, "f()": false} {
		if isShellName(s) != want {
			t.Errorf("isShellName(%q) = %v", s, !want)
		}
	}
	// An array assignment is not a function definition.
	set, _ := Read([]Input{{Name: "a.sh", Data: []byte("#!/bin/sh\nTRACE_ARGS=()\ntrtllm-serve m --config c.yaml\n")}})
	for _, u := range set.Unplaced {
		if strings.Contains(u.Why, "function") {
			t.Errorf("unplaced %+v", u)
		}
	}
	for _, w := range set.Workers {
		if strings.Contains(strings.Join(w.Notes, " "), "function") {
			t.Errorf("notes %q", w.Notes)
		}
	}
}

func TestShellExpand(t *testing.T) {
	v := newShellVars()
	v.val["A"], v.val["E"] = "/a", ""
	for in, want := range map[string]string{
		`$A/x`:                   `/a/x`,
		`${A}/x`:                 `/a/x`,
		`'$A'`:                   `'$A'`,
		`"$A"`:                   `"/a"`,
		`${B:-"$A/d"}`:           `"/a/d"`,
		`${B:-}`:                 `${B:-}`,
		`${E:-x}`:                `x`,
		`${E-x}`:                 ``,
		`$1 ${2} $(hostname) $B`: `$1 ${2} $(hostname) $B`,
		`${A:+y}`:                `${A:+y}`,
		`\$A`:                    `\$A`,
	} {
		if got := v.expand(in); got != want {
			t.Errorf("expand(%q) = %q, want %q", in, got, want)
		}
	}
}

var _ = resolver.OutcomeCPP

// Expansion against bash itself, on the words a launch line is made of: the
// variables xcvr knows are bash's; the words it leaves alone are compared
// only where bash would also leave them (no $1, $(...), unset names).
func TestShellExpandMatchesBash(t *testing.T) {
	sh, err := exec.LookPath("bash")
	if err != nil {
		t.Skip("no bash")
	}
	pre := "DYNAMO_HOME=${DYNAMO_HOME:-\"/workspace\"}\nE=\nP=$DYNAMO_HOME/x/prefill.yaml\n"
	lines := []string{
		`--extra-engine-args "$P"`,
		`--config ${DYNAMO_HOME}/c.yaml`,
		`${E:-"$DYNAMO_HOME/d"} ${E-none}`,
		`'$P' "$P" \$P`,
		`${NOT_SET:-"default value"}`,
		`a${P}b"${P}"'c'`,
	}
	v := newShellVars()
	for _, cmd := range splitScript(pre) {
		k, val, _ := strings.Cut(shellWords(v.expand(cmd.text))[0], "=")
		v.val[k] = val
	}
	for _, l := range lines {
		out, err := exec.Command(sh, "--norc", "--noprofile", "-c", "unset DYNAMO_HOME NOT_SET\n"+pre+"printf '%s\\n' "+l).Output()
		if err != nil {
			t.Fatal(err)
		}
		want := strings.Split(strings.TrimSuffix(string(out), "\n"), "\n")
		if got := shellWords(v.expand(l)); !reflect.DeepEqual(got, want) {
			t.Errorf("%s: xcvr %q, bash %q", l, got, want)
		}
	}
}

// FuzzShellScript: any script is read without a panic.
func FuzzShellScript(f *testing.F) {
	for _, s := range []string{
		"#!/bin/sh\nA=${B:-\"$C\"}\ncat > $A/c.yaml <<-'EOF'\n\tx: 1\n\tEOF\nsrun bash -c \"trtllm-serve m --config $A/c.yaml\" &\n",
		"if x; then\nfunction f {\npython3 -m dynamo.trtllm --extra-engine-args ${1}\n}\nfi\n",
		"${${${\n'\"\\\n<<<<EOF\n",
		"f() {\n  f \"$@\" $1$1\n  trtllm-serve m --config ${3:-c.yaml} &\n}\nf a b\n",
		"g() { shift 9; trtllm-serve \"$@\" & }\ng x\np=$(g $(g)) ; h() {\n}\n}\nh\nfunction k\n{\nlocal -g A=1 B\n}\nk\n",
		"N=2\nfor i in $(seq 0 $((N-1))); do for r in ctx gen\ndo\nf() { trtllm-serve m --port $((8001+i)) --config ${r}$i.yaml --server_role ${r^^} & }; f; done; done &\nfor x in {1..9999} $(ls); do done\nfor; for y in\n",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if _, err := Read([]Input{{Name: "f.sh", Data: []byte(s)}}); err != nil {
			t.Skip()
		}
	})
}

// A here-document in a container's script: its keys' lines are the
// manifest's own.
func TestContainerScriptHeredocLines(t *testing.T) {
	r := audit(t, "1.0.0", "real/ai-on-eks-trtllm-disaggregated-default.yaml")
	d := entry(t, r, "TRTLLMDecodeWorker")
	if o := d.Trace.Inputs.Backend.Origin.Detail; o != "real/ai-on-eks-trtllm-disaggregated-default.yaml:119 (here-document /tmp/engine_configs/decode.yaml, decode.yaml:18)" {
		t.Errorf("backend origin %q", o)
	}
	if d.Worker.Config != "here-document /tmp/engine_configs/decode.yaml in the container's script (real/ai-on-eks-trtllm-disaggregated-default.yaml:101)" {
		t.Errorf("config %q", d.Worker.Config)
	}
}

// A compose service whose bash -c script writes its config.
func TestComposeScriptHeredoc(t *testing.T) {
	compose := `services:
  prefill:
    image: trtllm
    command:
      - bash
      - -c
      - |
        cat > /cfg/p.yaml <<EOF
        cache_transceiver_config:
          backend: UCX
        EOF
        trtllm-serve m --config /cfg/p.yaml --server_role CONTEXT
`
	set, err := Read([]Input{{Name: "docker-compose.yml", Data: []byte(compose)}})
	if err != nil {
		t.Fatal(err)
	}
	if len(set.Workers) != 1 || !strings.HasPrefix(set.Workers[0].Config, "here-document /cfg/p.yaml") {
		t.Fatalf("workers %+v unplaced %+v", set.Workers, set.Unplaced)
	}
}

// A script of the set run by another (srun ... start_trtllm_worker.sh) is
// read as the caller runs it: the callee's workers name both places, take
// the command's NAME=VALUE words and say the caller's loop.
func TestScriptRunsScript(t *testing.T) {
	r := audit(t, "1.0.0", "real/dynamo-multinode/srun_disaggregated.sh", "real/dynamo-multinode/start_trtllm_worker.sh",
		"real/dynamo-multinode/engine_configs/deepseek_r1/wide_ep/wide_ep_prefill.yaml", "real/dynamo-multinode/engine_configs/deepseek_r1/wide_ep/wide_ep_decode.yaml")
	p := entry(t, r, "wide_ep_prefill.yaml")
	if p.Worker.RoleFrom != "--disaggregation-mode prefill" || p.Worker.Source.String() != "real/dynamo-multinode/start_trtllm_worker.sh:41 dynamo.trtllm command, run from srun_disaggregated.sh:66" {
		t.Errorf("role from %q, source %s", p.Worker.RoleFrom, p.Worker.Source)
	}
	if v := p.Trace.Inputs.Env["TRTLLM_USE_UCX_KVCACHE"]; v.Value != "1" || v.Origin.Detail != "real/dynamo-multinode/start_trtllm_worker.sh:29" {
		t.Errorf("env %+v", p.Trace.Inputs.Env)
	}
	notes := strings.Join(p.Worker.Notes, "\n")
	if !strings.Contains(notes, "the command that runs it is inside the for loop at real/dynamo-multinode/srun_disaggregated.sh:64: how many run is the loop's") {
		t.Errorf("notes %q", notes)
	}
	// Neither worker has a transceiver; the fix writes the section in
	// 1.0's spelling.
	if len(r.Fix) != 2 || r.Fix[0].YAML != "cache_transceiver_config:\n  backend: nixl\n" {
		t.Errorf("fix %+v", r.Fix)
	}
	// Arguments: start_worker.sh's config is its 11th, as the commands
	// gen_start_worker_cmds.py writes (one such line, made here from that
	// script's format) pass it.
	caller := "srun -l --nodelist n0 -N 1 --ntasks 4 --ntasks-per-node 4 --container-image img --container-name disaggr-test --container-mounts /m:/m --mpi pmix --overlap bash /w/start_worker.sh CTX 0 /models/ds 8001 e2e 1 false /logs false 10-30 /logs/ctx_config.yaml \"TRTLLM_X=1 CUDA_VISIBLE_DEVICES=0,1,2,3\" &> /logs/output_CTX_0.log &\n"
	data, err := os.ReadFile("testdata/real/trtllm-benchmark/start_worker.sh")
	if err != nil {
		t.Fatal(err)
	}
	set, err := Read([]Input{{Name: "start_server_cmds.sh", Data: []byte(caller)}, {Name: "start_worker.sh", Data: data},
		{Name: "ctx_config.yaml", Data: []byte("cache_transceiver_config:\n  backend: UCX\n")}})
	if err != nil {
		t.Fatal(err)
	}
	// Its 10th argument, enable_nsys, is 10-30: bash runs the if's first
	// branch (line 60, [ "${enable_nsys}" != "true" ]), not the nsys one
	// (line 74).
	if len(set.Workers) != 1 || set.Workers[0].Config != "ctx_config.yaml (matched by its path /logs/ctx_config.yaml)" || set.Workers[0].Role != RoleContext || set.Workers[0].Model != "/models/ds" || set.Workers[0].Source.Line != 60 {
		for _, w := range set.Workers {
			t.Logf("%+v", w)
		}
		t.Errorf("workers %d, unplaced %+v", len(set.Workers), set.Unplaced)
	}
}

// The model a worker serves from a path is inferred from its
// --served-model-name when that is a Hugging Face id xcvr knows, and said so.
func TestServedModelName(t *testing.T) {
	r := audit(t, "main@2026-07-25", "real/dynamo-dsr1-wideep-gb200-deploy.yaml")
	p := entry(t, r, "prefill")
	if m := p.Trace.Inputs.Model; m.Value.Arch != "DeepseekV3ForCausalLM" || !strings.HasSuffix(m.Origin.Detail, "(command line), inferred from --served-model-name deepseek-ai/DeepSeek-R1") {
		t.Errorf("model %+v", m)
	}
	if !strings.Contains(strings.Join(p.Notes, "\n"), "its --served-model-name deepseek-ai/DeepSeek-R1 is one xcvr knows: using DeepseekV3ForCausalLM, inferred") {
		t.Errorf("notes %q", p.Notes)
	}
}

func TestHeredocOps(t *testing.T) {
	for in, want := range map[string]string{
		`cat > a.yaml <<EOF`:             "EOF",
		`cat <<-'END' > a.yaml`:          "END-q-strip",
		`cat << "X1" >a`:                 "X1-q",
		`bash -c 'cat > b <<EOF'`:        "",
		`grep x <<< "$s"`:                "",
		`echo "<<EOF" && cat <<EOF2 > c`: "EOF2",
		`cat > a <<EOF; cat > b <<'EOG'`: "EOF,EOG-q",
	} {
		var got []string
		for _, op := range heredocOps(in) {
			g := op.delim
			if op.quoted {
				g += "-q"
			}
			if op.strip {
				g += "-strip"
			}
			got = append(got, g)
		}
		if strings.Join(got, ",") != want {
			t.Errorf("heredocOps(%q) = %q, want %q", in, got, want)
		}
	}
}

// docker run's bind mounts map the container's config path to the
// script's files: a here-document written to $PWD/ctx.yaml, a file of the
// set under --mount's source.
func TestDockerRunMounts(t *testing.T) {
	script := `#!/bin/bash
cat > ctx.yaml <<Y
cache_transceiver_config:
  backend: UCX
Y
docker run --rm --gpus all -v ~/.cache/huggingface:/root/.cache/huggingface -v $PWD/ctx.yaml:/ctx.yaml \
  nvcr.io/nvidia/tensorrt-llm/release:1.3.0rc13 \
  trtllm-serve serve Qwen/Qwen3-8B --extra_llm_api_options /ctx.yaml --server_role CONTEXT
docker run -d --mount type=bind,source=/srv/cfg,target=/cfg img trtllm-serve m --config /cfg/gen.yaml --server_role GENERATION
`
	set, err := Read([]Input{{Name: "run.sh", Data: []byte(script)}, {Name: "gen.yaml", Data: []byte("cache_transceiver_config:\n  backend: UCX\n")}})
	if err != nil {
		t.Fatal(err)
	}
	if len(set.Workers) != 2 {
		t.Fatalf("workers %+v unplaced %+v", set.Workers, set.Unplaced)
	}
	if c := set.Workers[0].Config; c != "here-document ctx.yaml (run.sh:2), bind-mounted from $PWD/ctx.yaml at /ctx.yaml (run.sh:6)" {
		t.Errorf("ctx config %q", c)
	}
	if c := set.Workers[1].Config; c != "gen.yaml (matched by its path /srv/cfg/gen.yaml), bind-mounted from /srv/cfg at /cfg (run.sh:9)" {
		t.Errorf("gen config %q", c)
	}
}

// A Helm chart's template and values are said to be so, and the rest of the
// set is read: a template stopped the whole audit (exit 2), the values file
// was a worker that fails TorchLlmArgs.
func TestHelmChartFiles(t *testing.T) {
	tpl := "{{- if eq .Values.inference.framework \"lws-trtllm\" }}\napiVersion: leaderworkerset.x-k8s.io/v1\nkind: LeaderWorkerSet\nmetadata:\n  name: {{.Values.inference.serviceName}}\n{{- end }}\n"
	set, err := Read([]Input{
		{Name: "templates/lws.yaml", Data: []byte(tpl)},
		{Name: "values.yaml", Data: []byte("inference:\n  framework: lws-trtllm\nmodel: x\n")},
		{Name: "ctx.yaml", Data: []byte("cache_transceiver_config:\n  backend: UCX\n")},
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(set.Workers) != 1 || len(set.Unplaced) != 2 {
		t.Fatalf("workers %+v unplaced %+v", set.Workers, set.Unplaced)
	}
	if u := set.Unplaced[0]; u.Source.String() != "templates/lws.yaml:1" || !strings.HasPrefix(u.Why, "a template ({{ ... }}), not YAML until it is rendered: helm template CHART -f VALUES | xcvr audit - (") {
		t.Errorf("template %s: %s", u.Source, u.Why)
	}
	if u := set.Unplaced[1]; !strings.HasPrefix(u.Why, "a Helm chart's values (its key inference is no TensorRT-LLM option)") {
		t.Errorf("values %s: %s", u.Source, u.Why)
	}
	// A broken YAML with no template action is still an error naming FILE:LINE.
	if _, err := Read([]Input{{Name: "bad.yaml", Data: []byte("a: [\n")}}); err == nil || !strings.Contains(err.Error(), "bad.yaml") {
		t.Errorf("bad YAML: %v", err)
	}
}

// Memory and work stay bounded: many here-documents each expanding a large
// variable, a script whose every line runs another of the set.
func TestShellScriptBounds(t *testing.T) {
	var b strings.Builder
	b.WriteString("#!/bin/sh\nA=" + strings.Repeat("x", 60000) + "\n")
	for i := 0; i < 3000; i++ {
		b.WriteString("cat > f.yaml <<EOF\n$A$A$A$A\nEOF\n")
	}
	r := &reader{set: &Set{}, plain: map[string]*plainFile{}, expandLeft: maxExpandTotal}
	r.scripts = []scriptFile{{"bomb.sh", []byte(b.String())}}
	r.readScripts()
	if r.expandLeft > 0 {
		t.Fatalf("expansion budget not reached (%d left): the test does not test it", r.expandLeft)
	}
	if r.expandLeft < -maxShellExpand-300000 {
		t.Errorf("expansion went %d past its budget", -r.expandLeft)
	}
	// caller.sh runs callee.sh on each of its lines.
	callee := "#!/bin/sh\n" + strings.Repeat("# padding line\n", 70000) + "trtllm-serve m --config c.yaml\n"
	caller := "#!/bin/sh\n" + strings.Repeat("bash callee.sh\n", 400)
	set, err := Read([]Input{{Name: "caller.sh", Data: []byte(caller)}, {Name: "callee.sh", Data: []byte(callee)}})
	if err != nil {
		t.Fatal(err)
	}
	if w := strings.Join(set.Warnings, "\n"); !strings.Contains(w, "the calls after this one were not followed") {
		t.Errorf("warnings %q", w)
	}
}

// trtllm-serve's own spellings are taken; the hyphenated ones it does not
// declare are refused; Dynamo's hyphenated flags are its own.
func TestRefusedOptions(t *testing.T) {
	for _, c := range []struct {
		words   []string
		refused bool
	}{
		{[]string{"trtllm-serve", "m", "--server_role", "CONTEXT", "--config", "c.yaml"}, false},
		{[]string{"trtllm-serve", "serve", "m", "--extra_llm_api_options", "c.yaml"}, false},
		{[]string{"trtllm-serve", "m", "--server-role", "context"}, true},
		{[]string{"trtllm-serve", "m", "--extra-llm-api-options", "c.yaml"}, true},
		{[]string{"python3", "-m", "dynamo.trtllm", "--extra-engine-args", "c.yaml", "--disaggregation-mode", "prefill"}, false},
	} {
		l, ok := parseLaunch(c.words)
		if !ok || (l.refused != "") != c.refused {
			t.Errorf("%q: refused %q", c.words, l.refused)
		}
	}
}

// The MPI worker's environment reaches the disaggregated config's workers.
func TestMPIWorkerEnvironment(t *testing.T) {
	r := audit(t, "1.0.0", "real/trtllm-slurm-mpi/disaggr_torch.slurm", "real/trtllm-slurm-mpi/start_worker.sh", "gen-yaml/config.yaml")
	g := entry(t, r, "generation_servers")
	if v := g.Trace.Inputs.Env["TRTLLM_USE_UCX_KVCACHE"]; v.Value != "1" || v.Origin.Detail != "real/trtllm-slurm-mpi/start_worker.sh:12" {
		t.Errorf("env %+v", g.Trace.Inputs.Env)
	}
	if len(r.Set.Orchestrators) != 0 || !strings.Contains(strings.Join(g.Worker.Notes, "\n"), "run by trtllm-serve disaggregated_mpi_worker at real/trtllm-slurm-mpi/start_worker.sh:24") {
		t.Errorf("orchestrators %+v notes %q", r.Set.Orchestrators, g.Worker.Notes)
	}
	// The same config alone is an orchestrator's: it lists its servers.
	if r := audit(t, "1.0.0", "gen-yaml/config.yaml"); len(r.Set.Orchestrators) != 1 || len(r.Entries) != 0 {
		t.Errorf("alone: %d orchestrators, %d workers", len(r.Set.Orchestrators), len(r.Entries))
	}
	// A container's MPI worker is said to be one, not read as a worker
	// YAML (its disaggregated config failed TorchLlmArgs).
	pod := "apiVersion: v1\nkind: Pod\nmetadata:\n  name: mpi\nspec:\n  containers:\n  - name: w\n    command: [mpirun, -n, \"8\", trtllm-serve, disaggregated_mpi_worker, -c, /cfg/disagg.yaml]\n"
	set, err := Read([]Input{{Name: "pod.yaml", Data: []byte(pod)}})
	if err != nil {
		t.Fatal(err)
	}
	if len(set.Workers) != 0 || len(set.Unplaced) != 1 || !strings.HasPrefix(set.Unplaced[0].Why, "trtllm-serve disaggregated_mpi_worker -c /cfg/disagg.yaml: its workers are the context_servers and generation_servers") {
		t.Errorf("workers %d unplaced %+v", len(set.Workers), set.Unplaced)
	}
	// Only a command runs a program: pkill -f, grep and echo name it.
	for _, words := range [][]string{{"srun", "--overlap", "pkill", "-f", "trtllm-serve"}, {"grep", "trtllm-serve", "x.log"}, {"echo", "trtllm-serve", "m"}} {
		if _, ok := parseLaunch(words); ok {
			t.Errorf("%q read as a launch", words)
		}
	}
}

// The container's environment reaches its command line: $(NAME) in args as
// Kubernetes expands it, $NAME in a sh -c script; $$( escapes.
func TestContainerEnvInCommand(t *testing.T) {
	m := `apiVersion: v1
kind: ConfigMap
metadata:
  name: cfg
data:
  ctx.yaml: |
    cache_transceiver_config:
      backend: UCX
---
apiVersion: apps/v1
kind: Deployment
metadata:
  name: ctx
spec:
  template:
    spec:
      containers:
      - name: a
        command: [trtllm-serve, m, --extra_llm_api_options, $(CONFIG), --server_role, CONTEXT]
        env:
        - name: CONFIG
          value: /cfg/ctx.yaml
        volumeMounts:
        - {name: cfg, mountPath: /cfg}
      - name: b
        command: [sh, -c]
        args: ["python3 -m dynamo.trtllm --model-path m --extra-engine-args $ENGINE_ARGS --disaggregation-mode decode"]
        env:
        - name: ENGINE_ARGS
          value: /cfg/ctx.yaml
        volumeMounts:
        - {name: cfg, mountPath: /cfg}
      volumes:
      - name: cfg
        configMap: {name: cfg}
`
	set, err := Read([]Input{{Name: "d.yaml", Data: []byte(m)}})
	if err != nil {
		t.Fatal(err)
	}
	if len(set.Workers) != 2 || len(set.Unplaced) != 0 {
		t.Fatalf("workers %d unplaced %+v", len(set.Workers), set.Unplaced)
	}
	for _, w := range set.Workers {
		if !strings.HasPrefix(w.Config, "ConfigMap cfg key ctx.yaml") {
			t.Errorf("%s: config %q", w.Name, w.Config)
		}
	}
	if got := k8sExpand("a $(X) $$(X) $(Y)", map[string]string{"X": "1"}); got != "a 1 $(X) $(Y)" {
		t.Errorf("k8sExpand = %q", got)
	}
}

// A script of many here-documents and commands is read in linear time (the
// latest here-document for a path is indexed, exports are sorted once per
// change), and a worker carries at most maxOtherEnv TRTLLM_ variables the
// resolution does not read, every one it does, and a note.
func TestShellScriptScale(t *testing.T) {
	var b strings.Builder
	b.WriteString("#!/bin/sh\nexport TRTLLM_USE_UCX_KVCACHE=1\n")
	for i := 0; i < 100; i++ {
		fmt.Fprintf(&b, "export TRTLLM_X%d=%d\n", i, i)
	}
	for i := 0; i < 3000; i++ {
		fmt.Fprintf(&b, "cat > c%d.yaml <<EOF\ncache_transceiver_config:\n  backend: DEFAULT\nEOF\ntrtllm-serve m --config c%d.yaml --server_role CONTEXT &\n", i, i)
	}
	set, err := Read([]Input{{Name: "many.sh", Data: []byte(b.String())}})
	if err != nil {
		t.Fatal(err)
	}
	if len(set.Workers) != 3000 {
		t.Fatalf("%d workers", len(set.Workers))
	}
	w := set.Workers[2999]
	if w.Config != "here-document c2999.yaml (many.sh:15098)" {
		t.Errorf("config %q", w.Config)
	}
	if len(w.Env) != maxOtherEnv+1 || w.Env[0].Name != "TRTLLM_USE_UCX_KVCACHE" {
		t.Errorf("%d variables, first %+v", len(w.Env), w.Env[0])
	}
	if !strings.Contains(strings.Join(w.Notes, "\n"), "36 more TRTLLM_ variables that the transceiver's resolution does not read are not shown") {
		t.Errorf("notes %q", w.Notes)
	}
}

// cat << EOF >> $EXTRA_CONFIG_FILE inside an if adds attention_dp_config to
// the file the first here-document wrote: the config was that second body
// alone ("here-document dsr1-fp4.yml (...:77)"), its cuda_graph_config,
// kv_cache_config and moe_config lost.
func TestInferenceMAXAddedHeredoc(t *testing.T) {
	r := audit(t, "1.1.0", "real/inferencemax-dsr1_fp4_b200_trt_slurm.sh")
	e := entry(t, r, "dsr1-fp4.yml")
	if c := e.Worker.Config; c != "here-document dsr1-fp4.yml (real/inferencemax-dsr1_fp4_b200_trt_slurm.sh:61), added to by here-document >> (real/inferencemax-dsr1_fp4_b200_trt_slurm.sh:77)" {
		t.Errorf("config %q", c)
	}
	var keys []string
	for _, k := range e.Worker.Overlay.TopKeys {
		keys = append(keys, k.Key)
	}
	if strings.Join(keys, " ") != "cuda_graph_config enable_attention_dp print_iter_log kv_cache_config stream_interval moe_config attention_dp_config" {
		t.Errorf("keys %q", keys)
	}
	if !strings.Contains(strings.Join(e.Worker.Notes, "\n"), "that adds to dsr1-fp4.yml is inside the if at real/inferencemax-dsr1_fp4_b200_trt_slurm.sh:76") {
		t.Errorf("notes %q", e.Worker.Notes)
	}
}

// A --served-model-name without its organisation names the model.
func TestServedNameWithoutOrganisation(t *testing.T) {
	r := audit(t, "1.0.0", "real/dynamo-gptoss/gpt_oss_disagg.sh", "real/dynamo-gptoss/engine_configs/gpt_oss/prefill.yaml",
		"real/dynamo-gptoss/engine_configs/gpt_oss/decode.yaml")
	p := entry(t, r, "prefill.yaml")
	if m := p.Trace.Inputs.Model; !strings.HasSuffix(m.Origin.Detail, "inferred from --served-model-name gpt-oss-120b as openai/gpt-oss-120b by its name") {
		t.Errorf("model origin %q", m.Origin.Detail)
	}
}

// The srt-slurm recipe's roles: the v1 form's origins and environment, and
// the v2 form (engine:, roles:) read the same; another engine is said to be
// no TensorRT-LLM's.
func TestSrtSlurmRecipe(t *testing.T) {
	r := audit(t, "1.3.0rc22", "real/srt-slurm/dsr1-b300-ctx1_gen4_tep8_batch1_eplb0_mtp0.yaml")
	d := entry(t, r, "decode")
	if o := d.Trace.Inputs.Backend.Origin.Detail; o != "real/srt-slurm/dsr1-b300-ctx1_gen4_tep8_batch1_eplb0_mtp0.yaml:102" {
		t.Errorf("backend origin %q", o)
	}
	if v := d.Trace.Inputs.Env["TRTLLM_UCX_INTERFACE"]; v.Origin.Detail != "real/srt-slurm/dsr1-b300-ctx1_gen4_tep8_batch1_eplb0_mtp0.yaml:54 (backend.decode_environment)" {
		t.Errorf("env %+v", v)
	}
	if d.Worker.Source.String() != "real/srt-slurm/dsr1-b300-ctx1_gen4_tep8_batch1_eplb0_mtp0.yaml:79 srt-slurm recipe/ctx1_gen4_tep8_batch1_eplb0_mtp0 role decode" {
		t.Errorf("source %s", d.Worker.Source)
	}
	if d.Inputs.Model.Value.Arch != "DeepseekV3ForCausalLM" || d.Worker.Image != "nvcr.io/nvidia/ai-dynamo/tensorrtllm-runtime:1.1.1" {
		t.Errorf("model %s image %q", d.Inputs.Model.Value.Arch, d.Worker.Image)
	}
	v2 := `name: v2
model:
  path: /models/m
  container: nvcr.io/nvidia/tensorrt-llm/release:1.1.0
  precision: fp8
engine: trtllm
roles:
  prefill:
    nodes: 1
    workers: 3
    env:
      TRTLLM_USE_UCX_KVCACHE: "1"
    args:
      cache_transceiver_config:
        backend: DEFAULT
  decode:
    nodes: 1
    workers: 2
    args:
      cache_transceiver_config:
        backend: DEFAULT
`
	set, err := Read([]Input{{Name: "v2.yaml", Data: []byte(v2)}})
	if err != nil {
		t.Fatal(err)
	}
	if len(set.Workers) != 2 || len(set.Unplaced) != 0 {
		t.Fatalf("workers %+v unplaced %+v", set.Workers, set.Unplaced)
	}
	p, g := set.Workers[0], set.Workers[1]
	if p.Role != RoleContext || p.Count != 3 || p.CountFrom != "roles.prefill.workers (v2.yaml:10)" || g.Count != 2 {
		t.Errorf("prefill %s %d %q, decode %d", p.Role, p.Count, p.CountFrom, g.Count)
	}
	if len(p.Env) != 1 || p.Env[0].Origin != "v2.yaml:12 (roles.prefill.env)" || len(g.Env) != 0 {
		t.Errorf("env %+v / %+v", p.Env, g.Env)
	}
	if p.Config != "v2.yaml roles.prefill.args (v2.yaml:14; srtctl writes it to /logs/trtllm_config_prefill.yaml)" {
		t.Errorf("config %q", p.Config)
	}
	// Without --trtllm the container's release is the version.
	rep := Resolve(set, Options{Base: inputs.Defaults(), Catalog: models.Builtin()})
	if rep.Entries[0].Inputs.Version.Name != "1.1.0" || rep.Entries[0].Trace.Result.EffectiveBackend.S != "UCX" {
		t.Errorf("version %s backend %+v", rep.Entries[0].Inputs.Version.Name, rep.Entries[0].Trace.Result.EffectiveBackend)
	}
	set, err = Read([]Input{{Name: "sg.yaml", Data: []byte("name: sg\nmodel: {path: /m, container: c, precision: fp8}\nbackend:\n  type: sglang\n  sglang_config: {prefill: {}}\n")}})
	if err != nil {
		t.Fatal(err)
	}
	if len(set.Workers) != 0 || len(set.Unplaced) != 1 || !strings.Contains(set.Unplaced[0].Why, "an srt-slurm recipe for the sglang engine (sg.yaml:4): no TensorRT-LLM worker") {
		t.Errorf("workers %+v unplaced %+v", set.Workers, set.Unplaced)
	}
}

// backend: trt runs the TensorRT engine (serve.py launch_server: backend
// 'tensorrt' or 'trt' builds tensorrt_llm._tensorrt_engine.LLM), whose
// transceiver is the C++ executor's: xcvr predicts the PyTorch path and now
// says so on each worker; it was a warning that the key was ignored.
func TestTensorRTEngineBackendNoted(t *testing.T) {
	r := audit(t, "1.3.0rc29", "real/trtllm-test-configs/disagg_config_ctxtp2_gentp1_trt_backend.yaml")
	for _, e := range r.Entries {
		if !strings.Contains(strings.Join(e.Worker.Notes, "\n"), "backend 'trt' (real/trtllm-test-configs/disagg_config_ctxtp2_gentp1_trt_backend.yaml:4) runs the TensorRT engine") {
			t.Errorf("%s: notes %q", e.Worker.Name, e.Worker.Notes)
		}
	}
	set, err := Read([]Input{{Name: "w.yaml", Data: []byte("backend: tensorrt\ncache_transceiver_config:\n  backend: UCX\n")}})
	if err != nil {
		t.Fatal(err)
	}
	rep := Resolve(set, Options{Base: inputs.Defaults(), Catalog: models.Builtin()})
	if len(rep.Entries) != 1 || !strings.Contains(strings.Join(rep.Entries[0].Notes, "\n"), "backend 'tensorrt' (w.yaml:1) runs the TensorRT engine") {
		t.Errorf("entries %+v", rep.Entries)
	}
}

// The StormService's roles: counts, the image's release, the model by its
// directory.
func TestStormService(t *testing.T) {
	r := Resolve(readSet(t, "real/aibrix-tensor-rt-pd.yaml"), Options{Base: inputs.Defaults(), Catalog: models.Builtin()})
	p := entry(t, r, "prefill")
	if p.Worker.CountFrom != "replicas (real/aibrix-tensor-rt-pd.yaml:6) role sets × role prefill replicas (real/aibrix-tensor-rt-pd.yaml:20), inferred" {
		t.Errorf("count from %q", p.Worker.CountFrom)
	}
	if p.Inputs.Version.Name != "1.3.0rc8" || p.Inputs.Model.Value.Arch != "Qwen3ForCausalLM" || p.Trace.Result.Class != "PyNativeCacheTransceiver" {
		t.Errorf("version %s model %s class %s", p.Inputs.Version.Name, p.Inputs.Model.Value.Arch, p.Trace.Result.Class)
	}
}

// srtctl's trtllm-serve frontend: the launch note names the role's config
// (it said "trtllm-serve prefillL": MODE was replaced inside MODEL).
func TestSrtSlurmTrtllmServeLaunch(t *testing.T) {
	r := audit(t, "1.3.0rc29", "real/srt-slurm/dsr1-gr100-ctx1_gen2_dep2_dep8_mtp0_trtllm_serve.yaml")
	for _, role := range []string{"prefill", "decode"} {
		want := "srtctl runs trtllm-serve <model> --config /logs/trtllm_config_" + role + ".yaml"
		if !slices.Contains(entry(t, r, role).Worker.Notes, want) {
			t.Errorf("%s notes %q, want %q", role, entry(t, r, role).Worker.Notes, want)
		}
	}
}

// The E/P/D script's workers name the script's default model; the encode
// worker's config is its own (not a worker YAML alone).
func TestEncodeWorkerAndArgumentLoop(t *testing.T) {
	r := audit(t, "1.3.0rc5", "real/dynamo-epd/launch/epd_same_gpu.sh", "real/dynamo-epd/engine_configs/qwen3-vl-2b-instruct/encode.yaml",
		"real/dynamo-epd/engine_configs/qwen3-vl-2b-instruct/prefill.yaml", "real/dynamo-epd/engine_configs/qwen3-vl-2b-instruct/decode.yaml")
	for _, name := range []string{"prefill.yaml", "decode.yaml"} {
		if m := entry(t, r, name).Worker.Model; m != "Qwen/Qwen3-VL-2B-Instruct" {
			t.Errorf("%s model %q", name, m)
		}
	}
	if len(r.Entries) != 2 || len(r.Set.Unplaced) != 1 || !strings.Contains(r.Set.Unplaced[0].Why, "(real/dynamo-epd/engine_configs/qwen3-vl-2b-instruct/encode.yaml) is not read for one") {
		t.Errorf("entries %d unplaced %+v", len(r.Entries), r.Set.Unplaced)
	}
}

// submit.py's benchmark.mode gen_only sets TRTLLM_DISABLE_KV_CACHE_TRANSFER_OVERLAP=1
// for every worker (it was not an input); kvbm.enabled is a note.
func TestSubmitConfigModeAndKVBM(t *testing.T) {
	data, err := os.ReadFile("testdata/real/trtllm-benchmark-kvbm/kvbm_dsr1_agentic.yml")
	if err != nil {
		t.Fatal(err)
	}
	genOnly := strings.Replace(string(data), `mode: "e2e"`, `mode: "gen_only"`, 1)
	for _, tc := range []struct {
		text, env string
	}{{string(data), ""}, {genOnly, "1"}} {
		set, err := Read([]Input{{Name: "k.yml", Data: []byte(tc.text)}})
		if err != nil {
			t.Fatal(err)
		}
		if len(set.Workers) != 2 {
			t.Fatalf("%d workers", len(set.Workers))
		}
		for _, w := range set.Workers {
			got := ""
			for _, e := range w.Env {
				if e.Name == "TRTLLM_DISABLE_KV_CACHE_TRANSFER_OVERLAP" {
					got = e.Value
					if e.Origin != "k.yml:12 (benchmark.mode gen_only: submit.py sets it)" {
						t.Errorf("origin %q", e.Origin)
					}
				}
			}
			if got != tc.env {
				t.Errorf("%s: TRTLLM_DISABLE_KV_CACHE_TRANSFER_OVERLAP=%q, want %q", w.Name, got, tc.env)
			}
			if !strings.Contains(strings.Join(w.Notes, "\n"), "kvbm.enabled (k.yml:51): submit.py adds kv_connector_config") {
				t.Errorf("%s notes %q", w.Name, w.Notes)
			}
		}
	}
}

// A pod that runs a script held in a ConfigMap of the set (the chart
// pattern: a scripts ConfigMap mounted with defaultMode 0755, command: [bash,
// /scripts/start.sh], the engine config in another ConfigMap) is read: the
// script as the shell runs it, its lines the manifest's, the container's env
// exported to it, its config found in the pod's mounts, the pod's replicas
// its count. It was "no container runs trtllm-serve or dynamo.trtllm".
func TestConfigMapScript(t *testing.T) {
	manifest := `apiVersion: v1
kind: ConfigMap
metadata:
  name: scripts
data:
  start.sh: |
    #!/bin/bash
    export TRTLLM_USE_UCX_KVCACHE=1
    trtllm-serve "$MODEL" --server_role CONTEXT --extra_llm_api_options /engine-config/ctx.yaml "$@"
---
apiVersion: v1
kind: ConfigMap
metadata:
  name: engine
data:
  ctx.yaml: |
    cache_transceiver_config:
      backend: DEFAULT
---
apiVersion: apps/v1
kind: Deployment
metadata:
  name: ctx
spec:
  replicas: 3
  template:
    spec:
      containers:
      - name: w
        image: nvcr.io/nvidia/tensorrt-llm/release:1.1.0
        command: ["bash", "/scripts/start.sh"]
        env:
        - name: MODEL
          value: Qwen/Qwen3-8B
        volumeMounts:
        - name: scripts
          mountPath: /scripts
        - name: engine
          mountPath: /engine-config
      volumes:
      - name: scripts
        configMap:
          name: scripts
          defaultMode: 0755
      - name: engine
        configMap:
          name: engine
`
	set, err := Read([]Input{{Name: "d.yaml", Data: []byte(manifest)}})
	if err != nil {
		t.Fatal(err)
	}
	if len(set.Workers) != 1 || len(set.Unplaced) != 0 {
		t.Fatalf("workers %d unplaced %+v", len(set.Workers), set.Unplaced)
	}
	w := set.Workers[0]
	env := map[string]string{}
	for _, e := range w.Env {
		env[e.Name] = e.Value + " @" + e.Origin
	}
	if w.Role != RoleContext || w.Count != 3 || w.Model != "Qwen/Qwen3-8B" || w.Image != "nvcr.io/nvidia/tensorrt-llm/release:1.1.0" ||
		!strings.HasPrefix(w.Config, "ConfigMap engine key ctx.yaml (d.yaml:16)") || env["TRTLLM_USE_UCX_KVCACHE"] != "1 @d.yaml:8" ||
		w.Source.String() != "d.yaml:9 trtllm-serve command, run from d.yaml:29 Deployment/ctx container w, ConfigMap scripts key start.sh" {
		t.Errorf("role %s count %d model %q image %q config %q env %v source %s", w.Role, w.Count, w.Model, w.Image, w.Config, env, w.Source)
	}
	// A script that starts no worker is named.
	set, err = Read([]Input{{Name: "d.yaml", Data: []byte(strings.Replace(manifest, "trtllm-serve", "echo", 1))}})
	if err != nil {
		t.Fatal(err)
	}
	want := "container w runs /scripts/start.sh, ConfigMap scripts key start.sh (d.yaml:6), and xcvr finds no trtllm-serve or dynamo.trtllm command in it"
	if len(set.Workers) != 0 || len(set.Unplaced) != 1 || set.Unplaced[0].Why != want {
		t.Errorf("workers %d unplaced %+v", len(set.Workers), set.Unplaced)
	}
}

// An addition to a file the script did not write is warned of only when a
// worker reads the set's file at that path: upstream's sweep script appends
// its srun PIDs to a mktemp file (`echo "$!" >> "$PID_FILE"`), which is no
// config. It warned three times.
func TestAppendToPIDFileNoWarning(t *testing.T) {
	set := readSet(t, "real/dynamo-perf-sweep/benchmark_disagg.slurm", "real/dynamo-perf-sweep/scripts/start_disagg_worker.sh")
	if len(set.Warnings) != 0 {
		t.Errorf("warnings %q, want none", set.Warnings)
	}
}

// A performance-sweep role's env is what start_disagg_worker.sh evals
// (`export NAME=VALUE`, the value as Python's str() prints it), less its
// unset_env; a value the shell would re-read is not known.
func TestSweepConfigEnv(t *testing.T) {
	doc := "prefill:\n  num: 3\n  config:\n    cache_transceiver_config:\n      backend: UCX\n  env:\n    TRTLLM_ENABLE_PDL: 1\n    TRTLLM_USE_UCX_KVCACHE: true\n    TRTLLM_SERVER_DISABLE_GC: \"a b\"\n    TRTLLM_DISABLE_KV_CACHE_TRANSFER_OVERLAP: 1\n  unset_env:\n    - TRTLLM_DISABLE_KV_CACHE_TRANSFER_OVERLAP\n"
	set, err := Read([]Input{{Name: "sweep.yaml", Data: []byte(doc)}})
	if err != nil {
		t.Fatal(err)
	}
	if len(set.Workers) != 1 {
		t.Fatalf("workers %+v unplaced %+v", set.Workers, set.Unplaced)
	}
	w := set.Workers[0]
	var env []string
	for _, e := range w.Env {
		env = append(env, e.Name+"="+e.Value+" "+e.Origin)
	}
	want := []string{"TRTLLM_ENABLE_PDL=1 sweep.yaml:7 (prefill.env)", "TRTLLM_USE_UCX_KVCACHE=True sweep.yaml:8 (prefill.env)"}
	if !reflect.DeepEqual(env, want) {
		t.Errorf("env %q, want %q", env, want)
	}
	if w.Role != RoleContext || w.Count != 3 || w.CountFrom != "prefill.num (sweep.yaml:2)" {
		t.Errorf("role %s count %d from %q", w.Role, w.Count, w.CountFrom)
	}
	notes := strings.Join(w.Notes, "\n")
	for _, s := range []string{"prefill.env.TRTLLM_SERVER_DISABLE_GC (sweep.yaml:9): start_disagg_worker.sh evals `export TRTLLM_SERVER_DISABLE_GC=a b`", "unsets TRTLLM_DISABLE_KV_CACHE_TRANSFER_OVERLAP after setting env"} {
		if !strings.Contains(notes, s) {
			t.Errorf("notes %q lack %q", notes, s)
		}
	}
}

// Upstream's Ray launcher builds each server's placement groups with
// appends in a C-style for loop (for ((i=0; i<TP_SIZE; i++)); do if [[ $i
// -gt 0 ]]; then G+=", "; fi; G+="$i"; done) and writes them into its
// here-documents. xcvr does not run that loop: the appends used to be taken
// once each, "[[, $i]]", and both configs were YAML errors; the value is now
// not known (left as written), and the configs are read.
func TestRayLauncherAppends(t *testing.T) {
	r := audit(t, "1.2.0", "real/trtllm-ray/disagg_serving_local.sh")
	for _, name := range []string{"extra_llm_config_ctx.yaml", "extra_llm_config_gen.yaml"} {
		e := entry(t, r, name)
		if e.Err != "" || fmt.Sprint(e.Trace.Result.EffectiveBackend) != "UCX" || string(e.Trace.Result.Outcome) != "CPP" {
			t.Errorf("%s: err %q, %s on %s", name, e.Err, e.Trace.Result.Outcome, e.Trace.Result.EffectiveBackend)
		}
	}
	for _, u := range r.Set.Unplaced {
		if strings.Contains(u.Why, "ParserError") {
			t.Errorf("unplaced %s: %s", u.Source, u.Why)
		}
	}
}

// Appends (NAME+=VALUE) read as bash runs them: under an if whose test xcvr
// decides, only the branch that runs adds; in a loop it does not run the
// value is not known ($G left as written, so the config is still read).
func TestAppendsMatchBash(t *testing.T) {
	sh, err := exec.LookPath("bash")
	if err != nil {
		t.Skip("no bash")
	}
	for _, c := range []struct{ body, want string }{
		{"B=ray\nG=a\nif [[ \"$B\" == \"ray\" ]]; then\n  G+=r\nelse\n  G+=m\nfi\n", ""},
		{"B=mpi\nG=a\nif [ \"$B\" = ray ]; then\n  G+=r\nelif [[ $B != mpi ]]; then\n  G+=x\nelse\n  G+=m\nfi\n", ""},
		{"N=2\nG=a\nif [[ $N -gt 1 ]]; then G+=b; fi\nif [[ -z \"$N\" ]]; then G+=c; fi\n", ""},
		{"TP=2\nG=\"[[\"\nfor ((i=0; i<TP; i++)); do\n  if [[ $i -gt 0 ]]; then G+=\", \"; fi\n  G+=\"$i\"\ndone\nG+=\"]]\"\n", "$G"},
	} {
		want := c.want
		if want == "" {
			cmd := exec.Command(sh, "--norc", "--noprofile", "-c", c.body+"printf %s \"$G\"")
			cmd.Env = []string{"PATH=/usr/bin:/bin"}
			out, err := cmd.Output()
			if err != nil {
				t.Fatalf("%s: %v", c.body, err)
			}
			want = string(out)
		}
		script := "#!/bin/bash\n" + c.body + "trtllm-serve \"$G\" --extra_llm_api_options c.yaml\n"
		set, err := Read([]Input{{Name: "run.sh", Data: []byte(script)}, {Name: "c.yaml", Data: []byte("cache_transceiver_config:\n  backend: UCX\n")}})
		if err != nil {
			t.Fatal(err)
		}
		if len(set.Workers) != 1 {
			t.Fatalf("%q: workers %+v unplaced %+v", c.body, set.Workers, set.Unplaced)
		}
		got := set.Workers[0].Model
		if want == "$G" && got == "" && strings.Contains(strings.Join(set.Workers[0].Notes, "\n"), "model $G: the script does not set it") {
			continue
		}
		if got != want {
			t.Errorf("%q: G is %q, want %q", c.body, got, want)
		}
	}
}

// Upstream's Ray launcher (examples/ray_orchestrator/disaggregated/
// disagg_serving_local.sh, index id 36065785193) picks its servers with
// if [[ "$BACKEND" == "mpi" ]] / elif [[ "$BACKEND" == "ray" ]] / else, and
// BACKEND is ray unless --executor says otherwise: run without arguments,
// bash starts the two Ray servers (lines 240 and 261), not the four MPI and
// fallback ones audit used to list as aggregated workers.
func TestRayLauncherBranches(t *testing.T) {
	r := audit(t, "1.2.0", "real/trtllm-ray/disagg_serving_local.sh")
	var got []string
	for _, e := range r.Entries {
		got = append(got, fmt.Sprintf("%s %s %d", e.Worker.Role, e.Worker.Name, e.Worker.Source.Line))
	}
	if want := []string{"context extra_llm_config_ctx.yaml 240", "generation extra_llm_config_gen.yaml 261"}; !slices.Equal(got, want) {
		t.Fatalf("workers %q, want %q", got, want)
	}
	want := "it is inside the if at real/trtllm-ray/disagg_serving_local.sh:229, in the branch bash runs: [[ $BACKEND == ray ]] (line 236) is [[ ray == ray ]] with the values the script sets, true; xcvr read no other branch"
	if n := r.Entries[0].Worker.Notes; !slices.Contains(n, want) {
		t.Errorf("notes %q", n)
	}
}

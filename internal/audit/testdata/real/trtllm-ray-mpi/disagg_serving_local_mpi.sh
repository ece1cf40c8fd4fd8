#!/bin/bash
# Excerpt of NVIDIA/TensorRT-LLM examples/ray_orchestrator/disaggregated/disagg_serving_local.sh
# (commit 1461f3d13d88; the whole file is ../trtllm-ray/disagg_serving_local.sh): what it runs
# with --executor mpi. Its lines 6-7, 158-171, 174-209, 227-228, 230-235, 245-249, 251-256 and
# 266-271, verbatim; the if/else lines around the MPI branches (60, 157, 172, 229, 236-244,
# 250, 257-265) left out.
MODEL_DIR="TinyLlama/TinyLlama-1.1B-Chat-v1.0"
TP_SIZE=1
    cat > extra_llm_config.yaml << EOF
# extra_llm_config.yaml when launching disaggregated server instances.
cache_transceiver_config:
    backend: "UCX"
    max_tokens_in_buffer: 1024
disable_overlap_scheduler: true
# Using default executor MPI (no orchestrator_type specified)
# Memory-saving parameters
max_batch_size: 1
max_num_tokens: 512
max_seq_len: 128
kv_cache_config:
    free_gpu_memory_fraction: 0.8
EOF
# Generate disaggregated server config
echo "Generating disagg_config_local.yaml"
cat > disagg_config_local.yaml << EOF
hostname: localhost
port: 8000
model: $MODEL_DIR
free_gpu_memory_fraction: 0.8
backend: "pytorch"
disable_overlap_scheduler: True
context_servers:
  num_instances: 1
  tensor_parallel_size: $TP_SIZE
  pipeline_parallel_size: 1
  max_batch_size: 1
  max_num_tokens: 512
  max_seq_len: 128
  kv_cache_config:
    free_gpu_memory_fraction: 0.8
  cache_transceiver_config:
    backend: "UCX"
  urls:
      - "localhost:8001"
generation_servers:
  num_instances: 1
  tensor_parallel_size: $TP_SIZE
  pipeline_parallel_size: 1
  max_batch_size: 1
  max_num_tokens: 512
  max_seq_len: 128
  kv_cache_config:
    free_gpu_memory_fraction: 0.8
  cache_transceiver_config:
    backend: "UCX"
  urls:
      - "localhost:8002"
EOF
# Launching context servers
echo "Launching context servers..."
    CTX_GPUS=$(seq -s, 0 $((TP_SIZE - 1)))
    echo "Context server using GPUs: $CTX_GPUS (via CUDA_VISIBLE_DEVICES)"
    (
        export CUDA_VISIBLE_DEVICES=$CTX_GPUS
        trtllm-serve $MODEL_DIR --host localhost --tp_size $TP_SIZE --port 8001 --kv_cache_free_gpu_memory_fraction 0.15 --backend pytorch --extra_llm_api_options extra_llm_config.yaml
    ) &> output_ctx0 &
CTX_PID=$!
echo "Context server started with PID: $CTX_PID"

# Launching generation servers
echo "Launching generation servers..."
    GEN_GPUS=$(seq -s, $TP_SIZE $((2 * TP_SIZE - 1)))
    echo "Generation server using GPUs: $GEN_GPUS (via CUDA_VISIBLE_DEVICES)"
    (
        export CUDA_VISIBLE_DEVICES=$GEN_GPUS
        trtllm-serve $MODEL_DIR --host localhost --tp_size $TP_SIZE --port 8002 --kv_cache_free_gpu_memory_fraction 0.15 --backend pytorch --extra_llm_api_options extra_llm_config.yaml
    ) &> output_gen0 &
GEN_PID=$!
echo "Generation server started with PID: $GEN_PID"

# Launching disaggregated server
echo "Launching disaggregated server..."
trtllm-serve disaggregated -c disagg_config_local.yaml

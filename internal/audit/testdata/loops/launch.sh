#!/bin/bash
# Two context servers, one per GPU, and a generation server per role file:
# the loops launch scripts start their servers with.
MODEL=Qwen/Qwen3-8B
NUM_CTX=2
for i in $(seq 0 $((NUM_CTX-1))); do
  CUDA_VISIBLE_DEVICES=$i trtllm-serve $MODEL --port $((8001+i)) \
    --server_role CONTEXT --extra_llm_api_options ctx.yaml &
done
for role in gen; do CUDA_VISIBLE_DEVICES=2 trtllm-serve $MODEL --port 8003 --extra_llm_api_options ${role}.yaml & done
wait

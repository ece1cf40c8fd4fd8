#!/bin/bash
# Source: ai-dynamo/dynamo's router docs, "Router Flags for Lower Tiers" page,
# section "TensorRT-LLM" (index id 57825150639; the repository path is not
# named by the index): its one code block, as a script, byte for byte below
# this header.
python3 -m dynamo.trtllm \
  --model Qwen/Qwen3-0.6B \
  --publish-kv-events \
  --trtllm.kv_cache_config.enable_block_reuse true \
  --trtllm.kv_cache_config.host_cache_size 17179869184 \
  --trtllm.kv_cache_config.secondary_offload_min_priority 35

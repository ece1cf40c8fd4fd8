#!/bin/bash
# One node, two servers and their orchestrator, roles told only by the
# orchestrator's urls: the first server is started without --port, so it
# listens on trtllm-serve's default, 8000, the port disagg.yaml lists.
MODEL=meta-llama/Llama-3.1-8B-Instruct

CUDA_VISIBLE_DEVICES=0 trtllm-serve ${MODEL} --extra_llm_api_options worker.yaml &> log_0 &
CUDA_VISIBLE_DEVICES=1 trtllm-serve ${MODEL} --port 8001 --extra_llm_api_options worker.yaml &> log_1 &

trtllm-serve disaggregated -c disagg.yaml

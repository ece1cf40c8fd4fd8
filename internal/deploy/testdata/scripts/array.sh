#!/bin/bash
#SBATCH -N 1
[ -z "$MODEL" ] && MODEL=/models/llama
args=(--config ctx.yaml)
trtllm-serve "$MODEL" "${args[@]}"

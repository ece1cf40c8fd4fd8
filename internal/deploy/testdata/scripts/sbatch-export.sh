#!/bin/bash
#SBATCH --nodes=2
#SBATCH --ntasks-per-node=4
#SBATCH --job-name=disagg

set -euo pipefail
export TRTLLM_USE_UCX_KVCACHE=1
srun --container-image=$IMG bash -c "trtllm-serve $MODEL --extra_llm_api_options ctx.yaml"

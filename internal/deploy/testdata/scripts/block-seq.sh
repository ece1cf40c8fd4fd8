#!/bin/bash
#SBATCH --nodes=2
export:
  MODEL: /models/llama
 - srun trtllm-serve "$MODEL"

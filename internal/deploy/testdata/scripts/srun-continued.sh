#!/bin/bash
set -x
MODEL=/models/x
srun -l --ntasks 4 \
  trtllm-serve ${MODEL} --extra_llm_api_options gen.yaml
echo done

#!/bin/bash
#SBATCH -N 1

echo "starting: $(date)"
if [ -f ctx.yaml ]; then
  trtllm-serve m --config ctx.yaml &
fi
wait

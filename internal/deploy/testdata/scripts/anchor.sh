#!/bin/bash
#SBATCH -N 1
trtllm-serve m &
wait

#!/bin/bash
#SBATCH -N 1
env:
  CTX: 1
  - srun a

#!/bin/bash
#SBATCH --nodes=1
vars: {MODEL: "llama" x}

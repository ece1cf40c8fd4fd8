#!/bin/bash
#SBATCH --nodes=1
[ -f ctx.yaml ] ; echo found

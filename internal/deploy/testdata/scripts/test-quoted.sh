#!/bin/bash
#SBATCH --nodes=1
[ "$ROLE" = ctx ] ; CONFIG=ctx.yaml

#!/bin/bash
#SBATCH -N 2
prefix: &p /scratch
out: *p
log: *logdir

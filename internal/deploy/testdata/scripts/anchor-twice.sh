#!/bin/bash
#SBATCH -N 2
A: &dir /scratch
B: &dir /tmp

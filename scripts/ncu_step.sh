#!/usr/bin/env bash
# Nsight Compute on one step's kernel at one point of a config: the speed-of-light, warp-state,
# scheduler and occupancy sections plus the shared-memory bank conflicts, without touching the
# clocks. The report (text) goes to OUTFILE.
#   scripts/ncu_step.sh CONFIG VARIANT_REGEX KERNEL_REGEX OUTFILE
set -euo pipefail
cfg=${1:?usage: scripts/ncu_step.sh CONFIG VARIANT_REGEX KERNEL_REGEX OUTFILE}
variant=${2:?variant regex}
kernel=${3:?kernel regex}
out=${4:?output file}
ncu --clock-control none -k "regex:$kernel" --launch-skip 1 -c 1 \
  --section SpeedOfLight --section WarpStateStats --section SchedulerStats \
  --section Occupancy --section ComputeWorkloadAnalysis \
  --metrics l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared.sum,smsp__inst_executed.sum,sm__pipe_alu_cycles_active.avg.pct_of_peak_sustained_active,sm__pipe_fma_cycles_active.avg.pct_of_peak_sustained_active,sm__inst_executed_pipe_lsu.avg.pct_of_peak_sustained_active \
  build/ladder run "$cfg" --filter "$variant" --repetitions 1 --warmup 1 --validate off \
  --quiet --out "$(dirname "$out")/ncu-run.json" >"$out" 2>&1

#!/usr/bin/env bash
# Nsight Compute's view of the seed's argument: shared-memory bank conflicts and branch
# uniformity of each nested-loop step, folded into the results as facts (ncu_*). Each step is
# profiled in a run of its own (--profile: one run inside cudaProfilerStart/Stop), then
# scripts/ncu_facts.py merges the runs and their metrics into OUTDIR/skyline-profile.json.
#   scripts/skyline_profile.sh OUTDIR [CONFIG]
set -euo pipefail
out=${1:?usage: scripts/skyline_profile.sh OUTDIR [CONFIG]}
config=${2:-configs/skyline/profile.json}
mkdir -p "$out"
metrics=l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum
metrics+=,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum
metrics+=,smsp__sass_average_branch_targets_threads_uniform.pct
metrics+=,smsp__thread_inst_executed_per_inst_executed.ratio
metrics+=,gpu__time_duration.sum
variants=$(python3 -c 'import json, sys; print(" ".join(json.load(open(sys.argv[1]))["variants"]))' "$config")
pairs=()
for v in $variants; do
  name=${v#*/}
  ncu --csv --clock-control none --profile-from-start off --metrics "$metrics" \
    build/ladder run "$config" --profile --filter "^$v\$" --quiet --out "$out/profile-$name.json" \
    >"$out/ncu-$name.csv"
  pairs+=("$out/profile-$name.json" "$out/ncu-$name.csv")
done
python3 scripts/ncu_facts.py "$out/skyline-profile.json" "${pairs[@]}"

#!/usr/bin/env bash
# The real ladder on a real one-node Slurm cluster (cluster.sh, 8 fake GPUs):
#   tests/slurm/ladder_on_slurm.sh LADDER
# submits, through scripts/slurm/submit.sh, the quick reproduction as an array of 3 shards and
# the DTW and EED smoke configs as arrays of 7 and 3, each followed by its merge job; then
# checks (check_merged.py) that every merged file holds the runs, order and statuses of an
# unsharded run made here, and that the tasks of each array saw different GPU indices. Exits 0
# on success, 1 on failure, 77 (skip) without Slurm or root. Every process it started is
# stopped by PID.
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$here/../.." && pwd)
[ $# = 1 ] || { echo "usage: $0 LADDER" >&2; exit 2; }
ladder=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
timeout=${SLURM_TEST_TIMEOUT:-600}
# shellcheck source=tests/slurm/lib.sh
. "$here/lib.sh"
start_cluster
cd "$root"

# What one process writes, to hold the merged files against.
"$ladder" reproduce --scale quick --no-peers --out "$tmp/whole" >"$tmp/whole.log" 2>&1 ||
  fail "the unsharded reproduction failed: $(tail -n 5 "$tmp/whole.log")"
for study in dtw eed; do
  "$ladder" run "configs/$study/smoke.json" --out "$tmp/whole-$study.json" --quiet >/dev/null ||
    fail "the unsharded $study smoke run failed"
done

# One array at a time, each with a GPU per task (8 here), so that an array's tasks run at
# once and must each see a GPU of their own.
submit_and_wait "$timeout" --shards 3 --scale quick --no-finish --ladder "$ladder" --out "$tmp/repro"
submit_and_wait "$timeout" --shards 7 --config configs/dtw/smoke.json --ladder "$ladder" --out "$tmp/dtw"
submit_and_wait "$timeout" --shards 3 --config configs/eed/smoke.json --ladder "$ladder" --out "$tmp/eed"

PYTHONPATH="$root" python3 "$here/check_merged.py" "$tmp/whole" "$tmp/repro" 3 \
  "$tmp/whole-dtw.json" "$tmp/dtw/merged.json" 7 "$tmp/whole-eed.json" "$tmp/eed/merged.json" 3 ||
  fail "the merged files differ from the unsharded ones"
ok=1
echo "ladder_on_slurm: passed in $SECONDS s"

#!/usr/bin/env bash
# The many-GPU reference of a node (results/reference/<gpu>x<N>/): the paper reproduction on
# every GPU (`--gpus all`) timed against one GPU of the same node, run by run compared; then the
# one-GPU reproduction is completed in place with Nsight Compute profiles (taken on every GPU at
# once) and the peers, its runs reused: a whole reference of one GPU of this model.
#   scripts/scaling_reference.sh OUTDIR [COSTS_DIR]
# COSTS_DIR: an earlier reproduction whose run times balance the shards (`--costs`).
# Writes OUTDIR/paper-N-gpus/, OUTDIR/paper-1-gpu/ (with profiles and peers),
# OUTDIR/compare/<config>.txt and
# OUTDIR/timing.txt (one line per stage: name and wall seconds). A stage that finished is
# skipped when the script runs again with the same OUTDIR, so a run cut short resumes where it
# stopped (the reproduction reuses whole results files of the same commit and device).
# BUILD (default build) is the build folder; CMAKE_ARGS go to its configuration. PROFILES=0
# leaves out the last stage (profiles and peers), for a node whose one-GPU reference exists.
set -euo pipefail
out=${1:?usage: scripts/scaling_reference.sh OUTDIR [COSTS_DIR]}
costs=${2:-}
build=${BUILD:-build}
mkdir -p "$out"
out=$(cd "$out" && pwd)
timing=$out/timing.txt
touch "$timing"

# shellcheck disable=SC2086 # CMAKE_ARGS is a list of options
{ cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=Release ${CMAKE_ARGS:-} &&
  cmake --build "$build" -j "$(nproc)" --target ladder; } >"$out/build.log" 2>&1 ||
  { tail -30 "$out/build.log"; exit 1; }
ladder=$build/ladder
gpus=$(nvidia-smi -L 2>/dev/null | grep -c '^GPU ' || true)
[ "$gpus" -ge 2 ] || { echo "scaling_reference: this node has $gpus GPU(s); it needs 2 or more" >&2; exit 2; }
many=$out/paper-$gpus-gpus
one=$out/paper-1-gpu
cost_option=()
[ -n "$costs" ] && cost_option=(--costs "$costs")

# stage NAME COMMAND...: runs COMMAND unless NAME is in timing.txt, then records its wall time.
stage() {
  local name=$1; shift
  if grep -q "^$name " "$timing"; then echo "== $name: done before ($(grep "^$name " "$timing"))"; return; fi
  echo "== $name"
  local start; start=$(date +%s)
  "$@" >"$out/$name.log" 2>&1 || { tail -20 "$out/$name.log"; exit 1; }
  echo "$name $(( $(date +%s) - start ))" >>"$timing"
  tail -2 "$out/$name.log"
}

stage "reproduce-$gpus-gpus" "$ladder" reproduce --scale paper --gpus all --no-peers "${cost_option[@]}" --out "$many"
stage reproduce-1-gpu "$ladder" reproduce --scale paper --device 0 --no-peers --out "$one"
mkdir -p "$out/compare"
for f in "$one"/*.json; do
  name=$(basename "$f")
  [ "$name" = reproduction.json ] || [ ! -f "$many/$name" ] && continue
  "$ladder" compare "$f" "$many/$name" >"$out/compare/${name%.json}.txt" 2>&1 || true
done
[ "${PROFILES:-1}" = 0 ] ||
  stage profiles-and-peers "$ladder" reproduce --scale paper --gpus all --profile --out "$one"
cat "$timing"

#!/usr/bin/env bash
# On a machine with a GPU: the measurement contract's experiments (docs/measurement.md), one
# phase per call so that each fits a time limit. Results land in OUTDIR/<phase>/.
#   dimension  every smoke config with --processes 30 (K and the samples rule come from these)
#   evaluate   TWED's smoke config three more ways at equal GPU time: cores pinned, 5 rounds,
#              blocked start (the variance reductions considered for host-bound steps)
#   identical  `ladder ab` of two copies of one binary, K = 10, every smoke config (AT1, AT2)
#   planted    `ladder ab` with +5% and +10% planted in side B's timed window (AT4)
#   scripts/measurement_check.sh PHASE OUTDIR
# Each `ab` folder ends as OUTDIR/PHASE/<name>.tar.xz (A.json, B.json, ab.json and the log), a few
# MB each, so that every comparison's files can be copied off a machine one by one.
# LADDER is the binary (default build/ladder); STUDIES narrows the studies (default all five),
# FACTORS the planted factors (default 1.05 1.10).
set -uo pipefail
phase=${1:?usage: scripts/measurement_check.sh dimension|evaluate|identical|planted OUTDIR}
out=${2:?usage: scripts/measurement_check.sh PHASE OUTDIR}
ladder=${LADDER:-build/ladder}
studies=${STUDIES:-dtw covariance eed skyline twed}
mkdir -p "$out/$phase"
status=0
timed() {  # NAME COMMAND...: runs it, its output to OUTDIR/PHASE/NAME.log, its seconds said
  local name=$1 t0=$SECONDS
  shift
  "$@" >"$out/$phase/$name.log" 2>&1 || { status=1; tail -5 "$out/$phase/$name.log"; }
  echo "$name: $((SECONDS - t0)) s"
}
pack() {  # NAME: the ab folder OUTDIR/PHASE/NAME and its log as one NAME.tar.xz (the parts'
  # results files left out: A.json and B.json hold every process's samples; their logs stay)
  (cd "$out/$phase" && tar cJf "$1.tar.xz" --exclude="$1/parts/*.json" "$1" "$1.log" && rm -rf "$1" "$1.log")
}
# The steps the planted slowdowns go into: one per study, across the time classes.
planted_steps='^(dtw/shared|covariance/tiled|eed/warp_rows|skyline/alr|twed/batch)$'

case $phase in
  dimension)
    for s in $studies; do
      timed "$s" "$ladder" run "configs/$s/smoke.json" --processes 30 --out "$out/$phase/$s.json"
    done ;;
  evaluate)
    timed twed-pinned "$ladder" run configs/twed/smoke.json --processes 30 --cpus 0-7 \
      --out "$out/$phase/twed-pinned.json"
    timed twed-rounds "$ladder" run configs/twed/smoke.json --processes 30 --rounds 5 \
      --out "$out/$phase/twed-rounds.json"
    timed twed-blocked "$ladder" run configs/twed/smoke.json --processes 30 --blocked-start \
      --out "$out/$phase/twed-blocked.json" ;;
  identical)
    mkdir -p /tmp/ladder-copy && cp "$ladder" /tmp/ladder-copy/ladder
    for s in $studies; do
      timed "$s" "$ladder" ab "$ladder" /tmp/ladder-copy/ladder "configs/$s/smoke.json" \
        --processes 10 --seed 49 --out "$out/$phase/$s"
      pack "$s"
    done ;;
  planted)
    mkdir -p /tmp/ladder-copy && cp "$ladder" /tmp/ladder-copy/ladder
    for f in ${FACTORS:-1.05 1.10}; do
      for s in $studies; do
        timed "$s-$f" "$ladder" ab "$ladder" /tmp/ladder-copy/ladder "configs/$s/smoke.json" \
          --processes 10 --seed 50 --filter "$planted_steps" --plant "$planted_steps:$f" \
          --out "$out/$phase/$s-$f"
        pack "$s-$f"
      done
    done ;;
  *) echo "unknown phase $phase" >&2; exit 2 ;;
esac
exit $status

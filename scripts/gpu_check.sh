#!/usr/bin/env bash
# On a machine with a GPU: build, run every test (GPU ones included), check every GPU variant
# with compute-sanitizer (memcheck and racecheck) on the smoke config, then run the given
# benchmark configs. Logs and results land in OUTDIR. TESTS=0 or SANITIZE=0 leave those parts
# out (e.g. to fit a long benchmark into one session); CTEST_ARGS narrows the tests (e.g.
# "-R twed") and SANITIZE_ONLY the sanitized variants (a regular expression on their ids).
#   scripts/gpu_check.sh OUTDIR [CONFIG ...]
set -uo pipefail
out=${1:?usage: scripts/gpu_check.sh OUTDIR [CONFIG ...]}
shift
mkdir -p "$out"
status=0
step() { echo "== $*"; }

step build
{ cmake -S . -B build && cmake --build build -j "$(nproc)"; } >"$out/build.log" 2>&1 ||
  { tail -30 "$out/build.log"; exit 1; }

if [ "${TESTS:-1}" != 0 ]; then
  step tests
  # shellcheck disable=SC2086 # CTEST_ARGS is a list of options
  (cd build && ctest --output-on-failure -j 4 ${CTEST_ARGS:-}) >"$out/ctest.log" 2>&1 || status=1
  tail -6 "$out/ctest.log"
fi

gpu_variants=$(build/ladder list --json | python3 -c '
import json, sys
for s in json.load(sys.stdin)["studies"]:
    for v in s["variants"]:
        if v["backend"] == "gpu": print(v["id"])' | grep -E "${SANITIZE_ONLY:-.}")
[ "${SANITIZE:-1}" = 0 ] && gpu_variants=
for tool in memcheck racecheck; do
  for v in $gpu_variants; do
    study=${v%%/*}
    step "compute-sanitizer $tool $v"
    compute-sanitizer --tool "$tool" --error-exitcode 9 build/ladder run "configs/$study/smoke.json" \
      --filter "^$v\$" --repetitions 1 --warmup 0 --quiet --out "$out/sanitizer.json" \
      >"$out/sanitizer-$tool-${v//\//_}.log" 2>&1 || { status=1; tail -20 "$out/sanitizer-$tool-${v//\//_}.log"; }
    grep -E "ERROR SUMMARY|RACECHECK SUMMARY" "$out/sanitizer-$tool-${v//\//_}.log" | tail -1
  done
done

for cfg in "$@"; do
  name=$(basename "$cfg" .json)
  step "run $cfg"
  build/ladder run "$cfg" --out "$out/$name.json" >"$out/$name.log" 2>&1 || status=1
  tail -25 "$out/$name.log"
done
exit $status

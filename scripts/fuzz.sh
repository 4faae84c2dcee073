#!/usr/bin/env bash
# Runs the libFuzzer targets of tests/fuzz/ for a bounded time each.
# Usage: scripts/fuzz.sh SECONDS [TARGET...]
#        (TARGET: config results reuse ucr npy idx strings points series_npy cpuinfo ncu_csv shards
#         costs ingest export; default: all)
#
# Builds them in build-fuzz/ (clang++ with ASan and UBSan; CUDA still goes through nvcc), then
# runs each for SECONDS on a copy of its seed corpus and regression inputs (the committed
# corpus never grows). On a finding (crash, uncaught exception, sanitizer report, timeout,
# out-of-memory, leak) the input is copied to tests/fuzz/regressions/<target>/, where ctest's
# fuzz.replay.<target> replays it from then on, and the script exits 1. Exit 0 only when every
# target ran its full time without a finding; 2 for bad usage, 3 when the build fails.
#
# As root on Debian/Ubuntu, missing packages (clang, its sanitizer and libFuzzer runtimes,
# libomp, llvm-symbolizer) are installed with apt-get; otherwise the command is printed.
# Environment: BUILD_FUZZ (build directory, default build-fuzz), JOBS (build jobs).
set -euo pipefail
cd "$(dirname "$0")/.."
all_targets=(config results reuse ucr npy idx strings points series_npy cpuinfo ncu_csv shards costs ingest
             export processes)

usage() {
  echo "usage: scripts/fuzz.sh SECONDS [TARGET...]   (TARGET: ${all_targets[*]})" >&2
  exit 2
}
[ $# -ge 1 ] || usage
seconds=$1
shift
[[ "$seconds" =~ ^[1-9][0-9]*$ ]] || usage
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=("${all_targets[@]}")
for t in "${targets[@]}"; do
  [[ " ${all_targets[*]} " == *" $t "* ]] || { echo "fuzz: unknown target '$t'" >&2; usage; }
done
build=${BUILD_FUZZ:-build-fuzz}
jobs=${JOBS:-$(nproc 2>/dev/null || echo 2)}

# --- tools ------------------------------------------------------------------------------------
scripts/deps.sh build || exit 3

# Links a trivial fuzz target the way tests/fuzz/ does (libFuzzer, ASan, UBSan, OpenMP).
probe_dir=$(mktemp -d)
trap 'rm -rf "$probe_dir"' EXIT
probe() {
  command -v clang++ >/dev/null 2>&1 || return 1
  cat >"$probe_dir/probe.cpp" <<'EOF'
#include <cstddef>
#include <cstdint>
#include <omp.h>
extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t*, std::size_t) {
  return omp_get_max_threads() > 0 ? 0 : 0;
}
EOF
  clang++ -fsanitize=fuzzer,address,undefined -fopenmp "$probe_dir/probe.cpp" \
    -o "$probe_dir/probe" >"$probe_dir/probe.log" 2>&1
}
if ! probe || ! command -v llvm-symbolizer >/dev/null 2>&1; then
  if [ "$(id -u)" -eq 0 ] && command -v apt-get >/dev/null 2>&1; then
    apt-get update -qq
    wanted=(clang libomp-dev llvm)
    # The sanitizer and libFuzzer runtimes are a package of their own in newer releases.
    ver=$(apt-cache show clang 2>/dev/null | sed -n 's/^Depends:.*clang-\([0-9][0-9]*\).*/\1/p' | head -1)
    for p in libclang-rt-dev ${ver:+libclang-rt-$ver-dev}; do
      apt-cache show "$p" >/dev/null 2>&1 && wanted+=("$p")
    done
    echo "fuzz: installing ${wanted[*]}"
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
      "${wanted[@]}" >/dev/null
  fi
  if ! probe; then
    echo "fuzz: clang++ cannot link a libFuzzer target with ASan, UBSan and OpenMP:" >&2
    cat "$probe_dir/probe.log" >&2 2>/dev/null || true
    echo "fuzz: install them, e.g.: sudo apt-get install -y clang libclang-rt-dev libomp-dev llvm" >&2
    exit 3
  fi
fi
symbolizer=$(command -v llvm-symbolizer || true)

# --- build ------------------------------------------------------------------------------------
mkdir -p "$build"
# The fuzzed readers are host code; the config target links the steps too, whose device code
# is built for one architecture only (the default, with no GPU, would be every one ladder
# supports).
cmake -S . -B "$build" -DCMAKE_CXX_COMPILER=clang++ -DLADDER_FUZZ=ON \
  -DCMAKE_CUDA_ARCHITECTURES="${FUZZ_CUDA_ARCHITECTURES:-80-real}" \
  -DCMAKE_BUILD_TYPE=RelWithDebInfo >"$build/configure.log" 2>&1 || {
  cat "$build/configure.log" >&2
  echo "fuzz: configuring $build failed" >&2
  exit 3
}
cmake --build "$build" -j "$jobs" --target "${targets[@]/#/fuzz_}" || {
  echo "fuzz: building the fuzz targets failed" >&2
  exit 3
}

# --- run --------------------------------------------------------------------------------------
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:check_initialization_order=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
[ -n "$symbolizer" ] && export ASAN_SYMBOLIZER_PATH=$symbolizer

declare -A extension=([config]=json [results]=json [reuse]=json [ucr]=tsv [npy]=npy [idx]=idx [strings]=txt
                      [points]=csv [series_npy]=npy [cpuinfo]=txt [ncu_csv]=csv [shards]=bin [costs]=bin
                      [ingest]=json [export]=json)

# A short name for what went wrong, from the fuzzer's log.
cause_of() {
  local log=$1 c
  if c=$(grep -m1 -o "terminate called after throwing an instance of '[^']*'" "$log"); then
    c="uncaught-$(echo "$c" | sed "s/.*instance of '\(.*\)'/\1/")"
  elif grep -q 'broke its contract' "$log"; then
    c=broken-contract
  elif c=$(grep -m1 -o 'ERROR: AddressSanitizer: [a-z-]*' "$log"); then
    c="asan-${c##*: }"
  elif c=$(grep -m1 -o 'runtime error: [a-z ]*' "$log"); then
    c="ubsan-$(echo "${c#runtime error: }" | cut -d' ' -f1-4)"
  elif grep -q 'ERROR: LeakSanitizer' "$log"; then
    c=leak
  elif c=$(grep -m1 -o 'ERROR: libFuzzer: [a-z-]*' "$log"); then
    c=${c##*: }
  else
    c=unknown
  fi
  echo "$c" | tr -c 'A-Za-z0-9_\n-' '-' | tr -s '-' | sed 's/-$//' | cut -c1-60
}

# The part of the log that explains the finding: from the first report line on.
report_of() {
  awk '/terminate called|==ERROR:|runtime error:|broke its contract|ERROR: libFuzzer/ {on=1}
       on {print; if (++n >= 60) exit}' "$1"
}

failed=()
summary=()
for t in "${targets[@]}"; do
  bin="$build/tests/fuzz/fuzz_$t"
  work="$build/fuzz-run/$t"
  rm -rf "$work"
  mkdir -p "$work/corpus" "$work/artifacts"
  # The seeds and the known regressions, copied: new inputs go to the copy only.
  find "tests/fuzz/corpus/$t" -type f ! -name '.*' -exec cp {} "$work/corpus/" \;
  for f in "tests/fuzz/regressions/$t"/*; do
    [ -f "$f" ] && cp "$f" "$work/corpus/regression-$(basename "$f")"
  done
  seeds=$(find "$work/corpus" -type f | wc -l)
  dict=()
  [ -f "tests/fuzz/dict/$t.dict" ] && dict=("-dict=tests/fuzz/dict/$t.dict")

  echo "fuzz: $t: ${seconds} s from $seeds seed(s) (log: $work/log)"
  start=$(date +%s)
  rc=0
  # libFuzzer stops itself at max_total_time; the outer timeout only guards against a hang
  # it cannot interrupt.
  timeout -k 30 $((seconds + 300)) "$bin" -max_total_time="$seconds" -timeout=10 \
    -rss_limit_mb=2048 -print_final_stats=1 -artifact_prefix="$work/artifacts/" \
    "${dict[@]}" "$work/corpus" >"$work/log" 2>&1 || rc=$?
  elapsed=$(( $(date +%s) - start ))
  execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$work/log" | tail -1)
  # Without final stats (the run stopped on a finding), the last status line's count.
  [ -n "$execs" ] || execs=$(grep -o '^#[0-9]*' "$work/log" | tail -1 | tr -d '#')
  execs=${execs:-?}
  corpus_after=$(find "$work/corpus" -type f | wc -l)

  artifacts=()
  while IFS= read -r -d '' f; do artifacts+=("$f"); done < <(
    find "$work/artifacts" -type f \( -name 'crash-*' -o -name 'timeout-*' -o -name 'oom-*' \
      -o -name 'leak-*' \) -print0 | sort -z)

  if [ "$rc" -eq 0 ] && [ ${#artifacts[@]} -eq 0 ] && [ "$elapsed" -ge "$seconds" ]; then
    line="$t: ran ${elapsed} s, $execs executions, corpus $seeds -> $corpus_after inputs, no finding"
    echo "fuzz: $line"
    summary+=("$line")
    continue
  fi

  failed+=("$t")
  if [ ${#artifacts[@]} -eq 0 ]; then
    line="$t: FAILED after ${elapsed} s (exit $rc) without an input to keep; see $work/log"
    echo "fuzz: $line" >&2
    tail -n 40 "$work/log" >&2
    summary+=("$line")
    continue
  fi
  # libFuzzer stops at its first finding.
  a=${artifacts[0]}
  kind=$(basename "$a" | cut -d- -f1)
  log=$work/log
  cause=$(cause_of "$log")
  dest_dir=tests/fuzz/regressions/$t
  known=""
  for r in "$dest_dir"/*; do
    if [ -f "$r" ] && cmp -s "$a" "$r"; then known=$r; break; fi
  done
  if [ -z "$known" ] && [ "$kind" = crash ]; then
    # A smaller input that fails the same way is easier to read; libFuzzer looks for one.
    min=$work/minimized
    "$bin" -minimize_crash=1 -max_total_time=30 -timeout=10 -rss_limit_mb=2048 \
      -exact_artifact_path="$min" "$a" >"$work/minimize.log" 2>&1 || true
    if [ -s "$min" ] && [ "$(stat -c %s "$min")" -lt "$(stat -c %s "$a")" ] &&
       ! "$bin" "$min" >"$work/minimized.log" 2>&1 &&
       [ "$(cause_of "$work/minimized.log")" = "$cause" ]; then
      a=$min
      log=$work/minimized.log
    fi
  fi
  if [ -n "$known" ]; then
    input=$known
    line="$t: $kind ($cause) on the known regression $known: fix the reader"
  else
    case "$kind" in crash) name="$kind-$cause" ;; *) name="$kind" ;; esac
    input="$dest_dir/$name-$(sha1sum "$a" | cut -c1-12).${extension[$t]}"
    cp "$a" "$input"
    line="$t: $kind ($cause) after ${elapsed} s, $execs executions; input kept as $input"
  fi
  echo "fuzz: $line" >&2
  summary+=("$line")
  {
    echo "---- $t: what the fuzzer reported ($log) ----"
    report_of "$log"
    if [ "$(stat -c %s "$input")" -le 4096 ]; then
      echo "---- the input, base64 (recover it from a CI log with base64 -d) ----"
      base64 "$input"
    fi
    echo "----"
    echo "Reproduce: $bin $input"
    echo "       or, in a normal build: build/tests/fuzz/replay_$t $input"
    if [ -n "$known" ]; then
      echo "Fix the cause in the reader; ctest -R fuzz.replay.$t fails until then."
    else
      echo "Commit $input and fix the cause in the reader: ctest's fuzz.replay.$t"
      echo "replays it on every test run from then on."
    fi
  } >&2
done

echo "fuzz: summary"
for s in "${summary[@]}"; do echo "  $s"; done
if [ ${#failed[@]} -gt 0 ]; then
  echo "fuzz: FAILED: ${failed[*]}" >&2
  exit 1
fi
echo "fuzz: every target ran ${seconds} s without a finding"

#!/usr/bin/env bash
# CI test of scripts/slurm/ on a real one-node Slurm cluster (tests/slurm/cluster.sh, 8 fake
# GPUs): submits a 7-shard reproduction through submit.sh with a fake ladder, waits for the
# merge job, and checks that every shard ran, each on a GPU of its own, and that the merge and
# the finishing reproduce ran. Exits 0 on success, 1 on failure, 77 (skip) without Slurm or
# root. SELFTEST_TIMEOUT (seconds, default 180) bounds the wait for the jobs.
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$here/../.." && pwd)
shards=7
timeout=${SELFTEST_TIMEOUT:-180}
begin=$SECONDS

# shellcheck source=tests/slurm/lib.sh
. "$here/lib.sh"
start_cluster
started=$SECONDS

# The fake ladder: a shard records what it saw, then holds its GPU until every shard has
# started (so all 7 ran at once and their GPUs had to differ); merge lists the shards present
# and, like ladder's, exits 1 naming the missing ones.
cat >"$tmp/ladder" <<'EOF'
#!/usr/bin/env bash
set -euo pipefail
cmd=$1; shift
if [ "$cmd" = merge ]; then
  dest=$1 from=$2
  ls "$from" >"$dest/merged.txt"
  n=$(ls "$from" | sed -n '1s/.*-of-//p')
  missing=$(for k in $(seq 0 $((${n:-1} - 1))); do [ -d "$from/$k-of-$n" ] || echo "$k"; done)
  [ -z "$missing" ] || { echo "fake merge: missing shards:" $missing; exit 1; }
  echo "fake merge: $(wc -l <"$dest/merged.txt") shards"
  exit 0
fi
[ "$cmd" = reproduce ] || { echo "fake ladder: unexpected command $cmd" >&2; exit 2; }
shard='' out='' scale=''
while [ $# -gt 0 ]; do
  case $1 in
    --shard) shard=$2 ;; --out) out=$2 ;; --scale) scale=$2 ;;
    *) echo "fake ladder: unexpected argument $1" >&2; exit 2 ;;
  esac
  shift 2
done
if [ -z "$shard" ]; then # the merge job's finishing reproduce
  echo "scale=$scale CUDA_VISIBLE_DEVICES=${CUDA_VISIBLE_DEVICES-unset}" >"$out/finished.txt"
  exit 0
fi
k=${shard%/*} n=${shard#*/}
dir=$out/shards/$k-of-$n
mkdir -p "$dir"
printf '%s\n' "K=$k" "N=$n" "scale=$scale" "CUDA_VISIBLE_DEVICES=${CUDA_VISIBLE_DEVICES-unset}" \
  "SLURM_JOB_GPUS=${SLURM_JOB_GPUS-unset}" "SLURM_STEP_GPUS=${SLURM_STEP_GPUS-unset}" \
  "SLURM_ARRAY_TASK_ID=${SLURM_ARRAY_TASK_ID-unset}" >"$dir/seen.tmp"
mv "$dir/seen.tmp" "$dir/seen.txt"
for _ in $(seq 600); do
  if [ "$(ls "$out"/shards/*/seen.txt | wc -l)" -ge "$n" ]; then
    echo together >"$dir/together.txt"
    exit 0
  fi
  sleep 0.1
done
echo "fake ladder: shard $k: not every shard started within 60 s" >&2
exit 1
EOF
chmod +x "$tmp/ladder"

submit_and_wait "$timeout" --shards $shards --throttle 8 --scale quick \
  --ladder "$tmp/ladder" --out "$tmp/out" -- --time=10
ran=$((SECONDS - started))

gpus=()
for k in $(seq 0 $((shards - 1))); do
  f=$tmp/out/shards/$k-of-$shards/seen.txt
  [ -f "$f" ] || fail "shard $k did not run (no $f)"
  { grep -qx "K=$k" "$f" && grep -qx "N=$shards" "$f" && grep -qx scale=quick "$f"; } ||
    fail "shard $k saw: $(tr '\n' ' ' <"$f")"
  cvd=$(sed -n 's/^CUDA_VISIBLE_DEVICES=//p' "$f") job_gpus=$(sed -n 's/^SLURM_JOB_GPUS=//p' "$f")
  [[ $cvd =~ ^[0-7]$ ]] || fail "shard $k: CUDA_VISIBLE_DEVICES='$cvd', not one GPU"
  # Equal without ConstrainDevices (on a real cluster CUDA_VISIBLE_DEVICES may be 0 in each job).
  [ "$job_gpus" = "$cvd" ] || fail "shard $k: SLURM_JOB_GPUS=$job_gpus but CUDA_VISIBLE_DEVICES=$cvd"
  [ -f "${f%/*}/together.txt" ] || fail "shard $k: not every shard was running at once"
  gpus+=("$k:$cvd")
done
dups=$(printf '%s\n' "${gpus[@]}" | cut -d: -f2 | sort | uniq -d)
[ -z "$dups" ] || fail "shards shared GPUs ${dups//$'\n'/ } (shard:GPU ${gpus[*]})"
[ -f "$tmp/out/merged.txt" ] || fail "merge did not run"
[ "$(wc -l <"$tmp/out/merged.txt")" = $shards ] || fail "merge saw $(wc -l <"$tmp/out/merged.txt") shards"
grep -q '^scale=quick CUDA_VISIBLE_DEVICES=[0-7]$' "$tmp/out/finished.txt" ||
  fail "finishing reproduce: $(cat "$tmp/out/finished.txt" 2>/dev/null || echo 'did not run')"

ok=1
echo "selftest: passed: $shards shards on GPUs (shard:GPU) ${gpus[*]}, merged and finished;" \
  "cluster up in $((started - begin)) s, jobs done in $ran s, $((SECONDS - begin)) s in all"

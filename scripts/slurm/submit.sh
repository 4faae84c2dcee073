#!/usr/bin/env bash
# Runs a ladder reproduction, or one config, on a Slurm cluster: an array of N tasks, each one
# shard on one GPU (ladder-shard.sbatch), then a job that waits for every task to end, merges
# the shards and, for a reproduction, adds the peers, figures and report (ladder-merge.sbatch).
#   scripts/slurm/submit.sh --shards N [--throttle G] [--partition P] [--constraint C]
#     [--scale paper|quick] [--config CONFIG] [--out DIR] [--ladder PATH] [--no-finish]
#     [-- extra sbatch args, e.g. --time=1:00:00 --account=A]
# --throttle G runs at most G shards at once; --no-finish stops after the merge. The jobs run
# from the project's folder, which (with --ladder, default build/ladder, and --out, default
# results/reproduction/slurm-<UTC time>) must be on a file system the GPU nodes share.
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$here/../.." && pwd)
die() { echo "submit.sh: $*" >&2; exit 2; }
abs() { case $1 in /*) echo "$1" ;; *) echo "$PWD/$1" ;; esac; }
posint() { [[ $2 =~ ^[1-9][0-9]{0,5}$ ]] || die "$1 must be a positive integer, not '$2'"; }

shards='' throttle='' partition='' constraint='' scale='' config='' out=''
ladder=$root/build/ladder finish=1
extra=()
while [ $# -gt 0 ]; do
  case $1 in
    --*=*) opt=${1%%=*} val=${1#*=}; shift; set -- "$opt" "$val" "$@"; continue ;;
    --shards | --throttle | --partition | --constraint | --scale | --config | --out | --ladder)
      { [ $# -ge 2 ] && [ -n "$2" ]; } || die "$1 needs a value"
      v=${1#--}; printf -v "$v" %s "$2"; shift 2 ;;
    --no-finish) finish=0; shift ;;
    --) shift; extra=("$@"); break ;;
    -h | --help) sed -n '2,10p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) die "unknown argument '$1' (sbatch's own go after --)" ;;
  esac
done

[ -n "$shards" ] || die "--shards N is required"
posint --shards "$shards"
[ -z "$throttle" ] || posint --throttle "$throttle"
if [ -n "$config" ]; then
  [ -f "$config" ] || die "--config: no such file '$config'"
  [ -z "$scale" ] || die "--scale is for a reproduction, not --config"
  [ $finish = 1 ] || die "--no-finish is for a reproduction, not --config"
  config=$(abs "$config")
else
  scale=${scale:-paper}
  [[ $scale =~ ^(paper|quick)$ ]] || die "--scale must be paper or quick, not '$scale'"
fi
ladder=$(abs "$ladder")
{ [ -f "$ladder" ] && [ -x "$ladder" ]; } || die "--ladder: '$ladder' is not an executable file (make build)"
out=$(abs "${out:-$root/results/reproduction/slurm-$(date -u +%Y%m%dT%H%M%SZ)}")
# --export's list is comma separated, with no quoting.
for v in "$ladder" "$out" "$config"; do [[ $v != *,* ]] || die "paths must not hold a comma: '$v'"; done
# The logs' paths are Slurm filename patterns: a % in the folder (res%j) would be expanded, a
# backslash turns the patterns off, and the task could not open its log.
[[ $out != *[%\\]* ]] || die "--out must not hold '%' or a backslash (Slurm expands them in the log path): '$out'"
if [ -d "$out/shards" ] && [ -n "$(ls -A "$out/shards")" ]; then
  die "$out/shards already holds shards (another run's?); choose another --out"
fi
command -v sbatch >/dev/null || { echo "submit.sh: sbatch not found (run this where Slurm is)" >&2; exit 1; }

mkdir -p "$out/shards" "$out/logs" # Slurm does not create --output's folder
vars=LADDER=$ladder,LADDER_SHARDS=$shards,LADDER_OUT=$out,LADDER_SCALE=$scale
vars+=,LADDER_CONFIG=$config,LADDER_FINISH=$finish
common=(--chdir="$root" --export="ALL,$vars")
[ -z "$partition" ] || common+=(--partition="$partition")
[ -z "$constraint" ] || common+=(--constraint="$constraint")

job=$(sbatch --parsable --array="0-$((shards - 1))${throttle:+%$throttle}" \
  --output="$out/logs/shard-%a.out" "${common[@]}" "${extra[@]}" "$here/ladder-shard.sbatch")
job=${job%%;*} # "id;cluster" on a federation
# The finishing `reproduce` reuses the merged results only on the shards' GPU model (and runs
# the peers on it), so it gets a GPU of the same partition and constraint.
merge_gpu=()
[ -n "$config" ] || [ $finish = 0 ] || merge_gpu=(--gres=gpu:1)
if ! merge=$(sbatch --parsable --dependency="afterany:$job" --output="$out/logs/merge.out" \
  "${common[@]}" "${merge_gpu[@]}" "${extra[@]}" "$here/ladder-merge.sbatch"); then
  scancel "$job" || true
  echo "submit.sh: the merge job was not accepted; cancelled the shards' array $job" >&2
  exit 1
fi
merge=${merge%%;*}

echo "shards: array job $job ($shards tasks${throttle:+, at most $throttle at once})," \
  "logs $out/logs/shard-K.out"
echo "merge:  job $merge (after every shard ends), log $out/logs/merge.out"
echo "watch:  squeue -j $job,$merge    results: $out"

# shellcheck shell=bash disable=SC2154 # here and root: set by the sourcing script
# Shared by the Slurm tests (sourced): a temporary folder with a running one-node cluster,
# failure reports, and submitting through scripts/slurm/submit.sh and waiting for the merge.
# The sourcing script sets `here` (this folder) and `root` (the project's).

# Starts the cluster in a fresh temporary folder ($tmp); exits 77 (skip) when Slurm is not
# installed or we are not root, 1 when it does not start. The cluster is stopped on exit.
start_cluster() {
  tmp=$(mktemp -d)
  chmod 755 "$tmp" # munged wants every folder above its socket searchable by all
  ok=0
  trap stop_cluster EXIT
  local rc=0
  "$here/cluster.sh" start "$tmp/cluster" || rc=$?
  if [ $rc = 77 ]; then ok=1; exit 77; fi # cluster.sh printed what is missing
  [ $rc = 0 ] || { ok=1; exit 1; }        # it printed its logs and stopped what it started
  # shellcheck disable=SC1091 # written by cluster.sh
  . "$tmp/cluster/env"
}

stop_cluster() {
  "$here/cluster.sh" stop "$tmp/cluster" || true
  if [ "$ok" = 1 ]; then rm -rf "$tmp"; else echo "$(basename "$0"): kept $tmp for a look" >&2; fi
}

fail() {
  echo "$(basename "$0"): FAIL: $*" >&2
  for f in "$tmp"/*/logs/*.out; do [ -f "$f" ] && { echo "== $f" >&2; tail -n 20 "$f" >&2; }; done
  squeue >&2 || true
  echo "== slurmctld.log" >&2; tail -n 20 "$tmp/cluster/log/slurmctld.log" >&2 || true
  exit 1
}

# submit_and_wait TIMEOUT SUBMIT_ARGS...: submits through submit.sh and waits for its merge
# job to end; fails unless it COMPLETED. No accounting here, so the merge job's end comes from
# scontrol, which keeps finished jobs for MinJobAge (300 s). Its state does not say whether the
# shards ran (afterany: it runs however they ended), so callers check the files.
submit_and_wait() {
  local timeout=$1 submitted array merge state='' started=$SECONDS
  shift
  submitted=$("$root/scripts/slurm/submit.sh" "$@") || fail "submit.sh $* exited $?"
  echo "$submitted"
  array=$(sed -n 's/^shards: array job \([0-9]*\).*/\1/p' <<<"$submitted")
  merge=$(sed -n 's/^merge: *job \([0-9]*\).*/\1/p' <<<"$submitted")
  { [ -n "$array" ] && [ -n "$merge" ]; } || fail "no job ids in submit.sh's output"
  while [ $((SECONDS - started)) -lt "$timeout" ]; do
    state=$(scontrol show job "$merge" 2>/dev/null | sed -n 's/.*JobState=\([A-Z_]*\).*/\1/p')
    case $state in PENDING | RUNNING | CONFIGURING | COMPLETING | "") sleep 0.5 ;; *) break ;; esac
  done
  [ "$state" = COMPLETED ] || fail "merge job $merge: ${state:-not found} after $((SECONDS - started)) s"
}

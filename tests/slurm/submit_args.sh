#!/usr/bin/env bash
# scripts/slurm/submit.sh's checks of --out, without a cluster: a stand-in sbatch on PATH
# records what it is given. The logs' paths are Slurm filename patterns, so an --out holding
# '%' (res%j: Slurm would expand it, and the task could not open its log) or a backslash (it
# turns the patterns off) is refused: exit 2, one line on stderr, nothing submitted and no
# folder made, whether the % comes from --out itself or from the folder a relative --out is
# taken in. A plain --out is submitted with its logs' paths as given. Exits 0 or 1.
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$here/../.." && pwd)
tmp=$(mktemp -d) io=$(mktemp -d) # io: what the test itself writes, apart from what it watches
trap 'rm -rf "$tmp" "$io"' EXIT
failed=0
fail() { echo "submit_args.sh: FAIL: $*" >&2; failed=1; }

mkdir -p "$io/bin" "$tmp/work"
cat >"$io/bin/sbatch" <<EOF
#!/usr/bin/env bash
printf '%s\n' "\$@" >>"$io/sbatch.args"
echo 42
EOF
printf '#!/bin/sh\nexit 0\n' >"$io/ladder"
chmod +x "$io/bin/sbatch" "$io/ladder"

# submit CWD OUT: runs submit.sh in CWD with --out OUT; sets status, out and err.
submit() {
  status=0
  (cd "$1" && PATH="$io/bin:$PATH" "$root/scripts/slurm/submit.sh" --shards 2 \
    --ladder "$io/ladder" --out "$2" >"$io/stdout" 2>"$io/stderr") || status=$?
  out=$(cat "$io/stdout") err=$(cat "$io/stderr")
}

refused() {
  local cwd=$1 given=$2 before
  before=$(cd "$tmp" && find . | sort)
  submit "$cwd" "$given"
  [ "$status" = 2 ] || fail "--out '$given' in $cwd: exit $status, want 2 ($err)"
  { [ -n "$err" ] && [ "$(printf '%s\n' "$err" | wc -l)" = 1 ]; } ||
    fail "--out '$given': stderr '$err', want one line"
  [[ $err == *"--out"* ]] || fail "--out '$given': the line does not name --out: $err"
  [ -z "$out" ] || fail "--out '$given': stdout '$out'"
  [ ! -e "$io/sbatch.args" ] || fail "--out '$given': sbatch was called: $(cat "$io/sbatch.args")"
  [ "$(cd "$tmp" && find . | sort)" = "$before" ] ||
    fail "--out '$given' made $(cd "$tmp" && find . | sort | comm -13 <(echo "$before") -)"
  rm -f "$io/sbatch.args"
}

refused "$tmp/work" "$tmp/res%j"
refused "$tmp/work" 'res%j'
refused "$tmp/work" "$tmp/a\\b"
mkdir "$tmp/50%" && refused "$tmp/50%" out

submit "$tmp/work" "$tmp/res"
[ "$status" = 0 ] || fail "a plain --out: exit $status ($err)"
grep -qx -- "--output=$tmp/res/logs/shard-%a.out" "$io/sbatch.args" ||
  fail "a plain --out: the shards' log is not $tmp/res/logs/shard-%a.out: $(cat "$io/sbatch.args")"

[ $failed = 0 ] && echo "ok: submit.sh refuses % and backslashes in --out"
exit $failed

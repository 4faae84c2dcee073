#!/usr/bin/env bash
# Runs ladder on bad input and checks the error contract.
#
#   expect_error.sh LADDER SCRATCH_ROOT [--status N] [--match TEXT] [--mkdir NAME]... -- ARGS...
#
# LADDER is the binary, SCRATCH_ROOT a directory under which a fresh working directory is
# made for this run (the binary runs with that as its current directory, so relative paths
# in ARGS, such as `--out out.json`, land there). --mkdir creates a directory inside the
# working directory before the run (for cases that need one to exist). --match TEXT requires
# the error line to contain TEXT (case-insensitive): the offending value or name, so that a
# case cannot pass by failing for some other reason.
#
# The contract for bad input (harness/cli/main.cpp):
#   - exit status N (2 unless --status says otherwise), within a time limit (no hang);
#   - stderr is exactly one line, beginning with "ladder: error: ", and naming no
#     internal error, CUDA error, uncaught exception or crash (and containing --match TEXT);
#   - nothing on stdout (nothing ran);
#   - no file is created: no out.json (the --out the cases pass) and nothing else new in the
#     working directory (no results/ default, no temporary file left behind).
# On failure, prints the reason and what the binary printed, and exits 1.
set -u

die_usage() {
  echo "usage: expect_error.sh LADDER SCRATCH_ROOT [--status N] [--match TEXT]" \
       "[--mkdir NAME]... -- ARGS..." >&2
  exit 64
}

[ $# -ge 3 ] || die_usage
ladder=$1
scratch_root=$2
shift 2
want_status=2
mkdirs=()
match=
while [ $# -gt 0 ] && [ "$1" != "--" ]; do
  case $1 in
    --status) [ $# -ge 2 ] || die_usage; want_status=$2; shift 2 ;;
    --mkdir) [ $# -ge 2 ] || die_usage; mkdirs+=("$2"); shift 2 ;;
    --match) [ $# -ge 2 ] || die_usage; match=$2; shift 2 ;;
    *) die_usage ;;
  esac
done
[ "${1:-}" = "--" ] || die_usage
shift
time_limit=${LADDER_TEST_TIMEOUT:-60}

case $ladder in /*) ;; *) ladder=$PWD/$ladder ;; esac
[ -x "$ladder" ] || { echo "FAIL: ladder binary '$ladder' is not executable" >&2; exit 1; }
mkdir -p "$scratch_root" || exit 1
work=$(mktemp -d "$scratch_root/bad.XXXXXX") || exit 1
trap 'rm -rf "$work"' EXIT
cd "$work" || exit 1
mkdir -p _capture
for d in "${mkdirs[@]+"${mkdirs[@]}"}"; do mkdir -p "$d" || exit 1; done
before=$(find . -path ./_capture -prune -o -print | LC_ALL=C sort)

timeout -k 5 "$time_limit" "$ladder" "$@" >_capture/stdout 2>_capture/stderr </dev/null
status=$?

after=$(find . -path ./_capture -prune -o -print | LC_ALL=C sort)
stderr_text=$(cat _capture/stderr)
stdout_text=$(cat _capture/stdout)
stderr_lines=$(wc -l <_capture/stderr)
# A last line without a newline still counts as a line.
if [ -s _capture/stderr ] && [ "$(tail -c 1 _capture/stderr | od -An -c | tr -d ' ')" != '\n' ]; then
  stderr_lines=$((stderr_lines + 1))
fi

reasons=()
fail() { reasons+=("$1"); }

if [ $status -eq 124 ] || [ $status -eq 137 ]; then
  fail "did not finish within ${time_limit}s (hang?)"
elif [ $status -ge 128 ]; then
  fail "killed by signal $((status - 128)) (exit status $status): a crash"
elif [ $status -eq 0 ]; then
  fail "exit status 0: the bad input was accepted"
elif [ "$status" != "$want_status" ]; then
  fail "exit status $status, expected $want_status"
fi

if [ ! -s _capture/stderr ]; then
  fail "nothing on stderr"
else
  [ "$stderr_lines" -eq 1 ] || fail "stderr has $stderr_lines lines, expected exactly one"
  first=$(head -n 1 _capture/stderr)
  case $first in
    "ladder: error: "?*) ;;
    *) fail "stderr does not begin with 'ladder: error: <message>'" ;;
  esac
  if [ -n "$match" ] && [[ ${first,,} != *"${match,,}"* ]]; then
    fail "the error does not mention '$match' (failed for another reason?)"
  fi
fi
for bad in "internal error" "CUDA error" "terminate called" "what():" "Segmentation fault" \
           "Aborted" "core dumped" "stack trace" "Backtrace" "std::"; do
  case $stderr_text in *"$bad"*) fail "stderr mentions '$bad'" ;; esac
done
[ -z "$stdout_text" ] || fail "stdout is not empty (nothing should run on bad input)"
[ ! -e out.json ] || fail "the results file out.json was created"
if [ "$before" != "$after" ]; then
  new=$(comm -13 <(echo "$before") <(echo "$after") | tr '\n' ' ')
  fail "files were created in the working directory: ${new:-(changed listing)}"
fi

if [ ${#reasons[@]} -eq 0 ]; then
  echo "ok: exit $status: $stderr_text"
  exit 0
fi

{
  printf 'FAIL: ladder'
  printf ' %q' "$@" | cut -c 1-400
  echo
  for r in "${reasons[@]}"; do echo "  - $r"; done
  echo "  exit status: $status"
  echo "  --- stderr (first 40 lines, 300 chars each) ---"
  head -n 40 _capture/stderr | cut -c 1-300
  echo "  --- stdout (first 20 lines, 300 chars each) ---"
  head -n 20 _capture/stdout | cut -c 1-300
} >&2
exit 1

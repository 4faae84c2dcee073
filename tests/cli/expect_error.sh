#!/usr/bin/env bash
# Runs ladder on bad input and checks the error contract.
#
#   expect_error.sh LADDER SCRATCH_ROOT [OPTION]... -- ARGS...
#
# LADDER is the binary, SCRATCH_ROOT a directory under which a fresh working directory is
# made for this run (the binary runs with that as its current directory, so relative paths
# in ARGS, such as `--out out.json`, land there). Options:
#   --status N          the exit status wanted (2 by default);
#   --match TEXT        the error line must contain TEXT (case-insensitive): the offending
#                       value or name, so that a case cannot pass by failing for some other
#                       reason; may be given more than once (all must appear);
#   --match-any A|B|..  the error line must contain at least one of the '|'-separated texts
#                       (for a message that may name either of two things);
#   --reject TEXT       the error line must not contain TEXT (case-insensitive); repeatable;
#   --ascii             the error line must be printable ASCII (no byte of the input echoed raw);
#   --time-limit S      seconds the binary may take (default $LADDER_TEST_TIMEOUT or 60);
#   --as-limit KIB      run the binary under `ulimit -v KIB` (an address-space limit);
#   --mkdir NAME        create directory NAME in the working directory first (repeatable);
#   --readonly NAME     create directory NAME without write permission; when running as root
#                       (who may write anyway) the case is skipped with exit status 77;
#   --symlink NAME TARGET  create a symbolic link NAME -> TARGET first (repeatable);
#   --copy SOURCE NAME  copy the file SOURCE to NAME first (repeatable): an input the case may
#                       try to overwrite, never the committed fixture itself;
#   --fifo NAME         create a named pipe (FIFO) NAME first, with no writer: a reader that
#                       opens it to read would wait forever (repeatable).
#
# The contract for bad input (harness/cli/main.cpp):
#   - exit status N (2 unless --status says otherwise), within a time limit (no hang);
#   - stderr is exactly one line, beginning with "ladder: error: ", without control characters,
#     and naming no internal error, CUDA error, uncaught exception or crash (and containing
#     the --match texts);
#   - nothing on stdout (nothing ran);
#   - no file is created or changed: no out.json (the --out the cases pass) and nothing else
#     new in the working directory (no results/ default, no temporary file left behind, no
#     --symlink replaced by a file).
# On failure, prints the reason and what the binary printed, and exits 1.
set -u

die_usage() {
  echo "usage: expect_error.sh LADDER SCRATCH_ROOT [--status N] [--match TEXT]..." \
       "[--match-any A|B] [--reject TEXT]... [--ascii] [--time-limit S] [--as-limit KIB]" \
       "[--mkdir NAME]... [--readonly NAME]... [--symlink NAME TARGET]... [--copy SOURCE NAME]..." \
       "[--fifo NAME]... -- ARGS..." >&2
  exit 64
}

[ $# -ge 3 ] || die_usage
ladder=$1
scratch_root=$2
shift 2
want_status=2
mkdirs=()
readonly_dirs=()
links=()
copies=()
fifos=()
matches=()
match_any=
rejects=()
ascii=0
as_limit=
time_limit=${LADDER_TEST_TIMEOUT:-60}
while [ $# -gt 0 ] && [ "$1" != "--" ]; do
  case $1 in
    --status) [ $# -ge 2 ] || die_usage; want_status=$2; shift 2 ;;
    --mkdir) [ $# -ge 2 ] || die_usage; mkdirs+=("$2"); shift 2 ;;
    --readonly) [ $# -ge 2 ] || die_usage; readonly_dirs+=("$2"); shift 2 ;;
    --symlink) [ $# -ge 3 ] || die_usage; links+=("$2" "$3"); shift 3 ;;
    --copy) [ $# -ge 3 ] || die_usage; copies+=("$2" "$3"); shift 3 ;;
    --fifo) [ $# -ge 2 ] || die_usage; fifos+=("$2"); shift 2 ;;
    --match) [ $# -ge 2 ] || die_usage; [ -z "$2" ] || matches+=("$2"); shift 2 ;;
    --match-any) [ $# -ge 2 ] || die_usage; match_any=$2; shift 2 ;;
    --reject) [ $# -ge 2 ] || die_usage; rejects+=("$2"); shift 2 ;;
    --ascii) ascii=1; shift ;;
    --time-limit) [ $# -ge 2 ] || die_usage; time_limit=$2; shift 2 ;;
    --as-limit) [ $# -ge 2 ] || die_usage; as_limit=$2; shift 2 ;;
    *) die_usage ;;
  esac
done
[ "${1:-}" = "--" ] || die_usage
shift

if [ ${#readonly_dirs[@]} -gt 0 ] && [ "$(id -u)" = 0 ]; then
  echo "SKIP: running as root, who may write into a read-only directory anyway" \
       "(${readonly_dirs[*]})"
  exit 77
fi

case $ladder in /*) ;; *) ladder=$PWD/$ladder ;; esac
[ -x "$ladder" ] || { echo "FAIL: ladder binary '$ladder' is not executable" >&2; exit 1; }
mkdir -p "$scratch_root" || exit 1
work=$(mktemp -d "$scratch_root/bad.XXXXXX") || exit 1
trap 'chmod -R u+w "$work" 2>/dev/null; rm -rf "$work"' EXIT
cd "$work" || exit 1
mkdir -p _capture
for d in "${mkdirs[@]+"${mkdirs[@]}"}"; do mkdir -p "$d" || exit 1; done
for d in "${readonly_dirs[@]+"${readonly_dirs[@]}"}"; do
  mkdir -p "$d" && chmod a-w "$d" || exit 1
done
for ((i = 0; i < ${#copies[@]}; i += 2)); do cp "${copies[i]}" "${copies[i+1]}" || exit 1; done
for ((i = 0; i < ${#links[@]}; i += 2)); do ln -s "${links[i+1]}" "${links[i]}" || exit 1; done
for f in "${fifos[@]+"${fifos[@]}"}"; do mkfifo "$f" || exit 1; done
# Type, name and (for links) target of everything, and the size of files: a link replaced by
# a file shows up too, and so does an input overwritten by an output.
listing() {
  find . -path ./_capture -prune -o -type f -printf '%y %p %s\n' -o -printf '%y %p -> %l\n' |
    LC_ALL=C sort
}
before=$(listing)

if [ -n "$as_limit" ]; then
  (ulimit -v "$as_limit" && exec timeout -k 5 "$time_limit" "$ladder" "$@") \
    >_capture/stdout 2>_capture/stderr </dev/null
else
  timeout -k 5 "$time_limit" "$ladder" "$@" >_capture/stdout 2>_capture/stderr </dev/null
fi
status=$?

after=$(listing)
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
  for m in "${matches[@]+"${matches[@]}"}"; do
    [[ ${first,,} == *"${m,,}"* ]] || fail "the error does not mention '$m' (failed for another reason?)"
  done
  if [ -n "$match_any" ]; then
    found=0
    IFS='|' read -r -a alternatives <<<"$match_any"
    for m in "${alternatives[@]}"; do [[ ${first,,} == *"${m,,}"* ]] && found=1; done
    [ $found = 1 ] || fail "the error mentions none of '$match_any' (failed for another reason?)"
  fi
  for r in "${rejects[@]+"${rejects[@]}"}"; do
    [[ ${first,,} != *"${r,,}"* ]] || fail "the error mentions '$r'"
  done
  # Control characters (a raw NUL, a carriage return, an escape) have no place in the line.
  if [ "$(LC_ALL=C tr -d '\t\n\040-\176\200-\377' <_capture/stderr | wc -c)" != 0 ]; then
    fail "stderr holds control characters: $(LC_ALL=C od -An -c _capture/stderr | tr -s ' ' | head -c 300)"
  fi
  if [ $ascii = 1 ] && [ "$(LC_ALL=C tr -d '\n\040-\176' <_capture/stderr | wc -c)" != 0 ]; then
    fail "stderr is not printable ASCII: $(LC_ALL=C od -An -c _capture/stderr | tr -s ' ' | head -c 300)"
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
  fail "files were created or changed in the working directory: ${new:-(changed listing)}"
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

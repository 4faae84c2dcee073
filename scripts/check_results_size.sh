#!/usr/bin/env bash
# Keeps results/ from swamping the code: fails when a file git tracks (or has staged) under
# results/ is an image (PNG, PDF, SVG, JPEG, GIF) or over 2 MB. Figures are drawn from the
# results files beside them (`make figures`), so none need committing; a results file over 2 MB
# holds something else than runs (raw samples, a data dump).
# Usage: scripts/check_results_size.sh [REPO]   (default: the checkout this script is in)
# Exit status: 0 when every file passes; 1, naming each file that does not; 2 for bad usage;
# 77 when REPO is not a git checkout (a release tarball: nothing in it is about to be committed).
set -euo pipefail
[ $# -le 1 ] || { echo "usage: scripts/check_results_size.sh [REPO]" >&2; exit 2; }
repo=${1:-$(dirname "$0")/..}
limit=$((2 * 1024 * 1024))
cd "$repo" || exit 2
if ! git rev-parse --is-inside-work-tree >/dev/null 2>&1; then
  echo "check_results_size: $PWD is not a git checkout: nothing to check"
  exit 77
fi
cd "$(git rev-parse --show-toplevel)"
# Each index entry ("MODE BLOB STAGE<tab>PATH"): its blob's size is what a commit would add,
# whatever the working tree holds. One cat-file for all of them.
mapfile -d '' entries < <(git ls-files -s -z -- results)
paths=()
blobs=()
for entry in "${entries[@]}"; do
  read -r _ blob _ <<<"${entry%%$'\t'*}"
  blobs+=("$blob")
  paths+=("${entry#*$'\t'}")
done
sizes=()
if [ ${#blobs[@]} -gt 0 ]; then
  mapfile -t sizes < <(printf '%s\n' "${blobs[@]}" | git cat-file --batch-check='%(objectsize)')
fi
shopt -s nocasematch
bad=0
for i in "${!paths[@]}"; do
  path=${paths[$i]}
  case "$path" in
    *.png | *.pdf | *.svg | *.jpg | *.jpeg | *.gif)
      echo "check_results_size: $path: an image; figures are drawn from the results files (make figures), never committed" >&2
      bad=$((bad + 1))
      continue
      ;;
  esac
  if [ "${sizes[$i]:-0}" -gt "$limit" ]; then
    echo "check_results_size: $path: ${sizes[$i]} bytes, over the 2 MB limit for files under results/" >&2
    bad=$((bad + 1))
  fi
done
checked=${#paths[@]}
if [ "$bad" -gt 0 ]; then
  echo "check_results_size: $bad of $checked files under results/ are images or over 2 MB" >&2
  exit 1
fi
echo "check_results_size: $checked files under results/, no image, none over 2 MB"

#!/usr/bin/env bash
# Our KenKen grading against Keen's own levels: Keen generates COUNT puzzles at each level
# (easy < normal < hard < extreme < unreasonable) for each size with fixed seeds
# ('6de#gamma' ...); we rate them from their game IDs and report Goodman-Kruskal gamma of our
# step count, hardest level and grade against Keen's level. Installs sgt-puzzles if absent.
#
# Usage: scripts/keen-gamma.sh [COUNT] [SIZES...]   (default: 20 puzzles per level, sizes 6 9)
case "${1:-}" in -h | --help) sed -n '2,/^set -/{/^#/s/^# \{0,1\}//p}' "$0"; exit 0 ;; esac
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
count=${1:-20}; shift || true
sizes=${*:-6 9}
. "$here/scripts/common.sh"
ensure_keen
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
for size in $sizes; do
  : > "$tmp/ids"; : > "$tmp/labels"
  for level in e n h x u; do
    "$keen" --generate "$count" "${size}d${level}#gamma" 2>/dev/null | grep -E '^[0-9]+:' | while read -r id; do
      echo "$id" >> "$tmp/ids"; echo "$level" >> "$tmp/labels"
    done
  done
  "$bin" --kind kenken rate --quiet "$tmp/ids" | cut -d, -f2-4 | sed '1s/.*/grade,steps,hardest_level/' > "$tmp/ours.csv"
  echo "size $size ($(wc -l < "$tmp/ids") Keen puzzles; levels e<n<h<x<u)"
  python3 "$here/scripts/gamma.py" "$tmp/labels" e,n,h,x,u "$tmp/ours.csv"
done

#!/usr/bin/env bash
# KenKen calibration against Keen's levels: Keen generates COUNT puzzles at each level (easy <
# normal < hard < extreme < unreasonable) for each size with fixed seeds ('6de#calib', ...),
# written as a calibrate reference (game ID <tab> level); `calibrate --kind kenken` fits our
# thresholds (three cut points maximising tau-b over the five levels, plus the hardest-level
# floor) on 70% and reports gamma on the held-out 30%, with a report (SVG plots) per size in
# OUT_DIR. Installs sgt-puzzles if absent.
#
# Usage: scripts/keen-calibrate.sh [COUNT] [OUT_DIR] [SIZES...]   (default: 60, output/keen-calibration, 6 9)
case "${1:-}" in -h | --help) sed -n '2,/^set -/{/^#/s/^# \{0,1\}//p}' "$0"; exit 0 ;; esac
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
count=${1:-60}; out=${2:-$here/output/keen-calibration}; shift $(( $# < 2 ? $# : 2 ))
sizes=${*:-6 9}
. "$here/scripts/common.sh"
ensure_keen
mkdir -p "$out"
for size in $sizes; do
  ref="$out/keen-$size.txt"
  : > "$ref"
  for level in e n h x u; do
    "$keen" --generate "$count" "${size}d${level}#calib" 2>/dev/null | grep -E '^[0-9]+:' | sed "s/\$/\t$level/" >> "$ref"
  done
  echo "== size $size: $(wc -l < "$ref") Keen puzzles (levels e<n<h<x<u) in $ref"
  "$bin" --kind kenken calibrate --quiet --reference "$ref" --levels e,n,h,x,u --holdout 0.3 --seed 1 \
    --report "$out/report-$size" | grep -E "method|gamma"
  "$bin" --kind kenken calibrate --quiet --reference "$ref" --levels e,n,h,x,u --holdout 0.3 --seed 1 \
    --floor --report "$out/report-$size-floor" --write-config "$out/kenken-$size.toml"
done

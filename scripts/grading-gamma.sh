#!/usr/bin/env bash
# Grading sanity: Goodman-Kruskal gamma between reference difficulty labels and our step count,
# our hardest level used and our four grades, with QQWing's own four classes on the same puzzles
# computed in the same run. Installs the Debian package qqwing if it is absent.
#
# Usage: scripts/grading-gamma.sh [DATA_DIR]   (default: ../shared/data/sudoku)
case "${1:-}" in -h | --help) sed -n '2,/^set -/{/^#/s/^# \{0,1\}//p}' "$0"; exit 0 ;; esac
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
data=${1:-$here/../shared/data/sudoku}
. "$here/scripts/common.sh"
ensure_qqwing
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT

run() { # name file levels
  local name=$1 file=$2 levels=$3
  grep -v '^#' "$file" | cut -d, -f1 > "$tmp/p.txt"
  grep -v '^#' "$file" | cut -d, -f2 > "$tmp/l.txt"
  "$bin" rate --quiet "$tmp/p.txt" | cut -d, -f2-4 | sed '1s/.*/grade,steps,hardest_level/' > "$tmp/ours.csv"
  qqwing --solve --csv --stats < "$tmp/p.txt" | awk -F, 'NR==1{print "qqwing_class"; next} {print $11}' > "$tmp/qq.csv"
  echo "$name ($(wc -l < "$tmp/p.txt") puzzles; levels $levels)"
  python3 "$here/scripts/gamma.py" "$tmp/l.txt" "$levels" "$tmp/ours.csv" "$tmp/qq.csv"
}

run "KrazyDad site grades" "$data/krazydad_sample.txt" EZ,NO,IM,CH,TF,ST,IN
run "sudoku-exchange buckets (SE rating)" "$data/sudoku_exchange_sample.txt" easy,medium,hard,diabolical
run "QQWing levels" "$data/qqwing_levels.txt" simple,easy,intermediate,expert

#!/usr/bin/env bash
# Graded Sudoku per second per core: puzzle-factory against QQWing, on this machine, in one run.
# Installs the Debian package qqwing if it is absent. QQWing generates and rates one puzzle at a
# time on one core (`qqwing --generate N --one-line`); we run `generate` with --threads 1 for the
# per-core figure and with all cores for the scaling figure. Each is timed REPEAT times; medians.
#
# Usage: scripts/compare-qqwing.sh [N_OURS] [N_QQWING] [REPEAT]
case "${1:-}" in -h | --help) sed -n '2,/^set -/{/^#/s/^# \{0,1\}//p}' "$0"; exit 0 ;; esac
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
n_ours=${1:-50000}
n_qq=${2:-2000}
repeat=${3:-3}
. "$here/scripts/common.sh"
ensure_qqwing
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
cores=$(nproc)


qq=(); one=(); all=()
for i in $(seq "$repeat"); do
  qq+=("$(secs qqwing --generate "$n_qq" --one-line)")
  one+=("$(secs "$bin" generate --count "$n_ours" --seed "$i" --threads 1 --quiet --force --out "$tmp/b1")")
  all+=("$(secs "$bin" generate --count "$n_ours" --seed "$i" --threads "$cores" --quiet --force --out "$tmp/bn")")
done
qq_t=$(printf '%s\n' "${qq[@]}" | median)
one_t=$(printf '%s\n' "${one[@]}" | median)
all_t=$(printf '%s\n' "${all[@]}" | median)
qq_rate=$(calc "$n_qq / $qq_t")
one_rate=$(calc "$n_ours / $one_t")
all_rate=$(calc "$n_ours / $all_t")
printf 'machine: %s cores; medians of %s runs\n' "$cores" "$repeat"
printf 'qqwing --generate %s --one-line:          %8.1f s  %10.0f puzzles/s (1 core)\n' "$n_qq" "$qq_t" "$qq_rate"
printf 'puzzle-factory --threads 1, %s graded:  %8.2f s  %10.0f puzzles/s per core\n' "$n_ours" "$one_t" "$one_rate"
printf 'puzzle-factory --threads %s, %s graded:  %8.2f s  %10.0f puzzles/s (%.0f per core)\n' "$cores" "$n_ours" "$all_t" "$all_rate" "$(calc "$all_rate / $cores")"
printf 'per-core ratio ours/qqwing: %.1fx   scaling %s threads / 1 thread: %.2fx\n' \
  "$(calc "$one_rate / $qq_rate")" "$cores" "$(calc "$all_rate / $one_rate")"

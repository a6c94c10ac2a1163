#!/usr/bin/env bash
# Graded puzzles per second per core, per kind and size: `generate --threads 1` over a fixed
# number of candidates (seed 1, the built-in settings), accepted puzzles over wall time, and the
# slowest single candidate (calibration.json's time_seconds.slowest_candidate, all its stages).
# BIN=path times another build of the program (e.g. the previous commit's) on the same runs;
# builds without slowest_candidate print "-" there.
#
# Usage: scripts/speed-table.sh [SCALE] [OUT_DIR]   (SCALE multiplies the candidate counts;
#        default 1, output/speed-table)
case "${1:-}" in -h | --help) sed -n '2,/^set -/{/^#/s/^# \{0,1\}//p}' "$0"; exit 0 ;; esac
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
scale=${1:-1}; out=${2:-$here/output/speed-table}
[[ "$scale" =~ ^[0-9]+$ ]] || { echo "speed-table.sh: SCALE is a whole number (see --help)" >&2; exit 2; }
. "$here/scripts/common.sh"
run=${BIN:-$bin}
mkdir -p "$out"
printf '%-7s %-6s %6s %8s %9s %11s %12s\n' kind size tried accepted wall_s graded/s/core slowest_s
row() { # row KIND SIZE COUNT ARGS...
  local kind=$1 size=$2 count=$(($3 * scale)); shift 3
  local dir="$out/$kind-$size"
  "$run" --kind "$kind" generate --quiet --force --threads 1 --seed 1 --count "$count" "$@" --out "$dir" >/dev/null
  python3 - "$dir" "$kind" "$size" <<'PY'
import json, sys
d, kind, size = sys.argv[1:4]
c = json.load(open(f"{d}/calibration.json"))
t = c["time_seconds"]
acc = c["candidates"]["accepted"]
slow = t.get("slowest_candidate")
slow = f"{slow['seconds']:.3f}" if slow else "-"
print(f"{kind:<7} {size:<6} {c['candidates']['tried']:>6} {acc:>8} {t['wall']:>9.2f} {acc / t['wall']:>13.1f} {slow:>12}")
PY
}
row sudoku 9 2000
for n in 3 4 5 6 7 8 9 10 11; do row kenken "$n" 300 --size "$n"; done
row kenken 12 100 --size 12
row kakuro 8x10 500
row kakuro 15x15 200 --rows 15 --cols 15
row kakuro 20x20 200 --rows 20 --cols 20
row kakuro 30x30 60 --rows 30 --cols 30

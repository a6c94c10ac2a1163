#!/usr/bin/env bash
# Merge cost at scale: N Sudoku shards of SIZE candidates each (one run of N×SIZE, seed 21),
# generated one after another on this machine; then `merge` of the N shards, timed, with its
# peak RSS; the same for shards of SMALL candidates, to show that merge memory does not grow
# with the shards' size. Prints the run's time, the merge's time and its share of the run.
#
# Usage: scripts/merge-scale.sh [SIZE] [N] [SMALL]    (defaults 250000 8 25000)
case "${1:-}" in -h | --help) sed -n '2,/^set -/{/^#/s/^# \{0,1\}//p}' "$0"; exit 0 ;; esac
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
size=${1:-250000}; n=${2:-8}; small=${3:-25000}
for v in "$size" "$n" "$small"; do
  [[ "$v" =~ ^[1-9][0-9]*$ ]] || { echo "merge-scale.sh: arguments are positive numbers (see --help)" >&2; exit 2; }
done
. "$here/scripts/common.sh"
command -v /usr/bin/time >/dev/null || { apt-get update -qq && apt-get install -y -qq time >/dev/null; }
work=$(mktemp -d); trap 'rm -rf "$work"' EXIT

scale() { # scale PER_SHARD
  local per=$1 total=$(( $1 * n )) dirs=() s e
  s=$(date +%s.%N)
  for ((k = 0; k < n; k++)); do
    "$bin" generate --quiet --count "$total" --seed 21 --shard "$k/$n" --out "$work/$per-$k"
    dirs+=("$work/$per-$k")
  done
  e=$(date +%s.%N)
  /usr/bin/time -f '%M %e' -o "$work/time" "$bin" merge --quiet "${dirs[@]}" --out "$work/$per-book"
  read -r kb secs <"$work/time"
  python3 - "$work/$per-book/calibration.json" "$n" "$per" "$(python3 -c "print($e - $s)")" "$kb" "$secs" <<'PY'
import json, sys
c = json.load(open(sys.argv[1]))
n, per, gen, kb, secs = int(sys.argv[2]), int(sys.argv[3]), float(sys.argv[4]), int(sys.argv[5]), float(sys.argv[6])
print(f"{n} shards x {per:>7} candidates: shards {gen:7.1f} s in all; merge {secs:6.2f} s "
      f"({100 * secs / gen:.1f} % of the shards' time), peak RSS {kb / 1024:6.1f} MB, "
      f"{c['candidates']['accepted']} puzzles, {c['candidates']['rejected']['duplicate']} duplicates dropped")
PY
  rm -rf "$work/$per"-*
}
scale "$small"
scale "$size"

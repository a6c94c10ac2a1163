#!/usr/bin/env bash
# The Sudoku family against Tatham's Solo (`sgt-solo --generate N 'PARAMS#SEED'`, one core):
# for each row of the issue's table, Solo's puzzles per second and ours (graded, one thread,
# all grades, rejected candidates counted in the time), measured in one run; the ratio.
# Solo makes one level per run; ours makes a book of every grade (its mix is printed).
# Installs sgt-puzzles if absent.
#
# Usage: scripts/compare-solo.sh [SCALE] [ROWS]
#   SCALE multiplies every row's puzzle counts (default 1); ROWS is a space-separated subset
#   of the row names below (default: all but the slowest Solo rows, 4x4du and 5x5da).
case "${1:-}" in -h | --help) sed -n '2,/^set -/{/^#/s/^# \{0,1\}//p}' "$0"; exit 0 ;; esac
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
scale=${1:-1}
rows=${2:-"3x3du 3x3dt 2x3da 3x4du 4x4de 3x3kde 9jda 3x3xdu"}
. "$here/scripts/common.sh"
ensure_solo
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT

# row: Solo params, Solo count, our flags, our count
spec() {
  case $1 in
    3x3du) echo "3x3du 20 --box|3x3 400" ;;
    3x3dt) echo "3x3dt 2000 --box|3x3 400" ;;
    2x3da) echo "2x3da 10 --box|2x3 2000" ;;
    3x4du) echo "3x4du 10 --box|3x4 200" ;;
    4x4de) echo "4x4de 4 --box|4x4 40" ;;
    4x4du) echo "4x4du 1 --box|4x4 40" ;;
    5x5da) echo "5x5da 1 --box|5x5 4" ;;
    3x3kde) echo "3x3kde 2 --box|3x3|--killer 40" ;;
    9jda) echo "9jda 20 --jigsaw|--size|9 200" ;;
    3x3xdu) echo "3x3xdu 20 --box|3x3|--diagonals 200" ;;
    *) echo "unknown row $1" >&2; exit 2 ;;
  esac
}
printf '%-8s %12s %12s %8s  %s\n' row solo/s ours/s ratio "our grades (easy/medium/hard/expert), rejected"
for row in $rows; do
  read -r params n_solo flags n_ours <<<"$(spec "$row")"
  n_solo=$(calc "max(1, int($n_solo * $scale))"); n_ours=$(calc "max(1, int($n_ours * $scale))")
  IFS='|' read -r -a f <<<"$flags"
  t_solo=$(secs "$solo" --generate "$n_solo" "$params#cmp")
  t_ours=$(secs "$bin" generate "${f[@]}" --count "$n_ours" --seed 1 --threads 1 --quiet --force --out "$tmp/b")
  made=$(python3 -c "import json;c=json.load(open('$tmp/b/calibration.json'));print(c['candidates']['accepted'])")
  mix=$(python3 -c "
import json;c=json.load(open('$tmp/b/calibration.json'))
g='/'.join(str(v['count']) for v in c['grades'].values())
r=sum(c['candidates']['rejected'].values())
print(g+', '+str(r))")
  solo_rate=$(calc "$n_solo / $t_solo"); our_rate=$(calc "$made / $t_ours")
  printf '%-8s %12.3f %12.1f %7.1fx  %s\n' "$row" "$solo_rate" "$our_rate" "$(calc "$our_rate / $solo_rate")" "$mix"
done

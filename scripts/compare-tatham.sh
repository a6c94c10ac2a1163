#!/usr/bin/env bash
# Graded Futoshiki or Skyscrapers per CPU second on one core, beside Tatham's Unequal or Towers
# making puzzles at each of its levels, in one run. For each size and each Tatham level, Tatham's
# program makes N puzzles (`--generate N '<size>d<level>#speed'`), and we make candidates with
# the generator setting that makes the grade matching that level most often (`[generate]
# max_level`: the setting quota runs steer to), counting only the puzzles of that grade. Both
# are timed in CPU seconds (user + system), one thread. Ratio = our graded puzzles per CPU second
# over Tatham's puzzles per CPU second.
#   Futoshiki: Unequal t, e, k, x, r against easy (max_level 1), medium (2), hard (3),
#   hard (3), expert (0). Skyscrapers: Towers e, h, x, u against easy (2), medium (3), hard (5),
#   expert (0). The grade matching a level is the one calibration gives most of its puzzles
#   (docs/measurements.md).
# Tatham's hardest levels are slow at 9×9 (Unequal 'r' about 3.5 s a puzzle, Towers 'h', 'x'
# and 'u' 0.6 to 3 s): N is scaled down for them (SLOW puzzles). Installs sgt-puzzles if absent.
#
# Usage: scripts/compare-tatham.sh KIND [N_TATHAM] [N_OURS] [SIZES...]
#        KIND futoshiki or skyscrapers; defaults 200 Tatham puzzles, 2000 candidates of ours
#        at 6x6 (a tenth at 9x9 and above for both), sizes 6 and 9; SLOW=5 Tatham puzzles at
#        the slow levels
case "${1:-}" in -h | --help | "") sed -n '2,/^set -/{/^#/s/^# \{0,1\}//p}' "$0"; exit 0 ;; esac
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
kind=$1; shift
case "$kind" in
  futoshiki) program=sgt-unequal; pairs="t:easy:1 e:medium:2 k:hard:3 x:hard:3 r:expert:0"; slow9="r" ;;
  skyscrapers) program=sgt-towers; pairs="e:easy:2 h:medium:3 x:hard:5 u:expert:0"; slow9="h x u" ;;
  *) echo "compare-tatham.sh: KIND is futoshiki or skyscrapers, got '$kind'" >&2; exit 2 ;;
esac
n_tatham=${1:-200}; n_ours=${2:-2000}; shift $(( $# < 2 ? $# : 2 ))
sizes=${*:-6 9}
slow=${SLOW:-5}
for v in "$n_tatham" "$n_ours" "$slow" $sizes; do
  [[ "$v" =~ ^[0-9]+$ ]] || { echo "compare-tatham.sh: N_TATHAM, N_OURS, SLOW and SIZES are numbers (see --help)" >&2; exit 2; }
done
. "$here/scripts/common.sh"
tatham=$(command -v $program || echo /usr/games/$program)
[ -x "$tatham" ] || { apt-get update -qq && apt-get install -y -qq sgt-puzzles >/dev/null; }
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
# CPU seconds (user + system) of a command, its output discarded.
cpu() { /usr/bin/time -f '%U %S' -o "$tmp/time" "$@" >/dev/null 2>&1; awk '{print $1 + $2}' "$tmp/time"; }
[ -x /usr/bin/time ] || { apt-get update -qq && apt-get install -y -qq time >/dev/null; }

printf '%-5s %-6s %8s %10s %12s | %-7s %6s %7s %10s %12s | %7s\n' size level n "cpu s" "puzzles/s" grade made of "cpu s" "graded/s" ratio
for size in $sizes; do
  for pair in $pairs; do
    IFS=: read -r level grade max_level <<<"$pair"
    n=$n_tatham; ours=$n_ours
    if [ "$size" -ge 9 ]; then
      ours=$(( n_ours / 10 ))
      n=$(( n_tatham / 10 ))
      case " $slow9 " in *" $level "*) n=$slow ;; esac
    fi
    t=$(cpu "$tatham" --generate "$n" "${size}d${level}#speed")
    printf '[generate]\nmax_level = %s\n' "$max_level" >"$tmp/level.toml"
    o=$(cpu "$bin" --kind "$kind" --config "$tmp/level.toml" generate --size "$size" --count "$ours" \
      --seed 1 --threads 1 --quiet --force --out "$tmp/book")
    made=$(python3 -c "import csv,sys; print(sum(r['grade'] == sys.argv[2] for r in csv.DictReader(open(sys.argv[1]))))" \
      "$tmp/book/puzzles.csv" "$grade")
    python3 - "$size" "$level" "$n" "$t" "$grade" "$made" "$ours" "$o" <<'PY'
import sys
size, level, n, t, grade, made, ours, o = sys.argv[1:]
n, t, made, ours, o = int(n), float(t), int(made), int(ours), float(o)
theirs = n / max(t, 0.005)
mine = made / max(o, 0.005)
print(f"{size:<5} {level:<6} {n:8d} {t:10.2f} {theirs:12.1f} | {grade:<7} {made:6d} {ours:7d} {o:10.2f} {mine:12.1f} | {mine / theirs:6.1f}x")
PY
  done
done

#!/usr/bin/env bash
# The Sudoku family, grade by grade: can every grade of every configuration be ordered, and how
# fast does one grade fill, beside Tatham's Solo making one level (`sgt-solo --generate N
# 'PARAMS#SEED'`)? All on one core.
#
# For each configuration and each grade G, `generate FLAGS --quota G=N --time-limit LIMIT
# --threads 1` fills an order of N puzzles of that grade alone (every candidate that lands in
# another grade, and every rejected one, is counted in the time). Printed per grade: filled or
# not, CPU seconds, graded puzzles of G per CPU second (those in the book and those made beyond
# the quota: a run ends at the end of a chunk of candidates), candidates tried per such puzzle,
# and for an order that stopped short the program's own verdict ("not reachable in practice"
# when no candidate in the whole run reached the grade). A run is also bounded by `timeout`
# (LIMIT + 60 s): a run that needs it is reported as HANG (none should).
# Where Solo makes the configuration, Solo's rate at the level matched to the grade (t->easy,
# b->medium, a->hard, e->expert; 4x4 and 25x25 skip the slowest Solo levels) is measured in
# the same run and the ratio printed.
#
# Usage: scripts/family-quota.sh [N] [LIMIT] [CONFIGS...]
#   N puzzles per grade (default 20), LIMIT seconds per order (default 60); CONFIGS from:
#   4 6 8 10 12 15 16 20 25 (boxes), 4j 6j 8j 9j 12j 16j (jigsaw), 4x 6x 8x 9x 9jx (X),
#   4k 6k 8k 9k 9kg (killer with givens) 6jk 9jk 6xk 9xk (default: all). SOLO=0 skips Solo.
# Installs sgt-puzzles if absent (unless SOLO=0).
case "${1:-}" in -h | --help) sed -n '2,/^set -/{/^#/s/^# \{0,1\}//p}' "$0"; exit 0 ;; esac
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
n=${1:-20}; limit=${2:-60}; shift $(( $# < 2 ? $# : 2 ))
configs=${*:-4 6 8 10 12 15 16 20 25 4j 6j 8j 9j 12j 16j 4x 6x 8x 9x 9jx 4k 6k 8k 9k 9kg 6jk 9jk 6xk 9xk}
for v in "$n" "$limit"; do
  [[ "$v" =~ ^[0-9]+$ ]] || { echo "family-quota.sh: N and LIMIT are numbers (see --help)" >&2; exit 2; }
done
. "$here/scripts/common.sh"
if [ "${SOLO:-1}" != 0 ]; then
  ensure_solo
fi
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT

# configuration: our flags ('|' between words), Solo's params without level (- for none),
# Solo puzzles to time per level
spec() {
  case $1 in
    4) echo "--box|2x2 - 0" ;;
    6) echo "--box|2x3 2x3 10" ;;
    8) echo "--box|2x4 2x4 10" ;;
    12) echo "--box|3x4 3x4 5" ;;
    16) echo "--box|4x4 4x4 2" ;;
    10) echo "--box|2x5 - 0" ;;
    15) echo "--box|3x5 - 0" ;;
    20) echo "--box|4x5 - 0" ;;
    25) echo "--box|5x5 - 0" ;;
    4j) echo "--jigsaw|--size|4 - 0" ;;
    8j) echo "--jigsaw|--size|8 - 0" ;;
    12j) echo "--jigsaw|--size|12 - 0" ;;
    16j) echo "--jigsaw|--size|16 - 0" ;;
    4x) echo "--box|2x2|--diagonals - 0" ;;
    6x) echo "--box|2x3|--diagonals - 0" ;;
    8x) echo "--box|2x4|--diagonals - 0" ;;
    9jx) echo "--jigsaw|--size|9|--diagonals - 0" ;;
    4k) echo "--box|2x2|--killer - 0" ;;
    8k) echo "--box|2x4|--killer 2x4k 2" ;;
    9kg) echo "--box|3x3|--killer|--givens - 0" ;;
    6jk) echo "--jigsaw|--size|6|--killer - 0" ;;
    6xk) echo "--box|2x3|--diagonals|--killer - 0" ;;
    6j) echo "--jigsaw|--size|6 6j 10" ;;
    9j) echo "--jigsaw|--size|9 9j 10" ;;
    9x) echo "--box|3x3|--diagonals 3x3x 10" ;;
    6k) echo "--box|2x3|--killer 2x3k 3" ;;
    9k) echo "--box|3x3|--killer 3x3k 2" ;;
    9xk) echo "--box|3x3|--diagonals|--killer 3x3xk 2" ;;
    9jk) echo "--jigsaw|--size|9|--killer 9jk 2" ;;
    *) echo "family-quota.sh: unknown configuration $1" >&2; exit 2 ;;
  esac
}
level_of() { case $1 in easy) echo t ;; medium) echo b ;; hard) echo a ;; expert) echo e ;; esac; }

# CPU seconds (user + sys) of one command and its children, then its exit code; its stderr
# goes to $err.
err=$tmp/stderr
cpu() {
  python3 - "$err" "$@" <<'PY'
import resource, subprocess, sys
with open(sys.argv[1], "w") as e:
    r = subprocess.run(sys.argv[2:], stdout=subprocess.DEVNULL, stderr=e)
u = resource.getrusage(resource.RUSAGE_CHILDREN)
print(u.ru_utime + u.ru_stime)
print(r.returncode)
PY
}

printf '%-4s %-7s %-7s %8s %10s %8s %10s %8s  %s\n' config grade filled cpu_s ours/s tried/pz solo/s ratio note
for cfg in $configs; do
  read -r flags params per_level <<<"$(spec "$cfg")"
  IFS='|' read -r -a f <<<"$flags"
  for grade in easy medium hard expert; do
    out=$tmp/$cfg-$grade
    { read -r t; read -r code; } < <(cpu timeout $((limit + 60)) "$bin" generate "${f[@]}" \
      --quota "$grade=$n" --time-limit "$limit" --count 100000000 --seed 1 --threads 1 --force --out "$out")
    # The verdict line `generate` prints for a grade an order left short.
    note=$(grep -E "^  $grade:" "$err" | sed 's/^  //' || true)
    [ "$code" = 124 ] && note="HANG (killed by timeout)"
    # Puzzles of the grade made: in the book and beyond the quota (a run ends at a chunk's end).
    read -r made tried < <(python3 -c "
import json
try:
    c = json.load(open('$out/calibration.json'))
    q = c['order']['quota']['$grade']
    print(q['emitted'] + q['surplus'], c['candidates']['tried'])
except OSError:
    print(0, 0)")
    filled=$([ "$made" -ge "$n" ] && echo yes || echo "no($made)")
    rate=$(calc "round($made / max($t, 1e-9), 2)")
    per=$(calc "round($tried / $made, 1) if $made else '-'")
    solo_rate=-; ratio=-
    if [ "$params" != - ] && [ "${SOLO:-1}" != 0 ] && [ "$per_level" -gt 0 ]; then
      lv=$(level_of "$grade")
      { read -r ts; read -r _; } < <(cpu timeout 900 "$solo" --generate "$per_level" "${params}d$lv#quota")
      solo_rate=$(calc "round($per_level / $ts, 3)")
      [ "$made" -gt 0 ] && ratio=$(calc "f'{$rate / $solo_rate:.1f}x'")
    fi
    printf '%-4s %-7s %-7s %8.2f %10s %8s %10s %8s  %s\n' "$cfg" "$grade" "$filled" "$t" "$rate" "$per" \
      "$solo_rate" "$ratio" "${note:-}"
  done
done

#!/usr/bin/env bash
# Quota orders against the tools publishers use: for each kind, `generate --quota` of N puzzles
# per grade, with grade steering and with --no-steer; prints per grade the candidates tried per
# puzzle made (tried / made of that grade, surplus included), the candidates in all and the wall
# time. Beside them: Tatham's Keen generating N puzzles at each of its levels 9de/9dn/9dh/9dx
# (`sgt-keen --generate N 9dx`), and QQWing `--generate N --difficulty` per class, each timed
# on one core. Installs sgt-puzzles and qqwing when absent.
#
# Usage: scripts/quota-compare.sh [N] [KINDS]    (default N 100, KINDS "sudoku kenken kakuro")
#   THREADS=1 scripts/quota-compare.sh 50 kenken    ours on one core as well
case "${1:-}" in -h | --help) sed -n '2,/^set -/{/^#/s/^# \{0,1\}//p}' "$0"; exit 0 ;; esac
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
n=${1:-100}
kinds=${2:-sudoku kenken kakuro}
[[ "$n" =~ ^[0-9]+$ ]] || { echo "quota-compare.sh: N must be a number (see --help)" >&2; exit 2; }
. "$here/scripts/common.sh"
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
threads=()
[ -n "${THREADS:-}" ] && threads=(--threads "$THREADS")
secs() { local s e; s=$(date +%s.%N); "$@" >/dev/null 2>&1 || true; e=$(date +%s.%N); python3 -c "print(round($e - $s, 2))"; }

ours() { # ours LABEL KIND-ARGS...
  local label=$1; shift
  local quota="easy=$n,medium=$n,hard=$n,expert=$n"
  for mode in steered plain; do
    local extra=()
    [ "$mode" = plain ] && extra=(--no-steer)
    local t
    t=$(secs "$bin" generate "$@" --quota "$quota" --seed 1 --quiet --force --out "$tmp/$label-$mode" \
      "${threads[@]}" "${extra[@]}")
    python3 - "$tmp/$label-$mode/calibration.json" "$label" "$mode" "$t" <<'PY'
import json, sys
c = json.load(open(sys.argv[1]))
label, mode, t = sys.argv[2], sys.argv[3], sys.argv[4]
o = c["order"]
tried = c["candidates"]["tried"]
made = {g: sum(l["made"][g] for l in o["steering"]) for g in ("easy", "medium", "hard", "expert")}
per = "  ".join(f"{g} {tried / m:7.1f}" if m else f"{g}     n/a" for g, m in made.items())
levels = ",".join(str(l["tried"]) for l in o["steering"])
short = "" if o["stopped"] == "quotas met" else f"  STOPPED: {o['stopped']}"
print(f"{label:10} {mode:8} candidates/puzzle: {per}   tried {tried:7d} (per level {levels})  {float(t):7.1f} s{short}")
PY
  done
}

for kind in $kinds; do
  case "$kind" in
    sudoku)
      echo "== Sudoku 9x9: $n per grade"
      ours sudoku --kind sudoku
      ensure_qqwing
      for d in simple easy intermediate expert; do
        printf 'qqwing --generate %s --difficulty %-12s %7.1f s (1 core)\n' "$n" "$d" "$(secs qqwing --generate "$n" --difficulty "$d" --one-line)"
      done ;;
    kenken)
      echo "== KenKen 9x9: $n per grade"
      ours kenken-9 --kind kenken --size 9
      ensure_keen
      for l in e n h x; do
        printf 'sgt-keen --generate %s 9d%s %20.1f s (1 core)\n' "$n" "$l" "$(secs "$keen" --generate "$n" "9d$l#quota")"
      done ;;
    kakuro)
      echo "== Kakuro 8x10: $n per grade"
      ours kakuro --kind kakuro ;;
    *) echo "unknown kind $kind" >&2; exit 2 ;;
  esac
done

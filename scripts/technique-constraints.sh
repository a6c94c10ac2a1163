#!/usr/bin/env bash
# `--require` and `--teach` per technique: N puzzles each (Sudoku: X-wing, swordfish, XY-wing,
# naked and hidden pairs and triples; one KenKen and one Kakuro technique); `--teach` with
# steering and without (`--no-steer`: filter only). Prints candidates per accepted puzzle and seconds, then
# verifies the first N accepted from outside the run: every one fails `rate --forbid T,trial`
# (it does not solve with T switched off, everything else but trial allowed) and its path (from
# `--paths`) uses T. One thread.
#
# Usage: [SYMMETRY=none] [MODES="require teach"] scripts/technique-constraints.sh [N] [MAX_CANDIDATES]
#   SYMMETRY: the Sudoku clue symmetry (default rotate180, the config's; `none` leaves fewer clues
#   and needs the subsets two to five times as often); MODES: which of the two flags to run;
#   SUDOKU_TECHS: the Sudoku techniques (default the seven above; empty for KenKen and Kakuro only).
case "${1:-}" in -h | --help) sed -n '2,/^set -/{/^#/s/^# \{0,1\}//p}' "$0"; exit 0 ;; esac
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
. "$here/scripts/common.sh"
n=${1:-100}; cap=${2:-200000}
symmetry=${SYMMETRY:-rotate180}; modes=${MODES:-require teach}
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
printf '%-8s %-22s %-9s %9s %10s %8s %9s  %s\n' kind technique mode accepted cand/acc seconds verified notes
one() { # kind flag technique steer extra-args...
  local kind=$1 flag=$2 tech=$3 steer=$4; shift 4
  local out=$tmp/$kind-$flag-$tech-$steer
  local s e count=500 acc
  # Count mode, grown until it makes N puzzles (the same seed: a larger run repeats the smaller).
  while :; do
    s=$(date +%s.%N)
    "$bin" --kind "$kind" generate --count "$count" --seed 11 --threads 1 --quiet --force --paths \
      --"$flag" "$tech" $([ "$steer" = off ] && echo --no-steer) "$@" --out "$out" >/dev/null 2>&1 || true
    e=$(date +%s.%N)
    acc=$(python3 -c "import json; print(json.load(open('$out/calibration.json'))['candidates']['accepted'])" 2>/dev/null || echo 0)
    [ "$acc" -lt "$n" ] && [ "$count" -lt "$cap" ] || break
    count=$(python3 -c "print(min($cap, int($count * $n / max($acc, 1) * 1.3) + 1))")
  done
  python3 - "$out" "$n" "$tech" "$kind" "$flag" "$steer" "$(calc "$e - $s")" "$bin" <<'PY'
import json, subprocess, sys
out, n, tech, kind, flag, steer, secs, binary = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4], sys.argv[5], sys.argv[6], float(sys.argv[7]), sys.argv[8]
try:
    cal = json.load(open(f"{out}/calibration.json"))
except FileNotFoundError:
    print(f"{kind:<8} {tech:<22} {flag + '/' + steer:<9} no book"); sys.exit()
recs = [json.loads(l) for l in open(f"{out}/puzzles.jsonl")]
paths = [json.loads(l) for l in open(f"{out}/paths.jsonl")]
# The first n accepted in candidate order, whatever their grade.
recs.sort(key=lambda r: r["index"]); 
by_id = {p["id"]: p for p in paths}
first = recs[:n]
tried = (first[-1]["index"] + 1) if len(first) == n else cal["candidates"]["tried"]
per = tried / max(len(first), 1)
uses = sum(any(s["technique"] == tech for s in by_id[r["id"]]["steps"]) for r in first)
if kind == "sudoku":
    lines = "".join(r["puzzle"] + "\n" for r in first)
else:
    lines = "".join(json.dumps(r["puzzle"]) + "\n" for r in first)
args = [binary, "--kind", kind, "rate", "--forbid", f"{tech},trial", "-"]
p = subprocess.run(args, input=lines, capture_output=True, text=True)
fails = sum("could not finish" in l for l in p.stderr.splitlines())
grades = {}
for r in first:
    grades[r["grade"]] = grades.get(r["grade"], 0) + 1
ok = f"{min(uses, fails)}/{len(first)}"
print(f"{kind:<8} {tech:<22} {flag + '/' + steer:<9} {len(first):>9} {per:>10.1f} {secs:>8.1f} {ok:>9}  uses {uses}, fails without it {fails}; grades {grades}")
PY
}
# --require only filters (steer on and off are the same run); --teach steers classic Sudoku.
echo "Sudoku --symmetry $symmetry"
for tech in ${SUDOKU_TECHS-x_wing swordfish xy_wing naked_pair hidden_pair naked_triple hidden_triple}; do
  [[ " $modes " == *" require "* ]] && one sudoku require "$tech" off --symmetry "$symmetry"
  if [[ " $modes " == *" teach "* ]]; then
    for steer in on off; do one sudoku teach "$tech" "$steer" --symmetry "$symmetry"; done
  fi
done
# KenKen and Kakuro have no clues to remove: both flags filter.
for flag in require teach; do
  if [[ " $modes " == *" $flag "* ]]; then
    one kenken "$flag" cage_line off --size 6
    one kakuro "$flag" combination_elimination off
  fi
done

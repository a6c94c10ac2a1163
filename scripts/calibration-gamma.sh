#!/usr/bin/env bash
# Issue 5's bar, side by side on the same held-out puzzles: `calibrate` fits our thresholds on
# 70% of a labelled Sudoku reference (seeded split) and grades the other 30%; QQWing's four
# classes are computed on exactly those held-out puzzles. Gamma of each against the reference
# levels, with bootstrap 95% intervals (1,000 resamples of the held-out puzzles). Our grading is
# shown twice: the published pure step count, and steps with the fitted hardest-level floor.
# Installs the Debian package qqwing if it is absent.
#
# Usage: scripts/calibration-gamma.sh [SEED] [DATA_DIR]
case "${1:-}" in -h | --help) sed -n '2,/^set -/{/^#/s/^# \{0,1\}//p}' "$0"; exit 0 ;; esac
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
seed=${1:-1}
data=${2:-$here/../shared/data/sudoku}
. "$here/scripts/common.sh"
ensure_qqwing
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT

run() { # name file levels
  local name=$1 file=$2 levels=$3
  "$bin" calibrate --quiet --reference "$file" --holdout 0.3 --seed "$seed" --dump "$tmp/steps.csv" > "$tmp/steps.txt"
  "$bin" calibrate --quiet --reference "$file" --holdout 0.3 --seed "$seed" --floor --dump "$tmp/floor.csv" > "$tmp/floor.txt"
  # The reference's puzzles by line number; QQWing on all of them (its class does not depend
  # on the split), then keep the held-out rows.
  awk '{print NR "\t" $0}' "$file" | grep -v $'\t#' | cut -f1 > "$tmp/lines.txt"
  grep -v '^#' "$file" | cut -d, -f1 > "$tmp/p.txt"
  qqwing --solve --csv --stats < "$tmp/p.txt" | awk -F, 'NR>1{print $11}' > "$tmp/qq.txt"
  echo "$name: $(grep -E 'thresholds' "$tmp/floor.txt")"
  python3 - "$tmp" "$levels" "$name" <<'PY'
import csv, random, sys
tmp, levels, name = sys.argv[1], sys.argv[2].split(","), sys.argv[3]
rank = {l: i for i, l in enumerate(levels)}
ours = {"easy": 0, "medium": 1, "hard": 2, "expert": 3}
qq = {"simple": 0, "easy": 1, "intermediate": 2, "expert": 3}
lines = [int(x) for x in open(f"{tmp}/lines.txt")]
qq_of = dict(zip(lines, (qq.get(x.strip().lower()) for x in open(f"{tmp}/qq.txt"))))

def gamma(pairs):
    c = d = 0
    n = len(pairs)
    # O(n * levels * grades) via a table.
    tab = {}
    for a, b in pairs:
        tab[(a, b)] = tab.get((a, b), 0) + 1
    keys = list(tab)
    for (a1, b1) in keys:
        for (a2, b2) in keys:
            if a2 > a1:
                if b2 > b1: c += tab[(a1, b1)] * tab[(a2, b2)]
                elif b2 < b1: d += tab[(a1, b1)] * tab[(a2, b2)]
    return (c - d) / (c + d) if c + d else float("nan")

def with_ci(pairs, rng):
    g = gamma(pairs)
    boot = sorted(gamma([pairs[rng.randrange(len(pairs))] for _ in pairs]) for _ in range(1000))
    return f"{g:.4f} [{boot[25]:.4f}, {boot[974]:.4f}]"

rng = random.Random(1)
for label, path in [("ours, pure steps", "steps.csv"), ("ours, steps + level floor", "floor.csv")]:
    rows = [r for r in csv.DictReader(open(f"{tmp}/{path}")) if r["held_out"] == "1"]
    pairs = [(rank[r["level"]], ours[r["grade"]]) for r in rows]
    print(f"  {label:<28} gamma {with_ci(pairs, rng)}   ({len(rows)} held-out puzzles)")
    if path == "floor.csv":
        qpairs = [(rank[r["level"]], qq_of[int(r["line"])]) for r in rows if qq_of.get(int(r["line"])) is not None]
        print(f"  {'QQWing classes, same puzzles':<28} gamma {with_ci(qpairs, rng)}   ({len(qpairs)} rated by QQWing)")
PY
}

run "KrazyDad site grades" "$data/krazydad_sample.txt" EZ,NO,IM,CH,TF,ST,IN
run "sudoku-exchange buckets" "$data/sudoku_exchange_sample.txt" easy,medium,hard,diabolical

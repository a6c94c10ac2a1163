#!/usr/bin/env bash
# KenKen grades at every size, against Keen's levels (easy < normal < hard < extreme <
# unreasonable). For each size, Keen generates COUNT puzzles per level with fixed seeds
# ('7dx#calib', ...) to fit on, and TEST more per level with other seeds ('7dx#test') to measure
# on. `calibrate --kind kenken --floor` fits each size's thresholds and hardest-level floor on the
# first set (three cut points maximising Kendall's tau-b, then the floor) and writes them into
# one config file, [grades.size.N] per size. Keen makes no 3×3 puzzle above normal (it caps the
# level), so 3×3 is not fitted. Sizes not fitted (3, and 10 to 12, beyond Keen) get thresholds
# from the size-free scale: each threshold as a power of N, k(N) = a·N^b, fitted by least squares
# on log k over the fitted sizes from 5 up, with the largest fitted size's floor.
# Then, per size, on the TEST puzzles: Goodman-Kruskal gamma of Keen's level against our grade
# with the per-size thresholds, against the grade from the size-free scale alone, and against
# the raw step count; and the grade mix of MIX generated puzzles at every size 3 to 12.
# Writes OUT_DIR/kenken-sizes.toml (copy its [grades.size.N] tables into config/kenken.toml) and
# a report per fitted size (OUT_DIR/report-N). Installs sgt-puzzles if absent.
#
# Usage: scripts/keen-calibrate.sh [COUNT] [OUT_DIR] [SIZES...]
#        (defaults: 60 per level, output/keen-calibration, sizes 3 4 5 6 7 8 9)
#   TEST=20 puzzles per level to measure on, MIX=300 generated puzzles per size for the mix
case "${1:-}" in -h | --help) sed -n '2,/^set -/{/^#/s/^# \{0,1\}//p}' "$0"; exit 0 ;; esac
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
count=${1:-60}; out=${2:-$here/output/keen-calibration}; shift $(( $# < 2 ? $# : 2 ))
sizes=${*:-3 4 5 6 7 8 9}
test=${TEST:-20}; mix=${MIX:-300}
for v in "$count" "$test" "$mix" $sizes; do
  [[ "$v" =~ ^[0-9]+$ ]] || { echo "keen-calibrate.sh: COUNT, TEST, MIX and SIZES are numbers (see --help)" >&2; exit 2; }
done
. "$here/scripts/common.sh"
ensure_keen
mkdir -p "$out"
cfg=$out/kenken-sizes.toml
# Start from the built-in settings without their size tables: every table comes from this run.
python3 - "$here/config/kenken.toml" "$cfg" <<'PY'
import re, sys
text = open(sys.argv[1]).read()
open(sys.argv[2], "w").write(re.sub(r"(?ms)^\[grades\.size\.\d+\].*?(?=^\[)", "", text))
PY

levels_of() { # Keen's levels at a size: it dials 3x3 puzzles above normal down to normal
  if [ "$1" -le 3 ]; then echo "e n"; else echo "e n h x u"; fi
}
keen_set() { # keen_set SIZE SEED_TAG N FILE: N puzzles per level, "ID<tab>level" lines
  : >"$4"
  for level in $(levels_of "$1"); do
    "$keen" --generate "$3" "${1}d${level}#$2" 2>/dev/null | grep -E '^[0-9]+:' | sed "s/\$/\t$level/" >>"$4"
  done
}

fitted=""
for size in $sizes; do
  keen_set "$size" calib "$count" "$out/keen-$size.txt"
  keen_set "$size" test "$test" "$out/keen-$size-test.txt"
  if [ "$size" -le 3 ]; then
    echo "== size $size: not fitted (Keen caps 3x3 at normal: its five levels are one)"
    continue
  fi
  echo "== size $size: fit on $(wc -l <"$out/keen-$size.txt") Keen puzzles"
  "$bin" --kind kenken calibrate --quiet --config "$cfg" --reference "$out/keen-$size.txt" --levels e,n,h,x,u \
    --holdout 0 --seed 1 --floor --report "$out/report-$size" --write-config "$cfg" | grep -E "^method"
  fitted="$fitted $size"
done

echo "== size-free scale: k(N) = a*N^b over the fitted sizes from 5 up; tables for the others"
python3 - "$cfg" "$fitted" "$out/size-free.json" <<'PY'
import json, math, re, sys, tomllib
path, fitted, law_path = sys.argv[1], [int(s) for s in sys.argv[2].split()], sys.argv[3]
cfg = tomllib.load(open(path, "rb"))
tables = cfg["grades"].get("size", {})
use = [n for n in fitted if n >= 5] or fitted
law = []
for i, key in enumerate(("k1", "k2", "k3")):
    xs = [math.log(n) for n in use]
    ys = [math.log(tables[str(n)][key]) for n in use]
    mx, my = sum(xs) / len(xs), sum(ys) / len(ys)
    b = sum((x - mx) * (y - my) for x, y in zip(xs, ys)) / sum((x - mx) ** 2 for x in xs)
    a = my - b * mx
    law.append((a, b))
    print(f"  {key}(N) = {math.exp(a):.4g} * N^{b:.3f}")
floor = tables[str(max(use))]["level_floor"]
json.dump({"law": law, "floor": floor, "sizes": use}, open(law_path, "w"))
# Every size not fitted here takes the scale, also where the config written by calibrate
# carries a table of it (the built-in defaults' own, from an earlier calibration).
text = open(path).read()
for n in range(3, 13):
    if n not in fitted:
        text = re.sub(rf"(?ms)^\[grades\.size\.{n}\]\n.*?(?=^\[|\Z)", "", text)
open(path, "w").write(text)
with open(path, "a") as f:
    for n in range(3, 13):
        if n in fitted:
            continue
        k = [math.exp(a + b * math.log(n)) for a, b in law]
        for j in (1, 2):
            k[j] = max(k[j], k[j - 1] * 1.01)
        f.write(f"\n# {n}x{n}: from the size-free scale k(N) = a*N^b (fitted on sizes {use})\n")
        f.write(f"[grades.size.{n}]\nk1 = {k[0]:.1f}\nk2 = {k[1]:.1f}\nk3 = {k[2]:.1f}\nlevel_floor = {floor}\n")
        print(f"  {n}x{n}: k1 {k[0]:.1f}  k2 {k[1]:.1f}  k3 {k[2]:.1f}  floor {floor}")
PY

echo "== gamma on fresh Keen puzzles ($test per level, seeds '#test'), and the generated grade mix"
for size in $sizes; do
  cut -f1 "$out/keen-$size-test.txt" >"$out/test-$size.txt"
  "$bin" --kind kenken --config "$cfg" rate "$out/test-$size.txt" >"$out/test-$size.csv"
done
for size in $(seq 3 12); do
  "$bin" --kind kenken --config "$cfg" generate --quiet --force --size "$size" --count "$mix" --seed 1 \
    --out "$out/mix-$size"
done
python3 - "$out" "$here/scripts" "$sizes" "$fitted" <<'PY'
import csv, json, math, sys
out, scripts, sizes, fitted = sys.argv[1], sys.argv[2], [int(s) for s in sys.argv[3].split()], sys.argv[4].split()
sys.path.insert(0, scripts)
from gamma import gamma
free = json.load(open(f"{out}/size-free.json"))
law, floor = free["law"], free["floor"]
def free_grade(n, steps, level):
    k = [math.exp(a + b * math.log(n)) for a, b in law]
    g = sum(steps >= x for x in k)
    for i, f in enumerate(floor):
        if f and level >= f:
            g = max(g, i + 1)
    return g
order = {"easy": 0, "medium": 1, "hard": 2, "expert": 3}
rank = {l: i for i, l in enumerate("enhxu")}
print(f"{'size':>4} {'n':>4} {'thresholds':>11} {'γ per-size':>11} {'γ size-free':>12} {'γ raw steps':>12}   test grade mix e/m/h/x")
gs = []
for n in sizes:
    labels = [rank[l.rstrip("\n").split("\t")[1]] for l in open(f"{out}/keen-{n}-test.txt")]
    rows = list(csv.DictReader(open(f"{out}/test-{n}.csv")))
    grade = [order[r["grade"]] for r in rows]
    steps = [float(r["steps"]) for r in rows]
    by_free = [free_grade(n, float(r["steps"]), int(r["hardest_level"])) for r in rows]
    g1, g2, g3 = gamma(labels, grade), gamma(labels, by_free), gamma(labels, steps)
    if str(n) in fitted:
        gs.append(g1)
    mixt = "/".join(str(grade.count(i)) for i in range(4))
    kind = "fitted" if str(n) in fitted else "size-free"
    print(f"{n:>4} {len(rows):>4} {kind:>11} {g1:11.3f} {g2:12.3f} {g3:12.3f}   {mixt}")
if gs:
    print(f"mean gamma with per-size thresholds over the fitted sizes: {sum(gs) / len(gs):.3f}")
print("grade mix of generated puzzles (generate --count MIX --seed 1), share of the largest grade:")
for n in range(3, 13):
    c = json.load(open(f"{out}/mix-{n}/calibration.json"))
    counts = [c["grades"][g]["count"] for g in ("easy", "medium", "hard", "expert")]
    total = sum(counts) or 1
    print(f"  {n:>2}x{n:<2} easy {counts[0]:4d}  medium {counts[1]:4d}  hard {counts[2]:4d}  expert {counts[3]:4d}"
          f"   largest {100 * max(counts) / total:5.1f} %")
PY
echo "wrote $cfg"

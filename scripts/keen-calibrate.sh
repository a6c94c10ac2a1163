#!/usr/bin/env bash
# KenKen grades at every size, against Keen's levels (easy < normal < hard < extreme <
# unreasonable). For each size, Keen generates COUNT puzzles per level with fixed seeds
# ('7dx#calib', ...) to fit on, and TEST more per level with other seeds ('7dx#test') to measure
# on. One `calibrate --kind kenken --floor` call fits every size on its own puzzles (three cut
# points maximising Kendall's tau-b, then the hardest-level floor), prints the per-size table and
# writes OUT_DIR/report/ (one report per size; sizes.svg: steps per level, one panel per size).
# Keen makes no 3x3 puzzle above normal (it caps the level), so 3x3 is fitted on those two only
# and left out of the scale.
# The size-free scale: each threshold as a power of N, k(N) = a*N^b, fitted by least squares on
# log k over the per-size fits from 5x5 up, with the largest size's floor. Every size 3 to 12
# is graded by it (the per-size fits are kept in OUT_DIR/kenken-per-size.toml to compare).
# Then, per size, on the TEST puzzles: Goodman-Kruskal gamma of Keen's level against our grade
# on the size-free scale, against the grade of that size's own fit, and against the raw step
# count; and the grade mix of MIX generated puzzles at every size 3 to 12 (with the grade
# targeting of crates/kenken/config/kenken.toml's [target]).
# Writes OUT_DIR/kenken-sizes.toml (copy its [grades.size.N] tables into crates/kenken/config/kenken.toml).
# Installs sgt-puzzles if absent.
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
python3 - "$here/crates/kenken/config/kenken.toml" "$cfg" <<'PY'
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
: >"$out/keen-all.txt"
for size in $sizes; do
  keen_set "$size" calib "$count" "$out/keen-$size.txt"
  keen_set "$size" test "$test" "$out/keen-$size-test.txt"
  cat "$out/keen-$size.txt" >>"$out/keen-all.txt"
  # 3x3 has Keen's easy and normal only: hard and expert cannot be fitted there.
  [ "$size" -le 3 ] || fitted="$fitted $size"
done
echo "== fit every size on its own Keen puzzles ($(wc -l <"$out/keen-all.txt") in all)"
"$bin" --kind kenken calibrate --quiet --config "$cfg" --reference "$out/keen-all.txt" --levels e,n,h,x,u \
  --holdout 0 --seed 1 --floor --report "$out/report" --write-config "$cfg" | sed -n '/^per size/,$p'

echo "== size-free scale: k(N) = a*N^b over the fitted sizes from 5 up; a table for every size"
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
# Every size takes the scale (it agrees with Keen on fresh puzzles at least as well as the
# per-size fits do, see the table below, and it covers the sizes Keen has not got); the
# per-size fits are kept beside it for the comparison.
text = open(path).read()
open(path.replace("kenken-sizes.toml", "kenken-per-size.toml"), "w").write(text)
for n in range(3, 13):
    text = re.sub(rf"(?ms)^(# [^\n]*\n)*\[grades\.size\.{n}\]\n.*?(?=^\[|^# |\Z)", "", text)
open(path, "w").write(text)
with open(path, "a") as f:
    for n in range(3, 13):
        k = [math.exp(a + b * math.log(n)) for a, b in law]
        for j in (1, 2):
            k[j] = max(k[j], k[j - 1] * 1.01)
        f.write(f"\n# {n}x{n}: the size-free scale k(N) = a*N^b (fitted on sizes {use})\n")
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
from gamma import gamma, table_grade
import tomllib
per_size = tomllib.load(open(f"{out}/kenken-per-size.toml", "rb"))["grades"].get("size", {})
order = {"easy": 0, "medium": 1, "hard": 2, "expert": 3}
rank = {l: i for i, l in enumerate("enhxu")}
print(f"{'size':>4} {'n':>4} {'γ size-free (used)':>19} {'γ per-size fit':>15} {'γ raw steps':>12}   test grade mix e/m/h/x")
used, fits = [], []
for n in sizes:
    labels = [rank[l.rstrip("\n").split("\t")[1]] for l in open(f"{out}/keen-{n}-test.txt")]
    rows = list(csv.DictReader(open(f"{out}/test-{n}.csv")))
    grade = [order[r["grade"]] for r in rows]
    steps = [float(r["steps"]) for r in rows]
    g1, g3 = gamma(labels, grade), gamma(labels, steps)
    used.append(g1)
    if str(n) in fitted:
        g2 = gamma(labels, [table_grade(per_size[str(n)], float(r["steps"]), int(r["hardest_level"])) for r in rows])
        fits.append(g2)
        g2 = f"{g2:15.3f}"
    else:
        g2 = f"{'not fitted':>15}"
    mixt = "/".join(str(grade.count(i)) for i in range(4))
    print(f"{n:>4} {len(rows):>4} {g1:19.3f} {g2} {g3:12.3f}   {mixt}")
print(f"mean gamma: size-free {sum(used) / len(used):.3f} over sizes {sizes}"
      + (f"; per-size fits {sum(fits) / len(fits):.3f} over sizes {fitted}" if fits else ""))
print("grade mix of generated puzzles (generate --count MIX --seed 1), share of the largest grade:")
for n in range(3, 13):
    c = json.load(open(f"{out}/mix-{n}/calibration.json"))
    counts = [c["grades"][g]["count"] for g in ("easy", "medium", "hard", "expert")]
    total = sum(counts) or 1
    print(f"  {n:>2}x{n:<2} easy {counts[0]:4d}  medium {counts[1]:4d}  hard {counts[2]:4d}  expert {counts[3]:4d}"
          f"   largest {100 * max(counts) / total:5.1f} %")
PY
echo "wrote $cfg"

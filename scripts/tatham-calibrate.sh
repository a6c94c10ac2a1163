#!/usr/bin/env bash
# Grades against Tatham's levels: Futoshiki against Unequal (trivial < easy < tricky < extreme
# < recursive, sizes 4 to 9), Skyscrapers against Towers (easy < hard < extreme <
# unreasonable, sizes 5 to 9). Per size, Tatham's program generates COUNT puzzles per level
# with fixed seeds ('6dx#calib') to fit on, and TEST more per level with other seeds
# ('6dx#test') to measure on. One `calibrate --kind KIND --floor` call fits every size on its
# own puzzles (three cut points maximising Kendall's tau-b, then the hardest-level floor) and
# writes a [grades.size.N] table per size into OUT_DIR/KIND-sizes.toml (copy them into
# crates/KIND/config/KIND.toml). Tatham grades by the techniques a puzzle needs, and the step
# count follows his levels less well than the hardest technique does, so then one level floor
# for every size is chosen on the fit puzzles (medium, hard and expert from ladder levels, easy
# below each size's k1), and k2 and k3 are set out of reach (Futoshiki only: Skyscrapers keeps
# each size's own fit, which spreads Towers' four levels over the four grades). Then, per size, on the TEST
# puzzles: Goodman-Kruskal gamma of Tatham's level against our grade and against the raw step
# count; each level's median steps (the order check: each above the level below); and the
# grade mix of MIX generated puzzles per size.
# Installs sgt-puzzles if absent.
#
# Usage: scripts/tatham-calibrate.sh KIND [COUNT] [OUT_DIR] [SIZES...]
#        KIND futoshiki or skyscrapers (defaults: 60 per level,
#        output/KIND-calibration, sizes 4 to 9 (futoshiki) or 5 to 9 (skyscrapers))
#   TEST=20 puzzles per level to measure on, MIX=200 generated puzzles per size for the mix,
#   REUSE=1 to keep the Tatham puzzles of an earlier run in OUT_DIR (they take minutes at 9x9)
case "${1:-}" in -h | --help | "") sed -n '2,/^set -/{/^#/s/^# \{0,1\}//p}' "$0"; exit 0 ;; esac
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
kind=$1; shift
case "$kind" in
  futoshiki) program=sgt-unequal; levels="t e k x r"; default_sizes="4 5 6 7 8 9" ;;
  skyscrapers) program=sgt-towers; levels="e h x u"; default_sizes="5 6 7 8 9" ;;
  *) echo "tatham-calibrate.sh: KIND is futoshiki or skyscrapers, got '$kind'" >&2; exit 2 ;;
esac
count=${1:-60}; out=${2:-$here/output/$kind-calibration}; shift $(( $# < 2 ? $# : 2 ))
sizes=${*:-$default_sizes}
test=${TEST:-20}; mix=${MIX:-200}
for v in "$count" "$test" "$mix" $sizes; do
  [[ "$v" =~ ^[0-9]+$ ]] || { echo "tatham-calibrate.sh: COUNT, TEST, MIX and SIZES are numbers (see --help)" >&2; exit 2; }
done
. "$here/scripts/common.sh"
tatham=$(command -v $program || echo /usr/games/$program)
[ -x "$tatham" ] || { apt-get update -qq && apt-get install -y -qq sgt-puzzles >/dev/null; }
mkdir -p "$out"
cfg=$out/$kind-sizes.toml
labels=$(echo $levels | tr ' ' ,); letters=$(echo $levels | tr -d ' ')
# Start from the built-in settings without their size tables: every table comes from this run.
python3 - "$here/crates/$kind/config/$kind.toml" "$cfg" <<'PY'
import re, sys
text = open(sys.argv[1]).read()
open(sys.argv[2], "w").write(re.sub(r"(?ms)^(# [^\n]*\n)*\[grades\.size\.\d+\].*?(?=^\[|\Z)", "", text))
PY

tatham_set() { # tatham_set SIZE SEED_TAG N FILE: N puzzles per level, "ID<tab>level" lines
  : >"$4"
  for level in $levels; do
    "$tatham" --generate "$3" "${1}d${level}#$2" 2>/dev/null | grep -E '^[0-9]+:' | sed "s/\$/\t$level/" >>"$4"
  done
}

: >"$out/tatham-all.txt"
for size in $sizes; do
  if [ "${REUSE:-0}" != 1 ] || [ ! -s "$out/tatham-$size-test.txt" ]; then
    tatham_set "$size" calib "$count" "$out/tatham-$size.txt"
    tatham_set "$size" test "$test" "$out/tatham-$size-test.txt"
  fi
  cat "$out/tatham-$size.txt" >>"$out/tatham-all.txt"
done
echo "== fit every size on its own Tatham puzzles ($(wc -l <"$out/tatham-all.txt") in all)"
"$bin" --kind "$kind" calibrate --quiet --config "$cfg" --reference "$out/tatham-all.txt" --levels "$labels" \
  --holdout 0 --seed 1 --floor --report "$out/report" --write-config "$cfg" | sed -n '/^per size/,$p'

if [ "$kind" = futoshiki ]; then
  echo "== the level floor: Tatham grades by the techniques a puzzle needs, so every size takes the floor"
  echo "   (medium, hard, expert from ladder levels f1 >= 2 < f2 < f3) that agrees best with the fit puzzles,"
  echo "   keeping each size's k1 (easy below it) and leaving the step count out above medium"
  for size in $sizes; do
    cut -f1 "$out/tatham-$size.txt" >"$out/fit-$size.txt"
    "$bin" --kind "$kind" --config "$cfg" rate "$out/fit-$size.txt" >"$out/fit-$size.csv"
  done
  python3 - "$out" "$here/scripts" "$sizes" "$cfg" "$letters" <<'PY'
import csv, itertools, re, sys
out, scripts, sizes, cfg = sys.argv[1], sys.argv[2], [int(s) for s in sys.argv[3].split()], sys.argv[4]
sys.path.insert(0, scripts)
from gamma import gamma
rank = {l: i for i, l in enumerate(sys.argv[-1])}
data = {}
for n in sizes:
    labels = [rank[l.rstrip("\n").split("\t")[1]] for l in open(f"{out}/tatham-{n}.txt")]
    data[n] = (labels, list(csv.DictReader(open(f"{out}/fit-{n}.csv"))))
text = open(cfg).read()
k1 = {n: float(re.search(rf"(?ms)^\[grades\.size\.{n}\]\nk1 = ([0-9.e+]+)", text).group(1)) for n in sizes}
best = None
for f in itertools.combinations(range(2, 7), 3):
    gs = []
    for n in sizes:
        labels, rows = data[n]
        g = [max(int(float(r["steps"]) >= k1[n]), max([i + 1 for i, x in enumerate(f) if int(r["hardest_level"]) >= x], default=0)) for r in rows]
        gs.append(gamma(labels, g))
    key = (min(gs), sum(gs))
    if best is None or key > best[0]:
        best = (key, f, gs)
(_, floor, gs) = best
print(f"  floor {list(floor)}: gamma on the fit puzzles " + ", ".join(f"{n}x{n} {g:.3f}" for n, g in zip(sizes, gs)))
for n in sizes:
    text = re.sub(rf"(?ms)^(\[grades\.size\.{n}\]\nk1 = [^\n]*\n)k2 = [^\n]*\nk3 = [^\n]*\nlevel_floor = \[[^\]]*\]",
                  lambda m: m.group(1) + f"k2 = {k1[n] * 1e6:.1f}\nk3 = {k1[n] * 2e6:.1f}\nlevel_floor = {list(floor)}", text)
open(cfg, "w").write(text)
PY

fi

echo "== on fresh Tatham puzzles ($test per level, seeds '#test'), and the generated grade mix"
for size in $sizes; do
  cut -f1 "$out/tatham-$size-test.txt" >"$out/test-$size.txt"
  "$bin" --kind "$kind" --config "$cfg" rate "$out/test-$size.txt" >"$out/test-$size.csv"
  "$bin" --kind "$kind" --config "$cfg" generate --quiet --force --size "$size" --count "$mix" --seed 1 \
    --out "$out/mix-$size"
done
python3 - "$out" "$here/scripts" "$sizes" "$letters" <<'PY'
import csv, json, statistics, sys
out, scripts, sizes = sys.argv[1], sys.argv[2], [int(s) for s in sys.argv[3].split()]
sys.path.insert(0, scripts)
from gamma import gamma
order = {"easy": 0, "medium": 1, "hard": 2, "expert": 3}
rank = {l: i for i, l in enumerate(sys.argv[-1])}
print(f"{'size':>4} {'n':>4} {'γ grade':>8} {'γ steps':>8}   median steps " + " / ".join(sys.argv[-1]) + "   order   test grade mix e/m/h/x")
for n in sizes:
    labels = [rank[l.rstrip("\n").split("\t")[1]] for l in open(f"{out}/tatham-{n}-test.txt")]
    rows = list(csv.DictReader(open(f"{out}/test-{n}.csv")))
    grade = [order[r["grade"]] for r in rows]
    steps = [float(r["steps"]) for r in rows]
    med = []
    for lv in range(len(rank)):
        s = [x for x, l in zip(steps, labels) if l == lv]
        med.append(statistics.median(s) if s else float("nan"))
    ok = all(a < b for a, b in zip(med, med[1:]))
    mixt = "/".join(str(grade.count(i)) for i in range(4))
    meds = " / ".join(f"{m:.0f}" for m in med)
    print(f"{n:>4} {len(rows):>4} {gamma(labels, grade):8.3f} {gamma(labels, steps):8.3f}   {meds}   {'yes' if ok else 'NO'}   {mixt}")
print("grade mix of generated puzzles (generate --count MIX --seed 1):")
for n in sizes:
    c = json.load(open(f"{out}/mix-{n}/calibration.json"))
    counts = [c["grades"][g]["count"] for g in ("easy", "medium", "hard", "expert")]
    print(f"  {n}x{n}  easy {counts[0]:4d}  medium {counts[1]:4d}  hard {counts[2]:4d}  expert {counts[3]:4d}")
PY
echo "wrote $cfg"

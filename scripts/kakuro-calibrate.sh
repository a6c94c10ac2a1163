#!/usr/bin/env bash
# Kakuro grades on the size-free scale, and their check against publishers' levels.
# No graded public Kakuro set is large enough to fit on, so the thresholds come from our own
# puzzles: COUNT candidates at each of the sizes 6x6, 8x10, 12x12, 15x15 and 20x20 (seed 7),
# pooled; `calibrate --method quantile --shares 40,30,20,10` puts the three cuts on the
# size-free difficulty (`Kind::difficulty`: steps / white cells^2), so one set of thresholds
# serves every size. The hardest-level floor of crates/kakuro/config/kakuro.toml is kept (forcing chains make
# a puzzle at least hard, trial expert: the same techniques mean the same grade at every size).
# Then:
#   - the 20 publisher-graded Kakuros (../shared/data/kakuro/graded: Kakuro Conquest and
#     Nikoli, several sizes) are rated; Goodman-Kruskal gamma of the publisher's level against
#     our grade, the size-free difficulty, steps per white cell and the raw step count, over
#     pairs from the same publisher (their scales differ);
#   - the grade mix of MIX fresh candidates (seed 1) at each size.
# Writes OUT_DIR/kakuro-size-free.toml (copy its [grades] into crates/kakuro/config/kakuro.toml).
#
# Usage: scripts/kakuro-calibrate.sh [COUNT] [OUT_DIR]   (defaults: 400, output/kakuro-calibration)
#   MIX=300 candidates per size for the mix
case "${1:-}" in -h | --help) sed -n '2,/^set -/{/^#/s/^# \{0,1\}//p}' "$0"; exit 0 ;; esac
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
count=${1:-400}; out=${2:-$here/output/kakuro-calibration}; mix=${MIX:-300}
for v in "$count" "$mix"; do
  [[ "$v" =~ ^[0-9]+$ ]] || { echo "kakuro-calibrate.sh: COUNT and MIX are numbers (see --help)" >&2; exit 2; }
done
graded=${GRADED:-$here/../shared/data/kakuro/graded/publisher.jsonl}
[ -f "$graded" ] || { echo "kakuro-calibrate.sh: no $graded (set GRADED=FILE)" >&2; exit 2; }
. "$here/scripts/common.sh"
mkdir -p "$out"
sizes="6x6 8x10 12x12 15x15 20x20"

echo "== fit: $count candidates per size, seed 7, pooled"
: >"$out/pool.jsonl"
for s in $sizes; do
  "$bin" --kind kakuro generate --quiet --force --rows "${s%x*}" --cols "${s#*x}" --count "$count" --seed 7 \
    --out "$out/fit-$s"
  cat "$out/fit-$s/puzzles.jsonl" >>"$out/pool.jsonl"
done
cfg=$out/kakuro-size-free.toml
cp "$here/crates/kakuro/config/kakuro.toml" "$cfg"
"$bin" --kind kakuro calibrate --quiet --reference "$out/pool.jsonl" --method quantile --shares 40,30,20,10 \
  --holdout 0 --seed 1 --write-config "$out/fitted.toml" | grep -E "^method"
# Keep the built-in floor: calibrate --write-config wrote the quantile cuts with the floor of
# the file it started from, which is the built-in one.
python3 - "$out/fitted.toml" "$cfg" <<'PY'
import re, sys, tomllib
g = tomllib.load(open(sys.argv[1], "rb"))["grades"]
text = open(sys.argv[2]).read()
for k in ("k1", "k2", "k3"):
    text = re.sub(rf"(?m)^{k} = .*$", f"{k} = {g[k]:.4f}", text, count=1)
open(sys.argv[2], "w").write(text)
print(f"  k1 {g['k1']:.4f}  k2 {g['k2']:.4f}  k3 {g['k3']:.4f} (steps / white cells^2)")
PY

echo "== publishers' levels (pairs from the same publisher)"
python3 - "$graded" "$out" <<'PY'
import json, sys
graded, out = sys.argv[1], sys.argv[2]
with open(f"{out}/publisher.txt", "w") as f, open(f"{out}/publisher.labels", "w") as g:
    for line in open(graded):
        d = json.loads(line)
        f.write(json.dumps(d["puzzle"]) + "\n")
        g.write(f"{d['id']}\t{d['id'].split('-')[0]}\t{d['level_rank']}\t{d['size']}\n")
PY
"$bin" --kind kakuro --config "$cfg" rate "$out/publisher.txt" >"$out/publisher.csv"
for s in $sizes; do
  "$bin" --kind kakuro --config "$cfg" generate --quiet --force --rows "${s%x*}" --cols "${s#*x}" --count "$mix" \
    --seed 1 --out "$out/mix-$s"
done
python3 - "$out" "$here/scripts" "$sizes" <<'PY'
import csv, json, sys
out, scripts, sizes = sys.argv[1], sys.argv[2], sys.argv[3].split()
order = {"easy": 0, "medium": 1, "hard": 2, "expert": 3}
labels = [l.rstrip("\n").split("\t") for l in open(f"{out}/publisher.labels")]
rows = list(csv.DictReader(open(f"{out}/publisher.csv")))
puzzles = [json.loads(l) for l in open(f"{out}/publisher.txt")]
whites = [sum(c == "." for row in p["cells"] for c in row) for p in puzzles]
def pair_gamma(score):
    conc = disc = 0
    for i in range(len(rows)):
        for j in range(len(rows)):
            if labels[i][1] != labels[j][1] or int(labels[i][2]) >= int(labels[j][2]):
                continue
            a, b = score[i], score[j]
            conc += a < b
            disc += a > b
    return conc, disc, (conc - disc) / (conc + disc) if conc + disc else float("nan")
steps = [float(r["steps"]) for r in rows]
scores = {
    "grade": [order[r["grade"]] for r in rows],
    "size-free difficulty (steps/w^2)": [s / w / w for s, w in zip(steps, whites)],
    "steps per white cell": [s / w for s, w in zip(steps, whites)],
    "raw steps": steps,
}
print(f"{'score':>34} {'concordant':>10} {'discordant':>10} {'gamma':>7}")
for name, sc in scores.items():
    c, d, g = pair_gamma(sc)
    print(f"{name:>34} {c:>10} {d:>10} {g:>7.3f}")
print(f"{'puzzle':>34} {'size':>6} {'level':>5} {'whites':>6} {'steps':>9} {'steps/w^2':>9} {'hardest':>7}  grade")
for (pid, pub, rank, size), r, w, s in zip(labels, rows, whites, steps):
    print(f"{pid:>34} {size:>6} {rank:>5} {w:>6} {s:>9.1f} {s / w / w:>9.3f} {r['hardest_level']:>7}  {r['grade']}")
print("grade mix of generated puzzles (generate --count MIX --seed 1), share of the largest grade:")
for s in sizes:
    c = json.load(open(f"{out}/mix-{s}/calibration.json"))
    counts = [c["grades"][g]["count"] for g in ("easy", "medium", "hard", "expert")]
    total = sum(counts) or 1
    print(f"  {s:>6} easy {counts[0]:4d}  medium {counts[1]:4d}  hard {counts[2]:4d}  expert {counts[3]:4d}"
          f"   largest {100 * max(counts) / total:5.1f} %")
PY
echo "wrote $cfg"

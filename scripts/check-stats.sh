#!/usr/bin/env bash
# Recomputes a book's step statistics from DIR/puzzles.csv and compares them, exactly, with
# DIR/calibration.json: per grade and for all puzzles, count, min, median, mean, p90 and max
# (the definitions are the ones calibration.json states: nearest-rank quantiles, the value at
# 1-based rank ceil(q*n) of the sorted printed step counts; the mean of the printed values
# rounded to two decimals, half up), and that the histogram's counts match its edges.
# Prints a table; exits 1 on any mismatch, 2 on bad usage. Needs only bash and python3.
#
# Usage: scripts/check-stats.sh DIR
set -euo pipefail
usage() { sed -n '2,9p' "$0" | sed 's/^# \{0,1\}//'; }
case "${1:-}" in
  -h | --help) usage; exit 0 ;;
  "") usage >&2; exit 2 ;;
esac
dir=$1
for f in puzzles.csv calibration.json; do
  [ -f "$dir/$f" ] || { echo "check-stats: $dir/$f not found" >&2; exit 2; }
done
python3 - "$dir" <<'PY'
import bisect, csv, json, sys
from decimal import Decimal

d = sys.argv[1]
GRADES = ["easy", "medium", "hard", "expert"]

def centi(x):
    """A printed step count (string or Decimal) as integer centi-steps, exactly."""
    c = Decimal(x) * 100
    if c != c.to_integral_value():
        raise SystemExit(f"check-stats: {x} has more than two decimals")
    return int(c)

steps = {g: [] for g in GRADES}
with open(f"{d}/puzzles.csv", newline="") as f:
    for row in csv.DictReader(f):
        steps[row["grade"]].append(centi(row["steps"]))
steps["all"] = [v for g in GRADES for v in steps[g]]
cal = json.load(open(f"{d}/calibration.json"), parse_float=Decimal)

def figures(vs):
    """count, min, median, mean, p90, max in centi-steps (None when empty)."""
    n = len(vs)
    if n == 0:
        return (0, None, None, None, None, None)
    s = sorted(vs)
    rank = lambda num, den: min(max(-(-num * n // den), 1), n)  # ceil(num*n/den) in 1..n
    total = sum(s)
    mean = total // n + (1 if 2 * (total % n) >= n else 0)
    return (n, s[0], s[rank(1, 2) - 1], mean, s[rank(9, 10) - 1], s[-1])

def recorded(entry):
    st = entry["steps"]
    if st is None:
        return (entry["count"], None, None, None, None, None)
    return (entry["count"],) + tuple(centi(st[k]) for k in ["min", "median", "mean", "p90", "max"])

def histogram_ok(entry, vs):
    h = entry.get("histogram") or {}
    if "edges" not in h or "counts" not in h:
        return False
    edges, counts = [centi(e) for e in h["edges"]], h["counts"]
    if not vs:
        return edges == [] and counts == []
    if len(edges) != len(counts) + 1 or edges[0] != min(vs) or edges[-1] != max(vs) + 1:
        return False
    recount = [0] * len(counts)
    for v in vs:
        i = bisect.bisect_right(edges, v) - 1  # edges[i] <= v < edges[i + 1]
        if not 0 <= i < len(counts):
            return False
        recount[i] += 1
    return recount == counts

fmt = lambda c: "-" if c is None else f"{Decimal(c) / 100:.2f}"
names = ["count", "min", "median", "mean", "p90", "max"]
print(f"{'grade':<8}{'source':<8}" + "".join(f"{n:>14}" for n in names) + "  histogram")
bad = 0
for g in GRADES + ["all"]:
    entry = cal["all"] if g == "all" else cal["grades"][g]
    want, got = figures(steps[g]), recorded(entry)
    hist = histogram_ok(entry, steps[g])
    for src, vals in [("csv", want), ("json", got)]:
        cells = [str(vals[0])] + [fmt(v) for v in vals[1:]]
        tail = ("ok" if hist else "MISMATCH") if src == "json" else ""
        print(f"{g:<8}{src:<8}" + "".join(f"{c:>14}" for c in cells) + f"  {tail}")
    diff = [n for n, a, b in zip(names, want, got) if a != b]
    if diff or not hist:
        bad += 1
        print(f"  MISMATCH in {g}: {', '.join(diff + ([] if hist else ['histogram']))}")
print("all figures equal" if bad == 0 else f"{bad} of 5 rows differ")
sys.exit(1 if bad else 0)
PY

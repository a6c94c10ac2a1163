#!/usr/bin/env python3
"""Fit the 16x16 grade table ([grades.size.16] of crates/sudoku/config/sudoku-family.toml) on two references
at once, and measure it on their held-out halves:

  * KrazyDad's 16x16 books (krazydad_hex16.jsonl, publisher levels IM < CH < TF < ST): book 1
    of every volume is fitted on, book 2 measured;
  * Tatham's Solo 4x4 levels (trivial..extreme), the sets scripts/solo-gamma.sh keeps in its
    OUT_DIR: solo-4x4-fit.txt fitted on, solo-4x4-test.txt measured.

The search: k1 < k2 < k3 from 30 quantiles of the fit puzzles' step counts, and a hardest-level
floor from a short list, maximising the sum of Kendall's tau-b over the two fit sets (tau-b, not
gamma, so that a table that puts everything in one grade scores low). Prints the best table and
Goodman-Kruskal gamma (and tau-b) of each reference's held-out half under it and under the
table now in the config.

Usage: scripts/fit-hex16.py BINARY KRAZYDAD_HEX16_JSONL SOLO_DIR
"""
import csv
import io
import itertools
import json
import math
import subprocess
import sys
import tomllib
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from gamma import gamma, table_grade  # noqa: E402

FLOORS = [[0, 0, 0], [2, 0, 0], [0, 0, 5], [2, 0, 5], [2, 0, 6], [0, 0, 6], [2, 3, 5], [2, 3, 6],
          [0, 3, 5], [2, 4, 5]]


def rate(binary, lines):
    r = subprocess.run([binary, "--quiet", "--kind", "sudoku", "rate", "-"], input="".join(l + "\n" for l in lines),
                       capture_output=True, text=True, check=True)
    rows = list(csv.DictReader(io.StringIO(r.stdout)))
    assert len(rows) == len(lines), r.stderr
    return [(float(x["steps"]), int(x["hardest_level"])) for x in rows]


def tau_b(items, t):
    x = [i[0] for i in items]
    y = [table_grade(t, s, h) for _, s, h in items]
    c = d = tx = ty = 0
    for i in range(len(x)):
        for j in range(i + 1, len(x)):
            a = (x[i] > x[j]) - (x[i] < x[j])
            b = (y[i] > y[j]) - (y[i] < y[j])
            if a and b:
                c += a == b
                d += a != b
            elif a:
                ty += 1
            elif b:
                tx += 1
    den = math.sqrt((c + d + tx) * (c + d + ty))
    return (c - d) / den if den else 0.0


def g(items, t):
    return gamma([i[0] for i in items], [table_grade(t, s, h) for _, s, h in items])


def main():
    if len(sys.argv) != 4:
        sys.exit(__doc__.strip())
    binary, kd_path, solo_dir = sys.argv[1:]
    kd = [json.loads(line) for line in open(kd_path)]
    rated = rate(binary, [json.dumps(r["puzzle"]) for r in kd])
    book = [r["source"].split()[-1].split("-")[1] for r in kd]
    kd_sets = {b: [(r["level_rank"], s, h) for r, (s, h), bb in zip(kd, rated, book) if bb == b] for b in ("1", "2")}
    levels = "tbiae"
    solo = {}
    for part in ("fit", "test"):
        lines = [line.rstrip("\n").split("\t") for line in open(Path(solo_dir) / f"solo-4x4-{part}.txt")]
        solo[part] = [(levels.index(lv), s, h) for (_, lv), (s, h) in zip(lines, rate(binary, [p for p, _ in lines]))]
    steps = sorted(s for _, s, _ in kd_sets["1"] + solo["fit"])
    cuts = sorted({round(steps[int(i * (len(steps) - 1) / 30)], -2) for i in range(31)})
    best = None
    for k1, k2, k3 in itertools.combinations(cuts, 3):
        for f in FLOORS:
            t = {"k1": k1, "k2": k2, "k3": k3, "level_floor": f}
            score = tau_b(kd_sets["1"], t) + tau_b(solo["fit"], t)
            if best is None or score > best[0]:
                best = (score, t)
    config = Path(__file__).parent.parent / "crates" / "sudoku" / "config" / "sudoku-family.toml"
    now = tomllib.load(open(config, "rb"))["grades"]["size"]["16"]
    print(f"fitted: {best[1]}  (tau-b sum on the fit halves {best[0]:.4f})")
    for name, t in (("fitted", best[1]), ("config now", now)):
        for ref, items in (("KrazyDad book 2", kd_sets["2"]), ("Solo 4x4 test", solo["test"])):
            print(f"  {name:<10} {ref:<16} gamma {g(items, t):.4f}  tau-b {tau_b(items, t):.4f}  n {len(items)}")


if __name__ == "__main__":
    main()

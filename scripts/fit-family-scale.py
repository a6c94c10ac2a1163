#!/usr/bin/env python3
"""Fit one grade scale for the Sudoku family (issue 42, Build 1), and measure it on fresh seeds.

Each size used to be fitted on its own, so Solo's levels landed on different grades at different
sizes (Solo's "advanced" was medium at 8x8 and 16x16 but hard at 9x9 and 12x12): every size
agreed with Solo on its own, but a "hard" book of mixed sizes was not one level (gamma pooled
over sizes 0.945). Here the tables are fitted jointly, so that one Solo level is one grade at
every size and variant:

  1. the references: Tatham's Solo puzzles at every level for boxes 2x3 2x4 3x3 3x4 4x4, jigsaw 6
     and 9 and X 9 (files SOLO_DIR/solo-CFG-fit.txt to fit on and SOLO_DIR/solo-CFG-fresh.txt to
     measure on, "ID<tab>level" lines, made with the seeds 'CFGdL#fit-L' and 'CFGdL#fresh-L'),
     and KrazyDad's 16x16 books (krazydad_hex16.jsonl: book 1 of each volume fitted on, book 2
     measured);
  2. one objective: Kendall's tau-b of Solo's level against our grade pooled over every Solo fit
     puzzle of every size and variant (pairs across sizes count, so a level graded differently at
     two sizes costs), plus tau-b of KrazyDad's level on its fit books;
  3. the tables: per size and variant three thresholds and one hardest-level floor shared by all,
     found by coordinate ascent from the built-in tables (or COMPARE's: the ascent finds a local
     best, so the result depends on where it starts); then the box sizes' thresholds are made
     one size-free scale, each a power of n (k_i(n) = a_i n^b_i: least squares through the
     fitted sizes, then a local search on the same objective), which also gives the sizes Solo
     does not grade (4, 5, 7, 10, 11, 13 to 15, 18 to 25); the jigsaw and X tables are fitted
     again against it;
  4. gamma of Solo's level against our grade on the fresh puzzles, per configuration and pooled
     (all box sizes; the jigsaw sizes; everything), and of KrazyDad's level on book 2, under the
     new tables and under the tables built in now.

Killer tables are left as they are: Solo's killer levels are a weak witness (issue 42, Build 3).
Ratings are kept in SOLO_DIR/rated-*.csv (delete them after a rater change).

Usage: scripts/fit-family-scale.py BINARY SOLO_DIR KRAZYDAD_HEX16_JSONL [OUT_TOML]
       (scripts/family-scale.sh makes Solo's sets and runs it; COMPARE=FILE starts from and
       compares with that config's tables instead of the built-in ones)
       OUT_TOML: the fitted [grades.size.N] and [grades.variant.V] tables, to copy into
       crates/sudoku/config/sudoku-family.toml
"""
import csv
import io
import json
import math
import os
import random
import subprocess
import sys
import tomllib
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from gamma import gamma, table_grade  # noqa: E402

# configuration: symbols, table (a size "16" or a variant "6j"), Solo's levels
CONFIGS = {
    "2x3": (6, "6", "tbiaeu"), "2x4": (8, "8", "tbiaeu"), "3x3": (9, "9", "tbiaeu"),
    "3x4": (12, "12", "tbiaeu"), "4x4": (16, "16", "tbiae"),
    "6j": (6, "6j", "tbiaeu"), "9j": (9, "9j", "tbiaeu"), "3x3x": (9, "9x", "tbiaeu"),
}
BOX = ["2x3", "2x4", "3x3", "3x4", "4x4"]
JIGSAW = ["6j", "9j"]
FLOORS = [[0, 0, 0], [0, 0, 3], [0, 0, 4], [0, 0, 5], [0, 0, 6], [0, 2, 0], [0, 3, 0], [0, 2, 5], [0, 3, 5],
          [0, 3, 6], [2, 0, 0], [2, 0, 5], [2, 3, 5], [2, 3, 6], [0, 2, 6], [0, 4, 6], [2, 4, 6], [3, 0, 0]]
ALL_SIZES = [4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 18, 20, 21, 22, 24, 25]
KEYS = ("k1", "k2", "k3")


def rate(binary, lines, cache):
    """(steps, hardest level) of each puzzle line, through `rate` (kept in `cache`)."""
    if cache.exists():
        rows = list(csv.reader(open(cache)))
        if len(rows) == len(lines):
            return [(float(s), int(h)) for s, h in rows]
    r = subprocess.run([binary, "--quiet", "--kind", "sudoku", "rate", "-"], input="".join(l + "\n" for l in lines),
                       capture_output=True, text=True)
    rows = list(csv.DictReader(io.StringIO(r.stdout)))
    if r.returncode != 0 or len(rows) != len(lines):
        sys.exit(f"rating {cache.name} failed: {r.stderr.strip()}")
    out = [(float(x["steps"]), int(x["hardest_level"])) for x in rows]
    with open(cache, "w") as f:
        csv.writer(f).writerows(out)
    return out


def tau_b_table(pairs, nx, ny):
    """Kendall's tau-b of (x, y) pairs with x in 0..nx and y in 0..ny, from their counts."""
    t = [[0] * ny for _ in range(nx)]
    for x, y in pairs:
        t[x][y] += 1
    n = len(pairs)
    # concordant minus discordant: for each cell, the cells below-right minus below-left
    s = 0
    for i in range(nx):
        for j in range(ny):
            if not t[i][j]:
                continue
            for i2 in range(i + 1, nx):
                row = t[i2]
                s += t[i][j] * (sum(row[j + 1:]) - sum(row[:j]))
    n0 = n * (n - 1) // 2
    tx = sum(c * (c - 1) // 2 for c in (sum(r) for r in t))
    ty = sum(c * (c - 1) // 2 for c in (sum(t[i][j] for i in range(nx)) for j in range(ny)))
    den = math.sqrt((n0 - tx) * (n0 - ty))
    return s / den if den else 0.0


class Fit:
    def __init__(self, sets, kd):
        self.sets = sets  # cfg -> [(level, steps, hardest)]
        self.kd = kd      # [(level, steps, hardest)] (KrazyDad 16x16)

    def grades(self, cfg, tables, floor):
        t = dict(tables[CONFIGS[cfg][1]], level_floor=floor)
        return [(lv, table_grade(t, s, h)) for lv, s, h in self.sets[cfg]]

    def score(self, tables, floor):
        pooled = [p for cfg in self.sets for p in self.grades(cfg, tables, floor)]
        kd_t = dict(tables["16"], level_floor=floor)
        kd = [(lv, table_grade(kd_t, s, h)) for lv, s, h in self.kd]
        return tau_b_table(pooled, 6, 4) + tau_b_table(kd, 5, 4)


def ascend(fit, tables, floor, names):
    """Coordinate ascent: each threshold of the named tables over the midpoints of its
    configuration's step counts, and the shared floor, until nothing improves."""
    best = fit.score(tables, floor)
    steps_of = {}
    for cfg, (_, name, _) in CONFIGS.items():
        if cfg in fit.sets:
            steps_of.setdefault(name, []).extend(s for _, s, _ in fit.sets[cfg])
    if "16" in names:
        steps_of["16"].extend(s for _, s, _ in fit.kd)
    while True:
        improved = False
        for f in FLOORS:
            sc = fit.score(tables, f)
            if sc > best + 1e-12:
                best, floor, improved = sc, f, True
        for name in names:
            vals = sorted(set(steps_of[name]))
            mids = [(a + b) / 2 for a, b in zip(vals, vals[1:])]
            for i, k in enumerate(KEYS):
                lo = tables[name][KEYS[i - 1]] if i else 0.0
                hi = tables[name][KEYS[i + 1]] if i < 2 else math.inf
                for m in mids:
                    if not lo < m < hi:
                        continue
                    old = tables[name][k]
                    tables[name][k] = m
                    sc = fit.score(tables, floor)
                    if sc > best + 1e-12:
                        best, improved = sc, True
                    else:
                        tables[name][k] = old
        if not improved:
            return tables, floor, best


def power_law(tables):
    """Least squares of log k_i on log n over the box sizes: (log a_i, b_i) per threshold."""
    law = []
    for k in KEYS:
        xs = [math.log(CONFIGS[c][0]) for c in BOX]
        ys = [math.log(tables[CONFIGS[c][1]][k]) for c in BOX]
        mx, my = sum(xs) / len(xs), sum(ys) / len(ys)
        b = sum((x - mx) * (y - my) for x, y in zip(xs, ys)) / sum((x - mx) ** 2 for x in xs)
        law.append([my - b * mx, b])
    return law


def law_tables(law, tables, sizes):
    out = {name: dict(t) for name, t in tables.items()}
    for n in sizes:
        out[str(n)] = {k: math.exp(a + b * math.log(n)) for k, (a, b) in zip(KEYS, law)}
    return out


def ordered(law):
    return all(math.exp(law[0][0] + law[0][1] * math.log(n)) < math.exp(law[1][0] + law[1][1] * math.log(n))
               < math.exp(law[2][0] + law[2][1] * math.log(n)) for n in ALL_SIZES)


def polish(fit, law, tables, floor, rounds=4000, seed=1):
    """A local random search over the law's six numbers (and the floor), on the objective."""
    rng = random.Random(seed)
    box = [CONFIGS[c][0] for c in BOX]
    best = fit.score(law_tables(law, tables, box), floor)
    step = 0.15
    for r in range(rounds):
        cand = [[a + rng.gauss(0, step), b + rng.gauss(0, step / 4)] for a, b in law]
        f = floor if rng.random() < 0.9 else rng.choice(FLOORS)
        if not ordered(cand):
            continue
        sc = fit.score(law_tables(cand, tables, box), f)
        if sc >= best:
            best, law, floor = sc, cand, f
        if r % 1000 == 999:
            step /= 2
    return law, floor, best


def measure(sets, kd, tables, floor, label, kd_label="book 2"):
    def grades(cfg):
        t = dict(tables[CONFIGS[cfg][1]], level_floor=floor if floor is not None else tables[CONFIGS[cfg][1]]["level_floor"])
        return [(lv, table_grade(t, s, h)) for lv, s, h in sets[cfg]]
    print(f"  {label}")
    per = {}
    for cfg in sets:
        g = grades(cfg)
        per[cfg] = g
        mix = " ".join("/".join(str(sum(1 for l, x in g if l == lv and x == k)) for k in range(4))
                       for lv in range(len(CONFIGS[cfg][2])))
        print(f"    {cfg:<5} gamma {gamma([l for l, _ in g], [x for _, x in g]):.3f}   e/m/h/x per level {mix}")
    for name, cfgs in (("box sizes", BOX), ("jigsaw", JIGSAW), ("all", list(sets))):
        g = [p for c in cfgs if c in per for p in per[c]]
        print(f"    pooled over {name:<9} gamma {gamma([l for l, _ in g], [x for _, x in g]):.3f}  (n {len(g)})")
    t = dict(tables["16"], level_floor=floor if floor is not None else tables["16"]["level_floor"])
    g = [(lv, table_grade(t, s, h)) for lv, s, h in kd]
    print(f"    KrazyDad 16x16 {kd_label} gamma {gamma([l for l, _ in g], [x for _, x in g]):.3f}  (n {len(g)})")


def main():
    if len(sys.argv) not in (4, 5) or sys.argv[1] in ("-h", "--help"):
        sys.exit(__doc__.strip())
    binary, solo_dir, kd_path = sys.argv[1], Path(sys.argv[2]), sys.argv[3]
    sets = {"fit": {}, "fresh": {}}
    for cfg, (_, _, levels) in CONFIGS.items():
        for part in sets:
            f = solo_dir / f"solo-{cfg}-{part}.txt"
            lines = [line.rstrip("\n").split("\t") for line in open(f)]
            rated = rate(binary, [p for p, _ in lines], solo_dir / f"rated-{cfg}-{part}.csv")
            sets[part][cfg] = [(levels.index(lv), s, h) for (_, lv), (s, h) in zip(lines, rated)]
    kd_rows = [json.loads(line) for line in open(kd_path)]
    kd_rated = rate(binary, [json.dumps(r["puzzle"]) for r in kd_rows], solo_dir / "rated-krazydad16.csv")
    kd = {"fit": [], "fresh": []}
    for r, (s, h) in zip(kd_rows, kd_rated):
        book = r["source"].split()[-1].split("-")[1]
        kd["fit" if book == "1" else "fresh"].append((r["level_rank"] - 1, s, h))

    config = os.environ.get("COMPARE") or Path(__file__).parent.parent / "crates" / "sudoku" / "config" / "sudoku-family.toml"
    built = tomllib.load(open(config, "rb"))["grades"]
    now = {str(n): built["size"][str(n)] for n in ALL_SIZES}
    now.update({v: built["variant"][v] for v in ("6j", "9j", "9x")})

    fit = Fit(sets["fit"], kd["fit"])
    tables = {name: {k: t[k] for k in KEYS} for name, t in now.items()}
    names = [CONFIGS[c][1] for c in CONFIGS]
    tables, floor, best = ascend(fit, tables, [0, 0, 3], names)
    print(f"free fit: objective {best:.4f}, floor {floor}")
    free = ({name: dict(t) for name, t in tables.items()}, floor)
    law = power_law(tables)
    law, floor, best = polish(fit, law, tables, floor)
    tables = law_tables(law, tables, ALL_SIZES)
    print(f"size-free scale: objective {best:.4f}, floor {floor}; "
          + ", ".join(f"{k}(n) = {math.exp(a):.4g} n^{b:.3f}" for k, (a, b) in zip(KEYS, law)))
    # The jigsaw and X tables against the scale.
    tables, floor2, best = ascend(fit, tables, floor, ["6j", "9j", "9x"])
    assert floor2 == floor or print(f"(the floor moved to {floor2} with the variants)") is None
    floor = floor2
    print(f"with the variants fitted again: objective {best:.4f}")

    print("\nMeasured on the fresh Solo puzzles and KrazyDad's book 2:")
    measure(sets["fresh"], kd["fresh"], tables, floor, "one scale (fitted here)")
    measure(sets["fresh"], kd["fresh"], free[0], free[1], "each table free, fitted jointly (no size-free scale)")
    measure(sets["fresh"], kd["fresh"], now, None, f"the tables of {config}")
    print("\nOn the fit puzzles:")
    measure(sets["fit"], kd["fit"], tables, floor, "one scale (fitted here)", "book 1")

    if len(sys.argv) == 5:
        with open(sys.argv[4], "w") as f:
            f.write("# One size-free scale: " + ", ".join(
                f"{k}(n) = {math.exp(a):.4g} * n^{b:.3f}" for k, (a, b) in zip(KEYS, law)) + f"; floor {floor}\n")
            for n in ALL_SIZES:
                t = tables[str(n)]
                f.write(f"\n# {n}x{n}: the size-free scale.\n[grades.size.{n}]\n"
                        + "".join(f"{k} = {t[k]:.1f}\n" for k in KEYS)
                        + f"level_floor = [{', '.join(map(str, floor))}]\n")
            for v in ("6j", "9j", "9x"):
                t = tables[v]
                f.write(f"\n[grades.variant.{v}]\n" + "".join(f"{k} = {t[k]:.1f}\n" for k in KEYS)
                        + f"level_floor = [{', '.join(map(str, floor))}]\n")
        print(f"wrote {sys.argv[4]}")


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""Killer ratings against people: sudoku.com's player win rates, level by level.

Run by scripts/killer-winrate.sh (see its --help). Reads sudokucom_killer.jsonl (592 9x9 killers
in four site levels, each with the share of players who finished it), rates every puzzle with our
binary (one process, --threads 1) and, when asked, with pencilmark (cached), and prints, per site
level, the Goodman-Kruskal gamma of each score against the puzzle's difficulty for people (a
lower win rate is harder): our step count, our hardest level, the cage count alone (fewer cages,
harder: the baseline to beat) and pencilmark's difficulty and band. Within a level only: the
site's levels differ in givens and each has its own players.

The rows "fit" and "test" split the puzzles in two by a hash of the solution grid (the site
reuses a grid and its cages across levels: such puzzles stay on one side), so a rating chosen on
one half is checked on the other.
"""
import argparse
import csv
import hashlib
import io
import json
import os
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from gamma import binned_like, gamma, tau_b  # noqa: E402
from pencilmark_compare import gamma_of, krazydad_to_pm, pm_rate  # noqa: E402

LEVELS = ["easy", "medium", "hard", "expert"]


def half(rec):
    grid = json.dumps(rec["solution"], separators=(",", ":")).encode()
    return "fit" if hashlib.sha256(grid).digest()[0] % 2 == 0 else "test"


def our_rate(binary, recs):
    lines = "".join(json.dumps(r["puzzle"], separators=(",", ":")) + "\n" for r in recs)
    r = subprocess.run([binary, "rate", "--kind", "sudoku", "--killer", "--quiet", "--threads", "1", "-"],
                       input=lines, capture_output=True, text=True)
    rows = list(csv.DictReader(io.StringIO(r.stdout)))
    if r.returncode != 0 or len(rows) != len(recs):
        sys.exit(f"our rate failed ({len(rows)} of {len(recs)} rows): {r.stderr.strip()[:500]}")
    return rows


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--bin", required=True)
    ap.add_argument("--data", required=True)
    ap.add_argument("--out", required=True)
    ap.add_argument("--pencilmark", action="store_true")
    ap.add_argument("--cap", type=int, default=60)
    a = ap.parse_args()
    recs = [json.loads(line) for line in open(a.data)]
    ours = our_rate(a.bin, recs)
    halves = [half(r) for r in recs]
    pm = None
    if a.pencilmark:
        objs = [krazydad_to_pm(r) for r in recs]
        pm = pm_rate(objs, [r["id"] for r in recs], a.cap, os.path.join(a.out, "pm-cache-sudokucom-killer.jsonl"))
    scores = {
        "our steps": [float(o["steps"]) for o in ours],
        "our hardest level": [int(o["hardest_level"]) for o in ours],
        "fewer cages (baseline)": [-len(r["puzzle"]["cages"]) for r in recs],
    }
    if pm is not None:
        scores["pencilmark difficulty"] = [p["difficulty"] for p in pm]
        scores["pencilmark band"] = [p["band_index"] for p in pm]
    with open(os.path.join(a.out, "ratings.csv"), "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["id", "level", "win_rate", "half", "grade"] + list(scores))
        for i, r in enumerate(recs):
            w.writerow([r["id"], r["level"], r["win_rate"], halves[i], ours[i]["grade"]] + [s[i] for s in scores.values()])
    lines = []
    head = f"{'score':<24} {'rows':<5}" + "".join(f" {lv:>8}" for lv in LEVELS)
    lines += [head, "-" * len(head)]
    for name, s in scores.items():
        for part in ("all", "fit", "test"):
            cells = []
            for lv in LEVELS:
                idx = [i for i, r in enumerate(recs) if r["level"] == lv and part in ("all", halves[i])]
                g = gamma_of([-recs[i]["win_rate"] for i in idx], [s[i] for i in idx])
                cells.append(f" {g:8.3f}" if g == g else f" {'tied':>8}")
            lines.append(f"{name:<24} {part:<5}" + "".join(cells))
    # The cage count takes three values (32, 33, 34) within each level, so gamma leaves out the
    # third of the pairs it ties and judges it on the rest; our steps tie no pair. Two fairer
    # comparisons: tau-b (ties count), and gamma of our steps cut into three groups of the cage
    # count's sizes. And how the cage count follows the site's puzzle id (its generator's era).
    lines += ["", "ties counted (all rows)" + " " * 7 + "".join(f" {lv:>8}" for lv in LEVELS), "-" * len(head)]
    fair = [(f"tau-b {name}", lambda y, x, _: tau_b(y, x), name) for name in scores]
    fair.append(("gamma our steps, 3 groups", lambda y, x, cages: gamma(y, binned_like(x, cages)), "our steps"))
    for label, fn, name in fair:
        cells = []
        for lv in LEVELS:
            idx = [i for i, r in enumerate(recs) if r["level"] == lv and scores[name][i] is not None]
            cages = [scores["fewer cages (baseline)"][i] for i in idx]
            g = fn([-recs[i]["win_rate"] for i in idx], [scores[name][i] for i in idx], cages)
            cells.append(f" {g:8.3f}" if g == g else f" {'tied':>8}")
        lines.append(f"{label:<30}" + "".join(cells))
    cells = []
    for lv in LEVELS:
        idx = [i for i, r in enumerate(recs) if r["level"] == lv]
        site_id = [int(recs[i]["id"].rsplit("-", 1)[1]) for i in idx]
        cells.append(f" {gamma(site_id, [-scores['fewer cages (baseline)'][i] for i in idx]):8.3f}")
    lines.append(f"{'gamma cage count ~ site id':<30}" + "".join(cells))
    counts = " ".join(f"{lv} {sum(r['level'] == lv for r in recs)}" for lv in LEVELS)
    split = " ".join(f"{h} {halves.count(h)}" for h in ("fit", "test"))
    if pm is not None:
        bad = sum(p["band_index"] is None for p in pm)
        lines.append(f"pencilmark: {bad} of {len(pm)} without a score (cap {a.cap} s, or unknown), left out")
    lines.append(f"puzzles: {counts}; halves: {split}; tied: the score is one value over the level")
    grades = {lv: {} for lv in LEVELS}
    for r, o in zip(recs, ours):
        grades[r["level"]][o["grade"]] = grades[r["level"]].get(o["grade"], 0) + 1
    lines.append("our grades by site level: " + "; ".join(
        f"{lv} " + " ".join(f"{g} {grades[lv].get(g, 0)}" for g in LEVELS) for lv in LEVELS))
    text = "\n".join(lines)
    print(text)
    open(os.path.join(a.out, "table.txt"), "w").write(text + "\n")


if __name__ == "__main__":
    main()

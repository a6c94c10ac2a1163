#!/usr/bin/env python3
"""Goodman-Kruskal gamma between an ordinal reference label and one or more scores.

Usage: gamma.py LABELS_FILE LEVELS SCORES_FILE [SCORES_FILE...]
  LABELS_FILE  one label per line
  LEVELS       comma-separated labels, easiest first
  SCORES_FILE  CSV with a header; every column is a score (numeric, or a grade/class name,
               mapped through ORDER below); rows align with LABELS_FILE
Prints one line per score column: name, gamma, and the score's median per reference level.
Pairs tied on the label or on the score are left out (the usual gamma).
"""
import bisect
import csv
import signal
import statistics
import sys

ORDER = {  # ordinal names that appear as scores
    "easy": 0, "medium": 1, "hard": 2, "expert": 3,                 # our grades
    "simple": 0, "intermediate": 2,                                 # QQWing classes (easy=1 below)
}
QQWING = {"simple": 0, "easy": 1, "intermediate": 2, "expert": 3}


def gamma(labels, scores):
    """(concordant - discordant) / (concordant + discordant) over label-ordered pairs."""
    levels = sorted(set(labels))
    groups = {lv: sorted(s for l, s in zip(labels, scores) if l == lv) for lv in levels}
    conc = disc = 0
    for i, lo in enumerate(levels):
        for hi in levels[i + 1:]:
            b = groups[hi]
            for x in groups[lo]:
                conc += len(b) - bisect.bisect_right(b, x)
                disc += bisect.bisect_left(b, x)
    return (conc - disc) / (conc + disc) if conc + disc else float("nan")


def tau_b(labels, scores):
    """Kendall's tau-b: like gamma, but a pair tied on one side only counts against the score
    (gamma leaves it out). A score of few values (a count of 32, 33 or 34 cages) ties most
    pairs, and gamma judges it on the rest alone; tau-b judges every score on all pairs."""
    conc = disc = tie_l = tie_s = 0
    for i in range(len(labels)):
        for j in range(i + 1, len(labels)):
            a, b = labels[i] - labels[j], scores[i] - scores[j]
            if a == 0 and b == 0:
                continue
            if a == 0:
                tie_l += 1
            elif b == 0:
                tie_s += 1
            elif (a > 0) == (b > 0):
                conc += 1
            else:
                disc += 1
    den = ((conc + disc + tie_l) * (conc + disc + tie_s)) ** 0.5
    return (conc - disc) / den if den else float("nan")


def binned_like(scores, reference):
    """`scores` cut into as many groups as `reference` has values, of the same sizes, in
    order (ties in `scores` broken by position): gamma then compares two scores that tie the
    same number of pairs."""
    sizes = [reference.count(v) for v in sorted(set(reference))]
    order = sorted(range(len(scores)), key=lambda i: scores[i])
    out, at = [0] * len(scores), 0
    for group, size in enumerate(sizes):
        for i in order[at:at + size]:
            out[i] = group
        at += size
    return out


def table_grade(t, steps, level):
    """The grade (0 easy .. 3 expert) a `[grades]` table {k1, k2, k3, level_floor} gives a
    puzzle with this step count and hardest level: the program's own rule (SPEC, "Grades",
    and the hardest-level floor of the configs)."""
    g = sum(steps >= t[k] for k in ("k1", "k2", "k3"))
    for i, f in enumerate(t["level_floor"]):
        if f and level >= f:
            g = max(g, i + 1)
    return g


def to_number(v, column):
    try:
        return float(v)
    except ValueError:
        table = QQWING if column.lower().startswith("qqwing") else ORDER
        return float(table[v.strip().lower()])


def main():
    signal.signal(signal.SIGPIPE, signal.SIG_DFL)  # quiet under `| head`
    if len(sys.argv) < 4 or sys.argv[1] in ("-h", "--help"):
        print(__doc__.strip())
        sys.exit(0 if sys.argv[1:2] in (["-h"], ["--help"]) else 2)
    labels_file, levels, *score_files = sys.argv[1:]
    rank = {name: i for i, name in enumerate(levels.split(","))}
    labels = [rank[line.strip()] for line in open(labels_file) if line.strip()]
    for path in score_files:
        rows = list(csv.DictReader(open(path)))
        if len(rows) != len(labels):
            sys.exit(f"{path}: {len(rows)} rows but {len(labels)} labels")
        for col in rows[0].keys():
            scores = [to_number(r[col], col) for r in rows]
            g = gamma(labels, scores)
            medians = []
            for name, lv in sorted(rank.items(), key=lambda kv: kv[1]):
                xs = [s for l, s in zip(labels, scores) if l == lv]
                if xs:
                    medians.append(f"{name}={statistics.median(xs):g}")
            print(f"  {col:<16} gamma={g:.3f}   median per level: {' '.join(medians)}")


if __name__ == "__main__":
    main()

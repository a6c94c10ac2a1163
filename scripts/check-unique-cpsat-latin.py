#!/usr/bin/env python3
"""Independent uniqueness check of Futoshiki and Skyscrapers puzzles with Google OR-Tools CP-SAT.

Shares no code with puzzle-factory: each puzzle becomes a CP-SAT model (one integer 1..n per
cell, all different per row and column, the givens fixed; Futoshiki: x[a] < x[b] per mark;
Skyscrapers: per clue, along its line from its edge, a Boolean per cell "taller than every cell
before it" and their sum equal to the clue), solved once, then again with a constraint that
excludes the first solution.

Usage: scripts/check-unique-cpsat-latin.py [FILE ...]   (no FILE: stdin)
Input: one puzzle per line: the JSON of SPEC.md, Futoshiki {"size": n, "givens": [[...]],
"less": [[[r1, c1], [r2, c2]], ...]} or Skyscrapers {"size": n, "top": [...], "bottom": [...],
"left": [...], "right": [...], "givens": [[...]]}, bare or as a book record (a puzzles.jsonl
line, whose solution is checked to be the unique one). Needs ortools (`pip install ortools`, in a venv if the system
Python refuses). Output: `line N: unique|none|multiple` per puzzle, then a summary; exit 0 only
when every puzzle is unique (and equals its record's solution).
"""
import json
import sys

try:
    from ortools.sat.python import cp_model
except ImportError:
    print("check-unique-cpsat-latin.py: needs ortools (pip install ortools)", file=sys.stderr)
    sys.exit(2)


def solve(p, exclude=None):
    n = p["size"]
    m = cp_model.CpModel()
    x = [[m.NewIntVar(1, n, f"x{r}_{c}") for c in range(n)] for r in range(n)]
    for i in range(n):
        m.AddAllDifferent(x[i])
        m.AddAllDifferent([x[r][i] for r in range(n)])
    for r, row in enumerate(p.get("givens") or []):
        for c, d in enumerate(row):
            if d:
                m.Add(x[r][c] == d)
    for (a, b) in p.get("less", []):
        m.Add(x[a[0]][a[1]] < x[b[0]][b[1]])
    # Skyscrapers: each clue's line from its edge, nearest first.
    edges = {
        "top": lambda k: [x[j][k] for j in range(n)],
        "bottom": lambda k: [x[n - 1 - j][k] for j in range(n)],
        "left": lambda k: [x[k][j] for j in range(n)],
        "right": lambda k: [x[k][n - 1 - j] for j in range(n)],
    }
    for edge, line_of in edges.items():
        for k, clue in enumerate(p.get(edge) or []):
            if not clue:
                continue
            line = line_of(k)
            seen = []
            top = line[0]
            for j in range(1, n):
                v = m.NewBoolVar("")
                m.Add(line[j] > top).OnlyEnforceIf(v)
                m.Add(line[j] < top).OnlyEnforceIf(v.Not())
                nxt = m.NewIntVar(1, n, "")
                m.AddMaxEquality(nxt, [top, line[j]])
                top = nxt
                seen.append(v)
            m.Add(1 + sum(seen) == clue)
    if exclude is not None:
        diff = []
        for r in range(n):
            for c in range(n):
                v = m.NewBoolVar("")
                m.Add(x[r][c] != exclude[r][c]).OnlyEnforceIf(v)
                m.Add(x[r][c] == exclude[r][c]).OnlyEnforceIf(v.Not())
                diff.append(v)
        m.AddBoolOr(diff)
    s = cp_model.CpSolver()
    s.parameters.num_workers = 1
    status = s.Solve(m)
    if status in (cp_model.OPTIMAL, cp_model.FEASIBLE):
        return [[s.Value(x[r][c]) for c in range(n)] for r in range(n)]
    if status == cp_model.INFEASIBLE:
        return None
    raise RuntimeError("undecided")


def main():
    files = sys.argv[1:] or ["-"]
    counts = {"unique": 0, "none": 0, "multiple": 0, "wrong": 0}
    for f in files:
        text = sys.stdin.read() if f == "-" else open(f).read()
        for i, line in enumerate(text.splitlines(), 1):
            if not line.strip() or line.startswith("#"):
                continue
            rec = json.loads(line)
            p = rec.get("puzzle", rec)
            if isinstance(p, str):
                p = json.loads(p)
            first = solve(p)
            if first is None:
                verdict = "none"
            elif solve(p, exclude=first) is not None:
                verdict = "multiple"
            elif "solution" in rec and rec["solution"] != first:
                verdict = "wrong"
            else:
                verdict = "unique"
            counts[verdict] += 1
            print(f"line {i}: {verdict}")
    print("checked {}: unique {unique}, none {none}, multiple {multiple}, wrong solution {wrong}".format(sum(counts.values()), **counts))
    sys.exit(0 if counts["unique"] == sum(counts.values()) else 1)


if __name__ == "__main__":
    main()

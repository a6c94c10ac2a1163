#!/usr/bin/env python3
"""Independent uniqueness check of Kakuro puzzles with Google OR-Tools CP-SAT.

Shares no code with puzzle-factory's solver: each board becomes a CP-SAT model (one integer
1..9 per white cell; per run, all different and the clue sum), solved once, then again with a
constraint that excludes the first solution.

Usage: scripts/check-unique-kakuro-cpsat.py [--workers N] [--time-limit S] [FILE ...]
       (no FILE, or '-': read stdin)

Input: puzzles.jsonl records ({"id", "puzzle": {"rows", "cols", "cells"}, "solution"}), or bare
puzzle objects. Cells: "#" a block, "." a white cell, "D\\R" a block with down sum D and right
sum R (either may be empty). Output: `line N: unique|none|multiple` per puzzle (`unique,
solution differs` when the record's solution is not the one found), then a summary line. Exit
status 0 only when every puzzle is unique and matches its solution.
"""
import argparse
import json
import sys

try:
    from ortools.sat.python import cp_model
except ImportError:
    sys.exit("needs ortools (pip install ortools)")


def runs_of(p):
    rows, cols, cells = p["rows"], p["cols"], p["cells"]
    white = [[c == "." for c in row] for row in cells]
    runs = []
    for r in range(rows):
        for c in range(cols):
            v = cells[r][c]
            if v in ("#", ".") or "\\" not in v:
                continue
            down, right = v.split("\\")
            for total, (dr, dc) in ((down, (1, 0)), (right, (0, 1))):
                if not total:
                    continue
                run, rr, cc = [], r + dr, c + dc
                while rr < rows and cc < cols and white[rr][cc]:
                    run.append((rr, cc))
                    rr, cc = rr + dr, cc + dc
                if not run:
                    raise ValueError(f"clue at [{r}, {c}] without a run")
                runs.append((int(total), run))
    return white, runs


def check(p, workers, limit):
    white, runs = runs_of(p)
    m = cp_model.CpModel()
    x = {(r, c): m.NewIntVar(1, 9, f"x{r}_{c}") for r, row in enumerate(white) for c, w in enumerate(row) if w}
    covered = set()
    for total, run in runs:
        m.AddAllDifferent([x[k] for k in run])
        m.Add(sum(x[k] for k in run) == total)
        covered.update(run)
    if covered != set(x):
        raise ValueError("a white cell lies in no run")
    s = cp_model.CpSolver()
    s.parameters.num_workers = workers
    s.parameters.max_time_in_seconds = limit
    st = s.Solve(m)
    if st == cp_model.INFEASIBLE:
        return "none", None
    if st not in (cp_model.OPTIMAL, cp_model.FEASIBLE):
        return "unknown", None
    first = {k: s.Value(v) for k, v in x.items()}
    diff = []
    for k, v in x.items():
        b = m.NewBoolVar("")
        m.Add(v != first[k]).OnlyEnforceIf(b)
        m.Add(v == first[k]).OnlyEnforceIf(b.Not())
        diff.append(b)
    m.AddBoolOr(diff)
    st = s.Solve(m)
    if st == cp_model.INFEASIBLE:
        return "unique", first
    if st in (cp_model.OPTIMAL, cp_model.FEASIBLE):
        return "multiple", first
    return "unknown", first


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--workers", type=int, default=1)
    ap.add_argument("--time-limit", type=float, default=120.0)
    ap.add_argument("files", nargs="*")
    a = ap.parse_args()
    counts = {}
    ok = True
    for name in a.files or ["-"]:
        f = sys.stdin if name == "-" else open(name)
        for n, line in enumerate(f, 1):
            line = line.strip()
            if not line or line.startswith("#"):
                continue
            rec = json.loads(line)
            p = rec.get("puzzle", rec)
            if isinstance(p, str):
                p = json.loads(p)
            verdict, first = check(p, a.workers, a.time_limit)
            sol = rec.get("solution")
            if verdict == "unique" and sol is not None:
                if isinstance(sol, str):
                    sol = json.loads(sol)
                if any(sol[r][c] != v for (r, c), v in first.items()):
                    verdict = "unique, solution differs"
            counts[verdict] = counts.get(verdict, 0) + 1
            ok &= verdict == "unique"
            label = f" (id {rec['id']})" if "id" in rec else ""
            print(f"{name}: line {n}: {verdict}{label}")
    print("checked", sum(counts.values()), counts)
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()

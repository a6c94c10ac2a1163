#!/usr/bin/env python3
"""Independent uniqueness check of Sudoku-family puzzles with Google OR-Tools CP-SAT.

Shares no code with puzzle-factory's solver: each puzzle is turned into a CP-SAT model, solved
once, then solved again with a constraint that excludes the first solution.

Usage:
  scripts/check-unique-cpsat.py [--workers N] [--time-limit S] [--model int|bool] [--times]
                                [FILE ...]          (no FILE, or '-': read stdin)

Needs ortools (`pip install ortools`; on a system Python that refuses:
`python3 -m venv scripts/.venv && scripts/.venv/bin/pip install ortools`, then run the
script with scripts/.venv/bin/python).

Input: one puzzle per line; blank lines and lines starting with '#' are skipped.
  * a JSON puzzle object:
      {"size": 9, "box": [3, 3], "regions": [[0,0,0,1,1,1,2,2,2], ...], "diagonals": false,
       "givens": [[5,3,0,0,7,0,0,0,0], ...], "cages": [{"sum": 15, "cells": [[0,0],[0,1]]}]}
    size n in 4..25; box [R, C] (R rows tall, C wide, R*C = n) or null for jigsaw; regions
    n x n region ids (required for jigsaw; without it the boxes are R x C); diagonals (default
    false): both long diagonals hold every digit; givens n x n, 0 = blank (may be absent:
    all blank); cages (optional, killer): cells all different and summing to `sum`.
  * a book record (a puzzles.jsonl line): {"id": ..., "puzzle": <object or string>,
    "solution": <array of rows, or a string>}. A string puzzle/solution may itself be JSON.
  * a text grid: n*n characters, '1'-'9' then 'A'-'Z' for 10..35, '.' or '0' blank; the box
    is the most square R x C with R <= C (so n must not be prime). The classic 81-character
    Sudoku line is the case n = 9. Anything after the first ',' or blank is ignored, so
    "grid,label" reference files can be fed directly.

Output: `line N: unique|none|multiple` per puzzle (with `(id X)` when the record has an id;
with several files each line starts with the file name), `unique, solution differs` when the
record's solution is not CP-SAT's unique one, `unknown (time limit)` and `error: ...` for
puzzles that could not be decided or read. Then
  checked K: unique U, none X, multiple M, wrong solution W[, unknown T][, errors E]
Exit status 0 only when every puzzle is unique (and equals its solution when one is given);
1 otherwise; 2 for bad options or missing ortools.

--model: `int` (default) has one integer 1..n per cell with AddAllDifferent per house; `bool`
has one Boolean per cell and digit, exactly-one per cell and per house and digit. Cages are
all-different plus a linear sum in both. The two measured within noise of each other on hard
16x16 and 25x25 grids; int was slightly ahead on unique 25x25 ones (scripts/README.md).
"""

import argparse
import json
import math
import sys
import time

try:
    from ortools.sat.python import cp_model
except ImportError:
    sys.stderr.write(
        "check-unique-cpsat.py needs Google OR-Tools (CP-SAT), which is not installed for\n"
        f"{sys.executable}.\nInstall it with:\n"
        "    pip install ortools\n"
        "or, where pip refuses to touch the system Python:\n"
        "    python3 -m venv scripts/.venv && scripts/.venv/bin/pip install ortools\n"
        "    scripts/.venv/bin/python scripts/check-unique-cpsat.py ...\n"
        "(or `pip install --break-system-packages ortools`).\n")
    sys.exit(2)

SYMBOLS = "123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ"


class BadPuzzle(Exception):
    pass


# ---------------------------------------------------------------- reading

def box_for(n):
    """The most square R x C box with R <= C and R * C = n (R > 1)."""
    r = int(math.isqrt(n))
    while r > 1 and n % r:
        r -= 1
    if r <= 1:
        raise BadPuzzle(f"no box shape for size {n} (prime); use the JSON form with regions")
    return r, n // r


def text_cells(text, what="grid"):
    """Cell values of an n*n-character grid: (n, flat list)."""
    text = text.strip()
    n = math.isqrt(len(text))
    if n * n != len(text) or not 4 <= n <= 25:
        raise BadPuzzle(f"{what} of {len(text)} characters is not n*n with n in 4..25")
    vals = []
    for ch in text:
        if ch in ".0":
            vals.append(0)
            continue
        v = SYMBOLS.find(ch.upper()) + 1
        if v == 0 or v > n:
            raise BadPuzzle(f"bad character {ch!r} in {what} of size {n}")
        vals.append(v)
    return n, vals


def as_grid(value, n, what, allow_blank):
    """An n x n grid from rows of numbers, rows of characters, a flat list or a string."""
    if isinstance(value, str):
        s = value.strip()
        if s.startswith("["):
            return as_grid(json.loads(s), n, what, allow_blank)
        m, flat = text_cells(s, what)
        if m != n:
            raise BadPuzzle(f"{what} is {m}x{m}, puzzle is {n}x{n}")
    elif isinstance(value, list) and len(value) == n * n and all(isinstance(v, int) for v in value):
        flat = list(value)
    elif isinstance(value, list) and len(value) == n:
        flat = []
        for row in value:
            if isinstance(row, str):
                if len(row) != n:
                    raise BadPuzzle(f"{what}: a row has {len(row)} characters, not {n}")
                flat.extend(text_cells_row(row, n, what))
            elif isinstance(row, list) and len(row) == n:
                flat.extend(row)
            else:
                raise BadPuzzle(f"{what}: every row must have {n} entries")
    else:
        raise BadPuzzle(f"{what} must be {n} rows of {n}")
    lo = 0 if allow_blank else 1
    for v in flat:
        if isinstance(v, bool) or not isinstance(v, int) or not lo <= v <= n:
            raise BadPuzzle(f"{what}: value {v!r} out of {lo}..{n}")
    return [flat[r * n:(r + 1) * n] for r in range(n)]


def text_cells_row(row, n, what):
    out = []
    for ch in row:
        if ch in ".0":
            out.append(0)
        else:
            v = SYMBOLS.find(ch.upper()) + 1
            if v == 0 or v > n:
                raise BadPuzzle(f"bad character {ch!r} in {what}")
            out.append(v)
    return out


class Puzzle:
    def __init__(self, n, regions, diagonals, givens, cages):
        self.n, self.regions, self.diagonals = n, regions, diagonals
        self.givens, self.cages = givens, cages

    def houses(self):
        n = self.n
        hs = [[(r, c) for c in range(n)] for r in range(n)]
        hs += [[(r, c) for r in range(n)] for c in range(n)]
        groups = {}
        for r in range(n):
            for c in range(n):
                groups.setdefault(self.regions[r][c], []).append((r, c))
        hs += list(groups.values())
        if self.diagonals:
            hs.append([(i, i) for i in range(n)])
            hs.append([(i, n - 1 - i) for i in range(n)])
        return hs


def box_regions(n, box):
    br, bc = box
    return [[(r // br) * (n // bc) + c // bc for c in range(n)] for r in range(n)]


def same_partition(a, b):
    fwd, back = {}, {}
    for ra, rb in zip(a, b):
        for x, y in zip(ra, rb):
            if fwd.setdefault(x, y) != y or back.setdefault(y, x) != x:
                return False
    return True


def puzzle_from_object(o):
    n = o.get("size")
    if isinstance(n, bool) or not isinstance(n, int) or not 4 <= n <= 25:
        raise BadPuzzle(f"size must be an integer 4..25, got {n!r}")
    box = o.get("box")
    if box is not None:
        if (not isinstance(box, list) or len(box) != 2
                or not all(isinstance(v, int) and v >= 1 for v in box) or box[0] * box[1] != n):
            raise BadPuzzle(f"box must be [R, C] with R*C = {n}, got {box!r}")
    regions = o.get("regions")
    if regions is None:
        if box is None:
            raise BadPuzzle("jigsaw (box null) needs regions")
        regions = box_regions(n, box)
    else:
        if not (isinstance(regions, list) and len(regions) == n
                and all(isinstance(r, list) and len(r) == n for r in regions)):
            raise BadPuzzle(f"regions must be {n} rows of {n} ids")
        count = {}
        for row in regions:
            for v in row:
                if not isinstance(v, (int, str)) or isinstance(v, bool):
                    raise BadPuzzle(f"region id {v!r} is not an integer")
                count[v] = count.get(v, 0) + 1
        if len(count) != n or any(k != n for k in count.values()):
            raise BadPuzzle(f"regions must be {n} ids of {n} cells each")
        if box is not None and not same_partition(regions, box_regions(n, box)):
            raise BadPuzzle(f"regions are not the {box[0]}x{box[1]} boxes given by box")
    diagonals = o.get("diagonals", False)
    if diagonals is None:
        diagonals = False
    if not isinstance(diagonals, bool):
        raise BadPuzzle("diagonals must be true or false")
    givens = o.get("givens")
    givens = [[0] * n for _ in range(n)] if givens is None else as_grid(givens, n, "givens", True)
    cages = []
    seen = {}
    for k, cage in enumerate(o.get("cages") or []):
        s, cells = cage.get("sum"), cage.get("cells")
        if isinstance(s, bool) or not isinstance(s, int) or not isinstance(cells, list) or not cells:
            raise BadPuzzle(f"cage {k} needs an integer sum and a list of cells")
        cc = []
        for cell in cells:
            if (not isinstance(cell, list) or len(cell) != 2
                    or not all(isinstance(v, int) and 0 <= v < n for v in cell)):
                raise BadPuzzle(f"cage {k}: bad cell {cell!r}")
            if tuple(cell) in seen:
                raise BadPuzzle(f"cell {cell} is in cages {seen[tuple(cell)]} and {k}")
            seen[tuple(cell)] = k
            cc.append(tuple(cell))
        cages.append((s, cc))
    return Puzzle(n, regions, diagonals, givens, cages)


def puzzle_from_text(text):
    n, vals = text_cells(text)
    givens = [vals[r * n:(r + 1) * n] for r in range(n)]
    return Puzzle(n, box_regions(n, box_for(n)), False, givens, [])


def read_line(line):
    """(puzzle, id or None, solution grid or None) of one input line."""
    s = line.strip()
    if not s.startswith("{"):
        return puzzle_from_text(s.replace("\t", ",").split(",")[0].split()[0]), None, None
    try:
        obj = json.loads(s)
    except json.JSONDecodeError as e:
        raise BadPuzzle(f"not JSON: {e}")
    if not isinstance(obj, dict):
        raise BadPuzzle("JSON line is not an object")
    pid = obj.get("id")
    if "puzzle" in obj:
        p = obj["puzzle"]
        if isinstance(p, str) and p.strip().startswith("{"):
            p = json.loads(p)
        if isinstance(p, dict):
            puzzle = puzzle_from_object(p)
        elif isinstance(p, str):
            puzzle = puzzle_from_text(p)
        else:
            raise BadPuzzle("\"puzzle\" must be an object or a string")
    else:
        puzzle = puzzle_from_object(obj)
    sol = obj.get("solution") if "puzzle" in obj else None
    if sol is not None:
        sol = as_grid(sol, puzzle.n, "solution", False)
    return puzzle, pid, sol


# ---------------------------------------------------------------- solving

class Model:
    """A CP-SAT model of one puzzle; `exclude` forbids a solution found before."""

    def __init__(self, p, kind):
        self.p, self.kind = p, kind
        n = p.n
        m = self.m = cp_model.CpModel()
        cells = [(r, c) for r in range(n) for c in range(n)]
        if kind == "int":
            self.x = {}
            for r, c in cells:
                g = p.givens[r][c]
                self.x[r, c] = m.NewIntVar(g or 1, g or n, f"x{r}_{c}")
            for h in p.houses():
                m.AddAllDifferent([self.x[rc] for rc in h])
            for s, cc in p.cages:
                m.AddAllDifferent([self.x[rc] for rc in cc])
                m.Add(sum(self.x[rc] for rc in cc) == s)
        else:
            self.b = {}
            for r, c in cells:
                g = p.givens[r][c]
                lits = []
                for d in range(1, n + 1):
                    v = m.NewBoolVar(f"b{r}_{c}_{d}")
                    self.b[r, c, d] = v
                    lits.append(v)
                    if g and d != g:
                        m.Add(v == 0)
                m.AddExactlyOne(lits)
            for h in p.houses():
                for d in range(1, n + 1):
                    m.AddExactlyOne([self.b[r, c, d] for r, c in h])
            for s, cc in p.cages:
                for d in range(1, n + 1):
                    m.AddAtMostOne([self.b[r, c, d] for r, c in cc])
                m.Add(sum(d * self.b[r, c, d] for r, c in cc for d in range(1, n + 1)) == s)

    def grid(self, solver):
        n = self.p.n
        if self.kind == "int":
            return [[solver.Value(self.x[r, c]) for c in range(n)] for r in range(n)]
        return [[next(d for d in range(1, n + 1) if solver.BooleanValue(self.b[r, c, d]))
                 for c in range(n)] for r in range(n)]

    def exclude(self, g):
        n, p, m = self.p.n, self.p, self.m
        blank = [(r, c) for r in range(n) for c in range(n) if not p.givens[r][c]]
        if not blank:
            m.AddBoolOr([])  # nothing left to change: no second solution
            return
        if self.kind == "int":
            diffs = []
            for r, c in blank:
                lit = m.NewBoolVar(f"d{r}_{c}")
                m.Add(self.x[r, c] != g[r][c]).OnlyEnforceIf(lit)
                diffs.append(lit)
            m.AddBoolOr(diffs)
        else:
            m.AddBoolOr([self.b[r, c, g[r][c]].Not() for r, c in blank])


def solve(model, workers, deadline):
    solver = cp_model.CpSolver()
    solver.parameters.num_workers = workers
    if deadline is not None:
        left = deadline - time.monotonic()
        if left <= 0:
            return None, None
        solver.parameters.max_time_in_seconds = left
    st = solver.Solve(model.m)
    if st in (cp_model.OPTIMAL, cp_model.FEASIBLE):
        return True, model.grid(solver)
    if st == cp_model.INFEASIBLE:
        return False, None
    if st == cp_model.MODEL_INVALID:
        raise BadPuzzle("CP-SAT says the model is invalid: " + model.m.Validate())
    return None, None  # UNKNOWN: time limit


def check(p, kind, workers, limit):
    """'unique' with the grid, 'none', 'multiple' or 'unknown'."""
    deadline = None if limit is None else time.monotonic() + limit
    model = Model(p, kind)
    found, g = solve(model, workers, deadline)
    if found is None:
        return "unknown", None
    if not found:
        return "none", None
    model.exclude(g)
    found2, _ = solve(model, workers, deadline)
    if found2 is None:
        return "unknown", g
    return ("multiple" if found2 else "unique"), g


# ---------------------------------------------------------------- main

def inputs(files):
    if not files:
        files = ["-"]
    for f in files:
        name = "<stdin>" if f == "-" else f
        fh = sys.stdin if f == "-" else open(f, encoding="utf-8")
        try:
            for i, line in enumerate(fh, 1):
                if line.strip() and not line.lstrip().startswith("#"):
                    yield name, i, line
        finally:
            if fh is not sys.stdin:
                fh.close()


def main():
    ap = argparse.ArgumentParser(
        description="Check with OR-Tools CP-SAT that Sudoku-family puzzles have exactly one "
                    "solution (see the comment at the top of this file for the input forms).")
    ap.add_argument("files", nargs="*", help="input files (default: stdin; '-' is stdin)")
    ap.add_argument("--workers", type=int, default=1, help="CP-SAT search threads (default 1)")
    ap.add_argument("--time-limit", type=float, default=None, metavar="S",
                    help="seconds per puzzle, both solves together (default: none)")
    ap.add_argument("--model", choices=["int", "bool"], default="int",
                    help="an integer per cell (default) or Booleans per cell and digit")
    ap.add_argument("--times", action="store_true", help="print each puzzle's seconds")
    a = ap.parse_args()
    if a.workers < 1:
        ap.error("--workers must be at least 1")
    if a.time_limit is not None and a.time_limit <= 0:
        ap.error("--time-limit must be positive")

    prefix_files = len(a.files) > 1
    counts = dict(unique=0, none=0, multiple=0, wrong=0, unknown=0, errors=0)
    total = 0
    times = []
    for name, lineno, line in inputs(a.files):
        total += 1
        where = (f"{name}: " if prefix_files else "") + f"line {lineno}"
        pid = None
        t0 = time.monotonic()
        try:
            p, pid, sol = read_line(line)
            status, g = check(p, a.model, a.workers, a.time_limit)
            if status == "unique" and sol is not None and g != sol:
                diff = next((r, c) for r in range(p.n) for c in range(p.n) if g[r][c] != sol[r][c])
                counts["wrong"] += 1
                text = (f"unique, solution differs (first at row {diff[0]} col {diff[1]}: "
                        f"CP-SAT {g[diff[0]][diff[1]]}, record {sol[diff[0]][diff[1]]})")
            elif status == "unknown":
                counts["unknown"] += 1
                text = "unknown (time limit)"
            else:
                counts[status] += 1
                text = status
        except (BadPuzzle, json.JSONDecodeError) as e:
            counts["errors"] += 1
            text = f"error: {e}"
        dt = time.monotonic() - t0
        times.append((dt, where))
        out = f"{where}: {text}"
        if pid is not None:
            out += f" (id {pid})"
        if a.times:
            out += f" [{dt:.3f} s]"
        print(out, flush=True)

    summary = (f"checked {total}: unique {counts['unique']}, none {counts['none']}, "
               f"multiple {counts['multiple']}, wrong solution {counts['wrong']}")
    if counts["unknown"]:
        summary += f", unknown {counts['unknown']}"
    if counts["errors"]:
        summary += f", errors {counts['errors']}"
    print(summary)
    if times and a.times:
        worst = max(times)
        print(f"seconds: total {sum(t for t, _ in times):.2f}, mean {sum(t for t, _ in times) / len(times):.3f}, "
              f"max {worst[0]:.3f} ({worst[1]})")
    if total == 0:
        print("no puzzles read", file=sys.stderr)
    return 0 if total > 0 and counts["unique"] == total else 1


if __name__ == "__main__":
    sys.exit(main())

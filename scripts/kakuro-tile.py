#!/usr/bin/env python3
"""Build a large, easy, uniquely solvable Kakuro by tiling small generated ones.

    scripts/kakuro-tile.py TILES.csv N OUT_PREFIX [--max-level L] [--grade G]

TILES.csv is a Kakuro book's puzzles.csv (all puzzles of one size T×T, T dividing N). The
tiles kept are those with hardest_level <= L (default 3) and, when --grade is given, that grade;
they are laid side by side, in book order and repeated, on an N×N board. Each tile's clue
border (its row 0 and column 0) ends the runs of its left and upper neighbours, so the board's
one solution is the tiles' solutions together, and the board needs no technique harder than its
hardest tile (every technique of levels 1-3 looks at one run or one cell and its two runs).

Writes OUT_PREFIX.json (one line, the JSON form `rate` reads) and OUT_PREFIX.dzn (MiniZinc
data, the `.dzn` form `solve`/`rate` read whole), and prints the tile count and sizes.
"""
import argparse
import csv
import json
import sys


def read_tiles(path, max_level, grade):
    csv.field_size_limit(1 << 30)
    tiles = []
    with open(path, newline="") as f:
        for rec in csv.DictReader(f):
            if int(rec["hardest_level"]) > max_level or (grade and rec["grade"] != grade):
                continue
            tiles.append(json.loads(rec["puzzle"]))
    if not tiles:
        sys.exit(f"{path}: no tile with hardest_level <= {max_level}" + (f" and grade {grade}" if grade else ""))
    sizes = {(t["rows"], t["cols"]) for t in tiles}
    if len(sizes) != 1 or len({s for s in next(iter(sizes))}) != 1:
        sys.exit(f"{path}: tiles must all be square and of one size, got {sorted(sizes)}")
    return tiles, tiles[0]["rows"]


def board(tiles, t, n):
    cells = [["#"] * n for _ in range(n)]
    k = 0
    for r0 in range(0, n, t):
        for c0 in range(0, n, t):
            tile = tiles[k % len(tiles)]["cells"]
            k += 1
            for r in range(t):
                cells[r0 + r][c0 : c0 + t] = tile[r]
    return cells, k


def clue_parts(cell):
    """(down, right) sums of a block cell's text, "D\\R" with either side possibly empty."""
    if cell in ("#", "."):
        return 0, 0
    down, _, right = cell.partition("\\")
    return int(down or 0), int(right or 0)


def dzn(cells):
    n, m = len(cells), len(cells[0])
    grid = ",\n".join(", ".join("1" if c == "." else "0" for c in row) for row in cells)
    h, v = [], []
    for r in range(n):
        for c in range(m):
            down, right = clue_parts(cells[r][c])
            if right:
                ln = next((k for k in range(c + 1, m + 1) if k == m or cells[r][k] != "."), m) - c - 1
                h.append(f"({r + 1}, {c + 1}, {ln}, {right})")
            if down:
                ln = next((k for k in range(r + 1, n + 1) if k == n or cells[k][c] != "."), n) - r - 1
                v.append(f"({r + 1}, {c + 1}, {ln}, {down})")
    rows = grid.replace(",\n", "|\n")
    return (
        f"h = {n};\nw = {m};\ngrid_data = [|\n{rows}\n|];\n"
        f"h_clue = [\n{', '.join(h)}\n];\nv_clue = [\n{', '.join(v)}\n];\n"
    )


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("tiles")
    ap.add_argument("n", type=int)
    ap.add_argument("out")
    ap.add_argument("--max-level", type=int, default=3)
    ap.add_argument("--grade")
    a = ap.parse_args()
    tiles, t = read_tiles(a.tiles, a.max_level, a.grade)
    if a.n % t:
        sys.exit(f"N = {a.n} is not a multiple of the tile size {t}")
    cells, placed = board(tiles, t, a.n)
    line = json.dumps({"rows": a.n, "cols": a.n, "cells": cells}, separators=(",", ":"))
    with open(a.out + ".json", "w") as f:
        f.write(line + "\n")
    with open(a.out + ".dzn", "w") as f:
        f.write(dzn(cells))
    whites = sum(row.count(".") for row in cells)
    print(f"{a.n}x{a.n}: {placed} tiles of {t}x{t} ({len(tiles)} distinct), {whites} white cells, "
          f"JSON line {len(line) + 1} bytes")


if __name__ == "__main__":
    main()

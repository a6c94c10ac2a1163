#!/usr/bin/env python3
"""Our grades and the `pencilmark` rater beside Tatham's Solo levels and KrazyDad's levels.

Run by scripts/compare-pencilmark.sh (see its --help), under a Python that can import
pencilmark. Also a small tool on its own:
  pencilmark_compare.py convert < ids.txt    Solo game IDs (or KrazyDad JSONL records) -> pencilmark JSON lines
  pencilmark_compare.py run ARGS...          the whole comparison (the arguments the wrapper passes)

Solo game IDs (`PARAMS:DESC`), decoded from the format Solo's own reader accepts (solo.c,
decode_params / validate_desc / new_game; written here from the format, not from its code):
  PARAMS  `CxR` (a block is C rows tall and R columns wide: cell (y, x) is in block
          (y div C, x div R)), or `Nj` (jigsaw of N; `CxRj` is a jigsaw of C*R), then optional
          `x` (both main diagonals hold every digit) and `k` (killer); anything after (symmetry
          `r2`, `m4`, `a`, difficulty `dX`) does not change the puzzle.
  DESC    comma-separated: the grid, then the jigsaw blocks (jigsaw only), then the killer cages
          and the killer clue grid (killer only).
  grid    row-major over N*N cells: a letter `a`..`z` is a run of 1..26 empty cells, a decimal
          number is a given (or a cage sum), `_` separates two adjacent numbers.
  blocks  the N*(N-1) inner vertical cell edges in reading order (edge i lies between cells
          (i div (N-1), i mod (N-1)) and the cell to its right), then the N*(N-1) inner
          horizontal edges column by column (edge N*(N-1)+i lies between (i mod (N-1), i div (N-1))
          and the cell below it), then one virtual edge. `_` is a wall; a letter `a`..`y` is 1..25
          open edges (cells joined) followed by a wall; `z` is 26 open edges with no wall after it.
          The blocks (or cages) are the joined cells' classes.
  clues   a grid like the first; each cage's one nonzero entry is its sum.
"""
import argparse
import bisect
import csv
import io
import json
import os
import random
import resource
import statistics
import subprocess
import sys
import time

SYMBOLS = "123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ"
LEVELS = "t,b,i,a,e,u"


# ---------------------------------------------------------------- Solo game IDs

def parse_params(s):
    """`3x3`, `2x3k`, `9j`, `3x3x`, `9jk` ... -> (c, r, xtype, killer); r == 1 is a jigsaw."""
    i = 0
    while i < len(s) and s[i].isdigit():
        i += 1
    c = r = int(s[:i])
    seen_r = False
    if i < len(s) and s[i] == "x":
        j = i + 1
        while j < len(s) and s[j].isdigit():
            j += 1
        if j > i + 1:                     # `x` followed by digits: the block's second side
            r, i, seen_r = int(s[i + 1:j]), j, True
    xtype = killer = False
    while i < len(s):
        ch = s[i]
        i += 1
        if ch == "j":
            if seen_r:
                c *= r
            r = 1
        elif ch == "x":
            xtype = True
        elif ch == "k":
            killer = True
        elif ch == "d" and i < len(s):    # difficulty letter: skip it
            i += 1
        # symmetry (r2, m4, md2, a) and anything unknown: ignored, as Solo does
    return c, r, xtype, killer


def parse_grid(desc, pos, area, name):
    """the run-length grid starting at desc[pos] -> (values, next position)."""
    out = []
    while pos < len(desc) and desc[pos] != ",":
        ch = desc[pos]
        if "a" <= ch <= "z":
            out += [0] * (ord(ch) - ord("a") + 1)
            pos += 1
        elif ch == "_":
            pos += 1
        elif ch.isdigit():
            j = pos
            while j < len(desc) and desc[j].isdigit():
                j += 1
            out.append(int(desc[pos:j]))
            pos = j
        else:
            raise ValueError(f"{name}: bad character {ch!r}")
    if len(out) != area:
        raise ValueError(f"{name}: {len(out)} cells, expected {area}")
    return out, pos


def parse_edges(desc, pos, n, name):
    """the edge list starting at desc[pos] -> (class id per cell, next position)."""
    area = n * n
    parent = list(range(area))

    def find(a):
        while parent[a] != a:
            parent[a] = parent[parent[a]]
            a = parent[a]
        return a

    inner = n * (n - 1)
    edge = 0
    while pos < len(desc) and desc[pos] != ",":
        ch = desc[pos]
        pos += 1
        if ch == "_":
            k = 0
        elif "a" <= ch <= "z":
            k = ord(ch) - ord("a") + 1
        else:
            raise ValueError(f"{name}: bad character {ch!r}")
        for _ in range(k):
            if edge >= 2 * inner:
                raise ValueError(f"{name}: too many edges")
            if edge < inner:
                y, x = divmod(edge, n - 1)
                a, b = y * n + x, y * n + x + 1
            else:
                x, y = divmod(edge - inner, n - 1)
                a, b = y * n + x, (y + 1) * n + x
            parent[find(a)] = find(b)
            edge += 1
        if k != 26:
            edge += 1                      # the wall after the run
    if edge != 2 * inner + 1:
        raise ValueError(f"{name}: {edge} edges, expected {2 * inner + 1}")
    roots = {}
    return [roots.setdefault(find(i), len(roots)) for i in range(area)], pos


def parse_solo(game_id):
    """a Solo game ID -> dict(n, c, r, xtype, killer, givens, blocks, cages). blocks: a block id per
    cell (None for the plain C x R boxes); cages: [(cells, sum)] in order of first cell."""
    params, sep, desc = game_id.strip().partition(":")
    if not sep:
        raise ValueError(f"not a Solo game ID: {game_id!r}")
    c, r, xtype, killer = parse_params(params)
    n = c * r
    area = n * n
    givens, pos = parse_grid(desc, 0, area, "grid")
    if any(v > n for v in givens):
        raise ValueError("given out of range")
    blocks = cages = None
    if r == 1:
        if pos >= len(desc) or desc[pos] != ",":
            raise ValueError("jigsaw blocks missing")
        blocks, pos = parse_edges(desc, pos + 1, n, "jigsaw blocks")
        if sorted(blocks.count(b) for b in set(blocks)) != [n] * n:
            raise ValueError("jigsaw blocks are not N blocks of N cells")
    if killer:
        if pos >= len(desc) or desc[pos] != ",":
            raise ValueError("killer cages missing")
        cage_of, pos = parse_edges(desc, pos + 1, n, "killer cages")
        if pos >= len(desc) or desc[pos] != ",":
            raise ValueError("killer clues missing")
        clues, pos = parse_grid(desc, pos + 1, area, "killer clues")
        cages = []
        for k in range(max(cage_of) + 1):
            cells = [i for i in range(area) if cage_of[i] == k]
            sums = [clues[i] for i in cells if clues[i]]
            if len(sums) != 1 or not 2 <= len(cells) <= n:
                raise ValueError(f"cage {k}: {len(cells)} cells, clues {sums}")
            cages.append((cells, sums[0]))
    if pos != len(desc):
        raise ValueError(f"unexpected data at the end: {desc[pos:]!r}")
    return dict(n=n, c=c, r=r, xtype=xtype, killer=killer, givens=givens, blocks=blocks, cages=cages)


def cell(n, i):
    return f"r{i // n + 1}c{i % n + 1}"


def pm_json(n, givens, box=None, blocks=None, diagonals=False, cages=()):
    """pencilmark's puzzle JSON (pencilmark/puzzle_json.py). box "HxW" (block H rows tall) implies
    rows, columns and boxes; without it (irregular blocks) rows, columns and blocks are listed."""
    obj = {"digits": n, "numbers": "".join(SYMBOLS[v - 1] if v else "." for v in givens)}
    regions = []
    if box:
        obj["box"] = box
    else:
        regions += [{"kind": "row", "cells": [cell(n, y * n + x) for x in range(n)]} for y in range(n)]
        regions += [{"kind": "col", "cells": [cell(n, y * n + x) for y in range(n)]} for x in range(n)]
        for b in sorted(set(blocks)):
            regions.append({"kind": "region", "cells": [cell(n, i) for i in range(n * n) if blocks[i] == b]})
    if diagonals:
        regions.append({"kind": "diag", "cells": [cell(n, k * n + k) for k in range(n)]})
        regions.append({"kind": "diag", "cells": [cell(n, k * n + n - 1 - k) for k in range(n)]})
    for cells, total in cages:
        regions.append({"kind": "cage", "cells": [cell(n, i) for i in cells], "sum": total, "unique": True})
    if regions:
        obj["regions"] = regions
    return obj


def solo_to_pm(game_id):
    p = parse_solo(game_id)
    return pm_json(p["n"], p["givens"], box=None if p["blocks"] else f"{p['c']}x{p['r']}",
                   blocks=p["blocks"], diagonals=p["xtype"], cages=p["cages"] or ())


def krazydad_to_pm(rec):
    """a KrazyDad record's `puzzle` (size, box [h, w], regions grid, givens rows, cages with [r, c]
    cells, diagonals) -> pencilmark JSON. The blocks come from its regions grid."""
    p = rec["puzzle"]
    n = p["size"]
    givens = [v for row in p["givens"] for v in row]
    blocks = [v for row in p["regions"] for v in row]
    h, w = p["box"]
    plain = all(blocks[y * n + x] == (y // h) * (n // w) + x // w for y in range(n) for x in range(n))
    cages = [([y * n + x for y, x in cg["cells"]], cg["sum"]) for cg in p.get("cages") or []]
    return pm_json(n, givens, box=f"{h}x{w}" if plain else None, blocks=None if plain else blocks,
                   diagonals=bool(p.get("diagonals")), cages=cages)


# ---------------------------------------------------------------- rating

def gamma_of(labels, scores):
    """gamma.py's gamma over the pairs whose score is present."""
    from gamma import gamma
    pairs = [(l, s) for l, s in zip(labels, scores) if s is not None]
    return gamma([l for l, _ in pairs], [s for _, s in pairs]) if pairs else float("nan")


def our_solve(binary, lines):
    """our binary's unique solutions (flat lists), one process for all lines."""
    r = subprocess.run([binary, "--quiet", "--kind", "sudoku", "solve", "-"], input="".join(l + "\n" for l in lines),
                       capture_output=True, text=True)
    rows = list(csv.DictReader(io.StringIO(r.stdout)))
    if r.returncode != 0 or len(rows) != len(lines):
        sys.exit(f"our solve failed ({len(rows)} of {len(lines)} rows): {r.stderr.strip()[:500]}")
    return [[v for row in json.loads(x["solution"]) for v in row] if x["solutions"] == "1" else None for x in rows]


# Passes over the set in our one `rate` process: pencilmark's times are taken inside Python,
# without the interpreter's start and import, so ours spreads the process start (about 2 ms) over
# this many passes; the CPU time is per pass.
OUR_PASSES = int(os.environ.get("OUR_PASSES", "10"))


def our_rate(binary, lines):
    """our binary's ratings of all lines in ONE process (--threads 1), the set OUR_PASSES times:
    (rows of the first pass, CPU seconds of the child per pass)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    r = subprocess.run([binary, "--quiet", "--threads", "1", "--kind", "sudoku", "rate", "-"],
                       input="".join(l + "\n" for l in lines) * OUR_PASSES, capture_output=True, text=True)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    rows = list(csv.DictReader(io.StringIO(r.stdout)))
    if r.returncode != 0 or len(rows) != len(lines) * OUR_PASSES:
        sys.exit(f"our rate failed ({len(rows)} of {len(lines) * OUR_PASSES} rows): {r.stderr.strip()[:500]}")
    return rows[:len(lines)], cpu / OUR_PASSES


def our_rate_each(binary, lines):
    """wall milliseconds per puzzle, each rated in a process of its own (includes the process start)."""
    ms = []
    for l in lines:
        t0 = time.perf_counter()
        r = subprocess.run([binary, "--quiet", "--threads", "1", "--kind", "sudoku", "rate", "-"],
                           input=l + "\n", capture_output=True, text=True)
        ms.append(1000 * (time.perf_counter() - t0))
        if r.returncode != 0:
            sys.exit(f"our rate failed on {l[:80]}: {r.stderr.strip()[:300]}")
    return ms


def pm_rate(objs, keys, cap, cache_file):
    """pencilmark.rate of each puzzle in this process, one at a time: dicts with band_index,
    difficulty, cpu and wall seconds, status (ok / cap / unknown / error: ...). Results are cached in
    cache_file (JSON lines keyed by puzzle) so an interrupted run resumes."""
    import pencilmark
    cache = {}
    if os.path.exists(cache_file):
        for line in open(cache_file):
            rec = json.loads(line)
            if rec.get("cap") == cap:
                cache[rec["key"]] = rec
    out = []
    with open(cache_file, "a") as f:
        for i, (obj, key) in enumerate(zip(objs, keys)):
            if key in cache:
                out.append(cache[key])
                continue
            rec = {"key": key, "cap": cap, "band_index": None, "difficulty": None}
            w0, c0 = time.perf_counter(), time.process_time()
            try:
                card = pencilmark.rate(obj, max_seconds=cap, fields=["difficulty", "band_index", "contains"])
                if card.get("contains_truncated"):
                    rec["status"] = "cap"       # the time cap hit: recorded as missing
                elif card.get("band_index") is None:
                    rec["status"] = "unknown"   # human logic ran out (band Unknown)
                else:
                    rec.update(status="ok", band_index=card["band_index"], difficulty=card["difficulty"])
            except Exception as e:          # refused: not unique, unsupported, ...
                rec["status"] = f"error: {type(e).__name__}: {e}"[:200]
            rec["cpu"], rec["wall"] = time.process_time() - c0, time.perf_counter() - w0
            f.write(json.dumps(rec) + "\n")
            f.flush()
            out.append(rec)
            if (i + 1) % 10 == 0:
                print(f"     pencilmark {i + 1}/{len(objs)}", file=sys.stderr, flush=True)
    return out


def validate(name, objs, ours, reference=None):
    """pencilmark's solution of every converted puzzle against ours (and a reference solution when
    given); exits on any mismatch. Returns the number checked."""
    import pencilmark
    bad = []
    for k, (obj, mine) in enumerate(zip(objs, ours)):
        try:
            theirs = pencilmark.solve(obj)
        except Exception as e:
            theirs = f"{type(e).__name__}: {e}"
        if mine is None or theirs != mine or (reference is not None and reference[k] != mine):
            bad.append((k, f"pencilmark: {theirs}" if isinstance(theirs, str) else "the solutions differ"))
    if bad:
        for k, why in bad[:10]:
            print(f"{name}: puzzle {k + 1}: {why}", file=sys.stderr)
        sys.exit(f"{name}: {len(bad)} of {len(objs)} converted puzzles do not match our solution: the converter is wrong")
    return len(objs)


# ---------------------------------------------------------------- the comparison

HEADER = (f"{'config':<16} {'n':>4} {'pm miss':>7} {'γ pm band':>9} {'γ pm diff':>9} {'γ steps':>7} {'γ grade':>7}"
          f" {'γ hardest':>9} {'pm s med/max':>13} {'ours puz/s':>10} {'ours max ms':>11} {'speed ×':>8}")


def fmt(x, spec):
    """x formatted by spec; None as "-" in the spec's width."""
    if x is None:
        width = "".join(ch for ch in spec.split(".")[0] if ch.isdigit())
        return format("-", ">" + width)
    return format(x, spec)


def measure(name, labels, lines, objs, keys, a, ours_only=False, reference=None):
    """one row of the table: validation, both raters, the per-puzzle CSV."""
    n = len(lines)
    print(f"== {name}: {n} puzzles", file=sys.stderr, flush=True)
    checked = 0
    if not ours_only:
        ours_sol = our_solve(a.bin, lines)
        checked = validate(name, objs, ours_sol, reference)
    rows, cpu = our_rate(a.bin, lines)
    ms = our_rate_each(a.bin, lines)
    steps = [float(r["steps"]) for r in rows]
    order = {"easy": 0, "medium": 1, "hard": 2, "expert": 3}
    grade = [order[r["grade"]] for r in rows]
    hardest = [int(r["hardest_level"]) for r in rows]
    pm = [None] * n
    if not ours_only:
        pm = pm_rate(objs, keys, a.cap, f"{a.out}/pm-cache-{name}.jsonl")
    band = [p and p["band_index"] for p in pm]
    diff = [p and p["difficulty"] for p in pm]
    with open(f"{a.out}/{name}.csv", "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["puzzle", "level", "pm_band_index", "pm_difficulty", "pm_status", "pm_cpu_s", "pm_wall_s",
                    "our_grade", "our_steps", "our_hardest_level", "our_own_process_ms"])
        for k in range(n):
            p = pm[k] or {}
            w.writerow([keys[k], labels[k], p.get("band_index", ""), p.get("difficulty", ""), p.get("status", ""),
                        f"{p['cpu']:.3f}" if p else "", f"{p['wall']:.3f}" if p else "",
                        rows[k]["grade"], rows[k]["steps"], rows[k]["hardest_level"], f"{ms[k]:.1f}"])
    odd = {}
    for p in pm:
        if p and p["status"] != "ok":
            odd[p["status"]] = odd.get(p["status"], 0) + 1
    ours_rate = n / cpu if cpu > 0 else float("inf")
    if ours_only:
        pm_cols = (None, None, None, None, None, None)
    else:
        pm_cpu = [p["cpu"] for p in pm]
        pm_rate_ = n / sum(pm_cpu)          # every attempt counts, cap hits and refusals too
        pm_cols = (sum(1 for b in band if b is None), gamma_of(labels, band), gamma_of(labels, diff),
                   statistics.median(pm_cpu), max(pm_cpu), ours_rate / pm_rate_)
    miss, g_band, g_diff, pm_med, pm_max, ratio = pm_cols
    row = (f"{name:<16} {n:>4} {fmt(miss, '7d')} {fmt(g_band, '9.3f')} {fmt(g_diff, '9.3f')}"
           f" {gamma_of(labels, steps):7.3f} {gamma_of(labels, grade):7.3f} {gamma_of(labels, hardest):9.3f}"
           f" {(fmt(pm_med, '.2f') + '/' + fmt(pm_max, '.1f')) if pm_med is not None else '-':>13}"
           f" {ours_rate:10.0f} {max(ms):11.0f} {fmt(ratio, '8.0f')}")
    print(row, flush=True)
    return row, checked, odd


def take_per_level(items, per, key):
    """the first `per` items of each level, in file order."""
    seen, out = {}, []
    for it in items:
        lv = key(it)
        if seen.get(lv, 0) < per:
            seen[lv] = seen.get(lv, 0) + 1
            out.append(it)
    return out


def spread_sample(recs, size, rng):
    """size records spread evenly over the books (level_rank): shuffled within each book, then
    rounds that each take one record from evenly spaced books."""
    books = {}
    for r in recs:
        books.setdefault(r["level_rank"], []).append(r)
    for b in books.values():
        rng.shuffle(b)
    keys = sorted(books)
    out = []
    while len(out) < size and any(books.values()):
        left = [k for k in keys if books[k]]
        want = min(size - len(out), len(left))
        for j in range(want):
            out.append(books[left[j * len(left) // want]].pop())
    return out


def run(argv):
    ap = argparse.ArgumentParser(prog="pencilmark_compare.py run")
    ap.add_argument("--bin", required=True)
    ap.add_argument("--out", required=True)
    ap.add_argument("--sets", required=True, help="file: lines CONFIG PATH (the Solo TEST sets)")
    ap.add_argument("--per-level", type=int, default=15)
    ap.add_argument("--hex", type=int, default=12, help="KrazyDad 16x16 sample per level (0: none)")
    ap.add_argument("--killers", type=int, default=100, help="KrazyDad killer sample (0: none)")
    ap.add_argument("--data", default="")
    ap.add_argument("--cap", type=float, default=60)
    ap.add_argument("--seed", type=int, default=1)
    a = ap.parse_args(argv)
    table, notes = [HEADER], []
    print(HEADER, flush=True)
    rank = {l: i for i, l in enumerate(LEVELS.split(","))}
    for line in open(a.sets):
        if not line.strip():
            continue
        cfg, path = line.split(None, 1)
        items = [l.rstrip("\n").split("\t") for l in open(path.strip()) if l.strip()]
        items = take_per_level(items, a.per_level, lambda it: it[1])
        ids = [it[0] for it in items]
        objs = [solo_to_pm(i) for i in ids]
        row, checked, odd = measure(cfg, [rank[it[1]] for it in items], ids, objs, ids, a)
        table.append(row)
        notes.append(f"{cfg}: {checked} converted puzzles, pencilmark's solution = ours for all"
                     + "".join(f"; pencilmark {s}: {k}" for s, k in sorted(odd.items())))
    for fname, label, size in (("krazydad_hex16.jsonl", "kd-hex16", a.hex), ("krazydad_killer.jsonl", "kd-killer", a.killers)):
        if size <= 0:
            continue
        path = os.path.join(a.data, fname)
        raw = [l.strip() for l in open(path) if l.strip()]
        recs = [json.loads(l) for l in raw]
        for i, (r, l) in enumerate(zip(recs, raw)):
            r["_line"], r["_i"] = l, i
        rng = random.Random(a.seed)
        if label == "kd-hex16":
            sample = []
            for lv in sorted({r["level_rank"] for r in recs}):
                sample += rng.sample([r for r in recs if r["level_rank"] == lv], size)
        else:
            sample = spread_sample(list(recs), size, rng)
        sample.sort(key=lambda r: r["_i"])
        objs = [krazydad_to_pm(r) for r in sample]
        refs = [[v for row in r["solution"] for v in row] for r in sample]
        row, checked, odd = measure(f"{label}-sample", [r["level_rank"] for r in sample], [r["_line"] for r in sample],
                                    objs, [r["source"] for r in sample], a, reference=refs)
        table.append(row)
        notes.append(f"{label}-sample: {checked} converted puzzles, pencilmark's solution = ours = the record's for all"
                     + "".join(f"; pencilmark {s}: {k}" for s, k in sorted(odd.items())))
        row, _, _ = measure(f"{label}-all", [r["level_rank"] for r in recs], raw, None, [r["source"] for r in recs],
                            a, ours_only=True)
        table.append(row)
    legend = f"""
n: puzzles (Solo: up to {a.per_level} per level of the TEST set, in file order; KrazyDad: a seeded sample (seed {a.seed}),
or all). γ: Goodman-Kruskal gamma of the reference level (Solo t<b<i<a<e<u; KrazyDad level_rank: 16x16 level 1-4,
killer book number, a weak order) against pencilmark's band_index (0-5) and difficulty, and our step count, grade
(easy..expert, the built-in table of the size) and hardest technique level; pencilmark's over the puzzles it rated
(pm miss: not rated: time cap hit ({a.cap:g} s wall clock: max_seconds), band Unknown, or refused). pm s: pencilmark's CPU seconds per puzzle in
one process (pencilmark.rate, one job, includes its uniqueness check). ours puz/s: puzzles per CPU second of one
`rate -` process (--threads 1) for the whole set (given OUR_PASSES times, 10 by default: the process start spread
over them, as pencilmark's times leave out Python's); ours max ms: the slowest puzzle rated in a process of its own (wall,
includes the process start). speed ×: ours / pencilmark, puzzles per CPU second (pencilmark's time includes cap hits).
"""
    notes_text = "\n".join(notes)
    print(legend + notes_text)
    open(f"{a.out}/table.txt", "w").write("\n".join(table) + "\n" + legend + notes_text + "\n")
    print(f"wrote {a.out}/table.txt and {a.out}/CONFIG.csv per row", file=sys.stderr)


def convert():
    import signal
    signal.signal(signal.SIGPIPE, signal.SIG_DFL)  # quiet under `| head`
    for line in sys.stdin:
        line = line.strip()
        if not line:
            continue
        if line.startswith("{"):
            print(json.dumps(krazydad_to_pm(json.loads(line))))
        else:
            print(json.dumps(solo_to_pm(line.split("\t")[0])))


if __name__ == "__main__":
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    if len(sys.argv) > 1 and sys.argv[1] == "convert":
        convert()
    elif len(sys.argv) > 1 and sys.argv[1] == "run":
        run(sys.argv[2:])
    else:
        print(__doc__.strip())
        sys.exit(0 if sys.argv[1:2] in (["-h"], ["--help"]) else 2)

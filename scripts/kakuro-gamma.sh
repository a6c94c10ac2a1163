#!/usr/bin/env bash
# Kakuro grades against outside levels, per board size: Goodman-Kruskal gamma of the source's
# level against our grade and our size-free difficulty (steps / white cells^2), pairs from the
# same source and size only:
#   - KrazyDad's early (books 1-4) and late (96-99) books, 7x7, 9x9 and 11x11
#     (../shared/data/kakuro/graded/krazydad_kakuro.jsonl);
#   - the 20 publisher-graded puzzles (Kakuro Conquest, Nikoli; pairs within a publisher);
#   - Anders Holst's Tatham-style Kakuro at its five levels, D1 trivial to D5 extreme, when
#     given FILEs of its game ids (`SIZE,MAXDx:DESC`, one per line, as its generator prints
#     them; SIZE counts the interior, so 6 is a 7x7 board). Its boards may leave a white cell
#     with no clue one way; the reader takes them. Build Holst's program yourself (MIT,
#     github.com/Anders-Holst/sgt-puzzles-aho-extensions, with Tatham's collection).
#
# Usage: scripts/kakuro-gamma.sh [HOLST_IDS_FILE...]
#   KCONFIG=FILE rates with those settings (e.g. the kakuro-size-free.toml of kakuro-calibrate.sh)
case "${1:-}" in -h | --help) sed -n '2,/^set -/{/^#/s/^# \{0,1\}//p}' "$0"; exit 0 ;; esac
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
data=${DATA:-$here/../shared/data/kakuro/graded}
for f in "$data/krazydad_kakuro.jsonl" "$data/publisher.jsonl" "$@"; do
  [ -f "$f" ] || { echo "kakuro-gamma.sh: no $f (set DATA=DIR for the graded files)" >&2; exit 2; }
done
. "$here/scripts/common.sh"
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT

# Holst's game ids to our JSON lines: `level_rank` from Dn, the board with its border.
: >"$tmp/holst.jsonl"
for f in "$@"; do
  python3 - "$f" >>"$tmp/holst.jsonl" <<'PY'
import json, re, sys
for i, line in enumerate(open(sys.argv[1])):
    line = line.strip()
    if not line:
        continue
    params, desc = line.split(":", 1)
    m = re.match(r"(\d+)(?:,\d+)?[MN]?D(\d)", params)
    if not m:
        sys.exit(f"{sys.argv[1]} line {i + 1}: parameters {params!r} are not SIZE[,MAX]Dn")
    side, rank = int(m.group(1)) + 1, int(m.group(2))
    cells, j = [], 0
    while j < len(desc):
        c = desc[j]
        j += 1
        if c == "X":
            cells.append("#")
        elif "a" <= c < "z":
            cells += ["."] * (1 + ord(c) - ord("a"))
        elif c in "BHV":
            n = re.match(r"(\d+)(?:\.(\d+))?", desc[j:])
            if not n:
                sys.exit(f"{sys.argv[1]} line {i + 1}: no number after {c!r}")
            j += n.end()
            # B across.down, H across, V down; ours is down\across.
            cells.append({"B": f"{n.group(2)}\\{n.group(1)}", "H": f"\\{n.group(1)}", "V": f"{n.group(1)}\\"}[c])
        else:
            sys.exit(f"{sys.argv[1]} line {i + 1}: unexpected {c!r} in the description")
    if len(cells) != side * side:
        sys.exit(f"{sys.argv[1]} line {i + 1}: {len(cells)} cells for a {side}x{side} board")
    grid = [cells[r * side:(r + 1) * side] for r in range(side)]
    print(json.dumps({"source": "holst", "level_rank": rank, "size": f"{side}x{side}",
                      "puzzle": {"rows": side, "cols": side, "cells": grid}}))
PY
done

cat "$data/krazydad_kakuro.jsonl" "$data/publisher.jsonl" "$tmp/holst.jsonl" >"$tmp/all.jsonl"
"$bin" --kind kakuro rate --quiet ${KCONFIG:+--config "$KCONFIG"} "$tmp/all.jsonl" >"$tmp/rated.csv"
python3 - "$tmp/all.jsonl" "$tmp/rated.csv" "$(wc -l <"$data/krazydad_kakuro.jsonl")" <<'PY'
import csv, json, sys
recs = [json.loads(l) for l in open(sys.argv[1])]
rows = {int(r["line"]): r for r in csv.DictReader(open(sys.argv[2]))}
n_kd = int(sys.argv[3])
order = {"easy": 0, "medium": 1, "hard": 2, "expert": 3}

def gamma(a, b):
    c = d = 0
    for i in range(len(a)):
        for j in range(i + 1, len(a)):
            x = (a[i] - a[j]) * (b[i] - b[j])
            c += x > 0
            d += x < 0
    return (c - d) / (c + d) if c + d else float("nan")

groups = {}
for i, rec in enumerate(recs, 1):
    r = rows.get(i)
    if r is None:
        print(f"line {i} ({rec.get('id', rec.get('source'))}) was not rated", file=sys.stderr)
        continue
    src = "KrazyDad" if i <= n_kd else rec.get("source", "?")
    if src != "holst" and i > n_kd:
        src = rec["id"].split("-")[0]  # the publisher
    size = rec.get("size", "")
    key = (src, size) if src in ("KrazyDad", "holst") else (src, "all sizes")
    white = sum(c == "." for row in rec["puzzle"]["cells"] for c in row)
    steps = float(r["steps"])
    groups.setdefault(key, []).append((rec["level_rank"], order[r["grade"]], steps / white ** 2))
def judged(a, b):
    """The pairs gamma judges (levels and scores both differ) / the pairs of different levels."""
    pairs = [(i, j) for i in range(len(a)) for j in range(i + 1, len(a)) if a[i] != a[j]]
    return f"{sum(b[i] != b[j] for i, j in pairs)}/{len(pairs)}"

# Grades are four values and most boards here are easy: gamma grade leaves out the pairs of one
# grade, and "pairs" says on how many of the pairs of different levels it rests.
print(f"{'source':12} {'size':9} {'n':>4} {'levels':>8}  {'gamma grade':>11} {'pairs':>9} {'gamma d':>8}  grades per level (e/m/h/x)")
for (src, size), v in sorted(groups.items()):
    lv = [x[0] for x in v]
    mix = " ".join(
        f"{l}:" + "/".join(str(sum(1 for x in v if x[0] == l and x[1] == g)) for g in range(4)) for l in sorted(set(lv)))
    grades = [x[1] for x in v]
    print(f"{src:12} {size:9} {len(v):4d} {len(set(lv)):8d}  {gamma(lv, grades):11.3f} {judged(lv, grades):>9} "
          f"{gamma(lv, [x[2] for x in v]):8.3f}  {mix}")
PY

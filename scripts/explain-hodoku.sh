#!/usr/bin/env bash
# Agreement with a known explainer: HoDoKu's exemplar puzzles are filed under the technique
# they demonstrate. For each section whose technique our ladder has (or that belongs to a level
# of it), the share of its puzzles whose `explain` path uses that technique, and the share that
# uses it or one of the same level. Sections of techniques outside our ladder (chains,
# uniqueness, ALS, finned and exotic fish...) are listed with the level our path reached.
# Also prints `explain` and `hint` throughput (puzzles/s, one thread) on top1465.
#
# Usage: scripts/explain-hodoku.sh [EXEMPLARS_FILE]
case "${1:-}" in -h | --help) sed -n '2,/^set -/{/^#/s/^# \{0,1\}//p}' "$0"; exit 0 ;; esac
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
. "$here/scripts/common.sh"
data=${PUZZLE_FACTORY_DATA:-$here/../shared/data}
file=${1:-$data/sudoku/hodoku_exemplars-1.0.txt}
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
# Puzzle lines (81 symbols before the comment) with their section.
python3 - "$file" > "$tmp/lines.tsv" <<'PY'
import re, sys
sec = ""
for line in open(sys.argv[1]):
    if re.match(r"#\d{4}:", line):
        sec = line.strip()
    elif re.match(r"[0-9.]{81}", line):
        print(line[:81] + "\t" + sec)
PY
cut -f1 "$tmp/lines.tsv" > "$tmp/puzzles.txt"
"$bin" explain --format json --threads 1 "$tmp/puzzles.txt" > "$tmp/paths.jsonl" 2> "$tmp/errors.txt" || true
python3 - "$tmp" <<'PY'
import json, sys, collections
tmp = sys.argv[1]
lines = [l.rstrip("\n").split("\t") for l in open(f"{tmp}/lines.tsv")]
paths = {json.loads(l)["line"]: json.loads(l) for l in open(f"{tmp}/paths.jsonl")}
errors = open(f"{tmp}/errors.txt").read().strip().splitlines()
# HoDoKu section -> our techniques that are that technique.
ours = {
    "0000": ["naked_single", "hidden_single"], "0001": ["naked_single", "hidden_single"],
    "0002": ["hidden_single"], "0003": ["naked_single"],
    "0100": ["intersection"], "0101": ["intersection"],
    "0110": ["naked_pair", "intersection"], "0111": ["naked_triple", "intersection"],
    "0200": ["naked_pair"], "0201": ["naked_triple"], "0202": ["naked_quad"],
    "0210": ["hidden_pair"], "0211": ["hidden_triple"], "0212": ["hidden_quad"],
    "0300": ["x_wing"], "0301": ["swordfish"], "0302": ["jellyfish"],
    "0800": ["xy_wing"], "0801": ["xyz_wing"],
}
level = {"naked_single": 1, "hidden_single": 1, "naked_pair": 2, "hidden_pair": 2, "intersection": 2,
         "naked_triple": 3, "hidden_triple": 3, "x_wing": 3, "xy_wing": 3, "naked_quad": 4, "hidden_quad": 4,
         "swordfish": 4, "xyz_wing": 4, "jellyfish": 5, "wxyz_wing": 5, "trial": 6}
rows = collections.OrderedDict()
for i, (puzzle, sec) in enumerate(lines, start=1):
    code, name = sec[1:5], sec[7:]
    r = rows.setdefault(code, {"name": name, "n": 0, "rated": 0, "exact": 0, "same_level": 0, "hardest": collections.Counter()})
    r["n"] += 1
    p = paths.get(i)
    if p is None:
        continue
    r["rated"] += 1
    used = {s["technique"] for s in p["steps"]}
    r["hardest"][p["hardest_level"]] += 1
    if code in ours:
        want = ours[code]
        levels = {level[t] for t in want}
        r["exact"] += any(t in used for t in want)
        r["same_level"] += any(level[t] in levels for t in used)
print(f"{'section':<34} {'puzzles':>7} {'rated':>5}  {'uses it':>8} {'or same level':>13}")
tot = collections.Counter()
for code, r in rows.items():
    if code in ours:
        e, s = r["exact"] / max(r["rated"], 1), r["same_level"] / max(r["rated"], 1)
        print(f"#{code} {r['name'][:28]:<28} {r['n']:>7} {r['rated']:>5}  {e:>8.0%} {s:>13.0%}")
        tot["n"] += r["rated"]; tot["e"] += r["exact"]; tot["s"] += r["same_level"]
print(f"{'all sections of our techniques':<34} {tot['n']:>7} {'':>5}  {tot['e'] / max(tot['n'], 1):>8.0%} {tot['s'] / max(tot['n'], 1):>13.0%}")
print("\nsections outside our ladder (puzzles per hardest level our path used):")
for code, r in rows.items():
    if code not in ours and r["rated"]:
        print(f"#{code} {r['name'][:40]:<40} {r['rated']:>4}  {dict(sorted(r['hardest'].items()))}")
print(f"\nnot rated (not unique or not a puzzle): {len(errors)}")
PY
# Throughput, one thread, whole process.
head -1000 "$data/sudoku/top1465.txt" > "$tmp/top.txt"
n=$(wc -l < "$tmp/top.txt")
t=$(secs "$bin" explain --format json --threads 1 "$tmp/top.txt")
"$bin" explain --format json --threads 1 "$tmp/top.txt" | wc -c > "$tmp/bytes"
printf 'explain --format json, top1465 first %s, one thread: %.0f puzzles/s, %.1f KB per puzzle\n' "$n" "$(calc "$n / $t")" "$(calc "$(cat "$tmp/bytes") / $n / 1000")"
"$bin" solve --threads 1 "$tmp/top.txt" | tail -n +2 | cut -d, -f3 > "$tmp/solutions.txt"
paste "$tmp/top.txt" "$tmp/solutions.txt" | awk -F'\t' '{printf "%s\t%s%s\n", $1, substr($2, 1, 40), substr($1, 41)}' > "$tmp/hints.tsv"
t=$(secs "$bin" hint --format json --threads 1 "$tmp/hints.tsv")
printf 'hint --format json, same puzzles with the solution entered in their first 40 cells, one thread: %.0f puzzles/s\n' "$(calc "$n / $t")"

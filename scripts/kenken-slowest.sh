#!/usr/bin/env bash
# The slowest KenKen puzzle of COUNT generated ones per size, two ways: the slowest candidate of
# `generate --threads 1` (calibration.json's time_seconds.slowest_candidate: generation,
# uniqueness and rating together), then `solve --threads 1` run alone on each emitted puzzle
# (whole process, wall time; `solve` does not know the solution, unlike the generator's check).
# Prints per size: emitted puzzles, the slowest candidate, and the median and slowest `solve`,
# with how many `solve` runs ended `undecided`.
#
# Usage: scripts/kenken-slowest.sh [COUNT] [OUT_DIR] [SIZES...]
#   defaults: 1000, output/kenken-slowest, sizes 3 to 12
case "${1:-}" in -h | --help) sed -n '2,/^set -/{/^#/s/^# \{0,1\}//p}' "$0"; exit 0 ;; esac
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
count=${1:-1000}
out=${2:-output/kenken-slowest}
shift $(($# < 2 ? $# : 2))
sizes=("$@")
[ ${#sizes[@]} -gt 0 ] || sizes=(3 4 5 6 7 8 9 10 11 12)
. "$here/scripts/common.sh"
mkdir -p "$out"

printf '%-5s %8s %14s %14s %14s %9s\n' size emitted slowest_cand_s solve_median_s solve_slowest_s undecided
for size in "${sizes[@]}"; do
  book=$out/book-$size
  "$bin" generate --kind kenken --size "$size" --count "$count" --seed 1 --threads 1 --quiet --force --out "$book"
  python3 - "$bin" "$book" "$size" <<'PY'
import json, statistics, subprocess, sys, time
bin_, book, size = sys.argv[1], sys.argv[2], sys.argv[3]
cal = json.load(open(f"{book}/calibration.json"))
slowest = cal["time_seconds"]["slowest_candidate"]["seconds"]
times, undecided = [], 0
for line in open(f"{book}/puzzles.jsonl"):
    puzzle = json.dumps(json.loads(line)["puzzle"]) + "\n"
    start = time.perf_counter()
    r = subprocess.run([bin_, "--kind", "kenken", "solve", "--threads", "1", "-"], input=puzzle,
                       capture_output=True, text=True)
    times.append(time.perf_counter() - start)
    undecided += "undecided" in r.stdout + r.stderr
print(f"{size:<5} {len(times):>8} {slowest:>14.3f} {statistics.median(times):>14.4f} {max(times):>14.3f} {undecided:>9}")
PY
done

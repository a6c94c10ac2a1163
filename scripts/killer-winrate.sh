#!/usr/bin/env bash
# Killer ratings against people (issue 42, Build 3): sudoku.com's 592 killers with each puzzle's
# player win rate ($PUZZLE_FACTORY_DATA/sudoku-family/sudokucom_killer.jsonl). Per site level
# (easy, medium, hard, expert), the Goodman-Kruskal gamma against difficulty for people (a lower
# win rate, harder) of: our step count and hardest level; the cage count alone (fewer cages,
# harder), the baseline to beat; and, with PENCILMARK=1, pencilmark's difficulty and band on the
# same puzzles. Each row also over two halves ("fit", "test", split by a hash of the solution
# grid) so that a rating tuned on one is checked on the other. Under it, comparisons that treat
# ties alike (the cage count has three values a level, and gamma leaves out the pairs it ties):
# Kendall's tau-b of each score, and gamma of our steps cut into groups of the cage count's
# sizes; and how the cage count follows the site's puzzle id. Writes OUT_DIR/table.txt and
# OUT_DIR/ratings.csv (one line a puzzle). Our rating takes under a second; pencilmark takes
# 1-2 CPU seconds a killer (15 min for all here, cached in OUT_DIR; an interrupted run resumes).
#
# Usage: scripts/killer-winrate.sh [OUT_DIR]   (default output/killer-winrate)
# Environment:
#   BIN=/path/to/puzzle-factory  use that binary, skip the cargo build (scripts/common.sh)
#   PENCILMARK=1  rate with pencilmark too; PENCILMARK_PY=/path/to/python (a Python that imports
#                 pencilmark), else a venv in OUT_DIR/venv gets `pip install --pre pencilmark`
#   CAP=60        pencilmark's time cap per puzzle (seconds; a capped puzzle is left out)
#   PUZZLE_FACTORY_DATA (reference data directory, default ../shared/data)
case "${1:-}" in -h | --help) sed -n '2,/^set -/{/^#/s/^# \{0,1\}//p}' "$0"; exit 0 ;; esac
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
out=${1:-$here/output/killer-winrate}
data=${PUZZLE_FACTORY_DATA:-$here/../shared/data}/sudoku-family/sudokucom_killer.jsonl
[ -s "$data" ] || { echo "killer-winrate.sh: no $data (set PUZZLE_FACTORY_DATA)" >&2; exit 2; }
[[ "${CAP:-60}" =~ ^[0-9]+$ ]] || { echo "killer-winrate.sh: CAP is a number of seconds" >&2; exit 2; }
. "$here/scripts/common.sh"
mkdir -p "$out"
out=$(cd "$out" && pwd)
py=python3
pm=()
if [ -n "${PENCILMARK:-}" ]; then
  ensure_pencilmark "$out"
  pm=(--pencilmark --cap "${CAP:-60}")
fi
"$py" "$here/scripts/killer_winrate.py" --bin "$bin" --data "$data" --out "$out" "${pm[@]}"

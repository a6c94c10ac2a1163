#!/usr/bin/env bash
# A volume series from one library: COUNT killers (default 700) made with `generate --killer
# --library`, then five books "Killer Sudoku Volume 1".."5" of 100 killers each from one plan
# each (a `query` section), in OUT (default a temporary folder, removed). Checks that no
# puzzle is in two volumes, that each book's puzzles are recorded, and that rebuilding volume 1
# gives the same PDF (a reprint takes its own puzzles again). Prints the books and the stats.
#
# Usage: scripts/library-volumes.sh [OUT] [COUNT]     (BIN=path skips the cargo build)
case "${1:-}" in -h | --help) sed -n '2,/^set -/{/^#/s/^# \{0,1\}//p}' "$0"; exit 0 ;; esac
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
. "$here/scripts/common.sh"
if [ -n "${1:-}" ]; then out=$1; mkdir -p "$out"; else out=$(mktemp -d); trap 'rm -rf "$out"' EXIT; fi
count=${2:-700}
cd "$out"
"$bin" generate --killer --count "$count" --seed 3 --out killers --library volumes.sqlite --quiet
for v in 1 2 3 4 5; do
  cat >"vol$v.toml" <<TOML
[book]
title = "Killer Sudoku Volume $v"
author = "The Puzzle Factory"
isbn = "978-0-00-00000$v-0"
date = "2026-0$v-01"
trim = "8.5x11"

[[section]]
query = { kind = "sudoku", shape = "9k" }
count = 100
per_page = 2
TOML
  "$bin" book --plan "vol$v.toml" --library volumes.sqlite --out "vol$v.pdf" --quiet
done
"$bin" library books --library volumes.sqlite
: >ids
for v in 1 2 3 4 5; do
  "$bin" library books "Killer Sudoku Volume $v" --library volumes.sqlite | tail -n +2 | cut -f3 >"vol$v.ids"
  [ "$(wc -l <"vol$v.ids")" = 100 ] || { echo "FAIL: volume $v holds $(wc -l <"vol$v.ids") puzzles" >&2; exit 1; }
  cat "vol$v.ids" >>ids
done
[ "$(sort -u ids | wc -l)" = 500 ] || { echo "FAIL: a puzzle in two volumes" >&2; exit 1; }
"$bin" book --plan vol1.toml --library volumes.sqlite --out reprint.pdf --quiet
cmp -s vol1.pdf reprint.pdf || { echo "FAIL: the reprint of volume 1 differs" >&2; exit 1; }
"$bin" library stats --library volumes.sqlite
echo "ok: five volumes of 100 killers, 500 distinct puzzles, each book's puzzles recorded; the reprint is identical"

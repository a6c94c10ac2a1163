#!/usr/bin/env bash
# `generate --library` against `generate` alone: ROUNDS alternating pairs (default 5) of the
# same run (COUNT 9×9 Sudoku, default 20,000, --threads 2), one writing only its book, the
# other also reading the library's keys first and adding its book to the library at the
# commit. The library starts each round as a copy of a library already holding HELD puzzles
# (default 0; e.g. 1000000 for a library of a million, made once from synthetic copies of
# generated records with fresh keys). Prints each time and the medians and their ratio.
#
# Usage: scripts/library-throughput.sh [ROUNDS] [COUNT] [HELD]     (BIN=path skips the build)
case "${1:-}" in -h | --help) sed -n '2,/^set -/{/^#/s/^# \{0,1\}//p}' "$0"; exit 0 ;; esac
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
. "$here/scripts/common.sh"
rounds=${1:-5}; count=${2:-20000}; held=${3:-0}
command -v /usr/bin/time >/dev/null || { apt-get update -qq && apt-get install -y -qq time >/dev/null; }
work=$(mktemp -d); trap 'rm -rf "$work"' EXIT
cd "$work"
if [ "$held" -gt 0 ]; then
  "$bin" generate --count 2000 --seed 77 --out seedrun --quiet
  "$here/scripts/library-copies.py" seedrun held "$held"
  "$bin" library import held --library held.sqlite --quiet
  rm -rf held seedrun
fi
# wall and CPU (user + system) seconds of a command, its output discarded
timed() { /usr/bin/time -f "%e %U %S" "$@" 2>&1 >/dev/null | tail -1 | awk '{printf "%s %.2f\n", $1, $2 + $3}'; }
plain=(); lib=(); pcpu=(); lcpu=()
for r in $(seq 1 "$rounds"); do
  rm -rf a b lib.sqlite*
  if [ "$held" -gt 0 ]; then cp held.sqlite lib.sqlite; fi
  read -r p pc < <(timed "$bin" generate --count "$count" --seed "$r" --threads 2 --out a --quiet)
  read -r l lc < <(timed "$bin" generate --count "$count" --seed "$r" --threads 2 --out b --quiet --library lib.sqlite)
  cmp -s a/puzzles.jsonl b/puzzles.jsonl || echo "  note: round $r: the books differ (the library held some of its puzzles)"
  echo "round $r: generate $p s ($pc s CPU), generate --library $l s ($lc s CPU)"
  plain+=("$p"); lib+=("$l"); pcpu+=("$pc"); lcpu+=("$lc")
done
mp=$(printf '%s\n' "${plain[@]}" | median); ml=$(printf '%s\n' "${lib[@]}" | median)
cp_=$(printf '%s\n' "${pcpu[@]}" | median); cl=$(printf '%s\n' "${lcpu[@]}" | median)
echo "medians: generate $mp s, generate --library $ml s, ratio $(calc "round($ml / $mp, 3)"); CPU $cp_ s and $cl s, ratio $(calc "round($cl / $cp_, 3)") (library held $held puzzles)"

#!/usr/bin/env bash
# Two processes building books from one library at once, ROUNDS times (default 100): each round
# starts two `book --plan` builds together (each book takes 20 puzzles from the library and
# writes its PDF), waits for both, and goes on. At the end every book must hold its 20 puzzles
# and no puzzle may be in two books. Prints a summary; exits 1 on any puzzle in two books.
#
# Usage: scripts/library-race.sh [ROUNDS]     (BIN=path skips the cargo build)
case "${1:-}" in -h | --help) sed -n '2,/^set -/{/^#/s/^# \{0,1\}//p}' "$0"; exit 0 ;; esac
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
. "$here/scripts/common.sh"
rounds=${1:-100}
work=$(mktemp -d); trap 'rm -rf "$work"' EXIT
cd "$work"
"$bin" generate --count $((rounds * 45)) --seed 1 --out run --library lib.sqlite --quiet
plan() { # plan NAME
  printf '[book]\ntitle = "%s"\nrules = "none"\n\n[[section]]\nquery = { kind = "sudoku" }\ncount = 20\n' "$1" >"$1.toml"
}
start=$(date +%s.%N)
for r in $(seq 1 "$rounds"); do
  plan "race-$r-a"; plan "race-$r-b"
  "$bin" book --plan "race-$r-a.toml" --library lib.sqlite --out a.pdf --quiet 2>/dev/null & pa=$!
  "$bin" book --plan "race-$r-b.toml" --library lib.sqlite --out b.pdf --quiet 2>/dev/null & pb=$!
  wait $pa || { echo "round $r: book a failed" >&2; exit 1; }
  wait $pb || { echo "round $r: book b failed" >&2; exit 1; }
done
end=$(date +%s.%N)
books=$("$bin" library books --library lib.sqlite | tail -n +2 | wc -l)
: >ids
for r in $(seq 1 "$rounds"); do
  for w in a b; do "$bin" library books "race-$r-$w" --library lib.sqlite | tail -n +2 | cut -f3 >>ids; done
done
total=$(wc -l <ids); distinct=$(sort -u ids | wc -l)
echo "rounds: $rounds, books: $books, puzzles recorded: $total, distinct: $distinct, $(calc "round($end - $start, 1)") s"
echo "integrity: $("$bin" library check --library lib.sqlite)"
[ "$total" = $((rounds * 40)) ] && [ "$distinct" = "$total" ] || { echo "FAIL: a puzzle in two books, or a book short" >&2; exit 1; }
echo "ok: no puzzle in two books"

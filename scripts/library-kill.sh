#!/usr/bin/env bash
# kill -9 at random moments during `library import` and during books' reservations: after each
# kill, `library check` (SQLite's integrity_check) must say ok, and the counts must equal those
# before the command or those after it, never between. KILLS times each (default 20).
#
# The import is of a synthetic folder of RECORDS records (default 300,000): copies of 2,000
# generated 9×9 Sudoku records, each given its own id and canonical key (the database's load,
# not puzzles to print). Each import kill starts from the same library of 2,000 puzzles.
# Reservations: `library query --reserve` of 2,000 puzzles, and `book --plan` of a 2,000-puzzle
# book (reserve, then draw the PDF), killed at a random moment within the time an uninterrupted
# reservation takes.
#
# Usage: scripts/library-kill.sh [KILLS] [RECORDS]     (BIN=path skips the cargo build)
case "${1:-}" in -h | --help) sed -n '2,/^set -/{/^#/s/^# \{0,1\}//p}' "$0"; exit 0 ;; esac
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
. "$here/scripts/common.sh"
kills=${1:-20}
records=${2:-300000}
work=$(mktemp -d); trap 'rm -rf "$work"' EXIT
cd "$work"
"$bin" generate --count 2000 --seed 1 --out run --quiet
"$bin" generate --count 2000 --seed 2 --out base --quiet
"$bin" library import base --library base.sqlite >/dev/null
"$here/scripts/library-copies.py" run big "$records"
count() { "$bin" library stats --library "$1" | awk '/^total/ {print $2, $3}'; }
check() { local c; c=$("$bin" library check --library "$1"); [ "${c##*: }" = ok ] || { echo "FAIL: $c" >&2; exit 1; }; }
rand_ms() { python3 -c "import random; print(random.randint($1, $2))"; }
cp base.sqlite lib.sqlite
start=$(date +%s.%N); "$bin" library import big --library lib.sqlite --quiet >/dev/null; end=$(date +%s.%N)
full=$(count lib.sqlite); took=$(calc "int(($end - $start) * 1000)")
echo "an uninterrupted import: $took ms, then $full (puzzles, used)"
before=0; after=0
for k in $(seq 1 "$kills"); do
  rm -f lib.sqlite lib.sqlite-wal lib.sqlite-shm; cp base.sqlite lib.sqlite
  was=$(count lib.sqlite); ms=$(rand_ms 0 "$took"); delay=$(calc "$ms / 1000")
  "$bin" library import big --library lib.sqlite --quiet >/dev/null 2>&1 & pid=$!
  sleep "$delay"; kill -9 $pid 2>/dev/null || true; wait $pid 2>/dev/null || true
  check lib.sqlite; now=$(count lib.sqlite)
  if [ "$now" = "$was" ]; then before=$((before + 1)); elif [ "$now" = "$full" ]; then after=$((after + 1));
  else echo "FAIL: import killed at $ms ms left $now (before $was, after $full)" >&2; exit 1; fi
  echo "import kill $k at $ms ms: $now"
done
echo "import: $kills kills, $before left the library as before, $after as after, integrity ok each time"
"$bin" library import big --library lib.sqlite --quiet >/dev/null
# A reservation of TAKE puzzles (a large book, so that kills land inside it): its time.
take=2000
start=$(date +%s.%N); "$bin" library query --count "$take" --reserve timing --library lib.sqlite >/dev/null; end=$(date +%s.%N)
"$bin" library release timing --library lib.sqlite >/dev/null
rtook=$(calc "int(($end - $start) * 1000)")
echo "an uninterrupted reservation of $take puzzles: $rtook ms"
before=0; after=0
for k in $(seq 1 "$kills"); do
  was=$(count lib.sqlite); used=${was#* }; ms=$(rand_ms 0 "$rtook"); delay=$(calc "$ms / 1000")
  if [ $((k % 2)) = 0 ]; then
    "$bin" library query --count "$take" --reserve "kill-$k" --library lib.sqlite >/dev/null 2>&1 & pid=$!
  else
    printf '[book]\ntitle = "kill-%s"\nrules = "none"\n\n[[section]]\nquery = { kind = "sudoku" }\ncount = %s\n' "$k" "$take" >p.toml
    "$bin" book --plan p.toml --library lib.sqlite --out p.pdf --quiet >/dev/null 2>&1 & pid=$!
  fi
  sleep "$delay"; kill -9 $pid 2>/dev/null || true; wait $pid 2>/dev/null || true
  check lib.sqlite; now=$(count lib.sqlite); nused=${now#* }
  if [ "$nused" = "$used" ]; then before=$((before + 1)); elif [ "$nused" = $((used + take)) ]; then after=$((after + 1));
  else echo "FAIL: reservation killed at $ms ms left $nused used (before $used)" >&2; exit 1; fi
  echo "reservation kill $k at $ms ms: used $used -> $nused"
done
echo "reservations: $kills kills, $before left the library as before, $after as after, integrity ok each time"

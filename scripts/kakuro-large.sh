#!/usr/bin/env bash
# Rating time of large easy Kakuro against board size (issue 43): N×N boards tiled from small
# generated puzzles (scripts/kakuro-tile.py), timed with `rate --threads 1` on the JSON line and
# on the same board as .dzn, then `solve` and `explain` on the JSON line; with BEFORE=binary,
# also that build's `rate` on the .dzn (lines over 1 MiB were refused before), cut at TIMEOUT.
#
# Tiles: `generate --rows T --cols T --count 2000 --seed 1` (T = TILE, default 5), those with
# hardest_level <= MAX_LEVEL (default 2): the counter settles them by propagation, so `solve`
# stays linear too. TILE=10 MAX_LEVEL=3 makes boards whose counter must branch in every tile:
# there `solve` (and `rate`'s uniqueness check) costs nodes × board, see the notes of issue 43.
#
# Usage: [BIN=...] [BEFORE=...] [TILE=5] [MAX_LEVEL=2] scripts/kakuro-large.sh [SIZES] [TIMEOUT]
#   SIZES default "100 200 400 600 800 1000", TIMEOUT (seconds) default 60.
case "${1:-}" in -h | --help) sed -n '2,/^set -/{/^#/s/^# \{0,1\}//p}' "$0"; exit 0 ;; esac
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
sizes=${1:-100 200 400 600 800 1000}; limit=${2:-60}
tile=${TILE:-5}; max_level=${MAX_LEVEL:-2}
. "$here/scripts/common.sh"
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
"$bin" --kind kakuro generate --rows "$tile" --cols "$tile" --count 2000 --seed 1 --threads 1 --quiet \
  --out "$tmp/tiles"
# Wall seconds of a command, or ">LIMIT" when it is cut (its output discarded; it must succeed).
timed() {
  local s e rc=0
  s=$(date +%s.%N)
  timeout "$limit" "$@" >/dev/null 2>"$tmp/err" || rc=$?
  e=$(date +%s.%N)
  if [ "$rc" = 124 ]; then echo ">$limit"; elif [ "$rc" != 0 ]; then echo "failed($rc)"; else calc "round($e - $s, 2)"; fi
}
printf '| board | white cells | JSON bytes | grade, steps, hardest level | rate JSON s | rate .dzn s | solve s | explain s |%s\n' \
  "${BEFORE:+ before: rate .dzn s |}"
printf '|---|---|---|---|---|---|---|---|%s\n' "${BEFORE:+---|}"
for n in $sizes; do
  b=$tmp/b$n
  info=$(python3 "$here/scripts/kakuro-tile.py" "$tmp/tiles/puzzles.csv" "$n" "$b" --max-level "$max_level")
  whites=$(echo "$info" | sed -E 's/.* ([0-9]+) white cells.*/\1/')
  bytes=$(wc -c <"$b.json")
  row=$(timeout "$limit" "$bin" --kind kakuro rate --threads 1 "$b.json" 2>/dev/null | sed -n 2p | cut -d, -f2-4 || true)
  r_json=$(timed "$bin" --kind kakuro rate --threads 1 "$b.json")
  r_dzn=$(timed "$bin" --kind kakuro rate --threads 1 "$b.dzn")
  s=$(timed "$bin" --kind kakuro solve --threads 1 "$b.json")
  x=$(timed "$bin" --kind kakuro explain --threads 1 "$b.json")
  before=""
  [ -z "${BEFORE:-}" ] || before=" $(timed "$BEFORE" --kind kakuro rate --threads 1 "$b.dzn") |"
  printf '| %sx%s | %s | %s | %s | %s | %s | %s | %s |%s\n' "$n" "$n" "$whites" "$bytes" "${row:-none}" \
    "$r_json" "$r_dzn" "$s" "$x" "$before"
done

#!/usr/bin/env bash
# Sample pages of printed books, for looking at by eye: for each kind a 100-puzzle book
# (generate --count 100 --seed 1; Kakuro 115 candidates) printed with `book --trim 6x9
# --per-page 2`, and its contents page, first puzzle page and first solution page rendered to
# PNG at 100 dpi (pdftoppm, Debian package poppler-utils, installed when absent) into OUT_DIR.
#
# Usage: scripts/book-samples.sh [OUT_DIR]   (default: docs/book-samples)
case "${1:-}" in -h | --help) sed -n '2,/^set -/{/^#/s/^# \{0,1\}//p}' "$0"; exit 0 ;; esac
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
out=${1:-$here/docs/book-samples}
. "$here/scripts/common.sh"
command -v pdftoppm >/dev/null || { apt-get update -qq && apt-get install -y -qq poppler-utils >/dev/null; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$out"
for kind in sudoku kenken kakuro; do
  count=100; [ "$kind" = kakuro ] && count=115
  "$bin" --kind "$kind" generate --quiet --count "$count" --seed 1 --out "$work/$kind" >/dev/null
  "$bin" book --quiet --in "$work/$kind" --out "$work/$kind.pdf" --trim 6x9 --per-page 2 --title "Sample $kind book"
  pages=$(pdfinfo "$work/$kind.pdf" | awk '/^Pages:/ {print $2}')
  # The first solution page: the solutions take the last pages, 6 a page at 6x9.
  accepted=$(wc -l <"$work/$kind/puzzles.jsonl")
  sol=$(( pages - (accepted + 5) / 6 + 1 ))
  for spec in "contents 1" "puzzles 2" "solutions $sol"; do
    set -- $spec
    pdftoppm -r 100 -png -singlefile -f "$2" -l "$2" "$work/$kind.pdf" "$out/$kind-$1"
  done
  echo "$kind: $accepted puzzles, $pages pages; pages 1, 2 and $sol -> $out/$kind-{contents,puzzles,solutions}.png"
done

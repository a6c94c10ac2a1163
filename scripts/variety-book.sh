#!/usr/bin/env bash
# The example variety book (examples/books/variety.toml), from nothing: generates the runs its
# sections name into OUT_DIR/runs (Sudoku 9×9 easy and medium, killer 9×9 hard, KenKen 6×6,
# Kakuro 10×10; fixed seeds, so the same book every time), then builds its interior and cover
# into OUT_DIR (interior.pdf, cover.pdf). A LANGUAGE (en, de, fr, es) other than the plan's
# builds the same book in that language.
#
# Usage: [BIN=...] [LANGUAGE=de] scripts/variety-book.sh OUT_DIR
case "${1:-}" in -h | --help | "") sed -n '2,/^set -/{/^#/s/^# \{0,1\}//p}' "$0"; [ -n "${1:-}" ]; exit $? ;; esac
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
out=$1
. "$here/scripts/common.sh"
mkdir -p "$out/runs"
gen() { # NAME ARGS...: a run into OUT_DIR/runs/NAME, kept when it is already there
  local name=$1; shift
  [ -f "$out/runs/$name/manifest.json" ] || "$bin" "$@" --quiet --out "$out/runs/$name"
}
gen sudoku generate --quota easy=20,medium=20 --seed 1
gen killer generate --box 3x3 --killer --quota hard=8 --seed 1
gen kenken --kind kenken generate --size 6 --count 16 --seed 1
gen kakuro --kind kakuro generate --rows 10 --cols 10 --count 10 --seed 1
plan=$here/examples/books/variety.toml
if [ -n "${LANGUAGE:-}" ]; then
  # The same plan in another language: a copy in OUT_DIR/plan, with the files it names.
  mkdir -p "$out/plan"
  cp "$here"/examples/books/variety-front.svg "$out/plan/"
  sed "s/^language = .*/language = \"$LANGUAGE\"/" "$plan" >"$out/plan/variety.toml"
  plan=$out/plan/variety.toml
fi
"$bin" book --plan "$plan" --runs "$out/runs" --out "$out/interior.pdf" --cover "$out/cover.pdf"

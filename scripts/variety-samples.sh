#!/usr/bin/env bash
# Sample pages of the example variety book (examples/books/variety.toml), for looking at by
# eye: built by scripts/variety-book.sh in English and German, then its title, copyright and
# contents pages, every page the contents list (how to play, each section's first puzzle page,
# each section's first answer page, notes) and the cover rendered to PNG at 60 dpi (pdftoppm,
# poppler-utils, installed when absent) into OUT_DIR as variety-LANG-NN-what.png.
#
# Usage: [BIN=...] scripts/variety-samples.sh [OUT_DIR]   (default: docs/book-samples)
case "${1:-}" in -h | --help) sed -n '2,/^set -/{/^#/s/^# \{0,1\}//p}' "$0"; exit 0 ;; esac
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
out=${1:-$here/docs/book-samples}
. "$here/scripts/common.sh"
command -v pdftoppm >/dev/null || { apt-get update -qq && apt-get install -y -qq poppler-utils >/dev/null; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$out"
rm -f "$out"/variety-*.png
for lang in en de; do
  BIN=$bin LANGUAGE=$lang "$here/scripts/variety-book.sh" "$work/$lang" >/dev/null 2>&1
  pdf=$work/$lang/interior.pdf
  # (page, name) of the title, copyright and contents pages and of every contents entry.
  python3 - "$pdf" >"$work/$lang.pages" <<'PY'
import re, subprocess, sys, unicodedata
pdf = sys.argv[1]
print(1, "title"); print(2, "copyright"); print(3, "contents")
text = subprocess.run(["pdftotext", "-layout", "-f", "3", "-l", "3", pdf, "-"], capture_output=True, text=True).stdout
for line in text.splitlines()[1:]:
    m = re.match(r"\s*(.+?)\s{2,}(\d+)\s*$", line)
    if m:
        name = unicodedata.normalize("NFKD", m.group(1).split("(")[0].strip().lower().replace("\u00d7", "x"))
        name = re.sub(r"[^a-z0-9]+", "-", name.encode("ascii", "ignore").decode()).strip("-")
        if name:
            print(m.group(2), name)
PY
  while read -r page name; do
    pdftoppm -r 60 -png -singlefile -f "$page" -l "$page" "$pdf" "$out/variety-$lang-$(printf %02d "$page")-$name"
  done <"$work/$lang.pages"
  pdftoppm -r 30 -png -singlefile "$work/$lang/cover.pdf" "$out/variety-$lang-cover"
  echo "$lang: $(wc -l <"$work/$lang.pages") pages and the cover -> $out/variety-$lang-*.png"
done
# One page of each other answer placement, from the English runs.
first_page() { # PDF: the page of the first section's first puzzles (the contents' 5th entry)
  pdftotext -layout -f 3 -l 3 "$1" - | grep -E '\(' | head -1 | awk '{print $NF}'
}
cp "$here/examples/books/variety-front.svg" "$work/"
for answers in back next-page foot separate; do
  # (At the foot a page has room for the answers of 1 or 2 puzzles: KenKen goes 2 a page. The
  # example's answer booklet is under KDP's 24 pages: it is built with rules = "none".)
  extra=
  [ $answers = foot ] && extra='s/^per_page = 4/per_page = 2/'
  [ $answers = separate ] && extra='s/^answers = .*/&\nrules = "none"/'
  sed "s/^answers = .*/answers = \"$answers\"/; $extra" \
    "$here/examples/books/variety.toml" >"$work/$answers.toml"
  "$bin" book --quiet --plan "$work/$answers.toml" --runs "$work/en/runs" --out "$work/$answers.pdf" 2>/dev/null
  first=$(first_page "$work/$answers.pdf")
  case $answers in
    back) page=$(pdftotext -layout -f 3 -l 3 "$work/back.pdf" - | grep -E '^ *Answers' | head -1 | awk '{print $NF}') pdf=$work/back.pdf ;;
    next-page) page=$((first + 1)) pdf=$work/next-page.pdf ;;
    foot) page=$first pdf=$work/foot.pdf ;;
    separate) page=4 pdf=$work/separate-answers.pdf ;;
  esac
  pdftoppm -r 60 -png -singlefile -f "$page" -l "$page" "$pdf" "$out/variety-answers-$answers"
  echo "answers = $answers: page $page of $(basename "$pdf") -> $out/variety-answers-$answers.png"
done

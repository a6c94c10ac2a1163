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
        name = unicodedata.normalize("NFKD", m.group(1).split("(")[0].strip().lower())
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

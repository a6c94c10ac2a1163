#!/usr/bin/env bash
# One grade scale for the Sudoku family (issue 42, Build 1): Tatham's Solo makes FIT puzzles per
# level with the seeds 'CFGdL#fit-L' and FRESH others with 'CFGdL#fresh-L' (kept apart: the fit
# never sees a fresh puzzle), for boxes 2x3 2x4 3x3 3x4 4x4, jigsaw 6 and 9 and X 9 (3x4 takes
# 2/3 of the counts and 4x4 half; 4x4 stops at extreme: Solo needs about 80 s for one 4x4
# unreasonable). Then scripts/fit-family-scale.py rates them with our binary, fits the tables
# jointly (with KrazyDad's 16x16 books) and prints gamma per configuration and pooled, on the
# fresh puzzles, for the new tables and for those built in now. The fitted tables are written to
# OUT_DIR/scale.toml, to copy into crates/sudoku/config/sudoku-family.toml.
# Solo's sets are kept in OUT_DIR and reused when complete (FRESH_SETS=1 remakes them); the
# ratings too (OUT_DIR/rated-*.csv: delete them after a rater change). Installs sgt-puzzles if
# absent. About 4 minutes for Solo's sets at the defaults, then half a minute.
# COMPARE=FILE: start the fit from that config's tables and compare with them, instead of the
# built-in ones (e.g. an older sudoku-family.toml, from `git show
# REV:crates/sudoku/config/sudoku-family.toml`). The coordinate ascent finds a local best, so
# the tables depend on the start: the built-in ones were fitted from the tables before them,
# COMPARE=<(git show fa853c5:crates/sudoku/config/sudoku-family.toml); started from themselves
# the fit moves a little (pooled gamma 0.984 on the fresh seeds, against their 0.989).
# PUZZLE_FACTORY_DATA: the reference data directory (default ../shared/data).
#
# Usage: scripts/family-scale.sh [FIT] [FRESH] [OUT_DIR]    (defaults: 40 30 output/family-scale)
case "${1:-}" in -h | --help) sed -n '2,/^set -/{/^#/s/^# \{0,1\}//p}' "$0"; exit 0 ;; esac
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
fit=${1:-40}; fresh=${2:-30}; out=${3:-$here/output/family-scale}
for v in "$fit" "$fresh"; do
  [[ "$v" =~ ^[0-9]+$ ]] || { echo "family-scale.sh: FIT and FRESH are numbers (see --help)" >&2; exit 2; }
done
. "$here/scripts/common.sh"
ensure_solo
mkdir -p "$out"
out=$(cd "$out" && pwd)

for tag in fit fresh; do
  per=$([ "$tag" = fit ] && echo "$fit" || echo "$fresh")
  for cfg in 2x3 2x4 3x3 6j 9j 3x3x 3x4 4x4; do
    case $cfg in
      3x4) share=0.67; levels="t b i a e u" ;;
      4x4) share=0.5; levels="t b i a e" ;;
      *) share=1; levels="t b i a e u" ;;
    esac
    k=$(calc "max(2, round($per * $share))")
    f=$out/solo-$cfg-$tag.txt
    want=$(( k * $(wc -w <<<"$levels") ))
    if [ -z "${FRESH_SETS:-}" ] && [ -s "$f" ] && [ "$(wc -l <"$f")" -eq "$want" ]; then continue; fi
    : >"$f.part"
    for level in $levels; do
      "$solo" --generate "$k" "${cfg}d${level}#$tag-$level" 2>/dev/null | grep -E '^[0-9]+(x[0-9]+)?[jxk]*:' |
        sed "s/\$/\t$level/" >>"$f.part"
    done
    mv "$f.part" "$f"
    rm -f "$out/rated-$cfg-$tag.csv"
    echo "== $cfg $tag: $k per level" >&2
  done
done
data=${PUZZLE_FACTORY_DATA:-$here/../shared/data}
python3 "$here/scripts/fit-family-scale.py" "$bin" "$out" "$data/sudoku-family/krazydad_hex16.jsonl" "$out/scale.toml"

#!/usr/bin/env bash
# Our Sudoku-family grades beside the Python package `pencilmark` (a C++-backed human-style
# rater), both measured against Tatham's Solo levels (trivial < basic < intermediate < advanced <
# extreme < unreasonable; t b i a e u) and KrazyDad's levels. Configurations as in
# scripts/solo-gamma.sh: 2x3 2x4 3x3 3x4 4x4 6j 9j 3x3x 2x3k 3x3k.
# For each configuration:
#   1. the Solo TEST set SOLO_DIR/solo-CONFIG-test.txt (lines "SOLO_GAME_ID<tab>level"; when
#      absent, sgt-solo makes it into OUT_DIR exactly as solo-gamma.sh would: seeds
#      'PARAMSdL#test-L', 15 per level, 10 for 3x4 and 2x3k, 8 for 4x4 and 3x3k, 4x4 without u),
#      the first PER_LEVEL puzzles of each level;
#   2. every Solo game ID becomes pencilmark's puzzle JSON (scripts/pencilmark_compare.py has the
#      decoder; its docstring describes the ID format). Check: pencilmark's solution of every
#      converted puzzle equals our binary's (`solve -`); any mismatch stops the script;
#   3. pencilmark rates every puzzle (pencilmark.rate, one job, in one process, CPU time per
#      puzzle; a per-puzzle time cap of CAP seconds, a cap hit counts as missing); our binary
#      rates the whole set in one process (`rate -`, --threads 1, CPU time of the child per
#      pass: the set is given OUR_PASSES times, default 10, as pencilmark's times leave out the
#      interpreter's start and import while ours would carry the process start), and
#      each puzzle in a process of its own (wall time incl. process start: our slowest puzzle);
#   4. Goodman-Kruskal gamma (scripts/gamma.py) of the level against pencilmark's band_index and
#      difficulty, and against our steps, grade and hardest level.
# Then KrazyDad from $PUZZLE_FACTORY_DATA/sudoku-family (default ../shared/data/sudoku-family):
# krazydad_hex16.jsonl (16x16, level_rank 1-4) and krazydad_killer.jsonl (9x9 killers,
# level_rank = book number, a weak order). pencilmark rates a seeded sample (HEX per level,
# KILLERS spread over the books; checked against the record's solution and ours), ours the
# sample and all: a "-sample" row for both raters and an "-all" row for ours.
# Prints one table; writes OUT_DIR/table.txt and OUT_DIR/ROW.csv per row (one line a puzzle).
# pencilmark's ratings are cached in OUT_DIR/pm-cache-ROW.jsonl (an interrupted run resumes;
# FRESH=1 starts over). pencilmark takes seconds per killer and up to a minute for some 16x16
# or unreasonable puzzles: the full run takes about an hour.
#
# Usage: scripts/compare-pencilmark.sh [PER_LEVEL] [HEX] [KILLERS] [SOLO_DIR] [OUT_DIR] [CONFIGS...]
#        (defaults: 15 12 100 output/solo-gamma output/compare-pencilmark, all configurations;
#        CONFIGS "none" skips Solo, HEX or KILLERS 0 skips that KrazyDad set)
# Environment:
#   BIN=/path/to/puzzle-factory  use that binary, skip the cargo build (scripts/common.sh)
#   PENCILMARK_PY=/path/to/python  a Python that imports pencilmark; otherwise a venv in
#                                  OUT_DIR/venv gets `pip install --pre pencilmark` (once)
#   CAP=60 (pencilmark's max_seconds: wall-clock seconds of its technique search per puzzle;
#   the rest of its card comes after, so a capped puzzle takes a little longer), SEED=1 (the
#   KrazyDad samples), FRESH=1,
#   PUZZLE_FACTORY_DATA (reference data directory, default ../shared/data)
# Installs sgt-puzzles if a Solo set is missing and sgt-solo is absent.
case "${1:-}" in -h | --help) sed -n '2,/^set -/{/^#/s/^# \{0,1\}//p}' "$0"; exit 0 ;; esac
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
per=${1:-15}; hex=${2:-12}; killers=${3:-100}
solo_dir=${4:-$here/output/solo-gamma}; out=${5:-$here/output/compare-pencilmark}
shift $(( $# < 5 ? $# : 5 ))
configs=${*:-2x3 2x4 3x3 3x4 4x4 6j 9j 3x3x 2x3k 3x3k}
[ "$configs" = none ] && configs=
for v in "$per" "$hex" "$killers" "${CAP:-60}" "${SEED:-1}"; do
  [[ "$v" =~ ^[0-9]+$ ]] || { echo "compare-pencilmark.sh: PER_LEVEL HEX KILLERS CAP SEED are numbers (see --help)" >&2; exit 2; }
done
data=${PUZZLE_FACTORY_DATA:-$here/../shared/data}/sudoku-family
if [ "$hex" -gt 0 ] || [ "$killers" -gt 0 ]; then
  [ -d "$data" ] || { echo "compare-pencilmark.sh: no $data (set PUZZLE_FACTORY_DATA, or HEX=KILLERS=0)" >&2; exit 2; }
fi
. "$here/scripts/common.sh"
mkdir -p "$out"
out=$(cd "$out" && pwd)
[ -n "${FRESH:-}" ] && rm -f "$out"/pm-cache-*.jsonl

# pencilmark: the given Python, else a venv of our own
ensure_pencilmark "$out"

# Solo's TEST sets: SOLO_DIR's, else made into OUT_DIR as solo-gamma.sh makes them
levels_of() { case $1 in 4x4) echo t,b,i,a,e ;; *) echo t,b,i,a,e,u ;; esac; }
share_of() { case $1 in 3x4 | 2x3k) echo 0.67 ;; 4x4 | 3x3k) echo 0.5 ;; *) echo 1 ;; esac; }
: >"$out/sets.txt"
for cfg in $configs; do
  case $cfg in 2x3 | 2x4 | 3x3 | 3x4 | 4x4 | 6j | 9j | 3x3x | 2x3k | 3x3k) ;;
    *) echo "compare-pencilmark.sh: unknown configuration $cfg" >&2; exit 2 ;; esac
  set_file=$solo_dir/solo-$cfg-test.txt
  if [ ! -s "$set_file" ]; then
    set_file=$out/solo-$cfg-test.txt
    nt=$(calc "max(2, round(15 * $(share_of "$cfg")))")
    if [ ! -s "$set_file" ]; then
      ensure_solo
      echo "== $cfg: making the Solo TEST set ($nt per level) into $set_file" >&2
      : >"$set_file.part"
      levels=$(levels_of "$cfg")
      for level in ${levels//,/ }; do
        "$solo" --generate "$nt" "${cfg}d${level}#test-$level" 2>/dev/null | grep -E '^[0-9]+(x[0-9]+)?[jxk]*:' |
          sed "s/\$/\t$level/" >>"$set_file.part"
      done
      mv "$set_file.part" "$set_file"
    fi
  fi
  echo "$cfg $set_file" >>"$out/sets.txt"
done

"$py" "$here/scripts/pencilmark_compare.py" run --bin "$bin" --out "$out" --sets "$out/sets.txt" \
  --per-level "$per" --hex "$hex" --killers "$killers" --data "$data" --cap "${CAP:-60}" --seed "${SEED:-1}"

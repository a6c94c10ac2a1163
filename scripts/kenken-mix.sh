#!/usr/bin/env bash
# The grade mix of each KenKen steering level, per size: the `[target.size.N] mix` rows of
# crates/kenken/config/kenken.toml, which count runs plan their variants with (and quota orders
# start from). Candidates 0..N-1 of master seed SEED are rebuilt at each steering level 0 to 4 as
# a quota order makes them (`replay --steer L --quota`, no grade targeting) and graded with the
# built-in thresholds; prints the TOML tables to paste. Run it again after changing the
# thresholds or the generator's settings or steering levels.
#
# Usage: scripts/kenken-mix.sh [N] [SEED] [SIZES]   (defaults 2000 77 "4 5 6 7 8 9"; two
#        processes at a time; 2,000 per level and size take about 12 min on 2 cores)
#   BIN=/path/to/puzzle-factory   use that build (else the release build of this checkout)
#   CONFIG=FILE                   grade with FILE's settings (`--config`) instead of the built-in
case "${1:-}" in -h | --help) sed -n '2,/^set -/{/^#/s/^# \{0,1\}//p}' "$0"; exit 0 ;; esac
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
n=${1:-2000}; seed=${2:-77}; sizes=${3:-4 5 6 7 8 9}
[[ "$n" =~ ^[1-9][0-9]*$ && "$seed" =~ ^[0-9]+$ ]] || { echo "kenken-mix.sh: N and SEED are numbers (see --help)" >&2; exit 2; }
. "$here/scripts/common.sh"
config=()
[ -n "${CONFIG:-}" ] && config=(--config "$CONFIG")
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
for size in $sizes; do
  echo "[target.size.$size]"
  echo "mix = ["
  for level in 0 1 2 3 4; do
    # One grade per line: the record's grade, or "-" for a rejected candidate.
    seq 0 $((n - 1)) | xargs -P 2 -I{} sh -c \
      '"$0" --kind kenken replay "$@" --size '"$size"' --seed '"$seed"' --steer '"$level"' --quota easy=1 --index {} \
        | head -n 1 | sed -n "s/.*\"grade\":\"\([a-z]*\)\".*/\1/p;/^# candidate/s/.*/-/p"' \
      "$bin" "${config[@]}" > "$tmp/grades"
    python3 - "$tmp/grades" <<'EOF'
import sys
grades = [l.strip() for l in open(sys.argv[1]) if l.strip() in ("easy", "medium", "hard", "expert")]
total = len(grades) or 1
row = [sum(g == name for g in grades) / total for name in ("easy", "medium", "hard", "expert")]
print("    [" + ", ".join("%.3f" % x for x in row) + "],")
EOF
  done
  echo "]"
  echo
done

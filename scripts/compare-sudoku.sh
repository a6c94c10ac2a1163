#!/usr/bin/env bash
# Sudoku speed against the references, on this machine, in one run:
#
# * the uniqueness counter, whole process on the same files with one thread:
#   `puzzle-factory solve --threads 1 --quiet FILE` against examples/sudoku_crate_solve.rs (the
#   `sudoku` crate, a Rust port of JCZSolve, doing the same work and printing the same CSV), on
#   three sets: top1465, the first 10,000 17-clue puzzles and the hardest database (its 2 header
#   lines skipped, the first 81 characters of each line). Each file is repeated so that one run
#   takes about 0.3 s or more; the figure is CPU time (user + sys), median of REPEAT runs (the
#   two programs alternate run by run);
# * graded generation per core against QQWing (`qqwing --generate N --one-line`, installed from
#   Debian when absent): `generate --threads 1`, CPU time, median of REPEAT runs, both programs
#   at the same `--symmetry` (rotate180, our default, then none, QQWing's default).
#
# Ratios above 1 mean puzzle-factory is faster. Reference puzzles come from $PUZZLE_FACTORY_DATA
# or ../shared/data beside the repository.
#
# Usage: scripts/compare-sudoku.sh [REPEAT] [N_OURS] [N_QQWING]
case "${1:-}" in -h | --help) sed -n '2,/^set -/{/^#/s/^# \{0,1\}//p}' "$0"; exit 0 ;; esac
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
repeat=${1:-3}
n_ours=${2:-10000}
n_qq=${3:-300}
data=${PUZZLE_FACTORY_DATA:-$here/../shared/data}/sudoku
. "$here/scripts/common.sh"
cargo build --release --quiet --manifest-path "$here/Cargo.toml" --example sudoku_crate_solve
crate_bin=$here/target/release/examples/sudoku_crate_solve
ensure_qqwing
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT

# CPU seconds (user + sys) of one command and its children, output discarded.
cpu() {
  python3 - "$@" <<'PY'
import resource, subprocess, sys
subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True)
r = resource.getrusage(resource.RUSAGE_CHILDREN)
print(r.ru_utime + r.ru_stime)
PY
}
# The medians of REPEAT runs each of two commands (given as two strings), run alternately (A B A
# B ...) so that a change in the machine's load (another build on a shared machine) weighs on
# both alike instead of on whichever ran second.
alternating() {
  local i a="" b=""
  for i in $(seq "$repeat"); do
    a+="$(eval cpu "$1")"$'\n'
    b+="$(eval cpu "$2")"$'\n'
  done
  echo "$(printf '%s' "$a" | median) $(printf '%s' "$b" | median)"
}
repeat_file() { local i; for i in $(seq "$2"); do cat "$1"; done; }

repeat_file "$data/top1465.txt" 30 >"$tmp/top1465.txt"
repeat_file "$data/sudoku17_first10000.txt" 20 >"$tmp/17clue.txt"
tail -n +3 "$data/HardestDatabase110626.txt" | cut -c1-81 >"$tmp/hardest1.txt"
repeat_file "$tmp/hardest1.txt" 40 >"$tmp/hardest.txt"

printf 'machine: %s cores; CPU time (user+sys), medians of %s runs\n' "$(nproc)" "$repeat"
printf '%-10s %9s %12s %12s %8s\n' set lines ours_s crate_s ratio
for set in top1465 17clue hardest; do
  f=$tmp/$set.txt
  # Same answers first: a faster wrong counter proves nothing.
  "$bin" solve --threads 1 --quiet "$f" >"$tmp/ours.csv"
  "$crate_bin" "$f" >"$tmp/crate.csv"
  cmp -s "$tmp/ours.csv" "$tmp/crate.csv" || { echo "$set: the two programs print different answers" >&2; exit 1; }
  read -r ours crate < <(alternating '"$bin" solve --threads 1 --quiet "$f"' '"$crate_bin" "$f"')
  printf '%-10s %9s %12.3f %12.3f %7.2fx\n' "$set" "$(wc -l <"$f")" "$ours" "$crate" "$(calc "$crate / $ours")"
done

# Both programs at the same clue symmetry: rotate180 (our default; QQWing's default is none)
# and none.
for sym in rotate180 none; do
  read -r qq_t one_t < <(alternating 'qqwing --generate "$n_qq" --one-line --symmetry '$sym \
    '"$bin" generate --count "$n_ours" --seed 1 --threads 1 --quiet --force --symmetry '$sym' --out "$tmp/book"')
  qq_rate=$(calc "$n_qq / $qq_t")
  one_rate=$(calc "$n_ours / $one_t")
  printf '%s: qqwing --generate %s --one-line:        %8.2f s  %8.0f puzzles/s\n' "$sym" "$n_qq" "$qq_t" "$qq_rate"
  printf '%s: puzzle-factory --threads 1, %s graded: %8.2f s  %8.0f puzzles/s\n' "$sym" "$n_ours" "$one_t" "$one_rate"
  printf '%s: graded generation per core, ours/qqwing: %.1fx\n' "$sym" "$(calc "$one_rate / $qq_rate")"
done

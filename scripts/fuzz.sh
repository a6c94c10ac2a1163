#!/usr/bin/env bash
# Fuzz every parser with many inputs: the tests of tests/fuzz.rs (Sudoku text line, KenKen JSON,
# Keen game ID, Kakuro JSON and .dzn, the calibrate reference line split, the config TOML) run
# with CASES inputs per parser instead of the test suite's few thousand. Prints each parser's
# inputs, panics (and inputs over the time bound) and slowest input, then the totals; exits 1
# if any panic was found.
#
# Usage: scripts/fuzz.sh [CASES]     (default 1000000 per parser; FUZZ_CASES works too)
#        FUZZ_SEED=N scripts/fuzz.sh  another input stream (default 0, the test suite's)
set -euo pipefail
case "${1:-}" in
  -h|--help)
    sed -n '2,9p' "$0" | sed 's/^# \{0,1\}//'
    exit 0 ;;
esac
here=$(cd "$(dirname "$0")/.." && pwd)
cases=${1:-${FUZZ_CASES:-1000000}}
[[ "$cases" =~ ^[0-9]+$ ]] || { echo "fuzz.sh: CASES must be a number, got '$cases' (see --help)" >&2; exit 2; }
log=$(mktemp); trap 'rm -f "$log"' EXIT
start=$(date +%s)
status=0
FUZZ_CASES=$cases cargo test --release --quiet --manifest-path "$here/Cargo.toml" --test suite -- fuzz:: \
  --nocapture --test-threads=2 2>&1 | sed 's/^\.*//' >"$log" || status=$?
secs=$(( $(date +%s) - start ))
grep '^fuzz ' "$log" || true
grep -A12 'panics or slow inputs' "$log" | head -60 || true
awk -v secs="$secs" '/^fuzz / { parsers++; inputs += $3; panics += $5 }
  END { printf "total: %d parsers, %d inputs, %d panics or slow inputs, %d s\n", parsers, inputs, panics, secs }' "$log"
if [ "$status" -ne 0 ]; then
  grep -q '^fuzz ' "$log" || cat "$log"
  exit 1
fi

#!/usr/bin/env bash
# Mutation run over the step formula, the ladder and the grading (src/rate/mod.rs,
# src/rate/assume.rs, src/grade.rs and the threshold-building functions of src/config.rs), as
# configured in .cargo/mutants.toml (files, the fast `mutants` profile, the fast tests).
# Installs cargo-mutants when absent, runs the baseline then one mutant at a time (--jobs 1),
# writes mutants.out/, prints how many mutants were caught, missed, unviable and timed out, and
# lists the missed ones: each must be killed by a test or explained in docs/mutants.md.
# Exits as cargo mutants does: 0 nothing missed, 2 some missed, 3 some timed out, 4 baseline failed.
#
# Usage: scripts/mutants.sh [TIMEOUT_SECONDS] [-- CARGO_MUTANTS_ARGS...]   (default: 120 s per mutant)
#   scripts/mutants.sh 120 -- --list          lists the mutants without building anything
#   scripts/mutants.sh 120 -- --exclude-re config   leaves out the mutants of src/config.rs
case "${1:-}" in -h | --help) sed -n '2,/^set -/{/^#/s/^# \{0,1\}//p}' "$0"; exit 0 ;; esac
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
timeout=${1:-120}
shift $(( $# > 0 ? 1 : 0 ))
[ "${1:-}" = -- ] && shift
cd "$here"
# cargo mutants tests a copy of the tree elsewhere: point the tests at the shared reference data.
export PUZZLE_FACTORY_DATA=${PUZZLE_FACTORY_DATA:-$(cd "$here/.." && pwd)/shared/data}
command -v cargo-mutants >/dev/null || cargo install cargo-mutants --locked

for a in "$@"; do
  case "$a" in --list | --list-files) exec cargo mutants "$@" ;; esac
done

start=$(date +%s)
set +e
cargo mutants --jobs 1 --timeout "$timeout" "$@"
rc=$?
set -e
count() { local n=0; [ -f "mutants.out/$1.txt" ] && n=$(grep -c . "mutants.out/$1.txt" || true); echo "$n"; }
echo
echo "caught $(count caught), missed $(count missed), unviable $(count unviable), timeout $(count timeout)" \
  "in $(( $(date +%s) - start )) s (cargo mutants exit code $rc)"
if [ "$(count missed)" != 0 ]; then
  echo "missed:"
  sed 's/^/  /' mutants.out/missed.txt
fi
exit "$rc"

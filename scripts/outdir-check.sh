#!/usr/bin/env bash
# The output folder as one transaction, tried the hard way:
# 1. Two concurrent runs on one folder: the second must exit 2 at once naming the holder, and the
#    first's book must be byte-identical to a solo run (timing fields of calibration.json aside).
# 2. KILLS runs (seed 6, --force), each killed with kill -9 at a random moment, on even tries
#    over a finished book (seed 5), on odd tries into an absent folder: afterwards the folder must
#    hold the previous book byte-identical, the new book complete, or no book at all (never a
#    mix), and no scratch file may exist beside it except the lock and the staging folder, nor in
#    it but the book's record of its files (.written.json).
#
# Usage: scripts/outdir-check.sh [KILLS] [COUNT]   (defaults: 20 kills, 3000 Sudoku candidates;
#        the concurrent runs make 20 × COUNT so the first is still running when the second starts)
case "${1:-}" in -h | --help) sed -n '2,/^set -/{/^#/s/^# \{0,1\}//p}' "$0"; exit 0 ;; esac
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
kills=${1:-20}
count=${2:-3000}
. "$here/scripts/common.sh"
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT

# A book's bytes, less the wall-clock fields of calibration.json.
digest() {
  local d=$1
  [ -d "$d" ] || { echo none; return; }
  (cd "$d" && for f in $(ls | sort); do
    if [ "$f" = calibration.json ]; then
      python3 -c 'import json,sys; c=json.load(open(sys.argv[1])); c.pop("time_seconds",None); print(json.dumps(c,sort_keys=True))' "$f"
    elif [ "$f" = report.md ]; then grep -v "seconds" "$f" || true
    else cat "$f"; fi | sha256sum | sed "s|-|$f|"
  done) | sha256sum | cut -c1-16
}

echo "== solo runs (references)"
"$bin" generate --seed 5 --count "$count" --quiet --out "$tmp/ref5"
"$bin" generate --seed 6 --count "$count" --quiet --out "$tmp/ref6"
ref5=$(digest "$tmp/ref5"); ref6=$(digest "$tmp/ref6")
echo "seed 5: $ref5   seed 6: $ref6"

echo "== two runs at once on one folder"
big=$((count * 20))
"$bin" generate --seed 5 --count "$big" --quiet --out "$tmp/big5"
bigref=$(digest "$tmp/big5")
"$bin" generate --seed 5 --count "$big" --quiet --out "$tmp/o" & first=$!
for _ in $(seq 1 500); do [ -e "$tmp/.o.staging" ] && break; sleep 0.01; done
set +e
start=$(date +%s.%N)
msg=$("$bin" generate --seed 6 --count "$big" --quiet --out "$tmp/o" 2>&1); code=$?
still=$(kill -0 $first 2>/dev/null && echo yes || echo no)
end=$(date +%s.%N)
set -e
wait $first
echo "second run: exit $code after $(python3 -c "print(f'{$end-$start:.3f}')") s (first still running: $still): $msg"
[ "$code" = 2 ] || { echo "FAIL: second run exited $code"; exit 1; }
[ "$still" = yes ] || { echo "FAIL: the first run had ended before the second started; raise COUNT"; exit 1; }
case "$msg" in *"in use by pid"*) ;; *) echo "FAIL: the second run does not name the holder"; exit 1 ;; esac
got=$(digest "$tmp/o")
[ "$got" = "$bigref" ] && echo "first run's book = solo run: yes" || { echo "FAIL: first book differs"; exit 1; }

echo "== kill -9 at $kills random moments"
cp -r "$tmp/ref5" "$tmp/k"
t0=$(date +%s.%N); "$bin" generate --seed 6 --count "$count" --quiet --out "$tmp/timing"; t1=$(date +%s.%N)
solo=$(python3 -c "print(round($t1 - $t0, 3))")
echo "an uninterrupted run takes ${solo} s"
prev=0 new=0 none=0 bad=0
for i in $(seq 1 "$kills"); do
  rm -rf "$tmp/k"
  if [ $((i % 2)) = 0 ]; then cp -r "$tmp/ref5" "$tmp/k"; fi
  delay=$(python3 -c "import random; print(round(random.uniform(0, $solo * 1.5), 3))")
  "$bin" generate --seed 6 --count "$count" --quiet --force --out "$tmp/k" 2>/dev/null & pid=$!
  sleep "$delay"
  kill -9 $pid 2>/dev/null || true
  wait $pid 2>/dev/null || true
  after=$(digest "$tmp/k")
  stray=$(cd "$tmp" && ls -A | grep -E '^\.k\.' | grep -vE '^\.k\.(lock|staging)$' || true)
  inside=$(ls -A "$tmp/k" 2>/dev/null | grep -E '^\.' | grep -vx '.written.json' || true)
  case "$after" in
    "$ref5") kind="previous book"; prev=$((prev+1)) ;;
    "$ref6") kind="new book"; new=$((new+1)) ;;
    none) kind="no book"; none=$((none+1)) ;;
    *) kind=MIXED; bad=$((bad+1)) ;;
  esac
  if [ -n "$stray$inside" ]; then kind="$kind+STRAY($stray $inside)"; bad=$((bad+1)); fi
  start=$([ $((i % 2)) = 0 ] && echo "over a book" || echo "no folder  ")
  printf 'kill %2d %s at %6.3f s: %s\n' "$i" "$start" "$delay" "$kind"
done
echo "previous book intact: $prev, new book complete: $new, no book: $none, broken: $bad"
[ "$bad" = 0 ] || exit 1

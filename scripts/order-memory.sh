#!/usr/bin/env bash
# Memory and cost of orders: peak RSS of Sudoku runs of SMALL and LARGE candidates (duplicate
# detection is always on; flat memory means the two are within 20 %), the duplicate rate of the
# large run, and the throughput of a run that saves its state for --resume (every 2 s, the
# default; and at every chunk boundary) against one that saves it only at its start, as the
# median of REPEAT runs of THROUGHPUT candidates each.
#
# Usage: scripts/order-memory.sh [SMALL] [LARGE] [THROUGHPUT] [REPEAT]
#        (defaults 10000 1000000 200000 3)
#   KEEP=DIR scripts/order-memory.sh   keeps the large run's book in DIR (e.g. for check-stats.sh)
case "${1:-}" in -h | --help) sed -n '2,/^set -/{/^#/s/^# \{0,1\}//p}' "$0"; exit 0 ;; esac
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
small=${1:-10000}; large=${2:-1000000}; through=${3:-200000}; repeat=${4:-3}
for v in "$small" "$large" "$through" "$repeat"; do
  [[ "$v" =~ ^[0-9]+$ ]] || { echo "order-memory.sh: arguments are numbers (see --help)" >&2; exit 2; }
done
. "$here/scripts/common.sh"
command -v /usr/bin/time >/dev/null || { apt-get update -qq && apt-get install -y -qq time >/dev/null; }
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT

rss() { # rss COUNT: peak RSS in MB and wall seconds of a Sudoku run
  /usr/bin/time -f '%M %e' -o "$tmp/time" "$bin" generate --count "$1" --seed 11 --quiet --force --out "$tmp/rss-$1"
  read -r kb secs <"$tmp/time"
  python3 - "$tmp/rss-$1/calibration.json" "$1" "$kb" "$secs" <<'PY'
import json, sys
c = json.load(open(sys.argv[1]))
n, kb, secs = int(sys.argv[2]), int(sys.argv[3]), float(sys.argv[4])
dup = c["candidates"]["rejected"]["duplicate"]
print(f"{n:>9} candidates: peak RSS {kb / 1024:7.1f} MB, {secs:7.1f} s, "
      f"{c['candidates']['accepted']} accepted, {dup} duplicates ({100 * dup / n:.4f} %)")
print(kb / 1024, file=open(sys.argv[1] + ".rss", "w"))
PY
}
rss "$small"
rss "$large"
if [ -n "${KEEP:-}" ]; then rm -rf "$KEEP"; cp -r "$tmp/rss-$large" "$KEEP"; rm -f "$KEEP/calibration.json.rss"; fi
python3 -c "
a=float(open('$tmp/rss-$small/calibration.json.rss').read()); b=float(open('$tmp/rss-$large/calibration.json.rss').read())
print(f'peak RSS {b:.1f} MB at $large vs {a:.1f} MB at $small: {100*(b-a)/a:+.1f} %')"

timed() { # timed SAVE_EVERY: wall seconds of one run
  printf '[run]\nsave_every = %s\n' "$1" >"$tmp/save.toml"
  local s e
  s=$(date +%s.%N)
  "$bin" generate --count "$through" --seed 12 --quiet --force --out "$tmp/t" --config "$tmp/save.toml"
  e=$(date +%s.%N)
  python3 -c "print($e - $s)"
}
declare -A t
for mode in 86400 2 0; do t[$mode]=""; done
for i in $(seq "$repeat"); do
  for mode in 86400 2 0; do t[$mode]+="$(timed "$mode") "; done
done
base=$(echo "${t[86400]}" | tr ' ' '\n' | grep . | median)
for mode in 86400 2 0; do
  m=$(echo "${t[$mode]}" | tr ' ' '\n' | grep . | median)
  case $mode in 86400) label="state saved at the start only";; 2) label="saved every 2 s (default)";; 0) label="saved every chunk";; esac
  python3 -c "print(f'{\"$label\":32} median {$m:6.2f} s  {$through/$m:9.0f} candidates/s  {100*($m-$base)/$base:+5.1f} %')"
done

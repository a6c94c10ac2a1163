#!/usr/bin/env bash
# Every emitted KenKen puzzle loads in Tatham's Keen and has one solution there:
# `sgt-keen --generate 1 --test-solve '<id>'` must exit 0 for each `keen_id` of a generated book.
# Installs the Debian package sgt-puzzles if it is absent.
#
# Usage: scripts/keen-check.sh [COUNT] [SIZES...]   (default: 200 puzzles each of 6 and 9)
case "${1:-}" in -h | --help) sed -n '2,/^set -/{/^#/s/^# \{0,1\}//p}' "$0"; exit 0 ;; esac
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
count=${1:-200}; shift || true
sizes=${*:-6 9}
. "$here/scripts/common.sh"
ensure_keen
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
status=0
for size in $sizes; do
  "$bin" --kind kenken generate --size "$size" --count "$count" --seed 2024 --quiet --out "$tmp/$size"
  python3 -c "import csv,sys; [print(r['keen_id']) for r in csv.DictReader(open(sys.argv[1]))]" "$tmp/$size/puzzles.csv" > "$tmp/ids"
  ok=0; bad=0
  while read -r id; do
    if "$keen" --generate 1 --test-solve "$id" >/dev/null 2>&1; then ok=$((ok+1)); else bad=$((bad+1)); echo "  rejected by Keen: $id"; fi
  done < "$tmp/ids"
  echo "size $size: $ok of $((ok+bad)) keen_ids load and solve uniquely in Keen ($bad rejected)"
  [ "$bad" -eq 0 ] || status=1
done
exit $status

#!/usr/bin/env bash
# Graded 9×9 KenKen per second per core: puzzle-factory against Tatham's Keen (`sgt-keen
# --generate N 9dn` and `9dh`, one core each), on this machine in one run; medians of REPEAT.
# Also prints our grade distribution, rejections and repairs. Installs sgt-puzzles if absent.
#
# Usage: scripts/compare-keen.sh [N_OURS] [N_KEEN] [REPEAT] [SIZE]
case "${1:-}" in -h | --help) sed -n '2,/^set -/{/^#/s/^# \{0,1\}//p}' "$0"; exit 0 ;; esac
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
n_ours=${1:-1000}; n_keen=${2:-40}; repeat=${3:-3}; size=${4:-9}
. "$here/scripts/common.sh"
ensure_keen
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
dn=(); dh=(); ours=()
for i in $(seq "$repeat"); do
  dn+=("$(secs "$keen" --generate "$n_keen" "${size}dn#cmp$i")")
  dh+=("$(secs "$keen" --generate "$n_keen" "${size}dh#cmp$i")")
  ours+=("$(secs "$bin" --kind kenken generate --size "$size" --count "$n_ours" --seed "$i" --threads 1 --quiet --force --out "$tmp/b")")
done
dn_rate=$(calc "$n_keen / $(printf '%s\n' "${dn[@]}" | median)")
dh_rate=$(calc "$n_keen / $(printf '%s\n' "${dh[@]}" | median)")
our_rate=$(calc "$n_ours / $(printf '%s\n' "${ours[@]}" | median)")
printf 'sgt-keen %sdn: %8.1f puzzles/s (1 core)\n' "$size" "$dn_rate"
printf 'sgt-keen %sdh: %8.1f puzzles/s (1 core)\n' "$size" "$dh_rate"
printf 'puzzle-factory --threads 1, %sx%s graded: %8.1f puzzles/s per core\n' "$size" "$size" "$our_rate"
printf 'ratio vs %sdn: %.1fx   vs %sdh: %.1fx\n' "$size" "$(calc "$our_rate / $dn_rate")" "$size" "$(calc "$our_rate / $dh_rate")"
python3 - "$tmp/b/calibration.json" <<'PY'
import json, sys
c = json.load(open(sys.argv[1]))
print("candidates:", c["candidates"])
print("grades:", {g: v["count"] for g, v in c["grades"].items()})
print("hardest level:", c["all"]["hardest_level"])
PY

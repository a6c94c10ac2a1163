#!/usr/bin/env bash
# Unique graded Kakuro per second per core (`--threads 1`, accepted puzzles over wall time, as
# recorded in calibration.json), medians of REPEAT runs with different seeds, at 8×10, 15×15
# and 30×30; then, for the last 8×10 run, the grade distribution, `white_per_run` and its
# adjusted form (quartiles and band labels), hardest levels, rejections and repairs.
# No outside Kakuro generator exists to compare with (see issue 4).
#
# Usage: scripts/kakuro-speed.sh [N_8x10] [N_15x15] [N_30x30] [REPEAT]
case "${1:-}" in -h | --help) sed -n '2,/^set -/{/^#/s/^# \{0,1\}//p}' "$0"; exit 0 ;; esac
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
n8=${1:-3000}; n15=${2:-100}; n30=${3:-3}; repeat=${4:-3}
. "$here/scripts/common.sh"
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
rate() { python3 -c "import json,sys; c=json.load(open(sys.argv[1])); print(c['candidates']['accepted']/c['time_seconds']['wall'])" "$1/calibration.json"; }
run() { # rows cols count seed
  "$bin" --kind kakuro generate --rows "$1" --cols "$2" --count "$3" --seed "$4" --threads 1 --quiet --force --out "$tmp/k$1x$2"
  rate "$tmp/k$1x$2"
}
for size in "8 10 $n8 $repeat" "15 15 $n15 $repeat" "30 30 $n30 1"; do
  [ "${size#* * }" != "0 1" ] || continue
  set -- $size
  rates=()
  for i in $(seq "$4"); do rates+=("$(run "$1" "$2" "$3" "$i")"); done
  printf '%sx%s: %s candidates per run, accepted/s per core: %s  (median %.2f)\n' "$1" "$2" "$3" \
    "$(printf '%.2f ' "${rates[@]}")" "$(printf '%s\n' "${rates[@]}" | median)"
  python3 - "$tmp/k$1x$2" <<'PY'
import csv, json, statistics, sys
d = sys.argv[1]
c = json.load(open(f"{d}/calibration.json"))
cand = c["candidates"]
print(f"  tried {cand['tried']}, accepted {cand['accepted']}, rejected {cand['rejected']}, "
      f"repaired {cand['repaired']} ({cand['repairs']} repairs, {cand['repairs'] / max(cand['accepted'], 1):.1f} per accepted)")
print("  grades:", {g: v["count"] for g, v in c["grades"].items()}, " hardest level:", c["all"]["hardest_level"])
rows = list(csv.DictReader(open(f"{d}/puzzles.csv")))
if rows:
    for k in ["steps", "white_cells", "runs", "white_per_run", "white_per_run_adjusted"]:
        v = sorted(float(r[k]) for r in rows)
        q = statistics.quantiles(v, n=4) if len(v) > 1 else [v[0]] * 3
        print(f"  {k}: min {v[0]:g}  quartiles {q[0]:.4g} {q[1]:.4g} {q[2]:.4g}  max {v[-1]:g}")
PY
done

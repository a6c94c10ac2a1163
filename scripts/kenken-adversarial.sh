#!/usr/bin/env bash
# KenKen puzzles built to be hard on the counter, and how long `solve` takes on each.
# Sets, COUNT puzzles each at sizes 9 to 12 (seed 1):
#   plus      generated puzzles of the default settings with every cage turned into a sum of
#             its solution digits (givens stay): sums admit the most tuples, and the puzzle may
#             have several solutions;
#   large     cages up to 7 cells, mostly 3 to 5, and no givens ([generate] max_cage = 7,
#             one_cell_share = 0): generated, unique;
#   broken    generated puzzles of the default settings with the largest sum or product cage's
#             target raised by one: mostly no solution at all, which the search must exhaust.
# For each puzzle, `solve` runs alone with a time limit of LIMIT seconds (default 120); the
# table shows per set and size the median and slowest time, and how many ended `undecided`
# (the node budget) or hit the limit. BIN=path compares another build of the program.
#
# Usage: scripts/kenken-adversarial.sh [COUNT] [OUT_DIR]   (defaults: 10, output/kenken-adversarial)
case "${1:-}" in -h | --help) sed -n '2,/^set -/{/^#/s/^# \{0,1\}//p}' "$0"; exit 0 ;; esac
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
count=${1:-10}; out=${2:-$here/output/kenken-adversarial}; limit=${LIMIT:-120}
[[ "$count" =~ ^[0-9]+$ ]] || { echo "kenken-adversarial.sh: COUNT is a number (see --help)" >&2; exit 2; }
. "$here/scripts/common.sh"
run=${BIN:-$bin}
mkdir -p "$out"
printf '[generate]\nmax_cage = 7\none_cell_share = 0.0\ncage_weights = [10.0, 30.0, 30.0, 20.0, 10.0, 5.0]\n' >"$out/large.toml"
for size in 9 10 11 12; do
  # The puzzles are made with this repository's program, so every build is timed on the same.
  "$bin" --kind kenken generate --quiet --force --size "$size" --count "$((count * 3))" --seed 1 \
    --config "$out/large.toml" --out "$out/gen-large-$size" >/dev/null
  "$bin" --kind kenken generate --quiet --force --size "$size" --count "$count" --seed 1 --out "$out/gen-plain-$size" >/dev/null
  python3 - "$out" "$size" "$count" <<'PY'
import json, sys
out, size, count = sys.argv[1], sys.argv[2], int(sys.argv[3])
def puzzles(name):
    return [json.loads(l)["puzzle"] for l in open(f"{out}/gen-{name}-{size}/puzzles.jsonl")][:count]
with open(f"{out}/plus-{size}.txt", "w") as f:
    for line in list(open(f"{out}/gen-plain-{size}/puzzles.jsonl"))[:count]:
        rec = json.loads(line)
        p, sol, n = rec["puzzle"], rec["solution"], int(size)
        for c in p["cages"]:
            if len(c["cells"]) > 1:
                c["op"], c["target"] = "+", sum(sol[r][col] for r, col in c["cells"])
        f.write(json.dumps(p) + "\n")
with open(f"{out}/large-{size}.txt", "w") as f:
    for p in puzzles("large"):
        f.write(json.dumps(p) + "\n")
with open(f"{out}/broken-{size}.txt", "w") as f:
    for p in puzzles("plain"):
        for c in sorted(p["cages"], key=lambda c: -len(c["cells"])):
            if c["op"] in "+*" and len(c["cells"]) >= 3:
                c["target"] += 1
                break
        f.write(json.dumps(p) + "\n")
PY
done
printf '%-8s %4s %5s %10s %10s %9s %8s\n' set size n median_s slowest_s undecided timeout
for set in plus large broken; do
  for size in 9 10 11 12; do
    times=()
    und=0; tout=0; n=0
    while IFS= read -r line; do
      n=$((n + 1))
      start=$(date +%s.%N)
      res=$(printf '%s\n' "$line" | timeout "$limit" "$run" --kind kenken solve --threads 1 - 2>&1 || true)
      end=$(date +%s.%N)
      t=$(echo "$end - $start" | bc)
      grep -q undecided <<<"$res" && und=$((und + 1))
      [ "$(echo "$t >= $limit" | bc)" = 1 ] && tout=$((tout + 1))
      times+=("$t")
    done <"$out/$set-$size.txt"
    [ "$n" -gt 0 ] || continue
    sorted=$(printf '%s\n' "${times[@]}" | sort -g)
    median=$(sed -n "$(((n + 1) / 2))p" <<<"$sorted")
    slowest=$(tail -1 <<<"$sorted")
    printf '%-8s %4s %5s %10.3f %10.3f %9s %8s\n' "$set" "$size" "$n" "$median" "$slowest" "$und" "$tout"
  done
done

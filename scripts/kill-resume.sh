#!/usr/bin/env bash
# Kill a run at random moments and resume it: the finished book must equal an uninterrupted
# run's byte for byte (calibration.json apart from its times). KILLS times in a row the run is
# killed with kill -9 after a random delay, then continued with `generate --resume`; then the
# same with SIGINT and SIGTERM (exit 130 expected, then --resume). Prints one line per kill and
# a summary; exits 1 on any difference.
#
# Usage: scripts/kill-resume.sh [KILLS] [-- GENERATE_ARGS...]
#   default KILLS 20, default run: --kind kenken --size 9 --seed 4
#            --quota easy=40,medium=40,hard=40,expert=40
#   e.g. scripts/kill-resume.sh 10 -- --kind sudoku --count 300000 --seed 7
case "${1:-}" in -h | --help) sed -n '2,/^set -/{/^#/s/^# \{0,1\}//p}' "$0"; exit 0 ;; esac
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
kills=${1:-20}
shift $(( $# > 0 ? 1 : 0 ))
[ "${1:-}" = -- ] && shift
args=("$@")
[ ${#args[@]} -eq 0 ] && args=(--kind kenken --size 9 --seed 4 --quota easy=40,medium=40,hard=40,expert=40)
[[ "$kills" =~ ^[0-9]+$ ]] || { echo "kill-resume.sh: KILLS must be a number (see --help)" >&2; exit 2; }

bin=$here/target/release/puzzle-factory
cargo build --release --quiet --manifest-path "$here/Cargo.toml"
work=$(mktemp -d); trap 'rm -rf "$work"' EXIT

same() { # same DIR_A DIR_B: book files equal, calibration.json equal without time_seconds
  local a=$1 b=$2 f
  [ "$(ls "$a")" = "$(ls "$b")" ] || { echo "  files differ: $(ls "$a" | tr '\n' ' ') vs $(ls "$b" | tr '\n' ' ')"; return 1; }
  for f in "$a"/*; do
    case "$(basename "$f")" in
      calibration.json)
        python3 - "$f" "$b/calibration.json" <<'EOF' || return 1
import json, sys
a, b = (json.load(open(p)) for p in sys.argv[1:3])
for c in (a, b):
    c.pop("time_seconds", None)
if a != b:
    print("  calibration.json differs beyond its times"); sys.exit(1)
EOF
        ;;
      report.md | *.svg) ;;
      *) cmp -s "$f" "$b/$(basename "$f")" || { echo "  $(basename "$f") differs"; return 1; } ;;
    esac
  done
}

start=$(date +%s.%N)
"$bin" generate --quiet --out "$work/whole" "${args[@]}" || [ $? -eq 3 ]
whole=$(python3 -c "print($(date +%s.%N) - $start)")
printf 'uninterrupted run: %.1f s\n' "$whole"

failures=0
resumes=0
trial() { # trial SIGNAL N
  local sig=$1 n=$2 out="$work/cut-$1-$2" rc delay
  delay=$(python3 -c "import random; print(round(random.uniform(0.05, max(0.1, $whole * 0.9)), 2))")
  "$bin" generate --quiet --out "$out" "${args[@]}" 2>"$work/err" &
  local pid=$!
  sleep "$delay"
  kill -s "$sig" "$pid" 2>/dev/null || true
  set +e; wait "$pid" 2>/dev/null; rc=$?; set -e
  local steps=0
  # Resume until finished (a resume may itself be killed in later rounds; here it runs through).
  while [ -d "$(dirname "$out")/.$(basename "$out").staging" ] || [ ! -d "$out" ]; do
    set +e; "$bin" generate --quiet --resume --out "$out" "${args[@]}" 2>>"$work/err"; local r=$?; set -e
    steps=$((steps + 1)); resumes=$((resumes + 1))
    [ $r -eq 0 ] || [ $r -eq 3 ] || { echo "  resume exit $r: $(tail -2 "$work/err")"; break; }
    [ $steps -lt 3 ] || break
  done
  local stray
  stray=$(ls -A "$work" | grep -c "^\.cut-$sig-$n\.staging" || true)
  if same "$work/whole" "$out" && [ "$stray" -eq 0 ]; then
    printf '%-7s %2d: killed after %5.2f s (exit %3d), %d resume(s): identical\n' "$sig" "$n" "$delay" "$rc" "$steps"
  else
    printf '%-7s %2d: killed after %5.2f s (exit %3d): DIFFERENT or stray staging (%d)\n' "$sig" "$n" "$delay" "$rc" "$stray"
    failures=$((failures + 1))
  fi
  if [ "$sig" != KILL ] && [ "$rc" -ne 130 ] && [ "$rc" -ne 0 ] && [ "$rc" -ne 3 ]; then
    echo "  expected exit 130 after SIG$sig, got $rc"; failures=$((failures + 1))
  fi
  rm -rf "$out"
}
for i in $(seq 1 "$kills"); do trial KILL "$i"; done
for i in 1 2 3; do trial INT "$i"; trial TERM "$i"; done
echo "total: $((kills + 6)) interrupted runs, $resumes resumes, $failures different"
[ "$failures" -eq 0 ]

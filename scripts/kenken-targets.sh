#!/usr/bin/env bash
# KenKen against Tatham's Keen, the speed targets and the grade agreement, in one run, for this
# build and (BEFORE=) an older one:
#   1. graded 9×9 KenKen per CPU second (`generate --size 9 --count N_GRADED`, one thread, the
#      default grade targeting) against `sgt-keen --generate N_KEEN 9dn` and `9dh`;
#   2. an order of QUOTA per grade at 6×6 and 9×9 (`generate --quota easy=Q,...,expert=Q`, one
#      thread) against Keen making QUOTA at each of its levels e, n, h, x (CPU seconds summed);
#   3. gamma of our grade against Keen's five levels on GAMMA puzzles per level at 6×6 and 9×9
#      (Keen's seeds `6de#gamma` ...; rated by each build).
# CPU seconds (user + system), medians of REPEAT runs. Installs sgt-puzzles when absent.
#
# Usage: scripts/kenken-targets.sh [N_GRADED] [N_KEEN] [QUOTA] [REPEAT] [GAMMA]
#        (defaults 1000 40 100 3 20)
#   BEFORE=/path/to/an/older/puzzle-factory   measure that build too, beside this one
case "${1:-}" in -h | --help) sed -n '2,/^set -/{/^#/s/^# \{0,1\}//p}' "$0"; exit 0 ;; esac
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
n_graded=${1:-1000}; n_keen=${2:-40}; quota=${3:-100}; repeat=${4:-3}; n_gamma=${5:-20}
for v in "$n_graded" "$n_keen" "$quota" "$repeat" "$n_gamma"; do
  [[ "$v" =~ ^[1-9][0-9]*$ ]] || { echo "kenken-targets.sh: the arguments are positive numbers (see --help)" >&2; exit 2; }
done
. "$here/scripts/common.sh"
ensure_keen
builds=("now=$bin")
if [ -n "${BEFORE:-}" ]; then
  [ -x "$BEFORE" ] || { echo "BEFORE=$BEFORE is not an executable" >&2; exit 2; }
  builds=("before=$BEFORE" "${builds[@]}")
fi
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
# cpu CMD...: the CPU seconds (user + system) CMD took, its output discarded. From the
# kernel's microsecond counts (wait4), not time(1)'s hundredths: a 6x6 order takes 0.1 s.
cpu() {
  python3 -c 'import os, sys
pid = os.fork()
if pid == 0:
    fd = os.open(os.devnull, os.O_WRONLY)
    os.dup2(fd, 1)
    os.dup2(fd, 2)
    os.execvp(sys.argv[1], sys.argv[1:])
_, _, r = os.wait4(pid, 0)
print("%.4f" % (r.ru_utime + r.ru_stime))' "$@"
}
med() { local f=$1; shift; local xs=(); for i in $(seq "$repeat"); do xs+=("$("$f" "$i" "$@")"); done; printf '%s\n' "${xs[@]}" | median; }

keen_graded() { cpu "$keen" --generate "$n_keen" "9d$2#targets$1"; }
dn=$(med keen_graded n); dh=$(med keen_graded h)
keen_rate() { calc "$n_keen / $1"; }
echo "== 1. graded 9x9, puzzles per CPU second (medians of $repeat)"
printf '%-28s %9.1f /s\n' "sgt-keen 9dn" "$(keen_rate "$dn")" "sgt-keen 9dh" "$(keen_rate "$dh")"
for b in "${builds[@]}"; do
  name=${b%%=*}; exe=${b#*=}
  ours_graded() { cpu "$exe" --kind kenken generate --size 9 --count "$n_graded" --seed "$1" --threads 1 --quiet --force --out "$tmp/g"; }
  t=$(med ours_graded)
  rate=$(calc "$n_graded / $t")
  printf '%-28s %9.1f /s   %5.1fx 9dn   %5.1fx 9dh\n' "puzzle-factory ($name)" "$rate" \
    "$(calc "$rate / $(keen_rate "$dn")")" "$(calc "$rate / $(keen_rate "$dh")")"
done

echo "== 2. $quota per grade, CPU seconds (medians of $repeat)"
for size in 6 9; do
  keen_level() { cpu "$keen" --generate "$quota" "${size}d$2#quota$1"; }
  total=0
  for l in e n h x; do
    t=$(med keen_level "$l"); total=$(calc "$total + $t")
    printf '  sgt-keen %sd%s %7.3f s\n' "$size" "$l" "$t"
  done
  printf '%-28s %9.3f s\n' "sgt-keen ${size}x${size} e+n+h+x" "$total"
  for b in "${builds[@]}"; do
    name=${b%%=*}; exe=${b#*=}
    ours_quota() {
      cpu "$exe" --kind kenken generate --size "$size" --quota "easy=$quota,medium=$quota,hard=$quota,expert=$quota" \
        --seed "$1" --threads 1 --quiet --force --out "$tmp/q"
    }
    t=$(med ours_quota)
    printf '%-28s %9.3f s   %5.1fx\n' "puzzle-factory ($name) ${size}x${size}" "$t" "$(calc "$total / $t")"
  done
done

echo "== 3. grade gamma against Keen's levels e<n<h<x<u ($n_gamma per level)"
for size in 6 9; do
  : >"$tmp/ids"; : >"$tmp/labels"
  for level in e n h x u; do
    "$keen" --generate "$n_gamma" "${size}d${level}#gamma" 2>/dev/null | grep -E '^[0-9]+:' >"$tmp/level" || true
    cat "$tmp/level" >>"$tmp/ids"
    sed "s/.*/$level/" "$tmp/level" >>"$tmp/labels"
  done
  for b in "${builds[@]}"; do
    name=${b%%=*}; exe=${b#*=}
    "$exe" --kind kenken rate --quiet "$tmp/ids" | cut -d, -f2 >"$tmp/ours.csv"
    printf '%-28s ' "puzzle-factory ($name) ${size}x${size}"
    python3 "$here/scripts/gamma.py" "$tmp/labels" e,n,h,x,u "$tmp/ours.csv" | head -1
  done
done

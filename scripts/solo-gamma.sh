#!/usr/bin/env bash
# The Sudoku family's grades against Tatham's Solo levels (trivial < basic < intermediate <
# advanced < extreme < unreasonable; Solo's letters t b i a e u), one configuration at a time:
# classic boxes 2x3 2x4 3x3 3x4 4x4, jigsaw 6 and 9 (6j 9j), X 9 (3x3x), killer 6, 8 and 9 (2x3k
# 2x4k 3x3k), killer X 9 (3x3xk) and jigsaw killer 9 (9jk); the default set leaves out the
# last three (Solo needs about 10 s per puzzle for them). Solo makes only the level asked for (it regenerates until its solver needs exactly that
# level), so every label is exact. Solo has no 2x2 levels: it caps 2x2 (and jigsaw below 4) at
# trivial, so 2x2 is not measured.
# For each configuration:
#   1. Solo makes FIT puzzles per level with the seeds 'PARAMSdL#fit-L' and TEST more per level
#      with the seeds 'PARAMSdL#test-L' (kept apart: the fit never sees a test puzzle);
#   2. `calibrate --floor --holdout 0 --seed 1` fits k1<k2<k3 and the hardest-level floor on the
#      FIT puzzles (three cut points maximising Kendall's tau-b over Solo's levels, then the
#      floor) and writes OUT_DIR/fit-CONFIG.toml;
#   3. our binary rates every TEST puzzle in a process of its own (--threads 1, timed: the time
#      includes the uniqueness check and the process start);
#   4. Goodman-Kruskal gamma of Solo's level against our raw step count, our hardest level, and
#      our grade under three tables: the configuration's own fit, the table for its size (the
#      plain box's fit of this run, else the built-in one), and the built-in [grades]
#      (provisional: the classic 9x9 thresholds). Check: our grade from steps and hardest level
#      equals the binary's (the built-in table it uses: [grades.variant.V] for a jigsaw, X or
#      killer board that has one, else [grades.size.N], else [grades]).
# Prints one table; writes OUT_DIR/sudoku-family-sizes.toml (the [grades.size.N] tables of the
# plain boxes and the [grades.variant.V] tables of the others, to copy into
# crates/sudoku/config/sudoku-family.toml) and OUT_DIR/table.txt.
# Fewer puzzles where Solo is slow: 3x4 and 2x3k take 2/3 of FIT and TEST; 4x4, 3x3k, 2x4k,
# 3x3xk and 9jk half; 4x4 stops at extreme (Solo needs about 80 s for one 4x4 unreasonable).
# Solo's sets are kept in OUT_DIR and reused when they are already complete (FRESH=1 remakes).
# Installs sgt-puzzles if absent.
#
# Usage: scripts/solo-gamma.sh [FIT] [TEST] [OUT_DIR] [CONFIGS...]
#        (defaults: 15 15 output/solo-gamma, the configurations above but 2x4k 3x3xk 9jk)
case "${1:-}" in -h | --help) sed -n '2,/^set -/{/^#/s/^# \{0,1\}//p}' "$0"; exit 0 ;; esac
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
fit=${1:-15}; test=${2:-15}; out=${3:-$here/output/solo-gamma}; shift $(( $# < 3 ? $# : 3 ))
configs=${*:-2x3 2x4 3x3 3x4 4x4 6j 9j 3x3x 2x3k 3x3k}
for v in "$fit" "$test"; do
  [[ "$v" =~ ^[0-9]+$ ]] || { echo "solo-gamma.sh: FIT and TEST are numbers (see --help)" >&2; exit 2; }
done
. "$here/scripts/common.sh"
ensure_solo
mkdir -p "$out"
out=$(cd "$out" && pwd)

# configuration: symbols n, Solo's levels, share of FIT/TEST, the plain box of its size, the
# variant's table name (- for a plain box)
spec() {
  case $1 in
    2x3) echo "6 t,b,i,a,e,u 1 2x3 -" ;;
    2x4) echo "8 t,b,i,a,e,u 1 2x4 -" ;;
    3x3) echo "9 t,b,i,a,e,u 1 3x3 -" ;;
    3x4) echo "12 t,b,i,a,e,u 0.67 3x4 -" ;;
    4x4) echo "16 t,b,i,a,e 0.5 4x4 -" ;;
    6j) echo "6 t,b,i,a,e,u 1 2x3 6j" ;;
    9j) echo "9 t,b,i,a,e,u 1 3x3 9j" ;;
    3x3x) echo "9 t,b,i,a,e,u 1 3x3 9x" ;;
    2x3k) echo "6 t,b,i,a,e,u 0.67 2x3 6k" ;;
    3x3k) echo "9 t,b,i,a,e,u 0.5 3x3 9k" ;;
    2x4k) echo "8 t,b,i,a,e,u 0.5 2x4 8k" ;;
    3x3xk) echo "9 t,b,i,a,e,u 0.5 3x3 9xk" ;;
    9jk) echo "9 t,b,i,a,e,u 0.5 3x3 9jk" ;;
    *) echo "solo-gamma.sh: unknown configuration $1" >&2; exit 2 ;;
  esac
}

solo_set() { # solo_set CONFIG LEVELS TAG N FILE: N puzzles per level, "ID<tab>level" lines
  local want=$(( $4 * $(tr ',' '\n' <<<"$2" | wc -l) ))
  if [ -z "${FRESH:-}" ] && [ -s "$5" ] && [ "$(wc -l <"$5")" -eq "$want" ]; then return; fi
  : >"$5.part"
  for level in ${2//,/ }; do
    "$solo" --generate "$4" "${1}d${level}#$3-$level" 2>/dev/null | grep -E '^[0-9]+(x[0-9]+)?[jxk]*:' |
      sed "s/\$/\t$level/" >>"$5.part"
  done
  mv "$5.part" "$5"
}

: >"$out/configs.txt"
for cfg in $configs; do
  read -r n levels share plain variant <<<"$(spec "$cfg")"
  nf=$(calc "max(2, round($fit * $share))"); nt=$(calc "max(2, round($test * $share))")
  s=$(date +%s.%N)
  solo_set "$cfg" "$levels" fit "$nf" "$out/solo-$cfg-fit.txt"
  solo_set "$cfg" "$levels" test "$nt" "$out/solo-$cfg-test.txt"
  echo "== $cfg: Solo sets ready ($nf fit + $nt test per level, $(calc "round($(date +%s.%N) - $s)") s)" >&2
  "$bin" --quiet --kind sudoku calibrate --reference "$out/solo-$cfg-fit.txt" \
    --levels "$levels" --holdout 0 --seed 1 --floor --write-config "$out/fit-$cfg.toml" >"$out/fit-$cfg.log"
  echo "$cfg $n $levels $nf $nt $plain $variant" >>"$out/configs.txt"
done

echo "== rate the test puzzles, one process each (--threads 1), and measure" >&2
python3 - "$out" "$bin" "$here/scripts" "$here/crates/sudoku/config/sudoku-family.toml" <<'PY'
import csv, io, os, statistics, subprocess, sys, time, tomllib
out, binary, scripts, builtin = sys.argv[1:5]
sys.path.insert(0, scripts)
from gamma import gamma, table_grade

def own_table(cfg, n, variant="-"):
    grades = tomllib.load(open(f"{out}/fit-{cfg}.toml", "rb"))["grades"]
    return grades["variant"][variant] if variant != "-" else grades["size"][str(n)]

builtin = tomllib.load(open(builtin, "rb"))["grades"]
order = {"easy": 0, "medium": 1, "hard": 2, "expert": 3}
rows = [line.split() for line in open(f"{out}/configs.txt")]
lines = []
def say(s=""):
    print(s)
    lines.append(s)

say(f"{'config':<6} {'n':>2} {'levels':<12} {'fit/test':>8} {'k1':>8} {'k2':>8} {'k3':>9} {'floor':<9}"
    f" {'γ steps':>7} {'γ grade':>7} {'γ size':>7} {'γ [gr]':>7} {'γ hardest':>9} {'rate ms med/max':>16}  grades e/m/h/x per level (written table)")
sizes, variants = {}, {}
for cfg, n, levels, nf, nt, plain, variant in rows:
    n = int(n)
    rank = {l: i for i, l in enumerate(levels.split(","))}
    own = own_table(cfg, n, variant)
    if variant != "-":
        variants[variant] = (cfg, own)
    # The plain box's fit of this run, else the built-in table of the size.
    size_table = (own_table(plain, n) if os.path.exists(f"{out}/fit-{plain}.toml")
                  else builtin.get("size", {}).get(str(n), builtin))
    if cfg == plain:
        sizes[n] = (cfg, own)
    labels, steps, hardest, ms, binary_grade = [], [], [], [], []
    for line in open(f"{out}/solo-{cfg}-test.txt"):
        puzzle, label = line.rstrip("\n").split("\t")
        t0 = time.perf_counter()
        r = subprocess.run([binary, "--quiet", "--threads", "1", "--kind", "sudoku", "rate", "-"], input=puzzle + "\n", capture_output=True, text=True)
        ms.append(1000 * (time.perf_counter() - t0))
        rec = list(csv.DictReader(io.StringIO(r.stdout)))
        if r.returncode != 0 or len(rec) != 1:
            sys.exit(f"{cfg}: rating {puzzle} failed: {r.stderr.strip()}")
        labels.append(rank[label])
        steps.append(float(rec[0]["steps"]))
        hardest.append(int(rec[0]["hardest_level"]))
        binary_grade.append(order[rec[0]["grade"]])
    # The binary grades by the built-in table of the variant, else of the size, else [grades].
    # (a combination without a table: its parts', killer first, as the binary looks them up)
    letters = variant.lstrip("0123456789") if variant != "-" else ""
    chain = [variant] + ([f"{n}{c}" for c in reversed(letters)] if len(letters) > 1 else []) if letters else []
    used = next((builtin["variant"][v] for v in chain if v in builtin.get("variant", {})), None) \
        or builtin.get("size", {}).get(str(n), builtin)
    assert [table_grade(used, s, h) for s, h in zip(steps, hardest)] == binary_grade, \
        f"{cfg}: our grade function disagrees with the binary's"
    prov = [table_grade(builtin, s, h) for s, h in zip(steps, hardest)]
    g_own = [table_grade(own, s, h) for s, h in zip(steps, hardest)]
    g_size = [table_grade(size_table, s, h) for s, h in zip(steps, hardest)]
    with open(f"{out}/test-{cfg}.csv", "w") as f:
        f.write("label,steps,hardest_level,grade_own,grade_size,grade_provisional,ms\n")
        for row in zip(labels, steps, hardest, g_own, g_size, prov, ms):
            f.write(",".join(f"{v:.1f}" if isinstance(v, float) else str(v) for v in row) + "\n")
    mix = " ".join(
        "/".join(str(sum(1 for l, g in zip(labels, g_own if variant != "-" else g_size) if l == lv and g == k)) for k in range(4))
        for lv in range(len(rank)))
    floor = ",".join(str(f) for f in own["level_floor"])
    say(f"{cfg:<6} {n:>2} {levels:<12} {nf + '/' + nt:>8} {own['k1']:8.1f} {own['k2']:8.1f} {own['k3']:9.1f} [{floor}]".ljust(72)
        + f" {gamma(labels, steps):7.3f} {gamma(labels, g_own):7.3f} {gamma(labels, g_size):7.3f}"
        f" {gamma(labels, prov):7.3f} {gamma(labels, hardest):9.3f}"
        f" {statistics.median(ms):7.1f}/{max(ms):<8.1f}  {mix}")
    med = [statistics.median([s for l, s in zip(labels, steps) if l == lv]) for lv in range(len(rank))]
    say(f"{'':<6} median steps per level: " + " ".join(f"{l}={m:g}" for l, m in zip(levels.split(','), med)))
say()
say("γ steps: Solo's level vs our raw step count; γ grade: vs our grade under the configuration's own fit;")
say("γ size: under the table written for its size n (the plain box's fit); γ [gr]: under the built-in")
say("[grades] (provisional classic 9x9 values); γ hardest: vs our hardest technique level. All on TEST puzzles.")
say("Variants against the plain box of the same size (own fit / plain fit, k1 k2 k3):")
for cfg, n, levels, nf, nt, plain, variant in rows:
    n = int(n)
    if cfg != plain and n in sizes:
        own, p = own_table(cfg, n, variant), sizes[n][1]
        say(f"  {cfg:<5} vs {plain}: " + "  ".join(f"{own[k] / p[k]:.2f}x" for k in ("k1", "k2", "k3"))
            + f"   floor {own['level_floor']} vs {p['level_floor']}")
open(f"{out}/table.txt", "w").write("\n".join(lines) + "\n")
with open(f"{out}/sudoku-family-sizes.toml", "w") as f:
    for n, (cfg, t) in sorted(sizes.items()):
        f.write(f"\n# {n}x{n}: fitted on Solo {cfg} (scripts/solo-gamma.sh)\n[grades.size.{n}]\n"
                f"k1 = {t['k1']:.1f}\nk2 = {t['k2']:.1f}\nk3 = {t['k3']:.1f}\n"
                f"level_floor = [{', '.join(str(x) for x in t['level_floor'])}]\n")
    for v, (cfg, t) in sorted(variants.items()):
        f.write(f"\n# {v}: fitted on Solo {cfg} (scripts/solo-gamma.sh)\n[grades.variant.{v}]\n"
                f"k1 = {t['k1']:.1f}\nk2 = {t['k2']:.1f}\nk3 = {t['k3']:.1f}\n"
                f"level_floor = [{', '.join(str(x) for x in t['level_floor'])}]\n")
print(f"wrote {out}/table.txt and {out}/sudoku-family-sizes.toml")
PY

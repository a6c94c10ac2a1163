#!/usr/bin/env bash
# The Slurm recipe (scripts/cluster/) on a real single-node Slurm cluster started on this machine
# (scripts/cluster/slurm-local.sh; installs slurm-wlm, slurm-client and munge when missing):
# 1. a count run as N shards (a job array) plus a merge job (--dependency=afterok): the merged
#    book must equal a single-machine run with the same seed and count, byte for byte (timing
#    fields of calibration.json, the manifest's list of shards and report.md's time lines aside);
#    prints each shard's wall time, the merge time and the end-to-end time;
# 2. the same run with shard 2 failing (its folder holds a stranger's file): the merge job must
#    be cancelled and no book made; after the folder is cleared, shard 2 alone is re-submitted
#    and then the merge: the book must again equal the single run;
# 3. a KenKen quota order in N shards: the merged books must hold exactly the quota, no
#    canonical key twice.
# Exits 1 on any difference. The cluster is stopped at the end, whatever happens.
#
# Usage: scripts/slurm-local-test.sh [COUNT] [N]    (default 200000 Sudoku candidates, 4 shards)
case "${1:-}" in -h | --help) sed -n '2,/^set -/{/^#/s/^# \{0,1\}//p}' "$0"; exit 0 ;; esac
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
count=${1:-200000}
n=${2:-4}
[[ "$count" =~ ^[0-9]+$ && "$n" =~ ^[1-9][0-9]*$ ]] || { echo "slurm-local-test.sh: COUNT and N are numbers (see --help)" >&2; exit 2; }
. "$here/scripts/common.sh"
cluster=$here/scripts/cluster
export PF=$bin
work=$(mktemp -d)
chmod 755 "$work"   # munged wants o+x on every folder of its socket path
export SL=$work/slurm
trap '"$cluster/slurm-local.sh" stop; rm -rf "$work"' EXIT
now() { date +%s.%N; }
since() { python3 -c "print(f'{$(now) - $1:.1f}')"; }

t=$(now)
"$cluster/slurm-local.sh" start
eval "$("$cluster/slurm-local.sh" env)"
echo "cluster up in $(since "$t") s: $(sinfo -h -o '%P %D node(s), %c CPUs, %t')"

run=(--count "$count" --seed 9)
t=$(now)
"$bin" generate --quiet "${run[@]}" --out "$work/single"
echo "single-machine run (--threads $(nproc)): $(since "$t") s"

# Wait until no job of $1 is queued or running; print its state(s).
wait_job() {
  while [ -n "$(squeue -h -j "$1" 2>/dev/null)" ]; do sleep 0.2; done
  scontrol show job "$1" 2>/dev/null | grep -o 'JobState=[A-Z_]*' | sort | uniq -c | tr -s ' ' | tr '\n' ' '
}
submit() { # submit SHARED ARGS...: the two job ids
  "$cluster/submit-slurm.sh" "$n" "$@" | grep -o 'job[a-z ]* [0-9]*' | grep -o '[0-9]*$' | tr '\n' ' '
  echo
}
same_as_single() { # same_as_single BOOK
  python3 - "$work/single" "$1" <<'PY'
import json, os, sys
a, b = sys.argv[1:3]
bad = []
names = sorted(os.listdir(a))
if names != sorted(os.listdir(b)):
    bad.append(f"files {names} vs {sorted(os.listdir(b))}")
for n in names:
    pa, pb = os.path.join(a, n), os.path.join(b, n)
    if not os.path.exists(pb):
        continue
    if n == "calibration.json":
        x, y = json.load(open(pa)), json.load(open(pb))
        x.pop("time_seconds"); y.pop("time_seconds")
        ok = x == y
    elif n == "manifest.json":
        x, y = json.load(open(pa)), json.load(open(pb))
        ok = x.pop("merged_shards") is None and len(y.pop("merged_shards")) > 0 and x == y
    elif n == "report.md":
        strip = lambda p: [l for l in open(p) if "second" not in l]
        ok = strip(pa) == strip(pb)
    else:
        ok = open(pa, "rb").read() == open(pb, "rb").read()
    if not ok:
        bad.append(n)
print("identical" if not bad else "DIFFERENT: " + ", ".join(bad))
sys.exit(1 if bad else 0)
PY
}
failures=0

echo "== 1. count run: $n shards and a merge"
t=$(now)
read -r array merge < <(submit "$work/a" "${run[@]}")
echo "array $array: $(wait_job "$array")"
echo "merge $merge: $(wait_job "$merge")"
sed 's/^/  merge said: /' "$work/a/pf-merge-$merge.out"
echo "end to end (submit to merged book): $(since "$t") s"
for ((k = 0; k < n; k++)); do
  python3 -c "import json,sys; c=json.load(open(sys.argv[1])); print(f'  shard {sys.argv[2]}: {c[\"candidates\"][\"tried\"]} candidates, wall {c[\"time_seconds\"][\"wall\"]:.1f} s')" \
    "$work/a/shard-$k/calibration.json" "$k"
done
python3 -c "import json,sys; c=json.load(open(sys.argv[1])); print(f'  merge: wall {c[\"time_seconds\"][\"wall\"]:.2f} s')" "$work/a/book/calibration.json"
echo "merged book vs single run: $(same_as_single "$work/a/book" || true)"
same_as_single "$work/a/book" >/dev/null || failures=$((failures + 1))

echo "== 2. shard 2 fails, is re-run alone, then the merge"
mkdir -p "$work/b/shard-2" && echo "not a book" >"$work/b/shard-2/notes.txt"
read -r array merge < <(submit "$work/b" "${run[@]}")
echo "array $array: $(wait_job "$array")"
echo "merge $merge: $(wait_job "$merge")$([ -d "$work/b/book" ] && echo "BOOK MADE" || echo "(no book)")"
[ -d "$work/b/book" ] && failures=$((failures + 1))
grep -h "error" "$work/b"/pf-shard-*_2.out | sed 's/^/  shard 2 said: /' || true
rm "$work/b/shard-2/notes.txt"
rerun=$(sbatch --parsable --chdir="$work/b" --array=2 "$cluster/slurm-shard.sbatch" "$work/b" "$n" "${run[@]}")
echo "shard 2 again (job $rerun): $(wait_job "${rerun%%;*}")"
again=$(sbatch --parsable --chdir="$work/b" "$cluster/slurm-merge.sbatch" "$work/b" "$n")
echo "merge again (job $again): $(wait_job "${again%%;*}")"
sed 's/^/  merge said: /' "$work/b/pf-merge-${again%%;*}.out"
echo "merged book vs single run: $(same_as_single "$work/b/book" || true)"
same_as_single "$work/b/book" >/dev/null || failures=$((failures + 1))

echo "== 3. a KenKen 6x6 quota order in $n shards"
quota=easy=60,medium=30,hard=30,expert=30
read -r array merge < <(submit "$work/c" --kind kenken --size 6 --quota "$quota" --seed 4)
echo "array $array: $(wait_job "$array")"
echo "merge $merge: $(wait_job "$merge")"
python3 - "$work/c/book" "$quota" <<'PY' || failures=$((failures + 1))
import csv, json, sys
book, quota = sys.argv[1], dict(p.split("=") for p in sys.argv[2].split(","))
ok = True
for g in ("easy", "medium", "hard", "expert"):
    rows = list(csv.DictReader(open(f"{book}/book-{g}.csv")))
    want = int(quota.get(g, 0))
    ok &= len(rows) == want
    print(f"  {g}: {len(rows)} of {want}")
keys = [r["canonical"] for r in csv.DictReader(open(f"{book}/puzzles.csv"))]
c = json.load(open(f"{book}/calibration.json"))
print(f"  {len(keys)} puzzles, {len(set(keys))} distinct canonical keys; stopped: {c['order']['stopped']}; "
      f"duplicates dropped: {c['candidates']['rejected']['duplicate']}; in overflow: "
      f"{sum(v['surplus'] for v in c['order']['quota'].values())}")
ok &= len(keys) == len(set(keys)) and c["order"]["stopped"] == "quotas met"
print("  exact quota, no duplicate" if ok else "  WRONG")
sys.exit(0 if ok else 1)
PY
echo "total: $failures failure(s)"
[ "$failures" -eq 0 ]

#!/usr/bin/env bash
# Submit a puzzle-factory run to Slurm as N shards (a job array) and a merge job that starts when
# every shard has succeeded (--dependency=afterok; it is cancelled if a shard fails). Prints the
# two job ids; the book appears in SHARED_DIR/book.
#
# Usage: scripts/cluster/submit-slurm.sh N SHARED_DIR [GENERATE_ARGS...]
#   e.g. scripts/cluster/submit-slurm.sh 8 /shared/pf/kenken9 --kind kenken --size 9 \
#          --quota easy=400,medium=400,hard=200,expert=100 --seed 7
#   PF=/path/to/puzzle-factory   the program (default: puzzle-factory on PATH); it must be the
#                                same build on every node
#   SBATCH_ARGS="--partition=long --time=12:00:00"   extra sbatch options for both jobs
case "${1:-}" in -h | --help | "") sed -n '2,/^set -/{/^#/s/^# \{0,1\}//p}' "$0"; exit 0 ;; esac
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
n=$1; shared=$2; shift 2
[[ "$n" =~ ^[1-9][0-9]*$ ]] || { echo "submit-slurm.sh: N must be a positive number" >&2; exit 2; }
pf=$(command -v "${PF:-puzzle-factory}") || { echo "submit-slurm.sh: ${PF:-puzzle-factory} not found (set PF)" >&2; exit 2; }
export PF=$(cd "$(dirname "$pf")" && pwd)/$(basename "$pf")   # the jobs inherit it
mkdir -p "$shared"
shared=$(cd "$shared" && pwd)
read -r -a extra <<<"${SBATCH_ARGS:-}"
array=$(sbatch --parsable "${extra[@]}" --chdir="$shared" --array="0-$((n - 1))" \
  "$here/slurm-shard.sbatch" "$shared" "$n" "$@")
array=${array%%;*}
merge=$(sbatch --parsable "${extra[@]}" --chdir="$shared" --dependency="afterok:$array" \
  --kill-on-invalid-dep=yes "$here/slurm-merge.sbatch" "$shared" "$n")
merge=${merge%%;*}
echo "shards: job array $array (tasks 0-$((n - 1))) → $shared/shard-K"
echo "merge:  job $merge (after every shard succeeds) → $shared/book"

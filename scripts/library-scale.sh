#!/usr/bin/env bash
# The puzzle library at scale: `library import` of one book folder of M records into an SQLite
# library and into a PostgreSQL library, on one core (`taskset -c 0`), each timed with
# /usr/bin/time -v: records a second, the SQLite file's size and PostgreSQL's
# pg_total_relation_size of the puzzles and their packs per million records.
#
# The folder is made once: N real 9x9 Sudoku (`generate --count N --seed 1 --threads 2`), then
# M records copied from them in turn, each with a fresh id, index and canonical key (the key a
# hash of the new index) and the book's manifest. These copies with fresh keys measure the
# database; they are not puzzles (M records hold only N different grids).
#
# Usage: scripts/library-scale.sh WORK_DIR [M] [N]      (defaults 10000000 20000)
#   PG_URL=postgres://USER:PASSWORD@HOST/DB   a role that may create databases: the import goes
#                                             into a new database pf_scale_<pid>, dropped after
#                                             (KEEP=1 keeps it); unset: SQLite only
#   PG_SERVER_PID=PID    also pin that server (the postmaster, so the import's backend too) to
#                        core 0 during the import; restored to every core after
#   REIMPORT=1           time a second import of the same folder (every record a duplicate)
#   BIN=path             use that binary instead of building one
# WORK_DIR keeps the base book and the big folder between runs; the libraries are removed.
case "${1:-}" in -h | --help | "") sed -n '2,/^set -/{/^#/s/^# \{0,1\}//p}' "$0"; exit 0 ;; esac
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
work=$1; m=${2:-10000000}; n=${3:-20000}
for v in "$m" "$n"; do
  [[ "$v" =~ ^[1-9][0-9]*$ ]] || { echo "library-scale.sh: M and N are positive numbers" >&2; exit 2; }
done
. "$here/scripts/common.sh"
command -v /usr/bin/time >/dev/null || { apt-get update -qq && apt-get install -y -qq time >/dev/null; }
mkdir -p "$work"
base=$work/base-$n big=$work/big-$m

[ -f "$base/puzzles.jsonl" ] || "$bin" generate --count "$n" --seed 1 --threads 2 --quiet --out "$base"
if [ ! -f "$big/manifest.json" ]; then
  "$here/scripts/library-copies.py" "$base" "$big" "$m"
fi
echo "folder $big: $(du -sh "$big" | cut -f1), $m records"

# timed NAME LIBRARY: import the folder on core 0; prints the rate and the figures of time -v.
timed() {
  local what=$1 lib=$2
  taskset -c 0 /usr/bin/time -v -o "$work/time-$what" "$bin" library import --quiet --library "$lib" "$big" \
    >"$work/out-$what"
  local wall user sys rss
  wall=$(awk -F': ' '/Elapsed \(wall clock\)/ {print $2}' "$work/time-$what")
  user=$(awk -F': ' '/User time/ {print $2}' "$work/time-$what")
  sys=$(awk -F': ' '/System time/ {print $2}' "$work/time-$what")
  rss=$(awk -F': ' '/Maximum resident/ {print $2}' "$work/time-$what")
  python3 - "$what" "$m" "$wall" "$user" "$sys" "$rss" "$(cat "$work/out-$what")" <<'PY'
import sys
what, m, wall, user, sys_, rss, out = sys.argv[1:]
parts = [float(p) for p in wall.split(":")]
secs = sum(p * 60 ** i for i, p in enumerate(reversed(parts)))
print(f"{what}: {int(m):,} records in {secs:.1f} s wall = {int(m) / secs:,.0f} records/s; client CPU "
      f"{float(user) + float(sys_):.1f} s (user {user}, sys {sys_}), peak RSS {int(rss) / 1024:.0f} MB")
print(f"  {out}")
PY
}

lib=$work/scale.sqlite
rm -f "$lib" "$lib-wal" "$lib-shm"
timed sqlite "$lib"
[ "${REIMPORT:-}" = 1 ] && timed sqlite-again "$lib"
bytes=$(stat -c %s "$lib")
python3 -c "print(f'sqlite file: {$bytes / 1e9:.2f} GB, {$bytes / 1e6 / ($m / 1e6):.0f} MB per million records')"
rm -f "$lib" "$lib-wal" "$lib-shm"

if [ -n "${PG_URL:-}" ]; then
  db=pf_scale_$$
  psql "$PG_URL" -qAtc "CREATE DATABASE $db"
  url=$(python3 -c "import sys, re; u = sys.argv[1]; print(re.sub(r'^([a-z]+://[^/]*/)[^?]*', r'\g<1>$db', u))" "$PG_URL")
  cleanup() { [ "${KEEP:-}" = 1 ] || psql "$PG_URL" -qAtc "DROP DATABASE IF EXISTS $db WITH (FORCE)"; }
  trap cleanup EXIT
  [ -n "${PG_SERVER_PID:-}" ] && taskset -a -p -c 0 "$PG_SERVER_PID" >/dev/null
  # The server's CPU for the import: its backend's user+system time (a server on this
  # machine), read from /proc every half second until the backend ends.
  backend_cpu() {
    local pid="" t=0
    while [ -z "$pid" ]; do
      sleep 0.2
      pid=$(psql "$PG_URL" -qAtc "SELECT pid FROM pg_stat_activity WHERE datname = '$db' AND \
        application_name = 'puzzle-factory' AND state IS NOT NULL LIMIT 1" 2>/dev/null || true)
    done
    while [ -r "/proc/$pid/stat" ]; do
      t=$(awk '{print $14 + $15}' "/proc/$pid/stat" 2>/dev/null || echo "$t")
      sleep 0.5
    done
    python3 -c "print(f'  server backend CPU {$t / $(getconf CLK_TCK):.1f} s (pid $pid)')"
  }
  backend_cpu & sampler=$!
  timed postgres "$url"
  wait "$sampler"
  if [ "${REIMPORT:-}" = 1 ]; then backend_cpu & sampler=$!; timed postgres-again "$url"; wait "$sampler"; fi
  [ -n "${PG_SERVER_PID:-}" ] && taskset -a -p -c "0-$(($(nproc) - 1))" "$PG_SERVER_PID" >/dev/null
  psql "$url" -qAtF ' ' -c "SELECT pg_total_relation_size('puzzles') + pg_total_relation_size('packs'), \
pg_database_size(current_database())" |
    while read -r rel dbsize; do
      python3 -c "print(f'postgres: puzzles and packs {$rel / 1e9:.2f} GB (pg_total_relation_size: tables, TOAST, \
indexes), {$rel / 1e6 / ($m / 1e6):.0f} MB per million records; whole database {$dbsize / 1e9:.2f} GB')"
    done
fi

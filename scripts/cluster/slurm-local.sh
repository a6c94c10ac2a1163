#!/usr/bin/env bash
# A throwaway single-node Slurm cluster on this machine (no systemd, no cgroups, no network),
# for scripts/slurm-local-test.sh: munged, slurmctld and slurmd as root under $SL
# (default /tmp/slurm-local), ports 6817/6818 on 127.0.0.1. Installs the Debian packages
# slurm-wlm, slurm-client and munge when they are missing.
#
# Usage: scripts/cluster/slurm-local.sh start|stop|env
#   start   bring the cluster up (waits until the node is idle, up to 30 s)
#   stop    cancel every job, stop the daemons, remove $SL
#   env     print the export line that client commands need (eval it)
case "${1:-}" in -h | --help | "") sed -n '2,/^set -/{/^#/s/^# \{0,1\}//p}' "$0"; exit 0 ;; esac
set -euo pipefail
SL=${SL:-/tmp/slurm-local}
HOST=$(hostname -s)

install() {
  command -v slurmctld >/dev/null && command -v munged >/dev/null && command -v sbatch >/dev/null && return
  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq slurm-wlm slurm-client munge >/dev/null
}

config() {
  local mem=$(( $(awk '/MemTotal/{print $2}' /proc/meminfo) / 1024 * 9 / 10 ))
  cat <<CONF
ClusterName=local
SlurmctldHost=${HOST}(127.0.0.1)
SlurmUser=root
SlurmdUser=root
SlurmctldPort=6817
SlurmdPort=6818
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$SL/munge/munge.socket
StateSaveLocation=$SL/state
SlurmdSpoolDir=$SL/spool
SlurmctldPidFile=$SL/slurmctld.pid
SlurmdPidFile=$SL/slurmd.pid
SlurmctldLogFile=$SL/log/slurmctld.log
SlurmdLogFile=$SL/log/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
MpiDefault=none
SwitchType=switch/none
AccountingStorageType=accounting_storage/none
JobAcctGatherType=jobacct_gather/none
JobCompType=jobcomp/none
MailProg=/bin/true
ReturnToService=2
DependencyParameters=kill_invalid_depend
SchedulerParameters=batch_sched_delay=0
NodeName=${HOST} NodeAddr=127.0.0.1 CPUs=$(nproc) RealMemory=$mem State=UNKNOWN
PartitionName=debug Nodes=ALL Default=YES MaxTime=INFINITE State=UP
CONF
}

start() {
  install
  mkdir -p "$SL"/{etc,state,spool,log,munge}
  chmod 755 "$SL" "$SL/munge"   # munged wants o+x on every folder of its socket path
  [ -s "$SL/munge/munge.key" ] || mungekey -c -k "$SL/munge/munge.key"
  munged --key-file="$SL/munge/munge.key" --socket="$SL/munge/munge.socket" \
    --pid-file="$SL/munge/munged.pid" --log-file="$SL/munge/munged.log" --seed-file="$SL/munge/munged.seed"
  config >"$SL/etc/slurm.conf"
  export SLURM_CONF="$SL/etc/slurm.conf"
  setsid slurmctld -D -f "$SLURM_CONF" </dev/null >"$SL/log/slurmctld.out" 2>&1 &
  echo $! >"$SL/slurmctld.bgpid"
  setsid slurmd -D -f "$SLURM_CONF" </dev/null >"$SL/log/slurmd.out" 2>&1 &
  echo $! >"$SL/slurmd.bgpid"
  for _ in $(seq 300); do
    [ "$(sinfo -h -n "$HOST" -o %t 2>/dev/null)" = idle ] && return 0
    sleep 0.1
  done
  echo "slurm did not come up; see $SL/log" >&2
  return 1
}

stop() {
  local p pids=""
  if [ -s "$SL/slurmctld.bgpid" ] && kill -0 "$(cat "$SL/slurmctld.bgpid")" 2>/dev/null; then
    export SLURM_CONF="$SL/etc/slurm.conf"
    squeue -h -o %A 2>/dev/null | xargs -r scancel 2>/dev/null || true
    for _ in $(seq 100); do [ -z "$(squeue -h 2>/dev/null)" ] && break; sleep 0.1; done
  fi
  for f in "$SL/slurmd.bgpid" "$SL/slurmctld.bgpid" "$SL/munge/munged.pid"; do
    [ -s "$f" ] && pids="$pids $(cat "$f")"
  done
  for p in $pids; do kill -TERM "$p" 2>/dev/null || true; done
  for _ in $(seq 100); do
    local alive=0
    for p in $pids; do kill -0 "$p" 2>/dev/null && alive=1; done
    [ $alive = 0 ] && break
    sleep 0.1
  done
  for p in $pids; do kill -0 "$p" 2>/dev/null && kill -KILL "$p" 2>/dev/null || true; done
  rm -rf "$SL"
}

case "$1" in
  start) start ;;
  stop) stop ;;
  env) echo "export SLURM_CONF=$SL/etc/slurm.conf" ;;
  *) echo "usage: $0 start|stop|env" >&2; exit 2 ;;
esac

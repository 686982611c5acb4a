#!/usr/bin/env bash
# A real single-node Slurm on this machine, for the sharded-search test (docs/search.md): the
# Debian 12 packages slurmctld, slurmd, slurm-client and munge (installed with
# --no-install-recommends when missing), run as plain daemons with every file under one directory.
#
#   scripts/slurm-local.sh install      install the packages if missing (exit 3 if that fails)
#   scripts/slurm-local.sh start DIR    write DIR/etc/slurm.conf and cgroup.conf, start munged,
#                                       slurmctld and slurmd, wait for the node; prints the line to
#                                       source (DIR/env: SLURM_CONF)
#   scripts/slurm-local.sh stop DIR     stop the daemons DIR's pid files name
#
# Settings known to work on Debian 12 (Slurm 22.05), in a chroot too: proctrack/linuxproc and
# task/none (no cgroups needed), a cgroup.conf with cgroup/v1 (22.05 initialises cgroups even so),
# batch_sched_delay=0 and an OverSubscribe=FORCE partition so array tasks start at once. The
# daemons reach each other at 127.0.0.1, never by the host's name: a chroot or container whose
# /etc/hosts does not list its hostname (a fresh Debian root) otherwise leaves every job pending.
set -euo pipefail

packages=(slurmctld slurmd slurm-client munge)

install() {
  local missing=()
  for p in "${packages[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
  done
  ((${#missing[@]})) || return 0
  echo "slurm-local: installing ${missing[*]}"
  local sudo=""
  if [ "$(id -u)" -ne 0 ]; then sudo="sudo"; fi
  # The packages' own services must not start (no systemd here; we start our own daemons).
  $sudo apt-get update -qq || true
  if ! DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends \
      "${missing[@]}" >/dev/null; then
    echo "slurm-local: could not install ${missing[*]}" >&2
    exit 3
  fi
}

# A port nobody listens on (bash's /dev/tcp: a minimal Debian root has no python3 or ss).
free_port() {
  local port
  for ((i = 0; i < 100; i++)); do
    port=$((20000 + RANDOM % 40000))
    if ! (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null; then
      echo "$port"
      return 0
    fi
  done
  echo "slurm-local: no free port found" >&2
  return 1
}

wait_for() {  # seconds, command...
  local tries=$(($1 * 10))
  shift
  for ((i = 0; i < tries; i++)); do
    if "$@" >/dev/null 2>&1; then return 0; fi
    sleep 0.1
  done
  return 1
}

start() {
  local dir host cpus user ctld_port slurmd_port
  dir=$(realpath -m "$1")
  mkdir -p "$dir"/{etc,state,spool,munge,log}
  host=$(hostname -s)
  cpus=$(nproc)
  user=$(id -un)
  ctld_port=$(free_port)
  slurmd_port=$(free_port)
  while [ "$slurmd_port" = "$ctld_port" ]; do slurmd_port=$(free_port); done

  # munge: a fresh key and its own socket.
  dd if=/dev/urandom of="$dir/munge/munge.key" bs=1024 count=1 status=none
  chmod 0700 "$dir/munge"
  chmod 0400 "$dir/munge/munge.key"
  munged --force --key-file="$dir/munge/munge.key" --socket="$dir/munge/munge.socket" \
    --pid-file="$dir/munge/munged.pid" --log-file="$dir/log/munged.log" \
    --seed-file="$dir/munge/munged.seed"

  cat >"$dir/etc/slurm.conf" <<CONF
ClusterName=slimpack-local
SlurmctldHost=$host(127.0.0.1)
SlurmctldPort=$ctld_port
SlurmdPort=$slurmd_port
SlurmUser=$user
SlurmdUser=root
AuthType=auth/munge
AuthInfo=socket=$dir/munge/munge.socket
CredType=cred/munge
StateSaveLocation=$dir/state
SlurmdSpoolDir=$dir/spool/%n
SlurmctldPidFile=$dir/slurmctld.pid
SlurmdPidFile=$dir/slurmd.pid
SlurmctldLogFile=$dir/log/slurmctld.log
SlurmdLogFile=$dir/log/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
MpiDefault=none
SchedulerType=sched/builtin
SchedulerParameters=batch_sched_delay=0
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
ReturnToService=2
MinJobAge=300
NodeName=$host NodeAddr=127.0.0.1 NodeHostname=$host CPUs=$cpus State=UNKNOWN
PartitionName=local Nodes=$host Default=YES MaxTime=INFINITE State=UP OverSubscribe=FORCE
CONF
  cat >"$dir/etc/cgroup.conf" <<CONF
CgroupPlugin=cgroup/v1
CgroupAutomount=no
CONF
  echo "export SLURM_CONF=$dir/etc/slurm.conf" >"$dir/env"
  export SLURM_CONF="$dir/etc/slurm.conf"

  slurmctld -f "$SLURM_CONF"
  wait_for 20 scontrol ping || { echo "slurm-local: slurmctld did not answer" >&2; tail -20 "$dir/log/slurmctld.log" >&2; exit 1; }
  slurmd -f "$SLURM_CONF"
  if ! wait_for 30 bash -c "sinfo -h -N -o '%T' | grep -Eq '^(idle|mixed|allocated)'"; then
    echo "slurm-local: the node did not come up" >&2
    sinfo -N >&2 || true
    tail -20 "$dir/log/slurmd.log" >&2 || true
    exit 1
  fi
  echo "slurm-local: up (source $dir/env)"
}

stop_pid_file() {
  local f=$1
  [ -f "$f" ] || return 0
  local pid
  pid=$(cat "$f")
  if [ -n "$pid" ] && kill -0 "$pid" 2>/dev/null; then
    kill "$pid" 2>/dev/null || true
    for ((i = 0; i < 50; i++)); do
      kill -0 "$pid" 2>/dev/null || break
      sleep 0.1
    done
    kill -0 "$pid" 2>/dev/null && kill -9 "$pid" 2>/dev/null || true
  fi
  rm -f "$f"
}

stop() {
  local dir
  dir=$(realpath -m "$1")
  stop_pid_file "$dir/slurmd.pid"
  stop_pid_file "$dir/slurmctld.pid"
  stop_pid_file "$dir/munge/munged.pid"
}

case "${1:-}" in
  install) install ;;
  start) install; start "${2:?usage: slurm-local.sh start DIR}" ;;
  stop) stop "${2:?usage: slurm-local.sh stop DIR}" ;;
  *) echo "usage: slurm-local.sh install | start DIR | stop DIR" >&2; exit 2 ;;
esac

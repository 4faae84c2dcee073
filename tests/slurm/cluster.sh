#!/usr/bin/env bash
# A single-node Slurm cluster for CI, without systemd: munged, slurmctld and slurmd run as
# background processes, every file they write under STATE_DIR, and the node offers 8 fake GPUs
# (Gres=gpu:8 backed by character devices), so `sbatch --gres=gpu:1` jobs run on a machine
# without a GPU. Works with the distribution's packages (apt-get install slurm-wlm munge; tried
# with Debian 12's Slurm 22.05, Ubuntu 24.04's 23.11 and Debian 13's 24.11).
#   tests/slurm/cluster.sh start STATE_DIR   # then: . STATE_DIR/env (SLURM_CONF)
#   tests/slurm/cluster.sh stop STATE_DIR
# start exits 77 when slurm or munge is missing or not run as root, 1 when the cluster fails to
# come up (after printing its logs and stopping what it started). LADDER_SLURM_PORT (6817)
# moves the daemons' ports (slurmd takes the next one); LADDER_SLURM_NO_MKNOD=1 tests the
# fallback devices.
set -euo pipefail
PATH=$PATH:/usr/sbin:/sbin # the daemons live in sbin, which some CI shells leave out

usage() { echo "usage: tests/slurm/cluster.sh start|stop STATE_DIR" >&2; exit 2; }
[ $# -eq 2 ] || usage
action=$1
state=$(realpath -m "$2") # absolute: slurm.conf and the daemons need full paths
gpus=8
host=$(hostname -s 2>/dev/null || uname -n) # the name slurmctld and slurmd take for themselves
host=${host%%.*}

# "name pid start-time" per process: the start time (field 22 of /proc/PID/stat) tells our
# process from a later one that reused its PID.
start_time() { awk '{ sub(/.*\) /, ""); print $20 }' "/proc/$1/stat" 2>/dev/null; }
alive() { # a zombie counts as gone: if no one reaps it, kill -0 would still succeed
  [ "$(start_time "$1")" = "$2" ] && ! grep -q '^State:.*Z' "/proc/$1/status" 2>/dev/null
}

stop_cluster() {
  [ -f "$state/pids" ] || return 0
  # Cancel jobs first: their slurmstepd processes outlive slurmd by design.
  if [ -f "$state/slurm.conf" ] && command -v scancel >/dev/null; then
    SLURM_CONF=$state/slurm.conf timeout 10 scancel --user="$(id -un)" 2>/dev/null || true
    for _ in $(seq 20); do
      [ -z "$(SLURM_CONF=$state/slurm.conf timeout 5 squeue -h -t R,CG 2>/dev/null)" ] && break
      sleep 0.5
    done
  fi
  local lines name pid t
  mapfile -t lines < <(tac "$state/pids") # slurmd, slurmctld, then munged, which they need
  for sig in TERM KILL; do
    for l in "${lines[@]}"; do
      read -r name pid t <<<"$l"
      if alive "$pid" "$t"; then kill "-$sig" "$pid" 2>/dev/null || true; fi
    done
    for _ in $(seq 50); do # up to 5 s, then KILL the rest
      local left=0
      for l in "${lines[@]}"; do read -r name pid t <<<"$l"; if alive "$pid" "$t"; then left=1; fi; done
      [ $left = 0 ] && break
      sleep 0.1
    done
  done
  for l in "${lines[@]}"; do
    read -r name pid t <<<"$l"
    alive "$pid" "$t" && { echo "slurm: $name ($pid) did not exit" >&2; return 1; }
  done
  rm -f "$state/pids"
}

if [ "$action" = stop ]; then stop_cluster; exit; fi
[ "$action" = start ] || usage

missing=()
for c in munged munge slurmctld slurmd sbatch sinfo squeue scontrol scancel; do
  command -v "$c" >/dev/null || missing+=("$c")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "slurm: not installed: ${missing[*]} (Debian/Ubuntu: apt-get install slurm-wlm munge)"
  exit 77
fi
if [ "$(id -u)" != 0 ]; then
  echo "slurm: not installed: root (this cluster's daemons run as root)"
  exit 77
fi
mkdir -p "$state"
if [ -s "$state/pids" ]; then echo "slurm: $state already holds a cluster (stop it first)" >&2; exit 1; fi

ok=0
on_exit() {
  [ $ok = 1 ] && return
  echo "slurm: the cluster did not come up; the logs' tails:" >&2
  local f
  for f in "$state"/log/*; do # a daemon's .out repeats its .log, unless it died before logging
    case $f in *.out) [ -s "${f%.out}.log" ] && continue ;; esac
    [ -s "$f" ] && { echo "== $f" >&2; tail -n 20 "$f" >&2; }
  done
  stop_cluster || true
}
trap on_exit EXIT

# munged checks that every folder above its socket is searchable by all and writable by no one
# else; mktemp -d makes 0700 folders.
chmod 755 "$state"
rm -rf "$state"/{log,ctld,slurmd} # a fresh cluster: no earlier jobs, logs or state
mkdir -p "$state"/{munge,log,run,ctld,slurmd,dev}
chmod 755 "$state"/{munge,log,run,ctld,slurmd,dev}
: >"$state/pids"
record() { echo "$1 $2 $(start_time "$2")" >>"$state/pids"; }

# munge: our own key, socket and files where this munged has the options (0.5.11 and later),
# else the distribution's defaults, shared with any munged already running.
if munged --help 2>&1 | grep -q -- --seed-file; then
  munge_socket=$state/munge/munge.socket.2
  dd if=/dev/urandom of="$state/munge/munge.key" bs=1024 count=1 status=none
  chmod 400 "$state/munge/munge.key"
  munged --foreground --force --socket="$munge_socket" --key-file="$state/munge/munge.key" \
    --pid-file="$state/munge/munged.pid" --seed-file="$state/munge/munged.seed" \
    >"$state/log/munged.log" 2>&1 &
  record munged $!
  munge_mode=own
else
  munge_socket=/run/munge/munge.socket.2
  munge_mode=default
  if ! munge -n -S "$munge_socket" >/dev/null 2>&1; then
    mkdir -p /run/munge /var/log/munge /var/lib/munge
    if [ ! -s /etc/munge/munge.key ]; then
      dd if=/dev/urandom of=/etc/munge/munge.key bs=1024 count=1 status=none
      chmod 400 /etc/munge/munge.key
    fi
    munged --foreground --force >"$state/log/munged.log" 2>&1 &
    record munged $!
  fi
fi
for _ in $(seq 50); do munge -n -S "$munge_socket" >/dev/null 2>&1 && break; sleep 0.1; done
munge -n -S "$munge_socket" >/dev/null || { echo "slurm: munged does not answer" >&2; exit 1; }

# The fake GPUs. slurmd stats each File= (a regular file makes the node INVAL), refuses a name
# listed twice, and numbers each GPU by the digits that end its name (`slurmd -G` shows the
# Index), so fakegpu0..7 are GPUs 0..7 in gres.conf's order. Where mknod is not allowed (no
# CAP_MKNOD), links to existing devices keep those names; links to one device are accepted too.
devs=()
for k in $(seq 0 $((gpus - 1))); do devs+=("$state/dev/fakegpu$k"); done
rm -f "${devs[@]}"
if [ "${LADDER_SLURM_NO_MKNOD:-0}" = 1 ] || ! mknod "${devs[0]}" c 1 3 2>/dev/null; then
  rm -f "${devs[0]}"
  mapfile -t chars < <(for d in /dev/null /dev/zero /dev/full /dev/random /dev/urandom /dev/tty \
    /dev/ptmx /dev/console /dev/kmsg /dev/fuse; do [ -c "$d" ] && echo "$d"; done)
  [ ${#chars[@]} -gt 0 ] || { echo "slurm: no character device to stand in for GPUs" >&2; exit 1; }
  for k in "${!devs[@]}"; do ln -s "${chars[k % ${#chars[@]}]}" "${devs[k]}"; done
  echo "slurm: no mknod; fake GPUs link to ${chars[*]:0:gpus}"
else
  for k in $(seq 1 $((gpus - 1))); do mknod "${devs[k]}" c 1 3; done
fi

# Ports: 6817 and 6818 unless taken (another cluster, a second test), then the next free pair.
port_free() { ! (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }
port=${LADDER_SLURM_PORT:-6817}
if [ -z "${LADDER_SLURM_PORT:-}" ]; then
  for _ in $(seq 50); do port_free "$port" && port_free $((port + 1)) && break; port=$((port + 2)); done
fi
# CPUs=8 on any machine (config_overrides: slurmd reports the configured node, not the real
# one), so the 8 GPUs' jobs can run at once on 2 cores. cons_tres: the default before 23.02,
# select/linear, gives each job a whole node. linuxproc and task/none need no cgroups. The
# scheduler intervals: 23.11 otherwise starts an array, or a job whose dependency is met, up
# to 30 s late.
cat >"$state/slurm.conf" <<EOF
ClusterName=ladderci
SlurmctldHost=$host(127.0.0.1)
SlurmctldPort=$port
SlurmdPort=$((port + 1))
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$munge_socket
StateSaveLocation=$state/ctld
SlurmdSpoolDir=$state/slurmd
SlurmctldPidFile=$state/run/slurmctld.pid
SlurmdPidFile=$state/run/slurmd.pid
SlurmctldLogFile=$state/log/slurmctld.log
SlurmdLogFile=$state/log/slurmd.log
PlugStackConfig=$state/plugstack.conf
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
MpiDefault=none
MailProg=/bin/true
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
SchedulerParameters=sched_interval=2,bf_interval=1
SlurmdParameters=config_overrides
ReturnToService=2
GresTypes=gpu
NodeName=$host NodeAddr=127.0.0.1 CPUs=8 Gres=gpu:$gpus State=UNKNOWN
PartitionName=ci Nodes=ALL Default=YES MaxTime=INFINITE State=UP
EOF
: >"$state/plugstack.conf" # not the distribution's, whose plugins this cluster does not need
# slurmd initialises a cgroup plugin even with linuxproc and task/none, and autodetect fails in
# a container (no /sys/fs/cgroup, cgroup v2 without systemd, hybrid mounts). 24.05 added
# CgroupPlugin=disabled; before it (back to 21.08, which added the option) cgroup/v1
# initialises without touching a cgroup.
ver=$(slurmd -V | grep -o '[0-9][0-9]*\.[0-9][0-9]*' | head -n 1) # "slurm-wlm 22.05.8"
ver=$((${ver%.*} * 100 + 10#${ver#*.}))
rm -f "$state/cgroup.conf"
if [ $ver -ge 2405 ]; then echo CgroupPlugin=disabled >"$state/cgroup.conf"
elif [ $ver -ge 2108 ]; then echo CgroupPlugin=cgroup/v1 >"$state/cgroup.conf"; fi
for k in "${!devs[@]}"; do echo "Name=gpu File=${devs[k]}"; done >"$state/gres.conf"

export SLURM_CONF=$state/slurm.conf
slurmctld -D -c -f "$SLURM_CONF" >"$state/log/slurmctld.out" 2>&1 &
record slurmctld $!
slurmd -D -f "$SLURM_CONF" -N "$host" >"$state/log/slurmd.out" 2>&1 &
record slurmd $!

cat >"$state/env" <<EOF
# Source this to use the cluster (tests/slurm/cluster.sh start).
export SLURM_CONF=$SLURM_CONF
export LADDER_SLURM_MUNGE=$munge_mode # own: munged's key and socket here; default: the system's
EOF

for _ in $(seq 120); do # 60 s
  st=$(sinfo -h -N -n "$host" -o %t 2>/dev/null || true)
  [ "$st" = idle ] && break
  if [ "$st" = inval ]; then
    echo "slurm: node $host is INVAL: $(scontrol show node "$host" | grep -o 'Reason=.*')" >&2
    exit 1
  fi
  while read -r name pid t; do
    alive "$pid" "$t" || { echo "slurm: $name exited" >&2; exit 1; }
  done <"$state/pids"
  sleep 0.5
done
[ "$st" = idle ] || { echo "slurm: node $host not idle after 60 s (state: ${st:-none})" >&2; exit 1; }
ok=1
echo "slurm: $(sinfo -V) up, node $host idle with gpu:$gpus; . $state/env"

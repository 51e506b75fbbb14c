# shellcheck shell=bash
# slurm_env.sh: run a REAL Slurm (slurmctld, optionally emulated slurmd) inside a temp dir.
#
# Source it; do not execute it. Everything runs as root in the foreground as background jobs of
# the calling shell (no systemd, no cgroups), so call the functions in the current shell, never
# inside $(...): slurm_env_stop can only stop what this shell started.
#
#   slurm_env_start DIR NODELIST_FILE TOPOLOGY_CONF   start slurmctld; 0 once `scontrol ping` is UP
#   slurm_env_start_slurmd NODE...                     one emulated slurmd per node (MULTIPLE_SLURMD)
#   slurm_env_topology                                 prints `scontrol show topology`
#   slurm_env_log                                      prints the slurmctld log path
#   slurm_env_stop                                     stops every process started here (idempotent)
#   slurm_env_hostnames HOSTLIST...                    expands hostlists (works without a slurmctld)
#   slurm_env_three_nodes NAME                         $WORK (a temp dir removed at exit, with the
#                                                      services), slurmctld and slurmd node1..node3
#                                                      under one switch; 1 if they did not start
#
# DIR is created if missing (pass "" to get a fresh mktemp -d dir that slurm_env_stop removes).
# NODELIST_FILE: node names or hostlist expressions, one per line; blank and '#' lines ignored.
# TOPOLOGY_CONF is copied to DIR/topology.conf (slurmctld reads it beside slurm.conf).
# SLURM_CONF is exported for the clients (scontrol, sinfo, salloc, ...).
#
# Knobs (set before slurm_env_start):
#   SLURM_ENV_AUTH=munge|none   munge (default): a private munged on DIR/munge.sock, ~20 ms extra.
#                               none: AuthType=auth/none + CredType=cred/none, which 22.05 accepts;
#                               not the default because slurmctld/slurmd listen on every interface
#                               and auth/none would let anyone who reaches the port act as root.
#   SLURM_ENV_NODE_ATTRS        attributes of every node line (default "CPUs=8")
#   SLURM_ENV_EXTRA_CONF        extra slurm.conf lines (e.g. "GresTypes=gpu"), appended verbatim
#   SLURM_ENV_TIMEOUT           seconds to wait for slurmctld (default 30)
#
# Release (set before sourcing): SLURM_ENV_RELEASE unset or the host's release (22.05 on
# Debian 12): the host's Slurm; 24.11 or 26.05: that release from a Debian trixie / sid root (slurm_chroot.sh), entered at
# source time. Then scontrol, sinfo, salloc, squeue, scancel, sbatch, srun, slurmd, slurmctld,
# munged and mungekey are shell functions running the chroot's program; a test that puts one
# behind `timeout`, `&` or another program writes "${SLURM_ENV_RUN[@]}" CMD (empty on the
# host) so that the PID it holds is the program's own. Sourcing exits 77 (skip) when the
# release cannot run here (not root, no mmdebstrap) and 1 when the root's Slurm is not the
# release asked for. SLURM_ENV_VERSION is the full version running (e.g. 24.11.5).

SLURM_ENV_DIR=""
SLURM_ENV_OWN_DIR=0
SLURM_ENV_CTLD_PID=""
SLURM_ENV_PIDS=()
SLURM_ENV_NODES=()
SLURM_ENV_RUN=()
SLURM_ENV_RELEASE=${SLURM_ENV_RELEASE:-}
SLURM_ENV_VERSION=""

_slurm_env_err() { echo "slurm_env: $*" >&2; }

_slurm_env_enter_release() {
  local why cmd
  SLURM_ENV_VERSION=$(slurmctld -V 2>/dev/null | awk '{ print $2 }')
  [[ -z $SLURM_ENV_RELEASE ]] && SLURM_ENV_RELEASE=${SLURM_ENV_VERSION%.*}
  [[ $SLURM_ENV_RELEASE == "${SLURM_ENV_VERSION%.*}" ]] && return 0
  # shellcheck source-path=SCRIPTDIR
  source "$(dirname "${BASH_SOURCE[0]}")/slurm_chroot.sh"
  if ! why=$(slurm_chroot_check "$SLURM_ENV_RELEASE"); then echo "SKIP: Slurm $SLURM_ENV_RELEASE: $why"; exit 77; fi
  slurm_chroot_enter "$SLURM_ENV_RELEASE" || { echo "FAIL: cannot enter the Slurm $SLURM_ENV_RELEASE root"; exit 1; }
  SLURM_ENV_RUN=("${SLURM_CHROOT_RUN[@]}")
  for cmd in scontrol sinfo salloc squeue scancel sbatch srun slurmd slurmctld munged mungekey; do
    eval "$cmd() { \"\${SLURM_ENV_RUN[@]}\" $cmd \"\$@\"; }"
  done
  SLURM_ENV_VERSION=$(slurm_chroot_version)
  if [[ ${SLURM_ENV_VERSION%.*} != "$SLURM_ENV_RELEASE" ]]; then
    echo "FAIL: the Debian $(slurm_chroot_suite "$SLURM_ENV_RELEASE") root has Slurm ${SLURM_ENV_VERSION:-?}, not $SLURM_ENV_RELEASE"
    exit 1
  fi
  echo "slurm_env: Slurm $SLURM_ENV_VERSION from $SLURM_CHROOT_ROOT"
}
_slurm_env_enter_release

# Ports below the ephemeral range: outgoing connections never take them. Tests run side by side
# (ctest -j), and a port seen free when picked is bound only later (slurmd's, seconds later), so
# each pick is reserved under a lock in a registry the other tests read: "PID BASE COUNT" lines,
# dropped once PID (the test's shell) is gone or picks again. A port taken by something else meanwhile still
# shows as "Address already in use", and slurm_env_start picks again.
_slurm_env_pick_ports() { # COUNT -> prints the first of COUNT consecutive free ports
  local count=$1 lo reg=${TMPDIR:-/tmp}/slurmtopo-slurm-ports
  read -r lo _ </proc/sys/net/ipv4/ip_local_port_range
  (
    flock -w 120 9 || { echo "slurm_env: waited 120 s for $reg.lock" >&2; exit 1; }
    local pid base n live=""
    if [[ -f $reg ]]; then
      while read -r pid base n; do
        # A test runs one environment at a time: its new pick replaces its last.
        [[ -n $pid && $pid != "$$" ]] && kill -0 "$pid" 2>/dev/null && live+="$pid $base $n"$'\n'
      done <"$reg"
    fi
    base=$({ ss -Htan 2>/dev/null | awk '{ n = split($4, a, ":"); print "used", a[n] }'
             printf '%s' "$live" | awk 'NF == 3 { for (p = $2; p < $2 + $3; p++) print "used", p }'; } |
      awk -v count="$count" -v lo="$lo" -v seed="${SRANDOM:-$RANDOM}$$" '
        { used[$2] = 1 }
        END {
          hi = (lo > 10000 ? lo : 65536) - 1; span = hi - 10000 + 2 - count
          if (span < 1) { print "slurm_env: no room for " count " ports below " lo > "/dev/stderr"; exit 1 }
          srand(seed)
          for (try = 0; try < 50; try++) {
            base = 10000 + int(rand() * span); ok = 1
            for (p = base; p < base + count; p++) if (p in used) { ok = 0; break }
            if (ok) { print base; exit 0 }
          }
          print "slurm_env: no " count " consecutive free ports in 10000-" hi > "/dev/stderr"; exit 1
        }') || exit 1
    printf '%s%s %s %s\n' "$live" "$$" "$base" "$count" >"$reg.new" && mv -f "$reg.new" "$reg"
    echo "$base"
  ) 9>"$reg.lock"
}

# scontrol needs *some* slurm.conf even to expand a hostlist (and retries 60 s on a missing
# one), so give it a minimal one when no environment is running.
slurm_env_hostnames() { # HOSTLIST... -> one name per line
  local conf=${SLURM_ENV_DIR:+$SLURM_ENV_DIR/slurm.conf} tmp="" a parts=() rc=0
  for a in "$@"; do [[ -n $a ]] && parts+=("$a"); done
  (( ${#parts[@]} )) || return 0
  if [[ -z $conf || ! -f $conf ]]; then
    tmp=$(mktemp) && printf 'ClusterName=hostlist\nSlurmctldHost=localhost\n' >"$tmp"
    conf=$tmp
  fi
  # One call for all: scontrol costs ~10 ms idle, far more on a loaded CI machine.
  SLURM_CONF=$conf scontrol show hostnames "$(IFS=,; echo "${parts[*]}")" || rc=1
  [[ -z $tmp ]] || rm -f "$tmp"
  return $rc
}

_slurm_env_write_conf() { # CTLD_PORT SLURMD_PORT_BASE
  local d=$SLURM_ENV_DIR ctld_port=$1 port=$2 node
  {
    echo "# written by tests/integration/slurm_env.sh"
    echo "ClusterName=slurmtopotest"
    echo "SlurmctldHost=localhost"
    echo "SlurmctldPort=$ctld_port"
    echo "SlurmdPort=$port"
    echo "SlurmUser=root"
    echo "SlurmdUser=root"
    if [[ ${SLURM_ENV_AUTH:-munge} == none ]]; then
      echo "AuthType=auth/none"
      echo "CredType=cred/none"
    else
      echo "AuthType=auth/munge"
      echo "CredType=cred/munge"
      echo "AuthInfo=socket=$d/munge.sock"
    fi
    echo "MpiDefault=none"
    echo "ProctrackType=proctrack/linuxproc"
    echo "TaskPlugin=task/none"
    echo "JobAcctGatherType=jobacct_gather/none"
    echo "MailProg=/bin/true"
    echo "SelectType=select/cons_tres"
    echo "SelectTypeParameters=CR_Core"
    echo "TopologyPlugin=topology/tree"
    echo "SlurmdParameters=config_overrides"
    echo "ReturnToService=2"
    echo "StateSaveLocation=$d/state"
    echo "SlurmdSpoolDir=$d/spool/%n"
    echo "SlurmctldPidFile=$d/slurmctld.pid"
    echo "SlurmdPidFile=$d/slurmd.%n.pid"
    echo "SlurmctldLogFile=$d/slurmctld.log"
    echo "SlurmdLogFile=$d/slurmd.%n.log"
    echo "SlurmctldDebug=info"
    echo "SlurmdDebug=info"
    [[ -z ${SLURM_ENV_EXTRA_CONF:-} ]] || printf '%s\n' "$SLURM_ENV_EXTRA_CONF"
    # One line per node: each gets its own slurmd port, so any subset can run slurmd later.
    for node in "${SLURM_ENV_NODES[@]}"; do
      echo "NodeName=$node NodeHostname=localhost NodeAddr=127.0.0.1 Port=$port ${SLURM_ENV_NODE_ATTRS:-CPUs=8}"
      port=$(( port + 1 ))
    done
    echo "PartitionName=all Nodes=ALL Default=YES MaxTime=INFINITE State=UP"
  } >"$d/slurm.conf"
  # 24.11+ slurmd loads a cgroup plugin even with proctrack/linuxproc and task/none, and dies in
  # a chroot without /sys/fs/cgroup; 22.05 does not know the key.
  if [[ ${SLURM_ENV_VERSION%%.*} -ge 24 ]]; then echo "CgroupPlugin=disabled" >"$d/cgroup.conf"; fi
}

_slurm_env_alive() { [[ -n ${1:-} ]] && kill -0 "$1" 2>/dev/null; }

_slurm_env_start_munged() {
  local d=$SLURM_ENV_DIR i p
  # munged refuses a socket below any directory others cannot traverse ("Socket is inaccessible").
  for (( p = ${#d}; p > 0; )); do
    p=${d:0:p}
    if (( (8#$(stat -c %a "$p") & 1) == 0 )); then
      _slurm_env_err "munged needs o+x on every directory above its socket; $p is $(stat -c %A "$p") (chmod 755 it)"
      return 1
    fi
    p=${p%/*}; p=${#p}
  done
  [[ -f $d/munge.key ]] || mungekey -c -k "$d/munge.key" -b 1024 || return 1
  "${SLURM_ENV_RUN[@]}" munged -F -S "$d/munge.sock" --key-file="$d/munge.key" --log-file="$d/munged.log" \
    --pid-file="$d/munged.pid" --seed-file="$d/munged.seed" >"$d/munged.out" 2>&1 &
  SLURM_ENV_PIDS+=("$!")
  for (( i = 0; i < 200; i++ )); do
    [[ -S $d/munge.sock ]] && return 0
    _slurm_env_alive "$!" || break
    sleep 0.02
  done
  _slurm_env_err "munged did not start: $(tail -n 3 "$d/munged.log" "$d/munged.out" 2>/dev/null)"
  return 1
}

slurm_env_start() { # DIR NODELIST_FILE TOPOLOGY_CONF
  if (( $# != 3 )); then _slurm_env_err "usage: slurm_env_start DIR NODELIST_FILE TOPOLOGY_CONF"; return 2; fi
  local dir=$1 nodelist=$2 topo=$3 port_base deadline line
  if [[ -n $SLURM_ENV_CTLD_PID ]]; then _slurm_env_err "already started; call slurm_env_stop first"; return 2; fi
  [[ -r $nodelist ]] || { _slurm_env_err "cannot read node list $nodelist"; return 2; }
  [[ -r $topo ]] || { _slurm_env_err "cannot read topology file $topo"; return 2; }
  if [[ -z $dir ]]; then
    dir=$(mktemp -d "${TMPDIR:-/tmp}/slurm_env.XXXXXX") || return 1
    SLURM_ENV_OWN_DIR=1
  else
    mkdir -p "$dir" || return 1
  fi
  SLURM_ENV_DIR=$(cd "$dir" && pwd)
  # munged refuses a socket below a directory others cannot traverse; mktemp makes 0700.
  chmod 755 "$SLURM_ENV_DIR"
  mkdir -p "$SLURM_ENV_DIR/state" "$SLURM_ENV_DIR/spool"
  [[ $topo -ef $SLURM_ENV_DIR/topology.conf ]] || cp "$topo" "$SLURM_ENV_DIR/topology.conf" || return 1

  SLURM_ENV_NODES=()
  local exprs=()
  while IFS= read -r line || [[ -n $line ]]; do
    line=${line%%#*}
    line=${line//[[:space:]]/}
    [[ -n $line ]] && exprs+=("$line")
  done <"$nodelist"
  mapfile -t SLURM_ENV_NODES < <(slurm_env_hostnames "${exprs[@]}" | awk '!seen[$0]++')

  if [[ ${SLURM_ENV_AUTH:-munge} != none ]]; then
    _slurm_env_start_munged || return 1
  fi
  export SLURM_CONF=$SLURM_ENV_DIR/slurm.conf

  for _ in 1 2 3; do
    # slurmctld's port, then one slurmd port per node
    port_base=$(_slurm_env_pick_ports $(( ${#SLURM_ENV_NODES[@]} + 1 ))) || return 1
    _slurm_env_write_conf "$port_base" $(( port_base + 1 ))
    : >"$SLURM_ENV_DIR/slurmctld.log"
    # -c: ignore any saved state; -D: foreground, so $! is slurmctld itself.
    "${SLURM_ENV_RUN[@]}" slurmctld -D -c -f "$SLURM_CONF" >"$SLURM_ENV_DIR/slurmctld.out" 2>&1 &
    SLURM_ENV_CTLD_PID=$!
    SLURM_ENV_PIDS+=("$SLURM_ENV_CTLD_PID")
    deadline=$(( SECONDS + ${SLURM_ENV_TIMEOUT:-30} ))
    while (( SECONDS < deadline )); do
      if ! _slurm_env_alive "$SLURM_ENV_CTLD_PID"; then break; fi
      # timeout: if another program holds the port, scontrol would wait 10 s for its answer.
      if timeout 3 "${SLURM_ENV_RUN[@]}" scontrol ping 2>/dev/null | grep -q 'is UP'; then return 0; fi
      sleep 0.05
    done
    if _slurm_env_alive "$SLURM_ENV_CTLD_PID"; then
      _slurm_env_err "slurmctld not UP after ${SLURM_ENV_TIMEOUT:-30} s (log: $(slurm_env_log))"
      return 1
    fi
    wait "$SLURM_ENV_CTLD_PID" 2>/dev/null
    # Lost a race for the port with another test: pick other ports and try again.
    if grep -q 'Address already in use' "$SLURM_ENV_DIR/slurmctld.log" "$SLURM_ENV_DIR/slurmctld.out"; then
      SLURM_ENV_CTLD_PID=""
      continue
    fi
    _slurm_env_err "slurmctld exited during start-up (log: $(slurm_env_log))"
    return 1
  done
  _slurm_env_err "slurmctld could not bind a port after 3 attempts"
  return 1
}

slurm_env_start_slurmd() { # NODE... (each must be in the node list given to slurm_env_start)
  local node pending deadline
  if ! _slurm_env_alive "$SLURM_ENV_CTLD_PID"; then _slurm_env_err "slurmctld is not running"; return 1; fi
  (( $# > 0 )) || return 0
  for node in "$@"; do
    mkdir -p "$SLURM_ENV_DIR/spool/$node"
    "${SLURM_ENV_RUN[@]}" slurmd -D -N "$node" -f "$SLURM_CONF" >"$SLURM_ENV_DIR/slurmd.$node.out" 2>&1 &
    SLURM_ENV_PIDS+=("$!")
  done
  # Registered = no longer UNKNOWN/DOWN/NOT_RESPONDING (measured: 64 nodes ~1.5 s, 1024 ~31 s).
  deadline=$(( SECONDS + ${SLURM_ENV_TIMEOUT:-30} + $# / 10 ))
  while (( SECONDS < deadline )); do
    pending=$(sinfo -h -N -n "$(IFS=,; echo "$*")" -o '%N %T' 2>/dev/null |
      awk '$2 ~ /unknown|down|\*|not_responding|inval/ || NF < 2 {print $1}' | sort -u | head -n 5)
    if [[ -z $pending ]] && sinfo -h -N -n "$(IFS=,; echo "$*")" -o '%N' 2>/dev/null | grep -q .; then
      return 0
    fi
    sleep 0.1
  done
  _slurm_env_err "slurmd not registered in time, e.g.: $pending (see $SLURM_ENV_DIR/slurmd.*.log)"
  return 1
}

slurm_env_topology() { scontrol show topology; }

slurm_env_three_nodes() { # NAME -> sets WORK; the small cluster the job-running tests share
  WORK=$(mktemp -d "${TMPDIR:-/tmp}/$1.XXXXXX")
  chmod 755 "$WORK" # munged wants o+x on every directory above its socket
  trap 'slurm_env_stop; [[ -n ${KEEP_WORK:-} ]] || rm -rf "$WORK"' EXIT
  trap 'exit 130' INT TERM
  export SLURM_ENV_NODE_ATTRS="CPUs=2 Sockets=1 CoresPerSocket=2 ThreadsPerCore=1 RealMemory=1000"
  export SLURM_ENV_AUTH=munge
  printf 'node[1-3]\n' >"$WORK/nodes"
  printf 'SwitchName=s1 Nodes=node[1-3]\n' >"$WORK/topology.conf"
  slurm_env_start "$WORK/slurm" "$WORK/nodes" "$WORK/topology.conf" || { _slurm_env_err "slurmctld did not start"; return 1; }
  slurm_env_start_slurmd node1 node2 node3 || { _slurm_env_err "slurmd did not register"; return 1; }
}

slurm_env_log() { echo "${SLURM_ENV_DIR:?slurm_env_start was not called}/slurmctld.log"; }

slurm_env_stop() { # stops only the PIDs started by this library, newest first
  local i pid t
  for (( i = ${#SLURM_ENV_PIDS[@]} - 1; i >= 0; i-- )); do
    pid=${SLURM_ENV_PIDS[i]}
    _slurm_env_alive "$pid" && kill -TERM "$pid" 2>/dev/null
  done
  for pid in "${SLURM_ENV_PIDS[@]}"; do
    t=0
    while _slurm_env_alive "$pid" && (( t++ < 100 )); do sleep 0.05; done
    if _slurm_env_alive "$pid"; then
      _slurm_env_err "pid $pid ignored SIGTERM for 5 s; SIGKILL"
      kill -KILL "$pid" 2>/dev/null
    fi
    wait "$pid" 2>/dev/null
  done
  SLURM_ENV_PIDS=()
  SLURM_ENV_CTLD_PID=""
  if (( SLURM_ENV_OWN_DIR )) && [[ -n $SLURM_ENV_DIR ]]; then
    rm -rf "$SLURM_ENV_DIR"
    SLURM_ENV_DIR=""
    SLURM_ENV_OWN_DIR=0
  fi
  return 0
}

# shellcheck shell=bash
# ibsim_env.sh: a simulated InfiniBand fabric for tests — ibsim serving a net file, a real OpenSM
# routing it, clients attached through libumad2sim (../shared/reference/ibsim.md).
#
# Source it; do not execute it. Processes run as background jobs of the calling shell, so call
# the functions in the current shell, never inside $(...): ibsim_env_stop can only stop what
# this shell started, and it stops nothing else.
#
#   ibsim_env_check                        0 if ibsim, opensm and libumad2sim are installed, else
#                                          prints what is missing and returns 1
#   ibsim_env_start DIR NET [ENGINE]       ibsim on NET, OpenSM (-R ENGINE, default minhop) until
#                                          SUBNET UP; DIR is the work dir (created if missing);
#                                          ENGINE "none" starts no SM (ports keep LID 0)
#   ibsim_env_run CMD...                   CMD as a fabric client (preloaded, in DIR, under timeout)
#   ibsim_env_console LINE                 one ibsim console command ("Unlink \"leaf01\"[33]")
#   ibsim_env_wait_resweep N               waits until OpenSM has reported SUBNET UP N times after
#                                          the start (a console change triggers a resweep)
#   ibsim_env_sweeps                       prints how many times OpenSM reported SUBNET UP
#   ibsim_env_routing                      prints the routing engine OpenSM actually used
#   ibsim_env_stop_sm                      stops OpenSM only (the fabric keeps its LIDs and LFTs)
#   ibsim_env_kill_ibsim                   SIGKILLs ibsim (what a crashed simulator looks like)
#   ibsim_env_stop                         stops everything started here, OpenSM before ibsim
#
# Knobs (set before ibsim_env_start):
#   IBSIM_ENV_HOST     node id the SM and clients attach to (default: the first Hca/Ca in NET)
#   IBSIM_ENV_ARGS     ibsim arguments (default: -N/-S/-P sized from NET, whose compiled-in limits
#                      of 2,048 nodes, 256 switches and 13,312 ports small fabrics already exceed)
#   IBSIM_ENV_TIMEOUT  seconds to wait for SUBNET UP and for each client (default 120)
#   IBSIM_ENV_OSM_ARGS extra OpenSM arguments (e.g. -V for a verbose log)
#
# Why it is done this way: ibsim spins at 100% CPU on EOF of its console (stdin), so a writer
# keeps a FIFO open; OpenSM blocks forever on MADs once ibsim is gone, so it stops first;
# umad2sim has no MAD timeout, so every client runs under `timeout`; umad2sim makes a fake
# sysfs in ./sys-<pid>, so clients run in DIR (writable, removed with it).

IBSIM_ENV_UMAD2SIM=/usr/lib/x86_64-linux-gnu/umad2sim/libumad2sim.so
IBSIM_ENV_DIR=""
IBSIM_ENV_SOCK=""
IBSIM_ENV_FIFO_PID=""
IBSIM_ENV_SIM_PID=""
IBSIM_ENV_OSM_PID=""

_ibsim_env_err() { echo "ibsim_env: $*" >&2; }
_ibsim_env_alive() { [[ -n ${1:-} ]] && kill -0 "$1" 2>/dev/null; }

# _ibsim_env_kill PID SIGNAL: signal, wait up to 5 s, then SIGKILL; only our own children.
# Safe under `set -e`: a killed child's status (143) must not end the caller's cleanup.
_ibsim_env_kill() {
  local pid=$1 sig=${2:-TERM} t=0
  [[ -n $pid ]] || return 0
  if _ibsim_env_alive "$pid"; then
    kill -"$sig" "$pid" 2>/dev/null || true
    while _ibsim_env_alive "$pid" && (( t++ < 100 )); do sleep 0.05; done
    if _ibsim_env_alive "$pid"; then kill -KILL "$pid" 2>/dev/null || true; fi
  fi
  wait "$pid" 2>/dev/null || true
  return 0
}

# ibsim's table sizes for NET: nodes, switches and ports (a switch has one more: port 0).
_ibsim_env_limits() { # NET
  awk '$1 == "Switch" { s++; n++; p += $2 + 1 } $1 ~ /^(Ca|Hca|Rt)$/ { n++; p += $2 }
       END { printf "-N %d -S %d -P %d\n", n + 16, s + 16, p + 64 }' "$1"
}

ibsim_env_check() {
  local tool missing=()
  for tool in ibsim opensm; do command -v "$tool" >/dev/null || missing+=("$tool"); done
  [[ -f $IBSIM_ENV_UMAD2SIM ]] || missing+=("$IBSIM_ENV_UMAD2SIM (libumad2sim0)")
  (( ${#missing[@]} == 0 )) && return 0
  echo "not installed: ${missing[*]}"
  return 1
}

ibsim_env_sweeps() { grep -c "SUBNET UP" "$IBSIM_ENV_DIR/osm.log" 2>/dev/null || true; }

ibsim_env_wait_resweep() { # N
  local want=$1 deadline=$(( SECONDS + ${IBSIM_ENV_TIMEOUT:-120} ))
  while (( $(ibsim_env_sweeps) < want )); do
    if grep -q "No routing engine able" "$IBSIM_ENV_DIR/osm.log" 2>/dev/null; then
      _ibsim_env_err "OpenSM could not route the fabric (see $IBSIM_ENV_DIR/osm.log)"
      return 1
    fi
    if ! _ibsim_env_alive "$IBSIM_ENV_OSM_PID"; then
      _ibsim_env_err "OpenSM exited: $(tail -n 3 "$IBSIM_ENV_DIR/opensm.out" 2>/dev/null)"
      return 1
    fi
    (( SECONDS < deadline )) || { _ibsim_env_err "no SUBNET UP #$want in time"; return 1; }
    sleep 0.1
  done
}

ibsim_env_start() { # DIR NET [ENGINE]
  local dir=$1 net=$2 engine=${3:-minhop} deadline
  if [[ -n $IBSIM_ENV_SIM_PID ]]; then _ibsim_env_err "already started; call ibsim_env_stop first"; return 2; fi
  [[ -r $net ]] || { _ibsim_env_err "cannot read net file $net"; return 2; }
  mkdir -p "$dir" || return 1
  IBSIM_ENV_DIR=$(cd "$dir" && pwd)
  net=$(cd "$(dirname "$net")" && pwd)/$(basename "$net")
  if [[ -z ${IBSIM_ENV_HOST:-} ]]; then
    IBSIM_ENV_HOST=$(grep -m1 -oE '^(Hca|Ca)[[:space:]]+[0-9]+[[:space:]]+"[^"]+"' "$net" | sed -E 's/.*"([^"]+)"/\1/')
  fi
  [[ -n $IBSIM_ENV_HOST ]] || { _ibsim_env_err "no CA in $net for the SM to attach to"; return 2; }
  # Abstract socket names are machine-wide: one per shell and start.
  IBSIM_ENV_SOCK=slurmtopo-$$-$RANDOM

  (
    cd "$IBSIM_ENV_DIR" || exit 1
    rm -f console.fifo && mkfifo console.fifo
  ) || return 1
  sleep infinity >"$IBSIM_ENV_DIR/console.fifo" &
  IBSIM_ENV_FIFO_PID=$!
  local args=${IBSIM_ENV_ARGS:-$(_ibsim_env_limits "$net")}
  # shellcheck disable=SC2086  # args is a list of arguments
  IBSIM_SOCKNAME=$IBSIM_ENV_SOCK ibsim -s $args "$net" \
    <"$IBSIM_ENV_DIR/console.fifo" >"$IBSIM_ENV_DIR/ibsim.out" 2>&1 &
  IBSIM_ENV_SIM_PID=$!
  deadline=$(( SECONDS + 30 ))
  until grep -q "@$IBSIM_ENV_SOCK:ctl" /proc/net/unix; do
    if ! _ibsim_env_alive "$IBSIM_ENV_SIM_PID" || (( SECONDS >= deadline )); then
      _ibsim_env_err "ibsim did not start: $(tail -n 5 "$IBSIM_ENV_DIR/ibsim.out")"
      return 1
    fi
    sleep 0.05
  done

  [[ $engine == none ]] && return 0
  mkdir -p "$IBSIM_ENV_DIR/osm-cache" "$IBSIM_ENV_DIR/osm-tmp"
  printf 'force_log_flush TRUE\ndump_files_dir %s/osm-dump\n' "$IBSIM_ENV_DIR" >"$IBSIM_ENV_DIR/opensm.conf"
  : >"$IBSIM_ENV_DIR/osm.log"
  (
    cd "$IBSIM_ENV_DIR" || exit 1
    # exec: $! is OpenSM itself, so stopping it stops the SM and nothing else.
    IBSIM_SOCKNAME=$IBSIM_ENV_SOCK SIM_HOST=$IBSIM_ENV_HOST OSM_CACHE_DIR=$IBSIM_ENV_DIR/osm-cache \
      OSM_TMP_DIR=$IBSIM_ENV_DIR/osm-tmp LD_PRELOAD=$IBSIM_ENV_UMAD2SIM \
      exec opensm -F "$IBSIM_ENV_DIR/opensm.conf" -R "$engine" -f "$IBSIM_ENV_DIR/osm.log" -e -s 0 \
      ${IBSIM_ENV_OSM_ARGS:-} >"$IBSIM_ENV_DIR/opensm.out" 2>&1
  ) &
  IBSIM_ENV_OSM_PID=$!
  ibsim_env_wait_resweep 1
}

ibsim_env_routing() {
  grep -oE "[a-z_]+ tables configured|Routing engine [a-z]+ (was|failed)[^\n]*" "$IBSIM_ENV_DIR/osm.log" | tail -n 1
}

ibsim_env_run() { # CMD...
  (
    cd "$IBSIM_ENV_DIR" || exit 1
    IBSIM_SOCKNAME=$IBSIM_ENV_SOCK SIM_HOST=$IBSIM_ENV_HOST LD_PRELOAD=$IBSIM_ENV_UMAD2SIM \
      exec timeout "${IBSIM_ENV_TIMEOUT:-120}" "$@"
  )
}

ibsim_env_console() { # LINE
  _ibsim_env_alive "$IBSIM_ENV_SIM_PID" || { _ibsim_env_err "ibsim is not running"; return 1; }
  printf '%s\n' "$1" >"$IBSIM_ENV_DIR/console.fifo"
}

ibsim_env_stop_sm() {
  _ibsim_env_kill "$IBSIM_ENV_OSM_PID" TERM
  IBSIM_ENV_OSM_PID=""
}

ibsim_env_kill_ibsim() {
  _ibsim_env_kill "$IBSIM_ENV_SIM_PID" KILL
  IBSIM_ENV_SIM_PID=""
}

ibsim_env_stop() {
  # OpenSM first, while ibsim still answers: without ibsim its MADs block forever.
  ibsim_env_stop_sm
  _ibsim_env_kill "$IBSIM_ENV_SIM_PID" TERM
  _ibsim_env_kill "$IBSIM_ENV_FIFO_PID" TERM
  IBSIM_ENV_SIM_PID="" IBSIM_ENV_FIFO_PID=""
  return 0
}

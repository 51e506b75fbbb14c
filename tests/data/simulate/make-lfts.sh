#!/usr/bin/env bash
# Captures real forwarding tables for the routing tests: ibsim serves a fabric, OpenSM routes
# it with one engine, and the real dump_fts and ibnetdiscover record the tables and the
# fabric (with the LIDs OpenSM gave) in the same sweep.
#   usage: make-lfts.sh FABRIC.topo ENGINE OUT_PREFIX
#   writes OUT_PREFIX.ibnetdiscover and OUT_PREFIX.<ENGINE>.lfts
#   KEEP_WORK=1 keeps the work directory (OpenSM log, dumps); OSM_ARGS adds OpenSM options (-V).
# Needs ibsim, opensm, dump_fts, ibnetdiscover and libumad2sim (see ../shared/reference/ibsim.md).
# Kills only the processes it started.
set -euo pipefail
topo=$(realpath "${1:?usage: $0 FABRIC.topo ENGINE OUT_PREFIX}")
engine=${2:?engine: minhop, updn, ftree}
out=$(realpath -m "${3:?out prefix}")
umad2sim=/usr/lib/x86_64-linux-gnu/umad2sim/libumad2sim.so
for tool in ibsim opensm dump_fts ibnetdiscover; do
  command -v "$tool" >/dev/null || { echo "make-lfts: $tool not installed" >&2; exit 77; }
done
[[ -f $umad2sim ]] || { echo "make-lfts: $umad2sim not installed" >&2; exit 77; }

work=$(mktemp -d)
fifo_pid= ibsim_pid= osm_pid=
stop() {
  [[ -n $1 ]] || return 0
  kill "$1" 2>/dev/null || return 0
  for _ in $(seq 50); do kill -0 "$1" 2>/dev/null || break; sleep 0.1; done
  kill -9 "$1" 2>/dev/null || true
  wait "$1" 2>/dev/null || true
}
cleanup() {
  stop "$osm_pid"; stop "$ibsim_pid"; stop "$fifo_pid"
  if [[ -n ${KEEP_WORK:-} ]]; then echo "kept $work" >&2; else rm -rf "$work"; fi
}
trap cleanup EXIT
cd "$work"
wait_for() {
  local deadline=$((SECONDS + $1)); shift
  until "$@"; do ((SECONDS < deadline)) || return 1; sleep 0.1; done
}

# The SM and the tools attach at the first CA of the file.
host=$(grep -m1 -oE '^Ca[[:space:]]+[0-9]+[[:space:]]+"[^"]+"' "$topo" | sed -E 's/.*"([^"]+)"/\1/')
sock=slurmtopo-lfts-$$
mkfifo console.fifo
sleep infinity >console.fifo &
fifo_pid=$!
IBSIM_SOCKNAME=$sock ibsim -s "$topo" <console.fifo >ibsim.out 2>&1 &
ibsim_pid=$!
wait_for 10 grep -q "@$sock:ctl" /proc/net/unix || { echo "ibsim did not start" >&2; cat ibsim.out >&2; exit 1; }

mkdir osm-cache osm-tmp
printf 'force_log_flush TRUE\ndump_files_dir %s\n' "$PWD" >opensm.conf
IBSIM_SOCKNAME=$sock SIM_HOST=$host OSM_CACHE_DIR=$PWD/osm-cache OSM_TMP_DIR=$PWD/osm-tmp \
  LD_PRELOAD=$umad2sim opensm -F "$PWD/opensm.conf" -R "$engine" -f "$PWD/osm.log" -e -s 0 ${OSM_ARGS:-} >opensm.out 2>&1 &
osm_pid=$!
subnet_up() {
  grep -q "No routing engine able" osm.log 2>/dev/null && { echo "OpenSM could not route" >&2; exit 1; }
  grep -q "SUBNET UP" osm.log 2>/dev/null
}
wait_for 120 subnet_up || { echo "OpenSM never reached SUBNET UP" >&2; tail osm.log >&2; exit 1; }
# The engine that actually routed (ftree falls back to minhop silently on a non-tree).
grep -E "routing engine .* (tables configured|was used)|ucast_mgr_route|Using .* routing" osm.log | tail -3 >&2 || true

IBSIM_SOCKNAME=$sock SIM_HOST=$host LD_PRELOAD=$umad2sim timeout 120 ibnetdiscover >"$out.ibnetdiscover"
IBSIM_SOCKNAME=$sock SIM_HOST=$host LD_PRELOAD=$umad2sim timeout 120 dump_fts >"$out.$engine.lfts"
echo "wrote $out.ibnetdiscover and $out.$engine.lfts" >&2

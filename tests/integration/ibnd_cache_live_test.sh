#!/usr/bin/env bash
# The libibnetdisc cache reader against the real thing: ibsim serves samples/ibsim-small.net,
# OpenSM assigns LIDs, the real ibnetdiscover writes a cache and its text in the same sweep,
# and `slurmtopo inspect --json` must say the same about both.
#   usage: ibnd_cache_live_test.sh SLURMTOPO
#   SLURMTOPO_SAVE_SAMPLES=DIR also copies the cache and text there (how samples/ was made).
# Exit 77 (skipped) when ibsim, OpenSM, ibnetdiscover or umad2sim is not installed.
set -euo pipefail

slurmtopo=${1:?usage: $0 SLURMTOPO}
umad2sim=/usr/lib/x86_64-linux-gnu/umad2sim/libumad2sim.so
here=$(cd "$(dirname "$0")" && pwd)
net=$here/../../samples/ibsim-small.net

for tool in ibsim opensm ibnetdiscover jq; do
  command -v "$tool" >/dev/null || { echo "skip: $tool not installed"; exit 77; }
done
[[ -f $umad2sim ]] || { echo "skip: $umad2sim not installed (libumad2sim0)"; exit 77; }

work=$(mktemp -d)
fifo_pid= ibsim_pid= osm_pid=
# stop PID: SIGTERM, up to 5 s to exit, then SIGKILL; only ever our own children.
stop() {
  [[ -n $1 ]] || return 0
  kill "$1" 2>/dev/null || return 0
  for _ in $(seq 50); do kill -0 "$1" 2>/dev/null || break; sleep 0.1; done
  kill -9 "$1" 2>/dev/null || true
  wait "$1" 2>/dev/null || true
}
cleanup() {
  # OpenSM first and while ibsim still answers: without it OpenSM's MADs block forever.
  stop "$osm_pid"
  stop "$ibsim_pid"
  stop "$fifo_pid"
  rm -rf "$work"
}
trap cleanup EXIT
cd "$work"

# wait_for SECONDS CMD...: poll until CMD succeeds.
wait_for() {
  local deadline=$((SECONDS + $1)); shift
  until "$@"; do
    ((SECONDS < deadline)) || return 1
    sleep 0.1
  done
}

# ibsim reads its console from stdin and spins on EOF, so keep a writer on a FIFO.
sock=slurmtopo-cache-$$
mkfifo console.fifo
sleep infinity >console.fifo &
fifo_pid=$!
IBSIM_SOCKNAME=$sock ibsim -s "$net" <console.fifo >ibsim.out 2>&1 &
ibsim_pid=$!
wait_for 10 grep -q "@$sock:ctl" /proc/net/unix || { echo "ibsim did not start"; cat ibsim.out; exit 1; }

# The SM gives the ports LIDs, as on a real fabric (DR sweeps alone would leave them 0).
mkdir osm-cache osm-tmp
printf 'force_log_flush TRUE\n' >opensm.conf
IBSIM_SOCKNAME=$sock SIM_HOST=gpu001 OSM_CACHE_DIR=$PWD/osm-cache OSM_TMP_DIR=$PWD/osm-tmp \
  LD_PRELOAD=$umad2sim opensm -F "$PWD/opensm.conf" -f "$PWD/osm.log" -e -s 0 >opensm.out 2>&1 &
osm_pid=$!
subnet_up() {
  grep -q "No routing engine able" osm.log 2>/dev/null && { echo "OpenSM could not route"; exit 1; }
  grep -q "SUBNET UP" osm.log 2>/dev/null
}
wait_for 60 subnet_up || { echo "OpenSM never reached SUBNET UP"; tail osm.log; exit 1; }

IBSIM_SOCKNAME=$sock SIM_HOST=gpu001 LD_PRELOAD=$umad2sim \
  timeout 60 ibnetdiscover --cache ibsim-small.cache >ibsim-small.ibnetdiscover

if [[ -n ${SLURMTOPO_SAVE_SAMPLES:-} ]]; then
  cp ibsim-small.cache ibsim-small.ibnetdiscover "$SLURMTOPO_SAVE_SAMPLES"/
fi

# Both files share a stem, so they get the same fabric name; only the path (source) differs.
# The summary (--json) and the snapshot (--save: every node and cable field) must both agree.
without_source='walk(if type == "object" then del(.source) else . end)'
for form in cache ibnetdiscover; do
  "$slurmtopo" inspect --fabric "ibsim-small.$form" --json --save "snapshot-$form.json" |
    jq -S "$without_source" >"inspect-$form.json"
  jq -S "$without_source" "snapshot-$form.json" >"fabric-$form.json"
done
[[ -s inspect-cache.json && -s fabric-cache.json ]] || { echo "inspect printed nothing"; exit 1; }
status=0
for what in inspect fabric; do
  if ! diff -u "$what-ibnetdiscover.json" "$what-cache.json"; then
    echo "FAIL: $what of the cache and of the text of the same sweep differ"
    status=1
  fi
done
((status == 0)) || exit 1
echo "ok: cache and text agree ($(jq '.fabrics[0].nodes | length' fabric-cache.json) nodes," \
  "$(jq '.fabrics[0].links | length' fabric-cache.json) cables)"

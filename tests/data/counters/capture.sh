#!/usr/bin/env bash
# How the files beside this script were made: infiniband-diags' own tools against ibsim, with
# counters set through ibsim's console (tests/integration/ibsim_env.sh). Rerun to refresh them:
#   bash tests/data/counters/capture.sh build/slurmtopo
set -euo pipefail
SLURMTOPO=$(realpath "${1:?usage: $0 /path/to/slurmtopo}")
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source-path=SCRIPTDIR
source "$here/../../integration/ibsim_env.sh"
work=$(mktemp -d)
trap 'ibsim_env_stop; rm -rf "$work"' EXIT

# 2 leaves of 2 hosts, one spine, two cables from each leaf to it.
"$SLURMTOPO" generate railopt --scalable-units 2 --hosts-per-su 2 --rails 1 -k 8 --speed HDR --format ibsim \
  -o "$here/fabric.net"
ibsim_env_start "$work/sim" "$here/fabric.net" minhop
set_counter() { ibsim_env_console "PerformanceSet \"$1\"[$2] PortCounters.$3=$4"; }
# su1-rail0 port 1 (to dgx001): a bad cable, seen from the switch.
set_counter S-b83fd20300a00000 1 SymbolErrorCounter 500
set_counter S-b83fd20300a00000 1 LinkErrorRecoveryCounter 12
# dgx003's HCA: receive errors at the host end of its cable.
set_counter H-b83fd20300c00020 1 PortRcvErrors 25
# rail0-spine01 port 3 (to su2-rail0): discards, congestion.
set_counter S-b83fd20300a00020 3 PortXmitDiscards 150
# su2-rail0 port 3 (from the spine): packets that arrived bad.
set_counter S-b83fd20300a00010 3 PortRcvRemotePhysicalErrors 200
# su1-rail0 port 7, no cable: a link that went down, its counters stuck at their maximum.
set_counter S-b83fd20300a00000 7 LinkDownedCounter 255
set_counter S-b83fd20300a00000 7 PortXmitWait 4294967295
# dgx002's HCA: a few symbol errors, below every threshold.
set_counter H-b83fd20300c00010 1 SymbolErrorCounter 5
sleep 0.5

ibsim_env_run ibnetdiscover >"$here/fabric.ibnetdiscover"
ibsim_env_run ibqueryerrors >"$here/ibqueryerrors.txt" || true  # exit 1: errors found
ibsim_env_run ibqueryerrors --details -r --data >"$here/ibqueryerrors-details.txt" || true
printf 'SymbolErrorCounter=600\nPortXmitDiscards=5\n' >"$work/thresholds"
ibsim_env_run ibqueryerrors -c --threshold-file "$work/thresholds" >"$here/ibqueryerrors-thresholds.txt" || true
lid() { sed -n "s/.*\"$1\".*enhanced port 0 lid \([0-9]*\).*/\1/p" "$here/fabric.ibnetdiscover"; }
leaf1=$(lid S-b83fd20300a00000)
ibsim_env_run perfquery "$leaf1" 1 >"$here/perfquery-port.txt"
ibsim_env_run perfquery -x "$leaf1" 1 >>"$here/perfquery-port.txt"
ibsim_env_run perfquery -a "$leaf1" >"$here/perfquery-a.txt"
# What a site's script keeps: the cabled ports of every switch, one block each.
: >"$here/perfquery-all.txt"
for sw in S-b83fd20300a00000 S-b83fd20300a00010 S-b83fd20300a00020; do
  ibsim_env_run perfquery "$(lid "$sw")" 1-8 >>"$here/perfquery-all.txt"
done

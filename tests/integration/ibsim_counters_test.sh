#!/usr/bin/env bash
# Port counters live: ibsim serves a generated fabric, its console sets counters on switch-to-switch
# and host cables (both ends), and `discover fabric --counters` must read exactly the ports and
# values that ibqueryerrors and perfquery read on the same fabric; the saved outputs of those
# tools, read with --counters FILE, must give the same findings. Rates: a counter raised between
# the two reads of --interval. --reset-counters: the ports read are zero afterwards, and it says so.
#
#   bash tests/integration/ibsim_counters_test.sh /path/to/slurmtopo
#
# Exit 0 all passed, 1 a failure, 77 skipped (ibsim/OpenSM/infiniband-diags/jq missing).
set -uo pipefail
export LC_ALL=C

SLURMTOPO=${1:?usage: $0 /path/to/slurmtopo}
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
skip() { echo "SKIP: $*"; exit 77; }
# shellcheck source-path=SCRIPTDIR
source "$here/ibsim_env.sh"
why=$(ibsim_env_check) || skip "$why"
for tool in ibnetdiscover ibqueryerrors perfquery jq; do command -v "$tool" >/dev/null || skip "$tool not installed"; done
[[ -x $SLURMTOPO ]] || { echo "FAIL: $SLURMTOPO is not an executable"; exit 1; }
SLURMTOPO=$(cd "$(dirname "$SLURMTOPO")" && pwd)/$(basename "$SLURMTOPO")
SLURMTOPO_SOURCE=$(cd "$here/../.." && pwd)

WORK=$(mktemp -d "${TMPDIR:-/tmp}/ibsim_counters_test.XXXXXX")
trap 'ibsim_env_stop; [[ -n ${KEEP_WORK:-} ]] && echo "kept $WORK" || rm -rf "$WORK"' EXIT
trap 'exit 130' INT TERM

passed=0 failed=0
pass() { echo "PASS: $1"; passed=$(( passed + 1 )); }
fail() { echo "FAIL: $1: $2"; failed=$(( failed + 1 )); }
cd "$WORK" || exit 1

# 2 units of 4 hosts on one rail, each leaf cabled to the spine: one subnet.
"$SLURMTOPO" generate railopt --scalable-units 2 --hosts-per-su 4 --rails 1 -k 16 --speed HDR --format ibsim \
  -o fabric.net || { fail "generate" "exit $?"; exit 1; }
ibsim_env_start "$WORK/sim" fabric.net minhop || { fail "ibsim + OpenSM" "no SUBNET UP"; exit 1; }
ibsim_env_run ibnetdiscover >fabric.topo 2>/dev/null || fail "ibnetdiscover" "exit $?"
node() { grep -m1 -E "^(Switch|Ca).*# \"$1[ :\"]" fabric.topo | sed -E 's/^[A-Za-z]+\s+[0-9]+ "([^"]+)".*/\1/'; }
lid_of() { sed -n "s/.*\"$1\".*enhanced port 0 lid \([0-9]*\).*/\1/p" fabric.topo; }
leaf1=$(node "MF0;su1-rail0") leaf2=$(node "MF0;su2-rail0") spine=$(node "MF0;rail0-spine01")
h1=$(node dgx001) h6=$(node dgx006)
[[ -n $leaf1 && -n $leaf2 && -n $spine && -n $h1 && -n $h6 ]] || { fail "fabric" "nodes not found in fabric.topo"; exit 1; }
set_counter() { ibsim_env_console "PerformanceSet \"$1\"[$2] PortCounters.$3=$4"; }
# A host cable, seen from both ends; a switch-to-switch cable, both ends; a stuck counter.
set_counter "$leaf1" 1 SymbolErrorCounter 500
set_counter "$leaf1" 1 LinkErrorRecoveryCounter 12
set_counter "$h1" 1 PortRcvErrors 40
set_counter "$spine" 5 PortXmitDiscards 300
set_counter "$leaf2" 5 PortRcvRemotePhysicalErrors 250
set_counter "$leaf2" 2 LinkDownedCounter 255
set_counter "$h6" 1 SymbolErrorCounter 3
sleep 0.5

mkdir -p "$WORK/textfile"
if "$SLURMTOPO" discover fabric --help >/dev/null && ibsim_env_run "$SLURMTOPO" discover fabric --counters --save "$WORK/live.json" \
     --textfile "$WORK/textfile" >live.txt 2>live.err; then
  pass "discover fabric --counters exits 0"
else
  fail "discover fabric --counters" "$(cat live.err)"
fi

# The node_exporter textfile: both ends of the host cable, labelled as at the rack; dgx006's 3
# symbol errors (under the threshold) kept as a series; and valid for Prometheus.
prom=$WORK/textfile/slurmtopo_counters.prom
if ! grep -q '^slurmtopo_infiniband_symbol_error_total{end="switch",switch="su1-rail0",port="1",host="dgx001",hca="mlx5_0"} 500$' "$prom" ||
   ! grep -q '^slurmtopo_infiniband_port_errors_received_total{end="hca",switch="su1-rail0",port="1",host="dgx001",hca="mlx5_0"} 40$' "$prom" ||
   ! grep -q '^slurmtopo_infiniband_symbol_error_total{end="hca",.*host="dgx006",hca="mlx5_0"} 3$' "$prom"; then
  fail "--textfile" "$(cat "$prom" 2>&1)"
else
  pass "--textfile: per-cable-end series, both ends, with switch, port, host and HCA"
fi
if ! command -v promtool >/dev/null; then
  [[ ${SLURMTOPO_NO_SKIPS:-0} == 1 ]] && fail "promtool" "not installed (package prometheus)" || echo "SKIP: promtool not installed"
elif promtool check metrics <"$prom" >promtool.out 2>&1; then
  pass "promtool check metrics accepts the textfile"
else
  fail "promtool check metrics" "$(cat promtool.out)"
fi
ibsim_env_run ibqueryerrors >ibqueryerrors.txt 2>/dev/null
ibsim_env_run ibqueryerrors --details >ibqueryerrors-details.txt 2>/dev/null
: >perfquery.txt
for end in "$leaf1 1" "$h1 1" "$spine 5" "$leaf2 5" "$leaf2 2" "$h6 1"; do
  read -r guid port <<<"$end"
  lid=$(lid_of "$guid")
  [[ -z $lid ]] && lid=$(grep -A1 -E "^Ca.*\"$guid\"" fabric.topo | sed -n 's/.*# lid \([0-9]*\) .*/\1/p')
  ibsim_env_run perfquery "$lid" "$port" >>perfquery.txt 2>/dev/null
done

# Every counter judged at 0: every non-zero counter of every cabled port is listed with its value.
printf 'counter_thresholds: {PortXmitWait: 0, PortRcvSwitchRelayErrors: 0, VL15Dropped: 0, SymbolErrorCounter: 0,
  LinkErrorRecoveryCounter: 0, LinkDownedCounter: 0, PortRcvErrors: 0, PortRcvRemotePhysicalErrors: 0,
  PortXmitDiscards: 0, PortXmitConstraintErrors: 0, PortRcvConstraintErrors: 0, LocalLinkIntegrityErrors: 0,
  ExcessiveBufferOverrunErrors: 0}\n' >zero.yaml
values() { # the cable ends and their non-zero counters, whatever the source
  jq -S '[.cable_health[] | {cable, counters: (.counters | with_entries(select(.value.value > 0)) |
          map_values({value, at_least}))}] | sort_by(.cable)' "$1"
}
"$SLURMTOPO" inspect --fabric live.json --config zero.yaml --json >live-zero.json || fail "inspect live.json" "exit $?"
values live-zero.json >live.values
for tool in ibqueryerrors ibqueryerrors-details perfquery; do
  if "$SLURMTOPO" inspect --fabric fabric.topo --counters "$tool.txt" --config zero.yaml --json >"$tool-zero.json" &&
     values "$tool-zero.json" >"$tool.values" && diff live.values "$tool.values" >"$tool.diff"; then
    pass "live counters: the ports and values $tool reads ($(jq length live.values) cable ends)"
  else
    fail "live counters against $tool" "$(head -n 30 "$tool.diff")"
  fi
done
grep -q '"LinkDownedCounter": {' live.values && jq -e '[.[].counters.LinkDownedCounter // empty | .at_least] | any' \
  live.values >/dev/null && pass "a counter at its maximum is 'at least'" || fail "at least" "$(cat live.values)"

# The same findings from the live read and from each tool's saved output, at default thresholds.
findings() { "$SLURMTOPO" inspect "$@" --json | jq -S '[.anomalies[] | select(.check == "fabric.errors") |
             {kind, subject}] | sort_by(.subject, .kind)'; }
findings --fabric live.json >live.findings
expected='[{"kind":"cable-errors","subject":"dgx001 mlx5_0 - su1-rail0[1]"},
  {"kind":"cable-errors","subject":"su1-rail0[1] - dgx001 mlx5_0"},
  {"kind":"cable-errors","subject":"su2-rail0[2] - dgx006 mlx5_0"},
  {"kind":"congestion","subject":"rail0-spine01[5] - su2-rail0[5]"},
  {"kind":"upstream-errors","subject":"su2-rail0[5] - rail0-spine01[5]"}]'
echo "$expected" | jq -S 'sort_by(.subject, .kind)' >expected.findings
if diff expected.findings live.findings >live-findings.diff; then
  pass "live findings: both ends of a host cable, a link that went down, the spine's discards, the leaf's upstream errors; not 3 symbol errors"
else
  fail "live findings" "$(cat live-findings.diff)"
fi
for tool in ibqueryerrors perfquery; do
  findings --fabric fabric.topo --counters "$tool.txt" >"$tool.findings"
  if diff live.findings "$tool.findings" >"$tool-findings.diff"; then pass "the same findings from $tool's output"
  else fail "findings from $tool's output" "$(cat "$tool-findings.diff")"; fi
done

# Without a sweep: the counters of a fabric swept earlier (the dump, libibnetdisc's cache).
ibsim_env_run ibnetdiscover --cache "$WORK/fabric.cache" >/dev/null 2>&1
for form in fabric.topo fabric.cache; do
  if ibsim_env_run "$SLURMTOPO" discover counters --fabric "$WORK/$form" --save "$WORK/$form.json" >/dev/null 2>"$form.err" &&
     findings --fabric "$form.json" >"$form.findings" && diff live.findings "$form.findings" >"$form.diff"; then
    pass "discover counters --fabric $form: the findings of the sweep"
  else
    fail "discover counters --fabric $form" "$(cat "$form.err" "$form.diff")"
  fi
done
other=$SLURMTOPO_SOURCE/tests/data/iblinkinfo/same-fabric.ibnetdiscover
ibsim_env_run "$SLURMTOPO" discover counters --fabric "$other" >/dev/null 2>other.err
rc=$?
if (( rc == 2 )) && grep -q "is not in .*its LIDs are another subnet's" other.err; then
  pass "a fabric file of another subnet is refused (exit 2)"
else
  fail "another subnet's file" "exit $rc: $(cat other.err)"
fi

# Rates: the leaf's symbol errors rise by 200 between two reads 4 s apart.
ibsim_env_run "$SLURMTOPO" discover fabric --counters --interval 4 --save "$WORK/rates.json" >rates.txt 2>rates.err &
reader=$!
sleep 2
set_counter "$leaf1" 1 SymbolErrorCounter 700
wait "$reader" || fail "discover fabric --counters --interval 4" "$(cat rates.err)"
rate=$(jq -r --arg g "0x$(sed 's/^S-//' <<<"$leaf1")" '.fabrics[0].counters.ports[] | select(.guid == $g and .port == 1) |
         .per_second.SymbolErrorCounter' rates.json)
interval=$(jq -r '.fabrics[0].counters.interval_s' rates.json)
if awk -v r="$rate" -v i="$interval" 'BEGIN { exit !(r > 0 && (r * i) > 190 && (r * i) < 210) }'; then
  pass "rate: 200 symbol errors over ${interval} s read as $rate/s"
else
  fail "rate" "per_second $rate, interval $interval"
fi
grep -q "(+[0-9.]*/s over" rates.txt && pass "the finding shows the rate" || fail "rate in finding" "$(grep su1-rail0 rates.txt)"

# Nothing is reset unless asked; asked, the ports read are zero afterwards and it says how many.
before=$(ibsim_env_run perfquery "$(lid_of "$leaf1")" 1 2>/dev/null | sed -n 's/^SymbolErrorCounter:\.*//p')
[[ $before == 700 ]] && pass "a plain read resets nothing" || fail "no reset" "SymbolErrorCounter $before"
ibsim_env_run "$SLURMTOPO" discover fabric --counters --reset-counters >reset.txt 2>reset.err || fail "--reset-counters" "$(cat reset.err)"
after=$(ibsim_env_run perfquery "$(lid_of "$leaf1")" 1 2>/dev/null | sed -n 's/^SymbolErrorCounter:\.*//p')
ports=$(jq '.fabrics[0].counters.ports | length' live.json)
if [[ $after == 0 ]] && grep -q "reset the error counters and PortXmitWait of $ports ports of $ports read" reset.err; then
  pass "--reset-counters zeroes the $ports ports read and says so"
else
  fail "--reset-counters" "SymbolErrorCounter $after; $(cat reset.err)"
fi

echo "$passed passed, $failed failed"
(( failed == 0 ))

#!/usr/bin/env bash
# `slurmtopo discover fabric` against a simulated fabric: ibsim serves fabrics `slurmtopo
# generate --format ibsim` wrote, a real OpenSM routes them (minhop, ftree), and the live sweep
# through the real libibnetdisc/libibmad must find what the generator made, read the tables
# dump_fts reads, and give the topology.conf that the generator's own text and the real
# ibnetdiscover's text give. Faults: cables taken down between sweeps, no SM, a partial walk,
# the simulator killed mid-sweep.
#
#   bash tests/integration/ibsim_discovery_test.sh /path/to/slurmtopo
#
# Exit 0 all passed, 1 a failure, 77 skipped (ibsim/OpenSM/infiniband-diags/jq missing).
# KEEP_WORK=1 keeps the work directory.
set -uo pipefail
export LC_ALL=C

SLURMTOPO=${1:?usage: $0 /path/to/slurmtopo}
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
skip() { echo "SKIP: $*"; exit 77; }
# shellcheck source-path=SCRIPTDIR
source "$here/ibsim_env.sh"
why=$(ibsim_env_check) || skip "$why"
for tool in ibnetdiscover dump_fts jq script; do command -v "$tool" >/dev/null || skip "$tool not installed"; done
[[ -x $SLURMTOPO ]] || { echo "FAIL: $SLURMTOPO is not an executable"; exit 1; }
SLURMTOPO=$(cd "$(dirname "$SLURMTOPO")" && pwd)/$(basename "$SLURMTOPO")

WORK=$(mktemp -d "${TMPDIR:-/tmp}/ibsim_discovery_test.XXXXXX")
trap 'ibsim_env_stop; [[ -n ${KEEP_WORK:-} ]] && echo "kept $WORK" || rm -rf "$WORK"' EXIT
trap 'exit 130' INT TERM

passed=0 failed=0
pass() { echo "PASS: $1${2:+ ($2)}"; passed=$(( passed + 1 )); }
fail() { echo "FAIL: $1: $2"; failed=$(( failed + 1 )); }
check() { # NAME DETAIL CMD...: pass when CMD succeeds
  local name=$1 detail=$2; shift 2
  if "$@"; then pass "$name" "$detail"; else fail "$name" "$detail"; fi
}
ms_since() { echo $(( ($(date +%s%N) - $1) / 1000000 )); }

# What must agree between the generator's fabric and the swept one: every node (kind, GUID,
# description, ports, system image GUID, vendor and device id, LID: ibsim starts the ports with
# the file's LIDs and OpenSM keeps them) and every cable (both ends and ports, width, speed).
# Not compared: CA port GUIDs, which ibsim makes node GUID + port.
model() {
  jq -S '.fabrics[0] | {nodes: [.nodes[] | [.kind, .guid, .description, .num_ports, .sysimgguid, .vendor_id, .device_id, .lid]] | sort,
                        cables: [.links[] | [.a.guid, .a.port, .b.guid, .b.port, .width, .speed]] | sort}' "$1"
}
# topology.conf without the two header lines that name the command and the input file.
slurm_lines() { sed '/^#   /d; /^# fabric /d' "$1"; }
# Independent of both readers: every HCA's LID leads out of its leaf by the port it is cabled to.
leaf_ports_wrong() {
  jq -r '.fabrics[0] as $f | ($f.routes | map({key: .switch, value: .lft}) | from_entries) as $t
    | ($f.nodes | map({key: .guid, value: .kind}) | from_entries) as $k
    | [$f.links[] | (if $k[.a.guid] == "Switch" and $k[.b.guid] == "Ca" then {sw: .a, ca: .b}
                     elif $k[.b.guid] == "Switch" and $k[.a.guid] == "Ca" then {sw: .b, ca: .a} else empty end)
       | select(.ca.lid > 0)
       | select(($t[.sw.guid] // "")[2 * .ca.lid : 2 * .ca.lid + 2] != ("0123456789abcdef"[(.sw.port / 16 | floor):(.sw.port / 16 | floor) + 1] + "0123456789abcdef"[(.sw.port % 16):(.sw.port % 16) + 1]))]
    | length' "$1"
}
# Switches whose tables differ between DUMP_FTS.json and LIVE.json, as LID → port maps (dump_fts
# prints every table up to the fabric's highest LID, a switch's own ends at its LinearFDBTop;
# the LIDs between have no port either way). dump_fts (rdma-core 44) also skips the last block
# when LinearFDBTop is a multiple of 64, so a LIVE table may have that one LID more.
tables_differ() {
  jq -rn --slurpfile fts "$1" --slurpfile live "$2" '
    def trim: if length >= 2 and .[-2:] == "ff" then .[:-2] | trim else . end;
    ($fts[0].fabrics[0].routes | map({key: .switch, value: (.lft | trim)}) | from_entries) as $t
    | [$live[0].fabrics[0].routes[] | (.lft | trim) as $o | ($t[.switch] // "") as $f
       | if $o == $f then "same"
         elif ($o | startswith($f)) and ($o | length) == ($f | length) + 2 and (($o | length) / 2 - 1) % 64 == 0
         then "last-block" else "differ" end] as $r
    | "\([$r[] | select(. == "differ")] | length) differ, \([$r[] | select(. == "last-block")] | length) with the LID dump_fts skips, of \($r | length)"'
}
anomalies() { jq -r --arg k "$2" '[.anomalies[] | select(.kind == $k)] | length' "$1"; }

# simulate_lft DIR HOSTS TAG [--lft FILE]: `simulate --routing lft --json` into DIR/simulate.TAG.json.
simulate_lft() {
  local d=$1 hosts=$2 tag=$3; shift 3
  "$SLURMTOPO" simulate --fabric "$d/live.json" --routing lft "$@" --profile a100-hdr --nodes "$hosts" --json \
    >"$d/simulate.$tag.json" 2>&1
}

# discover_case NAME ENGINE GENERATE-ARGS...: generate, serve, sweep, compare. Leaves the
# simulator running (the caller stops it) and the case's files in $WORK/NAME.
discover_case() {
  local name=$1 engine=$2; shift 2
  local d=$WORK/$name t rc
  mkdir -p "$d"
  "$SLURMTOPO" generate "$@" --format ibsim -o "$d/fabric.net" || { fail "$name: generate --format ibsim" "exit $?"; return 1; }
  "$SLURMTOPO" generate "$@" -o "$d/generated.topo"
  "$SLURMTOPO" inspect --fabric "$d/generated.topo" --json --save "$d/generated.json" >"$d/generated.inspect.json"
  "$SLURMTOPO" emit topology --fabric "$d/generated.topo" -o "$d/generated.conf" 2>/dev/null

  t=$(date +%s%N)
  ibsim_env_start "$d/sim" "$d/fabric.net" "$engine" || { fail "$name: ibsim + OpenSM $engine" "did not come up"; return 1; }
  local routed; routed=$(ibsim_env_routing)
  check "$name: OpenSM routed with $engine" "$routed, SUBNET UP after $(ms_since "$t") ms" \
    grep -q "^$engine tables configured" <<<"$routed"

  t=$(date +%s%N)
  ibsim_env_run "$SLURMTOPO" discover fabric --routes --save "$d/live.json" --json >"$d/live.inspect.json" 2>"$d/live.err"
  rc=$?
  check "$name: discover fabric --routes --save" "exit $rc, $(ms_since "$t") ms" test "$rc" = 0 -a -s "$d/live.json"
  check "$name: no progress on stderr when it is not a terminal" "" test ! -s "$d/live.err"
  local captured; captured=$(jq -r '.fabrics[0].captured' "$d/live.json")
  check "$name: the snapshot records when the sweep ran (UTC)" "$captured" \
    grep -qE '^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}Z$' <<<"$captured"
  ibsim_env_run ibnetdiscover >"$d/ibnetdiscover.topo" 2>/dev/null
  ibsim_env_run dump_fts >"$d/dump_fts.txt" 2>/dev/null

  local nodes cables
  nodes=$(jq '.fabrics[0].nodes | length' "$d/generated.json") cables=$(jq '.fabrics[0].links | length' "$d/generated.json")
  check "$name: every switch, CA and cable the generator made, widths and speeds" "$nodes nodes, $cables cables" \
    diff <(model "$d/generated.json") <(model "$d/live.json")
  local deg_gen deg_live
  deg_gen=$(anomalies "$d/generated.inspect.json" degraded-link) deg_live=$(anomalies "$d/live.inspect.json" degraded-link)
  if (( deg_gen > 0 )); then
    check "$name: degraded links are anomalies" "$deg_live found, $deg_gen generated" test "$deg_gen" = "$deg_live"
  fi
  if [[ ${PLANE_ONLY:-false} != true ]]; then
    check "$name: same anomalies as the generator's text" "" \
      diff <(jq -S '.anomalies' "$d/generated.inspect.json") <(jq -S '.anomalies' "$d/live.inspect.json")
  fi

  # Tables: SMP-read == dump_fts (read through --routes FILE), one per switch, and each leaf
  # sends every HCA's LID down that HCA's cable.
  ibsim_env_run "$SLURMTOPO" discover fabric --routes "$d/dump_fts.txt" --save "$d/dump_fts.json" >/dev/null 2>&1
  local switches tables
  switches=$(jq '[.fabrics[0].nodes[] | select(.kind == "Switch")] | length' "$d/live.json")
  tables=$(jq '.fabrics[0].routes | length' "$d/live.json")
  check "$name: a forwarding table per switch" "$tables of $switches" test "$tables" = "$switches"
  local differ
  differ=$(tables_differ "$d/dump_fts.json" "$d/live.json")
  check "$name: forwarding tables equal dump_fts" "$differ" test "${differ%% *}" = 0
  check "$name: every leaf routes its HCAs' LIDs down their cables" "" test "$(leaf_ports_wrong "$d/live.json")" = 0
  # The simulator routes by the tables the snapshot carries, as by the same tables from dump_fts
  # (first host to the middle one; the last host's LID is the one dump_fts may skip, below).
  local hosts last
  hosts=$(jq -r '[.fabrics[0].nodes[] | select(.kind == "Ca") | .description | split(" ")[0]] | sort
                 | .[0], .[length / 2 | floor]' "$d/live.json" | paste -sd, -)
  simulate_lft "$d" "$hosts" snapshot
  simulate_lft "$d" "$hosts" dump --lft "$d/dump_fts.txt"
  check "$name: simulate --routing lft routes by the snapshot's tables" "$hosts" \
    diff "$d/simulate.dump.json" "$d/simulate.snapshot.json"
  if [[ $differ != *" 0 with the LID"* ]]; then
    last=$(jq -r '[.fabrics[0].nodes[] | select(.kind == "Ca") | .description | split(" ")[0]] | sort | .[0], .[-1]' \
      "$d/live.json" | paste -sd, -)
    simulate_lft "$d" "$last" snapshot-last
    simulate_lft "$d" "$last" dump-last --lft "$d/dump_fts.txt"
    check "$name: the LID dump_fts skips is routed by the SMP-read tables, not by dump_fts's" \
      "$(grep -o 'cannot reach.*' "$d/simulate.dump-last.json")" \
      test "$(jq -r '.placements[0].node_count' "$d/simulate.snapshot-last.json" 2>/dev/null)" = 2 \
      -a "$(grep -c 'cannot reach' "$d/simulate.dump-last.json")" = 1
  fi

  # Same model as the text parser builds from the real ibnetdiscover's dump of the same fabric.
  "$SLURMTOPO" inspect --fabric "$d/ibnetdiscover.topo" --json >"$d/ibnetdiscover.inspect.json"
  # Only the labels differ: the fabric's name and source, repeated in each switch, group and link rate.
  local unlabelled='del(.fabrics[].name, .fabrics[].source, .switches[].fabric, .groups[].fabric, .link_rates[]?.fabric, .unknown_devices[]?.fabric)'
  check "$name: inspect of the sweep equals inspect of ibnetdiscover's text" \
    "$(jq -r '.groups | length' "$d/live.inspect.json") groups, $(jq -r '.anomalies | length' "$d/live.inspect.json") anomalies" \
    diff <(jq -S "$unlabelled" "$d/ibnetdiscover.inspect.json") <(jq -S "$unlabelled" "$d/live.inspect.json")
  "$SLURMTOPO" emit topology --fabric "$d/live.json" -o "$d/live.conf" 2>/dev/null
  "$SLURMTOPO" emit topology --fabric "$d/ibnetdiscover.topo" -o "$d/ibnetdiscover.conf" 2>/dev/null
  if [[ ${PLANE_ONLY:-false} != true ]]; then
    check "$name: topology.conf groups hosts as the generator intended" \
      "$(grep -c '^SwitchName' "$d/live.conf") switches" diff <(slurm_lines "$d/generated.conf") <(slurm_lines "$d/live.conf")
  fi
  check "$name: topology.conf identical to the one from ibnetdiscover's text" "" \
    diff <(slurm_lines "$d/ibnetdiscover.conf") <(slurm_lines "$d/live.conf")
  # The default keeps 8 SMPs on the wire (as ibdiagnet); one at a time must find the same fabric.
  ibsim_env_run "$SLURMTOPO" discover fabric --smp-window 1 --json >"$d/window1.inspect.json" 2>/dev/null
  check "$name: a sweep with one SMP on the wire finds the same fabric as the default window" "" \
    diff <(jq -S 'del(.fabrics[].source)' "$d/live.inspect.json") <(jq -S 'del(.fabrics[].source)' "$d/window1.inspect.json")
}

# --- a 2-level fat tree, small enough for the fault cases -------------------------------------
# ftree routes only a complete tree (with a cable missing OpenSM falls back to minhop), so the
# missing cable is in the minhop case only.
ft2=(fattree --levels 2 --radix 8 --speed HDR --degrade-cable leaf002,spine01,1x --degrade-cable leaf003,spine02,EDR)
discover_case ft2-ftree ftree "${ft2[@]}"
ibsim_env_stop
discover_case ft2-minhop minhop "${ft2[@]}" --remove-cable leaf004,spine03
d=$WORK/ft2-minhop

# Progress goes to a terminal only: under a pty it shows what was found.
sim_env="cd '$IBSIM_ENV_DIR' && IBSIM_SOCKNAME=$IBSIM_ENV_SOCK SIM_HOST=$IBSIM_ENV_HOST LD_PRELOAD=$IBSIM_ENV_UMAD2SIM"
script -qec "$sim_env timeout 60 '$SLURMTOPO' discover fabric --routes" /dev/null >"$d/tty.out" 2>&1
check "ft2: progress on a terminal" "$(grep -ao 'discover: [0-9]* switches, [0-9]* CAs[^;]*' "$d/tty.out" | tail -n 1)" \
  grep -aq 'discover: 12 switches, 32 CAs' "$d/tty.out"

# A cable taken down between two sweeps: leaf008 shows a missing uplink; with all its uplinks
# down its hosts are gone, and emit refuses to shrink the existing topology.conf.
"$SLURMTOPO" emit topology --fabric "$d/live.json" -o "$d/existing.conf" 2>/dev/null
cp "$d/existing.conf" "$d/existing.before"
leaf8=$(jq -r '.fabrics[0].nodes[] | select(.description | test(";leaf008:")) | .guid[2:]' "$d/live.json")
mapfile -t uplinks < <(jq -r --arg g "0x$leaf8" '.fabrics[0] as $f | ($f.nodes | map({key: .guid, value: .kind}) | from_entries) as $k
  | $f.links[] | select((.a.guid == $g and $k[.b.guid] == "Switch") or (.b.guid == $g and $k[.a.guid] == "Switch"))
  | if .a.guid == $g then .a.port else .b.port end' "$d/live.json")
sweeps=$(ibsim_env_sweeps)
ibsim_env_console "Unlink \"S-$leaf8\"[${uplinks[0]}]"
ibsim_env_wait_resweep $(( sweeps + 1 ))
ibsim_env_run "$SLURMTOPO" discover fabric --json --save "$d/after-unlink.json" >"$d/after-unlink.inspect.json" 2>/dev/null
check "fault: a cable taken down shows as a missing uplink" \
  "$(jq -r '.anomalies[] | select(.kind == "missing-uplinks") | .subject + ": " + .detail' "$d/after-unlink.inspect.json" | grep leaf008)" \
  grep -q '"subject": *"leaf008"' <(jq '.anomalies[] | select(.kind == "missing-uplinks")' "$d/after-unlink.inspect.json")
sweeps=$(ibsim_env_sweeps)
for port in "${uplinks[@]:1}"; do ibsim_env_console "Unlink \"S-$leaf8\"[$port]"; done
ibsim_env_wait_resweep $(( sweeps + 1 ))
ibsim_env_run "$SLURMTOPO" discover fabric --save "$d/cut-off.json" >/dev/null 2>&1
"$SLURMTOPO" emit topology --fabric "$d/cut-off.json" -o "$d/existing.conf" >"$d/shrink.out" 2>&1
rc=$?
check "fault: emit refuses to shrink topology.conf when a leaf is cut off" "exit $rc: $(grep -m1 -i 'drop\|shrink\|refus' "$d/shrink.out")" \
  test "$rc" = 2
check "fault: the existing topology.conf is untouched" "" cmp -s "$d/existing.conf" "$d/existing.before"

# A partial walk (--max-hops) is reported and saves nothing unless --allow-partial.
ibsim_env_run "$SLURMTOPO" discover fabric --max-hops 1 --save "$d/partial.json" >/dev/null 2>"$d/partial.err"
rc=$?
check "partial sweep: exit 3, what is missing, nothing saved" "$(grep -c 'no node answered' "$d/partial.err") ports named" \
  test "$rc" = 3 -a ! -e "$d/partial.json" -a "$(grep -c 'no node answered' "$d/partial.err")" -gt 0
ibsim_env_run "$SLURMTOPO" discover fabric --max-hops 1 --allow-partial --json --save "$d/partial.json" \
  >"$d/partial.inspect.json" 2>/dev/null
rc=$?
check "partial sweep: --allow-partial saves it, as an anomaly" "exit $rc" \
  test "$rc" = 0 -a -s "$d/partial.json" -a "$(anomalies "$d/partial.inspect.json" partial-sweep)" -gt 0
ibsim_env_stop

# No SM: every port has LID 0 (the net file's LIDs zeroed, as before any sweep).
mkdir -p "$WORK/no-sm"
sed -E 's/ lid [0-9]+/ lid 0/g' "$WORK/ft2-minhop/fabric.net" >"$WORK/no-sm/fabric.net"
ibsim_env_start "$WORK/no-sm/sim" "$WORK/no-sm/fabric.net" none
ibsim_env_run "$SLURMTOPO" discover fabric --save "$WORK/no-sm/live.json" >/dev/null 2>"$WORK/no-sm/err"
rc=$?
check "no subnet manager: a clear error, nothing written" "exit $rc: $(head -c 160 "$WORK/no-sm/err")" \
  test "$rc" = 2 -a ! -e "$WORK/no-sm/live.json" -a "$(grep -c 'LID 0' "$WORK/no-sm/err")" = 1
ibsim_env_stop

# --- rail-optimized: 4 SUs x 16 DGX x 4 rails. Rail planes share no cable (they meet only
# inside the hosts), so each is its own subnet; the SM and the sweep attach to dgx001's rail-0
# HCA and see plane 0, which must be exactly the generator's plane 0.
plane0='select(.description | test("mlx5_0$|;su[0-9]+-rail0:|;rail0-spine"))'
model() {
  jq -S --argjson plane "${PLANE_ONLY:-false}" '.fabrics[0] as $f
    | [$f.nodes[] | if $plane then '"$plane0"' else . end | .guid] as $keep
    | {nodes: [$f.nodes[] | select(.guid as $g | $keep | index($g)) | [.kind, .guid, .description, .num_ports, .sysimgguid, .vendor_id, .device_id, .lid]] | sort,
       cables: [$f.links[] | select((.a.guid as $g | $keep | index($g)) and (.b.guid as $g | $keep | index($g)))
                | [.a.guid, .a.port, .b.guid, .b.port, .width, .speed]] | sort}' "$1"
}
PLANE_ONLY=true discover_case railopt-minhop minhop railopt --scalable-units 4 --hosts-per-su 16 --rails 4 --radix 32 \
  --speed HDR --degrade-cable su3-rail0,rail0-spine01,EDR
d=$WORK/railopt-minhop
# The generator's file holds all four planes: its groups (su1 = su1-rail0..3) name more switches
# than plane 0's (su1-rail0), but hold the same hosts.
check "railopt: plane 0 groups the hosts as the generator's scalable units" "" \
  diff <(grep -o 'Nodes=.*' "$d/generated.conf") <(grep -o 'Nodes=.*' "$d/live.conf")
ibsim_env_stop

# --- the largest: a full 3-level fat tree of radix 16 (1,024 HCAs, 320 switches) under ftree --
discover_case ft3-ftree ftree fattree --levels 3 --radix 16 --speed HDR --degrade-cable pod02-agg01,core001,2x
hcas=$(jq '[.fabrics[0].nodes[] | select(.kind == "Ca")] | length' "$WORK/ft3-ftree/live.json")
check "ft3: at least 1,000 HCAs swept" "$hcas" test "$hcas" -ge 1000

# The simulator killed during a sweep: a clear error within the stall limit, nothing written.
d=$WORK/ft3-ftree
ibsim_env_stop_sm  # OpenSM would hang on a dead ibsim; the fabric keeps its LIDs
t=$(date +%s%N)
ibsim_env_run "$SLURMTOPO" discover fabric --routes --timeout-ms 100 --retries 1 --save "$d/killed.json" \
  >/dev/null 2>"$d/killed.err" &
sweep=$!
# Kill once the sweep is talking to ibsim (umad2sim's socket is open), a little into the walk:
# a fixed delay lets a quiet machine finish the whole sweep first.
for _ in $(seq 300); do
  pid=$(pgrep -f -n "discover fabric --routes --timeout-ms 100" || true)
  [[ -n $pid ]] && ls -l "/proc/$pid/fd" 2>/dev/null | grep -q 'socket:' && break
  sleep 0.01
done
sleep 0.1
ibsim_env_kill_ibsim
wait "$sweep"
rc=$?
check "ibsim killed mid-sweep: a clear error, nothing written" "exit $rc after $(ms_since "$t") ms: $(head -c 200 "$d/killed.err")" \
  test "$rc" = 2 -a ! -e "$d/killed.json" -a "$(grep -c 'stopped answering' "$d/killed.err")" = 1
ibsim_env_stop

echo "passed $passed, failed $failed"
(( failed == 0 ))

#!/usr/bin/env bash
# Every topology.conf slurmtopo writes must be accepted by a REAL slurmctld (22.05 on Debian 12;
# SLURM_ENV_RELEASE=24.11 or 26.05 runs that release from a chroot, see slurm_env.sh) without a
# topology warning, and slurmctld must see exactly the switches of the file.
#
#   bash tests/integration/slurmctld_topology_test.sh /path/to/slurmtopo
#
# Exit 0 all passed, 1 a failure, 77 skipped (no slurmctld, not root, or no ../shared fabrics).
set -uo pipefail
export LC_ALL=C # one sort order for every list compared below

SLURMTOPO=${1:?usage: $0 /path/to/slurmtopo}
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(cd "$here/../.." && pwd)
fabrics=$(dirname "$repo")/shared/fabrics/public

skip() { echo "SKIP: $*"; exit 77; }
for tool in slurmctld slurmd scontrol munged mungekey; do
  command -v "$tool" >/dev/null || skip "$tool not installed"
done
(( EUID == 0 )) || skip "needs root (slurmctld runs with SlurmUser=root)"
[[ -d $fabrics ]] || skip "$fabrics not found (the shared fabrics beside the repo)"
[[ -x $SLURMTOPO ]] || { echo "FAIL: $SLURMTOPO is not an executable"; exit 1; }
SLURMTOPO=$(cd "$(dirname "$SLURMTOPO")" && pwd)/$(basename "$SLURMTOPO")

# shellcheck source-path=SCRIPTDIR
source "$here/slurm_env.sh"
WORK=$(mktemp -d "${TMPDIR:-/tmp}/slurmctld_topology_test.XXXXXX")
chmod 755 "$WORK" # munged wants o+x on every directory above its socket
trap 'slurm_env_stop; [[ -n ${KEEP_WORK:-} ]] || rm -rf "$WORK"' EXIT
trap 'exit 130' INT TERM

passed=0 failed=0
pass() { echo "PASS: $1${2:+ ($2)}"; passed=$(( passed + 1 )); }
fail() { echo "FAIL: $1: $2"; failed=$(( failed + 1 )); }
ms_since() { echo $(( ($(date +%s%N) - $1) / 1000000 )); }

# --- reading topology.conf and `scontrol show topology` (same key=value syntax) ---------------

# NAME|NODES|SWITCHES per switch line; keys are case-insensitive, '#' starts a comment.
switch_table() {
  awk '{
    sub(/#.*/, "")
    name = ""; nodes = ""; sw = ""
    for (i = 1; i <= NF; i++) {
      eq = index($i, "="); if (!eq) continue
      key = tolower(substr($i, 1, eq - 1)); val = substr($i, eq + 1)
      if (key == "switchname") name = val
      else if (key == "nodes") nodes = val
      else if (key == "switches") sw = val
    }
    if (name != "") printf "%s|%s|%s\n", name, nodes, sw
  }' "$1"
}

# Expands each hostlist given on stdin (one per line) into one sorted, comma-joined line, with a
# single scontrol call: marker names between the lists keep them apart (scontrol keeps order).
canon_lists() {
  local exprs=() i parts=()
  mapfile -t exprs
  for i in "${!exprs[@]}"; do parts+=("${exprs[i]}" "slurmtopo-test-sep-$i"); done
  (( ${#parts[@]} )) || return 0
  slurm_env_hostnames "${parts[@]}" |
    awk '/^slurmtopo-test-sep-[0-9]+$/ { i++; next } { print i + 0 "\t" $0 }' |
    LC_ALL=C sort -t$'\t' -k1,1n -k2,2 -u |
    awk -F'\t' -v n=${#exprs[@]} '{ if ($1 in list) list[$1] = list[$1] "," $2; else list[$1] = $2 }
      END { for (i = 0; i < n; i++) print list[i] }'
}

declare -A T_NODES T_SWITCHES T_PARENT
T_NAMES=()
load_table() { # FILE -> T_NAMES, T_NODES[name], T_SWITCHES[name] (both canonical), T_PARENT
  local name nodes sw child i=0 rows=() lists=()
  T_NAMES=(); T_NODES=(); T_SWITCHES=(); T_PARENT=()
  mapfile -t rows < <(switch_table "$1")
  for i in "${!rows[@]}"; do
    IFS='|' read -r name nodes sw <<<"${rows[i]}"
    T_NAMES+=("$name")
    lists+=("$nodes" "$sw")
  done
  mapfile -t lists < <(printf '%s\n' "${lists[@]}" | canon_lists)
  for i in "${!T_NAMES[@]}"; do
    name=${T_NAMES[i]}
    T_NODES[$name]=${lists[2 * i]:-}
    T_SWITCHES[$name]=${lists[2 * i + 1]:-}
    for child in ${T_SWITCHES[$name]//,/ }; do T_PARENT[$child]=$name; done
  done
}

# Nodes below a switch into U: its own Nodes= or the union over its Switches=.
declare -A U
subtree_nodes() { # NAME DEPTH
  local name=$1 depth=$2 x
  (( depth < 64 )) || return 0
  if [[ -n ${T_NODES[$name]:-} ]]; then
    for x in ${T_NODES[$name]//,/ }; do U[$x]=1; done
    return 0
  fi
  for x in ${T_SWITCHES[$name]//,/ }; do subtree_nodes "$x" $(( depth + 1 )); done
}

# One line per switch, sorted: "NAME nodes=a,b switches=c,d". For a file, internal switches get
# the union of their subtree, which is what `scontrol show topology` reports for them.
canon_topology() { # FILE from_file|from_scontrol
  local name x
  load_table "$1"
  for name in "${T_NAMES[@]}"; do
    printf '%s\t-\t\n' "$name"
    if [[ $2 == from_file && -z ${T_NODES[$name]} ]]; then
      U=()
      subtree_nodes "$name" 0
      for x in "${!U[@]}"; do printf '%s\tn\t%s\n' "$name" "$x"; done
    else
      for x in ${T_NODES[$name]//,/ }; do printf '%s\tn\t%s\n' "$name" "$x"; done
    fi
    for x in ${T_SWITCHES[$name]//,/ }; do printf '%s\ts\t%s\n' "$name" "$x"; done
  done | sort -u | awk -F'\t' '
    $1 != cur { if (cur != "") print cur " nodes=" n " switches=" s; cur = $1; n = ""; s = "" }
    $2 == "n" { n = n (n == "" ? "" : ",") $3 }
    $2 == "s" { s = s (s == "" ? "" : ",") $3 }
    END { if (cur != "") print cur " nodes=" n " switches=" s }'
}

# Prints how `scontrol show topology` (SHOWN) differs from FILE; 0 when it does not.
topology_diff() { # FILE SHOWN
  diff <(canon_topology "$1" from_file) <(canon_topology "$2" from_scontrol)
}

# --- slurmctld's verdict -----------------------------------------------------------------------

# Log lines that mean slurmctld disagrees with a topology.conf (22.05.8 wording, each seen here;
# 24.11/26.05 say "warning: ..." where 22.05 says "error: WARNING: ...": the patterns match both).
BAD_LOG='Invalid hostnames in switch configuration|switches lack access|Multiple leaf switches contain nodes|not a tree|invalid child|already been defined|neither child switches nor nodes|both child switches and nodes|No switches configured|lookup failure for node|fatal'
NO_ROOT_LOG='no switch can reach all nodes'

# The nodes a topology file names, one per line (after load_table).
table_nodes() {
  local name x
  for name in "${T_NAMES[@]}"; do
    for x in ${T_NODES[$name]//,/ }; do echo "$x"; done
  done | sort -u
}

CHECK_WHY=""
# check_topology TOPOLOGY_CONF CASE_DIR [NODELIST]: start slurmctld with the file's nodes (or
# NODELIST) declared, compare what it shows and read its log. 0 = accepted cleanly; else
# CHECK_WHY says why.
check_topology() {
  local topo=$1 dir=$2 nodelist=${3:-} roots=0 name t0 start_ms problems
  CHECK_WHY=""
  load_table "$topo"
  if (( ${#T_NAMES[@]} == 0 )); then CHECK_WHY="no SwitchName lines"; return 1; fi
  for name in "${T_NAMES[@]}"; do [[ -n ${T_PARENT[$name]:-} ]] || roots=$(( roots + 1 )); done
  if [[ -z $nodelist ]]; then
    nodelist=$dir/nodes
    table_nodes >"$nodelist"
  fi

  t0=$(date +%s%N)
  if ! slurm_env_start "$dir/slurm" "$nodelist" "$topo" 2>"$dir/start.err"; then
    CHECK_WHY="slurmctld did not come up: $(grep -h -m3 -E 'fatal|error' "$(slurm_env_log)" "$dir/start.err" | tr '\n' ' ')"
    slurm_env_stop
    return 1
  fi
  start_ms=$(ms_since "$t0")
  slurm_env_topology >"$dir/shown" 2>&1
  slurm_env_stop # the log is complete once slurmctld read the file; stop before judging it

  problems=$(grep -E "$BAD_LOG" "$dir/slurm/slurmctld.log" | sed 's/^\[[^]]*\] //' | head -n 5)
  if [[ -n $problems ]]; then CHECK_WHY="slurmctld log: $(tr '\n' ' ' <<<"$problems")"; return 1; fi
  if ! topology_diff "$topo" "$dir/shown" >"$dir/diff"; then
    CHECK_WHY="scontrol show topology differs from the file: $(head -c 600 "$dir/diff" | tr '\n' ' ')"
    return 1
  fi
  # Several roots are right only for separate fabrics; slurmctld must then say so, and only then.
  if (( roots > 1 )) && ! grep -q "$NO_ROOT_LOG" "$dir/slurm/slurmctld.log"; then
    CHECK_WHY="$roots roots but slurmctld did not warn '$NO_ROOT_LOG'"; return 1
  fi
  if (( roots == 1 )) && grep -q "$NO_ROOT_LOG" "$dir/slurm/slurmctld.log"; then
    CHECK_WHY="one root yet slurmctld: $NO_ROOT_LOG"; return 1
  fi
  CHECK_WHY="${#T_NAMES[@]} switches, $roots root(s), $(wc -l <"$nodelist") nodes, slurmctld up in ${start_ms} ms"
  return 0
}

# --- cases ---------------------------------------------------------------------------------------
case_no=0
new_case_dir() { case_no=$(( case_no + 1 )); dir=$WORK/$case_no; mkdir -p "$dir/out"; } # sets dir

# emit_case NAME EXPECT FABRIC [EXTRA ARGS...]; EXPECT: accept (must write a file slurmctld takes
# cleanly), refuse (must exit 2 and write nothing), either (a refusal must still be clean).
emit_case() {
  local name=$1 expect=$2 fabric=$3 dir rc
  shift 3
  new_case_dir
  "$SLURMTOPO" emit topology --fabric "$fabric" "$@" -o "$dir/out/topology.conf" >"$dir/emit.out" 2>"$dir/emit.err"
  rc=$?
  if (( rc == 2 )); then
    if [[ -n $(ls -A "$dir/out") ]]; then
      fail "$name" "exit 2 but wrote $(find "$dir/out" -mindepth 1 -printf '%f ')"
    elif [[ ! -s $dir/emit.err ]]; then
      fail "$name" "exit 2 without saying why on stderr"
    elif [[ $expect == accept ]]; then
      fail "$name" "refused: $(head -n 3 "$dir/emit.err" | tr '\n' ' ')"
    else
      pass "$name" "refused with exit 2, nothing written: $(head -n 1 "$dir/emit.err")"
    fi
    return
  fi
  if (( rc != 0 )); then
    fail "$name" "slurmtopo exit $rc: $(head -n 3 "$dir/emit.err" | tr '\n' ' ')"
    return
  fi
  if [[ $expect == refuse ]]; then fail "$name" "expected exit 2, got 0"; return; fi
  if [[ ! -s $dir/out/topology.conf ]]; then fail "$name" "exit 0 but no topology.conf"; return; fi
  if check_topology "$dir/out/topology.conf" "$dir"; then pass "$name" "$CHECK_WHY"
  else fail "$name" "$CHECK_WHY"; fi
}

echo "== slurmtopo emit topology on the public ibnetdiscover dumps"
emit_case "topograph/example-bad.out (no switches)" refuse "$fabrics/topograph/example-bad.out"
emit_case "topograph/example.out" accept "$fabrics/topograph/example.out"
emit_case "psmn_x5/X5.topofile + X5.map" accept "$fabrics/psmn_x5/X5.topofile" \
  --node-name-map "$fabrics/psmn_x5/X5.map"
# 1.topo (`man ibnetdiscover`) names no host at all: its 4 HCAs say "MT23108 InfiniHost ...".
emit_case "ibtopotool_tests/1.topo (no host names)" either "$fabrics/ibtopotool_tests/1.topo"
for n in 2 3 4; do
  emit_case "ibtopotool_tests/$n.topo" accept "$fabrics/ibtopotool_tests/$n.topo"
done
emit_case "superbench/ib_traffic_topo_aware_ibnetdiscover.txt" accept \
  "$fabrics/superbench/ib_traffic_topo_aware_ibnetdiscover.txt"
emit_case "synthetic_fattree/k-4-n-3-Full.topo" accept "$fabrics/synthetic_fattree/k-4-n-3-Full.topo"

echo "== slurmtopo emit topology on generated fabrics"
gen_case() { # NAME GENERATE-ARGS...
  local name=$1 dir
  shift
  new_case_dir
  if ! "$SLURMTOPO" generate "$@" -o "$dir/fabric.topo" >"$dir/gen.out" 2>"$dir/gen.err"; then
    fail "$name" "slurmtopo generate $*: $(head -n 3 "$dir/gen.err" | tr '\n' ' ')"
    return
  fi
  emit_case "$name" accept "$dir/fabric.topo"
}
gen_case "generated fattree --levels 3 --radix 8" fattree --levels 3 --radix 8
gen_case "generated fattree --levels 2 --radix 16 --rails 2" fattree --levels 2 --radix 16 --rails 2
gen_case "generated railopt --scalable-units 4 --hosts-per-su 8" railopt --scalable-units 4 --hosts-per-su 8

echo "== controls: the harness itself (hand-written topology.conf, no slurmtopo)"
# must_fail_start NAME FILE LOG_PATTERN: slurmctld must die on FILE and log LOG_PATTERN.
must_fail_start() {
  local name=$1 topo=$2 pattern=$3 dir
  new_case_dir
  load_table "$topo"
  table_nodes >"$dir/nodes"
  if slurm_env_start "$dir/slurm" "$dir/nodes" "$topo" 2>"$dir/start.err"; then
    fail "$name" "slurmctld accepted it"
  elif grep -qE "$pattern" "$(slurm_env_log)"; then
    pass "$name" "slurmctld died: $(grep -m1 -E "$pattern" "$(slurm_env_log)" | sed 's/^\[[^]]*\] //')"
  else
    fail "$name" "slurmctld died without '$pattern': $(tail -n 2 "$(slurm_env_log)" | tr '\n' ' ')"
  fi
  slurm_env_stop
}
# must_be_flagged NAME FILE WHY_PATTERN [NODELIST]: slurmctld runs, but check_topology must fail.
must_be_flagged() {
  local name=$1 topo=$2 pattern=$3 nodelist=${4:-} dir
  new_case_dir
  if check_topology "$topo" "$dir" "$nodelist"; then
    fail "$name" "the check did not notice: $CHECK_WHY"
  elif [[ $CHECK_WHY =~ $pattern ]]; then
    pass "$name" "caught: ${CHECK_WHY:0:160}"
  else
    fail "$name" "failed for another reason: $CHECK_WHY"
  fi
}
controls=$WORK/controls
mkdir -p "$controls"
printf 'SwitchName=s1 Nodes=n[1-2]\nSwitchName=s2 Nodes=n[3-4]\nSwitchName=a Switches=s1,b\nSwitchName=b Switches=s2,a\n' \
  >"$controls/cycle.conf"
printf 'SwitchName=s1 Nodes=n[1-2]\nSwitchName=s1 Nodes=n[3-4]\nSwitchName=top Switches=s1\n' >"$controls/dup.conf"
printf 'SwitchName=s1 Nodes=n[1-2]\nSwitchName=s2 Nodes=n[3-4],ghost1\nSwitchName=top Switches=s[1-2]\n' \
  >"$controls/ghost.conf"
printf 'n[1-4]\n' >"$controls/four.nodes"
printf 'SwitchName=s1 Nodes=n[1-2]\nSwitchName=s2 Nodes=n[3-4]\nSwitchName=top Switches=s[1-2]\n' >"$controls/good.conf"
printf 'n[1-5]\n' >"$controls/extra.nodes"

must_fail_start "control: switch cycle is fatal" "$controls/cycle.conf" 'fatal: Switch configuration is not a tree'
must_fail_start "control: duplicate SwitchName is fatal" "$controls/dup.conf" 'fatal: Switch \(s1\) has already been defined'
must_fail_start "control: psmn_x5/X5.topology.conf (real, has a cycle)" "$fabrics/psmn_x5/X5.topology.conf" \
  'fatal: Switch configuration is not a tree'
must_be_flagged "control: node not in slurm.conf is flagged" "$controls/ghost.conf" \
  'Invalid hostnames in switch configuration' "$controls/four.nodes"
must_be_flagged "control: node under no switch is flagged" "$controls/good.conf" 'switches lack access' \
  "$controls/extra.nodes"
must_be_flagged "control: slurm-superpod_circe (real, node under two leaves)" \
  "$fabrics/topology_conf/slurm-superpod_circe.topology.conf" 'Multiple leaf switches contain nodes'
new_case_dir
name="control: the comparison notices a node slurmctld dropped"
if slurm_env_start "$dir/slurm" "$controls/four.nodes" "$controls/ghost.conf" 2>"$dir/start.err"; then
  slurm_env_topology >"$dir/shown"
  if topology_diff "$controls/ghost.conf" "$dir/shown" >"$dir/diff"; then fail "$name" "no difference found"
  else pass "$name" "$(grep -m1 '^<' "$dir/diff")"; fi
else
  fail "$name" "slurmctld did not start: $(head -n 2 "$dir/start.err")"
fi
slurm_env_stop

# Emulated slurmd (MULTIPLE_SLURMD): 2 nodes must be placed on one leaf of good.conf.
new_case_dir
name="control: 4 emulated slurmd, salloc -N 2 stays on one leaf"
if ! slurm_env_start "$dir/slurm" "$controls/four.nodes" "$controls/good.conf" 2>"$dir/start.err"; then
  fail "$name" "slurmctld did not start: $(head -n 2 "$dir/start.err")"
elif ! slurm_env_start_slurmd n1 n2 n3 n4 2>"$dir/slurmd.err"; then
  fail "$name" "$(head -n 2 "$dir/slurmd.err")"
elif ! timeout 30 "${SLURM_ENV_RUN[@]}" salloc --no-shell --immediate=10 --exclusive -N 2 >"$dir/salloc.out" 2>&1; then
  fail "$name" "salloc: $(tr '\n' ' ' <"$dir/salloc.out")"
else
  placed=$(squeue -h -o %N | head -n 1)
  case $placed in
    "n[1-2]" | "n[3-4]") pass "$name" "placed on $placed" ;;
    *) fail "$name" "placed on '$placed', expected n[1-2] or n[3-4]" ;;
  esac
fi
slurm_env_stop

new_case_dir
if check_topology "$fabrics/topology_conf/maatthias_slurm-cluster.topology.conf" "$dir"; then
  pass "control: maatthias_slurm-cluster (real, 4 separate roots) is clean" "$CHECK_WHY"
else
  fail "control: maatthias_slurm-cluster (real, 4 separate roots) is clean" "$CHECK_WHY"
fi

echo "$passed passed, $failed failed"
(( failed == 0 ))

#!/usr/bin/env bash
# `slurmtopo place` must predict exactly the nodes a REAL slurmctld (Debian's 22.05,
# select/cons_tres, topology/tree; SLURM_ENV_RELEASE=24.11 or 26.05 runs that release from a
# chroot, see slurm_env.sh) allocates, with `place --slurm-version` set to the release running.
# 64 emulated slurmd nodes; a seeded random set of
# configurations (2- and 3-level trees written directly, node weights, nodes under no switch,
# TopologyParam=TopoOptional and Dragonfly; on 24.11 and 26.05 also topology/block with random
# BlockSizes, jobs with --segment or --exclusive=topo and, on 26.05, --consolidate-segments,
# --spread-segments and TopologyParam=BlockAsNodeRank) and, for each, sequences of jobs: some nodes made
# busy with `salloc -w`, then `salloc --exclusive -N n [--switches=k]` jobs of random size that
# stay running, so each next job sees the nodes of the earlier ones busy. Every job is compared
# with `slurmtopo place` on the same inputs (nodes, weights, busy nodes, topology.conf); a job
# left pending for --switches=k is run again as --switches=k@0 and must get the nodes `place`
# said it waits for. Hand-worked control cases run first (docs/placement.md). A job counts as
# agreement when both grant it the same nodes or both refuse it; the summary says how many of
# each (requests larger than the free nodes are ~5 % of the random jobs).
#
#   bash tests/integration/slurm_placement_test.sh /path/to/slurmtopo
#
# PLACEMENT_SEED picks another random set; KEEP_WORK=1 keeps the temp dir (configs, logs).
# Exit 0 all identical, 1 a mismatch, 77 skipped (no slurmctld/slurmd/salloc, not root).
set -uo pipefail
export LC_ALL=C

SLURMTOPO=${1:?usage: $0 /path/to/slurmtopo}
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)

skip() { echo "SKIP: $*"; exit 77; }
for tool in slurmctld slurmd scontrol salloc squeue scancel sinfo munged mungekey; do
  command -v "$tool" >/dev/null || skip "$tool not installed"
done
(( EUID == 0 )) || skip "needs root (slurmctld runs with SlurmUser=root)"
[[ -x $SLURMTOPO ]] || { echo "FAIL: $SLURMTOPO is not an executable"; exit 1; }
SLURMTOPO=$(cd "$(dirname "$SLURMTOPO")" && pwd)/$(basename "$SLURMTOPO")

# shellcheck source-path=SCRIPTDIR
source "$here/slurm_env.sh"
WORK=$(mktemp -d "${TMPDIR:-/tmp}/slurm_placement_test.XXXXXX")
chmod 755 "$WORK" # munged wants o+x on every directory above its socket
SALLOC_PID="" # the salloc running now; reaped ones are forgotten (their PIDs may be reused)
cleanup() {
  if [[ -n $SALLOC_PID ]]; then kill "$SALLOC_PID" 2>/dev/null; wait "$SALLOC_PID" 2>/dev/null; fi
  slurm_env_stop
  [[ -n ${KEEP_WORK:-} ]] || rm -rf "$WORK"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

SEED=${PLACEMENT_SEED:-5}
RANDOM=$SEED
NODE_COUNT=64
# Unpadded names, and slurm.conf lists the upper half first: slurmctld must still order its
# node table gpu1, gpu2, ..., gpu9, gpu10 (natural sort), which `place` assumes.
NODE_EXPR="gpu[1-64]"
NODE_LINES=$'gpu[33-64]\ngpu[1-32]'
mapfile -t ALL_NODES < <(slurm_env_hostnames "$NODE_EXPR")
# place gets the nodes in slurm.conf's order, as an admin's --slurm-conf gives them: some
# releases keep that order for their node table (topology/block of 23.11-24.11).
PLACE_NODES=${NODE_LINES//$'\n'/,}
# Small emulated nodes: 2 cores each (config_overrides lets slurmd report them).
NODE_CPUS=2
export SLURM_ENV_NODE_ATTRS="CPUs=2 Sockets=1 CoresPerSocket=2 ThreadsPerCore=1 RealMemory=1000"
export SLURM_ENV_AUTH=munge

passed=0 failed=0 scenario=0 granted=0 refused=0 oversized=0
started_at=$SECONDS
say() { echo "$*"; }
# Short sleeps without forking `sleep` (hundreds of polls): read with a timeout on a FIFO
# nobody writes to.
mkfifo "$WORK/never"
exec {NEVER_FD}<>"$WORK/never"
nap() { read -r -t "$1" -u "$NEVER_FD" _; }
slurp() { IFS= read -r -d '' "$1" <"$2"; return 0; } # VAR FILE, no fork
file_has() { # FILE PATTERN (glob): without forking grep
  local text
  slurp text "$1"
  [[ $text == *$2* ]]
}
# Milliseconds since T0 (microseconds from EPOCHREALTIME), without forking `date`.
ms_since() { local t=${EPOCHREALTIME/[.,]/}; echo $(( (t - $1) / 1000 )); }
add_ms() { local t=${EPOCHREALTIME/[.,]/}; printf -v "$1" '%d' $(( ${!1} + (t - $2) / 1000 )); } # VAR T0, no fork

# ---- random helpers (bash's RANDOM, seeded: the same seed gives the same run) --------------

rand() { echo $(( RANDOM % ($2 - $1 + 1) + $1 )); } # LO HI, inclusive
shuffled() { # NAME... -> the names in a random order, one per line
  local a=("$@") i j t
  for (( i = ${#a[@]} - 1; i > 0; i-- )); do
    j=$(( RANDOM % (i + 1) )); t=${a[i]}; a[i]=${a[j]}; a[j]=$t
  done
  (( ${#a[@]} )) && printf '%s\n' "${a[@]}"
}
join_by() { local IFS=$1; shift; echo "$*"; }
# Cuts COUNT items into PARTS random non-empty sizes, printed one per line.
random_sizes() {
  local count=$1 parts=$2 cuts=() i
  mapfile -t cuts < <(shuffled $(seq 1 $(( count - 1 ))) | head -n $(( parts - 1 )) | sort -n)
  local prev=0
  for i in "${cuts[@]}" "$count"; do echo $(( i - prev )); prev=$i; done
}

# ---- one configuration: topology.conf, weights ---------------------------------------------

CFG_DIR="" CFG_TOPO="" CFG_WEIGHTS="" CFG_SWITCHES=0
COVERED=() # nodes below some leaf switch

# 2- or 3-level tree over a random arrangement of the nodes. Leaves get random sizes, lines
# come in random order, some nodes may stay under no switch.
gen_tree() { # LEVELS
  local levels=$1 nodes=() leaves pods i j k size name uncovered=0 lines=() leaf_names=() sizes=()
  if (( RANDOM % 3 == 0 )); then mapfile -t nodes < <(shuffled "${ALL_NODES[@]}")
  else nodes=("${ALL_NODES[@]}"); fi
  (( RANDOM % 4 == 0 )) && uncovered=$(rand 1 4)
  COVERED=("${nodes[@]:0:$(( NODE_COUNT - uncovered ))}")
  if (( levels == 2 )); then leaves=$(rand 3 10); else pods=$(rand 2 4); leaves=$(( pods * $(rand 2 4) )); fi
  mapfile -t sizes < <(random_sizes ${#COVERED[@]} "$leaves")
  k=0
  for (( i = 0; i < leaves; i++ )); do
    size=${sizes[i]}
    name=leaf$(( i + 1 ))
    leaf_names+=("$name")
    lines+=("SwitchName=$name Nodes=$(join_by , "${COVERED[@]:k:size}")")
    k=$(( k + size ))
  done
  CFG_SWITCHES=$leaves
  {
    echo "# placement test: $levels levels, $leaves leaves, $uncovered nodes under no switch"
    shuffled "${lines[@]}"
    if (( levels == 2 )); then
      echo "SwitchName=root Switches=$(join_by , "${leaf_names[@]}")"
      CFG_SWITCHES=$(( CFG_SWITCHES + 1 ))
    else
      # Pods of random sizes over the leaves in name order; their lines in random order.
      local pod_sizes=() agg_lines=() aggs=()
      mapfile -t pod_sizes < <(random_sizes "$leaves" "$pods")
      k=0
      for (( j = 0; j < pods; j++ )); do
        agg_lines+=("SwitchName=pod$(( j + 1 )) Switches=$(join_by , "${leaf_names[@]:k:${pod_sizes[j]}}")")
        aggs+=("pod$(( j + 1 ))")
        k=$(( k + pod_sizes[j] ))
      done
      shuffled "${agg_lines[@]}"
      echo "SwitchName=root Switches=$(join_by , "${aggs[@]}")"
      CFG_SWITCHES=$(( CFG_SWITCHES + pods + 1 ))
    fi
  } >"$CFG_TOPO"
}

# topology/block over the 64 nodes: base blocks of 4 or 8 nodes (in node order or over a
# shuffled order), in line order, with a random BlockSizes= (or none: slurmctld's default).
CFG_BLOCKS="" # the base block size of a block configuration, empty for a tree
gen_block() {
  local nodes=() size count i sizes=() choice
  if (( RANDOM % 3 == 0 )); then mapfile -t nodes < <(shuffled "${ALL_NODES[@]}")
  else nodes=("${ALL_NODES[@]}"); fi
  size=$(( RANDOM % 2 ? 4 : 8 ))
  count=$(( NODE_COUNT / size ))
  CFG_BLOCKS=$size
  COVERED=("${nodes[@]}")
  choice=$(( RANDOM % 5 ))
  case $choice in
    0) sizes=() ;;                                        # slurmctld's default
    1) sizes=("$size") ;;                                 # base blocks only
    2) sizes=("$size" $(( size * 2 )) $(( size * 4 ))) ;;
    3) sizes=("$size" $(( size * 4 ))) ;;                 # a level skipped
    4) sizes=("$size" $(( size * 2 )) $(( size * 8 ))) ;;
  esac
  {
    echo "# placement test: $count base blocks of $size${sizes[*]:+, BlockSizes=$(join_by , "${sizes[@]}")}"
    for (( i = 0; i < count; i++ )); do
      echo "BlockName=b$(( i + 1 )) Nodes=$(join_by , "${nodes[@]:i*size:size}")"
    done
    (( ${#sizes[@]} )) && echo "BlockSizes=$(join_by , "${sizes[@]}")"
  } >"$CFG_TOPO"
}
# BlockName=NAME ... Nodes=HOSTLIST lines on stdin -> "NAME|sorted,nodes" rows, sorted.
block_table() {
  local name nodes
  awk '{ b = ""; n = ""
      for (i = 1; i <= NF; i++) { split($i, kv, "="); k = tolower(kv[1])
        if (k == "blockname") b = kv[2]; else if (k == "nodes") n = kv[2] }
      if (b != "" && n != "") print b, n }' |
    while read -r name nodes; do echo "$name|$(canon "$nodes")"; done | sort
}

# Half of the configurations get weight tiers: random node sets of weight 5, 20 or 100.
gen_weights() {
  CFG_WEIGHTS=""
  (( RANDOM % 2 == 0 )) && return
  local tiers t w picked=() spec=()
  tiers=$(rand 1 3)
  local pool=()
  mapfile -t pool < <(shuffled "${ALL_NODES[@]}")
  local at=0 count
  for (( t = 0; t < tiers; t++ )); do
    w=$(( t == 0 ? 5 : (t == 1 ? 20 : 100) ))
    count=$(rand 4 20)
    picked=("${pool[@]:at:count}")
    at=$(( at + count ))
    spec+=("$(join_by , "${picked[@]}")=$w")
  done
  CFG_WEIGHTS=$(join_by , "${spec[@]}")
}

# Writes Weight= into the running slurm.conf's NodeName lines (1 where none is given).
apply_weights() {
  local conf=$SLURM_ENV_DIR/slurm.conf map=$CFG_DIR/weights.map
  : >"$map"
  if [[ -n $CFG_WEIGHTS ]]; then
    # "a,b=5,c=20" -> lines "a 5", "b 5", "c 20"
    echo "$CFG_WEIGHTS" | awk -F, '{
      n = 0
      for (i = 1; i <= NF; i++) {
        if (index($i, "=")) { split($i, kv, "="); names[++n] = kv[1]; for (j = 1; j <= n; j++) print names[j], kv[2]; n = 0 }
        else names[++n] = $i
      }
    }' >"$map"
  fi
  awk -v map="$map" '
    BEGIN { while ((getline line < map) > 0) { split(line, f, " "); w[f[1]] = f[2] } }
    /^NodeName=/ {
      sub(/ Weight=[0-9]+/, "")
      split($1, nm, "="); if (nm[2] in w) $0 = $0 " Weight=" w[nm[2]]
    }
    { print }' "$conf" >"$conf.new" && mv "$conf.new" "$conf"
}

wait_idle() { # all nodes idle, nothing running
  local i n
  for (( i = 0; i < 600; i++ )); do
    n=$(sinfo -h -t idle -o %D 2>/dev/null | awk '{ s += $1 } END { print s + 0 }')
    [[ $n == "$NODE_COUNT" ]] && [[ -z $(squeue -h -o %i 2>/dev/null) ]] && return 0
    nap 0.05
  done
  echo "FAIL: nodes not idle after 30 s: $(sinfo -h -o '%D %T' | tr '\n' ' ')"
  return 1
}

T_CANCEL=0 T_CONFIG=0 T_SALLOC=0 T_PLACE=0 # ms spent, for the summary
cancel_all() {
  local ids=() t0 rc
  t0=${EPOCHREALTIME/[.,]/}
  TOPO_BUSY=""
  mapfile -t ids < <(squeue -h -o %i 2>/dev/null)
  (( ${#ids[@]} )) && scancel "${ids[@]}"
  wait_idle
  rc=$?
  add_ms T_CANCEL "$t0"
  return $rc
}

# Installs the configuration in the running slurmctld (reconfigure re-reads both files).
use_config() {
  local shown i t0
  cancel_all || return 1
  t0=${EPOCHREALTIME/[.,]/}
  cp "$CFG_TOPO" "$SLURM_ENV_DIR/topology.conf"
  apply_weights
  scontrol reconfigure || { echo "FAIL: scontrol reconfigure"; return 1; }
  if [[ -n $CFG_BLOCKS ]]; then
    # Base blocks: the same names and nodes as the file (a count alone cannot tell two
    # configurations of as many blocks apart).
    local want
    want=$(block_table <"$CFG_TOPO")
    for (( i = 0; i < 200; i++ )); do
      shown=$(scontrol show topology 2>/dev/null | block_table)
      [[ $shown == "$want" ]] && break
      nap 0.05
    done
    [[ $shown == "$want" ]] || { echo "FAIL: slurmctld shows other blocks than $CFG_TOPO: ${shown:0:200}"; return 1; }
  else
    for (( i = 0; i < 200; i++ )); do
      shown=$(scontrol show topology 2>/dev/null | grep -c '^SwitchName=')
      [[ $shown == "$CFG_SWITCHES" ]] && break
      nap 0.05
    done
    [[ $shown == "$CFG_SWITCHES" ]] || { echo "FAIL: slurmctld shows $shown switches, expected $CFG_SWITCHES"; return 1; }
  fi
  wait_idle
  add_ms T_CONFIG "$t0"
}

# ---- one job: real allocation vs prediction -------------------------------------------------

JOB_STATE="" JOB_ID="" JOB_NODES="" JOB_MSG=""
# salloc --no-shell: granted (the job keeps running) or pending (cancelled at once: a job that
# cannot start at submission stays pending, so waiting out --immediate adds nothing).
run_salloc() {
  local out=$WORK/salloc.out pid i text
  : >"$out"
  "${SLURM_ENV_RUN[@]}" salloc --no-shell --immediate=5 "$@" >"$out" 2>&1 &
  pid=$!
  SALLOC_PID=$pid
  JOB_STATE="" JOB_ID="" JOB_NODES=""
  # salloc --no-shell exits right after a grant; a pending job keeps it waiting.
  for (( i = 0; i < 3000; i++ )); do
    file_has "$out" "Pending job allocation" && break
    kill -0 "$pid" 2>/dev/null || break
    nap 0.005
  done
  slurp text "$out"
  if [[ $text =~ (Granted|Pending)\ job\ allocation\ ([0-9]+) ]]; then JOB_ID=${BASH_REMATCH[2]}; fi
  if [[ $text == *"Pending job allocation"* ]]; then
    JOB_STATE=pending
    [[ -n $JOB_ID ]] && scancel "$JOB_ID"
  fi
  wait "$pid" 2>/dev/null
  SALLOC_PID=""
  slurp text "$out"
  if [[ -z $JOB_STATE ]]; then
    if [[ $text == *"Granted job allocation"* ]]; then JOB_STATE=granted; else JOB_STATE=error; fi
  fi
  text=${text%$'\n'}
  JOB_MSG=${text//$'\n'/ }
  JOB_MSG=${JOB_MSG#"salloc: Granted job allocation $JOB_ID"}
  if [[ $JOB_STATE == granted ]]; then
    JOB_NODES=$(squeue -h -j "$JOB_ID" -o %N)
  fi
}

BUSY="" BUSY_COUNT=0
read_busy() { # nodes of running jobs: BUSY (comma-joined hostlists), BUSY_COUNT
  local lines
  lines=$(squeue -h -t R -o '%D %N')
  BUSY=$(awk '{ print $2 }' <<<"$lines" | paste -sd, -)
  BUSY_COUNT=$(awk '{ s += $1 } END { print s + 0 }' <<<"$lines")
}

canon() { # HOSTLIST -> sorted names, comma-joined
  [[ -z $1 ]] && return 0
  slurm_env_hostnames "$1" | sort | paste -sd, -
}

PHASE_PARAM=""
JOB_OPTS=() # more job options, given to both salloc and place (--segment=N, ...)
JOB_EXCLUSIVE=--exclusive # or --exclusive=topo (topology/block: whole base blocks)
TOPO_BUSY="" # nodes of running --exclusive=topo jobs (their blocks are closed to others)
PREDICTED_WAIT=0 # the last prediction was "waits for --switches"
# check_job N [SWITCHES]: predict, allocate for real, compare. BUSY must be current (read_busy).
check_job() {
  local count=$1 switches=${2:-} busy=$BUSY predicted rc desc args=()
  args=(place --topology "$SLURM_ENV_DIR/topology.conf" --nodes "$PLACE_NODES" --cpus "$NODE_CPUS" -N "$count" "$JOB_EXCLUSIVE"
        --slurm-version "$SLURM_ENV_RELEASE")
  [[ -n $CFG_WEIGHTS ]] && args+=(--weights "$CFG_WEIGHTS")
  [[ -n $busy ]] && args+=(--busy "$busy")
  [[ -n $TOPO_BUSY ]] && args+=(--busy-topo "$TOPO_BUSY")
  [[ -n $switches ]] && args+=(--switches "$switches")
  [[ -n $PHASE_PARAM ]] && args+=(--topology-param "$PHASE_PARAM")
  args+=("${JOB_OPTS[@]}")
  local t0
  t0=${EPOCHREALTIME/[.,]/}
  predicted=$("$SLURMTOPO" "${args[@]}" 2>"$WORK/place.err")
  rc=$?
  add_ms T_PLACE "$t0"
  PREDICTED_WAIT=0
  file_has "$WORK/place.err" "waits up to" && PREDICTED_WAIT=1
  local salloc_args=("$JOB_EXCLUSIVE" -N "$count")
  [[ -n $switches ]] && salloc_args+=("--switches=$switches")
  salloc_args+=("${JOB_OPTS[@]}")
  t0=${EPOCHREALTIME/[.,]/}
  run_salloc "${salloc_args[@]}"
  add_ms T_SALLOC "$t0"
  scenario=$(( scenario + 1 ))
  desc="#$scenario $CFG_NAME${PHASE_PARAM:+ $PHASE_PARAM}: -N $count${switches:+ --switches=$switches}${JOB_OPTS[*]:+ ${JOB_OPTS[*]}}"
  [[ $JOB_EXCLUSIVE == --exclusive ]] || desc+=" $JOB_EXCLUSIVE"
  desc+=", busy=${busy:-none}${TOPO_BUSY:+ (blocks kept whole: $TOPO_BUSY)}"
  if (( rc == 2 )) && [[ $JOB_STATE == error && $JOB_MSG == *"fatal: "* ]] &&
    file_has "$WORK/place.err" "${JOB_MSG#*fatal: }"; then
    # salloc itself refused the options (26.05: a --segment that does not divide the job);
    # place must refuse them with the same words.
    passed=$(( passed + 1 )) refused=$(( refused + 1 ))
    say "ok   $desc -> refused by salloc and by place (${JOB_MSG:0:80})"
    return
  fi
  if (( rc != 0 && rc != 3 )); then
    failed=$(( failed + 1 ))
    say "FAIL $desc: slurmtopo place exited $rc: $(head -n 2 "$WORK/place.err" | tr '\n' ' ')"
    return
  fi
  if [[ $JOB_STATE == granted ]]; then
    # What slurmctld granted is what the next jobs see, whatever was predicted.
    [[ $JOB_EXCLUSIVE == --exclusive=topo ]] && TOPO_BUSY+=${TOPO_BUSY:+,}$JOB_NODES
    if (( rc == 0 )) && { [[ $predicted == "$JOB_NODES" ]] || [[ $(canon "$predicted") == "$(canon "$JOB_NODES")" ]]; }; then
      passed=$(( passed + 1 )) granted=$(( granted + 1 ))
      say "ok   $desc -> $JOB_NODES"
    else
      failed=$(( failed + 1 ))
      say "FAIL $desc: slurmctld allocated $JOB_NODES, slurmtopo predicted ${predicted:-'cannot start'} ($(head -n 1 "$WORK/place.err"))"
      say "     topology: $CFG_TOPO weights: ${CFG_WEIGHTS:-none}"
      "$SLURMTOPO" "${args[@]}" --explain 2>&1 | sed 's/^/     | /'
      cp "$CFG_TOPO" "$WORK/mismatch-$scenario.topology.conf"
    fi
  else
    # place says whether the job waits (pending) or never runs (slurmctld refuses it when it
    # is submitted): salloc must show the same.
    local never=0
    file_has "$WORK/place.err" "can never start" && never=1
    if (( rc == 3 )) && (( never )) && [[ $JOB_STATE != error || $JOB_MSG != *"$(sed -n 's/.*refuses it when it is submitted ("\(.*\)").*/\1/p' "$WORK/place.err")"* ]]; then
      failed=$(( failed + 1 ))
      say "FAIL $desc: slurmtopo says the job can never start, slurmctld: $JOB_STATE (${JOB_MSG:0:120})"
    elif (( rc == 3 )) && (( ! never )) && [[ $JOB_STATE == error ]]; then
      failed=$(( failed + 1 ))
      say "FAIL $desc: slurmtopo says the job waits, slurmctld refused it at submission (${JOB_MSG:0:120})"
    elif (( rc == 3 )); then
      passed=$(( passed + 1 )) refused=$(( refused + 1 ))
      (( never )) && NEVER=$(( ${NEVER:-0} + 1 ))
      say "ok   $desc -> $( (( never )) && echo "never runs" || echo "cannot start now") (${JOB_MSG:0:80})"
    else
      failed=$(( failed + 1 ))
      say "FAIL $desc: slurmctld did not start it (${JOB_MSG:0:120}), slurmtopo predicted $predicted"
      say "     topology: $CFG_TOPO weights: ${CFG_WEIGHTS:-none}"
      "$SLURMTOPO" "${args[@]}" --explain 2>&1 | sed 's/^/     | /'
      cp "$CFG_TOPO" "$WORK/mismatch-$scenario.topology.conf"
    fi
  fi
}

# Allocates NODES to jobs that stay: one `salloc -w` for all of them, or with topology/block
# one per base block (slurmctld refuses required nodes spread over blocks).
make_busy() { # NODE...
  local groups=() group
  if [[ -n $CFG_BLOCKS ]]; then
    local -A wanted=()
    local name node
    for node in "$@"; do wanted[$node]=1; done
    while read -r name; do
      group=()
      for node in $(slurm_env_hostnames "$name"); do [[ -n ${wanted[$node]:-} ]] && group+=("$node"); done
      (( ${#group[@]} )) && groups+=("$(join_by , "${group[@]}")")
    done < <(sed -n 's/^BlockName=[^ ]* Nodes=//p' "$CFG_TOPO")
  else
    groups=("$(join_by , "$@")")
  fi
  for group in "${groups[@]}"; do
    run_salloc --exclusive -w "$group"
    if [[ $JOB_STATE != granted ]]; then
      echo "FAIL: could not make $group busy: $JOB_MSG"
      failed=$(( failed + 1 ))
      return 1
    fi
  done
}

# A sequence: some nodes made busy by `salloc -w`, then jobs that stay until the sequence ends.
# Busy nodes come from the leaves unless every job may ignore the tree (a required node
# under no switch cannot be placed by topology/tree).
run_sequence() { # JOBS SWITCH_PERCENT
  local jobs=$1 switch_pct=$2 pool=() busy_count picked j free count switches
  cancel_all || return 1
  if (( RANDOM % 3 != 0 )); then
    if [[ $PHASE_PARAM == *TopoOptional* ]]; then pool=("${ALL_NODES[@]}"); else pool=("${COVERED[@]}"); fi
    busy_count=$(rand 1 $(( ${#pool[@]} / 2 )))
    mapfile -t picked < <(shuffled "${pool[@]}" | head -n "$busy_count")
    make_busy "${picked[@]}" || return 1
  fi
  for (( j = 0; j < jobs; j++ )); do
    read_busy
    free=$(( NODE_COUNT - BUSY_COUNT ))
    # Nothing free: every request would be refused; end the sequence (the next one starts
    # from idle nodes).
    (( free > 0 )) || break
    case $(( RANDOM % 20 )) in
      0) count=$(( free + $(rand 1 3) )) ;;            # more than is free (1 in 20)
      1 | 2) count=$free ;;                            # everything left
      3 | 4 | 5 | 6 | 7 | 8) count=$(rand 1 $(( free < 8 ? free : 8 ))) ;;
      *) count=$(rand 1 "$free") ;;
    esac
    (( count > free )) && oversized=$(( oversized + 1 ))
    switches=""
    (( RANDOM % 100 < switch_pct )) && switches=$(rand 1 3)
    JOB_OPTS=()
    (( RANDOM % 100 < SEGMENT_PCT )) && random_segment "$count"
    JOB_EXCLUSIVE=--exclusive
    (( RANDOM % 100 < TOPO_PCT )) && JOB_EXCLUSIVE=--exclusive=topo
    check_job "$count" "$switches"
    # Waiting for fewer leaves: the same job with @0 (no wait) must get the nodes it waits for.
    if [[ $JOB_STATE == pending && $PREDICTED_WAIT == 1 ]]; then check_job "$count" "$switches@0"; fi
    [[ $JOB_STATE == granted ]] || (( RANDOM % 2 )) || break
  done
}

# --segment for a job of COUNT nodes: mostly a divisor of COUNT (one in five a size that does
# not divide it, or is larger), and from 25.11 the consolidate and spread flags.
random_segment() { # COUNT
  local count=$1 divisors=() d segment
  for (( d = 1; d <= count; d++ )); do (( count % d == 0 )) && divisors+=("$d"); done
  if (( RANDOM % 5 == 0 )); then segment=$(rand 1 $(( count + 2 )))
  else segment=${divisors[RANDOM % ${#divisors[@]}]}; fi
  JOB_OPTS=("--segment=$segment")
  if [[ $SLURM_ENV_RELEASE > 25.10 ]]; then
    (( RANDOM % 2 == 0 )) && JOB_OPTS+=(--consolidate-segments)
    (( RANDOM % 2 == 0 )) && JOB_OPTS+=(--spread-segments)
  fi
  return 0
}

# ---- controls: hand-worked cases where the rules of one Slurm version show ----------------

# control_case NAME BUSY N EXPECTED: the job must get EXPECTED from slurmctld, and from place.
control_case() {
  local name=$1 busy=$2 count=$3 expected=$4 before=$failed
  cancel_all || return 1
  run_salloc --exclusive -w "$busy"
  [[ $JOB_STATE == granted ]] || { echo "FAIL: control $name: could not make $busy busy: $JOB_MSG"; failed=$(( failed + 1 )); return; }
  read_busy
  check_job "$count"
  if (( failed == before )) && [[ $(canon "$JOB_NODES") != "$(canon "$expected")" ]]; then
    passed=$(( passed - 1 ))
    failed=$(( failed + 1 ))
    say "FAIL control $name: slurmctld and slurmtopo agree on $JOB_NODES, the worked example says $expected"
  fi
}

run_controls() {
  CFG_NAME=control
  CFG_DIR=$WORK/control
  mkdir -p "$CFG_DIR"
  CFG_TOPO=$CFG_DIR/topology.conf
  CFG_WEIGHTS=""
  # Two pods of two 4-node leaves; everything else on a third pod that the cases keep busy.
  cat >"$CFG_TOPO" <<'CONF'
# placement test: control, two pods of two leaves plus a busy pod
SwitchName=l1 Nodes=gpu[1-4]
SwitchName=l2 Nodes=gpu[5-8]
SwitchName=l3 Nodes=gpu[9-12]
SwitchName=l4 Nodes=gpu[13-16]
SwitchName=l5 Nodes=gpu[17-64]
SwitchName=a1 Switches=l[1-2]
SwitchName=a2 Switches=l[3-4]
SwitchName=a3 Switches=l5
SwitchName=root Switches=a[1-3]
CONF
  CFG_SWITCHES=9
  COVERED=("${ALL_NODES[@]}")
  start_slurm ""
  use_config || exit 1
  say "== control: hand-worked cases"
  # l3 first (its pod holds the job), then l4, 2 hops away, over l1 at 4 hops.
  control_case "nearby leaf" "gpu[5-7,17-64]" 6 "gpu[9-14]"
  # 22.05: after l3, l1 (3 free, 4 hops) is the tighter fit and blocks the closer l4; from
  # 24.05.3 the closer leaf wins when it fits.
  if [[ $SLURM_ENV_RELEASE == 22.05 ]]; then
    control_case "22.05 farther tighter leaf" "gpu[1,5-8,17-64]" 6 "gpu[2-3,9-12]"
  else
    control_case "24.05.3+ closer leaf that fits" "gpu[1,5-8,17-64]" 6 "gpu[9-14]"
  fi
  # Fitting leaf with the fewest free nodes: l2 (3 free) over l1, l3, l4 (4 free).
  control_case "tightest leaf" "gpu[5,17-64]" 3 "gpu[6-8]"
  # One node: the tightest leaf (l2, 1 free) up to 25.11; from 26.05 the first free node.
  if [[ $SLURM_ENV_RELEASE < 26.05 ]]; then
    control_case "one node, tightest leaf" "gpu[5-7,17-64]" 1 "gpu8"
  else
    control_case "26.05 one node, first free node" "gpu[5-7,17-64]" 1 "gpu1"
  fi
  # Largest leaf first, then the tightest fit for the rest: l1 (4) + 1 from l2 (1 free).
  control_case "best fit remainder" "gpu[6-8,10-11,14-15,17-64]" 5 "gpu[1-5]"
  # Two roots, no switch above both: a 40-node job fits under no switch even with every node
  # free. place says it never starts; slurmctld must refuse it at submission.
  cat >"$CFG_TOPO" <<'CONF'
# placement test: control, two roots
SwitchName=r1 Nodes=gpu[1-32]
SwitchName=r2 Nodes=gpu[33-64]
CONF
  CFG_SWITCHES=2
  use_config || exit 1
  cancel_all || return 1
  read_busy
  local before=$failed never_before=${NEVER:-0}
  check_job 40
  if (( failed == before && ${NEVER:-0} == never_before )); then
    failed=$(( failed + 1 ))
    say "FAIL control never: a 40-node job over two 32-node roots was not called never by both"
  fi
}

# ---- the phases -------------------------------------------------------------------------

CFG_NAME=""
new_config() { # NAME LEVELS
  CFG_NAME=$1
  CFG_DIR=$WORK/$1
  mkdir -p "$CFG_DIR"
  CFG_TOPO=$CFG_DIR/topology.conf
  gen_tree "$2"
  gen_weights
}

start_slurm() { # EXTRA_CONF
  slurm_env_stop
  export SLURM_ENV_EXTRA_CONF=$1
  printf '%s\n' "$NODE_LINES" >"$WORK/nodes"
  local t0
  t0=${EPOCHREALTIME/[.,]/}
  STARTS=$(( ${STARTS:-0} + 1 ))
  if ! slurm_env_start "$WORK/slurm-$STARTS" "$WORK/nodes" "$CFG_TOPO" 2>"$WORK/start.err"; then
    echo "FAIL: slurmctld did not start: $(head -n 3 "$WORK/start.err" | tr '\n' ' ')"
    exit 1
  fi
  if ! slurm_env_start_slurmd "${ALL_NODES[@]}" 2>"$WORK/slurmd.err"; then
    echo "FAIL: emulated slurmd: $(head -n 3 "$WORK/slurmd.err" | tr '\n' ' ')"
    exit 1
  fi
  say "slurmctld + $NODE_COUNT slurmd up in $(ms_since "$t0") ms${1:+ ($1)}"
}

# topology/block (23.11+; Debian ships it from 24.11): jobs with and without --segment, and
# from 25.11 --consolidate-segments and --spread-segments.
SEGMENT_PCT=0 TOPO_PCT=0
run_block_phase() { # CONFIGS SEQUENCES JOBS
  local configs=$1 sequences=$2 jobs=$3 c s
  PHASE_PARAM=""
  for (( c = 1; c <= configs; c++ )); do
    CFG_NAME=block-$c
    # From 25.11 the second half runs with TopologyParam=BlockAsNodeRank (the node table in
    # block order), which takes a restart.
    local restart=$(( c == 1 ))
    if [[ $SLURM_ENV_RELEASE > 25.10 ]] && (( c == configs / 2 + 1 )); then
      PHASE_PARAM=BlockAsNodeRank
      restart=1
    fi
    CFG_DIR=$WORK/$CFG_NAME
    mkdir -p "$CFG_DIR"
    CFG_TOPO=$CFG_DIR/topology.conf
    gen_block
    gen_weights
    if (( restart )); then
      # One CPU per node: a job that shares nodes (--exclusive=topo) then takes whole nodes
      # too. With more CPUs, an evaluation that fails lowers the CPUs slurmctld counts on the
      # nodes it tried, which its retry loop reads; place does not model that (docs/placement.md).
      NODE_CPUS=1
      export SLURM_ENV_NODE_ATTRS="CPUs=1 Sockets=1 CoresPerSocket=1 ThreadsPerCore=1 RealMemory=1000"
      start_slurm "TopologyPlugin=topology/block${PHASE_PARAM:+$'\n'TopologyParam=$PHASE_PARAM}"
    fi
    use_config || exit 1
    say "== $CFG_NAME${PHASE_PARAM:+ $PHASE_PARAM}: $(head -n 1 "$CFG_TOPO" | sed 's/^# placement test: //'), weights: ${CFG_WEIGHTS:-none}"
    for (( s = 0; s < sequences; s++ )); do run_sequence "$jobs" 0; done
  done
  CFG_BLOCKS="" PHASE_PARAM=""
  JOB_OPTS=()
}

run_phase() { # PHASE_PARAM CONFIGS SEQUENCES JOBS SWITCH_PERCENT
  local param=$1 configs=$2 sequences=$3 jobs=$4 pct=$5 c s
  PHASE_PARAM=$param
  for (( c = 1; c <= configs; c++ )); do
    new_config "${param:-tree}-$c" $(( c % 2 ? 2 : 3 ))
    if (( c == 1 )) && [[ -n $param ]]; then start_slurm "TopologyParam=$param"; fi
    use_config || exit 1
    say "== $CFG_NAME: $(head -n 1 "$CFG_TOPO" | sed 's/^# placement test: //'), weights: ${CFG_WEIGHTS:-none}"
    for (( s = 0; s < sequences; s++ )); do run_sequence "$jobs" "$pct"; done
  done
}

run_controls
run_phase "" 6 3 5 20
run_phase TopoOptional 3 3 5 50
run_phase Dragonfly 2 2 5 20
# topology/block: Debian's 22.05 predates it (23.11).
if [[ $SLURM_ENV_RELEASE != 22.05 ]]; then
  SEGMENT_PCT=${PLACEMENT_SEGMENT_PCT:-50} TOPO_PCT=30
  run_block_phase 4 3 5
fi

cancel_all >/dev/null
echo "elapsed: $(( SECONDS - started_at )) s (cancel+idle $(( T_CANCEL / 1000 )) s, reconfigure $(( T_CONFIG / 1000 )) s, salloc $(( T_SALLOC / 1000 )) s, slurmtopo place $(( T_PLACE / 1000 )) s), seed $SEED"
echo "Slurm $SLURM_ENV_VERSION: $(( passed + failed )) jobs, $passed agree ($granted granted the same nodes by both, $refused refused by both, ${NEVER:-0} of them never runnable by both), $failed differ; $oversized of the random jobs asked for more nodes than were free"
echo "$passed passed, $failed failed"
(( failed == 0 && passed >= 90 )) || { (( failed == 0 )) && echo "FAIL: only $passed scenarios ran"; exit 1; }

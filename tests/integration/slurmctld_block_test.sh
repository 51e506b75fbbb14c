#!/usr/bin/env bash
# Every block topology.conf and topology.yaml slurmtopo writes must load in a REAL slurmctld of
# the release it claims: `scontrol show topology` lists exactly the emitted blocks (and
# `scontrol show topoconf` every emitted topology), and the log has no topology warning or
# error. On the host's 22.05 (no topology/block, no topology.yaml) slurmtopo must refuse both
# forms, naming the release that added them, and write nothing.
#
#   bash tests/integration/slurmctld_block_test.sh /path/to/slurmtopo
#   SLURM_ENV_RELEASE=24.11|26.05 bash ...   (the _24_11 / _26_05 wrappers: Debian's packages
#                                             in a chroot, see slurm_chroot.sh)
#
# Exit 0 all passed, 1 a failure, 77 skipped (no slurmctld, not root).
set -uo pipefail
export LC_ALL=C

SLURMTOPO=${1:?usage: $0 /path/to/slurmtopo}
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(cd "$here/../.." && pwd)

skip() { echo "SKIP: $*"; exit 77; }
for tool in slurmctld scontrol munged mungekey; do command -v "$tool" >/dev/null || skip "$tool not installed"; done
(( EUID == 0 )) || skip "needs root (slurmctld runs with SlurmUser=root)"
[[ -x $SLURMTOPO ]] || { echo "FAIL: $SLURMTOPO is not an executable"; exit 1; }
SLURMTOPO=$(cd "$(dirname "$SLURMTOPO")" && pwd)/$(basename "$SLURMTOPO")

# shellcheck source-path=SCRIPTDIR
source "$here/slurm_env.sh"
release=${SLURM_ENV_VERSION%.*}
WORK=$(mktemp -d "${TMPDIR:-/tmp}/slurmctld_block_test.XXXXXX")
chmod 755 "$WORK"
trap 'slurm_env_stop; [[ -n ${KEEP_WORK:-} ]] || rm -rf "$WORK"' EXIT
trap 'exit 130' INT TERM
t_start=$(date +%s)

passed=0 failed=0
pass() { echo "PASS: $1${2:+ ($2)}"; passed=$(( passed + 1 )); }
fail() { echo "FAIL: $1: $2"; failed=$(( failed + 1 )); }
at_least() { [[ $(printf '%s\n%s\n' "$2" "$1" | sort -V | head -n1) == "$2" ]]; } # RELEASE MIN

# An NVL72-style cluster: 4 racks × 18 nodes, every GPU of rack r in NVLink domain r.
domains=$WORK/domains.txt
for r in 1 2 3 4; do
  for n in $(seq 1 18); do printf 'nvl%03d: 7a1c0de0-0000-4000-8000-%012d.32766\n' $(( (r - 1) * 18 + n )) "$r"; done
done >"$domains"
printf 'nvl[001-072]\n' >"$WORK/nvl.nodes"
# The bundled fabric's hosts, two NVLink domains of 32.
fabric=$repo/samples/superpod-4su.topo
for n in $(seq 1 64); do printf 'dgx%03d: 7a1c0de0-0000-4000-8000-%012d\n' "$n" $(( (n - 1) / 32 + 10 )); done >"$WORK/dgx-domains.txt"
printf 'dgx[001-064]\n' >"$WORK/dgx.nodes"

# Lines slurmctld logs about a topology it dislikes (the duplicate TopologyPlugin= is ours:
# slurm_env.sh writes topology/tree, the test appends topology/block, "latest value used").
BAD_LOG='[Bb]lock|[Tt]opolog|[Ss]witch|lack access|fatal'
log_problems() {
  sed 's/^\[[^]]*\] //' "$1" | grep -E "^(error|warning|fatal)" | grep -v -E 'state file|NOTE: Trying backup' |
    grep -E "$BAD_LOG" | grep -v 'TopologyPlugin 1 specified more than once' | head -n 5
}

# BLOCKNAME|sorted node list, from BlockName= lines of a file or of `scontrol show topology`.
block_table() {
  local lines
  mapfile -t lines < <(awk '{ sub(/#.*/, ""); n = ""; b = ""
      for (i = 1; i <= NF; i++) { split($i, kv, "="); k = tolower(kv[1])
        if (k == "blockname") b = kv[2]; else if (k == "nodes") n = kv[2] }
      if (b != "") print b "|" n }' "$1")
  local row
  for row in "${lines[@]}"; do
    printf '%s|%s\n' "${row%%|*}" "$(slurm_env_hostnames "${row#*|}" | sort | paste -sd, -)"
  done | sort
}
yaml_blocks() { # topology.yaml -> BLOCKNAME|nodes as block_table prints them
  awk '/- block:/ { b = $3 } /nodes:/ && b != "" { print "BlockName=" b " Nodes=" $2; b = "" }' "$1" >"$1.blocks"
  block_table "$1.blocks"
}

# start_ctld CASE_DIR NODES [TOPOLOGY_CONF] [TOPOLOGY_YAML]: slurmctld with topology/block.
start_ctld() {
  local dir=$1 nodes=$2 conf=${3:-} yaml=${4:-}
  mkdir -p "$dir/slurm"
  [[ -n $conf ]] || { conf=$dir/empty.conf; : >"$conf"; }
  [[ -z $yaml ]] || cp "$yaml" "$dir/slurm/topology.yaml"
  SLURM_ENV_EXTRA_CONF="TopologyPlugin=topology/block" slurm_env_start "$dir/slurm" "$nodes" "$conf" 2>"$dir/start.err"
}

case_no=0
new_case() { case_no=$(( case_no + 1 )); dir=$WORK/$case_no; mkdir -p "$dir/out"; }
# What slurmctld said when it would not start, on one line.
start_errors() { grep -h -m3 -E 'fatal|error' "$(slurm_env_log)" "$dir/start.err" | tr '\n' ' '; }
# ctld_up NAME NODES [TOPOLOGY_CONF] [TOPOLOGY_YAML]: start_ctld for the case in $dir; when
# slurmctld does not start, fails NAME with what it said, stops what is left, returns 1.
ctld_up() {
  local name=$1
  shift
  start_ctld "$dir" "$@" && return 0
  fail "$name" "slurmctld did not start: $(start_errors)"
  slurm_env_stop
  return 1
}

if ! at_least "$release" 23.11; then
  # --- 22.05: both forms refused before anything is written --------------------------------
  new_case
  "$SLURMTOPO" emit topology --nvlink-domains "$domains" --plugin block --slurm-version "$release" -o "$dir/out/topology.conf" \
    >"$dir/emit.out" 2>"$dir/emit.err"
  rc=$?
  if (( rc == 2 )) && [[ -z $(ls -A "$dir/out") ]] && grep -q "topology/block needs Slurm 23.11 or later (added in 23.11)" "$dir/emit.err"; then
    pass "block refused for $release" "$(cat "$dir/emit.err")"
  else
    fail "block refused for $release" "exit $rc: $(cat "$dir/emit.err")"
  fi
  new_case
  "$SLURMTOPO" emit topology --fabric "$fabric" --format yaml -o "$dir/out/topology.yaml" >"$dir/emit.out" 2>"$dir/emit.err"
  rc=$?
  if (( rc == 2 )) && [[ -z $(ls -A "$dir/out") ]] && grep -q "topology.yaml needs Slurm 25.05 or later (added in 25.05)" "$dir/emit.err"; then
    pass "topology.yaml refused for the installed $release" "$(cat "$dir/emit.err")"
  else
    fail "topology.yaml refused for the installed $release" "exit $rc: $(cat "$dir/emit.err")"
  fi
else
  # --- block topology.conf: NVLink domains, then the fabric's leaf groups -------------------
  for source in nvlink fabric; do
    new_case
    if [[ $source == nvlink ]]; then
      args=(--nvlink-domains "$domains"); nodes=$WORK/nvl.nodes
    else
      args=(--fabric "$fabric"); nodes=$WORK/dgx.nodes
    fi
    if ! "$SLURMTOPO" emit topology "${args[@]}" --plugin block --slurm-version "$release" -o "$dir/out/topology.conf" \
      >"$dir/emit.out" 2>"$dir/emit.err"; then
      fail "block from $source" "emit failed: $(cat "$dir/emit.err")"; continue
    fi
    ctld_up "block from $source" "$nodes" "$dir/out/topology.conf" || continue
    scontrol show topology >"$dir/shown" 2>&1
    slurm_env_stop
    problems=$(log_problems "$dir/slurm/slurmctld.log")
    block_table "$dir/out/topology.conf" >"$dir/want"
    block_table "$dir/shown" >"$dir/got"
    if [[ -n $problems ]]; then
      fail "block from $source" "slurmctld log: $(tr '\n' ' ' <<<"$problems")"
    elif ! diff -u "$dir/want" "$dir/got" >"$dir/diff"; then
      fail "block from $source" "scontrol show topology differs: $(head -c 600 "$dir/diff" | tr '\n' ' ')"
    else
      sizes=$(grep -o 'BlockSizes=.*' "$dir/out/topology.conf")
      aggregated=$(grep -c '^AggregatedBlock=' "$dir/shown")
      pass "block from $source on $SLURM_ENV_VERSION" "$(wc -l <"$dir/want") blocks, $sizes, $aggregated aggregated blocks shown"
    fi
  done

  # --- --block-sizes: what slurmctld accepts is written, what it finds fatal is refused ------
  # Its rule (block_record.c): each size the first times 2^k, k < 16, in any order.
  if at_least "$release" 24.05; then
    # emit_block_sizes SIZES: the NVL72 racks' blocks with these BlockSizes, into $dir/out.
    emit_block_sizes() {
      "$SLURMTOPO" emit topology --nvlink-domains "$domains" --plugin block --slurm-version "$release" \
        --block-sizes "$1" -o "$dir/out/topology.conf" >"$dir/emit.out" 2>"$dir/emit.err"
    }
    new_case
    if ! emit_block_sizes 18,72,36; then
      fail "--block-sizes 18,72,36" "emit refused what slurmctld accepts: $(cat "$dir/emit.err")"
    elif ! ctld_up "--block-sizes 18,72,36" "$WORK/nvl.nodes" "$dir/out/topology.conf"; then
      : # ctld_up said why
    else
      scontrol show topology >"$dir/shown" 2>&1
      slurm_env_stop
      problems=$(log_problems "$dir/slurm/slurmctld.log")
      if [[ -n $problems ]]; then
        fail "--block-sizes 18,72,36" "slurmctld log: $(tr '\n' ' ' <<<"$problems")"
      else
        pass "--block-sizes 18,72,36 on $SLURM_ENV_VERSION" "written as given; slurmctld shows $(grep -c '^AggregatedBlock=' "$dir/shown") aggregated blocks"
      fi
      good=$dir/out/topology.conf
      # 18 x 2^15, the last level: both take it (slurmctld uses the levels its blocks fill).
      new_case
      sed "s/^BlockSizes=.*/BlockSizes=18,$(( 18 << 15 ))/" "$good" >"$dir/by-hand.conf"
      if ! emit_block_sizes 18,$(( 18 << 15 )); then
        fail "--block-sizes 18,$(( 18 << 15 ))" "emit refused it: $(cat "$dir/emit.err")"
      elif ! ctld_up "--block-sizes 18,$(( 18 << 15 ))" "$WORK/nvl.nodes" "$dir/by-hand.conf"; then
        : # ctld_up said why
      else
        slurm_env_stop
        pass "--block-sizes 18,$(( 18 << 15 )) (the last level) taken by both on $SLURM_ENV_VERSION"
      fi
      for sizes in 18,54 18,$(( 18 << 16 )); do
        new_case
        emit_block_sizes "$sizes"
        rc=$?
        sed "s/^BlockSizes=.*/BlockSizes=$sizes/" "$good" >"$dir/by-hand.conf"
        if start_ctld "$dir" "$WORK/nvl.nodes" "$dir/by-hand.conf"; then started=1; else started=0; fi
        slurm_env_stop
        said=$(cat "$dir/slurm/"*.log "$dir/slurm/"*.out "$dir/start.err" 2>/dev/null | grep -o -m1 'Invalid BlockSizes value.*')
        if (( rc != 2 )) || [[ -n $(ls -A "$dir/out") ]] || ! grep -q "Invalid BlockSizes value: $sizes" "$dir/emit.err"; then
          fail "--block-sizes $sizes" "slurmtopo should refuse it and write nothing: exit $rc, $(cat "$dir/emit.err")"
        elif (( started )) || [[ -z $said ]]; then
          fail "--block-sizes $sizes" "slurmctld should stop on it: started=$started, said '$said'"
        else
          pass "--block-sizes $sizes refused, as slurmctld $SLURM_ENV_VERSION does" "slurmctld: $said"
        fi
      done
    fi
  fi

  # --- two faulty nodes: nvl023's GPUs report another rack's domain, nvl050's none ----------
  new_case
  sed -e 's/^nvl023: .*/nvl023: 7a1c0de0-0000-4000-8000-000000000009.32766/' -e 's/^nvl050: .*/nvl050: N\/A/' \
    "$domains" >"$dir/domains.txt"
  if ! "$SLURMTOPO" emit topology --nvlink-domains "$dir/domains.txt" --plugin block --slurm-version "$release" \
      -o "$dir/out/topology.conf" >"$dir/emit.out" 2>"$dir/emit.err"; then
    fail "two faulty nodes" "emit failed: $(cat "$dir/emit.err")"
  elif [[ $(grep -c ': anomaly: ' "$dir/emit.err") != 2 ]]; then
    fail "two faulty nodes" "expected two anomalies: $(cat "$dir/emit.err")"
  elif ! ctld_up "two faulty nodes" "$WORK/nvl.nodes" "$dir/out/topology.conf"; then
    : # ctld_up said why
  else
    scontrol show topology >"$dir/shown" 2>&1
    slurm_env_stop
    block_table "$dir/out/topology.conf" >"$dir/want"
    block_table "$dir/shown" >"$dir/got"
    lack=$(grep -io 'blocks lack access to .*' "$dir/slurm/slurmctld.log" | head -n 1) # 24.11: "blocks", 26.05: "Blocks"
    others=$(log_problems "$dir/slurm/slurmctld.log" | grep -iv 'blocks lack access')
    if ! diff -u "$dir/want" "$dir/got" >"$dir/diff"; then
      fail "two faulty nodes" "scontrol show topology differs: $(head -c 600 "$dir/diff" | tr '\n' ' ')"
    elif [[ ${lack,,} != "blocks lack access to 2 nodes: nvl[023,050]" || -n $others ]]; then
      fail "two faulty nodes" "slurmctld should say exactly that nvl023 and nvl050 are in no block: '$lack' $others"
    else
      pass "two faulty nodes on $SLURM_ENV_VERSION" "$(grep -o 'BlockSizes=.*' "$dir/out/topology.conf"); slurmctld: $lack"
    fi
  fi

  # --- topology.yaml: tree + block + flat, the block topology cluster_default ---------------
  new_case
  if ! at_least "$release" 25.05; then
    "$SLURMTOPO" emit topology --fabric "$fabric" --format yaml --slurm-version "$release" -o "$dir/out/topology.yaml" \
      >"$dir/emit.out" 2>"$dir/emit.err"
    rc=$?
    if (( rc == 2 )) && [[ -z $(ls -A "$dir/out") ]] && grep -q "added in 25.05" "$dir/emit.err"; then
      pass "topology.yaml refused for $release" "$(cat "$dir/emit.err")"
    else
      fail "topology.yaml refused for $release" "exit $rc: $(cat "$dir/emit.err")"
    fi
  elif ! "$SLURMTOPO" emit topology --fabric "$fabric" --nvlink-domains "$WORK/dgx-domains.txt" --format yaml --plugin block \
      --slurm-version "$release" -o "$dir/out/topology.yaml" >"$dir/emit.out" 2>"$dir/emit.err"; then
    fail "topology.yaml" "emit failed: $(cat "$dir/emit.err")"
  elif ! ctld_up "topology.yaml" "$WORK/dgx.nodes" "" "$dir/out/topology.yaml"; then
    : # ctld_up said why
  else
    scontrol show topology >"$dir/shown" 2>&1
    scontrol show topoconf >"$dir/topoconf" 2>&1
    slurm_env_stop
    problems=$(log_problems "$dir/slurm/slurmctld.log")
    yaml_blocks "$dir/out/topology.yaml" >"$dir/want"
    block_table "$dir/shown" >"$dir/got"
    switches=$(grep -c -- '- switch:' "$dir/out/topology.yaml")
    shown_switches=$(grep -c -- '- switch:' "$dir/topoconf")
    topologies=$(grep -c -- '^- topology:' "$dir/topoconf")
    if [[ -n $problems ]]; then
      fail "topology.yaml" "slurmctld log: $(tr '\n' ' ' <<<"$problems")"
    elif ! diff -u "$dir/want" "$dir/got" >"$dir/diff"; then
      fail "topology.yaml" "the cluster_default blocks differ: $(head -c 600 "$dir/diff" | tr '\n' ' ')"
    elif (( topologies != 3 || switches != shown_switches )); then
      fail "topology.yaml" "scontrol show topoconf: $topologies topologies, $shown_switches of $switches switches"
    else
      pass "topology.yaml on $SLURM_ENV_VERSION" "3 topologies, $switches switches, $(wc -l <"$dir/want") blocks (cluster_default) shown"
    fi
  fi
fi

echo "slurmctld_block_test ($SLURM_ENV_VERSION): $passed passed, $failed failed in $(( $(date +%s) - t_start )) s"
(( failed == 0 ))

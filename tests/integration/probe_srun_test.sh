#!/usr/bin/env bash
# `slurmtopo probe`'s script must run under a REAL Slurm (Debian's 22.05, emulated slurmd), and
# its placements must be the fabric's leaf groups. The fabric is generated (3 scalable units x 2
# hosts, so 3 leaf groups) with hosts named as the Slurm nodes, and slurmctld runs with the
# topology.conf slurmtopo emits for it. The script is submitted with sbatch; every step must run
# on exactly its placement's nodes and write DIR/<step>.out, which `report --measured DIR` reads
# back as one run per step.
#
# There is no GPU here, so all_reduce_perf is a STAND-IN (WORK/stand-in/all_reduce_perf, first
# in PATH): rank 0 replays a real nccl-tests output (tests/data/nccl/all_reduce_perf-2x8-h100.out)
# with its two hosts renamed to the step's first two nodes, and every task records its node,
# NCCL_DEBUG and arguments. It is named a stand-in wherever it appears; nothing here measures.
#
#   bash tests/integration/probe_srun_test.sh /path/to/slurmtopo
#
# KEEP_WORK=1 keeps the temp dir. Exit 0 pass, 1 fail, 77 skipped (no Slurm, not root).
set -uo pipefail
export LC_ALL=C

SLURMTOPO=${1:?usage: $0 /path/to/slurmtopo}
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
REPLAY=$(cd "$here/../data/nccl" && pwd)/all_reduce_perf-2x8-h100.out

skip() { echo "SKIP: $*"; exit 77; }
fail() { echo "FAIL: $*"; exit 1; }
for tool in slurmctld slurmd slurmstepd scontrol sbatch squeue srun munged mungekey jq; do
  command -v "$tool" >/dev/null || skip "$tool not installed"
done
(( EUID == 0 )) || skip "needs root (slurmctld runs with SlurmUser=root)"
[[ -x $SLURMTOPO ]] || fail "$SLURMTOPO is not an executable"
[[ -r $REPLAY ]] || fail "the replayed output $REPLAY is missing"
SLURMTOPO=$(cd "$(dirname "$SLURMTOPO")" && pwd)/$(basename "$SLURMTOPO")

# shellcheck source-path=SCRIPTDIR
source "$here/slurm_env.sh"
WORK=$(mktemp -d "${TMPDIR:-/tmp}/probe_srun_test.XXXXXX")
chmod 755 "$WORK" # munged wants o+x on every directory above its socket
trap 'slurm_env_stop; [[ -n ${KEEP_WORK:-} ]] || rm -rf "$WORK"' EXIT
trap 'exit 130' INT TERM

"$SLURMTOPO" generate railopt --scalable-units 3 --hosts-per-su 2 --rails 2 -k 8 --host-prefix node \
  -o "$WORK/fabric.topo" || fail "generate railopt failed"
"$SLURMTOPO" emit topology --fabric "$WORK/fabric.topo" -o "$WORK/topology.conf" >"$WORK/emit.out" 2>&1 ||
  fail "emit topology failed: $(cat "$WORK/emit.out")"
printf 'node[001-006]\n' >"$WORK/nodes"
export SLURM_ENV_NODE_ATTRS="CPUs=2 Sockets=1 CoresPerSocket=2 ThreadsPerCore=1 RealMemory=1000"
export SLURM_ENV_AUTH=munge
slurm_env_start "$WORK/slurm" "$WORK/nodes" "$WORK/topology.conf" || fail "slurmctld did not start"
slurm_env_start_slurmd node001 node002 node003 node004 node005 node006 || fail "slurmd did not register"

# The stand-in all_reduce_perf (see the header): no GPU, no NCCL, a replayed output.
mkdir -p "$WORK/stand-in" "$WORK/ran"
cat >"$WORK/stand-in/all_reduce_perf" <<'EOF'
#!/bin/sh
# STAND-IN for nccl-tests' all_reduce_perf, for probe_srun_test.sh only: no GPU here. Each task
# records where it ran and what it was given; rank 0 prints a real output with its hosts renamed.
printf '%s %s\n' "${NCCL_DEBUG:-unset}" "$*" >"$PROBE_TEST_RAN/$SLURM_STEP_ID.$SLURMD_NODENAME.$SLURM_PROCID"
[ "$SLURM_PROCID" = 0 ] || exit 0
set -- $(scontrol show hostnames "$SLURM_STEP_NODELIST")
sed -e "s/gpu-017/$1/g" -e "s/gpu-018/${2:-$1}/g" "$PROBE_TEST_REPLAY"
EOF
chmod 755 "$WORK/stand-in/all_reduce_perf"

# Debian's Slurm lists mpi/pmix but has no PMIx library to load ("can not load PMIx library"),
# and there are no GPUs: --mpi none and --gpus-per-node 0 (one task per node).
out=$WORK/probe
"$SLURMTOPO" probe --fabric "$WORK/fabric.topo" --nodes 'node[001-006]' -o "$out" --time 00:05:00 \
  --gpus-per-node 0 --mpi none >"$WORK/probe.out" 2>&1 || fail "probe failed: $(cat "$WORK/probe.out")"
script=$out/probe.sbatch
[[ -s $script ]] || fail "no $script: $(cat "$WORK/probe.out")"

# The placements, derived again from the fabric's groups as `inspect` reports them: each group
# alone, consecutive pairs and the first with the last (3 groups), one host per group, all.
mapfile -t groups < <("$SLURMTOPO" inspect --fabric "$WORK/fabric.topo" --json | jq -r '.groups[] | "\(.name) \(.nodes)"')
(( ${#groups[@]} == 3 )) || fail "expected 3 leaf groups, inspect says: ${groups[*]}"
first_host() { scontrol show hostnames "$1" | head -n 1; }
list() { scontrol show hostlist "$(IFS=,; echo "$*")"; }
expected=() i=0
for g in "${groups[@]}"; do expected+=("0$(( ++i ))-group-${g% *} ${g#* }"); done
pair() { expected+=("0$(( ++i ))-pair-${groups[$1]% *}-${groups[$2]% *} $(list "${groups[$1]#* }" "${groups[$2]#* }")"); }
pair 0 1
pair 0 2
rails=()
for g in "${groups[@]}"; do rails+=("$(first_host "${g#* }")"); done
expected+=("0$(( ++i ))-rails $(list "${rails[@]}")" "0$(( ++i ))-all node[001-006]")
# What the script runs: each srun line's --output name and -w list, in order.
mapfile -t steps < <(awk '$1 == "srun" {
    for (k = 1; k <= NF; k++) { if ($k == "-w") w = $(k + 1); if ($k ~ /^--output=/) o = $k }
    sub(/.*\//, "", o); sub(/\.out$/, "", o); gsub(/'"'"'/, "", w); print o " " w }' "$script")
[[ "${steps[*]}" == "${expected[*]}" ]] ||
  fail "the script's placements are not the fabric's groups:$(printf '\n  got      %s' "${steps[@]}")$(printf '\n  expected %s' "${expected[@]}")"
echo "PASS: the script's ${#steps[@]} steps are the fabric's 3 groups, their pairs, one host per group and all"

job=$(cd "$WORK" && PATH="$WORK/stand-in:$PATH" PROBE_TEST_RAN="$WORK/ran" PROBE_TEST_REPLAY="$REPLAY" \
  sbatch --parsable "$script" 2>&1) || fail "sbatch refused the script: $job"
deadline=$(( SECONDS + 180 ))
while (( SECONDS < deadline )) && [[ -n $(squeue -h -j "$job" -o %i 2>/dev/null) ]]; do sleep 0.5; done
[[ -z $(squeue -h -j "$job" -o %i 2>/dev/null) ]] || fail "job $job still queued after 180 s: $(squeue -h 2>&1)"
log=$WORK/slurmtopo-probe-$job.log
grep -q "slurmtopo probe: done, each step's output is in $out; next:" "$log" 2>/dev/null ||
  fail "the job did not finish the script: $(tail -n 20 "$log" 2>&1)"
grep -q "slurmtopo report --fabric $WORK/fabric.topo --measured $out" "$log" || fail "no report command: $(cat "$log")"

for k in "${!steps[@]}"; do
  name=${steps[k]% *} hosts=${steps[k]#* }
  f=$out/$name.out
  [[ -s $f ]] || fail "step $name wrote no $f: $(ls "$out") / $(tail -n 20 "$log")"
  head -n 1 "$f" | grep -q '^# nccl-tests version' || fail "$f is not the replayed output: $(head -n 3 "$f")"
  ran=$(find "$WORK/ran" -name "$k.*" -printf '%f\n' | cut -d. -f2 | sort -u | paste -sd,)
  [[ $(list "$ran") == "$(list "$hosts")" ]] || fail "step $name ($k) ran on '$ran', not on its placement $hosts"
  bad=$(cat "$WORK/ran/$k".* | sort -u | grep -vx 'INFO -b 16M -e 8G -f 2 -g 1')
  [[ -z $bad ]] || fail "step $name's all_reduce_perf got: $bad"
done
echo "PASS: under sbatch every step ran the stand-in all_reduce_perf on exactly its nodes and wrote $out/<step>.out"

# What the issue asks of the outputs: `report --measured DIR` reads them back (the script beside them).
"$SLURMTOPO" report --fabric "$WORK/fabric.topo" --measured "$out" -o "$WORK/report.html" --json "$WORK/report.json" \
  >"$WORK/report.out" 2>&1
rc=$?
(( rc != 1 && rc != 2 )) || fail "report --measured could not read the steps back (exit $rc): $(cat "$WORK/report.out")"
for k in "${!steps[@]}"; do
  name=${steps[k]% *} hosts=${steps[k]#* }
  mapfile -t two < <(scontrol show hostnames "$hosts" | head -n 2)
  got=$(jq -r --arg f "$out/$name.out" '[.measured.runs[] | select(.source | startswith($f + ":")) | .hosts] | join(" ")' \
    "$WORK/report.json")
  [[ $got == "$(list "${two[@]}")" ]] || fail "report --measured read $name as a run on '$got', not on $(list "${two[@]}")"
done
echo "PASS: report --measured reads each step's output back as one run on that step's nodes"

# The report reads the probe's placements back (DIR/probe.json) and says what each step left:
# the stand-in's replay names two hosts, so a two-host placement is "measured" and a wider one
# ran on "other hosts" (a probe-step-unmeasured warning), which is what its output holds.
[[ -s $out/probe.json ]] || fail "probe wrote no $out/probe.json beside the script"
(( $(jq '.measured.probe_steps | length' "$WORK/report.json") == ${#steps[@]} )) ||
  fail "the report has $(jq '.measured.probe_steps | length' "$WORK/report.json") probe steps, not ${#steps[@]}"
for k in "${!steps[@]}"; do
  name=${steps[k]% *} hosts=${steps[k]#* }
  n=$(scontrol show hostnames "$hosts" | wc -l)
  state=$(jq -r --arg n "$name" '.measured.probe_steps[] | select(.name == $n) | .state' "$WORK/report.json")
  if (( n == 2 )); then want=measured; else want="other hosts"; fi
  [[ $state == "$want" ]] || fail "probe step $name ($n hosts) is '$state' in the report, not '$want'"
  if (( n != 2 )); then
    jq -e --arg n "$name" '[.findings[] | select(.kind == "probe-step-unmeasured" and .subject == $n)] | length == 1' \
      "$WORK/report.json" >/dev/null || fail "no probe-step-unmeasured finding for $name"
  fi
done
echo "PASS: the report reads probe.json back: two-host steps measured, wider ones on other hosts (the stand-in's)"

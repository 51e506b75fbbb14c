#!/usr/bin/env bash
# `slurmtopo collect` must get every node's hwloc export through a REAL Slurm (Debian's 22.05,
# emulated slurmd): one srun step over the nodes, each task writing <SLURMD_NODENAME>.xml into
# the output directory, which `discover classes` then loads as one node class (the emulated
# nodes all run on this machine, so they describe the same hardware). A node list with a node
# Slurm does not know must fail without leaving an export behind.
#
#   bash tests/integration/collect_srun_test.sh /path/to/slurmtopo
#
# KEEP_WORK=1 keeps the temp dir. Exit 0 pass, 1 fail, 77 skipped (no Slurm/lstopo, not root).
set -uo pipefail
export LC_ALL=C

SLURMTOPO=${1:?usage: $0 /path/to/slurmtopo}
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)

skip() { echo "SKIP: $*"; exit 77; }
fail() { echo "FAIL: $*"; exit 1; }
for tool in slurmctld slurmd slurmstepd scontrol srun munged mungekey lstopo-no-graphics; do
  command -v "$tool" >/dev/null || skip "$tool not installed"
done
(( EUID == 0 )) || skip "needs root (slurmctld runs with SlurmUser=root)"
[[ -x $SLURMTOPO ]] || fail "$SLURMTOPO is not an executable"
SLURMTOPO=$(cd "$(dirname "$SLURMTOPO")" && pwd)/$(basename "$SLURMTOPO")

# shellcheck source-path=SCRIPTDIR
source "$here/slurm_env.sh"
slurm_env_three_nodes collect_srun_test || fail "the 3-node Slurm did not start"

out=$WORK/exports
# --container-exec env: `env` stands in for a container runtime here (it runs the probe in the
# step's own environment); what is tested is that the second probe runs and lands, not a container.
timeout 120 "$SLURMTOPO" collect --nodes 'node[1-3]' -o "$out" --time 00:02:00 --container-exec env \
  >"$WORK/collect.out" 2>&1 || fail "collect failed: $(cat "$WORK/collect.out")"
for n in node1 node2 node3; do
  [[ -s $out/$n.xml ]] || fail "no export for $n: $(ls "$out" 2>&1) / $(cat "$WORK/collect.out")"
  for rec in "$n.probe:host" "$n.container.probe:container"; do
    f=$out/${rec%%:*}
    [[ -s $f ]] || fail "no probe record ${rec%%:*}: $(ls "$out" 2>&1) / $(cat "$WORK/collect.out")"
    [[ $(head -1 "$f") == "slurmtopo-probe 1" && $(tail -1 "$f") == "slurmtopo-probe-end" ]] ||
      fail "${rec%%:*} is not a whole probe record: $(head -3 "$f") ... $(tail -2 "$f")"
    grep -qx "host $n" "$f" || fail "${rec%%:*} does not name Slurm's node $n: $(grep '^host ' "$f")"
    grep -qx "where ${rec#*:}" "$f" || fail "${rec%%:*} does not say it ran in the ${rec#*:}"
  done
done
grep -q '3 of 3 node probe records (<node>.probe), 3 of 3 from inside the container' "$WORK/collect.out" ||
  fail "collect did not count the probe records: $(cat "$WORK/collect.out")"
echo "PASS: the same step wrote each node's probe record, on the host and through --container-exec"
leftovers=$(find "$out" -name '*.tmp.*' | wc -l)
(( leftovers == 0 )) || fail "$leftovers temporary files left in $out"
echo "PASS: one srun step wrote node1.xml node2.xml node3.xml"

"$SLURMTOPO" discover classes --nodes-dir "$out" --nodes 'node[1-3]' >"$WORK/classes.out" 2>&1 ||
  fail "discover classes could not load the exports: $(cat "$WORK/classes.out")"
grep -q 'node\[1-3\]' "$WORK/classes.out" ||
  fail "the three exports are not one node class: $(cat "$WORK/classes.out")"
echo "PASS: the exports load as one node class node[1-3]"

# A node Slurm does not know: srun refuses the step; nothing may pose as an export.
out2=$WORK/exports-bad
if timeout 120 "$SLURMTOPO" collect --nodes 'node[1-4]' -o "$out2" --time 00:02:00 >"$WORK/bad.out" 2>&1; then
  fail "collect over an unknown node succeeded: $(cat "$WORK/bad.out")"
fi
found=$(find "$out2" -name '*.xml' 2>/dev/null | wc -l)
(( found == 0 )) || fail "$found exports written although the step was refused"
echo "PASS: an unknown node fails the step (exit non-zero), no export written"

#!/usr/bin/env bash
# `slurmtopo whatif --sbatch N` must run its shards through a REAL Slurm (Debian's 22.05,
# emulated slurmd) and merge them into exactly the bytes of the unsharded run: the generated
# script is run with bash, submits the job array and the merge job (afterok dependency), and
# the merged file is compared with `whatif` run in one piece.
#
#   bash tests/integration/whatif_sbatch_test.sh /path/to/slurmtopo
#
# KEEP_WORK=1 keeps the temp dir (script, shard files, job logs). Exit 0 identical, 1 not,
# 77 skipped (no slurmctld/slurmd/sbatch, not root).
set -uo pipefail
export LC_ALL=C

SLURMTOPO=${1:?usage: $0 /path/to/slurmtopo}
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)

skip() { echo "SKIP: $*"; exit 77; }
fail() { echo "FAIL: $*"; exit 1; }
for tool in slurmctld slurmd slurmstepd scontrol sbatch squeue sinfo munged mungekey; do
  command -v "$tool" >/dev/null || skip "$tool not installed"
done
(( EUID == 0 )) || skip "needs root (slurmctld runs with SlurmUser=root)"
[[ -x $SLURMTOPO ]] || fail "$SLURMTOPO is not an executable"
SLURMTOPO=$(cd "$(dirname "$SLURMTOPO")" && pwd)/$(basename "$SLURMTOPO")
FABRIC=$(cd "$here/../../samples" && pwd)/superpod-4su.topo

# shellcheck source-path=SCRIPTDIR
source "$here/slurm_env.sh"
slurm_env_three_nodes whatif_sbatch_test || fail "the 3-node Slurm did not start"

args=(--fabric "$FABRIC" --profile h100-ndr -N 16,32 --samples 9 --remove-cable su2-rail6/24 --json)
"$SLURMTOPO" whatif "${args[@]}" >"$WORK/expected.json" || fail "whatif (unsharded) failed"
"$SLURMTOPO" whatif "${args[@]}" --sbatch 3 >"$WORK/run.sh" || fail "whatif --sbatch failed"
mkdir -p "$WORK/out"
(cd "$WORK/out" && WHATIF_OUT=result bash "$WORK/run.sh" >"$WORK/submitted" 2>&1) ||
  fail "the script did not submit: $(cat "$WORK/submitted")"

deadline=$(( SECONDS + 120 ))
while (( SECONDS < deadline )); do
  [[ -z $(squeue -h -o %i 2>/dev/null) ]] && break
  sleep 0.5
done
[[ -z $(squeue -h -o %i 2>/dev/null) ]] || fail "jobs still queued after 120 s: $(squeue -h 2>&1)"
[[ -f $WORK/out/result.json ]] ||
  fail "no merged result; logs: $(tail -n 5 "$WORK"/out/*.log 2>/dev/null)"
ls "$WORK"/out/result-shard-{0,1,2}.json >/dev/null || fail "a shard file is missing"
if cmp -s "$WORK/expected.json" "$WORK/out/result.json"; then
  echo "PASS: 3 shards through Slurm (job array + merge job) give the unsharded run's bytes"
  exit 0
fi
diff "$WORK/expected.json" "$WORK/out/result.json" | head -n 20
fail "the merged output differs from the unsharded run"

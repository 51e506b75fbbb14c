#!/usr/bin/env bash
# Cabling against the plan, live: ibsim serves a generated fabric with two host cables swapped
# at a leaf and one moved to a free port (generate --swap-cables, --move-cable); the plan is the
# same fabric as generated without them. `discover fabric --plan` must name both faults with
# their fix and nothing else; against a plan equal to the fabric it names nothing.
#
#   bash tests/integration/ibsim_plan_test.sh /path/to/slurmtopo
#
# Exit 0 all passed, 1 a failure, 77 skipped (ibsim/OpenSM missing).
set -uo pipefail
export LC_ALL=C

SLURMTOPO=${1:?usage: $0 /path/to/slurmtopo}
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
skip() { echo "SKIP: $*"; exit 77; }
# shellcheck source-path=SCRIPTDIR
source "$here/ibsim_env.sh"
why=$(ibsim_env_check) || skip "$why"
[[ -x $SLURMTOPO ]] || { echo "FAIL: $SLURMTOPO is not an executable"; exit 1; }
SLURMTOPO=$(cd "$(dirname "$SLURMTOPO")" && pwd)/$(basename "$SLURMTOPO")

WORK=$(mktemp -d "${TMPDIR:-/tmp}/ibsim_plan_test.XXXXXX")
trap 'ibsim_env_stop; [[ -n ${KEEP_WORK:-} ]] && echo "kept $WORK" || rm -rf "$WORK"' EXIT
trap 'exit 130' INT TERM

passed=0 failed=0
pass() { echo "PASS: $1"; passed=$(( passed + 1 )); }
fail() { echo "FAIL: $1: $2"; failed=$(( failed + 1 )); }
cd "$WORK" || exit 1

gen=(generate railopt --scalable-units 2 --hosts-per-su 4 --rails 1 -k 16 --speed HDR)
"$SLURMTOPO" "${gen[@]}" -o plan.topo || { fail "generate the plan" "exit $?"; exit 1; }
"$SLURMTOPO" "${gen[@]}" --swap-cables 'su1-rail0[1],su1-rail0[2]' --move-cable 'su2-rail0[3],su2-rail0[12]' \
  --format ibsim -o fabric.net || { fail "generate the fabric" "exit $?"; exit 1; }
ibsim_env_start "$WORK/sim" fabric.net minhop || { fail "ibsim + OpenSM" "no SUBNET UP"; exit 1; }

ibsim_env_run "$SLURMTOPO" discover fabric --plan "$WORK/plan.topo" --save "$WORK/swept.json" >live.txt 2>live.err
rc=$?
findings=$(grep -E '^  plan-' live.txt)
if (( rc != 0 )); then
  fail "discover fabric --plan" "exit $rc: $(cat live.err)"
elif [[ $(grep -c . <<<"$findings") != 2 ]]; then
  fail "discover fabric --plan: two findings" "$findings"
else
  pass "discover fabric --plan: two findings"
fi
grep -q '^  plan-swapped-cables  su1-rail0 ports 1 and 2: .*: swap the cables in su1-rail0 ports 1 and 2$' live.txt &&
  pass "the swap, with the ports to swap" || fail "swap" "$findings"
grep -q '^  plan-wrong-port  su2-rail0\[3\] - dgx007 mlx5_0: .*: move the cable in su2-rail0 port 12 to port 3$' live.txt &&
  pass "the moved cable, with where it goes back" || fail "move" "$findings"

# The sweep saved is the fabric as it is: as a plan for itself, nothing to say.
"$SLURMTOPO" inspect --fabric "$WORK/swept.json" --plan "$WORK/swept.json" >same.txt 2>&1
if grep -q 'cabling plan (.*): \([0-9]*\) of \1 planned cables as planned' same.txt && ! grep -q '^  plan-' same.txt; then
  pass "the sweep against itself: every cable as planned"
else
  fail "the sweep against itself" "$(grep -E 'cabling plan|plan-' same.txt)"
fi

echo "$passed passed, $failed failed"
(( failed == 0 ))
